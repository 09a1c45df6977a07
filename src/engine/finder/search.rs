//! One search of the plan finder: positions in an [`Arena`](crate::engine::push_search::Arena), each stored once, waiting
//! in a [`Frontier`] by their features, expanded a slice at a time (so that several
//! searches can share a core).

use super::corral::Corrals;
use super::features::Features;
use super::frontier::Frontier;
use super::frozen_goals::FrozenGoals;
use super::knots::Knots;
use super::{ESTIMATE_WEIGHT, SWITCH_COST, Techniques};
use crate::analysis::{
    Analysis, Assignment, PackingStep, frozen_off_goal, packing_plan, packing_plan_with_requires,
};
use crate::engine::StopReason;
use crate::engine::push_search::arena::{RESERVE_AT, reserve_total};
use crate::engine::push_search::{PushGraph, SearchAnswer, Step};
use crate::game::PushMoves;
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// Where a goal macro's entry pushes led.
struct Entered {
    /// The goal the box stands on.
    goal: Cell,
    /// The index of the entrance among the goal's.
    entrance: u8,
    /// The player's cell after the last push.
    player: Cell,
    /// The number of entry pushes.
    pushes: u16,
}

/// One search and its buffers.
pub struct Search<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    techniques: Techniques,
    /// Positions it may store before it gives up.
    max_positions: usize,
    /// The longest plan wanted, if the user set one.
    max_pushes: Option<usize>,
    graph: PushGraph<'a>,
    frontier: Frontier,
    features: Features,
    assignment: Assignment,
    corrals: Corrals,
    /// Learned knots of boxes that can never all reach goals.
    knots: Knots,
    /// The proof by boxes frozen on goals (`None` when off or where it does not hold).
    frozen_goals: Option<FrozenGoals>,
    /// The floor of the player's region (where corrals are looked for).
    floor: Vec<Cell>,
    /// The packing order with each goal's entry pushes, for goal macros (empty
    /// without them).
    plan: Vec<PackingStep>,
    /// The pushes of a goal macro's positions.
    entry_moves: PushMoves,
    /// Positions expanded.
    pub expanded: u64,
    /// Per node, the changes of box charged on the way to it (see [`SWITCH_COST`]).
    switches: Vec<u32>,
    /// The feature cell of the position being expanded.
    expanding_cell: usize,
    /// Whether positions were skipped (tunnel macros, corral pruning): then running out of
    /// positions proves nothing.
    skipped: bool,
    /// Whether the user's bound cut a position off.
    cut_by_bound: bool,
    /// Whether the assignment holds the parent being expanded.
    prepared: bool,
}

impl<'a> Search<'a> {
    /// A search of `level` with `techniques`, storing at most `max_positions`, looking
    /// for plans of at most `max_pushes` (if set); its start position is stored. On ice
    /// the techniques that assume a box moves one cell per push (tunnels, corrals,
    /// PI-corrals, frozen boxes, goal macros) are off. `None` when `stop` says stop
    /// before the packing order and the goals' distances, which grow with the board,
    /// are ready.
    pub fn new(
        level: &'a Level,
        analysis: &'a Analysis,
        techniques: Techniques,
        (max_positions, max_pushes): (usize, Option<usize>),
        stop: &Stop,
    ) -> Option<Search<'a>> {
        let techniques = if level.has_ice() {
            Techniques {
                tunnels: false,
                corrals: false,
                knots: false,
                pi_corrals: false,
                freeze: false,
                goal_macros: false,
                frozen_goals: false,
                ..techniques
            }
        } else {
            techniques
        };
        let cells = level.cell_count();
        let floor: Vec<Cell> = (0..cells).filter(|&c| analysis.region[c]).collect();
        let plan = if techniques.packing && techniques.partial_order {
            packing_plan_with_requires(level, &analysis.region, stop)
        } else if techniques.packing {
            packing_plan(level, &analysis.region, stop)
        } else {
            Vec::new()
        };
        let order = plan.iter().map(|s| s.goal).collect();
        let mut features = Features::new(order, floor.clone(), techniques.connectivity, cells);
        if techniques.partial_order {
            features = features.with_requires(&plan);
        }
        let plan = if techniques.goal_macros {
            plan
        } else {
            Vec::new()
        };
        let assignment = Assignment::until(level, &analysis.region, stop)?;
        if stop.should_stop() {
            return None; // the packing order may be cut short
        }
        Some(Search {
            level,
            analysis,
            techniques,
            max_positions,
            max_pushes,
            graph: PushGraph::new(level, analysis),
            frontier: Frontier::new(features.cells(), techniques.rotation),
            features,
            assignment,
            corrals: Corrals::new(level, stop.clone()),
            knots: Knots::new(level, stop.clone()),
            frozen_goals: (techniques.frozen_goals)
                .then(|| FrozenGoals::new(level, &analysis.region))
                .flatten(),
            floor,
            plan,
            entry_moves: PushMoves::new(level),
            expanded: 0,
            switches: Vec::new(),
            expanding_cell: 0,
            skipped: false,
            cut_by_bound: false,
            prepared: false,
        })
    }

    /// Positions stored.
    pub fn positions(&self) -> usize {
        self.graph.len()
    }

    /// Gives back the memory of a search that is over (its positions, its queue, its
    /// corral results) and answers the positions it was allowed, for another search
    /// to take. The search must not run again.
    pub fn release(&mut self) -> usize {
        self.graph.clear();
        self.frontier = Frontier::new(self.features.cells(), self.techniques.rotation);
        self.switches = Vec::new();
        self.corrals = Corrals::new(self.level, Stop::never());
        self.knots = Knots::new(self.level, Stop::never());
        std::mem::take(&mut self.max_positions)
    }

    /// The positions the search may store.
    #[cfg(test)]
    pub fn allowed(&self) -> usize {
        self.max_positions
    }

    /// Looks only for plans of at most `max` pushes from now on: children beyond it
    /// by their pushes and estimate are cut, and running out of positions then means
    /// no plan within it.
    pub fn tighten(&mut self, max: usize) {
        self.max_pushes = Some(self.max_pushes.map_or(max, |m| m.min(max)));
    }

    /// Lets the search store `more` positions beyond its share.
    pub fn grant(&mut self, more: usize) {
        self.max_positions += more;
        if self.positions() >= RESERVE_AT {
            self.reserve();
        }
    }

    /// Makes room for the positions the search may store.
    fn reserve(&mut self) {
        self.graph.arena_mut().reserve(self.max_positions);
        reserve_total(&mut self.switches, self.max_positions);
    }

    /// Stores the start position; `Some` answer when the search is over before it
    /// begins (no assignment of boxes to goals exists).
    pub fn start(&mut self) -> Option<SearchAnswer> {
        let start = self.graph.add_start();
        let h = self.assignment.cost(self.graph.boxes());
        let cell = self.features.cell(self.level, self.graph.mask());
        self.graph.leave();
        let Some(h) = h else {
            let reason = "no assignment of the boxes to distinct goals is reachable by pushes";
            return Some(SearchAnswer::Unsolvable(reason.to_string()));
        };
        self.switches.push(0);
        self.frontier.push(cell, h, 0, start);
        None
    }

    /// Expands up to `budget` positions, fewer if `stop` says stop (it is read before
    /// each: on a big board one expansion takes milliseconds); `Some` answer when the
    /// search is over.
    pub fn advance(&mut self, budget: usize, stop: &Stop) -> Option<SearchAnswer> {
        for _ in 0..budget {
            if stop.should_stop() {
                return None;
            }
            let Some((id, g, cell)) = self.frontier.pop() else {
                return Some(self.exhausted());
            };
            self.expanding_cell = cell;
            if let Some(answer) = self.expand(id, g) {
                return Some(answer);
            }
        }
        None
    }

    /// The answer when no position is left.
    fn exhausted(&self) -> SearchAnswer {
        if self.skipped {
            SearchAnswer::Stopped(StopReason::GaveUp)
        } else if let (true, Some(bound)) = (self.cut_by_bound, self.max_pushes) {
            SearchAnswer::NoneWithin(bound)
        } else {
            let reason = "the plan finder ran out of positions that are not deadlocks";
            SearchAnswer::Unsolvable(reason.to_string())
        }
    }

    /// Expands node `id`, reached after `g` pushes.
    fn expand(&mut self, id: u32, g: u32) -> Option<SearchAnswer> {
        let level = self.level;
        if self.graph.is_solved(id) {
            let plan = &self.plan;
            let entry = |goal: Cell, i: usize| {
                let step = plan.iter().find(|s| s.goal == goal);
                step.and_then(|s| s.entries.get(i))
                    .map_or(&[][..], |e| &e.pushes[..])
            };
            let pushes = self.graph.arena().pushes_with_entries(level, id, entry);
            return Some(SearchAnswer::Plan(pushes));
        }
        self.expanded += 1;
        self.graph.enter(id);
        let boxes = self.graph.boxes().to_vec();
        if !level.has_ice() {
            self.features.label(level, self.graph.mask());
        }
        if let Some(frozen) = &mut self.frozen_goals {
            frozen.expand(level, &self.analysis.live, self.graph.mask(), &boxes);
        }
        let answer = if self.corral_closed(id) || self.knotted(id, &boxes) {
            None
        } else {
            self.expand_pushes(id, g, &boxes)
        };
        self.graph.leave();
        answer
    }

    /// Whether the last push into node `id` (laid out in `mask`, its region filled)
    /// closed a corral for good.
    fn corral_closed(&mut self, id: u32) -> bool {
        if !self.techniques.corrals || id == 0 {
            return false;
        }
        let last = self.graph.arena().step(id).end();
        let (mask, region) = (self.graph.mask(), self.graph.region());
        let dead = (self.corrals).dead(self.level, self.analysis, mask, region, last);
        // The check keeps only the fence's boxes, which makes it a guide, not a proof.
        self.skipped |= dead;
        dead
    }

    /// Whether node `id` (laid out in `mask`) holds a knot of boxes that can never all
    /// reach goals ([`Knots`]).
    fn knotted(&mut self, id: u32, boxes: &[u16]) -> bool {
        if !self.techniques.knots || id == 0 {
            return false;
        }
        let last = self.graph.arena().step(id).end();
        let player = self.graph.arena().player(id);
        // Sound: the knot's boxes alone cannot be solved, so this skips nothing.
        let mask = self.graph.mask();
        (self.knots).dead(self.level, self.analysis, (mask, boxes), player, last)
    }

    /// Stores the positions one push (or tunnel or goal macro) away from node `id`.
    fn expand_pushes(&mut self, id: u32, g: u32, boxes: &[u16]) -> Option<SearchAnswer> {
        let (level, analysis) = (self.level, self.analysis);
        // The parent's assignment is solved when its first new child needs it: a
        // parent whose children are all stored already or dead needs none.
        self.prepared = false;
        let only = if self.techniques.pi_corrals {
            let (mask, region) = (self.graph.mask(), self.graph.region());
            (self.corrals).pi_pushes(level, analysis, mask, region, &self.floor)
        } else {
            None
        };
        self.skipped |= only.is_some();
        for (i, &b) in boxes.iter().enumerate() {
            let b = b as Cell;
            for dir in Direction::ALL {
                if only.as_ref().is_some_and(|o| !o.contains(&(b, dir))) {
                    continue;
                }
                let Some(push) = self.graph.push(b, dir) else {
                    continue;
                };
                // (Tunnels are off on ice, where the player's cell is the rules'.)
                let (player, end, count) = match self.slide(b, dir) {
                    (_, _, 1) => (push.player, push.to, 1),
                    tunnel => tunnel,
                };
                self.graph.make(b, end);
                let step = Step::straight(b, dir, end, count);
                let mut answer = self.store_child(id, g, i, player, step);
                if answer.is_none()
                    && let Some(entered) = self.enter_goal(end, player)
                {
                    // Beside the push onto the entrance, the push on to the goal.
                    let (goal, pushes) = (entered.goal, (count, entered.pushes));
                    let step = Step::goal_macro(b, dir, pushes, (goal, entered.entrance));
                    let player = entered.player;
                    answer = self.store_child(id, g, i, player, step);
                    self.graph.unmake(end, goal);
                }
                self.graph.unmake(b, end);
                if answer.is_some() {
                    return answer;
                }
            }
        }
        None
    }

    /// If the box just pushed onto `at` (laid out in `mask`, the player on `player`)
    /// stands on an entrance of the next goal of the packing order, and that
    /// entrance's entry pushes can be made: makes them in `mask` and says where they
    /// led. Otherwise leaves `mask` as it was.
    fn enter_goal(&mut self, at: Cell, player: Cell) -> Option<Entered> {
        if self.plan.is_empty() {
            return None;
        }
        let level = self.level;
        let step = self.plan.get(self.features.packed(self.graph.mask()))?;
        let entrance = step.entries.iter().position(|e| e.entrance == at)?;
        let entry = &step.entries[entrance];
        let (mask, moves) = (self.graph.mask_mut(), &mut self.entry_moves);
        let (mut player, mut box_at) = (player, at);
        for &(cell, dir) in &entry.pushes {
            moves.enter(level, mask, player);
            let Some(push) = moves.push(level, mask, cell, dir) else {
                mask[box_at] = false;
                mask[at] = true;
                return None;
            };
            mask[cell] = false;
            mask[push.to] = true;
            (player, box_at) = (push.player, push.to);
        }
        Some(Entered {
            goal: step.goal,
            entrance: entrance as u8,
            player,
            pushes: entry.pushes.len() as u16,
        })
    }

    /// Where a push of the box on `b` in `dir` ends: one cell, or on through a tunnel;
    /// the cell the player stands on after the last push, the box's cell, the pushes.
    fn slide(&mut self, b: Cell, dir: Direction) -> (Cell, Cell, u16) {
        let (level, live) = (self.level, &self.analysis.live);
        let (mut from, mut end, mut count) = (b, level.neighbor(b, dir), 1u16);
        if self.techniques.tunnels {
            while self.in_tunnel(from, end, dir) {
                let next = level.neighbor(end, dir);
                if level.is_wall(next) || self.graph.mask()[next] || !live[next] {
                    break;
                }
                (from, end) = (end, next);
                count += 1;
            }
            self.skipped |= count > 1;
        }
        (from, end, count)
    }

    /// Stores the child of node `id` (entered, after `g` pushes) whose `i`-th box made
    /// `step` (laid out in the mask; the player on `player`), unless it is dead,
    /// beyond the bound or stored already.
    fn store_child(
        &mut self,
        id: u32,
        g: u32,
        i: usize,
        player: Cell,
        step: Step,
    ) -> Option<SearchAnswer> {
        let (level, analysis) = (self.level, self.analysis);
        let (b, end) = (step.from as Cell, step.end());
        let dead = self.graph.is_dead_after(b, end)
            || (self.techniques.freeze
                && frozen_off_goal(level, self.graph.mask(), &analysis.live, end));
        if dead {
            return None;
        }
        let child_g = g + step.count as u32;
        let children = self.graph.move_box(b, end);
        if let Some(max) = self.max_pushes {
            let moved = children.iter().map(|&c| c as Cell);
            if child_g as i64 + analysis.heuristic.potential(moved) > max as i64 {
                self.cut_by_bound = true;
                return None;
            }
        }
        // Without ice the parent's regions give both the player's region and the
        // connectivity feature (on ice a region depends on where the player stands).
        let (regions, name) = if level.has_ice() {
            (None, self.graph.name_after(player))
        } else {
            let moved = (b, end);
            let mask = self.graph.mask();
            let (regions, name) = (self.features).child_regions(level, mask, moved, player);
            (Some(regions), name)
        };
        let key = self.graph.key(b, end, name);
        if self.graph.find(key).is_some() {
            return None;
        }
        if let Some(frozen) = &mut self.frozen_goals {
            // Sound: frozen boxes never move again, so this skips nothing.
            let position = (self.graph.mask(), self.graph.child_boxes());
            if frozen.dead(level, &analysis.live, position, end) {
                return None;
            }
        }
        if !self.prepared {
            self.assignment.prepare(self.graph.boxes());
            self.prepared = true;
        }
        let h = self.assignment.cost_after(i, end)?;
        if self.graph.len() >= self.max_positions {
            let positions = self.graph.len() as u64;
            return Some(SearchAnswer::Stopped(StopReason::Memory { positions }));
        }
        let mask = self.graph.mask();
        let cell = match regions {
            Some(regions) => self.features.cell_of(mask, regions),
            None => self.features.cell(level, mask),
        };
        let switches = self.switches[id as usize] + u32::from(self.switches_box(id, b, cell));
        if self.graph.len() == RESERVE_AT {
            self.reserve();
        }
        let child = self.graph.add(key, id, step);
        self.switches.push(switches);
        // Within a cell, weighted A*'s order (the pushes made and the estimate
        // counted ESTIMATE_WEIGHT times), with each change of box charged. Without
        // the charge the weight makes the search wander (engines.md), so it is A*'s.
        let (charge, weight) = if self.techniques.switches {
            (SWITCH_COST.saturating_mul(switches), ESTIMATE_WEIGHT)
        } else {
            (0, 1)
        };
        self.frontier.push(
            cell,
            child_g
                .saturating_add(weight.saturating_mul(h))
                .saturating_add(charge),
            child_g,
            child,
        );
        None
    }

    /// Whether pushing the box on `b` out of node `id` (into a position of feature cell
    /// `cell`) is charged as a change of box: it is another box than the one node
    /// `id` was reached by pushing, and the push does not advance the features.
    fn switches_box(&self, id: u32, b: Cell, cell: usize) -> bool {
        let same_box = id != 0 && self.graph.arena().step(id).end() == b;
        !same_box && cell <= self.expanding_cell
    }

    /// Whether the box just pushed from `from` to `at` in `dir` stands in a tunnel it
    /// should be pushed on through: walls on both sides of it and of the player behind
    /// it, and no goal under it.
    fn in_tunnel(&self, from: Cell, at: Cell, dir: Direction) -> bool {
        let level = self.level;
        if level.is_goal(at) {
            return false;
        }
        let sides = match dir {
            Direction::Left | Direction::Right => [Direction::Up, Direction::Down],
            Direction::Up | Direction::Down => [Direction::Left, Direction::Right],
        };
        let walled = |c: Cell| sides.iter().all(|&s| level.is_wall(level.neighbor(c, s)));
        walled(at) && walled(from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn a_push_of_another_box_than_the_last_is_charged() {
        // An open room: no push of the first two can fill a goal or split the floor,
        // so no push advances the features and every change of box is charged.
        let text = "#########\n#.     .#\n#       #\n#  $ $  #\n#   @   #\n#       #\n#########\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let techniques = Techniques {
            pi_corrals: false,
            portfolio: false,
            ..Techniques::ALL
        };
        let never = Stop::never();
        let mut search = Search::new(&level, &analysis, techniques, (10_000, None), &never)
            .expect("never stopped");
        assert!(search.start().is_none());
        // The start has no box pushed last: each first push is one change of box.
        assert!(search.advance(1, &never).is_none());
        let first = search.positions();
        assert!(first > 1);
        assert!((1..first).all(|id| search.switches[id] == 1));
        // From the second position expanded, pushing the box it moved again is free;
        // pushing the box still on its start cell is a second change.
        assert!(search.advance(1, &never).is_none());
        assert!(search.positions() > first);
        for id in first..search.positions() {
            let from = search.graph.arena().step(id as u32).from as Cell;
            let expected = if level.has_initial_box(from) { 2 } else { 1 };
            assert_eq!(search.switches[id], expected, "node {id}");
        }
    }

    #[test]
    fn a_box_on_the_entrance_of_the_next_goal_is_also_pushed_on_to_it() {
        // Three goals at the back of a corridor: the deepest is filled first, entered
        // from the first cell off the goals.
        let text = "#######\n#...  #\n### $ #\n#  $$@#\n#     #\n#######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let run = |techniques: Techniques| {
            let never = Stop::never();
            let mut search = Search::new(&level, &analysis, techniques, (100_000, None), &never)
                .expect("never stopped");
            assert!(search.start().is_none());
            let answer = loop {
                if let Some(answer) = search.advance(1, &never) {
                    break answer;
                }
            };
            let macros = (1..search.positions())
                .filter(|&id| search.graph.arena().step(id as u32).goal_entrance().is_some())
                .count();
            (answer, macros)
        };
        let (answer, macros) = run(Techniques::ALL);
        assert!(macros > 0);
        let SearchAnswer::Plan(pushes) = answer else {
            panic!("no plan: {answer:?}");
        };
        // The macro's pushes are read back into a plan the rules accept.
        assert!(crate::game::plan_from_pushes(&level, &pushes).is_ok());
        let off = Techniques {
            goal_macros: false,
            ..Techniques::ALL
        };
        assert_eq!(run(off).1, 0);
    }
}
