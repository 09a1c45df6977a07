//! The stop-latency benchmark: how long past `--timeout` (or past Ctrl-C) each engine
//! takes to answer, and how much memory it holds, on generated boards from 10×10 to
//! 200×200 with up to 100 boxes.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example stop_latency -- [OPTIONS]
//! ```
//!
//! It writes one collection per size class (`DIR/size-N.xsb`, made by
//! `satsoko::level::generate`), then runs the release binary on every board, once per
//! engine, limit and run, one process at a time (the machine's cores are the engines'),
//! and measures each process from its start to its exit with `wait4`: the wall time
//! and the peak resident memory. The overrun is the wall time minus the limit (0 for a
//! level answered before it). With `--sigint` the process gets no `--timeout` and is
//! sent SIGINT (Ctrl-C) at the limit instead.
//!
//! Options:
//! - `--classes 10:2-6,25:5-20,50:10-40,100:20-80,200:40-100`: size and box range of
//!   each class;
//! - `--boards N` (20): boards per class;
//! - `--limits 1,3` (seconds) and `--runs N` (2);
//! - `--engines anytime,pdr,finder,astar,unroll,subgoals`;
//! - `--sigint`: stop by SIGINT at the limit instead of `--timeout`;
//! - `--args "..."`: more options for every run, split at spaces (`--solver cadical`);
//! - `--seed N` (1), `--dir DIR` (`target/stop-latency`), `--csv FILE` (one row per
//!   process), `--satsoko PATH` (default: the `satsoko` next to this example's
//!   directory, i.e. `target/release/satsoko`).
//!
//! It prints a Markdown table, a row per class and engine: the worst and the median
//! overrun, the largest peak memory, and how the processes ended. The exit code is 1
//! when any overrun is above half a second or any peak above 2 GiB.
//!
//! With `--analysis` it measures the static analysis alone instead (no engine, no
//! limit): each board is analysed in a process of its own, and the table gives per
//! class the median and worst wall time and peak memory of those processes.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use satsoko::level::generate::{BoardSpec, random_board};

/// The most a process may take past its limit.
const WORST_OVERRUN: f64 = 0.5;
/// The most memory a process may hold, in MiB.
const MEMORY_BUDGET_MIB: u64 = 2048;

/// A size class: boards of about `size`×`size` cells with `boxes.0` to `boxes.1` boxes.
#[derive(Clone, Copy)]
struct Class {
    size: usize,
    boxes: (usize, usize),
}

struct Options {
    classes: Vec<Class>,
    boards: usize,
    limits: Vec<f64>,
    runs: usize,
    engines: Vec<String>,
    args: Vec<String>,
    sigint: bool,
    analysis: bool,
    seed: u64,
    dir: PathBuf,
    csv: Option<PathBuf>,
    satsoko: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        classes: parse_classes("10:2-6,25:5-20,50:10-40,100:20-80,200:40-100")?,
        boards: 20,
        limits: vec![1.0, 3.0],
        runs: 2,
        engines: [
            "anytime", "pdr", "finder", "astar", "unroll", "subgoals", "bdd",
        ]
        .map(String::from)
        .to_vec(),
        args: Vec::new(),
        sigint: false,
        analysis: false,
        seed: 1,
        dir: PathBuf::from("target/stop-latency"),
        csv: None,
        satsoko: std::env::current_exe()
            .ok()
            .and_then(|e| Some(e.parent()?.parent()?.join("satsoko")))
            .unwrap_or_else(|| PathBuf::from("target/release/satsoko")),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if let Some(switch) = match flag.as_str() {
            "--sigint" => Some(&mut o.sigint),
            "--analysis" => Some(&mut o.analysis),
            _ => None,
        } {
            *switch = true; // a switch takes no value
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<usize>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--classes" => o.classes = parse_classes(&value)?,
            "--boards" => o.boards = number(&value)?,
            "--runs" => o.runs = number(&value)?,
            "--seed" => o.seed = number(&value)? as u64,
            "--limits" => {
                o.limits = (value.split(','))
                    .map(|v| v.parse::<f64>().map_err(|e| format!("--limits {v}: {e}")))
                    .collect::<Result<_, _>>()?
            }
            "--engines" => o.engines = value.split(',').map(String::from).collect(),
            "--args" => o.args = value.split_whitespace().map(String::from).collect(),
            "--dir" => o.dir = PathBuf::from(value),
            "--csv" => o.csv = Some(PathBuf::from(value)),
            "--satsoko" => o.satsoko = PathBuf::from(value),
            _ => {
                return Err(format!(
                    "unknown option {flag} (see the file's documentation)"
                ));
            }
        }
    }
    if !o.satsoko.exists() {
        return Err(format!(
            "{} does not exist: run `cargo build --release` first, or give --satsoko",
            o.satsoko.display()
        ));
    }
    Ok(o)
}

/// `10:2-6,25:5-20`: size, then the range of boxes.
fn parse_classes(text: &str) -> Result<Vec<Class>, String> {
    text.split(',')
        .map(|class| {
            let bad = || format!("bad class {class:?}: write SIZE:MIN-MAX, as 50:10-40");
            let (size, range) = class.split_once(':').ok_or_else(bad)?;
            let (lo, hi) = range.split_once('-').ok_or_else(bad)?;
            let n = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
            Ok(Class {
                size: n(size)?,
                boxes: (n(lo)?, n(hi)?),
            })
        })
        .collect()
}

/// One process measured.
struct Measure {
    wall: f64,
    peak_mib: u64,
    exit: i32,
}

/// Runs `satsoko` with `args`, sends SIGINT at `sigint_at` if given, and measures it.
// The child is reaped by `wait4`, which std's `Child` does not offer.
#[allow(clippy::zombie_processes)]
fn measure(satsoko: &Path, args: &[String], sigint_at: Option<Duration>) -> Measure {
    let start = Instant::now();
    let child = Command::new(satsoko)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("satsoko starts");
    let pid = child.id() as libc::pid_t;
    if let Some(at) = sigint_at {
        // Signal at the limit, unless the process has ended by then.
        loop {
            let mut status = 0;
            let mut usage = unsafe { std::mem::zeroed::<libc::rusage>() };
            // SAFETY: a plain system call on our own child, with valid out-pointers.
            let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
            if done == pid {
                return finished(start, status, &usage);
            }
            let left = at.saturating_sub(start.elapsed());
            if left.is_zero() {
                // SAFETY: signalling our own child, which has not been reaped.
                unsafe { libc::kill(pid, libc::SIGINT) };
                break;
            }
            std::thread::sleep(left.min(Duration::from_millis(5)));
        }
    }
    let mut status = 0;
    let mut usage = unsafe { std::mem::zeroed::<libc::rusage>() };
    // SAFETY: as above; this waits for the child to exit.
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    std::mem::forget(child); // reaped by wait4
    finished(start, status, &usage)
}

fn finished(start: Instant, status: i32, usage: &libc::rusage) -> Measure {
    Measure {
        wall: start.elapsed().as_secs_f64(),
        peak_mib: (usage.ru_maxrss as u64).div_ceil(1024),
        exit: if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -libc::WTERMSIG(status)
        },
    }
}

/// How a process ended, in words, from satsoko's exit codes (docs/formats.md). The
/// boards are well formed, so exit 1 is an engine refusing a level too big for it.
fn ending(exit: i32) -> &'static str {
    match exit {
        0 => "solved",
        1 => "refused",
        3 => "unsolvable",
        4 => "no plan",
        5 => "timeout",
        130 => "interrupted",
        _ => "error",
    }
}

/// The measures of one class and engine.
#[derive(Default)]
struct Cell {
    overruns: Vec<f64>,
    peak_mib: u64,
    endings: std::collections::BTreeMap<&'static str, usize>,
    /// The worst overrun's board and limit.
    worst: Option<(usize, f64)>,
}

/// The child of `--analysis`: analyses level `level` of `file`.
fn analyse_one(file: &str, level: &str) -> ExitCode {
    let text = std::fs::read_to_string(file).expect("the boards can be read");
    let number: usize = level.parse().expect("a level number");
    let levels = satsoko::level::parse_xsb(file, &text).expect("the boards parse");
    let analysis = satsoko::analysis::Analysis::new(&levels[number - 1]);
    std::hint::black_box(&analysis);
    ExitCode::SUCCESS
}

/// `--analysis`: the static analysis of every board, each in a process of its own.
fn analysis_table(o: &Options, files: &[PathBuf]) -> ExitCode {
    let me = std::env::current_exe().expect("this example's path");
    println!("| size | boxes | analysis: median | worst | peak memory: median | worst |");
    println!("|---|---|---|---|---|---|");
    for (&Class { size, boxes }, file) in o.classes.iter().zip(files) {
        let (mut times, mut peaks) = (Vec::new(), Vec::new());
        for board in 1..=o.boards {
            let args = ["--analyse-one".to_string(), file.display().to_string()]
                .into_iter()
                .chain([board.to_string()])
                .collect::<Vec<_>>();
            let m = measure(&me, &args, None);
            assert_eq!(
                m.exit,
                0,
                "the analysis of board {board} of {}",
                file.display()
            );
            times.push(m.wall);
            peaks.push(m.peak_mib as f64);
            eprint!(
                "\rsize {size} board {board}: {:.2} s, {} MiB     ",
                m.wall, m.peak_mib
            );
        }
        println!(
            "| {size}×{size} | {}–{} | {:.2} s | {:.2} s | {} MiB | {} MiB |",
            boxes.0,
            boxes.1,
            median(&times),
            max(&times),
            median(&peaks),
            max(&peaks)
        );
    }
    eprintln!();
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "--analyse-one" {
        return analyse_one(&args[2], &args[3]);
    }
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    std::fs::create_dir_all(&o.dir).expect("the output directory can be made");
    let mut files = Vec::new();
    for &Class { size, boxes } in &o.classes {
        let text: String = (0..o.boards)
            .map(|i| random_board(&BoardSpec::class(size, boxes, i, o.seed)) + "\n")
            .collect();
        let path = o.dir.join(format!("size-{size}.xsb"));
        std::fs::write(&path, text).expect("the boards can be written");
        files.push(path);
    }
    if o.analysis {
        return analysis_table(&o, &files);
    }
    let mut csv = String::from("class,board,engine,limit,run,wall,overrun,peak_mib,exit\n");
    let mut table: Vec<Vec<Cell>> = (0..o.classes.len())
        .map(|_| (0..o.engines.len()).map(|_| Cell::default()).collect())
        .collect();
    let total = o.classes.len() * o.boards * o.engines.len() * o.limits.len() * o.runs;
    let mut done = 0;
    for run in 1..=o.runs {
        for (k, &Class { size, .. }) in o.classes.iter().enumerate() {
            for (e, engine) in o.engines.iter().enumerate() {
                for &limit in &o.limits {
                    for board in 1..=o.boards {
                        let mut args = vec!["--engine".to_string(), engine.clone()];
                        if engine == "finder" || engine == "subgoals" {
                            args.extend(["--optimize".into(), "none".into()]);
                        }
                        if !o.sigint {
                            args.extend(["--timeout".into(), limit.to_string()]);
                        }
                        args.extend(o.args.iter().cloned());
                        args.extend(["--level".into(), board.to_string()]);
                        args.push(files[k].display().to_string());
                        let sigint = o.sigint.then(|| Duration::from_secs_f64(limit));
                        let m = measure(&o.satsoko, &args, sigint);
                        let overrun = (m.wall - limit).max(0.0);
                        let cell = &mut table[k][e];
                        if cell.worst.is_none_or(|_| overrun > max(&cell.overruns)) {
                            cell.worst = Some((board, limit));
                        }
                        cell.overruns.push(overrun);
                        cell.peak_mib = cell.peak_mib.max(m.peak_mib);
                        *cell.endings.entry(ending(m.exit)).or_default() += 1;
                        let _ = writeln!(
                            csv,
                            "{size},{board},{engine},{limit},{run},{:.3},{overrun:.3},{},{}",
                            m.wall, m.peak_mib, m.exit
                        );
                        done += 1;
                        eprint!(
                            "\r{done}/{total}: size {size} board {board} {engine} {limit} s: \
                             {:.2} s, {} MiB        ",
                            m.wall, m.peak_mib
                        );
                        let _ = std::io::stderr().flush();
                    }
                }
            }
        }
    }
    eprintln!();
    if let Some(path) = &o.csv {
        std::fs::write(path, &csv).expect("the CSV can be written");
    }
    let stop = if o.sigint { "SIGINT at" } else { "--timeout" };
    println!(
        "{} boards per class, {stop} {:?} s, {} run(s), options {:?}, boards in {}\n",
        o.boards,
        o.limits,
        o.runs,
        o.args.join(" "),
        o.dir.display()
    );
    println!("| size | engine | worst overrun | median | worst on | peak memory | endings |");
    println!("|---|---|---|---|---|---|---|");
    let mut failed = false;
    for (k, &Class { size, boxes }) in o.classes.iter().enumerate() {
        let (lo, hi) = boxes;
        for (e, engine) in o.engines.iter().enumerate() {
            let cell = &table[k][e];
            let worst = max(&cell.overruns);
            failed |= worst > WORST_OVERRUN || cell.peak_mib > MEMORY_BUDGET_MIB;
            let endings = (cell.endings.iter())
                .map(|(what, n)| format!("{n} {what}"))
                .collect::<Vec<_>>()
                .join(", ");
            let on = cell
                .worst
                .map_or(String::new(), |(b, l)| format!("board {b} at {l} s"));
            println!(
                "| {size}×{size}, {lo}–{hi} boxes | {engine} | {worst:.2} s | {:.2} s | {on} | {} MiB | {endings} |",
                median(&cell.overruns),
                cell.peak_mib
            );
        }
    }
    if failed {
        println!(
            "\nSome process overran by more than {WORST_OVERRUN} s or held more than \
             {MEMORY_BUDGET_MIB} MiB."
        );
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn max(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(0.0, f64::max)
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}
