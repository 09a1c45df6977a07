//! Binairo: the SAT route and the two CSP engines against brute force on random 6×6
//! clue sets (the oracle), the bundled puzzles, the command line (verdicts, JSON, exit
//! codes, errors with line and column), the traces of the CSP searches, the answers
//! file and generation.

mod common;

use common::Rng;
use common::cli::{expect_code, json_lines, str_field, u64_field};
use satsoko::binairo::brute::count_solutions;
use satsoko::binairo::csp::{
    Assigned, TraceEvent, forward_checking, maintained_arc_consistency, no_trace,
};
use satsoko::binairo::grid::{Puzzle, is_solution, parse};
use satsoko::binairo::solve::solve_sat;
use satsoko::engine::Stop;
use satsoko::sat::VarisatBackend;

/// Random 6×6 clue sets that break no rule (a parse checks), as text.
fn random_puzzles(seed: u64, count: usize) -> Vec<Puzzle> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let givens = 3 + rng.below(12);
        let mut cells = ['.'; 36];
        for _ in 0..givens {
            cells[rng.below(36)] = if rng.chance(50) { '1' } else { '0' };
        }
        let text: String = cells
            .chunks(6)
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect();
        if let Ok(p) = parse(&text).remove(0) {
            out.push(p);
        }
    }
    out
}

#[test]
fn sat_and_both_csp_engines_count_as_brute_force_does() {
    const CAP: usize = 30;
    let (mut unique, mut multiple, mut none) = (0, 0, 0);
    let never = Stop::never();
    for p in random_puzzles(50, 300) {
        let expected = count_solutions(&p, CAP);
        let sat = solve_sat(&p, Box::new(VarisatBackend::new()), CAP)
            .unwrap()
            .unwrap();
        assert_eq!(sat.solutions.len(), expected, "sat on {:?}", p.cells);
        assert_eq!(
            forward_checking(&p, CAP, &never, &mut no_trace)
                .unwrap()
                .len(),
            expected,
            "fc on {:?}",
            p.cells
        );
        assert_eq!(
            maintained_arc_consistency(&p, CAP, &never, &mut no_trace)
                .unwrap()
                .len(),
            expected,
            "mac on {:?}",
            p.cells
        );
        match expected {
            0 => none += 1,
            1 => unique += 1,
            _ => multiple += 1,
        }
    }
    eprintln!("300 random 6×6 clue sets: {unique} unique, {multiple} multiple, {none} unsolvable");
    assert!(unique > 0 && multiple > 0 && none > 0);
}

#[test]
fn the_bundled_puzzles_have_the_verdict_of_their_file() {
    for (file, status, code) in [
        ("levels/binairo/unique.txt", "unique", 0),
        ("levels/binairo/multiple.txt", "multiple", 0),
        ("levels/binairo/unsolvable.txt", "unsolvable", 3),
    ] {
        for engine in ["sat", "mac"] {
            let run = expect_code(&["binairo", file, "--json", "--engine", engine], code);
            let lines = json_lines(&run);
            assert!(lines.len() >= 4, "{run:?}");
            for v in &lines {
                assert_eq!(str_field(v, "status"), status, "{engine} {v}");
            }
        }
    }
    // The text run over every file ends with the tally.
    let files = [
        "levels/binairo/unique.txt",
        "levels/binairo/multiple.txt",
        "levels/binairo/unsolvable.txt",
    ];
    let run = expect_code(
        &[&["binairo"][..], &files, &["--engine", "mac"]].concat(),
        3,
    );
    let last = run.stdout.lines().last().unwrap();
    assert!(
        last.contains("unique") && last.contains("4 unsolvable") && last.contains("median"),
        "{last}"
    );
    // Sizes 6 to 20 among the unique ones.
    let text = std::fs::read_to_string("levels/binairo/unique.txt").unwrap();
    let sizes: Vec<usize> = parse(&text).into_iter().map(|p| p.unwrap().rows).collect();
    assert!(sizes.contains(&6) && sizes.contains(&20), "{sizes:?}");
}

#[test]
fn json_lines_and_several_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.txt");
    std::fs::write(&file, "; empty\n....\n....\n....\n....\n").unwrap();
    let f = file.to_str().unwrap();
    let v = &json_lines(&expect_code(&["binairo", f, "--json", "--count", "5"], 0))[0];
    assert_eq!(str_field(v, "status"), "multiple");
    assert_eq!(str_field(v, "title"), "empty");
    assert_eq!((u64_field(v, "puzzle"), u64_field(v, "solutions")), (1, 5));
    assert_eq!(v["grids"].as_array().unwrap().len(), 5);
    assert!(u64_field(v, "variables") > 16 && u64_field(v, "clauses") > 0);
    let text = expect_code(&["binairo", f], 0).stdout;
    assert!(text.contains("more than one solution"), "{text}");
}

#[test]
fn bad_grids_are_refused_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (text, line, column, what) in [
        ("10\n0x\n", 2, 2, "not a cell"),
        ("1010\n01\n", 2, 2, "cells"),
        ("101\n010\n", 1, 1, "even"),
        ("000.\n....\n....\n....\n", 1, 3, "three 0s"),
        ("1.11\n....\n....\n....\n", 1, 4, "more than 2 1s"),
        ("1010\n1010\n....\n....\n", 2, 1, "equals"),
    ] {
        let file = dir.path().join("bad.txt");
        std::fs::write(&file, format!("; ok\n10\n01\n\n{text}")).unwrap();
        let f = file.to_str().unwrap();
        let run = expect_code(&["binairo", f], 1);
        let want = format!("puzzle 2, line {}, column {column}", line + 4);
        assert!(
            run.stderr.contains(&want) && run.stderr.contains(what),
            "{text:?}: {run:?}"
        );
        // The good puzzle before it is still solved.
        assert!(run.stdout.contains("puzzle 1"), "{run:?}");
        let v = &json_lines(&expect_code(&["binairo", f, "--json"], 1))[1];
        assert_eq!(str_field(v, "status"), "error");
    }
    expect_code(&["binairo", "no-such-file.txt"], 1);
    expect_code(&["binairo", "--generate", "1", "--size", "5"], 2);
}

#[test]
fn generated_puzzles_are_unique_and_have_no_redundant_given() {
    let run = expect_code(
        &["binairo", "--generate", "3", "--size", "6", "--seed", "9"],
        0,
    );
    let puzzles: Vec<Puzzle> = parse(&run.stdout).into_iter().map(|p| p.unwrap()).collect();
    assert_eq!(puzzles.len(), 3);
    for p in &puzzles {
        assert_eq!(count_solutions(p, 5), 1);
        for i in (0..36).filter(|&i| p.cells[i].is_some()) {
            let mut fewer = p.clone();
            fewer.cells[i] = None;
            assert!(count_solutions(&fewer, 5) > 1);
        }
    }
    // The same seed gives the same puzzles.
    let again = expect_code(
        &["binairo", "--generate", "3", "--size", "6", "--seed", "9"],
        0,
    );
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("made in"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&run.stdout), strip(&again.stdout));
}

/// `--encode DIR` writes each puzzle's formula as DIMACS with named variables; solved
/// as it is, a unique puzzle's formula gives its solution in the cell variables.
#[test]
fn the_formula_is_written_as_dimacs() {
    use satsoko::sat::{ClauseSink, Lit, SatBackend, SolveResult};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    expect_code(
        &["binairo", "levels/binairo/unique.txt", "--encode", out],
        0,
    );
    let run = expect_code(&["binairo", "levels/binairo/unique.txt", "--json"], 0);
    let first = &json_lines(&run)[0];
    let text = std::fs::read_to_string(dir.path().join("unique-1.cnf")).unwrap();
    assert!(text.contains("c var 1 one r1c1"));
    let clauses = satsoko::cert::check::parse_cnf(&text).unwrap();
    let mut solver = VarisatBackend::new();
    let vars = clauses.variables();
    let lits: Vec<Lit> = (0..vars).map(|_| solver.new_var()).collect();
    for clause in clauses.clauses() {
        let c: Vec<Lit> = clause
            .iter()
            .map(|&l| {
                if l > 0 {
                    lits[l as usize - 1]
                } else {
                    !lits[(-l) as usize - 1]
                }
            })
            .collect();
        solver.add_clause(&c);
    }
    assert_eq!(solver.solve(&[]), SolveResult::Sat);
    let rows: Vec<String> = (0..6)
        .map(|r| {
            (0..6)
                .map(|c| {
                    if solver.value(lits[r * 6 + c]) {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect()
        })
        .collect();
    assert_eq!(serde_json::json!(rows), first["solution"]);
}

#[test]
fn encode_writes_the_same_formula_as_binairo_encode() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    expect_code(
        &["binairo", "levels/binairo/unique.txt", "--encode", out],
        0,
    );
    let cnf = dir.path().join("two.cnf");
    let file = "levels/binairo/unique.txt";
    let args = ["encode", "--binairo", file, "--level", "2", "-o"];
    expect_code(&[&args[..], &[cnf.to_str().unwrap()]].concat(), 0);
    assert_eq!(
        std::fs::read_to_string(&cnf).unwrap(),
        std::fs::read_to_string(dir.path().join("unique-2.cnf")).unwrap()
    );
    let run = expect_code(&["encode", "--binairo", file, "--level", "99"], 1);
    assert!(
        run.stderr.contains("there is no puzzle 99"),
        "{}",
        run.stderr
    );
    let run = expect_code(&["encode", "--binairo", "levels/malformed/no_box.xsb"], 1);
    assert!(run.stderr.contains("no_box.xsb"), "{}", run.stderr);
}

#[test]
fn bench_runs_the_three_engines_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("b.csv");
    let run = expect_code(
        &[
            "bench",
            "--binairo",
            "sat,fc,mac",
            "--timeout",
            "10",
            "--level",
            "1-3",
            "levels/binairo/unique.txt",
            "levels/binairo/unsolvable.txt",
            "--csv",
            csv.to_str().unwrap(),
        ],
        0,
    );
    assert!(
        run.stdout
            .starts_with("bench: 6 Binairo puzzles, timeout 10 s, engines sat, fc, mac"),
        "{}",
        run.stdout
    );
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 18, "three puzzles of each file, three engines");
    // Every engine gives each puzzle the same verdict, the one its file names.
    for chunk in rows.chunks(3) {
        let verdicts: Vec<&str> = chunk.iter().map(|r| &r[5]).collect();
        assert!(verdicts.iter().all(|v| *v == verdicts[0]), "{chunk:?}");
        let file = &chunk[0][0];
        assert!(file.contains(verdicts[0]), "{chunk:?}");
        let engines: Vec<&str> = chunk.iter().map(|r| &r[4]).collect();
        assert_eq!(engines, ["sat", "fc", "mac"]);
    }
    // A time limit that has passed: every engine reports a timeout, none an answer.
    let run = expect_code(
        &[
            "bench",
            "--binairo",
            "fc",
            "--timeout",
            "0",
            "levels/binairo/unique.txt",
            "--level",
            "1",
        ],
        0,
    );
    assert!(run.stdout.contains("timeout"), "{}", run.stdout);
    expect_code(&["bench", "--binairo", "dfs", "--timeout", "1", "x"], 2);
}

#[test]
fn a_time_limit_per_puzzle_ends_with_a_timeout() {
    let run = expect_code(
        &[
            "binairo",
            "--engine",
            "fc",
            "--timeout",
            "0",
            "levels/binairo/unique.txt",
            "--json",
        ],
        5,
    );
    let lines = json_lines(&run);
    assert!(lines.iter().all(|l| str_field(l, "status") == "timeout"));
}

/// The first puzzle of `file`.
fn first_puzzle(file: &str) -> Puzzle {
    parse(&std::fs::read_to_string(file).unwrap())
        .remove(0)
        .unwrap()
}

/// A CSP search's trace replayed on the grid: the values in force, level by level
/// (level 0 the givens and what they force). Each value set must fall on a cell
/// nothing in force holds yet; the grids in force at the solutions are returned.
fn replay(p: &Puzzle, trace: &[TraceEvent]) -> Vec<Vec<bool>> {
    let mut levels: Vec<Vec<Option<bool>>> = vec![p.cells.clone()];
    let mut solutions = Vec::new();
    for e in trace {
        let set = |levels: &mut Vec<Vec<Option<bool>>>, a: &Assigned| {
            let cells: Vec<(usize, bool)> = match a {
                Assigned::Cell { row, col, value } => vec![(row * p.cols + col, *value)],
                Assigned::Row { row, pattern } => (pattern.iter().enumerate())
                    .map(|(c, &v)| (row * p.cols + c, v))
                    .collect(),
                Assigned::Column { col, pattern } => (pattern.iter().enumerate())
                    .map(|(r, &v)| (r * p.cols + col, v))
                    .collect(),
            };
            let grid = levels.last_mut().unwrap();
            for (i, v) in cells {
                assert!(
                    grid[i].is_none_or(|old| old == v),
                    "{e:?} contradicts a cell"
                );
                grid[i] = Some(v);
            }
        };
        match e {
            TraceEvent::Decision { depth, assigned } => {
                assert!(*depth >= 1 && *depth <= levels.len(), "{e:?}");
                levels.truncate(*depth);
                levels.push(levels[depth - 1].clone());
                set(&mut levels, assigned);
            }
            TraceEvent::Forced { depth, assigned } => {
                assert_eq!(*depth, levels.len() - 1, "{e:?}");
                set(&mut levels, assigned);
            }
            // Depth 0: the givens and what they force break a rule; nothing follows.
            TraceEvent::Backtrack { depth } => {
                assert!(*depth < levels.len(), "{e:?}");
                levels.truncate(*depth);
            }
            TraceEvent::Solution => {
                let grid: Option<Vec<bool>> = levels.last().unwrap().iter().copied().collect();
                solutions.push(grid.expect("a solution fills every cell"));
            }
        }
    }
    solutions
}

#[test]
fn the_traces_replay_to_the_solutions_the_searches_report() {
    let never = Stop::never();
    for p in random_puzzles(51, 150) {
        let mut fc = Vec::new();
        let found = forward_checking(&p, 30, &never, &mut |e| fc.push(e)).unwrap();
        assert_eq!(replay(&p, &fc), found, "fc on {:?}", p.cells);
        let mut mac = Vec::new();
        let found = maintained_arc_consistency(&p, 30, &never, &mut |e| mac.push(e));
        assert_eq!(replay(&p, &mac), found.unwrap(), "mac on {:?}", p.cells);
    }
}

#[test]
fn forward_checking_propagates_the_givens_then_branches_on_the_first_open_cell() {
    let p = first_puzzle("levels/binairo/unique.txt");
    let mut trace = Vec::new();
    let found = forward_checking(&p, 2, &Stop::never(), &mut |e| trace.push(e)).unwrap();
    assert_eq!(found.len(), 1);
    assert!(is_solution(&p, &found[0]));
    let cell = |row, col, value| Assigned::Cell { row, col, value };
    let forced = |row, col, value| TraceEvent::Forced {
        depth: 0,
        assigned: cell(row, col, value),
    };
    // The givens force four zeros; the first open cell then is the top left one, and 0
    // is tried first.
    assert_eq!(
        trace[..6],
        [
            forced(2, 5, false),
            forced(3, 1, false),
            forced(2, 0, false),
            forced(5, 0, false),
            TraceEvent::Decision {
                depth: 1,
                assigned: cell(0, 0, false)
            },
            TraceEvent::Forced {
                depth: 1,
                assigned: cell(0, 2, true)
            },
        ]
    );
    let count = |f: fn(&TraceEvent) -> bool| trace.iter().filter(|e| f(e)).count();
    assert_eq!(count(|e| matches!(e, TraceEvent::Decision { .. })), 54);
    assert_eq!(count(|e| matches!(e, TraceEvent::Backtrack { .. })), 27);
    assert_eq!(count(|e| *e == TraceEvent::Solution), 1);
    // Every decision is the first open cell in row-major order.
    let mut open: Vec<Vec<bool>> = vec![p.cells.iter().map(Option::is_none).collect()];
    for e in &trace {
        match e {
            TraceEvent::Decision {
                depth,
                assigned: Assigned::Cell { row, col, .. },
            } => {
                open.truncate(*depth);
                let now = open.last().unwrap().clone();
                assert_eq!(
                    now.iter().position(|&o| o),
                    Some(row * p.cols + col),
                    "{e:?}"
                );
                open.push(now);
                open.last_mut().unwrap()[row * p.cols + col] = false;
            }
            TraceEvent::Forced {
                assigned: Assigned::Cell { row, col, .. },
                ..
            } => {
                open.last_mut().unwrap()[row * p.cols + col] = false;
            }
            TraceEvent::Backtrack { depth } => open.truncate(*depth),
            _ => {}
        }
    }
}

#[test]
fn trace_prints_the_search_up_to_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.txt");
    let text = std::fs::read_to_string("levels/binairo/unique.txt").unwrap();
    let first: String = text.split("\n\n").nth(1).unwrap().to_string() + "\n";
    std::fs::write(&file, &first).unwrap();
    let f = file.to_str().unwrap();
    let args = [
        "binairo",
        f,
        "--engine",
        "fc",
        "--trace",
        "--trace-limit",
        "3",
    ];
    let run = expect_code(&args, 0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let header = format!("{f} puzzle 1: the search, step by step");
    assert_eq!(
        lines[..6],
        [
            &header[..],
            "  depth 0: forced r3c6 = 0",
            "  depth 0: forced r4c2 = 0",
            "  depth 0: forced r3c1 = 0",
            "  … 363 more events left out (the first 3 are shown; --trace-limit sets how many)",
            "  search: 54 decisions, 284 forced, 27 backtracks, 1 solution",
        ],
        "{run:?}"
    );
    assert!(
        lines[6].starts_with(&format!("{f} puzzle 1 (seed 11 #1")),
        "{run:?}"
    );
    // mac traces whole lines.
    let run = expect_code(&["binairo", f, "--engine", "mac", "--trace"], 0);
    assert!(run.stdout.contains("depth 1: decide "), "{run:?}");
    assert!(
        run.stdout.contains(" = 0") && run.stdout.contains("row "),
        "{run:?}"
    );
    assert!(run.stdout.contains("  search: "), "{run:?}");
    // The SAT engine has no search to show; a JSON line has no room for one.
    let run = expect_code(&["binairo", f, "--trace"], 2);
    assert!(
        run.stderr.contains("--engine fc or --engine mac"),
        "{run:?}"
    );
    assert_eq!(run.stdout, "");
    let run = expect_code(&["binairo", f, "--engine", "fc", "--trace", "--json"], 2);
    assert!(run.stderr.contains("--json"), "{run:?}");
    expect_code(&["binairo", f, "--trace-limit", "3"], 2);
}

#[test]
fn output_writes_the_solutions_as_grids() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("answers.txt");
    let o = out.to_str().unwrap();
    let files = [
        "levels/binairo/multiple.txt",
        "levels/binairo/unsolvable.txt",
    ];
    let run = expect_code(
        &[
            &["binairo", "-o", o, "--count", "2"][..],
            &files,
            &["--json"],
        ]
        .concat(),
        3,
    );
    let text = std::fs::read_to_string(&out).unwrap();
    // One grid per solution printed, in order, each titled by its puzzle; a puzzle with
    // none is a comment.
    let printed: Vec<Vec<String>> = json_lines(&run)
        .iter()
        .flat_map(|v| v["grids"].as_array().cloned().unwrap_or_default())
        .map(|g| serde_json::from_value(g).unwrap())
        .collect();
    let written: Vec<Puzzle> = parse(&text).into_iter().map(Result::unwrap).collect();
    assert_eq!(written.len(), printed.len());
    assert!(!written.is_empty());
    for (grid, rows) in written.iter().zip(&printed) {
        let cells: Vec<bool> = grid.cells.iter().map(|c| c.unwrap()).collect();
        assert!(is_solution(grid, &cells));
        let back: Vec<String> = cells
            .chunks(grid.cols)
            .map(|r| r.iter().map(|&v| if v { '1' } else { '0' }).collect())
            .collect();
        assert_eq!(&back, rows);
    }
    let title = written[1].title.as_deref().unwrap();
    assert!(
        title.starts_with("levels/binairo/multiple.txt puzzle 1"),
        "{title}"
    );
    assert!(
        title.ends_with("more than one solution; solution 2 of 2 written"),
        "{title}"
    );
    assert!(
        text.contains(
            "; levels/binairo/unsolvable.txt puzzle 1 (unsolvable 1 (6x6)): no solution\n"
        ),
        "{text}"
    );
    // The file read back: every grid is a puzzle with all its cells given.
    let run = expect_code(&["binairo", o, "--engine", "mac"], 0);
    assert!(
        run.stdout
            .lines()
            .last()
            .unwrap()
            .contains(&format!("{} unique", written.len()))
    );
    // A path that cannot be written is an input error naming it, before any solving.
    let bad = dir.path().join("no/such/dir/answers.txt");
    let b = bad.to_str().unwrap();
    let run = expect_code(&["binairo", files[0], "-o", b], 1);
    assert!(run.stderr.contains(&format!("cannot write {b}")), "{run:?}");
    assert_eq!(run.stdout, "");
    expect_code(&["binairo", "--generate", "1", "--output", o], 2);
}
