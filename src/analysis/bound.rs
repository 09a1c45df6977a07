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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

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
