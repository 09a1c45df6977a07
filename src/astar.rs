//! A* over push positions: the classical baseline the SAT encodings are measured
//! against, and an oracle for levels too large for the brute-force search of
//! [`search`](crate::search).
//!
//! A node is a box configuration plus the player's region, named by its smallest cell; an
//! edge is one push and costs 1, walks are free. The heuristic is the matching potential
//! ([`Analysis::matching_potential`]), a lower bound on the pushes left in every position,
//! and nodes are reopened when a cheaper path reaches them, so the first solved position
//! taken off the queue is push-optimal. Positions static analysis proves dead (dead
//! squares, freeze blocks, dead pairs and triples) are never generated, so a search that
//! runs out of positions proves the level unsolvable.
//!
//! Unlike the SAT encodings this search remembers every position it has seen, whatever
//! the step it was reached at: that memory is what a time-indexed formula lacks.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::analysis::{Analysis, DeadlockIndex};
use crate::level::{Cell, Direction, Level};
use crate::pathfind::Region;

/// The name reports give this search where they name a SAT solver.
pub const NAME: &str = "astar";

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct AstarLimits {
    /// Plans longer than this many pushes are not looked for.
    pub max_pushes: usize,
    /// Positions stored before the search gives up (memory grows with them).
    pub max_positions: usize,
    /// Wall-clock time after which the search gives up.
    pub deadline: Option<Instant>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchAnswer {
    /// A push-optimal plan, as pushes `(box cell before the push, direction)`.
    Optimal(Vec<(Cell, Direction)>),
    /// No plan of at most this many pushes exists.
    NoneWithin(usize),
    /// No plan exists at all.
    Unsolvable,
    /// Stopped by a limit or from outside before an answer; the number of positions
    /// stored.
    Stopped(usize),
}

/// One stored position.
struct Node {
    /// Box cells, sorted.
    boxes: Box<[u16]>,
    /// Smallest cell of the player's region.
    player: u16,
    /// Pushes on the best path found so far.
    pushes: u32,
    /// The node this one was reached from (itself for the start).
    parent: u32,
    /// The push from the parent: box cell before it and direction index.
    push: (u16, u8),
}

/// Static facts the search reads for every push.
struct Pruning<'a> {
    analysis: &'a Analysis,
    /// Heuristic per cell (`φ` of the matching potential; 0 outside the player's region).
    potential: Vec<i64>,
    offset: i64,
    /// The deadlock patterns by cell.
    deadlocks: DeadlockIndex,
}

impl Pruning<'_> {
    fn heuristic(&self, boxes: &[u16]) -> i64 {
        self.offset
            + boxes
                .iter()
                .map(|&b| self.potential[b as usize])
                .sum::<i64>()
    }

    /// Whether the box just pushed from `from` to `to` makes the position dead
    /// (`boxes` is the new box mask, `box_cells` the cells before the push).
    fn dead_after(&self, to: Cell, boxes: &[bool], box_cells: &[u16], from: Cell) -> bool {
        let others = box_cells.iter().map(|&o| o as usize).filter(|&o| o != from);
        self.deadlocks
            .dead_after(self.analysis, to, |c| boxes[c], others)
    }
}

/// Searches `level` (without ice; `analysis` is its static analysis) for a push-optimal
/// plan within `limits`. `cancel` stops it from another thread.
pub fn optimal_pushes(
    level: &Level,
    analysis: &Analysis,
    limits: &AstarLimits,
    cancel: &AtomicBool,
) -> SearchAnswer {
    if analysis.unsolvable.is_some() {
        return SearchAnswer::Unsolvable;
    }
    let cells = level.cell_count();
    let (potential, offset) = match &analysis.matching_potential {
        Some(m) => (m.cell.iter().map(|p| p.unwrap_or(0)).collect(), m.offset),
        None => (vec![0; cells], 0),
    };
    let pruning = Pruning {
        analysis,
        potential,
        offset,
        deadlocks: DeadlockIndex::new(analysis, cells),
    };

    let mut mask = level.initial_boxes().to_vec();
    // The expanded node's region, and its children's.
    let mut reach = Region::new(cells);
    let mut child_reach = Region::new(cells);
    let start_boxes: Box<[u16]> = level.box_cells().map(|c| c as u16).collect();
    let start_player = reach.fill(level, &mask, level.player());

    let mut nodes = vec![Node {
        boxes: start_boxes.clone(),
        player: start_player as u16,
        pushes: 0,
        parent: 0,
        push: (0, 0),
    }];
    let mut index: HashMap<(Box<[u16]>, u16), u32> = HashMap::new();
    index.insert((start_boxes.clone(), start_player as u16), 0);
    // Smallest f first; among equal f the deeper node, which is closer to a plan.
    let mut queue = BinaryHeap::from([(Reverse(pruning.heuristic(&start_boxes)), 0u32, 0u32)]);
    let mut cut_by_bound = false;
    let mut expanded = 0usize;

    while let Some((_, pushes, id)) = queue.pop() {
        let node = &nodes[id as usize];
        if node.pushes < pushes {
            continue; // a cheaper path reached this node after it was queued
        }
        if node.boxes.iter().all(|&b| level.is_goal(b as usize)) {
            return SearchAnswer::Optimal(path_to(&nodes, id));
        }
        expanded += 1;
        if expanded.is_multiple_of(1024)
            && (cancel.load(Ordering::Relaxed)
                || limits.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return SearchAnswer::Stopped(nodes.len());
        }
        let boxes = node.boxes.clone();
        mask.fill(false);
        for &b in boxes.iter() {
            mask[b as usize] = true;
        }
        reach.fill(level, &mask, node.player as usize);
        for (i, &b) in boxes.iter().enumerate() {
            let b = b as usize;
            for (di, d) in Direction::ALL.into_iter().enumerate() {
                let behind = level.neighbor(b, d.opposite());
                if !reach.contains(behind) {
                    continue;
                }
                let to = level.neighbor(b, d);
                if level.is_wall(to) || mask[to] || !analysis.live[to] {
                    continue;
                }
                mask[b] = false;
                mask[to] = true;
                if !pruning.dead_after(to, &mask, &boxes, b) {
                    let mut next: Box<[u16]> = boxes.clone();
                    next[i] = to as u16;
                    next.sort_unstable();
                    let player = child_reach.fill(level, &mask, b) as u16;
                    let g = pushes + 1;
                    let f = g as i64 + pruning.heuristic(&next);
                    if f > limits.max_pushes as i64 {
                        cut_by_bound = true;
                    } else {
                        let key = (next, player);
                        let known = index.get(&key).copied();
                        let id_next = match known {
                            Some(k) if nodes[k as usize].pushes <= g => None,
                            Some(k) => {
                                let n = &mut nodes[k as usize];
                                n.pushes = g;
                                n.parent = id;
                                n.push = (b as u16, di as u8);
                                Some(k)
                            }
                            None => {
                                if nodes.len() >= limits.max_positions {
                                    return SearchAnswer::Stopped(nodes.len());
                                }
                                let k = nodes.len() as u32;
                                nodes.push(Node {
                                    boxes: key.0.clone(),
                                    player,
                                    pushes: g,
                                    parent: id,
                                    push: (b as u16, di as u8),
                                });
                                index.insert(key, k);
                                Some(k)
                            }
                        };
                        if let Some(k) = id_next {
                            queue.push((Reverse(f), g, k));
                        }
                    }
                }
                mask[to] = false;
                mask[b] = true;
            }
        }
    }
    if cut_by_bound {
        SearchAnswer::NoneWithin(limits.max_pushes)
    } else {
        SearchAnswer::Unsolvable
    }
}

/// The pushes from the start to node `id`.
fn path_to(nodes: &[Node], mut id: u32) -> Vec<(Cell, Direction)> {
    let mut pushes = Vec::new();
    while id != 0 {
        let node = &nodes[id as usize];
        let (cell, dir) = node.push;
        pushes.push((cell as usize, Direction::ALL[dir as usize]));
        id = node.parent;
    }
    pushes.reverse();
    pushes
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::pathfind::plan_from_pushes;
    use crate::search::{SearchResult, shortest_pushes};

    fn limits(max_pushes: usize) -> AstarLimits {
        AstarLimits {
            max_pushes,
            max_positions: 1_000_000,
            deadline: None,
        }
    }

    fn run(text: &str, max_pushes: usize) -> SearchAnswer {
        let level = parse_xsb("t", text).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        optimal_pushes(
            &level,
            &analysis,
            &limits(max_pushes),
            &AtomicBool::new(false),
        )
    }

    #[test]
    fn finds_the_optimum_and_a_replayable_plan() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let result = optimal_pushes(&level, &analysis, &limits(50), &AtomicBool::new(false));
        let SearchAnswer::Optimal(pushes) = result else {
            panic!("no plan: {result:?}");
        };
        assert_eq!(
            shortest_pushes(&level, 50, 1_000_000),
            SearchResult::Optimal(pushes.len())
        );
        let plan = plan_from_pushes(&level, &pushes).unwrap();
        assert!(plan.verify(&level).is_ok());
    }

    /// Bounds, a dead level and a solved start: what every push search must answer
    /// (`run` solves a level text within a number of pushes). Shared with `pdr`.
    pub(crate) fn check_bounds_and_dead_levels(run: &dyn Fn(&str, usize) -> SearchAnswer) {
        let text = "########\n#@ $  .#\n########\n";
        assert_eq!(run(text, 2), SearchAnswer::NoneWithin(2));
        assert!(matches!(run(text, 3), SearchAnswer::Optimal(p) if p.len() == 3));
        // A box in a corner, off its goal: dead.
        assert_eq!(
            run("#####\n#.  #\n# @$#\n#####\n", 10),
            SearchAnswer::Unsolvable
        );
        // Already solved.
        assert_eq!(run("####\n#@*#\n####\n", 10), SearchAnswer::Optimal(vec![]));
    }

    #[test]
    fn bounds_and_dead_levels() {
        check_bounds_and_dead_levels(&run);
    }
}
