//! The goal-by-goal planner: the SAT route to a plan. The goals are filled in the
//! packing order ([`packing_order`]); each subgoal, "the goals of the order up to the
//! next one all hold boxes", is a question to the unrolled `pushes` formula from the
//! position the last subgoal left ([`fewest_pushes`]), asked for the fewest pushes. A
//! subplan that ends in a deadlock is refused, and the question asked again without
//! that end; a subgoal that cannot be reached within [`MAX_SUBGOAL_PUSHES`] sends the
//! planner back to the subgoal before, which refuses the position it had led to and
//! asks again (backtracking). Every push of its plans comes from a SAT model.
//!
//! It proves nothing about the plan's length, and running out of subplans proves
//! nothing either: the order is a guide and the subgoals are capped.

use super::push_search::{self, Push, SearchAnswer};
use super::target::{Reached, fewest_pushes};
use super::{About, Engine, Incumbent, Outcome, SatUse, SolveError, Stop, StopReason, Task};
use crate::analysis::{Assignment, packing_order};
use crate::encode::pushes::Target;
use crate::encode::{QUESTION_BUDGET, pushes_step_size};
use crate::game::Metric;
use crate::level::{Cell, Level};

/// The most pushes one subgoal may take.
pub const MAX_SUBGOAL_PUSHES: usize = 48;

/// The goals tried as the next one from a position, in the packing order.
const GOALS_TRIED: usize = 2;

/// Goal by goal with the SAT solver: a verified plan, no optimality proof, no ice.
pub struct Subgoals;

static ABOUT: About = About {
    name: "subgoals",
    summary: "goal by goal: the SAT solver fills the next goal of the packing order in the \
              fewest pushes, backtracking where it cannot (a plan, no optimality proof, no ice)",
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
        let step = pushes_step_size(task.level, task.analysis, reach);
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
        }
    }

    fn cells(&self) -> Vec<Cell> {
        (0..self.boxes.len()).filter(|&c| self.boxes[c]).collect()
    }
}

/// Plans `task`'s level goal by goal (see the module documentation), checking `stop`.
pub fn plan_by_subgoals(task: &Task, stop: &Stop) -> (SearchAnswer, SubgoalCounts) {
    let Some(mut planner) = GoalByGoal::new(task, stop) else {
        return (
            SearchAnswer::Stopped(StopReason::Time),
            SubgoalCounts::default(),
        );
    };
    let answer = planner.run(task, stop);
    (answer, planner.counts)
}

/// The goal-by-goal planner, resumable: [`GoalByGoal::run`] goes on from the chain the
/// last call left, so the planner can share a core with another one. A question cut
/// short by the stop is asked again, from its start, by the next call.
pub struct GoalByGoal {
    order: Vec<Cell>,
    assignment: Assignment,
    chain: Vec<Link>,
    /// What the planner counted so far.
    pub counts: SubgoalCounts,
}

impl GoalByGoal {
    /// The planner at `task`'s start position; `None` when `stop` says stop before
    /// its packing order and the goals' distances are ready.
    pub fn new(task: &Task, stop: &Stop) -> Option<GoalByGoal> {
        let level = task.level;
        let order = packing_order(level, &task.analysis.region, stop);
        let assignment = Assignment::until(level, &task.analysis.region, stop)?;
        if stop.should_stop() {
            return None; // the packing order may be cut short
        }
        let start = level.initial_boxes().to_vec();
        let chain = vec![Link::new(start, level.player(), Vec::new(), &order)];
        Some(GoalByGoal {
            assignment,
            order,
            chain,
            counts: SubgoalCounts::default(),
        })
    }

    /// Plans on until a plan, until it runs out of subplans (`Stopped(GaveUp)`), or
    /// until `stop` says stop (`Stopped(Time)`; a later call goes on).
    pub fn run(&mut self, task: &Task, stop: &Stop) -> SearchAnswer {
        let level = task.level;
        let (chain, counts) = (&mut self.chain, &mut self.counts);
        loop {
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
                let dead_end = chain.pop().expect("a link").cells();
                match chain.last_mut() {
                    Some(before) => {
                        counts.backtracks += 1;
                        before.refused.push(dead_end);
                    }
                    None => return SearchAnswer::Stopped(StopReason::GaveUp),
                }
                continue;
            };
            let start = level.with_position(link.player, &link.boxes);
            let mut wanted = link.kept.clone();
            wanted.push(goal);
            let target = Target {
                boxes: &wanted,
                player_cells: &[],
                avoid: &link.refused,
            };
            let bounds = (1, MAX_SUBGOAL_PUSHES, 1);
            match fewest_pushes(task, &start, &target, bounds, stop) {
                Reached::Stopped => return SearchAnswer::Stopped(StopReason::Time),
                Reached::Pushes(pushes) => {
                    let (boxes, player) = after(level, link, &pushes);
                    let cells: Vec<Cell> = (0..boxes.len()).filter(|&c| boxes[c]).collect();
                    if is_dead(task, &mut self.assignment, &cells) {
                        link.refused.push(cells);
                        continue;
                    }
                    counts.subgoals += 1;
                    link.pushes = pushes;
                    let next = Link::new(boxes, player, wanted, &self.order);
                    chain.push(next);
                }
                // This goal cannot be filled next from here within the cap, or within a
                // formula that fits the budget: the next one.
                Reached::None | Reached::TooBig => {
                    link.next_goals.remove(0);
                }
            }
        }
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
    use crate::level::parse_xsb;

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
    fn a_stopped_planner_goes_on_from_its_chain() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        let whole = plan(text);
        on_task(text, |task| {
            let mut planner = GoalByGoal::new(task, &Stop::never()).unwrap();
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
