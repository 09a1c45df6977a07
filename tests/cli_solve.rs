//! End-to-end tests of solving with the `satsoko` binary: the plans of the example levels
//! and of Microban level 1 in JSON and text output, as docs/formats.md describes them,
//! `--optimize` and `--encoding`, and the `solve` subcommand.
//!
//! The default encoding is `pushes` (push-optimal plans, k = pushes); `--optimize moves`
//! selects the `moves` encoding (move-optimal plans, k = moves). The levels and their
//! optima, checked by brute-force search, are in `common::cli`. Every command runs in the
//! crate's root, so file names in messages are the relative paths given on the command
//! line.

mod common;

use serde_json::Value;

use common::cli::Encoding::{self, Moves, Pushes, PushesLazy, PushesPath};
use common::cli::{
    Example, MICROBAN, MICROBAN_1, MOVES_OR_PUSHES, MOVES_VS_PUSHES, SEALED, SEALED_LEVELS,
    SOLVABLE, SOLVABLE_LEVELS, assert_verifies, check_solved_line, expect_code, json_lines,
    solved_lines_without_seconds, u64_field, without_seconds,
};

#[test]
fn microban_1_is_solved_move_optimally_and_verified() {
    let run = expect_code(
        &[MICROBAN, "--level", "1", "--encoding", "moves", "--json"],
        0,
    );
    assert_eq!(
        run.stderr, "",
        "no progress output when stderr is not a terminal"
    );
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1, "{run:?}");
    let solution = check_solved_line(&lines[0], MICROBAN, 1, MICROBAN_1, Moves);
    assert_eq!(solution.len(), 33);
    assert_eq!(u64_field(&lines[0], "pushes"), 8);
    assert_verifies(MICROBAN, 1, &solution);
}

#[test]
fn microban_1_is_solved_push_optimally_by_default_and_verified() {
    let run = expect_code(&[MICROBAN, "--level", "1", "--json"], 0);
    assert_eq!(
        run.stderr, "",
        "no progress output when stderr is not a terminal"
    );
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1, "{run:?}");
    let v = &lines[0];
    let solution = check_solved_line(v, MICROBAN, 1, MICROBAN_1, Pushes);
    assert_eq!(v["optimal"], "pushes", "{v}");
    assert_eq!(v["k"], 8, "{v}");
    assert_eq!(v["pushes"], 8, "{v}");
    assert_eq!(v["encoding"], "pushes", "{v}");
    assert_verifies(MICROBAN, 1, &solution);

    // The lazy form of the encoding finds a plan with as few pushes.
    let run = expect_code(
        &[
            MICROBAN,
            "--level",
            "1",
            "--encoding",
            "pushes-lazy",
            "--json",
        ],
        0,
    );
    let v = &json_lines(&run)[0];
    let solution = check_solved_line(v, MICROBAN, 1, MICROBAN_1, PushesLazy);
    assert_verifies(MICROBAN, 1, &solution);
}

/// Solves every level of `file` with `flags` and checks each JSON line against
/// `examples` for `encoding`, and each solution with `satsoko verify`.
fn check_file(file: &str, flags: &[&str], examples: &[Example], encoding: Encoding) {
    let run = expect_code(&[&[file, "--json"][..], flags].concat(), 0);
    assert_eq!(run.stderr, "");
    let lines = json_lines(&run);
    assert_eq!(lines.len(), examples.len(), "{run:?}");
    for (i, (v, &example)) in lines.iter().zip(examples).enumerate() {
        let level = i as u64 + 1;
        let solution = check_solved_line(v, file, level, example, encoding);
        assert_verifies(file, level, &solution);
    }
}

#[test]
fn json_lines_of_the_example_levels_with_optimize_moves() {
    check_file(SOLVABLE, &["--encoding", "moves"], &SOLVABLE_LEVELS, Moves);
}

#[test]
fn json_lines_of_the_example_levels_push_optimal_by_default() {
    check_file(SOLVABLE, &[], &SOLVABLE_LEVELS, Pushes);
    let run = expect_code(&[SOLVABLE, "--json"], 0);
    let lines = json_lines(&run);
    let pushes: Vec<u64> = lines.iter().map(|v| u64_field(v, "pushes")).collect();
    assert_eq!(pushes, [1, 3, 6, 2, 1, 2, 4]);
    let ks: Vec<u64> = lines.iter().map(|v| u64_field(v, "k")).collect();
    assert_eq!(ks, pushes);
}

#[test]
fn pushes_lazy_gives_the_same_push_counts() {
    check_file(
        SOLVABLE,
        &["--encoding", "pushes-lazy"],
        &SOLVABLE_LEVELS,
        PushesLazy,
    );
    check_file(
        SEALED,
        &["--encoding", "pushes-lazy"],
        &SEALED_LEVELS,
        PushesLazy,
    );
}

#[test]
fn pushes_path_gives_the_same_push_counts() {
    check_file(
        SOLVABLE,
        &["--encoding", "pushes-path"],
        &SOLVABLE_LEVELS,
        PushesPath,
    );
    check_file(
        SEALED,
        &["--encoding", "pushes-path"],
        &SEALED_LEVELS,
        PushesPath,
    );
}

/// `pushes-folded` counts box lines and `pushes-parallel` steps of one or more pushes:
/// their plans replay, are never shorter than the push optimum, and are called optimal
/// only at it.
#[test]
fn pushes_folded_and_parallel_plans_replay_and_claim_only_push_optima() {
    for encoding in ["pushes-folded", "pushes-parallel"] {
        let run = expect_code(&[SOLVABLE, "--json", "--encoding", encoding], 0);
        let lines = json_lines(&run);
        let optimum = [1, 3, 6, 2, 1, 2, 4];
        assert_eq!(lines.len(), optimum.len());
        for (i, (v, &best)) in lines.iter().zip(&optimum).enumerate() {
            assert_eq!(
                (&v["status"], &v["encoding"]),
                (&"solved".into(), &encoding.into())
            );
            let pushes = u64_field(v, "pushes");
            assert!(pushes >= best, "{v}");
            if !v["optimal"].is_null() {
                assert_eq!(pushes, best, "{v}");
            }
            assert_verifies(SOLVABLE, i as u64 + 1, v["solution"].as_str().unwrap());
        }
    }
    // Microban levels whose parallel steps end with the player on one cell of several
    // pushed from: the next step's walks must start from the last push's.
    let microban = "levels/microban.xsb";
    let parallel = [
        "--json",
        "--engine",
        "unroll",
        "--encoding",
        "pushes-parallel",
    ];
    let run = expect_code(
        &[&[microban, "--level", "6,8,10"][..], &parallel].concat(),
        0,
    );
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 3);
    for (v, level) in lines.iter().zip([6, 8, 10]) {
        assert_eq!(v["status"], "solved", "{v}");
        assert_verifies(microban, level, v["solution"].as_str().unwrap());
    }
    // One box, two lines of four pushes: a bound of three counts pushes, so the plan of
    // two lines is no answer (exit 5, gave up), and a bound of four takes it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("line.xsb");
    std::fs::write(&file, "#######\n#     #\n# $@  #\n#    .#\n#######\n").unwrap();
    let file = file.to_str().unwrap();
    let folded = ["--json", "--encoding", "pushes-folded", "--max-steps"];
    let run = expect_code(&[&[file][..], &folded, &["3"]].concat(), 5);
    assert_eq!(json_lines(&run)[0]["stop"], "gave-up", "{run:?}");
    let run = expect_code(&[&[file][..], &folded, &["4"]].concat(), 0);
    assert_eq!(u64_field(&json_lines(&run)[0], "pushes"), 4);
}

#[test]
fn optimize_pushes_is_the_default_and_optimize_moves_is_astar_or_the_moves_encoding() {
    let default = solved_lines_without_seconds(&[SOLVABLE]);
    assert_eq!(default.len(), SOLVABLE_LEVELS.len());
    assert_eq!(
        solved_lines_without_seconds(&[SOLVABLE, "--optimize", "pushes"]),
        default
    );
    // Naming the encoding selects the unrolled formula: a different engine, the same
    // optimum.
    let unrolled = solved_lines_without_seconds(&[SOLVABLE, "--encoding", "pushes"]);
    let optimum = |lines: &[Value]| -> Vec<(Value, Value, Value)> {
        lines
            .iter()
            .map(|v| {
                (
                    v["level"].clone(),
                    v["pushes"].clone(),
                    v["optimal"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(optimum(&unrolled), optimum(&default));
    assert!(
        default.iter().all(|v| v["engine"] == "anytime"),
        "{default:?}"
    );
    assert!(
        unrolled.iter().all(|v| v["engine"] == "unroll"),
        "{unrolled:?}"
    );
    assert_eq!(
        solved_lines_without_seconds(&["solve", SOLVABLE, "--optimize", "pushes"]),
        default
    );

    // `--optimize moves` is A* over whole states; the moves encoding proves the same
    // optima.
    let moves = solved_lines_without_seconds(&[SOLVABLE, "--encoding", "moves"]);
    assert!(moves.iter().all(|v| v["encoding"] == "moves"), "{moves:?}");
    let searched = solved_lines_without_seconds(&[SOLVABLE, "--optimize", "moves"]);
    assert_eq!(searched.len(), moves.len());
    for (a, b) in searched.iter().zip(&moves) {
        assert_eq!(
            (&a["engine"], &a["optimal"]),
            (&"astar".into(), &"moves".into())
        );
        assert_eq!(
            (&a["level"], &a["moves"]),
            (&b["level"], &b["moves"]),
            "{a} {b}"
        );
    }
}

/// On this level the two metrics pull apart: the move-optimal plan pushes twice as often
/// as needed and the push-optimal plan walks two moves more.
#[test]
fn optimize_moves_and_optimize_pushes_give_different_plans() {
    let run = expect_code(&[MOVES_VS_PUSHES, "--encoding", "moves", "--json"], 0);
    let by_moves = &json_lines(&run)[0];
    let solution = check_solved_line(by_moves, MOVES_VS_PUSHES, 1, MOVES_OR_PUSHES, Moves);
    assert_eq!(
        (&by_moves["moves"], &by_moves["pushes"], &by_moves["k"]),
        (&Value::from(8), &Value::from(4), &Value::from(8)),
        "{by_moves}"
    );
    assert_verifies(MOVES_VS_PUSHES, 1, &solution);

    for args in [
        &[MOVES_VS_PUSHES, "--json"][..],
        &[MOVES_VS_PUSHES, "--optimize", "pushes", "--json"],
        &[MOVES_VS_PUSHES, "--encoding", "pushes-lazy", "--json"],
    ] {
        let run = expect_code(args, 0);
        let by_pushes = &json_lines(&run)[0];
        let encoding = if args.contains(&"pushes-lazy") {
            PushesLazy
        } else {
            Pushes
        };
        let solution = check_solved_line(by_pushes, MOVES_VS_PUSHES, 1, MOVES_OR_PUSHES, encoding);
        assert_eq!(
            (&by_pushes["moves"], &by_pushes["pushes"], &by_pushes["k"]),
            (&Value::from(10), &Value::from(2), &Value::from(2)),
            "{by_pushes}"
        );
        assert_verifies(MOVES_VS_PUSHES, 1, &solution);
    }
}

#[test]
fn sealed_boxes_on_goals_need_no_moves() {
    check_file(SEALED, &["--encoding", "moves"], &SEALED_LEVELS, Moves);
    check_file(SEALED, &[], &SEALED_LEVELS, Pushes);
}

#[test]
fn text_output_names_the_level_and_gives_moves_pushes_and_solution() {
    let run = expect_code(&[SOLVABLE, "--level", "1", "--encoding", "moves"], 0);
    let out = &run.stdout;
    assert!(
        out.starts_with("levels/examples/solvable.xsb level 1 (One push): solved in "),
        "{run:?}"
    );
    assert!(
        out.contains("moves 2, pushes 1, optimal in moves"),
        "{run:?}"
    );
    assert!(
        out.contains("k=2, engine unroll, encoding moves"),
        "{run:?}"
    );
    assert!(out.contains("solution: rR\n"), "{run:?}");
    assert_eq!(run.stderr, "");

    let run = expect_code(&[SOLVABLE, "--level", "3", "--encoding", "moves"], 0);
    assert!(
        run.stdout.contains("level 3 (Two boxes): solved"),
        "{run:?}"
    );
    assert!(run.stdout.contains("moves 14, pushes "), "{run:?}");
}

#[test]
fn text_output_of_the_default_pushes_encoding() {
    let run = expect_code(&[SOLVABLE, "--level", "1"], 0);
    let out = &run.stdout;
    assert!(
        out.starts_with("levels/examples/solvable.xsb level 1 (One push): solved in "),
        "{run:?}"
    );
    assert!(
        out.contains("moves 2, pushes 1, optimal in pushes"),
        "{run:?}"
    );
    assert!(
        out.contains("k=1, engine anytime, encoding pushes,"),
        "{run:?}"
    );
    assert!(out.contains("solution: rR\n"), "{run:?}");
    assert_eq!(run.stderr, "");

    // The plan with the fewest pushes walks 24 moves: k counts the 4 pushes.
    let run = expect_code(&[SOLVABLE, "--level", "7"], 0);
    assert!(
        run.stdout
            .contains("level 7 (Two boxes, long way round): solved"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("moves 24, pushes 4, optimal in pushes"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("k=4, engine anytime, encoding pushes,"),
        "{run:?}"
    );

    let run = expect_code(&[SOLVABLE, "--level", "1", "--encoding", "pushes-lazy"], 0);
    assert!(
        run.stdout.contains("moves 2, pushes 1, optimal in pushes"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("k=1, engine unroll, encoding pushes-lazy,"),
        "{run:?}"
    );
}

#[test]
fn solve_subcommand_is_the_default() {
    let a = expect_code(&["solve", SOLVABLE, "--level", "2", "--json"], 0);
    let b = expect_code(&[SOLVABLE, "--level", "2", "--json"], 0);
    let (a, b) = (&json_lines(&a)[0], &json_lines(&b)[0]);
    // (Which optimal plan the default's racing sides report may differ.)
    assert_eq!(without_seconds(a), without_seconds(b));
    assert_eq!(a["pushes"], 3);
    assert_eq!(a["encoding"], "pushes");

    let args = ["--level", "2", "--encoding", "moves", "--json"];
    let a = expect_code(&[&["solve", SOLVABLE][..], &args].concat(), 0);
    let b = expect_code(&[&[SOLVABLE][..], &args].concat(), 0);
    let (a, b) = (&json_lines(&a)[0], &json_lines(&b)[0]);
    assert_eq!(a["solution"], b["solution"]);
    assert_eq!(a["moves"], 5);
    assert_eq!(a["encoding"], "moves");
}

/// `--show` draws the board after each push (or move), replayed by the rules: the last
/// board is solved; `-` reads the levels from standard input.
#[test]
fn show_draws_every_push_and_stdin_is_read_with_a_dash() {
    let run = expect_code(&["levels/microban.xsb", "--level", "2", "--show"], 0);
    let pushes = run.stdout.matches("), pushes ").count();
    assert_eq!(pushes, 3, "{}", run.stdout);
    let last_board: Vec<&str> = run.stdout.lines().rev().take(7).collect();
    assert!(
        !last_board.iter().any(|l| l.contains('$')),
        "{}",
        run.stdout
    );
    let run = expect_code(
        &["levels/microban.xsb", "--level", "2", "--show", "moves"],
        0,
    );
    assert_eq!(run.stdout.matches("  move ").count(), 16, "{}", run.stdout);
    // Not a terminal: plain characters.
    assert!(!run.stdout.contains('\x1b'));

    let text = std::fs::read_to_string("levels/microban.xsb").unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_satsoko"))
        .args(["-", "--level", "2", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(
        line.contains("\"file\":\"<stdin>\"") && line.contains("\"pushes\":3"),
        "{line}"
    );
}
