//! Learned deadlocks: a few boxes jammed together that can never all reach goals,
//! whatever the other boxes do. Such a knot is found where the search makes it (the
//! boxes touching the box pushed last), proved by a small search over those boxes
//! alone, shrunk to the boxes it needs, and kept: every later position holding the
//! same boxes on the same cells, with the player on the same side of them, is dead.
//!
//! Taking boxes off the board only makes a level easier (every push of the boxes left
//! can still be made), so if the boxes of a knot alone cannot all be brought onto
//! goals, no position holding them can be solved. For the same reason the small
//! search may drop a box as soon as it stands free (it can be pushed along both axes):
//! it then asks an easier question, and a "no" still holds. FESS learns deadlocks from
//! subtrees in the same spirit; this is our own, simpler trigger.

use rustc_hash::FxHashMap;

use super::few_boxes::FewBoxes;
use crate::analysis::Analysis;
use crate::engine::table::PositionSet;
use crate::game::Region;
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// The most boxes in a knot the search looks at.
const MOST_BOXES: usize = 6;

/// Positions one proof may visit before it gives up (the knot counts as loose).
const LIMIT: usize = 1_000;

/// Knots proved loose, kept at most (then forgotten and proved again when met).
const MOST_LOOSE: usize = 1 << 16;

/// A proved knot: its boxes and the cells the player may stand on for it to be dead
/// (the player's region with only the knot's boxes on the board).
struct Knot {
    boxes: Vec<Cell>,
    player: Vec<bool>,
}

/// The knots learned by one search, and the buffers of their proofs.
pub struct Knots {
    /// The knots, by their smallest cell.
    by_cell: FxHashMap<Cell, Vec<Knot>>,
    /// Boxes and player region name of knots proved loose.
    loose: PositionSet,
    region: Region,
    mask: Vec<bool>,
    /// The positions a proof visited.
    seen: PositionSet,
    /// Knots proved.
    pub learned: u64,
    /// Positions found dead by a knot.
    pub hits: u64,
    stop: Stop,
}

impl Knots {
    /// No knot known yet on `level`; each proof reads `stop`.
    pub fn new(level: &Level, stop: Stop) -> Knots {
        Knots {
            by_cell: FxHashMap::default(),
            loose: PositionSet::new(level.cell_count()),
            region: Region::new(level),
            mask: vec![false; level.cell_count()],
            seen: PositionSet::new(level.cell_count()),
            learned: 0,
            hits: 0,
            stop,
        }
    }

    /// Whether the position `boxes` (a mask, the box cells in `cells`), the player's
    /// region named by `player`, holds a knot: one learned before, or one the box
    /// pushed onto `pushed` just made.
    pub fn dead(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        position: (&[bool], &[u16]),
        player: Cell,
        pushed: Cell,
    ) -> bool {
        (self.locate(level, analysis, position, player, pushed)).is_some()
    }

    /// The cells of the knot [`Knots::dead`] finds in the position, `None` when it
    /// finds none.
    pub fn knot_in(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        position: (&[bool], &[u16]),
        player: Cell,
        pushed: Cell,
    ) -> Option<Vec<Cell>> {
        let (cell, i) = self.locate(level, analysis, position, player, pushed)?;
        Some(self.by_cell[&cell][i].boxes.clone())
    }

    /// Where the knot of [`Knots::dead`] is kept (its smallest cell and its index
    /// there): one learned before, or one the box pushed onto `pushed` makes, proved
    /// now and kept.
    fn locate(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        (boxes, cells): (&[bool], &[u16]),
        player: Cell,
        pushed: Cell,
    ) -> Option<(Cell, usize)> {
        if let Some(at) = self.known(boxes, cells, player) {
            self.hits += 1;
            return Some(at);
        }
        let mut knot = cluster(level, boxes, pushed);
        if knot.len() < 2 {
            return None;
        }
        knot.sort_unstable();
        let name = self.fill(level, &knot, player);
        if self.loose.contains(&knot, name) {
            return None;
        }
        if self.solvable(level, analysis, &knot, player) {
            if self.loose.len() >= MOST_LOOSE {
                self.loose.clear();
            }
            self.loose.insert(&knot, name);
            return None;
        }
        // Shrink it to the boxes it needs: a smaller knot is met more often.
        let mut i = 0;
        while i < knot.len() && knot.len() > 1 {
            let mut fewer = knot.clone();
            fewer.remove(i);
            if self.solvable(level, analysis, &fewer, player) {
                i += 1;
            } else {
                knot = fewer;
            }
        }
        self.fill(level, &knot, player);
        let region: Vec<bool> = (0..level.cell_count())
            .map(|c| self.region.contains(c))
            .collect();
        let first = knot[0];
        let kept = self.by_cell.entry(first).or_default();
        kept.push(Knot {
            boxes: knot,
            player: region,
        });
        self.learned += 1;
        Some((first, kept.len() - 1))
    }

    /// Where a knot learned before that lies in the position is kept.
    fn known(&self, boxes: &[bool], cells: &[u16], player: Cell) -> Option<(Cell, usize)> {
        cells.iter().find_map(|&c| {
            let knots = self.by_cell.get(&(c as Cell))?;
            let i = (knots.iter())
                .position(|k| k.player[player] && k.boxes.iter().all(|&b| boxes[b]))?;
            Some((c as Cell, i))
        })
    }

    /// Fills the player's region from `player` with only the `knot`'s boxes on the
    /// board, and names it.
    fn fill(&mut self, level: &Level, knot: &[Cell], player: Cell) -> Cell {
        for &b in knot {
            self.mask[b] = true;
        }
        let name = self.region.fill(level, &self.mask, player);
        for &b in knot {
            self.mask[b] = false;
        }
        name
    }

    /// Whether the boxes of `knot` alone, the player on `player`, can all be brought
    /// onto goals (boxes that stand free dropped on the way). A search that hits
    /// [`LIMIT`], or is stopped, answers yes.
    fn solvable(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        knot: &[Cell],
        player: Cell,
    ) -> bool {
        let mut search = FewBoxes {
            limit: LIMIT,
            stop: &self.stop,
            drop: |boxes: &mut Vec<Cell>, mask: &mut [bool]| {
                boxes.retain(|&b| {
                    let free = stands_free(level, mask, b);
                    if free {
                        mask[b] = false;
                    }
                    !free
                })
            },
            reached: |boxes: &[Cell], _: &[bool], _: &Region| {
                boxes.iter().all(|&b| level.is_goal(b))
            },
        };
        let buffers = (&mut self.region, &mut self.mask[..], &mut self.seen);
        search.reach((level, analysis), (knot, player), buffers)
    }
}

/// Whether the box on `b` can be pushed along both axes (the cells on both sides free
/// both ways): it jams nothing, and the proof may drop it.
fn stands_free(level: &Level, mask: &[bool], b: Cell) -> bool {
    let open = |d: Direction| {
        let n = level.neighbor(b, d);
        !level.is_wall(n) && !mask[n]
    };
    Direction::ALL.into_iter().all(open)
}

/// The boxes touching the box on `from`, side or corner, and those touching them, up to
/// [`MOST_BOXES`], nearest first.
fn cluster(level: &Level, boxes: &[bool], from: Cell) -> Vec<Cell> {
    let mut knot = vec![from];
    let mut i = 0;
    while i < knot.len() && knot.len() < MOST_BOXES {
        let c = knot[i];
        for d in Direction::ALL {
            let side = level.neighbor(c, d);
            // A box is off the padding of walls, so its corners are on the grid.
            let corner = level.neighbor(side, d.clockwise());
            for n in [side, corner] {
                if !level.is_wall(n) && boxes[n] && !knot.contains(&n) && knot.len() < MOST_BOXES {
                    knot.push(n);
                }
            }
        }
        i += 1;
    }
    knot
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::finder::random_pushes::check_random_pushes;
    use crate::level::parse_xsb;

    #[test]
    fn a_knot_is_the_boxes_touching_side_or_corner() {
        let level = parse_xsb(
            "t",
            "#######\n#$    #\n# $ $ #\n#  $  #\n#@....#\n#######\n",
        )
        .unwrap()
        .remove(0);
        let boxes = level.initial_boxes();
        let name = |cells: Vec<Cell>| -> Vec<String> {
            let mut names: Vec<String> = cells.iter().map(|&c| level.cell_name(c)).collect();
            names.sort();
            names
        };
        // Corner to corner from the top left; the box on row 2 at the right touches
        // the one below it only at a corner as well.
        let top_left = level.box_cells().next().unwrap();
        assert_eq!(cluster(&level, boxes, top_left).len(), 4);
        let lone = parse_xsb("t", "#######\n#$    #\n#   $ #\n#@..  #\n#######\n")
            .unwrap()
            .remove(0);
        let first = lone.box_cells().next().unwrap();
        assert_eq!(
            name(cluster(&lone, lone.initial_boxes(), first)),
            name(vec![first])
        );
    }

    #[test]
    fn every_position_a_knot_kills_is_unsolvable() {
        // Wherever a knot (learned then or before) calls a position dead, brute force
        // over the rules must agree.
        let (mut learned, mut hits) = (0, 0);
        let check = |level: &Level, _: &Analysis| Some(Knots::new(level, Stop::never()));
        let (dead, confirmed) = check_random_pushes(120, (7, 31), check, |knots, p| {
            let cells = p.cells();
            let position = (&p.after.boxes[..], &cells[..]);
            let (was_learned, were_hits) = (knots.learned, knots.hits);
            let dead = knots.dead(p.level, p.analysis, position, p.after.player, p.to);
            learned += knots.learned - was_learned;
            hits += knots.hits - were_hits;
            dead
        });
        eprintln!("{dead} dead ({confirmed} confirmed), {learned} knots learned, {hits} met again");
        // Brute force must settle most of them, or the test proves little.
        assert!(
            confirmed >= 400 && learned >= 100 && hits >= 300,
            "{confirmed} {learned} {hits}"
        );
    }
}
