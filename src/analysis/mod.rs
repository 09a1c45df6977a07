//! Static facts about a level, computed once before any encoding: the player's region,
//! dead squares, distances, a lower bound on moves, and unsolvability found without SAT.
//!
//! Everything here is sound for the rules engine: a cell called dead can never hold a
//! box in a solved plan, and the lower bound never exceeds the optimum.

mod assignment;
mod bound;
mod deadlock;
pub mod distance;
mod freeze;
mod heuristic;
pub mod ice;
mod packing;
mod pairs;
mod patterns;

pub use assignment::Assignment;
pub use bound::{
    MatchingPotential, cheapest_assignment, group_extra_bound, matching_potential,
    matching_push_bound,
};
pub use deadlock::Deadlocks;
pub use distance::{
    UNREACHABLE, line_distances_from, line_distances_to_goals, push_distances_from,
    push_distances_to_goals, push_distances_to_goals_walking, walk_distances,
};
pub use freeze::{freeze_blocks, frozen, frozen_off_goal};
pub use heuristic::Heuristic;
/// A level whose boxes must wait in a dead end (the packing pass with parking's test).
#[cfg(test)]
pub(crate) use packing::tests::ROOM_BESIDE_A_DEAD_END;
pub use packing::{
    GoalEntry, PackingStep, ParkingStep, packing_order, packing_plan, packing_plan_with_requires,
    parking_plan,
};
pub use pairs::PairTable;

use std::sync::{Arc, OnceLock};

use crate::game::player_region;
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// What static analysis knows about a level.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Cells connected to the player (boxes ignored): the only cells where anything moves.
    pub region: Vec<bool>,
    /// Cells of the region where a box may stand in a plan that solves the level
    /// (a box elsewhere can never reach a goal).
    pub live: Vec<bool>,
    /// Pushes a box at each cell needs to reach some goal (`UNREACHABLE` on dead cells).
    pub pushes_to_goal: Vec<u32>,
    /// Moves needed before a box can stand at each cell: 0 for initial box cells,
    /// otherwise the walk to the nearest box plus its pushes. A lower bound.
    pub moves_to_box_at: Vec<u32>,
    /// Steps the player needs to reach each cell, ignoring boxes.
    pub player_distance: Vec<u32>,
    /// Whether every move flips the colour of the player's cell on a chessboard
    /// colouring (true without ice), so the player's cell at step t has t's parity.
    pub parity: bool,
    /// A lower bound on the number of moves of any solution.
    pub move_lower_bound: usize,
    /// A lower bound on the number of pushes of any solution.
    pub push_lower_bound: usize,
    /// The parity every solution's push count has, when it is fixed: each push moves one
    /// box to a cell of the other chessboard colour, so the number of pushes is congruent
    /// to the boxes on dark cells minus the goals on dark cells (not with ice, where a box
    /// may slide any distance).
    pub push_parity: Option<usize>,
    /// Why the level cannot be solved, when that is clear without search.
    pub unsolvable: Option<String>,
    /// Pushes two boxes need to reach goals, per pair of live cells (empty on ice).
    pub pair_table: PairTable,
    /// The deadlock patterns: freeze blocks, dead pairs and dead triples (the triples
    /// are empty on ice and on boards too large to search).
    pub deadlocks: Deadlocks,
    /// The matching's dual as a per-cell potential (`None` on ice, on unsolvable levels
    /// and when there is no box to push).
    pub matching_potential: Option<MatchingPotential>,
    /// The heuristic the push searches share.
    pub heuristic: Heuristic,
    /// The layered `pushes` encoding's bound on a step's walk (the longest induced path
    /// of its walking graph, `None` when the search gives up), worked out on first use
    /// and shared by every clone: each SAT question of a level (a subgoal, a window)
    /// builds its own formula from a clone of the analysis.
    pub longest_walk: Arc<OnceLock<Option<usize>>>,
}

impl Analysis {
    /// Analyses `level`, however long that takes.
    pub fn new(level: &Level) -> Analysis {
        Analysis::until(level, &Stop::never())
    }

    /// Analyses `level`, leaving out the costly parts once `stop` says stop. The parts
    /// that grow with the board (the box–goal matching, the distances of each box,
    /// the pair and triple patterns) are checked against it, and a part not finished
    /// takes its weakest sound value: no patterns, no matching potential, a lower bound
    /// of 0 where it was not computed. The rest takes linear time in the board
    /// (docs/engines.md, "Static analysis"). The result never claims more than is
    /// true; it only prunes less.
    pub fn until(level: &Level, stop: &Stop) -> Analysis {
        let region = player_region(level);
        let ice = level.has_ice();
        let n = level.cell_count();

        // On ice a box slides, so its pushes come from the over-approximated push graph
        // of [`ice`]; the player's walks slide too, which the floor-only walking
        // distances do not follow, so those stay trivial there.
        let boxes_in_region: Vec<Cell> = level.box_cells().filter(|&b| region[b]).collect();
        let ice_distances = ice.then(|| ice::ice_distances(level, &region, &boxes_in_region, stop));
        let pushes_to_goal = match &ice_distances {
            Some(d) => d.pushes_to_goal.clone(),
            None => push_distances_to_goals_walking(level, &region),
        };
        let live: Vec<bool> = (0..n)
            .map(|c| region[c] && pushes_to_goal[c] != UNREACHABLE)
            .collect();
        let player_distance = if ice {
            (0..n)
                .map(|c| if region[c] { 0 } else { UNREACHABLE })
                .collect()
        } else {
            walk_distances(level, level.player())
        };

        let moves_to_box_at = if let Some(d) = &ice_distances {
            // Each push is a move: the pushes from the nearest box bound the moves.
            d.pushes_from_boxes.clone()
        } else {
            moves_to_box_at(level, &boxes_in_region, &player_distance, stop)
        };

        let mut unsolvable = None;
        for b in level.box_cells() {
            if !region[b] && !level.is_goal(b) {
                unsolvable = Some(format!(
                    "the box at {} is walled off from the player and not on a goal",
                    level.cell_name(b)
                ));
            } else if region[b] && !live[b] {
                unsolvable = Some(format!(
                    "the box at {} can never be pushed to any goal",
                    level.cell_name(b)
                ));
            }
        }
        for g in level.goal_cells() {
            if !region[g] && !level.has_initial_box(g) {
                unsolvable = Some(format!(
                    "the goal at {} is walled off from the player and empty",
                    level.cell_name(g)
                ));
            } else if let Some(d) = &ice_distances
                && region[g]
                && d.pushes_from_boxes[g] == UNREACHABLE
            {
                unsolvable = Some(format!(
                    "no box can ever be pushed to the goal at {}",
                    level.cell_name(g)
                ));
            }
        }

        let solved = level.goal_cells().all(|g| level.has_initial_box(g));
        let goals_in_region: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
        let pushes = if ice || unsolvable.is_some() || stop.should_stop() {
            Some(0)
        } else if boxes_in_region.len() != goals_in_region.len() {
            None
        } else {
            matching_push_bound(level, &boxes_in_region, &goals_in_region)
        };
        if pushes.is_none() && unsolvable.is_none() {
            unsolvable =
                Some("no assignment of boxes to distinct goals is reachable by pushes".into());
        }
        let matching_potential = if ice || unsolvable.is_some() {
            None
        } else {
            let placed = (&boxes_in_region[..], &goals_in_region[..]);
            matching_potential(level, &region, placed, stop)
        };
        let pair_table = if ice || unsolvable.is_some() {
            PairTable::default()
        } else {
            PairTable::new(level, (&region, &live), matching_potential.as_ref(), stop)
        };
        // The boxes' own distances plus the extra pushes of disjoint pairs and triples
        // of boxes is a bound too, and on crowded levels it beats the matching (whose
        // distances ignore the player and the other boxes).
        let (dead_triples, group_extra) = if ice || unsolvable.is_some() {
            (Vec::new(), 0)
        } else {
            let (dead, initial) = pairs::triples_and_bound(
                level,
                (&region, &live),
                &pair_table,
                &boxes_in_region,
                &pushes_to_goal,
                stop,
            );
            (
                dead,
                initial.unwrap_or_else(|reason| {
                    unsolvable = Some(reason);
                    0
                }),
            )
        };
        // The player-aware distances make the matching stronger than the plain one, and
        // disjoint pairs add their pushes beyond it.
        let pushes = pushes.map(|p| {
            let walking = matching_potential.as_ref().map_or(0, |m| {
                let pairs = group_extra_bound(
                    boxes_in_region.len(),
                    |i, j| pair_table.priced_extra(boxes_in_region[i], boxes_in_region[j]),
                    |_, _, _| 0,
                );
                m.initial.max(0) + i64::from(pairs)
            });
            p.max(walking as usize)
        });
        let (move_lower_bound, push_lower_bound) = if solved || unsolvable.is_some() {
            (0, 0)
        } else if ice {
            // Each push moves one box and is one move; every box needs its own pushes.
            let pushes: u32 = boxes_in_region.iter().map(|&b| pushes_to_goal[b]).sum();
            (pushes.max(1) as usize, pushes.max(1) as usize)
        } else {
            let own_distances: u32 = boxes_in_region.iter().map(|&b| pushes_to_goal[b]).sum();
            let pushes = pushes
                .unwrap_or(0)
                .max(own_distances as usize + group_extra as usize)
                .max(1);
            // Before its first push the player walks at least to a cell next to a box.
            let walk = boxes_in_region
                .iter()
                .flat_map(|&b| Direction::ALL.map(|d| level.neighbor(b, d)))
                .map(|c| player_distance[c])
                .min()
                .unwrap_or(0) as usize;
            (pushes + walk, pushes)
        };
        let freeze_blocks = freeze_blocks(level, &live);
        let dark = |c: Cell| (c / level.width() + c % level.width()) % 2 == 1;
        let push_parity = (!ice).then(|| {
            let boxes = level.box_cells().filter(|&b| dark(b)).count();
            let goals = level.goal_cells().filter(|&g| dark(g)).count();
            (boxes + goals) % 2
        });
        let push_lower_bound = match push_parity {
            Some(p) if push_lower_bound % 2 != p => push_lower_bound + 1,
            _ => push_lower_bound,
        };

        let deadlocks = Deadlocks::new(n, freeze_blocks, &pair_table, dead_triples);
        let heuristic = Heuristic::new(matching_potential.as_ref(), &pushes_to_goal, push_parity);
        Analysis {
            region,
            live,
            pushes_to_goal,
            moves_to_box_at,
            player_distance,
            parity: !ice,
            move_lower_bound,
            push_lower_bound,
            push_parity,
            unsolvable,
            pair_table,
            deadlocks,
            matching_potential,
            heuristic,
            longest_walk: Arc::default(),
        }
    }
}

/// For each cell, a lower bound on the moves before any box can stand there (0
/// everywhere if `stop` says stop before every box's distances are known: the minimum
/// over some of the boxes bounds nothing).
fn moves_to_box_at(
    level: &Level,
    boxes: &[Cell],
    player_distance: &[u32],
    stop: &Stop,
) -> Vec<u32> {
    let mut best = vec![UNREACHABLE; level.cell_count()];
    for &b in boxes {
        if stop.should_stop() {
            return vec![0; level.cell_count()];
        }
        let approach = Direction::ALL
            .iter()
            .map(|&d| player_distance[level.neighbor(b, d)])
            .min()
            .unwrap_or(UNREACHABLE);
        let pushes = push_distances_from(level, [b]);
        for (c, &p) in pushes.iter().enumerate() {
            let cost = if c == b {
                0
            } else if p == UNREACHABLE || approach == UNREACHABLE {
                UNREACHABLE
            } else {
                approach + p
            };
            best[c] = best[c].min(cost);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn analyse(text: &str) -> (Level, Analysis) {
        let l = parse_xsb("t", text).unwrap().remove(0);
        let a = Analysis::new(&l);
        (l, a)
    }

    #[test]
    fn lower_bound_counts_walk_and_pushes() {
        let (_, a) = analyse("#######\n#@ $ .#\n#######\n");
        assert_eq!(a.push_lower_bound, 2);
        assert_eq!(a.move_lower_bound, 3);
        assert!(a.unsolvable.is_none());
    }

    #[test]
    fn dead_box_is_unsolvable() {
        let (_, a) = analyse("#####\n#$ .#\n# @ #\n#####\n");
        assert!(a.unsolvable.unwrap().contains("never be pushed"));
    }

    #[test]
    fn sealed_box_on_goal_is_fine_but_sealed_goal_is_not() {
        let (l, a) = analyse("#########\n#@$.#*# #\n#########\n");
        assert!(a.unsolvable.is_none());
        let star = l.box_cells().find(|&b| l.is_goal(b) && !a.region[b]);
        assert!(star.is_some());
        let (_, a) = analyse("#########\n#@$.#.#$#\n#########\n");
        assert!(a.unsolvable.is_some());
    }
}
