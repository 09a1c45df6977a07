//! Lower bounds from a minimum-cost perfect matching of boxes to goals.

use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;

use super::distance::{UNREACHABLE, push_distances_from};
use crate::level::{Cell, Level};

/// Cost standing in for "this box can never reach that goal".
const NEVER: i64 = 1 << 40;

/// The fewest pushes that bring each box to its own goal, each box pushed alone on the
/// empty board: a lower bound on the pushes of any solution. `None` when no assignment of
/// boxes to distinct goals is possible at all (the level is unsolvable).
pub fn matching_push_bound(level: &Level, boxes: &[Cell], goals: &[Cell]) -> Option<usize> {
    if boxes.is_empty() {
        return Some(0);
    }
    assert_eq!(boxes.len(), goals.len(), "as many boxes as goals");
    let rows: Vec<Vec<i64>> = boxes
        .iter()
        .map(|&b| {
            let dist = push_distances_from(level, [b]);
            goals
                .iter()
                .map(|&g| match dist[g] {
                    UNREACHABLE => NEVER,
                    d => d as i64,
                })
                .collect()
        })
        .collect();
    let matrix = Matrix::from_rows(rows).expect("a square matrix");
    let (total, _) = kuhn_munkres_min(&matrix);
    (total < NEVER).then_some(total as usize)
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
}
