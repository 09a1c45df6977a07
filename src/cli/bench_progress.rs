//! `bench`'s progress bar: it ticks every second and names the levels running, each with
//! its time so far, so a long level shows that it is still being worked on.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// The bar, and the levels running now (their names and when each started).
pub struct BenchProgress {
    bar: ProgressBar,
    running: Arc<Mutex<Vec<(String, Instant)>>>,
    solved: Mutex<usize>,
}

impl BenchProgress {
    /// A bar over `levels` levels on stderr (drawn only on a terminal).
    pub fn new(levels: usize) -> BenchProgress {
        let running: Arc<Mutex<Vec<(String, Instant)>>> = Arc::default();
        let shown = Arc::clone(&running);
        let style = ProgressStyle::with_template(
            "{bar:30} {pos}/{len} {msg} [{elapsed_precise}, ETA {eta}] {running}",
        )
        .expect("a valid template")
        .with_key(
            "running",
            move |_: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = out.write_str(&running_now(&shown.lock().expect("no poisoned lock")));
            },
        );
        let bar = ProgressBar::with_draw_target(Some(levels as u64), ProgressDrawTarget::stderr());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_secs(1));
        BenchProgress {
            bar,
            running,
            solved: Mutex::new(0),
        }
    }

    /// Level `name` starts.
    pub fn start(&self, name: String) {
        self.running_levels().push((name, Instant::now()));
        self.bar.tick();
    }

    /// Level `name` is done, solved or not (`None`: a level that never ran).
    pub fn done(&self, name: Option<&str>, solved: bool) {
        if let Some(name) = name {
            self.running_levels().retain(|(n, _)| n != name);
        }
        if solved {
            let mut s = self.solved.lock().expect("no poisoned lock");
            *s += 1;
            self.bar.set_message(format!("solved {s}"));
        }
        self.bar.inc(1);
    }

    /// Clears the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn running_levels(&self) -> std::sync::MutexGuard<'_, Vec<(String, Instant)>> {
        self.running.lock().expect("no poisoned lock")
    }
}

/// The levels running, each with its whole seconds so far: "level 13 (42 s), level 16
/// (3 s)".
fn running_now(running: &[(String, Instant)]) -> String {
    running
        .iter()
        .map(|(name, start)| format!("{name} ({} s)", start.elapsed().as_secs()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_levels_are_named_with_their_time() {
        let now = Instant::now();
        let earlier = now.checked_sub(Duration::from_secs(42)).unwrap_or(now);
        let text = running_now(&[("level 13".into(), earlier), ("level 16".into(), now)]);
        assert!(text.starts_with("level 13 ("), "{text}");
        assert!(text.ends_with("level 16 (0 s)"), "{text}");
        assert_eq!(running_now(&[]), "");
    }

    #[test]
    fn levels_start_and_finish() {
        let progress = BenchProgress::new(2);
        progress.start("level 1".into());
        progress.start("level 2".into());
        progress.done(Some("level 1"), true);
        assert_eq!(progress.running_levels().len(), 1);
        progress.done(Some("level 2"), false);
        assert!(progress.running_levels().is_empty());
        assert_eq!(*progress.solved.lock().unwrap(), 1);
        progress.finish();
    }
}
