//! End-to-end tests of solutions stored in collection files: `solve --solutions PATH`
//! writes the input back with a `Solution (M moves, P pushes)` section after each level
//! solved and nothing else changed (docs/formats.md, "Solutions in collection files"),
//! and `verify --from-file` replays every stored solution, naming the line of a bad
//! one. Every command runs in the crate's root.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::cli::{Run, SOLVABLE, expect_code, json_lines, str_field, u64_field};

/// `path` as a command-line argument.
fn arg(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// Runs `satsoko` in the crate's root with `stdin` as its standard input.
fn satsoko_with_stdin(args: &[&str], stdin: &str) -> Run {
    let start = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_satsoko"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("satsoko starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("satsoko runs");
    Run {
        code: out.status.code().expect("satsoko exits with a code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        elapsed: start.elapsed(),
    }
}

/// `text` without the sections `solve --solutions` adds where a blank line or the end
/// of the file follows a level: a blank line, a heading `Solution (… moves, …)` and
/// the lines of moves under it.
fn without_added_sections(text: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with("Solution (") && lines[i].contains(" moves, ") {
            assert_eq!(out.pop().map(str::trim), Some(""), "a blank line before it");
            i += 1;
            let is_moves = |l: &str| {
                let l = l.trim();
                !l.is_empty() && l.chars().all(|c| "lurdLURD".contains(c))
            };
            while i < lines.len() && is_moves(lines[i]) {
                i += 1;
            }
            continue;
        }
        out.push(lines[i]);
        i += 1;
    }
    out.concat()
}

/// The (level, title, status, pushes) of each `--json` line of solving `file`.
fn verdicts(file: &str) -> Vec<(u64, String, String, u64)> {
    json_lines(&expect_code(&[file, "--json"], 0))
        .iter()
        .map(|v| {
            (
                u64_field(v, "level"),
                str_field(v, "title").to_string(),
                str_field(v, "status").to_string(),
                u64_field(v, "pushes"),
            )
        })
        .collect()
}

#[test]
fn a_round_trip_adds_sections_only_and_the_file_reads_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("solved.xsb");
    let run = expect_code(&[SOLVABLE, "--solutions", arg(&out)], 0);
    assert!(run.stderr.contains("7 solutions added"), "{run:?}");
    let input = std::fs::read_to_string(SOLVABLE).unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.matches("\nSolution (").count(), 7);
    assert!(
        written.contains("\n\nSolution (2 moves, 1 push)\nrR\n\n"),
        "{written}"
    );
    assert_eq!(without_added_sections(&written), input);

    // Read back: the same levels, titles and verdicts; the solutions play no part.
    assert_eq!(verdicts(arg(&out)), verdicts(SOLVABLE));

    // verify --from-file replays all seven, one line each, and a summary.
    let run = expect_code(&["verify", arg(&out), "--from-file"], 0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 8, "{run:?}");
    assert_eq!(
        lines[0],
        format!(
            "{} level 1 (One push), solution at line 11: the solution solves the level \
             (2 moves, 1 push)",
            arg(&out)
        )
    );
    assert!(lines[7].ends_with("7 stored solutions checked: 7 solve the level, 0 rejected"));

    // A second run finds the same plans stored and adds nothing.
    let run = expect_code(&[arg(&out), "--level", "1", "--solutions", arg(&out)], 0);
    assert!(
        run.stderr
            .contains("0 solutions added (1 solution already there)"),
        "{run:?}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), written);
}

#[test]
fn only_the_levels_solved_get_a_section() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("some.xsb");
    expect_code(&[SOLVABLE, "--level", "2,5", "--solutions", arg(&out)], 0);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.matches("\nSolution (").count(), 2);
    let run = expect_code(&["verify", arg(&out), "--from-file", "--json"], 0);
    let levels: Vec<u64> = json_lines(&run)
        .iter()
        .map(|v| u64_field(v, "level"))
        .collect();
    assert_eq!(levels, [2, 5]);
    // A level without a stored solution, asked for alone, is an input error.
    let run = expect_code(&["verify", arg(&out), "--from-file", "--level", "1"], 1);
    assert!(
        run.stderr.contains("level 1: no stored solution"),
        "{run:?}"
    );
}

#[test]
fn an_ice_level_gets_its_solution_and_it_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ice.xsb");
    let ice = "levels/ice/ice.xsb";
    expect_code(&[ice, "--level", "8", "--solutions", arg(&out)], 0);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.matches("\nSolution (").count(), 1);
    assert_eq!(
        without_added_sections(&written),
        std::fs::read_to_string(ice).unwrap()
    );
    let run = expect_code(&["verify", arg(&out), "--from-file"], 0);
    assert!(
        run.stdout.contains("level 8 (Curling), solution at line"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("the solution solves the level"),
        "{run:?}"
    );
}

#[test]
fn a_tampered_solution_is_rejected_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tampered.xsb");
    expect_code(&[SOLVABLE, "--level", "1-2", "--solutions", arg(&out)], 0);
    let written = std::fs::read_to_string(&out).unwrap();
    // Level 1's solution (`rR`, line 12) pushes once too often; level 2's (line 25)
    // stops short: a part of a shortest plan never solves the level.
    let mut lines: Vec<String> = written.lines().map(str::to_string).collect();
    assert_eq!(
        (lines[10].as_str(), lines[11].as_str()),
        ("Solution (2 moves, 1 push)", "rR")
    );
    assert!(lines[23].starts_with("Solution ("), "{written}");
    lines[11].push('R');
    lines[24].truncate(4);
    std::fs::write(&out, lines.join("\n") + "\n").unwrap();

    let run = expect_code(&["verify", arg(&out), "--from-file"], 6);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0]
            .contains("level 1 (One push), solution at line 11: move 3 ('R', line 12) is illegal"),
        "{run:?}"
    );
    assert!(lines[0].contains("cannot be pushed"), "{run:?}");
    assert!(
        lines[1].contains("solution at line 24: the solution is legal but does not solve"),
        "{run:?}"
    );
    assert!(lines[2].ends_with("2 stored solutions checked: 0 solve the level, 2 rejected"));

    let run = expect_code(&["verify", arg(&out), "--from-file", "--json"], 6);
    let objects = json_lines(&run);
    assert_eq!(objects[0]["legal"], false);
    assert_eq!(u64_field(&objects[0], "position"), 3);
    assert_eq!(u64_field(&objects[0], "line"), 11);
    assert_eq!(u64_field(&objects[0], "move_line"), 12);
    assert_eq!(str_field(&objects[0], "letter"), "R");
    assert_eq!(objects[1]["legal"], true);
    assert_eq!(objects[1]["solved"], false);
    // One level alone: only its solution is checked.
    expect_code(&["verify", arg(&out), "--from-file", "--level", "2"], 6);

    // Moves that cannot be read name the line of the fault.
    std::fs::write(&out, written.replace("push)\nrR\n", "push)\nr2(R\n")).unwrap();
    let run = expect_code(&["verify", arg(&out), "--from-file", "--level", "1"], 6);
    assert!(
        run.stdout.contains(
            "solution at line 11: the moves cannot be read: line 12: '(' is never closed"
        ),
        "{run:?}"
    );
}

#[test]
fn standard_input_is_read_once_and_written_like_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let (from_file, from_stdin) = (dir.path().join("file.xsb"), dir.path().join("stdin.xsb"));
    let input = std::fs::read_to_string(SOLVABLE).unwrap();
    expect_code(
        &[SOLVABLE, "--level", "1-3", "--solutions", arg(&from_file)],
        0,
    );
    let run = satsoko_with_stdin(
        &[
            "-",
            "--level",
            "1-3",
            "--solutions",
            arg(&from_stdin),
            "--json",
        ],
        &input,
    );
    assert_eq!(run.code, 0, "{run:?}");
    let names: Vec<String> = json_lines(&run)
        .iter()
        .map(|v| str_field(v, "file").to_string())
        .collect();
    assert_eq!(names, ["<stdin>", "<stdin>", "<stdin>"]);
    let written = std::fs::read_to_string(&from_stdin).unwrap();
    assert_eq!(written.matches("\nSolution (").count(), 3);
    assert_eq!(without_added_sections(&written), input);
    let run = expect_code(&["verify", arg(&from_stdin), "--from-file"], 0);
    assert_eq!(run.stdout.lines().count(), 4, "{run:?}");
    // The same sections as from the file (one plan per level is short enough to be
    // the only one).
    let first = |text: &str| text.lines().skip(10).take(2).collect::<Vec<_>>().join("\n");
    let from_file = std::fs::read_to_string(&from_file).unwrap();
    assert_eq!(first(&written), first(&from_file));
}

/// A SOK file with CRLF line ends, `::` comments, a collection key, trailing spaces,
/// an existing run-length encoded solution, a solution right after a board and no line
/// end at the end.
const SOK: &str = ":: A hand-made SOK file ::\r\n\
Collection: Byte test\r\n\
\r\n\
Pushing on\r\n\
######\r\n\
#@ $.#\r\n\
######\r\n\
Author: Someone   \r\n\
Comment: keep me\r\n\
\r\n\
\r\n\
; second\r\n\
######\r\n\
#.$ @#\r\n\
######\r\n\
Title: Back\r\n\
Solution/Moves\r\n\
1l L\r\n\
notes\r\n\
\r\n\
#######\r\n\
#@$  .#\r\n\
#######\r\n\
Solution (5 moves, 3 pushes)\r\n\
RRlrR";

#[test]
fn the_rest_of_the_file_is_kept_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in.sok"), dir.path().join("out.sok"));
    std::fs::write(&input, SOK).unwrap();
    let run = expect_code(&[arg(&input), "--solutions", arg(&out)], 0);
    assert!(
        run.stderr
            .contains("2 solutions added (1 solution already there)"),
        "{run:?}"
    );
    // Level 1's section goes at the end of its paragraph (after its metadata), level
    // 2's stored solution is the same as the new one once expanded (`1l L` is `lL`),
    // and level 3's goes after its stored one, at the end of the file.
    let expected = SOK.replace(
        "keep me\r\n\r\n",
        "keep me\r\n\r\nSolution (2 moves, 1 push)\r\nrR\r\n\r\n",
    ) + "\r\n\r\nSolution (3 moves, 3 pushes)\r\nRRR\r\n";
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);

    let run = expect_code(&["verify", arg(&out), "--from-file"], 0);
    assert_eq!(run.stdout.lines().count(), 5, "{run:?}");
    assert!(
        run.stdout.contains("level 2 (Back), solution at line 20"),
        "{run:?}"
    );

    // Written into the input itself, through a temporary file.
    expect_code(&[arg(&input), "--solutions", arg(&input)], 0);
    assert_eq!(std::fs::read_to_string(&input).unwrap(), expected);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn unusable_requests_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xsb");
    let out = arg(&out);
    let run = expect_code(&[SOLVABLE, SOLVABLE, "--solutions", out], 2);
    assert!(
        run.stderr.contains("exactly one input file (got 2)"),
        "{run:?}"
    );
    let run = expect_code(&["levels/ice/08-curling.txt", "--solutions", out], 2);
    assert!(run.stderr.contains("is a numeric grid"), "{run:?}");
    let digits = "levels/examples/digits.txt";
    let run = expect_code(&["--format", "digits", digits, "--solutions", out], 2);
    assert!(run.stderr.contains("in the digits format"), "{run:?}");
    let run = expect_code(&[SOLVABLE, "--solutions", "-"], 2);
    assert!(run.stderr.contains("needs a file to write"), "{run:?}");
    assert!(!Path::new(out).exists());

    // verify --from-file: a file without stored solutions, and a solution given too.
    let run = expect_code(&["verify", SOLVABLE, "--from-file"], 1);
    assert!(run.stderr.contains("no stored solution"), "{run:?}");
    expect_code(&["verify", SOLVABLE, "--from-file", "--solution", "rR"], 2);
    expect_code(&["verify", SOLVABLE, "--from-file", "--level", "99"], 1);
}
