//! The planning loop: from the lower bound, add one layer at a time and ask for the goal
//! at step k under an assumption, so everything the solver learned carries over to k+1.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::analysis::Analysis;
use crate::encode::EncodingKind;
use crate::level::Level;
use crate::plan::Plan;
use crate::sat::{SatBackend, SolveResult};

/// What the driver is asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Which encoding to unroll.
    pub encoding: EncodingKind,
    /// The largest number of steps to try.
    pub max_steps: usize,
}

/// How a level ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A verified plan.
    Solved {
        /// The plan, already replayed by the rules engine.
        plan: Plan,
        /// Steps of the encoding that found it.
        k: usize,
        /// The metric the plan is proved optimal for, if any.
        optimal: Option<&'static str>,
    },
    /// Proved to have no solution at all.
    Unsolvable {
        /// Why, in words.
        reason: String,
    },
    /// No plan of at most `bound` steps exists (proved).
    NoPlan {
        /// The largest bound that was tried.
        bound: usize,
    },
    /// Stopped from outside before an answer.
    Cancelled,
}

/// The verdict with the sizes and the time it took.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// The encoding used.
    pub encoding: EncodingKind,
    /// The solver's name.
    pub solver: &'static str,
    /// Variables in the formula at the last k.
    pub variables: u64,
    /// Clauses in the formula at the last k.
    pub clauses: u64,
    /// Wall-clock time from analysis to verdict.
    pub elapsed: Duration,
}

/// Reported before each solve call.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The bound being tried.
    pub k: usize,
    /// Variables so far.
    pub variables: u64,
    /// Clauses so far.
    pub clauses: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// A bug: the encoding produced a plan the rules engine rejects. Never printed as a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InternalError(pub String);

impl std::fmt::Display for InternalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "internal error (please report): {}", self.0)
    }
}

impl std::error::Error for InternalError {}

/// Solves `level`: grows k from the lower bound to `options.max_steps`, asking for the
/// goal at k under an assumption. Every plan is replayed before it is returned.
pub fn solve(
    level: &Level,
    options: &Options,
    mut backend: Box<dyn SatBackend>,
    progress: &mut dyn FnMut(&Progress),
    cancel: &AtomicBool,
) -> Result<Outcome, InternalError> {
    let start = Instant::now();
    let analysis = Analysis::new(level);
    let metric = options.encoding.metric();
    let finish = |verdict, backend: &dyn SatBackend| {
        let stats = backend.stats();
        Outcome {
            verdict,
            encoding: options.encoding,
            solver: backend.name(),
            variables: stats.variables,
            clauses: stats.clauses,
            elapsed: start.elapsed(),
        }
    };
    if let Some(reason) = analysis.unsolvable.clone() {
        return Ok(finish(Verdict::Unsolvable { reason }, backend.as_ref()));
    }
    let lower = match options.encoding {
        EncodingKind::Moves => analysis.move_lower_bound,
    };
    if lower > options.max_steps {
        let verdict = Verdict::NoPlan {
            bound: options.max_steps,
        };
        return Ok(finish(verdict, backend.as_ref()));
    }

    let mut encoding = options.encoding.build(level, &analysis, backend.as_mut());
    for k in lower..=options.max_steps {
        while encoding.steps() < k {
            encoding.add_step(backend.as_mut());
        }
        if cancel.load(Ordering::Relaxed) {
            return Ok(finish(Verdict::Cancelled, backend.as_ref()));
        }
        let goal = encoding.goal_literal(k, backend.as_mut());
        let stats = backend.stats();
        progress(&Progress {
            k,
            variables: stats.variables,
            clauses: stats.clauses,
            elapsed: start.elapsed(),
        });
        match backend.solve(&[goal]) {
            SolveResult::Sat => {
                let plan = encoding.decode(k, &|l| backend.value(l));
                plan.verify(level).map_err(|e| {
                    InternalError(format!(
                        "the {} encoding produced the plan {} (k={k}), which fails replay: {e}",
                        options.encoding,
                        plan.lurd()
                    ))
                })?;
                let verdict = Verdict::Solved {
                    plan,
                    k,
                    optimal: Some(metric),
                };
                return Ok(finish(verdict, backend.as_ref()));
            }
            SolveResult::Unsat if !backend.assumptions_used() => {
                // No sequence of k legal moves exists at all, so no longer plan either,
                // and every shorter bound was already refuted.
                let reason = format!("no sequence of {k} legal steps exists");
                return Ok(finish(Verdict::Unsolvable { reason }, backend.as_ref()));
            }
            SolveResult::Unsat => {}
            SolveResult::Unknown => {
                return Ok(finish(Verdict::Cancelled, backend.as_ref()));
            }
        }
    }
    let verdict = Verdict::NoPlan {
        bound: options.max_steps,
    };
    Ok(finish(verdict, backend.as_ref()))
}
