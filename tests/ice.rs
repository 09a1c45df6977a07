//! End-to-end tests of the ice levels in `levels/ice/`: the collection `ice.xsb` and its
//! twelve numeric twins `NN-name.txt` (the course format of docs/formats.md).
//!
//! Every level is solved by the built binary with `--optimize moves` and must come back
//! solved, proved move-optimal, with the optimum found by brute-force search over the
//! rules engine (`satsoko::engine::oracle`, checked again below), and accepted by `satsoko
//! verify`. The default run (A* over states) must be push-optimal, and the unrolled
//! pushes encoding (which does not model ice) must fall back to the moves encoding and
//! say so. Each numeric file must give the same optimum
//! as its XSB twin, and its plans must be valid on the twin. Every command runs in the
//! crate's root, so file names are the relative paths given on the command line.

mod common;

use satsoko::engine::oracle::{SearchResult, shortest_moves, shortest_pushes};
use satsoko::level::parse_xsb;
use serde_json::Value;

use common::cli::{expect_code, json_lines, str_field, u64_field};

/// The XSB collection.
const ICE: &str = "levels/ice/ice.xsb";

/// One level of `levels/ice/ice.xsb`.
#[derive(Clone, Copy, Debug)]
struct IceLevel {
    /// The title in `ice.xsb`.
    title: &'static str,
    /// The numeric twin.
    numeric: &'static str,
    /// Fewest moves of any plan.
    moves: u64,
    /// Fewest pushes of any plan.
    pushes: u64,
    /// Fewest pushes of a plan with `moves` moves: more than `pushes` where ice makes the
    /// move-optimal and the push-optimal plans differ.
    pushes_at_fewest_moves: u64,
    /// Fewest moves of a plan with `pushes` pushes.
    moves_at_fewest_pushes: u64,
}

const fn level(
    title: &'static str,
    numeric: &'static str,
    (moves, pushes_at_fewest_moves): (u64, u64),
    (pushes, moves_at_fewest_pushes): (u64, u64),
) -> IceLevel {
    IceLevel {
        title,
        numeric,
        moves,
        pushes,
        pushes_at_fewest_moves,
        moves_at_fewest_pushes,
    }
}

/// The levels in file order: (fewest moves, their pushes), (fewest pushes, their moves).
const LEVELS: [IceLevel; 12] = [
    level("Glide home", "levels/ice/01-glide-home.txt", (1, 1), (1, 1)),
    level("Skater", "levels/ice/02-skater.txt", (2, 1), (1, 2)),
    level(
        "Down the chute",
        "levels/ice/03-down-the-chute.txt",
        (2, 1),
        (1, 2),
    ),
    level("Wall stop", "levels/ice/04-wall-stop.txt", (5, 2), (2, 5)),
    level("Pinball", "levels/ice/05-pinball.txt", (5, 1), (1, 5)),
    level(
        "Parking brake",
        "levels/ice/06-parking-brake.txt",
        (7, 2),
        (2, 7),
    ),
    level(
        "The far side",
        "levels/ice/07-the-far-side.txt",
        (8, 1),
        (1, 8),
    ),
    level("Curling", "levels/ice/08-curling.txt", (9, 5), (4, 10)),
    level("No brakes", "levels/ice/09-no-brakes.txt", (12, 5), (5, 12)),
    level(
        "Express lane",
        "levels/ice/10-express-lane.txt",
        (11, 6),
        (4, 12),
    ),
    level(
        "Three for the express",
        "levels/ice/11-three-for-the-express.txt",
        (11, 5),
        (4, 14),
    ),
    level("Bumper", "levels/ice/12-bumper.txt", (16, 5), (5, 16)),
];

// ---------------------------------------------------------------------------------------
// Checking the binary's answers

/// Checks a solved JSON line: move-optimal with the level's optimum, k = moves, and no
/// fewer pushes than any plan of that length can have. Returns the solution.
fn check_move_optimal(v: &Value, file: &str, number: u64, level: &IceLevel) -> String {
    assert_eq!(str_field(v, "file"), file, "{v}");
    assert_eq!(u64_field(v, "level"), number, "{v}");
    assert_eq!(str_field(v, "status"), "solved", "{v}");
    assert_eq!(str_field(v, "optimal"), "moves", "{v}");
    assert_eq!(u64_field(v, "moves"), level.moves, "{} {v}", level.title);
    assert_eq!(u64_field(v, "k"), level.moves, "{v}");
    let pushes = u64_field(v, "pushes");
    assert!(
        pushes >= level.pushes_at_fewest_moves,
        "{}: {pushes} pushes in {} moves beats the brute-force minimum {}: {v}",
        level.title,
        level.moves,
        level.pushes_at_fewest_moves
    );
    if str_field(v, "engine") == "astar" {
        // The state search breaks ties by the other metric.
        assert_eq!(pushes, level.pushes_at_fewest_moves, "{v}");
    } else {
        assert_eq!(str_field(v, "encoding"), "moves", "{v}");
    }
    let solution = str_field(v, "solution").to_string();
    assert_eq!(solution.len() as u64, level.moves, "{v}");
    let upper = solution.chars().filter(char::is_ascii_uppercase).count() as u64;
    assert_eq!(upper, pushes, "{v}");
    solution
}

/// `satsoko verify` accepts `solution` for level `number` of `file` and counts it right
/// (unlike `common::cli::assert_verifies`, which reads the text output, it checks the
/// counts in the JSON line).
fn assert_verifies(file: &str, number: u64, solution: &str) {
    let n = number.to_string();
    let run = expect_code(
        &[
            "verify",
            file,
            "--level",
            &n,
            "--solution",
            solution,
            "--json",
        ],
        0,
    );
    let v = &json_lines(&run)[0];
    assert_eq!(v["legal"], true, "{v}");
    assert_eq!(v["solved"], true, "{v}");
    assert_eq!(u64_field(v, "moves"), solution.len() as u64, "{v}");
    let upper = solution.chars().filter(char::is_ascii_uppercase).count() as u64;
    assert_eq!(u64_field(v, "pushes"), upper, "{v}");
}

/// `satsoko FILE [--level N] --json --optimize moves [extra]`: one solved, move-optimal
/// line for `level`, whose plan `verify` accepts on `file` and on the XSB twin.
fn solve_move_optimal(file: &str, number: u64, level: &IceLevel, extra: &[&str]) -> String {
    let n = number.to_string();
    let mut args = vec![file];
    if file == ICE {
        args.extend(["--level", n.as_str()]);
    }
    args.extend(["--json", "--optimize", "moves"]);
    args.extend(extra);
    let run = expect_code(&args, 0);
    let lines = json_lines(&run);
    assert_eq!(lines.len(), 1, "{run:#?}");
    let file_level = if file == ICE { number } else { 1 };
    let solution = check_move_optimal(&lines[0], file, file_level, level);
    assert_verifies(file, file_level, &solution);
    if file != ICE {
        assert_verifies(ICE, number, &solution);
    }
    solution
}

// ---------------------------------------------------------------------------------------
// The level files themselves

/// The XSB boards of `ice.xsb` with their titles and `; optimal:` lines.
fn xsb_boards() -> Vec<(String, String, Vec<String>)> {
    let text = std::fs::read_to_string(ICE).expect("ice.xsb is readable");
    let mut out = Vec::new();
    let mut comments: Vec<String> = Vec::new();
    let mut board: Vec<String> = Vec::new();
    for line in text.lines().chain([""]) {
        if line.starts_with('#') {
            board.push(line.to_string());
        } else {
            if !board.is_empty() {
                let title = comments.pop().expect("a title before each board");
                let optimal = comments.pop().expect("an optimum before each title");
                out.push((title, optimal, std::mem::take(&mut board)));
                comments.clear();
            }
            if let Some(c) = line.strip_prefix(';') {
                comments.push(c.trim().to_string());
            }
        }
    }
    out
}

/// The numeric code of an XSB character (docs/formats.md).
fn code_of(c: char) -> u32 {
    match c {
        '#' => 99,
        ' ' => 10,
        '$' => 15,
        '@' => 17,
        '.' => 20,
        '*' => 25,
        '+' => 27,
        '~' => 30,
        '=' => 35,
        '&' => 37,
        other => panic!("unexpected character {other:?} in ice.xsb"),
    }
}

/// The rows of a numeric file, read without the crate: an inner tuple or list is a row;
/// without brackets, a line is a row.
fn numeric_rows(path: &str) -> Vec<Vec<u32>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let number = |s: &str| -> u32 { s.parse().unwrap_or_else(|_| panic!("{path}: {s:?}")) };
    if !text.contains(['(', '[']) {
        return text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split_whitespace().map(number).collect())
            .collect();
    }
    let mut rows = Vec::new();
    let mut depth = 0;
    let mut row: Vec<u32> = Vec::new();
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            assert_eq!(depth, 2, "{path}: a number outside a row");
            row.push(number(&digits));
            digits.clear();
        }
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                if depth == 2 {
                    rows.push(std::mem::take(&mut row));
                }
                depth -= 1;
            }
            ',' => {}
            c if c.is_whitespace() => {}
            other => panic!("{path}: unexpected {other:?}"),
        }
    }
    assert_eq!(depth, 0, "{path}: unbalanced brackets");
    rows
}

#[test]
fn the_collection_holds_the_twelve_levels_in_order() {
    let text = std::fs::read_to_string(ICE).unwrap();
    let levels = parse_xsb(ICE, &text).expect("ice.xsb parses");
    let titles: Vec<String> = levels.iter().map(|l| l.name()).collect();
    let expected: Vec<&str> = LEVELS.iter().map(|l| l.title).collect();
    assert_eq!(titles, expected);
    for l in &levels {
        assert!(l.has_ice(), "{} has no ice", l.name());
        for g in l.goal_cells() {
            assert!(!l.is_ice(g), "{}: a goal on ice", l.name());
        }
    }
}

/// Each `; optimal:` comment of `ice.xsb` states the optimum this file tests.
#[test]
fn the_optimum_comments_agree_with_the_table() {
    let boards = xsb_boards();
    assert_eq!(boards.len(), LEVELS.len());
    for ((title, optimal, _), level) in boards.iter().zip(&LEVELS) {
        assert_eq!(title, level.title);
        let plural =
            |n: u64, word: &str, many: &str| format!("{n} {}", if n == 1 { word } else { many });
        let head = format!(
            "optimal: {}, {}, ",
            plural(level.moves, "move", "moves"),
            plural(level.pushes, "push", "pushes")
        );
        assert!(optimal.starts_with(&head), "{title}: {optimal:?}");
        if level.pushes_at_fewest_moves > level.pushes {
            let detail = format!(
                "never in one plan: {} moves need {} pushes",
                level.moves, level.pushes_at_fewest_moves
            );
            assert!(optimal.contains(&detail), "{title}: {optimal:?}");
            let detail = format!(
                "{} pushes need {} moves",
                level.pushes, level.moves_at_fewest_pushes
            );
            assert!(optimal.contains(&detail), "{title}: {optimal:?}");
        } else {
            assert!(optimal.contains("both in one plan"), "{title}: {optimal:?}");
            assert_eq!(level.pushes_at_fewest_moves, level.pushes, "{title}");
            assert_eq!(level.moves_at_fewest_pushes, level.moves, "{title}");
        }
    }
}

/// The numeric files are the XSB boards cell for cell, with rows of equal length.
#[test]
fn the_numeric_files_are_twins_of_the_xsb_boards() {
    for ((title, _, board), level) in xsb_boards().iter().zip(&LEVELS) {
        let rows = numeric_rows(level.numeric);
        let width = rows[0].len();
        assert!(
            rows.iter().all(|r| r.len() == width),
            "{}: rows of different lengths",
            level.numeric
        );
        let expected: Vec<Vec<u32>> = board
            .iter()
            .map(|line| {
                let mut row: Vec<u32> = line.chars().map(code_of).collect();
                row.resize(width.max(row.len()), 99);
                row
            })
            .collect();
        assert_eq!(rows, expected, "{title} vs {}", level.numeric);
    }
}

/// The optima in the table are those of brute-force search over the rules engine.
#[test]
fn the_optima_are_those_of_brute_force_search() {
    let text = std::fs::read_to_string(ICE).unwrap();
    let levels = parse_xsb(ICE, &text).unwrap();
    for (l, level) in levels.iter().zip(&LEVELS) {
        assert_eq!(
            shortest_moves(l, 60, 200_000),
            SearchResult::Optimal(level.moves as usize),
            "{}",
            level.title
        );
        assert_eq!(
            shortest_pushes(l, 60, 200_000),
            SearchResult::Optimal(level.pushes as usize),
            "{}",
            level.title
        );
    }
}

// ---------------------------------------------------------------------------------------
// Solving every level, from the XSB collection and from its numeric twin

macro_rules! per_level {
    ($($name:ident => $number:literal),* $(,)?) => {$(
        mod $name {
            use super::*;

            /// `--optimize moves` on the XSB level: solved, move-optimal, verified.
            #[test]
            fn xsb_move_optimal() {
                solve_move_optimal(ICE, $number, &LEVELS[$number - 1], &[]);
            }

            /// The numeric twin (format detected): the same optimum, and its plan is
            /// valid on the numeric file and on the XSB level.
            #[test]
            fn numeric_twin_move_optimal() {
                let level = &LEVELS[$number - 1];
                solve_move_optimal(level.numeric, $number, level, &[]);
            }
        }
    )*};
}

per_level! {
    l01_glide_home => 1,
    l02_skater => 2,
    l03_down_the_chute => 3,
    l04_wall_stop => 4,
    l05_pinball => 5,
    l06_parking_brake => 6,
    l07_the_far_side => 7,
    l08_curling => 8,
    l09_no_brakes => 9,
    l10_express_lane => 10,
    l11_three_for_the_express => 11,
    l12_bumper => 12,
}

/// All levels in one run give the same answers as one level at a time, in file order.
#[test]
fn the_whole_collection_in_one_run() {
    let run = expect_code(&[ICE, "--json", "--optimize", "moves"], 0);
    let lines = json_lines(&run);
    assert_eq!(lines.len(), LEVELS.len(), "{run:#?}");
    for (i, (v, level)) in lines.iter().zip(&LEVELS).enumerate() {
        assert_eq!(str_field(v, "title"), level.title, "{v}");
        check_move_optimal(v, ICE, i as u64 + 1, level);
    }
}

// ---------------------------------------------------------------------------------------
// The default run is push-optimal (A* over states); the unrolled pushes encoding falls
// back to moves

/// Checks a solved JSON line of the default run: push-optimal, with the fewest moves a
/// push-optimal plan can have. Returns the solution.
fn check_push_optimal(v: &Value, level: &IceLevel) -> String {
    assert_eq!(str_field(v, "status"), "solved", "{v}");
    assert_eq!(str_field(v, "optimal"), "pushes", "{v}");
    assert_eq!(str_field(v, "engine"), "astar", "{v}");
    assert_eq!(u64_field(v, "pushes"), level.pushes, "{} {v}", level.title);
    assert_eq!(u64_field(v, "moves"), level.moves_at_fewest_pushes, "{v}");
    str_field(v, "solution").to_string()
}

#[test]
fn the_default_run_is_push_optimal_on_every_ice_level() {
    let run = expect_code(&[ICE, "--json"], 0);
    let lines = json_lines(&run);
    assert_eq!(lines.len(), LEVELS.len(), "{run:#?}");
    for (i, (v, level)) in lines.iter().zip(&LEVELS).enumerate() {
        let solution = check_push_optimal(v, level);
        assert_verifies(ICE, i as u64 + 1, &solution);
    }
}

/// The default run on a numeric file is push-optimal the same way.
#[test]
fn the_default_run_on_a_numeric_file() {
    let level = &LEVELS[11];
    let run = expect_code(&[level.numeric, "--json"], 0);
    let solution = check_push_optimal(&json_lines(&run)[0], level);
    assert_verifies(level.numeric, 1, &solution);
    assert_verifies(ICE, 12, &solution);
}

/// `--engine unroll` with the pushes encoding (which does not model ice) falls back to
/// the moves encoding, says so, and is move-optimal, not push-optimal, where the
/// metrics differ.
#[test]
fn unroll_falls_back_to_moves_on_ice() {
    for (i, level) in LEVELS.iter().enumerate() {
        let n = (i + 1).to_string();
        let run = expect_code(&[ICE, "--level", &n, "--json", "--engine", "unroll"], 0);
        let v = &json_lines(&run)[0];
        let solution = check_move_optimal(v, ICE, i as u64 + 1, level);
        let message = str_field(v, "message");
        assert!(
            message.contains("pushes") && message.contains("moves") && message.contains("ice"),
            "the message should explain the fallback from pushes to moves on ice: {v}"
        );
        assert_verifies(ICE, i as u64 + 1, &solution);
    }
}

/// The course's convention: solutions printed in upper case, and `verify --rules
/// course` accepts them, bumps included; the XSB convention refuses both.
#[test]
fn the_course_rules_print_upper_case_and_accept_bumps() {
    let run = expect_code(&[ICE, "--level", "4", "--json", "--rules", "course"], 0);
    let solution = str_field(&json_lines(&run)[0], "solution").to_string();
    assert!(
        solution.chars().all(|c| c.is_ascii_uppercase()),
        "{solution}"
    );
    let course = ["verify", ICE, "--level", "4", "--rules", "course", "--json"];
    let verified = |extra: &str, code: i32| {
        let with = format!("{extra}{solution}");
        let mut args = course.to_vec();
        args.extend(["--solution", with.as_str()]);
        json_lines(&expect_code(&args, code))[0].clone()
    };
    let v = verified("", 0);
    assert_eq!(u64_field(&v, "moves"), solution.len() as u64, "{v}");
    // A bump into the wall first (the player of level 4 starts against the wall on
    // its left): one move more, nothing else changes.
    let v = verified("L", 0);
    assert_eq!(u64_field(&v, "moves"), solution.len() as u64 + 1, "{v}");
    // The XSB convention refuses the bump and the upper-case walks.
    let bumped = format!("L{solution}");
    expect_code(&["verify", ICE, "--level", "4", "--solution", &bumped], 6);
    assert!(solution.len() as u64 > LEVELS[3].pushes);
    expect_code(&["verify", ICE, "--level", "4", "--solution", &solution], 6);
}

// ---------------------------------------------------------------------------------------
// --format

#[test]
fn format_numeric_reads_a_numeric_file() {
    for number in [2, 8, 12] {
        let level = &LEVELS[number - 1];
        solve_move_optimal(
            level.numeric,
            number as u64,
            level,
            &["--format", "numeric"],
        );
    }
}

#[test]
fn format_xsb_reads_the_collection() {
    let level = &LEVELS[7];
    solve_move_optimal(ICE, 8, level, &["--format", "xsb"]);
    let run = expect_code(
        &[ICE, "--format", "xsb", "--json", "--optimize", "moves"],
        0,
    );
    assert_eq!(json_lines(&run).len(), LEVELS.len(), "{run:#?}");
}

/// A forced format that does not fit the file is an input error (exit code 1) naming
/// the file, never a plan.
#[test]
fn a_forced_format_that_does_not_fit_is_an_input_error() {
    let numeric = LEVELS[0].numeric;
    for (file, format) in [(numeric, "xsb"), (ICE, "numeric")] {
        let run = expect_code(&[file, "--format", format, "--optimize", "moves"], 1);
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(all.contains(file), "--format {format} {file}: {run:#?}");
        assert!(
            !all.contains("solved"),
            "--format {format} {file}: {run:#?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The larger boards of levels/ice/boards.xsb (8×8 to 12×12, 3 to 5 boxes)

/// The larger boards.
const BOARDS: &str = "levels/ice/boards.xsb";

/// The optima in the comment line before each board's title: "; optimal: M moves;
/// fewest pushes P; …", and whether breadth-first search proved them ("by astar" where
/// it needs too many states).
fn board_optima() -> Vec<(u64, u64, bool)> {
    let text = std::fs::read_to_string(BOARDS).unwrap();
    text.lines()
        .filter_map(|line| line.strip_prefix("; optimal: "))
        .map(|rest| {
            let numbers: Vec<u64> = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|w| w.parse().ok())
                .take(2)
                .collect();
            (numbers[0], numbers[1], !rest.contains("by astar"))
        })
        .collect()
}

/// Every board is solved move-optimally and push-optimally with the recorded optima,
/// its plans replay, and breadth-first search agrees wherever it finishes.
#[test]
fn the_larger_boards_are_solved_optimally() {
    let optima = board_optima();
    let levels = parse_xsb(BOARDS, &std::fs::read_to_string(BOARDS).unwrap()).unwrap();
    assert_eq!(levels.len(), optima.len());
    assert!(levels.len() >= 10);
    let by_moves = json_lines(&expect_code(&[BOARDS, "--optimize", "moves", "--json"], 0));
    let by_pushes = json_lines(&expect_code(&[BOARDS, "--json"], 0));
    for (i, ((level, &(moves, pushes, bfs)), (m, p))) in levels
        .iter()
        .zip(&optima)
        .zip(by_moves.iter().zip(&by_pushes))
        .enumerate()
    {
        // The grid is padded with one wall cell all round.
        let (h, w) = (level.height() - 2, level.width() - 2);
        assert!((8..=12).contains(&h) && (8..=12).contains(&w), "{h}x{w}");
        assert!((3..=5).contains(&level.box_cells().count()));
        assert_eq!(
            (str_field(m, "optimal"), u64_field(m, "moves")),
            ("moves", moves),
            "{m}"
        );
        assert_eq!(
            (str_field(p, "optimal"), u64_field(p, "pushes")),
            ("pushes", pushes),
            "{p}"
        );
        for v in [m, p] {
            assert_verifies(BOARDS, i as u64 + 1, str_field(v, "solution"));
        }
        if bfs {
            let m = moves as usize;
            assert_eq!(
                shortest_moves(level, m, 3_000_000),
                SearchResult::Optimal(m)
            );
            let p = pushes as usize;
            assert_eq!(
                shortest_pushes(level, p, 3_000_000),
                SearchResult::Optimal(p)
            );
        }
    }
}
