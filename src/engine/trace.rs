//! Traces of a best-first search, as data: each node it expands, with its costs, sent
//! to a sink the [`Task`](super::Task) carries (`solve --trace`). The CLI prints them.

use crate::game::Move;
use crate::level::{Cell, Direction};

/// One node a best-first search takes off its queue: one it expands, or, the last, the
/// solved one it stops at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expansion {
    /// The key it was taken off the queue at: `g + h`.
    pub f: u32,
    /// The cost of the best path found to it, in the metric searched.
    pub g: u32,
    /// The heuristic's lower bound on the cost left.
    pub h: u32,
    /// The step that reached it on that path (`None`: the start).
    pub via: Option<TracedStep>,
    /// Whether every box stands on a goal (the search stops there).
    pub solved: bool,
}

/// The step that reached a traced node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TracedStep {
    /// The box on `from` pushed in `dir` (the search over push positions).
    Push {
        /// The box's cell before the push.
        from: Cell,
        /// The direction of the push.
        dir: Direction,
    },
    /// One move of the player, pushing or not (the search over whole states).
    Move(Move),
}

/// Where a search sends its expansions as it makes them. It is shared with the search's
/// thread, so it takes `&self`.
pub trait SearchTrace: Sync {
    /// Takes one expansion, in the order the search makes them.
    fn expansion(&self, e: &Expansion);
}
