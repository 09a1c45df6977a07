//! Command-line arguments.
//!
//! The doc comments of the arguments are clap's help text, read in a terminal, where
//! `<file stem>` is a placeholder, not an HTML tag.
#![allow(rustdoc::invalid_html_tags)]

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::encode::EncodingKind;
use crate::engine::finder::Techniques;
use crate::engine::{ENGINES, EngineChoice};
use crate::sat::SolverName;

/// satsoko: Sokoban solved by SAT. Reads XSB/SOK level collections and prints verified,
/// optimal LURD solutions (lower case = walk, upper case = push).
#[derive(Parser, Debug)]
#[command(
    name = "satsoko",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Exit codes: 0 all solved, 1 input error, 2 usage error, 3 unsolvable, \
                  4 no plan within the bound, 5 timeout, 6 solution rejected (verify), \
                  70 internal error, 130 interrupted (Ctrl-C)."
)]
pub struct Cli {
    /// Input format of level files: xsb, numeric or digits (default: detected from the
    /// content).
    #[arg(long, global = true, value_enum, value_name = "FORMAT")]
    pub format: Option<FormatArg>,
    /// A subcommand; without one, satsoko solves the given files.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Solving options (when no subcommand is given).
    #[command(flatten)]
    pub solve: SolveArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve levels (the default when no subcommand is given).
    Solve(SolveArgs),
    /// Check a LURD solution, or the solutions stored in a collection file, with the
    /// rules engine.
    Verify(VerifyArgs),
    /// Write the CNF of a level for an outside solver (DIMACS, with variable names).
    Encode(EncodeArgs),
    /// Turn an outside solver's answer for `encode`'s CNF back into a verified plan.
    Decode(DecodeArgs),
    /// For each bound k: SAT or UNSAT, formula size, time (table, CSV, SVG plot).
    Sweep(SweepArgs),
    /// Solve whole collections, each level in its own process, and summarise.
    Bench(BenchArgs),
    /// Check a certificate: a DIMACS formula and its LRAT refutation.
    CheckProof(CheckProofArgs),
    /// Solve Binairo (Takuzu) puzzles and prove their solution unique, or generate some.
    Binairo(BinairoArgs),
    /// Internal: solve one level described on standard input (a bench worker).
    #[command(hide = true)]
    Worker,
}

/// A bound or a range of bounds: `K` or `A..B` (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepRange {
    /// First bound.
    pub from: usize,
    /// Last bound (inclusive).
    pub to: usize,
}

impl std::str::FromStr for StepRange {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("{s:?} is not a bound: use K or A..B");
        let (a, b) = s.split_once("..").unwrap_or((s, s));
        let from: usize = a.trim().parse().map_err(|_| bad())?;
        let to: usize = b
            .trim()
            .trim_start_matches('=')
            .parse()
            .map_err(|_| bad())?;
        if to < from {
            return Err(bad());
        }
        Ok(StepRange { from, to })
    }
}

/// Options of `satsoko encode`.
#[derive(Args, Debug, Clone)]
pub struct EncodeArgs {
    /// The level file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The level in the file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub level: usize,
    /// The bound K (the CNF is satisfiable iff a plan of at most K steps exists), or a
    /// range A..B with --out-dir (one file per bound).
    #[arg(
        long,
        value_name = "K|A..B",
        required_unless_present_any = ["dimspec", "binairo", "pddl"]
    )]
    pub steps: Option<StepRange>,
    /// The CNF encoding (`pushes-lazy` is written in its self-contained layered form).
    #[arg(long, default_value = "pushes", value_name = "NAME")]
    pub encoding: EncodingKind,
    /// Output file (default: standard output).
    #[arg(short = 'o', long, value_name = "FILE", conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one file per bound into this directory (`<file>-<level>-k<K>.cnf`).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Write the incremental DIMSPEC form (initial, universal, goal, transition) instead;
    /// it has no bound (the moves, pushes and pushes-path encodings).
    #[arg(long, conflicts_with_all = ["steps", "out_dir"])]
    pub dimspec: bool,
    /// FILE holds Binairo puzzles: write the formula of puzzle `--level N`
    /// (encodings/binairo.md), satisfiable iff the puzzle has a solution.
    #[arg(long, conflicts_with_all = ["steps", "out_dir", "dimspec"])]
    pub binairo: bool,
    /// Write the level as a PDDL problem of the IPC-2008 Sokoban domain (pushes cost
    /// 1, walks 0: a plan of least cost is push-optimal), for any PDDL planner.
    #[arg(long, conflicts_with_all = ["steps", "out_dir", "dimspec", "binairo"])]
    pub pddl: bool,
    /// With --pddl: also write the domain file the problem is for.
    #[arg(long, value_name = "FILE", requires = "pddl")]
    pub pddl_domain: Option<PathBuf>,
}

/// Options of `satsoko decode`.
#[derive(Args, Debug, Clone)]
pub struct DecodeArgs {
    /// The level file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The level in the file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub level: usize,
    /// The bound K the CNF was written for.
    #[arg(long, value_name = "K")]
    pub steps: usize,
    /// The CNF encoding the CNF was written with.
    #[arg(long, default_value = "pushes", value_name = "NAME")]
    pub encoding: EncodingKind,
    /// The solver's answer: `s`/`v` lines, or plain signed literals (`-` = stdin).
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Options of `satsoko sweep`.
#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// The level file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The level in the file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub level: usize,
    /// First bound.
    #[arg(long, value_name = "A")]
    pub from: usize,
    /// Last bound (inclusive).
    #[arg(long, value_name = "B")]
    pub to: usize,
    /// Encoding and solver.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Also write the table as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also plot time (log scale) against k, SAT and UNSAT marked, as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Options of `satsoko bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Level files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Levels to run: N, A-B or a list like 1,4-6 (default: all).
    #[arg(long, value_name = "N|A-B")]
    pub level: Option<LevelSelection>,
    /// Wall-clock limit per level in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds,
          required_unless_present = "merge")]
    pub timeout: Option<f64>,
    /// Run only slice I of N (every N-th selected level, from the I-th): one machine's
    /// share when a collection is split across N machines or jobs.
    #[arg(long, value_name = "I/N", conflicts_with = "merge")]
    pub shard: Option<Shard>,
    /// Binairo puzzles instead of Sokoban levels, with these engines side by side
    /// (`sat`, `fc`, `mac`, comma-separated): verdicts and times per engine and size.
    #[arg(long, value_name = "ENGINES", value_delimiter = ',',
          conflicts_with_all = ["merge", "compare"])]
    pub binairo: Vec<BinairoEngine>,
    /// Solve nothing: FILE... are `--json` (or `--csv`) results of earlier runs, such as
    /// the shards of one collection, joined into one summary (and one `--csv`/`--json`).
    #[arg(long)]
    pub merge: bool,
    /// Levels run at once (each in its own process). On a small machine, 1 gives the
    /// least distorted times.
    #[arg(long, default_value_t = 1, value_name = "J")]
    pub jobs: usize,
    /// The longest plan to look for, in pushes (moves for the moves encoding); no
    /// bound unless given.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<usize>,
    /// Encoding and solver.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Write per-level results as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write per-level results as JSON lines.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// A CSV of an earlier bench run to compare with (per-level time ratios).
    #[arg(long, value_name = "OLD.csv")]
    pub compare: Option<PathBuf>,
}

/// One slice of a collection: the `index`-th (1-based) of `count` (`--shard I/N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Shard {
    /// Whether the `n`-th selected level (0-based) belongs to this slice. Slices take
    /// every `count`-th level rather than a block, so that each gets a share of a
    /// collection's hard end.
    pub fn contains(self, n: usize) -> bool {
        n % self.count == self.index - 1
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("{s:?} is not a slice: use I/N with 1 <= I <= N, as in 2/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Parses a time limit: a finite, non-negative number of seconds (at most a year).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !x.is_finite() || !(0.0..=31_536_000.0).contains(&x) {
        return Err(format!(
            "{s:?}: the time limit must be between 0 and 31536000 seconds"
        ));
    }
    Ok(x)
}

/// Which levels of a file to use: `N`, `A-B`, or a comma-separated list of those.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSelection(pub Vec<(usize, usize)>);

impl LevelSelection {
    /// Whether level `n` (1-based) is selected.
    pub fn contains(&self, n: usize) -> bool {
        self.0.iter().any(|&(a, b)| a <= n && n <= b)
    }

    /// The largest level number asked for.
    pub fn max(&self) -> usize {
        self.0.iter().map(|&(_, b)| b).max().unwrap_or(0)
    }
}

impl std::str::FromStr for LevelSelection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("{s:?} is not a level selection: use N, A-B or a list like 1,4-6");
        let mut ranges = Vec::new();
        for part in s.split(',') {
            let part = part.trim();
            let (a, b) = match part.split_once('-') {
                Some((a, b)) => (a.trim(), b.trim()),
                None => (part, part),
            };
            let a: usize = a.parse().map_err(|_| bad())?;
            let b: usize = b.parse().map_err(|_| bad())?;
            if a == 0 {
                return Err(format!(
                    "{s:?}: there is no level 0; levels are numbered from 1"
                ));
            }
            if b < a {
                return Err(bad());
            }
            ranges.push((a, b));
        }
        Ok(LevelSelection(ranges))
    }
}

/// `--engine`: a name from the registry, or `auto`; the help lists them.
fn engine_parser() -> impl clap::builder::TypedValueParser<Value = EngineChoice> {
    let mut values = vec![PossibleValue::new("auto").help(
        "the engine for the job: anytime for push-optimal plans of levels without \
         ice, astar for optimal plans on ice and for --optimize moves, finder with \
         --optimize none, unroll for a named encoding or an outside solver",
    )];
    values.extend(
        ENGINES
            .iter()
            .map(|e| PossibleValue::new(e.about().name).help(e.about().summary)),
    );
    PossibleValuesParser::new(values).map(|name| name.parse().expect("a registered name"))
}

/// `--optimize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OptimizeArg {
    /// Fewest moves (the moves encoding).
    Moves,
    /// Fewest pushes.
    Pushes,
    /// No proof of optimality: stop at the first verified plan.
    None,
}

/// `--solver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolverArg {
    /// Embedded, pure Rust (the default).
    Varisat,
    /// CaDiCaL in process (cargo feature `cadical`).
    Cadical,
}

impl SolverArg {
    /// The built-in solver named.
    pub fn name(self) -> SolverName {
        match self {
            SolverArg::Varisat => SolverName::Varisat,
            SolverArg::Cadical => SolverName::Cadical,
        }
    }
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// XSB / SOK collections (with the ice extension).
    #[value(alias = "sok")]
    Xsb,
    /// Numeric grids (the course format).
    Numeric,
    /// The seed A* solver's characters: 0 box, $ goal, 1 player, * box on goal,
    /// + player on goal, # wall.
    Digits,
}

/// `--show`: how often to draw the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShowArg {
    /// After each push.
    Pushes,
    /// After each move.
    Moves,
}

/// `--rules`: the convention solutions are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// XSB: lower case walks, upper case pushes, every letter a legal move.
    #[default]
    Xsb,
    /// The course's: letters in upper case; a bump into a wall or a blocked box is an
    /// allowed move that changes nothing.
    Course,
}

impl RulesArg {
    /// The rules engine's convention.
    pub fn convention(self) -> crate::game::Convention {
        match self {
            RulesArg::Xsb => crate::game::Convention::Xsb,
            RulesArg::Course => crate::game::Convention::Course,
        }
    }
}

/// How to solve: the engine, the encoding and the SAT solver.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// How to search (see the list of engines below).
    #[arg(long, default_value = "auto", value_name = "NAME", value_parser = engine_parser())]
    pub engine: EngineChoice,
    /// The CNF encoding the unroll engine uses: pushes (the default; pushes-path with
    /// --solver cadical), pushes-lazy, pushes-path, pushes-folded (one box line a step)
    /// or moves (see encodings/). Naming one selects the unroll engine under --engine
    /// auto.
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<EncodingKind>,
    /// What to prove optimal: pushes (default), moves (the moves encoding), or none
    /// (stop at the first verified plan).
    #[arg(long, value_enum, value_name = "METRIC", conflicts_with = "encoding")]
    pub optimize: Option<OptimizeArg>,
    /// The SAT solver: varisat (embedded, default) or cadical (in process).
    #[arg(
        long,
        value_enum,
        default_value = "varisat",
        value_name = "NAME",
        conflicts_with = "solver_cmd"
    )]
    pub solver: SolverArg,
    /// An outside DIMACS solver run once per k, e.g. "cadical -q" or "minisat {in} {out}"
    /// ({in}: the CNF file, appended if absent; {out}: a file the solver writes its
    /// answer to, else its standard output is read). Unroll engine only.
    #[arg(long, value_name = "CMD")]
    pub solver_cmd: Option<String>,
    /// Finder techniques to switch off, comma-separated (docs/engines.md, "finder").
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = techniques(), help_heading = TUNING)]
    pub finder_off: Vec<String>,
    /// Finder techniques to switch on, comma-separated: three are off by default
    /// (docs/engines.md, "finder"); --finder-off wins.
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = techniques(), help_heading = TUNING)]
    pub finder_on: Vec<String>,
    /// pdr techniques to switch off.
    #[arg(long, value_enum, value_name = "NAMES", value_delimiter = ',', help_heading = TUNING)]
    pub pdr_off: Vec<PdrTechnique>,
    /// The memory a search may fill with positions, in MiB; each engine takes its
    /// share (docs/engines.md, "Memory").
    #[arg(
        long,
        value_name = "MIB",
        default_value_t = 1024,
        value_parser = clap::value_parser!(u64).range(16..=1 << 20),
        help_heading = TUNING
    )]
    pub memory: u64,
    /// The bounds the unroll engine asks at once, each on its own core with its own
    /// formula: while one solver refutes k, the next asks k + 2 (1: one bound at a time).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        value_parser = clap::value_parser!(u64).range(1..=8),
        help_heading = TUNING
    )]
    pub horizons: u64,
    /// The formula of the SAT questions of the goal-by-goal planner and of the
    /// shortening windows: both (the planner twice, taking turns, its subgoals asked in
    /// the layers and in box lines; the windows in the layers), layers (the pushes
    /// encoding), path (one walk a step, as pushes-path) or folded (the subgoals in box
    /// lines, as pushes-folded; the windows keep the layers); encodings/pushes.md.
    #[arg(long, value_enum, default_value = "both", value_name = "FORM", help_heading = TUNING)]
    pub questions: QuestionsArg,
}

/// `--questions`: the reachability of the SAT questions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QuestionsArg {
    /// The subgoals in layers and in box lines by turns, the windows in layers.
    Both,
    /// Breadth-first layers, as in the pushes encoding.
    Layers,
    /// One walk a step, as in pushes-path.
    Path,
    /// The subgoals' questions in box lines, as in pushes-folded.
    Folded,
}

/// The values of `--finder-off` and `--finder-on`: the finder's techniques.
fn techniques() -> PossibleValuesParser {
    PossibleValuesParser::new(Techniques::NAMES.iter().copied())
}

/// The help heading of the options that exist to measure what a technique is worth.
const TUNING: &str = "Tuning (for measurements)";

/// `--pdr-off`: the techniques of `pdr` that can be switched off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PdrTechnique {
    /// The SAT solver's lemmas (without them pdr refutes positions one by one).
    Lemmas,
}

/// Options of `satsoko [solve]`.
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Level files (XSB/SOK collections).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The longest plan to look for, in pushes (moves for the moves encoding); no
    /// bound unless given.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<usize>,
    /// Levels to solve: N, A-B or a list like 1,4-6 (default: all).
    #[arg(long, value_name = "N|A-B")]
    pub level: Option<LevelSelection>,
    /// Wall-clock limit per level in seconds; the engine stops itself there and the
    /// level is reported as timeout.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// One JSON object per level per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// The convention solutions are printed in: xsb (default) or course (upper case).
    #[arg(long, value_enum, default_value_t = RulesArg::Xsb, value_name = "RULES")]
    pub rules: RulesArg,
    /// Show the solution: the board after each push (`--show`, `--show pushes`) or
    /// after each move (`--show moves`).
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "pushes", value_name = "STEP")]
    pub show: Option<ShowArg>,
    /// Write the solution as an animated SVG (one frame per move, looping): to the file
    /// PATH when one level is selected, else into the directory PATH (created if
    /// missing), one <file stem>-<level>.svg per solved level.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// Write a certificate for every plan proved optimal into DIR: the formula "a plan
    /// one step shorter exists" (DIR/<file stem>-<level>.cnf) and its LRAT refutation
    /// (.lrat), checked before the plan is called certified.
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,
    /// The solver that refutes the formulas of --proof: varisat (its checked proof
    /// written as LRAT) or cadical (CaDiCaL's own LRAT).
    #[arg(
        long,
        value_enum,
        value_name = "NAME",
        requires = "proof",
        default_value = "varisat"
    )]
    pub prover: SolverArg,
    /// After the run, write the input collection (one XSB/SOK file) to PATH with a
    /// `Solution (M moves, P pushes)` section after each level solved, as Sokoban YASC
    /// and JSoko read them; nothing else of the text changes. PATH may be the input.
    #[arg(long, value_name = "PATH")]
    pub solutions: Option<PathBuf>,
    /// Print each expansion of the search (f, g, h and the push or move that led
    /// there) as it goes, at most --trace-limit per level: --engine astar only.
    #[arg(long, conflicts_with = "json")]
    pub trace: bool,
    /// The most expansions --trace prints per level; the others are counted.
    #[arg(long, default_value_t = 1000, value_name = "N", requires = "trace")]
    pub trace_limit: usize,
    /// Encoding and solver.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// `satsoko binairo --engine`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, ValueEnum)]
pub enum BinairoEngine {
    /// The SAT formula of encodings/binairo.md, solved again with the solution blocked.
    #[default]
    Sat,
    /// Forward checking over cells (no SAT).
    Fc,
    /// Arc consistency maintained over rows and columns of valid patterns (no SAT).
    Mac,
}

/// Options of `satsoko binairo`.
#[derive(Args, Debug, Clone)]
pub struct BinairoArgs {
    /// Puzzle files (docs/formats.md, "Binairo"); none with --generate.
    #[arg(value_name = "FILE", required_unless_present = "generate")]
    pub files: Vec<PathBuf>,
    /// How to solve.
    #[arg(long, value_enum, default_value_t = BinairoEngine::Sat)]
    pub engine: BinairoEngine,
    /// The SAT solver of --engine sat.
    #[arg(long, value_enum, default_value_t = SolverArg::Varisat)]
    pub solver: SolverArg,
    /// Solutions to look for (at least two are looked for, to tell unique from
    /// multiple; this many are printed).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub count: usize,
    /// Wall-clock limit per puzzle in seconds (none unless given).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// One JSON object per puzzle per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print the search of --engine fc or mac as it goes: each decision, each value
    /// propagation forces, each backtrack and each solution (at most --trace-limit
    /// events per puzzle).
    #[arg(long, conflicts_with_all = ["json", "encode", "generate"])]
    pub trace: bool,
    /// The most trace events printed per puzzle; the others are counted.
    #[arg(long, default_value_t = 1000, value_name = "N", requires = "trace")]
    pub trace_limit: usize,
    /// Also write the solutions to FILE as Binairo grids (the puzzle format), each
    /// after a comment naming its puzzle.
    #[arg(short = 'o', long, value_name = "FILE", conflicts_with_all = ["encode", "generate"])]
    pub output: Option<PathBuf>,
    /// Write each puzzle's formula as DIMACS into DIR (<file stem>-<puzzle>.cnf, every
    /// variable named in comments) instead of solving.
    #[arg(long, value_name = "DIR")]
    pub encode: Option<PathBuf>,
    /// Write N puzzles with a unique solution and no redundant given instead.
    #[arg(long, value_name = "N", conflicts_with = "files")]
    pub generate: Option<usize>,
    /// The side of generated puzzles (even).
    #[arg(long, default_value_t = 6, value_name = "S")]
    pub size: usize,
    /// The seed of generated puzzles.
    #[arg(long, default_value_t = 1, value_name = "X")]
    pub seed: u64,
}

/// Options of `satsoko check-proof`.
#[derive(Args, Debug, Clone)]
pub struct CheckProofArgs {
    /// The formula (DIMACS CNF).
    #[arg(value_name = "FILE.cnf")]
    pub cnf: PathBuf,
    /// Its refutation (LRAT).
    #[arg(value_name = "FILE.lrat")]
    pub lrat: PathBuf,
}

/// Options of `satsoko verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// The level file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The level in the file (1-based; default 1, and with --from-file every level).
    #[arg(long, value_name = "N")]
    pub level: Option<usize>,
    /// The solution as a LURD string.
    #[arg(
        long,
        conflicts_with_all = ["solution_file", "from_file"],
        required_unless_present_any = ["solution_file", "from_file"]
    )]
    pub solution: Option<String>,
    /// A file holding the LURD solution (white space is ignored).
    #[arg(long, value_name = "FILE", conflicts_with = "from_file")]
    pub solution_file: Option<PathBuf>,
    /// Check the solutions stored in FILE itself (its `Solution` sections, as
    /// `solve --solutions` writes them), of every level or of --level N.
    #[arg(long)]
    pub from_file: bool,
    /// The convention the solution is written in: xsb (default: every letter legal,
    /// its case saying whether it pushes) or course (any case; bumps allowed).
    #[arg(long, value_enum, default_value_t = RulesArg::Xsb, value_name = "RULES")]
    pub rules: RulesArg,
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every option whose help names some of its values names all of them (clap lists
    /// them too, but a sentence that names two of three misleads).
    #[test]
    fn a_help_that_names_values_names_them_all() {
        fn check(command: &clap::Command, path: &str) {
            for arg in command.get_arguments() {
                let values: Vec<String> = (arg.get_possible_values().iter())
                    .filter(|v| !v.is_hide_set())
                    .map(|v| v.get_name().to_string())
                    .collect();
                let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                let words: Vec<&str> = help
                    .split(|c: char| !(c.is_alphanumeric() || c == '-'))
                    .collect();
                let named = values.iter().filter(|v| words.contains(&v.as_str()));
                let named = named.count();
                assert!(
                    named == 0 || named == values.len(),
                    "{path} --{}: the help names {named} of {values:?}: {help}",
                    arg.get_id()
                );
            }
            for sub in command.get_subcommands() {
                check(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        check(&Cli::command(), "satsoko");
    }

    #[test]
    fn level_zero_is_refused_with_the_first_level_named() {
        let err = "0".parse::<LevelSelection>().unwrap_err();
        assert!(err.contains("numbered from 1"), "{err}");
        let err = "2,0-3".parse::<LevelSelection>().unwrap_err();
        assert!(err.contains("numbered from 1"), "{err}");
        assert!("3-1".parse::<LevelSelection>().is_err());
        assert_eq!("1,4-6".parse::<LevelSelection>().unwrap().max(), 6);
    }
}
