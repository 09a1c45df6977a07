//! The planning loop: from the lower bound, add one layer at a time and ask for the goal
//! at step k under an assumption, so everything the solver learned carries over to k+1.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::analysis::Analysis;
use crate::astar::{self, AstarLimits, SearchAnswer};
use crate::encode::{Decoded, Encoding, EncodingKind};
use crate::level::Level;
use crate::pathfind;
use crate::pdr::{self, PdrLimits};
use crate::plan::Plan;
use crate::sat::{Lit, SatBackend, SolveResult};

/// How a level is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The time-indexed formula of an encoding, unrolled one step at a time
    /// ([`solve`]).
    Unroll,
    /// The property-directed search of [`crate::pdr`]: one push per question, lemmas
    /// for every step.
    Pdr,
    /// The A* search of [`crate::astar`], no SAT: the classical baseline.
    Astar,
}

impl Engine {
    /// The name shown in reports and accepted by `--engine`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Unroll => "unroll",
            Engine::Pdr => pdr::NAME,
            Engine::Astar => astar::NAME,
        }
    }
}

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
    /// How the level was searched.
    pub engine: Engine,
    /// The SAT solver's name (`None`: no SAT solver, as with A*).
    pub solver: Option<&'static str>,
    /// Variables in the formula at the last k, or at the end of a `pdr` search (`None`:
    /// no formula, as with A*).
    pub variables: Option<u64>,
    /// Clauses, likewise (`None`: no formula).
    pub clauses: Option<u64>,
    /// Wall-clock time from analysis to verdict.
    pub elapsed: Duration,
    /// Cuts a lazy encoding added before its plan was real.
    pub refinements: usize,
    /// Something the user should know (e.g. a fallback to another encoding).
    pub note: Option<String>,
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

/// Why the driver could not give a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The level needs something the chosen encoding does not model (e.g. ice).
    Unsupported(String),
    /// The SAT solver failed (an outside command that cannot run or gives no verdict).
    Solver(String),
    /// A bug: e.g. the encoding produced a plan the rules engine rejects. Such a plan is
    /// never printed.
    Internal(String),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Unsupported(m) => f.write_str(m),
            SolveError::Solver(m) => write!(f, "the SAT solver failed: {m}"),
            SolveError::Internal(m) => write!(f, "internal error (please report): {m}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Solves `level`: grows k from the lower bound to `options.max_steps`, asking for the
/// goal at k under an assumption. Every plan is replayed before it is returned.
pub fn solve(
    level: &Level,
    options: &Options,
    mut backend: Box<dyn SatBackend>,
    progress: &mut dyn FnMut(&Progress),
    cancel: &AtomicBool,
) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    let analysis = Analysis::new(level);
    // The pushes encodings do not model ice: such levels are solved with moves.
    let (kind, note) = if level.has_ice() && !options.encoding.supports_ice() {
        let note = format!(
            "the {} encoding does not model ice; solved with the moves encoding instead",
            options.encoding
        );
        (EncodingKind::Moves, Some(note))
    } else {
        (options.encoding, None)
    };
    let options = &Options {
        encoding: kind,
        max_steps: options.max_steps,
    };
    let metric = options.encoding.metric();
    let finish = |verdict, backend: &dyn SatBackend| {
        let stats = backend.stats();
        Outcome {
            verdict,
            encoding: options.encoding,
            engine: Engine::Unroll,
            solver: Some(backend.name()),
            variables: Some(stats.variables),
            clauses: Some(stats.clauses),
            elapsed: start.elapsed(),
            refinements: 0,
            note: note.clone(),
        }
    };
    check_supported(level, options.encoding)?;
    if let Some(reason) = analysis.unsolvable.clone() {
        return Ok(finish(Verdict::Unsolvable { reason }, backend.as_ref()));
    }
    let lower = options.encoding.lower_bound(&analysis);
    if lower > options.max_steps {
        let verdict = Verdict::NoPlan {
            bound: options.max_steps,
        };
        return Ok(finish(verdict, backend.as_ref()));
    }

    let mut encoding = options.encoding.build(level, &analysis, backend.as_mut());
    let mut refinements = 0;
    let parity = options.encoding.parity(&analysis);
    for k in lower..=options.max_steps {
        if parity.is_some_and(|p| k % 2 != p) {
            continue; // no plan has this many pushes (see Analysis::push_parity)
        }
        while encoding.steps() < k {
            encoding.add_step(backend.as_mut());
        }
        if cancel.load(Ordering::Relaxed) {
            return Ok(finish(Verdict::Cancelled, backend.as_ref()));
        }
        encoding.goal_literal(k, backend.as_mut());
        let stats = backend.stats();
        progress(&Progress {
            k,
            variables: stats.variables,
            clauses: stats.clauses,
            elapsed: start.elapsed(),
        });
        match solve_bound(level, encoding.as_mut(), backend.as_mut(), k)? {
            Bound::Plan(plan, cuts) => {
                refinements += cuts;
                let verdict = Verdict::Solved {
                    plan,
                    k,
                    optimal: Some(metric),
                };
                let mut outcome = finish(verdict, backend.as_ref());
                outcome.refinements = refinements;
                return Ok(outcome);
            }
            Bound::Unsat {
                clauses_alone,
                cuts,
            } => {
                refinements += cuts;
                if clauses_alone {
                    // No sequence of k legal steps can begin a plan (the clauses without
                    // the goal hold for every prefix of a shortest plan), so no longer
                    // plan exists either, and every shorter bound was already refuted.
                    let reason = format!("no sequence of {k} legal steps can begin a plan");
                    return Ok(finish(Verdict::Unsolvable { reason }, backend.as_ref()));
                }
            }
            Bound::Unknown => return Ok(finish(Verdict::Cancelled, backend.as_ref())),
        }
    }
    let verdict = Verdict::NoPlan {
        bound: options.max_steps,
    };
    Ok(finish(verdict, backend.as_ref()))
}

/// Positions the A* baseline may store before it gives up (a few GiB at most).
pub const ASTAR_MAX_POSITIONS: usize = 20_000_000;

/// Solves `level` push-optimally with one of the searches that unroll no formula:
/// `Engine::Pdr` asks `solver` (a fresh SAT solver) and reports the size of its
/// one-push formula with the lemmas; `Engine::Astar` needs no solver and has no formula.
/// The plan is rebuilt from the pushes with shortest walks and replayed like any other.
pub fn solve_by_search(
    level: &Level,
    engine: Engine,
    solver: Option<Box<dyn SatBackend>>,
    max_pushes: usize,
    deadline: Option<Instant>,
    cancel: &AtomicBool,
) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    let name = engine.name();
    if level.has_ice() {
        return Err(SolveError::Unsupported(format!(
            "the {name} search does not handle ice; this level has ice"
        )));
    }
    let analysis = Analysis::new(level);
    let mut note = None;
    let mut solver_name = None;
    let mut size = (None, None);
    let result = if engine == Engine::Astar {
        let limits = AstarLimits {
            max_pushes,
            max_positions: ASTAR_MAX_POSITIONS,
            deadline,
        };
        let result = astar::optimal_pushes(level, &analysis, &limits, cancel);
        if let SearchAnswer::Stopped(positions) = result
            && positions >= ASTAR_MAX_POSITIONS
        {
            note = Some(format!("A* stopped after storing {positions} positions"));
        }
        result
    } else {
        let limits = PdrLimits {
            max_pushes,
            deadline,
        };
        let solver = match (engine, solver) {
            (Engine::Pdr, Some(solver)) => solver,
            _ => {
                return Err(SolveError::Internal(format!(
                    "{name} is not a search that asks a SAT solver"
                )));
            }
        };
        solver_name = Some(solver.name());
        let (result, stats) = pdr::optimal_pushes(level, &analysis, solver, &limits, cancel);
        size = (Some(stats.final_variables), Some(stats.final_clauses));
        let lemmas = if stats.lemmas == 1 { "lemma" } else { "lemmas" };
        let table = if stats.whole_lemmas > 0 {
            format!(
                " ({} of them in the whole-position table)",
                stats.whole_lemmas
            )
        } else {
            String::new()
        };
        let replayed = match stats.replayed {
            0 => String::new(),
            1 => " (and 1 push found before, taken again without one)".to_string(),
            n => format!(" (and {n} pushes found before, taken again without one)"),
        };
        note = Some(format!(
            "{} queries{replayed}, {} {lemmas}{table}; one-push formula of {} variables and {} clauses",
            stats.queries, stats.lemmas, stats.variables, stats.clauses
        ));
        result
    };
    let verdict = match result {
        SearchAnswer::Optimal(pushes) => {
            let plan = pathfind::plan_from_pushes(level, &pushes).map_err(|i| {
                SolveError::Internal(format!("the {name} plan cannot make its push {}", i + 1))
            })?;
            replayed(level, &plan, &format!("the {name} search"))?;
            Verdict::Solved {
                k: plan.push_count(),
                plan,
                optimal: Some("pushes"),
            }
        }
        SearchAnswer::NoneWithin(bound) => Verdict::NoPlan { bound },
        SearchAnswer::Unsolvable => Verdict::Unsolvable {
            reason: analysis.unsolvable.clone().unwrap_or_else(|| match engine {
                Engine::Pdr => "no sequence of pushes from the start avoids every deadlock \
                                (refuted by the pdr search for any number of pushes)"
                    .to_string(),
                _ => "the search ran out of positions that are not deadlocks".to_string(),
            }),
        },
        SearchAnswer::Stopped(_) => Verdict::Cancelled,
    };
    Ok(Outcome {
        verdict,
        encoding: EncodingKind::Pushes,
        engine,
        solver: solver_name,
        variables: size.0,
        clauses: size.1,
        elapsed: start.elapsed(),
        refinements: 0,
        note,
    })
}

/// Replays `plan` through the rules engine: the gate every plan passes before it is
/// returned. A plan that fails is a bug of `source`, never output.
fn replayed(level: &Level, plan: &Plan, source: &str) -> Result<(), SolveError> {
    plan.verify(level).map(|_| ()).map_err(|e| {
        SolveError::Internal(format!(
            "{source} produced the plan {}, which fails replay: {e}",
            plan.lurd()
        ))
    })
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
                replayed(level, &plan, &format!("the {kind} encoding (k={k})"))?;
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

/// Whether `kind` can encode `level` (ice needs an encoding that models slides).
pub fn check_supported(level: &Level, kind: EncodingKind) -> Result<(), SolveError> {
    if level.has_ice() && !kind.supports_ice() {
        return Err(SolveError::Unsupported(format!(
            "the {kind} encoding does not handle ice yet; this level has ice"
        )));
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
            enc.add_step(backend.as_mut());
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
