//! The search: positions in A*'s order, each stored once, its pushes listed by the
//! rules; a position all of whose pushes are ruled out is refuted for good, and the
//! solver turns that refutation into a lemma over part of the position.

use super::PdrStats;
use super::formula::OnePush;
use super::lemmas::{Lemmas, explain};
use crate::analysis::{Analysis, frozen_off_goal};
use crate::engine::push_search::arena::{RESERVE_AT, reserve_total};
use crate::engine::push_search::{Buckets, Child, PushGraph, SearchAnswer, Step};
use crate::engine::{Incumbent, Status, Stop, StopReason};
use crate::game::PushMove;
use crate::level::{Cell, Level};
use crate::sat::{Lit, SolveResult};

/// A node refuted for good: no plan passes through it.
const DEAD: u8 = 2;

/// Questions are judged in windows of this many.
const WINDOW: u64 = 256;

/// What one question costs, in positions a lemma must rule out to pay for it (a
/// question takes about as long as expanding this many positions).
const QUESTION_COST: u64 = 8;

/// Why a push listed by the rules is not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ruled {
    /// Open: its position is stored (or waits to be).
    Open,
    /// Into a dead square, a deadlock pattern or a lemma: the formula rules it out
    /// itself.
    ByFormula,
    /// By a fact the formula does not state (a frozen box, a position refuted as a
    /// whole, a lemma naming cells the player cannot reach): barred by assumption in
    /// a question.
    ByRules,
}

/// A push [`Search::judge`] rules out: why, and whether a lemma did it (what the
/// question windows weigh against their cost).
struct RuledOut {
    why: Ruled,
    by_lemma: bool,
}

impl RuledOut {
    /// Ruled out by a static fact.
    fn by(why: Ruled) -> RuledOut {
        RuledOut {
            why,
            by_lemma: false,
        }
    }

    /// Ruled out by a lemma; one naming cells the player cannot reach rules it out by
    /// the rules, since the formula cannot state where the player walks after a push.
    fn by_lemma(says_reach: bool) -> RuledOut {
        RuledOut {
            why: if says_reach {
                Ruled::ByRules
            } else {
                Ruled::ByFormula
            },
            by_lemma: true,
        }
    }
}

/// The limits of one search.
pub(super) struct Limits {
    /// Plans longer than this many pushes are not looked for (`None`: no bound).
    pub max_pushes: Option<usize>,
    /// Positions stored before the search gives up.
    pub max_positions: usize,
    /// Lemmas kept at most.
    pub max_lemmas: usize,
}

/// The search and everything it stores.
pub(super) struct Search<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    /// The one-push formula (`None`: no questions, for measurements).
    pub formula: Option<OnePush>,
    lemmas: Lemmas,
    graph: PushGraph<'a>,
    /// Per node: the pushes on the best way found to it, its bound, its flags.
    g: Vec<u32>,
    h: Vec<u32>,
    flags: Vec<u8>,
    queue: Buckets,
    /// The pushes of the node being expanded.
    pushes: Vec<PushMove>,
    /// The position as a bit set, for matching lemmas, and the bits of the boxes that
    /// never move.
    bits: Vec<u64>,
    fixed_bits: Vec<u64>,
    limits: Limits,
    /// Whether a position was cut off by the user's bound.
    cut_by_bound: bool,
    /// The queue value the node being expanded was taken off at: a child whose value
    /// is higher is not stored yet (see [`Search::expand`]).
    expanding_at: u32,
    /// The least value of the children of the node being expanded that were not
    /// stored for now.
    deferred: Option<u32>,
    /// Whether the node being expanded was expanded before (its queue value is above
    /// its own): every child of a lower value than `expanding_at` was stored or ruled
    /// out then.
    expanded_before: bool,
    /// When questions pay: see [`Asking`].
    asking: Asking,
    pub stats: PdrStats,
}

/// Whether the solver is asked about each refutation. A question is worth its cost
/// when its lemmas rule out positions the search would otherwise store and expand:
/// questions are asked in windows, and a window whose lemmas ruled out fewer than
/// [`QUESTION_COST`] positions per question pauses the questions for twice as many
/// refutations as the last pause (so on levels whose deadlocks the static analysis
/// already knows, the solver soon falls silent, and where its lemmas pay it keeps
/// talking).
#[derive(Default)]
struct Asking {
    /// Questions and positions ruled out by lemmas in this window.
    questions: u64,
    ruled_out: u64,
    /// No questions until this many refutations; the length of the last pause.
    paused_until: u64,
    pause: u64,
}

impl Asking {
    /// Whether to ask about the `refuted`-th refutation. A window starts afresh when a
    /// pause ends: what the old lemmas ruled out meanwhile is no measure of new ones.
    fn now(&mut self, refuted: u64) -> bool {
        if refuted < self.paused_until {
            return false;
        }
        if refuted == self.paused_until && self.pause > 0 {
            self.ruled_out = 0;
        }
        true
    }

    /// Counts a question (at the `refuted`-th refutation), and judges the window
    /// when it is full.
    fn asked(&mut self, refuted: u64) {
        self.questions += 1;
        if self.questions < WINDOW {
            return;
        }
        if self.ruled_out < QUESTION_COST * self.questions {
            self.pause = (self.pause * 2).max(4 * WINDOW);
            self.paused_until = refuted + self.pause;
        } else {
            self.pause = 0;
        }
        self.questions = 0;
        self.ruled_out = 0;
    }
}

impl<'a> Search<'a> {
    pub fn new(
        level: &'a Level,
        analysis: &'a Analysis,
        formula: Option<OnePush>,
        limits: Limits,
    ) -> Search<'a> {
        let cells = level.cell_count();
        let n = level.box_cells().filter(|&c| analysis.region[c]).count();
        Search {
            level,
            analysis,
            formula,
            lemmas: Lemmas::new(n, cells, limits.max_lemmas),
            graph: PushGraph::new(level, analysis),
            g: Vec::new(),
            h: Vec::new(),
            flags: Vec::new(),
            queue: Buckets::new(),
            pushes: Vec::new(),
            bits: Vec::new(),
            fixed_bits: {
                let mut bits = vec![0u64; cells.div_ceil(64)];
                let fixed = (0..cells).filter(|&c| level.has_initial_box(c) && !analysis.region[c]);
                for c in fixed {
                    bits[c / 64] |= 1 << (c % 64);
                }
                bits
            },
            limits,
            cut_by_bound: false,
            expanding_at: 0,
            deferred: None,
            expanded_before: false,
            asking: Asking::default(),
            stats: PdrStats::default(),
        }
    }

    /// Lets the search store `more` positions beyond its limit.
    pub fn grant(&mut self, more: usize) {
        self.limits.max_positions += more;
        if self.graph.len() >= RESERVE_AT {
            self.reserve();
        }
    }

    /// Makes room for the positions the search may store, so that no array doubles
    /// on the way (a doubling holds both copies for a moment).
    fn reserve(&mut self) {
        let total = self.limits.max_positions;
        self.graph.arena_mut().reserve(total);
        reserve_total(&mut self.g, total);
        reserve_total(&mut self.h, total);
        reserve_total(&mut self.flags, total);
    }

    /// Whether a store stopped growing (the memory limit of the lemmas).
    pub fn tables_full(&self) -> bool {
        self.lemmas.is_full()
    }

    /// Positions stored.
    pub fn positions(&self) -> usize {
        self.graph.len()
    }

    /// Searches for a push-optimal plan, raising the proven lower bound on `board` as
    /// the bounds taken off the queue rise.
    pub fn run(&mut self, stop: &Stop, board: &Incumbent) -> SearchAnswer {
        if self.graph.is_empty() {
            self.start();
        }
        // The clock is read before every position is taken off (so that a stopped
        // search can go on): on a big board one expansion makes hundreds of children,
        // each with its region to fill, and takes milliseconds.
        let mut shown = board.status().bound.unwrap_or(0);
        loop {
            if stop.should_stop() {
                return SearchAnswer::Stopped(StopReason::Time);
            }
            let Some((f, g, id)) = self.queue.pop() else {
                break;
            };
            if self.g[id as usize] != g || self.flags[id as usize] & DEAD != 0 {
                continue; // reached again by a shorter way, or refuted since
            }
            // Every plan passes through a queued position, whose bound is at most its
            // length; a plan on the board caps what is worth proving.
            let proved = board.upper().map_or(f as usize, |u| u.min(f as usize));
            if proved > board.lower() {
                board.raise_lower(proved);
                if board.closed() {
                    return SearchAnswer::Stopped(StopReason::Closed);
                }
            }
            if f as usize > shown {
                shown = f as usize;
                board.set_status(Status {
                    bound: Some(shown),
                    formula: None,
                });
            }
            if self.graph.is_solved(id) {
                return SearchAnswer::Plan(self.graph.arena().pushes_to(self.level, id));
            }
            self.stats.expanded += 1;
            if let Err(answer) = self.expand(id, f, board) {
                // Out of memory part way through its pushes: the position waits
                // again, so that a search granted more memory expands it in full
                // (the children it stored are found again).
                self.queue.push(f, g, id);
                return answer;
            }
            if self.start_refuted() {
                break;
            }
        }
        if let Some(u) = board.upper() {
            // Everything shorter than the plan on the board has been ruled out.
            board.raise_lower(u);
            if board.closed() {
                return SearchAnswer::Stopped(StopReason::Closed);
            }
        }
        match (self.cut_by_bound, self.limits.max_pushes) {
            (true, Some(bound)) if !self.start_refuted() => SearchAnswer::NoneWithin(bound),
            _ => SearchAnswer::Unsolvable(
                "pdr ran out of positions: every sequence of pushes from the start runs \
                 into a deadlock or a refuted position"
                    .to_string(),
            ),
        }
    }

    /// Stores the start position, queued at its full bound (see
    /// [`Search::child_bound`]), unless that passes the user's bound.
    fn start(&mut self) {
        let start = self.graph.add_start();
        let cells: Vec<Cell> = (self.graph.arena().box_cells(start))
            .map(|b| b as Cell)
            .collect();
        self.graph.leave();
        let heuristic = &self.analysis.heuristic;
        let h = heuristic.left(0, heuristic.bound_of(self.analysis, &cells));
        self.g.push(0);
        self.h.push(h);
        self.flags.push(0);
        self.requeue(h, 0, start);
    }

    /// Whether a position of queue value `f` lies only on plans longer than the
    /// user's bound.
    fn beyond_bound(&self, f: u32) -> bool {
        self.limits.max_pushes.is_some_and(|m| f as usize > m)
    }

    /// Queues stored node `id` again at value `f` (`g` pushes from the start), unless
    /// only plans longer than the user's bound pass through it.
    fn requeue(&mut self, f: u32, g: u32, id: u32) {
        if self.beyond_bound(f) {
            self.cut_by_bound = true;
        } else {
            self.queue.push(f, g, id);
        }
    }

    /// Whether the start position itself is refuted: nothing can lead anywhere.
    fn start_refuted(&self) -> bool {
        self.flags[0] & DEAD != 0
    }

    /// Stores and queues the positions one push from node `id`, taken off the queue at
    /// value `f`; refutes it for good if every push is ruled out.
    ///
    /// A child whose value is above `f` is not stored yet (partial expansion): most
    /// children lie a layer or more above their parent, and the search may prove its
    /// bound, or stop, before it reaches them. The node is queued again at the least
    /// such value instead, and stores them when it is taken off there. Every plan
    /// through a child not stored passes through its parent, queued at most at the
    /// child's value, so the least value queued stays a lower bound on the optimum.
    fn expand(&mut self, id: u32, f: u32, board: &Incumbent) -> Result<(), SearchAnswer> {
        self.graph.enter(id);
        let mut pushes = std::mem::take(&mut self.pushes);
        self.graph.pushes(&mut pushes);
        let g = self.g[id as usize] + 1;
        (self.expanding_at, self.deferred) = (f, None);
        self.expanded_before = f > self.g[id as usize] + self.h[id as usize];
        let mut open = false;
        let mut ruled = Vec::with_capacity(pushes.len());
        for p in &pushes {
            self.graph.make(p.from, p.to);
            let child = self.child_of(id, p, g, board);
            self.graph.unmake(p.from, p.to);
            let why = match child {
                Ok(why) => why,
                Err(answer) => {
                    // Out of memory: the caller queues the position again.
                    self.pushes = pushes;
                    self.graph.leave();
                    return Err(answer);
                }
            };
            open |= why == Ruled::Open;
            ruled.push(why);
        }
        self.pushes = pushes;
        if let Some(next) = self.deferred.take() {
            self.requeue(next, g - 1, id);
        }
        if !open {
            self.refute(id, &ruled);
        }
        self.graph.leave();
        if !open {
            self.propagate(id);
        }
        Ok(())
    }

    /// Whether push `p` from the entered node (the position after it laid out in the
    /// mask) is ruled out, and why; else the key of the position it leads to (its box
    /// cells are the graph's child boxes).
    fn judge(&mut self, p: &PushMove) -> Result<Child, RuledOut> {
        let (level, analysis) = (self.level, self.analysis);
        if self.graph.is_dead_after(p.from, p.to) {
            return Err(RuledOut::by(Ruled::ByFormula));
        }
        self.graph.move_box(p.from, p.to);
        // The player's place is filled only if a lemma asks where it can walk.
        let graph = &mut self.graph;
        let mut name = None;
        if self.lemmas.any_part_at(p.to) {
            let bits = &mut self.bits;
            bits.clone_from(&self.fixed_bits);
            for &c in graph.child_boxes() {
                bits[c as usize / 64] |= 1 << (c % 64);
            }
            let mut reaches = |c: Cell| {
                name.get_or_insert_with(|| graph.name_after_push(p));
                graph.child_region().contains(c)
            };
            if let Some(reach) = self.lemmas.refute_part(bits, p.to, &mut reaches) {
                return Err(RuledOut::by_lemma(reach));
            }
        }
        if !level.has_ice() && frozen_off_goal(level, graph.mask(), &analysis.live, p.to) {
            return Err(RuledOut::by(Ruled::ByRules));
        }
        let name = name.unwrap_or_else(|| graph.name_after_push(p));
        let box_hash = graph.box_hash_after(p.from, p.to);
        if let Some(sets) = self.lemmas.whole_lemmas(box_hash, graph.child_boxes()) {
            let region = graph.child_region();
            if let Some(reach) = Lemmas::refute_whole(sets, |c| region.contains(c)) {
                return Err(RuledOut::by_lemma(reach));
            }
        }
        Ok(graph.key(p.from, p.to, name))
    }

    /// Why push `p` from node `id` (entered; the position after the push laid out in
    /// the mask) is ruled out, or `Open` after storing the position it leads to
    /// (reached after `g` pushes), or leaving it for later (its value above the one
    /// `id` is expanded at), or finding it handled at an earlier expansion of `id`.
    fn child_of(
        &mut self,
        id: u32,
        p: &PushMove,
        g: u32,
        board: &Incumbent,
    ) -> Result<Ruled, SearchAnswer> {
        // The child's bound, when it is worked out before the push is judged.
        let mut bound = None;
        if self.expanded_before {
            self.graph.move_box(p.from, p.to);
            let b = self.child_bound(g, self.expanding_at);
            if g + b < self.expanding_at {
                // Handled at an earlier expansion; taken as open, which refutes nothing.
                return Ok(Ruled::Open);
            }
            bound = Some(b);
        }
        let key = match self.judge(p) {
            Ok(key) => key,
            Err(out) => {
                // Counted here, where a push is judged first, for the question windows.
                if out.by_lemma {
                    self.asking.ruled_out += 1;
                    self.stats.ruled_out += 1;
                }
                return Ok(out.why);
            }
        };
        let step = Step::push(p.from, p.dir, p.to);
        if let Some(child) = self.graph.find(key) {
            let c = child as usize;
            if self.flags[c] & DEAD != 0 {
                return Ok(Ruled::ByRules);
            }
            if g < self.g[c] {
                self.g[c] = g;
                self.graph.arena_mut().reach_by(child, id, step);
                self.requeue(g + self.h[c], g, child);
            }
            return Ok(Ruled::Open);
        }
        let h = bound.unwrap_or_else(|| self.child_bound(g, self.expanding_at));
        let f = g + h;
        if self.beyond_bound(f) {
            self.cut_by_bound = true;
            return Ok(Ruled::Open);
        }
        if board.upper().is_some_and(|u| f as usize >= u) {
            // No shorter plan passes through it.
            return Ok(Ruled::Open);
        }
        if f > self.expanding_at {
            self.deferred = Some(self.deferred.map_or(f, |d| d.min(f)));
            return Ok(Ruled::Open);
        }
        if self.graph.len() >= self.limits.max_positions {
            let positions = self.graph.len() as u64;
            return Err(SearchAnswer::Stopped(StopReason::Memory { positions }));
        }
        if self.graph.len() == RESERVE_AT {
            self.reserve();
        }
        let child = self.graph.add(key, id, step);
        self.g.push(g);
        self.h.push(h);
        self.flags.push(0);
        self.queue.push(f, g, child);
        Ok(Ruled::Open)
    }

    /// The bound on the pushes left of the child at hand (its boxes the graph's child
    /// boxes), reached by `g` pushes: the matching potential, and when that puts it
    /// at most at `up_to` (so that it may be stored now), the full bound
    /// ([`Heuristic::bound_of`]) as well. Every stored position has its full bound.
    ///
    /// [`Heuristic::bound_of`]: crate::analysis::Heuristic::bound_of
    fn child_bound(&self, g: u32, up_to: u32) -> u32 {
        let heuristic = &self.analysis.heuristic;
        let cells = || self.graph.child_boxes().iter().map(|&b| b as Cell);
        let h = heuristic.left(g, heuristic.potential(cells()));
        if g + h > up_to {
            return h;
        }
        let full = heuristic.bound_of(self.analysis, &cells().collect::<Vec<_>>());
        h.max(heuristic.left(g, full))
    }

    /// Refutes node `id` (entered, its pushes in `self.pushes`, each ruled out as
    /// `ruled` says) for good, and asks the solver which part of the position the
    /// refutation needs: that part is a lemma.
    fn refute(&mut self, id: u32, ruled: &[Ruled]) {
        self.flags[id as usize] |= DEAD;
        self.stats.refuted += 1;
        let Some(formula) = self.formula.as_mut() else {
            return;
        };
        if !self.asking.now(self.stats.refuted) {
            return;
        }
        self.asking.asked(self.stats.refuted);
        let level = self.level;
        // The position: its boxes and where the player can walk; then the pushes ruled
        // out by facts the formula does not state, barred.
        let (mask, reach) = (self.graph.mask(), self.graph.region());
        let mut assumptions: Vec<Lit> = (formula.box_lits.iter())
            .map(|&(c, l)| if mask[c] { l } else { !l })
            .chain(
                (formula.reach_lits.iter()).map(|&(c, l)| if reach.contains(c) { l } else { !l }),
            )
            .collect();
        let mut barred = Vec::new();
        for (p, why) in self.pushes.iter().zip(ruled) {
            // (A push the formula does not have needs no bar.)
            if *why == Ruled::ByRules
                && let Some(n) = formula.push_of(p.from, p.dir)
            {
                barred.push(!formula.pushes[n].lit);
            }
        }
        assumptions.extend(&barred);
        self.stats.queries += 1;
        match formula.solver.solve(&assumptions) {
            SolveResult::Unsat => {
                if let Some(mut cube) = explain(formula, level, self.graph.mask(), &barred) {
                    let whole = self.lemmas.is_whole(&cube);
                    if whole {
                        cube.empty.clear();
                    }
                    let literals = cube.literals(formula);
                    let hash = self.graph.arena().zobrist().of(&cube.boxes);
                    if self.lemmas.add(cube, hash) {
                        if let Some(literals) = literals {
                            formula.add_lemma(&literals);
                        }
                        self.stats.lemmas += 1;
                    }
                }
            }
            // A refutation by facts outside the formula: only the position is refuted.
            SolveResult::Sat | SolveResult::Unknown => {}
        }
    }

    /// After node `id` is refuted: the node it was reached from is refuted too when
    /// every one of its pushes is now ruled out, and so on towards the start.
    fn propagate(&mut self, mut id: u32) {
        while id != 0 {
            let parent = self.graph.arena().parent(id);
            if self.flags[parent as usize] & DEAD != 0 {
                break;
            }
            self.graph.enter(parent);
            let ruled = self.rule_pushes();
            if ruled.contains(&Ruled::Open) {
                self.graph.leave();
                break;
            }
            self.refute(parent, &ruled);
            self.graph.leave();
            id = parent;
        }
    }

    /// Why each push of the entered node is ruled out now, without storing anything:
    /// a push into a stored position that is not refuted, or into one not stored, is
    /// open.
    fn rule_pushes(&mut self) -> Vec<Ruled> {
        let mut pushes = std::mem::take(&mut self.pushes);
        self.graph.pushes(&mut pushes);
        let mut ruled = Vec::with_capacity(pushes.len());
        for p in &pushes {
            self.graph.make(p.from, p.to);
            let why = match self.judge(p) {
                Err(out) => out.why,
                Ok(key) => match self.graph.find(key) {
                    Some(c) if self.flags[c as usize] & DEAD != 0 => Ruled::ByRules,
                    _ => Ruled::Open,
                },
            };
            self.graph.unmake(p.from, p.to);
            ruled.push(why);
        }
        self.pushes = pushes;
        ruled
    }
}
