//! Property-directed search over push positions: SAT with memory across steps.
//!
//! The time-indexed encodings give every variable a step, so what the solver learns
//! about a hopeless position at step t does not apply at step t + 1. This search asks
//! the SAT solver about **one push at a time**, on a formula with no steps: a current
//! position, one push, and the next position. What it learns is a *lemma*: a partial
//! position (some cells with a box, some without) that cannot reach the goal within `i`
//! pushes. A lemma holds wherever the position occurs, so it is the memory the
//! time-indexed formula lacks. Lemmas that name a whole position (with the player's
//! region) are kept in a hash table outside the solver, which bars the pushes into
//! them by assumption; the others are clauses. This is the frame structure of
//! property-directed reachability (IC3/PDR), run from the goal's side: frame `F_i` holds
//! the positions that might still reach the goal within `i` pushes.
//!
//! The search is a depth-first descent from the start with bound `k` (the driver's
//! lower bound, then `k + 2`, ...). At a position `s` with `i` pushes left, the solver
//! is asked for a push from `s` to a position in `F_{i-1}`. If there is none, the
//! failed assumptions name the part of `s` that matters, and that part becomes a lemma
//! of frame `i`. Otherwise the search descends into the position found. Each position
//! remembers the pushes the solver has found from it, and when the search meets it
//! again with more pushes left, it descends into those before it asks for more. A
//! position none of whose pushes is left open (each leads where the table, a deadlock
//! pattern or the heuristic already refutes, or cannot be made) is refuted without a
//! question.
//!
//! The parts: [`formula`] (the one-push formula, frames and lemma clauses),
//! [`lemmas`] (reading an UNSAT core into a lemma; the whole-position table),
//! [`search`] (the descent); the whole-position table is a
//! [`PositionTable`](crate::engine::table::PositionTable).

mod formula;
mod lemmas;
mod search;

use formula::OnePush;
use search::{Search, Stopped};

use super::push_search::{self, SearchAnswer};
use super::{
    About, Engine, FormulaSize, Incumbent, Outcome, SatUse, SolveError, Status, Stop, StopReason,
    Task,
};
use crate::analysis::Analysis;
use crate::encode::EncodingKind;
use crate::game::Metric;
use crate::level::Level;
use crate::sat::SatBackend;

/// The property-directed search: push-optimal, no ice, an in-process SAT solver.
pub struct Pdr;

static ABOUT: About = About {
    name: "pdr",
    summary: "property-directed search: one push per SAT question, lemmas for every step \
              (push-optimal, no ice)",
    metrics: &[Metric::Pushes],
    optimal: true,
    sat: SatUse::InProcess,
    encodings: false,
    ice: false,
    cores: 1,
    auto: true,
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
        // pdr checks the stop between questions, each of them tiny: its solver needs
        // no interrupt of its own.
        let solver = task.solver.backend(None).map_err(SolveError::Unsupported)?;
        let solver_name = solver.name();
        let (answer, stats) = optimal_pushes(task.level, task.analysis, solver, task, stop, board);
        let mut outcome = push_search::outcome(&ABOUT, task, answer)?;
        outcome.encoding = self.encoding(task);
        outcome.solver = Some(solver_name.to_string());
        outcome.formula = Some(stats.final_size);
        outcome.stats.queries = Some(stats.queries);
        outcome.stats.replayed = Some(stats.replayed);
        outcome.stats.lemmas = Some(stats.lemmas);
        outcome.stats.table_lemmas = Some(stats.whole_lemmas);
        outcome.stats.base_formula = Some(stats.base_size);
        outcome.stats.tables_full = stats.tables_full;
        Ok(outcome)
    }
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdrStats {
    /// Solver calls.
    pub queries: u64,
    /// Descents made without a question: pushes the rules listed, or the solver had
    /// found before.
    pub replayed: u64,
    /// Lemmas learned.
    pub lemmas: u64,
    /// Of the lemmas, those naming a whole position, kept in a table outside the
    /// solver (a lemma that only raises the frame of one there counts again).
    pub whole_lemmas: u64,
    /// The one-push formula before frames and lemmas.
    pub base_size: FormulaSize,
    /// The formula at the end (with frames and lemmas).
    pub final_size: FormulaSize,
    /// Whether its tables stopped growing (the memory limit).
    pub tables_full: bool,
}

/// Searches `level` (without ice; `analysis` is its static analysis) for a push-optimal
/// plan (of at most `task.max_steps` pushes, if set), asking `solver` (a fresh one) one
/// push at a time. Bounds are tried from the lower bound up, in steps of 2 where the
/// push parity is known, and the lemmas of one bound carry over to the next. Each bound
/// tried is a proven lower bound, raised on `board`; the search ends when it meets a
/// plan found elsewhere.
fn optimal_pushes(
    level: &Level,
    analysis: &Analysis,
    solver: Box<dyn SatBackend>,
    task: &Task,
    stop: &Stop,
    board: &Incumbent,
) -> (SearchAnswer, PdrStats) {
    let formula = OnePush::new(level, analysis, solver);
    let base_size = FormulaSize::of(formula.solver.as_ref());
    let mut search = Search::new(level, analysis, formula);
    let start = search.start();
    let step = if analysis.push_parity.is_some() { 2 } else { 1 };
    let mut k = analysis.push_lower_bound;
    let mut last_count = usize::MAX;
    let finish = |search: Search, answer: SearchAnswer| {
        let stats = PdrStats {
            base_size,
            final_size: FormulaSize::of(search.formula.solver.as_ref()),
            tables_full: search.tables_full(),
            ..search.stats
        };
        (answer, stats)
    };
    while !task.beyond_bound(k) {
        board.raise_lower(k);
        if board.closed() {
            return finish(search, SearchAnswer::Stopped(StopReason::Closed));
        }
        board.set_status(Status {
            bound: Some(k),
            formula: Some(FormulaSize::of(search.formula.solver.as_ref())),
        });
        search.last_refutation_dead = false;
        match search.search(&start, k, stop) {
            Err(Stopped) => return finish(search, SearchAnswer::Stopped(StopReason::Time)),
            Ok(Some(plan)) => return finish(search, SearchAnswer::Plan(plan)),
            // The start itself was refuted without any frame: no plan of any length.
            Ok(None) if search.last_refutation_dead => {
                let reason = "no sequence of pushes from the start avoids every deadlock \
                              (refuted by the pdr search for any number of pushes)";
                return finish(search, SearchAnswer::Unsolvable(reason.to_string()));
            }
            Ok(None) => {
                // A round that named no new position may have converged: the refuted
                // positions then form an inductive invariant (encodings/pdr.md).
                let count = search.whole_count();
                if count == last_count {
                    match search.refutations_closed(&start, stop) {
                        None => return finish(search, SearchAnswer::Stopped(StopReason::Time)),
                        Some(true) => {
                            let reason = "pdr's frames converged: the positions its \
                                          lemmas refute hold the start and are closed \
                                          under pushes, so no plan of any length exists";
                            return finish(search, SearchAnswer::Unsolvable(reason.into()));
                        }
                        Some(false) => {}
                    }
                }
                last_count = count;
                k += step;
            }
        }
    }
    let bound = task
        .max_steps
        .expect("only a bound the user set ends the loop");
    finish(search, SearchAnswer::NoneWithin(bound))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::game::plan_from_pushes;
    use crate::level::parse_xsb;
    use crate::sat::{SolverChoice, VarisatBackend};

    /// Two boxes, two goals, room to walk around them.
    pub(super) const TWO_BOXES: &str = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";

    pub(super) fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    /// Searches `level` within `max_pushes` with `stop`.
    pub(super) fn search_level(
        level: &Level,
        max_pushes: usize,
        stop: &Stop,
    ) -> (SearchAnswer, PdrStats) {
        let analysis = Analysis::new(level);
        if let Some(reason) = &analysis.unsolvable {
            return (
                SearchAnswer::Unsolvable(reason.clone()),
                PdrStats::default(),
            );
        }
        let solver = SolverChoice::default();
        let task = Task {
            level,
            analysis: &analysis,
            metric: Metric::Pushes,
            encoding: None,
            solver: &solver,
            max_steps: Some(max_pushes),
        };
        let backend = Box::new(VarisatBackend::new());
        let board = Incumbent::new(Metric::Pushes);
        optimal_pushes(level, &analysis, backend, &task, stop, &board)
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
        let plan = plan_from_pushes(&level, &pushes).unwrap();
        assert!(plan.verify(&level).is_ok());
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
    fn bounds_and_dead_levels() {
        push_search::check_bounds_and_dead_levels(&run);
    }

    #[test]
    fn pushes_found_before_are_taken_again_and_keep_the_optimum() {
        // Eight boxes and a lower bound well below the optimum: positions come back at
        // higher bounds, and their pushes are taken again without a question.
        let stats = check_optimum(
            "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########\n",
        );
        assert!(stats.replayed > 0, "{stats:?}");
    }

    #[test]
    fn a_cancelled_search_stops() {
        let stop = Stop::never();
        stop.cancel();
        let answer = search_level(&level(TWO_BOXES), 60, &stop).0;
        assert_eq!(answer, SearchAnswer::Stopped(StopReason::Time));
    }
}
