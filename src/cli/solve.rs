//! `satsoko [solve]`: solves every selected level in this process and prints one report
//! per level. The engine stops itself at `--timeout`; Ctrl-C stops the level being
//! solved (its report says so) and skips the rest.

use std::io::Write;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::args::{FormatArg, RulesArg, ShowArg, SolveArgs};
use super::config::{Purpose, SolveConfig};
use super::input::selected_levels;
use super::interrupt;
use super::progress::LevelProgress;
use super::report::{EXIT_INPUT, EXIT_INTERRUPTED, EXIT_USAGE, ErrorKind, LevelReport};
use super::say;
use super::solutions::SolutionsOut;
use super::trace::ExpansionTrace;
use crate::analysis::Analysis;
use crate::engine::{self, Analysed, Incumbent, SearchTrace, SolveError, Stop};
use crate::game::Metric;
use crate::game::{State, apply_move};
use crate::level::{Direction, Level};

/// Runs the solve command and returns the exit code.
pub fn run(args: &SolveArgs, format: Option<FormatArg>) -> i32 {
    // --solutions: checked, and its input read, before anything is solved; written at
    // the end, whatever ended the run.
    let mut solutions = match SolutionsOut::prepare(args, format) {
        Ok(out) => out,
        Err(code) => return code,
    };
    let code = solve_levels(args, format, &mut solutions);
    solutions.map_or(code, |out| out.finish(code))
}

/// Solves and reports every selected level; with `--solutions`, keeps each verified
/// plan in `solutions`.
fn solve_levels(
    args: &SolveArgs,
    format: Option<FormatArg>,
    solutions: &mut Option<SolutionsOut>,
) -> i32 {
    let purpose = Purpose::Solve;
    let mut config =
        match SolveConfig::or_usage(&args.engine, args.max_steps, args.timeout, format, purpose) {
            Ok(config) => config,
            Err(code) => return code,
        };
    if args.trace
        && let Err(e) = config.trace(args.trace_limit)
    {
        eprintln!("error: {e}");
        return EXIT_USAGE;
    }
    let jobs = selected_levels(&args.files, args.level.as_ref(), config.format);
    let ctrl_c = interrupt::on_ctrl_c();
    let total = jobs.len();
    // --svg: a file for one level, a directory for several (checked before solving).
    let svg = match args
        .svg
        .as_deref()
        .map(|p| super::svg::SvgTarget::new(p, total))
    {
        None => None,
        Some(Ok(target)) => Some(target),
        Some(Err((code, message))) => {
            eprintln!("error: {message}");
            return code;
        }
    };
    let mut worst = 0;
    let mut input_error = false;
    for (i, (name, path, entry)) in jobs.into_iter().enumerate() {
        if ctrl_c.is_cancelled() {
            eprintln!("interrupted: the remaining levels were not solved");
            return EXIT_INTERRUPTED;
        }
        // Kept only to draw the solution with --show or --svg.
        let drawn = args.show.is_some() || svg.is_some();
        let level_of_report = entry.as_ref().ok().filter(|_| drawn).cloned();
        let report = match entry {
            Err(e) => {
                input_error = true;
                if !args.json {
                    eprintln!("error: {e}");
                    continue;
                }
                LevelReport::error(&name, e.level, None, ErrorKind::Input, e.to_string())
            }
            Ok(level) => {
                let label = format!("{name} #{} [{}/{total}]", level.number, i + 1);
                let stop = ctrl_c.with_deadline(config.timeout.map(|t| Instant::now() + t));
                let metric = config.request.metric;
                let trace = config.trace.map(|limit| {
                    let number = level.number;
                    say(&format!("{name} level {number}: the search, node by node"));
                    ExpansionTrace::new(&level, limit)
                });
                let report = watched(&label, metric, |board| {
                    let traced = trace.as_ref().map(|t| t as &dyn SearchTrace);
                    let (mut report, analysis) =
                        solve_level(&config, &name, &level, &stop, board, traced);
                    if let Some(dir) = &args.proof {
                        let board = (&level, &analysis);
                        let prover = args.prover.name();
                        super::certify::certify_report(&mut report, board, dir, prover, &stop);
                    }
                    report
                });
                if let Some(trace) = &trace {
                    trace.finish();
                }
                report
            }
        };
        let mut report = report;
        if let Some(out) = solutions.as_mut() {
            out.record(&report); // in the XSB convention, before --rules course
        }
        if args.rules == RulesArg::Course {
            report.solution = report.solution.map(|s| s.to_uppercase());
        }
        input_error |= report.is_input_error();
        worst = worst.max(report.exit_code());
        // --svg: the animation of a verified plan; a file that cannot be written is an
        // input error, and the other levels go on.
        let mut animation = String::new();
        if let (Some(target), Some(solution), Some(level)) =
            (&svg, &report.solution, &level_of_report)
            && report.status == super::report::Status::Solved
        {
            match target.write(path, level, solution, args.rules.convention()) {
                Ok(file) => animation = format!("  animation: {}\n", file.display()),
                Err(e) => {
                    eprintln!("error: {name}: level {}: --svg: {e}", level.number);
                    input_error = true;
                }
            }
        }
        if report.is_input_error() && !args.json {
            // Like a level that cannot be read: the reason goes to stderr.
            let message = report.message.as_deref().unwrap_or("cannot be solved");
            let number = report.level.unwrap_or(0);
            eprintln!("error: {name}: level {number}: {message}");
            continue;
        }
        let mut out = std::io::stdout().lock();
        let printed = if args.json {
            writeln!(out, "{}", report.to_json())
        } else {
            let shown = match (args.show, &report.solution, &level_of_report) {
                (Some(step), Some(solution), Some(level)) => show(level, solution, step),
                _ => String::new(),
            };
            write!(out, "{}{animation}{shown}", report.to_text())
        };
        if printed.and_then(|_| out.flush()).is_err() {
            return worst; // stdout closed (e.g. piped into `head`): stop quietly
        }
    }
    if ctrl_c.is_cancelled() {
        return EXIT_INTERRUPTED;
    }
    if input_error { EXIT_INPUT } else { worst }
}

/// Runs `solve` on a thread of its own with a fresh board, while this thread shows the
/// board on the progress line (when stderr is a terminal).
fn watched(
    label: &str,
    metric: Metric,
    solve: impl FnOnce(&Incumbent) -> LevelReport + Send,
) -> LevelReport {
    let board = Incumbent::new(metric);
    let progress = LevelProgress::start(label.to_string());
    let report = std::thread::scope(|scope| {
        // The solving thread says when it is done, so that the answer is printed at
        // once and not at the next redraw.
        let (done, finished) = std::sync::mpsc::channel();
        let board = &board;
        let solving = scope.spawn(move || {
            let report = solve(board);
            let _ = done.send(());
            report
        });
        while finished.recv_timeout(Duration::from_millis(100)) == Err(RecvTimeoutError::Timeout) {
            progress.update(board);
        }
        solving.join().expect("the solving thread does not panic")
    });
    progress.finish();
    report
}

/// Solves one level with the engine `config` picks for it, stopping at `stop`, with the
/// engines reporting on `board` (and a search that traces its expansions sending them
/// to `trace`); the level's analysis comes back with the report, for a certificate.
pub fn solve_level(
    config: &SolveConfig,
    file: &str,
    level: &Level,
    stop: &Stop,
    board: &Incumbent,
    trace: Option<&dyn SearchTrace>,
) -> (LevelReport, Analysis) {
    let engine = config.engine_for(level);
    let start = Instant::now();
    let analysis = Analysis::until(level, stop);
    let analysed = Analysed {
        level,
        analysis: &analysis,
        start,
    };
    let solved = engine::solve_analysed(engine, analysed, &config.request, stop, board, trace);
    let report = match solved {
        Ok(outcome) => LevelReport::from_outcome(file, level.number, level.title.clone(), &outcome),
        Err(e) => {
            let kind = match e {
                SolveError::Unsupported(_) | SolveError::Solver(_) => ErrorKind::Input,
                SolveError::Internal(_) => ErrorKind::Internal,
            };
            let (number, title) = (Some(level.number), level.title.clone());
            LevelReport::error(file, number, title, kind, e.to_string())
        }
    };
    (report, analysis)
}

/// The board after each push (or move) of `solution`, replayed by the rules engine,
/// with the step and the pushes so far; coloured when stdout is a terminal and
/// `NO_COLOR` is not set.
fn show(level: &Level, solution: &str, step: ShowArg) -> String {
    use std::io::IsTerminal;
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut state = State::initial(level);
    let mut out = format!("  start:\n{}", board(level, &state, colour));
    let (mut moves, mut pushes) = (0, 0);
    for letter in solution.chars() {
        let Some((dir, _)) = Direction::from_letter(letter) else {
            continue;
        };
        let Ok(effect) = apply_move(level, &mut state, dir) else {
            continue; // a bump of the course's convention changes nothing
        };
        moves += 1;
        pushes += usize::from(effect.pushed);
        if step == ShowArg::Moves || effect.pushed {
            out.push_str(&format!(
                "  move {moves} ({letter}), pushes {pushes}:\n{}",
                board(level, &state, colour)
            ));
        }
    }
    out
}

/// The board of `state`, indented, with ANSI colours if asked.
fn board(level: &Level, state: &State, colour: bool) -> String {
    let text = level.render(state.player, &state.boxes);
    let mut out = String::new();
    for line in text.lines() {
        out.push_str("    ");
        for ch in line.chars() {
            let code = match ch {
                '$' | '=' => Some("33"),
                '*' => Some("32"),
                '@' | '+' | '&' => Some("34;1"),
                '.' => Some("31"),
                _ => None,
            };
            match code.filter(|_| colour) {
                Some(c) => out.push_str(&format!("\x1b[{c}m{ch}\x1b[0m")),
                None => out.push(ch),
            }
        }
        out.push('\n');
    }
    out
}
