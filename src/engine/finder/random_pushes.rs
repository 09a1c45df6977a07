//! A test of the finder's sound deadlock checks against brute force: random pushes on
//! small generated boards, and wherever a check calls a position dead, the exhaustive
//! search over the rules must agree.

use crate::analysis::Analysis;
use crate::engine::oracle::{SearchResult, shortest_pushes};
use crate::game::{State, apply_move};
use crate::level::generate::{BoardSpec, random_board};
use crate::level::{Cell, Direction, Level, parse_xsb};

/// One position of a random walk, for a check to judge.
pub struct Pushed<'a> {
    pub level: &'a Level,
    pub analysis: &'a Analysis,
    /// The boxes before the push (a mask).
    pub before: &'a [bool],
    /// The position after it.
    pub after: &'a State,
    /// The cell the box was pushed to.
    pub to: Cell,
}

impl Pushed<'_> {
    /// The boxes after the push, as a sorted list of cells.
    pub fn cells(&self) -> Vec<u16> {
        let boxes = &self.after.boxes;
        (0..boxes.len())
            .filter(|&c| boxes[c])
            .map(|c| c as u16)
            .collect()
    }
}

/// Walks `levels` generated boards (7 wide, 2 to 4 boxes, from `board_seed`), 20
/// walks of 40 random moves each, with a check made by `check_for` per board: a walk
/// ends at the first push the check calls dead, which brute force must not solve.
/// Answers the positions called dead and those brute force proved unsolvable.
pub fn check_random_pushes<C>(
    levels: usize,
    (seed, board_seed): (u64, u64),
    mut check_for: impl FnMut(&Level, &Analysis) -> Option<C>,
    mut dead: impl FnMut(&mut C, &Pushed) -> bool,
) -> (usize, usize) {
    let (mut called, mut confirmed) = (0, 0);
    let mut seed = seed;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for index in 0..levels {
        let spec = BoardSpec::class(7, (2, 4), index, board_seed);
        let level = parse_xsb("t", &random_board(&spec)).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let Some(mut check) = check_for(&level, &analysis) else {
            continue;
        };
        for _walk in 0..20 {
            let mut state = State::initial(&level);
            for _ in 0..40 {
                let before = state.boxes.clone();
                let Ok(effect) = apply_move(&level, &mut state, Direction::ALL[next() % 4]) else {
                    continue;
                };
                let Some((_, to)) = effect.box_move else {
                    continue;
                };
                let pushed = Pushed {
                    level: &level,
                    analysis: &analysis,
                    before: &before,
                    after: &state,
                    to,
                };
                if !dead(&mut check, &pushed) {
                    continue;
                }
                called += 1;
                let here = level.with_position(state.player, &state.boxes);
                let answer = shortest_pushes(&here, usize::MAX, 200_000);
                confirmed += usize::from(answer == SearchResult::Unsolvable);
                assert!(
                    matches!(answer, SearchResult::Unsolvable | SearchResult::TooLarge),
                    "{answer:?}\n{}",
                    level.render(state.player, &state.boxes)
                );
                break;
            }
        }
    }
    (called, confirmed)
}
