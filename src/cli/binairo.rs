//! `satsoko binairo`: solves Binairo puzzles with the SAT solver or a CSP baseline and
//! says whether the solution is unique, or generates puzzles.

use std::io::Write as _;
use std::time::{Duration, Instant};

use serde_json::json;

use super::args::{BinairoArgs, BinairoEngine, SolverArg};
use super::interrupt::on_ctrl_c;
use super::report::{
    EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_TIMEOUT, EXIT_UNSOLVABLE, EXIT_USAGE, plural,
};
use super::trace::BoundedTrace;
use crate::binairo::csp::{Assigned, TraceEvent, forward_checking, maintained_arc_consistency};
use crate::binairo::encode::BinairoFormula;
use crate::binairo::generate::{Rng, generate, to_text};
use crate::binairo::grid::{Puzzle, parse, rows_of};
use crate::binairo::solve::{Answer, Verdict, solve_sat};
use crate::engine::Stop;
use crate::sat::dimacs::CnfBuffer;
use crate::sat::{SatBackend, SolverChoice};

/// A fresh backend of the chosen solver.
fn backend(solver: SolverArg, stop: Option<&Stop>) -> Result<Box<dyn SatBackend>, String> {
    SolverChoice::Builtin(solver.name()).backend(stop.map(Stop::interrupt))
}

/// Solves one puzzle with `engine`, looking for `count` solutions (at least two, to
/// tell unique from multiple); `Ok(None)` when `stop` ended it first. The CSP engines
/// send each step of their search to `trace`.
pub(super) fn answer(
    p: &Puzzle,
    engine: BinairoEngine,
    solver: SolverArg,
    count: usize,
    stop: &Stop,
    trace: &mut dyn FnMut(TraceEvent),
) -> Result<Option<Answer>, String> {
    let cap = count.max(2);
    let csp = |found: Option<Vec<Vec<bool>>>| {
        found.map(|found| Answer {
            verdict: Verdict::of(found.len()),
            solutions: found.into_iter().take(count.max(1)).collect(),
            variables: 0,
            clauses: 0,
        })
    };
    match engine {
        BinairoEngine::Sat => solve_sat(p, backend(solver, Some(stop))?, count),
        BinairoEngine::Fc => Ok(csp(forward_checking(p, cap, stop, trace))),
        BinairoEngine::Mac => Ok(csp(maintained_arc_consistency(p, cap, stop, trace))),
    }
}

/// Runs `binairo` and returns the exit code.
pub fn run(args: &BinairoArgs) -> i32 {
    if let Some(n) = args.generate {
        return run_generate(args, n);
    }
    if args.trace && args.engine == BinairoEngine::Sat {
        eprintln!(
            "error: --trace shows the search of --engine fc or mac; the SAT engine (the \
             default) makes its choices inside the solver (add --engine fc or --engine mac)"
        );
        return EXIT_USAGE;
    }
    let mut output = match &args.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some((path.as_path(), std::io::BufWriter::new(f))),
            Err(e) => return cannot_write(path, &e),
        },
        None => None,
    };
    let mut code = EXIT_OK;
    let mut tally: Vec<(Verdict, f64)> = Vec::new();
    let (mut errors, mut timeouts) = (0, 0);
    let ctrl_c = on_ctrl_c();
    for path in &args.files {
        let file = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {file}: {e}");
                code = EXIT_INPUT;
                continue;
            }
        };
        for (i, entry) in parse(&text).into_iter().enumerate() {
            let number = i + 1;
            let p = match entry {
                Ok(p) => p,
                Err(e) => {
                    let message = format!("{file}: {e}");
                    if args.json {
                        let v = json!({"file": file, "puzzle": number, "status": "error", "message": message});
                        super::say(&v.to_string());
                    } else {
                        eprintln!("error: {message}");
                    }
                    code = EXIT_INPUT;
                    errors += 1;
                    continue;
                }
            };
            if let Some(dir) = &args.encode {
                if let Err(e) = write_cnf(dir, path, &p) {
                    eprintln!("error: {e}");
                    code = EXIT_INPUT;
                }
                continue;
            }
            let mut trace = args.trace.then(|| {
                super::say(&format!("{file} puzzle {number}: the search, step by step"));
                CspTrace::new(args.trace_limit)
            });
            let started = Instant::now();
            let stop =
                ctrl_c.with_deadline(args.timeout.map(|t| started + Duration::from_secs_f64(t)));
            let mut sink = |e| {
                if let Some(t) = &mut trace {
                    t.event(e);
                }
            };
            let result = answer(&p, args.engine, args.solver, args.count, &stop, &mut sink);
            if let Some(t) = &trace {
                t.finish();
            }
            let outcome = match &result {
                Ok(Some(a)) => verdict_words(a.verdict),
                Ok(None) => "no answer",
                Err(_) => "error",
            };
            if let Some((path, out)) = &mut output
                && let Err(e) = write_answers(
                    out,
                    &file,
                    &p,
                    result.as_ref().ok().and_then(Option::as_ref),
                    outcome,
                )
            {
                return cannot_write(path, &e);
            }
            let a = match result {
                Ok(Some(a)) => a,
                Ok(None) => {
                    let seconds = started.elapsed().as_secs_f64();
                    let why = if ctrl_c.should_stop() {
                        "interrupted"
                    } else {
                        "time limit"
                    };
                    if args.json {
                        let v = json!({"file": file, "puzzle": number, "title": p.title,
                                       "status": "timeout", "seconds": (seconds * 1000.0).round() / 1000.0});
                        super::say(&v.to_string());
                    } else {
                        super::say(&format!(
                            "{file} puzzle {number}: no answer ({why}, {seconds:.3} s)"
                        ));
                    }
                    timeouts += 1;
                    if code == EXIT_OK || code == EXIT_UNSOLVABLE {
                        code = if ctrl_c.should_stop() {
                            EXIT_INTERRUPTED
                        } else {
                            EXIT_TIMEOUT
                        };
                    }
                    if ctrl_c.should_stop() {
                        break;
                    }
                    continue;
                }
                Err(e) => {
                    eprintln!("error: {file}: puzzle {number}: {e}");
                    code = EXIT_INPUT;
                    continue;
                }
            };
            let seconds = started.elapsed().as_secs_f64();
            if a.verdict == Verdict::Unsolvable && code == EXIT_OK {
                code = EXIT_UNSOLVABLE;
            }
            tally.push((a.verdict, seconds));
            print_answer(args, &file, &p, &a, seconds);
        }
    }
    if !args.json && tally.len() + errors + timeouts > 1 {
        super::say(&summary(&tally, errors, timeouts));
    }
    if let Some((path, out)) = &mut output
        && let Err(e) = out.flush()
    {
        return cannot_write(path, &e);
    }
    code
}

/// Says that `path` (the `-o` file) cannot be written, and gives the exit code.
fn cannot_write(path: &std::path::Path, e: &std::io::Error) -> i32 {
    eprintln!("error: cannot write {}: {e}", path.display());
    EXIT_INPUT
}

/// Writes the answer to puzzle `p` of `file` to `out` in the puzzle format: each
/// solution found as a grid after a comment naming the puzzle (its title when read
/// back), or, without a solution, the comment alone saying what became of it.
fn write_answers(
    out: &mut impl std::io::Write,
    file: &str,
    p: &Puzzle,
    a: Option<&Answer>,
    outcome: &str,
) -> std::io::Result<()> {
    let name = match &p.title {
        Some(t) => format!("{file} puzzle {} ({t})", p.number),
        None => format!("{file} puzzle {}", p.number),
    };
    let solutions = a.map_or(&[][..], |a| &a.solutions[..]);
    if solutions.is_empty() {
        return writeln!(out, "; {name}: {outcome}\n");
    }
    for (k, grid) in solutions.iter().enumerate() {
        let which = if solutions.len() > 1 {
            format!("; solution {} of {} written", k + 1, solutions.len())
        } else {
            String::new()
        };
        writeln!(out, "; {name}: {outcome}{which}")?;
        for row in rows_of(p.cols, grid) {
            writeln!(out, "{row}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// A CSP search's trace as `--trace` prints it: each event as it comes, up to the
/// limit, then the count of those left out and the totals.
struct CspTrace {
    lines: BoundedTrace,
    decisions: u64,
    forced: u64,
    backtracks: u64,
    solutions: u64,
}

impl CspTrace {
    fn new(limit: usize) -> CspTrace {
        CspTrace {
            lines: BoundedTrace::new(limit, "events"),
            decisions: 0,
            forced: 0,
            backtracks: 0,
            solutions: 0,
        }
    }

    /// Counts `e` and prints it (within the limit).
    fn event(&mut self, e: TraceEvent) {
        match &e {
            TraceEvent::Decision { .. } => self.decisions += 1,
            TraceEvent::Forced { .. } => self.forced += 1,
            TraceEvent::Backtrack { .. } => self.backtracks += 1,
            TraceEvent::Solution => self.solutions += 1,
        }
        self.lines.line(|| match e {
            TraceEvent::Decision { depth, assigned } => {
                format!("  depth {depth}: decide {}", words(&assigned))
            }
            TraceEvent::Forced { depth, assigned } => {
                format!("  depth {depth}: forced {}", words(&assigned))
            }
            TraceEvent::Backtrack { depth: 0 } => "  the givens break a rule".to_string(),
            TraceEvent::Backtrack { depth } => {
                format!("  depth {depth}: dead end, back to depth {}", depth - 1)
            }
            TraceEvent::Solution => "  solution".to_string(),
        });
    }

    /// Prints the count of the events left out and the totals.
    fn finish(&self) {
        self.lines.finish();
        let decisions = plural(self.decisions, "decision");
        let backtracks = plural(self.backtracks, "backtrack");
        let solutions = plural(self.solutions, "solution");
        let forced = self.forced;
        super::say(&format!(
            "  search: {decisions}, {forced} forced, {backtracks}, {solutions}"
        ));
    }
}

/// A traced value in words: `r2c5 = 1`, `row 3 = 010110`, `column 1 = 100110`
/// (rows and columns from 1).
fn words(a: &Assigned) -> String {
    let digits = |pattern: &[bool]| rows_of(pattern.len(), pattern).concat();
    match a {
        Assigned::Cell { row, col, value } => {
            format!("r{}c{} = {}", row + 1, col + 1, u8::from(*value))
        }
        Assigned::Row { row, pattern } => format!("row {} = {}", row + 1, digits(pattern)),
        Assigned::Column { col, pattern } => {
            format!("column {} = {}", col + 1, digits(pattern))
        }
    }
}

/// The last line of a run over several puzzles: the verdicts and the times.
fn summary(tally: &[(Verdict, f64)], errors: usize, timeouts: usize) -> String {
    let count = |v: Verdict| tally.iter().filter(|(w, _)| *w == v).count();
    let mut times: Vec<f64> = tally.iter().map(|&(_, s)| s).collect();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let worst = times.last().copied().unwrap_or(0.0);
    format!(
        "{} puzzles: {} unique, {} multiple, {} unsolvable, {timeouts} timeouts, {errors} errors; \
         answered in median {median:.3} s, worst {worst:.3} s",
        tally.len() + errors + timeouts,
        count(Verdict::Unique),
        count(Verdict::Multiple),
        count(Verdict::Unsolvable),
    )
}

/// A verdict as the text report and the answers file say it.
fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::Unique => "unique solution",
        Verdict::Multiple => "more than one solution",
        Verdict::Unsolvable => "no solution",
    }
}

fn print_answer(args: &BinairoArgs, file: &str, p: &Puzzle, a: &Answer, seconds: f64) {
    let grids: Vec<Vec<String>> = a.solutions.iter().map(|s| rows_of(p.cols, s)).collect();
    if args.json {
        let mut v = json!({
            "file": file, "puzzle": p.number, "title": p.title, "status": a.verdict.name(),
        });
        if let Some(first) = grids.first() {
            v["solution"] = json!(first);
        }
        v["solutions"] = json!(a.solutions.len());
        if grids.len() > 1 {
            v["grids"] = json!(grids);
        }
        v["seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        if args.engine == BinairoEngine::Sat {
            v["variables"] = json!(a.variables);
            v["clauses"] = json!(a.clauses);
        }
        super::say(&v.to_string());
        return;
    }
    let name = match &p.title {
        Some(t) => format!("puzzle {} ({t})", p.number),
        None => format!("puzzle {}", p.number),
    };
    let what = verdict_words(a.verdict);
    super::say(&format!("{file} {name}: {what} ({:.3} s)", seconds));
    for (k, grid) in grids.iter().enumerate() {
        if grids.len() > 1 {
            super::say(&format!("  solution {}:", k + 1));
        }
        for row in grid {
            super::say(&format!("  {row}"));
        }
    }
    if args.engine == BinairoEngine::Sat {
        super::say(&format!(
            "  {} variables, {} clauses",
            a.variables, a.clauses
        ));
    }
}

fn run_generate(args: &BinairoArgs, n: usize) -> i32 {
    if args.size < 2 || args.size % 2 == 1 {
        eprintln!(
            "error: --size must be even and at least 2 (it is {})",
            args.size
        );
        return EXIT_USAGE;
    }
    let mut rng = Rng::new(args.seed);
    let puzzles = if n == 1 { "puzzle" } else { "puzzles" };
    super::say(&format!(
        "; {n} Binairo {puzzles} of {0}×{0} with a unique solution and no redundant given (seed {1})",
        args.size, args.seed
    ));
    for i in 0..n {
        let started = Instant::now();
        let made = backend(args.solver, None).and_then(|b| generate(args.size, &mut rng, b));
        let p = match made {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_INPUT;
            }
        };
        // Checked again by a fresh solve before it is written.
        let check = backend(args.solver, None).and_then(|b| solve_sat(&p, b, 2));
        if !matches!(
            check,
            Ok(Some(Answer {
                verdict: Verdict::Unique,
                ..
            }))
        ) {
            eprintln!("error: a generated puzzle is not unique (a bug)");
            return 70;
        }
        let givens = p.cells.iter().filter(|c| c.is_some()).count();
        super::say("");
        super::say(&format!(
            "; seed {} #{}: {givens} givens, made in {:.3} s",
            args.seed,
            i + 1,
            started.elapsed().as_secs_f64()
        ));
        print!("{}", to_text(&p));
    }
    EXIT_OK
}

/// The formula of puzzle `p` of `file` as DIMACS, every variable named in a comment.
pub(super) fn cnf_text(file: &std::path::Path, p: &Puzzle) -> String {
    let mut cnf = CnfBuffer::new();
    BinairoFormula::new(p, &mut cnf);
    let mut comments = vec![
        format!("satsoko {} Binairo CNF", env!("CARGO_PKG_VERSION")),
        format!(
            "{} puzzle {}: {}×{}",
            file.display(),
            p.number,
            p.rows,
            p.cols
        ),
        "encoding: see encodings/binairo.md in the satsoko sources".to_string(),
        "satisfiable iff the puzzle has a solution; one(rRcC) true means the cell holds 1".into(),
    ];
    for var in 1..=cnf.variables() as usize {
        let cell = var - 1;
        comments.push(if cell < p.rows * p.cols {
            format!("var {var} one r{}c{}", cell / p.cols + 1, cell % p.cols + 1)
        } else {
            format!("var {var} aux (line counter or difference)")
        });
    }
    cnf.to_dimacs(&comments, &[])
}

/// Writes the formula of puzzle `p` of `file` into `dir` as DIMACS.
fn write_cnf(dir: &std::path::Path, file: &std::path::Path, p: &Puzzle) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stem = file
        .file_stem()
        .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned());
    let out = dir.join(format!("{stem}-{}.cnf", p.number));
    std::fs::write(&out, cnf_text(file, p))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))
}
