//! Engines: the ways satsoko searches for a plan, behind one contract.
//!
//! Every engine declares what it can do ([`About`]: the metrics it counts, whether it
//! proves optimality, the SAT backend it needs, the cores it uses, whether it handles
//! ice), takes a [`Task`] and a [`Stop`] it checks itself, reports as it goes on the
//! solve's [`Incumbent`] (plans it finds, lower bounds it proves, what it is doing), and
//! answers with an [`Outcome`]: the verdict, the plan, the bounds and its statistics as
//! data (the CLI puts them into words). [`solve`] is the only way in (or
//! [`solve_analysed`], for a caller that keeps the level's analysis): it analyses the
//! level, checks that the engine can do the task, runs it, keeps the best plan found
//! when the engine is stopped, and replays every plan through the rules engine before
//! anyone sees it. The techniques and memory of the engines come in the request's
//! [`Tuning`]; no engine reads the environment. The `auto` policy is in [`registry`].
//!
//! A new engine is a file or folder here and one line in the `engines!` list below:
//! that line declares its module and registers it in [`ENGINES`], so `--engine`,
//! `--help`, `auto` and `bench` know it.

/// Declares each engine's module and lists its engine in [`ENGINES`], in the order
/// `auto` prefers them: one line per engine.
macro_rules! engines {
    ($($module:ident::$engine:ident,)*) => {
        $(pub mod $module;)*

        /// Every engine, in the order `auto` prefers them.
        pub static ENGINES: &[&dyn Engine] = &[$(&$module::$engine),*];
    };
}

engines! {
    anytime::Anytime,
    pdr::Pdr,
    finder::Finder,
    astar::Astar,
    unroll::Unroll,
    subgoals::Subgoals,
    bdd::Symbolic,
}

mod incumbent;
pub mod oracle;
mod outcome;
pub mod push_search;
pub mod registry;
pub mod shorten;
pub mod state_search;
pub mod table;
pub mod target;
pub mod trace;
mod tuning;

pub use incumbent::{Found, Incumbent, Status};
pub use outcome::{FormulaSize, Outcome, SolveError, Statistics, StopReason, Verdict};
pub use registry::EngineChoice;
pub use trace::{Expansion, SearchTrace, TracedStep};
pub use tuning::{DEFAULT_HORIZONS, DEFAULT_MEMORY, Questions, Tuning};

pub use crate::stop::Stop;

use std::time::Instant;

use crate::analysis::Analysis;
use crate::encode::EncodingKind;
use crate::game::Metric;
use crate::level::Level;
use crate::sat::SolverChoice;

/// What an engine needs of the SAT layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatUse {
    /// No SAT solver at all.
    None,
    /// A solver in this process: it is asked many small questions.
    InProcess,
    /// Any backend, outside DIMACS programs included.
    Any,
}

/// What an engine declares about itself.
#[derive(Debug)]
pub struct About {
    /// The name `--engine` takes and reports show.
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// The metrics it counts plans in (the first is its default).
    pub metrics: &'static [Metric],
    /// Whether it proves its plans optimal (else it only finds plans).
    pub optimal: bool,
    /// The SAT backend it needs.
    pub sat: SatUse,
    /// Whether it reads `--encoding` (unrolls a time-indexed formula).
    pub encodings: bool,
    /// Whether it handles levels with ice.
    pub ice: bool,
    /// How many cores it keeps busy with the default tuning (see [`Engine::cores`]).
    pub cores: usize,
    /// Whether `--engine auto` may pick it (the order of the registry is the order of
    /// preference).
    pub auto: bool,
    /// Whether, among the plans optimal in its metric, it finds one with the fewest
    /// moves (a search over whole states does): `auto` prefers it for optimal plans on
    /// ice, where it is also as fast as the others.
    pub fewest_moves_among_optimal: bool,
    /// Whether it sends its expansions to the task's trace (`solve --trace`).
    pub traces: bool,
}

/// What to solve and how.
#[derive(Clone, Copy)]
pub struct Task<'a> {
    /// The level.
    pub level: &'a Level,
    /// Its static analysis.
    pub analysis: &'a Analysis,
    /// The metric to minimise.
    pub metric: Metric,
    /// The encoding the user named, if any (engines that unroll a formula).
    pub encoding: Option<EncodingKind>,
    /// The SAT solver (engines that ask one).
    pub solver: &'a SolverChoice,
    /// The longest plan to look for, in steps of the metric (pushes or moves), if the
    /// user set one.
    pub max_steps: Option<usize>,
    /// The techniques and memory the engines use.
    pub tuning: Tuning,
    /// Where a search that traces its expansions (`astar`) sends them (`None`: no
    /// trace).
    pub trace: Option<&'a dyn SearchTrace>,
}

impl Task<'_> {
    /// Whether a plan of `steps` is beyond the user's bound.
    pub fn beyond_bound(&self, steps: usize) -> bool {
        self.max_steps.is_some_and(|max| steps > max)
    }
}

/// An engine: see the module documentation.
pub trait Engine: Sync {
    /// What it can do.
    fn about(&self) -> &'static About;

    /// The encoding it reports for `task` (the unrolled formula's, or its own formula's
    /// family), if any.
    fn encoding(&self, task: &Task) -> Option<EncodingKind> {
        let _ = task;
        None
    }

    /// How many cores it keeps busy with `tuning`.
    fn cores(&self, tuning: &Tuning) -> usize {
        let _ = tuning;
        self.about().cores
    }

    /// Solves `task`, checking `stop` itself and reporting on `board` as it goes (plans
    /// it finds, lower bounds it proves, what it is doing). The plan of a `Solved`
    /// verdict is replayed by [`solve`] before anyone sees it.
    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError>;
}

/// Whether `engine` can solve `level` as `request` asks: `Err` says why not, in words
/// that name the option to change.
pub fn check(engine: &dyn Engine, level: &Level, request: &Request) -> Result<(), SolveError> {
    let name = engine.about().name;
    if level.has_ice() && !engine.about().ice {
        return Err(SolveError::Unsupported(format!(
            "the {name} search does not handle ice; this level has ice (use --engine astar, \
             or auto)"
        )));
    }
    check_options(engine, request).map_err(SolveError::Unsupported)
}

/// The part of [`check`] that needs no level: whether `engine` proves `request`'s
/// metric optimal, reads the encoding named, and can use the solver.
pub fn check_options(engine: &dyn Engine, request: &Request) -> Result<(), String> {
    let about = engine.about();
    let name = about.name;
    if request.prove && !about.optimal {
        return Err(format!(
            "--engine {name} finds plans but proves no optimum; add --optimize none, or \
             use another engine"
        ));
    }
    if !about.metrics.contains(&request.metric) || (request.encoding.is_some() && !about.encodings)
    {
        let other = match about.metrics[0] {
            Metric::Moves => Metric::Pushes,
            Metric::Pushes => Metric::Moves,
        };
        return Err(format!(
            "--engine {name} searches {} with its own formula; drop --encoding / \
             --optimize {other}, or use --engine unroll",
            about.metrics[0]
        ));
    }
    if about.sat == SatUse::InProcess && !request.solver.in_process() {
        return Err(format!(
            "--engine {name} asks its solver thousands of small questions; use --solver \
             varisat or cadical, not --solver-cmd"
        ));
    }
    Ok(())
}

/// Analyses `level` and solves it with `engine`, which reports on `board` as it goes:
/// the gate every plan passes. A level the static analysis proves unsolvable is answered
/// without running the engine; the analysis itself stops at `stop` (with what it has,
/// which stays sound), and an engine is not started after the stop; an engine stopped
/// before its verdict answers with the best plan found (a timeout never loses a plan);
/// a plan the rules engine rejects is a bug of the engine and becomes
/// [`SolveError::Internal`], never output.
pub fn solve(
    engine: &dyn Engine,
    level: &Level,
    request: &Request,
    stop: &Stop,
    board: &Incumbent,
) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    let analysis = Analysis::until(level, stop);
    let analysed = Analysed {
        level,
        analysis: &analysis,
        start,
    };
    solve_analysed(engine, analysed, request, stop, board, None)
}

/// A level with its static analysis, made by a caller who needs it again (for a
/// certificate), and when its solve started (the clock of the outcome).
#[derive(Clone, Copy)]
pub struct Analysed<'a> {
    /// The level.
    pub level: &'a Level,
    /// Its static analysis.
    pub analysis: &'a Analysis,
    /// When the solve started, the analysis included.
    pub start: Instant,
}

/// [`solve`] with the level analysed by the caller; a search that traces its
/// expansions sends them to `trace`.
pub fn solve_analysed(
    engine: &dyn Engine,
    analysed: Analysed,
    request: &Request,
    stop: &Stop,
    board: &Incumbent,
    trace: Option<&dyn SearchTrace>,
) -> Result<Outcome, SolveError> {
    let Analysed {
        level,
        analysis,
        start,
    } = analysed;
    check(engine, level, request)?;
    let task = Task {
        level,
        analysis,
        metric: request.metric,
        encoding: request.encoding,
        solver: &request.solver,
        max_steps: request.max_steps,
        tuning: request.tuning,
        trace,
    };
    // A verdict reached without running the engine, reported as the engine's.
    let without_running = |verdict| {
        let mut o = Outcome::new(engine.about(), request.metric, verdict);
        o.encoding = engine.encoding(&task);
        o.solver = (engine.about().sat != SatUse::None).then(|| request.solver.name().into());
        o
    };
    let mut outcome = match &analysis.unsolvable {
        Some(reason) => without_running(Verdict::unsolvable(reason)),
        None => {
            // The static lower bound is proved for every engine.
            board.raise_lower(match request.metric {
                Metric::Moves => analysis.move_lower_bound,
                Metric::Pushes => analysis.push_lower_bound,
            });
            if stop.should_stop() {
                without_running(Verdict::Stopped {
                    why: StopReason::Time,
                })
            } else {
                engine.run(&task, stop, board)?
            }
        }
    };
    outcome.elapsed = start.elapsed();
    outcome.take_board(board);
    if let Verdict::Solved { plan, .. } = &outcome.verdict
        && let Err(e) = plan.verify(level)
    {
        return Err(SolveError::Internal(format!(
            "the {} engine produced the plan {}, which fails replay: {e}",
            engine.about().name,
            plan.lurd()
        )));
    }
    Ok(outcome)
}

/// What the user asks of every level: the metric, whether to prove the optimum, the
/// encoding and solver, the bound.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Request {
    /// The metric to minimise.
    pub metric: Metric,
    /// Whether to prove the plan optimal (else the first verified plan will do).
    pub prove: bool,
    /// The encoding named with `--encoding`, if any.
    pub encoding: Option<EncodingKind>,
    /// The SAT solver.
    pub solver: SolverChoice,
    /// The longest plan to look for, in steps of the metric (`None`: no bound).
    pub max_steps: Option<usize>,
    /// The engines' techniques and memory (the defaults unless measuring).
    pub tuning: Tuning,
}
