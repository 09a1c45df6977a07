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

/// Packs a state into a compact key: the player and the sorted box cells.
fn key(state: &State) -> (usize, Vec<u16>) {
    let boxes = state
        .boxes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b)
        .map(|(c, _)| c as u16)
        .collect();
    (state.player, boxes)
}

/// Fewest moves that solve `level`, by breadth-first search over states, looking at most
/// `max_moves` deep and at most `max_states` states.
pub fn shortest_moves(level: &Level, max_moves: usize, max_states: usize) -> SearchResult {
    zero_one_search(level, max_moves, max_states, |_| 1)
}

/// Fewest pushes that solve `level` (walks are free): a 0-1 breadth-first search.
pub fn shortest_pushes(level: &Level, max_pushes: usize, max_states: usize) -> SearchResult {
    zero_one_search(level, max_pushes, max_states, |pushed| pushed as usize)
}

fn zero_one_search(
    level: &Level,
    max_cost: usize,
    max_states: usize,
    cost: impl Fn(bool) -> usize,
) -> SearchResult {
    let start = State::initial(level);
    let mut best: HashMap<(usize, Vec<u16>), usize> = HashMap::new();
    let mut deque = VecDeque::from([(start.clone(), 0usize)]);
    best.insert(key(&start), 0);
    let mut cut_off = false;
    while let Some((state, c)) = deque.pop_front() {
        if best.get(&key(&state)).is_some_and(|&b| b < c) {
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
            let step = cost(effect.pushed);
            let nc = c + step;
            if nc > max_cost {
                cut_off = true;
                continue;
            }
            let k = key(&next);
            if best.get(&k).is_some_and(|&b| b <= nc) {
                continue;
            }
            if best.len() >= max_states {
                return SearchResult::TooLarge;
            }
            best.insert(k, nc);
            if step == 0 {
                deque.push_front((next, nc));
            } else {
                deque.push_back((next, nc));
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
}
