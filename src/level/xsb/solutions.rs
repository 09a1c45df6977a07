//! The solution sections of a collection file, the way the SOK format of Sokoban YASC
//! (and JSoko) keeps them: which lines make one (a `Solution …` heading, then lines of
//! moves), the solutions they hold with their moves expanded (run-length counts and
//! groups), and where a new section goes when a solution is written into the file.
//!
//! Apart from the board grammar because a section is no part of a level: the scan only
//! marks its lines, so that they stay out of boards, titles and metadata, and keeps them
//! for `verify --from-file` and `solve --solutions` (which writes them, in
//! `src/cli/solutions.rs`).

use std::ops::Range;

use super::{LineKind, MAX_RUN, Scan};

/// Marks the solution sections: a line `Solution …` (other text, see
/// [`is_solution_heading`]) directly followed by one or more lines of moves.
pub(super) fn mark_solution_sections(lines: &[&str], kinds: &mut [LineKind]) {
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

impl Scan<'_> {
    /// The solution sections that start in `range`.
    pub(super) fn solutions_in(&self, range: Range<usize>) -> Vec<SavedSolution> {
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
    pub(super) fn insertion_point(&self, n: usize) -> Insertion {
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
/// new ones go, numbered like [`parse_xsb_entries`](super::parse_xsb_entries) numbers them.
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

/// A solution stored in a collection file: a heading line starting with `Solution`,
/// then one or more lines of moves (LURD, possibly run-length encoded), as Sokoban
/// YASC and JSoko write it after a level.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, LevelError, parse_xsb};

    fn parse(text: &str) -> Result<Vec<Level>, LevelError> {
        parse_xsb("test.xsb", text)
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
}
