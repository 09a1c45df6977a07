//! The embedded default solver, varisat (pure Rust, incremental).
//!
//! varisat has no terminate callback. It does write proofs, and a proof writer that
//! fails stops the solve call at once; so an interruptible backend writes its own proof
//! format (the one that allows assumptions) into a sink that discards it and fails when
//! the interrupt says stop. The solver cannot be used after that, which is all a
//! stopped engine needs.
//!
//! The proof is written through an 8 KiB buffer, so the sink is asked only when the
//! buffer fills. On a big formula, where each conflict is slow, that can be seconds
//! apart. So a long solve call runs on a thread of its own while the caller polls the
//! interrupt every few milliseconds; once it says stop, the caller answers Unknown at
//! once and leaves the solver to its thread, which drops it at the sink's next write.

use std::io;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use varisat::ExtendFormula;
use varisat::solver::ProofFormat;

use super::{ClauseSink, Counter, Interrupt, Lit, SatBackend, SolveResult, SolverStats};

/// varisat behind [`SatBackend`].
pub struct VarisatBackend {
    /// `None` once a solve call was interrupted: the solver is unusable after that
    /// (or was left to the thread of its call).
    solver: Option<Lent>,
    interrupt: Option<Interrupt>,
    /// Whether the last solve call was long enough that the next goes to a thread.
    last_was_long: bool,
    counter: Counter,
    model: Vec<bool>,
    assumptions_used: bool,
    failed: Vec<Lit>,
    buffer: Vec<varisat::Lit>,
    /// Why the last solve call failed, when it was not stopped.
    failure: Option<String>,
}

/// The solver, so that it can be moved to the thread of a long solve call.
struct Lent(varisat::Solver<'static>);

// SAFETY: `Solver` is not `Send` only because it can hold boxed trait objects: a proof
// writer and proof processors. The only writer it ever holds here is `StopSink`, whose
// interrupt is `Send + Sync`, and no processor or self-check is ever added; everything
// else in it is owned data. The solver is used by one thread at a time: the caller
// gives it away for the call and takes it back from the channel (or never again).
unsafe impl Send for Lent {}

/// A formula at least this big (variables plus clauses) is solved on a thread of its own.
const LONG_SOLVE_SIZE: u64 = 100_000;

/// A solve call at least this long makes the next one go to a thread of its own too.
const LONG_SOLVE_TIME: Duration = Duration::from_millis(20);

/// How often the caller of a solve call on a thread asks the interrupt.
const POLL: Duration = Duration::from_millis(5);

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
        if let Some(interrupt) = &interrupt {
            solver.write_proof(StopSink(interrupt.clone()), ProofFormat::Varisat);
        }
        let mut config = varisat::config::SolverConfigUpdate::new();
        config.vsids_decay = Some(VSIDS_DECAY);
        solver
            .config(&config)
            .expect("the decay is inside varisat's range 0.5..1.0");
        VarisatBackend {
            solver: Some(Lent(solver)),
            interrupt,
            last_was_long: false,
            counter: Counter::default(),
            model: Vec::new(),
            assumptions_used: true,
            failed: Vec::new(),
            buffer: Vec::new(),
            failure: None,
        }
    }
}

impl VarisatBackend {
    /// Solves on a thread of its own, polling `interrupt`. `None` when it said stop
    /// first: the solver is then left to the thread.
    fn solve_on_a_thread(
        &mut self,
        interrupt: &(dyn Fn() -> bool + Send + Sync),
    ) -> Option<Result<bool, ()>> {
        let mut lent = self.solver.take()?;
        let (answers, answer) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("varisat".into())
            .spawn(move || {
                let result = lent.0.solve().map_err(|_| ());
                // The caller may have gone: then the solver is dropped here.
                let _ = answers.send((lent, result));
            });
        if let Err(error) = thread {
            // The closure, and the solver with it, is gone.
            self.failure = Some(format!("could not start a thread for varisat: {error}"));
            return None;
        }
        loop {
            match answer.recv_timeout(POLL) {
                Ok((lent, result)) => {
                    self.solver = Some(lent);
                    return Some(result);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if interrupt() {
                        return None;
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
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
        if let Some(Lent(solver)) = &mut self.solver {
            solver.add_clause(&self.buffer);
        }
    }
}

impl SatBackend for VarisatBackend {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        let Some(Lent(solver)) = &mut self.solver else {
            return SolveResult::Unknown;
        };
        // The buffers are reused: search engines ask many small questions.
        self.buffer.clear();
        self.buffer
            .extend(assumptions.iter().map(|&l| to_varisat(l)));
        solver.assume(&self.buffer);
        let size = self.counter.variables as u64 + self.counter.clauses;
        let started = Instant::now();
        let answer = match &self.interrupt {
            Some(interrupt) if self.last_was_long || size >= LONG_SOLVE_SIZE => {
                let interrupt = interrupt.clone();
                match self.solve_on_a_thread(&*interrupt) {
                    Some(answer) => answer,
                    None => return SolveResult::Unknown,
                }
            }
            _ => solver.solve().map_err(|_| ()),
        };
        self.last_was_long = started.elapsed() >= LONG_SOLVE_TIME;
        let Some(Lent(solver)) = &mut self.solver else {
            return SolveResult::Unknown;
        };
        match answer {
            Ok(true) => {
                self.model.clear();
                self.model
                    .resize(self.counter.variables as usize + 1, false);
                for l in solver.model().unwrap_or_default() {
                    let i = l.var().to_dimacs() as usize;
                    if i < self.model.len() {
                        self.model[i] = l.is_positive();
                    }
                }
                SolveResult::Sat
            }
            Ok(false) => {
                self.failed.clear();
                let core = solver.failed_core().unwrap_or_default();
                self.failed.extend(
                    core.iter()
                        .map(|l| Lit::from_dimacs(l.to_dimacs() as i32).expect("not 0")),
                );
                self.assumptions_used = !self.failed.is_empty();
                SolveResult::Unsat
            }
            Err(_) => {
                self.solver = None;
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

    fn failure(&self) -> Option<String> {
        self.failure.clone()
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

    /// A backend whose every solve call runs on a thread of its own.
    fn on_a_thread(interrupt: Interrupt) -> VarisatBackend {
        let mut backend = VarisatBackend::with_interrupt(Some(interrupt));
        backend.last_was_long = true;
        backend
    }

    #[test]
    fn solves_on_a_thread_as_in_place() {
        crate::sat::conformance::incremental_assumptions(&mut on_a_thread(std::sync::Arc::new(
            || false,
        )));
        crate::sat::conformance::interrupt_stops_a_hard_solve(&mut |i| Box::new(on_a_thread(i)));
    }

    #[test]
    fn a_solve_on_a_thread_stops_when_asked_midway() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let asked = stop.clone();
        let mut backend = on_a_thread(std::sync::Arc::new(move || asked.load(Ordering::Relaxed)));
        // Twelve pigeons in eleven holes take varisat far longer than this test.
        crate::sat::cnf::tests::pigeonhole(&mut backend, 12, 11);
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!(backend.solve(&[]), SolveResult::Unknown);
        assert_eq!(backend.failure(), None);
        // Stopped for good: later calls answer at once.
        assert_eq!(backend.solve(&[]), SolveResult::Unknown);
        raiser.join().unwrap();
    }
}
