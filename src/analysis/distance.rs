//! Distances on the empty board (walls only, boxes ignored): walking distances of the
//! player and push distances of a single box. Both are lower bounds on the real game.

use std::collections::VecDeque;

use crate::level::{Cell, Direction, Level};

/// Marker for "cannot be reached".
pub const UNREACHABLE: u32 = u32::MAX;

/// Breadth-first search from `sources`, where `step(cell)` lists the cells one step
/// away.
pub(super) fn bfs(
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

/// Pushes a lone box at each cell needs to reach the nearest goal when the player cannot
/// walk through the box: to push it the other way the player must walk around it, which
/// a box in a corridor forbids. The state is the box cell and the side of it the player
/// is on (a component of `region` without the box cell); the player may start on any
/// side, so each cell gets the minimum over its sides. Never less than
/// [`push_distances_to_goals`]; `UNREACHABLE` marks dead squares.
pub fn push_distances_to_goals_walking(level: &Level, region: &[bool]) -> Vec<u32> {
    push_distances_walking_to(level, region, level.goal_cells())
}

/// [`push_distances_to_goals_walking`] towards the cells of `targets` instead of the
/// goals (one goal at a time, for the matching potential).
pub fn push_distances_walking_to(
    level: &Level,
    region: &[bool],
    targets: impl IntoIterator<Item = Cell>,
) -> Vec<u32> {
    push_distances_with_sides(level, region, &box_sides(level, region), targets)
}

/// No side: a wall or a cell outside the region.
const NO_SIDE: u8 = u8::MAX;

/// For each cell b and direction d, the component (0..4) of the neighbour of b in
/// direction d when a box stands on b (`NO_SIDE` for walls and cells outside the
/// region): what [`push_distances_with_sides`] needs of the board, which takes a flood
/// fill per cell, so it is computed once for any number of targets.
pub struct BoxSides(Vec<[u8; 4]>);

/// The [`BoxSides`] of `level` with the player's `region`.
pub fn box_sides(level: &Level, region: &[bool]) -> BoxSides {
    let n = level.cell_count();
    let mut side = vec![[NO_SIDE; 4]; n];
    let mut mark = vec![usize::MAX; n];
    let mut queue = VecDeque::new();
    for b in (0..n).filter(|&b| region[b]) {
        let mut components = 0u8;
        for d in Direction::ALL {
            let start = level.neighbor(b, d);
            if !region[start] || side[b][d.index()] != NO_SIDE {
                continue;
            }
            // Flood the neighbour's component with the box on b; label the neighbours
            // of b it reaches.
            let stamp = b * 4 + d.index();
            mark[start] = stamp;
            queue.push_back(start);
            while let Some(c) = queue.pop_front() {
                for e in Direction::ALL {
                    let next = level.neighbor(c, e);
                    if region[next] && next != b && mark[next] != stamp {
                        mark[next] = stamp;
                        queue.push_back(next);
                    }
                }
            }
            for e in Direction::ALL {
                let m = level.neighbor(b, e);
                if region[m] && mark[m] == stamp {
                    side[b][e.index()] = components;
                }
            }
            components += 1;
        }
    }
    BoxSides(side)
}

/// [`push_distances_walking_to`] with the board's [`BoxSides`] already computed.
pub fn push_distances_with_sides(
    level: &Level,
    region: &[bool],
    sides: &BoxSides,
    targets: impl IntoIterator<Item = Cell>,
) -> Vec<u32> {
    let n = level.cell_count();
    let side = &sides.0;
    let mut queue = VecDeque::new();
    // Backward search over (box cell, side) from every goal with the player on any side.
    let index = |b: Cell, s: u8| b * 4 + s as usize;
    let mut dist = vec![UNREACHABLE; n * 4];
    for g in targets.into_iter().filter(|&g| region[g]) {
        for s in side[g].iter().copied().filter(|&s| s != NO_SIDE) {
            if dist[index(g, s)] != 0 {
                dist[index(g, s)] = 0;
                queue.push_back(index(g, s));
            }
        }
    }
    while let Some(state) = queue.pop_front() {
        let (b, s) = (state / 4, (state % 4) as u8);
        // The box came to b from a = b - d, pushed in direction d; the player then
        // stands on a, which must be on side s of b; before, it stood on a - d.
        for d in Direction::ALL {
            let a = level.neighbor(b, d.opposite());
            if side[b][d.opposite().index()] != s || !region[a] {
                continue;
            }
            let behind = side[a][d.opposite().index()];
            if behind == NO_SIDE {
                continue;
            }
            let before = index(a, behind);
            if dist[before] == UNREACHABLE {
                dist[before] = dist[state] + 1;
                queue.push_back(before);
            }
        }
    }
    (0..n)
        .map(|c| (0..4).map(|s| dist[c * 4 + s]).min().unwrap_or(UNREACHABLE))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn walking_round_the_box_is_never_cheaper() {
        // In the corridor the box can be pushed left only; the goal is to its right.
        let l = parse_xsb("t", "########\n#  $@ .#\n########\n")
            .unwrap()
            .remove(0);
        let region = crate::game::player_region(&l);
        let plain = push_distances_to_goals(&l);
        let walking = push_distances_to_goals_walking(&l, &region);
        let b = l.box_cells().next().unwrap();
        assert_eq!((plain[b], walking[b]), (3, 3)); // from the left side
        for c in 0..l.cell_count() {
            assert!(walking[c] >= plain[c] || plain[c] == UNREACHABLE);
        }
        // In an open room they agree.
        let l = parse_xsb("t", "#######\n#     #\n# $@ .#\n#     #\n#######\n")
            .unwrap()
            .remove(0);
        let region = crate::game::player_region(&l);
        let b = l.box_cells().next().unwrap();
        assert_eq!(push_distances_to_goals_walking(&l, &region)[b], 3);
    }

    #[test]
    fn walking_distances_are_stronger_somewhere_in_microban() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
                .unwrap();
        let (mut stronger, mut cells, mut dead) = (0, 0, 0);
        for l in parse_xsb("microban", &text).unwrap() {
            let region = crate::game::player_region(&l);
            let plain = push_distances_to_goals(&l);
            let walking = push_distances_to_goals_walking(&l, &region);
            for c in (0..l.cell_count()).filter(|&c| region[c]) {
                assert!(walking[c] >= plain[c], "level {} cell {c}", l.number);
                cells += 1;
                stronger += (walking[c] > plain[c]) as usize;
                dead += (walking[c] == UNREACHABLE && plain[c] != UNREACHABLE) as usize;
            }
        }
        eprintln!("{stronger} of {cells} cells have a larger distance, {dead} more dead");
    }

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
