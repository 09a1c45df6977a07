//! How the engines are tuned: the finder's techniques, `pdr`'s lemmas and the memory a
//! search may fill. The defaults are what satsoko runs; the rest exists to measure what
//! each technique is worth (`--finder-off`, `--finder-on`, `--pdr-off`, `--memory`,
//! `--horizons`, `--questions`), and
//! travels in the typed [`Request`](super::Request), so no engine reads the environment.

use serde::{Deserialize, Serialize};

use super::finder::Techniques;

/// The memory a search may fill with positions unless told otherwise: 1 GiB.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// The bounds `unroll` asks at once unless told otherwise: one per core of this
/// 2-core class of machine.
pub const DEFAULT_HORIZONS: usize = 2;

/// The engines' switches and memory, resolved once from the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tuning {
    /// The finder's techniques (its portfolio, and `anytime`'s planners before the
    /// first plan).
    pub finder: Techniques,
    /// Whether `pdr` asks its SAT solver for lemmas (off, it refutes positions one by
    /// one).
    pub pdr_lemmas: bool,
    /// The bytes a search may fill with positions. Each engine takes its share of it:
    /// `finder` and `astar` all of it, `pdr` 600/1024 of it, and `anytime` splits it
    /// between its searches (see docs/engines.md, "Memory").
    pub memory: usize,
    /// The bounds `unroll` asks at once, each on its own core with its own formula
    /// (`--horizons`; see docs/engines.md, "unroll").
    pub horizons: usize,
    /// The formula of the SAT questions of the goal-by-goal planner and the shortening
    /// windows (`--questions`; encodings/pushes.md).
    pub questions: Questions,
}

/// The formula the SAT questions are asked in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Questions {
    /// The goal-by-goal planner twice, taking turns: its questions in the layers of
    /// `pushes` and in `pushes-folded`; the windows in the layers.
    #[default]
    Both,
    /// The layers of `pushes`, one push a step.
    Layers,
    /// `pushes-path`'s one walk a step, one push a step.
    Path,
    /// The subgoals' questions in `pushes-folded`, one box line a step, asked for the
    /// fewest lines; the windows, which shorten a plan's pushes, keep the layers.
    Folded,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            finder: Techniques::DEFAULT,
            pdr_lemmas: true,
            memory: DEFAULT_MEMORY,
            horizons: DEFAULT_HORIZONS,
            questions: Questions::Both,
        }
    }
}

impl Tuning {
    /// `numerator / denominator` of the memory, for an engine's share.
    pub fn memory_share(&self, numerator: usize, denominator: usize) -> usize {
        // In u128 so that a large --memory does not overflow the product.
        (self.memory as u128 * numerator as u128 / denominator as u128) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_what_satsoko_runs() {
        let t = Tuning::default();
        assert_eq!(t.finder, Techniques::DEFAULT);
        assert!(t.pdr_lemmas);
        assert_eq!(t.memory, 1 << 30);
        assert_eq!(t.horizons, 2);
        assert_eq!(t.memory_share(1, 4), 1 << 28);
        assert_eq!(t.memory_share(600, 1024), 600 << 20);
    }

    #[test]
    fn a_share_of_a_huge_memory_does_not_overflow() {
        let t = Tuning {
            memory: usize::MAX,
            ..Tuning::default()
        };
        assert_eq!(t.memory_share(1, 1), usize::MAX);
    }
}
