//! The macro search: the plan finder's FESS-style search, whose moves are macro moves
//! (one box taken to any cell it can reach with the other boxes standing still, in
//! one step) instead of single pushes.
//!
//! Positions are filed by three features, the goals of the packing order filled (or
//! the steps of a plan with bases borne out), the regions the boxes split the floor
//! into, and the boxes out of plan ([`super::out_of_plan`]). As in FESS, a position is
//! filed under the most advanced cell on its way from the start (its best ancestor's,
//! so that a move which undoes some progress on the way to more stays where the dive
//! is); turns alternate between the most advanced cell and a round of all cells (a
//! new cell first); and each turn expands the position of its cell reached by the
//! fewest moves that no advisor proposed, of those the one with the most advanced
//! features of its own. (With `fess-turns` off, a position is filed under its own
//! cell, the other turns go to the least advanced cell, and ties go to the oldest.)
//! Three advisors propose one child each per expansion, which then costs
//! nothing: the move that fills the most goals of the packing order, the move that
//! joins the most regions, and the move that takes a box farthest from the zone where
//! boxes are out of plan. So a search follows its
//! advisors for free (a dive), and the cost of everything else is counted in moves of
//! a box, not pushes, as FESS counts it (Shoham and Schaeffer, 2020). The same
//! deadlock tests as the push searches prune (dead squares, freeze blocks, dead pairs
//! and triples, boxes frozen off goals, corrals that never open, boxes frozen on goals
//! that wall the others off, learned knots), and a position about to be expanded is
//! dropped when one of its corrals fails the strict test ([`super::corral`]). The
//! portfolio's fifth search (`pi-macros`) moves, where a position has a PI-corral,
//! only the fence boxes the player can push into it.
//!
//! A macro move is stored as its box's first and last cell and its pushes; the pushes
//! themselves are found again, by the same search on the same position, when the plan
//! is read back.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::ops::Bound;

use super::base_plan::BasePlan;
use super::corral::Corrals;
use super::features::Features;
use super::frozen_goals::FrozenGoals;
use super::knots::Knots;
use super::out_of_plan::OutOfPlan;
use super::Techniques;
use crate::analysis::distance::UNREACHABLE;
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
    /// The features after the move.
    features: FeatureVector,
}

/// The features of a position: steps of the plan (or goals of the packing order)
/// borne out, regions of the floor, and boxes out of plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct FeatureVector {
    packed: u32,
    regions: u32,
    out_of_plan: u32,
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
    /// until the next call. Cut short, some moves missing, when `stop` says stop: on a
    /// board of 40 000 cells one box's moves take seconds (a region fill per cell).
    fn moves(
        &mut self,
        (level, live): (&Level, &[bool]),
        (boxes, reach): (&[bool], &Region),
        b: Cell,
        out: &mut Vec<(Move, u32)>,
        stop: &Stop,
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
            if head.is_multiple_of(64) && stop.should_stop() {
                return;
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
                let features = FeatureVector::default();
                let m = Move { from: b, to: c, player, name, pushes, features };
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

/// A cell of the feature space: steps borne out, then fewer regions, then fewer
/// boxes out of plan (the last key is the most advanced).
type FeatureCell = (u32, Reverse<u32>, Reverse<u32>);

impl FeatureVector {
    fn cell(self) -> FeatureCell {
        (self.packed, Reverse(self.regions), Reverse(self.out_of_plan))
    }
}

/// Waiting nodes by the feature cell they are filed under, each by weight (lightest
/// first), then by their own features (most advanced first), then by id.
type Cells = BTreeMap<FeatureCell, BinaryHeap<Reverse<(u32, Reverse<FeatureCell>, u32)>>>;

/// The cell of no features, which every node has as its own when ties go by id.
const NO_CELL: FeatureCell = (0, Reverse(0), Reverse(0));

/// The macro search and its buffers.
pub struct MacroSearch<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    /// The packing order's goals filled, and the regions (counted, not capped).
    features: Features,
    /// A plan whose steps borne out count instead of the goals of the packing order.
    plan: Option<BasePlan>,
    /// The zones of boxes out of plan, of the plan or the packing order.
    out_of_plan: Option<OutOfPlan>,
    graph: PushGraph<'a>,
    ways: Ways,
    corrals: Corrals,
    knots: Knots,
    /// The test by boxes frozen on goals (`frozen-goals`).
    frozen_goals: Option<FrozenGoals>,
    /// The player's region after a move.
    reach: Region,
    /// Per node its moves not proposed by an advisor, and its pushes.
    weight: Vec<u32>,
    g: Vec<u32>,
    /// Waiting nodes by feature cell, each by weight; and whether the last turn was
    /// the most advanced cell's.
    cells: Cells,
    to_the_front: bool,
    /// FESS's selection (`fess-turns`): filing under the best ancestor's cell, ties
    /// by the node's own features, and the other turns in a round of the cells: the
    /// round's last cell, a cell never seen before (it goes next), and the cells seen.
    fess_turns: bool,
    round: Option<FeatureCell>,
    fresh: Option<FeatureCell>,
    seen: BTreeSet<FeatureCell>,
    children: Vec<(Move, u32)>,
    max_positions: usize,
    max_pushes: Option<usize>,
    /// Positions expanded.
    pub expanded: u64,
    /// The floor of the player's region, where corrals are looked for, and whether
    /// each expanded position's corrals are tested by the strict criterion
    /// (`strict-corrals`).
    floor: Vec<Cell>,
    strict_corrals: bool,
    /// Where a PI-corral is, move only its fence's boxes the player can push into it
    /// (the fifth member, `pi-macros`).
    pi_corrals: bool,
}

impl<'a> MacroSearch<'a> {
    /// A macro search of `level`, storing at most `max_positions`, looking for plans of
    /// at most `max_pushes` (if set), its positions filed by the steps of `plan` borne
    /// out, or without one by the goals of the packing order filled, and with the
    /// technique `out-of-plan`, by the boxes out of plan too (and with `fess-turns`,
    /// FESS's selection; with `pi-macros`, the PI-corral rule in this search). `None`
    /// when `stop` says stop before the packing order is ready.
    pub fn new(
        level: &'a Level,
        analysis: &'a Analysis,
        (max_positions, max_pushes): (usize, Option<usize>),
        (plan, techniques): (Option<BasePlan>, &Techniques),
        stop: &Stop,
    ) -> Option<MacroSearch<'a>> {
        // With a plan, its steps take the packing order's place.
        let order = if plan.is_some() {
            Vec::new()
        } else {
            packing_order(level, &analysis.region, stop)
        };
        let floor: Vec<Cell> = (0..level.cell_count()).filter(|&c| analysis.region[c]).collect();
        if stop.should_stop() {
            return None;
        }
        let out_of_plan = if techniques.out_of_plan {
            let steps = match &plan {
                Some(plan) => plan.steps(),
                None => order.iter().map(|&g| (g, None)).collect(),
            };
            Some(OutOfPlan::new(level, analysis, &steps, stop)?)
        } else {
            None
        };
        Some(MacroSearch {
            level,
            analysis,
            features: Features::new(order, floor.clone(), true, level.cell_count()),
            plan,
            out_of_plan,
            graph: PushGraph::new(level, analysis),
            ways: Ways::new(level),
            corrals: Corrals::new(level, stop.clone()),
            knots: Knots::new(level, stop.clone()),
            frozen_goals: (techniques.frozen_goals)
                .then(|| FrozenGoals::new(level, &analysis.region))
                .flatten(),
            reach: Region::new(level),
            weight: Vec::new(),
            g: Vec::new(),
            cells: BTreeMap::new(),
            to_the_front: false,
            fess_turns: techniques.fess_turns,
            round: None,
            fresh: None,
            seen: BTreeSet::new(),
            children: Vec::new(),
            max_positions,
            max_pushes,
            expanded: 0,
            floor,
            strict_corrals: techniques.strict_corrals,
            pi_corrals: techniques.pi_macros,
        })
    }

    /// Whether this search is filed by a plan with bases.
    pub fn by_plan(&self) -> bool {
        self.plan.is_some()
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

    /// The features of the position laid out in the graph.
    fn features(&mut self) -> FeatureVector {
        let mask = self.graph.mask();
        let packed = match &self.plan {
            Some(plan) => plan.packed(mask),
            None => self.features.packed(mask),
        };
        let regions = self.features.region_count(self.level, mask) as u32;
        let out_of_plan = self.out_of_plan.as_ref().map_or(0, |o| o.count(packed, mask));
        let packed = packed as u32;
        FeatureVector { packed, regions, out_of_plan }
    }

    /// The cell a child with `features` is filed under, its parent filed under
    /// `parent`: with `fess-turns` the more advanced of the two, else its own.
    fn cell_of_child(&self, parent: FeatureCell, features: FeatureVector) -> FeatureCell {
        if self.fess_turns {
            features.cell().max(parent)
        } else {
            features.cell()
        }
    }

    /// Files node `id`, whose own features are `features`, with its weight under
    /// `cell`; a node stopped in its expansion is filed again the same way.
    fn file(&mut self, id: u32, weight: u32, cell: FeatureCell, features: FeatureVector) {
        debug_assert!((id as usize) < self.weight.len());
        let own = if self.fess_turns { features.cell() } else { NO_CELL };
        if self.fess_turns && self.seen.insert(cell) {
            self.fresh = Some(cell);
        }
        let heap = self.cells.entry(cell).or_default();
        heap.push(Reverse((weight, Reverse(own), id)));
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
        self.file(start, 0, features.cell(), features);
        None
    }

    /// The next node to expand and the cell it was filed under: the lightest of the
    /// cell whose turn it is. Turns alternate between the most advanced cell (the dive
    /// goes on from the front) and, with `fess-turns`, the next cell of a round (a
    /// cell never seen before first, as FESS points its round at a new cell), else the
    /// least advanced (the search widens near the start, where another first move of a
    /// box may avoid the dead end the dive ran into).
    fn next(&mut self) -> Option<(u32, FeatureCell)> {
        self.to_the_front = !self.to_the_front;
        let first = *self.cells.keys().next()?;
        let key = if self.to_the_front {
            *self.cells.keys().next_back()?
        } else if self.fess_turns {
            let fresh = self.fresh.take().filter(|c| self.cells.contains_key(c));
            let after = |c| self.cells.range((Bound::Excluded(c), Bound::Unbounded)).next();
            let key = fresh
                .or_else(|| self.round.and_then(after).map(|(k, _)| *k))
                .unwrap_or(first);
            self.round = Some(key);
            key
        } else {
            first
        };
        let heap = self.cells.get_mut(&key).expect("a key of the map");
        let Reverse((_, _, id)) = heap.pop().expect("no empty cell is kept");
        if heap.is_empty() {
            self.cells.remove(&key);
        }
        Some((id, key))
    }

    /// Expands up to `budget` push expansions' worth of positions (see
    /// [`EXPANSION_WEIGHT`]), fewer if `stop` says stop; `Some` answer when the search
    /// is over.
    pub fn advance(&mut self, budget: usize, stop: &Stop) -> Option<SearchAnswer> {
        for _ in 0..budget.div_ceil(EXPANSION_WEIGHT) {
            if stop.should_stop() {
                return None;
            }
            let Some((id, cell)) = self.next() else {
                // Pruned positions (corrals) prove nothing: the search gives up.
                return Some(SearchAnswer::Stopped(StopReason::GaveUp));
            };
            if let Some(answer) = self.expand(id, cell, stop) {
                return Some(answer);
            }
        }
        None
    }

    /// Expands node `id`, filed under `cell`: stores every macro move's child that is
    /// not dead, the advisors' at the node's weight, the others one heavier. When
    /// `stop` says stop on the way (an expansion on a board of a thousand boxes takes
    /// seconds), the node waits in its cell again, to be expanded whole later.
    fn expand(&mut self, id: u32, cell: FeatureCell, stop: &Stop) -> Option<SearchAnswer> {
        self.expanded += 1;
        self.graph.enter(id);
        let answer = self.expand_entered(id, cell, stop);
        self.graph.leave();
        answer
    }

    fn expand_entered(&mut self, id: u32, cell: FeatureCell, stop: &Stop) -> Option<SearchAnswer> {
        let (level, analysis) = (self.level, self.analysis);
        if self.strict_corrals && id != 0 {
            let (mask, reach) = (self.graph.mask(), self.graph.region());
            if self.corrals.any_dead_strict(level, analysis, mask, reach, &self.floor) {
                // Dead: it stays stored (a duplicate is still recognised) but has no children.
                return None;
            }
        }
        let boxes = self.graph.boxes().to_vec();
        if let Some(frozen) = &mut self.frozen_goals {
            frozen.expand(level, &analysis.live, self.graph.mask(), &boxes);
        }
        let features = self.features();
        // Every push the player can make from a PI-corral's fence goes into it, so
        // every macro move of those boxes starts with one (JSoko's and YASS's pruning,
        // which Festival's forward search applies to whole boxes, as here).
        let only = if self.pi_corrals {
            let (mask, region) = (self.graph.mask(), self.graph.region());
            (self.corrals).pi_pushes(level, analysis, mask, region, &self.floor)
        } else {
            None
        };
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        let mut stopped = false;
        'boxes: for &b in &boxes {
            if only.as_ref().is_some_and(|o| o.iter().all(|&(c, _)| c != b as Cell)) {
                continue;
            }
            if stop.should_stop() {
                stopped = true;
                break;
            }
            let first = children.len();
            let on_board = (self.graph.mask(), self.graph.region());
            (self.ways).moves((level, &analysis.live), on_board, b as Cell, &mut children, stop);
            // Keep the moves whose child is not dead, with its features.
            let mut k = first;
            while k < children.len() {
                if (k - first).is_multiple_of(64) && stop.should_stop() {
                    stopped = true;
                    break 'boxes;
                }
                let (m, _) = children[k];
                self.graph.make(m.from, m.to);
                let child = (!self.dead(m)).then(|| self.features());
                self.graph.unmake(m.from, m.to);
                match child {
                    Some(features) => {
                        children[k].0.features = features;
                        k += 1;
                    }
                    None => {
                        children.swap_remove(k);
                    }
                }
            }
        }
        if stopped {
            // Filed again, to be expanded whole later.
            self.children = children;
            self.file(id, self.weight[id as usize], cell, features);
            return None;
        }
        let advised = self.advisors(features, &children);
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
            let w = if advised.contains(&Some(i)) { weight } else { weight + 1 };
            self.weight.push(w);
            self.g.push(child_g);
            if self.graph.is_solved(child) {
                answer = Some(SearchAnswer::Plan(self.pushes_to(child)));
                break;
            }
            let filed = self.cell_of_child(cell, m.features);
            self.file(child, w, filed, m.features);
        }
        self.children = children;
        answer
    }

    /// The children the advisors propose, by index (each advisor at most one): the
    /// move that bears out the most steps; the move that joins the most regions; and
    /// where boxes are out of plan, the move that takes the box nearest the zone
    /// farthest from it, neither splitting regions nor undoing steps nor putting more
    /// boxes out of plan (FESS's out-of-plan advisor).
    fn advisors(&self, now: FeatureVector, children: &[(Move, u32)]) -> [Option<usize>; 3] {
        let moves = || children.iter().map(|(m, _)| m).enumerate();
        let pack = (moves())
            .filter(|(_, m)| m.features.packed > now.packed)
            .max_by_key(|(_, m)| (m.features.packed, Reverse(m.pushes)))
            .map(|(i, _)| i);
        let join = (moves())
            .filter(|(_, m)| m.features.regions < now.regions)
            .min_by_key(|(_, m)| (m.features.regions, m.pushes))
            .map(|(i, _)| i);
        let away = (now.out_of_plan > 0)
            .then(|| self.out_of_plan.as_ref()?.away(now.packed as usize))
            .flatten();
        let clear = away.and_then(|away| {
            let no_worse = |f: &FeatureVector| {
                f.packed >= now.packed && f.regions <= now.regions && f.out_of_plan <= now.out_of_plan
            };
            (moves())
                .filter(|(_, m)| no_worse(&m.features))
                .filter(|(_, m)| away[m.from] != UNREACHABLE && away[m.to] > away[m.from])
                .min_by_key(|(_, m)| (away[m.from], Reverse(away[m.to]), m.pushes))
                .map(|(i, _)| i)
        });
        [pack, join, clear]
    }

    /// Whether the child of the entered node after move `m` (made in the graph's
    /// mask) is dead: the static deadlocks, a box frozen off its goal, boxes frozen on
    /// goals that wall another box off from every goal left (or a goal left from every
    /// box), a corral that never opens, or a learned knot.
    fn dead(&mut self, m: Move) -> bool {
        let (level, analysis) = (self.level, self.analysis);
        let mask = self.graph.mask();
        if self.graph.is_dead_after(m.from, m.to)
            || frozen_off_goal(level, mask, &analysis.live, m.to)
        {
            return true;
        }
        // The test by frozen goals reads bits; the corral test fills a region and may
        // search, so it comes after.
        self.graph.move_box(m.from, m.to);
        let (mask, child_boxes) = (self.graph.mask(), self.graph.child_boxes());
        if let Some(frozen) = &mut self.frozen_goals
            && frozen.dead(level, &analysis.live, (mask, child_boxes), m.to)
        {
            return true;
        }
        self.reach.fill(level, mask, m.player);
        if self.corrals.dead(level, analysis, mask, &self.reach, m.to) {
            return true;
        }
        self.knots.dead(level, analysis, (mask, child_boxes), m.player, m.to)
    }

    /// The pushes from the start to node `id`, each macro move's found again on the
    /// position it was made from.
    fn pushes_to(&mut self, id: u32) -> Vec<Push> {
        let level = self.level;
        let never = Stop::never();
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
            // Never cut short: the move must be found again.
            let on_board = (&boxes[..], &reach);
            (self.ways).moves((level, &self.analysis.live), on_board, from, &mut out, &never);
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
    fn answer(level: &Level, analysis: &Analysis, how: (Option<BasePlan>, &Techniques)) -> SearchAnswer {
        let never = Stop::never();
        let limits = (200_000, None);
        let mut search =
            MacroSearch::new(level, analysis, limits, how, &never).expect("never stopped");
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
        let on_board = (level.initial_boxes(), &reach);
        ways.moves((&level, &analysis.live), on_board, b, &mut out, &Stop::never());
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

    #[test]
    fn an_expansion_told_to_stop_stores_nothing_and_waits_to_be_expanded_again() {
        let level = crate::engine::finder::big_open_room();
        let analysis = Analysis::new(&level);
        let never = Stop::never();
        let how = (None, &Techniques::DEFAULT);
        let mut search = MacroSearch::new(&level, &analysis, (1_000_000, None), how, &never)
            .expect("never stopped");
        assert!(search.start().is_none());
        let (id, cell) = search.next().expect("the start waits");
        let past = Stop::new(Some(std::time::Instant::now()));
        assert!(search.expand(id, cell, &past).is_none());
        assert_eq!(search.positions(), 1, "no child stored");
        assert_eq!(search.next(), Some((id, cell)), "the start waits again");
        // One box's moves are cut short too.
        let mut reach = Region::new(&level);
        reach.fill(&level, level.initial_boxes(), level.player());
        let b = level.box_cells().next().unwrap();
        let mut ways = Ways::new(&level);
        let on_board = (level.initial_boxes(), &reach);
        let (mut all, mut cut) = (Vec::new(), Vec::new());
        ways.moves((&level, &analysis.live), on_board, b, &mut all, &never);
        ways.moves((&level, &analysis.live), on_board, b, &mut cut, &past);
        assert!(cut.len() < all.len() / 4, "{} of {}", cut.len(), all.len());
    }

    #[test]
    fn fess_turns_file_under_the_best_ancestor_and_take_turns_with_a_round() {
        let level = parse_xsb("t", "#######\n#@$ . #\n# $ . #\n#######\n")
            .unwrap()
            .remove(0);
        let analysis = Analysis::new(&level);
        let never = Stop::never();
        let how = (None, &Techniques::DEFAULT);
        let mut search =
            MacroSearch::new(&level, &analysis, (1_000, None), how, &never).expect("never stopped");
        let f = |packed, regions| FeatureVector { packed, regions, out_of_plan: 0 };
        // A move that undoes progress stays in its parent's cell; one that makes more
        // goes to its own.
        let parent = f(1, 1).cell();
        assert_eq!(search.cell_of_child(parent, f(0, 3)), parent);
        assert_eq!(search.cell_of_child(parent, f(2, 1)), f(2, 1).cell());
        search.weight = vec![0; 4];
        search.file(0, 0, f(0, 2).cell(), f(0, 2));
        search.file(1, 0, f(1, 1).cell(), f(0, 2));
        search.file(2, 0, f(1, 1).cell(), f(1, 1));
        search.file(3, 0, f(2, 1).cell(), f(2, 1));
        // The front first; then the round, at the cell seen last (the front's, now
        // empty, so the round starts at the least advanced); the front again, where
        // of two nodes of the same weight the one with its own features further on goes
        // first; then the round's next cell.
        let order: Vec<u32> = std::iter::from_fn(|| search.next().map(|(id, _)| id)).collect();
        assert_eq!(order, [3, 0, 2, 1]);
        // Without FESS's selection, a node goes under its own cell, ties by id, and
        // the other turns at the least advanced cell.
        let off = Techniques { fess_turns: false, ..Techniques::DEFAULT };
        let mut search =
            MacroSearch::new(&level, &analysis, (1_000, None), (None, &off), &never).unwrap();
        assert_eq!(search.cell_of_child(parent, f(0, 3)), f(0, 3).cell());
        search.weight = vec![0; 3];
        search.file(0, 0, f(1, 1).cell(), f(0, 2));
        search.file(1, 0, f(1, 1).cell(), f(1, 1));
        search.file(2, 0, f(0, 2).cell(), f(0, 2));
        let order: Vec<u32> = std::iter::from_fn(|| search.next().map(|(id, _)| id)).collect();
        assert_eq!(order, [0, 2, 1]);
    }

    /// On generated boards the macro search's plans replay and are never shorter than
    /// the optimum, it finds none where brute force proves there is none, and it finds
    /// one on most solvable boards (its pruning can make it give up); filed by a plan
    /// with bases, where the backward search finds one, the same holds; each with
    /// neither the out-of-plan feature nor FESS's selection, with the feature, with
    /// both, and with both and the PI-corral rule (the fifth member's search).
    #[test]
    fn macro_plans_replay_and_agree_with_brute_force() {
        let switches = [(false, false, false), (true, false, false), (true, true, false), (true, true, true)];
        let guides = switches.map(|(o, f, pi)| Techniques {
            out_of_plan: o,
            fess_turns: f,
            pi_macros: pi,
            ..Techniques::DEFAULT
        });
        let (mut found, mut solvable, mut refuted) = ([0; 8], [0; 8], 0);
        for index in 0..120 {
            let spec = BoardSpec::class(7, (2, 4), index, 41);
            let level = parse_xsb("t", &random_board(&spec)).unwrap().remove(0);
            let analysis = Analysis::new(&level);
            if analysis.unsolvable.is_some() {
                continue;
            }
            let oracle = shortest_pushes(&level, usize::MAX, 200_000);
            let plan = BasePlan::search(&level, &analysis, 20_000, &Stop::never());
            let mut answers = Vec::new();
            for (i, techniques) in guides.iter().enumerate() {
                answers.push((i, answer(&level, &analysis, (None, techniques))));
                if let Some(plan) = &plan {
                    let how = (Some(plan.clone()), techniques);
                    answers.push((4 + i, answer(&level, &analysis, how)));
                }
            }
            for (kind, answer) in answers {
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
        assert!(solvable[0] >= 50 && refuted >= 10, "{solvable:?} / {refuted}");
        // The backward search finds a plan on most solvable boards.
        assert!(solvable[4] * 10 >= solvable[0] * 8, "{solvable:?}");
        for kind in 0..8 {
            assert!(found[kind] * 10 >= solvable[kind] * 9, "{found:?} of {solvable:?}");
        }
    }
}
