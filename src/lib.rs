//! satsoko: Sokoban solved by SAT.
//!
//! The data path is level → static analysis → CNF layers → model → plan → replay:
//! [`level`] reads boards, [`rules`] is the game, [`analysis`] finds static facts,
//! [`sat`] is the solver layer, [`encode`] turns a level into CNF and models back into
//! plans, and [`driver`] grows the bound until a plan is found.

pub mod analysis;
pub mod astar;
pub mod cli;
pub mod driver;
pub mod encode;
pub mod level;
pub mod pathfind;
pub mod pdr;
pub mod plan;
pub mod position_table;
pub mod rules;
pub mod sat;
pub mod search;
