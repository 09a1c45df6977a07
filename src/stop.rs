//! The stop signal every engine and every long static analysis checks itself: a
//! deadline and a cancel flag. It lives below the engines so that the analysis, which
//! they all build on, can be stopped too.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::sat::Interrupt;

/// What a piece of work cut short by its [`Stop`] returns: whatever it was building is
/// incomplete and must not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// When to stop: at the deadline, or as soon as anyone cancels (Ctrl-C, or another
/// engine that found the answer). Clones share the flags; a [`Stop::child`] also stops
/// when its parent does, but cancelling it leaves the parent running.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    cancelled: Arc<AtomicBool>,
    /// The flags of the stops this one is a child of.
    parents: Vec<Arc<AtomicBool>>,
}

impl Stop {
    /// A stop at `deadline` (never, if `None`) or when cancelled.
    pub fn new(deadline: Option<Instant>) -> Stop {
        Stop {
            deadline,
            cancelled: Arc::new(AtomicBool::new(false)),
            parents: Vec::new(),
        }
    }

    /// A stop that only a cancel triggers.
    pub fn never() -> Stop {
        Stop::new(None)
    }

    /// A stop at `deadline` that is also cancelled whenever this one is (a level's
    /// time limit under the run's Ctrl-C, say).
    pub fn with_deadline(&self, deadline: Option<Instant>) -> Stop {
        Stop {
            deadline,
            ..self.clone()
        }
    }

    /// The same stop with its deadline brought forward to `end` if that is earlier (a
    /// turn of one planner within a solve's time).
    pub fn by(&self, end: Instant) -> Stop {
        self.with_deadline(Some(self.deadline.map_or(end, |d| d.min(end))))
    }

    /// A stop with the same deadline that also stops when this one is cancelled, and
    /// that can be cancelled alone (one side of a solve that runs two engines).
    pub fn child(&self) -> Stop {
        let mut parents = self.parents.clone();
        parents.push(Arc::clone(&self.cancelled));
        Stop {
            deadline: self.deadline,
            cancelled: Arc::new(AtomicBool::new(false)),
            parents,
        }
    }

    /// A stop that stops when this one or `other` does (the earlier deadline), and that
    /// can be cancelled alone.
    pub fn either(&self, other: &Stop) -> Stop {
        let mut stop = self.child();
        stop.parents.extend(other.parents.iter().cloned());
        stop.parents.push(Arc::clone(&other.cancelled));
        stop.deadline = match (self.deadline, other.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        stop
    }

    /// Asks every holder of this stop (and its clones) to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether it (or a parent) was cancelled, as opposed to reaching the deadline.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
            || self.parents.iter().any(|p| p.load(Ordering::Relaxed))
    }

    /// Whether to stop now: cancelled, or past the deadline.
    pub fn should_stop(&self) -> bool {
        self.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The same question for a SAT backend, which knows nothing of engines.
    pub fn interrupt(&self) -> Interrupt {
        let stop = self.clone();
        Arc::new(move || stop.should_stop())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_cancel_and_the_deadline_counts() {
        let stop = Stop::never();
        let other = stop.clone();
        assert!(!other.should_stop());
        stop.cancel();
        assert!(other.should_stop() && other.is_cancelled());
        let past = Stop::new(Some(Instant::now()));
        assert!(past.should_stop() && !past.is_cancelled());
        assert!((past.interrupt())());
        let root = Stop::never();
        let level = root.with_deadline(None);
        assert!(!level.should_stop());
        let side = level.child();
        side.cancel();
        assert!(side.should_stop() && !level.should_stop());
        let other = level.child();
        root.cancel();
        assert!(level.should_stop() && other.should_stop());
        // Either of two stops.
        let (a, b) = (Stop::never(), Stop::never());
        let either = a.either(&b);
        assert!(!either.should_stop());
        b.cancel();
        assert!(either.should_stop() && !a.should_stop());
        either.cancel();
        assert!(!a.should_stop());
    }
}
