//! The anytime default: the plan finder and an optimal search side by side on two
//! cores, sharing the solve's [`Incumbent`].
//!
//! The finder's plain search ([`PlanFinder`]) looks for a verified plan fast and offers
//! it as the upper bound; then it asks the SAT solver to shorten the plan window by
//! window ([`shorten`]), offering every shorter plan. The prover ([`Prover`], `pdr`)
//! raises the proven lower bound as its search goes; after a head start it shares its
//! core until the first plan with four planners, in turns: the finder's search with
//! PI-corral pruning (the other half of its portfolio), its search by the plan with
//! bases under FESS's selection (the plan core's runs under the older one), the
//! goal-by-goal planner ([`GoalByGoal`]) and a second finder in another order
//! ([`plan_in_turns`]). When the
//! plain search fills its memory without a plan, the plan core takes the second finder
//! over with that memory, from where its turns left it ([`Relay`]). A prover that fills
//! its memory gives its core to a second shortener, which works on the same plan from
//! its end ([`SharedPlan`]). On ice
//! the two SAT parts that unroll the `pushes` formula (shortening, the goal-by-goal
//! planner) are left out. When the bound meets the best plan, that plan is optimal
//! and both stop; when the prover finds a plan first, it is optimal by itself. Stopped
//! early (a time limit, Ctrl-C), the solve answers with the best plan and the bound
//! proved so far.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::finder::{PlanFinder, Techniques};
use super::pdr::{Pdr, Prover};
use super::push_search::{self, SearchAnswer};
use super::shorten::{End, SharedPlan, Shortening, shorten};
use super::subgoals::{GoalByGoal, SubgoalCounts};
use super::target::pushes_of;
use super::tuning::Questions;
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
    fewest_moves_among_optimal: false,
    traces: false,
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
        // The finder's core runs its plain search; the search with PI-corral pruning,
        // its portfolio's other half, takes turns on the proof core.
        let techniques = task.tuning.finder;
        let (first, pi) = techniques.split();
        let memory = match pi {
            Some(_) => task.tuning.memory - pi_finder_memory(task),
            None => task.tuning.memory,
        };
        let relay = techniques
            .second
            .then(|| Relay::new(techniques, stop.either(&first_plan)));
        let relay = relay.as_ref();
        let shared = SharedPlan::default();
        let (found, proved) = thread::scope(|scope| {
            let finder = scope.spawn(|| {
                let outcome = find_and_shorten(
                    task,
                    (&first, memory, relay),
                    &shared,
                    &finder_stop,
                    &first_plan,
                    board,
                );
                if settles(&outcome) {
                    prover_stop.cancel();
                }
                outcome
            });
            let prover = scope.spawn(|| {
                let planners = (pi.as_ref(), relay);
                let (counts, outcome) =
                    prove(task, planners, &shared, &prover_stop, &first_plan, board);
                // Proved, closed, refuted or stopped from outside: the finder has
                // nothing left to do. A prover out of memory leaves the plan side to
                // go on until the time is up.
                let out_of_memory = outcome.as_ref().is_ok_and(|o| stopped_at_memory(&o.verdict));
                if !out_of_memory {
                    finder_stop.cancel();
                }
                (counts, outcome)
            });
            let found = finder.join().expect("the finder does not panic");
            // The finder is done; the prover goes on until the bound meets the plan.
            let (counts, proved) = prover.join().expect("the prover does not panic");
            (found, (counts, proved))
        });
        let (counts, proved) = proved;
        let (found, proved, counts) = (found?, proved?, counts?);
        // The proof core's windows count with the plan core's.
        let add = |a: Option<u64>, b: u64| a.map(|a| a + b).or((b > 0).then_some(b));
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
        let relayed = relay.map_or(0, Relay::positions);
        outcome.stats = Statistics {
            positions: found
                .stats
                .positions
                .map(|p| p + counts.positions + relayed),
            windows: add(found.stats.windows, counts.shortening.windows),
            windows_shortened: add(found.stats.windows_shortened, counts.shortening.shortened),
            pushes_saved: add(found.stats.pushes_saved, counts.shortening.saved),
            subgoals: counts.goals.map(|g| g.subgoals),
            backtracks: counts.goals.map(|g| g.backtracks),
            dead_ends: counts.goals.map(|g| g.dead_ends),
            tables_full: found.stats.tables_full
                || proved.stats.tables_full
                || stopped_at_memory(&proved.verdict),
            ..proved.stats
        };
        Ok(outcome)
    }
}

/// The finder's side: a plan of the finder with the `first` techniques in `memory`
/// bytes (unless a planner on the proof core finds one first, which cancels
/// `first_plan`), offered on `board`, then the best plan on the board shortened by the
/// SAT solver until the bound meets it or `stop` says stop. A finder that fills its
/// memory (or gives up) without a plan hands its memory and its core to the second
/// finder of the `relay`.
fn find_and_shorten<'a>(
    task: &Task<'a>,
    (first, memory, relay): (&Techniques, usize, Option<&Relay<'a>>),
    shared: &SharedPlan,
    stop: &Stop,
    first_plan: &Stop,
    board: &Incumbent,
) -> Result<Outcome, SolveError> {
    let until_first_plan = stop.either(first_plan);
    let mut finder = PlanFinder::new(task, first, memory, &until_first_plan);
    // A plan of the macro search goes on the board at once; the push searches then
    // look for a shorter one (below), which the SAT windows would seldom reach.
    finder.answer_macro_plans_at_once();
    let mut answer = finder.run(&until_first_plan);
    if let SearchAnswer::Plan(pushes) = &answer
        && finder.is_running()
    {
        let mut outcome = push_search::outcome(&ABOUT, task, SearchAnswer::Plan(pushes.clone()))?;
        if let Verdict::Solved { plan, .. } = &mut outcome.verdict {
            board.offer(task.level, std::mem::take(plan), "finder");
            first_plan.cancel();
        }
        // Half the time left, so that the windows still have the other half.
        let end = stop.deadline().map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now) / 2
        });
        let until_half = end.map_or_else(|| stop.clone(), |end| stop.by(end));
        if let shorter @ SearchAnswer::Plan(_) = finder.run(&until_half) {
            answer = shorter;
        }
    }
    let positions = finder.stats().positions;
    // Its positions (up to `memory` bytes) are given back before the second finder
    // takes them over, or the SAT windows build their formulas.
    drop(finder);
    let mut by = "finder";
    if let (SearchAnswer::Stopped(StopReason::Memory { .. } | StopReason::GaveUp), Some(relay)) =
        (&answer, relay)
        && let Some(mut second) = relay.take_over(task, &until_first_plan)
    {
        second.grant(memory);
        answer = second.run(&until_first_plan);
        relay.count(&second);
        by = SECOND_FINDER;
    }
    let mut outcome = push_search::outcome(&ABOUT, task, answer)?;
    outcome.stats.positions = Some(positions);
    if let Verdict::Solved { plan, optimal } = &mut outcome.verdict {
        *optimal = false;
        board.offer(task.level, plan.clone(), by);
        first_plan.cancel();
    }
    // Stopped by the other planner's plan: shorten that one (with the unrolled
    // `pushes` formula, which has no slides: not on ice).
    if let Some(best) = board.best().filter(|_| !task.level.has_ice())
        && let Some(pushes) = pushes_of(task.level, &best.plan)
    {
        shared.start(pushes);
        let done = shorten(task, shared, End::Start, stop, board, "SAT windows");
        outcome.stats.windows = Some(done.windows);
        outcome.stats.windows_shortened = Some(done.shortened);
        outcome.stats.pushes_saved = Some(done.saved);
    }
    shared.close();
    Ok(outcome)
}

/// How long `pdr` runs alone on the proof side before it lends its core to the
/// planners: most small levels are proved within it, and on those the planners only
/// cost time.
const HEAD_START: Duration = Duration::from_secs(1);

/// The first turn of each planner on the proof core. Each later pair of turns is twice
/// as long, so that a question of the goal-by-goal planner cut short by its turn (and
/// asked again from its start) fits in a later one.
const FIRST_TURN: Duration = Duration::from_secs(1);

/// The memory of the second finder: half the request's memory (512 MiB by default).
/// With every finder full, a level of XSokoban peaks at about 1.7 GiB.
fn second_finder_memory(task: &Task) -> usize {
    task.tuning.memory_share(1, 2)
}

/// The memory of the search with PI-corral pruning on the proof core, a quarter of the
/// request's, taken from the finder's: it runs a third of a core at most, and fills
/// less.
fn pi_finder_memory(task: &Task) -> usize {
    task.tuning.memory_share(1, 4)
}

/// The memory of the search by the plan with bases under FESS's selection on the
/// proof core, an eighth of the request's: a macro search stores few positions.
fn fess_finder_memory(task: &Task) -> usize {
    task.tuning.memory_share(1, 8)
}

/// The proof side: `pdr` for [`HEAD_START`]; if that did not settle the level and no
/// plan is on the board, `pdr` and the planners of [`plan_in_turns`] in turns until the
/// first plan (or until they give up); then `pdr` alone, from where it stopped, until
/// the end (or its memory limit, when a second shortener takes the core).
fn prove<'a>(
    task: &Task<'a>,
    planners: (Option<&Techniques>, Option<&Relay<'a>>),
    shared: &SharedPlan,
    stop: &Stop,
    first_plan: &Stop,
    board: &Incumbent,
) -> (
    Result<PlannerCounts, SolveError>,
    Result<Outcome, SolveError>,
) {
    let mut prover = match Prover::new(task, stop) {
        Ok(prover) => prover,
        Err(e) => return (Ok(PlannerCounts::default()), Err(e)),
    };
    let mut answer = prover.run(&stop.by(Instant::now() + HEAD_START), board);
    let mut counts = Ok(PlannerCounts::default());
    if answer == SearchAnswer::Stopped(StopReason::Time) && !stop.should_stop() {
        // The planners only look for a first plan: with one on the board they have
        // nothing to do (and report nothing).
        let mut ended = None;
        if !first_plan.is_cancelled() {
            counts = plan_in_turns(task, planners, Some(&mut prover), stop, first_plan, board)
                .map(|(counts, prover_ended)| {
                    ended = prover_ended;
                    counts
                });
        }
        // Unless its turns ended it, `pdr` goes on from where they left it.
        answer = match ended {
            Some(answer) => answer,
            None => prover.run(stop, board),
        };
    }
    if is_out_of_memory(&answer) && wait_for_plan_side(shared, stop).is_some() {
        // The plan searches have given their positions back: `pdr` goes on with the
        // whole of the memory (its core had nothing to do while it waited: the
        // shortener below works on the plan they hand over).
        prover.take_all_memory(task);
        answer = prover.run(stop, board);
    }
    let full = is_out_of_memory(&answer);
    let outcome = prover.outcome(task, answer);
    if let (Ok(counts), Ok(_)) = (&mut counts, &outcome)
        && full
    {
        // Its memory full, `pdr` gives its core (and, its outcome taken, its
        // memory) to a second shortener, from the plan's end.
        counts.shortening = shorten_from_the_end(task, shared, stop, board);
    }
    (counts, outcome)
}

/// Whether a search stopped at its memory limit.
fn is_out_of_memory(answer: &SearchAnswer) -> bool {
    matches!(answer, SearchAnswer::Stopped(StopReason::Memory { .. }))
}

/// Whether a verdict is a stop at a memory limit.
fn stopped_at_memory(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Stopped { why: StopReason::Memory { .. } })
}

/// Waits until the plan core's searches are over and have given their positions back:
/// `Some(true)` when it has handed its plan to the shorteners, `Some(false)` when it
/// says it has none, `None` if `stop` says stop first.
fn wait_for_plan_side(shared: &SharedPlan, stop: &Stop) -> Option<bool> {
    loop {
        match shared.given() {
            None if stop.should_stop() => return None,
            None => thread::sleep(PLAN_POLL),
            given => return given,
        }
    }
}

/// How often a shortener waiting for the plan core's first plan looks again.
const PLAN_POLL: Duration = Duration::from_millis(20);

/// The proof core's shortener, once `pdr` stopped at its memory limit: it waits for
/// the plan core to hand over its plan (none comes on ice, or when the plan core ends
/// without one), then shortens it from the end while the plan core does from the
/// start, until they meet at every window size or `stop` says stop.
fn shorten_from_the_end(
    task: &Task,
    shared: &SharedPlan,
    stop: &Stop,
    board: &Incumbent,
) -> Shortening {
    if wait_for_plan_side(shared, stop) != Some(true) {
        return Shortening::default();
    }
    shorten(task, shared, End::Finish, stop, board, "SAT windows")
}

/// What the planners on the proof core counted.
#[derive(Clone, Copy, Debug, Default)]
struct PlannerCounts {
    /// The goal-by-goal planner's subgoals and backtracks, if it ran.
    goals: Option<SubgoalCounts>,
    /// The positions the finders on the proof core stored.
    positions: u64,
    /// What the proof core's shortener did (see [`shorten_from_the_end`]).
    shortening: Shortening,
}

/// A planner that takes turns on the proof core before the first plan.
enum Turn<'r, 'a> {
    /// The goal-by-goal SAT planner.
    ByGoals(Box<GoalByGoal>),
    /// A finder of its own, with the name its plans are credited to: the finder's
    /// search with PI-corral pruning, or its search by the plan with bases under
    /// FESS's selection.
    Finder(PlanFinder<'a>, &'static str),
    /// The second finder, while the plan core does not need it.
    Second(&'r Relay<'a>),
    /// `pdr` itself, which keeps its work from one turn to the next.
    Prover(&'r mut Prover<'a>),
}

/// The name a plan of the second finder is credited to.
const SECOND_FINDER: &str = "second finder";

/// The second finder, which both cores can run: the proof core in turns, and the plan
/// core once its own search has filled its memory (or given up) without a plan. It
/// is made by whichever needs it first and handed over with what it has stored.
pub struct Relay<'a> {
    slot: Mutex<Slot<'a>>,
    /// Cancelled when the plan core wants the second finder: the proof core's turn ends
    /// and leaves it in the slot.
    wanted: Stop,
    /// The solve's stop, or the first plan: what the finder's preparation reads.
    stop: Stop,
    techniques: Techniques,
    /// The positions it stored, as last counted by the core that ran it.
    positions: AtomicU64,
}

/// Where the second finder is.
enum Slot<'a> {
    /// Not made yet.
    Unmade,
    /// Between turns on the proof core.
    Here(PlanFinder<'a>),
    /// On the proof core, for a turn.
    Out,
    /// Done (a plan, or it gave up), or the plan core's for good.
    Gone,
}

impl<'a> Relay<'a> {
    /// The second finder of the `techniques` ([`Techniques::second_finder`]).
    fn new(techniques: Techniques, stop: Stop) -> Relay<'a> {
        Relay {
            slot: Mutex::new(Slot::Unmade),
            wanted: Stop::never(),
            stop,
            techniques: techniques.second_finder(),
            positions: AtomicU64::new(0),
        }
    }

    fn make(&self, task: &Task<'a>) -> PlanFinder<'a> {
        PlanFinder::new(
            task,
            &self.techniques,
            second_finder_memory(task),
            &self.stop,
        )
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot<'a>> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One turn of the second finder on the proof core, until `until`; `GaveUp` once
    /// the plan core has it, or it is done.
    fn turn(&self, task: &Task<'a>, until: &Stop) -> SearchAnswer {
        let taken = {
            let mut slot = self.lock();
            match std::mem::replace(&mut *slot, Slot::Out) {
                Slot::Unmade => None,
                Slot::Here(finder) => Some(finder),
                other @ (Slot::Out | Slot::Gone) => {
                    *slot = other;
                    return SearchAnswer::Stopped(StopReason::GaveUp);
                }
            }
        };
        let mut finder = taken.unwrap_or_else(|| self.make(task));
        let answer = finder.run(&until.either(&self.wanted));
        self.count(&finder);
        let paused = answer == SearchAnswer::Stopped(StopReason::Time);
        *self.lock() = if paused {
            Slot::Here(finder)
        } else {
            Slot::Gone
        };
        if paused && self.wanted.is_cancelled() {
            // Handed over to the plan core: no more turns here.
            return SearchAnswer::Stopped(StopReason::GaveUp);
        }
        answer
    }

    /// The second finder for the plan core, to run to the end: made if it was not,
    /// taken from the proof core at the end of that core's slice if it runs there;
    /// `None` if it is done or `stop` says stop first.
    fn take_over(&self, task: &Task<'a>, stop: &Stop) -> Option<PlanFinder<'a>> {
        self.wanted.cancel();
        loop {
            let taken = {
                let mut slot = self.lock();
                match std::mem::replace(&mut *slot, Slot::Gone) {
                    Slot::Unmade => Some(None),
                    Slot::Here(finder) => Some(Some(finder)),
                    Slot::Gone => return None,
                    Slot::Out => {
                        *slot = Slot::Out;
                        None
                    }
                }
            };
            if let Some(finder) = taken {
                return Some(finder.unwrap_or_else(|| self.make(task)));
            }
            if stop.should_stop() {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Drops a second finder parked between turns on the proof core (the plan core can
    /// no longer take it over once the proof core's turns are over: they end at the
    /// first plan, or when every planner gave up).
    fn release(&self) {
        let mut slot = self.lock();
        if matches!(*slot, Slot::Here(_)) {
            *slot = Slot::Gone;
        }
    }

    /// Records the positions `finder` has stored.
    fn count(&self, finder: &PlanFinder) {
        (self.positions).store(finder.stats().positions, Ordering::Relaxed);
    }

    /// The positions the second finder stored.
    fn positions(&self) -> u64 {
        self.positions.load(Ordering::Relaxed)
    }
}

/// The proof core before the first plan: the planners of [`Turn`] take turns until one
/// has a plan or the first finder has (`first_plan`), all give up, `pdr` settles the
/// level, or `stop` says stop. In order:
/// - `pdr` itself (`prover`), so that a level it needs a few seconds for is not held
///   up by a first plan that comes late; its answer, if one of its turns ends it, is
///   returned (a plan of `pdr` is optimal, and not put on the board here);
/// - the finder's search with PI-corral pruning (`pi`), the half of the portfolio
///   that does not run on the finder's core;
/// - the finder's search by the plan with bases under FESS's selection
///   ([`PlanFinder::by_plan_under_fess_turns`]; `bases-both-turns`), beside the plan
///   core's under the older one: the two selections solve different levels;
/// - the goal-by-goal planner (the SAT route);
/// - the second finder of the `relay`, until the plan core takes it over.
///
/// A plan goes on `board`. The last three can be switched off for measurements
/// (`--finder-off bases-both-turns`, `subgoals` or `second`); the goal-by-goal
/// planner does not run on ice, whose slides its unrolled `pushes` formula does not
/// have (nor do the macro searches run there).
fn plan_in_turns<'a>(
    task: &Task<'a>,
    (pi, relay): (Option<&Techniques>, Option<&Relay<'a>>),
    prover: Option<&mut Prover<'a>>,
    stop: &Stop,
    first_plan: &Stop,
    board: &Incumbent,
) -> Result<(PlannerCounts, Option<SearchAnswer>), SolveError> {
    let techniques = task.tuning.finder;
    let stop = stop.either(first_plan);
    let mut planners = Vec::new();
    let mut prover_ended = None;
    if let Some(prover) = prover {
        planners.push(Turn::Prover(prover));
    }
    if let Some(pi) = pi {
        let finder = PlanFinder::new(task, pi, pi_finder_memory(task), &stop);
        planners.push(Turn::Finder(finder, "PI-corral finder"));
    }
    if techniques.bases_both_turns && !techniques.fess_turns_bases {
        let memory = fess_finder_memory(task);
        let finder = PlanFinder::by_plan_under_fess_turns(task, &techniques, memory, &stop);
        planners.push(Turn::Finder(finder, "finder by bases"));
    }
    if techniques.subgoals
        && !task.level.has_ice()
        && let Some(planner) = GoalByGoal::new(task, &stop, task.tuning.questions == Questions::Folded)
    {
        planners.push(Turn::ByGoals(Box::new(planner)));
    }
    if let Some(relay) = relay {
        planners.push(Turn::Second(relay));
    }
    let mut counts = PlannerCounts::default();
    let mut turn = FIRST_TURN;
    let mut plan = None;
    // The planners that have not given up, by index.
    let mut running: Vec<usize> = (0..planners.len()).collect();
    // A plan of `pdr`, or its proof that there is none, settles the level.
    let settled = |ended: &Option<SearchAnswer>| {
        ended
            .as_ref()
            .is_some_and(|a| !matches!(a, SearchAnswer::Stopped(_)))
    };
    while plan.is_none() && !settled(&prover_ended) && !stop.should_stop() && !running.is_empty()
    {
        let mut r = 0;
        while plan.is_none() && !settled(&prover_ended) && r < running.len() {
            let until = stop.by(Instant::now() + turn);
            let (answer, by) = match &mut planners[running[r]] {
                Turn::ByGoals(planner) => {
                    let answer = planner.run(task, &until);
                    counts.goals = Some(planner.counts);
                    (answer, "subgoals")
                }
                Turn::Finder(search, by) => (search.run(&until), *by),
                Turn::Second(relay) => (relay.turn(task, &until), SECOND_FINDER),
                Turn::Prover(prover) => {
                    match prover.run(&until, board) {
                        SearchAnswer::Stopped(StopReason::Time) => r += 1,
                        // Optimal, refuted, or out of memory: its answer is final.
                        answer => {
                            prover_ended = Some(answer);
                            running.remove(r);
                        }
                    }
                    continue;
                }
            };
            match answer {
                // The goal-by-goal planner's subplans know nothing of the user's
                // bound: a longer plan is none.
                SearchAnswer::Plan(pushes) if !task.beyond_bound(pushes.len()) => {
                    plan = Some((pushes, by));
                }
                SearchAnswer::Stopped(StopReason::Time) => r += 1,
                // A finder's pruning proves nothing, nor does a failed subgoal:
                // giving up is all either can say.
                _ => {
                    running.remove(r);
                }
            }
        }
        turn *= 2;
    }
    if let Some(relay) = relay {
        // No more turns: a second finder parked here gives its positions back.
        relay.release();
    }
    counts.positions = (planners.iter())
        .map(|p| match p {
            Turn::Finder(search, _) => search.stats().positions,
            // (The relay counts the second finder's, and `pdr` its own.)
            Turn::ByGoals(_) | Turn::Second(_) | Turn::Prover(_) => 0,
        })
        .sum();
    if let Some((pushes, by)) = plan {
        board.offer(task.level, push_search::plan_of(task, &pushes, by)?, by);
        first_plan.cancel();
    }
    Ok((counts, prover_ended))
}

/// Whether an outcome settles the level for the other side: a proved optimum or a proof
/// that there is none.
fn settles(outcome: &Result<Outcome, SolveError>) -> bool {
    matches!(
        outcome.as_ref().map(|o| &o.verdict),
        Ok(Verdict::Solved { optimal: true, .. } | Verdict::Unsolvable { .. })
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::push_search::on_task;
    use crate::engine::shorten::tests::{room, wandering};

    /// `task` with so little memory that `pdr` stops at its limit at once.
    fn with_little_memory<'a>(task: &Task<'a>) -> Task<'a> {
        with_memory(task, 100)
    }

    /// `task` with `memory` bytes for the searches.
    fn with_memory<'a>(task: &Task<'a>, memory: usize) -> Task<'a> {
        let tuning = crate::engine::Tuning {
            memory,
            ..task.tuning
        };
        Task { tuning, ..*task }
    }

    /// `task` with the finder's techniques `switched` off.
    fn without<'a>(task: &Task<'a>, switched: &[&str]) -> Task<'a> {
        let off: Vec<String> = switched.iter().map(|s| s.to_string()).collect();
        let finder = task.tuning.finder.switched(&off, &[]).unwrap();
        let tuning = crate::engine::Tuning {
            finder,
            ..task.tuning
        };
        Task { tuning, ..*task }
    }

    #[test]
    fn the_planners_in_turns_put_a_verified_plan_on_the_board() {
        let text = "########\n#@     #\n# $ $  #\n#  ## .#\n#    . #\n########\n";
        on_task(text, |task| {
            // The search by the plan with bases under FESS's selection takes the first
            // turn and finds the plan; without it, the goal-by-goal planner does.
            for (task, by) in [
                (*task, "finder by bases"),
                (without(task, &["bases-both-turns"]), "subgoals"),
            ] {
                let board = Incumbent::new(Metric::Pushes);
                let first_plan = Stop::never();
                let never = Stop::never();
                let counts = plan_in_turns(&task, (None, None), None, &never, &first_plan, &board)
                    .unwrap()
                    .0;
                let best = board.best().expect("a plan on the board");
                assert!(best.plan.verify(task.level).is_ok());
                assert_eq!(best.by, by);
                assert_eq!(counts.goals.is_some(), by == "subgoals");
                assert!(counts.goals.is_none_or(|g| g.subgoals >= 2));
                // The finder's side learns that it can stop looking.
                assert!(first_plan.is_cancelled());
            }
        });
    }

    #[test]
    fn the_portfolios_other_half_takes_the_first_turn_on_the_proof_core() {
        let text = "########\n#@     #\n# $ $  #\n#  ## .#\n#    . #\n########\n";
        on_task(text, |task| {
            let (first, pi) = Techniques::DEFAULT.split();
            assert!(!first.pi_corrals);
            let pi = pi.expect("the default portfolio has two searches");
            let board = Incumbent::new(Metric::Pushes);
            let (counts, _) = plan_in_turns(
                task,
                (Some(&pi), None),
                None,
                &Stop::never(),
                &Stop::never(),
                &board,
            )
            .unwrap();
            let best = board.best().expect("a plan on the board");
            assert!(best.plan.verify(task.level).is_ok());
            assert_eq!(best.by, "PI-corral finder");
            // It had the first turn: the goal-by-goal planner never ran.
            assert!(counts.goals.is_none());
            assert!(counts.positions > 0);
        });
    }

    /// Two boxes that `pdr` settles in its first turn given the memory.
    const TWO_BOXES: &str = "########\n#@     #\n# $ $  #\n#  ## .#\n#    . #\n########\n";

    /// The turns with `pdr` first and no finder: what they counted, how `pdr` ended,
    /// and the board.
    fn turns_with_pdr(task: &Task) -> (PlannerCounts, Option<SearchAnswer>, Incumbent) {
        let board = Incumbent::new(Metric::Pushes);
        let mut prover = Prover::new(task, &Stop::never()).unwrap();
        let (stop, first_plan) = (Stop::never(), Stop::never());
        let (counts, ended) =
            plan_in_turns(task, (None, None), Some(&mut prover), &stop, &first_plan, &board)
                .unwrap();
        (counts, ended, board)
    }

    #[test]
    fn pdr_takes_the_first_turn_and_its_optimal_plan_ends_the_turns() {
        on_task(TWO_BOXES, |task| {
            let (counts, ended, _) = turns_with_pdr(task);
            assert!(matches!(ended, Some(SearchAnswer::Plan(_))), "{ended:?}");
            // The goal-by-goal planner, next in turn, never ran.
            assert!(counts.goals.is_none());
        });
    }

    #[test]
    fn a_prover_out_of_memory_in_its_turn_leaves_them_to_the_planners() {
        on_task(TWO_BOXES, |task| {
            let (counts, ended, board) = turns_with_pdr(&with_little_memory(task));
            assert!(
                matches!(ended, Some(SearchAnswer::Stopped(StopReason::Memory { .. }))),
                "{ended:?}"
            );
            assert_eq!(board.best().expect("the planners' plan").by, "subgoals");
            assert!(counts.goals.is_some());
        });
    }

    #[test]
    fn a_first_plan_already_found_leaves_the_planners_idle() {
        on_task("#####\n#@$.#\n#####\n", |task| {
            let board = Incumbent::new(Metric::Pushes);
            let first_plan = Stop::never();
            first_plan.cancel();
            let counts =
                plan_in_turns(task, (None, None), None, &Stop::never(), &first_plan, &board)
                    .unwrap()
                    .0;
            assert!(board.best().is_none());
            assert!(counts.goals.is_none());
            assert_eq!(counts.positions, 0);
        });
    }

    #[test]
    fn a_prover_out_of_memory_shortens_the_plan_from_its_end() {
        // Right, right, back left, four times over: 12 pushes where 4 will do.
        on_task(&room(4), |task| {
            let level = task.level;
            let pushes = wandering(level, 4);
            let small = with_little_memory(task);
            let (board, first_plan, shared) = (
                Incumbent::new(Metric::Pushes),
                Stop::never(),
                SharedPlan::default(),
            );
            first_plan.cancel();
            shared.start(pushes);
            let (counts, outcome) =
                prove(&small, (None, None), &shared, &Stop::never(), &first_plan, &board);
            let verdict = outcome.unwrap().verdict;
            assert!(
                matches!(verdict, Verdict::Stopped { why: StopReason::Memory { .. } }),
                "{verdict:?}"
            );
            let done = counts.unwrap().shortening;
            assert!(done.windows > 0 && done.saved == 8, "{done:?}");
            let best = board.best().expect("the shorter plan");
            assert_eq!(best.plan.push_count(), 4);
            assert!(best.plan.verify(level).is_ok());
        });
    }

    #[test]
    fn a_prover_out_of_memory_goes_on_with_all_of_it_once_the_plan_searches_are_over() {
        on_task(&room(4), |task| {
            // Its share holds 4 positions, the whole 300 bytes 7: enough for the plan.
            let task = with_memory(task, 300);
            let (board, first_plan, shared) = (
                Incumbent::new(Metric::Pushes),
                Stop::never(),
                SharedPlan::default(),
            );
            first_plan.cancel();
            let mut prover = Prover::new(&task, &Stop::never()).unwrap();
            let alone = prover.run(&Stop::never(), &board);
            assert!(is_out_of_memory(&alone), "{alone:?}");
            // The plan core is done with its searches (here: with no plan to hand over).
            shared.close();
            let (_, outcome) =
                prove(&task, (None, None), &shared, &Stop::never(), &first_plan, &board);
            let verdict = outcome.unwrap().verdict;
            assert!(
                matches!(verdict, Verdict::Solved { optimal: true, .. }),
                "{verdict:?}"
            );
        });
    }

    #[test]
    fn a_shortener_told_no_plan_will_come_stops_waiting() {
        on_task("#####\n#@$.#\n#####\n", |task| {
            let (board, shared) = (Incumbent::new(Metric::Pushes), SharedPlan::default());
            shared.close();
            let done = shorten_from_the_end(task, &shared, &Stop::never(), &board);
            assert_eq!(done, Shortening::default());
            assert!(board.best().is_none());
        });
    }

    #[test]
    fn on_ice_the_second_finder_plans_alone() {
        on_task("######\n#@$ .#\n#~   #\n######\n", |task| {
            assert!(task.level.has_ice());
            let board = Incumbent::new(Metric::Pushes);
            let relay = Relay::new(Techniques::DEFAULT, Stop::never());
            let planners = (None, Some(&relay));
            let counts =
                plan_in_turns(task, planners, None, &Stop::never(), &Stop::never(), &board)
                    .unwrap()
                    .0;
            let best = board.best().expect("a plan on the board");
            assert_eq!(best.by, SECOND_FINDER);
            assert!(counts.goals.is_none());
            assert!(relay.positions() > 0);
        });
    }

    #[test]
    fn the_plan_core_takes_the_second_finder_over_where_its_turns_left_it() {
        let text = "########\n#@     #\n# $ $  #\n#  ## .#\n#    . #\n########\n";
        on_task(text, |task| {
            let relay = Relay::new(Techniques::DEFAULT, Stop::never());
            // A turn already over: the finder is made and started, and waits in the slot.
            let past = Stop::new(Some(Instant::now()));
            let answer = relay.turn(task, &past);
            assert_eq!(answer, SearchAnswer::Stopped(StopReason::Time));
            let stored = relay.positions();
            assert!(stored > 0);
            // The plan core wants it: the next turn ends at once and leaves it there.
            relay.wanted.cancel();
            let answer = relay.turn(task, &Stop::never());
            assert_eq!(answer, SearchAnswer::Stopped(StopReason::GaveUp));
            let mut finder = relay.take_over(task, &Stop::never()).expect("handed over");
            assert!(finder.stats().positions >= stored);
            assert!(matches!(finder.run(&Stop::never()), SearchAnswer::Plan(_)));
            // The proof core has no more turns with it.
            let answer = relay.turn(task, &Stop::never());
            assert_eq!(answer, SearchAnswer::Stopped(StopReason::GaveUp));
            assert!(relay.take_over(task, &Stop::never()).is_none());
        });
    }

    #[test]
    fn the_plan_core_makes_the_second_finder_if_no_turn_has() {
        let text = "########\n#@     #\n# $ $  #\n#  ## .#\n#    . #\n########\n";
        on_task(text, |task| {
            let relay = Relay::new(Techniques::DEFAULT, Stop::never());
            let mut finder = relay.take_over(task, &Stop::never()).expect("made");
            assert!(matches!(finder.run(&Stop::never()), SearchAnswer::Plan(_)));
            let answer = relay.turn(task, &Stop::never());
            assert_eq!(answer, SearchAnswer::Stopped(StopReason::GaveUp));
        });
    }
}
