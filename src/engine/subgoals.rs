//! The goal-by-goal planner: the SAT route to a plan. The goals are filled in the
//! packing order ([`packing_order`]); each subgoal, "the goals of the order up to the
//! next one all hold boxes", is a question to the unrolled `pushes` formula from the
//! position the last subgoal left ([`fewest_pushes`]), asked for the fewest pushes. A
//! subplan that ends in a deadlock is refused, and the question asked again without
//! that end. Where the deadlock is a knot (a few boxes jammed together that cannot all
//! reach goals, [`Knots`]) or a corral no pushes of its fence open ([`Corrals`]), both
//! proved by the finder's small searches, every later question is asked not to end with
//! boxes on the knot's or the fence's cells: the same jam would come back in many end
//! positions. A subgoal that cannot be reached within [`MAX_SUBGOAL_PUSHES`] sends the
//! planner back to the subgoal before, which refuses the position it had led to and
//! asks again (backtracking). Ends, and positions the planner keeps failing from, are
//! also tested by an exhaustive push search with a budget ([`dead_core`]): a dead end
//! it proves is shrunk to the boxes it needs, which every later question refuses, and
//! a position proved dead is left at once. Every push of its plans comes from a SAT
//! model; the tests only refuse.
//!
//! It proves nothing about the plan's length, and running out of subplans proves
//! nothing either: the order is a guide and the subgoals are capped.

use std::time::{Duration, Instant};

use super::astar::{AstarLimits, optimal_pushes};
use super::finder::{Corrals, Knots};
use super::push_search::{self, Push, SearchAnswer};
use super::target::{Reached, fewest_pushes};
use super::tuning::Questions;
use super::{About, Engine, Incumbent, Outcome, SatUse, SolveError, Stop, StopReason, Task};
use crate::analysis::{Assignment, packing_order};
use crate::encode::pushes::Target;
use crate::encode::{QUESTION_BUDGET, folded_step_size, pushes_step_size};
use crate::game::{Metric, Region};
use crate::level::{Cell, Level};

/// The most pushes one subgoal may take.
pub const MAX_SUBGOAL_PUSHES: usize = 48;

/// The goals tried as the next one from a position, in the packing order.
const GOALS_TRIED: usize = 2;

/// Positions the dead-end test of a subgoal's end may store.
const DEAD_END_POSITIONS: usize = 1_000;

/// The most positions the dead-end test of a position the planner keeps failing from
/// may store (its time is the bound that matters; this one bounds its memory).
const MOST_DEAD_END_POSITIONS: usize = 1 << 20;

/// The positions the shrinking of a dead end to its core may store, in multiples of
/// those its proof stored.
const SHRINK_ROUNDS: usize = 4;

/// Goal by goal with the SAT solver: a verified plan, no optimality proof, no ice.
pub struct Subgoals;

static ABOUT: About = About {
    name: "subgoals",
    summary: "goal by goal: the SAT solver fills the next goal of the packing order in the \
              fewest pushes, and by turns in the fewest box lines, backtracking where it \
              cannot (a plan, no optimality proof, no ice)",
    metrics: &[Metric::Pushes],
    optimal: false,
    sat: SatUse::InProcess,
    encodings: false,
    ice: false,
    cores: 1,
    auto: false,
    fewest_moves_among_optimal: false,
    traces: false,
};

impl Engine for Subgoals {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        // A board where one step of the questions' formula does not fit can never be
        // planned: say so before the analysis of the goals.
        let reach = super::target::question_reach(task);
        // Under `both` the planner by pushes can still plan where a step by lines does
        // not fit (the other's questions are then too big, and it gives up).
        let step = match task.tuning.questions {
            Questions::Folded => folded_step_size(task.level, task.analysis),
            _ => pushes_step_size(task.level, task.analysis, reach),
        };
        if step > QUESTION_BUDGET {
            return Err(SolveError::Unsupported(format!(
                "the pushes formula is too big for this level: one step of a subgoal's \
                 question would hold about {step} variables and clauses, more than the \
                 {QUESTION_BUDGET} a question may have; use --engine finder"
            )));
        }
        let (mut answer, counts) = plan_by_subgoals(task, stop);
        // Its subplans know nothing of the user's bound: a longer plan is no answer.
        if let SearchAnswer::Plan(pushes) = &answer
            && task.beyond_bound(pushes.len())
        {
            answer = SearchAnswer::Stopped(StopReason::GaveUp);
        }
        let mut outcome = push_search::outcome(&ABOUT, task, answer)?;
        outcome.solver = Some(task.solver.name().to_string());
        if let super::Verdict::Solved { plan, .. } = &outcome.verdict {
            board.offer(task.level, plan.clone(), ABOUT.name);
        }
        outcome.stats.subgoals = Some(counts.subgoals);
        outcome.stats.backtracks = Some(counts.backtracks);
        outcome.stats.dead_ends = Some(counts.dead_ends);
        Ok(outcome)
    }
}

/// What the goal-by-goal planner counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubgoalCounts {
    /// Subgoals the SAT solver reached.
    pub subgoals: u64,
    /// Times a subgoal could not be reached and the planner went back one.
    pub backtracks: u64,
    /// Positions of the chain (subgoals' ends, or positions the planner kept failing
    /// from) that a search with a budget proved dead.
    pub dead_ends: u64,
}

impl SubgoalCounts {
    /// Adds what another planner counted.
    fn add(&mut self, other: SubgoalCounts) {
        self.subgoals += other.subgoals;
        self.backtracks += other.backtracks;
        self.dead_ends += other.dead_ends;
    }
}

/// One position of the chain: where a subgoal left the boxes and the player, the goals
/// that must stay filled from here on, the ends of the next subgoal refused from here,
/// the goals tried next (in order) and the pushes to the next position.
struct Link {
    boxes: Vec<bool>,
    player: Cell,
    kept: Vec<Cell>,
    refused: Vec<Vec<Cell>>,
    next_goals: Vec<Cell>,
    pushes: Vec<Push>,
    /// The planner's time at this position and below it so far.
    spent: Duration,
    /// The part of it that found nothing: questions without a subplan, ends refused,
    /// positions below left as dead ends, dead-end tests that proved nothing.
    failing: Duration,
    /// The failing time at which the position is next tested for a dead end.
    next_test: Duration,
}

impl Link {
    /// A link at the position of `boxes` and `player` that keeps the goals of `kept`
    /// filled and tries to fill the others, at most [`GOALS_TRIED`] of them, in the
    /// packing `order`.
    fn new(boxes: Vec<bool>, player: Cell, mut kept: Vec<Cell>, order: &[Cell]) -> Link {
        // The goals of the order filled before the first empty one are kept too.
        kept.extend(order.iter().take_while(|&&g| boxes[g]));
        kept.sort_unstable();
        kept.dedup();
        let next_goals = (order.iter().copied())
            .filter(|&g| !boxes[g] && kept.binary_search(&g).is_err())
            .take(GOALS_TRIED)
            .collect();
        Link {
            boxes,
            player,
            kept,
            refused: Vec::new(),
            next_goals,
            pushes: Vec::new(),
            spent: Duration::ZERO,
            failing: Duration::ZERO,
            next_test: Duration::ZERO,
        }
    }

    fn cells(&self) -> Vec<Cell> {
        (0..self.boxes.len()).filter(|&c| self.boxes[c]).collect()
    }

    /// Counts `cost`, time at this position that found nothing. A position the
    /// planner keeps failing from may already be a dead end that the cheap tests at
    /// the subgoals' ends missed: with `dead_ends` (the counts), each time its failing
    /// time has doubled since the last test, it is tested by a search given half that
    /// time, and a position proved dead tries no more goals, so the planner leaves it.
    fn failed(
        &mut self,
        cost: Duration,
        task: &Task,
        dead_ends: Option<&mut SubgoalCounts>,
        stop: &Stop,
    ) -> Option<Vec<Cell>> {
        self.failing += cost;
        let counts = dead_ends?;
        if self.failing < self.next_test {
            return None;
        }
        let tested = Instant::now();
        let until = stop.by(tested + self.failing / 2);
        let position = (&self.boxes[..], self.player);
        let core = dead_core(task, position, MOST_DEAD_END_POSITIONS, &until);
        self.spent += tested.elapsed();
        if core.is_some() {
            counts.dead_ends += 1;
            self.next_goals.clear();
        } else if !stop.should_stop() {
            // A test cut short by the caller's stop is made again at the next failure.
            self.failing += tested.elapsed();
            self.next_test = self.failing * 2;
        }
        // A core of every box is only this position, which the planner leaves anyway.
        let boxes = self.boxes.iter().filter(|&&b| b).count();
        core.filter(|c| c.len() < boxes)
    }
}

/// Plans `task`'s level goal by goal (see the module documentation), checking `stop`.
pub fn plan_by_subgoals(task: &Task, stop: &Stop) -> (SearchAnswer, SubgoalCounts) {
    // Under `--questions both` two planners take turns on the core, one asking for the
    // fewest pushes, one for the fewest box lines: they end their subgoals in other
    // positions, and each plans levels the other does not.
    let forms: &[bool] = match task.tuning.questions {
        Questions::Both => &[false, true],
        Questions::Folded => &[true],
        Questions::Layers | Questions::Path => &[false],
    };
    let mut planners = Vec::with_capacity(forms.len());
    // What the planners that gave up counted.
    let mut done = SubgoalCounts::default();
    let answer = 'planning: {
        let Some(first) = GoalByGoal::new(task, stop, forms[0]) else {
            break 'planning SearchAnswer::Stopped(StopReason::Time);
        };
        let others: Vec<GoalByGoal> = (forms[1..].iter())
            .map(|&lines| first.twin(task, stop, lines))
            .collect();
        planners.push(first);
        planners.extend(others);
        let mut turn = FIRST_TURN;
        while !planners.is_empty() {
            let mut p = 0;
            while p < planners.len() {
                let until = match planners.len() {
                    1 => stop.clone(),
                    _ => stop.by(Instant::now() + turn),
                };
                match planners[p].run(task, &until) {
                    // Only the end of a turn passes to the next planner: the caller's
                    // stop, or a question stopped by a failing solver, ends the run.
                    SearchAnswer::Stopped(StopReason::Time)
                        if stop.should_stop() || planners.len() == 1 || !until.should_stop() =>
                    {
                        break 'planning SearchAnswer::Stopped(StopReason::Time);
                    }
                    SearchAnswer::Stopped(StopReason::Time) => {
                        share_jams(&mut planners, p);
                        p += 1;
                    }
                    SearchAnswer::Stopped(_) => done.add(planners.remove(p).counts),
                    answer => break 'planning answer,
                }
            }
            turn = turn.saturating_mul(2);
        }
        SearchAnswer::Stopped(StopReason::GaveUp)
    };
    for planner in &planners {
        done.add(planner.counts);
    }
    (answer, done)
}

/// Gives the other planners the jams and dead ends planner `p` learned: the same
/// boxes are dead in either planner's questions.
fn share_jams(planners: &mut [GoalByGoal], p: usize) {
    let learned = planners[p].jams.clone();
    for (q, other) in planners.iter_mut().enumerate() {
        if q != p {
            for jam in &learned {
                if !other.jams.contains(jam) {
                    other.jams.push(jam.clone());
                }
            }
        }
    }
}

/// The first turn of each planner when two take turns; each round doubles it, so that
/// a question cut short by its turn's end (and asked again from its start) is seldom
/// a long one.
const FIRST_TURN: Duration = Duration::from_millis(500);

/// The goal-by-goal planner, resumable: [`GoalByGoal::run`] goes on from the chain the
/// last call left, so the planner can share a core with another one. A question cut
/// short by the stop is asked again, from its start, by the next call.
pub struct GoalByGoal {
    /// Whether the questions ask for the fewest box lines (`pushes-folded`) rather
    /// than the fewest pushes.
    lines: bool,
    order: Vec<Cell>,
    assignment: Assignment,
    /// The tests of the subgoals' ends for jams.
    jam_tests: JamTests,
    /// The cells of the knots and dead corrals' fences met so far: no question may end
    /// with boxes on all the cells of one.
    jams: Vec<Vec<Cell>>,
    /// Whether subgoals' ends, and positions the planner keeps coming back to, are
    /// tested for dead ends by a bounded search.
    dead_ends: bool,
    chain: Vec<Link>,
    /// What the planner counted so far.
    pub counts: SubgoalCounts,
}

impl GoalByGoal {
    /// The planner at `task`'s start position, its questions asking for the fewest box
    /// lines if `lines`, else the fewest pushes; `None` when `stop` says stop before
    /// its packing order and the goals' distances are ready.
    pub fn new(task: &Task, stop: &Stop, lines: bool) -> Option<GoalByGoal> {
        let level = task.level;
        let order = packing_order(level, &task.analysis.region, stop);
        let assignment = Assignment::until(level, &task.analysis.region, stop)?;
        if stop.should_stop() {
            return None; // the packing order may be cut short
        }
        Some(GoalByGoal::starting(task, stop, lines, (order, assignment)))
    }

    /// A planner at the same start as this new one, asking for the fewest lines if
    /// `lines`: it shares the packing order and the goals' distances, worked out once.
    fn twin(&self, task: &Task, stop: &Stop, lines: bool) -> GoalByGoal {
        let ready = (self.order.clone(), self.assignment.clone());
        GoalByGoal::starting(task, stop, lines, ready)
    }

    /// The planner at `task`'s start with its packing order and assignment ready.
    fn starting(
        task: &Task,
        stop: &Stop,
        lines: bool,
        (order, assignment): (Vec<Cell>, Assignment),
    ) -> GoalByGoal {
        let level = task.level;
        let start = level.initial_boxes().to_vec();
        let chain = vec![Link::new(start, level.player(), Vec::new(), &order)];
        let techniques = &task.tuning.finder;
        let knots = (techniques.knots).then(|| Knots::new(level, stop.clone()));
        let corrals = (techniques.strict_corrals).then(|| Corrals::new(level, stop.clone()));
        let floor = (0..level.cell_count()).filter(|&c| task.analysis.region[c]).collect();
        GoalByGoal {
            lines,
            assignment,
            order,
            jam_tests: JamTests {
                knots,
                corrals,
                floor,
                reach: Region::new(level),
            },
            jams: Vec::new(),
            dead_ends: techniques.dead_ends,
            chain,
            counts: SubgoalCounts::default(),
        }
    }

    /// Plans on until a plan, until it runs out of subplans (`Stopped(GaveUp)`), or
    /// until `stop` says stop (`Stopped(Time)`; a later call goes on).
    pub fn run(&mut self, task: &Task, stop: &Stop) -> SearchAnswer {
        let level = task.level;
        let (chain, counts) = (&mut self.chain, &mut self.counts);
        // Whether the position at `depth` of the chain is tested for a dead end as the
        // planner fails from it; never the start: on a solvable level that only spends
        // time.
        let dead_ends = self.dead_ends;
        let tested_at = |depth: usize| dead_ends && depth > 1;
        loop {
            let tests = tested_at(chain.len());
            let Some(link) = chain.last_mut() else {
                return SearchAnswer::Stopped(StopReason::GaveUp);
            };
            if level.goal_cells().all(|g| link.boxes[g]) {
                let pushes = chain
                    .iter()
                    .flat_map(|l| l.pushes.iter().copied())
                    .collect();
                return SearchAnswer::Plan(pushes);
            }
            let Some(&goal) = link.next_goals.first() else {
                // No goal can be filled from here: refuse this position one link back.
                let dead_end = chain.pop().expect("a link");
                let tests = tested_at(chain.len());
                let Some(before) = chain.last_mut() else {
                    return SearchAnswer::Stopped(StopReason::GaveUp);
                };
                counts.backtracks += 1;
                before.refused.push(dead_end.cells());
                before.spent += dead_end.spent;
                let failing = dead_end.spent;
                self.jams.extend(before.failed(failing, task, tests.then_some(counts), stop));
                continue;
            };
            let start = level.with_position(link.player, &link.boxes);
            let mut wanted = link.kept.clone();
            wanted.push(goal);
            let avoid: Vec<Vec<Cell>> = (link.refused.iter())
                .chain(&self.jams)
                .cloned()
                .collect();
            let target = Target {
                boxes: &wanted,
                player_cells: &[],
                avoid: &avoid,
            };
            let bounds = (1, MAX_SUBGOAL_PUSHES, 1);
            let asked = Instant::now();
            let reached = fewest_pushes(task, &start, &target, bounds, self.lines, stop);
            link.spent += asked.elapsed();
            match reached {
                Reached::Stopped => return SearchAnswer::Stopped(StopReason::Time),
                Reached::Pushes(pushes) => {
                    let (boxes, player) = after(level, link, &pushes);
                    let cells: Vec<Cell> = (0..boxes.len()).filter(|&c| boxes[c]).collect();
                    let end = (&boxes[..], &cells[..], player);
                    let tested = Instant::now();
                    if let Some(jam) = self.jam_tests.jam_at_end(task, &pushes, end) {
                        self.jams.push(jam);
                    } else if is_dead(task, &mut self.assignment, &cells) {
                        link.refused.push(cells);
                    } else if let Some(core) = (self.dead_ends)
                        .then(|| {
                            // The more the planner failed from here, the longer the
                            // test (about a quarter of that time).
                            let positions = (link.failing.as_micros() as usize / 4)
                                .clamp(DEAD_END_POSITIONS, MOST_DEAD_END_POSITIONS);
                            dead_core(task, (&boxes, player), positions, stop)
                        })
                        .flatten()
                    {
                        counts.dead_ends += 1;
                        // A core of every box is only this end.
                        match core.len() < cells.len() {
                            true => self.jams.push(core),
                            false => link.refused.push(cells),
                        }
                    } else {
                        counts.subgoals += 1;
                        link.pushes = pushes;
                        let next = Link::new(boxes, player, wanted, &self.order);
                        chain.push(next);
                        continue;
                    }
                    link.spent += tested.elapsed();
                    let failing = asked.elapsed();
                    self.jams.extend(link.failed(failing, task, tests.then_some(counts), stop));
                }
                // This goal cannot be filled next from here within the cap, or within a
                // formula that fits the budget: the next one.
                Reached::None | Reached::TooBig => {
                    link.next_goals.remove(0);
                    let failing = asked.elapsed();
                    self.jams.extend(link.failed(failing, task, tests.then_some(counts), stop));
                }
            }
        }
    }
}

/// The deadlock tests of the subgoals' ends: knots (`None` under `--finder-off knots`)
/// and corrals by the strict test (`None` under `--finder-off strict-corrals`), the
/// floor where corrals are looked for and the player's region of the end.
struct JamTests {
    knots: Option<Knots>,
    corrals: Option<Corrals>,
    floor: Vec<Cell>,
    reach: Region,
}

impl JamTests {
    /// The cells of a jam at the end of a subplan of `pushes`, which leads to the
    /// position with boxes on `boxes` (and on `cells`, in cell order) and the player on
    /// `player`: a knot a moved box makes there, else a corral no pushes of its fence
    /// open.
    fn jam_at_end(
        &mut self,
        task: &Task,
        pushes: &[Push],
        (boxes, cells, player): (&[bool], &[Cell], Cell),
    ) -> Option<Vec<Cell>> {
        let (level, analysis) = (task.level, task.analysis);
        let knot = (self.knots.as_mut())
            .and_then(|knots| knot_at_end(task, knots, pushes, (boxes, cells), player));
        knot.or_else(|| {
            let corrals = self.corrals.as_mut()?;
            self.reach.fill(level, boxes, player);
            corrals.dead_fence_strict(level, analysis, boxes, &self.reach, &self.floor)
        })
    }
}

/// The position after `pushes` from `link`'s: the boxes and the player's cell.
fn after(level: &Level, link: &Link, pushes: &[Push]) -> (Vec<bool>, Cell) {
    let mut boxes = link.boxes.clone();
    let mut player = link.player;
    for &(from, dir) in pushes {
        boxes[from] = false;
        boxes[level.neighbor(from, dir)] = true;
        player = from;
    }
    (boxes, player)
}

/// The cells of a knot at the end of `pushes`, which lead to the position with boxes on
/// `boxes` (and on `cells`, in cell order) and the player on `player`: a knot learned
/// before, or one a box the pushes moved makes there.
fn knot_at_end(
    task: &Task,
    knots: &mut Knots,
    pushes: &[Push],
    (boxes, cells): (&[bool], &[Cell]),
    player: Cell,
) -> Option<Vec<Cell>> {
    let level = task.level;
    // Where each box the pushes moved ended.
    let mut moved: Vec<Cell> = Vec::new();
    for &(from, dir) in pushes {
        moved.retain(|&m| m != from);
        moved.push(level.neighbor(from, dir));
    }
    let cells: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
    moved
        .into_iter()
        .find_map(|m| knots.knot_in(level, task.analysis, (boxes, &cells), player, m))
}

/// The boxes of the position of `boxes` and `player` on `task`'s board that make it a
/// dead end, when an exhaustive push search (the static deadlock patterns pruning it)
/// that stores at most `positions` positions proves it one; `None` when a search cut
/// short by its size or by `stop` proves nothing. Boxes are then taken off one at a
/// time while the boxes left are still proved dead, each search given as many
/// positions as the first one stored, all of them together [`SHRINK_ROUNDS`] times
/// that: fewer boxes make an easier level, so the boxes left are a dead end wherever
/// they all stand with the player where it is.
fn dead_core(
    task: &Task,
    (boxes, player): (&[bool], Cell),
    positions: usize,
    stop: &Stop,
) -> Option<Vec<Cell>> {
    let (dead, stored) = dead_end_proof(task, (boxes, player), positions, stop);
    if !dead {
        return None;
    }
    let each = stored + DEAD_END_POSITIONS;
    let mut left = each.saturating_mul(SHRINK_ROUNDS);
    let mut core = boxes.to_vec();
    for c in (0..boxes.len()).filter(|&c| boxes[c]) {
        if left < each {
            break;
        }
        core[c] = false;
        let (dead, stored) = dead_end_proof(task, (&core, player), each, stop);
        left -= stored.min(left);
        core[c] = !dead;
    }
    Some((0..core.len()).filter(|&c| core[c]).collect())
}

/// Whether an exhaustive push search from the position of `boxes` and `player` ran out
/// of positions, proving it dead, before it stored `positions` or `stop` said stop (or
/// it found a plan); and the positions it stored.
fn dead_end_proof(
    task: &Task,
    (boxes, player): (&[bool], Cell),
    positions: usize,
    stop: &Stop,
) -> (bool, usize) {
    let level = task.level.with_position(player, boxes);
    let limits = AstarLimits {
        max_pushes: None,
        max_positions: positions,
    };
    let board = Incumbent::new(Metric::Pushes);
    let (answer, stored) = optimal_pushes(&level, task.analysis, &limits, stop, &board, None);
    (matches!(answer, SearchAnswer::Unsolvable(_)), stored)
}

/// Whether the boxes on `cells` are a deadlock the static analysis knows: a pattern, or
/// no assignment of the boxes to distinct goals.
fn is_dead(task: &Task, assignment: &mut Assignment, cells: &[Cell]) -> bool {
    let analysis = task.analysis;
    let mask = |c: Cell| cells.binary_search(&c).is_ok();
    let patterns = cells.iter().any(|&c| {
        let others = cells.iter().copied().filter(move |&o| o != c);
        analysis
            .deadlocks
            .dead_after(&analysis.pair_table, c, mask, others)
    });
    let movable: Vec<u16> = cells
        .iter()
        .filter(|&&c| analysis.region[c])
        .map(|&c| c as u16)
        .collect();
    patterns || assignment.cost(&movable).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::engine::push_search::on_task;
    use crate::game::plan_from_pushes;
    use crate::level::{Direction, parse_xsb};

    /// The cells at these rows and columns of the level's text (0-based).
    fn cells_at<const N: usize>(level: &Level, at: [(usize, usize); N]) -> [Cell; N] {
        at.map(|rc| (0..level.cell_count()).find(|&x| level.row_col(x) == rc).unwrap())
    }

    fn plan(text: &str) -> SearchAnswer {
        on_task(text, |task| plan_by_subgoals(task, &Stop::never()).0)
    }

    #[test]
    fn fills_the_goals_one_by_one_with_a_plan_the_rules_accept() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        let SearchAnswer::Plan(pushes) = plan(text) else {
            panic!("no plan");
        };
        let level = parse_xsb("t", text).unwrap().remove(0);
        assert!(
            plan_from_pushes(&level, &pushes)
                .unwrap()
                .verify(&level)
                .is_ok()
        );
        // Each subgoal is reached in its fewest pushes; here that is the optimum.
        assert_eq!(
            shortest_pushes(&level, 60, 1_000_000),
            SearchResult::Optimal(pushes.len())
        );
    }

    #[test]
    fn a_planner_by_box_lines_plans_with_fewer_lines_than_pushes() {
        // One box four cells from its goal: one line of four pushes.
        let text = "########\n#@$   .#\n########\n";
        on_task(text, |task| {
            let mut planner = GoalByGoal::new(task, &Stop::never(), true).unwrap();
            let SearchAnswer::Plan(pushes) = planner.run(task, &Stop::never()) else {
                panic!("no plan");
            };
            let plan = plan_from_pushes(task.level, &pushes).unwrap();
            assert!(plan.verify(task.level).is_ok());
            assert_eq!((plan.push_count(), plan.line_count()), (4, 1));
            assert_eq!(planner.counts.subgoals, 1);
        });
    }

    #[test]
    fn a_subgoal_end_with_boxes_jammed_off_the_goals_names_the_knot() {
        // Pushing the box on r3c5 down leaves it beside the box on r4c4, both against
        // the bottom wall: neither can move again, and r4c5 is no goal.
        let text = "#######\n#   @ #\n#   $ #\n#..$  #\n#######\n";
        on_task(text, |task| {
            let level = task.level;
            let [top, left, right, beside] = cells_at(level, [(2, 4), (3, 3), (3, 4), (2, 3)]);
            let mut knots = Knots::new(level, Stop::never());
            let jammed = |knots: &mut Knots, moved: Cell, dir, ends: [Cell; 2]| {
                let mut boxes = vec![false; level.cell_count()];
                boxes[ends[0]] = true;
                boxes[ends[1]] = true;
                let cells = [ends[0].min(ends[1]), ends[0].max(ends[1])];
                knot_at_end(task, knots, &[(moved, dir)], (&boxes, &cells), moved)
            };
            let knot = jammed(&mut knots, top, Direction::Down, [left, right]);
            assert_eq!(knot, Some(vec![left, right]));
            // Pushed left instead, onto r3c4 above the other box, it jams nothing.
            assert_eq!(jammed(&mut knots, top, Direction::Left, [beside, left]), None);
        });
    }

    #[test]
    fn a_dead_end_is_shrunk_to_the_boxes_it_needs() {
        // A box in the top right corner, off the goals, can never leave it; the other
        // box stands free and could reach a goal.
        let text = "#######\n#@    #\n# $ $ #\n#  .. #\n#######\n";
        on_task(text, |task| {
            let level = task.level;
            let [corner, free, player] = cells_at(level, [(1, 5), (2, 2), (1, 1)]);
            let mut boxes = vec![false; level.cell_count()];
            boxes[corner] = true;
            boxes[free] = true;
            let never = Stop::never();
            let core = dead_core(task, (&boxes, player), DEAD_END_POSITIONS, &never);
            assert_eq!(core, Some(vec![corner]));
            // The start is no dead end, and a search cut short proves nothing.
            let start = (level.initial_boxes(), level.player());
            assert_eq!(dead_core(task, start, DEAD_END_POSITIONS, &never), None);
            let past = Stop::new(Some(std::time::Instant::now()));
            assert_eq!(dead_core(task, (&boxes, player), DEAD_END_POSITIONS, &past), None);
        });
    }

    #[test]
    fn the_planners_share_their_jams_once() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        on_task(text, |task| {
            let never = Stop::never();
            let first = GoalByGoal::new(task, &never, false).unwrap();
            let second = first.twin(task, &never, true);
            let mut planners = vec![first, second];
            planners[0].jams.push(vec![8, 9]);
            planners[1].jams.push(vec![10]);
            share_jams(&mut planners, 0);
            share_jams(&mut planners, 0);
            assert_eq!(planners[1].jams, vec![vec![10], vec![8, 9]]);
            assert_eq!(planners[0].jams, vec![vec![8, 9]]);
        });
    }

    #[test]
    fn a_stopped_planner_goes_on_from_its_chain() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        let whole = plan(text);
        on_task(text, |task| {
            let mut planner = GoalByGoal::new(task, &Stop::never(), false).unwrap();
            let past = Stop::new(Some(std::time::Instant::now()));
            assert_eq!(
                planner.run(task, &past),
                SearchAnswer::Stopped(StopReason::Time)
            );
            assert_eq!(planner.counts, SubgoalCounts::default());
            assert_eq!(planner.run(task, &Stop::never()), whole);
            assert!(planner.counts.subgoals >= 2);
        });
    }
}
