//! Solutions stored in collection files, the way the SOK format of Sokoban YASC (and
//! JSoko) keeps them: a `Solution …` heading line after a level, then its moves.
//!
//! `solve --solutions PATH` writes the input collection back with a section after each
//! level solved, changing nothing else of the text; `verify --from-file` replays every
//! stored solution through the rules engine. The parser side (recognising the sections,
//! keeping them out of boards and titles) is in `src/level/xsb/solutions.rs`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::args::{FormatArg, SolveArgs, VerifyArgs};
use super::config::format_of;
use super::input::{display_name, read_levels, read_text};
use super::report::{
    EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_REJECTED, EXIT_USAGE, LevelReport,
    Status, plural,
};
use crate::game::{Convention, replay_in};
use crate::level::{
    Format, Insertion, Level, LevelErrorKind, SavedSolution, level_blocks, looks_numeric,
    parse_xsb_entries,
};

/// Moves per line in a written section: the line width Sokoban YASC writes moves in.
const MOVES_PER_LINE: usize = 70;

/// The heading of a written section: `Solution (33 moves, 8 pushes)`.
pub fn heading(moves: usize, pushes: usize) -> String {
    format!(
        "Solution ({}, {})",
        plural(moves as u64, "move"),
        plural(pushes as u64, "push")
    )
}

/// `--solutions PATH` of one `solve` run: the input's text, read before solving, and
/// the verified plans found, written into PATH at the end.
#[derive(Debug)]
pub struct SolutionsOut {
    /// The input file as reports name it.
    name: String,
    /// The input text, or `None` when it cannot be read (the run reports why).
    text: Option<String>,
    /// Where the collection is written.
    target: PathBuf,
    /// The level numbers solved, each with its plan in the XSB convention.
    found: Vec<(usize, String)>,
}

impl SolutionsOut {
    /// Checks `--solutions` against the other arguments and reads the input text:
    /// `Ok(None)` without the option, `Err(exit code)` (the reason printed) when it
    /// cannot be used: not exactly one input file, `-` as PATH, or an input that is not
    /// XSB/SOK (numeric grids and the digits format have no place for the sections).
    pub fn prepare(
        args: &SolveArgs,
        format: Option<FormatArg>,
    ) -> Result<Option<SolutionsOut>, i32> {
        let Some(target) = &args.solutions else {
            return Ok(None);
        };
        let usage = |message: String| {
            eprintln!("error: {message}");
            Err(EXIT_USAGE)
        };
        let [input] = args.files.as_slice() else {
            return usage(format!(
                "--solutions writes one collection: give exactly one input file (got {})",
                args.files.len()
            ));
        };
        if target.as_os_str() == "-" {
            return usage(
                "--solutions needs a file to write: standard output carries the reports"
                    .to_string(),
            );
        }
        let name = display_name(input);
        let text = read_text(input).ok();
        let format = format.map(format_of).or_else(|| {
            let numeric = text.as_deref().is_some_and(looks_numeric);
            Some(if numeric {
                Format::Numeric
            } else {
                Format::Xsb
            })
        });
        let what = match format {
            Some(Format::Numeric) => "a numeric grid",
            Some(Format::Digits) => "in the digits format",
            _ => "",
        };
        if !what.is_empty() {
            return usage(format!(
                "--solutions writes solution sections into XSB/SOK collections; {name} is \
                 {what}, which has no place for them (convert it to XSB first)"
            ));
        }
        Ok(Some(SolutionsOut {
            name,
            text,
            target: target.clone(),
            found: Vec::new(),
        }))
    }

    /// Keeps the plan of a solved level (call it before the plan is put in the course's
    /// upper case: the file gets the XSB convention).
    pub fn record(&mut self, report: &LevelReport) {
        if let (Status::Solved, Some(number), Some(plan)) =
            (report.status, report.level, &report.solution)
        {
            self.found.push((number, plan.clone()));
        }
    }

    /// Writes the collection with the new sections and returns the run's exit code:
    /// `code`, or an input error when PATH cannot be written (an interrupted run keeps
    /// 130 and still writes what it found).
    pub fn finish(self, code: i32) -> i32 {
        let Some(text) = &self.text else {
            return code; // the run reported why the input cannot be read
        };
        let (output, added, present, mut code) = self.with_sections(text, code);
        let target = self.target.display();
        match write_atomically(&self.target, output.as_bytes()) {
            Ok(()) => {
                let already = match present {
                    0 => String::new(),
                    n => format!(" ({} already there)", plural(n as u64, "solution")),
                };
                eprintln!(
                    "{target}: {} added{already}",
                    plural(added as u64, "solution")
                );
            }
            Err(e) => {
                eprintln!("error: cannot write {target}: {e}");
                if code != EXIT_INTERRUPTED {
                    code = EXIT_INPUT;
                }
            }
        }
        code
    }

    /// The text with a section after each level found (unless the same moves are stored
    /// there already), how many were added and how many were there, and the exit code
    /// (an internal error if a plan fails its replay: it is not written).
    fn with_sections(&self, text: &str, mut code: i32) -> (String, usize, usize, i32) {
        let levels = parse_xsb_entries(&self.name, text).unwrap_or_default();
        let blocks = level_blocks(text);
        let mut inserts: BTreeMap<usize, (Vec<String>, bool)> = BTreeMap::new();
        let (mut added, mut present) = (0, 0);
        for (number, plan) in &self.found {
            let (Some(Ok(level)), Some(block)) = (levels.get(number - 1), blocks.get(number - 1))
            else {
                continue;
            };
            let replay = replay_in(level, plan, Convention::Xsb);
            let Some(replay) = replay.ok().filter(|r| r.solved) else {
                eprintln!(
                    "internal error: {}: level {number}: the plan fails its replay and is \
                     not written",
                    self.name
                );
                code = EXIT_INTERNAL.max(code);
                continue;
            };
            if block
                .solutions
                .iter()
                .any(|s| s.lurd().ok().as_ref() == Some(plan))
            {
                present += 1;
                continue;
            }
            let Insertion { line, closed } = block.insert_at;
            let entry = inserts.entry(line).or_insert((Vec::new(), closed));
            entry.0.push(section(plan, replay.moves, replay.pushes));
            added += 1;
        }
        (splice(text, &inserts), added, present, code)
    }
}

/// The lines of a section (without line ends): the heading and the moves, 70 a line.
fn section(plan: &str, moves: usize, pushes: usize) -> String {
    let mut lines = vec![heading(moves, pushes)];
    let letters: Vec<char> = plan.chars().collect();
    lines.extend(
        letters
            .chunks(MOVES_PER_LINE)
            .map(|chunk| chunk.iter().collect::<String>()),
    );
    lines.join("\n")
}

/// `text` with the sections inserted before the 0-based lines that key them, each
/// after a blank line of its own (and followed by one when the place is not `closed`),
/// in the file's line ends; nothing else changes, except that a last line without a
/// line end gets one when a section follows it.
fn splice(text: &str, inserts: &BTreeMap<usize, (Vec<String>, bool)>) -> String {
    let eol = match text.find('\n') {
        Some(i) if text[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    };
    let block = |(sections, closed): &(Vec<String>, bool)| {
        let mut out = String::new();
        for section in sections {
            out.push_str(eol);
            for line in section.lines() {
                out.push_str(line);
                out.push_str(eol);
            }
        }
        if !closed {
            out.push_str(eol);
        }
        out
    };
    let mut out = String::with_capacity(text.len() + inserts.len() * 128);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(insert) = inserts.get(&i) {
            out.push_str(&block(insert));
        }
        out.push_str(line);
    }
    if let Some(insert) = inserts.get(&lines.len()) {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        out.push_str(&block(insert));
    }
    out
}

/// Writes `bytes` to a temporary file beside `target` and renames it over `target`, so
/// that `target` (which may be the input) is never left half written; an existing
/// file's permissions are kept.
fn write_atomically(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let file_name = target
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let temporary = dir.join(format!(
        ".{}.satsoko-{}.tmp",
        file_name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        if let Ok(existing) = std::fs::metadata(target) {
            std::fs::set_permissions(&temporary, existing.permissions())?;
        }
        std::fs::rename(&temporary, target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// `satsoko verify FILE --from-file`: replays every stored solution of every level (or
/// of `--level N`) and prints one line (or JSON object) per solution. Exit code 0 when
/// all solve their level, 6 when one does not, 1 when a level cannot be read or the
/// file stores no solution.
pub fn verify_stored(args: &VerifyArgs, format: Option<Format>) -> i32 {
    let file = display_name(&args.file);
    let entries = match read_levels(&args.file, format) {
        Ok(entries) => entries,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    if let Some(asked) = args.level.filter(|&n| n == 0 || n > entries.len()) {
        let kind = LevelErrorKind::NoSuchLevel {
            asked,
            available: entries.len(),
        };
        eprintln!("error: {}", crate::level::LevelError::file(&file, kind));
        return EXIT_INPUT;
    }
    let convention = args.rules.convention();
    let (mut checked, mut solved, mut input_error) = (0, 0, false);
    for (i, entry) in entries.into_iter().enumerate() {
        if args.level.is_some_and(|n| n != i + 1) {
            continue;
        }
        let level = match entry {
            Ok(level) => level,
            Err(e) => {
                eprintln!("error: {e}");
                input_error = true;
                continue;
            }
        };
        for stored in &level.solutions {
            let (solves, text, value) = check(&file, &level, stored, convention);
            checked += 1;
            solved += usize::from(solves);
            super::say(&if args.json { value.to_string() } else { text });
        }
    }
    if checked == 0 {
        if !input_error {
            let place = match args.level {
                Some(n) => format!("{file} level {n}"),
                None => file.clone(),
            };
            eprintln!(
                "error: {place}: no stored solution (a solution section is a line starting \
                 with \"Solution\" followed by lines of moves, as `satsoko solve --solutions` \
                 writes them)"
            );
        }
        return EXIT_INPUT;
    }
    if !args.json && checked > 1 {
        super::say(&format!(
            "{file}: {} checked: {solved} {} the level, {} rejected",
            plural(checked as u64, "stored solution"),
            if solved == 1 { "solves" } else { "solve" },
            checked - solved
        ));
    }
    if input_error {
        EXIT_INPUT
    } else if solved < checked {
        EXIT_REJECTED
    } else {
        EXIT_OK
    }
}

/// Replays one stored solution: whether it solves the level, the text line and the
/// JSON object.
fn check(
    file: &str,
    level: &Level,
    stored: &SavedSolution,
    convention: Convention,
) -> (bool, String, serde_json::Value) {
    let number = level.number;
    let titled = match &level.title {
        Some(title) if *title != number.to_string() => format!(" ({title})"),
        _ => String::new(),
    };
    let label = format!(
        "{file} level {number}{titled}, solution at line {}",
        stored.line
    );
    let base = json!({"file": file, "level": number, "title": level.title,
                      "line": stored.line, "heading": stored.title});
    let with = |extra: serde_json::Value| {
        let mut value = base.clone();
        if let (Some(v), Some(extra)) = (value.as_object_mut(), extra.as_object()) {
            v.extend(extra.clone());
        }
        value
    };
    let moves = match stored.expanded() {
        Ok(moves) => moves,
        Err(e) => {
            return (
                false,
                format!("{label}: the moves cannot be read: {e}"),
                with(json!({"legal": false, "solved": false, "move_line": e.line,
                            "message": format!("the moves cannot be read: {}", e.message)})),
            );
        }
    };
    let lurd: String = moves.iter().map(|&(c, _)| c).collect();
    match replay_in(level, &lurd, convention) {
        Ok(r) => {
            let verdict = if r.solved {
                "solves the level"
            } else {
                "is legal but does not solve the level"
            };
            let counts = format!(
                "{}, {}",
                plural(r.moves as u64, "move"),
                plural(r.pushes as u64, "push")
            );
            (
                r.solved,
                format!("{label}: the solution {verdict} ({counts})"),
                with(json!({"legal": true, "solved": r.solved, "moves": r.moves,
                            "pushes": r.pushes})),
            )
        }
        Err(e) => {
            let move_line = moves.get(e.position - 1).map_or(stored.line, |&(_, l)| l);
            (
                false,
                format!(
                    "{label}: move {} ({:?}, line {move_line}) is illegal: {}",
                    e.position, e.letter, e.reason
                ),
                with(
                    json!({"legal": false, "solved": false, "position": e.position,
                            "letter": e.letter.to_string(), "move_line": move_line,
                            "message": e.reason}),
                ),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inserts(at: &[(usize, bool)]) -> BTreeMap<usize, (Vec<String>, bool)> {
        at.iter()
            .map(|&(line, closed)| (line, (vec!["Solution (1 move, 1 push)\nR".into()], closed)))
            .collect()
    }

    #[test]
    fn sections_go_between_lines_in_the_file_line_ends() {
        let text = "a\r\nb\r\n\r\nc";
        assert_eq!(
            splice(text, &inserts(&[(2, true), (4, true)])),
            "a\r\nb\r\n\r\nSolution (1 move, 1 push)\r\nR\r\n\r\nc\r\n\r\n\
             Solution (1 move, 1 push)\r\nR\r\n"
        );
        assert_eq!(
            splice("a\nb\n", &inserts(&[(1, false)])),
            "a\n\nSolution (1 move, 1 push)\nR\n\nb\n"
        );
        assert_eq!(splice("a\nb", &BTreeMap::new()), "a\nb");
    }

    #[test]
    fn long_plans_wrap_at_seventy_moves() {
        let plan = "r".repeat(150);
        let s = section(&plan, 150, 0);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "Solution (150 moves, 0 pushes)");
        assert_eq!(
            lines[1..].iter().map(|l| l.len()).collect::<Vec<_>>(),
            [70, 70, 10]
        );
        assert_eq!(heading(1, 1), "Solution (1 move, 1 push)");
    }
}
