//! Traces of searches as the CLI prints them (`binairo --trace`, `solve --trace`): the
//! first events in full, as they come, then one line counting the others.

use super::say;

/// Prints the first `limit` lines of a trace on stdout and counts the others.
pub(super) struct BoundedTrace {
    limit: usize,
    shown: usize,
    left_out: u64,
}

impl BoundedTrace {
    /// A trace that prints at most `limit` lines.
    pub(super) fn new(limit: usize) -> BoundedTrace {
        BoundedTrace {
            limit,
            shown: 0,
            left_out: 0,
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
            let (n, limit) = (self.left_out, self.limit);
            let events = if n == 1 { "event" } else { "events" };
            say(&format!(
                "  … {n} more {events} left out (the first {limit} are shown; --trace-limit \
                 sets how many)"
            ));
        }
    }
}
