//! Shortening a plan with the SAT solver. A plan finder's plan wanders; between two of
//! its positions, a window of `w` pushes, the unrolled `pushes` formula is asked for
//! the same position (the same boxes, the player in the same region) after fewer
//! pushes, from the fewest up, so the first satisfiable bound is the window's optimum.
//! Where it is shorter, the plan takes the solver's pushes instead, and the shorter
//! plan is offered as the new incumbent. Windows slide over the plan, then grow.

use super::push_search::Push;
use super::target::{Reached, fewest_pushes};
use super::{Incumbent, Stop, Task};
use crate::encode::pushes::Target;
use crate::game::{Region, plan_from_pushes};
use crate::level::{Cell, Level};

/// The window sizes tried, in pushes, smallest first.
const WINDOWS: [usize; 3] = [10, 18, 30];

/// What shortening did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shortening {
    /// Windows asked of the solver.
    pub windows: u64,
    /// Windows the solver made shorter.
    pub shortened: u64,
    /// Pushes saved in all.
    pub saved: u64,
}

/// Shortens the plan of `pushes` window by window until every window size has passed
/// over it or `stop` says stop, offering each shorter plan on `board` (as found by
/// `by`). Returns the pushes of the shortest plan and what was done.
pub fn shorten(
    task: &Task,
    mut pushes: Vec<Push>,
    stop: &Stop,
    board: &Incumbent,
    by: &'static str,
) -> (Vec<Push>, Shortening) {
    let level = task.level;
    let mut done = Shortening::default();
    let mut region = Region::new(level);
    for w in WINDOWS {
        let mut i = 0;
        while i + 2 <= pushes.len() && !stop.should_stop() {
            let j = (i + w).min(pushes.len());
            let positions = positions(level, &pushes[..j]);
            done.windows += 1;
            if let Some(better) =
                window(task, &positions[i], &positions[j], j - i, stop, &mut region)
            {
                done.shortened += 1;
                done.saved += (j - i - better.len()) as u64;
                pushes.splice(i..j, better);
                if let Ok(plan) = plan_from_pushes(level, &pushes) {
                    board.offer(level, plan, by);
                }
            }
            i += w / 2;
        }
    }
    (pushes, done)
}

/// The positions of the plan: before each push and after the last, as box masks with
/// the player's cell.
fn positions(level: &Level, pushes: &[Push]) -> Vec<(Vec<bool>, Cell)> {
    let mut boxes = level.initial_boxes().to_vec();
    let mut player = level.player();
    let mut all = vec![(boxes.clone(), player)];
    for &(cell, dir) in pushes {
        let to = level.neighbor(cell, dir);
        boxes[cell] = false;
        boxes[to] = true;
        player = cell;
        all.push((boxes.clone(), player));
    }
    all
}

/// Asks the solver for a way from position `from` to position `to` in fewer than
/// `pushes` pushes: the pushes of the shortest, if shorter.
fn window(
    task: &Task,
    (from_boxes, from_player): &(Vec<bool>, Cell),
    (to_boxes, to_player): &(Vec<bool>, Cell),
    pushes: usize,
    stop: &Stop,
    region: &mut Region,
) -> Option<Vec<Push>> {
    let start = task.level.with_position(*from_player, from_boxes);
    let boxes: Vec<Cell> = (0..to_boxes.len()).filter(|&c| to_boxes[c]).collect();
    region.fill(&start, to_boxes, *to_player);
    let player_cells: Vec<Cell> = (0..to_boxes.len())
        .filter(|&c| region.contains(c))
        .collect();
    let target = Target {
        boxes: &boxes,
        player_cells: &player_cells,
        avoid: &[],
    };
    // Every push moves a box to a cell of the other chessboard colour, so every way
    // between the two positions has the parity of this one.
    let bounds = (2 - pushes % 2, pushes.saturating_sub(2), 2);
    match fewest_pushes(task, &start, &target, bounds, stop) {
        Reached::Pushes(better) => Some(better),
        Reached::None | Reached::TooBig | Reached::Stopped => None,
    }
}
