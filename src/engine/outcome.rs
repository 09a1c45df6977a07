//! What an engine answers: the verdict, the plan, the bounds and statistics, as data.
//! The CLI puts them into words.

use std::time::Duration;

use super::{About, Incumbent};
use crate::encode::EncodingKind;
use crate::game::{Metric, Plan};
use crate::sat::SatBackend;

/// How a level ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A plan, replayed by the rules engine.
    Solved {
        /// The plan.
        plan: Plan,
        /// Whether every shorter plan (in the outcome's metric) is proved impossible.
        optimal: bool,
    },
    /// Proved to have no solution at all.
    Unsolvable {
        /// Why, in words.
        reason: String,
    },
    /// No plan of at most `bound` steps exists (proved), and the user's bound stopped
    /// the search there.
    NoPlan {
        /// The largest bound tried.
        bound: usize,
    },
    /// Stopped before an answer.
    Stopped {
        /// What stopped it.
        why: StopReason,
    },
}

impl Verdict {
    /// An unsolvable verdict with `reason`.
    pub fn unsolvable(reason: &str) -> Verdict {
        Verdict::Unsolvable {
            reason: reason.to_string(),
        }
    }
}

/// What stopped an engine before an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The deadline passed or the run was cancelled.
    Time,
    /// The engine stored as many positions as it may (its memory limit).
    Memory {
        /// The positions stored.
        positions: u64,
    },
    /// The decision diagrams held took as many nodes as they may (the memory limit).
    Nodes {
        /// The nodes held when it stopped.
        nodes: u64,
    },
    /// The formula could not grow by another step within
    /// [`FORMULA_BUDGET`](crate::encode::FORMULA_BUDGET) (its memory limit).
    FormulaFull {
        /// The formula's size when it stopped.
        size: FormulaSize,
    },
    /// The proven lower bound met the best plan found: that plan is optimal.
    Closed,
    /// A search that may skip positions (a plan finder's macros) ran out of them.
    GaveUp,
}

/// The size of a formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormulaSize {
    /// Variables.
    pub variables: u64,
    /// Clauses.
    pub clauses: u64,
}

impl FormulaSize {
    /// The size of the formula in `solver`.
    pub fn of(solver: &dyn SatBackend) -> FormulaSize {
        let stats = solver.stats();
        FormulaSize {
            variables: stats.variables,
            clauses: stats.clauses,
        }
    }
    /// Variables plus clauses: what the formula budgets count.
    pub fn total(self) -> u64 {
        self.variables + self.clauses
    }
}

/// Counters an engine reports (`None`: it has no such thing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// SAT questions asked (`pdr`: one per position refuted for good).
    pub queries: Option<u64>,
    /// Positions refuted for good: none of their pushes leads anywhere (`pdr`).
    pub refuted: Option<u64>,
    /// Lemmas learned: partial positions refuted for good (`pdr`).
    pub lemmas: Option<u64>,
    /// The engine's own formula before anything was learned (`pdr`'s one-push formula).
    pub base_formula: Option<FormulaSize>,
    /// Cut clauses a lazy encoding added (`unroll` with `pushes-lazy`).
    pub cuts: Option<u64>,
    /// Positions stored (`astar`, `finder`).
    pub positions: Option<u64>,
    /// Windows of the plan asked of the SAT solver for fewer pushes (`anytime`).
    pub windows: Option<u64>,
    /// Of those, the windows it made shorter.
    pub windows_shortened: Option<u64>,
    /// Pushes the shortened windows saved.
    pub pushes_saved: Option<u64>,
    /// Subgoals the SAT solver reached (`subgoals`).
    pub subgoals: Option<u64>,
    /// Subgoals given up, sending the planner back one (`subgoals`).
    pub backtracks: Option<u64>,
    /// Positions of its chain proved dead ends by a bounded search (`subgoals`).
    pub dead_ends: Option<u64>,
    /// Breadth-first layers built: the moves searched to the end (`bdd`).
    pub layers: Option<u64>,
    /// The most decision-diagram nodes the search held at once (`bdd`).
    pub peak_nodes: Option<u64>,
    /// Whether the engine's tables stopped growing at their memory limit.
    pub tables_full: bool,
}

/// Everything an engine says about one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// The engine's name.
    pub engine: &'static str,
    /// The metric searched (the one `optimal` and `k` refer to).
    pub metric: Metric,
    /// The steps of the plan in the metric, or the bound the answer is about.
    pub k: Option<usize>,
    /// The proven lower bound on the optimum (equal to the plan's length when it is
    /// optimal).
    pub lower_bound: Option<usize>,
    /// When the first plan was found, and its length.
    pub first_plan: Option<(Duration, usize)>,
    /// The engine (or part of one) that found the plan reported.
    pub found_by: Option<&'static str>,
    /// The encoding used, if any.
    pub encoding: Option<EncodingKind>,
    /// The encoding asked for, when the level needed another one (ice).
    pub fallback_from: Option<EncodingKind>,
    /// The SAT solver's name (`None`: no SAT solver).
    pub solver: Option<String>,
    /// The formula at the end (`None`: no formula).
    pub formula: Option<FormulaSize>,
    /// The engine's counters.
    pub stats: Statistics,
    /// Wall-clock time from the analysis to the verdict.
    pub elapsed: Duration,
}

impl Outcome {
    /// An outcome of the engine `about` with nothing but the verdict.
    pub fn new(about: &About, metric: Metric, verdict: Verdict) -> Outcome {
        let k = match &verdict {
            Verdict::Solved { plan, .. } => Some(plan.count(metric)),
            Verdict::NoPlan { bound } => Some(*bound),
            _ => None,
        };
        Outcome {
            verdict,
            engine: about.name,
            metric,
            k,
            lower_bound: None,
            first_plan: None,
            found_by: None,
            encoding: None,
            fallback_from: None,
            solver: None,
            formula: None,
            stats: Statistics::default(),
            elapsed: Duration::ZERO,
        }
    }
}

impl Outcome {
    /// Takes in what the engines reported on `board`: a stopped engine answers with the
    /// best plan found; the lower bound is the best proved (the plan's length when it
    /// is optimal); the first plan's time.
    pub fn take_board(&mut self, board: &Incumbent) {
        let best = board.best();
        if let (Verdict::Stopped { .. }, Some(found)) = (&self.verdict, &best) {
            // The plan, its length and its claim are the board's, in the board's metric:
            // an engine that counts another (unroll's moves encoding on ice, asked for
            // pushes) has its own bound in its own metric, which says nothing here.
            if self.metric != board.metric() {
                self.metric = board.metric();
                self.lower_bound = None;
            }
            self.verdict = Verdict::Solved {
                plan: found.plan.clone(),
                optimal: board.lower() >= found.length,
            };
            self.k = Some(found.length);
            self.found_by = Some(found.by);
        }
        let proved = board.lower().max(self.lower_bound.unwrap_or(0));
        self.lower_bound = match &self.verdict {
            Verdict::Solved { optimal: true, .. } => self.k,
            Verdict::Solved { .. } => Some(proved.min(self.k.unwrap_or(usize::MAX))),
            Verdict::Stopped { .. } | Verdict::NoPlan { .. } => (proved > 0).then_some(proved),
            Verdict::Unsolvable { .. } => None,
        };
        if let Verdict::Solved { plan, .. } = &self.verdict {
            // The first plan is this one unless the board saw an earlier one.
            let own = (self.elapsed, plan.count(self.metric));
            self.first_plan = board.first().or(Some(own));
            if self.found_by.is_none() {
                self.found_by = best
                    .filter(|f| Some(f.length) == self.k && f.plan == *plan)
                    .map(|f| f.by);
            }
        }
    }
}

/// Why an engine could give no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The level or the options need something the engine does not do (e.g. ice).
    Unsupported(String),
    /// The SAT solver failed (an outside command that cannot run or gives no verdict).
    Solver(String),
    /// A bug: e.g. an engine produced a plan the rules engine rejects. Such a plan is
    /// never printed.
    Internal(String),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Unsupported(m) => f.write_str(m),
            SolveError::Solver(m) => write!(f, "the SAT solver failed: {m}"),
            SolveError::Internal(m) => write!(f, "internal error (please report): {m}"),
        }
    }
}

impl std::error::Error for SolveError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Incumbent;
    use crate::game::Plan;

    #[test]
    fn a_plan_taken_from_the_board_is_counted_in_the_boards_metric() {
        // Ice: `unroll` asked for pushes runs the moves encoding. Stopped, it answers
        // with the board's plan (4 pushes, 9 moves), which is push-optimal here (the
        // bound of 4 pushes) and not move-optimal (8 moves).
        let level = crate::level::parse_xsb("t", "   ~~.#\n#@$~~~~#\n# $ ~~.#\n########\n")
            .unwrap()
            .remove(0);
        let board = Incumbent::new(Metric::Pushes);
        assert!(board.offer(&level, Plan::from_lurd("dRUluRddR").unwrap(), "t"));
        board.raise_lower(4);
        let about = crate::engine::registry::by_name("unroll").unwrap().about();
        let stopped = Verdict::Stopped {
            why: StopReason::Time,
        };
        let mut outcome = Outcome::new(about, Metric::Moves, stopped);
        outcome.lower_bound = Some(8);
        outcome.take_board(&board);
        assert_eq!(outcome.metric, Metric::Pushes);
        assert_eq!(outcome.k, Some(4));
        assert!(matches!(
            outcome.verdict,
            Verdict::Solved { optimal: true, .. }
        ));
        assert_eq!(outcome.lower_bound, Some(4));
    }
}
