//! The SAT layer: literals, a narrow solver trait, and CNF helpers.
//!
//! Encoders write clauses into any [`ClauseSink`]: a live solver (a [`SatBackend`]) or a
//! DIMACS writer. Constants ([`Term::Const`]) let encoders leave out variables that static
//! analysis proves false without special cases at every use.

#[cfg(feature = "cadical")]
mod cadical_backend;
pub mod cnf;
pub mod dimacs;
pub mod external;
mod varisat_backend;

#[cfg(feature = "cadical")]
pub use cadical_backend::CadicalBackend;
pub use varisat_backend::VarisatBackend;

use std::fmt;
use std::ops::Not;
use std::sync::Arc;

/// A literal in DIMACS numbering: variable `v` is `v`, its negation `-v` (v ≥ 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(i32);

impl Lit {
    /// The positive literal of variable `var` (1-based).
    pub fn positive(var: u32) -> Lit {
        assert!(var >= 1 && var <= i32::MAX as u32, "variable out of range");
        Lit(var as i32)
    }

    /// From a signed DIMACS number; `None` for 0.
    pub fn from_dimacs(n: i32) -> Option<Lit> {
        (n != 0).then_some(Lit(n))
    }

    /// The signed DIMACS number.
    pub fn to_dimacs(self) -> i32 {
        self.0
    }

    /// The variable, 1-based.
    pub fn var(self) -> u32 {
        self.0.unsigned_abs()
    }

    /// Whether the literal is the positive one of its variable.
    pub fn is_positive(self) -> bool {
        self.0 > 0
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(-self.0)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A literal or a constant: what encoders use for variables static analysis may remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A known truth value (no variable in the formula).
    Const(bool),
    /// A real literal.
    Lit(Lit),
}

impl Term {
    /// The false constant.
    pub const FALSE: Term = Term::Const(false);
    /// The true constant.
    pub const TRUE: Term = Term::Const(true);

    /// Whether this is the constant false (the thing it names cannot happen).
    pub fn is_false(self) -> bool {
        self == Term::FALSE
    }

    /// The literal, if this is not a constant.
    pub fn lit(self) -> Option<Lit> {
        match self {
            Term::Lit(l) => Some(l),
            Term::Const(_) => None,
        }
    }

    /// The term's value under a model.
    pub fn eval(self, model: &dyn Fn(Lit) -> bool) -> bool {
        match self {
            Term::Const(b) => b,
            Term::Lit(l) => model(l),
        }
    }
}

impl Not for Term {
    type Output = Term;
    fn not(self) -> Term {
        match self {
            Term::Const(b) => Term::Const(!b),
            Term::Lit(l) => Term::Lit(!l),
        }
    }
}

impl From<Lit> for Term {
    fn from(l: Lit) -> Term {
        Term::Lit(l)
    }
}

/// Anything clauses can be written into.
pub trait ClauseSink {
    /// A fresh variable, as its positive literal.
    fn new_var(&mut self) -> Lit;
    /// Adds a clause (a disjunction of literals). An empty clause makes the formula UNSAT.
    fn add_clause(&mut self, clause: &[Lit]);

    /// Adds a clause of terms: false constants are dropped, and a clause holding a true
    /// constant is already satisfied and left out.
    fn clause(&mut self, terms: &[Term]) {
        let mut lits = Vec::with_capacity(terms.len());
        for &t in terms {
            match t {
                Term::Const(true) => return,
                Term::Const(false) => {}
                Term::Lit(l) => lits.push(l),
            }
        }
        self.add_clause(&lits);
    }
}

/// The answer of one solve call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// A model exists; read it with [`SatBackend::value`].
    Sat,
    /// No model under these assumptions.
    Unsat,
    /// The solver gave up (interrupted or failed).
    Unknown,
}

/// Counters a backend can report; `None` where it does not keep them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Variables created.
    pub variables: u64,
    /// Clauses added.
    pub clauses: u64,
    /// Conflicts so far, if the backend reports them.
    pub conflicts: Option<u64>,
    /// Decisions so far, if the backend reports them.
    pub decisions: Option<u64>,
}

/// A SAT solver behind the narrow interface the driver needs: add clauses, solve under
/// assumptions, read the model.
pub trait SatBackend: ClauseSink {
    /// The backend's name as shown to users (`varisat`, ...).
    fn name(&self) -> &'static str;
    /// Solves the clauses added so far under `assumptions`.
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult;
    /// The value of `lit` in the last model (after [`SolveResult::Sat`]).
    fn value(&self, lit: Lit) -> bool;
    /// After [`SolveResult::Unsat`]: whether the assumptions took part in the refutation.
    /// `false` means the clauses alone are unsatisfiable.
    fn assumptions_used(&self) -> bool;
    /// After [`SolveResult::Unsat`]: assumptions (as given, or their variables) enough
    /// for the refutation, if the backend names them.
    fn failed_assumptions(&self) -> Option<&[Lit]> {
        None
    }
    /// Counters.
    fn stats(&self) -> SolverStats;
    /// Asks the backend to count its search from now on (what it counts shows in
    /// [`SatBackend::stats`] and [`SatBackend::learned`]), for backends where counting
    /// costs solving time and is off otherwise. Call it before the first clause; returns
    /// whether the backend now counts.
    fn count_search(&mut self) -> bool {
        false
    }
    /// Clauses learned by conflict analysis so far, if the backend counts them (after
    /// [`SatBackend::count_search`]). Not always the conflicts: CaDiCaL settles some
    /// conflicts without learning a clause.
    fn learned(&self) -> Option<u64> {
        None
    }
    /// After [`SolveResult::Unknown`]: why, if the solver failed rather than was stopped.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// Counts variables and clauses; the common part of every sink.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counter {
    /// Variables created so far (also the highest variable number).
    pub variables: u32,
    /// Clauses added so far.
    pub clauses: u64,
}

impl Counter {
    /// The counts as solver statistics (for backends that report nothing more).
    pub fn stats(&self) -> SolverStats {
        SolverStats {
            variables: self.variables as u64,
            clauses: self.clauses,
            conflicts: None,
            decisions: None,
        }
    }

    /// Allocates the next variable.
    pub fn next_var(&mut self) -> Lit {
        self.variables += 1;
        Lit::positive(self.variables)
    }
}

/// A question a backend asks while it solves: "should I stop now?". Solvers that can
/// be interrupted ask it inside a solve call, so an engine's stop signal reaches into
/// the solver (the SAT layer knows nothing of engines, only of this closure).
pub type Interrupt = Arc<dyn Fn() -> bool + Send + Sync>;

/// What a backend will mostly be asked, for solvers whose options are set by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Any mix of questions: the solver's own defaults.
    Mixed,
    /// Mostly refutations, one formula asked again and again at a growing bound, as
    /// the time-indexed driver asks every bound below the optimum: CaDiCaL runs its
    /// `unsat` configuration (on Microban, `unroll --solver cadical --horizons 1` at
    /// 10 s proves 131 optima with it against 126 with the defaults, in 0.88× the
    /// time). varisat has no such options.
    Refutations,
}

/// The solvers built into satsoko.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverName {
    /// varisat, embedded (the default).
    Varisat,
    /// CaDiCaL in process (cargo feature `cadical`).
    Cadical,
}

impl SolverName {
    /// Both, in the order help texts list them.
    pub const ALL: [SolverName; 2] = [SolverName::Varisat, SolverName::Cadical];

    /// The name users type and reports show.
    pub fn name(self) -> &'static str {
        match self {
            SolverName::Varisat => "varisat",
            SolverName::Cadical => "cadical",
        }
    }
}

/// Which solver to use.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverChoice {
    /// A solver built into satsoko, in process.
    Builtin(SolverName),
    /// An outside DIMACS solver command (see [`external`]).
    Command(String),
}

impl Default for SolverChoice {
    fn default() -> Self {
        SolverChoice::Builtin(SolverName::Varisat)
    }
}

impl SolverChoice {
    /// The name shown in reports.
    pub fn name(&self) -> &str {
        match self {
            SolverChoice::Builtin(name) => name.name(),
            SolverChoice::Command(cmd) => cmd,
        }
    }

    /// Whether the solver runs in this process (so it can be asked many small
    /// questions cheaply).
    pub fn in_process(&self) -> bool {
        matches!(self, SolverChoice::Builtin(_))
    }

    /// Creates the backend. With `interrupt`, a solve call returns
    /// [`SolveResult::Unknown`] soon after the closure answers true.
    pub fn backend(&self, interrupt: Option<Interrupt>) -> Result<Box<dyn SatBackend>, String> {
        self.backend_for(interrupt, Workload::Mixed)
    }

    /// [`SolverChoice::backend`], its options set for the `workload`.
    pub fn backend_for(
        &self,
        interrupt: Option<Interrupt>,
        workload: Workload,
    ) -> Result<Box<dyn SatBackend>, String> {
        #[cfg(not(feature = "cadical"))]
        let _ = workload;
        match self {
            SolverChoice::Builtin(SolverName::Varisat) => {
                Ok(Box::new(VarisatBackend::with_interrupt(interrupt)))
            }
            #[cfg(feature = "cadical")]
            SolverChoice::Builtin(SolverName::Cadical) => {
                Ok(Box::new(CadicalBackend::for_workload(interrupt, workload)))
            }
            #[cfg(not(feature = "cadical"))]
            SolverChoice::Builtin(SolverName::Cadical) => Err(
                "this satsoko was built without CaDiCaL; rebuild with `--features cadical`".into(),
            ),
            SolverChoice::Command(cmd) => {
                Ok(Box::new(external::ExternalBackend::new(cmd, interrupt)?))
            }
        }
    }
}

/// Checks every backend must pass (shared by the backends' tests).
#[cfg(test)]
pub(crate) mod conformance {
    use super::{SatBackend, SolveResult};

    /// Clauses added between solves stay, assumptions do not, and an UNSAT answer says
    /// whether the assumptions took part.
    pub fn incremental_assumptions(s: &mut dyn SatBackend) {
        let a = s.new_var();
        let b = s.new_var();
        s.add_clause(&[a, b]);
        s.add_clause(&[!a, b]);
        assert_eq!(s.solve(&[]), SolveResult::Sat);
        assert!(s.value(b));
        assert_eq!(s.solve(&[!b]), SolveResult::Unsat);
        assert!(s.assumptions_used());
        assert_eq!(s.solve(&[]), SolveResult::Sat);
        s.add_clause(&[!b]);
        assert_eq!(s.solve(&[a]), SolveResult::Unsat);
        assert!(!s.assumptions_used());
    }

    /// A backend whose interrupt says "stop" from the start answers Unknown on a
    /// formula far too hard to finish first (10 pigeons in 9 holes), and says it was
    /// stopped, not that it failed.
    pub fn interrupt_stops_a_hard_solve(
        make: &mut dyn FnMut(super::Interrupt) -> Box<dyn SatBackend>,
    ) {
        let mut s = make(std::sync::Arc::new(|| true));
        super::cnf::tests::pigeonhole(s.as_mut(), 10, 9);
        assert_eq!(s.solve(&[]), SolveResult::Unknown);
        assert_eq!(s.failure(), None);
    }
}
