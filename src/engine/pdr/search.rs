//! The descent: from a position with `i` pushes left, ask the solver for a push into
//! frame `i − 1`, descend into the position it names, and learn a lemma when there is
//! none. Each position remembers the pushes the solver found from it, and a position
//! whose every push is ruled out is refuted without a question.

use super::PdrStats;
use super::formula::{OnePush, PushVar};
use super::lemmas::{DEAD, WholeLemmas, explain};
use crate::analysis::Analysis;
use crate::engine::Stop;
use crate::engine::push_search::Push;
use crate::engine::table::{PositionTable, Zobrist, is_key_of, key_of};
use crate::game::Region;
use crate::level::{Cell, Level};
use crate::sat::{Lit, SolveResult};

/// The memory each of the two tables may take (so a long search stays well under
/// two gigabytes with a plan finder beside it).
const TABLE_BYTES: usize = 350 << 20;

/// A position: the box mask, the cells of the boxes that can move (in order) and their
/// Zobrist hash, and a cell of the player's region (the name of the region, its
/// smallest cell, once it is filled).
pub(super) struct Position {
    pub boxes: Vec<bool>,
    pub cells: Vec<Cell>,
    pub hash: u64,
    pub player: Cell,
}

/// The search was stopped by the deadline or from outside.
pub(super) struct Stopped;

/// The buffers of one visit, kept per depth so that a visit allocates nothing.
#[derive(Default)]
struct VisitBuffers {
    assumptions: Vec<Lit>,
    /// The pushes found from the position before, with the region names after them.
    found: Vec<(usize, Cell)>,
    barred: Barred,
}

/// The pushes one question bars by assumption, by reason (indices into the pushes).
#[derive(Default)]
pub(super) struct Barred {
    /// After these the matching potential is above the pushes left.
    pub by_potential: Vec<usize>,
    /// Whether the player could make one of `by_potential`.
    by_potential_makeable: bool,
    /// These lead where a table lemma refutes, or into a deadlock pattern; with
    /// whether that holds for good.
    pub by_table: Vec<(usize, bool)>,
    /// The player cannot get behind these boxes.
    pub walled: Vec<usize>,
    /// The pushes the player can make that are not barred.
    open: Vec<usize>,
}

impl Barred {
    /// Whether no push is left open and the refutation is about the whole position
    /// anyway: a push barred by the table, or one the player cannot make from its
    /// region, would name every box. (With only the potential, an UNSAT core may name
    /// fewer boxes, so the solver is asked.)
    fn refutes_whole(&self) -> bool {
        self.open.is_empty() && !(self.by_table.is_empty() && self.walled.is_empty())
    }

    fn clear(&mut self) {
        self.by_potential.clear();
        self.by_potential_makeable = false;
        self.by_table.clear();
        self.walled.clear();
        self.open.clear();
    }

    /// Appends the negations of every barred push to `assumptions`, in the order of
    /// the pushes.
    fn assume(&self, pushes: &[PushVar], assumptions: &mut Vec<Lit>) {
        let start = assumptions.len();
        let barred = (self.by_potential.iter().copied())
            .chain(self.walled.iter().copied())
            .chain(self.by_table.iter().map(|&(n, _)| n));
        assumptions.extend(barred.map(|n| !pushes[n].lit));
        // The push variables were made in the order of the pushes.
        assumptions[start..].sort_unstable_by_key(|l| l.var());
    }
}

/// The search: the formula, what it learned, and its scratch space.
pub(super) struct Search<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    pub formula: OnePush,
    lemmas: WholeLemmas,
    /// The pushes the solver has found from each position (its box cells and the name
    /// of the player's region), in the order found, with the name of the player's
    /// region after each (so the table's lemmas need no fill to check it).
    found: PositionTable<Vec<(usize, Cell)>>,
    /// The hashes of both tables' keys.
    pub zobrist: Zobrist,
    /// The goal cells.
    goals: Vec<Cell>,
    pub stats: PdrStats,
    /// Whether the last refutation holds for any number of pushes.
    pub last_refutation_dead: bool,
    /// The player's region in the position last filled.
    pub region: Region,
    /// Regions lent to the positions below the current one (see [`Search::descend`]).
    pool: Vec<Region>,
    /// The buffers of the visits, by depth.
    buffers: Vec<VisitBuffers>,
    /// Positions to reuse (see [`Search::position_after`]).
    spare: Vec<Position>,
    /// How many descents deep the search is.
    depth: usize,
}

impl<'a> Search<'a> {
    pub fn new(level: &'a Level, analysis: &'a Analysis, formula: OnePush) -> Search<'a> {
        // Each table entry costs about a hundred bytes plus four per box.
        let boxes = level.box_cells().count();
        let limit = TABLE_BYTES / (120 + 4 * boxes);
        Search {
            level,
            analysis,
            formula,
            lemmas: WholeLemmas::new(level, limit),
            found: PositionTable::with_limit(limit),
            zobrist: Zobrist::new(level.cell_count()),
            goals: level.goal_cells().collect(),
            stats: PdrStats::default(),
            last_refutation_dead: false,
            region: Region::new(level),
            pool: Vec::new(),
            buffers: Vec::new(),
            spare: Vec::new(),
            depth: 0,
        }
    }

    /// Whether a table stopped growing (the memory limit).
    pub fn tables_full(&self) -> bool {
        self.lemmas.is_full() || self.found.is_full()
    }

    /// The start position, its region filled into `self.region`.
    pub fn start(&mut self) -> Position {
        let boxes = self.level.initial_boxes().to_vec();
        let player = self.region.fill(self.level, &boxes, self.level.player());
        let cells: Vec<Cell> = (0..boxes.len())
            .filter(|&c| boxes[c] && self.movable(c))
            .collect();
        Position {
            boxes,
            hash: self.zobrist.of(&cells),
            cells,
            player,
        }
    }

    fn movable(&self, c: Cell) -> bool {
        self.analysis.region[c] && self.analysis.live[c]
    }

    /// Whether the heuristic puts boxes on `cells` more than `left` pushes from the goal.
    fn too_far(&self, cells: &[Cell], left: usize) -> bool {
        self.analysis.heuristic.bound_of(self.analysis, cells) > left as i64
    }

    fn is_goal(&self, s: &Position) -> bool {
        self.goals.iter().all(|&g| s.boxes[g])
    }

    /// Searches from `s` for a plan of at most `i` pushes; `self.region` holds the
    /// player's region, and `s.player` is its name.
    pub fn search(
        &mut self,
        s: &Position,
        i: usize,
        stop: &Stop,
    ) -> Result<Option<Vec<Push>>, Stopped> {
        if self.is_goal(s) {
            return Ok(Some(Vec::new()));
        }
        if i == 0 {
            return Ok(None);
        }
        let depth = self.depth;
        if self.buffers.len() <= depth {
            self.buffers.push(VisitBuffers::default());
        }
        let mut buffers = std::mem::take(&mut self.buffers[depth]);
        let result = self.visit(s, i, &mut buffers, stop);
        self.buffers[depth] = buffers;
        result
    }

    /// [`Search::search`] from `s`, neither solved nor out of pushes, with `buffers`.
    fn visit(
        &mut self,
        s: &Position,
        i: usize,
        buffers: &mut VisitBuffers,
        stop: &Stop,
    ) -> Result<Option<Vec<Push>>, Stopped> {
        let VisitBuffers {
            assumptions,
            found,
            barred,
        } = buffers;
        let here = s.player;
        let found_hash = self.zobrist.marked(s.hash, here);
        let is_key = |k: &[u32]| is_key_of(k, &s.cells, Some(here));
        found.clear();
        found.extend(self.found.get(found_hash, is_key).into_iter().flatten());
        if let Some(plan) = self.replay_found(s, found, i, stop)? {
            return Ok(Some(plan));
        }
        let cells = &s.cells;
        // Assumptions: the position's boxes, then the frame the next position must be
        // in (which switches on the frames above it), then the frame below it off (which
        // switches off the frames below, whose lemmas do not apply: the solver then
        // needs no decisions on them), then the pushes barred.
        assumptions.clear();
        let box_assumptions = self.formula.box_lits.iter();
        assumptions.extend(box_assumptions.map(|&(c, l)| if s.boxes[c] { l } else { !l }));
        assumptions.push(self.formula.frame(i - 1));
        if i >= 2 {
            assumptions.push(!self.formula.frame(i - 2));
        }
        let fixed_assumptions = assumptions.len();
        self.bar_pushes(s, i, found, barred);
        if std::env::var_os("SATSOKO_PDR_SAT_ONLY").is_none()
            && let Some(plan) = self.descend_by_rules(s, i, found, barred, stop)?
        {
            return Ok(Some(plan));
        }
        loop {
            if stop.should_stop() {
                return Err(Stopped);
            }
            assumptions.truncate(fixed_assumptions);
            barred.assume(&self.formula.pushes, assumptions);
            if barred.refutes_whole() {
                // Every push leads where a lemma already refutes, or cannot be made
                // from this region: so is this position, with the player in this
                // region, without asking the solver.
                let dead =
                    !barred.by_potential_makeable && barred.by_table.iter().all(|&(_, dead)| dead);
                self.add_whole(cells, Some(here), (!dead).then_some(i));
                self.last_refutation_dead = dead;
                return Ok(None);
            }
            self.stats.queries += 1;
            match self.formula.solver.solve(assumptions) {
                SolveResult::Unknown => return Err(Stopped),
                SolveResult::Unsat => {
                    let r = explain(&self.formula, self.analysis, self.level, s, i, barred);
                    // A refutation that used no frame holds for every number of pushes.
                    let frame = (!r.dead).then_some(i);
                    if r.whole {
                        let reach = r.player_used.then_some(here);
                        self.add_whole(cells, reach, frame);
                    } else {
                        self.add_lemma(&r.cube, frame);
                    }
                    self.last_refutation_dead = r.dead;
                    return Ok(None);
                }
                SolveResult::Sat => {
                    let n = self.formula.push_in_model();
                    let mut next = self.position_after(s, n);
                    if self.too_far(&next.cells, i - 1) {
                        // Too far from the goal for frame i - 1. The boxes that alone
                        // keep the bound above i - 1 make a lemma of the frame below
                        // their bound, true whatever the other cells hold.
                        let heuristic = &self.analysis.heuristic;
                        let (cells, bound) =
                            heuristic.boxes_needing(self.analysis, &next.cells, i as i64);
                        let cube: Vec<Lit> = cells
                            .iter()
                            .filter_map(|&c| self.formula.box_next[c].lit())
                            .collect();
                        self.add_lemma(&cube, Some(bound as usize - 1));
                        self.spare.push(next);
                        continue;
                    }
                    self.enter(&mut next);
                    let all = self.found.get_or_insert_with(
                        found_hash,
                        is_key,
                        || key_of(cells, Some(here)),
                        Vec::new,
                    );
                    // (A full table remembers no more successors: they are asked again.)
                    if let Some(all) = all
                        && !all.iter().any(|&(m, _)| m == n)
                    {
                        all.push((n, next.player));
                        found.push((n, next.player));
                    }
                    if let Some(plan) = self.descend(next, n, i, stop)? {
                        return Ok(Some(plan));
                    }
                    // What was barred stays barred; the descent may have refuted open
                    // pushes.
                    self.bar_more(barred, s, i, found);
                }
            }
        }
    }

    /// Descends from `s` with `i` pushes left into the successors the rules list: the
    /// open pushes of `barred`, most promising first, skipping those that complete a
    /// deadlock or lead too far. Listing them needs no SAT question; the solver is
    /// asked afterwards only about what is left open, where its answer is a lemma.
    fn descend_by_rules(
        &mut self,
        s: &Position,
        i: usize,
        found: &[(usize, Cell)],
        barred: &mut Barred,
        stop: &Stop,
    ) -> Result<Option<Vec<Push>>, Stopped> {
        let mut tried: Vec<usize> = Vec::new();
        loop {
            if stop.should_stop() {
                return Err(Stopped);
            }
            let next_push = (barred.open.iter().copied())
                .filter(|n| !tried.contains(n))
                .min_by_key(|&n| self.potential_change(n));
            let Some(n) = next_push else {
                return Ok(None);
            };
            tried.push(n);
            if self.completes_deadlock(s, n) {
                continue;
            }
            let mut next = self.position_after(s, n);
            if self.too_far(&next.cells, i - 1) {
                self.spare.push(next);
                continue;
            }
            self.enter(&mut next);
            self.stats.replayed += 1;
            if let Some(plan) = self.descend(next, n, i, stop)? {
                return Ok(Some(plan));
            }
            self.bar_more(barred, s, i, found);
        }
    }

    /// Fills the player's region in `next`, the position after a push, into the pool
    /// region of the next depth, and names it in `next.player`.
    fn enter(&mut self, next: &mut Position) {
        let depth = self.depth;
        if self.pool.len() <= depth {
            self.pool.push(Region::new(self.level));
        }
        next.player = self.pool[depth].fill(self.level, &next.boxes, next.player);
    }

    /// Searches with `i - 1` pushes left from `next`, the position after push `n` from
    /// the one with `i` left ([`Search::enter`]ed), and puts push `n` in front of the
    /// plan it finds. The search below gets the region of the pool in `self.region`,
    /// and this position's region comes back afterwards, so that it is filled once
    /// however many descents it makes.
    fn descend(
        &mut self,
        next: Position,
        n: usize,
        i: usize,
        stop: &Stop,
    ) -> Result<Option<Vec<Push>>, Stopped> {
        let (from, dir) = (self.formula.pushes[n].from, self.formula.pushes[n].dir);
        let depth = self.depth;
        std::mem::swap(&mut self.region, &mut self.pool[depth]);
        self.depth += 1;
        let found = self.search(&next, i - 1, stop);
        self.depth -= 1;
        std::mem::swap(&mut self.region, &mut self.pool[depth]);
        self.spare.push(next);
        Ok(found?.map(|mut plan| {
            plan.insert(0, (from, dir));
            plan
        }))
    }

    /// Descends from `s` with `i` pushes left into the successors the solver `found`
    /// from it before (with their region names), at a lower bound or with fewer pushes
    /// left, without asking again; skips those the potential, the table or the
    /// heuristic now rule out. The question that follows bars the ones refuted here,
    /// so the solver is asked only for pushes it has not found yet.
    fn replay_found(
        &mut self,
        s: &Position,
        found: &[(usize, Cell)],
        i: usize,
        stop: &Stop,
    ) -> Result<Option<Vec<Push>>, Stopped> {
        let potential = self.analysis.heuristic.potential(s.cells.iter().copied());
        for &(n, name) in found {
            if stop.should_stop() {
                return Err(Stopped);
            }
            if potential + self.potential_change(n) > i as i64 - 1
                || self.known_bound(s, n, Some(name)) >= i
            {
                continue;
            }
            let mut next = self.position_after(s, n);
            if self.too_far(&next.cells, i - 1) {
                self.spare.push(next);
                continue;
            }
            self.enter(&mut next);
            debug_assert_eq!(next.player, name);
            self.stats.replayed += 1;
            if let Some(plan) = self.descend(next, n, i, stop)? {
                return Ok(Some(plan));
            }
        }
        Ok(None)
    }

    /// The pushes to bar by assumption when asking about `s` (the player's region in
    /// `self.region`) with `i` pushes left, by reason; `found` names the regions after
    /// some of them.
    pub fn bar_pushes(
        &mut self,
        s: &Position,
        i: usize,
        found: &[(usize, Cell)],
        barred: &mut Barred,
    ) {
        let potential = self.analysis.heuristic.potential(s.cells.iter().copied());
        barred.clear();
        for n in 0..self.formula.pushes.len() {
            let p = &self.formula.pushes[n];
            if !s.boxes[p.from] || s.boxes[p.to] {
                continue; // the formula itself rules it out
            }
            let makeable = self.region.contains(p.behind);
            if potential + self.potential_change(n) > i as i64 - 1 {
                // The potential alone says more than i - 1 pushes are left: this saves
                // a question.
                barred.by_potential.push(n);
                barred.by_potential_makeable |= makeable;
            } else if !makeable {
                barred.walled.push(n);
            } else {
                let known = self.known_bound(s, n, name_after(found, n));
                if known >= i {
                    barred.by_table.push((n, known == DEAD));
                } else {
                    barred.open.push(n);
                }
            }
        }
        self.bar_if_all_ruled_out(barred, s, i);
    }

    /// Moves the pushes of `barred.open` that the table now refutes to
    /// `barred.by_table` (after a descent from `s` with `i` left; `found` as for
    /// [`Search::bar_pushes`]).
    fn bar_more(&mut self, barred: &mut Barred, s: &Position, i: usize, found: &[(usize, Cell)]) {
        let mut open = std::mem::take(&mut barred.open);
        open.retain(|&n| {
            let known = self.known_bound(s, n, name_after(found, n));
            if known >= i {
                barred.by_table.push((n, known == DEAD));
            }
            known < i
        });
        barred.open = open;
        self.bar_if_all_ruled_out(barred, s, i);
    }

    /// When every open push completes a deadlock pattern (a lemma that holds for good)
    /// or leads where the heuristic needs more than the `i - 1` pushes left after it,
    /// bars them too, so the position is refuted without a question. Otherwise the
    /// solver's deadlock clauses and heuristic lemmas deal with them.
    fn bar_if_all_ruled_out(&self, barred: &mut Barred, s: &Position, i: usize) {
        if barred.open.is_empty() {
            return;
        }
        let before = barred.by_table.len();
        for &n in &barred.open {
            if self.completes_deadlock(s, n) {
                barred.by_table.push((n, true));
            } else if self.too_far(&self.cells_after(&s.cells, n), i - 1) {
                barred.by_table.push((n, false));
            } else {
                barred.by_table.truncate(before);
                return;
            }
        }
        barred.open.clear();
    }

    /// How much push `n` changes the matching potential.
    fn potential_change(&self, n: usize) -> i64 {
        let p = &self.formula.pushes[n];
        self.analysis.heuristic.change(p.from, p.to)
    }

    /// Whether push `n` from `s` completes a deadlock pattern.
    fn completes_deadlock(&self, s: &Position, n: usize) -> bool {
        let (from, to) = (self.formula.pushes[n].from, self.formula.pushes[n].to);
        self.analysis.deadlocks.dead_after(
            &self.analysis.pair_table,
            to,
            |c| c == to || (c != from && s.boxes[c]),
            s.cells.iter().copied().filter(|&o| o != from),
        )
    }

    /// The box cells after push `n` from the position whose box cells are `cells`.
    fn cells_after(&self, cells: &[Cell], n: usize) -> Vec<Cell> {
        let mut next = Vec::with_capacity(cells.len());
        self.cells_after_into(cells, n, &mut next);
        next
    }

    /// [`Search::cells_after`] into `next`.
    fn cells_after_into(&self, cells: &[Cell], n: usize, next: &mut Vec<Cell>) {
        let (from, to) = (self.formula.pushes[n].from, self.formula.pushes[n].to);
        next.clear();
        next.extend(cells.iter().map(|&c| if c == from { to } else { c }));
        next.sort_unstable();
    }

    /// The position after push `n` from `s`, with the player where the box was
    /// ([`Search::enter`] fills and names its region). It reuses a spare position's
    /// buffers: give it back to `self.spare` when done.
    pub fn position_after(&mut self, s: &Position, n: usize) -> Position {
        let (from, to) = (self.formula.pushes[n].from, self.formula.pushes[n].to);
        let mut next = self.spare.pop().unwrap_or(Position {
            boxes: Vec::new(),
            cells: Vec::new(),
            hash: 0,
            player: 0,
        });
        next.boxes.clone_from(&s.boxes);
        next.boxes[from] = false;
        next.boxes[to] = true;
        self.cells_after_into(&s.cells, n, &mut next.cells);
        next.hash = self.zobrist.moved(s.hash, from, to);
        next.player = from;
        next
    }

    /// The most pushes whole-position lemmas say the position after push `n` from `s`
    /// needs (see [`WholeLemmas::known_bound`]).
    fn known_bound(&mut self, s: &Position, n: usize, name: Option<Cell>) -> usize {
        let (from, to) = (self.formula.pushes[n].from, self.formula.pushes[n].to);
        let hash = self.zobrist.moved(s.hash, from, to);
        (self.lemmas).known_bound(self.level, s, (from, to), hash, name)
    }

    /// How many box configurations the whole-position lemmas name.
    pub fn whole_count(&self) -> usize {
        self.lemmas.len()
    }

    /// The convergence check: whether the positions the whole-position lemmas refute
    /// form an inductive invariant that holds the start. Every push the rules allow
    /// from each of them (from every player region a lemma covers) must complete a
    /// deadlock pattern or lead to a position a lemma refutes again; lemmas that hold
    /// for any number of pushes need no check. The refuted positions are never goals,
    /// so when this holds no plan exists, however the lemmas were found. `None` when
    /// stopped.
    pub fn refutations_closed(&mut self, start: &Position, stop: &Stop) -> Option<bool> {
        if self.lemmas.is_full() {
            return Some(false);
        }
        let fixed: Vec<Cell> = (0..start.boxes.len())
            .filter(|&c| start.boxes[c] && !start.cells.contains(&c))
            .collect();
        let mut fill = Region::new(self.level);
        let mut probe = Position {
            boxes: vec![false; start.boxes.len()],
            cells: Vec::new(),
            hash: 0,
            player: 0,
        };
        // The start: refuted with its own region.
        let lemmas = self.lemmas.all();
        let start_known = lemmas.iter().any(|(cells, reach, _)| {
            *cells == start.cells
                && reach.is_none_or(|m| fill.reaches(self.level, &start.boxes, start.player, m))
        });
        if !start_known {
            return Some(false);
        }
        for (cells, reach, dead) in lemmas {
            if dead {
                continue;
            }
            if stop.should_stop() {
                return None;
            }
            probe.boxes.fill(false);
            for &c in fixed.iter().chain(&cells) {
                probe.boxes[c] = true;
            }
            probe.hash = self.zobrist.of(&cells);
            probe.cells = cells;
            // The regions the lemma covers: the one holding its cell, or every one.
            let starts: Vec<Cell> = match reach {
                Some(m) => vec![m],
                None => (0..probe.boxes.len())
                    .filter(|&c| self.analysis.region[c] && !probe.boxes[c])
                    .collect(),
            };
            let mut covered = vec![false; probe.boxes.len()];
            for from in starts {
                if covered[from] {
                    continue;
                }
                fill.fill(self.level, &probe.boxes, from);
                for (c, seen) in covered.iter_mut().enumerate() {
                    *seen |= fill.contains(c);
                }
                for n in 0..self.formula.pushes.len() {
                    let push = &self.formula.pushes[n];
                    let behind = self.level.neighbor(push.from, push.dir.opposite());
                    if !probe.boxes[push.from] || probe.boxes[push.to] || !fill.contains(behind) {
                        continue;
                    }
                    if self.completes_deadlock(&probe, n) {
                        continue;
                    }
                    if self.known_bound(&probe, n, None) == 0 {
                        return Some(false);
                    }
                }
            }
        }
        Some(true)
    }

    /// Records a whole-position lemma (see [`WholeLemmas::add`]).
    fn add_whole(&mut self, cells: &[Cell], reach: Option<Cell>, frame: Option<usize>) {
        let hash = self.zobrist.of(cells);
        self.lemmas.add(hash, cells, reach, frame);
        self.stats.lemmas += 1;
        self.stats.whole_lemmas += 1;
    }

    /// Adds a partial lemma to the formula (see [`OnePush::add_lemma`]).
    fn add_lemma(&mut self, cube: &[Lit], frame: Option<usize>) {
        self.formula.add_lemma(cube, frame);
        self.stats.lemmas += 1;
    }
}

/// The name of the player's region after push `n`, if `found` has it.
fn name_after(found: &[(usize, Cell)], n: usize) -> Option<Cell> {
    found.iter().find(|&&(m, _)| m == n).map(|&(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{TWO_BOXES, level, search_level};
    use super::*;
    use crate::engine::push_search::SearchAnswer;
    use crate::level::parse_xsb;
    use crate::sat::VarisatBackend;

    fn search_of<'a>(level: &'a Level, analysis: &'a Analysis) -> Search<'a> {
        let formula = OnePush::new(level, analysis, Box::new(VarisatBackend::new()));
        Search::new(level, analysis, formula)
    }

    /// A push of the start position the player can make, other than `not`'s result.
    fn makeable_push(search: &Search, s: &Position, not: Option<&[Cell]>) -> usize {
        (0..search.formula.pushes.len())
            .find(|&n| {
                let p = &search.formula.pushes[n];
                s.boxes[p.from]
                    && !s.boxes[p.to]
                    && search.region.contains(p.behind)
                    && not.is_none_or(|after| search.cells_after(&s.cells, n) != after)
            })
            .expect("the start has such a push")
    }

    #[test]
    fn whole_position_lemmas_apply_by_frame_and_player_region() {
        let level = level(TWO_BOXES);
        let analysis = Analysis::new(&level);
        let mut search = search_of(&level, &analysis);
        let s = search.start();
        let n = makeable_push(&search, &s, None);
        let to = search.formula.pushes[n].to;
        let after = search.cells_after(&s.cells, n);
        assert_eq!(search.known_bound(&s, n, None), 0);
        search.add_whole(&after, None, Some(3));
        assert_eq!(search.known_bound(&s, n, None), 4);
        // A lower frame for the same positions says less and changes nothing.
        search.add_whole(&after, None, Some(2));
        assert_eq!(search.known_bound(&s, n, None), 4);
        // A lemma for a region the player is not in after the push (the pushed box's
        // cell is never in it) does not apply; one for its own region does.
        search.add_whole(&after, Some(to), Some(9));
        assert_eq!(search.known_bound(&s, n, None), 4);
        let next = search.position_after(&s, n).boxes;
        let region = Region::new(&level).fill(&level, &next, search.formula.pushes[n].from);
        search.add_whole(&after, Some(region), Some(5));
        assert_eq!(search.known_bound(&s, n, None), 6);
        // Given the name of the region after the push, the lemmas are matched by name.
        assert_eq!(search.known_bound(&s, n, Some(region)), 6);
        assert_eq!(search.known_bound(&s, n, Some(to)), 10);
        // Other positions are untouched.
        let other = makeable_push(&search, &s, Some(&after));
        assert_eq!(search.known_bound(&s, other, None), 0);
        search.add_whole(&after, None, None);
        assert_eq!(search.known_bound(&s, n, None), DEAD);
    }

    #[test]
    fn positions_refuted_without_a_question_need_more_pushes() {
        // Along optimal plans of the first Microban levels, a position `d` pushes from
        // the goal is refuted without a question (every push ruled out by a deadlock
        // pattern or the heuristic; the table is empty) only with fewer than `d` left.
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
                .unwrap();
        let (mut by_deadlock, mut by_heuristic) = (0, 0);
        for level in parse_xsb("microban.xsb", &text).unwrap().iter().take(40) {
            let (SearchAnswer::Plan(plan), _) = search_level(level, 200, &Stop::never()) else {
                continue;
            };
            let analysis = Analysis::new(level);
            let mut search = search_of(level, &analysis);
            let mut s = search.start();
            let mut barred = Barred::default();
            for (t, &(from, dir)) in plan.iter().enumerate() {
                s.player = search.region.fill(level, &s.boxes, s.player);
                let left = plan.len() - t;
                for i in 1..=left + 2 {
                    search.bar_pushes(&s, i, &[], &mut barred);
                    if barred.refutes_whole() {
                        assert!(i < left, "refuted with {i} left, {left} needed");
                        by_deadlock += barred.by_table.iter().filter(|b| b.1).count();
                        by_heuristic += barred.by_table.iter().filter(|b| !b.1).count();
                    }
                }
                let pushes = &search.formula.pushes;
                let n = (0..pushes.len())
                    .find(|&n| pushes[n].from == from && pushes[n].dir == dir)
                    .expect("a push of the plan");
                s = search.position_after(&s, n);
            }
        }
        assert!(
            by_deadlock > 0 && by_heuristic > 0,
            "{by_deadlock} {by_heuristic}"
        );
    }
}
