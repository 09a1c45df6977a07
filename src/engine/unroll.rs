//! The incremental bounded planner: from the lower bound, add one layer of the
//! time-indexed formula at a time and ask for the goal at step k under an assumption,
//! so everything the solver learned carries over to k + 1. The first satisfiable k is
//! optimal for the encoding's metric.

use std::time::Instant;

use super::{
    About, Engine, FormulaSize, Incumbent, Outcome, SatUse, SolveError, Status, Stop, StopReason,
    Task, Verdict,
};
use crate::analysis::Analysis;
use crate::encode::ice_moves::{MAX_OUTCOME_CELLS, outcome_cells};
use crate::encode::{
    Decoded, Encoding, EncodingKind, FORMULA_BUDGET, QUESTION_BUDGET, layered_step_size,
};
use crate::game::{Metric, Plan};
use crate::level::Level;
use crate::sat::{Lit, SatBackend, SolveResult};

/// The time-indexed formula of an encoding, unrolled one step more per bound.
pub struct Unroll;

static ABOUT: About = About {
    name: "unroll",
    summary: "the time-indexed formula of --encoding, one step more per bound",
    metrics: &[Metric::Pushes, Metric::Moves],
    optimal: true,
    sat: SatUse::Any,
    encodings: true,
    ice: true,
    cores: 1,
    auto: true,
    fewest_moves_among_optimal: false,
    traces: false,
};

impl Engine for Unroll {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn encoding(&self, task: &Task) -> Option<EncodingKind> {
        Some(encoding_for(task).0)
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        let backend = task
            .solver
            .backend(Some(stop.interrupt()))
            .map_err(SolveError::Unsupported)?;
        solve(task, backend, stop, board)
    }
}

/// The encoding `task` is unrolled with, and the one asked for when the level needed
/// another: the pushes encodings do not model ice, so such levels are solved with
/// `moves`.
fn encoding_for(task: &Task) -> (EncodingKind, Option<EncodingKind>) {
    let asked = task
        .encoding
        .unwrap_or_else(|| EncodingKind::for_metric(task.metric));
    if task.level.has_ice() && !asked.supports_ice() {
        (EncodingKind::Moves, Some(asked))
    } else {
        (asked, None)
    }
}

/// Grows k from the lower bound (to `task.max_steps`, if set), asking for the goal at k
/// under an assumption, until a plan is found, the bound is refuted for good, the
/// bound meets a plan on `board`, or `stop` says stop. Each refuted bound raises the
/// board's lower bound.
fn solve(
    task: &Task,
    mut backend: Box<dyn SatBackend>,
    stop: &Stop,
    board: &Incumbent,
) -> Result<Outcome, SolveError> {
    let (level, analysis) = (task.level, task.analysis);
    let (kind, fallback_from) = encoding_for(task);
    check_supported(level, kind)?;
    let lower = kind.lower_bound(analysis);
    // A formula that cannot reach the lower bound within the budget can never answer:
    // say so before building it. The layered steps' size is known beforehand; the
    // others' is measured on the first step.
    // A step bigger than a question's budget is refused too: the solver would read
    // the stop too seldom (see QUESTION_BUDGET).
    let too_big = |step: u64, base: u64| {
        let at_lower = base.saturating_add(step.saturating_mul(lower.max(1) as u64));
        let instead = if kind == EncodingKind::Pushes {
            "--encoding pushes-lazy, or "
        } else {
            ""
        };
        let why = if step > QUESTION_BUDGET {
            format!(
                "one step would hold about {step} variables and clauses, more than {QUESTION_BUDGET}"
            )
        } else if at_lower > FORMULA_BUDGET {
            format!(
                "at the lower bound of {lower} steps it would hold about {at_lower} variables \
                 and clauses, more than the {FORMULA_BUDGET} that fit in memory"
            )
        } else {
            return None;
        };
        Some(SolveError::Unsupported(format!(
            "the {kind} formula is too big for this level: {why}; use {instead}--engine pdr \
             or astar"
        )))
    };
    let metric = kind.metric();
    let mut cuts = 0;
    let finish = |verdict, backend: &dyn SatBackend, cuts: usize| {
        let mut o = Outcome::new(&ABOUT, metric, verdict);
        o.encoding = Some(kind);
        o.fallback_from = fallback_from;
        o.solver = Some(backend.name().to_string());
        o.formula = Some(FormulaSize::of(backend));
        o.stats.cuts = (kind == EncodingKind::PushesLazy).then_some(cuts as u64);
        o
    };
    let last = task.max_steps.unwrap_or(usize::MAX);
    if lower > last {
        let verdict = Verdict::NoPlan { bound: last };
        return Ok(finish(verdict, backend.as_ref(), cuts));
    }
    // Refused before the formula is built, but after the answer that needs none.
    if kind == EncodingKind::Pushes
        && let Some(refusal) = too_big(layered_step_size(level, &analysis.region), 0)
    {
        return Err(refusal);
    }
    let mut encoding = kind.build(level, analysis, backend.as_mut());
    let parity = kind.parity(analysis);
    // The largest step so far, in variables and clauses.
    let mut step_size = 0;
    for k in lower..=last {
        if parity.is_some_and(|p| k % 2 != p) {
            continue; // no plan has this many pushes (see Analysis::push_parity)
        }
        // Every shorter bound is refuted: k is a proven lower bound.
        board.raise_lower(k);
        let why = if board.closed() {
            Some(StopReason::Closed)
        } else {
            stop.should_stop().then_some(StopReason::Time)
        };
        if let Some(why) = why {
            return Ok(finish(Verdict::Stopped { why }, backend.as_ref(), cuts));
        }
        // The first bound is the lower bound, which on a large level is many steps
        // from step 0: the stop is asked before each step and within it.
        while encoding.steps() < k {
            let before = size_of(backend.as_ref());
            let why = if before + step_size > FORMULA_BUDGET {
                let size = FormulaSize::of(backend.as_ref());
                StopReason::FormulaFull { size }
            } else if encoding.add_step(backend.as_mut(), stop).is_err() {
                StopReason::Time
            } else {
                step_size = step_size.max(size_of(backend.as_ref()) - before);
                if encoding.steps() == 1
                    && let Some(refusal) = too_big(step_size, before)
                {
                    return Err(refusal);
                }
                continue;
            };
            return Ok(finish(Verdict::Stopped { why }, backend.as_ref(), cuts));
        }
        encoding.goal_literal(k, backend.as_mut());
        board.set_status(Status {
            bound: Some(k),
            formula: Some(FormulaSize::of(backend.as_ref())),
        });
        match solve_bound(level, encoding.as_mut(), backend.as_mut(), k)? {
            Bound::Plan(plan, n) => {
                cuts += n;
                let verdict = Verdict::Solved {
                    plan,
                    optimal: true,
                };
                return Ok(finish(verdict, backend.as_ref(), cuts));
            }
            Bound::Unsat {
                clauses_alone,
                cuts: n,
            } => {
                cuts += n;
                if clauses_alone {
                    // No sequence of k legal steps can begin a plan (the clauses without
                    // the goal hold for every prefix of a shortest plan), so no longer
                    // plan exists either, and every shorter bound was already refuted.
                    let reason = format!("no sequence of {k} legal steps can begin a plan");
                    let verdict = Verdict::Unsolvable { reason };
                    return Ok(finish(verdict, backend.as_ref(), cuts));
                }
            }
            Bound::Unknown => {
                let verdict = Verdict::Stopped {
                    why: StopReason::Time,
                };
                return Ok(finish(verdict, backend.as_ref(), cuts));
            }
        }
    }
    Ok(finish(
        Verdict::NoPlan { bound: last },
        backend.as_ref(),
        cuts,
    ))
}

/// The variables and clauses of the formula in `backend`.
fn size_of(backend: &dyn SatBackend) -> u64 {
    let stats = backend.stats();
    stats.variables + stats.clauses
}

/// The answer for one bound k.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A verified plan of k steps, after this many cuts.
    Plan(Plan, usize),
    /// No plan of k steps; `clauses_alone` when even without the goal no k steps exist.
    Unsat {
        /// The formula is unsatisfiable without the goal assumption.
        clauses_alone: bool,
        /// Cuts added on the way.
        cuts: usize,
    },
    /// The solver gave up.
    Unknown,
}

/// Asks for the goal at exactly k (the layers up to k must exist). A lazy encoding may
/// turn models down and add cuts; this solves again until a model is a real plan or the
/// bound is refuted. Plans are replayed here.
pub fn solve_bound(
    level: &Level,
    encoding: &mut dyn Encoding,
    backend: &mut dyn SatBackend,
    k: usize,
) -> Result<Bound, SolveError> {
    let goal = encoding.goal_literal(k, backend);
    let kind = encoding.kind();
    let mut cuts = 0;
    loop {
        match backend.solve(&[goal]) {
            SolveResult::Sat => {
                let vars = backend.stats().variables as u32;
                let model: Vec<bool> = (0..=vars)
                    .map(|v| v > 0 && backend.value(Lit::positive(v)))
                    .collect();
                let value = |l: Lit| model[l.var() as usize] == l.is_positive();
                let plan = match encoding.decode(k, &value, backend) {
                    Decoded::Plan(plan) => plan,
                    Decoded::Refined(n) => {
                        cuts += n;
                        continue;
                    }
                    Decoded::Invalid(why) => {
                        return Err(SolveError::Internal(format!(
                            "the {kind} encoding gave a model that is not a plan (k={k}): {why}"
                        )));
                    }
                };
                // Replayed here too: a sweep reports a row as SAT only for a real plan.
                plan.verify(level).map_err(|e| {
                    SolveError::Internal(format!(
                        "the {kind} encoding (k={k}) produced the plan {}, which fails \
                         replay: {e}",
                        plan.lurd()
                    ))
                })?;
                return Ok(Bound::Plan(plan, cuts));
            }
            SolveResult::Unsat => {
                return Ok(Bound::Unsat {
                    clauses_alone: !backend.assumptions_used(),
                    cuts,
                });
            }
            SolveResult::Unknown => {
                return match backend.failure() {
                    Some(why) => Err(SolveError::Solver(why)),
                    None => Ok(Bound::Unknown),
                };
            }
        }
    }
}

/// Whether `kind` can encode `level` (ice needs an encoding that models slides, and
/// lines of ice short enough for its outcome table).
pub fn check_supported(level: &Level, kind: EncodingKind) -> Result<(), SolveError> {
    if level.has_ice() && !kind.supports_ice() {
        return Err(SolveError::Unsupported(format!(
            "the {kind} encoding does not handle ice yet; this level has ice"
        )));
    }
    if level.has_ice() {
        let cells = outcome_cells(level);
        if cells > MAX_OUTCOME_CELLS {
            return Err(SolveError::Unsupported(format!(
                "the lines of ice are too long for the {kind} encoding: its moves would read \
                 about {cells} cells per step (at most {MAX_OUTCOME_CELLS}); use --engine \
                 astar"
            )));
        }
    }
    Ok(())
}

/// One row of a bound sweep.
#[derive(Clone, Debug)]
pub struct SweepRow {
    /// The bound.
    pub k: usize,
    /// The answer for the goal at exactly k.
    pub result: SolveResult,
    /// Variables in the formula.
    pub variables: u64,
    /// Clauses in the formula.
    pub clauses: u64,
    /// Solver conflicts during this call, if reported.
    pub conflicts: Option<u64>,
    /// Solver decisions during this call, if reported.
    pub decisions: Option<u64>,
    /// Cuts a lazy encoding added for this k.
    pub cuts: usize,
    /// Seconds this k took (adding its layer and solving).
    pub seconds: f64,
}

/// Solves the goal at every k in `from..=to` on one incremental solver (not stopping at
/// the first SAT), calling `row` after each k.
pub fn sweep(
    level: &Level,
    encoding: EncodingKind,
    mut backend: Box<dyn SatBackend>,
    from: usize,
    to: usize,
    row: &mut dyn FnMut(&SweepRow),
) -> Result<(), SolveError> {
    check_supported(level, encoding)?;
    let analysis = Analysis::new(level);
    let mut enc = encoding.build(level, &analysis, backend.as_mut());
    for k in from..=to {
        let start = Instant::now();
        let before = backend.stats();
        while enc.steps() < k {
            // A sweep is asked for every bound of its range, however long that takes.
            (enc.add_step(backend.as_mut(), &Stop::never())).expect("never stopped");
        }
        let wrong_parity = encoding.parity(&analysis).is_some_and(|p| k % 2 != p);
        let (result, cuts) = if analysis.unsolvable.is_some() || wrong_parity {
            // Refuted without the solver: by static analysis, or by the push parity.
            (SolveResult::Unsat, 0)
        } else {
            match solve_bound(level, enc.as_mut(), backend.as_mut(), k)? {
                Bound::Plan(_, cuts) => (SolveResult::Sat, cuts),
                Bound::Unsat { cuts, .. } => (SolveResult::Unsat, cuts),
                Bound::Unknown => (SolveResult::Unknown, 0),
            }
        };
        let after = backend.stats();
        let delta = |a: Option<u64>, b: Option<u64>| Some(a? - b.unwrap_or(0));
        row(&SweepRow {
            k,
            result,
            variables: after.variables,
            clauses: after.clauses,
            conflicts: delta(after.conflicts, before.conflicts),
            decisions: delta(after.decisions, before.decisions),
            cuts,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(())
}
