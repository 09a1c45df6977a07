//! End-to-end tests of the `satsoko` binary's verdicts other than "solved" and of the
//! limits behind them, as docs/formats.md describes them: unsolvable levels (exit code 3),
//! `--max-steps` bounds too small for a plan (exit code 4; the bound counts moves or
//! pushes, as the encoding's k does), `--timeout` (exit code 5; every engine stops itself
//! at the limit) and Ctrl-C (exit code 130).
//!
//! The levels and their optima are in `common::cli`. Every command runs in the crate's
//! root, so file names in messages are the relative paths given on the command line.

mod common;

use std::time::Duration;

use serde_json::Value;

use common::cli::Encoding::{self, Moves, Pushes, PushesLazy, PushesPath};
use common::cli::{
    MICROBAN, MOVES_OR_PUSHES, MOVES_VS_PUSHES, SEALED, SEALED_LEVELS, SOLVABLE, SOLVABLE_LEVELS,
    UNSOLVABLE, XSOKOBAN, assert_verifies, check_solved_line, expect_code, interrupted_after,
    json_lines, levels_of, satsoko, solved_lines_without_seconds, str_field, u64_field,
    without_seconds,
};

#[test]
fn unsolvable_levels_exit_3() {
    let titles = [
        "Box in a corner",
        "Goal walled off",
        "Box walled off",
        "Player boxed in",
    ];
    // The boxed-in player is proved stuck by a search: the SAT solver's ("no sequence
    // of ...") or, under the default engine, whichever side of it gets there first
    // (the plan finder "ran out of positions" that are not deadlocks).
    let reasons: [&[&str]; 4] = [
        &["the box at r2c2 can never be pushed to any goal"],
        &["the goal at r2c7 is walled off"],
        &["the box at r2c8 is walled off"],
        &["no sequence of", "ran out of positions"],
    ];
    // The default (pushes) first, then each encoding by name.
    let flag_sets: [(&[&str], Encoding); 5] = [
        (&[], Pushes),
        (&["--encoding", "pushes"], Pushes),
        (&["--encoding", "pushes-lazy"], PushesLazy),
        (&["--encoding", "pushes-path"], PushesPath),
        (&["--encoding", "moves"], Moves),
    ];
    for (flags, encoding) in flag_sets {
        let run = expect_code(&[&[UNSOLVABLE, "--json"][..], flags].concat(), 3);
        let lines = json_lines(&run);
        assert_eq!(levels_of(&lines), [1, 2, 3, 4], "{run:?}");
        for ((v, title), reason) in lines.iter().zip(titles).zip(reasons) {
            assert_eq!(str_field(v, "status"), "unsolvable", "{v}");
            assert_eq!(str_field(v, "title"), title, "{v}");
            assert_eq!(str_field(v, "encoding"), encoding.name(), "{v}");
            let message = str_field(v, "message");
            assert!(reason.iter().any(|r| message.contains(r)), "{v}");
            assert!(v.get("solution").is_none(), "{v}");
            assert!(v.get("optimal").is_none(), "{v}");
        }
        // The boxed-in player is proved stuck by the SAT solver, not by static analysis.
        assert!(u64_field(&lines[3], "variables") > 0, "{}", lines[3]);
    }

    for level in ["1", "2", "3", "4"] {
        let run = expect_code(&[UNSOLVABLE, "--level", level], 3);
        assert!(run.stdout.contains(": unsolvable in "), "{run:?}");
        assert!(run.stdout.contains("encoding pushes"), "{run:?}");
    }
}

#[test]
fn too_small_max_steps_is_no_plan_in_moves() {
    // The SAT solver refutes every bound up to 23; the optimum is 24 moves.
    let run = expect_code(
        &[
            SOLVABLE,
            "--level",
            "7",
            "--encoding",
            "moves",
            "--max-steps",
            "23",
            "--json",
        ],
        4,
    );
    let v = &json_lines(&run)[0];
    assert_eq!(str_field(v, "status"), "no-plan", "{v}");
    assert_eq!(u64_field(v, "k"), 23, "{v}");
    assert_eq!(str_field(v, "encoding"), "moves", "{v}");
    assert!(str_field(v, "message").contains("23"), "{v}");
    assert!(v.get("solution").is_none(), "{v}");

    // A bound exactly at the optimum is enough.
    let run = expect_code(
        &[
            SOLVABLE,
            "--level",
            "7",
            "--encoding",
            "moves",
            "--max-steps",
            "24",
            "--json",
        ],
        0,
    );
    assert_eq!(json_lines(&run)[0]["moves"], 24);

    // A bound below the static lower bound, in text mode.
    let run = expect_code(
        &[
            SOLVABLE,
            "--level",
            "3",
            "--encoding",
            "moves",
            "--max-steps",
            "2",
        ],
        4,
    );
    assert!(run.stdout.contains("no-plan"), "{run:?}");
}

#[test]
fn too_small_max_steps_is_no_plan_in_pushes() {
    // `--max-steps` counts pushes: Microban 1 needs 8 (and 33 moves). Bounds up to 7 are
    // refuted, with either form of the pushes encoding.
    for encoding in ["pushes", "pushes-lazy"] {
        let run = expect_code(
            &[
                MICROBAN,
                "--level",
                "1",
                "--encoding",
                encoding,
                "--max-steps",
                "7",
                "--json",
            ],
            4,
        );
        let v = &json_lines(&run)[0];
        assert_eq!(str_field(v, "status"), "no-plan", "{v}");
        assert_eq!(u64_field(v, "k"), 7, "{v}");
        assert_eq!(str_field(v, "encoding"), encoding, "{v}");
        assert!(str_field(v, "message").contains('7'), "{v}");
        assert!(v.get("solution").is_none(), "{v}");
        assert!(v.get("optimal").is_none(), "{v}");

        // A bound exactly at the push optimum is enough, though the plan has 33 moves.
        let run = expect_code(
            &[
                MICROBAN,
                "--level",
                "1",
                "--encoding",
                encoding,
                "--max-steps",
                "8",
                "--json",
            ],
            0,
        );
        let v = &json_lines(&run)[0];
        assert_eq!(
            (&v["pushes"], &v["k"], &v["moves"]),
            (&Value::from(8), &Value::from(8), &Value::from(33)),
            "{v}"
        );
    }

    // The default encoding: 24 moves fit in a bound of 4 (pushes), but not in 3.
    let run = expect_code(&[SOLVABLE, "--level", "7", "--max-steps", "3", "--json"], 4);
    let v = &json_lines(&run)[0];
    assert_eq!(str_field(v, "status"), "no-plan", "{v}");
    assert_eq!(u64_field(v, "k"), 3, "{v}");
    assert_eq!(str_field(v, "encoding"), "pushes", "{v}");
    let run = expect_code(&[SOLVABLE, "--level", "7", "--max-steps", "4", "--json"], 0);
    let v = &json_lines(&run)[0];
    check_solved_line(v, SOLVABLE, 7, SOLVABLE_LEVELS[6], Pushes);
    assert_eq!(v["moves"], 24, "{v}");

    // Level 3 needs 6 pushes; in text mode.
    let run = expect_code(&[SOLVABLE, "--level", "3", "--max-steps", "5"], 4);
    assert!(run.stdout.contains("no-plan"), "{run:?}");
    expect_code(&[SOLVABLE, "--level", "3", "--max-steps", "6"], 0);

    // A bound of 0 is no plan for a level that needs a push, and enough for one that
    // needs none.
    expect_code(&[SOLVABLE, "--level", "1", "--max-steps", "0"], 4);
    let run = expect_code(&[SEALED, "--level", "3", "--max-steps", "0", "--json"], 0);
    check_solved_line(&json_lines(&run)[0], SEALED, 3, SEALED_LEVELS[2], Pushes);
}

#[test]
fn timeout_stops_a_long_level() {
    // pdr alone proves XSokoban level 2's optimum bound by bound, which takes far
    // longer than half a second, even in a release build.
    let pdr = ["--engine", "pdr"];
    let args = [XSOKOBAN, "--level", "2", "--timeout", "0.5", "--json"];
    let run = expect_code(&[&args[..], &pdr].concat(), 5);
    assert!(
        run.elapsed < Duration::from_secs(2),
        "took {:?}",
        run.elapsed
    );
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1, "{run:?}");
    let v = &lines[0];
    assert_eq!(str_field(v, "status"), "timeout", "{v}");
    assert_eq!(str_field(v, "title"), "screen.02", "{v}");
    assert_eq!(str_field(v, "stop"), "time", "{v}");
    assert!(v.get("solution").is_none(), "{v}");
    let seconds = v["seconds"].as_f64().unwrap();
    assert!((0.4..2.0).contains(&seconds), "{v}");

    let run = expect_code(&[&args[..5], &pdr].concat(), 5);
    assert!(
        run.elapsed < Duration::from_secs(2),
        "took {:?}",
        run.elapsed
    );
    assert!(
        run.stdout.contains("level 2 (screen.02): timeout"),
        "{run:?}"
    );
}

#[test]
fn every_engine_and_solver_stops_itself_at_the_limit() {
    // In this process, with no worker to kill: the unrolled formula stops inside the
    // SAT solver (varisat and CaDiCaL alike) and reports the formula built so far.
    for (engine, solver) in [
        ("unroll", "varisat"),
        ("unroll", "cadical"),
        ("pdr", "cadical"),
        ("astar", "varisat"),
    ] {
        let args = [
            XSOKOBAN,
            "--level",
            "3",
            "--timeout",
            "0.5",
            "--json",
            "--engine",
            engine,
            "--solver",
            solver,
        ];
        let run = expect_code(&args, 5);
        assert!(
            run.elapsed < Duration::from_secs(3),
            "{engine} {solver}: {run:?}"
        );
        let v = &json_lines(&run)[0];
        assert_eq!(str_field(v, "status"), "timeout", "{v}");
        assert_eq!(str_field(v, "engine"), engine, "{v}");
        if engine != "astar" {
            assert!(u64_field(v, "variables") > 0, "{v}");
        }
    }
}

#[test]
fn ctrl_c_stops_the_level_prints_its_report_and_skips_the_rest() {
    let args = [XSOKOBAN, "--level", "6-7", "--json"];
    let run = interrupted_after(&args, Duration::from_millis(500));
    let (stdout, stderr) = (&run.stdout, &run.stderr);
    assert_eq!(run.code, 130, "{run:?}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    // The plan found before Ctrl-C is kept, unproved, with its bound.
    assert_eq!(str_field(&lines[0], "status"), "solved", "{stdout}");
    assert!(lines[0]["optimal"].is_null(), "{stdout}");
    assert!(stderr.contains("interrupted"), "{stderr}");
}

#[test]
fn a_timeout_keeps_the_best_plan_with_its_proven_bound() {
    // The default finds a plan for XSokoban level 6 at once but cannot prove it
    // optimal in two seconds: the answer is the plan, "optimal" null, and the bound.
    let run = expect_code(&[XSOKOBAN, "--level", "6", "--timeout", "2", "--json"], 0);
    let v = &json_lines(&run)[0];
    assert_eq!(str_field(v, "status"), "solved", "{v}");
    assert!(v["optimal"].is_null(), "{v}");
    let (pushes, bound) = (u64_field(v, "pushes"), u64_field(v, "lower_bound"));
    assert!(bound >= 106 && bound < pushes, "{v}");
    assert!(v["first_seconds"].as_f64().unwrap() < 2.0, "{v}");
    assert_verifies(XSOKOBAN, 6, str_field(v, "solution"));
    // The gap between plan and bound, in percent of the plan.
    let gap = v["gap_percent"].as_f64().unwrap();
    let expected = ((pushes - bound) as f64 / pushes as f64 * 1000.0).round() / 10.0;
    assert_eq!(gap, expected, "{v}");
    // In text: "pushes P, optimal ≥ B (gap G%)".
    let run = expect_code(&[XSOKOBAN, "--level", "6", "--timeout", "1"], 0);
    assert!(run.stdout.contains(", optimal ≥ "), "{run:?}");
    assert!(run.stdout.contains("%)\n"), "{run:?}");
}

#[test]
fn a_plan_not_proved_optimal_shows_its_gap_to_the_bound() {
    // The finder's plan for XSokoban level 1, with the static bound of the analysis:
    // both deterministic.
    let args = [
        XSOKOBAN,
        "--level",
        "1",
        "--engine",
        "finder",
        "--optimize",
        "none",
    ];
    let run = expect_code(&[&args[..], &["--json"]].concat(), 0);
    let v = &json_lines(&run)[0];
    let (pushes, bound) = (u64_field(v, "pushes"), u64_field(v, "lower_bound"));
    assert!(bound < pushes, "{v}");
    let gap = ((pushes - bound) as f64 / pushes as f64 * 1000.0).round() / 10.0;
    assert_eq!(v["gap_percent"].as_f64(), Some(gap), "{v}");
    let run = expect_code(&args, 0);
    let line = format!("pushes {pushes}, optimal ≥ {bound} (gap {gap:.1}%)\n");
    assert!(run.stdout.contains(&line), "{run:?}");
    // A plan proved optimal has a gap of 0.
    let run = expect_code(&[MICROBAN, "--level", "1", "--json"], 0);
    assert_eq!(
        json_lines(&run)[0]["gap_percent"].as_f64(),
        Some(0.0),
        "{run:?}"
    );
    // bench counts the levels near their bound.
    let run = expect_code(&[&["bench"], &args[..], &["--timeout", "20"]].concat(), 0);
    let line = format!(
        "bound gap of the 1 solved level with a bound: within 1% {}, within 5% {}, median \
         {gap:.1}%",
        u8::from(gap <= 1.0),
        u8::from(gap <= 5.0)
    );
    assert!(run.stdout.contains(&line), "{run:?}");
}

#[test]
fn the_proof_goes_on_after_its_head_start_when_a_plan_came_first() {
    // On XSokoban level 17 a plan comes within a second and `pdr` needs a few seconds
    // to prove the optimum: the bound side resumes after its head start and the answer
    // is proved optimal.
    let run = expect_code(&[XSOKOBAN, "--level", "17", "--json"], 0);
    let v = &json_lines(&run)[0];
    assert_eq!(str_field(v, "optimal"), "pushes", "{v}");
    assert_eq!(u64_field(v, "pushes"), 213, "{v}");
    assert_eq!(u64_field(v, "lower_bound"), 213, "{v}");
    assert_verifies(XSOKOBAN, 17, str_field(v, "solution"));
}

#[test]
fn timeout_leaves_quick_levels_alone() {
    // With a time limit the level is solved in a worker process; the result is the same,
    // and the worker uses the encoding asked for.
    let run = expect_code(
        &[SOLVABLE, "--level", "3,7", "--timeout", "30", "--json"],
        0,
    );
    let lines = json_lines(&run);
    check_solved_line(&lines[0], SOLVABLE, 3, SOLVABLE_LEVELS[2], Pushes);
    check_solved_line(&lines[1], SOLVABLE, 7, SOLVABLE_LEVELS[6], Pushes);
    let direct = solved_lines_without_seconds(&[SOLVABLE, "--level", "3,7"]);
    assert_eq!(
        lines.iter().map(without_seconds).collect::<Vec<_>>(),
        direct
    );

    let run = expect_code(
        &[
            SOLVABLE,
            "--level",
            "3,7",
            "--timeout",
            "30",
            "--encoding",
            "moves",
            "--json",
        ],
        0,
    );
    let lines = json_lines(&run);
    check_solved_line(&lines[0], SOLVABLE, 3, SOLVABLE_LEVELS[2], Moves);
    check_solved_line(&lines[1], SOLVABLE, 7, SOLVABLE_LEVELS[6], Moves);

    let run = expect_code(
        &[
            MOVES_VS_PUSHES,
            "--timeout",
            "30",
            "--encoding",
            "pushes-lazy",
            "--json",
        ],
        0,
    );
    let v = &json_lines(&run)[0];
    check_solved_line(v, MOVES_VS_PUSHES, 1, MOVES_OR_PUSHES, PushesLazy);
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

/// Unsolvable levels that need a search: the default, astar and pdr prove them by
/// running out of positions.
#[test]
fn unsolvable_levels_that_need_search_are_proved() {
    const FILE: &str = "levels/examples/unsolvable-search.xsb";
    for engine in ["auto", "pdr", "astar"] {
        let run = expect_code(&[FILE, "--json", "--engine", engine, "--timeout", "60"], 3);
        let lines = json_lines(&run);
        assert_eq!(lines.len(), 2, "{run:?}");
        for v in &lines {
            assert_eq!(str_field(v, "status"), "unsolvable", "{v}");
            assert_eq!(v["reason"], v["message"], "{v}");
            if engine == "pdr" {
                assert!(
                    str_field(v, "reason").contains("ran out of positions"),
                    "{v}"
                );
            }
        }
    }
}

/// The boards of the stop-latency benchmark's largest classes (docs/benchmarks.md): a
/// 200×200 room with 100 boxes, and a 40×60 board of halls with 40 boxes. Every engine
/// and the default must answer within a few seconds of a 1 s limit, and of Ctrl-C.
/// The bound is generous, so that a loaded machine does not fail it: the benchmark
/// measures the real figure (under half a second).
#[test]
fn every_engine_answers_soon_after_its_limit_on_big_boards() {
    use satsoko::level::generate::{BoardSpec, Layout, random_board};
    let dir = tempfile::tempdir().unwrap();
    let boards = [(200, 200, 100, Layout::Open), (40, 60, 40, Layout::Halls)];
    for (rows, cols, boxes, layout) in boards {
        let spec = BoardSpec {
            rows,
            cols,
            boxes,
            layout,
            seed: 1,
        };
        let path = dir.path().join(format!("{layout}.xsb"));
        std::fs::write(&path, random_board(&spec)).unwrap();
        let path = path.to_str().unwrap();
        for engine in [
            "auto", "anytime", "pdr", "finder", "astar", "unroll", "subgoals",
        ] {
            let mut args = vec![path, "--timeout", "1", "--json", "--engine", engine];
            if ["finder", "subgoals"].contains(&engine) {
                args.extend(["--optimize", "none"]);
            }
            let run = satsoko(&args);
            // The level needs far more than a second: each engine stops at the limit
            // (`unroll` refuses it at once: its formula would not fit in memory).
            let refused = run.code == 1 && run.stdout.contains("formula is too big");
            assert!(run.code == 5 || refused, "{engine} on {layout}: {run:?}");
            assert!(
                run.elapsed < Duration::from_secs(5),
                "{engine} on {layout} took {:?}",
                run.elapsed
            );
        }
        // A bound below the lower bound needs no formula: no plan, not a refusal.
        let run = satsoko(&[path, "--engine", "unroll", "--max-steps", "1"]);
        assert_eq!(run.code, 4, "unroll --max-steps 1 on {layout}: {run:?}");
        // Ctrl-C after a second, with no time limit.
        let run = interrupted_after(&[path, "--json"], Duration::from_secs(1));
        assert_eq!(run.code, 130, "{layout}: {run:?}");
        assert!(
            run.elapsed < Duration::from_secs(5),
            "Ctrl-C on {layout} took {:?}",
            run.elapsed
        );
    }
}
