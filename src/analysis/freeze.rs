//! Freeze deadlocks: 2×2 blocks filled with boxes and walls. No box of such a block can
//! ever move again (every push would need a free cell inside the block), so a block that
//! holds a box off its goal can never be part of a solution.

use crate::level::{Cell, Direction, Level};

/// The 2×2 blocks worth a clause: every cell is a wall or may hold a box (`live`), at
/// least one cell may hold a box, and at least one such cell is not a goal. Each block
/// is returned as its box-capable cells; the clause is "not all of these hold a box".
pub fn freeze_blocks(level: &Level, live: &[bool]) -> Vec<Vec<Cell>> {
    let mut blocks = Vec::new();
    for top_left in 0..level.cell_count() {
        let (Some(right), Some(down)) = (
            level.checked_neighbor(top_left, Direction::Right),
            level.checked_neighbor(top_left, Direction::Down),
        ) else {
            continue;
        };
        let Some(diagonal) = level.checked_neighbor(right, Direction::Down) else {
            continue;
        };
        let cells = [top_left, right, down, diagonal];
        if !cells.iter().all(|&c| level.is_wall(c) || live[c]) {
            continue;
        }
        let boxes: Vec<Cell> = cells.into_iter().filter(|&c| !level.is_wall(c)).collect();
        if !boxes.is_empty() && boxes.iter().any(|&c| !level.is_goal(c)) {
            blocks.push(boxes);
        }
    }
    // A pair along a wall is found from two squares; keep one clause per block.
    blocks.sort();
    blocks.dedup();
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Analysis;
    use crate::level::parse_xsb;

    #[test]
    fn two_boxes_along_a_wall_form_a_block() {
        let l = &parse_xsb("t", "#######\n#  .  #\n# $@$ #\n#  .  #\n#######\n").unwrap()[0];
        let a = Analysis::new(l);
        let blocks = freeze_blocks(l, &a.live);
        let cell = |r: usize, c: usize| (r + 1) * l.width() + c + 1;
        assert!(blocks.contains(&vec![cell(1, 2), cell(1, 3)]));
        assert!(blocks.contains(&vec![cell(1, 3), cell(1, 4)]));
    }

    #[test]
    fn frozen_boxes_are_found_through_their_neighbours() {
        // Two boxes side by side along the top wall, off their goals: frozen.
        let l = &parse_xsb("t", "#######\n# $$  #\n#   @ #\n#..   #\n#######\n").unwrap()[0];
        let a = Analysis::new(l);
        let [x, y]: [Cell; 2] = l.box_cells().collect::<Vec<_>>().try_into().unwrap();
        assert!(frozen_off_goal(l, l.initial_boxes(), &a.live, x));
        assert!(frozen_off_goal(l, l.initial_boxes(), &a.live, y));
        // One box in the open: free.
        let l = &parse_xsb("t", "#######\n#     #\n# $ @ #\n#.    #\n#######\n").unwrap()[0];
        let a = Analysis::new(l);
        let b = l.box_cells().next().unwrap();
        assert!(!frozen_off_goal(l, l.initial_boxes(), &a.live, b));
        // Frozen on their goals: no deadlock.
        let l = &parse_xsb("t", "#######\n# **  #\n#   @ #\n#     #\n#######\n").unwrap()[0];
        let a = Analysis::new(l);
        let b = l.box_cells().next().unwrap();
        assert!(!frozen_off_goal(l, l.initial_boxes(), &a.live, b));
    }

    #[test]
    fn goals_side_by_side_are_no_deadlock() {
        let l = &parse_xsb("t", "######\n#..  #\n# $$@#\n#    #\n######\n").unwrap()[0];
        let a = Analysis::new(l);
        let cell = |r: usize, c: usize| (r + 1) * l.width() + c + 1;
        assert!(!freeze_blocks(l, &a.live).contains(&vec![cell(1, 1), cell(1, 2)]));
    }
}

/// Whether the box on `cell` (in the position `boxes`, one flag per cell) is frozen
/// together with a box off its goal: it can move along neither axis, now or ever,
/// because on each axis a wall, two dead cells, or a box that is itself frozen on the
/// other axis holds it. Such a position can never be solved. `live` marks the cells a
/// box may stand on in a plan.
///
/// A box whose axis is blocked by another box is checked through that box, with the
/// boxes already on the path taken as walls (a box that holds its neighbour in place is
/// itself held while it does); this is the classic freeze test of push solvers.
pub fn frozen_off_goal(level: &Level, boxes: &[bool], live: &[bool], cell: Cell) -> bool {
    let (frozen, off_goal) = freeze(level, boxes, live, cell);
    frozen && (off_goal || !level.is_goal(cell))
}

/// Whether the box on `cell` (in the position `boxes`) is frozen, on its goal or off
/// it: it can move along neither axis, now or ever (as in [`frozen_off_goal`]). In a
/// plan such a box never moves again, so it is a wall to every other box.
pub fn frozen(level: &Level, boxes: &[bool], live: &[bool], cell: Cell) -> bool {
    freeze(level, boxes, live, cell).0
}

/// Whether the box on `cell` is frozen, and whether a box found frozen with it stands
/// off its goal (the classic freeze test: [`blocked`] on both axes).
fn freeze(level: &Level, boxes: &[bool], live: &[bool], cell: Cell) -> (bool, bool) {
    let (mut walls, mut off_goal) = (Vec::new(), false);
    let axes = [Axis::Horizontal, Axis::Vertical];
    let frozen = (axes.into_iter())
        .all(|axis| blocked(level, boxes, live, cell, axis, &mut walls, &mut off_goal));
    (frozen, off_goal)
}

/// The two axes a box can be pushed along.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    Horizontal,
    Vertical,
}

impl Axis {
    fn directions(self) -> [Direction; 2] {
        match self {
            Axis::Horizontal => [Direction::Left, Direction::Right],
            Axis::Vertical => [Direction::Up, Direction::Down],
        }
    }

    fn other(self) -> Axis {
        match self {
            Axis::Horizontal => Axis::Vertical,
            Axis::Vertical => Axis::Horizontal,
        }
    }
}

/// Whether the box on `cell` can never move along `axis`; `walls` are the boxes on the
/// path of the check (taken as walls), `off_goal` is set when a box found frozen stands
/// off its goal.
fn blocked(
    level: &Level,
    boxes: &[bool],
    live: &[bool],
    cell: Cell,
    axis: Axis,
    walls: &mut Vec<Cell>,
    off_goal: &mut bool,
) -> bool {
    let [a, b] = axis.directions().map(|d| level.neighbor(cell, d));
    let wall = |c: Cell, walls: &[Cell]| level.is_wall(c) || walls.contains(&c);
    if wall(a, walls) || wall(b, walls) || (!live[a] && !live[b]) {
        return true;
    }
    walls.push(cell);
    let held = [a, b].into_iter().any(|n| {
        boxes[n] && {
            let frozen = blocked(level, boxes, live, n, axis.other(), walls, off_goal);
            if frozen && !level.is_goal(n) {
                *off_goal = true;
            }
            frozen
        }
    });
    walls.pop();
    held
}
