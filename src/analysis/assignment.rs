//! The cheapest assignment of boxes to distinct goals, for any position: the sum of the
//! pushes each box needs to reach its own goal (the player walking round the box, other
//! boxes ignored). A position where no assignment exists is dead (a bipartite
//! deadlock). The searches evaluate it for every position they store, so the
//! assignment (Hungarian method, shortest augmenting paths) keeps its buffers.

use super::distance::{UNREACHABLE, box_sides, push_distances_with_sides};
use crate::level::{Cell, Level};
use crate::stop::Stop;

/// A cost too high for any real assignment (no box can reach that goal).
const NEVER: i64 = 1 << 40;

/// Per-goal distances and the buffers of the assignment.
///
/// A search evaluates the children of a position, each one box moved: [`prepare`]
/// solves the parent's assignment once, and [`cost_after`] repairs it for one moved box
/// with a single augmenting path (the other boxes' dual prices stay feasible), in
/// O(n²) instead of O(n³). Most pushes keep the moved box's goal the cheapest for it
/// at the parent's prices; then the parent's matching stays optimal and the repair is
/// one pass over the goals, O(n).
///
/// [`prepare`]: Assignment::prepare
/// [`cost_after`]: Assignment::cost_after
#[derive(Clone, Debug)]
pub struct Assignment {
    /// The goals in the player's region.
    goals: Vec<Cell>,
    /// `dist[c * goals + g]`: pushes a lone box on `c` needs to reach goal `g`. Laid
    /// out by cell, so that the method's scan of one box's row over the goals reads
    /// consecutive memory.
    dist: Vec<u32>,
    // Buffers of the Hungarian method (1-based, as the method is usually written).
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
    /// The parent position of [`Assignment::prepare`] (its cells, by row) and its
    /// solved duals and matching.
    rows: Vec<u16>,
    base_u: Vec<i64>,
    base_v: Vec<i64>,
    base_p: Vec<usize>,
    /// The parent's cost (`None`: no assignment) and, by row, its goal (1-based).
    base_cost: Option<u32>,
    base_goal: Vec<usize>,
    /// By cell, the kept position's row on it (1-based) if the stamp is current.
    kept_row: Vec<(u32, usize)>,
    kept_stamp: u32,
    /// The rows taken in again by [`Assignment::cost_from_base`].
    moved: Vec<usize>,
}

/// A distance as a cost of the method: an impossible pair costs [`NEVER`].
fn cost_of(distance: u32) -> i64 {
    match distance {
        UNREACHABLE => NEVER,
        d => d as i64,
    }
}

impl Assignment {
    /// The distances of `level`'s goals in `region` (on ice, those of the slide
    /// analysis, [`super::ice`]).
    pub fn new(level: &Level, region: &[bool]) -> Assignment {
        Assignment::until(level, region, &Stop::never()).expect("never stopped")
    }

    /// [`Assignment::new`], or `None` when `stop` says stop before the distances of
    /// every goal are known (a search per goal, which grows with the board).
    pub fn until(level: &Level, region: &[bool], stop: &Stop) -> Option<Assignment> {
        let goals: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
        let by_goal: Vec<Vec<u32>> = if level.has_ice() {
            // Boxes slide: the distances of the over-approximated push graph.
            super::ice::ice_goal_distances(level, region, &goals, stop)?
        } else {
            let sides = box_sides(level, region);
            (goals.iter())
                .map(|&g| {
                    (!stop.should_stop())
                        .then(|| push_distances_with_sides(level, region, &sides, [g]))
                })
                .collect::<Option<_>>()?
        };
        if stop.should_stop() {
            return None;
        }
        let n = goals.len();
        let mut dist = vec![UNREACHABLE; level.cell_count() * n];
        for (g, row) in by_goal.iter().enumerate() {
            for (c, &d) in row.iter().enumerate() {
                dist[c * n + g] = d;
            }
        }
        Some(Assignment {
            goals,
            dist,
            u: Vec::new(),
            v: Vec::new(),
            p: Vec::new(),
            way: Vec::new(),
            minv: Vec::new(),
            used: Vec::new(),
            rows: Vec::new(),
            base_u: Vec::new(),
            base_v: Vec::new(),
            base_p: Vec::new(),
            base_cost: None,
            base_goal: Vec::new(),
            kept_row: vec![(0, 0); level.cell_count()],
            kept_stamp: 0,
            moved: Vec::new(),
        })
    }

    /// The distances of a box on `cell` to each goal, in goal order.
    fn row(&self, cell: Cell) -> &[u32] {
        let n = self.goals.len();
        &self.dist[cell * n..(cell + 1) * n]
    }

    /// The cost of row `i` (1-based) at column `j` (1-based) for the boxes `rows`.
    fn entry(&self, rows: &[u16], i: usize, j: usize) -> i64 {
        cost_of(self.row(rows[i - 1] as Cell)[j - 1])
    }

    /// Augments row `i` into the matching held in the buffers (the shortest augmenting
    /// path of the Hungarian method), the costs being those of `rows`.
    fn augment(&mut self, rows: &[u16], i: usize) {
        let n = rows.len();
        self.p[0] = i;
        let mut j0 = 0;
        self.minv.clear();
        self.minv.resize(n + 1, i64::MAX);
        self.used.clear();
        self.used.resize(n + 1, false);
        loop {
            self.used[j0] = true;
            let i0 = self.p[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            let row = &self.dist[rows[i0 - 1] as usize * n..][..n];
            for j in 1..=n {
                if !self.used[j] {
                    let cur = cost_of(row[j - 1]) - self.u[i0] - self.v[j];
                    if cur < self.minv[j] {
                        self.minv[j] = cur;
                        self.way[j] = j0;
                    }
                    if self.minv[j] < delta {
                        delta = self.minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if self.used[j] {
                    self.u[self.p[j]] += delta;
                    self.v[j] -= delta;
                } else {
                    self.minv[j] -= delta;
                }
            }
            j0 = j1;
            if self.p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.p[j0] = self.p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    /// The total cost of the matching in the buffers, `None` when it uses an
    /// impossible pair.
    fn total(&self, rows: &[u16]) -> Option<u32> {
        let n = rows.len();
        let total: i64 = (1..=n).map(|j| self.entry(rows, self.p[j], j)).sum();
        (total < NEVER).then_some(total as u32)
    }

    /// Solves the assignment of the boxes on `boxes` and keeps it, so that
    /// [`Assignment::cost_after`] can repair it for a child position; the cost.
    ///
    /// The last position kept is a warm start: a box on a cell that position also
    /// had a box on keeps its goal and its price (its costs are the same, so its
    /// prices stay feasible and its pair tight), and only the boxes on other cells are
    /// taken in again, one augmenting path each. The searches expand positions much
    /// like the last one, where few boxes stand elsewhere.
    pub fn prepare(&mut self, boxes: &[u16]) -> Option<u32> {
        let n = boxes.len();
        let warm = n > 0
            && self.base_cost.is_some()
            && self.rows.len() == n
            && n == self.goals.len()
            && self.base_v.iter().all(|v| v.abs() < NEVER);
        let cost = if warm {
            self.cost_from_base(boxes)
        } else {
            self.cost(boxes)
        };
        self.rows.clear();
        self.rows.extend_from_slice(boxes);
        self.base_u.clone_from(&self.u);
        self.base_v.clone_from(&self.v);
        self.base_p.clone_from(&self.p);
        self.base_cost = cost;
        self.base_goal.clear();
        self.base_goal.resize(boxes.len() + 1, 0);
        for j in 1..self.p.len() {
            self.base_goal[self.p[j]] = j;
        }
        cost
    }

    /// Empties the row prices, the matching and the paths for `n` rows.
    fn clear_rows(&mut self, n: usize) {
        for buffer in [&mut self.p, &mut self.way] {
            buffer.clear();
            buffer.resize(n + 1, 0);
        }
        self.u.clear();
        self.u.resize(n + 1, 0);
    }

    /// The assignment of the boxes on `boxes` from the kept one (see
    /// [`Assignment::prepare`]).
    fn cost_from_base(&mut self, boxes: &[u16]) -> Option<u32> {
        let n = boxes.len();
        self.kept_stamp += 1;
        for (r, &c) in self.rows.iter().enumerate() {
            self.kept_row[c as usize] = (self.kept_stamp, r + 1);
        }
        self.v.clone_from(&self.base_v);
        self.clear_rows(n);
        let mut moved = std::mem::take(&mut self.moved);
        moved.clear();
        for (i, &c) in boxes.iter().enumerate() {
            match self.kept_row[c as usize] {
                (stamp, r) if stamp == self.kept_stamp => {
                    self.u[i + 1] = self.base_u[r];
                    self.p[self.base_goal[r]] = i + 1;
                }
                _ => moved.push(i + 1),
            }
        }
        for &i in &moved {
            self.augment(boxes, i);
        }
        self.moved = moved;
        self.total(boxes)
    }

    /// The cost after row `i` (1-based) moved from `old` to `cell` when the row's goal
    /// is still its cheapest at the parent's prices: setting the row's own price to
    /// make that pair tight leaves every reduced cost non-negative, so the parent's
    /// matching is still optimal. `None` when the row would rather take another goal.
    fn cost_keeping_goals(&self, i: usize, old: Cell, cell: Cell) -> Option<u32> {
        let base = self.base_cost?;
        let own = *self.base_goal.get(i).filter(|&&j| j != 0)?;
        let dist = |j: usize, c: Cell| self.row(c)[j - 1];
        let now = dist(own, cell);
        if now == UNREACHABLE {
            return None;
        }
        let price = now as i64 - self.base_v[own];
        let cheapest = (1..self.base_v.len()).all(|j| {
            j == own
                || match dist(j, cell) {
                    UNREACHABLE => true,
                    d => d as i64 - self.base_v[j] >= price,
                }
        });
        cheapest.then(|| base - dist(own, old) + now)
    }

    /// The cost of the position [`Assignment::prepare`] was given, with its `row`-th box
    /// (0-based, in the order given) moved to `cell`: one augmenting path.
    pub fn cost_after(&mut self, row: usize, cell: Cell) -> Option<u32> {
        let n = self.rows.len();
        if n == 0 || n != self.goals.len() {
            return self.cost(&[]).filter(|_| n == 0);
        }
        if let Some(cost) = self.cost_keeping_goals(row + 1, self.rows[row] as Cell, cell) {
            return Some(cost);
        }
        let mut rows = std::mem::take(&mut self.rows);
        let old = rows[row];
        rows[row] = cell as u16;
        self.u.clone_from(&self.base_u);
        self.v.clone_from(&self.base_v);
        self.p.clone_from(&self.base_p);
        // Free the row's goal, and take the row in again with the new cell.
        let i = row + 1;
        if let Some(j) = (1..=n).find(|&j| self.p[j] == i) {
            self.p[j] = 0;
        }
        self.u[i] = 0;
        self.augment(&rows, i);
        let cost = self.total(&rows);
        rows[row] = old;
        self.rows = rows;
        cost
    }

    /// The goals, in the order the per-goal distances are kept.
    pub fn goals(&self) -> &[Cell] {
        &self.goals
    }

    /// Pushes a lone box on `cell` needs to reach goal number `goal`.
    pub fn distance(&self, goal: usize, cell: Cell) -> u32 {
        self.row(cell)[goal]
    }

    /// The cheapest assignment of the boxes on `boxes` to distinct goals, or `None` when
    /// no assignment exists (as many boxes as goals are expected).
    pub fn cost(&mut self, boxes: &[u16]) -> Option<u32> {
        let n = boxes.len();
        if n == 0 {
            return Some(0);
        }
        if n != self.goals.len() {
            return None;
        }
        // The method works from any column prices; the last solve's, of a position
        // much like this one, leave short augmenting paths. Prices pushed out to the
        // cost of an impossible pair are dropped.
        let warm = self.v.len() == n + 1 && self.v.iter().all(|v| v.abs() < NEVER);
        if !warm {
            self.v.clear();
            self.v.resize(n + 1, 0);
        }
        self.v[0] = 0;
        self.clear_rows(n);
        for i in 1..=n {
            self.augment(boxes, i);
        }
        self.total(boxes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player_region;
    use crate::level::parse_xsb;

    #[test]
    fn agrees_with_the_matching_bound_and_finds_dead_assignments() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
                .unwrap();
        for level in parse_xsb("microban", &text).unwrap().iter().take(25) {
            let region = player_region(level);
            let boxes: Vec<Cell> = level.box_cells().filter(|&b| region[b]).collect();
            let goals: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
            let Some(m) = crate::analysis::matching_potential(
                level,
                &region,
                (&boxes, &goals),
                &crate::stop::Stop::never(),
            ) else {
                continue;
            };
            let mut a = Assignment::new(level, &region);
            let cells: Vec<u16> = boxes.iter().map(|&b| b as u16).collect();
            assert_eq!(
                a.prepare(&cells),
                Some(m.initial as u32),
                "level {}",
                level.number
            );
            // Every box moved to every live cell: the repair equals a fresh solve.
            for row in 0..cells.len() {
                for cell in (0..level.cell_count()).filter(|&c| region[c]) {
                    let mut moved = cells.clone();
                    moved[row] = cell as u16;
                    let repaired = a.cost_after(row, cell);
                    let fresh = Assignment::new(level, &region).cost(&moved);
                    // A solve warm from the last one's prices agrees too.
                    assert_eq!(a.cost(&moved), fresh, "warm, level {}", level.number);
                    assert_eq!(
                        repaired, fresh,
                        "level {} row {row} cell {cell}",
                        level.number
                    );
                }
            }
        }
        // Two boxes in the two corners of one goal's corridor: only one can get there.
        let level = parse_xsb("t", "######\n#$  $#\n#.  .#\n#  @ #\n######\n")
            .unwrap()
            .remove(0);
        let region = player_region(&level);
        let mut a = Assignment::new(&level, &region);
        let corner: Vec<u16> = vec![level.width() as u16 + 1, level.width() as u16 + 4];
        assert_eq!(a.cost(&corner), None);
    }

    #[test]
    fn a_warm_prepare_from_the_last_position_equals_a_fresh_solve() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
                .unwrap();
        let mut state = 7u64;
        let mut next = move |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let mut compared = 0;
        for level in parse_xsb("microban", &text).unwrap().iter().take(60) {
            let region = player_region(level);
            let floor: Vec<usize> = (0..level.cell_count()).filter(|&c| region[c]).collect();
            let mut cells: Vec<u16> = (level.box_cells())
                .filter(|&b| region[b])
                .map(|b| b as u16)
                .collect();
            let mut a = Assignment::new(level, &region);
            // A walk of positions, each one to three boxes away from the last, some
            // of them without an assignment.
            for _ in 0..200 {
                for _ in 0..1 + next(3) {
                    let to = floor[next(floor.len())] as u16;
                    if !cells.contains(&to) {
                        let row = next(cells.len());
                        cells[row] = to;
                    }
                }
                let mut sorted = cells.clone();
                sorted.sort_unstable();
                let fresh = Assignment::new(level, &region).cost(&sorted);
                assert_eq!(a.prepare(&sorted), fresh, "level {}", level.number);
                // A child repaired from the warm parent equals a fresh solve too.
                let (row, to) = (next(sorted.len()), floor[next(floor.len())]);
                if !sorted.contains(&(to as u16)) {
                    let mut child = sorted.clone();
                    child[row] = to as u16;
                    let fresh = Assignment::new(level, &region).cost(&child);
                    assert_eq!(a.cost_after(row, to), fresh, "level {}", level.number);
                }
                compared += 1;
            }
        }
        assert!(compared > 5_000);
    }
}
