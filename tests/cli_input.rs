//! End-to-end tests of what the `satsoko` binary is given: level selection with
//! `--level`, malformed and missing level files (exit code 1, with the file, level, line
//! and column in the message), usage errors (exit code 2), and the exit code of a run
//! over several files, as docs/formats.md describes them.
//!
//! The malformed files are those in `levels/malformed/`; the other levels are in
//! `common::cli`. Every command runs in the crate's root, so file names in messages are
//! the relative paths given on the command line.

mod common;

use std::path::Path;

use serde_json::Value;

use common::cli::Encoding::{Moves, Pushes};
use common::cli::{
    MICROBAN, SEALED, SOLVABLE, UNSOLVABLE, XSOKOBAN, check_solved_line, expect_code, json_lines,
    levels_of, satsoko, str_field, u64_field,
};

// ---------------------------------------------------------------------------------------
// Level selection

#[test]
fn level_ranges_and_lists() {
    let run = expect_code(&[SOLVABLE, "--level", "2-3", "--json"], 0);
    assert_eq!(levels_of(&json_lines(&run)), [2, 3]);

    let run = expect_code(&[SOLVABLE, "--level", "1,4-5,7", "--json"], 0);
    let lines = json_lines(&run);
    assert_eq!(levels_of(&lines), [1, 4, 5, 7]);
    let pushes: Vec<u64> = lines.iter().map(|v| u64_field(v, "pushes")).collect();
    assert_eq!(pushes, [1, 2, 1, 4]);

    let run = expect_code(
        &[
            SOLVABLE,
            "--level",
            "1,4-5,7",
            "--encoding",
            "moves",
            "--json",
        ],
        0,
    );
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

// ---------------------------------------------------------------------------------------
// Input and usage errors

/// Every file in `levels/malformed/`, with the start of the message it must produce
/// (after `error: `).
const MALFORMED: [(&str, &str); 16] = [
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
    (
        "numeric_unknown_code.txt",
        "levels/malformed/numeric_unknown_code.txt: level 1, line 2, column 9: unknown code 42",
    ),
    (
        "numeric_ragged.txt",
        "levels/malformed/numeric_ragged.txt: level 1, line 2, column 3: row 2 has 4 numbers \
         but row 1 has 5",
    ),
    (
        "numeric_two_players.txt",
        "levels/malformed/numeric_two_players.txt: level 1, line 2, column 13: a second \
         player; the first is at line 2, column 4",
    ),
    (
        "numeric_unbalanced.txt",
        "levels/malformed/numeric_unbalanced.txt, line 1, column 1: '(' is never closed",
    ),
    // Found by the fuzzer (examples/fuzz/): boards beyond the 16-bit cells of the
    // searches made them index out of bounds.
    (
        "too_large.xsb",
        "levels/malformed/too_large.xsb: level 1, line 4: the level is too large: at most \
         65536 cells fit",
    ),
    (
        "too_large_runs.xsb",
        "levels/malformed/too_large_runs.xsb: level 1, line 5, column 43: the level is too \
         large",
    ),
];

/// Files of `levels/malformed/` that another command reads, or that one engine refuses,
/// with the arguments that run them (`FILE` stands for the file) and the start of the
/// message (after `error: `). The fuzzer (examples/fuzz/, docs/fuzzing.md) found each:
/// a literal that made `decode` allocate 2 GiB, and levels on which `--engine unroll`
/// built formulas of tens of gigabytes.
const REFUSED_BY_COMMAND: [(&str, &[&str], &str); 3] = [
    (
        "answer_huge_variable.txt",
        &[
            "decode", MICROBAN, "--level", "1", "--steps", "8", "--model", "FILE",
        ],
        "levels/malformed/answer_huge_variable.txt: line 3: variable 2147483647 is out of \
         range (at most 67108864)",
    ),
    (
        "ice_too_long_for_unroll.xsb",
        &["--engine", "unroll", "FILE"],
        "levels/malformed/ice_too_long_for_unroll.xsb: level 1: the lines of ice are too \
         long for the moves encoding",
    ),
    (
        "walks_too_long_for_pushes.xsb",
        &["--engine", "unroll", "FILE"],
        "levels/malformed/walks_too_long_for_pushes.xsb: level 1: the pushes formula is too \
         big for this level: one step would hold about",
    ),
];

#[test]
fn inputs_found_by_the_fuzzer_get_a_clean_error() {
    for (name, args, message) in REFUSED_BY_COMMAND {
        let path = format!("levels/malformed/{name}");
        let args: Vec<&str> = (args.iter())
            .map(|&a| if a == "FILE" { path.as_str() } else { a })
            .collect();
        let run = expect_code(&args, 1);
        let expected = format!("error: {message}");
        assert!(
            run.stderr.lines().any(|l| l.starts_with(&expected)),
            "expected {expected:?}\n{run:?}"
        );
        assert_eq!(run.stdout, "", "{run:?}");
    }
    // The levels only `unroll` refuses are solved by the engine `auto` picks.
    for name in [
        "ice_too_long_for_unroll.xsb",
        "walks_too_long_for_pushes.xsb",
    ] {
        let path = format!("levels/malformed/{name}");
        let run = expect_code(&[&path, "--timeout", "20"], 0);
        assert!(run.stdout.contains(": solved in"), "{run:?}");
    }
}

/// Boxes walled off on their goals cost nothing in the estimate of the search over
/// whole states: their distance, "unreachable", overflowed its sum (a panic in a debug
/// build, found by the fuzzer run with overflow checks).
#[test]
fn boxes_walled_off_on_their_goals_cost_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("walled.xsb");
    std::fs::write(&path, "##########\n#@$. #*#*#\n##########\n").unwrap();
    let path = path.to_str().unwrap();
    for metric in ["moves", "pushes"] {
        let run = expect_code(&["--engine", "astar", "--optimize", metric, path], 0);
        assert!(
            run.stdout.contains("moves 1, pushes 1, optimal in"),
            "{run:?}"
        );
    }
}

/// Boards the fuzzer found to run for minutes (or out of memory) past `--timeout`: one
/// step of an encoding, the analysis or an ordering of the goals that grew with the
/// square or the cube of the board. Each now ends within a few seconds of its limit.
#[test]
fn huge_boards_end_soon_after_their_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    // A room seven cells wide: the player at the top, `rows` copies of `row`, then
    // `last`.
    let column = |rows: usize, row: &str, last: &str| {
        let mut text = String::from("#######\n#  @  #\n");
        for _ in 0..rows {
            text.push_str(row);
            text.push('\n');
        }
        format!("{text}{last}\n#######\n")
    };
    let screen4_deep = [
        "           ########",
        "           #  ....#",
        "############  ....#",
        "#    #  $ $   ....#",
        "# $$$#$  $ #  ....#",
        "#  $     $ #  ....#",
        "# $$ #$ $ $########",
        "#  $ #     #",
        "## #########",
        "#    #    ##",
        "#     $   ##",
        "#  $$#$$  @#",
    ]
    .join("\n")
        + &"\n#    #    ##".repeat(35)
        + "\n###########\n";
    let boards = [
        // A thousand boxes: the matching and the packing order of the goals.
        ("boxes.xsb", column(1000, "#.  $ #", "#     #"), "finder"),
        ("boxes.xsb", column(1000, "#.  $ #", "#     #"), "anytime"),
        // Ten thousand open cells: pdr's "at most one push" written pairwise.
        ("room.xsb", column(2000, "#     #", "#. $  #"), "pdr"),
        // A line of 4000 ice cells: the analysis of where a pushed box may stop.
        ("ice.xsb", "#@$4000~.#\n".to_string(), "astar"),
        // XSokoban 4 with a room 35 rows deep: unroll refuses it before building a
        // step, as the formula at the lower bound would not fit in memory.
        ("screen4.xsb", screen4_deep, "unroll"),
    ];
    for (name, text, engine) in boards {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let mut args = vec!["--engine", engine, "--timeout", "1", path];
        if engine == "finder" {
            args.extend(["--optimize", "none"]);
        }
        let run = satsoko(&args);
        let refused = run.code == 1 && run.stderr.contains("formula is too big");
        assert!(
            [0, 5].contains(&run.code) || refused,
            "{engine} on {name}: {run:?}"
        );
        // Generous, so that a loaded machine does not fail it; the stop-latency
        // benchmark (docs/benchmarks.md) measures the real figure.
        assert!(
            run.elapsed.as_secs_f64() < 5.0,
            "{engine} on {name} took {:?}",
            run.elapsed
        );
    }
}

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
    let mut listed: Vec<&str> = (MALFORMED.iter().map(|(n, _)| *n))
        .chain(REFUSED_BY_COMMAND.iter().map(|(n, ..)| *n))
        .collect();
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
    check_solved_line(&lines[0], path, 1, ("Good", 2, 1), Pushes);
    assert_eq!(str_field(&lines[1], "status"), "error");
    assert_eq!(u64_field(&lines[1], "level"), 2);

    let run = expect_code(&[path, "--encoding", "moves", "--json"], 1);
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 2, "{run:?}");
    check_solved_line(&lines[0], path, 1, ("Good", 2, 1), Moves);
    assert_eq!(str_field(&lines[1], "status"), "error");

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
        &[SOLVABLE, "--optimize", "fewest"],
        &[SOLVABLE, "--optimize"],
        // `--encoding` and `--optimize` exclude each other, even when they agree.
        &[SOLVABLE, "--encoding", "moves", "--optimize", "pushes"],
        &[SOLVABLE, "--optimize", "pushes", "--encoding", "moves"],
        &[SOLVABLE, "--encoding", "pushes", "--optimize", "moves"],
        &[
            SOLVABLE,
            "--encoding",
            "pushes-lazy",
            "--optimize",
            "pushes",
        ],
        &[SOLVABLE, "--encoding", "moves", "--optimize", "moves"],
        &[
            "solve",
            SOLVABLE,
            "--encoding",
            "moves",
            "--optimize",
            "pushes",
        ],
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
    let run = expect_code(
        &[SOLVABLE, "--encoding", "moves", "--optimize", "pushes"],
        2,
    );
    assert!(run.stderr.contains("--encoding"), "{run:?}");
    assert!(run.stderr.contains("--optimize"), "{run:?}");
    let run = expect_code(&[SOLVABLE, "--optimize", "fewest"], 2);
    assert!(run.stderr.contains("fewest"), "{run:?}");
    let run = expect_code(&[SOLVABLE, "--level", "0"], 2);
    assert!(run.stderr.contains("numbered from 1"), "{run:?}");
}

/// A first argument that is no file but close to a command is taken for a mistyped
/// command: nothing is solved, and the error names the command.
#[test]
fn a_mistyped_command_is_named() {
    for (typed, meant) in [("solv", "solve"), ("bnech", "bench"), ("verif", "verify")] {
        let run = expect_code(&[typed, SOLVABLE], 2);
        assert_eq!(run.stdout, "", "{run:?}");
        assert!(
            run.stderr.contains(&format!("`satsoko {meant}`")),
            "{run:?}"
        );
    }
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

    // No plan (4: level 1 needs 1 push) beats unsolvable (3), whatever the order.
    expect_code(
        &[UNSOLVABLE, SOLVABLE, "--level", "1", "--max-steps", "0"],
        4,
    );
    expect_code(
        &[SOLVABLE, UNSOLVABLE, "--level", "1", "--max-steps", "0"],
        4,
    );
    // One push is enough; the unsolvable level still makes it 3.
    expect_code(
        &[SOLVABLE, UNSOLVABLE, "--level", "1", "--max-steps", "1"],
        3,
    );
    // In moves, level 1 needs 2.
    expect_code(
        &[
            UNSOLVABLE,
            SOLVABLE,
            "--level",
            "1",
            "--optimize",
            "moves",
            "--max-steps",
            "1",
        ],
        4,
    );
}

#[test]
fn several_files_timeout_beats_unsolvable_and_unreadable_beats_all() {
    expect_code(
        &[
            UNSOLVABLE,
            XSOKOBAN,
            "--level",
            "2",
            "--timeout",
            "0.3",
            "--engine",
            "pdr",
        ],
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

/// `--format digits` reads the seed A* solver's characters; a character outside them is
/// an input error naming the level, line and column.
#[test]
fn the_digits_format_reads_the_seed_solvers_levels() {
    let run = expect_code(
        &["levels/examples/digits.txt", "--format", "digits", "--json"],
        0,
    );
    let v = &json_lines(&run)[0];
    assert_eq!(
        (v["moves"].as_u64(), v["pushes"].as_u64()),
        (Some(33), Some(8)),
        "{v}"
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "####\n#1 0$#\n####\n\n####\n#1.0$#\n####\n").unwrap();
    let run = expect_code(&[bad.to_str().unwrap(), "--format", "digits"], 1);
    assert!(run.stderr.contains("level 2, line 6, column 3"), "{run:?}");
}
