//! The progress line on stderr: drawn only when stderr is a terminal.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::Incumbent;

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

    /// Shows what the engines reported last: the best plan and the proven bound as
    /// they move, the bound being tried and the formula's size.
    pub fn update(&self, board: &Incumbent) {
        let status = board.status();
        let mut parts = Vec::new();
        if let Some(best) = board.upper() {
            parts.push(format!("best {best} {}", board.metric()));
        }
        if board.lower() > 0 {
            parts.push(format!("optimal ≥ {}", board.lower()));
        }
        if let Some(k) = status.bound {
            parts.push(format!("k={k}"));
        }
        if let Some(f) = status.formula {
            parts.push(format!("({} vars, {} clauses)", f.variables, f.clauses));
        }
        self.bar.set_message(parts.join(", "));
    }

    /// Removes the spinner.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
