//! `satsoko bench --binairo ENGINES`: every puzzle of the files, solved and checked for
//! uniqueness by each engine in turn under the time limit, summarised per size and
//! engine (median and worst time).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use itertools::Itertools;
use serde::Serialize;

use super::args::{BenchArgs, BinairoEngine};
use super::bench::{in_parallel, median};
use super::binairo::answer;
use super::interrupt::on_ctrl_c;
use super::report::{EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK};
use super::say;
use crate::binairo::csp::no_trace;
use crate::binairo::grid::{Puzzle, parse};

/// One engine's result on one puzzle (a CSV row, or a JSON line).
#[derive(Clone, Debug, Serialize)]
struct Row {
    file: String,
    puzzle: usize,
    title: Option<String>,
    /// `RxC`.
    size: String,
    engine: &'static str,
    /// `unique`, `multiple`, `unsolvable`, `timeout` or `error`.
    status: &'static str,
    /// Solutions found (up to two: enough to tell unique from multiple).
    solutions: Option<usize>,
    seconds: f64,
    variables: Option<u64>,
    clauses: Option<u64>,
    message: Option<String>,
}

/// The engine's name as `--binairo` takes it.
fn name(engine: BinairoEngine) -> &'static str {
    match engine {
        BinairoEngine::Sat => "sat",
        BinairoEngine::Fc => "fc",
        BinairoEngine::Mac => "mac",
    }
}

/// Runs the Binairo bench and returns the exit code.
pub fn run(args: &BenchArgs) -> i32 {
    let timeout = args
        .timeout
        .expect("clap requires a timeout unless merging");
    let engines: Vec<BinairoEngine> = args.binairo.iter().copied().unique().collect();
    let mut code = EXIT_OK;
    // The selected puzzles (`--level` counts within each file), or the errors that took
    // their places, in file order.
    let mut puzzles: Vec<(String, usize, Result<Puzzle, String>)> = Vec::new();
    for path in &args.files {
        let file = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => puzzles.extend(
                (parse(&text).into_iter().enumerate())
                    .filter(|(n, _)| args.level.as_ref().is_none_or(|sel| sel.contains(n + 1)))
                    .map(|(n, p)| (file.clone(), n + 1, p.map_err(|e| format!("{file}: {e}")))),
            ),
            Err(e) => {
                eprintln!("error: cannot read {file}: {e}");
                code = EXIT_INPUT;
            }
        }
    }
    let puzzles: Vec<_> = (puzzles.into_iter().enumerate())
        .filter(|(n, _)| args.shard.is_none_or(|s| s.contains(*n)))
        .map(|(_, p)| p)
        .collect();

    let ctrl_c = on_ctrl_c();
    let rows: Vec<Row> = in_parallel(args.jobs, puzzles.len(), |i| {
        let (file, number, entry) = &puzzles[i];
        match entry {
            // After Ctrl-C the puzzles left are skipped.
            _ if ctrl_c.should_stop() => Vec::new(),
            Ok(p) => (engines.iter())
                .map(|&e| solve(file, p, e, args, timeout))
                .collect(),
            Err(message) => vec![error_row(file, *number, message)],
        }
    })
    .into_iter()
    .flatten()
    .collect();
    for r in rows.iter().filter(|r| r.status == "error") {
        eprintln!("error: {}", r.message.as_deref().unwrap_or("?"));
        code = EXIT_INPUT;
    }
    if let Some(p) = &args.csv {
        let written = csv::Writer::from_path(p)
            .map_err(|e| e.to_string())
            .and_then(|mut w| {
                for r in &rows {
                    w.serialize(r).map_err(|e| e.to_string())?;
                }
                w.flush().map_err(|e| e.to_string())
            });
        if let Err(e) = written {
            eprintln!("error: cannot write {}: {e}", p.display());
            return EXIT_INPUT;
        }
    }
    if let Some(p) = &args.json {
        let text: String = rows
            .iter()
            .map(|r| serde_json::to_string(r).expect("a row is always JSON") + "\n")
            .collect();
        if let Err(e) = std::fs::write(p, text) {
            eprintln!("error: cannot write {}: {e}", p.display());
            return EXIT_INPUT;
        }
    }
    say(&summary(&rows, &engines, timeout, args.jobs.max(1)));
    if ctrl_c.should_stop() {
        return EXIT_INTERRUPTED;
    }
    code
}

/// Solves puzzle `p` with `engine` under the time limit.
fn solve(file: &str, p: &Puzzle, engine: BinairoEngine, args: &BenchArgs, timeout: f64) -> Row {
    let started = Instant::now();
    let stop = on_ctrl_c().with_deadline(Some(started + Duration::from_secs_f64(timeout)));
    let result = answer(p, engine, args.engine.solver, 2, &stop, &mut no_trace);
    let seconds = started.elapsed().as_secs_f64();
    let mut row = Row {
        file: file.to_string(),
        puzzle: p.number,
        title: p.title.clone(),
        size: format!("{}x{}", p.rows, p.cols),
        engine: name(engine),
        status: "timeout",
        solutions: None,
        seconds: (seconds * 1000.0).round() / 1000.0,
        variables: None,
        clauses: None,
        message: None,
    };
    match result {
        Ok(Some(a)) => {
            row.status = a.verdict.name();
            row.solutions = Some(a.solutions.len());
            if engine == BinairoEngine::Sat {
                (row.variables, row.clauses) = (Some(a.variables), Some(a.clauses));
            }
        }
        Ok(None) => {}
        Err(e) => {
            row.status = "error";
            row.message = Some(format!("{file}: puzzle {}: {e}", p.number));
        }
    }
    row
}

fn error_row(file: &str, number: usize, message: &str) -> Row {
    Row {
        file: file.to_string(),
        puzzle: number,
        title: None,
        size: String::new(),
        engine: "-",
        status: "error",
        solutions: None,
        seconds: 0.0,
        variables: None,
        clauses: None,
        message: Some(message.to_string()),
    }
}

/// The summary: a line of totals, then per size and engine the verdicts and the median
/// and worst time of the puzzles answered.
fn summary(rows: &[Row], engines: &[BinairoEngine], timeout: f64, jobs: usize) -> String {
    let puzzles = rows.iter().map(|r| (&r.file, r.puzzle)).unique().count();
    let mut out = format!(
        "bench: {puzzles} Binairo puzzles, timeout {timeout} s, engines {}, jobs {jobs}\n",
        engines.iter().map(|&e| name(e)).join(", ")
    );
    // Sizes in order of area, then engines in the order asked.
    let mut groups: BTreeMap<(usize, String, usize), Vec<&Row>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.engine != "-") {
        let area = r
            .size
            .split('x')
            .map(|n| n.parse::<usize>().unwrap_or(0))
            .product();
        let order = engines.iter().position(|&e| name(e) == r.engine);
        groups
            .entry((area, r.size.clone(), order.unwrap_or(0)))
            .or_default()
            .push(r);
    }
    let _ = writeln!(
        out,
        "{:<8} {:<6} {:>7} {:>7} {:>8} {:>10} {:>7} {:>9} {:>9}",
        "size",
        "engine",
        "puzzles",
        "unique",
        "multiple",
        "unsolvable",
        "timeout",
        "median s",
        "worst s"
    );
    for ((_, size, _), group) in &groups {
        let count = |s: &str| group.iter().filter(|r| r.status == s).count();
        let answered: Vec<f64> = (group.iter())
            .filter(|r| r.status != "timeout" && r.status != "error")
            .map(|r| r.seconds)
            .collect();
        let (med, worst) = if answered.is_empty() {
            ("-".to_string(), "-".to_string())
        } else {
            let worst = answered.iter().copied().fold(0.0, f64::max);
            (format!("{:.3}", median(answered)), format!("{worst:.3}"))
        };
        let _ = writeln!(
            out,
            "{size:<8} {:<6} {:>7} {:>7} {:>8} {:>10} {:>7} {med:>9} {worst:>9}",
            group[0].engine,
            group.len(),
            count("unique"),
            count("multiple"),
            count("unsolvable"),
            count("timeout"),
        );
    }
    let errors = rows.iter().filter(|r| r.status == "error").count();
    if errors > 0 {
        let _ = writeln!(out, "errors: {errors}");
    }
    out.trim_end().to_string()
}
