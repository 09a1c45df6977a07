//! The packing order: in which order to fill the goals, found backward from the solved
//! position. Where goals crowd a room, a box pushed onto the goal by the entrance first
//! blocks the way to the goals behind it; the strong solvers (FESS, YASS, JSoko) plan
//! the order in reverse, as the order in which the boxes could be pulled back out.
//!
//! Backward: with a box on every goal, take out, one at a time, a box that can be pulled
//! off the goal cells with the others still in place; the order of the removals,
//! reversed, is the order of filling (the goal emptied last is filled first). Goals
//! whose box cannot be taken out come first. The order is a guide for the plan finder,
//! not a proof of anything.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// The most goals ordered: the order asks a search of every remaining goal for every
/// goal taken out, so on a level of a thousand goals it would take hours. Beyond it the
/// goals come in cell order (real collections have a few dozen goals at most).
pub const MAX_ORDERED_GOALS: usize = 100;

/// The most entrances kept for a goal (a goal in the open has dozens).
pub const MAX_ENTRANCES: usize = 16;

// A step of the finder names an entrance in a byte.
const _: () = assert!(MAX_ENTRANCES < u8::MAX as usize);

/// One goal of the packing order and the way a box is brought onto it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingStep {
    /// The goal.
    pub goal: Cell,
    /// Where a box can enter the goals to reach this one, and the pushes from there,
    /// with exactly the goals before it in the order filled: for each cell off the
    /// goals its box could be pulled out to, the reverse of the fewest pulls, fewest
    /// first (at most [`MAX_ENTRANCES`]). Empty for the goals whose box could not be
    /// taken out (they come first), and for all goals beyond
    /// [`MAX_ORDERED_GOALS`].
    pub entries: Vec<GoalEntry>,
}

/// How a box is pushed from the entrance of the goals onto one goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalEntry {
    /// The cell off the goals the box starts on.
    pub entrance: Cell,
    /// The pushes, each as the box's cell and the direction, the first from
    /// `entrance`; every cell after the entrance is a goal.
    pub pushes: Vec<(Cell, Direction)>,
}

/// The goals of `level` in the player's `region`, in the order to fill them (see
/// [`packing_plan`] for `stop`).
pub fn packing_order(level: &Level, region: &[bool], stop: &Stop) -> Vec<Cell> {
    packing_plan(level, region, stop)
        .into_iter()
        .map(|s| s.goal)
        .collect()
}

/// The goals of `level` in the player's `region` in the order to fill them, each with
/// the way a box enters it. Once `stop` says stop, the goals not yet ordered come
/// first without entries, as those whose box cannot be taken out do (the order only
/// guides a search).
pub fn packing_plan(level: &Level, region: &[bool], stop: &Stop) -> Vec<PackingStep> {
    let goals: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
    let step = |goal, entries| PackingStep { goal, entries };
    if goals.len() > MAX_ORDERED_GOALS {
        return goals.into_iter().map(|g| step(g, Vec::new())).collect();
    }
    let mut boxes = vec![false; level.cell_count()];
    for &g in &goals {
        boxes[g] = true;
    }
    let mut remaining = goals.clone();
    let mut removed = Vec::new();
    while !remaining.is_empty() && !stop.should_stop() {
        // The goal whose box leaves the goals in the fewest pulls is emptied first.
        let best = remaining
            .iter()
            .enumerate()
            .filter_map(|(i, &g)| {
                let first = ways_out(level, region, &boxes, g, 1, stop);
                first.first().map(|w| (w.pushes.len(), i))
            })
            .min();
        let Some((_, i)) = best.filter(|_| !stop.should_stop()) else {
            break;
        };
        let g = remaining.remove(i);
        let entries = ways_out(level, region, &boxes, g, MAX_ENTRANCES, stop);
        boxes[g] = false;
        removed.push(step(g, entries));
    }
    let mut plan: Vec<PackingStep> = remaining.into_iter().map(|g| step(g, Vec::new())).collect();
    plan.extend(removed.into_iter().rev());
    plan
}

/// A state of the pulls out of the goals: the box's cell and the player's.
type State = (Cell, Cell);

/// The states reached, each with its pulls and the state it was reached from.
type Reached = FxHashMap<State, (u32, State)>;

/// For each cell off the goals the box on goal `from` can be pulled to (through goals
/// only), the other boxes of `boxes` in place and the player walking (with the box in
/// the way): the fewest pulls, turned into the pushes that bring it back, fewest
/// first, for at most `most` cells. Empty when it cannot leave; cut short when `stop`
/// says stop.
fn ways_out(
    level: &Level,
    region: &[bool],
    boxes: &[bool],
    from: Cell,
    most: usize,
    stop: &Stop,
) -> Vec<GoalEntry> {
    let free = |c: Cell, b: Cell| region[c] && !level.is_wall(c) && c != b && !boxes[c];
    // States (box cell, player cell); pulls cost one, walks nothing. Only the states
    // reached are stored: a table of every (box, player) pair grows with the square of
    // the board (tens of gigabytes on a board of 100 000 cells). Each state keeps the
    // one it was reached from, to read the pulls back.
    let mut reached = Reached::default();
    let cost_of = |reached: &Reached, s: State| reached.get(&s).map_or(u32::MAX, |&(c, _)| c);
    let mut queue = VecDeque::new();
    for d in Direction::ALL {
        let p = level.neighbor(from, d);
        if free(p, from) {
            reached.insert((from, p), (0, (from, p)));
            queue.push_back((from, p));
        }
    }
    let mut ways: Vec<GoalEntry> = Vec::new();
    let mut taken = 0u32;
    while let Some((b, p)) = queue.pop_front() {
        taken = taken.wrapping_add(1);
        if taken.is_multiple_of(1 << 12) && stop.should_stop() {
            break;
        }
        let cost = cost_of(&reached, (b, p));
        if !level.is_goal(b) {
            // Off the goals: a way out, if the first to this cell; the box goes no
            // further.
            if ways.iter().all(|w| w.entrance != b) {
                ways.push(entry_from(level, &reached, (b, p)));
                if ways.len() == most {
                    break;
                }
            }
            continue;
        }
        for d in Direction::ALL {
            // A walk.
            let q = level.neighbor(p, d);
            if free(q, b) && cost_of(&reached, (b, q)) > cost {
                reached.insert((b, q), (cost, (b, p)));
                queue.push_front((b, q));
            }
            // A pull: the player beside the box steps away from it, the box follows.
            if level.neighbor(b, d) == p {
                let beyond = level.neighbor(p, d);
                if free(beyond, b) && cost_of(&reached, (p, beyond)) > cost + 1 {
                    reached.insert((p, beyond), (cost + 1, (b, p)));
                    if most == 1 && !level.is_goal(p) {
                        // The first way out is one of the fewest pulls: every state
                        // still queued costs at least `cost`, and leaving the goals
                        // takes a pull more; searching on would walk the whole
                        // region for every goal, each time a goal is taken out.
                        return vec![entry_from(level, &reached, (p, beyond))];
                    }
                    queue.push_back((p, beyond));
                }
            }
        }
    }
    ways
}

/// The pushes that undo the pulls leading to state `end` (read back through `reached`).
fn entry_from(level: &Level, reached: &Reached, end: State) -> GoalEntry {
    let mut pushes = Vec::new();
    let mut state = end;
    loop {
        let (_, before) = reached[&state];
        if before == state {
            break;
        }
        if before.0 != state.0 {
            // A pull took the box from `before.0` to `state.0`: pushed back, it goes
            // the other way.
            let dir = Direction::ALL
                .into_iter()
                .find(|&d| level.neighbor(state.0, d) == before.0)
                .expect("a pull moves the box to a neighbour");
            pushes.push((state.0, dir));
        }
        state = before;
    }
    GoalEntry {
        entrance: end.0,
        pushes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player_region;
    use crate::level::parse_xsb;

    /// Three goals in a dead-end corridor, and the player's region.
    fn corridor() -> (Level, Vec<bool>) {
        let text = "#######\n#...  #\n### $ #\n#  $$@#\n#     #\n#######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let region = player_region(&level);
        (level, region)
    }

    #[test]
    fn the_goal_at_the_back_of_a_corridor_is_filled_first() {
        // Three goals in a dead-end corridor: the deepest first, the entrance last.
        let (level, region) = corridor();
        let order = packing_order(&level, &region, &Stop::never());
        let col = |c: Cell| level.row_col(c).1;
        assert_eq!(order.iter().map(|&g| col(g)).collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn each_goal_is_entered_by_pushes_from_off_the_goals() {
        // The corridor: the deepest goal is reached by three pushes from a cell off
        // the goals, the goal by the entrance by one.
        let (level, region) = corridor();
        let plan = packing_plan(&level, &region, &Stop::never());
        let at = |r: usize, c: usize| (r + 1) * level.width() + c + 1;
        let entrance = at(1, 4);
        let left = |c: usize| (at(1, c), Direction::Left);
        let first = &plan[0].entries;
        // Two ways in: along the corridor, or up from below its last goal.
        assert_eq!(first.len(), 2);
        assert_eq!(first[0].entrance, entrance);
        assert_eq!(first[0].pushes, [left(4), left(3), left(2)]);
        assert_eq!(
            first[1].pushes,
            [(at(2, 3), Direction::Up), left(3), left(2)]
        );
        assert_eq!(plan[2].entries[0].pushes, [left(4)]);
    }

    #[test]
    fn the_entry_pushes_are_a_path_from_the_entrance_onto_the_goal() {
        let text = include_str!("../../levels/microban.xsb");
        for level in parse_xsb("microban", text).unwrap().iter().take(60) {
            let region = player_region(level);
            for step in packing_plan(level, &region, &Stop::never()) {
                let lengths: Vec<usize> = step.entries.iter().map(|e| e.pushes.len()).collect();
                assert!(lengths.is_sorted());
                for entry in step.entries {
                    assert!(!level.is_goal(entry.entrance));
                    let mut at = entry.entrance;
                    for &(cell, dir) in &entry.pushes {
                        assert_eq!(cell, at);
                        at = level.neighbor(cell, dir);
                        assert!(level.is_goal(at));
                    }
                    assert_eq!(at, step.goal);
                }
            }
        }
    }
}
