//! A plan of box moves from a backward search (FESS's strategy with bases): from the
//! solved position, boxes are pulled off the goals, a whole way at a time, and a box
//! leaves the board when it is pulled onto a cell where a box starts (a **base**).
//! When every box has left, the search, read forward, says which start box goes to
//! which goal and where boxes wait on the way (parking). Its steps give the macro
//! search a feature: how long a prefix of the plan the position bears out.
//!
//! The search is greedy on how many boxes are still on the board, then on the pulls
//! they still need to bases. It estimates those first by each box's nearest base
//! (cheap), and where that runs out of positions, once more by the cheapest assignment
//! of the boxes to distinct bases ([`Estimate`]).
//!
//! The backward board is an approximation: a box that has left stands, in the real
//! position, on its base until its first move, but the backward search lets others
//! pass there. The plan is a guide for the features, never replayed as such.

use std::collections::{BinaryHeap, HashSet};
use std::cmp::Reverse;

use crate::analysis::Analysis;
// One step of the plan: a box comes to `to`; `until` is the step that takes it on
// (`None`: it stays there to the end). The packing pass with parking reads its plan
// forward in the same steps.
use crate::analysis::ParkingStep as PlanStep;
use crate::analysis::{cheapest_assignment, parking_plan};
use crate::analysis::distance::{UNREACHABLE, push_distances_from};
use crate::game::Region;
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// The plan, in forward order.
#[derive(Clone, Debug)]
pub struct BasePlan {
    steps: Vec<PlanStep>,
}

impl BasePlan {
    /// Steps in the plan.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// The steps in order: the cell each brings a box to, and the step that takes
    /// that box on (`None`: it stays to the end).
    pub fn steps(&self) -> Vec<(Cell, Option<usize>)> {
        self.steps.iter().map(|s| (s.to, s.until)).collect()
    }

    /// How many steps of the plan the position with boxes on `boxes` bears out: the
    /// longest prefix whose every step's box stands on its cell, unless a later step of
    /// the prefix has taken it on (FESS's packed boxes).
    pub fn packed(&self, boxes: &[bool]) -> usize {
        let mut packed = self.steps.len();
        for (i, step) in self.steps.iter().enumerate().rev() {
            if boxes[step.to] {
                continue;
            }
            if step.until.is_none_or(|u| u >= packed) {
                packed = i;
            }
        }
        packed
    }

    /// The plan of `level`, from a backward search of at most `max_nodes` positions by
    /// the nearest bases, and where that finds none, one more by the cheapest
    /// assignment; `None` when neither finds one (or `stop` says stop).
    pub fn search(
        level: &Level,
        analysis: &Analysis,
        max_nodes: usize,
        stop: &Stop,
    ) -> Option<BasePlan> {
        let mut backward = Backward::new(level, analysis);
        (backward.run(Estimate::Nearest, max_nodes, stop))
            .or_else(|| backward.run(Estimate::Assigned, max_nodes, stop))
    }

    /// The plan of `level` from the packing pass in which boxes may wait off the goals
    /// ([`parking_plan`]): for the levels where no box can come to the goals at the
    /// mouth of a dead end once the room beside it is full, which the backward search
    /// to the bases does not get past. `None` when it finds none (or `stop` says stop).
    pub fn with_parking(level: &Level, analysis: &Analysis, stop: &Stop) -> Option<BasePlan> {
        let steps = parking_plan(level, &analysis.region, stop)?;
        Some(BasePlan { steps })
    }
}

/// How the backward search estimates the pulls the boxes on the board still need.
///
/// By the nearest base, two boxes may count on the one base only one of them can
/// take, and the search can spend all its positions where the last boxes compete for
/// a base (on XSokoban it finds no plan on 9 of 90 levels within 20 000 positions or
/// a second). The cheapest assignment sees that and prunes positions whose boxes
/// cannot reach distinct bases, as no order of pulls empties them; it finds plans on
/// 3 of those 9. It costs more per position and leads to other plans, which the macro
/// searches follow no better: the finder alone, with it in place of the nearest base
/// on every level, solves 78 XSokoban levels at 60 s against 77, in 1.33× the time
/// (77: 36 s against 1.3 s). So it is the second try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Estimate {
    /// Each box's pulls to its nearest base left (a box no base left can reach is dead).
    Nearest,
    /// The cheapest assignment of the boxes to distinct bases left (none: dead).
    Assigned,
}

/// A position of the backward search.
struct Node {
    parent: u32,
    /// Boxes still on the board, in cell order, and the bases not yet taken.
    boxes: Vec<Cell>,
    bases: Vec<Cell>,
    /// A cell of the player's region.
    player: Cell,
    /// The pull that led here: the box's cell before and after.
    from: Cell,
    to: Cell,
}

struct Backward<'a> {
    level: &'a Level,
    /// Per base, the pushes a lone box needs from it to each cell: the pulls back.
    to_base: Vec<(Cell, Vec<u32>)>,
    region: Region,
    blocked: Vec<bool>,
    /// Per state (box cell × 4 + the player's side) and per cell, the stamp of the
    /// last [`Backward::pulls`] that reached it, filled the player's region round it,
    /// or gave its cell as a move.
    seen: Vec<u32>,
    covered: Vec<u32>,
    emitted: Vec<u32>,
    stamp: u32,
}

const NONE: Cell = Cell::MAX;

impl<'a> Backward<'a> {
    fn new(level: &'a Level, analysis: &'a Analysis) -> Backward<'a> {
        let cells = level.cell_count();
        let to_base = (level.box_cells())
            .filter(|&b| analysis.region[b])
            .map(|b| (b, push_distances_from(level, [b])))
            .collect();
        Backward {
            level,
            to_base,
            region: Region::new(level),
            blocked: vec![false; cells],
            seen: vec![0; cells * 4],
            covered: vec![0; cells * 4],
            emitted: vec![0; cells],
            stamp: 0,
        }
    }

    /// The boxes not on a base, and the pulls the boxes left still need to bases by
    /// `estimate`; `None` when a box can reach no base, or the boxes no distinct bases
    /// where the estimate assigns them. (A box stands on a base only where it started
    /// on a goal: a box pulled onto one leaves.)
    fn estimate(
        &self,
        estimate: Estimate,
        boxes: &[Cell],
        bases: &[Cell],
    ) -> Option<(usize, u32)> {
        let (off, nearest) = self.nearest(boxes, bases)?;
        match estimate {
            Estimate::Nearest => Some((off, nearest)),
            Estimate::Assigned => Some((off, self.assigned(boxes, bases)?)),
        }
    }

    /// Per base of `bases`, in cell order, the pulls a lone box needs from each cell.
    fn to_bases_left(&self, bases: &[Cell]) -> Vec<&Vec<u32>> {
        (self.to_base.iter())
            .filter(|(base, _)| bases.binary_search(base).is_ok())
            .map(|(_, d)| d)
            .collect()
    }

    /// The pulls of the cheapest assignment of the boxes on `boxes` to distinct bases of
    /// `bases` (a box on a base costs nothing there); `None` when there is none.
    fn assigned(&self, boxes: &[Cell], bases: &[Cell]) -> Option<u32> {
        let to_bases = self.to_bases_left(bases);
        let distance = |b: usize, base: usize| to_bases[base][boxes[b]];
        let (total, _) = cheapest_assignment(boxes.len(), to_bases.len(), distance)?;
        Some(total as u32)
    }

    /// The boxes not on a base, and the pulls each box still needs to its nearest base
    /// left; `None` when a box can reach none.
    fn nearest(&self, boxes: &[Cell], bases: &[Cell]) -> Option<(usize, u32)> {
        // Both lists are in cell order.
        let free = self.to_bases_left(bases);
        let mut sum = 0;
        let mut off = 0;
        for &b in boxes {
            if bases.binary_search(&b).is_ok() {
                continue;
            }
            off += 1;
            let near = (free.iter().map(|d| d[b]).min()).filter(|&d| d != UNREACHABLE)?;
            sum += near;
        }
        Some((off, sum))
    }

    fn run(&mut self, estimate: Estimate, max_nodes: usize, stop: &Stop) -> Option<BasePlan> {
        let level = self.level;
        let goals: Vec<Cell> = level.goal_cells().collect();
        let bases: Vec<Cell> = self.to_base.iter().map(|(b, _)| *b).collect();
        if goals.len() != bases.len() {
            return None;
        }
        // One root per region of the floor the player may stand in, the goals' boxes
        // in place.
        let mut mask = vec![false; level.cell_count()];
        for &g in &goals {
            mask[g] = true;
        }
        let mut nodes: Vec<Node> = Vec::new();
        let mut seen: HashSet<(Vec<Cell>, Vec<Cell>, Cell)> = HashSet::new();
        let mut queue = BinaryHeap::new();
        let mut named = vec![false; level.cell_count()];
        let (left, h) = self.estimate(estimate, &goals, &bases)?;
        for c in level.open_cells() {
            if mask[c] || named[c] {
                continue;
            }
            if stop.should_stop() {
                return None;
            }
            let name = self.region.fill(level, &mask, c);
            for (d, named) in named.iter_mut().enumerate() {
                *named |= self.region.contains(d);
            }
            if seen.insert((goals.clone(), bases.clone(), name)) {
                let node = Node {
                    parent: u32::MAX,
                    boxes: goals.clone(),
                    bases: bases.clone(),
                    player: c,
                    from: NONE,
                    to: NONE,
                };
                queue.push(Reverse((left, h, nodes.len() as u32)));
                nodes.push(node);
            }
        }
        let mut moves = Vec::new();
        while let Some(Reverse((_, _, id))) = queue.pop() {
            if stop.should_stop() || nodes.len() >= max_nodes {
                return None;
            }
            let (boxes, bases, player) = {
                let n = &nodes[id as usize];
                (n.boxes.clone(), n.bases.clone(), n.player)
            };
            mask.fill(false);
            for &b in &boxes {
                mask[b] = true;
            }
            self.region.fill(level, &mask, player);
            let reach = self.region.mask();
            for &b in &boxes {
                // An expansion on a board of thousands of cells takes long.
                if stop.should_stop() {
                    return None;
                }
                moves.clear();
                self.pulls((&mask, &reach), b, &mut moves, stop);
                for (k, &(to, player_after)) in moves.iter().enumerate() {
                    if k % 64 == 63 && stop.should_stop() {
                        return None;
                    }
                    let mut child_boxes: Vec<Cell> =
                        boxes.iter().copied().filter(|&x| x != b).collect();
                    let mut child_bases = bases.clone();
                    let on_board = match child_bases.binary_search(&to) {
                        Ok(i) => {
                            child_bases.remove(i); // the box leaves the board on its base
                            false
                        }
                        Err(_) => {
                            child_boxes.push(to);
                            child_boxes.sort_unstable();
                            true
                        }
                    };
                    let Some((left, h)) = self.estimate(estimate, &child_boxes, &child_bases)
                    else {
                        continue;
                    };
                    // The child's boxes: the parent's with this pull made.
                    (mask[b], mask[to]) = (false, on_board);
                    let name = self.region.fill(level, &mask, player_after);
                    (mask[to], mask[b]) = (false, true);
                    if !seen.insert((child_boxes.clone(), child_bases.clone(), name)) {
                        continue;
                    }
                    let child = nodes.len() as u32;
                    nodes.push(Node {
                        parent: id,
                        boxes: child_boxes,
                        bases: child_bases,
                        player: player_after,
                        from: b,
                        to,
                    });
                    if left == 0 {
                        return Some(self.plan(&nodes, child));
                    }
                    queue.push(Reverse((left, h, child)));
                }
            }
        }
        None
    }

    /// Every cell the box on `b` can be pulled to with the other boxes of `mask` in
    /// place, the player starting in `reach`: the cell and a cell of the player's
    /// region after, once per cell (fewer if `stop` says stop).
    fn pulls(
        &mut self,
        (mask, reach): (&[bool], &[bool]),
        b: Cell,
        out: &mut Vec<(Cell, Cell)>,
        stop: &Stop,
    ) {
        let level = self.level;
        self.stamp += 1;
        let stamp = self.stamp;
        self.blocked.copy_from_slice(mask);
        self.blocked[b] = false;
        let mut queue: Vec<usize> = Vec::new();
        for d in Direction::ALL {
            let at = level.neighbor(b, d);
            if !level.is_wall(at) && !mask[at] && reach[at] {
                let s = b * 4 + d.index();
                self.seen[s] = stamp;
                queue.push(s);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let s = queue[head];
            head += 1;
            if self.covered[s] == stamp {
                continue;
            }
            if head % 64 == 0 && stop.should_stop() {
                return;
            }
            let (c, d) = (s / 4, Direction::ALL[s % 4]);
            self.blocked[c] = true;
            let player = level.neighbor(c, d);
            self.region.fill(level, &self.blocked, player);
            for side in Direction::ALL {
                if self.region.contains(level.neighbor(c, side)) {
                    self.covered[c * 4 + side.index()] = stamp;
                }
            }
            if c != b && self.emitted[c] != stamp {
                self.emitted[c] = stamp;
                out.push((c, player));
            }
            for side in Direction::ALL {
                // The player on `side` pulls the box one cell toward it and steps on.
                let at = level.neighbor(c, side);
                if level.is_wall(at) || self.blocked[at] || !self.region.contains(at) {
                    continue;
                }
                let beyond = level.neighbor(at, side);
                if level.is_wall(beyond) || self.blocked[beyond] {
                    continue;
                }
                let t = at * 4 + side.index();
                if self.seen[t] != stamp {
                    self.seen[t] = stamp;
                    queue.push(t);
                }
            }
            self.blocked[c] = false;
        }
    }

    /// The plan read forward from the node where the last box left.
    fn plan(&self, nodes: &[Node], last: u32) -> BasePlan {
        // The pulls from the last back to the first are the forward moves in order,
        // each from where its pull took the box to where it came from. A box's next
        // move starts where this one ends.
        let mut forward: Vec<(Cell, Cell)> = Vec::new();
        let mut n = last;
        while nodes[n as usize].parent != u32::MAX {
            let node = &nodes[n as usize];
            forward.push((node.to, node.from));
            n = node.parent;
        }
        // Boxes that started on goals and never moved come first.
        let end = &nodes[last as usize];
        let mut steps: Vec<PlanStep> =
            (end.boxes.iter()).map(|&g| PlanStep { to: g, until: None }).collect();
        let first = steps.len();
        for (i, &(_, to)) in forward.iter().enumerate() {
            let until = (forward[i + 1..].iter())
                .position(|&(from, _)| from == to)
                .map(|j| first + i + 1 + j);
            steps.push(PlanStep { to, until });
        }
        BasePlan { steps }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn level(xsb: &str) -> Level {
        parse_xsb("t", xsb).unwrap().remove(0)
    }

    fn solved(level: &Level) -> Vec<bool> {
        (0..level.cell_count()).map(|c| level.is_goal(c)).collect()
    }

    #[test]
    fn a_plan_takes_each_start_box_to_a_goal_and_the_solved_position_bears_it_out() {
        let level = level("#######\n#.  $ #\n#.  $@#\n#######\n");
        let analysis = Analysis::new(&level);
        let plan = BasePlan::search(&level, &analysis, 10_000, &Stop::never()).expect("a plan");
        assert_eq!(plan.len(), 2);
        assert_eq!(plan.packed(level.initial_boxes()), 0);
        assert_eq!(plan.packed(&solved(&level)), plan.len());
        // A box that starts on a goal and need not move is the plan's first step.
        let level = level_with_a_box_at_home();
        let analysis = Analysis::new(&level);
        let plan = BasePlan::search(&level, &analysis, 10_000, &Stop::never()).expect("a plan");
        assert_eq!(plan.packed(level.initial_boxes()), 1);
        assert_eq!(plan.packed(&solved(&level)), plan.len());
    }

    fn level_with_a_box_at_home() -> Level {
        level("#######\n#*    #\n#  $. #\n#    @#\n#######\n")
    }

    #[test]
    fn a_parked_box_counts_until_a_later_step_of_the_prefix_takes_it_on() {
        // Cells 1, 2 and 3: a box is parked on 1 (step 0), another comes to 2 (step
        // 1), the first goes on to 3 (step 2).
        let steps = vec![
            PlanStep { to: 1, until: Some(2) },
            PlanStep { to: 2, until: None },
            PlanStep { to: 3, until: None },
        ];
        let plan = BasePlan { steps };
        let on = |cells: &[Cell]| (0..5).map(|c| cells.contains(&c)).collect::<Vec<_>>();
        assert_eq!(plan.packed(&on(&[])), 0);
        assert_eq!(plan.packed(&on(&[1])), 1);
        assert_eq!(plan.packed(&on(&[1, 2])), 2);
        // Moved on from 1 to 3: the whole plan is borne out.
        assert_eq!(plan.packed(&on(&[2, 3])), 3);
        // Moved on before the second box came: step 0 alone is borne out.
        assert_eq!(plan.packed(&on(&[3])), 0);
    }

    #[test]
    fn the_assigned_estimate_is_the_cheapest_assignment_to_distinct_bases() {
        use itertools::Itertools;
        // A box on the upper base can only be pushed along the upper row, one on the
        // lower base along the lower row.
        let level = level("#########\n#@ $  . #\n#  $  . #\n#########\n");
        let analysis = Analysis::new(&level);
        let mut backward = Backward::new(&level, &analysis);
        let bases: Vec<Cell> = backward.to_base.iter().map(|(b, _)| *b).collect();
        assert_eq!(bases.len(), 2);
        let mut pruned = 0;
        for boxes in level.open_cells().combinations(2) {
            let cheapest = (0..2)
                .permutations(2)
                .filter_map(|order| {
                    (order.iter().zip(&boxes))
                        .map(|(&base, &b)| Some(backward.to_base[base].1[b]))
                        .map(|d| d.filter(|&d| d != UNREACHABLE))
                        .sum::<Option<u32>>()
                })
                .min();
            assert_eq!(backward.assigned(&boxes, &bases), cheapest, "boxes on {boxes:?}");
            // Both boxes on one row: each has a nearest base, but not one each.
            if backward.nearest(&boxes, &bases).is_some() && cheapest.is_none() {
                pruned += 1;
            }
        }
        assert!(pruned > 0);
        let plan = backward.run(Estimate::Assigned, 10_000, &Stop::never());
        assert_eq!(plan.expect("a plan").len(), 2);
    }

    #[test]
    fn a_stopped_search_answers_at_once_without_a_plan() {
        let level = crate::engine::finder::big_open_room();
        let analysis = Analysis::new(&level);
        let past = Stop::new(Some(std::time::Instant::now()));
        assert!(BasePlan::search(&level, &analysis, 1_000_000, &past).is_none());
    }

    #[test]
    fn no_plan_when_a_box_can_reach_no_base() {
        // The box in the corner can never have come from the start cell.
        let level = level("######\n#$  .#\n#  @ #\n######\n");
        let analysis = Analysis::new(&level);
        assert!(BasePlan::search(&level, &analysis, 10_000, &Stop::never()).is_none());
    }

    #[test]
    fn where_the_bases_give_no_plan_the_pass_with_parking_gives_one() {
        let level = level(crate::analysis::ROOM_BESIDE_A_DEAD_END);
        let analysis = Analysis::new(&level);
        assert!(BasePlan::search(&level, &analysis, 20_000, &Stop::never()).is_none());
        let plan = BasePlan::with_parking(&level, &analysis, &Stop::never()).expect("a plan");
        // Its boxes that wait off the goals count as borne out while they wait, and
        // once taken on to their goals.
        assert_eq!(plan.packed(level.initial_boxes()), 0);
        assert_eq!(plan.packed(&solved(&level)), plan.len());
        let steps = plan.steps();
        let first_wait = steps.iter().position(|s| s.1.is_some()).expect("a box waits");
        let mut waiting = vec![false; level.cell_count()];
        for &(to, _) in &steps[..=first_wait] {
            waiting[to] = true;
        }
        assert_eq!(plan.packed(&waiting), first_wait + 1);
    }
}
