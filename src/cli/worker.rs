//! Solving a level in a child process, so a hard time limit can be kept even though the
//! solver cannot be interrupted: the child is killed when the limit runs out.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::args::EngineArgs;
use super::report::{LevelReport, Status};
use crate::driver::Engine;
use crate::level::Level;

/// How often the parent looks at the child and the clock.
const POLL: Duration = Duration::from_millis(50);
/// How long past the limit a child may take to stop by itself before it is killed.
const GRACE: Duration = Duration::from_millis(300);

/// One level to solve in a child process.
pub struct ChildJob<'a> {
    /// The level file.
    pub path: &'a Path,
    /// The level (its number selects it in the child).
    pub level: &'a Level,
    /// The largest k to try.
    pub max_steps: usize,
    /// Encoding and solver.
    pub engine: &'a EngineArgs,
    /// The wall-clock limit.
    pub limit: Duration,
}

/// The message of a level that hit the limit: it names the limit, whether the worker
/// stopped itself (a little past it) or was killed.
fn timeout_message(limit: Duration) -> String {
    format!("no answer within {:.1} s", limit.as_secs_f64())
}

/// Kills a worker and everything it started (an outside solver, say): the worker leads
/// its own process group.
fn kill_group(child: &mut std::process::Child) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

/// Runs `satsoko solve --worker` on one level and waits at most `job.limit`.
/// `on_progress(k, variables, clauses)` is called as the child reports progress.
pub fn solve_in_child(job: &ChildJob, on_progress: &mut dyn FnMut(usize, u64, u64)) -> LevelReport {
    let (path, level, limit) = (job.path, job.level, job.limit);
    let name = path.display().to_string();
    let start = Instant::now();
    let failure = |msg: String| {
        let mut r = LevelReport::new(
            &name,
            level.number,
            level.title.clone(),
            Status::InternalError,
        );
        r.message = Some(msg);
        r.seconds = start.elapsed().as_secs_f64();
        r
    };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return failure(format!("cannot find the satsoko executable: {e}")),
    };
    let child = Command::new(exe)
        .arg("solve")
        .arg(path)
        .args(["--level", &level.number.to_string()])
        .args(["--max-steps", &job.max_steps.to_string()])
        .args(job.engine.to_args())
        .arg("--worker")
        // Solvers that can be interrupted stop themselves at the limit; the kill below
        // is for those that cannot.
        .args(["--timeout", &limit.as_secs_f64().to_string()])
        .args(match super::input::FORMAT.get().copied().flatten() {
            Some(crate::level::Format::Numeric) => vec!["--format", "numeric"],
            Some(crate::level::Format::Xsb) => vec!["--format", "xsb"],
            None => vec![],
        })
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return failure(format!("cannot start a worker process: {e}")),
    };

    let (tx, rx) = mpsc::channel();
    let stderr = child.stderr.take().expect("piped stderr");
    let err_thread = std::thread::spawn(move || {
        let mut other = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let nums: Vec<u64> = line
                .strip_prefix("progress ")
                .map(|rest| rest.split(' ').filter_map(|x| x.parse().ok()).collect())
                .unwrap_or_default();
            if nums.len() == 3 {
                let _ = tx.send((nums[0] as usize, nums[1], nums[2]));
            } else {
                other.push_str(&line);
                other.push('\n');
            }
        }
        other
    });
    let mut stdout = child.stdout.take().expect("piped stdout");
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });

    let timed_out = loop {
        while let Ok((k, v, c)) = rx.try_recv() {
            on_progress(k, v, c);
        }
        match child.try_wait() {
            Ok(Some(_)) => break false,
            Ok(None) => {}
            Err(e) => return failure(format!("lost the worker process: {e}")),
        }
        if start.elapsed() >= limit + GRACE {
            kill_group(&mut child);
            break true;
        }
        std::thread::sleep(POLL.min((limit + GRACE).saturating_sub(start.elapsed())));
    };
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    if timed_out {
        let mut r = LevelReport::new(&name, level.number, level.title.clone(), Status::Timeout);
        let engine = job.engine.engine_for(level);
        r.engine = Some(engine.name().to_string());
        r.encoding = Some(job.engine.encoding().name().to_string());
        if engine != Engine::Astar {
            r.solver = Some(job.engine.solver_choice().name().to_string());
        }
        r.seconds = limit.as_secs_f64();
        r.message = Some(timeout_message(limit));
        return r;
    }
    let parsed = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .and_then(|v| LevelReport::from_json(&v));
    match parsed {
        Some(mut r) => {
            r.file = name.clone();
            if r.status == Status::Timeout {
                // The worker measured its own time, a little past the limit; name the
                // limit, as for a killed worker.
                r.message = Some(timeout_message(limit));
            }
            r
        }
        None => failure(format!("the worker process failed: {}", stderr.trim())),
    }
}
