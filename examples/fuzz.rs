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

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use satsoko::analysis::Analysis;
use satsoko::binairo::csp::{forward_checking, maintained_arc_consistency};
use satsoko::binairo::generate::to_text;
use satsoko::binairo::grid::{self, is_solution};
use satsoko::binairo::solve::solve_sat;
use satsoko::cert::check::{check_lrat, parse_cnf};
use satsoko::encode::EncodingKind;
use satsoko::encode::formula::Unrolled;
use satsoko::engine::oracle::{SearchResult, shortest_moves, shortest_pushes};
use satsoko::engine::registry::by_name;
use satsoko::engine::{self, EngineChoice, Incumbent, Request, SolveError, Stop, Tuning, Verdict};
use satsoko::game::{Convention, Metric, Plan, replay_in};
use satsoko::level::{Format, Level, SavedSolution, level_blocks, parse_entries, parse_xsb};
use satsoko::sat::dimacs::{SolverAnswer, parse_answer};
use satsoko::sat::{ClauseSink, Lit, SatBackend, SolveResult, SolverChoice, VarisatBackend};

// ---------------------------------------------------------------------------------------
// The memory guard: an allocator that counts the bytes in use and refuses one request
// above `HUGE` (or a total above `TOTAL`). A refused request aborts the process (Rust
// cannot unwind out of an allocation), so the input being run is written out first.

/// The largest single allocation an input may ask for.
const HUGE: usize = 1 << 30;
/// The most heap all threads together may hold.
const TOTAL: usize = 6 << 30;

/// Bytes in use.
static IN_USE: AtomicUsize = AtomicUsize::new(0);
/// The most bytes ever in use (a high-water mark for the summary).
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Where the input of a refused allocation is written (set at the start of a run).
static HUGE_INPUT_PATH: OnceLock<PathBuf> = OnceLock::new();

thread_local! {
    /// The input this thread is running, and its target's name.
    static CURRENT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static CURRENT_NAME: Cell<&'static str> = const { Cell::new("") };
    /// Set while a refused allocation is being reported (the report allocates too).
    static REPORTING: Cell<bool> = const { Cell::new(false) };
    /// The message and place of the last panic on this thread.
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// The counting allocator (see above).
struct Guard;

impl Guard {
    /// Whether a request of `size` more bytes is refused; reports it if so.
    fn refuse(size: usize) -> bool {
        let total = IN_USE.load(Ordering::Relaxed).saturating_add(size);
        if size <= HUGE && total <= TOTAL {
            return false;
        }
        if REPORTING.try_with(|r| r.replace(true)).unwrap_or(true) {
            return false;
        }
        let name = CURRENT_NAME.try_with(Cell::get).unwrap_or("");
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "\nfuzz: a {name} input asked for {size} bytes at once ({total} in all; the \
             limits are {HUGE} and {TOTAL})"
        );
        if let Some(path) = HUGE_INPUT_PATH.get() {
            let _ = CURRENT.try_with(|c| {
                if let Ok(bytes) = c.try_borrow()
                    && std::fs::write(path, &bytes[..]).is_ok()
                {
                    let _ = writeln!(err, "fuzz: the input is saved as {}", path.display());
                }
            });
        }
        true
    }

    fn count(size: usize) {
        let now = IN_USE.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }
}

// SAFETY: every request goes to `System` unchanged, or is refused with a null pointer,
// which callers handle (std aborts).
unsafe impl GlobalAlloc for Guard {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if Guard::refuse(layout.size()) {
            return std::ptr::null_mut();
        }
        Guard::count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if Guard::refuse(layout.size()) {
            return std::ptr::null_mut();
        }
        Guard::count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grow = new_size.saturating_sub(layout.size());
        if grow > 0 && Guard::refuse(grow.max(new_size)) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract is passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            Guard::count(new_size);
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static GLOBAL: Guard = Guard;

// ---------------------------------------------------------------------------------------
// A small deterministic generator.

/// splitmix64: a seed gives the same stream on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------
// Targets and the corpus.

/// What an input is fed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    /// A level file: XSB, numeric, digits → analysis → bounded solve → replay.
    Level,
    /// A solver's answer to a fixed formula → `decode` → replay.
    Answer,
    /// A LURD solution of a fixed level → replay in both conventions.
    Solution,
    /// A Binairo file → the CSP engines and the SAT route.
    Binairo,
    /// A DIMACS formula and an LRAT proof (`%%` between them) → the checker.
    Lrat,
}

/// Every target, in the order of the summary.
const TARGETS: [Target; 5] = [
    Target::Level,
    Target::Answer,
    Target::Solution,
    Target::Binairo,
    Target::Lrat,
];

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::Level => "level",
            Target::Answer => "answer",
            Target::Solution => "solution",
            Target::Binairo => "binairo",
            Target::Lrat => "lrat",
        }
    }

    fn index(self) -> usize {
        TARGETS.iter().position(|&t| t == self).expect("listed")
    }

    fn from_name(name: &str) -> Option<Target> {
        TARGETS.iter().copied().find(|t| t.name() == name)
    }

    /// How often an input is made for this target, in percent.
    fn weight(self) -> u64 {
        match self {
            Target::Level => 50,
            Target::Answer => 13,
            Target::Solution => 13,
            Target::Binairo => 12,
            Target::Lrat => 12,
        }
    }

    /// Words worth inserting into this target's inputs.
    fn dictionary(self) -> &'static [&'static str] {
        match self {
            Target::Level => &[
                "#",
                "@",
                "+",
                "$",
                ".",
                "*",
                "~",
                "=",
                "&",
                "|",
                "-",
                "_",
                " ",
                "\n",
                "\r\n",
                "; 1\n",
                "Title: x\n",
                "Author: y\n",
                "99",
                "10",
                "15",
                "17",
                "20",
                "25",
                "27",
                "30",
                "35",
                "37",
                "42",
                "(",
                ")",
                "[",
                "]",
                ",",
                "((",
                "))",
                "0",
                "1",
                "\t",
                "10000#",
                "9999 ",
                "3@",
                "2$",
                "4.",
                "#@$.#",
                "99,17,15,20,99",
            ],
            Target::Answer => &[
                "s SATISFIABLE\n",
                "s UNSATISFIABLE\n",
                "s UNKNOWN\n",
                "s SAT\n",
                "v ",
                " 0\n",
                "v 0\n",
                "-",
                "SAT\n",
                "UNSAT\n",
                "INDET\n",
                "c x\n",
                "0",
                " ",
                "\n",
                "1",
                "-1",
            ],
            Target::Solution => &[
                "l", "u", "r", "d", "L", "U", "R", "D", " ", "\n", "3l", "10000U", "x", "lurd",
                "LURD", "rR", "dlU",
            ],
            Target::Binairo => &[
                "0", "1", ".", "-", "_", " ", "\n", "; t\n", "\r\n", "01", "10", "..", "0011",
            ],
            Target::Lrat => &[
                "\n%%\n",
                " d ",
                " 0",
                "0\n",
                " 0 ",
                "-",
                "p cnf 2 4\n",
                "p cnf ",
                "c x\n",
                "1 ",
                "2 ",
                "5 ",
                "-1 ",
                "-2 ",
            ],
        }
    }
}

/// Numbers that break parsers: at and beyond the limits of every integer type.
const HUGE_NUMBERS: &[&str] = &[
    "0",
    "10000",
    "10001",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "4000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "-99999999999999999999",
];

/// Bytes that are special somewhere: NUL, CR, LF, tab, DEL, and pieces of UTF-8.
const SPECIAL_BYTES: &[u8] = &[
    0x00, b'\r', b'\n', b'\t', 0x7F, 0xFF, 0xC3, 0x80, 0xE2, 0xF0,
];

/// Byte sequences that are not UTF-8: a lone continuation, a cut sequence, a surrogate,
/// an overlong NUL, a code point above U+10FFFF.
const NOT_UTF8: &[&[u8]] = &[
    &[0x80],
    &[0xFF],
    &[0xC3],
    &[0xE2, 0x82],
    &[0xED, 0xA0, 0x80],
    &[0xC0, 0x80],
    &[0xF4, 0x90, 0x80, 0x80],
];

/// Characters that take more than one byte (or none on screen).
const WIDE: &[&str] = &[
    "é", "中", "🙂", "\u{FEFF}", "\u{200B}", "\u{2028}", "\u{0301}",
];

/// One corpus entry.
struct Seed {
    target: Target,
    /// The target's context: the level of a solution, the formula of an answer.
    context: usize,
    bytes: Vec<u8>,
}

/// Every seed, by target.
struct Corpus {
    seeds: Vec<Seed>,
    by_target: [Vec<usize>; 5],
}

impl Corpus {
    fn add(&mut self, target: Target, context: usize, bytes: Vec<u8>) {
        self.by_target[target.index()].push(self.seeds.len());
        self.seeds.push(Seed {
            target,
            context,
            bytes,
        });
    }
}

/// The fixed things the answer and solution targets work against.
struct Fixtures {
    /// Levels the solution seeds solve.
    levels: Vec<Level>,
    /// Formulas the answer seeds answer: (level, encoding, bound).
    formulas: Vec<(Level, EncodingKind, usize)>,
}

/// What each thread keeps: the fixtures, with the formulas built once.
struct Context<'a> {
    fixtures: &'a Fixtures,
    unrolled: Vec<Unrolled>,
    /// The formula an LRAT input without `%%` is checked against.
    small_formula: Vec<Vec<i64>>,
}

/// A small unsatisfiable formula (every clause over two variables), and its refutation.
const SMALL_CNF: &str = "c x\np cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
const SMALL_PROOF: &str = "5 2 0 1 2 0\n5 d 1 0\n6 0 5 3 4 0\n";

impl<'a> Context<'a> {
    fn new(fixtures: &'a Fixtures) -> Context<'a> {
        Context {
            fixtures,
            unrolled: (fixtures.formulas.iter())
                .map(|(level, kind, k)| Unrolled::new(level, *kind, *k))
                .collect(),
            small_formula: parse_cnf(SMALL_CNF).expect("the small formula parses"),
        }
    }
}

/// Level `number` (1-based) of a bundled XSB file.
fn read_level(path: &str, number: usize) -> Level {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_xsb(path, &text)
        .unwrap_or_else(|e| panic!("{e}"))
        .remove(number - 1)
}

/// Seed texts, each with its context (a fixture's index).
type Seeds = Vec<(usize, String)>;

/// The solution levels and answer formulas, with the plans and models that seed them.
fn fixtures() -> (Fixtures, Seeds, Seeds) {
    let levels = vec![
        read_level("levels/microban.xsb", 1),
        read_level("levels/microban.xsb", 2),
        read_level("levels/examples/solvable.xsb", 1),
        read_level("levels/examples/solvable.xsb", 4),
        read_level("levels/examples/moves_vs_pushes.xsb", 1),
        read_level("levels/ice/ice.xsb", 1),
        read_level("levels/ice/ice.xsb", 4),
        read_level("levels/ice/ice.xsb", 8),
    ];
    let mut solutions = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        let metric = if i % 2 == 0 {
            Metric::Pushes
        } else {
            Metric::Moves
        };
        if let Some(plan) = solve_fully(level, metric) {
            let lurd = plan.lurd();
            solutions.push((i, lurd.to_uppercase()));
            solutions.push((i, run_length(&lurd)));
            solutions.push((i, format!("2({lurd})")));
            solutions.push((i, lurd));
        }
    }
    let plain = read_level("levels/microban.xsb", 1);
    let small = read_level("levels/examples/solvable.xsb", 2);
    let ice = read_level("levels/ice/ice.xsb", 1);
    let formulas = vec![
        (plain.clone(), EncodingKind::Pushes, 8),
        (small.clone(), EncodingKind::Moves, 6),
        (ice, EncodingKind::Moves, 3),
        (plain, EncodingKind::Pushes, 6),
        (small, EncodingKind::Pushes, 3),
    ];
    let mut answers = Vec::new();
    for (i, (level, kind, k)) in formulas.iter().enumerate() {
        let unrolled = Unrolled::new(level, *kind, *k);
        let mut solver = VarisatBackend::new();
        for _ in 0..unrolled.cnf.variables() {
            solver.new_var();
        }
        for clause in &unrolled.cnf.clauses {
            solver.add_clause(clause);
        }
        match solver.solve(&[]) {
            SolveResult::Sat => {
                let lits: Vec<String> = (1..=unrolled.cnf.variables())
                    .map(|v| {
                        let l = Lit::positive(v);
                        if solver.value(l) { l } else { !l }.to_string()
                    })
                    .collect();
                let mut competition = String::from("c fuzz seed\ns SATISFIABLE\n");
                for chunk in lits.chunks(12) {
                    competition.push_str(&format!("v {}\n", chunk.join(" ")));
                }
                competition.push_str("v 0\n");
                answers.push((i, competition));
                answers.push((i, format!("SAT\n{} 0\n", lits.join(" "))));
                answers.push((i, format!("{} 0", lits.join(" "))));
            }
            _ => answers.push((i, "s UNSATISFIABLE\n".into())),
        }
        answers.push((i, "UNSAT\n".into()));
        answers.push((i, "s UNKNOWN\n".into()));
    }
    (Fixtures { levels, formulas }, solutions, answers)
}

/// A LURD string run-length encoded (`dlUrrrdL` → `dlU3rdL`).
fn run_length(lurd: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = lurd.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let n = chars[i..].iter().take_while(|&&c| c == chars[i]).count();
        if n > 1 {
            out.push_str(&n.to_string());
        }
        out.push(chars[i]);
        i += n;
    }
    out
}

/// A plan of `level` by `astar` without a time limit (the fixtures are small).
fn solve_fully(level: &Level, metric: Metric) -> Option<Plan> {
    let request = Request {
        metric,
        prove: true,
        encoding: None,
        solver: SolverChoice::default(),
        max_steps: None,
        tuning: Tuning::default(),
    };
    let engine = by_name("astar").expect("astar");
    let board = Incumbent::new(metric);
    match engine::solve(engine, level, &request, &Stop::never(), &board) {
        Ok(outcome) => match outcome.verdict {
            Verdict::Solved { plan, .. } => Some(plan),
            _ => None,
        },
        Err(_) => None,
    }
}

/// Every file under `dir`, sorted.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The paragraphs of a text (runs of lines between blank lines), for collections.
fn paragraphs(bytes: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current).into_bytes());
            }
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    if !current.is_empty() {
        out.push(current.into_bytes());
    }
    out
}

/// A board far larger than any real one: `side` × `side` cells, the player and a box in
/// the top corner and the goal in the bottom one, as XSB or as a numeric grid.
fn big_board(side: usize, numeric: bool) -> Vec<u8> {
    let mut rows = vec![vec![b' '; side]; side];
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if r == 0 || c == 0 || r + 1 == side || c + 1 == side {
                *cell = b'#';
            }
        }
    }
    rows[1][1] = b'@';
    rows[side - 3][side - 3] = b'$';
    rows[side - 2][side - 2] = b'.';
    let mut out = Vec::new();
    for row in rows {
        if numeric {
            let codes: Vec<&str> = (row.iter())
                .map(|&c| match c {
                    b'#' => "99",
                    b'@' => "17",
                    b'$' => "15",
                    b'.' => "20",
                    _ => "10",
                })
                .collect();
            out.extend_from_slice(codes.join(" ").as_bytes());
        } else {
            out.extend_from_slice(&row);
        }
        out.push(b'\n');
    }
    out
}

/// The corpus: every file under levels/ (whole, and collections paragraph by
/// paragraph), boards beyond the size limits, and the generated answers, solutions,
/// Binairo grids and LRAT proofs.
fn corpus(
    fixtures: &Fixtures,
    solutions: &[(usize, String)],
    answers: &[(usize, String)],
) -> Corpus {
    let mut corpus = Corpus {
        seeds: Vec::new(),
        by_target: Default::default(),
    };
    let mut files = Vec::new();
    files_under(Path::new("levels"), &mut files);
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let target = if path.starts_with("levels/binairo") {
            Target::Binairo
        } else {
            Target::Level
        };
        let parts = paragraphs(&bytes);
        if parts.len() > 1 {
            for part in parts {
                corpus.add(target, 0, part);
            }
        }
        corpus.add(target, 0, bytes);
    }
    for (side, numeric) in [(40, false), (257, false), (300, true), (120, true)] {
        corpus.add(Target::Level, 0, big_board(side, numeric));
    }
    for text in [
        "10000#|#@$.#|10000#\n",
        "#####\n#@$.#\n#####\n",
        "5#|#@$.#|5#",
        "((99,99,99,99,99),(99,17,15,20,99),(99,99,99,99,99))",
        "[[99,99,99],[99,17,99]]\n",
        "99 99 99 99 99\n99 17 15 20 99\n99 99 99 99 99\n",
        "######\n#1 0$#\n######\n",
        "#######\n#@~~$.#\n#######\n",
    ] {
        corpus.add(Target::Level, 0, text.as_bytes().to_vec());
    }
    for (context, lurd) in solutions {
        corpus.add(Target::Solution, *context, lurd.clone().into_bytes());
        // The level with the solution stored after it, as SOK writes it.
        let level = &fixtures.levels[*context];
        let text = format!("; {context}\n{level}Title: t\nSolution\n{lurd}\n");
        corpus.add(Target::Level, 0, text.into_bytes());
    }
    for (context, answer) in answers {
        corpus.add(Target::Answer, *context, answer.clone().into_bytes());
    }
    for text in [
        "10\n01\n",
        "....\n....\n....\n....\n",
        "1..0\n....\n..1.\n....\n",
        "; t\n1 0 . .\n. . . .\n. . . .\n. . . .\n\n; u\n10\n01\n",
        "000.\n....\n....\n....\n",
        "1010\n1010\n....\n....\n",
        "......\n......\n......\n......\n......\n......\n",
    ] {
        corpus.add(Target::Binairo, 0, text.as_bytes().to_vec());
    }
    corpus.add(Target::Lrat, 0, SMALL_PROOF.as_bytes().to_vec());
    corpus.add(
        Target::Lrat,
        0,
        format!("{SMALL_CNF}\n%%\n{SMALL_PROOF}").into_bytes(),
    );
    corpus.add(
        Target::Lrat,
        0,
        "p cnf 1 2\n1 0\n-1 0\n%%\n3 0 1 2 0\n".as_bytes().to_vec(),
    );
    for (path, number) in [
        ("levels/examples/solvable.xsb", 3),
        ("levels/microban.xsb", 1),
    ] {
        if let Some(text) = certificate(&read_level(path, number)) {
            corpus.add(Target::Lrat, 0, text.into_bytes());
        }
    }
    corpus
}

/// A certificate of `level`'s push optimum as one LRAT input: its formula, `%%`, its
/// proof.
fn certificate(level: &Level) -> Option<String> {
    let optimum = solve_fully(level, Metric::Pushes)?.push_count();
    let dir = std::env::temp_dir().join(format!("satsoko-fuzz-{}", std::process::id()));
    let cert = satsoko::cert::certify(level, Metric::Pushes, optimum, &dir, "seed", &Stop::never());
    let text = cert.ok().and_then(|c| {
        let cnf = std::fs::read_to_string(&c.cnf).ok()?;
        let proof = std::fs::read_to_string(&c.lrat).ok()?;
        Some(format!("{cnf}\n%%\n{proof}"))
    });
    let _ = std::fs::remove_dir_all(&dir);
    text
}

// ---------------------------------------------------------------------------------------
// Mutations.

/// The largest input made; larger ones are cut.
const MAX_INPUT: usize = 256 << 10;

/// The start of each line of `bytes`, and its end.
fn lines(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < bytes.len() {
        out.push((start, bytes.len()));
    }
    out
}

/// A position in `bytes`, at a line start a third of the time.
fn position(bytes: &[u8], rng: &mut Rng) -> usize {
    if rng.chance(33) {
        let lines = lines(bytes);
        if !lines.is_empty() {
            return rng.pick(&lines).0;
        }
    }
    rng.below(bytes.len() + 1)
}

/// The digit runs of `bytes` (with a leading minus sign).
fn numbers(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// One mutation of `bytes`, for `target`, with `corpus` for splices.
fn mutate(bytes: &mut Vec<u8>, rng: &mut Rng, corpus: &Corpus, target: Target) {
    let len = bytes.len();
    match rng.below(17) {
        // Bit flips.
        0 if len > 0 => {
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
        }
        // A byte replaced by a special or random one.
        1 if len > 0 => {
            let i = rng.below(len);
            bytes[i] = if rng.chance(50) {
                *rng.pick(SPECIAL_BYTES)
            } else {
                rng.next() as u8
            };
        }
        // A word of the target's dictionary inserted (or one of another target's).
        2 => {
            let dictionary = if rng.chance(85) {
                target.dictionary()
            } else {
                rng.pick(&TARGETS).dictionary()
            };
            let word = rng.pick(dictionary).as_bytes();
            let at = position(bytes, rng);
            bytes.splice(at..at, word.iter().copied());
        }
        // A range deleted.
        3 if len > 0 => {
            let start = rng.below(len);
            let most = if rng.chance(80) { 16 } else { len };
            let n = 1 + rng.below(most);
            bytes.drain(start..(start + n).min(len));
        }
        // Cut: a prefix, or a window.
        4 if len > 0 => {
            let end = rng.below(len + 1);
            if rng.chance(50) {
                bytes.truncate(end);
            } else {
                let start = rng.below(end + 1);
                *bytes = bytes[start..end].to_vec();
            }
        }
        // Splice: a prefix of this input and a suffix of another seed.
        5 => {
            let pool = if rng.chance(70) {
                &corpus.by_target[target.index()]
            } else {
                &corpus.by_target[rng.pick(&TARGETS).index()]
            };
            if pool.is_empty() {
                return;
            }
            let other = &corpus.seeds[*rng.pick(pool)].bytes;
            let cut = position(bytes, rng);
            let from = rng.below(other.len() + 1);
            bytes.truncate(cut);
            bytes.extend_from_slice(&other[from..]);
        }
        // A line repeated (a row, a clause, a proof step).
        6 => {
            let lines = lines(bytes);
            if lines.is_empty() {
                return;
            }
            let (start, end) = *rng.pick(&lines);
            let times = match rng.below(10) {
                0 => 200 + rng.below(2000),
                1..=3 => 10 + rng.below(60),
                _ => 1 + rng.below(5),
            };
            let line = bytes[start..end].to_vec();
            let mut repeated = Vec::with_capacity(line.len() * times);
            for _ in 0..times {
                repeated.extend_from_slice(&line);
                if line.last() != Some(&b'\n') {
                    repeated.push(b'\n');
                }
            }
            bytes.splice(end..end, repeated);
        }
        // A range duplicated in place.
        7 if len > 0 => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(64)).min(len);
            let copy = bytes[start..end].to_vec();
            bytes.splice(end..end, copy);
        }
        // A huge number, in place of a number or inserted.
        8 => {
            let huge = rng.pick(HUGE_NUMBERS).as_bytes();
            let numbers = numbers(bytes);
            if !numbers.is_empty() && rng.chance(60) {
                let (start, end) = *rng.pick(&numbers);
                bytes.splice(start..end, huge.iter().copied());
            } else {
                let at = position(bytes, rng);
                bytes.splice(at..at, huge.iter().copied());
            }
        }
        // A huge run length before a character of the target.
        9 => {
            let count = *rng.pick(&[
                "10000",
                "10001",
                "9999",
                "65536",
                "4000000000",
                "99999999999999999999",
            ]);
            let letter = *rng.pick(&["#", " ", "-", "$", ".", "@", "~", "R", "l", "|"]);
            let at = position(bytes, rng);
            bytes.splice(at..at, format!("{count}{letter}").bytes());
        }
        // Line ends: every LF made CRLF, every CR dropped, or one CR inserted.
        10 => match rng.below(3) {
            0 => {
                let mut out = Vec::with_capacity(len + len / 8);
                for &b in bytes.iter() {
                    if b == b'\n' {
                        out.push(b'\r');
                    }
                    out.push(b);
                }
                *bytes = out;
            }
            1 => bytes.retain(|&b| b != b'\r'),
            _ => {
                let at = position(bytes, rng);
                bytes.insert(at, b'\r');
            }
        },
        // A NUL.
        11 => {
            let at = rng.below(len + 1);
            bytes.insert(at, 0);
        }
        // Bytes that are not UTF-8.
        12 => {
            let at = rng.below(len + 1);
            let bad = *rng.pick(NOT_UTF8);
            bytes.splice(at..at, bad.iter().copied());
        }
        // Two lines swapped, or one deleted.
        13 => {
            let lines = lines(bytes);
            if lines.len() < 2 {
                return;
            }
            let (a, b) = (*rng.pick(&lines), *rng.pick(&lines));
            let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if first == second || rng.chance(30) {
                bytes.drain(first.0..first.1);
            } else {
                let mut out = bytes[..first.0].to_vec();
                out.extend_from_slice(&bytes[second.0..second.1]);
                out.extend_from_slice(&bytes[first.1..second.0]);
                out.extend_from_slice(&bytes[first.0..first.1]);
                out.extend_from_slice(&bytes[second.1..]);
                *bytes = out;
            }
        }
        // A character of several bytes (or of no width).
        14 => {
            let at = position(bytes, rng);
            let wide = rng.pick(WIDE).as_bytes();
            bytes.splice(at..at, wide.iter().copied());
        }
        // A number nudged: one more, one less, zero, negated.
        15 => {
            let numbers = numbers(bytes);
            if numbers.is_empty() {
                return;
            }
            let (start, end) = *rng.pick(&numbers);
            let text = String::from_utf8_lossy(&bytes[start..end]).into_owned();
            let Ok(n) = text.parse::<i128>() else {
                return;
            };
            let new = match rng.below(4) {
                0 => n + 1,
                1 => n - 1,
                2 => 0,
                _ => -n,
            };
            bytes.splice(start..end, new.to_string().bytes());
        }
        // Everything from a point on repeated (a second level, a second answer).
        _ => {
            let from = rng.below(len + 1);
            let tail = bytes[from..].to_vec();
            bytes.extend_from_slice(&tail);
        }
    }
}

/// One input to run.
struct Input {
    target: Target,
    context: usize,
    bytes: Vec<u8>,
}

/// Input number `index` of the run with `seed`: the same mutations of the same seed
/// whatever the threads.
fn make_input(corpus: &Corpus, seed: u64, index: u64) -> Input {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    rng.next();
    let mut roll = rng.below(100) as u64;
    let mut target = Target::Level;
    for t in TARGETS {
        if roll < t.weight() {
            target = t;
            break;
        }
        roll -= t.weight();
    }
    let pool = &corpus.by_target[target.index()];
    let mut pick = *rng.pick(pool);
    // The whole collections are slow to run: one input in eight from them.
    if corpus.seeds[pick].bytes.len() > 4096 && !rng.chance(12) {
        pick = *rng.pick(pool);
    }
    let seed = &corpus.seeds[pick];
    let mut bytes = seed.bytes.clone();
    let (mut target, mut context) = (seed.target, seed.context);
    let rounds = match rng.below(100) {
        0..=2 => 0,
        3..=52 => 1,
        53..=77 => 2,
        _ => 3 + rng.below(2),
    };
    for _ in 0..rounds {
        mutate(&mut bytes, &mut rng, corpus, target);
        bytes.truncate(MAX_INPUT);
    }
    if rng.chance(6) {
        target = *rng.pick(&TARGETS);
        context = rng.below(8);
    }
    Input {
        target,
        context,
        bytes,
    }
}

// ---------------------------------------------------------------------------------------
// The pipelines. Each returns whether the input was accepted (parsed, and so on) or
// cleanly rejected; a panic, or a failed check (an `assert!` here), is a finding.

/// Counters of what the pipelines did, shared by the threads.
#[derive(Default)]
struct Counts {
    inputs: [AtomicU64; 5],
    accepted: [AtomicU64; 5],
    panics: [AtomicU64; 5],
    levels: AtomicU64,
    too_large: AtomicU64,
    analysed: AtomicU64,
    solves: AtomicU64,
    verdicts: [AtomicU64; 6],
    plans_replayed: AtomicU64,
    oracle_checks: AtomicU64,
    models_decoded: AtomicU64,
    proofs_accepted: AtomicU64,
    puzzles_solved: AtomicU64,
}

/// The verdicts of the bounded solves, as the summary counts them.
const VERDICTS: [&str; 6] = [
    "solved",
    "optimal",
    "unsolvable",
    "no-plan",
    "stopped",
    "refused",
];

/// Adds one to a counter.
fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The text of an input: UTF-8 as it is, or (as the parsers never see it from the CLI,
/// which refuses such files first) with the bad bytes replaced.
fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The time a bounded solve may take.
const SOLVE_TIME: Duration = Duration::from_millis(3);

/// Runs one input through its target's pipeline. The choices the pipeline makes (the
/// level, the engine, the bound) come from the input's bytes, so a saved input runs the
/// same way again (up to the solve's time limit).
fn run(input: &Input, context: &mut Context, counts: &Counts) -> bool {
    let text = text_of(&input.bytes);
    let hash = (input.bytes.iter()).fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    });
    let rng = &mut Rng::new(hash ^ input.context as u64);
    match input.target {
        Target::Level => run_level(&input.bytes, &text, counts, rng),
        Target::Answer => run_answer(&text, input.context, context, counts),
        Target::Solution => run_solution(&text, input.context, context, counts),
        Target::Binairo => run_binairo(&text, counts, rng),
        Target::Lrat => run_lrat(&text, context, counts),
    }
}

/// Checks that an error names a real place of `text`.
fn check_place(text: &str, line: Option<usize>, column: Option<usize>, message: &str) {
    assert!(!message.is_empty(), "an error without a message");
    let lines = text.lines().count().max(1);
    if let Some(line) = line {
        assert!(
            line >= 1 && line <= lines,
            "line {line} of {lines}: {message}"
        );
        if let Some(column) = column {
            let width = text.lines().nth(line - 1).map_or(0, |l| l.chars().count());
            assert!(
                column >= 1 && column <= width + 1,
                "column {column} of {width}: {message}"
            );
        }
    }
}

/// Level files: every format, then analysis, a bounded solve and replays of one level.
fn run_level(bytes: &[u8], text: &str, counts: &Counts, rng: &mut Rng) -> bool {
    // The CLI refuses non-UTF-8 files with the offset of the first bad byte.
    if let Err(e) = std::str::from_utf8(bytes) {
        assert!(e.valid_up_to() < bytes.len());
    }
    let mut levels = Vec::new();
    for format in [
        None,
        Some(Format::Xsb),
        Some(Format::Numeric),
        Some(Format::Digits),
    ] {
        match parse_entries("fuzz", text, format) {
            Ok(entries) => {
                for entry in entries {
                    match entry {
                        Ok(level) => {
                            check_level(&level);
                            replay_saved(&level, text);
                            if levels.len() < 64 {
                                levels.push(level);
                            }
                        }
                        Err(e) => {
                            assert!(e.level.is_some(), "{e}");
                            check_place(text, e.line, e.column, &e.to_string());
                        }
                    }
                }
            }
            Err(e) => check_place(text, e.line, e.column, &e.to_string()),
        }
    }
    let blocks = level_blocks(text);
    for (n, block) in blocks.iter().enumerate() {
        assert_eq!(block.number, n + 1);
        check_place(text, Some(block.first_line), None, "a level block");
        assert!(block.insert_at.line <= text.lines().count());
    }
    if levels.is_empty() {
        return false;
    }
    counts
        .levels
        .fetch_add(levels.len() as u64, Ordering::Relaxed);
    let level = levels.swap_remove(rng.below(levels.len()));
    if level.cell_count() > SOLVE_MAX_CELLS || level.box_cells().count() > SOLVE_MAX_BOXES {
        bump(&counts.too_large);
    } else {
        solve_level(&level, counts, rng);
    }
    true
}

/// The solutions stored after a level (SOK `Solution` sections, run-length encoded):
/// expanded and replayed in both conventions.
fn replay_saved(level: &Level, text: &str) {
    for saved in &level.solutions {
        match saved.lurd() {
            Ok(lurd) => {
                let xsb = replay_in(level, &lurd, Convention::Xsb);
                let course = replay_in(level, &lurd, Convention::Course);
                if let Ok(r) = &xsb {
                    let c = course.expect("a legal XSB plan is a legal course plan");
                    assert_eq!((r.moves, r.pushes, &r.end), (c.moves, c.pushes, &c.end));
                }
            }
            Err(e) => check_place(text, Some(e.line), None, &e.message),
        }
    }
}

/// What every parsed level satisfies.
fn check_level(level: &Level) {
    let boxes = level.box_cells().count();
    assert!(boxes > 0, "a level without a box");
    assert_eq!(boxes, level.goal_cells().count(), "boxes and goals differ");
    assert!(!level.is_wall(level.player()), "the player is in a wall");
    assert!(
        level.box_cells().all(|b| !level.is_wall(b)),
        "a box in a wall"
    );
    assert_eq!(level.cell_count(), level.width() * level.height());
    // Drawn as XSB and read again, a level with a wall on every line is the same level.
    let drawn = level.to_string();
    let drawable = drawn.lines().all(|l| {
        let t = l.trim();
        !t.is_empty() && t.contains('#') && !t.starts_with(';') && !t.contains(':')
    });
    if drawable {
        let again = parse_xsb("drawn", &drawn).unwrap_or_else(|e| panic!("{e}:\n{drawn}"));
        assert_eq!(again.len(), 1, "{drawn}");
        let places = |l: &Level, cells: Vec<usize>| -> Vec<(usize, usize)> {
            cells.into_iter().map(|c| l.row_col(c)).collect()
        };
        let marks = |l: &Level| {
            (
                l.row_col(l.player()),
                places(l, l.box_cells().collect()),
                places(l, l.goal_cells().collect()),
                places(l, l.open_cells().filter(|&c| l.is_ice(c)).collect()),
            )
        };
        assert_eq!(marks(&again[0]), marks(level), "{drawn}");
    }
}

/// The largest level analysed and solved (cells, the border included). Larger ones are
/// read and checked only: the analysis is not interruptible and parts of it grow with
/// the square of the board (docs/fuzzing.md).
const SOLVE_MAX_CELLS: usize = 10_000;

/// The most boxes of a level analysed and solved (the matching grows with their cube).
const SOLVE_MAX_BOXES: usize = 256;

/// The engine settings a bounded solve picks from.
const ENGINES: [(&str, Metric, bool); 8] = [
    ("astar", Metric::Pushes, true),
    ("astar", Metric::Moves, true),
    ("finder", Metric::Pushes, false),
    ("pdr", Metric::Pushes, true),
    ("unroll", Metric::Pushes, true),
    ("unroll", Metric::Moves, true),
    ("subgoals", Metric::Pushes, false),
    ("anytime", Metric::Pushes, true),
];

/// Analysis, a bounded solve with one engine, the replay of its plan (and of mutations
/// of it), and, on tiny levels, every claim checked against the brute-force oracle.
fn solve_level(level: &Level, counts: &Counts, rng: &mut Rng) {
    let analysis = Analysis::new(level);
    bump(&counts.analysed);
    let (name, metric, prove) = *rng.pick(&ENGINES);
    let auto = rng.chance(15);
    let request = Request {
        metric,
        prove,
        encoding: (name == "unroll").then(|| EncodingKind::for_metric(metric)),
        solver: SolverChoice::default(),
        max_steps: match rng.below(4) {
            0 => None,
            1 => Some(rng.below(4)),
            _ => Some(rng.below(40)),
        },
        tuning: Tuning::default(),
    };
    let engine = if auto {
        EngineChoice::Auto.engine_for(level, &request)
    } else {
        by_name(name).expect("a listed engine")
    };
    let stop = Stop::new(Some(Instant::now() + SOLVE_TIME));
    let board = Incumbent::new(metric);
    bump(&counts.solves);
    let outcome = match engine::solve(engine, level, &request, &stop, &board) {
        Ok(outcome) => outcome,
        Err(SolveError::Internal(e)) => panic!("internal error: {e}"),
        Err(_) => {
            bump(&counts.verdicts[5]);
            return;
        }
    };
    // The metric the outcome counts in (unroll moves to the moves encoding on ice).
    let metric = outcome.metric;
    let tiny = level.open_cells().count() <= 40 && level.box_cells().count() <= 3;
    let oracle = |max: usize| {
        bump(&counts.oracle_checks);
        match metric {
            Metric::Pushes => shortest_pushes(level, max, 20_000),
            Metric::Moves => shortest_moves(level, max, 20_000),
        }
    };
    match &outcome.verdict {
        Verdict::Solved { plan, optimal } => {
            bump(&counts.verdicts[if *optimal { 1 } else { 0 }]);
            let lurd = plan.lurd();
            let replayed = replay_in(level, &lurd, Convention::Xsb)
                .unwrap_or_else(|e| panic!("the plan {lurd} fails replay: {e}"));
            assert!(replayed.solved, "the plan {lurd} does not solve the level");
            let course = replay_in(level, &lurd.to_uppercase(), Convention::Course)
                .unwrap_or_else(|e| panic!("the plan {lurd} fails the course's replay: {e}"));
            assert!(course.solved && course.pushes == replayed.pushes);
            bump(&counts.plans_replayed);
            if tiny {
                let length = plan.count(metric);
                if let SearchResult::Optimal(best) = oracle(length) {
                    if *optimal {
                        assert_eq!(best, length, "{}: {lurd} is called optimal", outcome.engine);
                    }
                    let lower = outcome.lower_bound.unwrap_or(0);
                    assert!(
                        lower <= best,
                        "{}: lower bound {lower} above the optimum {best} in {metric}",
                        outcome.engine
                    );
                }
            }
            // Mutations of the plan replay without panicking, in both conventions.
            let mut bytes = lurd.into_bytes();
            for _ in 0..3 {
                if bytes.is_empty() {
                    break;
                }
                let i = rng.below(bytes.len());
                bytes[i] = *rng.pick(b"lurdLURDx ");
                let text = text_of(&bytes);
                let xsb = replay_in(level, &text, Convention::Xsb);
                let course = replay_in(level, &text, Convention::Course);
                if let Ok(r) = &xsb {
                    let c = course.expect("a legal XSB plan is a legal course plan");
                    assert_eq!((r.moves, r.pushes, &r.end), (c.moves, c.pushes, &c.end));
                }
            }
        }
        Verdict::Unsolvable { reason } => {
            bump(&counts.verdicts[2]);
            if tiny && let SearchResult::Optimal(n) = oracle(200) {
                panic!("called unsolvable ({reason}) but has a plan of {n}");
            }
        }
        Verdict::NoPlan { bound } => {
            bump(&counts.verdicts[3]);
            if tiny && let SearchResult::Optimal(n) = oracle(*bound) {
                panic!("no plan within {bound} claimed, but one of {n} exists");
            }
        }
        Verdict::Stopped { .. } => bump(&counts.verdicts[4]),
    }
    if tiny
        && analysis.unsolvable.is_none()
        && let SearchResult::Optimal(pushes) = shortest_pushes(level, 60, 20_000)
    {
        assert!(analysis.push_lower_bound <= pushes, "push lower bound");
    }
}

/// A solver's answer to fixed formula `context`: read, decoded, and its plan replayed.
fn run_answer(text: &str, context: usize, ctx: &mut Context, counts: &Counts) -> bool {
    let i = context % ctx.unrolled.len();
    let answer = match parse_answer(text) {
        Ok(answer) => answer,
        Err(e) => {
            assert!(!e.is_empty());
            return false;
        }
    };
    let SolverAnswer::Sat(model) = answer else {
        return true;
    };
    let value = |l: Lit| SolverAnswer::value(&model, l);
    if ctx.unrolled[i].cnf.first_falsified(&value).is_some() {
        return false;
    }
    // A model: decoded by a fresh formula, as `decode` does.
    let (level, kind, k) = &ctx.fixtures.formulas[i];
    let mut unrolled = Unrolled::new(level, *kind, *k);
    match unrolled.decode(&value) {
        Ok((steps, plan)) => {
            assert!(steps <= *k);
            if let Err(e) = plan.verify(level) {
                panic!("a model of the formula decodes to {plan}, which fails replay: {e}");
            }
            bump(&counts.models_decoded);
            true
        }
        Err(e) => {
            assert!(!e.is_empty());
            false
        }
    }
}

/// A LURD string against fixed level `context`, in both conventions, as it is and read
/// as the moves of a stored solution (run-length counts and groups expanded).
fn run_solution(text: &str, context: usize, ctx: &mut Context, counts: &Counts) -> bool {
    let level = &ctx.fixtures.levels[context % ctx.fixtures.levels.len()];
    let saved = SavedSolution {
        title: "Solution".into(),
        line: 1,
        moves: (text.lines().enumerate())
            .map(|(i, l)| (i + 2, l.trim().to_string()))
            .collect(),
    };
    let plain = replay_lurd(level, text, counts);
    match saved.lurd() {
        Ok(lurd) => replay_lurd(level, &lurd, counts) || plain,
        Err(e) => {
            assert!(e.line >= 2 && e.line <= text.lines().count() + 1, "{e}");
            plain
        }
    }
}

/// A LURD string against `level`, in both conventions, with the answers compared.
fn replay_lurd(level: &Level, text: &str, counts: &Counts) -> bool {
    let letters = text.chars().filter(|c| !c.is_whitespace()).count();
    let xsb = replay_in(level, text, Convention::Xsb);
    let course = replay_in(level, text, Convention::Course);
    let plan = Plan::from_lurd(text);
    match &xsb {
        Ok(r) => {
            assert_eq!(r.moves, letters);
            assert!(r.pushes <= r.moves);
            let c = course.expect("a legal XSB plan is a legal course plan");
            assert_eq!((r.moves, r.pushes, &r.end), (c.moves, c.pushes, &c.end));
            let plan = plan.expect("a legal plan is LURD");
            assert_eq!(plan.verify(level).is_ok(), r.solved);
            assert_eq!(plan.push_count(), r.pushes);
            bump(&counts.plans_replayed);
            true
        }
        Err(e) => {
            assert!(e.position >= 1 && e.position <= letters, "{e}");
            if let Some(plan) = plan {
                assert!(plan.verify(level).is_err());
            }
            if let Ok(c) = course {
                assert_eq!(c.moves, letters);
            }
            false
        }
    }
}

/// A Binairo file: every puzzle solved by forward checking and arc consistency, small
/// ones by the SAT route too, with the verdicts compared and every solution checked.
fn run_binairo(text: &str, counts: &Counts, rng: &mut Rng) -> bool {
    let mut any = false;
    for (n, entry) in grid::parse(text).into_iter().enumerate() {
        let puzzle = match entry {
            Ok(p) => p,
            Err(e) => {
                assert_eq!(e.puzzle, n + 1);
                check_place(text, Some(e.line), Some(e.column), &e.message);
                continue;
            }
        };
        any = true;
        assert_eq!(puzzle.number, n + 1);
        assert_eq!(puzzle.cells.len(), puzzle.rows * puzzle.cols);
        let again = grid::parse(&to_text(&puzzle));
        assert_eq!(again.len(), 1);
        let again = again[0].as_ref().expect("a written puzzle reads back");
        assert_eq!(again.cells, puzzle.cells);
        if puzzle.cells.len() > 64 || n >= 4 {
            continue;
        }
        // The engines stop at a deadline; a stopped one is compared with nothing.
        let stop = Stop::new(Some(Instant::now() + Duration::from_millis(20)));
        let fc = forward_checking(&puzzle, 2, &stop);
        let mac = maintained_arc_consistency(&puzzle, 2, &stop);
        for grid in fc.iter().chain(&mac).flatten() {
            assert!(is_solution(&puzzle, grid), "a CSP solution breaks a rule");
        }
        if let (Some(fc), Some(mac)) = (&fc, &mac) {
            assert_eq!(fc.len(), mac.len(), "fc and mac disagree");
        }
        if puzzle.cells.len() <= 36 || rng.chance(10) {
            let answer = solve_sat(&puzzle, Box::new(VarisatBackend::new()), 2)
                .unwrap_or_else(|e| panic!("the SAT route failed: {e}"));
            if let (Some(answer), Some(fc)) = (answer, &fc) {
                assert_eq!(answer.solutions.len(), fc.len(), "SAT and fc disagree");
            }
        }
        bump(&counts.puzzles_solved);
    }
    any
}

/// A formula and an LRAT proof (`%%` between them; the small formula without one). A
/// proof accepted for a formula of at most 16 variables is checked by trying every
/// assignment.
fn run_lrat(text: &str, ctx: &mut Context, counts: &Counts) -> bool {
    let (formula, proof) = match text.split_once("\n%%\n") {
        Some((cnf, proof)) => match parse_cnf(cnf) {
            Ok(formula) => (formula, proof),
            Err(e) => {
                assert!(!e.is_empty());
                return false;
            }
        },
        None => (ctx.small_formula.clone(), text),
    };
    match check_lrat(&formula, proof) {
        Ok(checked) => {
            assert_eq!(checked.clauses, formula.len());
            let vars = (formula.iter().flatten())
                .map(|l| l.unsigned_abs())
                .max()
                .unwrap_or(0);
            if vars <= 16 && formula.len() <= 1000 {
                let satisfiable = (0u32..1 << vars).any(|bits| {
                    formula.iter().all(|clause| {
                        clause.iter().any(|&l| {
                            let v = l.unsigned_abs() - 1;
                            (bits >> v & 1 == 1) == (l > 0)
                        })
                    })
                });
                assert!(!satisfiable, "a proof refutes a satisfiable formula");
            }
            bump(&counts.proofs_accepted);
            true
        }
        Err(e) => {
            assert!(!e.is_empty());
            false
        }
    }
}

// ---------------------------------------------------------------------------------------
// The driver.

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
