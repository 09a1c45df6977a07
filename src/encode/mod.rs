//! Encodings: a level unrolled into time-indexed CNF, one layer per step, and models
//! decoded back into plans. Each encoding is documented in `encodings/<name>.md`.

pub mod commute;
pub mod dimspec;
pub mod formula;
pub mod ice_moves;
pub mod moves;
pub mod pddl;
pub mod potential;
pub mod pushes;
pub mod walk_graph;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::analysis::Analysis;
use crate::game::{Metric, Plan};
use crate::level::Level;
use crate::sat::{ClauseSink, Lit, SolverName, Term};
use crate::stop::{Stop, Stopped};

/// The encodings satsoko has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EncodingKind {
    /// One player move per step (move-optimal).
    Moves,
    /// One push per step, reachability by breadth-first layers inside each step
    /// (push-optimal; the default: it solves the most levels by measurement).
    Pushes,
    /// One push per step, reachability by lazy cuts added when a model's walk is
    /// impossible (push-optimal; smaller formulas, faster on easy levels).
    PushesLazy,
    /// One push per step, reachability by one marked walk per step whose nodes count
    /// their neighbours on it (Bofill et al.'s path encoding; push-optimal).
    PushesPath,
    /// One box line per step (a box pushed any number of cells in one direction),
    /// reachability by layers: the fewest box lines, a lower bound on the pushes.
    PushesFolded,
    /// One or more pushes of distinct boxes per step that do not interfere (∃-step),
    /// reachability by layers: the fewest such steps, a lower bound on the pushes.
    PushesParallel,
}

impl EncodingKind {
    /// All encodings, for help texts.
    pub const ALL: [EncodingKind; 6] = [
        EncodingKind::Moves,
        EncodingKind::Pushes,
        EncodingKind::PushesLazy,
        EncodingKind::PushesPath,
        EncodingKind::PushesFolded,
        EncodingKind::PushesParallel,
    ];

    /// The name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            EncodingKind::Moves => "moves",
            EncodingKind::Pushes => "pushes",
            EncodingKind::PushesLazy => "pushes-lazy",
            EncodingKind::PushesPath => "pushes-path",
            EncodingKind::PushesFolded => "pushes-folded",
            EncodingKind::PushesParallel => "pushes-parallel",
        }
    }

    /// The document in `encodings/` that describes it.
    pub fn document(self) -> &'static str {
        match self {
            EncodingKind::Moves => "encodings/moves.md",
            EncodingKind::Pushes
            | EncodingKind::PushesLazy
            | EncodingKind::PushesPath
            | EncodingKind::PushesFolded
            | EncodingKind::PushesParallel => "encodings/pushes.md",
        }
    }

    /// The encoding to write as a self-contained CNF: lazy reachability needs the solver
    /// loop, so a DIMACS file of `pushes-lazy` uses the layered form (`pushes`).
    pub fn for_export(self) -> EncodingKind {
        match self {
            EncodingKind::PushesLazy => EncodingKind::Pushes,
            other => other,
        }
    }

    /// The metric the encoding's plans are counted in and its bounds bound: the first
    /// satisfiable k is its optimum, but for `pushes-folded` and `pushes-parallel`,
    /// whose k counts box lines or parallel steps, only a lower bound on the pushes (see
    /// [`EncodingKind::counts_the_metric`]).
    pub fn metric(self) -> Metric {
        match self {
            EncodingKind::Moves => Metric::Moves,
            EncodingKind::Pushes
            | EncodingKind::PushesLazy
            | EncodingKind::PushesPath
            | EncodingKind::PushesFolded
            | EncodingKind::PushesParallel => Metric::Pushes,
        }
    }

    /// Whether k counts the metric itself, so that the first satisfiable k is the
    /// optimum; `pushes-folded` counts box lines and `pushes-parallel` steps of one or
    /// more pushes, and their plans at the fewest steps are push-optimal only if every
    /// step is one push.
    pub fn counts_the_metric(self) -> bool {
        !matches!(
            self,
            EncodingKind::PushesFolded | EncodingKind::PushesParallel
        )
    }

    /// The default encoding for a metric: `moves`, or the layered `pushes`.
    pub fn for_metric(metric: Metric) -> EncodingKind {
        match metric {
            Metric::Moves => EncodingKind::Moves,
            Metric::Pushes => EncodingKind::Pushes,
        }
    }

    /// The encoding that proves the most for `metric` with the in-process `solver`
    /// (`None`: an outside solver), when the user names none (encodings/pushes.md,
    /// "Measurements"): for pushes, the layers of `pushes` with varisat and with outside
    /// solvers, the walk of `pushes-path` with CaDiCaL.
    pub fn for_solver(metric: Metric, solver: Option<SolverName>) -> EncodingKind {
        match (metric, solver) {
            (Metric::Pushes, Some(SolverName::Cadical)) => EncodingKind::PushesPath,
            (metric, _) => EncodingKind::for_metric(metric),
        }
    }

    /// Whether the encoding models ice (slides). The pushes encodings do not (yet): the
    /// driver solves ice levels with `moves` instead.
    pub fn supports_ice(self) -> bool {
        self == EncodingKind::Moves
    }

    /// The sound lower bound on k that the driver starts from.
    pub fn lower_bound(self, analysis: &Analysis) -> usize {
        match self {
            EncodingKind::Moves => analysis.move_lower_bound,
            // One step, unless the level is solved (or refuted) already: the goal
            // clauses prune by the lines or the pushes each box needs.
            EncodingKind::PushesFolded | EncodingKind::PushesParallel => {
                analysis.push_lower_bound.min(1)
            }
            EncodingKind::Pushes | EncodingKind::PushesLazy | EncodingKind::PushesPath => {
                analysis.push_lower_bound
            }
        }
    }

    /// The parity every plan's k has in this encoding, when it is fixed: a push encoding
    /// counts pushes (see `Analysis::push_parity`); `moves` has none.
    pub fn parity(self, analysis: &Analysis) -> Option<usize> {
        match self {
            EncodingKind::Moves | EncodingKind::PushesFolded | EncodingKind::PushesParallel => None,
            EncodingKind::Pushes | EncodingKind::PushesLazy | EncodingKind::PushesPath => {
                analysis.push_parity
            }
        }
    }

    /// Builds the encoding for a level: the state at step 0, no transitions yet.
    pub fn build(
        self,
        level: &Level,
        analysis: &Analysis,
        sink: &mut dyn ClauseSink,
    ) -> Box<dyn Encoding> {
        match self {
            EncodingKind::Moves if level.has_ice() => {
                Box::new(ice_moves::IceMovesEncoding::new(level, analysis))
            }
            EncodingKind::Moves => Box::new(moves::MovesEncoding::new(level, analysis, sink)),
            EncodingKind::Pushes => Box::new(pushes::PushesEncoding::new(
                level,
                analysis,
                pushes::Reach::Layered,
            )),
            EncodingKind::PushesLazy => Box::new(pushes::PushesEncoding::new(
                level,
                analysis,
                pushes::Reach::Lazy,
            )),
            EncodingKind::PushesPath => Box::new(pushes::PushesEncoding::new(
                level,
                analysis,
                pushes::Reach::Path,
            )),
            EncodingKind::PushesFolded => Box::new(pushes::PushesEncoding::folded(level, analysis)),
            EncodingKind::PushesParallel => {
                Box::new(pushes::PushesEncoding::parallel(level, analysis))
            }
        }
    }
}

impl fmt::Display for EncodingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EncodingKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "pushes-layered" {
            return Ok(EncodingKind::Pushes); // the earlier name of the layered form
        }
        EncodingKind::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown encoding {s:?}: use moves, pushes, pushes-lazy, pushes-path or pushes-folded"))
    }
}

/// The goal clauses every encoding shares: goal(k) → box_at(g, k) for every goal g, and
/// the backward pruning: under goal(k), a box at x at step t must still reach a goal in
/// the k − t steps left, each push being at least one step.
pub(crate) fn add_goal_clauses(
    sink: &mut dyn ClauseSink,
    goal: Lit,
    level: &Level,
    boxes: &[Vec<Term>],
    pushes_to_goal: &[u32],
    k: usize,
) {
    for g in level.goal_cells() {
        sink.clause(&[(!goal).into(), boxes[k][g]]);
    }
    for (t, row) in boxes.iter().enumerate().take(k + 1) {
        for (x, &b) in row.iter().enumerate() {
            if b.lit().is_some() && pushes_to_goal[x] as usize > k - t {
                sink.clause(&[(!goal).into(), !b]);
            }
        }
    }
}

/// For a time-uniform variant (DIMSPEC): the start's player and box terms, with a
/// variable fixed by a unit clause on every cell where `player_may` (`box_may`) holds
/// and the start's constant elsewhere.
pub(crate) fn start_as_variables(
    sink: &mut dyn ClauseSink,
    level: &Level,
    player_may: impl Fn(usize) -> bool,
    box_may: impl Fn(usize) -> bool,
) -> (Vec<Term>, Vec<Term>) {
    let mut row = |may: &dyn Fn(usize) -> bool, at_start: &dyn Fn(usize) -> bool| {
        let term = |c| match may(c) {
            true => {
                let v = sink.new_var();
                sink.add_clause(&[if at_start(c) { v } else { !v }]);
                Term::Lit(v)
            }
            false => Term::Const(at_start(c)),
        };
        (0..level.cell_count()).map(term).collect::<Vec<Term>>()
    };
    let player = row(&player_may, &|c| c == level.player());
    let boxes = row(&box_may, &|c| level.has_initial_box(c));
    (player, boxes)
}

/// The `box_at` terms of a new step: a variable on every region cell where `possible`
/// holds, false on the other region cells, and the initial content outside the region,
/// where nothing ever moves.
pub(crate) fn next_box_terms(
    sink: &mut dyn ClauseSink,
    level: &Level,
    region: &[bool],
    possible: impl Fn(usize) -> bool,
) -> Vec<Term> {
    (0..level.cell_count())
        .map(|c| {
            if !region[c] {
                Term::Const(level.has_initial_box(c))
            } else if possible(c) {
                sink.new_var().into()
            } else {
                Term::FALSE
            }
        })
        .collect()
}

/// Names the variables of a per-step, per-cell table: `label rRcC tT`.
pub(crate) fn name_cells(
    names: &mut Vec<(u32, String)>,
    level: &Level,
    label: &str,
    table: &[Vec<Term>],
) {
    for (t, row) in table.iter().enumerate() {
        for (c, term) in row.iter().enumerate() {
            if let Some(l) = term.lit() {
                names.push((l.var(), format!("{label} {} t{t}", level.cell_name(c))));
            }
        }
    }
}

/// What a model turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A plan (still to be replayed by the caller).
    Plan(Plan),
    /// Not a real plan; this many clauses (cuts) were added to rule it out. Solve again.
    Refined(usize),
    /// The model does not describe a plan at all (a bug, or a model of another formula).
    Invalid(String),
}

/// The most variables and clauses, together, that an engine lets a formula grow to.
/// varisat holds about 100 bytes per variable and per clause (under `unroll`, XSokoban
/// 40 holds 3.5 million variables and 7.3 million clauses in 1.1 GB), so a formula this
/// size takes about 1.2 GB: with the analysis beside it, a solve stays inside its 2 GiB.
pub const FORMULA_BUDGET: u64 = 12_000_000;

/// The most variables and clauses of one SAT question's formula (a window of the
/// shortening, a subgoal) and of one step of an unrolled formula: a quarter of
/// [`FORMULA_BUDGET`], about 300 MB, since under `anytime` the plan finders run beside
/// a question.
pub const QUESTION_BUDGET: u64 = FORMULA_BUDGET / 4;

/// The variables and clauses together that one step of the layered `pushes` encoding
/// adds to `level`, about, once every live cell may hold a box: each reachability
/// variable comes with up to two clauses, and they are most of a step on any board with
/// room to walk.
pub fn layered_step_size(level: &Level, analysis: &Analysis) -> u64 {
    3 * pushes::layer_variables(level, analysis) as u64
}

/// The variables and clauses together that one step of `pushes-path` adds to `level`,
/// about, once every live cell may hold a box: its walk costs some twenty per node of
/// the walking graph, so the pushes (six per push: the variable and its five clauses)
/// and the potential's counter (its cap times a few changes) count too.
pub fn path_step_size(level: &Level, analysis: &Analysis) -> u64 {
    let graph = walk_graph::WalkGraph::new(level, &analysis.region, |c| analysis.live[c]);
    let live = analysis.live.iter().filter(|&&l| l).count() as u64;
    let cap = (potential::initial_potential(level, analysis) + potential::POTENTIAL_SLACK) as u64;
    20 * graph.len() as u64 + 24 * live + 8 * cap
}

/// The variables and clauses together that one step of `pushes-folded` adds to
/// `level`, about: the layers of [`layered_step_size`], and per live cell and direction
/// a `moved` and a `push` variable with some eight clauses.
pub fn folded_step_size(level: &Level, analysis: &Analysis) -> u64 {
    let live = analysis.live.iter().filter(|&&l| l).count() as u64;
    layered_step_size(level, analysis) + 40 * live
}

/// The variables and clauses together that one step of `pushes-parallel` adds to
/// `level`, about: the layers of [`layered_step_size`] (whose graph already gives every
/// live cell, so every cell a box may enter, a node of its own), and per live cell up to
/// four pushes with their clauses, the at-most-ones and the count toward `several`.
pub fn parallel_step_size(level: &Level, analysis: &Analysis) -> u64 {
    let live = analysis.live.iter().filter(|&&l| l).count() as u64;
    layered_step_size(level, analysis) + 60 * live
}

/// [`layered_step_size`] or [`path_step_size`], by the reachability the step has.
pub fn pushes_step_size(level: &Level, analysis: &Analysis, reach: pushes::Reach) -> u64 {
    match reach {
        pushes::Reach::Path => path_step_size(level, analysis),
        _ => layered_step_size(level, analysis),
    }
}

/// The size of one step of `kind`, where it is known before the formula is built: the
/// layered and the path `pushes` encodings (the others are measured on their first
/// step).
pub fn known_step_size(kind: EncodingKind, level: &Level, analysis: &Analysis) -> Option<u64> {
    match kind {
        EncodingKind::Pushes => Some(layered_step_size(level, analysis)),
        EncodingKind::PushesPath => Some(path_step_size(level, analysis)),
        EncodingKind::PushesFolded => Some(folded_step_size(level, analysis)),
        EncodingKind::PushesParallel => Some(parallel_step_size(level, analysis)),
        EncodingKind::Moves | EncodingKind::PushesLazy => None,
    }
}

/// An encoding being unrolled step by step into a clause sink.
///
/// Step t's state variables exist once `steps() >= t`; `goal_literal(k)` is a literal
/// that, when assumed, asks for the goal to hold at step k exactly.
pub trait Encoding {
    /// The encoding's kind.
    fn kind(&self) -> EncodingKind;
    /// Number of transitions added so far.
    fn steps(&self) -> usize;
    /// Adds the transition from step `steps()` to `steps() + 1`, unless `stop` says
    /// stop first. A step can take a second on a big board, so the encodings whose
    /// steps grow faster than the board read the stop inside it too; after
    /// `Err(Stopped)` the encoding and the clauses written into `sink` are incomplete
    /// and must be thrown away.
    fn add_step(&mut self, sink: &mut dyn ClauseSink, stop: &Stop) -> Result<(), Stopped>;
    /// The literal meaning "the level is solved at step k" (k ≤ `steps()`), adding the
    /// clauses it guards the first time it is asked for.
    fn goal_literal(&mut self, k: usize, sink: &mut dyn ClauseSink) -> Lit;
    /// Decodes a model of the formula with the goal at step k into a plan, or, when the
    /// model is not a real plan (lazy encodings), adds clauses that rule it out.
    fn decode(
        &mut self,
        k: usize,
        model: &dyn Fn(Lit) -> bool,
        sink: &mut dyn ClauseSink,
    ) -> Decoded;
    /// What each variable means, as `(variable, description)`, for DIMACS comments.
    fn variable_names(&self) -> Vec<(u32, String)>;
}
