//! The unrolled `pushes` formula asked for a target instead of the goal: from some
//! position, the fewest pushes after which the boxes stand on given cells (a whole
//! position, or some goals filled), the bound grown one step at a time on one
//! incremental solver. The SAT shortening of a plan asks it for a window's end, the
//! goal-by-goal planner for the next subgoal.

use super::push_search::Push;
use super::tuning::Questions;
use super::{Stop, Task};
use crate::encode::pushes::{PushesEncoding, Reach, Target};
use crate::encode::{Decoded, Encoding, QUESTION_BUDGET, folded_step_size, pushes_step_size};
use crate::game::{Plan, State, apply_move};
use crate::level::Level;
use crate::sat::{Lit, SolveResult};

/// What one question to the formula found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reached {
    /// The pushes of a way to the target, the fewest of any (counted from the first
    /// bound asked).
    Pushes(Vec<Push>),
    /// No way within the bounds asked.
    None,
    /// The formula of the bound reached would not fit in the question's budget of
    /// variables and clauses: nothing more was asked.
    TooBig,
    /// Stopped, or the solver failed.
    Stopped,
}

/// Asks for the fewest pushes (box lines if `lines`: `pushes-folded`), from `min` up to
/// `max` in steps of `step`, that take
/// `start` (a level whose position is the one to start from) to `target`, in a formula
/// of at most [`QUESTION_BUDGET`] variables and clauses. The formula's analysis is
/// `task`'s, without the matching potential (a target off the goals allows none).
pub fn fewest_pushes(
    task: &Task,
    start: &Level,
    target: &Target,
    (min, max, step): (usize, usize, usize),
    lines: bool,
    stop: &Stop,
) -> Reached {
    let budget = QUESTION_BUDGET;
    let mut analysis = task.analysis.clone();
    analysis.matching_potential = None;
    let Ok(mut backend) = task.solver.backend(Some(stop.interrupt())) else {
        return Reached::Stopped;
    };
    // A question whose first bound does not fit is not asked.
    let reach = question_reach(task);
    let step_size = match lines {
        true => folded_step_size(start, &analysis),
        false => pushes_step_size(start, &analysis, reach),
    };
    if step_size.saturating_mul(min.max(1) as u64) > budget {
        return Reached::TooBig;
    }
    let mut encoding = match lines {
        true => PushesEncoding::folded(start, &analysis),
        false => PushesEncoding::new(start, &analysis, reach),
    };
    let mut k = min;
    while k <= max {
        while encoding.steps() < k {
            let stats = backend.stats();
            if stats.variables + stats.clauses + step_size > budget {
                return Reached::TooBig;
            }
            if encoding.add_step(backend.as_mut(), stop).is_err() {
                return Reached::Stopped;
            }
        }
        let wanted = encoding.target_literal(k, target, backend.as_mut());
        match backend.solve(&[wanted]) {
            SolveResult::Sat => {
                let vars = backend.stats().variables as u32;
                let model: Vec<bool> = (0..=vars)
                    .map(|v| v > 0 && backend.value(Lit::positive(v)))
                    .collect();
                let value = |l: Lit| model[l.var() as usize] == l.is_positive();
                let Decoded::Plan(plan) = encoding.decode(k, &value, backend.as_mut()) else {
                    return Reached::Stopped;
                };
                return match pushes_of(start, &plan) {
                    Some(pushes) => Reached::Pushes(pushes),
                    None => Reached::Stopped,
                };
            }
            SolveResult::Unsat => k += step,
            SolveResult::Unknown => return Reached::Stopped,
        }
    }
    Reached::None
}

/// The reachability of the questions: the layers of `pushes`, or the walk of
/// `pushes-path` under `--questions path`.
pub fn question_reach(task: &Task) -> Reach {
    match task.tuning.questions {
        Questions::Path => Reach::Path,
        Questions::Both | Questions::Layers | Questions::Folded => Reach::Layered,
    }
}

/// The pushes of a plan from `level`'s start, as (box cell, direction).
pub fn pushes_of(level: &Level, plan: &Plan) -> Option<Vec<Push>> {
    let mut state = State::initial(level);
    let mut pushes = Vec::new();
    for m in &plan.moves {
        let effect = apply_move(level, &mut state, m.dir).ok()?;
        if let Some((from, _)) = effect.box_move {
            pushes.push((from, m.dir));
        }
    }
    Some(pushes)
}
