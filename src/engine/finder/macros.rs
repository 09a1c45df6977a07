//! The macro search: the plan finder's FESS-style search, whose moves are macro moves
//! (one box taken to any cell it can reach with the other boxes standing still, in
//! one step) instead of single pushes.
//!
//! Positions are filed by two features, the goals of the packing order filled and the
//! regions the boxes split the floor into, and turns go round the cells of that
//! feature space in order; each turn expands the position of its cell reached by the
//! fewest moves that no advisor proposed. Two advisors propose one child each per
//! expansion, which then costs nothing: the move that fills the most goals of the
//! packing order, and the move that joins the most regions. So a search follows its
//! advisors for free (a dive), and the cost of everything else is counted in moves of
//! a box, not pushes, as FESS counts it (Shoham and Schaeffer, 2020). The same
//! deadlock tests as the push searches prune (dead squares, freeze blocks, dead pairs
//! and triples, boxes frozen off goals, corrals that never open, learned knots).
//!
//! A macro move is stored as its box's first and last cell and its pushes; the pushes
//! themselves are found again, by the same search on the same position, when the plan
//! is read back.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::base_plan::BasePlan;
use super::corral::Corrals;
use super::features::Features;
use super::knots::Knots;
use crate::analysis::{Analysis, frozen_off_goal, packing_order};
use crate::engine::StopReason;
use crate::engine::push_search::{Push, PushGraph, SearchAnswer, Step};
use crate::game::Region;
use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// What one expansion is worth in the portfolio's slices, in expansions of a push
/// search: a macro expansion searches every box's reachable cells and fills a region
/// per cell, about 40 times the work of a push expansion on XSokoban.
pub const EXPANSION_WEIGHT: usize = 32;

/// No state: the start of a box's way.
const NONE: u32 = u32::MAX;

/// A macro move of one box.
#[derive(Clone, Copy, Debug)]
struct Move {
    from: Cell,
    to: Cell,
    /// The player's cell after the last push, and the name of its region.
    player: Cell,
    name: Cell,
    pushes: u32,
    /// Goals of the packing order filled and regions after the move.
    packed: u32,
    regions: u32,
}

/// The search for the cells one box can reach, with its buffers.
struct Ways {
    region: Region,
    blocked: Vec<bool>,
    /// Per state (box cell × 4 + the side the player stands on): the stamp of the
    /// search that reached it, the state it was pushed from and its pushes.
    seen: Vec<u32>,
    parent: Vec<u32>,
    pushes: Vec<u32>,
    stamp: u32,
    queue: Vec<u32>,
    /// Per state, the stamp of the search that filled the player's region round its
    /// box: the states of one region have one move and one set of pushes.
    covered: Vec<u32>,
}

impl Ways {
    fn new(level: &Level) -> Ways {
        let cells = level.cell_count();
        Ways {
            region: Region::new(level),
            blocked: vec![false; cells],
            seen: vec![0; cells * 4],
            parent: vec![NONE; cells * 4],
            pushes: vec![0; cells * 4],
            stamp: 0,
            queue: Vec::new(),
            covered: vec![0; cells * 4],
        }
    }

    /// Every move of the box on `b` in the position `boxes`, the player able to walk to
    /// the cells of `reach`: per cell the box can be pushed to (live cells only) and
    /// per region the player can then be in, the move with the fewest pushes, into
    /// `out` with the state it ends in (its features still 0). The states' parents stay
    /// until the next call.
    fn moves(
        &mut self,
        (level, live): (&Level, &[bool]),
        boxes: &[bool],
        reach: &Region,
        b: Cell,
        out: &mut Vec<(Move, u32)>,
    ) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.covered.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.queue.clear();
        self.blocked.copy_from_slice(boxes);
        for d in Direction::ALL {
            let at = level.neighbor(b, d);
            if !level.is_wall(at) && !boxes[at] && reach.contains(at) {
                let s = b * 4 + d.index();
                (self.seen[s], self.parent[s], self.pushes[s]) = (stamp, NONE, 0);
                self.queue.push(s as u32);
            }
        }
        self.blocked[b] = false;
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head] as usize;
            head += 1;
            if self.covered[s] == stamp {
                continue; // its region was filled from a state with no more pushes
            }
            let (c, d) = (s / 4, Direction::ALL[s % 4]);
            self.blocked[c] = true;
            let player = level.neighbor(c, d);
            let name = self.region.fill(level, &self.blocked, player);
            for side in Direction::ALL {
                if self.region.contains(level.neighbor(c, side)) {
                    self.covered[c * 4 + side.index()] = stamp;
                }
            }
            if c != b {
                let pushes = self.pushes[s];
                let (packed, regions) = (0, 0);
                let m = Move { from: b, to: c, player, name, pushes, packed, regions };
                out.push((m, s as u32));
            }
            for side in Direction::ALL {
                let at = level.neighbor(c, side);
                if level.is_wall(at) || self.blocked[at] || !self.region.contains(at) {
                    continue;
                }
                // The player on `side` pushes the box to the other side.
                let to = level.neighbor(c, side.opposite());
                if level.is_wall(to) || self.blocked[to] || !live[to] {
                    continue;
                }
                let t = to * 4 + side.index();
                if self.seen[t] != stamp {
                    (self.seen[t], self.parent[t]) = (stamp, s as u32);
                    self.pushes[t] = self.pushes[s] + 1;
                    self.queue.push(t as u32);
                }
            }
            self.blocked[c] = false;
        }
    }

    /// The pushes to state `s` of the last [`Ways::moves`].
    fn pushes_to(&self, mut s: u32) -> Vec<Push> {
        let mut way = Vec::new();
        while self.parent[s as usize] != NONE {
            let p = self.parent[s as usize];
            // The push from state `p` took the box away from the side `s` stands on.
            let dir = Direction::ALL[s as usize % 4].opposite();
            way.push((p as usize / 4, dir));
            s = p;
        }
        way.reverse();
        way
    }
}

/// A cell of the feature space: goals of the packing order filled, and the regions
/// (fewer first when the goals are equal).
type FeatureCell = (u32, Reverse<u32>);

/// Waiting nodes by feature cell, each by weight (lightest first) and id.
type Cells = BTreeMap<FeatureCell, BinaryHeap<Reverse<(u32, u32)>>>;

/// The macro search and its buffers.
pub struct MacroSearch<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    /// The packing order's goals filled, and the regions (counted, not capped).
    features: Features,
    /// A plan whose steps borne out count instead of the goals of the packing order.
    plan: Option<BasePlan>,
    graph: PushGraph<'a>,
    ways: Ways,
    corrals: Corrals,
    knots: Knots,
    /// The player's region after a move.
    reach: Region,
    /// Per node its moves not proposed by an advisor, and its pushes.
    weight: Vec<u32>,
    g: Vec<u32>,
    /// Waiting nodes by feature cell (goals filled, minus the regions), each by
    /// weight; and whether the last turn was the most advanced cell's.
    cells: Cells,
    to_the_front: bool,
    children: Vec<(Move, u32)>,
    max_positions: usize,
    max_pushes: Option<usize>,
    /// Positions expanded.
    pub expanded: u64,
}

impl<'a> MacroSearch<'a> {
    /// A macro search of `level`, storing at most `max_positions`, looking for plans of
    /// at most `max_pushes` (if set), its positions filed by the steps of `plan` borne
    /// out, or without one by the goals of the packing order filled. `None` when
    /// `stop` says stop before the packing order is ready.
    pub fn new(
        level: &'a Level,
        analysis: &'a Analysis,
        (max_positions, max_pushes): (usize, Option<usize>),
        plan: Option<BasePlan>,
        stop: &Stop,
    ) -> Option<MacroSearch<'a>> {
        let order = packing_order(level, &analysis.region, stop);
        let floor = (0..level.cell_count()).filter(|&c| analysis.region[c]).collect();
        if stop.should_stop() {
            return None;
        }
        Some(MacroSearch {
            level,
            analysis,
            features: Features::new(order, floor, true, level.cell_count()),
            plan,
            graph: PushGraph::new(level, analysis),
            ways: Ways::new(level),
            corrals: Corrals::new(level, stop.clone()),
            knots: Knots::new(level, stop.clone()),
            reach: Region::new(level),
            weight: Vec::new(),
            g: Vec::new(),
            cells: BTreeMap::new(),
            to_the_front: false,
            children: Vec::new(),
            max_positions,
            max_pushes,
            expanded: 0,
        })
    }

    /// Positions stored.
    pub fn positions(&self) -> usize {
        self.graph.len()
    }

    /// Gives back the memory of a search that is over; the positions it was allowed.
    pub fn release(&mut self) -> usize {
        self.graph.clear();
        self.cells.clear();
        self.weight = Vec::new();
        self.g = Vec::new();
        std::mem::take(&mut self.max_positions)
    }

    /// The positions the search may store.
    #[cfg(test)]
    pub fn allowed(&self) -> usize {
        self.max_positions
    }

    /// From now on, looks only for plans of at most `max` pushes.
    pub fn tighten(&mut self, max: usize) {
        self.max_pushes = Some(self.max_pushes.map_or(max, |m| m.min(max)));
    }

    /// Lets the search store `more` positions beyond its share.
    pub fn grant(&mut self, more: usize) {
        self.max_positions += more;
    }

    /// The features of the position laid out in the graph: goals of the packing order
    /// filled, and regions.
    fn features(&mut self) -> (u32, u32) {
        let mask = self.graph.mask();
        let packed = match &self.plan {
            Some(plan) => plan.packed(mask),
            None => self.features.packed(mask),
        };
        let regions = self.features.region_count(self.level, mask);
        (packed as u32, regions as u32)
    }

    /// Files node `id` with its weight under its feature cell (goals packed,
    /// regions); a node stopped in its expansion is filed again the same way.
    fn file(&mut self, id: u32, weight: u32, (packed, regions): (u32, u32)) {
        debug_assert!((id as usize) < self.weight.len());
        let heap = self.cells.entry((packed, Reverse(regions))).or_default();
        heap.push(Reverse((weight, id)));
    }

    /// Stores the start position; `Some` answer if the search is over at once.
    pub fn start(&mut self) -> Option<SearchAnswer> {
        let start = self.graph.add_start();
        if self.graph.is_solved(start) {
            return Some(SearchAnswer::Plan(Vec::new()));
        }
        let features = self.features();
        self.graph.leave();
        self.weight.push(0);
        self.g.push(0);
        self.file(start, 0, features);
        None
    }

    /// The next node to expand: the lightest of the cell whose turn it is. Turns
    /// alternate between the most advanced cell (the dive goes on from the front) and
    /// the least advanced (the search widens near the start, where another first move
    /// of a box may avoid the dead end the dive ran into).
    fn next(&mut self) -> Option<u32> {
        self.to_the_front = !self.to_the_front;
        let key = if self.to_the_front {
            *self.cells.keys().next_back()?
        } else {
            *self.cells.keys().next()?
        };
        let heap = self.cells.get_mut(&key).expect("a key of the map");
        let Reverse((_, id)) = heap.pop().expect("no empty cell is kept");
        if heap.is_empty() {
            self.cells.remove(&key);
        }
        Some(id)
    }

    /// Expands up to `budget` push expansions' worth of positions (see
    /// [`EXPANSION_WEIGHT`]), fewer if `stop` says stop; `Some` answer when the search
    /// is over.
    pub fn advance(&mut self, budget: usize, stop: &Stop) -> Option<SearchAnswer> {
        for _ in 0..budget.div_ceil(EXPANSION_WEIGHT) {
            if stop.should_stop() {
                return None;
            }
            let Some(id) = self.next() else {
                // Pruned positions (corrals) prove nothing: the search gives up.
                return Some(SearchAnswer::Stopped(StopReason::GaveUp));
            };
            if let Some(answer) = self.expand(id, stop) {
                return Some(answer);
            }
        }
        None
    }

    /// Expands node `id`: stores every macro move's child that is not dead, the
    /// advisors' at the node's weight, the others one heavier. When `stop` says stop
    /// on the way (an expansion on a board of a thousand boxes takes seconds), the
    /// node waits in its cell again, to be expanded whole later.
    fn expand(&mut self, id: u32, stop: &Stop) -> Option<SearchAnswer> {
        self.expanded += 1;
        self.graph.enter(id);
        let answer = self.expand_entered(id, stop);
        self.graph.leave();
        answer
    }

    fn expand_entered(&mut self, id: u32, stop: &Stop) -> Option<SearchAnswer> {
        let (level, analysis) = (self.level, self.analysis);
        let boxes = self.graph.boxes().to_vec();
        let (packed, regions) = self.features();
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        for &b in &boxes {
            if stop.should_stop() {
                self.children = children;
                self.file(id, self.weight[id as usize], (packed, regions));
                return None;
            }
            let first = children.len();
            let (mask, reach) = (self.graph.mask(), self.graph.region());
            (self.ways).moves((level, &analysis.live), mask, reach, b as Cell, &mut children);
            // Keep the moves whose child is not dead, with its features.
            let mut k = first;
            while k < children.len() {
                let (m, _) = children[k];
                self.graph.make(m.from, m.to);
                let features = (!self.dead(m)).then(|| self.features());
                self.graph.unmake(m.from, m.to);
                match features {
                    Some((p, r)) => {
                        children[k].0.packed = p;
                        children[k].0.regions = r;
                        k += 1;
                    }
                    None => {
                        children.swap_remove(k);
                    }
                }
            }
        }
        let pack = (children.iter().enumerate())
            .filter(|(_, (m, _))| m.packed > packed)
            .max_by_key(|(_, (m, _))| (m.packed, Reverse(m.pushes)))
            .map(|(i, _)| i);
        let join = (children.iter().enumerate())
            .filter(|(_, (m, _))| m.regions < regions)
            .min_by_key(|(_, (m, _))| (m.regions, m.pushes))
            .map(|(i, _)| i);
        let (weight, g) = (self.weight[id as usize], self.g[id as usize]);
        let mut answer = None;
        for (i, &(m, _)) in children.iter().enumerate() {
            let child_g = g + m.pushes;
            if self.max_pushes.is_some_and(|max| child_g as usize > max) {
                continue;
            }
            self.graph.move_box(m.from, m.to);
            let key = self.graph.key(m.from, m.to, m.name);
            if self.graph.find(key).is_some() {
                continue;
            }
            if self.graph.len() >= self.max_positions {
                let positions = self.graph.len() as u64;
                answer = Some(SearchAnswer::Stopped(StopReason::Memory { positions }));
                break;
            }
            let step = Step::box_macro(m.from, m.to, m.pushes as u16);
            let child = self.graph.add(key, id, step);
            let w = if Some(i) == pack || Some(i) == join { weight } else { weight + 1 };
            self.weight.push(w);
            self.g.push(child_g);
            if self.graph.is_solved(child) {
                answer = Some(SearchAnswer::Plan(self.pushes_to(child)));
                break;
            }
            self.file(child, w, (m.packed, m.regions));
        }
        self.children = children;
        answer
    }

    /// Whether the child of the entered node after move `m` (made in the graph's
    /// mask) is dead: the static deadlocks, a box frozen off its goal, a corral that
    /// never opens, or a learned knot.
    fn dead(&mut self, m: Move) -> bool {
        let (level, analysis) = (self.level, self.analysis);
        let mask = self.graph.mask();
        if self.graph.is_dead_after(m.from, m.to)
            || frozen_off_goal(level, mask, &analysis.live, m.to)
        {
            return true;
        }
        self.reach.fill(level, mask, m.player);
        if self.corrals.dead(level, analysis, mask, &self.reach, m.to) {
            return true;
        }
        self.graph.move_box(m.from, m.to);
        let child = (self.graph.mask(), self.graph.child_boxes());
        self.knots.dead(level, analysis, child, m.player, m.to)
    }

    /// The pushes from the start to node `id`, each macro move's found again on the
    /// position it was made from.
    fn pushes_to(&mut self, id: u32) -> Vec<Push> {
        let level = self.level;
        let mut chain = Vec::new();
        let mut n = id;
        while n != 0 {
            chain.push(n);
            n = self.graph.arena().parent(n);
        }
        chain.reverse();
        let mut boxes = level.initial_boxes().to_vec();
        let mut player = level.player();
        let mut pushes = Vec::new();
        let mut reach = Region::new(level);
        let mut out = Vec::new();
        for n in chain {
            let step = self.graph.arena().step(n);
            let name = self.graph.arena().player(n);
            reach.fill(level, &boxes, player);
            out.clear();
            let (from, to) = (step.from as Cell, step.end());
            (self.ways).moves((level, &self.analysis.live), &boxes, &reach, from, &mut out);
            let (_, state) = *(out.iter())
                .find(|(m, _)| m.to == to && m.name == name)
                .expect("a macro move is found again on its position");
            let way = self.ways.pushes_to(state);
            debug_assert_eq!(way.len(), step.count as usize);
            for &(at, dir) in &way {
                boxes[at] = false;
                boxes[level.neighbor(at, dir)] = true;
                player = at;
            }
            pushes.extend(way);
        }
        pushes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::game::plan_from_pushes;
    use crate::level::generate::{BoardSpec, random_board};
    use crate::level::parse_xsb;

    /// Runs a macro search to its answer.
    fn answer(level: &Level, analysis: &Analysis, plan: Option<BasePlan>) -> SearchAnswer {
        let never = Stop::never();
        let limits = (200_000, None);
        let mut search =
            MacroSearch::new(level, analysis, limits, plan, &never).expect("never stopped");
        if let Some(answer) = search.start() {
            return answer;
        }
        loop {
            if let Some(answer) = search.advance(EXPANSION_WEIGHT, &never) {
                return answer;
            }
        }
    }

    #[test]
    fn a_box_reaches_each_cell_in_its_fewest_pushes_and_the_way_replays() {
        // One box in an open room, the player beside it.
        let level = parse_xsb("t", "#######\n#     #\n# @$  #\n#    .#\n#######\n")
            .unwrap()
            .remove(0);
        let analysis = Analysis::new(&level);
        let b = level.box_cells().next().unwrap();
        let goal = level.goal_cells().next().unwrap();
        let mut reach = Region::new(&level);
        reach.fill(&level, level.initial_boxes(), level.player());
        let mut ways = Ways::new(&level);
        let mut out = Vec::new();
        ways.moves((&level, &analysis.live), level.initial_boxes(), &reach, b, &mut out);
        // The goal is two pushes right and one down away.
        let (m, state) = *out.iter().find(|(m, _)| m.to == goal).expect("the goal");
        assert_eq!(m.pushes, 3);
        let way = ways.pushes_to(state);
        assert_eq!(way.len(), 3);
        let plan = plan_from_pushes(&level, &way).expect("the way replays");
        assert!(plan.verify(&level).is_ok());
        // Only live cells, each once per region of the player.
        assert!(out.iter().all(|(m, _)| analysis.live[m.to] && m.to != b));
    }

    /// On generated boards the macro search's plans replay and are never shorter than
    /// the optimum, it finds none where brute force proves there is none, and it finds
    /// one on most solvable boards (its pruning can make it give up); filed by a plan
    /// with bases, where the backward search finds one, the same holds.
    #[test]
    fn macro_plans_replay_and_agree_with_brute_force() {
        let (mut found, mut solvable, mut refuted) = ([0; 2], [0; 2], 0);
        for index in 0..120 {
            let spec = BoardSpec::class(7, (2, 4), index, 41);
            let level = parse_xsb("t", &random_board(&spec)).unwrap().remove(0);
            let analysis = Analysis::new(&level);
            if analysis.unsolvable.is_some() {
                continue;
            }
            let oracle = shortest_pushes(&level, usize::MAX, 200_000);
            let plan = BasePlan::search(&level, &analysis, 20_000, &Stop::never());
            let by_plan = plan.map(|plan| answer(&level, &analysis, Some(plan)));
            let answers = std::iter::once(answer(&level, &analysis, None)).chain(by_plan);
            for (kind, answer) in answers.enumerate() {
                match (&answer, &oracle) {
                    (SearchAnswer::Plan(pushes), SearchResult::Optimal(m)) => {
                        let plan = plan_from_pushes(&level, pushes).expect("plans replay");
                        assert!(plan.verify(&level).is_ok());
                        assert!(pushes.len() >= *m);
                        found[kind] += 1;
                        solvable[kind] += 1;
                    }
                    (SearchAnswer::Stopped(StopReason::GaveUp), SearchResult::Optimal(_)) => {
                        solvable[kind] += 1
                    }
                    (SearchAnswer::Stopped(StopReason::GaveUp), SearchResult::Unsolvable) => {
                        refuted += 1
                    }
                    (_, SearchResult::TooLarge) => {}
                    (a, o) => panic!("{a:?} against brute force {o:?}\n{}", random_board(&spec)),
                }
            }
        }
        eprintln!("macro search: {found:?} plans on {solvable:?} solvable boards, {refuted} refuted");
        assert!(solvable[0] >= 50 && refuted >= 5, "{solvable:?} / {refuted}");
        assert!(found[0] * 10 >= solvable[0] * 9, "{found:?} of {solvable:?}");
        // The backward search finds a plan on most solvable boards.
        assert!(solvable[1] * 10 >= solvable[0] * 8, "{solvable:?}");
        assert!(found[1] * 10 >= solvable[1] * 9, "{found:?} of {solvable:?}");
    }
}
