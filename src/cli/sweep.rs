//! `satsoko sweep`: SAT/UNSAT, size and time for every bound in a range.

use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use plotters::prelude::*;

use super::args::{FormatArg, SweepArgs};
use super::config::{Purpose, SolveConfig};
use super::input::read_level;
use super::report::{EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE};
use crate::encode::EncodingKind;
use crate::engine::SolveError;
use crate::engine::unroll::{self, SweepRow};
use crate::sat::SolveResult;

fn verdict(r: SolveResult) -> &'static str {
    match r {
        SolveResult::Sat => "SAT",
        SolveResult::Unsat => "UNSAT",
        SolveResult::Unknown => "UNKNOWN",
    }
}

fn opt(x: Option<u64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Runs `sweep` and returns the exit code.
pub fn run(args: &SweepArgs, format: Option<FormatArg>) -> i32 {
    let config =
        match SolveConfig::or_usage(&args.engine, Some(args.to), None, format, Purpose::Sweep) {
            Ok(config) => config,
            Err(code) => return code,
        };
    if args.to < args.from {
        eprintln!(
            "error: --to ({}) is smaller than --from ({})",
            args.to, args.from
        );
        return EXIT_USAGE;
    }
    let request = &config.request;
    let encoding = (request.encoding).unwrap_or_else(|| EncodingKind::for_metric(request.metric));
    let level = match read_level(&args.file, args.level, config.format) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    // Refuse an encoding that cannot model the level before anything is printed.
    if let Err(e) = unroll::check_supported(&level, encoding) {
        eprintln!("error: {e}");
        return EXIT_INPUT;
    }
    let backend = match request.solver.backend(None) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let bar = ProgressBar::with_draw_target(
        Some((args.to - args.from + 1) as u64),
        ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:30} k {msg} [{elapsed_precise}, ETA {eta}]")
            .expect("a valid template"),
    );
    super::say(&format!(
        "{:>5} {:>7} {:>10} {:>10} {:>10} {:>10} {:>10} {:>6} {:>9}",
        "k",
        "result",
        "variables",
        "clauses",
        "conflicts",
        "learned",
        "decisions",
        "cuts",
        "seconds"
    ));
    let mut rows = Vec::new();
    let swept = unroll::sweep(&level, encoding, backend, args.from, args.to, &mut |r| {
        bar.set_message(r.k.to_string());
        bar.inc(1);
        bar.suspend(|| {
            super::say(&format!(
                "{:>5} {:>7} {:>10} {:>10} {:>10} {:>10} {:>10} {:>6} {:>9.3}",
                r.k,
                verdict(r.result),
                r.variables,
                r.clauses,
                opt(r.conflicts),
                opt(r.learned),
                opt(r.decisions),
                r.cuts,
                r.seconds
            ))
        });
        rows.push(r.clone());
    });
    bar.finish_and_clear();
    if let Err(e) = swept {
        eprintln!("error: {e}");
        return match e {
            SolveError::Internal(_) => EXIT_INTERNAL,
            SolveError::Unsupported(_) | SolveError::Solver(_) => EXIT_INPUT,
        };
    }
    let title = format!(
        "{} #{} ({})",
        args.file.display(),
        level.number,
        level.name()
    );
    if let Some(path) = &args.csv
        && let Err(e) = write_csv(path, &rows)
    {
        eprintln!("error: cannot write {}: {e}", path.display());
        return EXIT_INPUT;
    }
    if let Some(path) = &args.svg
        && let Err(e) = plot(path, &title, encoding.name(), &rows)
    {
        eprintln!("error: cannot write {}: {e}", path.display());
        return EXIT_INPUT;
    }
    EXIT_OK
}

/// One row of the CSV.
#[derive(serde::Serialize)]
struct CsvRow {
    k: usize,
    result: &'static str,
    variables: u64,
    clauses: u64,
    conflicts: Option<u64>,
    learned: Option<u64>,
    decisions: Option<u64>,
    cuts: usize,
    seconds: String,
}

fn write_csv(path: &Path, rows: &[SweepRow]) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_path(path)?;
    for r in rows {
        w.serialize(CsvRow {
            k: r.k,
            result: verdict(r.result),
            variables: r.variables,
            clauses: r.clauses,
            conflicts: r.conflicts,
            learned: r.learned,
            decisions: r.decisions,
            cuts: r.cuts,
            seconds: format!("{:.6}", r.seconds),
        })?;
    }
    w.flush()?;
    Ok(())
}

/// Time (log scale) against k; SAT points green circles, UNSAT red crosses.
fn plot(path: &Path, title: &str, encoding: &str, rows: &[SweepRow]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (k0, k1) = (
        rows.first().map_or(0, |r| r.k),
        rows.last()
            .map_or(1, |r| r.k)
            .max(rows.first().map_or(0, |r| r.k) + 1),
    );
    let floor = 1e-4;
    let max_t = rows.iter().map(|r| r.seconds).fold(floor, f64::max) * 2.0;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("satsoko sweep: {title}, {encoding} encoding"),
            ("sans-serif", 18),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(k0 as f64 - 0.5..k1 as f64 + 0.5, (floor..max_t).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("k (steps)")
        .y_desc("seconds (log scale)")
        .draw()
        .map_err(|e| err(&e))?;
    let point = |r: &SweepRow| (r.k as f64, r.seconds.max(floor));
    chart
        .draw_series(LineSeries::new(rows.iter().map(point), BLACK.mix(0.3)))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(
            rows.iter()
                .filter(|r| r.result == SolveResult::Sat)
                .map(|r| Circle::new(point(r), 5, GREEN.filled())),
        )
        .map_err(|e| err(&e))?
        .label("SAT")
        .legend(|(x, y)| Circle::new((x, y), 5, GREEN.filled()));
    chart
        .draw_series(
            rows.iter()
                .filter(|r| r.result != SolveResult::Sat)
                .map(|r| Cross::new(point(r), 5, RED.stroke_width(2))),
        )
        .map_err(|e| err(&e))?
        .label("UNSAT")
        .legend(|(x, y)| Cross::new((x, y), 5, RED.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
