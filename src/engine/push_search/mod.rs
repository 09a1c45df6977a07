//! The one push search: what astar, pdr and the plan finder share. Positions are
//! stored once, densely ([`arena`]); the pushes between them come from game/'s one push
//! rule and the analysis's deadlock filter ([`graph`]); nodes wait in a best-first
//! queue ([`queue`]); and every search ends in a [`SearchAnswer`] that becomes an
//! outcome here.

pub mod arena;
pub mod graph;
pub mod queue;

pub use arena::{Arena, Step};
pub use graph::{Child, PushGraph};
pub use queue::{BestFirst, Buckets};

use super::{About, Outcome, SolveError, StopReason, Task, Verdict};
use crate::game::{Metric, Plan, plan_from_pushes};
use crate::level::{Cell, Direction};

/// One push: the cell of the box before it, and the direction.
pub type Push = (Cell, Direction);

/// How a search over pushes ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchAnswer {
    /// A plan, as its pushes (push-optimal when the search proves optima).
    Plan(Vec<Push>),
    /// No plan of at most this many pushes exists.
    NoneWithin(usize),
    /// No plan exists at all; why, in words.
    Unsolvable(String),
    /// Stopped by a limit or from outside before an answer.
    Stopped(StopReason),
}

/// The outcome of a push search: the plan gets its walks (the gate replays it), and is
/// optimal when the search proves optima.
pub fn outcome(about: &About, task: &Task, answer: SearchAnswer) -> Result<Outcome, SolveError> {
    let verdict = match answer {
        SearchAnswer::Plan(pushes) => Verdict::Solved {
            plan: plan_of(task, &pushes, about.name)?,
            optimal: about.optimal,
        },
        SearchAnswer::NoneWithin(bound) => Verdict::NoPlan { bound },
        SearchAnswer::Unsolvable(reason) => Verdict::Unsolvable { reason },
        SearchAnswer::Stopped(why) => Verdict::Stopped { why },
    };
    Ok(Outcome::new(about, Metric::Pushes, verdict))
}

/// Runs `f` on a push task for the level `text` (the default solver, no bound).
#[cfg(test)]
pub(crate) fn on_task<R>(text: &str, f: impl FnOnce(&Task) -> R) -> R {
    let level = crate::level::parse_xsb("t", text).unwrap().remove(0);
    let analysis = crate::analysis::Analysis::new(&level);
    let solver = crate::sat::SolverChoice::default();
    f(&Task {
        level: &level,
        analysis: &analysis,
        metric: Metric::Pushes,
        encoding: None,
        solver: &solver,
        max_steps: None,
        tuning: crate::engine::Tuning::default(),
        trace: None,
    })
}

/// The plan of `pushes` on `task`'s level, with its walks; a push the rules refuse is
/// an internal error of the search `by`.
pub fn plan_of(task: &Task, pushes: &[Push], by: &str) -> Result<Plan, SolveError> {
    plan_from_pushes(task.level, pushes)
        .map_err(|i| SolveError::Internal(format!("the {by} plan cannot make its push {}", i + 1)))
}

/// Bounds, a dead level and a solved start: what every push search must answer
/// (`run` solves a level text within a number of pushes).
#[cfg(test)]
pub(crate) fn check_bounds_and_dead_levels(run: &dyn Fn(&str, usize) -> SearchAnswer) {
    let text = "########\n#@ $  .#\n########\n";
    assert_eq!(run(text, 2), SearchAnswer::NoneWithin(2));
    assert!(matches!(run(text, 3), SearchAnswer::Plan(p) if p.len() == 3));
    // A box in a corner, off its goal: dead.
    assert!(matches!(
        run("#####\n#.  #\n# @$#\n#####\n", 10),
        SearchAnswer::Unsolvable(_)
    ));
    // Already solved.
    assert_eq!(run("####\n#@*#\n####\n", 10), SearchAnswer::Plan(vec![]));
}
