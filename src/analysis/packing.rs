//! The packing order: in which order to fill the goals, found backward from the solved
//! position. Where goals crowd a room, a box pushed onto the goal by the entrance first
//! blocks the way to the goals behind it; the strong solvers (FESS, YASS, JSoko) plan
//! the order in reverse, as the order in which the boxes could be pulled back out.
//!
//! Backward: with a box on every goal, take out, one at a time, a box that can be pulled
//! off the goal cells with the others still in place, to a cell a box could come to
//! from where some box starts (the way is fed), the player coming from the start's part
//! of the floor (or from any part, when no box can leave toward the start's); the
//! order of the removals, reversed, is the order of filling (the goal emptied last is
//! filled first). Goals whose box cannot be taken out come first. The order is a guide
//! for the plan finder, not a proof of anything.

use std::cmp::Reverse;
use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use super::distance::{BoxSides, box_sides};

use crate::game::Region;
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
    /// goals its box could be pulled out to (and a box could come to, when any could),
    /// the reverse of the fewest pulls, fewest first (at most [`MAX_ENTRANCES`]).
    /// Empty for the goals whose box could not be taken out (they come first), and for
    /// all goals beyond [`MAX_ORDERED_GOALS`].
    pub entries: Vec<GoalEntry>,
    /// The goals earlier in the order that must be filled before this one: those
    /// whose box could not yet be taken out of the goals when this goal's box was
    /// (a box here may shut them off). An earlier goal not listed could still be
    /// emptied with a box on this one, so it can as well be filled after it. Empty
    /// unless asked for ([`packing_plan_with_requires`]).
    pub requires: Vec<Cell>,
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
    plan(level, region, false, stop)
}

/// The [packing plan](packing_plan) with each goal's
/// [required goals](PackingStep::requires) (without, the lists are empty): it asks a
/// search for every pair of goals, at most, which on XSokoban takes up to a tenth of
/// a second.
pub fn packing_plan_with_requires(level: &Level, region: &[bool], stop: &Stop) -> Vec<PackingStep> {
    plan(level, region, true, stop)
}

/// The packing plan, with the required goals when `requires` says so.
fn plan(level: &Level, region: &[bool], requires: bool, stop: &Stop) -> Vec<PackingStep> {
    let goals: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
    let unordered = |g| PackingStep {
        goal: g,
        entries: Vec::new(),
        requires: Vec::new(),
    };
    if goals.len() > MAX_ORDERED_GOALS {
        return goals.into_iter().map(unordered).collect();
    }
    let mut boxes = vec![false; level.cell_count()];
    for &g in &goals {
        boxes[g] = true;
    }
    let mut remaining = goals.clone();
    let mut removed: Vec<Removed> = Vec::new();
    // By goal, the first round its box could be taken out in.
    let mut free_from: FxHashMap<Cell, usize> = FxHashMap::default();
    let mut reach = Region::adjacency(level);
    while !remaining.is_empty() && !stop.should_stop() {
        let round = removed.len();
        // The goal whose box leaves the goals in the fewest pulls is emptied first;
        // a box that can then be pulled on to a cell a box starts on, if any can.
        let feed = Feed::new(level, region, &boxes);
        let mut best = None;
        // The player comes from the start's side of the goals; where the goals cut
        // the floor in parts and no box can leave toward the start's, from any part
        // (in the solved position the player may stand in any).
        'sides: for from in [Reach::Start, Reach::Anywhere] {
            player_reach(level, region, &boxes, from, &mut reach);
            for fed in [Some(&feed), None] {
                let mut fewest = None;
                for (i, &g) in remaining.iter().enumerate() {
                    let first = ways_out(level, region, (&boxes, &reach), g, (1, fed), stop);
                    if let Some(way) = first.first() {
                        free_from.entry(g).or_insert(round);
                        let way = (way.pushes.len(), i);
                        fewest = Some(fewest.map_or(way, |f: (usize, usize)| f.min(way)));
                    }
                }
                if let Some((_, i)) = fewest {
                    best = Some((i, fed));
                    break 'sides;
                }
            }
        }
        let Some((i, fed)) = best.filter(|_| !stop.should_stop()) else {
            break;
        };
        let goal = remaining.remove(i);
        let most = (MAX_ENTRANCES, fed);
        let entries = ways_out(level, region, (&boxes, &reach), goal, most, stop);
        boxes[goal] = false;
        removed.push(Removed {
            goal,
            entries,
            round,
            freed: free_from[&goal],
        });
    }
    let required: Vec<Vec<Cell>> = if requires {
        let taken = Taken {
            goals: &goals,
            stuck: &remaining,
            removed: &removed,
        };
        (removed.iter())
            .map(|r| taken.required(level, region, r, stop))
            .collect()
    } else {
        vec![Vec::new(); removed.len()]
    };
    let mut plan: Vec<PackingStep> = remaining.into_iter().map(unordered).collect();
    let steps = removed.into_iter().zip(required).rev();
    plan.extend(steps.map(|(r, requires)| PackingStep {
        goal: r.goal,
        entries: r.entries,
        requires,
    }));
    plan
}

/// A goal whose box the backward pass took out.
struct Removed {
    goal: Cell,
    entries: Vec<GoalEntry>,
    /// The round it was taken out in.
    round: usize,
    /// The first round its box could have been taken out in.
    freed: usize,
}

/// The backward pass as it ended: the goals, those whose box could not be taken out,
/// and those taken out.
struct Taken<'a> {
    goals: &'a [Cell],
    stuck: &'a [Cell],
    removed: &'a [Removed],
}

impl Taken<'_> {
    /// The goals `r`'s goal requires: those that cannot come out while it holds a box.
    /// Only the goals whose box came out later than its own, and could not yet when
    /// its own did, are asked: each is asked again as it stood when it first could
    /// come out, with this goal's box put back. The goals whose box never came out are
    /// required by all.
    fn required(&self, level: &Level, region: &[bool], r: &Removed, stop: &Stop) -> Vec<Cell> {
        let mut boxes = vec![false; level.cell_count()];
        let mut reach = Region::adjacency(level);
        let mut requires = self.stuck.to_vec();
        for h in self.removed.iter().filter(|h| h.freed > r.round) {
            if stop.should_stop() {
                break;
            }
            for &goal in self.goals {
                boxes[goal] = true;
            }
            for taken in self.removed.iter().filter(|t| t.round < h.freed) {
                boxes[taken.goal] = false;
            }
            boxes[r.goal] = true;
            let shut_off = [Reach::Start, Reach::Anywhere].into_iter().all(|from| {
                player_reach(level, region, &boxes, from, &mut reach);
                ways_out(level, region, (&boxes, &reach), h.goal, (1, None), stop).is_empty()
            });
            if shut_off {
                requires.push(h.goal);
            }
        }
        requires
    }
}

/// Where the player may come into the goals from, in the backward pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// The part of the floor the player starts in (with a box on the goals left).
    Start,
    /// Any cell off the goals.
    Anywhere,
}

/// Fills `reach` with the cells the player can walk to from `from` with a box on the
/// goals of `boxes` (and no other box). From the level's start, a pull out of the
/// goals cannot start in a pocket the boxes close off. When a box covers the start,
/// the player may come from any cell off the goals.
fn player_reach(level: &Level, region: &[bool], boxes: &[bool], from: Reach, reach: &mut Region) {
    if from == Reach::Start && !boxes[level.player()] {
        reach.fill(level, boxes, level.player());
    } else {
        let open = |&c: &Cell| region[c] && !level.is_wall(c) && !boxes[c] && !level.is_goal(c);
        reach.fill_from_all(level, boxes, (0..level.cell_count()).filter(open));
    }
}

/// A state of the pulls out of the goals: the box's cell and the player's.
type State = (Cell, Cell);

/// The states reached, each with its pulls and the state it was reached from.
type Reached = FxHashMap<State, (u32, State)>;

/// For each cell off the goals the box on goal `from` can be pulled to (through goals
/// only), the other boxes of `boxes` in place and the player walking (with the box in
/// the way) from a cell of `reach` beside it: the fewest pulls, turned into the pushes
/// that bring it back, fewest first, for at most `most` cells, and with `fed`, only
/// those a box can come to ([`Feed`]). Empty when it cannot leave; cut short when
/// `stop` says stop.
fn ways_out(
    level: &Level,
    region: &[bool],
    (boxes, reach): (&[bool], &Region),
    from: Cell,
    (most, fed): (usize, Option<&Feed>),
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
        if free(p, from) && reach.contains(p) {
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
            // Off the goals: a way out, if the first to this cell (and fed, if
            // asked); the box goes no further.
            let fed_here = || fed.is_none_or(|feed| feed.feeds(level, (b, p)));
            if ways.iter().all(|w| w.entrance != b) && fed_here() {
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
                    let fed_there = || fed.is_none_or(|feed| feed.feeds(level, (p, beyond)));
                    if most == 1 && !level.is_goal(p) && fed_there() {
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

/// Where a box can come from: the states (box cell, side of the box the player is on)
/// a box can be pushed to from a cell some box starts on, the boxes of `boxes` in
/// place and the player walking around them. A way out of the goals through any other
/// state is one no box could come by. One search of the board, the sides of a box on
/// each cell found at once ([`box_sides`]), so the test costs nothing per way out.
struct Feed {
    sides: BoxSides,
    /// By state, `cell * 4 + side`.
    fed: Vec<bool>,
}

impl Feed {
    fn new(level: &Level, region: &[bool], boxes: &[bool]) -> Feed {
        let open: Vec<bool> = (0..level.cell_count())
            .map(|c| region[c] && !level.is_wall(c) && !boxes[c])
            .collect();
        let sides = box_sides(level, &open);
        let mut fed = vec![false; level.cell_count() * 4];
        let mut stack = Vec::new();
        for start in level.box_cells().filter(|&c| open[c]) {
            for d in Direction::ALL {
                if let Some(s) = sides.side(start, d) {
                    let state = start * 4 + s as usize;
                    if !fed[state] {
                        fed[state] = true;
                        stack.push(state);
                    }
                }
            }
        }
        while let Some(state) = stack.pop() {
            let (b, s) = (state / 4, (state % 4) as u8);
            // A push in direction d: the player behind the box, on side s; after it,
            // the player stands on b, behind the box on `ahead`.
            for d in Direction::ALL {
                let ahead = level.neighbor(b, d);
                if sides.side(b, d.opposite()) != Some(s) || !open[ahead] {
                    continue;
                }
                let after = sides.side(ahead, d.opposite()).expect("b is open");
                let next = ahead * 4 + after as usize;
                if !fed[next] {
                    fed[next] = true;
                    stack.push(next);
                }
            }
        }
        Feed { sides, fed }
    }

    /// Whether a box can come to the state (box cell, player cell beside it).
    fn feeds(&self, level: &Level, (b, p): State) -> bool {
        Direction::ALL
            .into_iter()
            .find(|&d| level.neighbor(b, d) == p)
            .and_then(|d| self.sides.side(b, d))
            .is_some_and(|s| self.fed[b * 4 + s as usize])
    }
}

/// The most positions [`parking_plan`] looks at. Each asks a search of the pulls of
/// every box left; on XSokoban a plan takes at most a few hundred.
pub const PARKING_POSITIONS: usize = 2_000;

/// A step of the backward pass with parking, as the pass makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pull {
    /// The box on the goal leaves to a cell a box can come to.
    Out(Cell),
    /// The box on `goal` is pulled off the goals to `cell`, where it waits.
    Park { goal: Cell, cell: Cell },
    /// The box waiting on the cell leaves to a cell a box can come to.
    Unpark(Cell),
}

/// One step of a plan of box moves, in forward order: of a [`parking_plan`], and of
/// the finder's plan with bases, which reads its backward search in the same steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParkingStep {
    /// The cell a box comes to: a goal, or a cell off the goals where it waits.
    pub to: Cell,
    /// For a box that waits, the later step that takes it on to its goal.
    pub until: Option<usize>,
}

/// A plan of box moves from a backward pass in which boxes may wait (park).
///
/// The packing order takes each box out of the goals to a cell a box can come to.
/// Where goals close a dead end (a corridor beside a room of goals), no order does:
/// the boxes bound for the goals at its mouth must wait in the dead end while the
/// room fills, and come up last. Backward, that is a box pulled off the goals as deep
/// as it goes into the cells no box can come to, where it waits until a way opens to
/// a cell a box can come to.
///
/// The pass is a search with backtracking over the positions (boxes and the player's
/// region): from each, first every box that can leave (off the goals or from where it
/// waits, fewest pulls first), then every box on a goal that can be pulled to wait
/// (deepest first). The player stays where its last pull left it; it starts in each
/// part of the floor in turn, the start's first. Forward, each step is the cell a
/// box comes to, and for a box that waits, the step that takes it on. `None` when no
/// pass empties the goals within [`PARKING_POSITIONS`] positions, when the level has
/// more goals than [`MAX_ORDERED_GOALS`] or not as many boxes as goals, on ice
/// (where boxes slide), or when `stop` says stop.
pub fn parking_plan(level: &Level, region: &[bool], stop: &Stop) -> Option<Vec<ParkingStep>> {
    let goals: Vec<Cell> = level.goal_cells().filter(|&g| region[g]).collect();
    let boxes = level.box_cells().filter(|&b| region[b]).count();
    if goals.len() > MAX_ORDERED_GOALS || goals.len() != boxes || level.has_ice() {
        return None;
    }
    let mut on_board = vec![false; level.cell_count()];
    for &g in &goals {
        on_board[g] = true;
    }
    let mut pass = Parking {
        level,
        region,
        dead: FxHashSet::default(),
        positions: 0,
        reach: Region::adjacency(level),
        boxes: on_board,
        on_goals: goals,
        parked: Vec::new(),
        pulls: Vec::new(),
    };
    let open = |c: Cell| region[c] && !level.is_wall(c);
    let roots: Vec<Cell> = std::iter::once(level.player())
        .chain((0..level.cell_count()).filter(|&c| open(c)))
        .collect();
    let mut started = vec![false; level.cell_count()];
    let mut emptied = false;
    for root in roots {
        if started[root] || pass.boxes[root] || stop.should_stop() {
            continue;
        }
        pass.reach.fill(level, &pass.boxes, root);
        for (c, s) in started.iter_mut().enumerate() {
            *s |= pass.reach.contains(c);
        }
        if pass.extend(root, stop) {
            emptied = true;
            break;
        }
    }
    emptied.then(|| pass.forward())
}

/// The search of [`parking_plan`].
struct Parking<'a> {
    level: &'a Level,
    region: &'a [bool],
    /// The positions (boxes' cells and the player's region) no pass empties.
    dead: FxHashSet<(Vec<Cell>, Cell)>,
    /// The positions looked at.
    positions: usize,
    reach: Region,
    /// The boxes of the position: on goals, and waiting off them.
    boxes: Vec<bool>,
    on_goals: Vec<Cell>,
    parked: Vec<Cell>,
    /// The pulls so far, in the order of the pass.
    pulls: Vec<Pull>,
}

impl Parking<'_> {
    /// Goes on from the position with the player on `player`: whether the goals were
    /// emptied (the pulls then stay in `pulls`).
    fn extend(&mut self, player: Cell, stop: &Stop) -> bool {
        if self.on_goals.is_empty() && self.parked.is_empty() {
            return true;
        }
        let level = self.level;
        let name = self.reach.fill(level, &self.boxes, player);
        let mut cells: Vec<Cell> = self.on_goals.iter().chain(&self.parked).copied().collect();
        cells.sort_unstable();
        let key = (cells, name);
        if self.dead.contains(&key) || self.positions >= PARKING_POSITIONS || stop.should_stop() {
            return false;
        }
        self.positions += 1;
        let feed = Feed::new(level, self.region, &self.boxes);
        // The boxes that can leave first; the boxes to pull off the goals to wait
        // (a search of every box on a goal) only once none of those empties the goals.
        for waits in [false, true] {
            if waits {
                // The children's searches left the player's region of their own.
                self.reach.fill(level, &self.boxes, player);
            }
            for (pull, after) in self.children(&feed, waits, stop) {
                self.apply(pull, true);
                self.pulls.push(pull);
                if self.extend(after, stop) {
                    return true;
                }
                self.pulls.pop();
                self.apply(pull, false);
            }
        }
        // A search cut short proves nothing about the position.
        if self.positions < PARKING_POSITIONS && !stop.should_stop() {
            self.dead.insert(key);
        }
        false
    }

    /// The pulls from the position (the player's region in `reach`, where boxes can
    /// come from in `feed`), each with a cell of the player's region after it: without
    /// `waits`, the boxes that can leave (off the goals, or from where they wait),
    /// fewest pulls first; with it, the boxes on goals that can be pulled off them to
    /// wait, deepest first.
    fn children(&self, feed: &Feed, waits: bool, stop: &Stop) -> Vec<(Pull, Cell)> {
        let (level, region) = (self.level, self.region);
        let board = (&self.boxes[..], &self.reach);
        let fed = |(b, p): State| !level.is_goal(b) && feed.feeds(level, (b, p));
        let mut children: Vec<(u32, Pull, Cell)> = Vec::new();
        if !waits {
            let on_goal = |(b, _): State| level.is_goal(b);
            let tries = (self.on_goals.iter()).map(|&g| (g, Pull::Out(g), true));
            let tries = tries.chain(self.parked.iter().map(|&w| (w, Pull::Unpark(w), false)));
            for (from, pull, leaves_goals) in tries {
                if stop.should_stop() {
                    return Vec::new();
                }
                // Off the goals through goals only, as the packing order's boxes
                // leave; from a wait through any cell no box can come to.
                let through = |s: State| if leaves_goals { on_goal(s) } else { !fed(s) };
                let first = pulls_to(level, region, board, from, (through, fed), true, stop);
                if let Some(&((_, p), pulls)) = first.first() {
                    children.push((pulls, pull, p));
                }
            }
            children.sort_by_key(|&(pulls, _, _)| pulls);
        } else {
            let waiting = |(b, p): State| !level.is_goal(b) && !fed((b, p));
            for &g in &self.on_goals {
                if stop.should_stop() {
                    return Vec::new();
                }
                let ends = pulls_to(level, region, board, g, (|s| !fed(s), waiting), false, stop);
                // The fewest pulls to each cell; the cell of the most. (A state's own
                // fewest pulls would count the box's way back and forth in a dead end.)
                let mut nearest: FxHashMap<Cell, (u32, Cell)> = FxHashMap::default();
                for ((b, p), pulls) in ends {
                    let e = nearest.entry(b).or_insert((pulls, p));
                    *e = (*e).min((pulls, p));
                }
                let deepest =
                    (nearest.into_iter()).max_by_key(|&(b, (pulls, _))| (pulls, Reverse(b)));
                if let Some((cell, (pulls, p))) = deepest {
                    children.push((pulls, Pull::Park { goal: g, cell }, p));
                }
            }
            children.sort_by_key(|&(pulls, _, _)| Reverse(pulls));
        }
        (children.into_iter())
            .map(|(_, pull, after)| (pull, after))
            .collect()
    }

    /// Makes the pull (`forth`) or takes it back.
    fn apply(&mut self, pull: Pull, forth: bool) {
        match pull {
            Pull::Out(goal) => {
                self.boxes[goal] = !forth;
                toggle(&mut self.on_goals, goal, !forth);
            }
            Pull::Park { goal, cell } => {
                (self.boxes[goal], self.boxes[cell]) = (!forth, forth);
                toggle(&mut self.on_goals, goal, !forth);
                toggle(&mut self.parked, cell, forth);
            }
            Pull::Unpark(cell) => {
                self.boxes[cell] = !forth;
                toggle(&mut self.parked, cell, !forth);
            }
        }
    }

    /// The pass read forward: the last pull is the first step.
    fn forward(&self) -> Vec<ParkingStep> {
        let n = self.pulls.len();
        (0..n)
            .rev()
            .map(|r| match self.pulls[r] {
                Pull::Out(goal) | Pull::Park { goal, .. } => ParkingStep {
                    to: goal,
                    until: None,
                },
                Pull::Unpark(cell) => {
                    // The wait ends at the park onto this cell last before it in the
                    // pass, the step after it forward.
                    let park = (0..r).rev().find(
                        |&q| matches!(self.pulls[q], Pull::Park { cell: c, .. } if c == cell),
                    );
                    ParkingStep {
                        to: cell,
                        until: park.map(|q| n - 1 - q),
                    }
                }
            })
            .collect()
    }
}

/// Puts `cell` in `list`, or takes it out.
fn toggle(list: &mut Vec<Cell>, cell: Cell, present: bool) {
    if present {
        list.push(cell);
    } else {
        list.retain(|&c| c != cell);
    }
}

/// The most states one search of [`pulls_to`] stores: each is a pair of cells, so on a
/// board of tens of thousands of cells a search could otherwise hold millions.
const MAX_PULL_STATES: usize = 1 << 20;

/// The states (box cell, player cell) picked by `wanted` that the box on `from`
/// reaches by pulls, the other boxes of `boxes` in place and the player starting in
/// `reach`, each with its fewest pulls (walks cost nothing), fewest first: all of
/// them, or with `first` only one of the fewest pulls (the one of the smallest
/// cells). The box is pulled on only from the states
/// `through` lets through. Cut short at [`MAX_PULL_STATES`] states or when `stop` says
/// stop.
fn pulls_to(
    level: &Level,
    region: &[bool],
    (boxes, reach): (&[bool], &Region),
    from: Cell,
    (through, wanted): (impl Fn(State) -> bool, impl Fn(State) -> bool),
    first: bool,
    stop: &Stop,
) -> Vec<(State, u32)> {
    let free = |c: Cell, b: Cell| region[c] && !level.is_wall(c) && c != b && !boxes[c];
    // A 0-1 search: walks go to the front of the queue, pulls to the back, so the
    // states come off it fewest pulls first.
    let mut pulls: FxHashMap<State, u32> = FxHashMap::default();
    let mut queue: VecDeque<(State, u32)> = VecDeque::new();
    for d in Direction::ALL {
        let p = level.neighbor(from, d);
        if free(p, from) && reach.contains(p) {
            pulls.insert((from, p), 0);
            queue.push_back(((from, p), 0));
        }
    }
    let mut found = Vec::new();
    let mut taken = 0u32;
    while let Some(((b, p), cost)) = queue.pop_front() {
        taken = taken.wrapping_add(1);
        if (taken.is_multiple_of(1 << 12) && stop.should_stop()) || pulls.len() > MAX_PULL_STATES {
            break;
        }
        if pulls[&(b, p)] < cost {
            continue; // reached with fewer pulls since
        }
        if first && found.first().is_some_and(|&(_, least)| cost > least) {
            break; // every state of the fewest pulls is in
        }
        if wanted((b, p)) {
            found.push(((b, p), cost));
        }
        if !through((b, p)) {
            continue;
        }
        for d in Direction::ALL {
            // A walk, then a pull: the player beside the box steps away, the box follows.
            let q = level.neighbor(p, d);
            if free(q, b) && pulls.get(&(b, q)).is_none_or(|&k| k > cost) {
                pulls.insert((b, q), cost);
                queue.push_front(((b, q), cost));
            }
            if level.neighbor(b, d) == p {
                let beyond = level.neighbor(p, d);
                if free(beyond, b) && pulls.get(&(p, beyond)).is_none_or(|&k| k > cost + 1) {
                    pulls.insert((p, beyond), cost + 1);
                    queue.push_back(((p, beyond), cost + 1));
                }
            }
        }
    }
    if first {
        // Of the states of the fewest pulls, the one of the smallest cells.
        found = found
            .into_iter()
            .min_by_key(|&(s, c)| (c, s))
            .into_iter()
            .collect();
    }
    found
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
pub(crate) mod tests {
    use super::*;
    use crate::game::player_region;
    use crate::level::parse_xsb;

    /// The level of `text` and the player's region.
    fn board(text: &str) -> (Level, Vec<bool>) {
        let level = parse_xsb("t", text).unwrap().remove(0);
        let region = player_region(&level);
        (level, region)
    }

    /// Three goals in a dead-end corridor, and the player's region.
    fn corridor() -> (Level, Vec<bool>) {
        board("#######\n#...  #\n### $ #\n#  $$@#\n#     #\n#######\n")
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
    fn goals_shut_off_from_the_start_come_out_toward_the_far_side() {
        // A corridor of two goals joins the player's row to the room of the boxes. With
        // a box on both goals, no pull out of them can start on the player's side (the
        // box would go into the wall), only from the room: the goal by the room is
        // emptied first, so the deeper one, by the player, is filled first.
        let text = "#######\n#     #\n#  $$ #\n###.###\n###.###\n#@    #\n#######\n";
        let (level, region) = board(text);
        let plan = packing_plan(&level, &region, &Stop::never());
        let rows: Vec<usize> = plan.iter().map(|s| level.row_col(s.goal).0).collect();
        assert_eq!(rows, [4, 3]);
        assert!(plan.iter().all(|s| !s.entries.is_empty()));
    }

    #[test]
    fn a_goal_requires_the_goals_it_shuts_off() {
        // The corridor: each goal shuts off the ones behind it.
        let (level, region) = corridor();
        let plan = packing_plan_with_requires(&level, &region, &Stop::never());
        let goals: Vec<Cell> = plan.iter().map(|s| s.goal).collect();
        assert!(plan[0].requires.is_empty());
        assert_eq!(plan[1].requires, [goals[0]]);
        let mut third = plan[2].requires.clone();
        third.sort_unstable();
        assert_eq!(third, [goals[0], goals[1]]);
        // Not asked for, none are listed; the order is the same.
        let plain = packing_plan(&level, &region, &Stop::never());
        assert!(plain.iter().all(|s| s.requires.is_empty()));
        assert!(plain.iter().map(|s| s.goal).eq(goals.iter().copied()));
        // Goals apart in an open room shut nothing off: any order will do.
        let text = "#########\n#.  @  .#\n#  $ $  #\n#       #\n#########\n";
        let (level, region) = board(text);
        let plan = packing_plan_with_requires(&level, &region, &Stop::never());
        assert_eq!(plan.len(), 2);
        assert!(plan.iter().all(|s| s.requires.is_empty()));
    }

    #[test]
    fn a_pull_out_of_the_goals_starts_where_the_player_can_come_from() {
        // Either box leaves the goals in one pull, the left one into the pocket on
        // the left. With a box on both goals the player (on the right) cannot come
        // there, so the right goal is emptied first and the left one filled first.
        let text = "#########\n#  ..  @#\n####$ $##\n#########\n";
        let (level, region) = board(text);
        let order = packing_order(&level, &region, &Stop::never());
        let col = |c: Cell| level.row_col(c).1;
        assert_eq!(order.iter().map(|&g| col(g)).collect::<Vec<_>>(), [3, 4]);
    }

    #[test]
    fn a_goal_is_not_entered_from_a_cell_no_box_can_be_pushed_to() {
        // The goal's box leaves in one pull either way: left, into a cell no box can
        // be pushed to (pushing it there would need the player in the wall), or down,
        // towards the box's start. Only the way down is an entrance.
        let text = "#######\n#@    #\n#  . ##\n# # ###\n# #$###\n#   ###\n#######\n";
        let (level, region) = board(text);
        let plan = packing_plan(&level, &region, &Stop::never());
        let at = |r: usize, c: usize| (r + 1) * level.width() + c + 1;
        let entrances: Vec<Cell> = plan[0].entries.iter().map(|e| e.entrance).collect();
        assert_eq!(entrances, [at(3, 3)]);
        assert_eq!(plan[0].entries[0].pushes, [(at(3, 3), Direction::Up)]);
    }

    /// The reference [`Feed`] must equal: a search of pulls, the player walking, from
    /// the state to a cell some box starts on.
    fn pulled_to_a_start(level: &Level, region: &[bool], boxes: &[bool], from: State) -> bool {
        let free = |c: Cell, b: Cell| region[c] && !level.is_wall(c) && c != b && !boxes[c];
        let mut seen = rustc_hash::FxHashSet::default();
        seen.insert(from);
        let mut stack = vec![from];
        while let Some((b, p)) = stack.pop() {
            if level.has_initial_box(b) {
                return true;
            }
            for d in Direction::ALL {
                // A walk to q, or a pull: the player beside the box steps on to q.
                let q = level.neighbor(p, d);
                if free(q, b) && seen.insert((b, q)) {
                    stack.push((b, q));
                }
                if level.neighbor(b, d) == p && free(q, b) && seen.insert((p, q)) {
                    stack.push((p, q));
                }
            }
        }
        false
    }

    #[test]
    fn a_box_can_come_where_pulls_lead_to_its_start() {
        // Every state of a box beside the player, with a box on every other goal and
        // on no goal, against the search of pulls.
        let text = include_str!("../../levels/microban.xsb");
        for level in parse_xsb("microban", text).unwrap().iter().take(40) {
            let region = player_region(level);
            let none = vec![false; level.cell_count()];
            let goals: Vec<bool> = (0..level.cell_count()).map(|c| level.is_goal(c)).collect();
            for boxes in [&none, &goals] {
                let feed = Feed::new(level, &region, boxes);
                let open = |c: Cell| region[c] && !level.is_wall(c) && !boxes[c];
                for b in (0..level.cell_count()).filter(|&b| open(b)) {
                    for d in Direction::ALL {
                        let p = level.neighbor(b, d);
                        if open(p) {
                            let expected = pulled_to_a_start(level, &region, boxes, (b, p));
                            assert_eq!(feed.feeds(level, (b, p)), expected, "{}", level.name());
                        }
                    }
                }
            }
        }
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

    /// A room of goals with one way in (row 3), beside a dead-end corridor that opens
    /// only onto goals (r5c3 above it, r7c1 beside it): once the goals round it are
    /// filled, no box can come to the goals at its mouth, and none can go down it.
    pub(crate) const ROOM_BESIDE_A_DEAD_END: &str = "\
###########
#....######
#...#     #
#...   $  #
#  .# $ $ #
#...#  $  #
#.# # $ $ #
#.  #  $  #
##  # $ $ #
 #  #$ $  #
 #  # $ $ #
 #  #  $  #
 #  # $ $@#
 #  #     #
 ##########
";

    #[test]
    fn boxes_bound_for_the_mouth_of_a_dead_end_wait_in_it() {
        let (level, region) = board(ROOM_BESIDE_A_DEAD_END);
        let plan = parking_plan(&level, &region, &Stop::never()).expect("a plan");
        // Every goal is filled once, by a box that stays.
        let goals: Vec<Cell> = level.goal_cells().collect();
        for &g in &goals {
            let fills: Vec<&ParkingStep> = plan.iter().filter(|s| s.to == g).collect();
            assert_eq!(fills.len(), 1);
            assert_eq!(fills[0].until, None);
        }
        // The other steps are waits, off the goals, in the corridor (rows 6 to 13,
        // columns 2 and 3), each taken on by a later step onto a goal.
        let waits: Vec<(usize, &ParkingStep)> = plan
            .iter()
            .enumerate()
            .filter(|(_, s)| !level.is_goal(s.to))
            .collect();
        assert_eq!(plan.len(), goals.len() + waits.len());
        assert!(!waits.is_empty());
        for (i, wait) in waits {
            let (row, col) = level.row_col(wait.to);
            assert!(
                (6..=13).contains(&row) && (2..=3).contains(&col),
                "{:?}",
                (row, col)
            );
            let until = wait.until.expect("a box that waits is taken on");
            assert!(until > i);
            assert!(level.is_goal(plan[until].to));
        }
    }

    #[test]
    fn where_every_box_can_leave_none_waits() {
        let (level, region) = corridor();
        let plan = parking_plan(&level, &region, &Stop::never()).expect("a plan");
        let order: Vec<Cell> = plan.iter().map(|s| s.to).collect();
        assert!(plan.iter().all(|s| s.until.is_none()));
        assert_eq!(order, packing_order(&level, &region, &Stop::never()));
    }
}
