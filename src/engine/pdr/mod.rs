//! Property-directed search over push positions: best-first search whose refutations
//! the SAT solver turns into lemmas over part of a position.
//!
//! The search takes positions in A*'s order (the pushes made plus a lower bound on the
//! pushes left: the matching potential with the extra pushes of costly pairs of boxes),
//! stores each once, and lists each position's pushes with the rules engine
//! ([`PushMoves`](crate::game::PushMoves): one cell on, or the whole slide on ice). It
//! stores only the children whose value is at most their parent's and queues the
//! parent again for the rest (partial expansion), so the positions of the layers it
//! never reaches take no memory. The smallest bound taken off the queue is a proven
//! lower bound on the optimum, raised on the board as it rises; the first solved
//! position taken off is push-optimal.
//!
//! The SAT solver holds **one formula with no steps**: a current position, one push,
//! and the next position ([`formula`]). A position all of whose pushes are ruled out
//! (into dead squares, deadlock patterns, lemmas, frozen boxes, or positions refuted
//! before) is refuted for good, and the solver is asked whether the position has a push
//! into a position no clause rules out. It has none; the failed assumptions name the
//! part of the position the refutation needs, and that part is a **lemma**: a partial
//! position (boxes on some cells, none on others, cells the player cannot reach) that
//! can never reach the goal, which the search checks later pushes against
//! ([`lemmas`]). Questions pause while their lemmas do not pay for them. This is the infinite frame
//! of property-directed reachability (IC3/PDR, Bradley 2011), strengthened cube by
//! cube with generalisation by UNSAT cores: a lemma refutes every position that
//! matches it, wherever the other boxes and the player are. A refuted position makes
//! the one it was reached from a candidate for refutation in turn.
//!
//! The parts: [`formula`] (the one-push formula and its lemma clauses), [`lemmas`]
//! (reading a core into a lemma; the lemmas as patterns), [`search`] (the search).

mod formula;
mod lemmas;
mod search;

use formula::OnePush;
use search::{Limits, Search};

use super::push_search::{self, Arena, SearchAnswer};
use super::{About, Engine, FormulaSize, Incumbent, Outcome, SatUse, SolveError, Stop, Task};
use crate::encode::EncodingKind;
use crate::game::Metric;

/// The memory the search may take while plan searches store positions beside it
/// (`anytime` gives it the rest of the request once they are over): 600/1024 of the
/// request's (600 MiB by default).
fn memory(task: &Task) -> usize {
    task.tuning.memory_share(600, 1024)
}

/// The bytes a stored position costs besides its cells (one byte per box and one for
/// the player's place on levels of up to 256 floor cells, else two): its node in the
/// arena (12, and about 7 in its table), its pushes, bound and flags (9), its queue
/// entries (4, twice that while the queue's stacks grow), rounded up; the lemmas have
/// a limit of their own ([`MAX_LEMMAS`]). Measured: XSokoban 3 (10 boxes) at its limit
/// of 600 MiB, 12.1 million positions, has 566 MB resident.
const BYTES_PER_POSITION: usize = 40;

/// The bytes one stored position of `task`'s level costs.
fn position_bytes(task: &Task) -> usize {
    let boxes = task.level.box_cells().count();
    Arena::position_bytes(&task.analysis.region, boxes, BYTES_PER_POSITION)
}

/// Lemmas kept at most (each a few cells; checking a push looks at those through its
/// cells).
const MAX_LEMMAS: usize = 200_000;

/// The property-directed search: push-optimal, an in-process SAT solver.
pub struct Pdr;

static ABOUT: About = About {
    name: "pdr",
    summary: "property-directed search: positions best-first, the SAT solver turns each \
              refutation into a lemma over part of a position (push-optimal)",
    metrics: &[Metric::Pushes],
    optimal: true,
    sat: SatUse::InProcess,
    encodings: false,
    ice: true,
    cores: 1,
    auto: true,
    fewest_moves_among_optimal: false,
    traces: false,
};

impl Engine for Pdr {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn encoding(&self, _task: &Task) -> Option<EncodingKind> {
        // Its formula is the one-push step of the pushes family (encodings/pdr.md).
        Some(EncodingKind::Pushes)
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        let mut prover = Prover::new(task, stop)?;
        // Alone, it has the whole of the memory.
        prover.take_all_memory(task);
        let answer = prover.run(stop, board);
        prover.outcome(task, answer)
    }
}

/// A pdr search that can be stopped and taken up again where it stopped (`anytime`
/// gives it a head start, lends its core to the goal-by-goal planner when that start
/// was not enough, and resumes it).
pub struct Prover<'a> {
    search: Search<'a>,
    solver_name: String,
    base_size: FormulaSize,
    /// The bytes a stored position costs.
    per_position: usize,
}

impl<'a> Prover<'a> {
    /// A search of `task`'s level (for plans of at most `task.max_steps` pushes, if
    /// set) with a fresh solver of `task.solver`. Its formula is written until `stop`
    /// says stop; a prover stopped before it has one asks no questions (and is
    /// stopped anyway).
    pub fn new(task: &Task<'a>, stop: &Stop) -> Result<Prover<'a>, SolveError> {
        // pdr checks the stop between positions, and its questions are tiny: its solver
        // needs no interrupt of its own.
        let solver = task.solver.backend(None).map_err(SolveError::Unsupported)?;
        let solver_name = solver.name().to_string();
        let (level, analysis) = (task.level, task.analysis);
        let formula = task
            .tuning
            .pdr_lemmas
            .then(|| OnePush::new(level, analysis, solver, stop))
            .flatten();
        let base_size = size_of_formula(&formula);
        let per_position = position_bytes(task);
        let limits = Limits {
            max_pushes: task.max_steps,
            max_positions: memory(task) / per_position,
            max_lemmas: MAX_LEMMAS,
        };
        Ok(Prover {
            search: Search::new(level, analysis, formula, limits),
            solver_name,
            base_size,
            per_position,
        })
    }

    /// Searches until an answer or `stop` (raising the proven lower bound on `board`
    /// as it goes); after a stop by `stop` (`Stopped(Time)`), the next call goes on
    /// from there. Any other answer is final.
    pub fn run(&mut self, stop: &Stop, board: &Incumbent) -> SearchAnswer {
        self.search.run(stop, board)
    }

    /// Lets the search fill the whole of the request's memory (`--memory`), not just
    /// its share; a search stopped at its limit (`Stopped(Memory)`) then goes on from
    /// where it stopped at the next [`Prover::run`]. `anytime` calls it once the plan
    /// searches beside it have given their positions back.
    pub fn take_all_memory(&mut self, task: &Task) {
        let more = task.tuning.memory.saturating_sub(memory(task));
        self.search.grant(more / self.per_position);
    }

    /// The counters so far.
    pub fn stats(&self) -> PdrStats {
        PdrStats {
            positions: self.search.positions() as u64,
            base_size: self.base_size,
            final_size: size_of_formula(&self.search.formula),
            tables_full: self.search.tables_full(),
            ..self.search.stats
        }
    }

    /// The outcome of `answer`, with the counters.
    pub fn outcome(self, task: &Task, answer: SearchAnswer) -> Result<Outcome, SolveError> {
        let stats = self.stats();
        let mut outcome = push_search::outcome(&ABOUT, task, answer)?;
        outcome.encoding = Pdr.encoding(task);
        outcome.solver = Some(self.solver_name);
        outcome.formula = Some(stats.final_size);
        outcome.stats.positions = Some(stats.positions);
        outcome.stats.queries = Some(stats.queries);
        outcome.stats.lemmas = Some(stats.lemmas);
        outcome.stats.refuted = Some(stats.refuted);
        outcome.stats.base_formula = Some(stats.base_size);
        outcome.stats.tables_full = stats.tables_full;
        Ok(outcome)
    }
}

/// The size of the one-push formula (nothing when the solver is switched off).
fn size_of_formula(formula: &Option<OnePush>) -> FormulaSize {
    (formula.as_ref())
        .map(|f| FormulaSize::of(f.solver.as_ref()))
        .unwrap_or_default()
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdrStats {
    /// Positions stored.
    pub positions: u64,
    /// Positions expanded (their pushes listed).
    pub expanded: u64,
    /// Positions refuted for good.
    pub refuted: u64,
    /// Solver calls: one per refutation while questions are not paused.
    pub queries: u64,
    /// Lemmas learned (new partial positions refuted for good).
    pub lemmas: u64,
    /// The one-push formula before lemmas.
    pub base_size: FormulaSize,
    /// The formula at the end (with its lemma clauses).
    pub final_size: FormulaSize,
    /// Whether the lemmas stopped growing (their limit).
    pub tables_full: bool,
    /// Pushes the lemmas ruled out.
    pub ruled_out: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Analysis;
    use crate::engine::StopReason;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::game::plan_from_pushes;
    use crate::level::Level;
    use crate::level::parse_xsb;
    use crate::sat::SolverChoice;

    /// Two boxes, two goals, room to walk around them.
    pub(super) const TWO_BOXES: &str = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";

    pub(super) fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    /// The Microban level `number` (from 1).
    fn microban(number: usize) -> Level {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb");
        let text = std::fs::read_to_string(path).unwrap();
        parse_xsb("microban.xsb", &text).unwrap().remove(number - 1)
    }

    /// A prover of `level`'s push-optimal plan within `max_steps`, handed to `f` with
    /// a fresh board; `None` when the analysis finds the level unsolvable.
    fn with_prover<R>(
        level: &Level,
        max_steps: Option<usize>,
        f: impl FnOnce(Prover, &Incumbent) -> R,
    ) -> Result<R, String> {
        let analysis = Analysis::new(level);
        if let Some(reason) = &analysis.unsolvable {
            return Err(reason.clone());
        }
        let solver = SolverChoice::default();
        let task = Task {
            level,
            analysis: &analysis,
            metric: Metric::Pushes,
            encoding: None,
            solver: &solver,
            max_steps,
            tuning: crate::engine::Tuning::default(),
            trace: None,
        };
        Ok(f(
            Prover::new(&task, &Stop::never()).unwrap(),
            &Incumbent::new(Metric::Pushes),
        ))
    }

    /// Searches `level` within `max_pushes` with `stop`.
    pub(super) fn search_level(
        level: &Level,
        max_pushes: usize,
        stop: &Stop,
    ) -> (SearchAnswer, PdrStats) {
        let search = |mut prover: Prover, board: &Incumbent| {
            let answer = prover.run(stop, board);
            (answer, prover.stats())
        };
        with_prover(level, Some(max_pushes), search)
            .unwrap_or_else(|reason| (SearchAnswer::Unsolvable(reason), PdrStats::default()))
    }

    /// Checks that `pushes` replay on `level`.
    fn assert_replays(level: &Level, pushes: &[push_search::Push]) {
        let plan = plan_from_pushes(level, pushes).unwrap();
        assert!(plan.verify(level).is_ok(), "level {}", level.number);
    }

    fn run(text: &str, max_pushes: usize) -> SearchAnswer {
        search_level(&level(text), max_pushes, &Stop::never()).0
    }

    /// Checks the plan against brute force and the rules engine; returns the counters.
    fn check_optimum(text: &str) -> PdrStats {
        let level = level(text);
        let (SearchAnswer::Plan(pushes), stats) = search_level(&level, 60, &Stop::never()) else {
            panic!("no plan for\n{text}");
        };
        assert_eq!(
            shortest_pushes(&level, 60, 1_000_000),
            SearchResult::Optimal(pushes.len()),
            "{text}"
        );
        assert_replays(&level, &pushes);
        stats
    }

    #[test]
    fn finds_the_optimum_and_a_replayable_plan() {
        check_optimum(TWO_BOXES);
        // The player starts walled in by two boxes and must push one of them first;
        // lemmas learned there hold only for the player's region.
        check_optimum("########\n#@$ .  #\n#$     #\n#.     #\n########\n");
    }

    #[test]
    fn a_search_stopped_at_its_memory_limit_goes_on_to_the_optimum_when_granted_more() {
        // Stopped part way through a position's pushes, again and again: each time
        // it is granted room for one more position and goes on from there.
        for text in [TWO_BOXES, "########\n#@$ .  #\n#$     #\n#.     #\n########\n"] {
            let level = level(text);
            let analysis = Analysis::new(&level);
            let limits = Limits {
                max_pushes: Some(60),
                max_positions: 1,
                max_lemmas: MAX_LEMMAS,
            };
            let mut search = Search::new(&level, &analysis, None, limits);
            let board = Incumbent::new(Metric::Pushes);
            let mut stops = 0;
            let pushes = loop {
                match search.run(&Stop::never(), &board) {
                    SearchAnswer::Stopped(StopReason::Memory { .. }) => {
                        stops += 1;
                        search.grant(1);
                    }
                    SearchAnswer::Plan(pushes) => break pushes,
                    other => panic!("{other:?}"),
                }
            };
            assert!(stops > 1, "{text}");
            assert_eq!(
                shortest_pushes(&level, 60, 1_000_000),
                SearchResult::Optimal(pushes.len()),
                "{text}"
            );
            assert_replays(&level, &pushes);
        }
    }

    #[test]
    fn bounds_and_dead_levels() {
        push_search::check_bounds_and_dead_levels(&run);
    }

    #[test]
    fn refutations_become_lemmas() {
        // The boxes can move, but no sequence of pushes fills both goals: every
        // position the search meets is refuted, and the solver reads lemmas from them.
        let text =
            "##########\n#   .    #\n#    $   #\n#. #    ##\n## @ # $ #\n#      # #\n##########\n";
        let (answer, stats) = search_level(&level(text), 60, &Stop::never());
        assert!(matches!(answer, SearchAnswer::Unsolvable(_)), "{answer:?}");
        assert!(stats.refuted > 0 && stats.lemmas > 0, "{stats:?}");
        assert_eq!(stats.queries, stats.refuted);
    }

    #[test]
    fn ice_levels_get_their_push_optimum() {
        // Boxes slide until something stops them: the optimum of every small ice
        // level of the examples is brute force's.
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/ice/ice.xsb"))
                .unwrap();
        for level in parse_xsb("ice.xsb", &text).unwrap() {
            let (SearchAnswer::Plan(pushes), _) = search_level(&level, 30, &Stop::never()) else {
                panic!("no plan for level {}", level.number);
            };
            assert_eq!(
                shortest_pushes(&level, 30, 2_000_000),
                SearchResult::Optimal(pushes.len()),
                "level {}",
                level.number
            );
            assert_replays(&level, &pushes);
        }
    }

    #[test]
    fn a_search_stopped_and_taken_up_again_keeps_the_optimum() {
        // In slices of a few milliseconds, however they fall, the search goes on from
        // where it stopped and ends with the same optimum as in one go.
        let level = microban(98);
        let slices = |mut prover: Prover, board: &Incumbent| {
            let mut slices = 0;
            loop {
                let deadline = std::time::Instant::now() + std::time::Duration::from_millis(5);
                match prover.run(&Stop::new(Some(deadline)), board) {
                    SearchAnswer::Stopped(StopReason::Time) => slices += 1,
                    answer => break (answer, slices),
                }
            }
        };
        let (answer, slices) = with_prover(&level, None, slices).unwrap();
        let SearchAnswer::Plan(pushes) = answer else {
            panic!("{answer:?}");
        };
        assert_eq!(pushes.len(), 110, "after {slices} slices");
        assert_replays(&level, &pushes);
    }

    #[test]
    fn below_the_optimum_the_bound_proved_stays_within_the_users_bound() {
        // With --max-steps m under the optimum the answer is "none within m", and the
        // lower bound it proves on the way is no more than m + 1: positions beyond m
        // are dropped however their bound rises.
        for level in (1..=20).map(microban) {
            let (SearchAnswer::Plan(plan), _) = search_level(&level, 200, &Stop::never()) else {
                panic!("level {} has a plan", level.number);
            };
            for m in plan.len().saturating_sub(4)..plan.len() {
                let bounded = |mut prover: Prover, board: &Incumbent| {
                    (prover.run(&Stop::never(), board), board.lower())
                };
                let (answer, lower) = with_prover(&level, Some(m), bounded).unwrap();
                assert_eq!(
                    answer,
                    SearchAnswer::NoneWithin(m),
                    "level {}",
                    level.number
                );
                assert!(lower <= m + 1, "level {}: {lower} > {m} + 1", level.number);
            }
        }
    }

    #[test]
    fn a_cancelled_search_stops() {
        let stop = Stop::never();
        stop.cancel();
        let answer = search_level(&level(TWO_BOXES), 60, &stop).0;
        assert_eq!(answer, SearchAnswer::Stopped(StopReason::Time));
    }
}
