//! The player's region: the open cells connected to the player, boxes ignored.

use std::collections::VecDeque;

use crate::level::{Direction, Level};

/// Cells the player could ever stand on or a box could ever reach: the non-wall cells
/// connected to the player's start, treating boxes as floor. Anything outside it never
/// changes during play.
pub fn player_region(level: &Level) -> Vec<bool> {
    let mut seen = vec![false; level.cell_count()];
    let mut queue = VecDeque::from([level.player()]);
    seen[level.player()] = true;
    while let Some(cell) = queue.pop_front() {
        for dir in Direction::ALL {
            let next = level.neighbor(cell, dir);
            if !level.is_wall(next) && !seen[next] {
                seen[next] = true;
                queue.push_back(next);
            }
        }
    }
    seen
}
