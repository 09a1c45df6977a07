//! The anytime default: the plan finder and an optimal search side by side on two
//! cores, sharing the solve's [`Incumbent`].
//!
//! The finder ([`find_plan`]) looks for a verified plan fast and offers it as the upper
//! bound; then it asks the SAT solver to shorten the plan window by window
//! ([`shorten`]), offering every shorter plan. The prover ([`Prover`], `pdr`) raises
//! the proven lower bound as its search goes; after a head start it lends its core to
//! the goal-by-goal planner ([`Subgoals`]) until the first plan, then goes on. On ice
//! the two SAT parts that unroll the `pushes` formula (shortening, the goal-by-goal
//! planner) are left out. When the bound meets the best plan, that plan is optimal
//! and both stop; when the prover finds a plan first, it is optimal by itself. Stopped
//! early (a time limit, Ctrl-C), the solve answers with the best plan and the bound
//! proved so far.

use std::thread;
use std::time::{Duration, Instant};

use super::finder::{Techniques, find_plan};
use super::pdr::{Pdr, Prover};
use super::push_search::{self, SearchAnswer};
use super::shorten::shorten;
use super::subgoals::Subgoals;
use super::target::pushes_of;
use super::{
    About, Engine, Incumbent, Outcome, SatUse, SolveError, Statistics, Stop, StopReason, Task,
    Verdict,
};
use crate::encode::EncodingKind;
use crate::game::Metric;

/// The plan finder and the optimal search together.
pub struct Anytime;

static ABOUT: About = About {
    name: "anytime",
    summary: "the plan finder and pdr side by side: a plan fast, proved push-optimal when \
              the bound meets it (2 cores)",
    metrics: &[Metric::Pushes],
    optimal: true,
    sat: SatUse::InProcess,
    encodings: false,
    ice: true,
    cores: 2,
    auto: true,
};

impl Engine for Anytime {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn encoding(&self, task: &Task) -> Option<EncodingKind> {
        Pdr.encoding(task)
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        // Each side stops at the solve's stop, or when the other has settled the level;
        // the two plan finders also stop at the first plan either of them finds.
        let (finder_stop, prover_stop) = (stop.child(), stop.child());
        let first_plan = stop.child();
        let (found, proved) = thread::scope(|scope| {
            let finder = scope.spawn(|| {
                let outcome = find_and_shorten(task, &finder_stop, &first_plan, board);
                if settles(&outcome) {
                    prover_stop.cancel();
                }
                outcome
            });
            let prover = scope.spawn(|| {
                let (by_goals, outcome) = prove(task, &prover_stop, &first_plan, board);
                // Proved, closed, refuted or stopped from outside: the finder has
                // nothing left to do. A prover out of memory leaves the plan side to
                // go on until the time is up.
                let out_of_memory = matches!(
                    outcome.as_ref().map(|o| &o.verdict),
                    Ok(Verdict::Stopped {
                        why: StopReason::Memory { .. }
                    })
                );
                if !out_of_memory {
                    finder_stop.cancel();
                }
                (by_goals, outcome)
            });
            let found = finder.join().expect("the finder does not panic");
            // The finder is done; the prover goes on until the bound meets the plan.
            let (by_goals, proved) = prover.join().expect("the prover does not panic");
            (found, (by_goals, proved))
        });
        let (by_goals, proved) = proved;
        let (found, proved) = (found?, proved?);
        let by_goals = by_goals.transpose()?;
        let verdict = match (&found.verdict, &proved.verdict) {
            (_, Verdict::Solved { .. }) => proved.verdict.clone(),
            (Verdict::Unsolvable { .. }, _) => found.verdict.clone(),
            (_, Verdict::Unsolvable { .. } | Verdict::NoPlan { .. }) => proved.verdict.clone(),
            // The gate takes the board's best plan, proved optimal if the bound met it.
            _ => Verdict::Stopped {
                why: if board.closed() {
                    StopReason::Closed
                } else {
                    StopReason::Time
                },
            },
        };
        let mut outcome = Outcome::new(&ABOUT, Metric::Pushes, verdict);
        outcome.encoding = proved.encoding;
        outcome.solver = proved.solver.clone();
        outcome.formula = proved.formula;
        let goals = by_goals.map(|o| o.stats).unwrap_or_default();
        outcome.stats = Statistics {
            positions: found.stats.positions,
            windows: found.stats.windows,
            windows_shortened: found.stats.windows_shortened,
            pushes_saved: found.stats.pushes_saved,
            subgoals: goals.subgoals,
            backtracks: goals.backtracks,
            tables_full: found.stats.tables_full
                || proved.stats.tables_full
                || matches!(
                    proved.verdict,
                    Verdict::Stopped {
                        why: StopReason::Memory { .. }
                    }
                ),
            ..proved.stats
        };
        Ok(outcome)
    }
}

/// The finder's side: a plan (unless the goal-by-goal planner finds one first, which
/// cancels `first_plan`), offered on `board`, then the best plan on the board shortened
/// by the SAT solver until the bound meets it or `stop` says stop.
fn find_and_shorten(
    task: &Task,
    stop: &Stop,
    first_plan: &Stop,
    board: &Incumbent,
) -> Result<Outcome, SolveError> {
    let (answer, stats) = find_plan(task, &Techniques::from_env(), &stop.either(first_plan));
    let mut outcome = push_search::outcome(&ABOUT, task, answer)?;
    outcome.stats.positions = Some(stats.positions);
    if let Verdict::Solved { plan, optimal } = &mut outcome.verdict {
        *optimal = false;
        board.offer(task.level, plan.clone(), "finder");
        first_plan.cancel();
    }
    // Stopped by the other planner's plan: shorten that one (with the unrolled
    // `pushes` formula, which has no slides: not on ice).
    if let Some(best) = board.best().filter(|_| !task.level.has_ice())
        && let Some(pushes) = pushes_of(task.level, &best.plan)
    {
        let (_, done) = shorten(task, pushes, stop, board, "SAT windows");
        outcome.stats.windows = Some(done.windows);
        outcome.stats.windows_shortened = Some(done.shortened);
        outcome.stats.pushes_saved = Some(done.saved);
    }
    Ok(outcome)
}

/// How long `pdr` runs alone on the proof side before it lends its core to the
/// goal-by-goal planner: most small levels are proved within it, and on those the
/// planner only costs time.
const HEAD_START: Duration = Duration::from_secs(1);

/// The proof side: `pdr` for [`HEAD_START`]; if that did not settle the level and no
/// plan is on the board, the goal-by-goal planner until the first plan (or until it
/// gives up); then `pdr` again, from where it stopped, until the end.
fn prove(
    task: &Task,
    stop: &Stop,
    first_plan: &Stop,
    board: &Incumbent,
) -> (
    Option<Result<Outcome, SolveError>>,
    Result<Outcome, SolveError>,
) {
    let mut prover = match Prover::new(task) {
        Ok(prover) => prover,
        Err(e) => return (None, Err(e)),
    };
    let head_end = Instant::now() + HEAD_START;
    let head = stop.with_deadline(Some(stop.deadline().map_or(head_end, |d| d.min(head_end))));
    let mut answer = prover.run(&head, board);
    let mut by_goals = None;
    if answer == SearchAnswer::Stopped(StopReason::Time) && !stop.should_stop() {
        // The goal-by-goal planner only looks for a first plan: with one on the board
        // it has nothing to do (and reports nothing).
        if !first_plan.is_cancelled() {
            by_goals = goal_by_goal(task, stop, first_plan, board);
        }
        answer = prover.run(stop, board);
    }
    (by_goals, prover.outcome(task, answer))
}

/// The prover's side before it proves: the goal-by-goal planner, until it or the finder
/// has a plan (`first_plan`), it gives up, or `stop` says stop. `None` when it is
/// switched off for a measurement (`SATSOKO_FINDER_OFF=subgoals`).
fn goal_by_goal(
    task: &Task,
    stop: &Stop,
    first_plan: &Stop,
    board: &Incumbent,
) -> Option<Result<Outcome, SolveError>> {
    // Its questions go to the unrolled `pushes` formula, which has no slides.
    if !Techniques::from_env().subgoals || task.level.has_ice() {
        return None;
    }
    let outcome = Subgoals.run(task, &stop.either(first_plan), board);
    if let Ok(Outcome {
        verdict: Verdict::Solved { .. },
        ..
    }) = &outcome
    {
        first_plan.cancel();
    }
    Some(outcome)
}

/// Whether an outcome settles the level for the other side: a proved optimum or a proof
/// that there is none.
fn settles(outcome: &Result<Outcome, SolveError>) -> bool {
    matches!(
        outcome.as_ref().map(|o| &o.verdict),
        Ok(Verdict::Solved { optimal: true, .. } | Verdict::Unsolvable { .. })
    )
}
