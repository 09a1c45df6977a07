//! Shortening a plan with the SAT solver. A plan finder's plan wanders; between two of
//! its positions, a window of `w` pushes, the unrolled `pushes` formula is asked for
//! the same position (the same boxes, the player in the same region) after fewer
//! pushes, from the fewest up, so the first satisfiable bound is the window's optimum.
//! Where it is shorter, the plan takes the solver's pushes instead, and the shorter
//! plan is offered as the new incumbent. Windows slide over the plan, then grow; a
//! second shortener may work on the same plan from its other end ([`SharedPlan`]).

use super::push_search::Push;
use super::target::{Reached, fewest_pushes};
use super::{Incumbent, Stop, Task};
use crate::encode::pushes::Target;
use crate::game::{Region, plan_from_pushes};
use crate::level::{Cell, Level};
use std::sync::Mutex;

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

/// Which end of the plan a shortener starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// From the first push on (the plan core's shortener).
    Start,
    /// From the last push back (the proof core's, once `pdr` has filled its memory).
    Finish,
}

/// The plan being shortened, shared by a shortener from each end. Both pass over it
/// with the same window size until their windows meet (where a whole window no longer
/// fits at the end, the shortener from the end takes the next one from the start),
/// then both go on to the next size. A window is named by its distance from its own
/// end, which the other shortener's changes at the far end leave as it was; a shorter
/// way replaces a window only if the plan still passes through the window's two
/// positions there (near the meeting point the two may overlap).
#[derive(Debug, Default)]
pub struct SharedPlan {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    pushes: Vec<Push>,
    /// A plan was given ([`SharedPlan::start`]), or none will be ([`SharedPlan::close`]).
    started: bool,
    closed: bool,
    /// The window size in [`WINDOWS`] both shorteners are at.
    pass: usize,
    /// Where the next window from the start begins, and how many pushes from the end
    /// the next window from the end stops.
    front: usize,
    back: usize,
}

/// One window to ask: its two positions and where it lies.
struct Job {
    from: Position,
    to: Position,
    /// The end it is counted from.
    side: End,
    /// Its first push, counted from the plan's start (`End::Start`) or its end
    /// (`End::Finish`: pushes after the window's last one), and its pushes.
    at: usize,
    pushes: usize,
}

impl SharedPlan {
    /// Hands the plan to shorten to the shorteners (the first one given counts).
    pub fn start(&self, pushes: Vec<Push>) {
        let mut state = self.lock();
        if !state.started {
            state.pushes = pushes;
            state.started = true;
        }
    }

    /// Says no plan will be given: a shortener waiting for one stops waiting.
    pub fn close(&self) {
        self.lock().closed = true;
    }

    /// Whether a plan was given (`Some(true)`), none will be (`Some(false)`), or it
    /// is not known yet.
    pub fn given(&self) -> Option<bool> {
        let state = self.lock();
        match (state.started, state.closed) {
            (true, _) => Some(true),
            (false, true) => Some(false),
            (false, false) => None,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next window of `end`, or `None` once every window size has passed.
    fn next(&self, level: &Level, end: End) -> Option<Job> {
        let mut state = self.lock();
        while let Some(&w) = WINDOWS.get(state.pass) {
            let len = state.pushes.len();
            let from_start = state.front + 2 <= len - state.back.min(len);
            let from_finish = len >= state.back + w && len - state.back - w >= state.front;
            // Near the meeting point a full window no longer fits at the end: the
            // shortener from the end then takes the next window from the start.
            let (side, i, j) = if end == End::Finish && from_finish {
                let j = len - state.back;
                state.back += w / 2;
                (End::Finish, j - w, j)
            } else if from_start {
                let i = state.front;
                state.front += w / 2;
                (End::Start, i, (i + w).min(len))
            } else {
                // The windows have met: the next size, from both ends again.
                state.pass += 1;
                state.front = 0;
                state.back = 0;
                continue;
            };
            let (from, to) = window_ends(level, &state.pushes, i, j);
            let at = match side {
                End::Start => i,
                End::Finish => len - j,
            };
            return Some(Job {
                from,
                to,
                side,
                at,
                pushes: j - i,
            });
        }
        None
    }

    /// Puts `better` in place of the window of `job` if the plan still passes through
    /// its two positions there: the plan's pushes then, to offer.
    fn splice(&self, level: &Level, job: &Job, better: Vec<Push>) -> Option<Vec<Push>> {
        let mut state = self.lock();
        let len = state.pushes.len();
        let i = match job.side {
            End::Start => job.at,
            End::Finish => len.checked_sub(job.at + job.pushes)?,
        };
        let j = i + job.pushes;
        if j > len {
            return None;
        }
        let (from, to) = window_ends(level, &state.pushes, i, j);
        if from != job.from || to != job.to {
            return None;
        }
        state.pushes.splice(i..j, better);
        Some(state.pushes.clone())
    }
}

/// Shortens the plan of `plan` window by window from its `end` until every window size
/// has passed over it or `stop` says stop, offering each shorter plan on `board` (as
/// found by `by`). A shortener from the other end may work on the same plan at once.
pub fn shorten(
    task: &Task,
    plan: &SharedPlan,
    end: End,
    stop: &Stop,
    board: &Incumbent,
    by: &'static str,
) -> Shortening {
    let level = task.level;
    let mut done = Shortening::default();
    let mut region = Region::new(level);
    // A plan that meets the proven bound cannot be shortened.
    while !stop.should_stop() && !board.closed() {
        let Some(job) = plan.next(level, end) else {
            break;
        };
        done.windows += 1;
        let Some(better) = window(task, &job.from, &job.to, job.pushes, stop, &mut region) else {
            continue;
        };
        let saved = job.pushes - better.len();
        if let Some(pushes) = plan.splice(level, &job, better) {
            done.shortened += 1;
            done.saved += saved as u64;
            if let Ok(plan) = plan_from_pushes(level, &pushes) {
                board.offer(level, plan, by);
            }
        }
    }
    done
}

/// A position of a plan: its boxes as a mask, and the player's cell.
type Position = (Vec<bool>, Cell);

/// The plan's positions after its first `i` and its first `j` pushes (`i ≤ j`), played
/// once from the start.
fn window_ends(level: &Level, pushes: &[Push], i: usize, j: usize) -> (Position, Position) {
    let mut boxes = level.initial_boxes().to_vec();
    let mut player = level.player();
    let mut first = None;
    for (n, &(cell, dir)) in pushes[..j].iter().enumerate() {
        if n == i {
            first = Some((boxes.clone(), player));
        }
        boxes[cell] = false;
        boxes[level.neighbor(cell, dir)] = true;
        player = cell;
    }
    let last = (boxes, player);
    (first.unwrap_or_else(|| last.clone()), last)
}

/// Asks the solver for a way from position `from` to position `to` in fewer than
/// `pushes` pushes: the pushes of the shortest, if shorter.
fn window(
    task: &Task,
    (from_boxes, from_player): &Position,
    (to_boxes, to_player): &Position,
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
    match fewest_pushes(task, &start, &target, bounds, false, stop) {
        Reached::Pushes(better) => Some(better),
        Reached::None | Reached::TooBig | Reached::Stopped => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::push_search::on_task;
    use crate::game::Metric;
    use crate::level::Direction::{Left, Right};

    /// A room of three rows, a box on the middle one and its goal `steps` cells to the
    /// right.
    pub(crate) fn room(steps: usize) -> String {
        let width = steps + 5;
        let wall = "#".repeat(width + 2);
        let open = format!("#{}#", " ".repeat(width));
        let middle = format!("#@ ${}.  #", " ".repeat(steps - 1));
        format!("{wall}\n{open}\n{middle}\n{open}\n{wall}\n")
    }

    /// A plan for [`room`] in three times the pushes it needs: right, right, back left,
    /// again and again (the player walks round the box for each).
    pub(crate) fn wandering(level: &Level, steps: usize) -> Vec<Push> {
        let mut at = level.box_cells().next().expect("one box");
        let mut pushes = Vec::new();
        for _ in 0..steps {
            let (next, after) = (level.neighbor(at, Right), level.neighbor(at, Right));
            let after = level.neighbor(after, Right);
            pushes.extend([(at, Right), (next, Right), (after, Left)]);
            at = next;
        }
        pushes
    }

    /// [`wandering`]'s plan for [`room`]`(steps)` and the windows of its first pass.
    fn wandering_first_pass(
        level: &Level,
        steps: usize,
        ends: &[End],
    ) -> (Vec<Push>, Vec<(End, usize, usize)>) {
        let pushes = wandering(level, steps);
        let plan = SharedPlan::default();
        plan.start(pushes.clone());
        let windows = first_pass(level, &plan, ends);
        (pushes, windows)
    }

    /// The windows of the first pass, as (first push, last push + 1), from each end
    /// in turn while both have one.
    fn first_pass(level: &Level, plan: &SharedPlan, ends: &[End]) -> Vec<(End, usize, usize)> {
        let len = plan.lock().pushes.len();
        let mut windows = Vec::new();
        for &end in ends.iter().cycle() {
            if plan.lock().pass > 0 {
                break;
            }
            let Some(job) = plan.next(level, end) else {
                break;
            };
            if plan.lock().pass > 0 {
                break; // the job is the next size's
            }
            windows.push(match job.side {
                End::Start => (End::Start, job.at, job.at + job.pushes),
                End::Finish => (End::Finish, len - job.at - job.pushes, len - job.at),
            });
        }
        windows
    }

    #[test]
    fn alone_from_the_start_the_windows_slide_over_the_whole_plan() {
        on_task(&room(8), |task| {
            let (pushes, windows) = wandering_first_pass(task.level, 8, &[End::Start]);
            let starts: Vec<usize> = windows.iter().map(|w| w.1).collect();
            assert_eq!(starts, [0, 5, 10, 15, 20]);
            assert_eq!(windows.last().unwrap().2, pushes.len());
        });
    }

    #[test]
    fn from_both_ends_the_windows_meet_and_cover_the_plan() {
        on_task(&room(12), |task| {
            let (pushes, windows) =
                wandering_first_pass(task.level, 12, &[End::Start, End::Finish]);
            let len = pushes.len();
            let mut covered = vec![false; len];
            for &(end, i, j) in &windows {
                assert!(i < j && j <= len && j - i <= WINDOWS[0]);
                covered[i..j].iter_mut().for_each(|c| *c = true);
                if end == End::Finish {
                    assert!(windows.iter().any(|w| w.0 == End::Finish && w.2 == len));
                }
            }
            assert!(covered.iter().all(|&c| c), "{windows:?}");
            // Each end did part of the work, and none was asked twice.
            let from_end = windows.iter().filter(|w| w.0 == End::Finish).count();
            assert!(from_end >= 2 && from_end < windows.len() - 1, "{windows:?}");
            let mut sorted = windows.clone();
            sorted.sort_by_key(|w| (w.1, w.2));
            sorted.dedup_by_key(|w| (w.1, w.2));
            assert_eq!(sorted.len(), windows.len());
        });
    }

    #[test]
    fn the_shortener_from_the_end_alone_covers_the_plan_before_the_next_size() {
        on_task(&room(12), |task| {
            let (pushes, windows) = wandering_first_pass(task.level, 12, &[End::Finish]);
            let mut covered = vec![false; pushes.len()];
            for &(_, i, j) in &windows {
                covered[i..j].iter_mut().for_each(|c| *c = true);
            }
            assert!(covered.iter().all(|&c| c), "{windows:?}");
            // Where a full window no longer fits at the end, it took one from the start.
            assert_eq!(windows.last().map(|w| (w.0, w.1)), Some((End::Start, 0)));
        });
    }

    #[test]
    fn a_window_the_other_end_changed_is_not_spliced() {
        on_task(&room(8), |task| {
            let level = task.level;
            let pushes = wandering(level, 8);
            let plan = SharedPlan::default();
            plan.start(pushes.clone());
            // 24 pushes: the front takes 0..10, the back 14..24, the front 5..15.
            let first = plan.next(level, End::Start).unwrap();
            let back = plan.next(level, End::Finish).unwrap();
            let front = plan.next(level, End::Start).unwrap();
            assert_eq!((first.at, back.at, back.pushes), (0, 0, 10));
            assert_eq!((front.at, front.pushes), (5, 10));
            // The back's window becomes the 4 pushes it needs: 18 pushes are left.
            let mut at = level.box_cells().next().unwrap();
            for &(cell, dir) in &pushes[..14] {
                at = if cell == at {
                    level.neighbor(cell, dir)
                } else {
                    at
                };
            }
            let better: Vec<Push> = (0..4)
                .scan(at, |c, _| {
                    let push = (*c, Right);
                    *c = level.neighbor(*c, Right);
                    Some(push)
                })
                .collect();
            let spliced = plan.splice(level, &back, better).unwrap();
            assert_eq!(spliced.len(), 18);
            assert_eq!(plan_from_pushes(level, &spliced).err(), None);
            // The front's window ended inside the back's: the plan no longer passes
            // through its last position, so it is refused.
            let stale = pushes[5..11].to_vec();
            assert_eq!(plan.splice(level, &front, stale), None);
            // A window from the start before the change still fits.
            let kept = pushes[..10].to_vec();
            assert!(plan.splice(level, &first, kept).is_some());
        });
    }

    #[test]
    fn a_plan_that_meets_the_bound_is_not_shortened() {
        on_task(&room(4), |task| {
            let level = task.level;
            let pushes = wandering(level, 4);
            let board = Incumbent::new(Metric::Pushes);
            board.offer(level, plan_from_pushes(level, &pushes).unwrap(), "t");
            // (Not a true bound: it only closes the board.)
            board.raise_lower(pushes.len());
            let plan = SharedPlan::default();
            plan.start(pushes);
            let done = shorten(task, &plan, End::Start, &Stop::never(), &board, "t");
            assert_eq!(done, Shortening::default());
        });
    }

    #[test]
    fn two_shorteners_from_both_ends_give_a_plan_that_replays() {
        on_task(&room(10), |task| {
            let level = task.level;
            let pushes = wandering(level, 10);
            assert_eq!(
                plan_from_pushes(level, &pushes).err(),
                None,
                "the plan is legal"
            );
            let board = Incumbent::new(Metric::Pushes);
            let plan = SharedPlan::default();
            plan.start(pushes.clone());
            let stop = Stop::never();
            let (a, b) = std::thread::scope(|s| {
                let a = s.spawn(|| shorten(task, &plan, End::Start, &stop, &board, "t"));
                let b = s.spawn(|| shorten(task, &plan, End::Finish, &stop, &board, "t"));
                (a.join().unwrap(), b.join().unwrap())
            });
            // Which end asks how many windows depends on the threads' timing: on a
            // loaded machine one end can shorten the whole plan before the other starts.
            assert!(a.windows + b.windows > 0, "{a:?} {b:?}");
            let best = board.best().expect("a shorter plan");
            assert!(best.plan.verify(level).is_ok());
            let kept = plan.lock().pushes.clone();
            assert_eq!(best.plan.push_count(), kept.len());
            assert_eq!(kept.len() as u64, pushes.len() as u64 - a.saved - b.saved);
            assert!(kept.len() < pushes.len());
        });
    }
}
