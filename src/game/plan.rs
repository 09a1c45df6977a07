//! Plans: sequences of moves, their LURD form, and their verification by replay.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::rules::{self, Replay, ReplayError};
use crate::level::{Direction, Level};

/// What a plan's length is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Every move, walk or push.
    Moves,
    /// Pushes only (walks are free).
    Pushes,
}

impl Metric {
    /// The name users type and reports show.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Moves => "moves",
            Metric::Pushes => "pushes",
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One move of a plan: a direction and whether it pushes a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Where the player moves.
    pub dir: Direction,
    /// Whether the move pushes a box.
    pub push: bool,
}

/// A sequence of moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// The moves in order.
    pub moves: Vec<Move>,
}

impl Plan {
    /// Parses a LURD string (white space ignored); `None` on a character outside LURD.
    pub fn from_lurd(lurd: &str) -> Option<Plan> {
        let moves = lurd
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| Direction::from_letter(c).map(|(dir, push)| Move { dir, push }))
            .collect::<Option<Vec<_>>>()?;
        Some(Plan { moves })
    }

    /// The LURD string: lower case walks, upper case pushes.
    pub fn lurd(&self) -> String {
        self.moves.iter().map(|m| m.dir.letter(m.push)).collect()
    }

    /// Number of moves.
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    /// Number of pushes.
    pub fn push_count(&self) -> usize {
        self.moves.iter().filter(|m| m.push).count()
    }

    /// Box lines: runs of pushes in one direction with no other move between them (of
    /// one box, then), the steps of the `pushes-folded` encoding.
    pub fn line_count(&self) -> usize {
        let mut previous: Option<&Move> = None;
        let mut lines = 0;
        for m in &self.moves {
            let goes_on = previous.is_some_and(|p| p.push && p.dir == m.dir);
            lines += (m.push && !goes_on) as usize;
            previous = Some(m);
        }
        lines
    }

    /// The plan's length in `metric`.
    pub fn count(&self, metric: Metric) -> usize {
        match metric {
            Metric::Moves => self.move_count(),
            Metric::Pushes => self.push_count(),
        }
    }

    /// Replays the plan through the rules engine; `Ok` only if every move is legal,
    /// every letter's case is right, and the level ends solved.
    pub fn verify(&self, level: &Level) -> Result<Replay, VerifyError> {
        let replay = rules::replay(level, &self.lurd()).map_err(VerifyError::Illegal)?;
        if !replay.solved {
            return Err(VerifyError::NotSolved);
        }
        Ok(replay)
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lurd())
    }
}

/// Why a plan failed verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// A move is illegal.
    Illegal(ReplayError),
    /// All moves are legal but some box is not on a goal at the end.
    NotSolved,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Illegal(e) => e.fmt(f),
            VerifyError::NotSolved => f.write_str("the plan is legal but does not solve the level"),
        }
    }
}
