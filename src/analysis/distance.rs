//! Distances on the empty board (walls only, boxes ignored): walking distances of the
//! player and push distances of a single box. Both are lower bounds on the real game.

use std::collections::VecDeque;

use crate::level::{Cell, Direction, Level};

/// Marker for "cannot be reached".
pub const UNREACHABLE: u32 = u32::MAX;

/// Breadth-first search from `sources` over the cells of `inside`, where `step(cell)`
/// lists the cells one step away.
fn bfs(
    level: &Level,
    sources: impl IntoIterator<Item = Cell>,
    mut step: impl FnMut(Cell, &mut Vec<Cell>),
) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; level.cell_count()];
    let mut queue = VecDeque::new();
    for s in sources {
        if dist[s] != 0 {
            dist[s] = 0;
            queue.push_back(s);
        }
    }
    let mut next = Vec::with_capacity(4);
    while let Some(cell) = queue.pop_front() {
        next.clear();
        step(cell, &mut next);
        for &n in &next {
            if dist[n] == UNREACHABLE {
                dist[n] = dist[cell] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Number of single-cell steps the player needs from `from` to each cell, ignoring boxes.
pub fn walk_distances(level: &Level, from: Cell) -> Vec<u32> {
    bfs(level, [from], |cell, out| {
        out.extend(
            Direction::ALL
                .iter()
                .map(|&d| level.neighbor(cell, d))
                .filter(|&n| !level.is_wall(n)),
        )
    })
}

/// Pushes a lone box needs to get from any cell of `sources` to each cell (the player
/// must have room behind the box; other boxes are ignored).
pub fn push_distances_from(level: &Level, sources: impl IntoIterator<Item = Cell>) -> Vec<u32> {
    bfs(level, sources, |cell, out| {
        for d in Direction::ALL {
            let behind = level.neighbor(cell, d.opposite());
            let ahead = level.neighbor(cell, d);
            if !level.is_wall(behind) && !level.is_wall(ahead) {
                out.push(ahead);
            }
        }
    })
}

/// Pushes a lone box needs from each cell to reach the nearest goal: a backward search
/// by pulls from every goal. `UNREACHABLE` marks dead squares.
pub fn push_distances_to_goals(level: &Level) -> Vec<u32> {
    bfs(level, level.goal_cells(), |cell, out| {
        // A box arrives at `cell` from `from` by a push in direction d, the player
        // standing at `from - d`.
        for d in Direction::ALL {
            let from = level.neighbor(cell, d.opposite());
            if level.is_wall(from) {
                continue;
            }
            let player = level.neighbor(from, d.opposite());
            if !level.is_wall(player) {
                out.push(from);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn corner_is_dead_and_corridor_is_counted() {
        let l = parse_xsb("t", "######\n#@$ .#\n#    #\n######\n")
            .unwrap()
            .remove(0);
        let to_goal = push_distances_to_goals(&l);
        // Board rows and columns, counted from the top-left wall.
        let cell = |r: usize, c: usize| (r + 1) * l.width() + c + 1;
        assert_eq!(to_goal[cell(1, 2)], 2);
        assert_eq!(to_goal[cell(1, 4)], 0);
        assert_eq!(to_goal[cell(2, 1)], UNREACHABLE); // bottom-left corner
        assert_eq!(walk_distances(&l, l.player())[cell(2, 4)], 4);
        assert_eq!(push_distances_from(&l, [cell(1, 2)])[cell(1, 4)], 2);
    }
}
