//! The XSB / SOK collection format, with run-length encoding and the ice extension.
//!
//! A file is a sequence of lines. Maximal runs of board lines are levels; comment
//! (`;`), `Title:` and `Key: value` lines around a board name and describe it. A
//! solution section after a board (a `Solution …` line, then lines of moves, the
//! convention of the SOK format and of Sokoban YASC and JSoko) is kept on the level it
//! follows and plays no part in the board, its title or its metadata; those sections,
//! and where a new one goes, are read in `solutions.rs`.

mod solutions;

use std::ops::Range;

use super::board::{MAX_CELLS, SourceCell, assemble};
use super::{Level, LevelError, LevelErrorKind, Tile};
use solutions::mark_solution_sections;
pub use solutions::{Insertion, LevelBlock, MovesError, SavedSolution, level_blocks};

/// How one line of the file is read.
#[derive(Debug)]
enum LineKind<'a> {
    Blank,
    Comment(&'a str),
    Title(&'a str),
    Meta(&'a str, &'a str),
    Board,
    /// The heading of a solution section: a `Solution …` line with moves after it.
    SolutionHeading,
    /// A line of moves of a solution section.
    Moves,
    Other,
}

/// Characters that may start a board line (after leading spaces).
fn starts_board(c: char) -> bool {
    matches!(
        c,
        '#' | '-' | '_' | '$' | '.' | '*' | '@' | '+' | '~' | '=' | '&' | '|'
    ) || c.is_ascii_digit()
}

fn classify(line: &str) -> LineKind<'_> {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return LineKind::Blank;
    }
    if let Some(rest) = trimmed.strip_prefix(';') {
        return LineKind::Comment(rest.trim());
    }
    if let Some((key, value)) = trimmed.split_once(':') {
        let key_ok = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '_' || c == '-')
            && key.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        if key_ok {
            let value = value.trim();
            if key.trim().eq_ignore_ascii_case("title") {
                return LineKind::Title(value);
            }
            return LineKind::Meta(key.trim(), value);
        }
    }
    if trimmed.contains('#') && trimmed.chars().next().is_some_and(starts_board) {
        return LineKind::Board;
    }
    LineKind::Other
}

fn cell_from_char(c: char) -> Option<(Tile, bool, bool, bool)> {
    // (tile, goal, box, player)
    Some(match c {
        '#' => (Tile::Wall, false, false, false),
        ' ' | '-' | '_' => (Tile::Floor, false, false, false),
        '$' => (Tile::Floor, false, true, false),
        '.' => (Tile::Floor, true, false, false),
        '*' => (Tile::Floor, true, true, false),
        '@' => (Tile::Floor, false, false, true),
        '+' => (Tile::Floor, true, false, true),
        '~' => (Tile::Ice, false, false, false),
        '=' => (Tile::Ice, false, true, false),
        '&' => (Tile::Ice, false, false, true),
        _ => return None,
    })
}

/// Longest run a count may ask for; far beyond any real board, small enough to be safe.
const MAX_RUN: usize = 10_000;

/// Expands one board line (run-length encoding, `|` row breaks) into rows of cells.
/// `budget` is the number of cells the level may still have; it shrinks with every cell.
fn expand_board_line(
    line: &str,
    line_number: usize,
    budget: &mut usize,
) -> Result<Vec<Vec<SourceCell>>, (usize, LevelErrorKind)> {
    let mut rows = vec![Vec::new()];
    let mut count: Option<usize> = None;
    let mut count_column = 0;
    for (i, c) in line.chars().enumerate() {
        let column = i + 1;
        if let Some(d) = c.to_digit(10) {
            if count.is_none() {
                count_column = column;
            }
            let n = count.unwrap_or(0) * 10 + d as usize;
            if n > MAX_RUN {
                return Err((count_column, LevelErrorKind::CountTooLarge));
            }
            count = Some(n);
            continue;
        }
        if c == '|' {
            if count.is_some() {
                return Err((count_column, LevelErrorKind::DanglingCount));
            }
            rows.push(Vec::new());
            continue;
        }
        let Some((tile, goal, has_box, player)) = cell_from_char(c) else {
            return Err((column, LevelErrorKind::BadCharacter(c)));
        };
        let run_column = if count.is_some() {
            count_column
        } else {
            column
        };
        let n = count.take().unwrap_or(1);
        *budget = (budget.checked_sub(n)).ok_or((run_column, LevelErrorKind::TooLarge))?;
        let row = rows.last_mut().expect("rows is never empty");
        for _ in 0..n {
            row.push(SourceCell {
                tile,
                goal,
                has_box,
                player,
                line: line_number,
                column,
            });
        }
    }
    if count.is_some() {
        return Err((count_column, LevelErrorKind::DanglingCount));
    }
    Ok(rows)
}

/// Parses every level of an XSB/SOK collection. `file` is only used in error messages.
///
/// Levels are numbered from 1 in file order. The first error found is returned; use
/// [`parse_xsb_entries`] to keep the good levels of a file with a bad one.
pub fn parse_xsb(file: &str, text: &str) -> Result<Vec<Level>, LevelError> {
    parse_xsb_entries(file, text)?.into_iter().collect()
}

/// Parses a collection level by level: the outer error is about the whole file (no
/// level in it), each entry is one level or the reason it was rejected.
pub fn parse_xsb_entries(
    file: &str,
    text: &str,
) -> Result<Vec<Result<Level, LevelError>>, LevelError> {
    let scan = Scan::new(text);
    if scan.boards.is_empty() {
        return Err(LevelError::file(file, LevelErrorKind::NoLevels));
    }
    let kinds = &scan.kinds;
    let mut levels = Vec::with_capacity(scan.boards.len());
    for (n, &(start, end)) in scan.boards.iter().enumerate() {
        let number = n + 1;
        let (gap_before, gap_after) = scan.gaps(n);
        let entry = build_level(file, number, &scan.lines, start, end).map(|mut level| {
            level.number = number;
            level.first_line = start + 1;
            level.title = find_title(kinds, gap_before.clone(), gap_after.clone());
            level.metadata = find_metadata(kinds, gap_before, gap_after.clone());
            level.solutions = scan.solutions_in(gap_after);
            level
        });
        levels.push(entry);
    }
    Ok(levels)
}

/// The lines of a file, how each is read, and where the boards are.
struct Scan<'a> {
    lines: Vec<&'a str>,
    kinds: Vec<LineKind<'a>>,
    /// Maximal runs of board lines, as `[start, end)` line indices.
    boards: Vec<(usize, usize)>,
}

impl<'a> Scan<'a> {
    fn new(text: &'a str) -> Scan<'a> {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let mut kinds: Vec<LineKind> = lines.iter().map(|l| classify(l)).collect();
        mark_solution_sections(&lines, &mut kinds);
        let mut boards = Vec::new();
        let mut i = 0;
        while i < kinds.len() {
            if matches!(kinds[i], LineKind::Board) {
                let start = i;
                while i < kinds.len() && matches!(kinds[i], LineKind::Board) {
                    i += 1;
                }
                boards.push((start, i));
            } else {
                i += 1;
            }
        }
        Scan {
            lines,
            kinds,
            boards,
        }
    }

    /// The lines between board `n` and the boards before and after it.
    fn gaps(&self, n: usize) -> (Range<usize>, Range<usize>) {
        let (start, end) = self.boards[n];
        let before = if n == 0 { 0 } else { self.boards[n - 1].1 }..start;
        let after = end..self.boards.get(n + 1).map_or(self.lines.len(), |b| b.0);
        (before, after)
    }
}

/// The level's name: a `Title:` line right after the board (SOK style), else the last
/// `Title:` or comment line before it (Microban's `; 12`), else the first after it.
fn find_title(kinds: &[LineKind], before: Range<usize>, after: Range<usize>) -> Option<String> {
    let title_after = kinds[after.clone()]
        .iter()
        .take_while(|k| !matches!(k, LineKind::Blank))
        .find_map(|k| match k {
            LineKind::Title(t) => Some(*t),
            _ => None,
        });
    let named_before = || {
        kinds[before.clone()].iter().rev().find_map(|k| match k {
            LineKind::Title(t) | LineKind::Comment(t) if !t.is_empty() => Some(*t),
            _ => None,
        })
    };
    let comment_after = || {
        kinds[after.clone()].iter().find_map(|k| match k {
            LineKind::Comment(t) if !t.is_empty() => Some(*t),
            _ => None,
        })
    };
    title_after
        .or_else(named_before)
        .or_else(comment_after)
        .map(str::to_string)
}

/// `Key: value` lines directly after the board (up to a blank line), or, failing
/// those, the ones in the paragraph directly before it.
fn find_metadata(
    kinds: &[LineKind],
    before: Range<usize>,
    after: Range<usize>,
) -> Vec<(String, String)> {
    let collect = |it: &mut dyn Iterator<Item = &LineKind>| {
        it.take_while(|k| !matches!(k, LineKind::Blank))
            .filter_map(|k| match k {
                LineKind::Meta(key, value) => Some((key.to_string(), value.to_string())),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let after_meta = collect(&mut kinds[after].iter());
    if !after_meta.is_empty() {
        return after_meta;
    }
    let mut before_meta = collect(&mut kinds[before].iter().rev());
    before_meta.reverse();
    before_meta
}

fn build_level(
    file: &str,
    number: usize,
    lines: &[&str],
    start: usize,
    end: usize,
) -> Result<Level, LevelError> {
    let mut rows: Vec<Vec<SourceCell>> = Vec::new();
    // Cells are counted as they are read, so a huge board is refused before it is built.
    let mut budget = MAX_CELLS;
    for (i, line) in lines.iter().enumerate().take(end).skip(start) {
        let expanded =
            expand_board_line(line, i + 1, &mut budget).map_err(|(column, kind)| LevelError {
                file: file.to_string(),
                level: Some(number),
                line: Some(i + 1),
                column: Some(column),
                kind,
            })?;
        rows.extend(expanded);
    }
    assemble(file, number, start + 1, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<Level>, LevelError> {
        parse_xsb("test.xsb", text)
    }

    #[test]
    fn microban_style_titles() {
        let text = "; Header\n; more\n\n; 1\n\n####\n#@$.#\n####\n\n; 2\n\n#####\n#@$.#\n#####\n";
        let levels = parse(text).unwrap();
        assert_eq!(levels.len(), 2);
        assert_eq!(levels[0].title.as_deref(), Some("1"));
        assert_eq!(levels[1].title.as_deref(), Some("2"));
        assert_eq!(levels[1].number, 2);
        assert_eq!(levels[1].first_line, 12);
    }

    #[test]
    fn sok_style_title_and_metadata_after_board() {
        let text =
            "#####\n#@$.#\n#####\nTitle: First\nAuthor: Me\n\n#####\n#.$@#\n#####\nTitle: Second\n";
        let levels = parse(text).unwrap();
        assert_eq!(levels[0].title.as_deref(), Some("First"));
        assert_eq!(
            levels[0].metadata,
            vec![("Author".to_string(), "Me".to_string())]
        );
        assert_eq!(levels[1].title.as_deref(), Some("Second"));
    }

    #[test]
    fn floors_rle_and_ragged_rows() {
        let a = parse("#####\n#@$.#\n#####\n").unwrap();
        let b = parse("5#|#@$.#|5#\n").unwrap();
        let c = parse("5#\n#@$.#\n5#").unwrap();
        let d = parse("######\n#@-$.#\n#_   #\n######").unwrap();
        assert_eq!(a[0].to_string(), b[0].to_string());
        assert_eq!(a[0].to_string(), c[0].to_string());
        assert_eq!(d[0].to_string(), "######\n#@ $.#\n#    #\n######\n");
        let ragged = parse("####\n#@$.#\n#####\n").unwrap();
        assert!(
            ragged[0].is_wall(ragged[0].neighbor(ragged[0].player(), crate::level::Direction::Up))
        );
    }

    #[test]
    fn ice_characters() {
        let l = &parse("######\n#&=~.#\n######\n").unwrap()[0];
        assert!(l.has_ice());
        assert!(l.is_ice(l.player()));
        assert_eq!(l.to_string(), "######\n#&=~.#\n######\n");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("; x\n#####\n#@$x#\n#####\n").unwrap_err();
        assert_eq!((e.level, e.line, e.column), (Some(1), Some(3), Some(4)));
        assert_eq!(e.kind, LevelErrorKind::BadCharacter('x'));

        let e = parse("#####\n#@$.#\n#@  #\n#####\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(2)));
        assert!(matches!(
            e.kind,
            LevelErrorKind::SecondPlayer {
                first_line: 2,
                first_column: 2
            }
        ));

        let e = parse("#####\n# $.#\n#####\n").unwrap_err();
        assert_eq!(e.kind, LevelErrorKind::NoPlayer);
        let e = parse("#####\n#@ .#\n#####\n").unwrap_err();
        assert_eq!(e.kind, LevelErrorKind::NoBox);
        let e = parse("#####\n#@$$.#\n#####\n").unwrap_err();
        assert_eq!(
            e.kind,
            LevelErrorKind::BoxGoalMismatch { boxes: 2, goals: 1 }
        );
        let e = parse("; nothing\n").unwrap_err();
        assert_eq!(e.kind, LevelErrorKind::NoLevels);
        let e = parse("3\n#@$.#3\n").unwrap_err();
        assert_eq!(e.kind, LevelErrorKind::DanglingCount);
        let e = parse("99999#\n").unwrap_err();
        assert_eq!(e.kind, LevelErrorKind::CountTooLarge);
    }

    #[test]
    fn error_message_is_complete() {
        let e = parse("#####\n#@$x#\n#####\n").unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.starts_with("test.xsb: level 1, line 2, column 4: unexpected character 'x'"),
            "{msg}"
        );
    }
}
