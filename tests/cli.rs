//! End-to-end tests of the `satsoko` binary: exit codes, text and JSON output, error
//! messages and `satsoko verify`, as FORMATS.md describes them.
//!
//! The levels are the hand-made ones in `levels/examples/` and `levels/malformed/` (each
//! solved in a few milliseconds) and Microban level 1; their optimal move counts were
//! checked by brute-force search. Every command runs in the crate's root, so file names in
//! messages are the relative paths given on the command line.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

const SOLVABLE: &str = "levels/examples/solvable.xsb";
const UNSOLVABLE: &str = "levels/examples/unsolvable.xsb";
const SEALED: &str = "levels/examples/sealed.xsb";
const ICE: &str = "levels/examples/ice.xsb";
const MICROBAN: &str = "levels/microban.xsb";
const XSOKOBAN: &str = "levels/xsokoban.xsb";

/// Titles and optimal move counts of `levels/examples/solvable.xsb`, in file order.
const SOLVABLE_LEVELS: [(&str, usize); 7] = [
    ("One push", 2),
    ("Around the box", 5),
    ("Two boxes", 14),
    ("Run-length encoded", 3),
    ("Player on a goal", 5),
    ("One box already home", 4),
    ("Two boxes, long way round", 24),
];

/// Titles and optimal move counts of `levels/examples/sealed.xsb`.
const SEALED_LEVELS: [(&str, usize); 3] = [
    ("Sealed room", 3),
    ("Sealed cell beside the room", 5),
    ("Nothing to do", 0),
];

/// What one run of the binary did.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit code {}\n--- stdout ---\n{}--- stderr ---\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs `satsoko` with `args` in the crate's root.
fn satsoko(args: &[&str]) -> Run {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_satsoko"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("satsoko runs");
    Run {
        code: out.status.code().expect("satsoko exits with a code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        elapsed: start.elapsed(),
    }
}

/// Runs `satsoko` and checks its exit code.
fn expect_code(args: &[&str], code: i32) -> Run {
    let run = satsoko(args);
    assert_eq!(run.code, code, "satsoko {}\n{run:?}", args.join(" "));
    run
}

/// The JSON objects of a `--json` run, one per stdout line.
fn json_lines(run: &Run) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
        })
        .collect()
}

fn str_field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

fn u64_field(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not an unsigned integer in {v}"))
}

fn levels_of(lines: &[Value]) -> Vec<u64> {
    lines.iter().map(|v| u64_field(v, "level")).collect()
}

/// Checks a `"status":"solved"` line against FORMATS.md and returns its solution.
fn check_solved_line(v: &Value, file: &str, level: u64, title: &str, moves: usize) -> String {
    assert_eq!(str_field(v, "file"), file, "{v}");
    assert_eq!(u64_field(v, "level"), level, "{v}");
    assert_eq!(str_field(v, "title"), title, "{v}");
    assert_eq!(str_field(v, "status"), "solved", "{v}");
    let solution = str_field(v, "solution").to_string();
    assert!(solution.chars().all(|c| "lurdLURD".contains(c)), "{v}");
    assert_eq!(u64_field(v, "moves") as usize, moves, "{v}");
    assert_eq!(solution.len(), moves, "{v}");
    let pushes = solution.chars().filter(char::is_ascii_uppercase).count();
    assert_eq!(u64_field(v, "pushes") as usize, pushes, "{v}");
    assert_eq!(str_field(v, "optimal"), "moves", "{v}");
    assert_eq!(u64_field(v, "k") as usize, moves, "{v}");
    assert_eq!(str_field(v, "encoding"), "moves", "{v}");
    assert!(!str_field(v, "solver").is_empty(), "{v}");
    assert!(v["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
    u64_field(v, "variables");
    u64_field(v, "clauses");
    // The fields come in the order of the example in FORMATS.md (others may be added).
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let documented = [
        "file",
        "level",
        "title",
        "status",
        "solution",
        "moves",
        "pushes",
        "optimal",
        "k",
        "encoding",
        "solver",
        "seconds",
        "variables",
        "clauses",
    ];
    let positions: Vec<usize> = documented
        .iter()
        .map(|k| keys.iter().position(|x| x == k).unwrap())
        .collect();
    assert!(positions.is_sorted(), "keys out of order: {keys:?}");
    solution
}

/// `satsoko verify` accepts `solution` for the level and says it solves it.
fn assert_verifies(file: &str, level: u64, solution: &str) {
    let level = level.to_string();
    let run = expect_code(
        &["verify", file, "--level", &level, "--solution", solution],
        0,
    );
    assert!(
        run.stdout.contains("the solution solves the level"),
        "{run:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Solving

#[test]
fn microban_1_is_solved_move_optimally_and_verified() {
    let run = expect_code(&[MICROBAN, "--level", "1", "--json"], 0);
    assert_eq!(
        run.stderr, "",
        "no progress output when stderr is not a terminal"
    );
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1, "{run:?}");
    let solution = check_solved_line(&lines[0], MICROBAN, 1, "1", 33);
    assert_eq!(u64_field(&lines[0], "pushes"), 8);
    assert_verifies(MICROBAN, 1, &solution);
}

#[test]
fn json_lines_of_the_example_levels() {
    let run = expect_code(&[SOLVABLE, "--json"], 0);
    assert_eq!(run.stderr, "");
    let lines = json_lines(&run);
    assert_eq!(lines.len(), SOLVABLE_LEVELS.len(), "{run:?}");
    for (i, (v, (title, moves))) in lines.iter().zip(SOLVABLE_LEVELS).enumerate() {
        let level = i as u64 + 1;
        let solution = check_solved_line(v, SOLVABLE, level, title, moves);
        assert_verifies(SOLVABLE, level, &solution);
    }
}

#[test]
fn sealed_boxes_on_goals_need_no_moves() {
    let run = expect_code(&[SEALED, "--json"], 0);
    let lines = json_lines(&run);
    assert_eq!(lines.len(), SEALED_LEVELS.len(), "{run:?}");
    for (i, (v, (title, moves))) in lines.iter().zip(SEALED_LEVELS).enumerate() {
        let level = i as u64 + 1;
        let solution = check_solved_line(v, SEALED, level, title, moves);
        assert_verifies(SEALED, level, &solution);
    }
}

#[test]
fn text_output_names_the_level_and_gives_moves_pushes_and_solution() {
    let run = expect_code(&[SOLVABLE, "--level", "1"], 0);
    let out = &run.stdout;
    assert!(
        out.starts_with("levels/examples/solvable.xsb level 1 (One push): solved in "),
        "{run:?}"
    );
    assert!(
        out.contains("moves 2, pushes 1, optimal in moves"),
        "{run:?}"
    );
    assert!(out.contains("k=2, encoding moves"), "{run:?}");
    assert!(out.contains("solution: rR\n"), "{run:?}");
    assert_eq!(run.stderr, "");

    let run = expect_code(&[SOLVABLE, "--level", "3"], 0);
    assert!(
        run.stdout.contains("level 3 (Two boxes): solved"),
        "{run:?}"
    );
    assert!(run.stdout.contains("moves 14, pushes "), "{run:?}");
}

#[test]
fn solve_subcommand_is_the_default() {
    let a = expect_code(&["solve", SOLVABLE, "--level", "2", "--json"], 0);
    let b = expect_code(&[SOLVABLE, "--level", "2", "--json"], 0);
    let (a, b) = (&json_lines(&a)[0], &json_lines(&b)[0]);
    assert_eq!(a["solution"], b["solution"]);
    assert_eq!(a["moves"], 5);
}

#[test]
fn level_ranges_and_lists() {
    let run = expect_code(&[SOLVABLE, "--level", "2-3", "--json"], 0);
    assert_eq!(levels_of(&json_lines(&run)), [2, 3]);

    let run = expect_code(&[SOLVABLE, "--level", "1,4-5,7", "--json"], 0);
    let lines = json_lines(&run);
    assert_eq!(levels_of(&lines), [1, 4, 5, 7]);
    let moves: Vec<u64> = lines.iter().map(|v| u64_field(v, "moves")).collect();
    assert_eq!(moves, [2, 3, 5, 24]);

    // Levels come in file order, each once, whatever the order of the list.
    let run = expect_code(&[SOLVABLE, "--level", "6,1,1-2", "--json"], 0);
    assert_eq!(levels_of(&json_lines(&run)), [1, 2, 6]);

    let run = expect_code(&[SOLVABLE, "--level", "4-4"], 0);
    assert!(
        run.stdout.contains("level 4 (Run-length encoded): solved"),
        "{run:?}"
    );
    assert!(!run.stdout.contains("level 3"), "{run:?}");
}

#[test]
fn level_beyond_the_file_is_an_input_error() {
    let run = expect_code(&[SOLVABLE, "--level", "9"], 1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("levels/examples/solvable.xsb: there is no level 9; the file has 7 level(s)"),
        "{run:?}"
    );

    // The levels that do exist are still solved.
    let run = expect_code(&[SOLVABLE, "--level", "6-9", "--json"], 1);
    let lines = json_lines(&run);
    let solved: Vec<u64> = lines
        .iter()
        .filter(|v| v["status"] == "solved")
        .map(|v| u64_field(v, "level"))
        .collect();
    assert_eq!(solved, [6, 7], "{run:?}");
    let errors: Vec<&Value> = lines.iter().filter(|v| v["status"] == "error").collect();
    assert_eq!(errors.len(), 1, "{run:?}");
    assert!(
        str_field(errors[0], "message").contains("no level 9"),
        "{run:?}"
    );
    assert_eq!(str_field(errors[0], "file"), SOLVABLE);
}

#[test]
fn unsolvable_levels_exit_3() {
    let run = expect_code(&[UNSOLVABLE, "--json"], 3);
    let lines = json_lines(&run);
    assert_eq!(levels_of(&lines), [1, 2, 3, 4], "{run:?}");
    let titles = [
        "Box in a corner",
        "Goal walled off",
        "Box walled off",
        "Player boxed in",
    ];
    let reasons = [
        "the box at r2c2 can never be pushed to any goal",
        "the goal at r2c7 is walled off",
        "the box at r2c8 is walled off",
        "no sequence of",
    ];
    for ((v, title), reason) in lines.iter().zip(titles).zip(reasons) {
        assert_eq!(str_field(v, "status"), "unsolvable", "{v}");
        assert_eq!(str_field(v, "title"), title, "{v}");
        assert!(str_field(v, "message").contains(reason), "{v}");
        assert!(v.get("solution").is_none(), "{v}");
        assert!(v.get("optimal").is_none(), "{v}");
    }
    // The boxed-in player is proved stuck by the SAT solver, not by static analysis.
    assert!(u64_field(&lines[3], "variables") > 0, "{}", lines[3]);

    for level in ["1", "2", "3", "4"] {
        let run = expect_code(&[UNSOLVABLE, "--level", level], 3);
        assert!(run.stdout.contains(": unsolvable in "), "{run:?}");
    }
}

#[test]
fn too_small_max_steps_is_no_plan() {
    // The SAT solver refutes every bound up to 23; the optimum is 24.
    let run = expect_code(
        &[SOLVABLE, "--level", "7", "--max-steps", "23", "--json"],
        4,
    );
    let v = &json_lines(&run)[0];
    assert_eq!(str_field(v, "status"), "no-plan", "{v}");
    assert_eq!(u64_field(v, "k"), 23, "{v}");
    assert!(str_field(v, "message").contains("23"), "{v}");
    assert!(v.get("solution").is_none(), "{v}");

    // A bound exactly at the optimum is enough.
    let run = expect_code(
        &[SOLVABLE, "--level", "7", "--max-steps", "24", "--json"],
        0,
    );
    assert_eq!(json_lines(&run)[0]["moves"], 24);

    // A bound below the static lower bound, in text mode.
    let run = expect_code(&[SOLVABLE, "--level", "3", "--max-steps", "2"], 4);
    assert!(run.stdout.contains("no-plan"), "{run:?}");
}

#[test]
fn timeout_stops_a_long_level() {
    // XSokoban level 1 takes far longer than half a second, even in a release build.
    let run = expect_code(&[XSOKOBAN, "--level", "1", "--timeout", "0.5", "--json"], 5);
    assert!(
        run.elapsed < Duration::from_secs(2),
        "took {:?}",
        run.elapsed
    );
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1, "{run:?}");
    let v = &lines[0];
    assert_eq!(str_field(v, "status"), "timeout", "{v}");
    assert_eq!(str_field(v, "title"), "screen.01", "{v}");
    assert!(v.get("solution").is_none(), "{v}");
    let seconds = v["seconds"].as_f64().unwrap();
    assert!((0.4..2.0).contains(&seconds), "{v}");

    let run = expect_code(&[XSOKOBAN, "--level", "1", "--timeout", "0.5"], 5);
    assert!(
        run.elapsed < Duration::from_secs(2),
        "took {:?}",
        run.elapsed
    );
    assert!(
        run.stdout.contains("level 1 (screen.01): timeout"),
        "{run:?}"
    );
}

#[test]
fn timeout_leaves_quick_levels_alone() {
    // With a time limit the level is solved in a worker process; the result is the same.
    let run = expect_code(
        &[SOLVABLE, "--level", "3,7", "--timeout", "30", "--json"],
        0,
    );
    let lines = json_lines(&run);
    check_solved_line(&lines[0], SOLVABLE, 3, "Two boxes", 14);
    check_solved_line(&lines[1], SOLVABLE, 7, "Two boxes, long way round", 24);
}

// ---------------------------------------------------------------------------------------
// Input and usage errors

/// Every file in `levels/malformed/`, with the start of the message it must produce
/// (after `error: `).
const MALFORMED: [(&str, &str); 10] = [
    (
        "bad_character.xsb",
        "levels/malformed/bad_character.xsb: level 1, line 4, column 5: unexpected character 'x'",
    ),
    (
        "two_players.xsb",
        "levels/malformed/two_players.xsb: level 1, line 5, column 5: a second player; \
         the first is at line 4, column 2",
    ),
    (
        "no_player.xsb",
        "levels/malformed/no_player.xsb: level 1, line 3: the level has no player",
    ),
    (
        "no_box.xsb",
        "levels/malformed/no_box.xsb: level 1, line 3: the level has no box",
    ),
    (
        "box_goal_mismatch.xsb",
        "levels/malformed/box_goal_mismatch.xsb: level 1, line 3: the level has 2 box(es) but \
         1 goal(s)",
    ),
    (
        "dangling_count.xsb",
        "levels/malformed/dangling_count.xsb: level 1, line 4, column 7: a run-length count \
         must be followed by a board character",
    ),
    (
        "count_too_large.xsb",
        "levels/malformed/count_too_large.xsb: level 1, line 3, column 1: run-length count is \
         too large",
    ),
    (
        "no_level.xsb",
        "levels/malformed/no_level.xsb: no level found",
    ),
    (
        "good_then_bad.xsb",
        "levels/malformed/good_then_bad.xsb: level 2, line 12, column 4: unexpected character \
         '?'",
    ),
    (
        "not_utf8.xsb",
        "levels/malformed/not_utf8.xsb: the file is not UTF-8 text (invalid byte at offset 49)",
    ),
];

#[test]
fn malformed_files_name_file_level_line_and_column() {
    for (name, message) in MALFORMED {
        let path = format!("levels/malformed/{name}");
        let run = expect_code(&[&path], 1);
        let expected = format!("error: {message}");
        assert!(
            run.stderr.lines().any(|l| l.starts_with(&expected)),
            "expected {expected:?}\n{run:?}"
        );
        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
        if name != "good_then_bad.xsb" {
            assert_eq!(run.stdout, "", "{run:?}");
        }
    }
}

#[test]
fn every_file_in_levels_malformed_is_rejected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/malformed");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut listed: Vec<&str> = MALFORMED.iter().map(|(n, _)| *n).collect();
    listed.sort();
    assert_eq!(
        names, listed,
        "every malformed file has its expected message here"
    );
}

#[test]
fn malformed_files_in_json_mode() {
    for (name, message) in MALFORMED {
        let path = format!("levels/malformed/{name}");
        let run = expect_code(&[&path, "--json"], 1);
        let lines = json_lines(&run);
        let errors: Vec<&Value> = lines.iter().filter(|v| v["status"] == "error").collect();
        assert_eq!(errors.len(), 1, "{run:?}");
        assert_eq!(str_field(errors[0], "file"), path);
        assert!(
            str_field(errors[0], "message").starts_with(message),
            "{run:?}"
        );
        // Levels are numbered from 1; an error about the whole file has no level number.
        assert_ne!(errors[0]["level"], 0, "{run:?}");
    }
}

#[test]
fn a_bad_level_does_not_stop_the_good_ones() {
    let path = "levels/malformed/good_then_bad.xsb";
    let run = expect_code(&[path], 1);
    assert!(
        run.stdout
            .contains("good_then_bad.xsb level 1 (Good): solved"),
        "{run:?}"
    );
    assert!(run.stdout.contains("solution: rR"), "{run:?}");

    let run = expect_code(&[path, "--json"], 1);
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 2, "{run:?}");
    check_solved_line(&lines[0], path, 1, "Good", 2);
    assert_eq!(str_field(&lines[1], "status"), "error");
    assert_eq!(u64_field(&lines[1], "level"), 2);

    // Asking only for the good level is fine; asking for the bad one is not.
    expect_code(&[path, "--level", "1"], 0);
    let run = expect_code(&[path, "--level", "2"], 1);
    assert!(run.stderr.contains("level 2, line 12, column 4"), "{run:?}");
}

#[test]
fn nonexistent_file_is_an_input_error() {
    let run = expect_code(&["levels/no_such_file.xsb"], 1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("levels/no_such_file.xsb: cannot read the file"),
        "{run:?}"
    );
    let run = expect_code(&["levels/no_such_file.xsb", "--json"], 1);
    let v = &json_lines(&run)[0];
    assert_eq!(v["status"], "error", "{v}");
    assert_eq!(v["file"], "levels/no_such_file.xsb", "{v}");
    assert_ne!(v["level"], 0, "{v}");
}

#[test]
fn usage_errors_exit_2() {
    let cases: &[&[&str]] = &[
        &[],
        &["--no-such-flag", SOLVABLE],
        &[SOLVABLE, "--level", "0"],
        &[SOLVABLE, "--level", "3-1"],
        &[SOLVABLE, "--level", "abc"],
        &[SOLVABLE, "--level", "1,"],
        &[SOLVABLE, "--level", ""],
        &[SOLVABLE, "--max-steps", "many"],
        &[SOLVABLE, "--timeout", "soon"],
        &[SOLVABLE, "--encoding", "no-such-encoding"],
        &["verify", SOLVABLE],
        &[
            "verify",
            SOLVABLE,
            "--solution",
            "rR",
            "--solution-file",
            "x.txt",
        ],
        &["verify", SOLVABLE, "--level", "one", "--solution", "rR"],
        &["no-such-subcommand-or-file", "--bogus"],
    ];
    for args in cases {
        let run = expect_code(args, 2);
        assert_eq!(run.stdout, "", "{run:?}");
        assert!(run.stderr.contains("error"), "{run:?}");
    }
    let run = expect_code(&[SOLVABLE, "--level", "3-1"], 2);
    assert!(run.stderr.contains("3-1"), "{run:?}");
}

// ---------------------------------------------------------------------------------------
// Several files

#[test]
fn several_files_exit_with_the_worst_level_code() {
    // Solved + solved.
    let run = expect_code(&[SOLVABLE, SEALED, "--json"], 0);
    assert_eq!(json_lines(&run).len(), 10);

    // Solved (0) + unsolvable (3).
    let run = expect_code(&[SOLVABLE, UNSOLVABLE, "--level", "1", "--json"], 3);
    let lines = json_lines(&run);
    let files: Vec<&str> = lines.iter().map(|v| str_field(v, "file")).collect();
    assert_eq!(files, [SOLVABLE, UNSOLVABLE]);

    // No plan (4: level 1 needs 2 moves) beats unsolvable (3), whatever the order.
    expect_code(
        &[UNSOLVABLE, SOLVABLE, "--level", "1", "--max-steps", "1"],
        4,
    );
    expect_code(
        &[SOLVABLE, UNSOLVABLE, "--level", "1", "--max-steps", "1"],
        4,
    );
}

#[test]
fn several_files_timeout_beats_unsolvable_and_unreadable_beats_all() {
    expect_code(
        &[UNSOLVABLE, XSOKOBAN, "--level", "1", "--timeout", "0.3"],
        5,
    );

    // One unreadable file makes the exit code 1, but the other files are still solved.
    let run = expect_code(
        &[
            SOLVABLE,
            "levels/no_such_file.xsb",
            UNSOLVABLE,
            "--level",
            "1",
        ],
        1,
    );
    assert!(
        run.stdout
            .contains("solvable.xsb level 1 (One push): solved"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("unsolvable.xsb level 1 (Box in a corner): unsolvable"),
        "{run:?}"
    );
    assert!(run.stderr.contains("levels/no_such_file.xsb"), "{run:?}");

    expect_code(&[SOLVABLE, "levels/malformed/no_box.xsb"], 1);
}

// ---------------------------------------------------------------------------------------
// verify

#[test]
fn verify_accepts_a_solution() {
    let run = expect_code(
        &[
            "verify",
            SOLVABLE,
            "--level",
            "3",
            "--solution",
            "rrdLLLrrruuLLL",
        ],
        0,
    );
    assert_eq!(
        run.stdout,
        "levels/examples/solvable.xsb level 3: the solution solves the level \
         (14 moves, 6 pushes)\n"
    );
    // The level defaults to 1.
    expect_code(&["verify", SOLVABLE, "--solution", "rR"], 0);
    // An empty solution solves a level that is solved already.
    expect_code(&["verify", SEALED, "--level", "3", "--solution", ""], 0);
}

#[test]
fn verify_rejects_an_illegal_letter_naming_its_position() {
    // Pushes the box into the wall.
    let run = expect_code(&["verify", SOLVABLE, "--solution", "rRR"], 6);
    assert!(run.stdout.contains("letter 3 ('R') is illegal"), "{run:?}");
    assert!(run.stdout.contains("cannot be pushed"), "{run:?}");
    // Walks into a wall.
    let run = expect_code(&["verify", SOLVABLE, "--solution", "l"], 6);
    assert!(run.stdout.contains("letter 1 ('l') is illegal"), "{run:?}");
    assert!(run.stdout.contains("wall"), "{run:?}");
    // Not a LURD letter at all.
    let run = expect_code(&["verify", SOLVABLE, "--solution", "rx"], 6);
    assert!(run.stdout.contains("letter 2 ('x') is illegal"), "{run:?}");
    // Upper case for a walk.
    let run = expect_code(&["verify", SOLVABLE, "--solution", "RR"], 6);
    assert!(run.stdout.contains("letter 1 ('R') is illegal"), "{run:?}");
    assert!(run.stdout.contains("claims a push"), "{run:?}");
}

#[test]
fn verify_rejects_a_lower_case_push() {
    let run = expect_code(&["verify", SOLVABLE, "--solution", "rr"], 6);
    assert!(run.stdout.contains("letter 2 ('r') is illegal"), "{run:?}");
    assert!(run.stdout.contains("lower case"), "{run:?}");
}

#[test]
fn verify_rejects_a_legal_solution_that_does_not_solve() {
    let run = expect_code(
        &["verify", SOLVABLE, "--level", "3", "--solution", "rrdLL"],
        6,
    );
    assert!(
        run.stdout
            .contains("is legal but does not solve the level (5 moves, 2 pushes)"),
        "{run:?}"
    );
    expect_code(&["verify", SOLVABLE, "--solution", ""], 6);
}

#[test]
fn verify_reads_a_solution_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.txt");
    // White space, line breaks included, is ignored.
    std::fs::write(&file, "rrdLLL\nrrruu LLL\n").unwrap();
    let file = file.to_str().unwrap();
    let run = expect_code(
        &["verify", SOLVABLE, "--level", "3", "--solution-file", file],
        0,
    );
    assert!(run.stdout.contains("(14 moves, 6 pushes)"), "{run:?}");

    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "rr").unwrap();
    expect_code(
        &["verify", SOLVABLE, "--solution-file", bad.to_str().unwrap()],
        6,
    );

    let missing = dir.path().join("missing.txt");
    let run = expect_code(
        &[
            "verify",
            SOLVABLE,
            "--solution-file",
            missing.to_str().unwrap(),
        ],
        1,
    );
    assert!(run.stderr.contains("missing.txt"), "{run:?}");
}

#[test]
fn verify_json() {
    let run = expect_code(
        &[
            "verify",
            SOLVABLE,
            "--level",
            "3",
            "--solution",
            "rrdLLLrrruuLLL",
            "--json",
        ],
        0,
    );
    let v: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["file"], SOLVABLE);
    assert_eq!(v["level"], 3);
    assert_eq!(v["legal"], true);
    assert_eq!(v["solved"], true);
    assert_eq!(v["moves"], 14);
    assert_eq!(v["pushes"], 6);

    let run = expect_code(&["verify", SOLVABLE, "--solution", "rrR", "--json"], 6);
    let v: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["legal"], false);
    assert_eq!(v["solved"], false);
    assert_eq!(v["position"], 2);
    assert_eq!(v["letter"], "r");
    assert!(str_field(&v, "message").contains("lower case"), "{v}");

    let run = expect_code(&["verify", SOLVABLE, "--solution", "r", "--json"], 6);
    let v: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(
        (&v["legal"], &v["solved"]),
        (&Value::Bool(true), &Value::Bool(false))
    );
}

#[test]
fn verify_reports_input_errors() {
    let run = expect_code(&["verify", "levels/no_such_file.xsb", "--solution", "r"], 1);
    assert!(run.stderr.contains("levels/no_such_file.xsb"), "{run:?}");

    let run = expect_code(&["verify", SOLVABLE, "--level", "9", "--solution", "r"], 1);
    assert!(run.stderr.contains("there is no level 9"), "{run:?}");

    let run = expect_code(
        &[
            "verify",
            "levels/malformed/two_players.xsb",
            "--solution",
            "r",
        ],
        1,
    );
    assert!(run.stderr.contains("level 1, line 5, column 5"), "{run:?}");

    // The good level of a file with a bad one can be verified.
    let bad_file = "levels/malformed/good_then_bad.xsb";
    expect_code(&["verify", bad_file, "--level", "1", "--solution", "rR"], 0);
    let run = expect_code(&["verify", bad_file, "--level", "2", "--solution", "rR"], 1);
    assert!(run.stderr.contains("level 2, line 12, column 4"), "{run:?}");
}

// ---------------------------------------------------------------------------------------
// Ice: read and verified, not yet solved

#[test]
fn ice_levels_are_read_and_verified_with_sliding() {
    // The first move slides over two ice cells onto the floor, next to the box.
    let run = expect_code(&["verify", ICE, "--level", "1", "--solution", "rR"], 0);
    assert!(run.stdout.contains("(2 moves, 1 pushes)"), "{run:?}");
    // So a second walk to the right would push the box.
    let run = expect_code(&["verify", ICE, "--level", "1", "--solution", "rrR"], 6);
    assert!(run.stdout.contains("letter 2 ('r') is illegal"), "{run:?}");
    // The pushed box slides over the ice onto the goal.
    expect_code(&["verify", ICE, "--level", "2", "--solution", "R"], 0);
    expect_code(&["verify", ICE, "--level", "2", "--solution", "RR"], 6);
    // The player, starting on ice, stops on the ice in front of the box.
    expect_code(&["verify", ICE, "--level", "3", "--solution", "rR"], 0);
    // Two slides: along the top row and down the right column.
    let run = expect_code(&["verify", ICE, "--level", "4", "--solution", "rdlL"], 0);
    assert!(run.stdout.contains("(4 moves, 1 pushes)"), "{run:?}");
    expect_code(&["verify", ICE, "--level", "4", "--solution", "ddrrrdL"], 0);
}

/// The encodings do not model sliding yet, so the solver refuses levels with ice: an
/// error for each such level (exit code 1), never a plan.
#[test]
fn ice_levels_are_refused_by_the_solver() {
    let run = expect_code(&[ICE, "--json"], 1);
    let lines = json_lines(&run);
    assert_eq!(levels_of(&lines), [1, 2, 3, 4], "{run:?}");
    for v in &lines {
        assert_eq!(str_field(v, "status"), "error", "{v}");
        assert_eq!(str_field(v, "error_kind"), "input", "{v}");
        assert!(str_field(v, "message").contains("ice"), "{v}");
        assert!(v.get("solution").is_none(), "{v}");
    }

    let run = expect_code(&[ICE, "--level", "4"], 1);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("does not handle ice"), "{run:?}");
    assert!(!all.contains("solution:"), "{run:?}");

    // The same through a worker process (with a time limit).
    let run = expect_code(&[ICE, "--level", "1", "--timeout", "30", "--json"], 1);
    let v = &json_lines(&run)[0];
    assert_eq!(str_field(v, "status"), "error", "{v}");
    assert_eq!(str_field(v, "error_kind"), "input", "{v}");

    // With solved levels beside it, a level with ice makes the run exit 1.
    expect_code(&[SOLVABLE, ICE, "--level", "1"], 1);
}

#[test]
fn a_refused_ice_level_makes_the_run_exit_1() {
    expect_code(&[UNSOLVABLE, ICE, "--level", "1"], 1);
}

/// An ice-blind encoding once solved level 4 as if ice were floor and claimed its 7-move
/// plan optimal, while two slides do it in 4 moves.
#[test]
fn ice_levels_never_claim_a_wrong_optimum() {
    let run = satsoko(&[ICE, "--level", "4", "--json"]);
    let v = &json_lines(&run)[0];
    if v["status"] == "solved" && v["optimal"] == "moves" {
        assert_eq!(u64_field(v, "moves"), 4, "{v}");
    }
}

#[test]
fn non_finite_timeouts_are_handled() {
    for limit in ["inf", "1e30"] {
        let run = satsoko(&[SOLVABLE, "--level", "1", "--timeout", limit]);
        assert!(
            !run.stderr.contains("panicked"),
            "--timeout {limit}\n{run:?}"
        );
        assert!([0, 2].contains(&run.code), "--timeout {limit}\n{run:?}");
    }
    let run = satsoko(&[SOLVABLE, "--level", "1", "--timeout", "nan"]);
    assert_eq!(run.code, 2, "--timeout nan\n{run:?}");
}
