//! Errors found while reading a level file. Each names the file, the level and the
//! line/column, so the user can go straight to the problem.

use std::fmt;

use super::board::MAX_CELLS;

/// What is wrong with the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelErrorKind {
    /// A board line holds a character that is not part of the format.
    BadCharacter(char),
    /// A run-length count is not followed by a board character.
    DanglingCount,
    /// A run-length count is absurdly large.
    CountTooLarge,
    /// The board has more cells than a level may have ([`MAX_CELLS`], the border of
    /// walls around it included).
    TooLarge,
    /// The level has no player.
    NoPlayer,
    /// The level has a second player; the first one's line and column are given.
    SecondPlayer {
        first_line: usize,
        first_column: usize,
    },
    /// The level has no box.
    NoBox,
    /// The numbers of boxes and goals differ.
    BoxGoalMismatch { boxes: usize, goals: usize },
    /// The file holds no level at all.
    NoLevels,
    /// A level number asked for does not exist in the file.
    NoSuchLevel { asked: usize, available: usize },
    /// The file could not be read.
    Io(String),
    /// Anything else, explained in words.
    Other(String),
}

/// A rejected input, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// The file, as the user named it.
    pub file: String,
    /// The 1-based level number in the file, when the error belongs to one level.
    pub level: Option<usize>,
    /// The 1-based line, when known.
    pub line: Option<usize>,
    /// The 1-based column, when known.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: LevelErrorKind,
}

impl LevelError {
    /// An error about a whole file (no level or position).
    pub fn file(file: &str, kind: LevelErrorKind) -> LevelError {
        LevelError {
            file: file.to_string(),
            level: None,
            line: None,
            column: None,
            kind,
        }
    }
}

impl fmt::Display for LevelErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelErrorKind::BadCharacter(c) => write!(
                f,
                "unexpected character {c:?} in a board line; boards use # (wall), space - _ \
                 (floor), $ (box), . (goal), * (box on goal), @ (player), + (player on goal), \
                 ~ = & (ice), digits and | (run-length encoding)"
            ),
            LevelErrorKind::DanglingCount => {
                write!(
                    f,
                    "a run-length count must be followed by a board character"
                )
            }
            LevelErrorKind::CountTooLarge => write!(f, "run-length count is too large"),
            LevelErrorKind::TooLarge => write!(
                f,
                "the level is too large: at most {MAX_CELLS} cells fit, the border of walls \
                 around the board included"
            ),
            LevelErrorKind::NoPlayer => write!(
                f,
                "the level has no player (@ + & in XSB, 17 27 37 in a numeric grid)"
            ),
            LevelErrorKind::SecondPlayer {
                first_line,
                first_column,
            } => write!(
                f,
                "a second player; the first is at line {first_line}, column {first_column} \
                 (a level has exactly one)"
            ),
            LevelErrorKind::NoBox => write!(
                f,
                "the level has no box ($ * = in XSB, 15 25 35 in a numeric grid)"
            ),
            LevelErrorKind::BoxGoalMismatch { boxes, goals } => write!(
                f,
                "the level has {boxes} box(es) but {goals} goal(s); they must be equal"
            ),
            LevelErrorKind::NoLevels => write!(f, "no level found (a board line contains #)"),
            LevelErrorKind::NoSuchLevel { asked, available } => write!(
                f,
                "there is no level {asked}; the file has {available} level(s), numbered from 1"
            ),
            LevelErrorKind::Io(msg) => write!(f, "cannot read the file: {msg}"),
            LevelErrorKind::Other(msg) => f.write_str(msg),
        }
    }
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(level) = self.level {
            write!(f, ": level {level}")?;
        }
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if let Some(column) = self.column {
            write!(f, ", column {column}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for LevelError {}
