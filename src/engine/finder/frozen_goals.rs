//! Boxes frozen on goals: a box that can move along neither axis, now or ever, stays
//! where it is in every plan, so it is a wall to the other boxes. If, with those walls,
//! another box can reach no goal left, or a goal left can be reached by no box (each
//! box alone, the player walking round it), the position is dead. Festival's
//! retrograde test asks the same with a fuller question (it pulls the boxes out of the
//! goals left, zone by zone).
//!
//! The reach of boxes is worked out once per set of frozen boxes met (one search from
//! each goal left) and kept; a position asks only which goals each of its boxes
//! reaches. The set changes only when a push freezes a box on a goal, which only the
//! box pushed or one beside it can be.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::analysis::distance::{UNREACHABLE, box_sides, push_distances_with_sides};
use crate::analysis::frozen;
use crate::level::{Cell, Direction, Level};

/// Frozen sets whose reach [`FrozenGoals`] keeps at most (then forgets them all).
const MOST_FROZEN_SETS: usize = 2048;

/// For each cell, bits over `goals`: bit `j` when a lone box on the cell can be pushed
/// onto `goals[j]` over `floor` (the player's region without the cells of the boxes
/// taken as walls).
fn reach_bits(level: &Level, floor: &[bool], goals: &[Cell]) -> Vec<u128> {
    let sides = box_sides(level, floor);
    let mut bits = vec![0u128; level.cell_count()];
    for (j, &goal) in goals.iter().enumerate() {
        if !floor[goal] {
            continue;
        }
        let pushes = push_distances_with_sides(level, floor, &sides, [goal]);
        for (c, &d) in pushes.iter().enumerate() {
            if d != UNREACHABLE {
                bits[c] |= 1 << j;
            }
        }
    }
    bits
}

/// Whether a box of `boxes` not on `walls` reaches none of the goals in `wanted` by
/// `reach`, or a goal of `wanted` is reached by none of them.
fn strands(reach: &[u128], boxes: &[u16], walls: impl Fn(Cell) -> bool, wanted: u128) -> bool {
    let mut covered = 0u128;
    for &b in boxes {
        let b = b as usize;
        if walls(b) {
            continue;
        }
        let goals = reach[b] & wanted;
        if goals == 0 {
            return true;
        }
        covered |= goals;
    }
    covered & wanted != wanted
}

/// The test by frozen goals of one search: the reach of boxes with each set of boxes
/// frozen on goals met (up to [`MOST_FROZEN_SETS`]), and the set of the position
/// being expanded.
pub struct FrozenGoals {
    /// The goals of the player's region (at most 128).
    goals: Vec<Cell>,
    /// By cell, its index among the goals (`usize::MAX` off them).
    index: Vec<usize>,
    region: Vec<bool>,
    /// By sorted set of boxes frozen on goals, the reach of the others.
    reach: FxHashMap<Vec<u16>, Arc<[u128]>>,
    /// The frozen boxes of the position being expanded, as cells and as a mask.
    frozen: Vec<u16>,
    is_frozen: Vec<bool>,
    /// Their reach and the goals they leave, as bits (`None` when no box is frozen
    /// on a goal).
    parent: Option<(Arc<[u128]>, u128)>,
    /// The region without the frozen boxes' cells (a buffer).
    floor: Vec<bool>,
}

impl FrozenGoals {
    /// The proof for `level`, whose player's region is `region`; `None` when it does
    /// not hold there: more than 128 goals, or not as many boxes as goals (then a box
    /// may end off the goals).
    pub fn new(level: &Level, region: &[bool]) -> Option<FrozenGoals> {
        let goals: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
        let boxes = level.box_cells().filter(|&b| region[b]).count();
        if goals.is_empty() || goals.len() > u128::BITS as usize || boxes != goals.len() {
            return None;
        }
        let cells = level.cell_count();
        let mut index = vec![usize::MAX; cells];
        for (j, &g) in goals.iter().enumerate() {
            index[g] = j;
        }
        Some(FrozenGoals {
            goals,
            index,
            region: region.to_vec(),
            reach: FxHashMap::default(),
            frozen: Vec::new(),
            is_frozen: vec![false; cells],
            parent: None,
            floor: Vec::new(),
        })
    }

    /// Takes the position being expanded, its boxes on `boxes` (a mask, and `cells`,
    /// the same in cell order): finds its boxes frozen on goals (`live`: the cells a
    /// box may stand on in a plan).
    pub fn expand(&mut self, level: &Level, live: &[bool], boxes: &[bool], cells: &[u16]) {
        for &b in &self.frozen {
            self.is_frozen[b as usize] = false;
        }
        self.frozen = frozen_on_goals(level, live, boxes, cells);
        for &b in &self.frozen {
            self.is_frozen[b as usize] = true;
        }
        self.parent = (!self.frozen.is_empty()).then(|| {
            let set = std::mem::take(&mut self.frozen);
            let reach = (self.reach_of(level, &set), self.wanted(&set));
            self.frozen = set;
            reach
        });
    }

    /// Whether the child of the position being expanded whose box came to `end`
    /// (laid out in `boxes`; `cells`, its boxes in cell order) is dead: a box frozen on a
    /// goal walls another box off from every goal left, or a goal left from every
    /// box. The boxes frozen are the parent's, or found again when the push may have
    /// frozen a box on a goal (the box pushed or one beside it).
    pub fn dead(
        &mut self,
        level: &Level,
        live: &[bool],
        (boxes, cells): (&[bool], &[u16]),
        end: Cell,
    ) -> bool {
        let near = std::iter::once(end).chain(Direction::ALL.map(|d| level.neighbor(end, d)));
        let freezes = near
            .filter(|&c| boxes[c] && level.is_goal(c) && !self.is_frozen[c])
            .any(|c| frozen(level, boxes, live, c));
        if freezes {
            let child = frozen_on_goals(level, live, boxes, cells);
            let reach = self.reach_of(level, &child);
            let walls = |b: Cell| child.binary_search(&(b as u16)).is_ok();
            strands(&reach, cells, walls, self.wanted(&child))
        } else if let Some((reach, wanted)) = &self.parent {
            strands(reach, cells, |b| self.is_frozen[b], *wanted)
        } else {
            false
        }
    }

    /// The goals not under the boxes `frozen`, as bits. A box frozen on a goal outside
    /// the region (where it never moves) has no bit.
    fn wanted(&self, frozen: &[u16]) -> u128 {
        let all = u128::MAX >> (u128::BITS as usize - self.goals.len());
        (frozen.iter())
            .map(|&b| self.index[b as usize])
            .filter(|&j| j != usize::MAX)
            .fold(all, |m, j| m & !(1 << j))
    }

    /// The reach of boxes with the boxes of `set` as walls, from the cache or worked
    /// out.
    fn reach_of(&mut self, level: &Level, set: &[u16]) -> Arc<[u128]> {
        if let Some(reach) = self.reach.get(set) {
            return reach.clone();
        }
        self.floor.clone_from(&self.region);
        for &b in set {
            self.floor[b as usize] = false;
        }
        let reach: Arc<[u128]> = reach_bits(level, &self.floor, &self.goals).into();
        if self.reach.len() >= MOST_FROZEN_SETS {
            self.reach.clear();
        }
        self.reach.insert(set.to_vec(), reach.clone());
        reach
    }
}

/// The boxes of `cells` (in cell order; `boxes`, the same as a mask) frozen on goals,
/// in cell order.
fn frozen_on_goals(level: &Level, live: &[bool], boxes: &[bool], cells: &[u16]) -> Vec<u16> {
    (cells.iter().copied())
        .filter(|&b| level.is_goal(b as usize) && frozen(level, boxes, live, b as usize))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::finder::random_pushes::check_random_pushes;

    #[test]
    fn every_position_frozen_goals_kill_is_unsolvable() {
        let check = |level: &Level, analysis: &crate::analysis::Analysis| {
            FrozenGoals::new(level, &analysis.region)
        };
        let (dead, confirmed) = check_random_pushes(200, (11, 37), check, |frozen, p| {
            // The position before the push is the one expanded.
            let before: Vec<u16> = (0..p.before.len())
                .filter(|&c| p.before[c])
                .map(|c| c as u16)
                .collect();
            frozen.expand(p.level, &p.analysis.live, p.before, &before);
            let position = (&p.after.boxes[..], &p.cells()[..]);
            frozen.dead(p.level, &p.analysis.live, position, p.to)
        });
        eprintln!("{dead} dead ({confirmed} confirmed)");
        assert!(confirmed >= 50, "{dead} {confirmed}");
    }
}
