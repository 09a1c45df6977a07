//! satsoko: Sokoban solved by SAT.
//!
//! The data path is level → static analysis → engine → plan → replay → output:
//! [`level`] reads boards; [`game`] is the rules (one move, the replay of a plan, the
//! player's region and walks); [`analysis`] finds static facts (dead squares,
//! distances, deadlock patterns, lower bounds, the heuristic); [`sat`] is the solver
//! layer; [`encode`] turns a level into time-indexed CNF and models back into plans;
//! [`engine`] holds the engines behind one contract; [`cli`] is the only layer that
//! talks to a person.
//!
//! The API documentation is for contributors (`cargo doc --document-private-items`),
//! so public items may link to the private ones that implement them.
#![allow(rustdoc::private_intra_doc_links)]

pub mod analysis;
pub mod binairo;
pub mod cert;
pub mod cli;
pub mod encode;
pub mod engine;
pub mod game;
pub mod level;
pub mod sat;
pub mod stop;
