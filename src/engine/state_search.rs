//! A* over whole game states, one move at a time: the engine for ice levels and for
//! move-optimal plans.
//!
//! A state is the player's exact cell and the boxes; an edge is one move of the rules
//! engine ([`move_outcome`]), so slides on ice, one-way walks and pushes that carry a
//! box across the ice are followed exactly as the game plays them. A plan's cost is a
//! pair ordered lexicographically: (moves, pushes) for move-optimal plans, (pushes,
//! moves) for push-optimal ones, so each plan is also the shortest in the other metric
//! among the optimal ones. The heuristic is the sum of the boxes' push distances of the
//! static analysis (on ice those of its over-approximated slide graph): each move
//! pushes at most one box one edge of that graph, so it is a consistent lower bound on
//! both counts. Pushes onto cells the analysis proves dead, and into 2×2 freeze blocks,
//! are never generated; a search that runs out of states therefore proves the level
//! unsolvable.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::{Expansion, Incumbent, SearchTrace, Stop, StopReason, TracedStep, Verdict};
use crate::analysis::Analysis;
use crate::game::rules::move_outcome;
use crate::game::{Metric, Move, Plan};
use crate::level::{Cell, Direction, Level};

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct StateLimits {
    /// Plans longer than this (in the metric) are not looked for (`None`: no bound).
    pub max_steps: Option<usize>,
    /// States stored before the search gives up (memory grows with them).
    pub max_states: usize,
}

impl StateLimits {
    /// The limits for a level with `boxes` boxes within `memory` bytes: a stored state
    /// costs about 90 bytes plus four per box (its node, its key and queue entries).
    pub fn within(memory: usize, boxes: usize, max_steps: Option<usize>) -> StateLimits {
        StateLimits {
            max_steps,
            max_states: memory / (90 + 4 * boxes),
        }
    }
}

/// A cost in the searched metric first and the other metric second.
type Cost = (u32, u32);

/// One stored state.
struct Node {
    /// The player's cell, then the box cells sorted.
    key: Box<[u16]>,
    /// The cost of the best path found so far.
    cost: Cost,
    /// The node this one was reached from (itself for the start).
    parent: u32,
    /// The move from the parent: direction index, and whether it pushed.
    step: (u8, bool),
}

/// Searches `level` for a plan optimal in `metric` within `limits`, checking `stop`;
/// also returns the states stored. The smallest cost bound taken off the queue is a
/// proven lower bound, raised on `board`; the search ends when it meets a plan found
/// elsewhere. Each expansion, and the solved state it stops at, goes to `trace` if
/// there is one (its costs in `metric`).
pub fn optimal_plan(
    level: &Level,
    analysis: &Analysis,
    metric: Metric,
    limits: &StateLimits,
    stop: &Stop,
    board: &Incumbent,
    trace: Option<&dyn SearchTrace>,
) -> (Verdict, usize) {
    if let Some(reason) = &analysis.unsolvable {
        return (Verdict::unsolvable(reason), 0);
    }
    // A box outside the player's region stands on a goal for good (else the level is
    // unsolvable): it costs nothing, though its distance is UNREACHABLE (which summed
    // with the others would overflow).
    let distance = |c: u16| match analysis.region[c as usize] {
        true => analysis.pushes_to_goal[c as usize],
        false => 0,
    };
    let estimate = |boxes: &[u16]| boxes.iter().map(|&b| distance(b)).sum::<u32>();
    let step_cost = |pushed: bool| -> Cost {
        match metric {
            Metric::Moves => (1, pushed as u32),
            Metric::Pushes => (pushed as u32, 1),
        }
    };
    let max_steps = limits.max_steps.map_or(u32::MAX, |m| m as u32);

    let mut start: Vec<u16> = vec![level.player() as u16];
    start.extend(level.box_cells().map(|c| c as u16));
    let start: Box<[u16]> = start.into();
    let h0 = estimate(&start[1..]);
    let mut nodes = vec![Node {
        key: start.clone(),
        cost: (0, 0),
        parent: 0,
        step: (0, false),
    }];
    let mut index: FxHashMap<Box<[u16]>, u32> = FxHashMap::default();
    index.insert(start, 0);
    // Smallest f first; among equal f the node with the larger primary cost (closer
    // to a plan), then the earlier one.
    let mut queue = BinaryHeap::from([(Reverse((h0, h0)), 0u32, Reverse(0u32))]);
    let mut mask = vec![false; level.cell_count()];
    let mut cut_by_bound = false;
    let mut expanded = 0usize;

    while let Some((Reverse(f), _, Reverse(id))) = queue.pop() {
        let node = &nodes[id as usize];
        let cost = node.cost;
        let h = estimate(&node.key[1..]);
        if (cost.0 + h, cost.1 + h) != f {
            continue; // a cheaper path reached this node after it was queued
        }
        // Every plan passes through a queued state, whose f is at most its length.
        if f.0 as usize > board.lower() {
            board.raise_lower(f.0 as usize);
            if board.closed() {
                return (
                    Verdict::Stopped {
                        why: StopReason::Closed,
                    },
                    nodes.len(),
                );
            }
        }
        let key = node.key.clone();
        let solved = key[1..].iter().all(|&b| level.is_goal(b as usize));
        if let Some(trace) = trace {
            let via = (id != 0).then(|| {
                let (dir, push) = node.step;
                TracedStep::Move(Move {
                    dir: Direction::ALL[dir as usize],
                    push,
                })
            });
            let (f, g) = (f.0, cost.0);
            trace.expansion(&Expansion {
                f,
                g,
                h,
                via,
                solved,
            });
        }
        if solved {
            let plan = path_to(&nodes, id);
            return (
                Verdict::Solved {
                    plan,
                    optimal: true,
                },
                nodes.len(),
            );
        }
        expanded += 1;
        if expanded.is_multiple_of(1024) && stop.should_stop() {
            let why = StopReason::Time;
            return (Verdict::Stopped { why }, nodes.len());
        }
        mask.fill(false);
        for &b in &key[1..] {
            mask[b as usize] = true;
        }
        let player = key[0] as Cell;
        for (di, dir) in Direction::ALL.into_iter().enumerate() {
            let outcome = move_outcome(level, player, dir, &mut |c| Ok(mask[c]));
            let Ok(Ok(effect)) = outcome else {
                continue;
            };
            let mut boxes: Vec<u16> = key[1..].to_vec();
            if let Some((from, to)) = effect.box_move {
                if !analysis.live[to] || frozen_after(analysis, &mut mask, &boxes, from, to) {
                    continue;
                }
                let i = boxes
                    .iter()
                    .position(|&b| b as Cell == from)
                    .expect("pushed box");
                boxes[i] = to as u16;
                boxes.sort_unstable();
            }
            let step = step_cost(effect.pushed);
            let g = (cost.0 + step.0, cost.1 + step.1);
            let h = estimate(&boxes);
            let f = (g.0 + h, g.1 + h);
            if f.0 > max_steps {
                cut_by_bound = true;
                continue;
            }
            let mut child: Vec<u16> = Vec::with_capacity(boxes.len() + 1);
            child.push(effect.player_to as u16);
            child.extend_from_slice(&boxes);
            let child: Box<[u16]> = child.into();
            let id_next = match index.get(&child).copied() {
                Some(k) if nodes[k as usize].cost <= g => None,
                Some(k) => {
                    let n = &mut nodes[k as usize];
                    n.cost = g;
                    n.parent = id;
                    n.step = (di as u8, effect.pushed);
                    Some(k)
                }
                None => {
                    if nodes.len() >= limits.max_states {
                        let why = StopReason::Memory {
                            positions: nodes.len() as u64,
                        };
                        return (Verdict::Stopped { why }, nodes.len());
                    }
                    let k = nodes.len() as u32;
                    nodes.push(Node {
                        key: child.clone(),
                        cost: g,
                        parent: id,
                        step: (di as u8, effect.pushed),
                    });
                    index.insert(child, k);
                    Some(k)
                }
            };
            if let Some(k) = id_next {
                queue.push((Reverse(f), g.0, Reverse(k)));
            }
        }
    }
    let verdict = match (cut_by_bound, limits.max_steps) {
        (true, Some(bound)) => Verdict::NoPlan { bound },
        _ => Verdict::unsolvable("the search ran out of states that are not deadlocks"),
    };
    (verdict, nodes.len())
}

/// Whether the box pushed from `from` to `to` closes a freeze block (`mask` holds the
/// boxes before the push and is restored).
fn frozen_after(
    analysis: &Analysis,
    mask: &mut [bool],
    boxes: &[u16],
    from: Cell,
    to: Cell,
) -> bool {
    mask[from] = false;
    mask[to] = true;
    let others = boxes.iter().map(|&o| o as Cell).filter(|&o| o != from);
    let dead = (analysis.deadlocks).dead_after(&analysis.pair_table, to, |c| mask[c], others);
    mask[to] = false;
    mask[from] = true;
    dead
}

/// The moves from the start to node `id`.
fn path_to(nodes: &[Node], mut id: u32) -> Plan {
    let mut moves = Vec::new();
    while id != 0 {
        let node = &nodes[id as usize];
        let (dir, push) = node.step;
        moves.push(Move {
            dir: Direction::ALL[dir as usize],
            push,
        });
        id = node.parent;
    }
    moves.reverse();
    Plan { moves }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oracle::{SearchResult, shortest_moves, shortest_pushes};
    use crate::level::parse_xsb;

    fn search(text: &str, metric: Metric, max_steps: usize) -> Verdict {
        let level = parse_xsb("t", text).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let limits = StateLimits {
            max_steps: Some(max_steps),
            max_states: 1_000_000,
        };
        let board = Incumbent::new(metric);
        optimal_plan(
            &level,
            &analysis,
            metric,
            &limits,
            &Stop::never(),
            &board,
            None,
        )
        .0
    }

    #[test]
    fn move_and_push_optima_on_ice_agree_with_brute_force() {
        let text = "########\n#@ ~~  #\n# $~~$ #\n#  ..~ #\n########\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        for metric in [Metric::Moves, Metric::Pushes] {
            let Verdict::Solved { plan, optimal } = search(text, metric, 100) else {
                panic!("no plan for {metric}");
            };
            assert!(optimal);
            plan.verify(&level).unwrap();
            let oracle = match metric {
                Metric::Moves => shortest_moves(&level, 100, 1_000_000),
                Metric::Pushes => shortest_pushes(&level, 100, 1_000_000),
            };
            assert_eq!(oracle, SearchResult::Optimal(plan.count(metric)));
        }
    }

    #[test]
    fn bounds_and_dead_levels() {
        let text = "########\n#@ $  .#\n########\n";
        assert_eq!(search(text, Metric::Moves, 3), Verdict::NoPlan { bound: 3 });
        assert!(matches!(
            search(text, Metric::Moves, 4),
            Verdict::Solved { plan, .. } if plan.move_count() == 4
        ));
        // The only push sends the box over the ice into the far corner: dead.
        let text = "########\n#.@$~~ #\n########\n";
        assert!(matches!(
            search(text, Metric::Pushes, 50),
            Verdict::Unsolvable { .. }
        ));
    }
}
