//! The arguments resolved once into a typed configuration: clap's flags (low level)
//! become the engine choice and the request every level is solved with (high level).
//! Choices that cannot go together are refused here, before anything runs.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::args::{EngineArgs, FormatArg, OptimizeArg, PdrTechnique, QuestionsArg};
use crate::engine::finder::Techniques;
use crate::engine::{self, Engine, EngineChoice, Questions, Request, Tuning};
use crate::game::Metric;
use crate::level::{Format, Level};
use crate::sat::SolverChoice;

/// How every level of a run is solved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveConfig {
    /// The engine, or `auto`.
    pub engine: EngineChoice,
    /// The metric, encoding, solver and bound.
    pub request: Request,
    /// The wall-clock limit per level.
    pub timeout: Option<Duration>,
    /// The input format forced with `--format`.
    pub format: Option<Format>,
    /// With `--trace`: the most expansions printed per level (`None`: no trace).
    #[serde(default)]
    pub trace: Option<usize>,
}

/// What a configuration is for: some commands need more of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Solving levels (`solve`, `bench`).
    Solve,
    /// Sweeping the bound of an unrolled formula (`sweep`).
    Sweep,
}

impl SolveConfig {
    /// Resolves the engine arguments; `Err` is a usage error that names the options.
    pub fn new(
        args: &EngineArgs,
        max_steps: Option<usize>,
        timeout: Option<f64>,
        format: Option<FormatArg>,
        purpose: Purpose,
    ) -> Result<SolveConfig, String> {
        let metric = match (args.encoding, args.optimize) {
            (Some(encoding), _) => encoding.metric(),
            (None, Some(OptimizeArg::Moves)) => Metric::Moves,
            (None, Some(OptimizeArg::Pushes | OptimizeArg::None)) => Metric::Pushes,
            // A named engine counts its own metric unless told otherwise (bdd: moves).
            (None, None) => match args.engine {
                EngineChoice::Named(engine) => engine.about().metrics[0],
                EngineChoice::Auto => Metric::Pushes,
            },
        };
        let prove = args.optimize != Some(OptimizeArg::None);
        let solver = match (&args.solver_cmd, args.solver) {
            (Some(cmd), _) => SolverChoice::Command(cmd.clone()),
            (None, solver) => SolverChoice::Builtin(solver.name()),
        };
        let request = Request {
            metric,
            prove,
            encoding: args.encoding,
            solver,
            max_steps,
            tuning: tuning_of(args)?,
        };
        if let EngineChoice::Named(engine) = args.engine {
            let name = engine.about().name;
            if purpose == Purpose::Sweep && !engine.about().encodings {
                return Err(format!(
                    "--engine {name} unrolls no formula; sweep needs --engine unroll (or auto)"
                ));
            }
            engine::check_options(engine, &request)?;
        }
        Ok(SolveConfig {
            engine: args.engine,
            request,
            timeout: timeout.map(Duration::from_secs_f64),
            format: format.map(format_of),
            trace: None,
        })
    }

    /// Traces the search of every level, printing at most `limit` expansions of each;
    /// `Err` (a usage error) unless the engine named is one that traces its search.
    pub fn trace(&mut self, limit: usize) -> Result<(), String> {
        let tracing: Vec<&str> = (engine::ENGINES.iter())
            .filter(|e| e.about().traces)
            .map(|e| e.about().name)
            .collect();
        match self.engine {
            EngineChoice::Named(e) if e.about().traces => {
                self.trace = Some(limit);
                Ok(())
            }
            _ => Err(format!(
                "--trace prints the expansions of --engine {}, the only engine that traces \
                 its search; add --engine {}",
                tracing.join(" or "),
                tracing[0]
            )),
        }
    }

    /// [`SolveConfig::new`] with a refusal printed on stderr: `Err` holds the exit code
    /// of a usage error.
    pub fn or_usage(
        args: &EngineArgs,
        max_steps: Option<usize>,
        timeout: Option<f64>,
        format: Option<FormatArg>,
        purpose: Purpose,
    ) -> Result<SolveConfig, i32> {
        SolveConfig::new(args, max_steps, timeout, format, purpose).map_err(|e| {
            eprintln!("error: {e}");
            super::report::EXIT_USAGE
        })
    }

    /// The engine that solves `level`.
    pub fn engine_for(&self, level: &Level) -> &'static dyn Engine {
        self.engine.engine_for(level, &self.request)
    }
}

/// The engines' tuning of the `--finder-off`, `--finder-on`, `--pdr-off`, `--memory`,
/// `--horizons` and `--questions` options.
fn tuning_of(args: &EngineArgs) -> Result<Tuning, String> {
    Ok(Tuning {
        finder: Techniques::DEFAULT.switched(&args.finder_off, &args.finder_on)?,
        pdr_lemmas: !args.pdr_off.contains(&PdrTechnique::Lemmas),
        // The parser caps --memory at 1 TiB, which fits a usize on 64-bit machines.
        memory: usize::try_from(args.memory << 20).map_err(|_| "--memory is too large here")?,
        horizons: args.horizons as usize,
        questions: match args.questions {
            QuestionsArg::Both => Questions::Both,
            QuestionsArg::Layers => Questions::Layers,
            QuestionsArg::Path => Questions::Path,
            QuestionsArg::Folded => Questions::Folded,
        },
    })
}

/// The level format of a `--format` value.
pub fn format_of(arg: FormatArg) -> Format {
    match arg {
        FormatArg::Xsb => Format::Xsb,
        FormatArg::Numeric => Format::Numeric,
        FormatArg::Digits => Format::Digits,
    }
}
