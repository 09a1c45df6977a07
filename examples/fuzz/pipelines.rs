//! The pipelines: what each target does with an input, from the parsers through
//! analysis, a bounded solve, the decoding of models and the replay of plans, with the
//! checks that make a wrong answer a finding. Each returns whether the input was
//! accepted (parsed, and so on) or cleanly rejected; a panic, or a failed check (an
//! `assert!` here), is a finding.
//!
//! Apart from the driver because this is what the fuzzing tests; the driver only hands
//! out inputs, catches panics and keeps the findings.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use satsoko::analysis::Analysis;
use satsoko::binairo::csp::{forward_checking, maintained_arc_consistency, no_trace};
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
use satsoko::sat::{Lit, SolverChoice, VarisatBackend};

use crate::corpus::Context;
use crate::mutate::Input;
use crate::rng::Rng;
use crate::targets::Target;

/// Counters of what the pipelines did, shared by the threads.
#[derive(Default)]
pub(crate) struct Counts {
    pub(crate) inputs: [AtomicU64; 5],
    pub(crate) accepted: [AtomicU64; 5],
    pub(crate) panics: [AtomicU64; 5],
    pub(crate) levels: AtomicU64,
    pub(crate) too_large: AtomicU64,
    pub(crate) analysed: AtomicU64,
    pub(crate) solves: AtomicU64,
    pub(crate) verdicts: [AtomicU64; 6],
    pub(crate) plans_replayed: AtomicU64,
    pub(crate) oracle_checks: AtomicU64,
    pub(crate) models_decoded: AtomicU64,
    pub(crate) proofs_accepted: AtomicU64,
    pub(crate) puzzles_solved: AtomicU64,
}

/// The verdicts of the bounded solves, as the summary counts them.
pub(crate) const VERDICTS: [&str; 6] = [
    "solved",
    "optimal",
    "unsolvable",
    "no-plan",
    "stopped",
    "refused",
];

/// Adds one to a counter.
pub(crate) fn bump(counter: &AtomicU64) {
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
pub(crate) fn run(input: &Input, context: &mut Context, counts: &Counts) -> bool {
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
const ENGINES: [(&str, Metric, bool); 9] = [
    ("astar", Metric::Pushes, true),
    ("astar", Metric::Moves, true),
    ("finder", Metric::Pushes, false),
    ("pdr", Metric::Pushes, true),
    ("unroll", Metric::Pushes, true),
    ("unroll", Metric::Moves, true),
    ("subgoals", Metric::Pushes, false),
    ("anytime", Metric::Pushes, true),
    ("bdd", Metric::Moves, true),
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
        let fc = forward_checking(&puzzle, 2, &stop, &mut no_trace);
        let mac = maintained_arc_consistency(&puzzle, 2, &stop, &mut no_trace);
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
            let vars = formula.variables();
            if vars <= 16 && formula.len() <= 1000 {
                let satisfiable = (0u32..1 << vars).any(|bits| {
                    formula.clauses().all(|clause| {
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
