//! CaDiCaL in process (cargo feature `cadical`), through the `cadical` crate, which
//! builds the solver's C++ sources. Unlike varisat it can be interrupted: a deadline
//! stops a solve call cleanly.

use std::time::Instant;

use super::{ClauseSink, Counter, Lit, SatBackend, SolveResult, SolverStats};

/// Tells CaDiCaL to stop once the deadline has passed.
struct Deadline(Option<Instant>);

impl cadical::Callbacks for Deadline {
    fn terminate(&mut self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }
}

/// CaDiCaL behind [`SatBackend`].
pub struct CadicalBackend {
    solver: cadical::Solver<Deadline>,
    counter: Counter,
    assumptions: Vec<Lit>,
    assumptions_used: bool,
    failed: Vec<Lit>,
}

impl CadicalBackend {
    /// A new solver that gives up (answers Unknown) once `deadline` has passed.
    pub fn new(deadline: Option<Instant>) -> CadicalBackend {
        let mut solver = cadical::Solver::new();
        solver.set_callbacks(Some(Deadline(deadline)));
        CadicalBackend {
            solver,
            counter: Counter::default(),
            assumptions: Vec::new(),
            assumptions_used: true,
            failed: Vec::new(),
        }
    }
}

impl ClauseSink for CadicalBackend {
    fn new_var(&mut self) -> Lit {
        self.counter.next_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.counter.clauses += 1;
        self.solver.add_clause(clause.iter().map(|l| l.to_dimacs()));
    }
}

impl SatBackend for CadicalBackend {
    fn name(&self) -> &'static str {
        "cadical"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.assumptions = assumptions.to_vec();
        match self
            .solver
            .solve_with(assumptions.iter().map(|l| l.to_dimacs()))
        {
            Some(true) => SolveResult::Sat,
            Some(false) => {
                self.failed = assumptions
                    .iter()
                    .copied()
                    .filter(|l| self.solver.failed(l.to_dimacs()))
                    .collect();
                self.assumptions_used = !self.failed.is_empty();
                SolveResult::Unsat
            }
            None => SolveResult::Unknown,
        }
    }

    fn value(&self, lit: Lit) -> bool {
        self.solver.value(lit.to_dimacs()).unwrap_or(false)
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
        crate::sat::conformance::incremental_assumptions(&mut CadicalBackend::new(None));
    }
}
