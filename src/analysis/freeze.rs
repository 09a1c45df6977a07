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
    fn goals_side_by_side_are_no_deadlock() {
        let l = &parse_xsb("t", "######\n#..  #\n# $$@#\n#    #\n######\n").unwrap()[0];
        let a = Analysis::new(l);
        let cell = |r: usize, c: usize| (r + 1) * l.width() + c + 1;
        assert!(!freeze_blocks(l, &a.live).contains(&vec![cell(1, 1), cell(1, 2)]));
    }
}
