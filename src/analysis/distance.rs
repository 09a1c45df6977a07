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

/// Box lines (straight runs of pushes, any length) a lone box needs to get from any cell
/// of `sources` to each cell: each run needs room for the player behind the box at its
/// start; other boxes are ignored, so it never exceeds the lines of real play.
pub fn line_distances_from(level: &Level, sources: impl IntoIterator<Item = Cell>) -> Vec<u32> {
    bfs(level, sources, |cell, out| {
        for d in Direction::ALL {
            if level.is_wall(level.neighbor(cell, d.opposite())) {
                continue;
            }
            let mut ahead = level.neighbor(cell, d);
            while !level.is_wall(ahead) {
                out.push(ahead);
                ahead = level.neighbor(ahead, d);
            }
        }
    })
}

/// Box lines a lone box needs from each cell to reach the nearest goal (backward from
/// the goals, as [`line_distances_from`] runs forward). `UNREACHABLE` marks the same
/// dead squares as [`push_distances_to_goals`]: a line is a run of pushes.
pub fn line_distances_to_goals(level: &Level) -> Vec<u32> {
    bfs(level, level.goal_cells(), |cell, out| {
        // The box arrives on `cell` by a run in direction d from `from`, the player
        // standing behind `from`; every cell in between is floor.
        for d in Direction::ALL {
            let mut from = level.neighbor(cell, d.opposite());
            while !level.is_wall(from) {
                if !level.is_wall(level.neighbor(from, d.opposite())) {
                    out.push(from);
                }
                from = level.neighbor(from, d.opposite());
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

impl BoxSides {
    /// The component (0..4) of the neighbour of `cell` in direction `dir` when a box
    /// stands on `cell`; `None` for a wall or a cell outside the region.
    pub fn side(&self, cell: Cell, dir: Direction) -> Option<u8> {
        Some(self.0[cell][dir.index()]).filter(|&s| s != NO_SIDE)
    }
}

/// The [`BoxSides`] of `level` with the player's `region`, in time linear in the board.
///
/// The neighbours of `b` that stay connected once a box stands on `b` are the ones in
/// the same component of the region without `b`, which one depth-first search finds for
/// every `b` at once (Hopcroft and Tarjan's articulation points): below `b`, each child
/// `c` of `b` in the search tree whose subtree has no edge back above `b`
/// (`low[c] >= order[b]`) is a component of its own; everything else (the part above
/// `b` and the other children's subtrees) is one more. Components are numbered in the
/// order of [`Direction::ALL`], as a flood fill per cell would number them.
pub fn box_sides(level: &Level, region: &[bool]) -> BoxSides {
    let n = level.cell_count();
    let mut side = vec![[NO_SIDE; 4]; n];
    // Depth-first order, lowest order reachable by one back edge from the subtree, the
    // end of the subtree's orders, and the parent in the tree.
    const NONE: u32 = u32::MAX;
    let mut order = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut end = vec![0u32; n];
    let mut parent = vec![usize::MAX; n];
    let mut next_order = 0u32;
    let mut stack: Vec<(Cell, u8)> = Vec::new();
    for root in (0..n).filter(|&c| region[c]) {
        if order[root] != NONE {
            continue;
        }
        order[root] = next_order;
        low[root] = next_order;
        next_order += 1;
        stack.push((root, 0));
        while let Some(&mut (c, ref mut d)) = stack.last_mut() {
            if (*d as usize) < 4 {
                let next = level.neighbor(c, Direction::ALL[*d as usize]);
                *d += 1;
                if !region[next] {
                    continue;
                }
                if order[next] == NONE {
                    order[next] = next_order;
                    low[next] = next_order;
                    next_order += 1;
                    parent[next] = c;
                    stack.push((next, 0));
                } else if next != parent[c] {
                    low[c] = low[c].min(order[next]);
                }
            } else {
                stack.pop();
                end[c] = next_order;
                if let Some(&(p, _)) = stack.last() {
                    low[p] = low[p].min(low[c]);
                }
            }
        }
    }
    let below = |c: Cell, u: Cell| order[c] <= order[u] && order[u] < end[c];
    for b in (0..n).filter(|&b| region[b]) {
        // The component of each neighbour: the child's subtree it lies in when that
        // subtree hangs on b alone, else the part above b (`usize::MAX`).
        let children: Vec<Cell> = Direction::ALL
            .iter()
            .map(|&d| level.neighbor(b, d))
            .filter(|&c| region[c] && parent[c] == b)
            .collect();
        let mut names: [Cell; 4] = [usize::MAX - 1; 4];
        let mut components = 0u8;
        for d in Direction::ALL {
            let u = level.neighbor(b, d);
            if !region[u] {
                continue;
            }
            let name = match children.iter().find(|&&c| below(c, u)) {
                Some(&c) if low[c] >= order[b] => c,
                _ => usize::MAX,
            };
            let k = match names[..components as usize].iter().position(|&m| m == name) {
                Some(k) => k as u8,
                None => {
                    names[components as usize] = name;
                    components += 1;
                    components - 1
                }
            };
            side[b][d.index()] = k;
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

    /// The flood fill per cell that [`box_sides`] replaces: the reference it must equal.
    fn box_sides_by_fills(level: &Level, region: &[bool]) -> Vec<[u8; 4]> {
        let n = level.cell_count();
        let mut side = vec![[NO_SIDE; 4]; n];
        for b in (0..n).filter(|&b| region[b]) {
            let mut components = 0u8;
            for d in Direction::ALL {
                let start = level.neighbor(b, d);
                if !region[start] || side[b][d.index()] != NO_SIDE {
                    continue;
                }
                let mut seen = vec![false; n];
                seen[start] = true;
                let mut queue = VecDeque::from([start]);
                while let Some(c) = queue.pop_front() {
                    for e in Direction::ALL {
                        let next = level.neighbor(c, e);
                        if region[next] && next != b && !seen[next] {
                            seen[next] = true;
                            queue.push_back(next);
                        }
                    }
                }
                for e in Direction::ALL {
                    let m = level.neighbor(b, e);
                    if region[m] && seen[m] {
                        side[b][e.index()] = components;
                    }
                }
                components += 1;
            }
        }
        side
    }

    #[test]
    fn box_sides_equal_a_flood_fill_per_cell() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
                .unwrap();
        let mut levels = parse_xsb("microban", &text).unwrap();
        // Open rooms, pillars and one-cell corridors at random.
        let mut seed = 7u64;
        let mut random = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _ in 0..200 {
            let (w, h) = (3 + random() % 12, 3 + random() % 9);
            let mut rows = vec![String::from("#").repeat(w + 2)];
            for r in 0..h {
                let mut row = String::from("#");
                for c in 0..w {
                    row.push(match (r, c) {
                        (0, 0) => '@',
                        (0, 1) => '$',
                        (0, 2) => '.',
                        _ if random() % 3 == 0 => '#',
                        _ => ' ',
                    });
                }
                rows.push(row + "#");
            }
            rows.push(String::from("#").repeat(w + 2));
            levels.extend(parse_xsb("random", &(rows.join("\n") + "\n")).unwrap());
        }
        for l in &levels {
            let region = crate::game::player_region(l);
            assert_eq!(
                box_sides(l, &region).0,
                box_sides_by_fills(l, &region),
                "level {}",
                l.number
            );
        }
    }

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
