//! A small search over the pushes of a few boxes alone on the board, the others taken
//! off: the corral check and the knot proofs both ask it whether those boxes can get
//! somewhere. Dead squares and boxes frozen off their goals are not pushed into.

use crate::analysis::{Analysis, frozen_off_goal};
use crate::engine::table::PositionSet;
use crate::game::{Region, one_cell_push};
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// How a search over a few boxes runs and what it looks for.
pub struct FewBoxes<'a, Drop, Reached> {
    /// Distinct positions (boxes and player's region) visited before the search gives up.
    pub limit: usize,
    /// Read every 64 positions; a stopped search gives up.
    pub stop: &'a Stop,
    /// Before a position is looked at, may take boxes off (in the mask too): a box
    /// taken off asks an easier question.
    pub drop: Drop,
    /// Whether the position (its boxes, as cells and as a mask, and the player's region
    /// filled around them) is what the search looks for.
    pub reached: Reached,
}

impl<Drop, Reached> FewBoxes<'_, Drop, Reached>
where
    Drop: FnMut(&mut Vec<Cell>, &mut [bool]),
    Reached: FnMut(&[Cell], &[bool], &Region) -> bool,
{
    /// Whether pushes of `boxes` (sorted) alone, the player on `player`, reach a position
    /// the search looks for; a search that gives up answers yes. `mask` must be all
    /// false, and is left so; `region` is the fill's buffer and `seen` the positions
    /// visited (emptied first).
    pub fn reach(
        &mut self,
        (level, analysis): (&Level, &Analysis),
        (boxes, player): (&[Cell], Cell),
        (region, mask, seen): (&mut Region, &mut [bool], &mut PositionSet),
    ) -> bool {
        seen.clear();
        let mut stack: Vec<(Vec<Cell>, Cell)> = vec![(boxes.to_vec(), player)];
        let clear = |boxes: &[Cell], mask: &mut [bool]| boxes.iter().for_each(|&b| mask[b] = false);
        while let Some((mut boxes, player)) = stack.pop() {
            // Each step fills the player's region: on a big board, many are slow.
            if seen.len() % 64 == 63 && self.stop.should_stop() {
                return true;
            }
            for &b in &boxes {
                mask[b] = true;
            }
            (self.drop)(&mut boxes, mask);
            let name = region.fill(level, mask, player);
            if (self.reached)(&boxes, mask, region) {
                clear(&boxes, mask);
                return true;
            }
            if !seen.insert(&boxes, name) {
                clear(&boxes, mask);
                continue;
            }
            if seen.len() > self.limit {
                clear(&boxes, mask);
                return true;
            }
            for (i, &b) in boxes.iter().enumerate() {
                for d in Direction::ALL {
                    let Some((behind, to)) = one_cell_push(level, mask, b, d) else {
                        continue;
                    };
                    if !region.contains(behind) || !analysis.live[to] {
                        continue;
                    }
                    mask[b] = false;
                    mask[to] = true;
                    if !frozen_off_goal(level, mask, &analysis.live, to) {
                        let mut next = boxes.clone();
                        next[i] = to;
                        next.sort_unstable();
                        stack.push((next, b));
                    }
                    mask[to] = false;
                    mask[b] = true;
                }
            }
            clear(&boxes, mask);
        }
        false
    }
}
