//! The timing of the animation: when each frame begins and how long a loop lasts, and
//! the [`Clock`] that writes the discrete, looping SMIL animations switching at those
//! times.
//!
//! Apart from the drawing because the numbers are a contract: the root element carries
//! them as `data-*` attributes and a reader (`tests/cli_svg.rs`) finds every frame
//! from them, so they live in one place with the code that turns them into key times.

use std::fmt::Write as _;

/// How long the start position stays before the first move, in seconds.
pub const START_SECONDS: f64 = 0.6;
/// How long each move stays, in seconds.
pub const STEP_SECONDS: f64 = 0.15;
/// How long the final position stays before the animation loops, in seconds.
pub const END_SECONDS: f64 = 1.5;

/// When frame `i` begins, in seconds from the start of a loop: frame 0 is the start
/// position, frame `i` the position after move `i`.
pub fn frame_start(i: usize) -> f64 {
    if i == 0 {
        0.0
    } else {
        START_SECONDS + (i - 1) as f64 * STEP_SECONDS
    }
}

/// The length of one loop of the animation of a plan of `moves` moves, in seconds.
pub fn loop_seconds(moves: usize) -> f64 {
    if moves == 0 {
        START_SECONDS + END_SECONDS
    } else {
        frame_start(moves) + END_SECONDS
    }
}

/// Writes the animations of one loop of `dur` seconds over the frames of a plan.
pub(super) struct Clock {
    /// The loop's length, as written in `dur`.
    dur: String,
    /// `keyTimes` of every frame, as written.
    key_times: Vec<String>,
}

impl Clock {
    /// The clock of a plan of `moves` moves with a loop of `dur` seconds.
    pub(super) fn new(moves: usize, dur: f64) -> Clock {
        // Enough decimals that a key time is off by far less than a frame.
        let gap = STEP_SECONDS / dur;
        let decimals = ((4.0 / gap).log10().ceil() as usize).max(3);
        let key_times = (0..=moves)
            .map(|i| {
                let text = format!("{:.*}", decimals, frame_start(i) / dur);
                let text = text.trim_end_matches('0').trim_end_matches('.');
                text.to_string()
            })
            .collect();
        Clock {
            dur: trimmed(dur),
            key_times,
        }
    }

    /// A discrete, looping `animateTransform` translating to each value from its frame
    /// on; nothing when the value never changes.
    pub(super) fn translate(&self, s: &mut String, changes: &[(usize, String)]) {
        self.write(
            s,
            "animateTransform",
            r#"attributeName="transform" type="translate""#,
            changes,
        );
    }

    /// A discrete, looping `animate` of `attribute`; nothing when it never changes.
    pub(super) fn animate(&self, s: &mut String, attribute: &str, changes: &[(usize, String)]) {
        self.write(
            s,
            "animate",
            &format!(r#"attributeName="{attribute}""#),
            changes,
        );
    }

    fn write(&self, s: &mut String, element: &str, what: &str, changes: &[(usize, String)]) {
        if changes.len() < 2 {
            return;
        }
        let times: Vec<&str> = changes
            .iter()
            .map(|(i, _)| self.key_times[*i].as_str())
            .collect();
        let values: Vec<&str> = changes.iter().map(|(_, v)| v.as_str()).collect();
        let _ = write!(
            s,
            r#"<{element} {what} calcMode="discrete" dur="{}s" repeatCount="indefinite" keyTimes="{}" values="{}"/>"#,
            self.dur,
            times.join(";"),
            values.join(";")
        );
    }
}

/// A number of seconds without trailing zeros.
fn trimmed(x: f64) -> String {
    let text = format!("{x:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_times_increase() {
        let clock = Clock::new(5000, loop_seconds(5000));
        let times: Vec<f64> = clock.key_times.iter().map(|t| t.parse().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(clock.key_times[0], "0");
    }
}
