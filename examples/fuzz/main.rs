//! A fuzz harness on stable Rust (no nightly, no libFuzzer): it mutates the bundled
//! levels, the malformed files, numeric and Binairo grids, DIMACS answers, LURD solutions
//! and LRAT proofs, runs every input through each parser that applies and on through
//! static analysis, a bounded solve, the decoding of models and the replay of plans, and
//! counts the panics (and the failed checks of its own assertions).
//!
//! ```text
//! cargo run --release --example fuzz -- --inputs 1000000   # the full run
//! cargo run --release --example fuzz -- --seconds 30       # the sample CI runs
//! cargo run --release --example fuzz -- --replay target/fuzz-findings/level-0-000000123.bin
//! cargo run --release --example fuzz -- --minimize target/fuzz-findings/level-0-000000123.bin
//! ```
//!
//! Options: `--inputs N` and `--seconds S` (the run ends at whichever comes first;
//! without either, 10 000 inputs), `--seed N` (default 1: input `i` of a seed is always
//! the same mutations of the same seed), `--threads N` (default 2), `--findings DIR`
//! (default `target/fuzz-findings`). Every input that panics is saved there, named after its
//! target, context and number; `--replay FILE` runs one again with the panic message
//! shown, `--minimize FILE` shrinks it while it still panics at the same place. The exit
//! code is 1 when anything panicked or hung. docs/fuzzing.md describes the targets, the
//! mutations and the figures measured.
//!
//! This file is the driver: the options, the worker threads, the panics caught and the
//! findings saved, the summary, `--replay` and `--minimize`. The targets, the corpus,
//! the mutations, the pipelines and the memory guard each have a file beside it.

mod corpus;
mod guard;
mod mutate;
mod pipelines;
mod rng;
mod targets;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use corpus::{Context, Corpus, Fixtures, corpus, fixtures};
use guard::{CURRENT, CURRENT_NAME, HUGE_INPUT_PATH, PEAK};
use mutate::{Input, make_input};
use pipelines::{Counts, VERDICTS, bump, run};
use targets::{TARGETS, Target};

thread_local! {
    /// The message and place of the last panic on this thread.
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// The command line.
struct Options {
    inputs: Option<u64>,
    seconds: Option<f64>,
    seed: u64,
    threads: usize,
    findings: PathBuf,
    replay: Option<PathBuf>,
    minimize: Option<PathBuf>,
}

/// Reads the command line; `Err` is the message to print (usage, or what is wrong).
fn options() -> Result<Options, String> {
    let mut o = Options {
        inputs: None,
        seconds: None,
        seed: 1,
        threads: 2,
        findings: PathBuf::from("target/fuzz-findings"),
        replay: None,
        minimize: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|_| format!("{arg}: {v:?}"));
        match arg.as_str() {
            "--inputs" => o.inputs = Some(number(value()?)?),
            "--seconds" => {
                let v = value()?;
                o.seconds = Some(v.parse().map_err(|_| format!("--seconds: {v:?}"))?);
            }
            "--seed" => o.seed = number(value()?)?,
            "--threads" => o.threads = number(value()?)?.max(1) as usize,
            "--findings" => o.findings = PathBuf::from(value()?),
            "--replay" => o.replay = Some(PathBuf::from(value()?)),
            "--minimize" => o.minimize = Some(PathBuf::from(value()?)),
            "-h" | "--help" => {
                return Err(
                    "usage: fuzz [--inputs N] [--seconds S] [--seed N] [--threads N] \
                            [--findings DIR] [--replay FILE] [--minimize FILE]"
                        .into(),
                );
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    if o.inputs.is_none() && o.seconds.is_none() {
        o.inputs = Some(10_000);
    }
    Ok(o)
}

/// A panic caught while running an input: its message and where it was raised.
struct Caught {
    message: String,
    place: String,
}

/// Runs `input`, catching a panic.
fn run_caught(input: &Input, context: &mut Context, counts: &Counts) -> Result<bool, Caught> {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        c.clear();
        c.extend_from_slice(&input.bytes);
    });
    CURRENT_NAME.with(|n| n.set(input.target.name()));
    LAST_PANIC.with(|p| p.borrow_mut().take());
    panic::catch_unwind(AssertUnwindSafe(|| run(input, context, counts))).map_err(|_| {
        let (message, place) = LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| ("(no message)".into(), "(unknown)".into()));
        Caught { message, place }
    })
}

/// A panic hook that keeps the message and place for the driver and prints nothing.
fn silence_panics() {
    panic::set_hook(Box::new(|info| {
        let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
            s.to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "(a panic without a message)".into()
        };
        let place = info
            .location()
            .map_or("(unknown)".into(), |l| format!("{}:{}", l.file(), l.line()));
        LAST_PANIC.with(|p| *p.borrow_mut() = Some((message, place)));
    }));
}

/// The file a finding is saved in: `<target>-<context>-<index>.bin`.
fn finding_name(input: &Input, index: u64) -> String {
    format!("{}-{}-{index:09}.bin", input.target.name(), input.context)
}

/// Reads a saved finding back: its target and context come from its name.
fn read_finding(path: &Path) -> Result<Input, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    let mut parts = name.split('-');
    let target = parts
        .next()
        .and_then(Target::from_name)
        .ok_or(format!("{name}: the name does not start with a target"))?;
    let context = parts.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    Ok(Input {
        target,
        context,
        bytes,
    })
}

/// What the threads share.
struct Shared {
    corpus: Corpus,
    fixtures: Fixtures,
    options: Options,
    counts: Counts,
    /// Per thread, the input it is running and since when.
    running: Vec<Mutex<Option<(Instant, u64)>>>,
    /// Inputs that ran longer than [`HANG`].
    hangs: AtomicU64,
    next: AtomicU64,
    started: Instant,
    stop: AtomicBool,
    /// Panic places, with how often each was hit and the first input saved.
    places: Mutex<BTreeMap<String, (u64, String, String)>>,
    slowest: Mutex<(Duration, String)>,
}

/// An input that takes longer than this is saved as `slow-…` (it is no finding).
const SLOW: Duration = Duration::from_secs(2);

/// An input still running after this long is a hang: saved as `hang-…` and counted as a
/// finding (its thread cannot be stopped; the run ends without waiting for it).
const HANG: Duration = Duration::from_secs(30);

/// The inputs saved per panic place; more of the same place are only counted.
const SAVED_PER_PLACE: u64 = 5;

/// One worker thread (number `thread`): takes the next input number until the run is
/// over, runs it, and records what happened.
fn worker(shared: &Shared, thread: usize) {
    let mut context = Context::new(&shared.fixtures);
    let limit = shared.options.inputs.unwrap_or(u64::MAX);
    let deadline = (shared.options.seconds).map(|s| shared.started + Duration::from_secs_f64(s));
    while !shared.stop.load(Ordering::Relaxed) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            shared.stop.store(true, Ordering::Relaxed);
            break;
        }
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        if index >= limit {
            break;
        }
        let input = make_input(&shared.corpus, shared.options.seed, index);
        let t = input.target.index();
        bump(&shared.counts.inputs[t]);
        let start = Instant::now();
        *shared.running[thread].lock().expect("not poisoned") = Some((start, index));
        let result = run_caught(&input, &mut context, &shared.counts);
        *shared.running[thread].lock().expect("not poisoned") = None;
        let took = start.elapsed();
        {
            let mut slowest = shared.slowest.lock().expect("not poisoned");
            if took > slowest.0 {
                *slowest = (took, finding_name(&input, index));
            }
        }
        if took > SLOW {
            save(
                &shared.options.findings,
                &format!("slow-{}", finding_name(&input, index)),
                &input.bytes,
            );
        }
        match result {
            Ok(true) => bump(&shared.counts.accepted[t]),
            Ok(false) => {}
            Err(caught) => {
                bump(&shared.counts.panics[t]);
                let name = finding_name(&input, index);
                let mut places = shared.places.lock().expect("not poisoned");
                let entry = places.entry(caught.place.clone()).or_insert((
                    0,
                    name.clone(),
                    caught.message.clone(),
                ));
                entry.0 += 1;
                if entry.0 <= SAVED_PER_PLACE {
                    save(&shared.options.findings, &name, &input.bytes);
                    let line = format!("{name}: {}: {}\n", caught.place, caught.message);
                    append(&shared.options.findings.join("findings.txt"), &line);
                }
            }
        }
    }
}

/// Writes an input into the findings directory (errors are ignored: a finding is also
/// counted and listed in the summary).
fn save(dir: &Path, name: &str, bytes: &[u8]) {
    let _ = std::fs::create_dir_all(dir);
    let _ = std::fs::write(dir.join(name), bytes);
}

/// Appends a line to `findings.txt`.
fn append(path: &Path, line: &str) {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path);
    if let Ok(mut file) = file {
        let _ = file.write_all(line.as_bytes());
    }
}

/// The sum of some counters.
fn total(counters: &[AtomicU64]) -> u64 {
    counters.iter().map(|c| c.load(Ordering::Relaxed)).sum()
}

/// Prints the figures of a run; returns whether anything panicked.
fn summary(shared: &Shared, seconds: f64) -> bool {
    let c = &shared.counts;
    let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
    let inputs = total(&c.inputs);
    let panics = total(&c.panics);
    let hangs = load(&shared.hangs);
    let o = &shared.options;
    println!(
        "fuzz: seed {}, {} threads: {inputs} inputs in {seconds:.1} s ({:.0} per second)",
        o.seed,
        o.threads,
        inputs as f64 / seconds.max(1e-9)
    );
    println!("  target       inputs   accepted   rejected     panics");
    for t in TARGETS {
        let i = t.index();
        let (n, ok) = (load(&c.inputs[i]), load(&c.accepted[i]));
        println!(
            "  {:<8} {n:>10} {ok:>10} {:>10} {:>10}",
            t.name(),
            n.saturating_sub(ok + load(&c.panics[i])),
            load(&c.panics[i])
        );
    }
    let verdicts: Vec<String> = (VERDICTS.iter().zip(&c.verdicts))
        .map(|(name, n)| format!("{name} {}", load(n)))
        .collect();
    println!(
        "  levels read {}, too large to solve {}, analysed {}, bounded solves {} ({}), \
         plans replayed {}, oracle checks {}",
        load(&c.levels),
        load(&c.too_large),
        load(&c.analysed),
        load(&c.solves),
        verdicts.join(", "),
        load(&c.plans_replayed),
        load(&c.oracle_checks)
    );
    println!(
        "  models decoded {}, proofs accepted {}, Binairo puzzles solved {}",
        load(&c.models_decoded),
        load(&c.proofs_accepted),
        load(&c.puzzles_solved)
    );
    let slowest = shared.slowest.lock().expect("not poisoned");
    println!(
        "  slowest input {:.3} s ({}), peak heap {} MiB",
        slowest.0.as_secs_f64(),
        slowest.1,
        PEAK.load(Ordering::Relaxed) >> 20
    );
    println!("panics: {panics}, hangs: {hangs}");
    let places = shared.places.lock().expect("not poisoned");
    for (place, (n, first, message)) in places.iter() {
        println!("  {n} at {place}: {message}");
        println!("    first: {}", o.findings.join(first).display());
    }
    panics + hangs > 0
}

/// Watches the workers until they are done: progress every ten seconds on stderr, and
/// every input that runs longer than [`HANG`] saved as a hang. Returns when every
/// worker has finished or is stuck in a hang after the run's end.
fn watch(shared: &Shared, workers: &[std::thread::JoinHandle<()>]) {
    let mut last = Instant::now();
    let mut hung: Vec<u64> = Vec::new();
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let mut stuck = 0;
        for (slot, worker) in shared.running.iter().zip(workers) {
            let running = *slot.lock().expect("not poisoned");
            let Some((since, index)) = running.filter(|_| !worker.is_finished()) else {
                continue;
            };
            if since.elapsed() < HANG {
                continue;
            }
            stuck += 1;
            if hung.contains(&index) {
                continue;
            }
            hung.push(index);
            bump(&shared.hangs);
            let input = make_input(&shared.corpus, shared.options.seed, index);
            let name = format!("hang-{}", finding_name(&input, index));
            save(&shared.options.findings, &name, &input.bytes);
            let line = format!("{name}: still running after {} s\n", HANG.as_secs());
            append(&shared.options.findings.join("findings.txt"), &line);
            eprintln!("fuzz: {name} has run for {} s", HANG.as_secs());
        }
        let done = workers.iter().filter(|w| w.is_finished()).count();
        if done + stuck == workers.len() && (done == workers.len() || run_over(shared)) {
            return;
        }
        if last.elapsed() >= Duration::from_secs(10) {
            last = Instant::now();
            eprintln!(
                "fuzz: {} inputs, {} panics, {} hangs, {:.0} s",
                total(&shared.counts.inputs),
                total(&shared.counts.panics),
                shared.hangs.load(Ordering::Relaxed),
                shared.started.elapsed().as_secs_f64()
            );
        }
    }
}

/// Whether the run has reached its end: its time is up or every input was handed out.
fn run_over(shared: &Shared) -> bool {
    let o = &shared.options;
    shared.stop.load(Ordering::Relaxed)
        || o.seconds
            .is_some_and(|s| shared.started.elapsed() >= Duration::from_secs_f64(s))
        || o.inputs
            .is_some_and(|n| shared.next.load(Ordering::Relaxed) >= n)
}

/// Runs one saved input with the panic shown.
fn replay(path: &Path, fixtures: &Fixtures) -> ExitCode {
    let input = match read_finding(path) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    let mut context = Context::new(fixtures);
    let counts = Counts::default();
    let result = panic::catch_unwind(AssertUnwindSafe(|| run(&input, &mut context, &counts)));
    match result {
        Ok(accepted) => {
            println!(
                "fuzz: {} ran without a panic ({})",
                path.display(),
                if accepted { "accepted" } else { "rejected" }
            );
            ExitCode::SUCCESS
        }
        Err(_) => ExitCode::FAILURE,
    }
}

/// Shrinks a saved input while it still panics at the same place.
fn minimize(path: &Path, fixtures: &Fixtures) -> ExitCode {
    let mut input = match read_finding(path) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    silence_panics();
    let mut context = Context::new(fixtures);
    let counts = Counts::default();
    let mut panics_at = |input: &Input| {
        run_caught(input, &mut context, &counts)
            .err()
            .map(|c| c.place)
    };
    let Some(place) = panics_at(&input) else {
        println!("fuzz: {} does not panic", path.display());
        return ExitCode::SUCCESS;
    };
    let mut chunk = input.bytes.len().max(1);
    while chunk >= 1 {
        let mut i = 0;
        while i < input.bytes.len() {
            let mut smaller = input.bytes.clone();
            smaller.drain(i..(i + chunk).min(smaller.len()));
            let candidate = Input {
                bytes: smaller,
                ..input
            };
            if panics_at(&candidate).as_deref() == Some(place.as_str()) {
                input = candidate;
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    let out = path.with_extension("min");
    save(
        out.parent().unwrap_or(Path::new(".")),
        &out.file_name().expect("a name").to_string_lossy(),
        &input.bytes,
    );
    println!(
        "fuzz: {} bytes still panic at {place}; written to {}",
        input.bytes.len(),
        out.display()
    );
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let (fixtures, solutions, answers) = fixtures();
    if let Some(path) = &options.replay {
        return replay(path, &fixtures);
    }
    if let Some(path) = &options.minimize {
        return minimize(path, &fixtures);
    }
    let corpus = corpus(&fixtures, &solutions, &answers);
    let _ = std::fs::create_dir_all(&options.findings);
    let _ = HUGE_INPUT_PATH.set(options.findings.join("huge-allocation.bin"));
    eprintln!(
        "fuzz: {} seeds ({}), seed {}, {} threads, {}",
        corpus.seeds.len(),
        TARGETS
            .iter()
            .map(|t| format!("{} {}", corpus.by_target[t.index()].len(), t.name()))
            .collect::<Vec<_>>()
            .join(", "),
        options.seed,
        options.threads,
        match (options.inputs, options.seconds) {
            (Some(n), Some(s)) => format!("{n} inputs or {s} s"),
            (Some(n), None) => format!("{n} inputs"),
            (None, Some(s)) => format!("{s} s"),
            (None, None) => unreachable!("a default is set"),
        }
    );
    silence_panics();
    let threads = options.threads;
    // The threads get the state for the whole process: a hung one is never joined.
    let shared: &'static Shared = Box::leak(Box::new(Shared {
        corpus,
        fixtures,
        options,
        counts: Counts::default(),
        running: (0..threads).map(|_| Mutex::new(None)).collect(),
        hangs: AtomicU64::new(0),
        next: AtomicU64::new(0),
        started: Instant::now(),
        stop: AtomicBool::new(false),
        places: Mutex::new(BTreeMap::new()),
        slowest: Mutex::new((Duration::ZERO, String::new())),
    }));
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn(move || worker(shared, t))
                .expect("a thread")
        })
        .collect();
    watch(shared, &workers);
    let seconds = shared.started.elapsed().as_secs_f64();
    if summary(shared, seconds) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
