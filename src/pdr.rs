//! Property-directed search over push positions: SAT with memory across steps.
//!
//! The time-indexed encodings give every variable a step, so what the solver learns
//! about a hopeless position at step t does not apply at step t + 1. This search asks
//! the SAT solver about **one push at a time**, on a formula with no steps: a current
//! position, one push, and the next position. What it learns is a *lemma*: a partial
//! position (some cells with a box, some without) that cannot reach the goal within `i`
//! pushes. A lemma holds wherever the position occurs, so it is the memory the
//! time-indexed formula lacks. Lemmas that name a whole position (with the player's
//! region) are kept in a hash table outside the solver, which bars the pushes into
//! them by assumption; the others are clauses. This is the frame structure of
//! property-directed reachability (IC3/PDR), run from the goal's side: frame `F_i` holds
//! the positions that might still reach the goal within `i` pushes.
//!
//! The search is a depth-first descent from the start with bound `k` (the driver's
//! lower bound, then `k + 2`, ...). At a position `s` with `i` pushes left, the solver
//! is asked for a push from `s` to a position in `F_{i-1}`. If there is none, the
//! failed assumptions name the part of `s` that matters, and that part becomes a lemma
//! of frame `i`. Otherwise the search descends into the position found. Each position
//! remembers the pushes the solver has found from it, and when the search meets it
//! again with more pushes left, it descends into those before it asks for more. A
//! position none of whose pushes is left open (each leads where the table, a deadlock
//! pattern or the heuristic already refutes, or cannot be made) is refuted without a
//! question.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::analysis::{Analysis, DeadlockIndex};
use crate::astar::SearchAnswer;
use crate::level::{Cell, Direction, Level};
use crate::pathfind::Region;
use crate::position_table::{PositionTable, Zobrist, is_after_move, is_key_of, key_of};
use crate::sat::{Lit, SatBackend, SolveResult, Term, cnf};

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct PdrLimits {
    /// Plans longer than this many pushes are not looked for.
    pub max_pushes: usize,
    /// Wall-clock time after which the search gives up.
    pub deadline: Option<Instant>,
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdrStats {
    /// Solver calls.
    pub queries: u64,
    /// Descents into pushes the solver had found before, made without asking again.
    pub replayed: u64,
    /// Lemmas learned.
    pub lemmas: u64,
    /// Of the lemmas, those naming a whole position, kept in a table outside the
    /// solver (a lemma that only raises the frame of one there counts again).
    pub whole_lemmas: u64,
    /// Variables of the one-push formula (before frames).
    pub variables: u64,
    /// Clauses of the one-push formula (before frames and lemmas).
    pub clauses: u64,
    /// Variables at the end (with the frame literals).
    pub final_variables: u64,
    /// Clauses at the end (with frames and lemmas).
    pub final_clauses: u64,
}

/// The name reports give this search where they name a SAT solver.
pub const NAME: &str = "pdr";

/// What [`Frames::known_bound`] says of a position refuted for good.
const DEAD: usize = usize::MAX;

/// One push variable: the box on `from` goes to `to`, the player stands on `behind`.
struct PushVar {
    lit: Lit,
    from: Cell,
    dir: Direction,
    to: Cell,
    behind: Cell,
}

/// A position: the box mask, the cells of the boxes that can move (in order) and their
/// Zobrist hash, and a cell of the player's region (the name of the region, its
/// smallest cell, once it is filled).
struct Position {
    boxes: Vec<bool>,
    cells: Vec<Cell>,
    hash: u64,
    player: Cell,
}

/// The search was stopped by the deadline or from outside.
struct Stopped;

/// Whether the deadline has passed or the search was cancelled.
fn stopped(deadline: Option<Instant>, cancel: &AtomicBool) -> bool {
    cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)
}

/// The one-push formula and the lemmas learned so far.
struct Frames<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    solver: Box<dyn SatBackend>,
    /// `box_at(c)` of the current position.
    box_now: Vec<Term>,
    /// `box_at(c)` after the push.
    box_next: Vec<Term>,
    /// The cells whose `box_now` is a variable, with it.
    box_lits: Vec<(Cell, Lit)>,
    /// The goal cells.
    goals: Vec<Cell>,
    /// The cell of each `box_now` variable, for reading cores.
    cell_of: HashMap<u32, Cell>,
    pushes: Vec<PushVar>,
    /// `frame[i]`: the literal that switches on the lemmas of frame `i`.
    frame: Vec<Lit>,
    /// Heuristic per cell and offset (a lower bound on the pushes left).
    potential: Vec<i64>,
    offset: i64,
    /// The matching's goal prices, smallest first (empty without a matching).
    prices: Vec<i64>,
    stats: PdrStats,
    /// Whether the last refutation holds for any number of pushes.
    last_refutation_dead: bool,
    /// The player's region in the position last filled.
    region: Region,
    /// Scratch region for the positions after a push.
    next_region: Region,
    /// Lemmas that name every box of a position, kept out of the solver: the cells of
    /// the boxes, then what else each lemma needs and its frame.
    whole: PositionTable<Vec<WholeLemma>>,
    /// The pushes the solver has found from each position (its box cells and the name
    /// of the player's region), in the order found, with the name of the player's
    /// region after each (so the table's lemmas need no fill to check it).
    found: PositionTable<Vec<(usize, Cell)>>,
    /// The hashes of both tables' keys.
    zobrist: Zobrist,
    /// The deadlock patterns by cell.
    deadlocks: DeadlockIndex,
    /// Regions lent to the positions below the current one (see [`Frames::descend`]).
    pool: Vec<Region>,
    /// The buffers of the visits, by depth.
    buffers: Vec<VisitBuffers>,
    /// Positions to reuse (see [`Frames::position_after`]).
    spare: Vec<Position>,
    /// How many descents deep the search is.
    depth: usize,
    /// A scratch box mask for [`Frames::known_bound`].
    scratch_boxes: Vec<bool>,
}

/// A lemma naming every box of a position (see [`Frames::whole`]).
#[derive(Clone, Copy)]
struct WholeLemma {
    /// A cell the player must be able to reach for the lemma to apply.
    reach: Option<Cell>,
    /// Its frame (`None`: it holds for any number of pushes).
    frame: Option<usize>,
}

impl WholeLemma {
    /// The pushes the positions it matches need at least ([`DEAD`]: any number fails).
    fn bound(&self) -> usize {
        self.frame.map_or(DEAD, |f| f + 1)
    }
}

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
struct Barred {
    /// After these the matching potential is above the pushes left.
    by_potential: Vec<usize>,
    /// Whether the player could make one of `by_potential`.
    by_potential_makeable: bool,
    /// These lead where a table lemma refutes, or into a deadlock pattern; with
    /// whether that holds for good.
    by_table: Vec<(usize, bool)>,
    /// The player cannot get behind these boxes.
    walled: Vec<usize>,
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

/// What an UNSAT query taught about its position.
struct Refutation {
    /// The part of the position the refutation used, on the position after a push.
    cube: Vec<Lit>,
    /// Whether it holds for any number of pushes.
    dead: bool,
    /// Whether the cube names every box (and no empty cell).
    whole: bool,
    /// Whether the cube says the player can reach the position's region.
    player_used: bool,
}

impl<'a> Frames<'a> {
    fn new(
        level: &'a Level,
        analysis: &'a Analysis,
        mut solver: Box<dyn SatBackend>,
    ) -> Frames<'a> {
        let cells = level.cell_count();
        let region = &analysis.region;
        let movable = |c: Cell| region[c] && analysis.live[c];
        let mut box_now = vec![Term::FALSE; cells];
        let mut box_next = vec![Term::FALSE; cells];
        for c in 0..cells {
            if movable(c) {
                box_now[c] = Term::Lit(solver.new_var());
                box_next[c] = Term::Lit(solver.new_var());
            } else {
                // Boxes outside the region never move; dead cells never hold one.
                let fixed = Term::Const(!region[c] && level.has_initial_box(c));
                box_now[c] = fixed;
                box_next[c] = fixed;
            }
        }
        let mut pushes = Vec::new();
        for c in (0..cells).filter(|&c| movable(c)) {
            for dir in Direction::ALL {
                let to = level.neighbor(c, dir);
                let behind = level.neighbor(c, dir.opposite());
                if movable(to) && region[behind] {
                    let lit = solver.new_var();
                    pushes.push(PushVar {
                        lit,
                        from: c,
                        dir,
                        to,
                        behind,
                    });
                }
            }
        }
        let terms: Vec<Term> = pushes.iter().map(|p| Term::Lit(p.lit)).collect();
        // Pairwise, so the many small questions pay for no ladder variables.
        cnf::at_least_one(&mut *solver, &terms);
        cnf::at_most_one_pairwise(&mut *solver, &terms);
        let mut into = vec![Vec::new(); cells];
        let mut out_of = vec![Vec::new(); cells];
        for p in &pushes {
            let to = level.neighbor(p.from, p.dir);
            let push = Term::Lit(p.lit);
            // The box is there and its target is free; afterwards the box has moved.
            // Whether the player can get behind the box is not in the formula: the
            // pushes it cannot make are barred by assumption.
            solver.clause(&[!push, box_now[p.from]]);
            solver.clause(&[!push, !box_now[to]]);
            solver.clause(&[!push, !box_next[p.from]]);
            solver.clause(&[!push, box_next[to]]);
            into[to].push(Term::Lit(p.lit));
            out_of[p.from].push(Term::Lit(p.lit));
        }
        for c in (0..cells).filter(|&c| movable(c)) {
            // A box stays unless pushed away; a box appears only if pushed in.
            let mut stays = vec![!box_now[c], box_next[c]];
            stays.extend(&out_of[c]);
            solver.clause(&stays);
            let mut appears = vec![!box_next[c], box_now[c]];
            appears.extend(&into[c]);
            solver.clause(&appears);
        }
        // Deadlocks no position on the way to the goal holds.
        for block in &analysis.freeze_blocks {
            let clause: Vec<Term> = block.iter().map(|&c| !box_next[c]).collect();
            solver.clause(&clause);
        }
        for (a, b, cost) in analysis.pair_table.pairs() {
            if cost.is_none() {
                solver.clause(&[!box_next[a], !box_next[b]]);
            }
        }
        for t in &analysis.dead_triples {
            solver.clause(&[!box_next[t[0]], !box_next[t[1]], !box_next[t[2]]]);
        }
        let (potential, offset, prices) = match &analysis.matching_potential {
            Some(m) => (
                m.cell.iter().map(|p| p.unwrap_or(0)).collect(),
                m.offset,
                m.prices.clone(),
            ),
            None => (
                (0..cells)
                    .map(|c| analysis.pushes_to_goal[c] as i64)
                    .collect(),
                0,
                Vec::new(),
            ),
        };
        // What each assumption about the current position names, for reading cores.
        let cell_of: HashMap<u32, Cell> = box_now
            .iter()
            .enumerate()
            .filter_map(|(c, t)| t.lit().map(|l| (l.var(), c)))
            .collect();
        Frames {
            level,
            analysis,
            solver,
            box_lits: (0..cells)
                .filter_map(|c| box_now[c].lit().map(|l| (c, l)))
                .collect(),
            goals: level.goal_cells().collect(),
            box_now,
            box_next,
            cell_of,
            pushes,
            frame: Vec::new(),
            potential,
            offset,
            prices,
            stats: PdrStats::default(),
            last_refutation_dead: false,
            region: Region::new(cells),
            next_region: Region::new(cells),
            whole: PositionTable::default(),
            found: PositionTable::default(),
            zobrist: Zobrist::new(cells),
            deadlocks: DeadlockIndex::new(analysis, cells),
            pool: Vec::new(),
            buffers: Vec::new(),
            spare: Vec::new(),
            depth: 0,
            scratch_boxes: Vec::new(),
        }
    }

    /// The literal of frame `i`, created with its fixed lemmas on first use: frame 0 is
    /// the goal, and frame `i` forbids a box on a cell that needs more than `i` pushes.
    fn frame(&mut self, i: usize) -> Lit {
        while self.frame.len() <= i {
            let j = self.frame.len();
            let on = Term::Lit(self.solver.new_var());
            for c in 0..self.level.cell_count() {
                if j == 0 && self.level.is_goal(c) {
                    self.solver.clause(&[!on, self.box_next[c]]);
                } else if self.analysis.region[c] && self.analysis.pushes_to_goal[c] as usize > j {
                    self.solver.clause(&[!on, !self.box_next[c]]);
                }
            }
            if let Some(&below) = self.frame.last() {
                // A lemma of frame j holds in every frame below it, so switching on
                // frame j - 1 switches on frame j (and, by the chain, all above).
                self.solver.clause(&[Term::Lit(!below), on]);
            }
            self.frame.push(on.lit().expect("a variable"));
        }
        self.frame[i]
    }

    /// The cells of the boxes of `boxes` that can move (every position has as many).
    fn box_cells(&self, boxes: &[bool]) -> Vec<Cell> {
        (0..boxes.len())
            .filter(|&c| boxes[c] && self.movable(c))
            .collect()
    }

    /// A lower bound on the pushes that bring the boxes on `cells` (some or all of a
    /// position's) to distinct goals, whatever else is on the board: the larger of
    /// their matching potential (their `φ` and the cheapest goal prices) and their own
    /// distances plus the extra pushes of disjoint pairs among them (pushes of
    /// different boxes are different pushes, so the pairs' extras add up).
    fn bound_of(&self, cells: &[Cell]) -> i64 {
        let distances = &self.analysis.pushes_to_goal;
        let own: i64 = cells.iter().map(|&c| distances[c] as i64).sum();
        let mut pairs = Vec::new();
        for (n, &a) in cells.iter().enumerate() {
            for &b in &cells[n + 1..] {
                let extra = self.analysis.pair_table.extra(a, b, distances);
                if extra > 0 {
                    pairs.push((extra, a, b));
                }
            }
        }
        // Greedy packing: not the best one, but any disjoint set of pairs is a bound.
        pairs.sort_unstable_by(|x, y| y.cmp(x));
        let mut used: Vec<Cell> = Vec::new();
        let mut extra = 0i64;
        for (e, a, b) in pairs {
            if !used.contains(&a) && !used.contains(&b) {
                extra += e as i64;
                used.extend([a, b]);
            }
        }
        let potential = cells.iter().map(|&c| self.potential[c]).sum::<i64>()
            + self.prices.iter().take(cells.len()).sum::<i64>();
        potential.max(own + extra)
    }

    /// Whether the heuristic puts boxes on `cells` more than `left` pushes from the goal.
    fn too_far(&self, cells: &[Cell], left: usize) -> bool {
        self.bound_of(cells) > left as i64
    }

    /// A small set of the boxes on `cells` (a position's) whose bound is still at
    /// least `need` (which the whole position's is), with that bound. Boxes are dropped
    /// greedily, the closest to a goal first. (A part's bound may even exceed the
    /// whole's, as the greedy pair packing is not monotone; both are lower bounds.)
    fn boxes_needing(&self, cells: &[Cell], need: i64) -> (Vec<Cell>, i64) {
        let mut cells = cells.to_vec();
        let mut order = cells.clone();
        order.sort_by_key(|&c| self.analysis.pushes_to_goal[c]);
        let mut bound = self.bound_of(&cells);
        for c in order {
            let without: Vec<Cell> = cells.iter().copied().filter(|&d| d != c).collect();
            let b = self.bound_of(&without);
            if b >= need {
                cells = without;
                bound = b;
            }
        }
        (cells, bound)
    }

    /// The matching potential of the boxes on `cells` (the own distances' sum where
    /// the level has none).
    fn potential_of(&self, cells: &[Cell]) -> i64 {
        self.offset + cells.iter().map(|&c| self.potential[c]).sum::<i64>()
    }

    fn movable(&self, c: Cell) -> bool {
        self.analysis.region[c] && self.analysis.live[c]
    }

    /// The least potential of a position with `count` boxes on movable cells that has a
    /// box wherever `used` says `Some(true)` and none where it says `Some(false)`.
    fn least_potential(&self, used: &[Option<bool>], count: usize) -> i64 {
        let mut fixed = self.offset;
        let mut placed = 0;
        let mut free = Vec::new();
        for c in (0..used.len()).filter(|&c| self.movable(c)) {
            match used[c] {
                Some(true) => {
                    fixed += self.potential[c];
                    placed += 1;
                }
                Some(false) => {}
                None => free.push(self.potential[c]),
            }
        }
        free.sort_unstable();
        fixed + free.iter().take(count.saturating_sub(placed)).sum::<i64>()
    }

    /// Fills the player's region from `from` around `boxes` into `self.region` and
    /// returns its smallest cell.
    fn fill(&mut self, boxes: &[bool], from: Cell) -> Cell {
        self.region.fill(self.level, boxes, from)
    }

    fn is_goal(&self, s: &Position) -> bool {
        self.goals.iter().all(|&g| s.boxes[g])
    }

    /// Searches from `s` for a plan of at most `i` pushes; `self.region` holds the
    /// player's region, and `s.player` is its name.
    fn search(
        &mut self,
        s: &Position,
        i: usize,
        deadline: Option<Instant>,
        cancel: &AtomicBool,
    ) -> Result<Option<Vec<(Cell, Direction)>>, Stopped> {
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
        let result = self.visit(s, i, &mut buffers, deadline, cancel);
        self.buffers[depth] = buffers;
        result
    }

    /// [`Frames::search`] from `s`, neither solved nor out of pushes, with `buffers`.
    fn visit(
        &mut self,
        s: &Position,
        i: usize,
        buffers: &mut VisitBuffers,
        deadline: Option<Instant>,
        cancel: &AtomicBool,
    ) -> Result<Option<Vec<(Cell, Direction)>>, Stopped> {
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
        if let Some(plan) = self.replay_found(s, found, i, deadline, cancel)? {
            return Ok(Some(plan));
        }
        let cells = &s.cells;
        // Assumptions: the position's boxes, then the frame the next position must be
        // in (which switches on the frames above it), then the frame below it off (which
        // switches off the frames below, whose lemmas do not apply: the solver then
        // needs no decisions on them), then the pushes barred.
        assumptions.clear();
        let box_assumptions = self.box_lits.iter();
        assumptions.extend(box_assumptions.map(|&(c, l)| if s.boxes[c] { l } else { !l }));
        assumptions.push(self.frame(i - 1));
        if i >= 2 {
            assumptions.push(!self.frame(i - 2));
        }
        let fixed_assumptions = assumptions.len();
        self.bar_pushes(s, i, found, barred);
        loop {
            if stopped(deadline, cancel) {
                return Err(Stopped);
            }
            assumptions.truncate(fixed_assumptions);
            barred.assume(&self.pushes, assumptions);
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
            match self.solver.solve(assumptions) {
                SolveResult::Unknown => return Err(Stopped),
                SolveResult::Unsat => {
                    let r = self.explain(s, i, barred);
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
                    let n = (0..self.pushes.len())
                        .find(|&n| self.solver.value(self.pushes[n].lit))
                        .expect("exactly one push");
                    let mut next = self.position_after(s, n);
                    if self.too_far(&next.cells, i - 1) {
                        // Too far from the goal for frame i - 1. The boxes that alone
                        // keep the bound above i - 1 make a lemma of the frame below
                        // their bound, true whatever the other cells hold.
                        let (cells, bound) = self.boxes_needing(&next.cells, i as i64);
                        let cube: Vec<Lit> = cells
                            .iter()
                            .filter_map(|&c| self.box_next[c].lit())
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
                    if !all.iter().any(|&(m, _)| m == n) {
                        all.push((n, next.player));
                        found.push((n, next.player));
                    }
                    if let Some(plan) = self.descend(next, n, i, deadline, cancel)? {
                        return Ok(Some(plan));
                    }
                    // What was barred stays barred; the descent may have refuted open
                    // pushes.
                    self.bar_more(barred, s, i, found);
                }
            }
        }
    }

    /// Fills the player's region in `next`, the position after a push, into the pool
    /// region of the next depth, and names it in `next.player`.
    fn enter(&mut self, next: &mut Position) {
        let depth = self.depth;
        if self.pool.len() <= depth {
            self.pool.push(Region::new(self.level.cell_count()));
        }
        next.player = self.pool[depth].fill(self.level, &next.boxes, next.player);
    }

    /// Searches with `i - 1` pushes left from `next`, the position after push `n` from
    /// the one with `i` left ([`Frames::enter`]ed), and puts push `n` in front of the
    /// plan it finds. The search below gets the region of the pool in `self.region`,
    /// and this position's region comes back afterwards, so that it is filled once
    /// however many descents it makes.
    fn descend(
        &mut self,
        next: Position,
        n: usize,
        i: usize,
        deadline: Option<Instant>,
        cancel: &AtomicBool,
    ) -> Result<Option<Vec<(Cell, Direction)>>, Stopped> {
        let (from, dir) = (self.pushes[n].from, self.pushes[n].dir);
        let depth = self.depth;
        std::mem::swap(&mut self.region, &mut self.pool[depth]);
        self.depth += 1;
        let found = self.search(&next, i - 1, deadline, cancel);
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
        deadline: Option<Instant>,
        cancel: &AtomicBool,
    ) -> Result<Option<Vec<(Cell, Direction)>>, Stopped> {
        let potential = self.potential_of(&s.cells);
        for &(n, name) in found {
            if stopped(deadline, cancel) {
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
            if let Some(plan) = self.descend(next, n, i, deadline, cancel)? {
                return Ok(Some(plan));
            }
        }
        Ok(None)
    }

    /// The pushes to bar by assumption when asking about `s` (the player's region in
    /// `self.region`) with `i` pushes left, by reason; `found` names the regions after
    /// some of them.
    fn bar_pushes(&mut self, s: &Position, i: usize, found: &[(usize, Cell)], barred: &mut Barred) {
        let potential = self.potential_of(&s.cells);
        barred.clear();
        for n in 0..self.pushes.len() {
            let p = &self.pushes[n];
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
    /// [`Frames::bar_pushes`]).
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
        let p = &self.pushes[n];
        self.potential[p.to] - self.potential[p.from]
    }

    /// Whether push `n` from `s` completes a deadlock pattern.
    fn completes_deadlock(&self, s: &Position, n: usize) -> bool {
        let (from, to) = (self.pushes[n].from, self.pushes[n].to);
        self.deadlocks.dead_after(
            self.analysis,
            to,
            |c| c == to || (c != from && s.boxes[c]),
            s.cells.iter().copied().filter(|&o| o != from),
        )
    }

    /// After an UNSAT query about `s`: the part of `s` that the refutation used, as
    /// literals on the position after the push (where lemmas are checked).
    /// `self.region` still holds the region of `s`.
    /// Also says whether the refutation used no frame and no push barred by the
    /// potential or by a table lemma with a frame, so the lemma holds whatever the
    /// number of pushes left.
    fn explain(&mut self, s: &Position, i: usize, barred: &Barred) -> Refutation {
        let core = self
            .solver
            .failed_assumptions()
            .map(|c| c.to_vec())
            .unwrap_or_default();
        let in_core: std::collections::HashSet<u32> = core.iter().map(|l| l.var()).collect();
        let mut dead = !self.frame.iter().any(|f| in_core.contains(&f.var()));
        let mut boxes_used = vec![None; s.boxes.len()];
        for l in core {
            if let Some(&c) = self.cell_of.get(&l.var()) {
                boxes_used[c] = Some(s.boxes[c]);
            }
        }
        // A push the player could not make was used: the lemma is about this position
        // with the player in this region, which needs every box (see below).
        let player_used = barred
            .walled
            .iter()
            .any(|&n| in_core.contains(&self.pushes[n].lit.var()));
        // Barred pushes the refutation used: keep enough of the boxes that every
        // position matching the lemma has the potential to bar them too.
        let least_change = barred
            .by_potential
            .iter()
            .filter(|&&n| in_core.contains(&self.pushes[n].lit.var()))
            .map(|&n| self.potential_change(n))
            .min();
        if let Some(change) = least_change {
            dead = false;
            let count = s.cells.len();
            let mut extra: Vec<Cell> = (s.cells.iter().copied())
                .filter(|&c| boxes_used[c].is_none())
                .collect();
            extra.sort_by_key(|&c| std::cmp::Reverse(self.potential[c]));
            let mut extra = extra.into_iter();
            while self.least_potential(&boxes_used, count) + change < i as i64 {
                let c = extra
                    .next()
                    .expect("all boxes give the position's own potential");
                boxes_used[c] = Some(true);
            }
        }
        // Pushes into positions a whole-position lemma refutes: only the same position
        // is sure to lead to the same one.
        let known_used: Vec<bool> = barred
            .by_table
            .iter()
            .filter(|(n, _)| in_core.contains(&self.pushes[*n].lit.var()))
            .map(|&(_, dead)| dead)
            .collect();
        dead &= known_used.iter().all(|&d| d);
        if !known_used.is_empty() || player_used {
            // Only the table can say where the player is (as its region), and the
            // table holds whole positions.
            for &c in &s.cells {
                boxes_used[c] = Some(true);
            }
        }
        // The lemma must not cover a solved position.
        let excludes_goal = self
            .level
            .goal_cells()
            .any(|g| boxes_used[g] == Some(false) || self.box_now[g] == Term::FALSE);
        if !excludes_goal {
            let g = self
                .level
                .goal_cells()
                .find(|&g| !s.boxes[g])
                .expect("s is not solved");
            boxes_used[g] = Some(false);
        }
        // Every position has the same number of boxes, so a cube that names them all
        // says where the others are not: its "no box here" literals add nothing.
        let count = s.cells.len();
        let named = (s.cells.iter())
            .filter(|&&c| boxes_used[c] == Some(true))
            .count();
        if named == count {
            for used in boxes_used.iter_mut() {
                if *used == Some(false) {
                    *used = None;
                }
            }
        }
        let mut cube = Vec::new();
        for (c, used) in boxes_used.into_iter().enumerate() {
            if let (Some(has_box), Term::Lit(l)) = (used, self.box_next[c]) {
                cube.push(if has_box { l } else { !l });
            }
        }
        Refutation {
            cube,
            dead,
            whole: named == count,
            player_used,
        }
    }

    /// Records a whole-position lemma: boxes on `cells` (and nowhere else), the player
    /// able to reach `reach`, cannot reach the goal within `frame` pushes (`None`: ever).
    fn add_whole(&mut self, cells: &[Cell], reach: Option<Cell>, frame: Option<usize>) {
        let new = WholeLemma { reach, frame };
        let hash = self.zobrist.of(cells);
        let lemmas = self.whole.get_or_insert_with(
            hash,
            |k| is_key_of(k, cells, None),
            || key_of(cells, None),
            Vec::new,
        );
        match lemmas.iter_mut().find(|l| l.reach == reach) {
            // A higher frame says more about the same positions.
            Some(l) => {
                if new.bound() > l.bound() {
                    *l = new;
                }
            }
            None => lemmas.push(new),
        }
        self.stats.lemmas += 1;
        self.stats.whole_lemmas += 1;
    }

    /// The box cells after push `n` from the position whose box cells are `cells`.
    fn cells_after(&self, cells: &[Cell], n: usize) -> Vec<Cell> {
        let mut next = Vec::with_capacity(cells.len());
        self.cells_after_into(cells, n, &mut next);
        next
    }

    /// [`Frames::cells_after`] into `next`.
    fn cells_after_into(&self, cells: &[Cell], n: usize, next: &mut Vec<Cell>) {
        let (from, to) = (self.pushes[n].from, self.pushes[n].to);
        next.clear();
        next.extend(cells.iter().map(|&c| if c == from { to } else { c }));
        next.sort_unstable();
    }

    /// The position after push `n` from `s`, with the player where the box was
    /// ([`Frames::enter`] fills and names its region). It reuses a spare position's
    /// buffers: give it back to `self.spare` when done.
    fn position_after(&mut self, s: &Position, n: usize) -> Position {
        let (from, to) = (self.pushes[n].from, self.pushes[n].to);
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
    /// needs: one more than the highest frame that refutes it, [`DEAD`] when one
    /// refutes it for good, 0 when none does. `name`: the name of the player's region
    /// after the push, if known (else a lemma's region is checked by a fill).
    fn known_bound(&mut self, s: &Position, n: usize, name: Option<Cell>) -> usize {
        if self.whole.is_empty() {
            return 0;
        }
        let (from, to) = (self.pushes[n].from, self.pushes[n].to);
        let hash = self.zobrist.moved(s.hash, from, to);
        let Some(lemmas) = (self.whole).get(hash, |k| is_after_move(k, &s.cells, from, to)) else {
            return 0;
        };
        let mut best = 0;
        let mut after_ready = false;
        for l in lemmas {
            let bound = l.bound();
            if bound <= best {
                continue;
            }
            if let (Some(m), Some(name)) = (l.reach, name) {
                if m != name {
                    continue;
                }
            } else if let Some(m) = l.reach {
                let boxes = &mut self.scratch_boxes;
                if !after_ready {
                    boxes.clone_from(&s.boxes);
                    boxes[from] = false;
                    boxes[to] = true;
                    after_ready = true;
                }
                if !self.next_region.reaches(self.level, boxes, from, m) {
                    continue;
                }
            }
            best = bound;
        }
        best
    }

    /// Adds "no position matching `cube` reaches the goal within `i` pushes" to frames
    /// `0..=i` (`None`: ever, to every frame), as a clause on the position after the
    /// push.
    fn add_lemma(&mut self, cube: &[Lit], i: Option<usize>) {
        let mut clause = Vec::with_capacity(cube.len() + 1);
        if let Some(i) = i {
            let on = self.frame(i);
            clause.push(!on);
        }
        // Boxes first: the solver watches the first literals it can, and "no box on c"
        // after a push is false far less often than "a box on c", so such watches are
        // disturbed less.
        clause.extend(cube.iter().filter(|l| l.is_positive()).map(|&l| !l));
        clause.extend(cube.iter().filter(|l| !l.is_positive()).map(|&l| !l));
        self.solver.add_clause(&clause);
        self.stats.lemmas += 1;
    }
}

/// The name of the player's region after push `n`, if `found` has it.
fn name_after(found: &[(usize, Cell)], n: usize) -> Option<Cell> {
    found.iter().find(|&&(m, _)| m == n).map(|&(_, name)| name)
}

/// Searches `level` (without ice; `analysis` is its static analysis) for a push-optimal
/// plan within `limits`, asking `solver` (a fresh one) one push at a time. Bounds are
/// tried from the lower bound up, in steps of 2 where the push parity is known, and the
/// lemmas of one bound carry over to the next. `cancel` stops it from another thread.
pub fn optimal_pushes(
    level: &Level,
    analysis: &Analysis,
    solver: Box<dyn SatBackend>,
    limits: &PdrLimits,
    cancel: &AtomicBool,
) -> (SearchAnswer, PdrStats) {
    if analysis.unsolvable.is_some() {
        return (SearchAnswer::Unsolvable, PdrStats::default());
    }
    let mut frames = Frames::new(level, analysis, solver);
    let size = frames.solver.stats();
    frames.stats.variables = size.variables;
    frames.stats.clauses = size.clauses;
    let boxes = level.initial_boxes().to_vec();
    let player = frames.fill(&boxes, level.player());
    let cells = frames.box_cells(&boxes);
    let start = Position {
        boxes,
        hash: frames.zobrist.of(&cells),
        cells,
        player,
    };
    let step = if analysis.push_parity.is_some() { 2 } else { 1 };
    let mut k = analysis.push_lower_bound;
    let answer = |frames: Frames, answer: SearchAnswer| {
        let size = frames.solver.stats();
        let stats = PdrStats {
            final_variables: size.variables,
            final_clauses: size.clauses,
            ..frames.stats
        };
        (answer, stats)
    };
    while k <= limits.max_pushes {
        frames.last_refutation_dead = false;
        match frames.search(&start, k, limits.deadline, cancel) {
            Err(Stopped) => return answer(frames, SearchAnswer::Stopped(0)),
            Ok(Some(plan)) => return answer(frames, SearchAnswer::Optimal(plan)),
            // The start itself was refuted without any frame: no plan of any length.
            Ok(None) if frames.last_refutation_dead => {
                return answer(frames, SearchAnswer::Unsolvable);
            }
            Ok(None) => k += step,
        }
    }
    answer(frames, SearchAnswer::NoneWithin(limits.max_pushes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::pathfind::plan_from_pushes;
    use crate::sat::VarisatBackend;
    use crate::search::{SearchResult, shortest_pushes};

    /// Two boxes, two goals, room to walk around them.
    const TWO_BOXES: &str = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";

    fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    /// Searches a level text within `max_pushes`, stopped from the start if `cancelled`.
    fn solve(text: &str, max_pushes: usize, cancelled: bool) -> (SearchAnswer, PdrStats) {
        let level = level(text);
        let analysis = Analysis::new(&level);
        let limits = PdrLimits {
            max_pushes,
            deadline: None,
        };
        let solver = Box::new(VarisatBackend::new());
        optimal_pushes(
            &level,
            &analysis,
            solver,
            &limits,
            &AtomicBool::new(cancelled),
        )
    }

    fn run(text: &str, max_pushes: usize) -> SearchAnswer {
        solve(text, max_pushes, false).0
    }

    /// Checks the plan against brute force and the rules engine; returns the counters.
    fn check_optimum(text: &str) -> PdrStats {
        let level = level(text);
        let (SearchAnswer::Optimal(pushes), stats) = solve(text, 60, false) else {
            panic!("no plan for\n{text}");
        };
        assert_eq!(
            shortest_pushes(&level, 60, 1_000_000),
            SearchResult::Optimal(pushes.len()),
            "{text}"
        );
        let plan = plan_from_pushes(&level, &pushes).unwrap();
        assert!(plan.verify(&level).is_ok());
        stats
    }

    #[test]
    fn finds_the_optimum_and_a_replayable_plan() {
        check_optimum(TWO_BOXES);
        // The player starts walled in by two boxes and must push one of them first;
        // lemmas learned there hold only for the player's region.
        check_optimum("########\n#@$ .  #\n#$     #\n#.     #\n########\n");
    }

    #[test]
    fn the_bound_of_a_part_holds_and_stays_at_most_the_optimum() {
        for text in [
            TWO_BOXES,
            "#########\n#.  $ $.#\n#   @   #\n#########\n",
            "########\n#@$ .  #\n#$     #\n#.     #\n########\n",
        ] {
            let level = level(text);
            let analysis = Analysis::new(&level);
            let frames = Frames::new(&level, &analysis, Box::new(VarisatBackend::new()));
            let boxes = level.initial_boxes().to_vec();
            let whole = frames.bound_of(&frames.box_cells(&boxes));
            let SearchResult::Optimal(optimum) = shortest_pushes(&level, 60, 1_000_000) else {
                panic!("solvable: {text}");
            };
            assert!(whole <= optimum as i64, "{text}");
            for need in 0..=whole {
                let (cells, bound) = frames.boxes_needing(&frames.box_cells(&boxes), need);
                assert!(need <= bound && bound <= optimum as i64, "{text}");
                assert_eq!(bound, frames.bound_of(&cells));
            }
            // Needing nothing keeps no box.
            assert!(
                frames
                    .boxes_needing(&frames.box_cells(&boxes), 0)
                    .0
                    .is_empty()
            );
        }
    }

    #[test]
    fn bounds_and_dead_levels() {
        crate::astar::tests::check_bounds_and_dead_levels(&run);
    }

    #[test]
    fn whole_position_lemmas_apply_by_frame_and_player_region() {
        let level = level(TWO_BOXES);
        let analysis = Analysis::new(&level);
        let mut frames = Frames::new(&level, &analysis, Box::new(VarisatBackend::new()));
        let boxes = level.initial_boxes().to_vec();
        let player = frames.fill(&boxes, level.player());
        let cells = frames.box_cells(&boxes);
        let s = Position {
            boxes,
            hash: frames.zobrist.of(&cells),
            cells: cells.clone(),
            player,
        };
        // A push the player can make from the start.
        let n = (0..frames.pushes.len())
            .find(|&n| {
                let p = &frames.pushes[n];
                let to = level.neighbor(p.from, p.dir);
                let behind = level.neighbor(p.from, p.dir.opposite());
                s.boxes[p.from] && !s.boxes[to] && frames.region.contains(behind)
            })
            .expect("the start has a push");
        let to = level.neighbor(frames.pushes[n].from, frames.pushes[n].dir);
        let after = frames.cells_after(&cells, n);
        assert_eq!(frames.known_bound(&s, n, None), 0);
        frames.add_whole(&after, None, Some(3));
        assert_eq!(frames.known_bound(&s, n, None), 4);
        // A lower frame for the same positions says less and changes nothing.
        frames.add_whole(&after, None, Some(2));
        assert_eq!(frames.known_bound(&s, n, None), 4);
        // A lemma for a region the player is not in after the push (the pushed box's
        // cell is never in it) does not apply; one for its own region does.
        frames.add_whole(&after, Some(to), Some(9));
        assert_eq!(frames.known_bound(&s, n, None), 4);
        let next = frames.position_after(&s, n).boxes;
        let region = frames
            .next_region
            .fill(&level, &next, frames.pushes[n].from);
        frames.add_whole(&after, Some(region), Some(5));
        assert_eq!(frames.known_bound(&s, n, None), 6);
        // Given the name of the region after the push, the lemmas are matched by name.
        assert_eq!(frames.known_bound(&s, n, Some(region)), 6);
        assert_eq!(frames.known_bound(&s, n, Some(to)), 10);
        // Other positions are untouched.
        let other = (0..frames.pushes.len())
            .find(|&m| {
                let p = &frames.pushes[m];
                let behind = level.neighbor(p.from, p.dir.opposite());
                s.boxes[p.from]
                    && !s.boxes[level.neighbor(p.from, p.dir)]
                    && frames.region.contains(behind)
                    && frames.cells_after(&cells, m) != after
            })
            .expect("the start has a second push");
        assert_eq!(frames.known_bound(&s, other, None), 0);
        frames.add_whole(&after, None, None);
        assert_eq!(frames.known_bound(&s, n, None), DEAD);
    }

    #[test]
    fn pushes_found_before_are_taken_again_and_keep_the_optimum() {
        // Eight boxes and a lower bound well below the optimum: positions come back at
        // higher bounds, and their pushes are taken again without a question.
        let stats = check_optimum(
            "  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########\n",
        );
        assert!(stats.replayed > 0, "{stats:?}");
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
            let analysis = Analysis::new(level);
            let limits = PdrLimits {
                max_pushes: 200,
                deadline: None,
            };
            let solver = Box::new(VarisatBackend::new());
            let never = AtomicBool::new(false);
            let (SearchAnswer::Optimal(plan), _) =
                optimal_pushes(level, &analysis, solver, &limits, &never)
            else {
                continue;
            };
            let mut frames = Frames::new(level, &analysis, Box::new(VarisatBackend::new()));
            let boxes = level.initial_boxes().to_vec();
            let cells = frames.box_cells(&boxes);
            let mut s = Position {
                boxes,
                hash: frames.zobrist.of(&cells),
                cells,
                player: level.player(),
            };
            let mut barred = Barred::default();
            for (t, &(from, dir)) in plan.iter().enumerate() {
                s.player = frames.fill(&s.boxes, s.player);
                let left = plan.len() - t;
                for i in 1..=left + 2 {
                    frames.bar_pushes(&s, i, &[], &mut barred);
                    if barred.refutes_whole() {
                        assert!(i < left, "refuted with {i} left, {left} needed");
                        by_deadlock += barred.by_table.iter().filter(|b| b.1).count();
                        by_heuristic += barred.by_table.iter().filter(|b| !b.1).count();
                    }
                }
                let n = (0..frames.pushes.len())
                    .find(|&n| frames.pushes[n].from == from && frames.pushes[n].dir == dir)
                    .expect("a push of the plan");
                s = frames.position_after(&s, n);
            }
        }
        assert!(
            by_deadlock > 0 && by_heuristic > 0,
            "{by_deadlock} {by_heuristic}"
        );
    }

    #[test]
    fn a_cancelled_search_stops() {
        assert_eq!(solve(TWO_BOXES, 60, true).0, SearchAnswer::Stopped(0));
    }
}
