//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::encode::EncodingKind;

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
                  70 internal error."
)]
pub struct Cli {
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
    /// Check a LURD solution with the rules engine.
    Verify(VerifyArgs),
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
            if a == 0 || b < a {
                return Err(bad());
            }
            ranges.push((a, b));
        }
        Ok(LevelSelection(ranges))
    }
}

/// Options of `satsoko [solve]`.
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Level files (XSB/SOK collections).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Largest number of steps to try (moves, for the moves encoding).
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub max_steps: usize,
    /// Levels to solve: N, A-B or a list like 1,4-6 (default: all).
    #[arg(long, value_name = "N|A-B")]
    pub level: Option<LevelSelection>,
    /// Wall-clock limit per level in seconds; the level is stopped and reported as timeout.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// One JSON object per level per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// The CNF encoding.
    #[arg(long, default_value = "moves", value_name = "NAME")]
    pub encoding: EncodingKind,
    /// Internal: run as a worker process for one level (JSON on stdout, progress lines
    /// on stderr).
    #[arg(long, hide = true)]
    pub worker: bool,
}

/// Options of `satsoko verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// The level file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The level in the file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub level: usize,
    /// The solution as a LURD string.
    #[arg(long, conflicts_with = "solution_file", required_unless_present = "solution_file")]
    pub solution: Option<String>,
    /// A file holding the LURD solution (white space is ignored).
    #[arg(long, value_name = "FILE")]
    pub solution_file: Option<PathBuf>,
    /// Print a JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
