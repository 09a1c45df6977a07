//! Shortening a plan with the SAT solver. A plan finder's plan wanders; between two of
//! its positions, a window of `w` pushes, the unrolled `pushes` formula is asked for
//! the same position (the same boxes, the player in the same region) after fewer
//! pushes, from the fewest up, so the first satisfiable bound is the window's optimum.
//! Where it is shorter, the plan takes the solver's pushes instead, and the shorter
//! plan is offered as the new incumbent. Windows slide over the plan, then grow.

use super::push_search::Push;
use super::{Incumbent, Stop, Task};
use crate::encode::pushes::{PushesEncoding, Reach};
use crate::encode::{Decoded, Encoding};
use crate::game::{Plan, Region, State, apply_move, plan_from_pushes};
use crate::level::{Cell, Level};
use crate::sat::{Lit, SolveResult};

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
    let target: Vec<Cell> = (0..to_boxes.len()).filter(|&c| to_boxes[c]).collect();
    region.fill(&start, to_boxes, *to_player);
    let player_cells: Vec<Cell> = (0..to_boxes.len())
        .filter(|&c| region.contains(c))
        .collect();
    // The formula's potential counter needs no matching for a target off the goals.
    let mut analysis = task.analysis.clone();
    analysis.matching_potential = None;
    let mut backend = task.solver.backend(Some(stop.interrupt())).ok()?;
    let mut encoding = PushesEncoding::new(&start, &analysis, Reach::Layered);
    // Every push moves a box to a cell of the other chessboard colour, so every way
    // between the two positions has the parity of this one.
    let mut k = 2 - pushes % 2;
    while k < pushes {
        while encoding.steps() < k {
            if stop.should_stop() {
                return None;
            }
            encoding.add_step(backend.as_mut());
        }
        let wanted = encoding.position_literal(k, &target, &player_cells, backend.as_mut());
        match backend.solve(&[wanted]) {
            SolveResult::Sat => {
                let vars = backend.stats().variables as u32;
                let model: Vec<bool> = (0..=vars)
                    .map(|v| v > 0 && backend.value(Lit::positive(v)))
                    .collect();
                let value = |l: Lit| model[l.var() as usize] == l.is_positive();
                let Decoded::Plan(plan) = encoding.decode(k, &value, backend.as_mut()) else {
                    return None;
                };
                return pushes_of(&start, &plan);
            }
            SolveResult::Unsat => k += 2,
            SolveResult::Unknown => return None,
        }
    }
    None
}

/// The pushes of a plan from `level`'s start, as (box cell, direction).
pub fn pushes_of(level: &Level, plan: &Plan) -> Option<Vec<Push>> {
    let mut state = State::initial(level);
    let mut pushes = Vec::new();
    for m in &plan.moves {
        let effect = apply_move(level, &mut state, m.dir).ok()?;
        if let Some((from, _)) = effect.box_move {
            pushes.push((from, m.dir));
        }
    }
    Some(pushes)
}
