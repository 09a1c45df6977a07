//! Certificates of optimality: for a plan proved optimal at `k` steps, the unrolled
//! formula "a plan of at most `k − 1` steps exists" as DIMACS and an LRAT proof that it
//! is unsatisfiable, checked by a checker of our own ([`check`]) before the claim is
//! called certified.
//!
//! The formula is the one `satsoko encode` writes (every variable named in comments).
//! The proof comes from the prover asked for: varisat, which checks its own proof as it
//! solves and hands each step with its hints to [`lrat::LratWriter`], or CaDiCaL, which
//! writes LRAT itself (`cadical_lrat`). Clause ids follow the clause order of the
//! written file, so any LRAT checker can verify the pair.

#[cfg(feature = "cadical")]
mod cadical_lrat;
pub mod check;
mod lrat;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use varisat::{ExtendFormula, Solver};

use crate::analysis::Analysis;
use crate::encode::EncodingKind;
use crate::encode::formula::Unrolled;
use crate::encode::{FORMULA_BUDGET, known_step_size};
use crate::game::Metric;
use crate::level::Level;
use crate::sat::SolverName;
use crate::stop::Stop;
use lrat::LratWriter;

/// A written and checked certificate.
#[derive(Clone, Debug, PartialEq)]
pub struct Certificate {
    /// The formula "a plan of at most k − 1 steps exists".
    pub cnf: PathBuf,
    /// Its refutation.
    pub lrat: PathBuf,
    /// Clauses of the formula.
    pub clauses: usize,
    /// Size of the proof file in bytes.
    pub proof_bytes: u64,
    /// Seconds our checker took.
    pub check_seconds: f64,
}

/// A sink for varisat's own proof that fails once `stop` says stop: the only way to
/// interrupt varisat, which has no terminate callback.
struct StopSink<'s>(&'s Stop);

impl Write for StopSink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.0.should_stop() {
            return Err(io::Error::other("stopped"));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes and checks the certificate that level `level` (of the file whose stem is
/// `stem`) has no plan shorter than `k` in `metric`, into `dir` as
/// `<stem>-<level>.cnf` and `.lrat`, the refutation by `prover`, stopping at `stop`.
/// `Err` says why there is none.
pub fn certify(
    level: &Level,
    analysis: &Analysis,
    (metric, k): (Metric, usize),
    dir: &Path,
    stem: &str,
    prover: SolverName,
    stop: &Stop,
) -> Result<Certificate, String> {
    if k == 0 {
        return Err("the start is solved: there is no shorter plan to refute".into());
    }
    // The formula `unroll` would refute with this solver.
    let kind = EncodingKind::for_solver(metric, Some(prover));
    if level.has_ice() && !kind.supports_ice() {
        return Err(format!("the {kind} encoding does not model ice"));
    }
    if let Some(step) = known_step_size(kind, level, analysis) {
        // The formula, its DIMACS text and the solver are all in memory at once.
        let size = step.saturating_mul(k as u64 - 1);
        if size > FORMULA_BUDGET {
            return Err(format!(
                "the formula would be too big: about {size} variables and clauses (at most \
                 {FORMULA_BUDGET})"
            ));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let base = dir.join(format!("{stem}-{}", level.number));
    let (cnf_path, lrat_path) = (base.with_extension("cnf"), base.with_extension("lrat"));
    let out_of_time = || "out of time while writing the formula".to_string();
    let unrolled = Unrolled::without_lower_bound(level, analysis, kind, k - 1, stop)
        .map_err(|_| out_of_time())?;
    let header = [
        format!("satsoko {} certificate", env!("CARGO_PKG_VERSION")),
        format!(
            "level #{} ({}): no plan of at most {} {metric}",
            level.number,
            level.name(),
            k - 1
        ),
        format!("its refutation: {}", lrat_path.display()),
    ];
    let written = File::create(&cnf_path).and_then(|file| {
        let mut out = BufWriter::new(file);
        unrolled.write_dimacs(&header, &mut out)?;
        out.flush()
    });
    written.map_err(|e| format!("cannot write {}: {e}", cnf_path.display()))?;

    let answer = match prover {
        SolverName::Varisat => refute_with_varisat(&unrolled, &lrat_path, stop)?,
        SolverName::Cadical => refute_with_cadical(&unrolled, &lrat_path, stop)?,
    };
    match answer {
        Refutation::Refuted => {}
        Refutation::Satisfiable => {
            return Err(format!("the formula for {} {metric} is satisfiable", k - 1));
        }
        Refutation::Stopped => return Err("out of time while proving".into()),
    }
    // The checker reads the files back, as an outside checker would.
    drop(unrolled);

    let started = Instant::now();
    let checked = check::check_files(&cnf_path, &lrat_path)
        .map_err(|e| format!("our checker refused it: {e}"))?;
    let proof_bytes = std::fs::metadata(&lrat_path).map_or(0, |m| m.len());
    Ok(Certificate {
        clauses: checked.clauses,
        proof_bytes,
        check_seconds: started.elapsed().as_secs_f64(),
        cnf: cnf_path,
        lrat: lrat_path,
    })
}

/// What a refutation attempt ended in.
#[derive(Debug, PartialEq, Eq)]
enum Refutation {
    /// Unsatisfiable; the LRAT proof is written.
    Refuted,
    /// Satisfiable: there is nothing to refute.
    Satisfiable,
    /// `stop` said stop first.
    Stopped,
}

/// Refutes the formula with varisat, which checks its own proof as it solves; its
/// checked steps, with their hints, go to `lrat` as LRAT.
fn refute_with_varisat(
    unrolled: &Unrolled,
    lrat: &Path,
    stop: &Stop,
) -> Result<Refutation, String> {
    let file = File::create(lrat).map_err(|e| format!("cannot write {}: {e}", lrat.display()))?;
    let mut writer = LratWriter::new(BufWriter::new(file), unrolled.cnf.clauses.len());
    let answer = {
        let mut solver = Solver::new();
        solver.add_proof_processor(&mut writer);
        solver.write_proof(StopSink(stop), varisat::ProofFormat::Varisat);
        for clause in &unrolled.cnf.clauses {
            let lits: Vec<varisat::Lit> = (clause.iter())
                .map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize))
                .collect();
            solver.add_clause(&lits);
        }
        solver.solve()
    };
    let answer = match answer {
        Ok(false) => Refutation::Refuted,
        Ok(true) => Refutation::Satisfiable,
        Err(_) => Refutation::Stopped,
    };
    if answer == Refutation::Refuted {
        writer.finish()?;
    }
    Ok(answer)
}

/// Refutes the formula with CaDiCaL in process, which writes its LRAT proof itself.
#[cfg(feature = "cadical")]
fn refute_with_cadical(
    unrolled: &Unrolled,
    lrat: &Path,
    stop: &Stop,
) -> Result<Refutation, String> {
    let clauses = (unrolled.cnf.clauses.iter()).map(|c| c.iter().map(|l| l.to_dimacs()));
    cadical_lrat::refute(clauses, lrat, stop)
}

/// Without CaDiCaL built in, there is no CaDiCaL refutation.
#[cfg(not(feature = "cadical"))]
fn refute_with_cadical(_: &Unrolled, _: &Path, _: &Stop) -> Result<Refutation, String> {
    Err("this satsoko was built without CaDiCaL; rebuild with `--features cadical`".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn a_certificate_is_written_checked_and_refused_when_tampered() {
        let dir = tempfile::tempdir().unwrap();
        // Microban 1: its optimum (8 pushes) lies above the static lower bound, so the
        // refutation needs a proof.
        let text = std::fs::read_to_string("levels/microban.xsb").unwrap();
        let level = parse_xsb("microban", &text).unwrap().remove(0);
        let optimum = match crate::engine::oracle::shortest_pushes(&level, 30, 100_000) {
            crate::engine::oracle::SearchResult::Optimal(p) => p,
            r => panic!("{r:?}"),
        };
        let stop = Stop::never();
        let analysis = crate::analysis::Analysis::new(&level);
        let varisat = SolverName::Varisat;
        let pushes = (Metric::Pushes, optimum);
        let cert = certify(&level, &analysis, pushes, dir.path(), "t", varisat, &stop).unwrap();
        assert!(cert.proof_bytes > 0 && cert.clauses > 0);
        // One step more is satisfiable: no certificate.
        let beyond = (Metric::Pushes, optimum + 1);
        let beyond = certify(&level, &analysis, beyond, dir.path(), "u", varisat, &stop);
        assert!(beyond.unwrap_err().contains("satisfiable"));
        // The moves metric has its certificate too.
        let moves = crate::engine::oracle::shortest_moves(&level, 60, 2_000_000);
        let crate::engine::oracle::SearchResult::Optimal(m) = moves else {
            panic!("{moves:?}")
        };
        certify(
            &level,
            &analysis,
            (Metric::Moves, m),
            dir.path(),
            "m",
            varisat,
            &stop,
        )
        .unwrap();
        // Tampering: drop the formula's last clause, or change a hint of the proof.
        let cnf = std::fs::read_to_string(&cert.cnf).unwrap();
        let proof = std::fs::read_to_string(&cert.lrat).unwrap();
        let formula = check::parse_cnf(&cnf).unwrap();
        assert!(check::check_lrat(&formula, &proof).is_ok());
        assert!(check::check_lrat(&formula.first(formula.len() - 1), &proof).is_err());
        let line = proof.lines().find(|l| !l.contains(" d ")).unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        let last_hint = words[words.len() - 2];
        let changed = format!(
            "{} {} 0",
            &words[..words.len() - 2].join(" "),
            last_hint.parse::<u64>().unwrap() + 1
        );
        let tampered = proof.replacen(line, &changed, 1);
        assert!(check::check_lrat(&formula, &tampered).is_err());
    }

    /// CaDiCaL's own LRAT, on the formulas varisat refutes: our checker accepts each
    /// proof, and a formula one step longer is satisfiable.
    #[cfg(feature = "cadical")]
    #[test]
    fn cadical_refutations_are_accepted_by_our_checker() {
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string("levels/microban.xsb").unwrap();
        let stop = Stop::never();
        for level in parse_xsb("microban", &text).unwrap().into_iter().take(6) {
            let optimum = match crate::engine::oracle::shortest_pushes(&level, 40, 400_000) {
                crate::engine::oracle::SearchResult::Optimal(p) => p,
                r => panic!("level {}: {r:?}", level.number),
            };
            let analysis = crate::analysis::Analysis::new(&level);
            let cadical = SolverName::Cadical;
            let pushes = (Metric::Pushes, optimum);
            let cert = certify(&level, &analysis, pushes, dir.path(), "c", cadical, &stop);
            let cert = cert.unwrap_or_else(|e| panic!("level {}: {e}", level.number));
            assert!(cert.proof_bytes > 0);
            let formula = check::parse_cnf(&std::fs::read_to_string(&cert.cnf).unwrap());
            let proof = std::fs::read_to_string(&cert.lrat).unwrap();
            assert!(check::check_lrat(&formula.unwrap(), &proof).is_ok());
            let beyond = (Metric::Pushes, optimum + 1);
            let beyond = certify(&level, &analysis, beyond, dir.path(), "d", cadical, &stop);
            assert!(beyond.unwrap_err().contains("satisfiable"));
        }
    }

    /// A stop during the refutation is "out of time", never a certificate.
    #[cfg(feature = "cadical")]
    #[test]
    fn a_stopped_cadical_refutation_is_no_certificate() {
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string("levels/xsokoban.xsb").unwrap();
        let level = parse_xsb("xsokoban", &text).unwrap().remove(0);
        let analysis = crate::analysis::Analysis::new(&level);
        let stop = Stop::never();
        let kind = EncodingKind::Pushes;
        let unrolled = Unrolled::without_lower_bound(&level, &analysis, kind, 96, &stop).unwrap();
        stop.cancel();
        let lrat = dir.path().join("x.lrat");
        assert_eq!(
            refute_with_cadical(&unrolled, &lrat, &stop),
            Ok(Refutation::Stopped)
        );
    }
}
