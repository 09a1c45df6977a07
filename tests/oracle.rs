//! The oracle test: on many small generated levels, the SAT driver's answer (the first
//! satisfiable k, or "no plan within k", or "unsolvable") must agree with a brute-force
//! search over the rules engine.

mod common;

use std::sync::atomic::AtomicBool;

use common::{GenOptions, Rng, random_level};
use satsoko::driver::{self, Options, Verdict};
use satsoko::encode::EncodingKind;
use satsoko::level::parse_xsb;
use satsoko::sat::VarisatBackend;
use satsoko::search::{SearchResult, shortest_moves};

/// State limit of the brute-force search.
const STATES: usize = 400_000;

fn check_moves_encoding(seed: u64, count: usize, bound: usize, opts: GenOptions) {
    let mut rng = Rng::new(seed);
    let (mut solved, mut none_within, mut unsolvable, mut checked) = (0, 0, 0, 0);
    while checked < count {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text)
            .expect("generated levels parse")
            .remove(0);
        let options = Options {
            encoding: EncodingKind::Moves,
            max_steps: bound,
        };
        let outcome = driver::solve(
            &level,
            &options,
            Box::new(VarisatBackend::new()),
            &mut |_| {},
            &AtomicBool::new(false),
        )
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let oracle = shortest_moves(&level, bound, STATES);
        checked += 1;
        match (&outcome.verdict, oracle) {
            (Verdict::Solved { plan, k, optimal }, SearchResult::Optimal(m)) => {
                assert_eq!(*k, m, "SAT k differs from BFS optimum on\n{text}");
                assert_eq!(plan.move_count(), m, "plan length on\n{text}");
                assert_eq!(*optimal, Some("moves"));
                plan.verify(&level).expect("driver plans replay");
                solved += 1;
            }
            (Verdict::NoPlan { bound }, SearchResult::NoneWithin(b)) => {
                assert_eq!(*bound, b);
                none_within += 1;
            }
            (Verdict::NoPlan { .. }, SearchResult::Unsolvable) => unsolvable += 1,
            (Verdict::Unsolvable { reason }, r) => {
                // A proof of unsolvability must never meet a solution, at any depth.
                let deep = shortest_moves(&level, usize::MAX, STATES);
                assert!(
                    matches!(deep, SearchResult::Unsolvable | SearchResult::TooLarge),
                    "SAT says unsolvable ({reason}) but BFS found {deep:?} (bounded: {r:?}) on\n{text}"
                );
                unsolvable += 1;
            }
            (_, SearchResult::TooLarge) => checked -= 1,
            (v, r) => panic!("SAT {v:?} disagrees with BFS {r:?} on\n{text}"),
        }
    }
    eprintln!(
        "{checked} levels: {solved} solved, {none_within} none within {bound}, {unsolvable} unsolvable"
    );
    assert!(
        solved >= count / 5,
        "too few solvable levels generated: {solved}"
    );
    assert!(
        unsolvable + none_within >= count / 20,
        "too few unsolvable levels generated"
    );
}

#[test]
fn moves_encoding_matches_bfs_one_box() {
    let opts = GenOptions {
        max_boxes: 1,
        wall_percent: 20,
        ice_percent: 0,
    };
    check_moves_encoding(1, 150, 24, opts);
}

#[test]
fn moves_encoding_matches_bfs_up_to_three_boxes() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
    };
    check_moves_encoding(2, 200, 24, opts);
}

#[test]
fn moves_encoding_agrees_on_none_within_a_small_bound() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 15,
        ice_percent: 0,
    };
    check_moves_encoding(3, 150, 9, opts);
}
