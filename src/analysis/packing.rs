//! The packing order: in which order to fill the goals, found backward from the solved
//! position. Where goals crowd a room, a box pushed onto the goal by the entrance first
//! blocks the way to the goals behind it; the strong solvers (FESS, YASS, JSoko) plan
//! the order in reverse, as the order in which the boxes could be pulled back out.
//!
//! Backward: with a box on every goal, take out, one at a time, a box that can be pulled
//! off the goal cells with the others still in place; the order of the removals,
//! reversed, is the order of filling (the goal emptied last is filled first). Goals
//! whose box cannot be taken out come first. The order is a guide for the plan finder,
//! not a proof of anything.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::level::{Cell, Direction, Level};

/// The most goals ordered: the order asks a search of every remaining goal for every
/// goal taken out, so on a level of a thousand goals it would take hours. Beyond it the
/// goals come in cell order (real collections have a few dozen goals at most).
const MAX_ORDERED_GOALS: usize = 100;

/// The goals of `level` in the player's `region`, in the order to fill them.
pub fn packing_order(level: &Level, region: &[bool]) -> Vec<Cell> {
    let goals: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
    if goals.len() > MAX_ORDERED_GOALS {
        return goals;
    }
    let mut boxes = vec![false; level.cell_count()];
    for &g in &goals {
        boxes[g] = true;
    }
    let mut remaining = goals.clone();
    let mut removed = Vec::new();
    while !remaining.is_empty() {
        // The goal whose box leaves the goals in the fewest pulls is emptied first.
        let best = remaining
            .iter()
            .enumerate()
            .filter_map(|(i, &g)| pulls_to_leave(level, region, &boxes, g).map(|n| (n, i)))
            .min();
        let Some((_, i)) = best else {
            break;
        };
        let g = remaining.remove(i);
        boxes[g] = false;
        removed.push(g);
    }
    remaining.extend(removed.into_iter().rev());
    remaining
}

/// The fewest pulls that take the box on goal `from` to a cell that is no goal, the
/// other boxes of `boxes` in place and the player walking (with the box in the way);
/// `None` when it cannot leave.
fn pulls_to_leave(level: &Level, region: &[bool], boxes: &[bool], from: Cell) -> Option<usize> {
    let free = |c: Cell, b: Cell| region[c] && !level.is_wall(c) && c != b && !boxes[c];
    // States (box cell, player cell); pulls cost one, walks nothing. Only the states
    // reached are stored: a table of every (box, player) pair grows with the square of
    // the board (tens of gigabytes on a board of 100 000 cells).
    let mut dist: FxHashMap<(Cell, Cell), u32> = FxHashMap::default();
    let unseen = u32::MAX;
    let mut queue = VecDeque::new();
    for d in Direction::ALL {
        let p = level.neighbor(from, d);
        if free(p, from) {
            dist.insert((from, p), 0);
            queue.push_back((from, p));
        }
    }
    while let Some((b, p)) = queue.pop_front() {
        let cost = dist[&(b, p)];
        if !level.is_goal(b) {
            return Some(cost as usize);
        }
        for d in Direction::ALL {
            // A walk.
            let q = level.neighbor(p, d);
            if free(q, b) && *dist.get(&(b, q)).unwrap_or(&unseen) > cost {
                dist.insert((b, q), cost);
                queue.push_front((b, q));
            }
            // A pull: the player beside the box steps away from it, the box follows.
            if level.neighbor(b, d) == p {
                let beyond = level.neighbor(p, d);
                if free(beyond, b) && *dist.get(&(p, beyond)).unwrap_or(&unseen) > cost + 1 {
                    dist.insert((p, beyond), cost + 1);
                    queue.push_back((p, beyond));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player_region;
    use crate::level::parse_xsb;

    #[test]
    fn the_goal_at_the_back_of_a_corridor_is_filled_first() {
        // Three goals in a dead-end corridor: the deepest first, the entrance last.
        let level = parse_xsb(
            "t",
            "#######\n#...  #\n### $ #\n#  $$@#\n#     #\n#######\n",
        )
        .unwrap()
        .remove(0);
        let region = player_region(&level);
        let order = packing_order(&level, &region);
        let col = |c: Cell| level.row_col(c).1;
        assert_eq!(order.iter().map(|&g| col(g)).collect::<Vec<_>>(), [1, 2, 3]);
    }
}
