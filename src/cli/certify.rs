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
use crate::sat::SolverName;

/// Adds the certificate of `report`'s plan to it, when the plan is proved optimal:
/// refuted by `prover`, written into `dir` and checked, within what `stop` leaves of
/// the level's time.
pub fn certify_report(
    report: &mut LevelReport,
    (level, analysis): (&Level, &Analysis),
    dir: &Path,
    prover: SolverName,
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
    match cert::certify(level, analysis, (metric, k), dir, &stem, prover, stop) {
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
    match check::check_files(&args.cnf, &args.lrat) {
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
        Err(check::CheckError::Input(e)) => {
            eprintln!("error: {e}");
            EXIT_INPUT
        }
        Err(check::CheckError::Refused(e)) => {
            super::say(&format!("refused: {}: {e}", args.lrat.display()));
            EXIT_REJECTED
        }
    }
}
