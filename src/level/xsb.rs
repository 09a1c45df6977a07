//! The XSB / SOK collection format, with run-length encoding and the ice extension.
//!
//! A file is a sequence of lines. Maximal runs of board lines are levels; comment
//! (`;`), `Title:` and `Key: value` lines around a board name and describe it. A
//! solution section after a board (a `Solution …` line, then lines of moves, the
//! convention of the SOK format and of Sokoban YASC and JSoko) is kept on the level it
//! follows and plays no part in the board, its title or its metadata.

use std::ops::Range;

use super::board::{MAX_CELLS, SourceCell, assemble};
use super::{Level, LevelError, LevelErrorKind, Tile};

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

    /// The solution sections that start in `range`.
    fn solutions_in(&self, range: Range<usize>) -> Vec<SavedSolution> {
        let mut solutions = Vec::new();
        for i in range {
            if !matches!(self.kinds[i], LineKind::SolutionHeading) {
                continue;
            }
            let moves = (i + 1..self.lines.len())
                .take_while(|&j| matches!(self.kinds[j], LineKind::Moves))
                .map(|j| (j + 1, self.lines[j].trim().to_string()))
                .collect();
            solutions.push(SavedSolution {
                title: self.lines[i].trim().to_string(),
                line: i + 1,
                moves,
            });
        }
        solutions
    }

    /// Where a new solution section of board `n` goes; see [`LevelBlock::insert_at`].
    fn insertion_point(&self, n: usize) -> Insertion {
        let (_, after) = self.gaps(n);
        // After the board, or after the moves of the level's last solution section.
        let last_moves_end = after
            .clone()
            .rev()
            .find(|&i| matches!(self.kinds[i], LineKind::Moves))
            .map(|i| i + 1);
        let anchor = last_moves_end.unwrap_or(after.start);
        // The paragraph the anchor ends: its notes, Title and metadata lines.
        let blank = (anchor..after.end).find(|&i| matches!(self.kinds[i], LineKind::Blank));
        match blank {
            Some(line) => Insertion { line, closed: true },
            None if after.end == self.lines.len() => Insertion {
                line: after.end,
                closed: true,
            },
            // The next board follows without a blank line: right after the moves, or
            // after the Title and metadata lines that follow the board.
            None => {
                let line = last_moves_end.unwrap_or_else(|| {
                    (anchor..after.end)
                        .find(|&i| {
                            !matches!(self.kinds[i], LineKind::Title(_) | LineKind::Meta(..))
                        })
                        .unwrap_or(after.end)
                });
                Insertion {
                    line,
                    closed: false,
                }
            }
        }
    }
}

/// Where a new solution section goes in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insertion {
    /// The 0-based index of the line the section goes before (the number of lines
    /// before it); the number of lines of the file to append it at the end.
    pub line: usize,
    /// Whether a blank line or the end of the file follows: if not, the section needs
    /// a blank line of its own after it, to stay apart from the next level.
    pub closed: bool,
}

/// Where a level sits in its XSB/SOK file and the solutions stored after it: what
/// writing solutions into the file needs, whether or not the level itself is valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelBlock {
    /// 1-based number of the level in its file.
    pub number: usize,
    /// 1-based line where the board starts.
    pub first_line: usize,
    /// Where a new solution section of the level goes: at the end of the paragraph of
    /// the board (its `Title:` and metadata lines), or of the level's last solution
    /// section.
    pub insert_at: Insertion,
    /// The solution sections stored after the level, in file order.
    pub solutions: Vec<SavedSolution>,
}

/// The levels of an XSB/SOK text with their solution sections and the places where
/// new ones go, numbered like [`parse_xsb_entries`] numbers them.
pub fn level_blocks(text: &str) -> Vec<LevelBlock> {
    let scan = Scan::new(text);
    (0..scan.boards.len())
        .map(|n| LevelBlock {
            number: n + 1,
            first_line: scan.boards[n].0 + 1,
            insert_at: scan.insertion_point(n),
            solutions: scan.solutions_in(scan.gaps(n).1),
        })
        .collect()
}

/// Marks the solution sections: a line `Solution …` (other text, see
/// [`is_solution_heading`]) directly followed by one or more lines of moves.
fn mark_solution_sections(lines: &[&str], kinds: &mut [LineKind]) {
    let mut i = 0;
    while i < lines.len() {
        let other = |j: usize| matches!(kinds[j], LineKind::Other);
        let heading = other(i)
            && is_solution_heading(lines[i])
            && i + 1 < lines.len()
            && other(i + 1)
            && is_moves_line(lines[i + 1]);
        if !heading {
            i += 1;
            continue;
        }
        kinds[i] = LineKind::SolutionHeading;
        i += 1;
        while i < lines.len() && matches!(kinds[i], LineKind::Other) && is_moves_line(lines[i]) {
            kinds[i] = LineKind::Moves;
            i += 1;
        }
    }
}

/// `Solution`, `Solution/Moves`, `Solution (33 moves, 8 pushes)`, … in any case: the
/// word "solution" first, not followed by another letter.
fn is_solution_heading(line: &str) -> bool {
    let t = line.trim();
    t.get(..8)
        .is_some_and(|w| w.eq_ignore_ascii_case("solution"))
        && !t[8..].starts_with(char::is_alphabetic)
}

/// The characters a line of moves may hold besides digits (run-length counts) and white
/// space: the moves, groups of the run-length encoding, and the jumps, pusher changes
/// and current-position mark of the SOK format (kept, so that such a solution is read
/// whole and then rejected where they stand).
const MOVE_LINE_CHARS: &str = "lurdLURD()[]{}*";

/// A line of moves: only move characters, run-length digits and white space, with at
/// least one move letter.
fn is_moves_line(line: &str) -> bool {
    let t = line.trim();
    t.chars()
        .all(|c| MOVE_LINE_CHARS.contains(c) || c.is_ascii_digit() || c == ' ' || c == '\t')
        && t.chars().any(|c| "lurdLURD".contains(c))
}

/// A solution stored in a collection file: a heading line starting with `Solution`,
/// then one or more lines of moves (LURD, possibly run-length encoded), as Sokoban
/// YASC and JSoko write it after a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedSolution {
    /// The heading line, trimmed (`Solution (33 moves, 8 pushes)`).
    pub title: String,
    /// 1-based line of the heading in the file.
    pub line: usize,
    /// The lines of moves: each 1-based line number with its text, trimmed.
    pub moves: Vec<(usize, String)>,
}

/// Why the moves of a stored solution cannot be read (its run-length encoding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesError {
    /// 1-based line of the fault.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for MovesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The most moves a stored solution may expand to (run-length counts multiply).
const MAX_SAVED_MOVES: usize = 1_000_000;

/// The deepest nesting of run-length groups `2(3(dr)R)` in a stored solution.
const MAX_GROUP_DEPTH: usize = 64;

impl SavedSolution {
    /// The moves, run-length counts and groups expanded and white space dropped, each
    /// with the 1-based line it is written on. A `*` (the current-position mark of a
    /// saved game) is dropped too; other characters are kept as they are.
    pub fn expanded(&self) -> Result<Vec<(char, usize)>, MovesError> {
        let tokens: Vec<(char, usize)> = self
            .moves
            .iter()
            .flat_map(|(line, text)| text.chars().map(move |c| (c, *line)))
            .filter(|(c, _)| !c.is_whitespace())
            .collect();
        let mut out = Vec::new();
        let mut pos = 0;
        expand_group(&tokens, &mut pos, 0, &mut out)?;
        if let Some(&(_, line)) = tokens.get(pos) {
            return Err(MovesError {
                line,
                message: "')' closes no group".to_string(),
            });
        }
        Ok(out)
    }

    /// The moves as one LURD string ([`SavedSolution::expanded`] without the lines).
    pub fn lurd(&self) -> Result<String, MovesError> {
        Ok(self.expanded()?.into_iter().map(|(c, _)| c).collect())
    }
}

/// Expands tokens from `pos` up to an unmatched `)` or the end into `out`.
fn expand_group(
    tokens: &[(char, usize)],
    pos: &mut usize,
    depth: usize,
    out: &mut Vec<(char, usize)>,
) -> Result<(), MovesError> {
    let fail = |line: usize, message: &str| MovesError {
        line,
        message: message.to_string(),
    };
    while let Some(&(c, line)) = tokens.get(*pos) {
        if c == ')' {
            return Ok(());
        }
        let mut count = None;
        while let Some(&(d, _)) = tokens.get(*pos).filter(|(d, _)| d.is_ascii_digit()) {
            let n = count.unwrap_or(0) * 10 + d.to_digit(10).unwrap_or(0) as usize;
            if n > MAX_RUN {
                return Err(fail(line, "a run-length count above 10000"));
            }
            count = Some(n);
            *pos += 1;
        }
        let Some(&(c, line)) = tokens.get(*pos) else {
            return Err(fail(line, "a run-length count at the end of the moves"));
        };
        *pos += 1;
        let times = count.unwrap_or(1);
        match c {
            '(' => {
                if depth >= MAX_GROUP_DEPTH {
                    return Err(fail(line, "run-length groups nested too deep"));
                }
                let start = out.len();
                expand_group(tokens, pos, depth + 1, out)?;
                if tokens.get(*pos).is_none() {
                    return Err(fail(line, "'(' is never closed"));
                }
                *pos += 1; // the ')'
                let group = out[start..].to_vec();
                if start.saturating_add(group.len().saturating_mul(times)) > MAX_SAVED_MOVES {
                    return Err(fail(line, "the moves expand to more than a million"));
                }
                for _ in 1..times {
                    out.extend_from_slice(&group);
                }
                if times == 0 {
                    out.truncate(start);
                }
            }
            ')' => return Err(fail(line, "a run-length count before ')'")),
            '*' if count.is_some() => {
                return Err(fail(line, "a run-length count before '*'"));
            }
            '*' => {}
            _ => {
                if out.len().saturating_add(times) > MAX_SAVED_MOVES {
                    return Err(fail(line, "the moves expand to more than a million"));
                }
                out.extend(std::iter::repeat_n((c, line), times));
            }
        }
        if out.len() > MAX_SAVED_MOVES {
            return Err(fail(line, "the moves expand to more than a million"));
        }
    }
    Ok(())
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
    fn solution_sections_stay_out_of_boards_titles_and_metadata() {
        let plain = "; 1\n\n#####\n#@$.#\n#####\nTitle: First\nAuthor: Me\n\n; 2\n\n\
                     #####\n#.$@#\n#####\n";
        let with = "; 1\n\n#####\n#@$.#\n#####\nTitle: First\nAuthor: Me\n\n\
                    Solution (1 move, 1 push)\nR\n\nSolution/Moves\nR\nnotes on it\n\n; 2\n\n\
                    #####\n#.$@#\n#####\n\nsolution\n  3l\n";
        let (a, b) = (parse(plain).unwrap(), parse(with).unwrap());
        assert_eq!(a.len(), b.len());
        for (a, b) in a.iter().zip(&b) {
            assert_eq!(a.to_string(), b.to_string());
            assert_eq!((&a.title, &a.metadata), (&b.title, &b.metadata));
            assert!(a.solutions.is_empty());
        }
        assert_eq!(b[0].title.as_deref(), Some("First"));
        let titles: Vec<&str> = b[0].solutions.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Solution (1 move, 1 push)", "Solution/Moves"]);
        assert_eq!(b[0].solutions[0].line, 9);
        assert_eq!(b[0].solutions[0].moves, vec![(10, "R".to_string())]);
        assert_eq!(b[1].solutions.len(), 1);
        assert_eq!(b[1].solutions[0].lurd().unwrap(), "lll");
        assert_eq!(b[1].solutions[0].line, 22);
    }

    #[test]
    fn what_is_not_a_solution_section() {
        // A heading without moves, a word that only starts with "solution", a moves
        // line without a heading, and a `Solution:` key are all left alone.
        let text = "#####\n#@$.#\n#####\n\nSolution unknown\n\nSolutions\nrR\n\nrR\n\n\
                    Solution: rR\n";
        let level = &parse(text).unwrap()[0];
        assert!(level.solutions.is_empty());
        assert!(level.metadata.is_empty());
    }

    #[test]
    fn solution_moves_span_lines_and_expand_run_lengths() {
        let text = "#####\n#@$.#\n#####\nSolution\nuR 2r\n\t2(3(dr)R)\n3U*\n";
        let s = &parse(text).unwrap()[0].solutions[0];
        assert_eq!(s.line, 4);
        assert_eq!(s.moves.len(), 3);
        assert_eq!(s.lurd().unwrap(), "uRrrdrdrdrRdrdrdrRUUU");
        let expanded = s.expanded().unwrap();
        assert_eq!(expanded[0], ('u', 5));
        assert_eq!(expanded[3], ('r', 5));
        assert_eq!(expanded[4], ('d', 6));
        assert_eq!(expanded.last(), Some(&('U', 7)));
        let bad = |moves: &str| {
            SavedSolution {
                title: "Solution".into(),
                line: 1,
                moves: vec![(2, moves.to_string())],
            }
            .lurd()
            .unwrap_err()
        };
        assert!(bad("2(rR").message.contains("never closed"));
        assert!(bad("rR)").message.contains("closes no group"));
        assert!(bad("rR3").message.contains("at the end"));
        assert!(bad("3)").message.contains("before ')'"));
        assert!(bad("20000r").message.contains("above 10000"));
        assert!(
            bad("9999(9999(9999(r)))")
                .message
                .contains("more than a million")
        );
        assert_eq!(bad("r(").line, 2);
    }

    #[test]
    fn insertion_points_end_the_level_paragraph() {
        let text = "; 1\n\n#####\n#@$.#\n#####\nTitle: A\nAuthor: Me\n\n\
                    #####\n#.$@#\n#####\n\nSolution\nL\nnote\n\n\
                    #####\n#@$.#\n#####\nTitle: C\n; D\n#####\n#.$@#\n#####";
        let blocks = level_blocks(text);
        let at: Vec<(usize, bool)> = blocks
            .iter()
            .map(|b| (b.insert_at.line, b.insert_at.closed))
            .collect();
        // Level 1: the blank line after its metadata; level 2: the blank line after its
        // solution's notes; level 3: after its title, the next board follows at once;
        // level 4: the end of the file.
        assert_eq!(at, [(7, true), (15, true), (20, false), (24, true)]);
        assert_eq!(blocks[1].solutions.len(), 1);
        assert_eq!(blocks[2].first_line, 17);
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
