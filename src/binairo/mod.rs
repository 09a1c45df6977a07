//! Binairo (Takuzu) on satsoko's SAT layer: grids and their rules ([`grid`]), the
//! formula ([`encode`]), solving with a uniqueness check through any in-process
//! backend ([`solve`]), the constraint-propagation baselines ([`csp`]) and a
//! brute-force counter for the oracle tests ([`brute`]).

pub mod brute;
pub mod csp;
pub mod encode;
pub mod generate;
pub mod grid;
pub mod solve;
