//! `--proof DIR` and `satsoko check-proof`: certificates of optimal plans, written after
//! a solve and checked by the project's own LRAT checker.

use std::path::Path;

use super::args::CheckProofArgs;
use super::report::{EXIT_INPUT, EXIT_OK, EXIT_REJECTED, LevelReport};
use crate::analysis::Analysis;
use crate::cert::{self, check};
use crate::engine::Stop;
use crate::game::Metric;
use crate::level::Level;

/// Adds the certificate of `report`'s plan to it, when the plan is proved optimal:
/// written into `dir` and checked, within what `stop` leaves of the level's time.
pub fn certify_report(
    report: &mut LevelReport,
    level: &Level,
    analysis: &Analysis,
    dir: &Path,
    stop: &Stop,
) {
    let Some(Some(metric)) = report.optimal else {
        return;
    };
    let k = match metric {
        Metric::Moves => report.moves,
        Metric::Pushes => report.pushes,
    };
    let Some(k) = k else {
        return;
    };
    let stem = Path::new(&report.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level".into());
    match cert::certify(level, analysis, metric, k, dir, &stem, stop) {
        Ok(c) => {
            report.certified = Some(true);
            report.certificate = Some(c.cnf.display().to_string());
        }
        Err(why) => {
            report.certified = Some(false);
            report.certificate = Some(why);
        }
    }
}

/// Runs `check-proof` and returns the exit code: 0 verified, 6 refused, 1 unreadable.
pub fn check_proof(args: &CheckProofArgs) -> i32 {
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let (cnf, lrat) = match (read(&args.cnf), read(&args.lrat)) {
        (Ok(c), Ok(l)) => (c, l),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let formula = match check::parse_cnf(&cnf) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {}: {e}", args.cnf.display());
            return EXIT_INPUT;
        }
    };
    match check::check_lrat(&formula, &lrat) {
        Ok(c) => {
            super::say(&format!(
                "verified: {} refutes {} ({} clauses; {} added, {} deleted)",
                args.lrat.display(),
                args.cnf.display(),
                c.clauses,
                c.added,
                c.deleted
            ));
            EXIT_OK
        }
        Err(e) => {
            super::say(&format!("refused: {}: {e}", args.lrat.display()));
            EXIT_REJECTED
        }
    }
}
