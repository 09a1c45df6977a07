//! The numeric course format: a matrix of codes, row by row, as nested tuples or lists
//! (`((99,99,99),(99,17,99),...)`, `[[...],[...]]`) or plain rows of numbers, one row per
//! line. `(`, `)`, `[`, `]`, `,` and white space separate; `;` starts a comment line.
//! Several outermost groups (or, for plain rows, blocks separated by blank lines) are
//! several levels.

use super::board::{SourceCell, assemble};
use super::{Level, LevelError, LevelErrorKind, Tile};

/// The meaning of each code: (tile, goal, box, player).
fn decode(code: u32) -> Option<(Tile, bool, bool, bool)> {
    Some(match code {
        99 => (Tile::Wall, false, false, false),
        10 => (Tile::Floor, false, false, false),
        15 => (Tile::Floor, false, true, false),
        17 => (Tile::Floor, false, false, true),
        20 => (Tile::Floor, true, false, false),
        25 => (Tile::Floor, true, true, false),
        27 => (Tile::Floor, true, false, true),
        30 => (Tile::Ice, false, false, false),
        35 => (Tile::Ice, false, true, false),
        37 => (Tile::Ice, false, false, true),
        _ => return None,
    })
}

/// Whether `text` looks like the numeric format: only digits, separators and comment
/// lines, and at least one digit.
pub fn looks_numeric(text: &str) -> bool {
    let mut digits = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with(';') {
            continue;
        }
        for c in line.chars() {
            if c.is_ascii_digit() {
                digits = true;
            } else if !matches!(c, '(' | ')' | '[' | ']' | ',' | ' ' | '\t' | '\r') {
                return false;
            }
        }
    }
    digits
}

/// A number with where it was written.
#[derive(Clone, Copy)]
struct Token {
    value: u64,
    line: usize,
    column: usize,
}

/// A group of rows (a level) with the line it starts on.
struct Grid {
    rows: Vec<Vec<Token>>,
    line: usize,
}

fn error(file: &str, level: Option<usize>, line: usize, column: usize, msg: String) -> LevelError {
    LevelError {
        file: file.to_string(),
        level,
        line: Some(line),
        column: Some(column),
        kind: LevelErrorKind::Other(msg),
    }
}

/// Splits the text into grids of rows of numbers.
fn grids(file: &str, text: &str) -> Result<Vec<Grid>, LevelError> {
    let bracketed = text
        .lines()
        .filter(|l| !l.trim_start().starts_with(';'))
        .any(|l| l.contains(['(', '[']));
    let mut out: Vec<Grid> = Vec::new();
    // Bracketed: depth 1 opens a level, depth 2 a row (a level written as one flat group
    // is one row). Plain: every line is a row, blank lines end a level.
    let mut depth = 0usize;
    let mut opener: Vec<(char, usize, usize)> = Vec::new();
    let mut number: Option<Token> = None;
    let mut row: Vec<Token> = Vec::new();
    let mut new_block = true;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim_start().starts_with(';') {
            continue;
        }
        if !bracketed {
            if line.trim().is_empty() {
                new_block = true;
                continue;
            }
            if new_block {
                out.push(Grid {
                    rows: Vec::new(),
                    line: line_no,
                });
                new_block = false;
            }
        }
        for (j, c) in line.chars().chain(std::iter::once(' ')).enumerate() {
            let column = j + 1;
            if let Some(d) = c.to_digit(10) {
                let t = number.get_or_insert(Token {
                    value: 0,
                    line: line_no,
                    column,
                });
                t.value = t.value.saturating_mul(10).saturating_add(d as u64);
                continue;
            }
            if let Some(t) = number.take() {
                if bracketed && depth == 0 {
                    return Err(error(
                        file,
                        None,
                        t.line,
                        t.column,
                        "a number outside any bracket".into(),
                    ));
                }
                row.push(t);
            }
            match c {
                '(' | '[' => {
                    depth += 1;
                    opener.push((c, line_no, column));
                    if depth == 1 {
                        out.push(Grid {
                            rows: Vec::new(),
                            line: line_no,
                        });
                    } else if depth > 2 {
                        return Err(error(
                            file,
                            None,
                            line_no,
                            column,
                            "brackets nested more than two deep".into(),
                        ));
                    }
                }
                ')' | ']' => {
                    let Some((open, ..)) = opener.pop() else {
                        return Err(error(
                            file,
                            None,
                            line_no,
                            column,
                            format!("{c:?} closes nothing"),
                        ));
                    };
                    if (open == '(') != (c == ')') {
                        return Err(error(
                            file,
                            None,
                            line_no,
                            column,
                            format!("{c:?} closes {open:?}"),
                        ));
                    }
                    depth -= 1;
                    if !row.is_empty() {
                        out.last_mut()
                            .expect("a grid")
                            .rows
                            .push(std::mem::take(&mut row));
                    }
                }
                ',' | ' ' | '\t' | '\r' => {}
                other => {
                    return Err(error(
                        file,
                        None,
                        line_no,
                        column,
                        format!("unexpected character {other:?} in a numeric grid"),
                    ));
                }
            }
        }
        if !bracketed && !row.is_empty() {
            out.last_mut()
                .expect("a grid")
                .rows
                .push(std::mem::take(&mut row));
        }
    }
    if let Some(&(open, line, column)) = opener.last() {
        return Err(error(
            file,
            None,
            line,
            column,
            format!("{open:?} is never closed"),
        ));
    }
    out.retain(|g| !g.rows.is_empty());
    Ok(out)
}

/// Parses a numeric file: one entry per level (or the reason it was rejected), or an
/// error about the whole file.
pub fn parse_numeric_entries(
    file: &str,
    text: &str,
) -> Result<Vec<Result<Level, LevelError>>, LevelError> {
    let grids = grids(file, text)?;
    if grids.is_empty() {
        return Err(LevelError::file(file, LevelErrorKind::NoLevels));
    }
    Ok(grids
        .iter()
        .enumerate()
        .map(|(n, grid)| build(file, n + 1, grid))
        .collect())
}

fn build(file: &str, number: usize, grid: &Grid) -> Result<Level, LevelError> {
    let width = grid.rows[0].len();
    let mut rows = Vec::with_capacity(grid.rows.len());
    for (r, row) in grid.rows.iter().enumerate() {
        if row.len() != width {
            let t = row[0];
            return Err(error(
                file,
                Some(number),
                t.line,
                t.column,
                format!(
                    "row {} has {} numbers but row 1 has {width}; every row needs the same length",
                    r + 1,
                    row.len()
                ),
            ));
        }
        let mut cells = Vec::with_capacity(width);
        for t in row {
            let Some((tile, goal, has_box, player)) = u32::try_from(t.value).ok().and_then(decode)
            else {
                return Err(error(
                    file,
                    Some(number),
                    t.line,
                    t.column,
                    format!(
                        "unknown code {}; the codes are 99 wall, 10 floor, 15 box, 17 player, \
                         20 goal, 25 box on goal, 27 player on goal, 30 ice, 35 box on ice, \
                         37 player on ice",
                        t.value
                    ),
                ));
            };
            cells.push(SourceCell {
                tile,
                goal,
                has_box,
                player,
                line: t.line,
                column: t.column,
            });
        }
        rows.push(cells);
    }
    assemble(file, number, grid.line, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<Level>, LevelError> {
        parse_numeric_entries("t.txt", text)?.into_iter().collect()
    }

    #[test]
    fn the_course_example() {
        let l = parse("((99,99,99,99,99),(99,17,15,20,99),(99,99,99,99,99))").unwrap();
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].to_string(), "#####\n#@$.#\n#####\n");
    }

    #[test]
    fn lists_plain_rows_and_ice_mean_the_same() {
        let a =
            parse("[[99,99,99,99,99,99],\n [99,37,35,30,20,99],\n [99,99,99,99,99,99]]").unwrap();
        let b = parse("99 99 99 99 99 99\n99 37 35 30 20 99\n99 99 99 99 99 99\n").unwrap();
        assert_eq!(a[0].to_string(), "######\n#&=~.#\n######\n");
        assert_eq!(a[0].to_string(), b[0].to_string());
    }

    #[test]
    fn several_levels() {
        let two = parse("((99,17,15,20,99))\n((99,20,15,17,99))").unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two[1].number, 2);
        let plain = parse("99 17 15 20 99\n\n99 20 15 17 99\n").unwrap();
        assert_eq!(plain.len(), 2);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("((99,99,99),\n(99,42,99))").unwrap_err();
        assert_eq!((e.level, e.line, e.column), (Some(1), Some(2), Some(5)));
        assert!(e.to_string().contains("unknown code 42"), "{e}");
        let e = parse("((99,17,15,20,99),\n(99,99))").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(2)));
        assert!(e.to_string().contains("same length"), "{e}");
        let e = parse("((99,10,15,20,99))").unwrap_err();
        assert_eq!(e.kind, LevelErrorKind::NoPlayer);
        let e = parse("((99,17,15,20,17))").unwrap_err();
        assert!(matches!(e.kind, LevelErrorKind::SecondPlayer { .. }));
        let e = parse("((99,17,15,15,20))").unwrap_err();
        assert_eq!(
            e.kind,
            LevelErrorKind::BoxGoalMismatch { boxes: 2, goals: 1 }
        );
        let e = parse("((99,17,10,10,99))").unwrap_err();
        assert_eq!(e.kind, LevelErrorKind::NoBox);
        assert!(
            parse("((99,17,15,20,99)")
                .unwrap_err()
                .to_string()
                .contains("never closed")
        );
        assert!(
            parse("(99,17,15,20,99))")
                .unwrap_err()
                .to_string()
                .contains("closes nothing")
        );
        assert!(
            parse("(((99)))")
                .unwrap_err()
                .to_string()
                .contains("two deep")
        );
        assert!(
            parse("((99,x))")
                .unwrap_err()
                .to_string()
                .contains("unexpected character")
        );
    }

    #[test]
    fn detection() {
        assert!(looks_numeric("((99,17),(15,20))"));
        assert!(looks_numeric("; a comment\n99 17 15 20\n"));
        assert!(!looks_numeric("#####\n#@$.#\n#####\n"));
        assert!(!looks_numeric("4#|#@$.#"));
        assert!(!looks_numeric(""));
    }
}
