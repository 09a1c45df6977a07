//! What the parsers share: one cell as read from a file, and the checks that turn rows
//! of such cells into a [`Level`] (one player, at least one box, as many boxes as goals).

use super::{Level, LevelError, LevelErrorKind, Tile};

/// The most cells a level may have, the border of walls around the board included (a
/// 254 × 254 board): the searches store cells in 16 bits, and the analysis keeps tables
/// over pairs of cells.
pub const MAX_CELLS: usize = 1 << 16;

/// One cell as written in the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SourceCell {
    pub tile: Tile,
    pub goal: bool,
    pub has_box: bool,
    pub player: bool,
    /// 1-based line of the file.
    pub line: usize,
    /// 1-based column of the file.
    pub column: usize,
}

/// Checks the rows of level `number` (whose board starts at `first_line`) and builds it.
pub(crate) fn assemble(
    file: &str,
    number: usize,
    first_line: usize,
    rows: &[Vec<SourceCell>],
) -> Result<Level, LevelError> {
    let err = |line: usize, column: Option<usize>, kind| LevelError {
        file: file.to_string(),
        level: Some(number),
        line: Some(line),
        column,
        kind,
    };
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    if (width + 2).saturating_mul(rows.len() + 2) > MAX_CELLS {
        return Err(err(first_line, None, LevelErrorKind::TooLarge));
    }
    let mut player: Option<(usize, usize, &SourceCell)> = None;
    let (mut boxes, mut goals) = (0, 0);
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            boxes += cell.has_box as usize;
            goals += cell.goal as usize;
            if cell.player {
                if let Some((_, _, first)) = player {
                    return Err(err(
                        cell.line,
                        Some(cell.column),
                        LevelErrorKind::SecondPlayer {
                            first_line: first.line,
                            first_column: first.column,
                        },
                    ));
                }
                player = Some((r, c, cell));
            }
        }
    }
    let Some((pr, pc, _)) = player else {
        return Err(err(first_line, None, LevelErrorKind::NoPlayer));
    };
    if boxes == 0 {
        return Err(err(first_line, None, LevelErrorKind::NoBox));
    }
    if boxes != goals {
        return Err(err(
            first_line,
            None,
            LevelErrorKind::BoxGoalMismatch { boxes, goals },
        ));
    }
    let grid: Vec<Vec<(Tile, bool, bool)>> = rows
        .iter()
        .map(|row| row.iter().map(|c| (c.tile, c.goal, c.has_box)).collect())
        .collect();
    let mut level = Level::from_rows(&grid, (pr, pc));
    level.number = number;
    level.first_line = first_line;
    Ok(level)
}
