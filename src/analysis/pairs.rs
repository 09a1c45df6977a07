//! Pattern databases over pairs and triples of boxes: for every two live cells, the
//! fewest pushes that bring two boxes standing there onto two distinct goals, the other
//! boxes taken off the board and the player anywhere in its region (or on a given side);
//! the same with each goal charged its price in the box–goal matching, which adds
//! to the matching potential ([`PairTable::priced_extra`]); for triples, the dead ones
//! and the costs of the initial boxes.
//!
//! Why these are lower bounds and deadlocks of the full game: see `patterns.rs`.

use std::collections::HashMap;

use super::bound::group_extra_bound;
use super::{MatchingPotential, UNREACHABLE};
use itertools::Itertools;

use super::patterns::GroupSearch;
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// More (pair, player) states than this and the table is not built (it stays empty,
/// which is sound: it just prunes nothing).
const MAX_STATES: usize = 24_000_000;

/// More (triple, player) states than this and no triple costs are computed.
const MAX_TRIPLE_STATES: usize = 40_000_000;

/// Pair costs for every two live cells.
#[derive(Clone, Debug, Default)]
pub struct PairTable {
    /// The live cells, in cell order.
    live: Vec<Cell>,
    /// The index of each cell in `live` (`u32::MAX` for the others), so that a lookup,
    /// which the searches make for every pair of boxes of every successor, needs no
    /// binary search.
    index: Vec<u32>,
    /// `cost[i * live.len() + j]` for i < j: pushes for boxes on `live[i]` and `live[j]`,
    /// `UNREACHABLE` when no two goals can ever be reached.
    cost: Vec<u32>,
    /// `(a, b, m)`: boxes on a and b can never both reach goals when the player is on
    /// m, a neighbour of one of them, though they can from elsewhere.
    dead_sides: Vec<(Cell, Cell, Cell)>,
    /// Indexed as `cost`: the pushes two boxes there need beyond their matching
    /// potentials, with each goal's price charged (see [`PairTable::priced_extra`]);
    /// empty without a matching potential.
    priced_extra: Vec<u32>,
}

impl PairTable {
    /// Builds the table by the backward search of `patterns.rs` over (two boxes,
    /// player) states; empty (sound, it prunes nothing) when the board is too large or
    /// `stop` says stop first.
    /// With a matching potential, a second search measures each pair against the
    /// potential's goal prices ([`PairTable::priced_extra`]).
    pub fn new(
        level: &Level,
        (region, live): (&[bool], &[bool]),
        potential: Option<&MatchingPotential>,
        stop: &Stop,
    ) -> PairTable {
        let Some(search) = GroupSearch::<2>::run(level, region, live, MAX_STATES, stop) else {
            return PairTable::default();
        };
        let live_cells = search.live_cells().to_vec();
        let nl = live_cells.len();
        let mut cost = vec![UNREACHABLE; nl * nl];
        let mut dead_sides = Vec::new();
        for i in 0..nl {
            for j in i + 1..nl {
                let (a, b) = (live_cells[i], live_cells[j]);
                let Some(best) = search.cost(&[a, b]) else {
                    continue;
                };
                cost[i * nl + j] = best;
                let mut sides: Vec<Cell> = [a, b]
                    .iter()
                    .flat_map(|&x| Direction::ALL.map(|d| level.neighbor(x, d)))
                    .filter(|&m| region[m] && m != a && m != b)
                    .collect();
                sides.sort_unstable();
                sides.dedup();
                for m in sides {
                    if search.cost_from(&[a, b], m).is_none() {
                        dead_sides.push((a, b, m));
                    }
                }
            }
        }
        let mut index = vec![u32::MAX; level.cell_count()];
        for (i, &c) in live_cells.iter().enumerate() {
            index[c] = i as u32;
        }
        let priced_extra = potential
            .and_then(|m| priced_extras(level, (region, live), m, &live_cells, stop))
            .unwrap_or_default();
        PairTable {
            live: live_cells,
            index,
            cost,
            dead_sides,
            priced_extra,
        }
    }

    /// The pushes two boxes on `a` and `b` need beyond the matching potential's
    /// `φ(a) + φ(b)` and the prices of the goals they end on: with `P(a, b)` the least,
    /// over two distinct goals g and h, of the pushes that bring the two boxes onto g
    /// and h minus `u(g) + u(h)`, this is `P(a, b) − φ(a) − φ(b)` (never negative: each
    /// box alone needs at least its distance to its goal, and `φ(c) ≤ dist(c, g) − u(g)`).
    /// Any plan spends on the two boxes at least this plus `φ(a) + φ(b)` plus the prices
    /// of their final goals, so the potential plus the extras of disjoint pairs is a
    /// lower bound on the pushes left. 0 for an unknown pair or without a table.
    pub fn priced_extra(&self, a: Cell, b: Cell) -> u32 {
        if self.priced_extra.is_empty() {
            return 0;
        }
        match self.slot(a, b) {
            Some(s) => self.priced_extra[s],
            None => 0,
        }
    }

    /// Where the pair of cells `a` and `b` is kept in `cost`: `None` when the table
    /// was not built, either cell is not live, or they are the same cell.
    fn slot(&self, a: Cell, b: Cell) -> Option<usize> {
        let (&i, &j) = (self.index.get(a)?, self.index.get(b)?);
        if i == u32::MAX || j == u32::MAX || i == j {
            return None;
        }
        let (i, j) = (i.min(j) as usize, i.max(j) as usize);
        Some(i * self.live.len() + j)
    }

    /// The pushes two boxes on `a` and `b` need, `None` when they can never both reach
    /// goals (or the table was not built and knows nothing: then `Some(0)`).
    pub fn cost(&self, a: Cell, b: Cell) -> Option<u32> {
        let Some(s) = self.slot(a, b) else {
            return Some(0); // the table was not built, or not a pair of live cells
        };
        match self.cost[s] {
            UNREACHABLE => None,
            c => Some(c),
        }
    }

    /// The pushes boxes on `a` and `b` need beyond their own distances
    /// (`pushes_to_goal`); 0 for a dead pair or an unknown one.
    pub fn extra(&self, a: Cell, b: Cell, pushes_to_goal: &[u32]) -> u32 {
        self.cost(a, b).map_or(0, |c| {
            c.saturating_sub(pushes_to_goal[a] + pushes_to_goal[b])
        })
    }

    /// Pairs that are dead with the player on a given neighbour cell (or anywhere
    /// connected to it with only the two boxes on the board): `(a, b, player cell)`.
    pub fn dead_sides(&self) -> &[(Cell, Cell, Cell)] {
        &self.dead_sides
    }

    /// Every pair of live cells with its cost (`None`: a deadlock).
    pub fn pairs(&self) -> impl Iterator<Item = (Cell, Cell, Option<u32>)> + '_ {
        let nl = self.live.len();
        (0..nl).flat_map(move |i| {
            (i + 1..nl).map(move |j| {
                let c = self.cost[i * nl + j];
                (self.live[i], self.live[j], (c != UNREACHABLE).then_some(c))
            })
        })
    }
}

/// The priced extras of every pair of `live_cells` (see [`PairTable::priced_extra`]),
/// from the pair search started at each placement of two boxes on goals g and h with
/// the cost `−u(g) − u(h)` (shifted to be at least 0); `None` when the prices are too far
/// apart for the search's costs, or `stop` says stop first.
fn priced_extras(
    level: &Level,
    (region, live): (&[bool], &[bool]),
    potential: &MatchingPotential,
    live_cells: &[Cell],
    stop: &Stop,
) -> Option<Vec<u32>> {
    let mut price = HashMap::new();
    for &(g, u) in &potential.goal_prices {
        price.insert(g, u);
    }
    let highest = potential.prices.iter().rev().take(2).sum::<i64>();
    let lowest = potential.prices.iter().take(2).sum::<i64>();
    // The shift and the pushes of the farthest pair must fit the search's u16 costs.
    if highest - lowest > i64::from(u16::MAX / 2) {
        return None;
    }
    let start = |goals: &[Cell; 2]| match (price.get(&goals[0]), price.get(&goals[1])) {
        (Some(u), Some(v)) => (highest - u - v) as u16,
        _ => u16::MAX, // a goal outside the matching: no placement starts there
    };
    let search = GroupSearch::<2>::run_from(level, (region, live), MAX_STATES, start, stop)?;
    let phi = |c: Cell| potential.cell[c].unwrap_or(0);
    let nl = live_cells.len();
    let mut extra = vec![0; nl * nl];
    for i in 0..nl {
        for j in i + 1..nl {
            let (a, b) = (live_cells[i], live_cells[j]);
            if let Some(shifted) = search.cost(&[a, b]) {
                let priced = i64::from(shifted) - highest;
                extra[i * nl + j] = (priced - phi(a) - phi(b)).max(0) as u32;
            }
        }
    }
    Some(extra)
}

/// What the pattern databases say about the initial `boxes` (sorted, live): the extra
/// pushes of the best packing of disjoint pairs and triples beyond the boxes' own
/// distances, or why two or three of them can never reach goals. Also returns the dead
/// triples of live cells that contain no dead pair (empty if the board is too large to
/// search triples, or `stop` says stop before the search is done).
pub(super) fn triples_and_bound(
    level: &Level,
    (region, live): (&[bool], &[bool]),
    pairs: &PairTable,
    boxes: &[Cell],
    pushes_to_goal: &[u32],
    stop: &Stop,
) -> (Vec<[Cell; 3]>, Result<u32, String>) {
    let dead_pair =
        (boxes.iter().copied().array_combinations()).find(|&[a, b]| pairs.cost(a, b).is_none());
    let mut dead = Vec::new();
    let mut triple_extra = HashMap::new();
    let mut dead_triple = None;
    if let Some(search) = GroupSearch::<3>::run(level, region, live, MAX_TRIPLE_STATES, stop) {
        dead = (search
            .live_cells()
            .iter()
            .copied()
            .array_combinations::<3>())
        .filter(|&[a, b, c]| {
            pairs.cost(a, b).is_some()
                && pairs.cost(a, c).is_some()
                && pairs.cost(b, c).is_some()
                && search.cost(&[a, b, c]).is_none()
        })
        .collect();
        for t in boxes.iter().copied().array_combinations::<3>() {
            match search.cost(&t) {
                Some(cost) => {
                    let own: u32 = t.iter().map(|&c| pushes_to_goal[c]).sum();
                    triple_extra.insert(t, cost.saturating_sub(own));
                }
                None => {
                    dead_triple.get_or_insert(t);
                }
            }
        }
    }
    if let Some([a, b]) = dead_pair {
        let reason = format!(
            "the boxes at {} and {} can never both reach goals",
            level.cell_name(a),
            level.cell_name(b)
        );
        return (dead, Err(reason));
    }
    if let Some(t) = dead_triple {
        let reason = format!(
            "the boxes at {}, {} and {} can never all reach goals",
            level.cell_name(t[0]),
            level.cell_name(t[1]),
            level.cell_name(t[2])
        );
        return (dead, Err(reason));
    }
    let extra = group_extra_bound(
        boxes.len(),
        |i, j| pairs.extra(boxes[i], boxes[j], pushes_to_goal),
        |i, j, k| {
            let t = [boxes[i], boxes[j], boxes[k]];
            triple_extra.get(&t).copied().unwrap_or(0)
        },
    );
    (dead, Ok(extra))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Analysis;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::level::parse_xsb;

    fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    #[test]
    fn two_boxes_side_by_side_on_a_wall_are_dead() {
        let l = level("#######\n#     #\n#  $$ #\n# .. @#\n#######\n");
        let a = Analysis::new(&l);
        let t = &a.pair_table;
        // Cells on row 1 (against the top wall), columns 2 and 3.
        let (x, y) = (l.width() + 2, l.width() + 3);
        if a.live[x] && a.live[y] {
            assert_eq!(t.cost(x, y), None);
        }
    }

    #[test]
    fn pair_cost_equals_brute_force_on_two_box_levels() {
        // On a level with exactly two boxes the pair cost from the initial boxes, taken
        // over every player cell, can only be at most the true optimum.
        let l = level("########\n#  .   #\n# $$ @ #\n#  .   #\n########\n");
        let a = Analysis::new(&l);
        let boxes: Vec<Cell> = l.box_cells().collect();
        let pair = a.pair_table.cost(boxes[0], boxes[1]).unwrap();
        let SearchResult::Optimal(best) = shortest_pushes(&l, 50, 1_000_000) else {
            panic!("solvable");
        };
        assert!(pair as usize <= best, "{pair} > {best}");
        let sum: u32 = boxes.iter().map(|&b| a.pushes_to_goal[b]).sum();
        assert!(pair >= sum);
    }
}
