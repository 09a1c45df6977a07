//! The progress line on stderr: drawn only when stderr is a terminal.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A spinner showing the level, the current k and the elapsed time.
pub struct LevelProgress {
    bar: ProgressBar,
}

impl LevelProgress {
    /// Starts a spinner for `label` (e.g. `microban.xsb #3 [3/155]`).
    pub fn start(label: String) -> LevelProgress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix} {msg} [{elapsed_precise}]")
                .expect("a valid template"),
        );
        bar.set_prefix(label);
        bar.enable_steady_tick(Duration::from_millis(120));
        LevelProgress { bar }
    }

    /// Shows the bound being tried.
    pub fn set_k(&self, k: usize, variables: u64, clauses: u64) {
        self.bar
            .set_message(format!("k={k} ({variables} vars, {clauses} clauses)"));
    }

    /// Removes the spinner.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
