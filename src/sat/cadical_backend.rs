//! CaDiCaL in process (cargo feature `cadical`), through the `cadical` crate, which
//! builds the solver's C++ sources. Its terminate callback stops a solve call cleanly.
//!
//! The crate reports no conflicts or decisions (CaDiCaL keeps them, but the crate's C
//! interface has no call that reads them). What it does pass on is every clause CaDiCaL
//! learns in conflict analysis, to the `learn` callback; counting those, when asked,
//! gives the learned clauses (see `Callbacks::learn`).

use super::{ClauseSink, Counter, Interrupt, Lit, SatBackend, SolveResult, SolverStats, Workload};

/// Tells CaDiCaL to stop once the interrupt answers true, and counts the learned
/// clauses when asked to.
struct Callbacks {
    interrupt: Option<Interrupt>,
    counting: bool,
    learned: u64,
}

impl cadical::Callbacks for Callbacks {
    fn terminate(&mut self) -> bool {
        self.interrupt.as_ref().is_some_and(|stop| stop())
    }

    /// Clauses up to this length go to `learn`: every one when counting,
    /// none otherwise (CaDiCaL copies each clause passed on, literal by literal; with 0
    /// it passes on only the empty clause).
    fn max_length(&self) -> i32 {
        if self.counting { i32::MAX } else { 0 }
    }

    /// CaDiCaL 1.9.5 (the crate's) calls this from its conflict analysis
    /// (`Internal::analyze`) once for every clause it learns there: the 1st-UIP clause
    /// (units too), and the empty clause of a conflict at the root. Nothing else learned
    /// is passed on. The count is CaDiCaL's own `learned` statistic, plus one for the
    /// empty clause; it is below its `conflicts`, because some conflicts learn nothing:
    /// with chronological backtracking, a conflict with one literal on its highest
    /// level only backtracks and flips it, and on-the-fly strengthening can end an
    /// analysis with a strengthened clause of the formula. On `encode`'s formulas of
    /// Microban 100 at K = 50 and 52 (the same CaDiCaL built with its statistics):
    /// 22 971 learned against 24 484 conflicts, and 34 861 against 36 882.
    fn learn(&mut self, _clause: &[i32]) {
        if self.counting {
            self.learned += 1;
        }
    }
}

/// CaDiCaL behind [`SatBackend`].
pub struct CadicalBackend {
    solver: cadical::Solver<Callbacks>,
    counter: Counter,
    assumptions: Vec<Lit>,
    assumptions_used: bool,
    failed: Vec<Lit>,
    /// The learned clauses counted so far, once counting was asked for.
    learned: Option<u64>,
}

impl CadicalBackend {
    /// A new solver that gives up (answers Unknown) once `interrupt` answers true.
    pub fn new(interrupt: Option<Interrupt>) -> CadicalBackend {
        CadicalBackend::for_workload(interrupt, Workload::Mixed)
    }

    /// [`CadicalBackend::new`] in the configuration for the `workload`: CaDiCaL's
    /// `unsat` for [`Workload::Refutations`], its defaults otherwise.
    pub fn for_workload(interrupt: Option<Interrupt>, workload: Workload) -> CadicalBackend {
        let mut solver = match workload {
            Workload::Mixed => cadical::Solver::new(),
            Workload::Refutations => {
                cadical::Solver::with_config("unsat").expect("CaDiCaL has an `unsat` configuration")
            }
        };
        solver.set_callbacks(Some(Callbacks {
            interrupt,
            counting: false,
            learned: 0,
        }));
        CadicalBackend {
            solver,
            counter: Counter::default(),
            assumptions: Vec::new(),
            assumptions_used: true,
            failed: Vec::new(),
            learned: None,
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
        let answer = self
            .solver
            .solve_with(assumptions.iter().map(|l| l.to_dimacs()));
        if let Some(callbacks) = self.solver.get_callbacks()
            && callbacks.counting
        {
            self.learned = Some(callbacks.learned);
        }
        match answer {
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

    /// Counting has CaDiCaL copy out every clause it learns: no time it shows on
    /// Microban 100 (docs/cli.md), but on only when asked all the same.
    fn count_search(&mut self) -> bool {
        if let Some(callbacks) = self.solver.get_callbacks() {
            callbacks.counting = true;
            self.learned.get_or_insert(callbacks.learned);
        }
        self.learned.is_some()
    }

    fn learned(&self) -> Option<u64> {
        self.learned
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
    fn counts_learned_clauses_only_when_asked() {
        let mut plain = CadicalBackend::new(None);
        crate::sat::cnf::tests::pigeonhole(&mut plain, 6, 5);
        assert_eq!(plain.solve(&[]), SolveResult::Unsat);
        assert_eq!(plain.learned(), None);

        let mut counting = CadicalBackend::new(None);
        assert!(counting.count_search());
        assert_eq!(counting.learned(), Some(0));
        crate::sat::cnf::tests::pigeonhole(&mut counting, 6, 5);
        assert_eq!(counting.solve(&[]), SolveResult::Unsat);
        assert!(counting.learned().unwrap() > 0);
        // Learned clauses are not conflicts here: no conflicts reported.
        assert_eq!(counting.stats().conflicts, None);
    }

    #[test]
    fn the_configuration_for_refutations_answers_as_the_default_does() {
        let mut tuned = CadicalBackend::for_workload(None, Workload::Refutations);
        crate::sat::conformance::incremental_assumptions(&mut tuned);
        let mut tuned = CadicalBackend::for_workload(None, Workload::Refutations);
        crate::sat::cnf::tests::pigeonhole(&mut tuned, 6, 5);
        assert_eq!(tuned.solve(&[]), SolveResult::Unsat);
    }

    #[test]
    fn an_interrupt_stops_a_hard_solve() {
        crate::sat::conformance::interrupt_stops_a_hard_solve(&mut |i| {
            Box::new(CadicalBackend::new(Some(i)))
        });
    }
}
