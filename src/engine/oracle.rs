//! Brute-force search over the rules engine: the oracle every engine is tested against.
//! Exponential; meant for small levels only. It uses nothing but the rules (no
//! analysis, no region fill), so that what it says does not depend on the code it
//! checks.

use std::collections::{HashMap, VecDeque};

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
