//! The game: the rules (one move, with ice slides, and the replay of a plan), plans and
//! their LURD form, the player's region (the one flood fill) and the walks between
//! pushes. Every plan any engine produces is replayed here before it is shown.

pub mod plan;
pub mod push_moves;
pub mod region;
pub mod rules;
pub mod walk;

pub use plan::{Metric, Move, Plan, VerifyError};
pub use push_moves::{PushMove, PushMoves, one_cell_push};
pub use region::{Region, player_region};
pub use rules::{
    Convention, Illegal, MoveEffect, Replay, ReplayError, State, apply_move, replay, replay_in,
};
pub use walk::plan_from_pushes;
