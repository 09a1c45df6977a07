//! Push distances on ice: where a pushed box can come to rest when it may slide.
//!
//! A box pushed onto ice slides until a wall, a box or the floor beyond the ice stops
//! it. Which box stops it depends on the position, so the analysis takes every cell of
//! the slide as a place it may stop (a box could stand just beyond it) and the slide's
//! end on an empty board too. The graph of those pushes over-approximates the real
//! one: each real push is one of its edges. Distances in it are therefore lower bounds
//! on the pushes a box needs, and a cell from which no goal can be reached in it is
//! dead for certain: a box that stands there can never reach a goal, however the other
//! boxes stand. A cell a box only slides through is never a place it stands, so it may
//! be dead and still be crossed on the way to a goal.

use super::distance::{UNREACHABLE, bfs};
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// The cells a box on `cell` pushed in direction `dir` may come to rest on: none if the
/// player has no room behind it or a wall is in front; the next cell, and on ice every
/// cell of its slide on an empty board (another box may stop it at any of them).
pub fn slide_stops(level: &Level, cell: Cell, dir: Direction) -> Vec<Cell> {
    let behind = level.neighbor(cell, dir.opposite());
    let mut at = level.neighbor(cell, dir);
    if level.is_wall(behind) || level.is_wall(at) {
        return Vec::new();
    }
    let mut stops = vec![at];
    while level.is_ice(at) {
        let next = level.neighbor(at, dir);
        if level.is_wall(next) {
            break;
        }
        stops.push(next);
        at = next;
    }
    stops
}

/// Every push of the over-approximated graph, as the cells each cell's box may reach in
/// one push (forward) and the cells whose box may reach it in one push (backward).
struct PushGraph {
    forward: Vec<Vec<Cell>>,
    backward: Vec<Vec<Cell>>,
}

impl PushGraph {
    /// The graph, or `None` when `stop` says stop first (a line of n ice cells gives
    /// each of its cells n stops, so the graph grows faster than the board).
    fn until(level: &Level, region: &[bool], stop: &Stop) -> Option<PushGraph> {
        let n = level.cell_count();
        let mut forward = vec![Vec::new(); n];
        let mut backward = vec![Vec::new(); n];
        for cell in (0..n).filter(|&c| region[c]) {
            if cell % 256 == 0 && stop.should_stop() {
                return None;
            }
            let stops: &mut Vec<Cell> = &mut forward[cell];
            for dir in Direction::ALL {
                stops.extend(slide_stops(level, cell, dir));
            }
            // Sorted rather than searched for each new stop: a line of n ice cells
            // gives each of its cells n stops.
            stops.sort_unstable();
            stops.dedup();
            for &to in stops.iter() {
                backward[to].push(cell);
            }
        }
        Some(PushGraph { forward, backward })
    }
}

/// What the analysis of an ice level needs from the over-approximated push graph.
pub struct IceDistances {
    /// Pushes a box at each cell needs at least to reach some goal (`UNREACHABLE`:
    /// dead, or outside `region`).
    pub pushes_to_goal: Vec<u32>,
    /// Pushes the nearest box (of those given) needs at least to reach each cell.
    pub pushes_from_boxes: Vec<u32>,
}

/// The distances of an ice level over the cells of `region`, towards its goals and from
/// the boxes `boxes`. When `stop` says stop first, every cell of `region` gets 0: the
/// weakest bound, which prunes nothing and claims nothing.
pub fn ice_distances(level: &Level, region: &[bool], boxes: &[Cell], stop: &Stop) -> IceDistances {
    let Some(graph) = PushGraph::until(level, region, stop) else {
        let trivial: Vec<u32> = (region.iter())
            .map(|&r| if r { 0 } else { UNREACHABLE })
            .collect();
        return IceDistances {
            pushes_to_goal: trivial.clone(),
            pushes_from_boxes: trivial,
        };
    };
    let goals = level.goal_cells().filter(|&g| region[g]);
    IceDistances {
        pushes_to_goal: bfs(level, goals, |c, out| out.extend(&graph.backward[c])),
        pushes_from_boxes: bfs(level, boxes.iter().copied(), |c, out| {
            out.extend(&graph.forward[c])
        }),
    }
}

/// For each goal of `goals`, the pushes a box at each cell needs at least to reach that
/// goal in the over-approximated push graph (`UNREACHABLE` where it cannot): the
/// per-goal distances of the assignment of boxes to goals on ice.
/// `None` when `stop` says stop first.
pub fn ice_goal_distances(
    level: &Level,
    region: &[bool],
    goals: &[Cell],
    stop: &Stop,
) -> Option<Vec<Vec<u32>>> {
    let graph = PushGraph::until(level, region, stop)?;
    (goals.iter())
        .map(|&g| {
            (!stop.should_stop()).then(|| bfs(level, [g], |c, out| out.extend(&graph.backward[c])))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::distance::UNREACHABLE;
    use crate::game::player_region;
    use crate::level::parse_xsb;

    fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    #[test]
    fn a_slide_may_stop_anywhere_along_it() {
        let l = level("########\n#@$~~~ #\n#     .#\n########\n");
        let b = l.box_cells().next().unwrap();
        let stops = slide_stops(&l, b, Direction::Right);
        // Three ice cells and the floor beyond them.
        assert_eq!(stops.len(), 4);
        assert_eq!(stops[0], l.neighbor(b, Direction::Right));
        // A wall above: no push up, and none down (no room for the player).
        assert!(slide_stops(&l, b, Direction::Up).is_empty());
        assert!(slide_stops(&l, b, Direction::Down).is_empty());
    }

    #[test]
    fn a_box_may_stop_short_of_its_slide_in_the_over_approximation() {
        // Pushed right, the box slides to the floor at the far end unless a box stops
        // it; the over-approximation lets it stop on the ice above the goal.
        let l = level("#######\n#     #\n#@$~~ #\n#  .  #\n#######\n");
        let region = player_region(&l);
        let boxes: Vec<Cell> = l.box_cells().collect();
        let d = ice_distances(&l, &region, &boxes, &Stop::never());
        assert_eq!(d.pushes_to_goal[boxes[0]], 2);
        assert_eq!(
            d.pushes_from_boxes[l.neighbor(boxes[0], Direction::Right)],
            1
        );
        // The top-left corner is dead: nothing pushes a box out of it.
        let corner = l.width() + 1;
        assert_eq!(d.pushes_to_goal[corner], UNREACHABLE);
    }
}
