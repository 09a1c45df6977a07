//! Binairo (Takuzu) grids: the file format, the errors found before solving, and the
//! rules — the one definition of a valid grid, against which every solution is checked.
//!
//! A grid is `rows × cols` cells (both even), one row per line: `0`, `1`, and `.` (or
//! `-`, `_`) for an empty cell, white space between cells allowed. Lines starting with
//! `;` are comments (the last one before a grid is its title); blank lines separate the
//! puzzles of a file. A solution fills every cell so that no row or column has three
//! equal digits in a row, every row and column holds as many 0s as 1s, and no two rows
//! and no two columns are equal.

use std::fmt;

/// One puzzle: its place in the file and its cells (`None`: empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// 1-based number in the file.
    pub number: usize,
    /// The comment line before it, if any.
    pub title: Option<String>,
    /// Rows and columns.
    pub rows: usize,
    pub cols: usize,
    /// Cells row by row: `Some(true)` a given 1, `Some(false)` a given 0.
    pub cells: Vec<Option<bool>>,
}

impl Puzzle {
    /// The cell at row `r`, column `c`.
    pub fn at(&self, r: usize, c: usize) -> Option<bool> {
        self.cells[r * self.cols + c]
    }
}

/// A fault in a puzzle file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridError {
    /// The puzzle (1-based) the fault is in.
    pub puzzle: usize,
    /// 1-based line and column in the file.
    pub line: usize,
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "puzzle {}, line {}, column {}: {}",
            self.puzzle, self.line, self.column, self.message
        )
    }
}

/// One line of a grid as read: its file line and its cells with their columns.
struct Row {
    line: usize,
    cells: Vec<(usize, Option<bool>)>,
}

/// Reads every puzzle of `text`; a puzzle with a fault gives an error naming its line
/// and column, and the others are still read.
pub fn parse(text: &str) -> Vec<Result<Puzzle, GridError>> {
    let mut out = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut title = None;
    let mut pending_title = None;
    let mut bad: Option<GridError> = None;
    let finish = |rows: &mut Vec<Row>,
                  title: &mut Option<String>,
                  bad: &mut Option<GridError>,
                  out: &mut Vec<_>| {
        if rows.is_empty() {
            return;
        }
        let number = out.len() + 1;
        let result = match bad.take() {
            Some(mut e) => {
                e.puzzle = number;
                Err(e)
            }
            None => build(number, title.take(), rows),
        };
        out.push(result);
        rows.clear();
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            finish(&mut rows, &mut title, &mut bad, &mut out);
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix(';') {
            pending_title = Some(comment.trim().to_string());
            continue;
        }
        if rows.is_empty() {
            title = pending_title.take();
        }
        let mut cells = Vec::new();
        for (j, ch) in raw.chars().enumerate() {
            let cell = match ch {
                '0' => Some(false),
                '1' => Some(true),
                '.' | '-' | '_' => None,
                c if c.is_whitespace() => continue,
                c => {
                    if bad.is_none() {
                        bad = Some(GridError {
                            puzzle: 0,
                            line,
                            column: j + 1,
                            message: format!(
                                "{c:?} is not a cell: use 0, 1, or . - _ for an empty one"
                            ),
                        });
                    }
                    continue;
                }
            };
            cells.push((j + 1, cell));
        }
        rows.push(Row { line, cells });
    }
    finish(&mut rows, &mut title, &mut bad, &mut out);
    out
}

/// A puzzle from its rows, checked for shape and for givens that already break a rule.
fn build(number: usize, title: Option<String>, rows: &[Row]) -> Result<Puzzle, GridError> {
    let err = |line: usize, column: usize, message: String| GridError {
        puzzle: number,
        line,
        column,
        message,
    };
    let cols = rows[0].cells.len();
    for row in rows {
        if row.cells.len() != cols {
            let column = row.cells.last().map_or(1, |&(c, _)| c);
            return Err(err(
                row.line,
                column,
                format!(
                    "this row has {} cells, the first has {cols}",
                    row.cells.len()
                ),
            ));
        }
    }
    if rows.len() % 2 == 1 || cols % 2 == 1 || cols == 0 {
        return Err(err(
            rows[0].line,
            1,
            format!("the grid is {}×{cols}: both sides must be even", rows.len()),
        ));
    }
    let puzzle = Puzzle {
        number,
        title,
        rows: rows.len(),
        cols,
        cells: rows
            .iter()
            .flat_map(|r| r.cells.iter().map(|&(_, v)| v))
            .collect(),
    };
    let column_of = |r: usize, c: usize| rows[r].cells[c].0;
    if let Some((r, c, why)) = first_broken_rule(&puzzle) {
        return Err(err(rows[r].line, column_of(r, c), why));
    }
    Ok(puzzle)
}

/// The lines of a grid: each row and each column as its cells (row, column) in order.
fn lines(rows: usize, cols: usize) -> Vec<(String, Vec<(usize, usize)>)> {
    let mut all = Vec::new();
    for r in 0..rows {
        all.push((
            format!("row {}", r + 1),
            (0..cols).map(|c| (r, c)).collect(),
        ));
    }
    for c in 0..cols {
        all.push((
            format!("column {}", c + 1),
            (0..rows).map(|r| (r, c)).collect(),
        ));
    }
    all
}

/// The first rule the filled cells of `p` break, with the cell that breaks it: three
/// equal in a line, more than half of a line one digit, two equal complete rows or
/// columns. `None` when the givens break none. For a full grid this is the check that
/// it is a solution.
pub fn first_broken_rule(p: &Puzzle) -> Option<(usize, usize, String)> {
    let lines = lines(p.rows, p.cols);
    for (name, cells) in &lines {
        for w in cells.windows(3) {
            let v: Vec<Option<bool>> = w.iter().map(|&(r, c)| p.at(r, c)).collect();
            if let (Some(a), Some(b), Some(c)) = (v[0], v[1], v[2])
                && a == b
                && b == c
            {
                let (r, col) = w[2];
                return Some((r, col, format!("three {}s in a row in {name}", a as u8)));
            }
        }
        for digit in [false, true] {
            let mut count = 0;
            for &(r, c) in cells {
                if p.at(r, c) == Some(digit) {
                    count += 1;
                    if count > cells.len() / 2 {
                        return Some((
                            r,
                            c,
                            format!("more than {} {}s in {name}", cells.len() / 2, digit as u8),
                        ));
                    }
                }
            }
        }
    }
    for (kind, range) in [("row", 0..p.rows), ("column", p.rows..p.rows + p.cols)] {
        let group = &lines[range];
        for (j, (name, cells)) in group.iter().enumerate() {
            let values: Option<Vec<bool>> = cells.iter().map(|&(r, c)| p.at(r, c)).collect();
            let Some(values) = values else { continue };
            for (other, earlier) in &group[..j] {
                let same = earlier
                    .iter()
                    .zip(&values)
                    .all(|(&(r, c), &v)| p.at(r, c) == Some(v));
                if same {
                    let (r, c) = cells[0];
                    return Some((
                        r,
                        c,
                        format!("{name} equals {other}: every {kind} must differ"),
                    ));
                }
            }
        }
    }
    None
}

/// Whether `cells` (a full grid, row by row) is a solution of `p`: it keeps the givens
/// and breaks no rule.
pub fn is_solution(p: &Puzzle, cells: &[bool]) -> bool {
    let keeps = p
        .cells
        .iter()
        .zip(cells)
        .all(|(g, &v)| g.is_none_or(|g| g == v));
    let full = Puzzle {
        cells: cells.iter().map(|&v| Some(v)).collect(),
        ..p.clone()
    };
    keeps && first_broken_rule(&full).is_none()
}

/// The rows of a full grid as strings of 0 and 1.
pub fn rows_of(cols: usize, cells: &[bool]) -> Vec<String> {
    cells
        .chunks(cols)
        .map(|row| row.iter().map(|&v| if v { '1' } else { '0' }).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_titles_and_empty_cells_are_read() {
        let text = "; first\n1 . . 0\n. . . .\n- _ 1 .\n. . . .\n\n; second\n10\n01\n";
        let all = parse(text);
        assert_eq!(all.len(), 2);
        let p = all[0].as_ref().unwrap();
        assert_eq!((p.rows, p.cols, p.title.as_deref()), (4, 4, Some("first")));
        assert_eq!(
            (p.at(0, 0), p.at(0, 3), p.at(2, 2)),
            (Some(true), Some(false), Some(true))
        );
        assert_eq!(all[1].as_ref().unwrap().number, 2);
    }

    #[test]
    fn faults_are_named_with_line_and_column() {
        let cases = [
            ("10\n0x\n", 2, 2, "not a cell"),
            ("1010\n01\n", 2, 2, "cells"),
            ("101\n010\n", 1, 1, "even"),
            ("000.\n....\n....\n....\n", 1, 3, "three 0s"),
            ("1.11\n....\n....\n....\n", 1, 4, "more than 2 1s"),
            ("1010\n1010\n....\n....\n", 2, 1, "row 2 equals row 1"),
        ];
        for (text, line, column, what) in cases {
            let e = parse(text).remove(0).unwrap_err();
            assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
        // Equal columns too.
        let e = parse("1100\n0011\n1100\n0011\n").remove(0).unwrap_err();
        assert!(
            e.message.contains("equal") || e.message.contains("equals"),
            "{e}"
        );
    }

    #[test]
    fn a_solution_is_checked_against_every_rule() {
        let p = parse("....\n....\n....\n....\n").remove(0).unwrap();
        let grid = |s: &str| s.chars().map(|c| c == '1').collect::<Vec<bool>>();
        assert!(is_solution(&p, &grid("1010010110010110")));
        assert!(!is_solution(&p, &grid("1010101001010101"))); // equal rows
        assert!(!is_solution(&p, &grid("0110100101101001"))); // rows 1 and 3 equal
    }
}
