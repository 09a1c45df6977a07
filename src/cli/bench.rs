//! `satsoko bench`: every selected level in its own process, killed at the limit, with a
//! progress bar, a summary, CSV/JSON output and a comparison with an earlier run.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::BenchArgs;
use super::input::read_levels;
use super::report::{EXIT_INPUT, EXIT_OK, LevelReport, Status};
use super::say;
use super::worker::{ChildJob, solve_in_child};
use crate::driver::Engine;
use crate::level::Level;

/// Runs `bench` and returns the exit code.
pub fn run(args: &BenchArgs) -> i32 {
    if let Err(e) = args.engine.check(true) {
        eprintln!("error: {e}");
        return super::report::EXIT_USAGE;
    }
    let mut jobs: Vec<(&Path, Result<Level, LevelReport>)> = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        match read_levels(path) {
            Ok(entries) => {
                if let Some(sel) = args.level.as_ref().filter(|s| s.max() > entries.len()) {
                    let msg = format!(
                        "{name}: there is no level {}; the file has {} level(s)",
                        sel.max(),
                        entries.len()
                    );
                    jobs.push((path, Err(error_report(&name, 0, &msg))));
                }
                for (i, entry) in entries.into_iter().enumerate() {
                    if args.level.as_ref().is_none_or(|sel| sel.contains(i + 1)) {
                        jobs.push((
                            path,
                            entry.map_err(|e| error_report(&name, i + 1, &e.to_string())),
                        ));
                    }
                }
            }
            Err(e) => jobs.push((path, Err(error_report(&name, 0, &e.to_string())))),
        }
    }
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

    let bar = ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} [{elapsed_precise}, ETA {eta}]")
            .expect("a valid template"),
    );
    let limit = Duration::from_secs_f64(args.timeout.max(0.0));
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<LevelReport>>> = Mutex::new(vec![None; jobs.len()]);
    let solved = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().expect("no poisoned lock");
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some((path, entry)) = jobs.get(i) else {
                        break;
                    };
                    let report = match entry {
                        Err(r) => r.clone(),
                        Ok(level) => {
                            let job = ChildJob {
                                path,
                                level,
                                max_steps: args.max_steps,
                                engine: &args.engine,
                                limit,
                            };
                            solve_in_child(&job, &mut |_, _, _| {})
                        }
                    };
                    if report.status == Status::Solved {
                        let mut s = solved.lock().expect("no poisoned lock");
                        *s += 1;
                        bar.set_message(format!("solved {s}"));
                    }
                    results.lock().expect("no poisoned lock")[i] = Some(report);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let reports: Vec<LevelReport> = results
        .into_inner()
        .expect("no poisoned lock")
        .into_iter()
        .flatten()
        .collect();

    let ratios = old.as_ref().map(|old| ratios(old, &reports));
    if let Some(p) = &args.csv
        && let Err(e) = std::fs::write(p, to_csv(&reports, ratios.as_ref()))
    {
        eprintln!("error: cannot write {}: {e}", p.display());
        return EXIT_INPUT;
    }
    if let Some(p) = &args.json {
        let text: String = reports
            .iter()
            .map(|r| r.to_json().to_string() + "\n")
            .collect();
        if let Err(e) = std::fs::write(p, text) {
            eprintln!("error: cannot write {}: {e}", p.display());
            return EXIT_INPUT;
        }
    }
    say(&summary(args, &reports));
    if let (Some(old), Some(ratios)) = (&old, &ratios) {
        say(&comparison(old, &reports, ratios));
    }
    if reports.iter().any(|r| r.status == Status::InputError) {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}

fn error_report(file: &str, level: usize, message: &str) -> LevelReport {
    let mut r = LevelReport::new(file, level, None, Status::InputError);
    r.message = Some(message.to_string());
    r
}

/// The median of a non-empty list.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn summary(args: &BenchArgs, reports: &[LevelReport]) -> String {
    let count = |s: Status| reports.iter().filter(|r| r.status == s).count();
    let solved: Vec<&LevelReport> = reports
        .iter()
        .filter(|r| r.status == Status::Solved)
        .collect();
    // The engines the levels actually ran with (`auto` picks per level).
    let mut engines: Vec<&str> = reports.iter().filter_map(|r| r.engine.as_deref()).collect();
    engines.sort_unstable();
    engines.dedup();
    let solver = args.engine.solver_choice();
    let solver = if engines == [Engine::Astar.name()] {
        "none"
    } else {
        solver.name()
    };
    let mut out = format!(
        "bench: {} levels, timeout {} s, engine {}, encoding {}, solver {}, jobs {}\n",
        reports.len(),
        args.timeout,
        if engines.is_empty() {
            "-".to_string()
        } else {
            engines.join("+")
        },
        args.engine.encoding(),
        solver,
        args.jobs.max(1)
    );
    let _ = writeln!(
        out,
        "solved {}, unsolvable {}, no-plan {}, timeout {}, error {}",
        solved.len(),
        count(Status::Unsolvable),
        count(Status::NoPlan),
        count(Status::Timeout),
        count(Status::InputError) + count(Status::InternalError)
    );
    if !solved.is_empty() {
        let times: Vec<f64> = solved.iter().map(|r| r.seconds).collect();
        let mut optimal: HashMap<&str, usize> = HashMap::new();
        for r in &solved {
            *optimal
                .entry(r.optimal.as_deref().unwrap_or("none"))
                .or_default() += 1;
        }
        let mut optimal: Vec<String> = optimal.iter().map(|(m, n)| format!("{m} {n}")).collect();
        optimal.sort();
        let _ = writeln!(
            out,
            "solved levels: median {:.3} s, total {:.1} s; moves {}, pushes {}; optimal: {}",
            median(times.clone()),
            times.iter().sum::<f64>(),
            solved.iter().filter_map(|r| r.moves).sum::<usize>(),
            solved.iter().filter_map(|r| r.pushes).sum::<usize>(),
            optimal.join(", ")
        );
    }
    out.trim_end().to_string()
}

/// One row of an earlier run, as read back from its CSV.
struct OldRow {
    status: String,
    seconds: f64,
}

type Key = (String, usize);

/// Old time / new time, for levels solved in both runs.
fn ratios(old: &HashMap<Key, OldRow>, reports: &[LevelReport]) -> HashMap<Key, f64> {
    reports
        .iter()
        .filter(|r| r.status == Status::Solved)
        .filter_map(|r| {
            let key = (r.file.clone(), r.level);
            let o = old.get(&key).filter(|o| o.status == "solved")?;
            Some((key, o.seconds.max(1e-3) / r.seconds.max(1e-3)))
        })
        .collect()
}

fn comparison(
    old: &HashMap<Key, OldRow>,
    reports: &[LevelReport],
    ratios: &HashMap<Key, f64>,
) -> String {
    let solved_old = |r: &LevelReport| {
        old.get(&(r.file.clone(), r.level))
            .is_some_and(|o| o.status == "solved")
    };
    let gained = reports
        .iter()
        .filter(|r| r.status == Status::Solved && !solved_old(r))
        .count();
    let lost = reports
        .iter()
        .filter(|r| r.status != Status::Solved && solved_old(r))
        .count();
    let geo = if ratios.is_empty() {
        f64::NAN
    } else {
        (ratios.values().map(|x| x.ln()).sum::<f64>() / ratios.len() as f64).exp()
    };
    let med = if ratios.is_empty() {
        f64::NAN
    } else {
        median(ratios.values().copied().collect())
    };
    format!(
        "compared with the old run: both solved {}, gained {gained}, lost {lost}; \
         speed-up (old time / new time) geometric mean {geo:.2}x, median {med:.2}x",
        ratios.len()
    )
}

/// Quotes a CSV field when it needs it.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

const CSV_HEADER: &str = "file,level,title,status,moves,pushes,optimal,k,encoding,solver,seconds,variables,clauses,engine";

fn to_csv(reports: &[LevelReport], ratios: Option<&HashMap<Key, f64>>) -> String {
    let mut out = String::from(CSV_HEADER);
    if ratios.is_some() {
        out.push_str(",speedup");
    }
    out.push('\n');
    let o = |x: Option<usize>| x.map_or(String::new(), |v| v.to_string());
    let u = |x: Option<u64>| x.map_or(String::new(), |v| v.to_string());
    for r in reports {
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{:.3},{},{},{}",
            field(&r.file),
            r.level,
            field(r.title.as_deref().unwrap_or("")),
            r.status.name(),
            o(r.moves),
            o(r.pushes),
            r.optimal.as_deref().unwrap_or(""),
            o(r.k),
            r.encoding.as_deref().unwrap_or(""),
            field(r.solver.as_deref().unwrap_or("")),
            r.seconds,
            u(r.variables),
            u(r.clauses),
            r.engine.as_deref().unwrap_or("")
        );
        if let Some(ratios) = ratios {
            let ratio = ratios.get(&(r.file.clone(), r.level));
            let _ = write!(
                out,
                ",{}",
                ratio.map_or(String::new(), |x| format!("{x:.3}"))
            );
        }
        out.push('\n');
    }
    out
}

/// Splits one CSV line into fields (double quotes, `""` escapes).
fn split_csv(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("non-empty").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().expect("non-empty").push(c),
        }
    }
    fields
}

fn read_csv(path: &Path) -> Result<HashMap<Key, OldRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut lines = text.lines();
    let header = split_csv(lines.next().ok_or("the file is empty")?);
    let col = |name: &str| {
        header.iter().position(|h| h == name).ok_or(format!(
            "no {name:?} column (is this a `satsoko bench --csv` file?)"
        ))
    };
    let (cf, cl, cs, ct) = (col("file")?, col("level")?, col("status")?, col("seconds")?);
    let mut rows = HashMap::new();
    for (i, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let f = split_csv(line);
        let get = |c: usize| {
            f.get(c)
                .cloned()
                .ok_or(format!("line {}: too few fields", i + 2))
        };
        let level = get(cl)?
            .parse()
            .map_err(|_| format!("line {}: bad level", i + 2))?;
        let seconds = get(ct)?
            .parse()
            .map_err(|_| format!("line {}: bad seconds", i + 2))?;
        rows.insert(
            (get(cf)?, level),
            OldRow {
                status: get(cs)?,
                seconds,
            },
        );
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_round_trip() {
        assert_eq!(
            split_csv("a,\"b,c\",\"d\"\"e\","),
            vec!["a", "b,c", "d\"e", ""]
        );
        assert_eq!(field("x,y"), "\"x,y\"");
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
