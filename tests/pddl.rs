//! The PDDL export against the brute-force oracle: the problem written for a generated
//! level, searched by the domain's own three actions (walks free, pushes cost 1), has
//! the level's push optimum, or no plan when the level has none.

mod common;

use std::collections::{BTreeSet, HashMap, VecDeque};

use common::{GenOptions, Rng, random_level};
use satsoko::encode::pddl;
use satsoko::engine::oracle::{SearchResult, shortest_pushes};
use satsoko::level::parse_xsb;

/// A state of the problem: the player's location and the stones' locations.
type State = (String, BTreeSet<String>);

/// The least total cost of a plan of the PDDL problem `text`, read as the domain's
/// actions read it (`move`, `push-to-goal`, `push-to-nongoal`); `None` when no plan
/// exists. A 0-1 breadth-first search over its states.
fn least_cost(text: &str) -> Option<usize> {
    let init = &text[text.find("(:init").unwrap()..text.find("(:goal").unwrap()];
    let mut step: HashMap<(String, String), String> = HashMap::new();
    let mut goals = BTreeSet::new();
    let (mut player, mut stones) = (String::new(), BTreeSet::new());
    for fact in init.split('(').skip(2) {
        let words: Vec<&str> = fact
            .trim_end_matches([')', '\n', ' '])
            .split_whitespace()
            .collect();
        match words.as_slice() {
            ["MOVE-DIR", from, to, dir] => {
                step.insert((from.to_string(), dir.to_string()), to.to_string());
            }
            ["IS-GOAL", l] => {
                goals.insert(l.to_string());
            }
            ["at", "player-01", l] => player = l.to_string(),
            ["at", _, l] => {
                stones.insert(l.to_string());
            }
            _ => {}
        }
    }
    let dirs = ["dir-left", "dir-up", "dir-right", "dir-down"];
    let start: State = (player, stones);
    let mut best: HashMap<State, usize> = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([(start, 0)]);
    while let Some((state, cost)) = queue.pop_front() {
        if best[&state] < cost {
            continue;
        }
        let (player, stones) = &state;
        // Every stone at a goal: the problem's goal (as many goals as stones).
        if stones.iter().all(|s| goals.contains(s)) {
            return Some(cost);
        }
        for dir in dirs {
            let Some(to) = step.get(&(player.clone(), dir.to_string())) else {
                continue;
            };
            let next = if !stones.contains(to) {
                Some(((to.clone(), stones.clone()), cost))
            } else {
                step.get(&(to.clone(), dir.to_string()))
                    .filter(|beyond| !stones.contains(*beyond))
                    .map(|beyond| {
                        let mut moved = stones.clone();
                        moved.remove(to);
                        moved.insert(beyond.clone());
                        ((to.clone(), moved), cost + 1)
                    })
            };
            if let Some((n, c)) = next
                && best.get(&n).is_none_or(|&old| c < old)
            {
                best.insert(n.clone(), c);
                if c == cost {
                    queue.push_front((n, c));
                } else {
                    queue.push_back((n, c));
                }
            }
        }
    }
    None
}

#[test]
fn the_pddl_problem_has_the_push_optimum_of_the_level() {
    let mut rng = Rng::new(7);
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 0,
    };
    let (mut checked, mut solvable) = (0, 0);
    while checked < 60 {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text).unwrap().remove(0);
        let problem = pddl::problem(&level, "generated").unwrap();
        match shortest_pushes(&level, usize::MAX, 400_000) {
            SearchResult::Optimal(m) => {
                assert_eq!(least_cost(&problem), Some(m), "{text}");
                solvable += 1;
            }
            SearchResult::Unsolvable => assert_eq!(least_cost(&problem), None, "{text}"),
            other => panic!("the oracle gave {other:?} on\n{text}"),
        }
        checked += 1;
    }
    assert!(solvable >= 20, "too few solvable levels: {solvable}");
}
