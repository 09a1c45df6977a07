//! Brute-force search over the rules engine: the oracle every engine is tested against.
//! Exponential; meant for small levels only. It uses nothing but the rules (no
//! analysis, no region fill), so that what it says does not depend on the code it
//! checks.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::game::{State, apply_move};
use crate::level::{Direction, Level};

/// The answer of a brute-force search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchResult {
    /// The optimum of the searched metric.
    Optimal(usize),
    /// No plan of at most this cost exists (the search stopped there).
    NoneWithin(usize),
    /// The whole state space was explored without reaching the goal.
    Unsolvable,
    /// Too many states; no answer.
    TooLarge,
}

/// A compact key: the player, the sorted box cells and the direction of the move just
/// made if it was a push and the metric cares (box lines), else 4.
type Key = (usize, Vec<u16>, u8);

/// Packs a state into a [`Key`].
fn key(state: &State, last_push: Option<Direction>) -> Key {
    let boxes = state
        .boxes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b)
        .map(|(c, _)| c as u16)
        .collect();
    (
        state.player,
        boxes,
        last_push.map_or(4, |d| d.index() as u8),
    )
}

/// What a move costs in the searched metric, from the push just made (if the metric
/// tracks it), the move's direction and whether it pushes; and what it leaves as the
/// push just made.
type Cost = dyn Fn(Option<Direction>, Direction, bool) -> (usize, Option<Direction>);

/// Fewest moves that solve `level`, by breadth-first search over states, looking at most
/// `max_moves` deep and at most `max_states` states.
pub fn shortest_moves(level: &Level, max_moves: usize, max_states: usize) -> SearchResult {
    zero_one_search(level, max_moves, max_states, &|_, _, _| (1, None))
}

/// Fewest pushes that solve `level` (walks are free): a 0-1 breadth-first search.
pub fn shortest_pushes(level: &Level, max_pushes: usize, max_states: usize) -> SearchResult {
    zero_one_search(level, max_pushes, max_states, &|_, _, pushed| {
        (pushed as usize, None)
    })
}

/// Fewest box lines that solve `level`: a line is a run of pushes in one direction with
/// no other move between them (so of one box); walks are free.
pub fn shortest_lines(level: &Level, max_lines: usize, max_states: usize) -> SearchResult {
    zero_one_search(
        level,
        max_lines,
        max_states,
        &|last, dir, pushed| match pushed {
            true => ((last != Some(dir)) as usize, Some(dir)),
            false => (0, None),
        },
    )
}

/// Fewest **parallel steps** that solve `level` (`pushes-parallel`), by breadth-first
/// search over positions, looking at most `max_steps` deep and at most `max_states`
/// positions. A step is one push the player can walk to, or two or more pushes of
/// distinct boxes into distinct cells, each from a cell the player can walk to with
/// every box and every cell a box enters in the way, when no box enters the player's
/// cell. A position is its boxes and the first cell of the player's walking region.
pub fn shortest_parallel_steps(level: &Level, max_steps: usize, max_states: usize) -> SearchResult {
    let start = State::initial(level);
    let start_key = walking_key(level, &start);
    let mut seen: HashSet<Key> = HashSet::from([start_key]);
    let mut layer = vec![start];
    for steps in 0.. {
        if layer.iter().any(|s| s.is_solved(level)) {
            return SearchResult::Optimal(steps);
        }
        if layer.is_empty() {
            return SearchResult::Unsolvable;
        }
        if steps == max_steps {
            return SearchResult::NoneWithin(max_steps);
        }
        let mut next_layer = Vec::new();
        for state in &layer {
            for next in parallel_steps(level, state) {
                let k = walking_key(level, &next);
                if seen.contains(&k) {
                    continue;
                }
                if seen.len() >= max_states {
                    return SearchResult::TooLarge;
                }
                seen.insert(k);
                next_layer.push(next);
            }
        }
        layer = next_layer;
    }
    unreachable!("the loop returns")
}

/// The cells the player walks to from `state` (moves that push nothing) with boxes on
/// `blocked`.
fn walkable(level: &Level, player: usize, blocked: &[bool]) -> Vec<bool> {
    let mut seen = vec![false; level.cell_count()];
    seen[player] = true;
    let mut queue = VecDeque::from([player]);
    while let Some(cell) = queue.pop_front() {
        for dir in Direction::ALL {
            let mut s = State {
                player: cell,
                boxes: blocked.to_vec(),
            };
            if let Ok(effect) = apply_move(level, &mut s, dir)
                && !effect.pushed
                && !seen[s.player]
            {
                seen[s.player] = true;
                queue.push_back(s.player);
            }
        }
    }
    seen
}

/// A position's key: the first cell of the player's walking region and the boxes.
fn walking_key(level: &Level, state: &State) -> Key {
    let region = walkable(level, state.player, &state.boxes);
    let first = region.iter().position(|&r| r).expect("the player's cell");
    let at = State {
        player: first,
        boxes: state.boxes.clone(),
    };
    key(&at, None)
}

/// Every position one parallel step leads to from `state` (see
/// [`shortest_parallel_steps`]).
fn parallel_steps(level: &Level, state: &State) -> Vec<State> {
    let reach = walkable(level, state.player, &state.boxes);
    // The pushes the player can make alone: (box, direction, cell behind, cell ahead).
    let mut single = Vec::new();
    for (c, _) in state.boxes.iter().enumerate().filter(|(_, b)| **b) {
        for dir in Direction::ALL {
            let Some(behind) = level.checked_neighbor(c, dir.opposite()) else {
                continue;
            };
            if !reach[behind] {
                continue;
            }
            let mut s = State {
                player: behind,
                boxes: state.boxes.clone(),
            };
            if let Ok(effect) = apply_move(level, &mut s, dir)
                && effect.pushed
            {
                single.push((c, dir, behind, level.neighbor(c, dir)));
            }
        }
    }
    let mut out = Vec::new();
    // Every choice of at most one push per box, by its index in `single`.
    let mut chosen: Vec<usize> = Vec::new();
    choose(&single, 0, &mut chosen, &mut |picks| {
        let pushes: Vec<_> = picks.iter().map(|&i| single[i]).collect();
        let mut ahead: Vec<usize> = pushes.iter().map(|p| p.3).collect();
        ahead.sort_unstable();
        ahead.dedup();
        if pushes.is_empty() || ahead.len() < pushes.len() {
            return;
        }
        if pushes.len() > 1 {
            if ahead.contains(&state.player) {
                return;
            }
            let mut blocked = state.boxes.clone();
            for &a in &ahead {
                blocked[a] = true;
            }
            let inside = walkable(level, state.player, &blocked);
            if pushes.iter().any(|p| !inside[p.2]) {
                return;
            }
        }
        let mut next = state.clone();
        for &(c, _, _, a) in &pushes {
            next.boxes[c] = false;
            next.boxes[a] = true;
        }
        next.player = pushes[0].0;
        out.push(next);
    });
    out
}

/// Calls `each` with every subset of `pushes` that has at most one push per box (they
/// are grouped by box), built from index `from` on after those already in `chosen`.
fn choose(
    pushes: &[(usize, Direction, usize, usize)],
    from: usize,
    chosen: &mut Vec<usize>,
    each: &mut dyn FnMut(&[usize]),
) {
    if from == pushes.len() {
        each(chosen);
        return;
    }
    let the_box = pushes[from].0;
    let end = (from..pushes.len())
        .find(|&i| pushes[i].0 != the_box)
        .unwrap_or(pushes.len());
    choose(pushes, end, chosen, each);
    for i in from..end {
        chosen.push(i);
        choose(pushes, end, chosen, each);
        chosen.pop();
    }
}

fn zero_one_search(level: &Level, max_cost: usize, max_states: usize, cost: &Cost) -> SearchResult {
    let start = State::initial(level);
    let mut best: HashMap<Key, usize> = HashMap::new();
    let mut deque = VecDeque::from([(start.clone(), None, 0usize)]);
    best.insert(key(&start, None), 0);
    let mut cut_off = false;
    while let Some((state, last, c)) = deque.pop_front() {
        if best.get(&key(&state, last)).is_some_and(|&b| b < c) {
            continue;
        }
        if state.is_solved(level) {
            return SearchResult::Optimal(c);
        }
        for dir in Direction::ALL {
            let mut next = state.clone();
            let Ok(effect) = apply_move(level, &mut next, dir) else {
                continue;
            };
            let (step, pushed) = cost(last, dir, effect.pushed);
            let nc = c + step;
            if nc > max_cost {
                cut_off = true;
                continue;
            }
            let k = key(&next, pushed);
            if best.get(&k).is_some_and(|&b| b <= nc) {
                continue;
            }
            if best.len() >= max_states {
                return SearchResult::TooLarge;
            }
            best.insert(k, nc);
            if step == 0 {
                deque.push_front((next, pushed, nc));
            } else {
                deque.push_back((next, pushed, nc));
            }
        }
    }
    if cut_off {
        SearchResult::NoneWithin(max_cost)
    } else {
        SearchResult::Unsolvable
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn tiny_levels() {
        let l = parse_xsb("t", "######\n#@ $.#\n######\n")
            .unwrap()
            .remove(0);
        assert_eq!(shortest_moves(&l, 10, 1000), SearchResult::Optimal(2));
        assert_eq!(shortest_pushes(&l, 10, 1000), SearchResult::Optimal(1));
        assert_eq!(shortest_moves(&l, 1, 1000), SearchResult::NoneWithin(1));
        let l = parse_xsb("t", "######\n#@.$ #\n######\n")
            .unwrap()
            .remove(0);
        assert_eq!(shortest_moves(&l, 10, 1000), SearchResult::Unsolvable);
    }

    #[test]
    fn pushes_of_two_boxes_that_do_not_interfere_are_one_step() {
        // The player between two boxes pushes both outward in one step.
        let l = parse_xsb("t", "#######\n#.$@$.#\n#######\n")
            .unwrap()
            .remove(0);
        assert_eq!(
            shortest_parallel_steps(&l, 5, 1000),
            SearchResult::Optimal(1)
        );
        assert_eq!(shortest_pushes(&l, 5, 1000), SearchResult::Optimal(2));
        // Two pushes each way: the second pair from where the first left the player.
        let l = parse_xsb("t", "#########\n#. $@$ .#\n#########\n")
            .unwrap()
            .remove(0);
        assert_eq!(
            shortest_parallel_steps(&l, 5, 1000),
            SearchResult::Optimal(2)
        );
        assert_eq!(shortest_pushes(&l, 5, 1000), SearchResult::Optimal(4));
        assert_eq!(
            shortest_parallel_steps(&l, 1, 1000),
            SearchResult::NoneWithin(1)
        );
    }

    #[test]
    fn a_run_of_pushes_is_one_line() {
        // Two pushes right are one line; a box that must go down and then right two.
        let l = parse_xsb("t", "#######\n#@$  .#\n#######\n")
            .unwrap()
            .remove(0);
        assert_eq!(shortest_lines(&l, 10, 1000), SearchResult::Optimal(1));
        assert_eq!(shortest_pushes(&l, 10, 1000), SearchResult::Optimal(3));
        let l = parse_xsb("t", "######\n# @  #\n# $  #\n#   .#\n######\n")
            .unwrap()
            .remove(0);
        assert_eq!(shortest_lines(&l, 10, 1000), SearchResult::Optimal(2));
        assert_eq!(shortest_lines(&l, 1, 1000), SearchResult::NoneWithin(1));
    }
}
