//! `satsoko bench`: every selected level in its own process, stopped at the limit, with
//! a progress bar, a summary, CSV/JSON output and a comparison with an earlier run.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use itertools::Itertools;
use serde::{Deserialize, Serialize};

use super::args::{BenchArgs, FormatArg};
use super::bench_progress::BenchProgress;
use super::config::{Purpose, SolveConfig};
use super::input::selected_levels;
use super::report::{EXIT_INPUT, EXIT_OK, ErrorKind, LevelReport, Status, StopKind, plural};
use super::say;
use super::worker::solve_in_child;
use crate::game::Metric;

/// Runs `bench` and returns the exit code.
pub fn run(args: &BenchArgs, format: Option<FormatArg>) -> i32 {
    if args.merge {
        return match merged_reports(&args.files) {
            Ok(reports) => {
                let context = format!("merged from {}", plural(args.files.len() as u64, "file"));
                finish(args, &reports, |engines, solvers| {
                    format!("{context}, engine {engines}, solver {solvers}")
                })
            }
            Err(e) => {
                eprintln!("error: {e}");
                EXIT_INPUT
            }
        };
    }
    if !args.binairo.is_empty() {
        return super::bench_binairo::run(args);
    }
    let purpose = Purpose::Solve;
    let config =
        match SolveConfig::or_usage(&args.engine, args.max_steps, args.timeout, format, purpose) {
            Ok(config) => config,
            Err(code) => return code,
        };
    let mut jobs = selected_levels(&args.files, args.level.as_ref(), config.format);
    if let Some(shard) = args.shard {
        jobs = (jobs.into_iter().enumerate())
            .filter(|(n, _)| shard.contains(*n))
            .map(|(_, job)| job)
            .collect();
    }

    let timeout = args
        .timeout
        .expect("clap requires a timeout unless merging");
    // What runs, before the bar: the summary at the end says it again with the engines
    // the levels actually ran with.
    eprintln!(
        "running {}, {timeout} s each, {} at a time, engine {}",
        plural(jobs.len() as u64, "level"),
        args.jobs.max(1),
        config.engine.name()
    );
    // Levels that share cores run slower than alone, and their times say so.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = args.jobs.max(1) * config.engine.cores(&config.request.tuning);
    if wanted > cores {
        eprintln!(
            "note: {} at a time of an engine that keeps {} busy want {wanted} cores; this \
             machine has {cores}, so each level runs slower than alone (--jobs {} avoids it)",
            args.jobs.max(1),
            plural(config.engine.cores(&config.request.tuning) as u64, "core"),
            (cores / config.engine.cores(&config.request.tuning)).max(1)
        );
    }
    let progress = BenchProgress::new(jobs.len());
    let reports: Vec<LevelReport> = in_parallel(args.jobs, jobs.len(), |i| {
        let (name, path, entry) = &jobs[i];
        // A level that could not be read is reported at once, without running.
        let running = entry.as_ref().ok().map(|l| format!("level {}", l.number));
        if let Some(name) = &running {
            progress.start(name.clone());
        }
        let report = match entry {
            Err(e) => {
                let (kind, msg) = (ErrorKind::Input, e.to_string());
                LevelReport::error(name, e.level, None, kind, msg)
            }
            Ok(level) => solve_in_child(path, level, &config),
        };
        progress.done(running.as_deref(), report.status == Status::Solved);
        report
    });
    progress.finish();
    // The encodings the levels ran with (`unroll` picks one by its solver when none is
    // named), else the one named, else the metric.
    let used = distinct(&reports, |r| r.encoding.as_deref());
    let encoding = if used.is_empty() {
        config
            .request
            .encoding
            .map_or(config.request.metric.name(), |e| e.name())
            .to_string()
    } else {
        used
    };
    let shard = args.shard.map_or(String::new(), |s| {
        format!(", shard {}/{}", s.index, s.count)
    });
    finish(args, &reports, |engines, solvers| {
        format!(
            "timeout {timeout} s, engine {engines}, encoding {encoding}, solver {solvers}, \
             jobs {}{shard}",
            args.jobs.max(1)
        )
    })
}

/// Runs `work(0)`, …, `work(count - 1)` on `jobs` threads, each taking the next index
/// when it is free, and returns the results in index order.
pub(super) fn in_parallel<T: Send>(
    jobs: usize,
    count: usize,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().expect("no poisoned lock");
                        *n += 1;
                        *n - 1
                    };
                    if i >= count {
                        break;
                    }
                    let result = work(i);
                    results.lock().expect("no poisoned lock").push((i, result));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("no poisoned lock");
    results.sort_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Writes the CSV and JSON asked for, prints the summary (its first line completed by
/// `context(engines, solvers)`) and the comparison, and returns the exit code.
fn finish(
    args: &BenchArgs,
    reports: &[LevelReport],
    context: impl Fn(&str, &str) -> String,
) -> i32 {
    let old = match &args.compare {
        Some(p) => match read_csv(p) {
            Ok(rows) => Some(rows),
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return EXIT_INPUT;
            }
        },
        None => None,
    };
    let ratios = old.as_ref().map(|old| ratios(old, reports));
    if let Some(p) = &args.csv
        && let Err(e) = write_csv(p, reports, ratios.as_ref())
    {
        eprintln!("error: cannot write {}: {e}", p.display());
        return EXIT_INPUT;
    }
    if let Some(p) = &args.json {
        let text: String = reports.iter().map(|r| r.to_json() + "\n").collect();
        if let Err(e) = std::fs::write(p, text) {
            eprintln!("error: cannot write {}: {e}", p.display());
            return EXIT_INPUT;
        }
    }
    say(&summary(reports, context));
    if let (Some(old), Some(ratios)) = (&old, &ratios) {
        say(&comparison(old, reports, ratios));
    }
    if reports.iter().any(LevelReport::is_input_error) {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}

/// The reports of earlier runs, from their `--json` (JSON lines) or `--csv` files, in
/// collection order; a level reported twice is an error naming both places.
fn merged_reports(files: &[PathBuf]) -> Result<Vec<LevelReport>, String> {
    let mut reports = Vec::new();
    let mut seen: HashMap<Key, String> = HashMap::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        let found: Vec<(String, LevelReport)> = if text.trim_start().starts_with('{') {
            let mut found = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let report = LevelReport::from_json(line).ok_or_else(|| {
                    format!(
                        "{name}:{}: not a report of `satsoko bench --json` (one JSON \
                         object per line)",
                        i + 1
                    )
                })?;
                found.push((format!("{name}:{}", i + 1), report));
            }
            found
        } else {
            read_csv_reports(path).map_err(|e| format!("{name}: {e}"))?
        };
        for (place, report) in found {
            if let Some(before) = seen.insert(key(&report), place.clone()) {
                return Err(format!(
                    "{} level {} is reported twice, at {before} and at {place}: were two \
                     shards given the same slice?",
                    report.file,
                    report.level.unwrap_or(0)
                ));
            }
            reports.push(report);
        }
    }
    // Back into collection order: files as first met, levels by number.
    let mut files: HashMap<String, usize> = HashMap::new();
    for r in &reports {
        let next = files.len();
        files.entry(r.file.clone()).or_insert(next);
    }
    reports.sort_by_key(|r| (files[&r.file], r.level));
    Ok(reports)
}

/// The median of a non-empty list.
pub(super) fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The distinct values of a field of the reports, sorted and joined with `+` (empty
/// when no report has one).
fn distinct<'a>(
    reports: &'a [LevelReport],
    field: impl Fn(&'a LevelReport) -> Option<&'a str>,
) -> String {
    reports
        .iter()
        .filter_map(field)
        .sorted_unstable()
        .dedup()
        .join("+")
}

fn summary(reports: &[LevelReport], context: impl Fn(&str, &str) -> String) -> String {
    let count = |s: Status| reports.iter().filter(|r| r.status == s).count();
    let solved: Vec<&LevelReport> = reports
        .iter()
        .filter(|r| r.status == Status::Solved)
        .collect();
    // The engines the levels actually ran with (`auto` picks per level).
    let engines = distinct(reports, |r| r.engine.as_deref());
    let solvers = distinct(reports, |r| r.solver.as_deref());
    let mut out = format!(
        "bench: {}, {}\n",
        plural(reports.len() as u64, "level"),
        context(
            if engines.is_empty() { "-" } else { &engines },
            if solvers.is_empty() { "none" } else { &solvers },
        )
    );
    let proved = solved
        .iter()
        .filter(|r| r.optimal.flatten().is_some())
        .count();
    let _ = writeln!(
        out,
        "solved {} (proved optimal {proved}), unsolvable {}, no-plan {}, timeout {}{}, error {}",
        solved.len(),
        count(Status::Unsolvable),
        count(Status::NoPlan),
        count(Status::Timeout),
        stops_short_of_time(reports),
        count(Status::Error)
    );
    if !solved.is_empty() {
        let times: Vec<f64> = solved.iter().map(|r| r.seconds).collect();
        let optimal = solved
            .iter()
            .map(|r| r.optimal.flatten().map_or("none", |m| m.name()))
            .counts()
            .into_iter()
            .map(|(m, n)| format!("{m} {n}"))
            .sorted()
            .join(", ");
        let firsts: Vec<f64> = solved.iter().filter_map(|r| r.first_seconds).collect();
        let first = if firsts.is_empty() {
            String::new()
        } else {
            format!("; first plan: median {:.3} s", median(firsts))
        };
        let _ = writeln!(
            out,
            "solved levels: median {:.3} s, total {:.1} s{first}; moves {}, pushes {}; \
             optimal: {optimal}",
            median(times.clone()),
            times.iter().sum::<f64>(),
            solved.iter().filter_map(|r| r.moves).sum::<usize>(),
            solved.iter().filter_map(|r| r.pushes).sum::<usize>(),
        );
    }
    if let Some(line) = bound_gaps(&solved) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(peak) = reports.iter().filter_map(|r| r.peak_mib).max() {
        let _ = writeln!(out, "peak memory of a level: {peak} MiB");
    }
    out.trim_end().to_string()
}

/// The timeouts that something other than the clock ended, as " (3 at a memory limit,
/// 1 gave up)"; empty when the clock ended them all (or the reports do not say).
fn stops_short_of_time(reports: &[LevelReport]) -> String {
    let count = |kind: StopKind| reports.iter().filter(|r| r.stop == Some(kind)).count();
    let parts: Vec<String> = [
        (count(StopKind::Memory), "at a memory limit"),
        (count(StopKind::GaveUp), "gave up"),
    ]
    .into_iter()
    .filter(|&(n, _)| n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// How close the solved levels' plans are to their proven bounds: how many are within
/// 1% and within 5% (a plan proved optimal is within both) and the median gap, over the
/// levels that have a bound; `None` when none has.
fn bound_gaps(solved: &[&LevelReport]) -> Option<String> {
    let gaps: Vec<f64> = solved.iter().filter_map(|r| r.bound_gap()).collect();
    if gaps.is_empty() {
        return None;
    }
    let within = |percent: f64| gaps.iter().filter(|&&g| g <= percent).count();
    let (one, five) = (within(1.0), within(5.0));
    let levels = plural(gaps.len() as u64, "solved level");
    Some(format!(
        "bound gap of the {levels} with a bound: within 1% {one}, within 5% {five}, median \
         {:.1}%",
        median(gaps)
    ))
}

/// One row of an earlier run, as read back from its CSV (other columns are ignored).
#[derive(Deserialize)]
struct OldRow {
    file: String,
    level: usize,
    status: String,
    seconds: f64,
}

type Key = (String, usize);

fn key(r: &LevelReport) -> Key {
    (r.file.clone(), r.level.unwrap_or(0))
}

/// Old time / new time, for levels solved in both runs.
fn ratios(old: &HashMap<Key, OldRow>, reports: &[LevelReport]) -> HashMap<Key, f64> {
    reports
        .iter()
        .filter(|r| r.status == Status::Solved)
        .filter_map(|r| {
            let o = old.get(&key(r)).filter(|o| o.status == "solved")?;
            Some((key(r), o.seconds.max(1e-3) / r.seconds.max(1e-3)))
        })
        .collect()
}

fn comparison(
    old: &HashMap<Key, OldRow>,
    reports: &[LevelReport],
    ratios: &HashMap<Key, f64>,
) -> String {
    let solved_old = |r: &LevelReport| old.get(&key(r)).is_some_and(|o| o.status == "solved");
    let solved_new = |r: &&LevelReport| r.status == Status::Solved;
    let gained = reports
        .iter()
        .filter(|r| solved_new(r) && !solved_old(r))
        .count();
    let lost = reports
        .iter()
        .filter(|r| !solved_new(r) && solved_old(r))
        .count();
    let (geo, med) = if ratios.is_empty() {
        (f64::NAN, f64::NAN)
    } else {
        let logs: f64 = ratios.values().map(|x| x.ln()).sum();
        let geo = (logs / ratios.len() as f64).exp();
        (geo, median(ratios.values().copied().collect()))
    };
    format!(
        "compared with the old run: both solved {}, gained {gained}, lost {lost}; \
         speed-up (old time / new time) geometric mean {geo:.2}x, median {med:.2}x",
        ratios.len()
    )
}

/// One row of the CSV.
#[derive(Serialize)]
struct CsvRow<'a> {
    file: &'a str,
    level: Option<usize>,
    title: Option<&'a str>,
    status: &'static str,
    moves: Option<usize>,
    pushes: Option<usize>,
    optimal: Option<&'static str>,
    lower_bound: Option<usize>,
    gap_percent: Option<f64>,
    first_seconds: Option<String>,
    k: Option<usize>,
    encoding: Option<&'a str>,
    solver: Option<&'a str>,
    seconds: String,
    variables: Option<u64>,
    clauses: Option<u64>,
    engine: Option<&'a str>,
    found_by: Option<&'a str>,
    peak_mib: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speedup: Option<String>,
}

fn write_csv(
    path: &Path,
    reports: &[LevelReport],
    ratios: Option<&HashMap<Key, f64>>,
) -> Result<(), String> {
    let mut w = csv::Writer::from_path(path).map_err(|e| e.to_string())?;
    if reports.is_empty() {
        // No row to take the header from.
        let mut header = vec![
            "file",
            "level",
            "title",
            "status",
            "moves",
            "pushes",
            "optimal",
            "lower_bound",
            "gap_percent",
            "first_seconds",
            "k",
            "encoding",
            "solver",
            "seconds",
            "variables",
            "clauses",
            "engine",
            "found_by",
            "peak_mib",
        ];
        header.extend(ratios.map(|_| "speedup"));
        w.write_record(header).map_err(|e| e.to_string())?;
    }
    for r in reports {
        let ratio =
            ratios.map(|ratios| (ratios.get(&key(r))).map_or(String::new(), |x| format!("{x:.3}")));
        let row = CsvRow {
            file: &r.file,
            level: r.level,
            title: r.title.as_deref(),
            status: r.status.name(),
            moves: r.moves,
            pushes: r.pushes,
            optimal: r.optimal.flatten().map(|m| m.name()),
            lower_bound: r.lower_bound,
            gap_percent: r.gap_percent,
            first_seconds: r.first_seconds.map(|x| format!("{x:.3}")),
            k: r.k,
            encoding: r.encoding.as_deref(),
            solver: r.solver.as_deref(),
            seconds: format!("{:.3}", r.seconds),
            variables: r.variables,
            clauses: r.clauses,
            engine: r.engine.as_deref(),
            found_by: r.found_by.as_deref(),
            peak_mib: r.peak_mib,
            speedup: ratio,
        };
        w.serialize(row).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())
}

/// A row of `bench --csv` read back whole (for `--merge`).
#[derive(Deserialize)]
struct FullRow {
    file: String,
    level: Option<usize>,
    title: Option<String>,
    status: Status,
    moves: Option<usize>,
    pushes: Option<usize>,
    optimal: Option<Metric>,
    lower_bound: Option<usize>,
    /// Absent from the CSV files of versions before the column.
    #[serde(default)]
    gap_percent: Option<f64>,
    first_seconds: Option<f64>,
    k: Option<usize>,
    encoding: Option<String>,
    solver: Option<String>,
    seconds: f64,
    variables: Option<u64>,
    clauses: Option<u64>,
    engine: Option<String>,
    found_by: Option<String>,
    peak_mib: Option<u64>,
}

/// The reports of a `bench --csv` file, each with its place (`file:row`). The CSV has
/// no solutions and no counters; a JSON-lines file keeps everything.
fn read_csv_reports(path: &Path) -> Result<Vec<(String, LevelReport)>, String> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| e.to_string())?;
    let mut reports = Vec::new();
    for (i, row) in reader.deserialize::<FullRow>().enumerate() {
        let row: FullRow = row.map_err(|e| {
            format!(
                "row {}: {e} (is this a `satsoko bench --csv` or `--json` file?)",
                i + 2
            )
        })?;
        let mut r = LevelReport::new(&row.file, row.level, row.title, row.status);
        r.moves = row.moves;
        r.pushes = row.pushes;
        r.optimal = (row.status == Status::Solved).then_some(row.optimal);
        r.lower_bound = row.lower_bound;
        r.gap_percent = row.gap_percent;
        r.first_seconds = row.first_seconds;
        r.k = row.k;
        r.encoding = row.encoding;
        r.solver = row.solver;
        r.seconds = row.seconds;
        r.variables = row.variables;
        r.clauses = row.clauses;
        r.engine = row.engine;
        r.found_by = row.found_by;
        r.peak_mib = row.peak_mib;
        reports.push((format!("{}:{}", path.display(), i + 2), r));
    }
    Ok(reports)
}

fn read_csv(path: &Path) -> Result<HashMap<Key, OldRow>, String> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| e.to_string())?;
    let mut rows = HashMap::new();
    for (i, row) in reader.deserialize::<OldRow>().enumerate() {
        let row =
            row.map_err(|e| format!("row {}: {e} (is this a `satsoko bench --csv` file?)", i + 2))?;
        rows.insert((row.file.clone(), row.level), row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_csv_round_trip() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.csv");
        let mut r = LevelReport::new("a,b \"x\".xsb", Some(2), Some("T".into()), Status::Solved);
        r.seconds = 0.25;
        write_csv(&path, &[r], None).unwrap();
        let back = read_csv(&path).unwrap();
        let row = &back[&("a,b \"x\".xsb".to_string(), 2)];
        assert_eq!((row.status.as_str(), row.seconds), ("solved", 0.25));
    }

    /// A solved report of `pushes` pushes with a proven `bound`.
    fn solved(level: usize, pushes: usize, bound: Option<usize>) -> LevelReport {
        let mut r = LevelReport::new("c.xsb", Some(level), None, Status::Solved);
        (r.moves, r.pushes, r.lower_bound) = (Some(pushes * 3), Some(pushes), bound);
        r.optimal = Some((bound == Some(pushes)).then_some(Metric::Pushes));
        r.gap_percent = bound.map(|b| super::super::report::gap_percent(pushes, b));
        r
    }

    #[test]
    fn the_summary_counts_the_levels_near_their_bound() {
        let mut old_optimal = solved(4, 50, Some(50));
        old_optimal.gap_percent = None; // a report from before the field: optimal is 0
        let reports = [
            solved(1, 100, Some(100)), // optimal: 0%
            solved(2, 100, Some(99)),  // 1.0%
            solved(3, 100, Some(96)),  // 4.0%
            old_optimal,
            solved(5, 100, Some(80)), // 20.0%
            solved(6, 100, None),     // no bound: not counted
            LevelReport::new("c.xsb", Some(7), None, Status::Timeout),
        ];
        let text = summary(&reports, |_, _| String::new());
        assert!(
            text.contains(
                "bound gap of the 5 solved levels with a bound: within 1% 3, within 5% 4, \
                 median 1.0%"
            ),
            "{text}"
        );
        let unbounded = [solved(1, 10, None)];
        assert!(!summary(&unbounded, |_, _| String::new()).contains("bound gap"));
    }

    #[test]
    fn the_summary_says_which_timeouts_the_clock_did_not_end() {
        let stopped = |level, stop| {
            let mut r = LevelReport::new("c.xsb", Some(level), None, Status::Timeout);
            r.stop = stop;
            r
        };
        let reports = [
            stopped(1, Some(StopKind::Time)),
            stopped(2, Some(StopKind::Memory)),
            stopped(3, Some(StopKind::Memory)),
            stopped(4, Some(StopKind::GaveUp)),
            stopped(5, None), // a report read back from a CSV
        ];
        let text = summary(&reports, |_, _| String::new());
        assert!(
            text.contains("timeout 5 (2 at a memory limit, 1 gave up), error 0"),
            "{text}"
        );
        let text = summary(&reports[..1], |_, _| String::new());
        assert!(text.contains("timeout 1, error 0"), "{text}");
    }

    #[test]
    fn the_csv_carries_the_gap_and_old_csvs_without_it_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.csv");
        write_csv(&path, &[solved(1, 100, Some(93))], None).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with(
                "file,level,title,status,moves,pushes,optimal,lower_bound,gap_percent,"
            )
        );
        let (_, back) = read_csv_reports(&path).unwrap().remove(0);
        assert_eq!((back.lower_bound, back.gap_percent), (Some(93), Some(7.0)));
        // A CSV of a version without the column.
        let old = dir.path().join("old.csv");
        std::fs::write(
            &old,
            "file,level,title,status,moves,pushes,optimal,lower_bound,first_seconds,k,encoding,\
             solver,seconds,variables,clauses,engine,found_by,peak_mib\n\
             c.xsb,1,,solved,300,100,,93,0.5,,,,1.0,,,finder,finder,\n",
        )
        .unwrap();
        let (_, back) = read_csv_reports(&old).unwrap().remove(0);
        assert_eq!((back.lower_bound, back.gap_percent), (Some(93), None));
        assert_eq!(read_csv(&old).unwrap().len(), 1);
    }
}
