//! Corral deadlocks: a part of the board the player cannot reach, fenced by boxes and
//! walls, that no sequence of pushes of its fence can open again.
//!
//! The check keeps only the boxes that touch the corral (the others are taken off the
//! board, which can only help the fence) and searches the pushes of those boxes from the
//! position: as soon as the player can step into the corral, or every one of the boxes
//! stands on a goal with no empty goal left inside, the corral is not a deadlock. If the
//! search runs out of positions first, no plan can open the corral from here, and the
//! position is dead. The search is capped; a capped search proves nothing.
//!
//! The **strict** check asks more of the fence: the player must come to a board with no
//! corral at all (every free cell of the floor in its region, only the fence's boxes on
//! the board), or every fence box must stand on a goal. Stepping into the corral is not
//! enough: in a corridor whose boxes can move only along it, the player can step into
//! the corral by pushing a box ahead into it and still never open the rest. Any plan,
//! cut down to the fence's boxes, ends with them on goals, so a search that reaches
//! neither proves the corral dead. It looks at every corral of a position, not only the
//! one beside the last push, so the macro searches run it once per position they
//! expand rather than per child.

use super::few_boxes::FewBoxes;
use crate::analysis::Analysis;
use crate::engine::table::PositionSet;
use crate::game::{Region, one_cell_push};
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// Positions one check may visit before it gives up (and calls the corral open).
const LIMIT: usize = 2_000;

/// The same for the strict check, which runs on every position a macro search expands
/// and, wanting a board without corrals, runs to its cap more often.
const STRICT_LIMIT: usize = 200;

/// The corral check with its buffers.
pub struct Corrals {
    region: Region,
    /// The cells of the corral being checked (a stamp per cell).
    corral: Vec<u32>,
    stamp: u32,
    /// Results by the corral's boxes (sorted) marked by the player's region name, of
    /// the plain check (index 0) and the strict one (index 1).
    dead: [PositionSet; 2],
    open: [PositionSet; 2],
    /// The positions a check's search visited.
    seen: PositionSet,
    /// Checks run, and positions they found dead.
    pub checks: u64,
    /// Of the checks, those that proved a deadlock.
    pub deadlocks: u64,
    /// A check's search gives up (answers "opens") when this says stop.
    stop: Stop,
}

impl Corrals {
    /// Buffers for `level`; each check reads `stop`.
    pub fn new(level: &Level, stop: Stop) -> Corrals {
        Corrals {
            region: Region::new(level),
            corral: vec![0; level.cell_count()],
            stamp: 0,
            dead: [(); 2].map(|_| PositionSet::new(level.cell_count())),
            open: [(); 2].map(|_| PositionSet::new(level.cell_count())),
            seen: PositionSet::new(level.cell_count()),
            checks: 0,
            deadlocks: 0,
            stop,
        }
    }

    /// The pushes of a PI-corral of the position `boxes` (a mask) with the player's
    /// region `reach`, if it has one: a corral whose every push the player can make
    /// from its fence goes into it, and the player can make all of them now. Such a
    /// corral has to be entered sooner or later, and pushes elsewhere do not change
    /// that, so only its pushes need to be tried (the pruning of JSoko and YASS). The
    /// corral with the fewest pushes is taken; `None` when there is none.
    pub fn pi_pushes(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        boxes: &[bool],
        reach: &Region,
        floor: &[Cell],
    ) -> Option<Vec<(Cell, Direction)>> {
        let mut best: Option<Vec<(Cell, Direction)>> = None;
        for (fence, cells, stamp) in self.every_corral(level, boxes, reach, floor) {
            let inside = |c: Cell, corral: &[u32], stamp: u32| corral[c] == stamp;
            // The fence the player touches: boxes next to both the corral and the region.
            let barrier = fence.iter().copied().filter(|&b| {
                Direction::ALL
                    .iter()
                    .any(|&d| reach.contains(level.neighbor(b, d)))
            });
            let mut pushes = Vec::new();
            let mut pi = true;
            'fence: for b in barrier {
                for d in Direction::ALL {
                    let Some((behind, to)) = one_cell_push(level, boxes, b, d) else {
                        continue; // no push this way, ever from here
                    };
                    if !analysis.live[to] || level.is_wall(behind) {
                        continue;
                    }
                    let into = inside(to, &self.corral, stamp);
                    let now = reach.contains(behind);
                    match (into, now) {
                        (true, true) => pushes.push((b, d)),
                        // A push out of the corral, or into it but not possible now.
                        (false, true) | (true, false) => {
                            pi = false;
                            break 'fence;
                        }
                        (false, false) => {}
                    }
                }
            }
            let worth = cells.iter().any(|&c| level.is_goal(c) && !boxes[c])
                || fence.iter().any(|&b| !level.is_goal(b));
            if pi
                && worth
                && !pushes.is_empty()
                && best.as_ref().is_none_or(|p| pushes.len() < p.len())
            {
                best = Some(pushes);
            }
        }
        best
    }

    /// Whether the position `boxes` (a mask), with the player's region `reach` (filled
    /// around `boxes`), has a corral next to the box on `pushed` that can never be
    /// opened.
    pub fn dead(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        boxes: &[bool],
        reach: &Region,
        pushed: Cell,
    ) -> bool {
        // The corrals are the unreachable floor next to the pushed box.
        let first = self.stamp + 1;
        for dir in Direction::ALL {
            let start = level.neighbor(pushed, dir);
            if level.is_wall(start) || boxes[start] || reach.contains(start) {
                continue;
            }
            if self.corral[start] >= first {
                continue; // this corral was checked from another side
            }
            let (fence, cells) = self.fill_corral(level, boxes, start);
            if self.fence_is_dead(level, analysis, boxes, reach, (&fence, &cells), None) {
                return true;
            }
        }
        false
    }

    /// Whether any corral of the position `boxes` (a mask), with the player's region
    /// `reach`, is dead by the strict test: pushes of its fence alone never leave the
    /// player a board without corrals, nor bring every fence box onto a goal.
    pub fn any_dead_strict(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        boxes: &[bool],
        reach: &Region,
        floor: &[Cell],
    ) -> bool {
        (self.dead_fence_strict(level, analysis, boxes, reach, floor)).is_some()
    }

    /// The fence (sorted) of a corral of the position `boxes` (a mask), with the
    /// player's region `reach`, that is dead by the strict test of
    /// [`Corrals::any_dead_strict`]; `None` when there is none.
    pub fn dead_fence_strict(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        boxes: &[bool],
        reach: &Region,
        floor: &[Cell],
    ) -> Option<Vec<Cell>> {
        let corrals = self.every_corral(level, boxes, reach, floor);
        corrals.into_iter().find_map(|(fence, cells, _)| {
            self.fence_is_dead(level, analysis, boxes, reach, (&fence, &cells), Some(floor))
                .then_some(fence)
        })
    }

    /// Every corral of the position `boxes` (a mask) with the player's region `reach`,
    /// found from the cells of `floor`: its fence (sorted), its cells, and the stamp
    /// its cells bear in `self.corral`.
    fn every_corral(
        &mut self,
        level: &Level,
        boxes: &[bool],
        reach: &Region,
        floor: &[Cell],
    ) -> Vec<(Vec<Cell>, Vec<Cell>, u32)> {
        let first = self.stamp + 1;
        let mut corrals = Vec::new();
        for &start in floor {
            if boxes[start] || reach.contains(start) || self.corral[start] >= first {
                continue;
            }
            let (fence, cells) = self.fill_corral(level, boxes, start);
            corrals.push((fence, cells, self.stamp));
        }
        corrals
    }

    /// Marks the corral around `start` with a new stamp and returns its fence (the
    /// boxes next to it, sorted) and its cells.
    fn fill_corral(&mut self, level: &Level, boxes: &[bool], start: Cell) -> (Vec<Cell>, Vec<Cell>) {
        self.stamp += 1;
        let cells = self.region.fill_cells(level, boxes, start).to_vec();
        let mut fence = Vec::new();
        for &c in &cells {
            self.corral[c] = self.stamp;
            for d in Direction::ALL {
                let n = level.neighbor(c, d);
                if boxes[n] && !fence.contains(&n) {
                    fence.push(n);
                }
            }
        }
        fence.sort_unstable();
        (fence, cells)
    }

    /// Whether the fence (with the corral stamped in `self.corral`) can never be
    /// opened from the position.
    fn fence_is_dead(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        boxes: &[bool],
        reach: &Region,
        (fence, cells): (&[Cell], &[Cell]),
        strict: Option<&[Cell]>,
    ) -> bool {
        // The player's start: any cell of its region next to the fence.
        let Some(player) = fence.iter().find_map(|&b| {
            Direction::ALL
                .iter()
                .map(|&d| level.neighbor(b, d))
                .find(|&c| reach.contains(c))
        }) else {
            return false;
        };
        let name = self.region.fill(level, boxes, player);
        let kind = usize::from(strict.is_some());
        if self.dead[kind].contains(fence, name) {
            return true;
        }
        if self.open[kind].contains(fence, name) {
            return false;
        }
        self.checks += 1;
        let dead = !search_opens(
            level,
            analysis,
            fence,
            player,
            (cells, strict),
            (&mut self.region, &mut self.seen),
            &self.stop,
        );
        if dead {
            self.deadlocks += 1;
            self.dead[kind].insert(fence, name);
        } else {
            self.open[kind].insert(fence, name);
        }
        dead
    }
}

/// Whether pushes of the fence boxes alone (starting on `fence`, the player on
/// `player`) can open the corral of `cells` (with `strict`, the floor: leave no corral
/// on it, or bring every fence box home): the player steps into it, or every fence
/// box stands on a goal and no goal of the corral is empty. A search
/// that hits its cap, or is stopped, answers yes.
fn search_opens(
    level: &Level,
    analysis: &Analysis,
    fence: &[Cell],
    player: Cell,
    (cells, strict): (&[Cell], Option<&[Cell]>),
    (region, seen): (&mut Region, &mut PositionSet),
    stop: &Stop,
) -> bool {
    let goals_inside: Vec<Cell> = (cells.iter().copied())
        .filter(|&c| level.is_goal(c))
        .collect();
    let mut mask = vec![false; level.cell_count()];
    let mut search = FewBoxes {
        limit: if strict.is_some() { STRICT_LIMIT } else { LIMIT },
        stop,
        drop: |_: &mut Vec<Cell>, _: &mut [bool]| {},
        reached: |boxes: &[Cell], mask: &[bool], region: &Region| {
            if let Some(floor) = strict {
                let home = boxes.iter().all(|&b| level.is_goal(b));
                return home || floor.iter().all(|&c| mask[c] || region.contains(c));
            }
            let opened = cells.iter().any(|&c| region.contains(c));
            let home =
                boxes.iter().all(|&b| level.is_goal(b)) && goals_inside.iter().all(|&g| mask[g]);
            opened || home
        },
    };
    search.reach((level, analysis), (fence, player), (region, &mut mask, seen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    /// The position at the start of `text`: its level, analysis, the player's region
    /// and the floor.
    fn start(text: &str) -> (Level, Analysis, Region, Vec<Cell>) {
        let level = parse_xsb("t", text).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let mut reach = Region::new(&level);
        reach.fill(&level, level.initial_boxes(), level.player());
        let floor = (0..level.cell_count()).filter(|&c| analysis.region[c]).collect();
        (level, analysis, reach, floor)
    }

    /// A corridor corral the player can step into (the box below pushed up into it)
    /// but never open: the boxes in the corridor move only along it, and the player
    /// never gets beside them.
    #[test]
    fn the_strict_check_sees_a_corral_the_player_enters_but_never_opens() {
        let text = "########\n### ####\n# $  $ #\n### ####\n### ####\n#  $   #\n#@ ... #\n########\n";
        let (level, analysis, reach, floor) = start(text);
        let boxes = level.initial_boxes();
        // The box below the corridor, the last in cell order.
        let below = level.box_cells().max().unwrap();
        let mut corrals = Corrals::new(&level, Stop::never());
        assert!(!corrals.dead(&level, &analysis, boxes, &reach, below), "the player steps in");
        assert!(corrals.any_dead_strict(&level, &analysis, boxes, &reach, &floor));
        // Its fence: the three boxes round the corridor's corral.
        let fence = corrals.dead_fence_strict(&level, &analysis, boxes, &reach, &floor);
        assert_eq!(fence, Some(level.box_cells().collect()));
        // A door the player pushes open: no corral is left once the box is through.
        let (level, analysis, reach, floor) = start("#######\n#  #  #\n#@ $ .#\n#  #  #\n#######\n");
        let boxes = level.initial_boxes();
        let mut corrals = Corrals::new(&level, Stop::never());
        assert!(!corrals.any_dead_strict(&level, &analysis, boxes, &reach, &floor));
        assert_eq!(corrals.dead_fence_strict(&level, &analysis, boxes, &reach, &floor), None);
    }
}
