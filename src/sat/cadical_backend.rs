//! CaDiCaL in process (cargo feature `cadical`), through the `cadical` crate, which
//! builds the solver's C++ sources. Its terminate callback stops a solve call cleanly.

use super::{ClauseSink, Counter, Interrupt, Lit, SatBackend, SolveResult, SolverStats};

/// Tells CaDiCaL to stop once the interrupt answers true.
struct Stop(Option<Interrupt>);

impl cadical::Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        self.0.as_ref().is_some_and(|stop| stop())
    }
}

/// CaDiCaL behind [`SatBackend`].
pub struct CadicalBackend {
    solver: cadical::Solver<Stop>,
    counter: Counter,
    assumptions: Vec<Lit>,
    assumptions_used: bool,
    failed: Vec<Lit>,
}

impl CadicalBackend {
    /// A new solver that gives up (answers Unknown) once `interrupt` answers true.
    pub fn new(interrupt: Option<Interrupt>) -> CadicalBackend {
        let mut solver = cadical::Solver::new();
        solver.set_callbacks(Some(Stop(interrupt)));
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

    #[test]
    fn an_interrupt_stops_a_hard_solve() {
        crate::sat::conformance::interrupt_stops_a_hard_solve(&mut |i| {
            Box::new(CadicalBackend::new(Some(i)))
        });
    }
}
