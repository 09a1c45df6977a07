//! `bench` solves each level in a child process (`satsoko worker`), so that levels do
//! not share memory and one that goes wrong cannot take the run down. The child gets
//! its job (the level itself, parsed once by the parent, so no worker reads the
//! collection again) as one JSON object on standard input and answers with one report
//! line on standard output. Its engine stops itself at the limit; a child still running a
//! little after it is killed anyway.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::config::SolveConfig;
use super::report::{ErrorKind, LevelReport, Status, StopKind};
use crate::engine::{Incumbent, Stop};
use crate::level::Level;

/// How often the parent looks at the child and the clock.
const POLL: Duration = Duration::from_millis(20);
/// How long past the limit a child may take to stop by itself before it is killed.
const GRACE: Duration = Duration::from_millis(1000);

/// What a worker is asked to do: the level itself (parsed once, by the parent), the
/// name of its file for the report, and how to solve it.
#[derive(Serialize, Deserialize)]
struct Job {
    file: PathBuf,
    level: Level,
    config: SolveConfig,
}

/// Runs as a worker: reads a [`Job`] from standard input, solves it, prints the report.
pub fn run() -> i32 {
    let mut text = String::new();
    let job: Job = match std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())
        .and_then(|_| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(job) => job,
        Err(e) => {
            eprintln!("error: the worker's job is not readable: {e}");
            return super::report::EXIT_USAGE;
        }
    };
    let name = job.file.display().to_string();
    let deadline = job.config.timeout.map(|t| Instant::now() + t);
    let stop = Stop::new(deadline);
    let board = Incumbent::new(job.config.request.metric);
    let (report, _) =
        super::solve::solve_level(&job.config, &name, &job.level, &stop, &board, None);
    let report = LevelReport {
        peak_mib: peak_resident_mib(),
        ..report
    };
    super::say(&report.to_json());
    0
}

/// The most memory this process has held resident, in MiB (Linux's `VmHWM`; `None`
/// where `/proc` does not tell).
fn peak_resident_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.div_ceil(1024))
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

/// Solves level `level` of `path` in a child process under `config` (whose timeout is
/// the limit), and waits at most a little past the limit.
pub fn solve_in_child(path: &Path, level: &Level, config: &SolveConfig) -> LevelReport {
    let name = path.display().to_string();
    let limit = config.timeout.unwrap_or(Duration::MAX);
    let start = Instant::now();
    let title = level.title.clone();
    let failure = |msg: String| {
        let mut r = LevelReport::error(
            &name,
            Some(level.number),
            title.clone(),
            ErrorKind::Internal,
            msg,
        );
        r.seconds = start.elapsed().as_secs_f64();
        r
    };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return failure(format!("cannot find the satsoko executable: {e}")),
    };
    let job = Job {
        file: path.to_path_buf(),
        level: level.clone(),
        config: config.clone(),
    };
    let child = Command::new(exe)
        .arg("worker")
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return failure(format!("cannot start a worker process: {e}")),
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    let job = serde_json::to_string(&job).expect("a job is always JSON");
    if let Err(e) = stdin.write_all(job.as_bytes()) {
        kill_group(&mut child);
        return failure(format!("cannot hand the worker its job: {e}"));
    }
    drop(stdin);
    let mut stdout = child.stdout.take().expect("piped stdout");
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let mut stderr = child.stderr.take().expect("piped stderr");
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let killed = loop {
        match child.try_wait() {
            Ok(Some(_)) => break false,
            Ok(None) => {}
            Err(e) => return failure(format!("lost the worker process: {e}")),
        }
        if start.elapsed() >= limit.saturating_add(GRACE) {
            kill_group(&mut child);
            break true;
        }
        std::thread::sleep(POLL);
    };
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    if killed {
        let mut r = LevelReport::new(&name, Some(level.number), title, Status::Timeout);
        let engine = config.engine_for(level);
        r.engine = Some(engine.about().name.to_string());
        r.seconds = limit.as_secs_f64();
        r.stop = Some(StopKind::Time);
        r.message = Some(format!(
            "no answer within {:.1} s (the worker was killed)",
            limit.as_secs_f64()
        ));
        return r;
    }
    match stdout.lines().rev().find_map(LevelReport::from_json) {
        Some(r) => r,
        None => failure(format!("the worker process failed: {}", stderr.trim())),
    }
}
