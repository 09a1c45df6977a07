//! The progress line on stderr: drawn only when stderr is a terminal.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::Progress;

/// A spinner showing the level, what the engine reports and the elapsed time.
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

    /// Shows what the engine reported last.
    pub fn update(&self, p: &Progress) {
        let mut parts = Vec::new();
        if let Some(k) = p.bound {
            parts.push(format!("k={k}"));
        }
        if let Some(f) = p.formula {
            parts.push(format!("({} vars, {} clauses)", f.variables, f.clauses));
        }
        self.bar.set_message(parts.join(" "));
    }

    /// Removes the spinner.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
