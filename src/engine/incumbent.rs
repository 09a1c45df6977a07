//! What the engines of one solve share and report as they go: the best plan found so
//! far (the incumbent), the proven lower bound, and what each is doing. Plan finders
//! offer plans, optimal searches raise the lower bound, and whoever watches (the CLI's
//! progress line) reads it; when the bound meets the best plan, that plan is optimal
//! and the engines can stop.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::FormulaSize;
use crate::game::{Metric, Plan};
use crate::level::Level;

/// No plan yet.
const NONE: usize = usize::MAX;

/// A plan with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The plan (replayed: it solves the level).
    pub plan: Plan,
    /// Its length in the metric.
    pub length: usize,
    /// Time from the start of the solve.
    pub after: Duration,
    /// The engine (or part of one) that found it.
    pub by: &'static str,
}

/// What an engine is doing, for the progress line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The bound being tried.
    pub bound: Option<usize>,
    /// The formula so far.
    pub formula: Option<FormulaSize>,
}

/// The state one solve shares between its engines and its watcher.
#[derive(Debug)]
pub struct Incumbent {
    metric: Metric,
    start: Instant,
    /// The length of the best plan (`NONE` before the first).
    upper: AtomicUsize,
    /// The proven lower bound on the optimum.
    lower: AtomicUsize,
    best: Mutex<Option<Found>>,
    /// The first plan's time and length.
    first: Mutex<Option<(Duration, usize)>>,
    status: Mutex<Status>,
}

impl Incumbent {
    /// An empty board for plans counted in `metric`.
    pub fn new(metric: Metric) -> Incumbent {
        Incumbent {
            metric,
            start: Instant::now(),
            upper: AtomicUsize::new(NONE),
            lower: AtomicUsize::new(0),
            best: Mutex::new(None),
            first: Mutex::new(None),
            status: Mutex::new(Status::default()),
        }
    }

    /// The metric plans are counted in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Offers a plan found by `by`: it is replayed, and kept if it solves `level` and is
    /// shorter than the best so far. Returns whether it was kept.
    pub fn offer(&self, level: &Level, plan: Plan, by: &'static str) -> bool {
        let length = plan.count(self.metric);
        if length >= self.upper.load(Ordering::Relaxed) || plan.verify(level).is_err() {
            return false;
        }
        let mut best = self.best.lock().expect("no poisoned lock");
        if best.as_ref().is_some_and(|b| b.length <= length) {
            return false;
        }
        let after = self.start.elapsed();
        self.first
            .lock()
            .expect("no poisoned lock")
            .get_or_insert((after, length));
        *best = Some(Found {
            plan,
            length,
            after,
            by,
        });
        self.upper.store(length, Ordering::Relaxed);
        true
    }

    /// Records that no plan shorter than `bound` exists (proved).
    pub fn raise_lower(&self, bound: usize) {
        self.lower.fetch_max(bound, Ordering::Relaxed);
    }

    /// The proven lower bound.
    pub fn lower(&self) -> usize {
        self.lower.load(Ordering::Relaxed)
    }

    /// The length of the best plan, if any.
    pub fn upper(&self) -> Option<usize> {
        Some(self.upper.load(Ordering::Relaxed)).filter(|&u| u != NONE)
    }

    /// Whether the best plan is proved optimal (the bound has met it).
    pub fn closed(&self) -> bool {
        self.upper().is_some_and(|u| self.lower() >= u)
    }

    /// The best plan so far.
    pub fn best(&self) -> Option<Found> {
        self.best.lock().expect("no poisoned lock").clone()
    }

    /// When the first plan was found, and its length.
    pub fn first(&self) -> Option<(Duration, usize)> {
        *self.first.lock().expect("no poisoned lock")
    }

    /// Reports what an engine is doing.
    pub fn set_status(&self, status: Status) {
        *self.status.lock().expect("no poisoned lock") = status;
    }

    /// What the engines reported last.
    pub fn status(&self) -> Status {
        *self.status.lock().expect("no poisoned lock")
    }

    /// Time since the solve started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn keeps_the_shortest_replayed_plan_and_closes_at_the_bound() {
        let level = parse_xsb("t", "#######\n#@ $ .#\n#######\n")
            .unwrap()
            .remove(0);
        let board = Incumbent::new(Metric::Pushes);
        assert_eq!(board.upper(), None);
        // A plan that does not solve the level is not kept.
        assert!(!board.offer(&level, Plan::from_lurd("rR").unwrap(), "t"));
        assert!(board.offer(&level, Plan::from_lurd("rRR").unwrap(), "t"));
        // Not shorter in pushes: not kept.
        assert!(!board.offer(&level, Plan::from_lurd("rRR").unwrap(), "u"));
        assert_eq!(board.upper(), Some(2));
        assert!(!board.closed());
        board.raise_lower(2);
        board.raise_lower(1);
        assert_eq!(board.lower(), 2);
        assert!(board.closed());
        assert_eq!(board.first().map(|f| f.1), Some(2));
        assert_eq!(board.best().unwrap().by, "t");
    }
}
