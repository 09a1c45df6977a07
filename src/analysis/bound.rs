//! Lower bounds from a minimum-cost perfect matching of boxes to goals.

use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;

use super::distance::{UNREACHABLE, box_sides, push_distances_from, push_distances_with_sides};
use crate::level::{Cell, Level};
use crate::stop::Stop;

/// Cost standing in for "this box can never reach that goal".
const NEVER: i64 = 1 << 40;

/// The cheapest assignment of `rows` things to distinct ones of `cols` things (rows at
/// most cols), `distance(row, col)` apart ([`UNREACHABLE`]: no pair): its total and
/// each row's column; `None` when every assignment needs a pair that is none.
pub fn cheapest_assignment(
    rows: usize,
    cols: usize,
    distance: impl Fn(usize, usize) -> u32,
) -> Option<(u64, Vec<usize>)> {
    if rows > cols {
        return None;
    }
    if rows == 0 {
        return Some((0, Vec::new()));
    }
    let costs = Matrix::from_fn(rows, cols, |(r, c)| match distance(r, c) {
        UNREACHABLE => NEVER,
        d => i64::from(d),
    });
    let (total, assigned) = kuhn_munkres_min(&costs);
    (total < NEVER).then_some((total as u64, assigned))
}

/// The fewest pushes that bring each box to its own goal, each box pushed alone on the
/// empty board: a lower bound on the pushes of any solution. `None` when no assignment of
/// boxes to distinct goals is possible at all (the level is unsolvable).
pub fn matching_push_bound(level: &Level, boxes: &[Cell], goals: &[Cell]) -> Option<usize> {
    if boxes.is_empty() {
        return Some(0);
    }
    assert_eq!(boxes.len(), goals.len(), "as many boxes as goals");
    let dist: Vec<Vec<u32>> = boxes
        .iter()
        .map(|&b| push_distances_from(level, [b]))
        .collect();
    let (total, _) = cheapest_assignment(boxes.len(), goals.len(), |b, g| dist[b][goals[g]])?;
    Some(total as usize)
}

/// A lower bound on the pushes left that is linear in the boxes' cells, from the dual of
/// the box–goal matching. With a price `u(g)` per goal, each cell gets
/// `φ(c) = min_g (dist(c, g) − u(g))`; in any position, each box pays at least `φ` of
/// its cell plus the price of the goal it ends on, so `Σ_boxes φ + Σ_g u(g)` is at most
/// the position's best matching, hence at most the pushes left. The prices are the dual
/// of the start's optimal matching, so at the start the bound *is* the matching cost,
/// while [`push_distances_to_goals_walking`](super::push_distances_to_goals_walking)
/// summed over the boxes lets several boxes count the same nearest goal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchingPotential {
    /// `φ(c)` per cell; `None` where no goal can be reached.
    pub cell: Vec<Option<i64>>,
    /// `Σ_g u(g)`.
    pub offset: i64,
    /// The goal prices `u(g)`, smallest first. Any `m` boxes end on `m` distinct goals,
    /// so they pay at least their `φ` plus the `m` smallest prices: a bound for a part
    /// of a position.
    pub prices: Vec<i64>,
    /// Each goal with its price `u(g)`, in the order of the goals given.
    pub goal_prices: Vec<(Cell, i64)>,
    /// The value at the start position: the cost of the best matching.
    pub initial: i64,
}

/// The matching potential for `boxes` and `goals` (in the player's region), with the
/// player-aware distances of one box alone. `None` when there is no box, the counts
/// differ, no assignment of boxes to distinct goals exists, or `stop` says stop before
/// the distances are computed (a distance search per goal).
pub fn matching_potential(
    level: &Level,
    region: &[bool],
    (boxes, goals): (&[Cell], &[Cell]),
    stop: &Stop,
) -> Option<MatchingPotential> {
    let n = boxes.len();
    if n == 0 || n != goals.len() {
        return None;
    }
    let sides = box_sides(level, region);
    let dist: Vec<Vec<u32>> = goals
        .iter()
        .map(|&g| {
            (!stop.should_stop()).then(|| push_distances_with_sides(level, region, &sides, [g]))
        })
        .collect::<Option<_>>()?;
    // Box i to goal j.
    let distance = |i: usize, j: usize| dist[j][boxes[i]];
    let cost = |i: usize, j: usize| match distance(i, j) {
        UNREACHABLE => NEVER,
        d => i64::from(d),
    };
    let (total, assigned) = cheapest_assignment(n, n, distance)?;
    let total = total as i64;
    // Prices with cost(i, g) − u(g) ≥ cost(i, σ(i)) − u(σ(i)) for every box i and goal g:
    // difference constraints, solved by Bellman–Ford from all prices 0. An optimal
    // matching has no negative cycle, so this settles within n rounds.
    let mut price = vec![0i64; n];
    for round in 0..=n {
        let mut changed = false;
        for (i, &a) in assigned.iter().enumerate() {
            for g in (0..n).filter(|&g| cost(i, g) < NEVER) {
                let bound = price[a] + cost(i, g) - cost(i, a);
                if bound < price[g] {
                    price[g] = bound;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
        if round == n {
            return None; // cannot happen for an optimal matching
        }
    }
    let cell: Vec<Option<i64>> = (0..level.cell_count())
        .map(|c| {
            (0..n)
                .filter(|&j| dist[j][c] != UNREACHABLE)
                .map(|j| dist[j][c] as i64 - price[j])
                .min()
        })
        .collect();
    let offset: i64 = price.iter().sum();
    let goal_prices = goals.iter().copied().zip(price.iter().copied()).collect();
    let mut prices = price;
    prices.sort_unstable();
    let initial = offset + boxes.iter().map(|&b| cell[b].unwrap_or(0)).sum::<i64>();
    debug_assert_eq!(initial, total, "the dual meets the matching");
    Some(MatchingPotential {
        cell,
        offset,
        prices,
        goal_prices,
        initial,
    })
}

/// The most extra pushes that disjoint groups of boxes add on top of their own
/// distances: `pair(i, j)` and `triple(i, j, k)` give a group's extra pushes (box
/// indices in increasing order). Disjoint groups spend disjoint pushes, so their extras
/// add up. Exact by dynamic programming over subsets for up to 16 boxes; beyond that,
/// the best single group.
pub fn group_extra_bound(
    boxes: usize,
    pair: impl Fn(usize, usize) -> u32,
    triple: impl Fn(usize, usize, usize) -> u32,
) -> u32 {
    if boxes > 16 {
        let mut best = 0;
        for i in 0..boxes {
            for j in i + 1..boxes {
                best = best.max(pair(i, j));
                for k in j + 1..boxes {
                    best = best.max(triple(i, j, k));
                }
            }
        }
        return best;
    }
    // best[mask]: the most extra pushes from disjoint groups inside `mask`.
    let mut best = vec![0u32; 1 << boxes];
    for mask in 1usize..1 << boxes {
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut value = best[rest]; // box i in no group
        for j in (i + 1..boxes).filter(|&j| rest & (1 << j) != 0) {
            let without_j = rest & !(1 << j);
            value = value.max(pair(i, j) + best[without_j]);
            for k in (j + 1..boxes).filter(|&k| without_j & (1 << k) != 0) {
                value = value.max(triple(i, j, k) + best[without_j & !(1 << k)]);
            }
        }
        best[mask] = value;
    }
    best[(1 << boxes) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn disjoint_groups_add_up_and_overlapping_ones_do_not() {
        // Four boxes: pairs (0,1) and (2,3) add 3 + 4; the pair (1,2) alone adds 5, and
        // the triple (0,1,2) 6 — the best packing is (0,1) + (2,3) = 7.
        let pair = |i: usize, j: usize| match (i, j) {
            (0, 1) => 3,
            (2, 3) => 4,
            (1, 2) => 5,
            _ => 0,
        };
        let triple = |i: usize, j: usize, k: usize| if (i, j, k) == (0, 1, 2) { 6 } else { 0 };
        assert_eq!(group_extra_bound(4, pair, triple), 7);
        assert_eq!(group_extra_bound(3, pair, triple), 6);
        assert_eq!(group_extra_bound(1, pair, triple), 0);
    }

    #[test]
    fn matching_beats_nearest_goal() {
        // Both boxes are nearest to the right goal; a matching must send one left.
        let l = parse_xsb("t", "#########\n#.  $$ .#\n#   @   #\n#########\n")
            .unwrap()
            .remove(0);
        let boxes: Vec<Cell> = l.box_cells().collect();
        let goals: Vec<Cell> = l.goal_cells().collect();
        assert_eq!(matching_push_bound(&l, &boxes, &goals), Some(3 + 2));
    }

    #[test]
    fn boxes_in_a_corridor_are_matched() {
        // Each box goes to the goal on its own side: one push each.
        let l = parse_xsb("t", "#######\n#.$ $.#\n### ###\n  #@#\n  ###\n")
            .unwrap()
            .remove(0);
        let boxes: Vec<Cell> = l.box_cells().collect();
        let goals: Vec<Cell> = l.goal_cells().collect();
        assert_eq!(matching_push_bound(&l, &boxes, &goals), Some(2));
    }

    #[test]
    fn unreachable_goal_is_none() {
        // The right goal is walled off from every box: no assignment exists.
        let l = parse_xsb("t", "########\n#. $ @##\n#   $#.#\n########\n")
            .unwrap()
            .remove(0);
        let boxes: Vec<Cell> = l.box_cells().collect();
        let goals: Vec<Cell> = l.goal_cells().collect();
        assert_eq!(matching_push_bound(&l, &boxes, &goals), None);
    }

    #[test]
    fn matching_potential_meets_the_matching_and_bounds_other_positions_and_parts() {
        // Both boxes are nearest to the right goal; the potential must charge the
        // detour to the left goal at the start, and never overcharge elsewhere.
        let l = parse_xsb("t", "#########\n#.   $$.#\n#   @   #\n#########\n")
            .unwrap()
            .remove(0);
        let region = crate::game::player_region(&l);
        let boxes: Vec<Cell> = l.box_cells().collect();
        let goals: Vec<Cell> = l.goal_cells().collect();
        let m = matching_potential(&l, &region, (&boxes, &goals), &Stop::never()).unwrap();
        let nearest = crate::analysis::push_distances_to_goals_walking(&l, &region);
        let sum_nearest: u32 = boxes.iter().map(|&b| nearest[b]).sum();
        assert_eq!((m.initial, sum_nearest), (1 + 4, 1 + 2));
        // Every placement of two boxes on live cells: the potential is at most the
        // best matching of that placement.
        let live: Vec<Cell> = (0..l.cell_count())
            .filter(|&c| m.cell[c].is_some())
            .collect();
        let dist: Vec<Vec<u32>> = goals
            .iter()
            .map(|&g| super::super::distance::push_distances_walking_to(&l, &region, [g]))
            .collect();
        for (i, &x) in live.iter().enumerate() {
            for &y in &live[i + 1..] {
                let value = m.offset + m.cell[x].unwrap() + m.cell[y].unwrap();
                let best = (dist[0][x] as i64 + dist[1][y] as i64)
                    .min(dist[1][x] as i64 + dist[0][y] as i64);
                assert!(value <= best, "{x} {y}: {value} > {best}");
            }
        }
        // One box alone: its φ plus the cheapest price is at most its nearest goal.
        assert_eq!(m.prices.iter().sum::<i64>(), m.offset);
        assert!(m.prices.windows(2).all(|w| w[0] <= w[1]), "smallest first");
        for &x in &live {
            let value = m.cell[x].unwrap() + m.prices[0];
            let best = dist[0][x].min(dist[1][x]) as i64;
            assert!(value <= best, "{x}: {value} > {best}");
        }
    }
}
