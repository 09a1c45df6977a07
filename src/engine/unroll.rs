//! The incremental bounded planner: from the lower bound, add one layer of the
//! time-indexed formula at a time and ask for the goal at step k under an assumption,
//! so everything the solver learned carries over to k + 1. The first satisfiable k is
//! optimal for the encoding's metric.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::{
    About, Engine, FormulaSize, Incumbent, Outcome, SatUse, SolveError, Status, Stop, StopReason,
    Task, Tuning, Verdict,
};
use super::tuning::DEFAULT_HORIZONS;
use crate::analysis::Analysis;
use crate::encode::ice_moves::{MAX_OUTCOME_CELLS, outcome_cells};
use crate::encode::{
    Decoded, Encoding, EncodingKind, FORMULA_BUDGET, QUESTION_BUDGET, known_step_size,
};
use crate::game::{Metric, Plan};
use crate::level::Level;
use crate::sat::{Interrupt, Lit, SatBackend, SolveResult, SolverChoice, Workload};

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
    cores: DEFAULT_HORIZONS,
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

    fn cores(&self, tuning: &Tuning) -> usize {
        tuning.horizons.max(1)
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        solve(task, stop, board)
    }
}

/// The encoding `task` is unrolled with, and the one asked for when the level needed
/// another: the pushes encodings do not model ice, so such levels are solved with
/// `moves`.
fn encoding_for(task: &Task) -> (EncodingKind, Option<EncodingKind>) {
    let solver = match task.solver {
        SolverChoice::Builtin(name) => Some(*name),
        SolverChoice::Command(_) => None,
    };
    let asked = task
        .encoding
        .unwrap_or_else(|| EncodingKind::for_solver(task.metric, solver));
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
///
/// With `--horizons N` (two by default), N solvers, each with its own formula on its own
/// core, take the bounds in turn (Rintanen's algorithm B with N processes): while one
/// refutes k, the next asks k + 2. A plan at k interrupts every solver above k; the
/// answer is the least bound with a plan once every bound below it is refuted, so it is
/// the same optimum as one solver growing k one bound at a time.
fn solve(task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
    let (level, analysis) = (task.level, task.analysis);
    let (kind, fallback_from) = encoding_for(task);
    check_supported(level, kind)?;
    let lower = kind.lower_bound(analysis);
    let last = task.max_steps.unwrap_or(usize::MAX);
    let mut horizons = task.tuning.horizons.max(1);
    let lower_than_asked = lower > last;
    if let Some(step) = known_step_size(kind, level, analysis)
        && !lower_than_asked
    {
        // Refused before the formula is built (but after the answer that needs none); the
        // step's size is known.
        if let Some(refusal) = refusal(kind, lower, step, 0) {
            return Err(refusal);
        }
        // Each horizon holds its own formula: fewer of them when N would not fit at the
        // lower bound (one always does, or the level was refused).
        let at_lower = step.saturating_mul(lower.max(1) as u64);
        horizons = horizons.min((FORMULA_BUDGET / at_lower.max(1)).max(1) as usize);
    }
    let parity = kind.parity(analysis);
    let first = match parity {
        Some(p) if lower % 2 != p => lower + 1,
        _ => lower,
    };
    let schedule = Schedule {
        first,
        stride: if parity.is_some() { 2 } else { 1 },
        last,
        shared: Mutex::new(Shared {
            next: first,
            ..Shared::default()
        }),
        ceiling: Arc::new(AtomicUsize::new(usize::MAX)),
        done: stop.child(),
    };
    let finish = |verdict, shared: &Shared| {
        let mut o = Outcome::new(&ABOUT, kind.metric(), verdict);
        o.encoding = Some(kind);
        o.fallback_from = fallback_from;
        o.solver = Some(task.solver.name().to_string());
        o.formula = Some(shared.formula);
        o.stats.cuts = (kind == EncodingKind::PushesLazy).then_some(shared.cuts as u64);
        o
    };
    if lower_than_asked {
        let verdict = Verdict::NoPlan { bound: last };
        return Ok(finish(verdict, &Shared::default()));
    }
    raise_lower(board, kind, first);
    let horizon = Horizon {
        task,
        kind,
        budget: FORMULA_BUDGET / horizons as u64,
        schedule: &schedule,
        board,
    };
    std::thread::scope(|scope| {
        for _ in 1..horizons {
            scope.spawn(|| horizon.run());
        }
        horizon.run();
    });
    let mut shared = std::mem::take(&mut *schedule.shared.lock().expect("no poisoned lock"));
    if let Some(e) = shared.failure.take() {
        return Err(e);
    }
    let settled = schedule.settled(&shared.refuted);
    let verdict = if settled > last {
        Verdict::NoPlan { bound: last }
    } else if let Some(found) = shared.plans.get(&settled) {
        // The least k with a plan is the optimum when k counts the metric. With box
        // lines (`pushes-folded`) the answer is the plan of fewest pushes any horizon
        // found, push-optimal only when its pushes meet a proven bound: the lines, or
        // the board's (the analysis's, another engine's); beyond the user's bound it is
        // no answer (a plan of fewer pushes may have more lines).
        let (plan, formula) = match kind.counts_the_metric() {
            true => found,
            false => (shared.plans.values())
                .min_by_key(|(plan, _)| plan.count(kind.metric()))
                .expect("a plan at the settled bound"),
        };
        if task.beyond_bound(plan.count(kind.metric())) {
            let why = StopReason::GaveUp;
            return Ok(finish(Verdict::Stopped { why }, &shared));
        }
        let proven = settled.max(board.lower());
        let optimal = kind.counts_the_metric()
            || (board.metric() == kind.metric() && plan.count(kind.metric()) <= proven);
        let mut o = finish(
            Verdict::Solved {
                plan: plan.clone(),
                optimal,
            },
            &shared,
        );
        // The formula that answered, as one solver growing k would report it.
        o.formula = Some(*formula);
        return Ok(o);
    } else if let Some(k) = shared.dead_from.filter(|&k| k <= settled) {
        // No sequence of k legal steps can begin a plan (the clauses without the goal
        // hold for every prefix of a shortest plan), so no longer plan exists either, and
        // every shorter bound is refuted.
        let reason = format!("no sequence of {k} legal steps can begin a plan");
        Verdict::Unsolvable { reason }
    } else {
        let why = if board.closed() {
            StopReason::Closed
        } else {
            shared.ended.unwrap_or(StopReason::Time)
        };
        // A plan above a bound still open is on the board, and stays the answer.
        Verdict::Stopped { why }
    };
    Ok(finish(verdict, &shared))
}

/// Why a formula cannot be asked at all on this level, in words that name what to use
/// instead: a step bigger than a question's budget (the solver would read the stop too
/// seldom, see QUESTION_BUDGET), or a formula that cannot reach the lower bound within
/// the budget, built on `base` variables and clauses with steps of `step`.
fn refusal(kind: EncodingKind, lower: usize, step: u64, base: u64) -> Option<SolveError> {
    let at_lower = base.saturating_add(step.saturating_mul(lower.max(1) as u64));
    let instead = if kind == EncodingKind::Pushes {
        "--encoding pushes-path or pushes-lazy, or "
    } else {
        ""
    };
    let why = if step > QUESTION_BUDGET {
        format!("one step would hold about {step} variables and clauses, more than {QUESTION_BUDGET}")
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
}

/// The bounds the horizons share out.
struct Schedule {
    /// The least bound asked (the lower bound, rounded up to the parity).
    first: usize,
    /// 2 when the push parity leaves every other bound out, else 1.
    stride: usize,
    /// The greatest bound asked (`--max-steps`).
    last: usize,
    /// What the horizons found.
    shared: Mutex<Shared>,
    /// The least bound with a plan, or from which no plan exists: a horizon asking a
    /// bound above it is interrupted, as its answer no longer matters.
    ceiling: Arc<AtomicUsize>,
    /// The stop, cancelled too once the answer is settled: every horizon then stops,
    /// in its solver or while it builds its formula.
    done: Stop,
}

impl Schedule {
    /// The least bound not refuted: every plan has at least this many steps.
    fn settled(&self, refuted: &BTreeSet<usize>) -> usize {
        let mut k = self.first;
        while refuted.contains(&k) {
            k += self.stride;
        }
        k
    }

    /// Whether `shared` holds the answer: a plan at the least bound not refuted, or a
    /// proof that no plan that long exists, or an error.
    fn is_answered(&self, shared: &Shared) -> bool {
        let settled = self.settled(&shared.refuted);
        shared.plans.contains_key(&settled)
            || shared.dead_from.is_some_and(|d| d <= settled)
            || shared.failure.is_some()
    }

    /// Stops every horizon once `shared` holds the answer.
    fn publish(&self, shared: &Shared) {
        if self.is_answered(shared) {
            self.done.cancel();
        }
    }
}

/// What the horizons found, under the schedule's lock.
#[derive(Default)]
struct Shared {
    /// The next bound no horizon has claimed.
    next: usize,
    /// The bounds with no plan of exactly that many steps.
    refuted: BTreeSet<usize>,
    /// The plans found, by bound, with the formula that found each.
    plans: BTreeMap<usize, (Plan, FormulaSize)>,
    /// The least bound no sequence of legal steps of that length can reach: no plan has
    /// that many steps or more.
    dead_from: Option<usize>,
    /// The least bound a formula could not grow to within its budget.
    full_from: Option<usize>,
    /// Why a horizon stopped before the answer (the first to stop says).
    ended: Option<StopReason>,
    /// An error that ends the solve.
    failure: Option<SolveError>,
    /// Cuts the lazy encodings added, all horizons together.
    cuts: usize,
    /// The largest formula any horizon built.
    formula: FormulaSize,
}

/// One solver with its own formula, asking the bounds it claims from the schedule.
struct Horizon<'a> {
    task: &'a Task<'a>,
    kind: EncodingKind,
    /// The variables and clauses its formula may hold.
    budget: u64,
    schedule: &'a Schedule,
    board: &'a Incumbent,
}

impl Horizon<'_> {
    /// Claims bounds until the answer is settled, the schedule runs out, or something
    /// stops it; what it learns goes to the schedule.
    fn run(&self) {
        let schedule = self.schedule;
        let lock = || schedule.shared.lock().expect("no poisoned lock");
        // The bound this horizon asks, read by its solver's interrupt.
        let asking = Arc::new(AtomicUsize::new(0));
        let interrupt: Interrupt = {
            let (done, asking) = (schedule.done.clone(), asking.clone());
            let ceiling = schedule.ceiling.clone();
            Arc::new(move || {
                done.should_stop() || asking.load(Ordering::Relaxed) > ceiling.load(Ordering::Relaxed)
            })
        };
        // Every bound below the optimum is a refutation, and the driver asks them all.
        let mut backend = match (self.task.solver).backend_for(Some(interrupt), Workload::Refutations) {
            Ok(backend) => backend,
            Err(why) => {
                let mut shared = lock();
                shared.failure.get_or_insert(SolveError::Unsupported(why));
                schedule.publish(&shared);
                return;
            }
        };
        let (level, analysis) = (self.task.level, self.task.analysis);
        let mut encoding = self.kind.build(level, analysis, backend.as_mut());
        // The largest step so far, in variables and clauses.
        let mut step_size = 0;
        loop {
            let k = {
                let mut shared = lock();
                if schedule.is_answered(&shared) || self.board.closed() {
                    break;
                }
                // Not answered, so it is the caller's stop.
                if schedule.done.should_stop() {
                    shared.ended.get_or_insert(StopReason::Time);
                    break;
                }
                let next = shared.next;
                let beyond = next > schedule.last
                    || next >= schedule.ceiling.load(Ordering::Relaxed)
                    || shared.full_from.is_some_and(|f| next >= f);
                if beyond {
                    break;
                }
                shared.next += schedule.stride;
                next
            };
            asking.store(k, Ordering::Relaxed);
            // The first bound is the lower bound, which on a large level is many steps
            // from step 0: the stop is asked before each step and within it.
            while encoding.steps() < k {
                let before = FormulaSize::of(backend.as_ref()).total();
                if before + step_size > self.budget {
                    let size = FormulaSize::of(backend.as_ref());
                    let mut shared = lock();
                    shared.full_from = Some(shared.full_from.map_or(k, |f| f.min(k)));
                    shared.ended.get_or_insert(StopReason::FormulaFull { size });
                    shared.formula = larger(shared.formula, size);
                    return;
                }
                if encoding.add_step(backend.as_mut(), &schedule.done).is_err() {
                    let size = FormulaSize::of(backend.as_ref());
                    let mut shared = lock();
                    shared.ended.get_or_insert(StopReason::Time);
                    shared.formula = larger(shared.formula, size);
                    return;
                }
                step_size = step_size.max(FormulaSize::of(backend.as_ref()).total() - before);
                if encoding.steps() == 1
                    && let Some(refusal) = refusal(self.kind, schedule.first, step_size, before)
                {
                    let mut shared = lock();
                    shared.failure.get_or_insert(refusal);
                    schedule.publish(&shared);
                    return;
                }
            }
            // The goal at k is asked of exactly k steps (each horizon's bounds rise):
            // "unsatisfiable without the goal" then says that no k legal steps exist, and
            // no step after k must be a legal push too.
            debug_assert_eq!(encoding.steps(), k);
            encoding.goal_literal(k, backend.as_mut());
            self.board.set_status(Status {
                bound: Some(k),
                formula: Some(FormulaSize::of(backend.as_ref())),
            });
            let answer = solve_bound(level, encoding.as_mut(), backend.as_mut(), k);
            let formula = FormulaSize::of(backend.as_ref());
            let mut shared = lock();
            shared.formula = larger(shared.formula, formula);
            match answer {
                Ok(Bound::Plan(plan, cuts)) => {
                    shared.cuts += cuts;
                    schedule.ceiling.fetch_min(k, Ordering::Relaxed);
                    // On the board at once: a stop before the bounds below are refuted
                    // keeps it. A plan by lines may have more pushes than the user's
                    // bound allows: no answer, then.
                    if !self.task.beyond_bound(plan.count(self.kind.metric())) {
                        self.board.offer(level, plan.clone(), ABOUT.name);
                    }
                    shared.plans.insert(k, (plan, formula));
                }
                Ok(Bound::Unsat {
                    clauses_alone,
                    cuts,
                }) => {
                    shared.cuts += cuts;
                    if clauses_alone {
                        shared.dead_from = Some(shared.dead_from.map_or(k, |d| d.min(k)));
                        schedule.ceiling.fetch_min(k, Ordering::Relaxed);
                    } else {
                        shared.refuted.insert(k);
                        // Every shorter bound is refuted: a proven lower bound.
                        raise_lower(self.board, self.kind, schedule.settled(&shared.refuted));
                    }
                }
                // Interrupted: by the stop (the next claim says so), or because a plan
                // below made this bound moot.
                Ok(Bound::Unknown) => {}
                Err(e) => {
                    shared.failure.get_or_insert(e);
                }
            }
            schedule.publish(&shared);
            if shared.failure.is_some() {
                return;
            }
        }
    }
}

/// Raises the board's proven lower bound to `bound` steps of `kind`, when the board
/// counts plans in the encoding's metric. On ice a push-optimal request is unrolled
/// with the moves encoding, whose bounds count moves: a bound of 8 moves says nothing
/// of the pushes, and a board of pushes taking it would call a plan of 4 pushes and 9
/// moves optimal.
fn raise_lower(board: &Incumbent, kind: EncodingKind, bound: usize) {
    if board.metric() == kind.metric() {
        board.raise_lower(bound);
    }
}

/// The larger of two formulas, in variables and clauses.
fn larger(a: FormulaSize, b: FormulaSize) -> FormulaSize {
    if b.total() > a.total() { b } else { a }
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
    /// Solver conflicts for this k, if the solver reports them.
    pub conflicts: Option<u64>,
    /// Clauses the solver learned by conflict analysis for this k, if it counts them
    /// (varisat: its conflicts; CaDiCaL: fewer, see [`SatBackend::learned`]).
    pub learned: Option<u64>,
    /// Solver decisions for this k, if the solver reports them.
    pub decisions: Option<u64>,
    /// Cuts a lazy encoding added for this k.
    pub cuts: usize,
    /// Seconds this k took (adding its layer and solving).
    pub seconds: f64,
}

/// Solves the goal at every k in `from..=to` on one incremental solver (not stopping at
/// the first SAT), calling `row` after each k. The solver is asked to count its search
/// ([`SatBackend::count_search`]), as a sweep reports it.
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
    // Before the first clause, as varisat needs.
    backend.count_search();
    let mut enc = encoding.build(level, &analysis, backend.as_mut());
    for k in from..=to {
        let start = Instant::now();
        let before = backend.stats();
        let learned_before = backend.learned();
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
        let learned = delta(backend.learned(), learned_before);
        row(&SweepRow {
            k,
            result,
            variables: after.variables,
            clauses: after.clauses,
            conflicts: delta(after.conflicts, before.conflicts),
            learned,
            decisions: delta(after.decisions, before.decisions),
            cuts,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(first: usize, stride: usize) -> Schedule {
        Schedule {
            first,
            stride,
            last: usize::MAX,
            shared: Mutex::new(Shared::default()),
            ceiling: Arc::new(AtomicUsize::new(usize::MAX)),
            done: Stop::never(),
        }
    }

    #[test]
    fn the_settled_bound_is_the_least_not_refuted_of_the_parity() {
        let s = schedule(7, 2);
        let mut shared = Shared::default();
        assert_eq!(s.settled(&shared.refuted), 7);
        // 11 refuted before 9: the bound waits for 9.
        shared.refuted.insert(11);
        assert_eq!(s.settled(&shared.refuted), 7);
        shared.refuted.insert(7);
        assert_eq!(s.settled(&shared.refuted), 9);
        shared.refuted.insert(9);
        assert_eq!(s.settled(&shared.refuted), 13);
    }

    #[test]
    fn a_plan_answers_only_once_every_bound_below_it_is_refuted() {
        let s = schedule(4, 1);
        let mut shared = Shared::default();
        shared.plans.insert(6, (Plan::default(), FormulaSize::default()));
        shared.refuted.insert(5);
        s.publish(&shared);
        assert!(!s.is_answered(&shared));
        assert!(!s.done.should_stop());
        shared.refuted.insert(4);
        s.publish(&shared);
        assert!(s.is_answered(&shared));
        assert!(s.done.should_stop());
    }

    #[test]
    fn no_legal_sequence_answers_once_the_bounds_below_are_refuted() {
        let s = schedule(2, 2);
        let mut shared = Shared {
            dead_from: Some(4),
            ..Shared::default()
        };
        assert!(!s.is_answered(&shared));
        shared.refuted.insert(2);
        assert!(s.is_answered(&shared));
    }

    #[test]
    fn a_bound_in_moves_never_reaches_a_board_of_pushes() {
        // Ice: a push-optimal request is unrolled with the moves encoding. Its bounds
        // (8 moves here) must not become a bound on the pushes (4 here), or a stop
        // with a plan of 9 moves and 4 pushes on the board would call it optimal.
        let level = crate::level::parse_xsb(
            "t",
            "   ~~.#\n#@$~~~~#\n# $ ~~.#\n########\n",
        )
        .unwrap()
        .remove(0);
        let request = super::super::Request {
            metric: Metric::Pushes,
            prove: true,
            encoding: None,
            solver: crate::sat::SolverChoice::default(),
            max_steps: Some(15),
            tuning: super::super::Tuning::default(),
        };
        let board = Incumbent::new(Metric::Pushes);
        let engine = super::super::registry::by_name("unroll").unwrap();
        let outcome = super::super::solve(engine, &level, &request, &Stop::never(), &board)
            .expect("unroll takes ice through the moves encoding");
        assert_eq!(outcome.metric, Metric::Moves);
        match &outcome.verdict {
            Verdict::Solved { plan, optimal } => {
                assert!(*optimal);
                assert_eq!(plan.count(Metric::Moves), 8);
            }
            other => panic!("{other:?}"),
        }
        assert!(board.lower() <= 4, "a pushes board got the bound {}", board.lower());
    }
}
