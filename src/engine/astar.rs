//! A* over push positions: the classical baseline the SAT encodings are measured
//! against, and an oracle for levels too large for the brute-force search of
//! [`oracle`](super::oracle).
//!
//! A node is a box configuration plus the player's region, named by its smallest cell; an
//! edge is one push and costs 1, walks are free. The heuristic is the matching potential
//! of the shared [`Heuristic`](crate::analysis::Heuristic), a lower bound on the pushes left in every position,
//! and nodes are reopened when a cheaper path reaches them, so the first solved position
//! taken off the queue is push-optimal. Positions static analysis proves dead (dead
//! squares, freeze blocks, dead pairs and triples) are never generated, so a search that
//! runs out of positions proves the level unsolvable.
//!
//! Unlike the SAT encodings this search remembers every position it has seen, whatever
//! the step it was reached at: that memory is what a time-indexed formula lacks.

use super::push_search::{self, Buckets, PushGraph, SearchAnswer, Step};
use super::state_search::{StateLimits, optimal_plan};
use super::{
    About, Engine, Expansion, Incumbent, Outcome, SatUse, SearchTrace, SolveError, Stop,
    StopReason, Task, TracedStep,
};
use crate::analysis::Analysis;
use crate::game::Metric;
use crate::level::{Cell, Level};

/// The A* baseline: no SAT, push- or move-optimal (over whole states on ice and for moves).
pub struct Astar;

static ABOUT: About = About {
    name: "astar",
    summary: "no SAT: A* over push positions (push-optimal), or over single moves on ice \
              and for --optimize moves (move- or push-optimal)",
    metrics: &[Metric::Pushes, Metric::Moves],
    optimal: true,
    sat: SatUse::None,
    encodings: false,
    ice: true,
    cores: 1,
    auto: true,
    fewest_moves_among_optimal: true,
    traces: true,
};

impl Engine for Astar {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        let boxes = task.level.box_cells().count();
        // Walks that slide are not an undirected region, and a move-optimal plan needs
        // its walks counted: both search whole states instead of push positions.
        if task.level.has_ice() || task.metric == Metric::Moves {
            let limits = StateLimits::within(task.tuning.memory, boxes, task.max_steps);
            let (verdict, stored) = optimal_plan(
                task.level,
                task.analysis,
                task.metric,
                &limits,
                stop,
                board,
                task.trace,
            );
            let mut outcome = Outcome::new(&ABOUT, task.metric, verdict);
            outcome.stats.positions = Some(stored as u64);
            return Ok(outcome);
        }
        let limits = AstarLimits {
            max_pushes: task.max_steps,
            // A stored position is counted as 64 bytes plus two per box (its node in
            // the arena, its place in the arena's table and its queue entries). At the
            // default 1 GiB XSokoban 29 stores 11.2 million positions and peaks at
            // 0.9 GB; at 1.5 GiB the arena's arrays double once more and it peaked at
            // 1.8 GB.
            max_positions: task.tuning.memory / (64 + 2 * boxes),
        };
        let (level, analysis, trace) = (task.level, task.analysis, task.trace);
        let (answer, stored) = optimal_pushes(level, analysis, &limits, stop, board, trace);
        let mut outcome = push_search::outcome(&ABOUT, task, answer)?;
        outcome.stats.positions = Some(stored as u64);
        Ok(outcome)
    }
}

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct AstarLimits {
    /// Plans longer than this many pushes are not looked for (`None`: no bound).
    pub max_pushes: Option<usize>,
    /// Positions stored before the search gives up (memory grows with them).
    pub max_positions: usize,
}

/// Searches `level` (without ice; `analysis` is its static analysis) for a push-optimal
/// plan within `limits`, checking `stop`; also returns the positions stored. The
/// smallest `f` taken off the queue is a proven lower bound, raised on `board`; the
/// search ends when it meets a plan found elsewhere. Each expansion, and the solved
/// position it stops at, goes to `trace` if there is one.
pub fn optimal_pushes(
    level: &Level,
    analysis: &Analysis,
    limits: &AstarLimits,
    stop: &Stop,
    board: &Incumbent,
    trace: Option<&dyn SearchTrace>,
) -> (SearchAnswer, usize) {
    if let Some(reason) = &analysis.unsolvable {
        return (SearchAnswer::Unsolvable(reason.clone()), 0);
    }
    let heuristic = &analysis.heuristic;
    let potential = |boxes: &[u16]| heuristic.potential(boxes.iter().map(|&b| b as Cell));
    let mut graph = PushGraph::new(level, analysis);
    let start = graph.add_start();
    // Per node, the pushes of the best path found to it.
    let mut g = vec![0u32];
    // The potential of a solved position need not be 0 (it is the goals' own
    // potential, at most 0): a lower bound below 0 says nothing, and a solved position
    // must be taken off the queue at its length, so the bound is clamped at 0.
    let mut queue = Buckets::new();
    queue.push(heuristic.left(0, potential(graph.boxes())), 0, start);
    graph.leave();
    let mut cut_by_bound = false;

    let max_pushes = limits.max_pushes.map_or(i64::MAX, |m| m as i64);
    let mut pushes = Vec::new();
    while let Some((f, g_id, id)) = queue.pop() {
        if g[id as usize] < g_id {
            continue; // a cheaper path reached this node after it was queued
        }
        // Every plan passes through a queued position, whose f is at most its length.
        if f as usize > board.lower() {
            board.raise_lower(f as usize);
            if board.closed() {
                return (SearchAnswer::Stopped(StopReason::Closed), graph.len());
            }
        }
        // The step that reached node `id`, as a trace shows it.
        let via = |graph: &PushGraph, id: u32| {
            let step = graph.arena().step(id);
            (id != start).then(|| TracedStep::Push {
                from: step.from as Cell,
                dir: step.direction(),
            })
        };
        if graph.is_solved(id) {
            if let Some(trace) = trace {
                // A solved position's potential is at most 0: its bound is 0.
                let via = via(&graph, id);
                let (g, h, solved) = (g_id, 0, true);
                trace.expansion(&Expansion { f, g, h, via, solved });
            }
            return (SearchAnswer::Plan(graph.arena().pushes_to(level, id)), graph.len());
        }
        // The clock is read before every expansion: on a big board one makes hundreds
        // of children, each with its region to fill.
        if stop.should_stop() {
            return (SearchAnswer::Stopped(StopReason::Time), graph.len());
        }
        graph.enter(id);
        let h = potential(graph.boxes());
        if let Some(trace) = trace {
            let via = via(&graph, id);
            let (g, h, solved) = (g_id, heuristic.left(g_id, h), false);
            trace.expansion(&Expansion { f, g, h, via, solved });
        }
        graph.pushes(&mut pushes);
        let child_g = g_id + 1;
        for p in &pushes {
            graph.make(p.from, p.to);
            let f = (child_g + heuristic.left(child_g, h + heuristic.change(p.from, p.to))) as i64;
            if graph.is_dead_after(p.from, p.to) {
                // never stored
            } else if f > max_pushes {
                cut_by_bound = true;
            } else {
                graph.move_box(p.from, p.to);
                let name = graph.name_after_push(p);
                let key = graph.key(p.from, p.to, name);
                let step = Step::push(p.from, p.dir, p.to);
                let child = match graph.find(key) {
                    Some(k) if g[k as usize] <= child_g => None,
                    Some(k) => {
                        g[k as usize] = child_g;
                        graph.arena_mut().reach_by(k, id, step);
                        Some(k)
                    }
                    None if graph.len() >= limits.max_positions => {
                        let why = StopReason::Memory {
                            positions: graph.len() as u64,
                        };
                        return (SearchAnswer::Stopped(why), graph.len());
                    }
                    None => {
                        g.push(child_g);
                        Some(graph.add(key, id, step))
                    }
                };
                if let Some(k) = child {
                    queue.push(f as u32, child_g, k);
                }
            }
            graph.unmake(p.from, p.to);
        }
        graph.leave();
    }
    let answer = if let (true, Some(bound)) = (cut_by_bound, limits.max_pushes) {
        SearchAnswer::NoneWithin(bound)
    } else {
        SearchAnswer::Unsolvable(
            "the search ran out of positions that are not deadlocks".to_string(),
        )
    };
    (answer, graph.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::game::plan_from_pushes;
    use crate::level::parse_xsb;

    fn limits(max_pushes: usize) -> AstarLimits {
        AstarLimits {
            max_pushes: Some(max_pushes),
            max_positions: 1_000_000,
        }
    }

    fn search(level: &Level, limits: &AstarLimits) -> SearchAnswer {
        let analysis = Analysis::new(level);
        let board = Incumbent::new(Metric::Pushes);
        optimal_pushes(level, &analysis, limits, &Stop::never(), &board, None).0
    }

    fn run(text: &str, max_pushes: usize) -> SearchAnswer {
        search(
            &parse_xsb("t", text).unwrap().remove(0),
            &limits(max_pushes),
        )
    }

    #[test]
    fn finds_the_optimum_and_a_replayable_plan() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let SearchAnswer::Plan(pushes) = run(text, 50) else {
            panic!("no plan");
        };
        assert_eq!(
            shortest_pushes(&level, 50, 1_000_000),
            SearchResult::Optimal(pushes.len())
        );
        let plan = plan_from_pushes(&level, &pushes).unwrap();
        assert!(plan.verify(&level).is_ok());
    }

    #[test]
    fn bounds_and_dead_levels() {
        push_search::check_bounds_and_dead_levels(&run);
    }

    #[test]
    fn a_stopped_search_says_so() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        // Too small a memory: the search gives up and says why.
        let tiny = AstarLimits {
            max_pushes: Some(50),
            max_positions: 2,
        };
        let answer = search(&level, &tiny);
        assert!(matches!(
            answer,
            SearchAnswer::Stopped(StopReason::Memory { .. })
        ));
    }
}
