//! End-to-end tests of `satsoko verify`: a solution given on the command line or in a
//! file is accepted, or rejected with the position of the first illegal letter (exit code
//! 6), in text and JSON output as docs/formats.md describes them; input errors exit 1.
//!
//! The levels are the examples of `common::cli` and the files in `levels/malformed/`.
//! Every command runs in the crate's root, so file names in messages are the relative
//! paths given on the command line.

mod common;

use serde_json::Value;

use common::cli::{SEALED, SOLVABLE, expect_code, str_field};

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
