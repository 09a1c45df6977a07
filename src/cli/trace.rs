//! Traces of searches as the CLI prints them (`binairo --trace`, `solve --trace`): the
//! first events in full, as they come, then one line counting the others.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::report::plural;
use super::say;
use crate::engine::{Expansion, SearchTrace, TracedStep};
use crate::level::{Direction, Level};

/// Prints the first `limit` lines of a trace on stdout and counts the others.
pub(super) struct BoundedTrace {
    limit: usize,
    shown: usize,
    left_out: u64,
    /// What a line shows, in the plural ("events").
    things: &'static str,
}

impl BoundedTrace {
    /// A trace that prints at most `limit` lines, each one of `things` (plural).
    pub(super) fn new(limit: usize, things: &'static str) -> BoundedTrace {
        BoundedTrace {
            limit,
            shown: 0,
            left_out: 0,
            things,
        }
    }

    /// Prints the line `line` makes, or, past the limit, counts it without making it.
    pub(super) fn line(&mut self, line: impl FnOnce() -> String) {
        if self.shown < self.limit {
            say(&line());
            self.shown += 1;
        } else {
            self.left_out += 1;
        }
    }

    /// Prints how many events were left out, if any.
    pub(super) fn finish(&self) {
        if self.left_out > 0 {
            let (n, limit, things) = (self.left_out, self.limit, self.things);
            say(&format!(
                "  … {n} more {things} left out (the first {limit} are shown; --trace-limit \
                 sets how many)"
            ));
        }
    }
}

/// A best-first search's expansions as `solve --trace` prints them: one line each, as
/// they come, up to the limit, then the count of those left out and the total.
pub(super) struct ExpansionTrace<'a> {
    level: &'a Level,
    lines: Mutex<BoundedTrace>,
    count: AtomicU64,
}

impl<'a> ExpansionTrace<'a> {
    /// The trace of a search of `level` that prints at most `limit` expansions.
    pub(super) fn new(level: &'a Level, limit: usize) -> ExpansionTrace<'a> {
        ExpansionTrace {
            level,
            lines: Mutex::new(BoundedTrace::new(limit, "nodes")),
            count: AtomicU64::new(0),
        }
    }

    /// Prints the count of the expansions left out and the total.
    pub(super) fn finish(&self) {
        self.lines.lock().expect("no poisoned lock").finish();
        let n = self.count.load(Ordering::Relaxed);
        say(&format!("  search: {} traced", plural(n, "node")));
    }
}

impl SearchTrace for ExpansionTrace<'_> {
    fn expansion(&self, e: &Expansion) {
        let n = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        self.lines.lock().expect("no poisoned lock").line(|| {
            let via = match e.via {
                None => "the start".to_string(),
                Some(TracedStep::Push { from, dir }) => {
                    format!("after pushing {} {}", self.level.cell_name(from), word(dir))
                }
                Some(TracedStep::Move(m)) if m.push => format!("after pushing {}", word(m.dir)),
                Some(TracedStep::Move(m)) => format!("after walking {}", word(m.dir)),
            };
            let solved = if e.solved { ": solved" } else { "" };
            format!("  {n}: f {} = g {} + h {}, {via}{solved}", e.f, e.g, e.h)
        });
    }
}

/// A direction in words.
fn word(dir: Direction) -> &'static str {
    match dir {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}
