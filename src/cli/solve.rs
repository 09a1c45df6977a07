//! `satsoko [solve]`: solves every selected level and prints one report per level.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::args::SolveArgs;
use super::input::read_levels;
use super::progress::LevelProgress;
use super::report::{EXIT_INPUT, LevelReport, Status};
use super::worker::{ChildJob, solve_in_child};
use crate::driver::{self, Engine, Options, Progress, SolveError};
use crate::level::{Level, LevelError, LevelErrorKind};

/// Runs the solve command and returns the exit code.
pub fn run(args: &SolveArgs) -> i32 {
    if let Err(e) = args.engine.check(true) {
        eprintln!("error: {e}");
        return super::report::EXIT_USAGE;
    }
    let mut jobs: Vec<(String, &Path, Result<Level, LevelError>)> = Vec::new();
    let mut input_error = false;
    for path in &args.files {
        let name = path.display().to_string();
        match read_levels(path) {
            Ok(entries) => {
                if let Some(sel) = &args.level
                    && sel.max() > entries.len()
                {
                    let e = LevelError::file(
                        &name,
                        LevelErrorKind::NoSuchLevel {
                            asked: sel.max(),
                            available: entries.len(),
                        },
                    );
                    jobs.push((name.clone(), path, Err(e)));
                }
                for (i, entry) in entries.into_iter().enumerate() {
                    if args.level.as_ref().is_none_or(|sel| sel.contains(i + 1)) {
                        jobs.push((name.clone(), path, entry));
                    }
                }
            }
            Err(e) => jobs.push((name, path, Err(e))),
        }
    }

    let total = jobs.len();
    let mut worst = 0;
    for (i, (name, path, entry)) in jobs.into_iter().enumerate() {
        let report = match entry {
            Err(e) => {
                input_error = true;
                let mut r = LevelReport::new(&name, e.level.unwrap_or(0), None, Status::InputError);
                r.message = Some(e.to_string());
                if !args.json {
                    eprintln!("error: {e}");
                    continue;
                }
                r
            }
            Ok(level) => solve_level(args, &name, path, &level, i + 1, total),
        };
        input_error |= report.status == Status::InputError;
        worst = worst.max(report.status.exit_code());
        if report.status == Status::InputError && !args.json && !args.worker {
            // Like a level that cannot be read: the reason goes to stderr.
            let message = report.message.as_deref().unwrap_or("cannot be solved");
            eprintln!("error: {name}: level {}: {message}", report.level);
            continue;
        }
        let mut out = std::io::stdout().lock();
        let printed = if args.json || args.worker {
            writeln!(out, "{}", report.to_json())
        } else {
            write!(out, "{}", report.to_text())
        };
        if printed.and_then(|_| out.flush()).is_err() {
            return worst; // stdout closed (e.g. piped into `head`): stop quietly
        }
    }
    if input_error { EXIT_INPUT } else { worst }
}

fn options(args: &SolveArgs) -> Options {
    Options {
        encoding: args.engine.encoding(),
        max_steps: args.max_steps,
    }
}

/// Solves one level: in this process, or in a child process killed at the time limit.
fn solve_level(
    args: &SolveArgs,
    name: &str,
    path: &Path,
    level: &Level,
    index: usize,
    total: usize,
) -> LevelReport {
    if args.worker {
        // A worker reports progress as lines its parent reads.
        return solve_here(args, name, level, &mut |p| {
            eprintln!("progress {} {} {}", p.k, p.variables, p.clauses);
        });
    }
    let label = format!("{name} #{} [{index}/{total}]", level.number);
    let progress = LevelProgress::start(label);
    let report = match args.timeout {
        Some(limit) => {
            let limit = Duration::from_secs_f64(limit.max(0.0));
            let job = ChildJob {
                path,
                level,
                max_steps: args.max_steps,
                engine: &args.engine,
                limit,
            };
            solve_in_child(&job, &mut |k, v, c| progress.set_k(k, v, c))
        }
        None => solve_here(args, name, level, &mut |p| {
            progress.set_k(p.k, p.variables, p.clauses)
        }),
    };
    progress.finish();
    report
}

/// Solves in this process, with no time limit.
fn solve_here(
    args: &SolveArgs,
    name: &str,
    level: &Level,
    on_progress: &mut dyn FnMut(&Progress),
) -> LevelReport {
    let cancel = AtomicBool::new(false);
    // In a worker, --timeout is the limit its parent enforces; an interruptible solver
    // stops itself there.
    let deadline = args
        .timeout
        .filter(|_| args.worker)
        .map(|t| std::time::Instant::now() + Duration::from_secs_f64(t));
    let engine = args.engine.engine_for(level);
    let backend = match engine {
        Engine::Astar => None,
        Engine::Unroll | Engine::Pdr => match args.engine.solver_choice().backend(deadline) {
            Ok(backend) => Some(backend),
            Err(e) => {
                let mut r =
                    LevelReport::new(name, level.number, level.title.clone(), Status::InputError);
                r.message = Some(e);
                return r;
            }
        },
    };
    let result = match (engine, backend) {
        (Engine::Unroll, Some(backend)) => {
            driver::solve(level, &options(args), backend, on_progress, &cancel)
        }
        (engine, backend) => {
            driver::solve_by_search(level, engine, backend, args.max_steps, deadline, &cancel)
        }
    };
    match result {
        Ok(outcome) => LevelReport::from_outcome(name, level.number, level.title.clone(), &outcome),
        Err(e) => {
            let status = match e {
                SolveError::Unsupported(_) | SolveError::Solver(_) => Status::InputError,
                SolveError::Internal(_) => Status::InternalError,
            };
            let mut r = LevelReport::new(name, level.number, level.title.clone(), status);
            r.message = Some(e.to_string());
            r
        }
    }
}
