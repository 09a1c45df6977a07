//! Shared helpers for the end-to-end tests of the `satsoko` binary (`tests/cli_*.rs` and
//! `tests/ice.rs`): running the binary in the crate's root, checking its exit code and
//! its `--json` lines, and the example levels with their optima.
//!
//! The example levels are the hand-made ones in `levels/examples/` (each solved in a few
//! milliseconds) and Microban level 1; their optimal move counts and optimal push counts
//! were checked by brute-force search (`satsoko::engine::oracle`). Every command runs in
//! the crate's root, so file names in messages are the relative paths given on the
//! command line.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

/// Small hand-made levels that solve, with their optima in [`SOLVABLE_LEVELS`].
pub const SOLVABLE: &str = "levels/examples/solvable.xsb";
/// Well-formed example levels that have no solution, each for a different reason.
pub const UNSOLVABLE: &str = "levels/examples/unsolvable.xsb";
/// Example levels with a box on a goal the player can never reach ([`SEALED_LEVELS`]).
pub const SEALED: &str = "levels/examples/sealed.xsb";
/// The example level where no plan is both move- and push-optimal ([`MOVES_OR_PUSHES`]).
pub const MOVES_VS_PUSHES: &str = "levels/examples/moves_vs_pushes.xsb";
/// The Microban collection; level 1 is [`MICROBAN_1`].
pub const MICROBAN: &str = "levels/microban.xsb";
/// The XSokoban collection; level 2 takes far longer than a test's time limit.
pub const XSOKOBAN: &str = "levels/xsokoban.xsb";

/// A level's title, its optimal number of moves and its optimal number of pushes (the
/// two optima may belong to different plans).
pub type Example = (&'static str, usize, usize);

/// The levels of `levels/examples/solvable.xsb`, in file order.
pub const SOLVABLE_LEVELS: [Example; 7] = [
    ("One push", 2, 1),
    ("Around the box", 5, 3),
    ("Two boxes", 14, 6),
    ("Run-length encoded", 3, 2),
    ("Player on a goal", 5, 1),
    ("One box already home", 4, 2),
    ("Two boxes, long way round", 24, 4),
];

/// The levels of `levels/examples/sealed.xsb`.
pub const SEALED_LEVELS: [Example; 3] = [
    ("Sealed room", 3, 2),
    ("Sealed cell beside the room", 5, 3),
    ("Nothing to do", 0, 0),
];

/// Microban level 1: 33 moves at best, 8 pushes at best.
pub const MICROBAN_1: Example = ("1", 33, 8);

/// The level of `levels/examples/moves_vs_pushes.xsb`, where no plan is optimal in both
/// metrics: the fewest moves are 8 and need 4 pushes; the fewest pushes are 2 and need 10
/// moves.
pub const MOVES_OR_PUSHES: Example = ("Moves or pushes", 8, 2);

/// The encodings, each with the metric its first plan is optimal in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Moves,
    Pushes,
    PushesLazy,
    PushesPath,
}

use Encoding::{Moves, Pushes, PushesLazy, PushesPath};

impl Encoding {
    pub const ALL: [Encoding; 4] = [Moves, Pushes, PushesLazy, PushesPath];

    /// The name on the command line and in the output.
    pub fn name(self) -> &'static str {
        match self {
            Moves => "moves",
            Pushes => "pushes",
            PushesLazy => "pushes-lazy",
            PushesPath => "pushes-path",
        }
    }

    /// The metric in `"optimal"`; k counts steps of this metric.
    pub fn metric(self) -> &'static str {
        match self {
            Moves => "moves",
            Pushes | PushesLazy | PushesPath => "pushes",
        }
    }
}

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
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
pub fn satsoko(args: &[&str]) -> Run {
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

/// Runs `satsoko` with `args` in the crate's root and presses Ctrl-C (sends SIGINT)
/// after `delay`; `elapsed` counts from the start.
pub fn interrupted_after(args: &[&str], delay: Duration) -> Run {
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_satsoko"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("satsoko runs");
    std::thread::sleep(delay);
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("satsoko ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        elapsed: start.elapsed(),
    }
}

/// Runs `satsoko` and checks its exit code.
pub fn expect_code(args: &[&str], code: i32) -> Run {
    let run = satsoko(args);
    assert_eq!(run.code, code, "satsoko {}\n{run:?}", args.join(" "));
    run
}

/// The JSON objects of a `--json` run, one per stdout line.
pub fn json_lines(run: &Run) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
        })
        .collect()
}

/// The string field `key` of a JSON line; panics naming the line if it is not one.
pub fn str_field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

/// The unsigned integer field `key` of a JSON line; panics naming the line if it is not
/// one.
pub fn u64_field(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not an unsigned integer in {v}"))
}

/// The `level` numbers of JSON lines, in order.
pub fn levels_of(lines: &[Value]) -> Vec<u64> {
    lines.iter().map(|v| u64_field(v, "level")).collect()
}

/// Checks a `"status":"solved"` line of a run with `encoding` against docs/formats.md and
/// the level's optima, and returns its solution: the plan is optimal in the encoding's
/// metric (and k counts that metric), and no better than optimal in the other.
pub fn check_solved_line(
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
        Pushes | PushesLazy | PushesPath => {
            assert_eq!(pushes, best_pushes, "{v}");
            assert!(moves >= best_moves, "{v}");
            assert_eq!(u64_field(v, "k") as usize, pushes, "{v}");
        }
    }
    assert!(!str_field(v, "solver").is_empty(), "{v}");
    assert!(v["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
    u64_field(v, "variables");
    u64_field(v, "clauses");
    // The fields come in the order of the example in docs/formats.md (others may be added).
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
pub fn assert_verifies(file: &str, level: u64, solution: &str) {
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
pub fn without_seconds(v: &Value) -> Value {
    let mut v = v.clone();
    let fields = v.as_object_mut().unwrap();
    for timed in ["seconds", "first_seconds", "stats", "found_by"] {
        fields.remove(timed);
    }
    // The anytime engine's two sides race: which of them finds the plan reported, and
    // how far the prover's formula grows, differ from run to run (the lengths do not).
    if fields.get("engine").and_then(Value::as_str) == Some("anytime") {
        for raced in ["solution", "moves", "variables", "clauses"] {
            fields.remove(raced);
        }
    }
    v
}

/// The JSON lines of `args` (run with `--json` and exit code 0), without what depends
/// on timing ([`without_seconds`]).
pub fn solved_lines_without_seconds(args: &[&str]) -> Vec<Value> {
    let mut args = args.to_vec();
    args.push("--json");
    json_lines(&expect_code(&args, 0))
        .iter()
        .map(without_seconds)
        .collect()
}
