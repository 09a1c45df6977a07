//! The `pushes` encoding: one push per step. The player walks anywhere it can reach and
//! then pushes one box one cell, so k is the number of pushes.
//!
//! State at step t: `box_at(c, t)` for live cells, `player_at(c, t)` for the cell the
//! player stands on when step t begins (the start, or the cell the last push vacated).
//! Action: `push(c, d, t)`, the box at c goes to c+d, the player standing at c-d.
//! Whether the player can walk to c-d is the reachability part, in one of two forms:
//! - layered (`pushes`, the default): breadth-first layers `reach(c, t, i)` inside each
//!   step, complete and sound on its own, so its DIMACS needs no refinement;
//! - lazy (`pushes-lazy`): left out at first; a model whose walk is impossible yields a
//!   cut clause (the boxes that wall the player in) that holds at every step, and the
//!   solver is asked again;
//! - path (`pushes-path`): Bofill, Borralleras, Espasa and Villaret's path encoding, one
//!   `on_walk(c, t)` per node and step, acyclic by counting each node's neighbours on
//!   the walk: the ends have one, the nodes between them two.
//!
//! Two variants change what one step is (with the layers): a box line, a box pushed any
//! number of cells in one direction (`pushes-folded`), and several pushes of distinct
//! boxes that do not interfere, in Rintanen's ∃-step sense (`pushes-parallel`).
//!
//! See `encodings/pushes.md`.

use std::collections::HashMap;

use super::commute::{StepTerms, add_commutation};
use super::dimspec::Uniform;
use super::potential::{POTENTIAL_SLACK, Potential, initial_potential};
use super::walk_graph::WalkGraph;
use super::{
    Decoded, Encoding, EncodingKind, add_goal_clauses, name_cells, next_box_terms,
    start_as_variables,
};
use crate::analysis::{
    Analysis, UNREACHABLE, line_distances_from, line_distances_to_goals, push_distances_from,
};
use crate::game::{Region, plan_from_pushes};
use crate::level::{Cell, Direction, Level};
use crate::sat::cnf::{at_least_one, at_most_one, guarded_exactly_k, implies, implies_any};
use crate::sat::{ClauseSink, Lit, Term};
use crate::stop::{Stop, Stopped};

/// How player reachability inside a step is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Cut clauses added on demand.
    Lazy,
    /// Breadth-first layers in every step.
    Layered,
    /// One walk per step, from the player's node to the node behind the pushed box,
    /// marked node by node and kept a path by counting neighbours on it.
    Path,
}

/// What one step of the formula is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steps {
    /// One push (`pushes`, `pushes-lazy`, `pushes-path`).
    OnePush,
    /// One box line: a box pushed any number of cells in one direction
    /// (`pushes-folded`).
    OneLine,
    /// One or more pushes of distinct boxes that do not interfere (`pushes-parallel`):
    /// with two or more, the player's cells of the step and the cells it walks through
    /// stay free during the whole step, so the pushes can be made in any order.
    Parallel,
}

/// What a position at some step must look like (see
/// [`PushesEncoding::target_literal`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Target<'a> {
    /// Cells that hold a box.
    pub boxes: &'a [Cell],
    /// Cells one of which the player stands on (empty: anywhere).
    pub player_cells: &'a [Cell],
    /// Whole positions (all their box cells) it must not be.
    pub avoid: &'a [Vec<Cell>],
}

/// A cut: the player, standing inside `inside` with boxes on all of `walls`, cannot
/// leave `inside`, so the step's push must be made from a cell of `inside`.
#[derive(Clone, Debug)]
struct Cut {
    inside: Vec<bool>,
    walls: Vec<Cell>,
}

/// The `pushes` encoding of one level.
pub struct PushesEncoding {
    level: Level,
    reach: Reach,
    region: Vec<bool>,
    live: Vec<bool>,
    pushes_to_goal: Vec<u32>,
    pushes_from_start: Vec<u32>,
    /// Sets of cells that must never all hold boxes: freeze blocks, dead pairs and dead
    /// triples, none containing another, smallest first.
    deadlocks: Vec<Vec<Cell>>,
    /// Pairs whose two boxes need more pushes than their own distances add up to, with
    /// the extra pushes.
    costly_pairs: Vec<(Cell, Cell, u32)>,
    /// Pairs that are dead when the player's region holds the given cell.
    dead_sides: Vec<(Cell, Cell, Cell)>,
    /// The boxes in the region.
    box_count: usize,
    /// The most moves of a shortest walk in any step, from the longest induced path of
    /// the walking graph when it is found within [`INDUCED_PATH_BUDGET`].
    longest_walk: usize,
    /// `boxes[t][c]`: a box is at c at step t.
    boxes: Vec<Vec<Term>>,
    /// `player[t][c]`: the player stands at c when step t begins.
    player: Vec<Vec<Term>>,
    /// `pushes[t][c][d]`: at step t the box at c is pushed in direction d.
    pushes: Vec<Vec<[Term; 4]>>,
    /// `reach[t][c]`: the player can walk to c during step t (layered only).
    reach_last: Vec<Vec<Term>>,
    /// `on_walk[t][c]`: the player's walk of step t passes the node of c (path only).
    on_walk: Vec<Vec<Term>>,
    cuts: Vec<Cut>,
    potential: Potential,
    /// The matching potential (per-cell values and its counter), where it starts above
    /// `potential`.
    matching: Option<(Vec<Option<i64>>, Potential)>,
    goals: HashMap<usize, Lit>,
    /// The time-uniform variant written as DIMSPEC (see [`PushesEncoding::new_uniform`]).
    uniform: bool,
    /// What one step is; with box lines (see [`PushesEncoding::folded`]) the
    /// distances in `pushes_to_goal` and `pushes_from_start` count lines.
    steps: Steps,
    /// `moved[t][c][d]`: during step t a box moves from c to c + d (folded only).
    moved: Vec<Vec<[Term; 4]>>,
    /// `several[t]`: step t may hold two or more pushes (parallel only).
    several: Vec<Term>,
}

/// How many extensions of a path the search for the longest induced path may make
/// (a few milliseconds): enough for most Microban levels, not for open rooms, where
/// the layers fall back to one per free node.
const INDUCED_PATH_BUDGET: u64 = 200_000;

/// The reachability variables one step of the layered encoding adds to `level` once
/// every live cell may hold a box: a layer over the walking graph's nodes for every free
/// node of it ([`WalkGraph`]).
pub fn layer_variables(level: &Level, analysis: &Analysis) -> usize {
    let graph = WalkGraph::new(level, &analysis.region, |c| analysis.live[c]);
    let boxes = level.box_cells().filter(|&b| analysis.region[b]).count();
    graph.len().saturating_mul(graph.layers(boxes))
}

impl PushesEncoding {
    /// Sets up step 0 (all constants).
    pub fn new(level: &Level, analysis: &Analysis, reach: Reach) -> PushesEncoding {
        let n = level.cell_count();
        let start_boxes: Vec<Cell> = level.box_cells().filter(|&b| analysis.region[b]).collect();
        let r0 = initial_potential(level, analysis);
        let box_count = start_boxes.len();
        // Only the layers need the bound. It is worked out once per level, on the graph
        // whose nodes are the live cells, so it holds when every box starts on one
        // (always, unless the level is unsolvable).
        let longest_walk = match reach {
            Reach::Layered if start_boxes.iter().all(|&b| analysis.live[b]) => {
                let nodes = analysis.longest_walk.get_or_init(|| {
                    WalkGraph::new(level, &analysis.region, |c| analysis.live[c])
                        .longest_induced_path(INDUCED_PATH_BUDGET)
                });
                nodes.map_or(usize::MAX, |nodes| nodes.saturating_sub(1))
            }
            _ => usize::MAX,
        };
        PushesEncoding {
            level: level.clone(),
            reach,
            region: analysis.region.clone(),
            live: analysis.live.clone(),
            pushes_to_goal: analysis.pushes_to_goal.clone(),
            pushes_from_start: push_distances_from(level, start_boxes),
            deadlocks: analysis.deadlocks.minimal_patterns(),
            costly_pairs: analysis
                .pair_table
                .pairs()
                .map(|(a, b, _)| {
                    (
                        a,
                        b,
                        analysis.pair_table.extra(a, b, &analysis.pushes_to_goal),
                    )
                })
                .filter(|&(_, _, extra)| extra > 0)
                .collect(),
            dead_sides: analysis.pair_table.dead_sides().to_vec(),
            box_count,
            longest_walk,
            boxes: vec![
                (0..n)
                    .map(|c| Term::Const(level.has_initial_box(c)))
                    .collect(),
            ],
            player: vec![(0..n).map(|c| Term::Const(c == level.player())).collect()],
            pushes: Vec::new(),
            reach_last: Vec::new(),
            on_walk: Vec::new(),
            cuts: Vec::new(),
            potential: Potential::new(r0, r0 + POTENTIAL_SLACK),
            matching: analysis
                .matching_potential
                .as_ref()
                .filter(|m| m.initial > r0 as i64)
                .map(|m| {
                    let start = m.initial as usize;
                    (
                        m.cell.clone(),
                        Potential::new(start, start + POTENTIAL_SLACK),
                    )
                }),
            goals: HashMap::new(),
            uniform: false,
            steps: Steps::OnePush,
            moved: Vec::new(),
            several: Vec::new(),
        }
    }

    /// The folded variant (`pushes-folded`) with the layers: each step is one **box
    /// line**, a box pushed any number of cells in one direction, so the first
    /// satisfiable k is the fewest box lines, a lower bound on the pushes. The pruning by
    /// time and the goal clauses count lines ([`line_distances_to_goals`]); what counts
    /// pushes across steps is left out (the potentials, the costly pairs), and so are
    /// the groups that compare two steps' single pushes (the push straight back, the
    /// commuting pushes).
    pub fn folded(level: &Level, analysis: &Analysis) -> PushesEncoding {
        PushesEncoding::new(level, analysis, Reach::Layered).into_folded()
    }

    /// This encoding with one box line a step (see [`PushesEncoding::folded`]).
    fn into_folded(mut self) -> PushesEncoding {
        let level = &self.level;
        let start_boxes = level.box_cells().filter(|&b| self.region[b]);
        self.pushes_from_start = line_distances_from(level, start_boxes);
        self.pushes_to_goal = line_distances_to_goals(level);
        self.with_steps(Steps::OneLine)
    }

    /// The ∃-step variant (`pushes-parallel`) with the layers: each step is one push or
    /// several pushes of distinct boxes that do not interfere. With several, no box
    /// enters a cell the player stands on or walks through during the step, so every
    /// order of the step's pushes can be made; the plan takes them in cell order. Each
    /// box moves at most one cell a step, so the pruning by time and the goal clauses
    /// keep their push distances; what counts pushes across steps is left out, as in
    /// the folded variant.
    pub fn parallel(level: &Level, analysis: &Analysis) -> PushesEncoding {
        PushesEncoding::new(level, analysis, Reach::Layered).with_steps(Steps::Parallel)
    }

    /// This encoding with the steps of `steps`, without what counts pushes across
    /// steps unless a step is one push (see [`PushesEncoding::one_push_a_step`]).
    fn with_steps(mut self, steps: Steps) -> PushesEncoding {
        self.steps = steps;
        if !self.one_push_a_step() {
            self.costly_pairs.clear();
            self.matching = None;
        }
        self
    }

    /// Whether each step is exactly one push, so that the groups that count pushes
    /// across steps (the potentials, the push straight back, the commuting pushes)
    /// apply.
    fn one_push_a_step(&self) -> bool {
        self.steps == Steps::OnePush
    }

    /// The time-uniform variant for DIMSPEC, with the layers or the walk of `reach`,
    /// and the steps of `steps` (box lines and parallel pushes with the layers): every
    /// step has the same
    /// variables. Step 0 has a variable for every cell a box or the player may
    /// ever be on (fixed by unit clauses), no cell is pruned by the pushes from the
    /// start, and what spans more than two steps or counts pushes across steps is left
    /// out: the potentials (and so the costly pairs) and the commuting pushes. All of
    /// those only prune, so the first satisfiable k is still the optimum.
    pub fn new_uniform(
        level: &Level,
        analysis: &Analysis,
        (reach, steps): (Reach, Steps),
        sink: &mut dyn ClauseSink,
    ) -> Self {
        assert!(reach != Reach::Lazy, "lazy cuts are learned per model");
        let mut enc = PushesEncoding::new(level, analysis, reach);
        enc = match steps {
            Steps::OneLine => enc.into_folded(),
            steps => enc.with_steps(steps),
        };
        enc.uniform = true;
        let box_may = |c| enc.region[c] && enc.box_possible(c, 0);
        let (player, boxes) = start_as_variables(sink, level, |c| enc.player_possible(c), box_may);
        (enc.player[0], enc.boxes[0]) = (player, boxes);
        enc
    }

    /// `box_at(c, t)`.
    pub fn box_at(&self, cell: Cell, t: usize) -> Term {
        self.boxes[t][cell]
    }

    /// A literal that, assumed, asks for the position at step k (k ≤ `steps()`) to
    /// match `target`: boxes on all of its cells, the player on one of its player cells
    /// (anywhere if none are named), and none of its avoided positions. It is the target
    /// of a window of a plan (a whole position) or of a subgoal (some goals filled).
    /// Unlike [`Encoding::goal_literal`] it adds no pruning by the distances to the
    /// goals, which a target off the goals does not allow.
    pub fn target_literal(&mut self, k: usize, target: &Target, sink: &mut dyn ClauseSink) -> Lit {
        assert!(k <= self.steps(), "position asked beyond the encoded steps");
        let wanted = sink.new_var();
        for &c in target.boxes {
            sink.clause(&[(!wanted).into(), self.boxes[k][c]]);
        }
        if !target.player_cells.is_empty() {
            let mut somewhere = vec![Term::from(!wanted)];
            somewhere.extend(target.player_cells.iter().map(|&c| self.player[k][c]));
            sink.clause(&somewhere);
        }
        for avoided in target.avoid {
            let mut differs = vec![Term::from(!wanted)];
            differs.extend(avoided.iter().map(|&c| !self.boxes[k][c]));
            sink.clause(&differs);
        }
        wanted
    }

    /// Whether a box may be at `cell` at step t (some box can be pushed there in t).
    fn box_possible(&self, cell: Cell, t: usize) -> bool {
        if self.uniform {
            return self.live[cell];
        }
        let d = self.pushes_from_start[cell];
        self.live[cell] && d != UNREACHABLE && d as usize <= t
    }

    /// In the time-uniform variant, whether the player may begin a step on `cell`:
    /// its start, or a live cell a box can be pushed from (the player ends each push
    /// on the cell the box left).
    fn player_possible(&self, cell: Cell) -> bool {
        let level = &self.level;
        let pushable = |d: Direction| {
            let (to, behind) = (level.neighbor(cell, d), level.neighbor(cell, d.opposite()));
            !level.is_wall(behind) && self.live[to]
        };
        cell == level.player()
            || (self.region[cell] && self.live[cell] && Direction::ALL.into_iter().any(pushable))
    }

    /// Adds the clauses of one cut at step t.
    fn add_cut_at(&self, cut: &Cut, t: usize, sink: &mut dyn ClauseSink) {
        let allowed: Vec<Term> = (0..self.level.cell_count())
            .flat_map(|c| Direction::ALL.map(move |d| (c, d)))
            .filter(|&(c, d)| {
                let behind = self.level.checked_neighbor(c, d.opposite());
                behind.is_some_and(|b| cut.inside[b])
            })
            .map(|(c, d)| self.pushes[t][c][d.index()])
            .filter(|p| !p.is_false())
            .collect();
        let walls: Vec<Term> = cut.walls.iter().map(|&s| !self.boxes[t][s]).collect();
        if walls.contains(&Term::TRUE) {
            return; // some wall box cannot be there at step t
        }
        let enclosed: Term = sink.new_var().into();
        for c in 0..self.level.cell_count() {
            if cut.inside[c] && !self.player[t][c].is_false() {
                let mut clause = vec![!self.player[t][c]];
                clause.extend_from_slice(&walls);
                clause.push(enclosed);
                sink.clause(&clause);
            }
        }
        let mut clause = vec![!enclosed];
        clause.extend(allowed);
        sink.clause(&clause);
    }

    /// Per node of `graph`, whether the player starts step t on it.
    fn player_nodes(&self, t: usize, graph: &WalkGraph) -> Vec<Term> {
        let mut start = vec![Term::FALSE; graph.len()];
        for (c, &p) in self.player[t].iter().enumerate() {
            if p.is_false() {
                continue;
            }
            // The player stands on the cell a box left, a node of its own (or at step
            // 0 on a constant), so a node gets at most one player term that can be true.
            let node = graph.node(c).expect("the player stands in the region");
            debug_assert!(start[node].is_false() || p == Term::TRUE || start[node] == Term::TRUE);
            if start[node] != Term::TRUE {
                start[node] = p;
            }
        }
        start
    }

    /// Layered reachability for step t over the step's [`WalkGraph`]: layer 0 is the
    /// player's node; a node is in layer i+1 if it or a neighbour is in layer i and it
    /// is free. With parallel pushes, when the step may hold several, a node is free
    /// only if no box enters it during the step either, and no box enters the player's
    /// cell. Returns the last layer per node, with the graph.
    fn add_layers(
        &self,
        t: usize,
        sink: &mut dyn ClauseSink,
        stop: &Stop,
    ) -> Result<(WalkGraph, Vec<Term>), Stopped> {
        let boxes = &self.boxes[t];
        // With several pushes a step, a cell a box may enter is a node of its own.
        let entered = |c: Cell| match self.several.get(t) {
            Some(&several) => Some((several, self.boxes[t + 1][c])).filter(|(_, b)| !b.is_false()),
            None => None,
        };
        let graph = WalkGraph::new(&self.level, &self.region, |c| {
            !boxes[c].is_false() || entered(c).is_some()
        });
        for (c, &p) in self.player[t].iter().enumerate() {
            if let Some((several, next)) = entered(c) {
                sink.clause(&[!p, !several, !next]);
            }
        }
        let mut layer = self.player_nodes(t, &graph);
        for _ in 0..graph.layers(self.box_count).min(self.longest_walk) {
            // A step has a layer per free node: on a big board the stop is read
            // between layers.
            if stop.should_stop() {
                return Err(Stopped);
            }
            let mut next = vec![Term::FALSE; graph.len()];
            for (v, slot) in next.iter_mut().enumerate() {
                let mut support = vec![layer[v]];
                support.extend(graph.adjacent(v).iter().map(|&u| layer[u]));
                if support.iter().all(|s| s.is_false()) {
                    continue;
                }
                let r: Term = sink.new_var().into();
                let mut clause = vec![!r];
                clause.extend(support);
                sink.clause(&clause);
                if let Some(c) = graph.box_cell(v) {
                    implies(sink, r, !boxes[c]);
                    if let Some((several, next)) = entered(c) {
                        sink.clause(&[!r, !several, !next]);
                    }
                }
                *slot = r;
            }
            layer = next;
        }
        Ok((graph, layer))
    }

    /// Path reachability for step t over the step's [`WalkGraph`] (Bofill et al.): the
    /// nodes of one walk from the player's node (`start`) to the node behind the pushed
    /// box (`end`) are marked `on_walk`, never a node that holds a box. Where start and
    /// end differ, the end has exactly one neighbour on the walk and every marked node
    /// but the start exactly two, so the end's component of marked nodes holds the
    /// start (below): a walk exists. A shortest walk, an induced path, satisfies the
    /// counts. Returns the walk's term per cell.
    fn add_walk(&self, t: usize, sink: &mut dyn ClauseSink) -> Vec<Term> {
        let level = &self.level;
        let boxes = &self.boxes[t];
        let graph = WalkGraph::new(level, &self.region, |c| !boxes[c].is_false());
        let start = self.player_nodes(t, &graph);
        let mut pushed_from = vec![Vec::new(); graph.len()];
        for (c, dirs) in self.pushes[t].iter().enumerate() {
            for d in Direction::ALL {
                let p = dirs[d.index()];
                if !p.is_false() {
                    let behind = level.neighbor(c, d.opposite());
                    let node = graph.node(behind).expect("a push is made from the region");
                    pushed_from[node].push(p);
                }
            }
        }
        // `end` is exact: one push per step makes exactly one node the end.
        let end: Vec<Term> = pushed_from
            .iter()
            .map(|from| match from.as_slice() {
                [] => Term::FALSE,
                [one] => *one,
                _ => {
                    let e: Term = sink.new_var().into();
                    for &p in from {
                        implies(sink, p, e);
                    }
                    implies_any(sink, e, from);
                    e
                }
            })
            .collect();
        let on_walk: Vec<Term> = (0..graph.len())
            .map(|v| match graph.box_cell(v).map(|c| boxes[c]) {
                Some(Term::Const(true)) => Term::FALSE,
                _ => sink.new_var().into(),
            })
            .collect();
        for v in 0..graph.len() {
            let walk = on_walk[v];
            implies(sink, start[v], walk);
            implies(sink, end[v], walk);
            if let Some(c) = graph.box_cell(v) {
                implies(sink, walk, !boxes[c]);
            }
            let around: Vec<Term> = graph.adjacent(v).iter().map(|&u| on_walk[u]).collect();
            // The start needs no count of its own: the end has one neighbour on the
            // walk and every other node on it two, so the only other node of odd
            // degree in the end's component, which the handshake lemma demands, is
            // the start.
            guarded_exactly_k(sink, &[end[v], !start[v]], &around, 1);
            guarded_exactly_k(sink, &[walk, !start[v], !end[v]], &around, 2);
        }
        (0..level.cell_count())
            .map(|c| graph.node(c).map_or(Term::FALSE, |v| on_walk[v]))
            .collect()
    }

    /// One box line a step (`pushes-folded`): the box on a start cell is pushed any
    /// number of cells in one direction. `moved(c, d)` says the box moves from c to
    /// c + d during the step; `push(c, d)` says the line starts on c, the box's cell at
    /// step t, with the player behind it. Exactly one line starts; every moved cell but
    /// the start has its predecessor moved too, so the moved cells are one straight run
    /// from the start. The cells ahead are free at t, the box ends after the last moved
    /// cell, the player on it. Returns the starts, the player's cells and `moved`.
    fn add_runs(
        &self,
        t: usize,
        boxes: &[Term],
        next_boxes: &[Term],
        sink: &mut dyn ClauseSink,
    ) -> (Vec<[Term; 4]>, Vec<Term>, Vec<[Term; 4]>) {
        let n = self.level.cell_count();
        let level = &self.level;
        // A box passes c and c + d during the step, both live and within t + 1 lines
        // of the start (the cells a run passes are positions of the plan too): for
        // c + d, a floor cell beside the region and so in it, that is where
        // `next_boxes` is not false.
        let may_move = |c| self.region[c] && self.box_possible(c, t + 1);
        let moved = self.move_variables(next_boxes, may_move, sink);
        let mut starts = vec![[Term::FALSE; 4]; n];
        for c in 0..n {
            for d in Direction::ALL {
                let m = moved[c][d.index()];
                if !m.is_false() && !boxes[c].is_false() {
                    starts[c][d.index()] = sink.new_var().into();
                }
            }
        }
        let next_player = self.player_cells(&moved, sink);
        exactly_one(&starts, sink);

        for c in 0..n {
            for d in Direction::ALL {
                let m = moved[c][d.index()];
                if m.is_false() {
                    continue;
                }
                let (to, behind) = (level.neighbor(c, d), level.neighbor(c, d.opposite()));
                let start = starts[c][d.index()];
                let before = moved[behind][d.index()];
                let after = moved[to][d.index()];
                implies(sink, start, m);
                implies(sink, start, boxes[c]);
                // A moved cell whose predecessor did not move is the start.
                sink.clause(&[!m, before, start]);
                implies(sink, m, !boxes[to]);
                implies(sink, m, !next_boxes[c]);
                // The last moved cell: the box stops ahead of it, the player on it.
                sink.clause(&[!m, after, next_boxes[to]]);
                sink.clause(&[!m, after, next_player[c]]);
            }
            if !next_player[c].is_false() {
                let p = next_player[c];
                let mut clause = vec![!p];
                clause.extend(moved[c].iter().copied());
                sink.clause(&clause);
                for d in Direction::ALL {
                    let to = level.neighbor(c, d);
                    if !level.is_wall(to) {
                        // Not in the middle of the run.
                        implies(sink, p, !moved[to][d.index()]);
                    }
                }
                implies(sink, p, !next_boxes[c]);
            }
        }

        // A box leaves c only as a line's start, arrives only by a move from c - d.
        self.add_frame((boxes, next_boxes), (&starts, &moved), sink);
        (starts, next_player, moved)
    }

    /// A variable per move of a box one cell in the step to `next_boxes`: from a cell
    /// where `may_move`, with no wall behind it or ahead of it, to a cell that may hold
    /// a box after the step.
    fn move_variables(
        &self,
        next_boxes: &[Term],
        may_move: impl Fn(Cell) -> bool,
        sink: &mut dyn ClauseSink,
    ) -> Vec<[Term; 4]> {
        let level = &self.level;
        let mut pushes = vec![[Term::FALSE; 4]; level.cell_count()];
        for (c, dirs) in pushes.iter_mut().enumerate() {
            if !may_move(c) {
                continue;
            }
            for d in Direction::ALL {
                let (to, behind) = (level.neighbor(c, d), level.neighbor(c, d.opposite()));
                if level.is_wall(to) || level.is_wall(behind) || next_boxes[to].is_false() {
                    continue;
                }
                dirs[d.index()] = sink.new_var().into();
            }
        }
        pushes
    }

    /// Whether step's box on `c` may be pushed: one may stand there at its start
    /// (`boxes`), in the region.
    fn may_push(&self, boxes: &[Term], c: Cell) -> bool {
        !boxes[c].is_false() && self.region[c]
    }

    /// What the push `p` of the box on `c` in direction `d` needs and makes: the box on
    /// `c`, the cells ahead and behind free, the box ahead after the step.
    fn add_push_conditions(
        &self,
        p: Term,
        (c, d): (Cell, Direction),
        (boxes, next_boxes): (&[Term], &[Term]),
        sink: &mut dyn ClauseSink,
    ) {
        let (to, behind) = (
            self.level.neighbor(c, d),
            self.level.neighbor(c, d.opposite()),
        );
        implies(sink, p, boxes[c]);
        implies(sink, p, !boxes[to]);
        implies(sink, p, !boxes[behind]);
        implies(sink, p, next_boxes[to]);
    }

    /// One push a step: the push variables of the step from `boxes` to `next_boxes`,
    /// with exactly one of them true, its preconditions and effects, the player's cell
    /// after it, and the frame axioms. Returns the pushes and the player's cells.
    fn add_single_pushes(
        &self,
        boxes: &[Term],
        next_boxes: &[Term],
        sink: &mut dyn ClauseSink,
    ) -> (Vec<[Term; 4]>, Vec<Term>) {
        let n = self.level.cell_count();
        let pushes = self.move_variables(next_boxes, |c| self.may_push(boxes, c), sink);
        let next_player = self.player_cells(&pushes, sink);
        exactly_one(&pushes, sink);

        for c in 0..n {
            for d in Direction::ALL {
                let p = pushes[c][d.index()];
                if p.is_false() {
                    continue;
                }
                self.add_push_conditions(p, (c, d), (boxes, next_boxes), sink);
                implies(sink, p, next_player[c]);
            }
            add_player_end(sink, next_player[c], &pushes[c], next_boxes[c]);
        }

        // A box leaves c only by a push from c, arrives only by a push from c - d.
        self.add_frame((boxes, next_boxes), (&pushes, &pushes), sink);
        (pushes, next_player)
    }

    /// Parallel pushes (`pushes-parallel`): the push variables of the step from `boxes`
    /// to `next_boxes`, at least one true, each box pushed at most once and each cell
    /// entered by at most one box, with their preconditions and effects, the player's
    /// cell after the step and the frame axioms. The plan makes a step's pushes in cell
    /// order, so the player ends on the cell of the box pushed last, the highest cell
    /// pushed from: one cell, so that the next step's walks start from one place. `several` is true whenever two or more pushes are: the reachability of
    /// the step then keeps the player off every cell a box enters ([`Self::add_layers`]).
    /// Returns the pushes, the player's cells and `several`.
    fn add_parallel_pushes(
        &self,
        boxes: &[Term],
        next_boxes: &[Term],
        sink: &mut dyn ClauseSink,
    ) -> (Vec<[Term; 4]>, Vec<Term>, Term) {
        let n = self.level.cell_count();
        let level = &self.level;
        let pushes = self.move_variables(next_boxes, |c| self.may_push(boxes, c), sink);
        let next_player = self.player_cells(&pushes, sink);
        let several: Term = sink.new_var().into();
        for c in 0..n {
            at_most_one(sink, &pushes[c]);
            let entering: Vec<Term> = Direction::ALL
                .into_iter()
                .filter_map(|d| {
                    level
                        .checked_neighbor(c, d.opposite())
                        .map(|from| (from, d))
                })
                .map(|(from, d)| pushes[from][d.index()])
                .collect();
            at_most_one(sink, &entering);
            for d in Direction::ALL {
                let p = pushes[c][d.index()];
                if p.is_false() {
                    continue;
                }
                self.add_push_conditions(p, (c, d), (boxes, next_boxes), sink);
            }
            add_player_end(sink, next_player[c], &pushes[c], next_boxes[c]);
        }
        // The player ends on a cell pushed from with no push from a higher cell:
        // `later` is true when a higher cell is pushed from (and may be otherwise,
        // which only forbids). One end cell at least (so at least one push), so
        // exactly the last. A push with a later one makes the step one of several.
        at_least_one(sink, &next_player);
        let mut later = Term::FALSE;
        for c in (0..n).rev() {
            let from_c: Vec<Term> = pushes[c]
                .iter()
                .copied()
                .filter(|p| !p.is_false())
                .collect();
            if from_c.is_empty() {
                continue;
            }
            for &p in &from_c {
                sink.clause(&[!p, next_player[c], later]);
                sink.clause(&[!p, !later, several]);
            }
            implies(sink, next_player[c], !later);
            let next: Term = sink.new_var().into();
            for &p in &from_c {
                implies(sink, p, next);
            }
            implies(sink, later, next);
            later = next;
        }
        self.add_frame((boxes, next_boxes), (&pushes, &pushes), sink);
        (pushes, next_player, several)
    }

    /// The player's cells after a step, `player_at(c, t+1)`: a variable where the
    /// step's box may leave `c` (`left[c]` has a direction that is not false), and in
    /// the time-uniform variant wherever the player may ever begin a step.
    fn player_cells(&self, left: &[[Term; 4]], sink: &mut dyn ClauseSink) -> Vec<Term> {
        (0..self.level.cell_count())
            .map(|c| {
                let possible = if self.uniform {
                    self.player_possible(c)
                } else {
                    left[c].iter().any(|p| !p.is_false())
                };
                match possible {
                    true => sink.new_var().into(),
                    false => Term::FALSE,
                }
            })
            .collect()
    }

    /// The frame axioms of a step from `boxes` to `next_boxes`: a box leaves c only by
    /// one of `leaves[c]`, and arrives on c only by one of the `arrives[c − d][d]`.
    fn add_frame(
        &self,
        (boxes, next_boxes): (&[Term], &[Term]),
        (leaves, arrives): (&[[Term; 4]], &[[Term; 4]]),
        sink: &mut dyn ClauseSink,
    ) {
        let level = &self.level;
        for c in 0..level.cell_count() {
            if !self.region[c] || (boxes[c].is_false() && next_boxes[c].is_false()) {
                continue;
            }
            let mut leave = vec![!boxes[c], next_boxes[c]];
            leave.extend(leaves[c].iter().copied());
            sink.clause(&leave);
            let mut arrive = vec![boxes[c], !next_boxes[c]];
            for d in Direction::ALL {
                let from = level.neighbor(c, d.opposite());
                if !level.is_wall(from) {
                    arrive.push(arrives[from][d.index()]);
                }
            }
            sink.clause(&arrive);
        }
    }
}

/// The player ends a step on a cell (`ends`) only where a box was pushed from it
/// (`pushed_from`), and no box is there after the step (`box_after`).
fn add_player_end(sink: &mut dyn ClauseSink, ends: Term, pushed_from: &[Term; 4], box_after: Term) {
    if ends.is_false() {
        return;
    }
    implies_any(sink, ends, pushed_from);
    implies(sink, ends, !box_after);
}

/// Exactly one of the step's push terms that are not false (at least one, then at most
/// one pairwise or by a ladder).
fn exactly_one(pushes: &[[Term; 4]], sink: &mut dyn ClauseSink) {
    let all: Vec<Term> = (pushes.iter().flatten().copied())
        .filter(|p| !p.is_false())
        .collect();
    at_least_one(sink, &all);
    at_most_one(sink, &all);
}

/// Each push of a step with the change it makes to a potential Σ value(box cell).
fn value_changes(
    level: &Level,
    pushes: &[[Term; 4]],
    value: impl Fn(Cell) -> i64,
) -> Vec<(Term, i64)> {
    let mut changes = Vec::new();
    for (c, dirs) in pushes.iter().enumerate() {
        for d in Direction::ALL {
            let p = dirs[d.index()];
            if !p.is_false() {
                changes.push((p, value(level.neighbor(c, d)) - value(c)));
            }
        }
    }
    changes
}

impl Uniform for PushesEncoding {
    fn state(&self, t: usize) -> (&[Term], &[Term]) {
        (&self.player[t], &self.boxes[t])
    }
}

impl Encoding for PushesEncoding {
    fn kind(&self) -> EncodingKind {
        match self.steps {
            Steps::OneLine => return EncodingKind::PushesFolded,
            Steps::Parallel => return EncodingKind::PushesParallel,
            Steps::OnePush => {}
        }
        match self.reach {
            Reach::Lazy => EncodingKind::PushesLazy,
            Reach::Layered => EncodingKind::Pushes,
            Reach::Path => EncodingKind::PushesPath,
        }
    }

    fn steps(&self) -> usize {
        self.pushes.len()
    }

    fn add_step(&mut self, sink: &mut dyn ClauseSink, stop: &Stop) -> Result<(), Stopped> {
        if stop.should_stop() {
            return Err(Stopped);
        }
        let t = self.steps();
        let n = self.level.cell_count();
        let level = &self.level;

        let next_boxes = next_box_terms(sink, level, &self.region, |c| self.box_possible(c, t + 1));
        let boxes = self.boxes[t].clone();
        let (pushes, next_player) = match self.steps {
            Steps::OneLine => {
                let (pushes, next_player, moved) = self.add_runs(t, &boxes, &next_boxes, sink);
                self.moved.push(moved);
                (pushes, next_player)
            }
            Steps::Parallel => {
                let (pushes, next_player, several) =
                    self.add_parallel_pushes(&boxes, &next_boxes, sink);
                self.several.push(several);
                (pushes, next_player)
            }
            Steps::OnePush => self.add_single_pushes(&boxes, &next_boxes, sink),
        };

        for set in &self.deadlocks {
            let terms: Vec<Term> = set.iter().map(|&c| !next_boxes[c]).collect();
            sink.clause(&terms);
        }

        if !self.uniform && self.one_push_a_step() {
            let to_goal = &self.pushes_to_goal;
            let changes = value_changes(level, &pushes, |c| to_goal[c] as i64);
            self.potential.add_step(sink, &changes, true);
            if let Some((phi, counter)) = &mut self.matching {
                let changes = value_changes(level, &pushes, |c| phi[c].unwrap_or(0));
                counter.add_step(sink, &changes, true);
            }
        }

        self.boxes.push(next_boxes);
        self.player.push(next_player);
        self.pushes.push(pushes);

        match self.reach {
            Reach::Lazy => {
                for cut in &self.cuts {
                    self.add_cut_at(cut, t, sink);
                }
            }
            Reach::Path => {
                let walk = self.add_walk(t, sink);
                self.on_walk.push(walk);
            }
            Reach::Layered => {
                let (graph, last_node) = self.add_layers(t, sink, stop)?;
                // The last layer is closed: a free neighbour of a reached node is reached.
                // With enough layers it is then exactly the player's region, so facts
                // about the region (below) cannot be dodged by leaving a node unreached.
                // With several parallel pushes the layers may stop short of the region:
                // what they reach is all the pushes need.
                let several = self.several.get(t).copied().unwrap_or(Term::FALSE);
                for (v, &reached) in last_node.iter().enumerate() {
                    if reached.is_false() {
                        continue;
                    }
                    for &u in graph.adjacent(v) {
                        let occupied = graph.box_cell(u).map_or(Term::FALSE, |m| self.boxes[t][m]);
                        sink.clause(&[!reached, occupied, last_node[u], several]);
                    }
                }
                let last: Vec<Term> = (0..n)
                    .map(|c| graph.node(c).map_or(Term::FALSE, |v| last_node[v]))
                    .collect();
                // Pairs of boxes that are stuck with the player on the wrong side.
                for &(a, b, m) in &self.dead_sides {
                    sink.clause(&[!self.boxes[t][a], !self.boxes[t][b], !last[m]]);
                }
                // A push straight back, when the player could already reach the far side
                // of the box before the first push, returns to the same state: such a
                // pair of steps is never part of a shortest plan.
                if t >= 1 && self.one_push_a_step() {
                    for (c, &reached_before) in self.reach_last[t - 1].iter().enumerate() {
                        for d in Direction::ALL {
                            let back = self.pushes[t][c][d.index()];
                            if back.is_false() {
                                continue;
                            }
                            // The first push took the box from c + d to c.
                            let from = level.neighbor(c, d);
                            let first = self.pushes[t - 1][from][d.opposite().index()];
                            if first.is_false() {
                                continue;
                            }
                            sink.clause(&[!first, !back, !reached_before]);
                        }
                    }
                }
                for c in 0..n {
                    for d in Direction::ALL {
                        let p = self.pushes[t][c][d.index()];
                        if !p.is_false() {
                            let behind = level.neighbor(c, d.opposite());
                            implies(sink, p, last[behind]);
                        }
                    }
                }
                if t >= 2 && !self.uniform && self.one_push_a_step() {
                    let step = |i: usize| StepTerms {
                        pushes: &self.pushes[i],
                        reach: &self.reach_last[i],
                    };
                    let (first, second) = (step(t - 2), step(t - 1));
                    add_commutation(level, &first, &second, &last, &self.boxes[t], sink);
                }
                self.reach_last.push(last);
            }
        }
        Ok(())
    }

    fn goal_literal(&mut self, k: usize, sink: &mut dyn ClauseSink) -> Lit {
        if let Some(&g) = self.goals.get(&k) {
            return g;
        }
        assert!(k <= self.steps(), "goal asked beyond the encoded steps");
        assert!(
            !self.uniform,
            "the time-uniform variant has its goal in DIMSPEC"
        );
        let goal = sink.new_var();
        add_goal_clauses(
            sink,
            goal,
            &self.level,
            &self.boxes,
            &self.pushes_to_goal,
            k,
        );
        if self.one_push_a_step() {
            self.potential.bound(sink, goal, k);
        }
        if let Some((_, counter)) = &self.matching {
            counter.bound(sink, goal, k);
        }
        // Under the goal a costly pair at step t leaves the rest of the potential only
        // k − t − extra: R(t) + extra ≤ k − t.
        for t in 0..=k {
            for &(a, b, extra) in &self.costly_pairs {
                let (x, y) = (self.boxes[t][a], self.boxes[t][b]);
                if x.is_false() || y.is_false() {
                    continue;
                }
                let j = k as i64 - t as i64 - extra as i64 + 1;
                if let Some(at_least) = self.potential.at_least(t, j) {
                    sink.clause(&[(!goal).into(), !x, !y, !at_least]);
                }
            }
        }
        self.goals.insert(k, goal);
        goal
    }

    fn decode(
        &mut self,
        k: usize,
        model: &dyn Fn(Lit) -> bool,
        sink: &mut dyn ClauseSink,
    ) -> Decoded {
        let n = self.level.cell_count();
        let mut pushes = Vec::with_capacity(k);
        // The step and the push of each step's line start (each push of a parallel
        // step, in cell order, which the step allows).
        let mut firsts = Vec::with_capacity(k);
        for t in 0..k {
            let chosen: Vec<(Cell, Direction)> = (0..n)
                .flat_map(|c| Direction::ALL.map(|d| (c, d)))
                .filter(|&(c, d)| self.pushes[t][c][d.index()].eval(model))
                .collect();
            match (chosen.as_slice(), self.steps) {
                ([], _) => return Decoded::Invalid(format!("no push at step {t}")),
                ([_], _) | (_, Steps::Parallel) => {}
                _ => return Decoded::Invalid(format!("several pushes at step {t}")),
            }
            for &(mut c, d) in &chosen {
                firsts.push((t, (c, d)));
                pushes.push((c, d));
                // A line goes on while the box moves on from the cell it was pushed to.
                loop {
                    c = self.level.neighbor(c, d);
                    if !(self.steps == Steps::OneLine && self.moved[t][c][d.index()].eval(model)) {
                        break;
                    }
                    pushes.push((c, d));
                }
            }
        }
        // Check each step's walks on the model's own box configuration at its start;
        // every push the player cannot walk to gives a cut.
        let mut new_cuts = Vec::new();
        let mut region = Region::new(&self.level);
        for &(t, (c, d)) in &firsts {
            let boxes: Vec<bool> = (0..n).map(|x| self.boxes[t][x].eval(model)).collect();
            let Some(player) = (0..n).find(|&x| self.player[t][x].eval(model)) else {
                return Decoded::Invalid(format!("no player cell at step {t}"));
            };
            region.fill(&self.level, &boxes, player);
            let inside = region.mask();
            let behind = self.level.neighbor(c, d.opposite());
            if !inside[behind] {
                let walls: Vec<Cell> = (0..n)
                    .filter(|&x| {
                        boxes[x]
                            && !inside[x]
                            && Direction::ALL.iter().any(|&e| {
                                self.level.checked_neighbor(x, e).is_some_and(|y| inside[y])
                            })
                    })
                    .collect();
                new_cuts.push(Cut { inside, walls });
            }
        }
        if new_cuts.is_empty() {
            return match plan_from_pushes(&self.level, &pushes) {
                Ok(plan) => Decoded::Plan(plan),
                Err(i) => Decoded::Invalid(format!("push {} of the model cannot be made", i + 1)),
            };
        }
        if self.reach != Reach::Lazy {
            return Decoded::Invalid(
                "the encoded reachability let an unreachable push through".into(),
            );
        }
        let count = new_cuts.len();
        for cut in new_cuts {
            for t in 0..self.steps() {
                self.add_cut_at(&cut, t, sink);
            }
            self.cuts.push(cut);
        }
        Decoded::Refined(count)
    }

    fn variable_names(&self) -> Vec<(u32, String)> {
        let level = &self.level;
        let mut names = Vec::new();
        name_cells(&mut names, level, "box_at", &self.boxes);
        name_cells(&mut names, level, "player_at", &self.player);
        // A node of always-free cells is named once, after its first cell.
        let mut named = std::collections::HashSet::new();
        for (what, rows) in [("reach", &self.reach_last), ("on_walk", &self.on_walk)] {
            for (t, row) in rows.iter().enumerate() {
                for (c, term) in row.iter().enumerate() {
                    if let Some(l) = term.lit()
                        && named.insert(l.var())
                    {
                        names.push((l.var(), format!("{what} {} t{t}", level.cell_name(c))));
                    }
                }
            }
        }
        for (what, table) in [("push", &self.pushes), ("moved", &self.moved)] {
            for (t, row) in table.iter().enumerate() {
                for (c, dirs) in row.iter().enumerate() {
                    for d in Direction::ALL {
                        if let Some(l) = dirs[d.index()].lit() {
                            let (cell, dir) = (level.cell_name(c), d.letter(true));
                            names.push((l.var(), format!("{what} {cell} {dir} t{t}")));
                        }
                    }
                }
            }
        }
        for (&k, &g) in &self.goals {
            names.push((g.var(), format!("goal k{k}")));
        }
        names.sort();
        names
    }
}
