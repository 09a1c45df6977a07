//! The embedded default solver, varisat (pure Rust, incremental).
//!
//! varisat has no terminate callback. It does write proofs, and a proof writer that
//! fails stops the solve call at once; so an interruptible backend writes its own proof
//! format (the one that allows assumptions) into a sink that discards it and fails when
//! the interrupt says stop. The solver cannot be used after that, which is all a
//! stopped engine needs.

use std::io;

use varisat::ExtendFormula;
use varisat::solver::ProofFormat;

use super::{ClauseSink, Counter, Interrupt, Lit, SatBackend, SolveResult, SolverStats};

/// varisat behind [`SatBackend`].
pub struct VarisatBackend {
    solver: varisat::Solver<'static>,
    counter: Counter,
    model: Vec<bool>,
    assumptions_used: bool,
    failed: Vec<Lit>,
    buffer: Vec<varisat::Lit>,
    /// Set once a solve call was interrupted: the solver is unusable after that.
    interrupted: bool,
}

/// A proof sink that keeps nothing and fails once the interrupt answers true.
struct StopSink(Interrupt);

impl io::Write for StopSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if (self.0)() {
            Err(io::Error::other("interrupted"))
        } else {
            Ok(buf.len())
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Default for VarisatBackend {
    fn default() -> Self {
        Self::new()
    }
}

/// varisat's VSIDS decay (its default is 0.95). A faster decay makes the solver follow
/// its most recent conflicts: on Microban at 10 s it solved 117 levels against 116, and
/// 1.24× faster by geometric mean (two benchmarks side by side; 0.75–0.9 all did about
/// as well on a sample of 18 hard levels).
pub const VSIDS_DECAY: f32 = 0.8;

impl VarisatBackend {
    /// A new empty solver.
    pub fn new() -> VarisatBackend {
        VarisatBackend::with_interrupt(None)
    }

    /// A new empty solver whose solve calls stop soon after `interrupt` answers true.
    pub fn with_interrupt(interrupt: Option<Interrupt>) -> VarisatBackend {
        let mut solver = varisat::Solver::new();
        if let Some(interrupt) = interrupt {
            solver.write_proof(StopSink(interrupt), ProofFormat::Varisat);
        }
        let mut config = varisat::config::SolverConfigUpdate::new();
        config.vsids_decay = Some(VSIDS_DECAY);
        solver
            .config(&config)
            .expect("the decay is inside varisat's range 0.5..1.0");
        VarisatBackend {
            solver,
            counter: Counter::default(),
            model: Vec::new(),
            assumptions_used: true,
            failed: Vec::new(),
            buffer: Vec::new(),
            interrupted: false,
        }
    }
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_dimacs(l.to_dimacs() as isize)
}

impl ClauseSink for VarisatBackend {
    fn new_var(&mut self) -> Lit {
        self.counter.next_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.counter.clauses += 1;
        self.buffer.clear();
        self.buffer.extend(clause.iter().map(|&l| to_varisat(l)));
        self.solver.add_clause(&self.buffer);
    }
}

impl SatBackend for VarisatBackend {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        if self.interrupted {
            return SolveResult::Unknown;
        }
        // The buffers are reused: search engines ask many small questions.
        self.buffer.clear();
        self.buffer
            .extend(assumptions.iter().map(|&l| to_varisat(l)));
        self.solver.assume(&self.buffer);
        match self.solver.solve() {
            Ok(true) => {
                self.model.clear();
                self.model
                    .resize(self.counter.variables as usize + 1, false);
                for l in self.solver.model().unwrap_or_default() {
                    let i = l.var().to_dimacs() as usize;
                    if i < self.model.len() {
                        self.model[i] = l.is_positive();
                    }
                }
                SolveResult::Sat
            }
            Ok(false) => {
                self.failed.clear();
                let core = self.solver.failed_core().unwrap_or_default();
                self.failed.extend(
                    core.iter()
                        .map(|l| Lit::from_dimacs(l.to_dimacs() as i32).expect("not 0")),
                );
                self.assumptions_used = !self.failed.is_empty();
                SolveResult::Unsat
            }
            Err(_) => {
                self.interrupted = true;
                SolveResult::Unknown
            }
        }
    }

    fn value(&self, lit: Lit) -> bool {
        let v = self.model.get(lit.var() as usize).copied().unwrap_or(false);
        v == lit.is_positive()
    }

    fn assumptions_used(&self) -> bool {
        self.assumptions_used
    }

    fn failed_assumptions(&self) -> Option<&[Lit]> {
        Some(&self.failed)
    }

    fn stats(&self) -> SolverStats {
        self.counter.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_under_assumptions() {
        crate::sat::conformance::incremental_assumptions(&mut VarisatBackend::new());
        let never: Interrupt = std::sync::Arc::new(|| false);
        crate::sat::conformance::incremental_assumptions(&mut VarisatBackend::with_interrupt(
            Some(never),
        ));
    }

    #[test]
    fn an_interrupt_stops_a_hard_solve() {
        crate::sat::conformance::interrupt_stops_a_hard_solve(&mut |i| {
            Box::new(VarisatBackend::with_interrupt(Some(i)))
        });
    }
}
