//! End-to-end tests of the `satsoko` binary: exit codes, text and JSON output, error
//! messages and `satsoko verify`, as FORMATS.md describes them.
//!
//! The levels are the hand-made ones in `levels/examples/` and `levels/malformed/` (each
//! solved in a few milliseconds) and Microban level 1; their optimal move counts and
//! optimal push counts were checked by brute-force search (`satsoko::search`). The
//! default encoding is `pushes` (push-optimal plans, k = pushes); `--optimize moves`
//! selects the `moves` encoding (move-optimal plans, k = moves). Every command runs in
//! the crate's root, so file names in messages are the relative paths given on the
//! command line.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

const SOLVABLE: &str = "levels/examples/solvable.xsb";
const UNSOLVABLE: &str = "levels/examples/unsolvable.xsb";
const SEALED: &str = "levels/examples/sealed.xsb";
const ICE: &str = "levels/examples/ice.xsb";
const MOVES_VS_PUSHES: &str = "levels/examples/moves_vs_pushes.xsb";
const MICROBAN: &str = "levels/microban.xsb";
const XSOKOBAN: &str = "levels/xsokoban.xsb";

/// A level's title, its optimal number of moves and its optimal number of pushes (the
/// two optima may belong to different plans).
type Example = (&'static str, usize, usize);

/// The levels of `levels/examples/solvable.xsb`, in file order.
const SOLVABLE_LEVELS: [Example; 7] = [
    ("One push", 2, 1),
    ("Around the box", 5, 3),
    ("Two boxes", 14, 6),
    ("Run-length encoded", 3, 2),
    ("Player on a goal", 5, 1),
    ("One box already home", 4, 2),
    ("Two boxes, long way round", 24, 4),
];

/// The levels of `levels/examples/sealed.xsb`.
const SEALED_LEVELS: [Example; 3] = [
    ("Sealed room", 3, 2),
    ("Sealed cell beside the room", 5, 3),
    ("Nothing to do", 0, 0),
];

/// Microban level 1: 33 moves at best, 8 pushes at best.
const MICROBAN_1: Example = ("1", 33, 8);

/// The level of `levels/examples/moves_vs_pushes.xsb`, where no plan is optimal in both
/// metrics: the fewest moves are 8 and need 4 pushes; the fewest pushes are 2 and need 10
/// moves.
const MOVES_OR_PUSHES: Example = ("Moves or pushes", 8, 2);

/// The encodings, each with the metric its first plan is optimal in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Moves,
    Pushes,
    PushesLazy,
}

use Encoding::{Moves, Pushes, PushesLazy};

impl Encoding {
    const ALL: [Encoding; 3] = [Moves, Pushes, PushesLazy];

    /// The name on the command line and in the output.
    fn name(self) -> &'static str {
        match self {
            Moves => "moves",
            Pushes => "pushes",
            PushesLazy => "pushes-lazy",
        }
    }

    /// The metric in `"optimal"`; k counts steps of this metric.
    fn metric(self) -> &'static str {
        match self {
            Moves => "moves",
            Pushes | PushesLazy => "pushes",
        }
    }
}

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

/// Checks a `"status":"solved"` line of a run with `encoding` against FORMATS.md and the
/// level's optima, and returns its solution: the plan is optimal in the encoding's metric
/// (and k counts that metric), and no better than optimal in the other.
fn check_solved_line(
    v: &Value,
    file: &str,
    level: u64,
    (title, best_moves, best_pushes): Example,
    encoding: Encoding,
) -> String {
    assert_eq!(str_field(v, "file"), file, "{v}");
    assert_eq!(u64_field(v, "level"), level, "{v}");
    assert_eq!(str_field(v, "title"), title, "{v}");
    assert_eq!(str_field(v, "status"), "solved", "{v}");
    let solution = str_field(v, "solution").to_string();
    assert!(solution.chars().all(|c| "lurdLURD".contains(c)), "{v}");
    let moves = u64_field(v, "moves") as usize;
    let pushes = u64_field(v, "pushes") as usize;
    assert_eq!(solution.len(), moves, "{v}");
    let upper = solution.chars().filter(char::is_ascii_uppercase).count();
    assert_eq!(pushes, upper, "{v}");
    assert_eq!(str_field(v, "optimal"), encoding.metric(), "{v}");
    assert_eq!(str_field(v, "encoding"), encoding.name(), "{v}");
    match encoding {
        Moves => {
            assert_eq!(moves, best_moves, "{v}");
            assert!(pushes >= best_pushes, "{v}");
            assert_eq!(u64_field(v, "k") as usize, moves, "{v}");
        }
        Pushes | PushesLazy => {
            assert_eq!(pushes, best_pushes, "{v}");
            assert!(moves >= best_moves, "{v}");
            assert_eq!(u64_field(v, "k") as usize, pushes, "{v}");
        }
    }
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

/// A JSON line without its `seconds`, the one field that differs between equal runs.
fn without_seconds(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("seconds");
    v
}

/// The JSON lines of `args` (run with `--json` and exit code 0), without `seconds`.
fn solved_lines_without_seconds(args: &[&str]) -> Vec<Value> {
    let mut args = args.to_vec();
    args.push("--json");
    json_lines(&expect_code(&args, 0))
        .iter()
        .map(without_seconds)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Solving

#[test]
fn microban_1_is_solved_move_optimally_and_verified() {
    let run = expect_code(
        &[MICROBAN, "--level", "1", "--optimize", "moves", "--json"],
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
    check_file(SOLVABLE, &["--optimize", "moves"], &SOLVABLE_LEVELS, Moves);
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
fn optimize_pushes_is_the_default_and_optimize_moves_is_the_moves_encoding() {
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
    assert!(default.iter().all(|v| v["engine"] == "pdr"), "{default:?}");
    assert!(
        unrolled.iter().all(|v| v["engine"] == "unroll"),
        "{unrolled:?}"
    );
    assert_eq!(
        solved_lines_without_seconds(&["solve", SOLVABLE, "--optimize", "pushes"]),
        default
    );

    let moves = solved_lines_without_seconds(&[SOLVABLE, "--optimize", "moves"]);
    assert_eq!(
        solved_lines_without_seconds(&[SOLVABLE, "--encoding", "moves"]),
        moves
    );
    assert!(moves.iter().all(|v| v["encoding"] == "moves"), "{moves:?}");
}

/// On this level the two metrics pull apart: the move-optimal plan pushes twice as often
/// as needed and the push-optimal plan walks two moves more.
#[test]
fn optimize_moves_and_optimize_pushes_give_different_plans() {
    let run = expect_code(&[MOVES_VS_PUSHES, "--optimize", "moves", "--json"], 0);
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
    check_file(SEALED, &["--optimize", "moves"], &SEALED_LEVELS, Moves);
    check_file(SEALED, &[], &SEALED_LEVELS, Pushes);
}

#[test]
fn text_output_names_the_level_and_gives_moves_pushes_and_solution() {
    let run = expect_code(&[SOLVABLE, "--level", "1", "--optimize", "moves"], 0);
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

    let run = expect_code(&[SOLVABLE, "--level", "3", "--optimize", "moves"], 0);
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
    assert!(out.contains("k=1, engine pdr, encoding pushes,"), "{run:?}");
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
        run.stdout.contains("k=4, engine pdr, encoding pushes,"),
        "{run:?}"
    );

    let run = expect_code(&[SOLVABLE, "--level", "1", "--encoding", "pushes-lazy"], 0);
    assert!(
        run.stdout.contains("moves 2, pushes 1, optimal in pushes"),
        "{run:?}"
    );
    assert!(run.stdout.contains("k=1, encoding pushes-lazy,"), "{run:?}");
}

#[test]
fn solve_subcommand_is_the_default() {
    let a = expect_code(&["solve", SOLVABLE, "--level", "2", "--json"], 0);
    let b = expect_code(&[SOLVABLE, "--level", "2", "--json"], 0);
    let (a, b) = (&json_lines(&a)[0], &json_lines(&b)[0]);
    assert_eq!(a["solution"], b["solution"]);
    assert_eq!(a["pushes"], 3);
    assert_eq!(a["encoding"], "pushes");

    let args = ["--level", "2", "--optimize", "moves", "--json"];
    let a = expect_code(&[&["solve", SOLVABLE][..], &args].concat(), 0);
    let b = expect_code(&[&[SOLVABLE][..], &args].concat(), 0);
    let (a, b) = (&json_lines(&a)[0], &json_lines(&b)[0]);
    assert_eq!(a["solution"], b["solution"]);
    assert_eq!(a["moves"], 5);
    assert_eq!(a["encoding"], "moves");
}

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
            "--optimize",
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

#[test]
fn unsolvable_levels_exit_3() {
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
    // The default (pushes) first, then each encoding by name.
    let flag_sets: [(&[&str], Encoding); 4] = [
        (&[], Pushes),
        (&["--encoding", "pushes"], Pushes),
        (&["--encoding", "pushes-lazy"], PushesLazy),
        (&["--optimize", "moves"], Moves),
    ];
    for (flags, encoding) in flag_sets {
        let run = expect_code(&[&[UNSOLVABLE, "--json"][..], flags].concat(), 3);
        let lines = json_lines(&run);
        assert_eq!(levels_of(&lines), [1, 2, 3, 4], "{run:?}");
        for ((v, title), reason) in lines.iter().zip(titles).zip(reasons) {
            assert_eq!(str_field(v, "status"), "unsolvable", "{v}");
            assert_eq!(str_field(v, "title"), title, "{v}");
            assert_eq!(str_field(v, "encoding"), encoding.name(), "{v}");
            assert!(str_field(v, "message").contains(reason), "{v}");
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
            "--optimize",
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
            "--optimize",
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
            "--optimize",
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
    // XSokoban level 2 takes far longer than half a second, even in a release build.
    let run = expect_code(&[XSOKOBAN, "--level", "2", "--timeout", "0.5", "--json"], 5);
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
    assert!(v.get("solution").is_none(), "{v}");
    let seconds = v["seconds"].as_f64().unwrap();
    assert!((0.4..2.0).contains(&seconds), "{v}");

    let run = expect_code(&[XSOKOBAN, "--level", "2", "--timeout", "0.5"], 5);
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
            "--optimize",
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

// ---------------------------------------------------------------------------------------
// Input and usage errors

/// Every file in `levels/malformed/`, with the start of the message it must produce
/// (after `error: `).
const MALFORMED: [(&str, &str); 14] = [
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
    check_solved_line(&lines[0], path, 1, ("Good", 2, 1), Pushes);
    assert_eq!(str_field(&lines[1], "status"), "error");
    assert_eq!(u64_field(&lines[1], "level"), 2);

    let run = expect_code(&[path, "--optimize", "moves", "--json"], 1);
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
        &[UNSOLVABLE, XSOKOBAN, "--level", "2", "--timeout", "0.3"],
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
// Ice: read, verified and solved

#[test]
fn ice_levels_are_read_and_verified_with_sliding() {
    // The first move slides over two ice cells onto the floor, next to the box.
    let run = expect_code(&["verify", ICE, "--level", "1", "--solution", "rR"], 0);
    assert!(run.stdout.contains("(2 moves, 1 push)"), "{run:?}");
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
    assert!(run.stdout.contains("(4 moves, 1 push)"), "{run:?}");
    expect_code(&["verify", ICE, "--level", "4", "--solution", "ddrrrdL"], 0);
}

/// Ice levels are solved by the ice-aware moves encoding, whatever the encoding asked
/// for: the pushes encodings do not model slides, so they fall back to moves and say so.
#[test]
fn ice_levels_are_solved_with_the_moves_encoding() {
    let best_moves = [2, 1, 2, 4];
    for encoding in Encoding::ALL {
        let run = expect_code(&[ICE, "--encoding", encoding.name(), "--json"], 0);
        let lines = json_lines(&run);
        assert_eq!(levels_of(&lines), [1, 2, 3, 4], "{run:?}");
        for (v, moves) in lines.iter().zip(best_moves) {
            assert_eq!(str_field(v, "status"), "solved", "{v}");
            assert_eq!(str_field(v, "encoding"), "moves", "{v}");
            assert_eq!(str_field(v, "optimal"), "moves", "{v}");
            assert_eq!(u64_field(v, "moves"), moves, "{v}");
            if encoding.name() != "moves" {
                assert!(
                    str_field(v, "message").contains("does not model ice"),
                    "{v}"
                );
            }
        }
    }
    // The same through a worker process (with a time limit).
    let run = expect_code(&[ICE, "--level", "4", "--timeout", "30", "--json"], 0);
    assert_eq!(u64_field(&json_lines(&run)[0], "moves"), 4);
}

/// Writing a pushes CNF for an ice level is refused (it could not express slides).
#[test]
fn pushes_cnf_of_an_ice_level_is_refused() {
    let run = expect_code(&["encode", ICE, "--level", "1", "--steps", "2"], 1);
    assert!(run.stderr.contains("does not handle ice"), "{run:?}");
    expect_code(
        &[
            "encode",
            ICE,
            "--level",
            "1",
            "--steps",
            "2",
            "--encoding",
            "moves",
        ],
        0,
    );
    let run = expect_code(
        &["sweep", ICE, "--level", "1", "--from", "1", "--to", "2"],
        1,
    );
    assert!(run.stderr.contains("does not handle ice"), "{run:?}");
    // Refused before the table starts: nothing on stdout.
    assert!(run.stdout.is_empty(), "{run:?}");
}

/// An ice-blind encoding once solved level 4 as if ice were floor and claimed its 7-move
/// plan optimal, while two slides do it in 4 moves. Every ice level needs 1 push; the
/// optimal move counts are in `levels/examples/ice.xsb`.
#[test]
fn ice_levels_never_claim_a_wrong_optimum() {
    let best_moves = [2, 1, 2, 4];
    for encoding in Encoding::ALL {
        for (i, moves) in best_moves.into_iter().enumerate() {
            let level = (i + 1).to_string();
            let run = satsoko(&[
                ICE,
                "--level",
                &level,
                "--encoding",
                encoding.name(),
                "--json",
            ]);
            let v = &json_lines(&run)[0];
            if v["status"] == "solved" {
                assert_verifies(ICE, i as u64 + 1, str_field(v, "solution"));
                if v["optimal"] == "moves" {
                    assert_eq!(u64_field(v, "moves"), moves, "{v}");
                }
                if v["optimal"] == "pushes" {
                    assert_eq!(u64_field(v, "pushes"), 1, "{v}");
                }
            }
        }
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

/// The searches of their own: the A* baseline and the property-directed search.
const SEARCHES: [&str; 2] = ["astar", "pdr"];

#[test]
fn searches_solve_push_optimally_and_build_no_formula() {
    let sat = solved_lines_without_seconds(&[MICROBAN, "--level", "1-3"]);
    for search in SEARCHES {
        let run = expect_code(
            &[MICROBAN, "--level", "1-3", "--engine", search, "--json"],
            0,
        );
        for (v, s) in json_lines(&run).iter().zip(&sat) {
            assert_eq!(v["engine"], search, "{v}");
            assert_eq!(v["optimal"], "pushes", "{v}");
            assert_eq!(v["pushes"], s["pushes"], "same optimum as SAT: {v} {s}");
            // A* has no formula; pdr reports the one-push formula with its lemmas.
            let sized = v.get("variables").is_some_and(|x| x.as_u64().is_some());
            assert_eq!(sized, search == "pdr", "{v}");
            assert_verifies(MICROBAN, u64_field(v, "level"), str_field(v, "solution"));
        }
        // Unsolvable levels and too small bounds get the usual verdicts and exit codes.
        expect_code(&[UNSOLVABLE, "--engine", search], 3);
        expect_code(
            &[
                MICROBAN,
                "--level",
                "1",
                "--engine",
                search,
                "--max-steps",
                "7",
            ],
            4,
        );
    }
}

#[test]
fn auto_engine_is_pdr_for_push_optimal_plans_and_unroll_otherwise() {
    let engine_of = |args: &[&str]| -> Vec<String> {
        let run = expect_code(&[args, &["--json"]].concat(), 0);
        json_lines(&run)
            .iter()
            .map(|v| str_field(v, "engine").to_string())
            .collect()
    };
    assert_eq!(engine_of(&[MICROBAN, "--level", "2"]), ["pdr"]);
    // pdr works with CaDiCaL too.
    assert_eq!(
        engine_of(&[MICROBAN, "--level", "2", "--solver", "cadical"]),
        ["pdr"]
    );
    // Anything that asks for the unrolled formula, and ice, which pdr does not model.
    for args in [
        &[MICROBAN, "--level", "2", "--encoding", "pushes"][..],
        &[MICROBAN, "--level", "2", "--optimize", "moves"],
        &[MICROBAN, "--level", "2", "--engine", "unroll"],
        &[ICE, "--level", "1"],
    ] {
        assert_eq!(engine_of(args), ["unroll"], "{args:?}");
    }
    // pdr needs a solver it can question thousands of times.
    let run = expect_code(
        &[
            MICROBAN,
            "--engine",
            "pdr",
            "--solver-cmd",
            "minisat {in} {out}",
        ],
        2,
    );
    assert!(run.stderr.contains("--solver-cmd"), "{run:?}");
}

#[test]
fn searches_refuse_what_they_cannot_do() {
    for search in SEARCHES {
        // No formula to sweep, no move-optimal search: usage errors, before any output.
        for args in [
            &[
                "sweep", MICROBAN, "--from", "1", "--to", "2", "--engine", search,
            ][..],
            &[MICROBAN, "--engine", search, "--optimize", "moves"],
            &[
                "bench",
                MICROBAN,
                "--timeout",
                "1",
                "--engine",
                search,
                "--encoding",
                "moves",
            ],
        ] {
            let run = expect_code(args, 2);
            assert_eq!(run.stdout, "", "{run:?}");
            assert!(run.stderr.contains(search), "{run:?}");
        }
        // Ice is not modelled: an input error naming the reason.
        let run = expect_code(&[ICE, "--level", "1", "--engine", search], 1);
        assert!(run.stderr.contains("ice"), "{run:?}");
    }
}
