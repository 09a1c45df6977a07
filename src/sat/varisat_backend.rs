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
//!
//! varisat keeps its conflict count to itself; its proof shows them all the same, one
//! learned clause per conflict. So a backend asked to count (as `sweep` asks) writes the
//! proof even without an interrupt, and reads it as it goes by ([`ConflictCount`]).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
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
    /// The conflicts read from the proof so far, once counting was asked for
    /// ([`UNREADABLE`] if the proof could not be read).
    conflicts: Option<Arc<AtomicU64>>,
}

/// The solver, so that it can be moved to the thread of a long solve call.
struct Lent(varisat::Solver<'static>);

// SAFETY: `Solver` is not `Send` only because it can hold boxed trait objects: a proof
// writer and proof processors. The only writer it ever holds here is `ProofSink`, whose
// interrupt is `Send + Sync`, whose count is an `Arc<AtomicU64>` and whose reader is
// owned data; no processor or self-check is ever added; everything else in it is owned
// data. The solver is used by one thread at a time: the caller gives it away for the
// call and takes it back from the channel (or never again).
unsafe impl Send for Lent {}

/// A formula at least this big (variables plus clauses) is solved on a thread of its own.
const LONG_SOLVE_SIZE: u64 = 100_000;

/// A solve call at least this long makes the next one go to a thread of its own too.
const LONG_SOLVE_TIME: Duration = Duration::from_millis(20);

/// How often the caller of a solve call on a thread asks the interrupt.
const POLL: Duration = Duration::from_millis(5);

/// What the proof goes to: nothing is kept; the sink fails once the interrupt (if any)
/// answers true, and counts the conflicts in it when asked to.
struct ProofSink {
    interrupt: Option<Interrupt>,
    count: Option<(ConflictCount, Arc<AtomicU64>)>,
}

impl io::Write for ProofSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.interrupt.as_ref().is_some_and(|stop| stop()) {
            return Err(io::Error::other("interrupted"));
        }
        if let Some((count, total)) = &mut self.count {
            count.read(buf);
            total.store(count.conflicts().unwrap_or(UNREADABLE), Ordering::Relaxed);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The count of a proof that could not be read (not varisat 0.2.2's format).
const UNREADABLE: u64 = u64::MAX;

/// Counts the conflicts in varisat's own proof format while it is written.
///
/// varisat 0.2.2 writes a proof as steps, each a step code followed by its fields, all
/// numbers in its variable-length code (`varisat-internal-proof`'s `vli_enc`: the lowest
/// set bit of the first bytes says how many bytes follow). Every conflict the search
/// analyses (`cdcl::conflict_step`) adds exactly one `AtClause` step: the clause it
/// learned, with the hashes of the clauses that propagated to it: the conflicting
/// clause and each reason resolved away. The only other `AtClause` steps come from
/// removing fixed literals from a clause (`unit_simplify`): at least two literals left,
/// and exactly one hash, that of the clause shortened. A conflict has one hash only at
/// the root, where it learns the empty clause: above it, the conflicting clause holds
/// at least two literals of the conflict's level (it would have propagated before
/// otherwise), and all but one are resolved away with their reasons. So an `AtClause`
/// step is a conflict when its clause is empty or its hashes are not one. An assumption
/// found false before any conflict, which ends a call as UNSAT, is no conflict and
/// writes no `AtClause`. Checked against a counter put into a copy of varisat's
/// `conflict_step`: the same count on each of 1,200 solve calls (random 3-SAT, clauses
/// added between calls, assumptions; 192,782 conflicts) and on Microban 100's formulas
/// at k = 50 and 52 solved incrementally.
#[derive(Default)]
struct ConflictCount {
    /// The bytes of the number being read, when a write ended inside it.
    number: [u8; 10],
    have: usize,
    /// Numbers of the current step still to pass over.
    skip: u64,
    /// The lists of the current step still to come (each its length, then that many
    /// items), as the numbers per item.
    lists: &'static [u64],
    /// In an `AtClause` step: its clause's length, once read.
    at_clause: Option<Option<u64>>,
    conflicts: u64,
    unreadable: bool,
}

// The step codes of varisat 0.2.2's proof format, in its order.
const SOLVER_VAR_NAME_UPDATE: u64 = 0;
const SOLVER_VAR_NAME_REMOVE: u64 = 1;
const USER_VAR_NAME_UPDATE: u64 = 2;
const USER_VAR_NAME_REMOVE: u64 = 3;
const DELETE_VAR: u64 = 4;
const CHANGE_SAMPLING_MODE_SAMPLE: u64 = 5;
const CHANGE_SAMPLING_MODE_WITNESS: u64 = 6;
const AT_CLAUSE_RED: u64 = 7;
const AT_CLAUSE_IRRED: u64 = 8;
const UNIT_CLAUSES: u64 = 9;
const DELETE_CLAUSE_REDUNDANT: u64 = 10;
const DELETE_CLAUSE_SIMPLIFIED: u64 = 11;
const DELETE_CLAUSE_SATISFIED: u64 = 12;
const CHANGE_HASH_BITS: u64 = 13;
const MODEL: u64 = 14;
const ADD_CLAUSE: u64 = 15;
const ASSUMPTIONS: u64 = 16;
const FAILED_ASSUMPTIONS: u64 = 17;
const END: u64 = 0x9ac3391f4294c211;

/// The length of a number in the variable-length code, from its first bytes (`None`
/// when one byte does not tell).
fn number_length(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [first, ..] if *first != 0 => Some(first.trailing_zeros() as usize + 1),
        [_, second, ..] => Some(if second & 1 != 0 { 9 } else { 10 }),
        _ => None,
    }
}

/// The number a whole code of `bytes` stands for.
fn decode_number(bytes: &[u8]) -> u64 {
    let word = |bytes: &[u8]| {
        let mut le = [0u8; 8];
        le[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(le)
    };
    let len = bytes.len() as u32;
    let low = word(&bytes[..bytes.len().min(8)]);
    if len <= 8 {
        low >> len
    } else {
        (low >> len) | (word(&bytes[8..]) << (64 - len))
    }
}

impl ConflictCount {
    /// The conflicts so far, or `None` if the proof could not be read.
    fn conflicts(&self) -> Option<u64> {
        (!self.unreadable).then_some(self.conflicts)
    }

    /// Reads the next bytes of the proof.
    fn read(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && !self.unreadable {
            if self.have == 0 {
                // Most numbers lie whole in the buffer: skipped without decoding.
                if let Some(len) = number_length(bytes)
                    && len <= bytes.len()
                {
                    if self.skip > 0 {
                        self.skip -= 1;
                    } else {
                        self.number_read(decode_number(&bytes[..len]));
                    }
                    bytes = &bytes[len..];
                    continue;
                }
            }
            self.number[self.have] = bytes[0];
            self.have += 1;
            bytes = &bytes[1..];
            if number_length(&self.number[..self.have]) == Some(self.have) {
                let value = decode_number(&self.number[..self.have]);
                self.have = 0;
                if self.skip > 0 {
                    self.skip -= 1;
                } else {
                    self.number_read(value);
                }
            }
        }
    }

    /// A number that is not passed over: a list's length or a step code.
    fn number_read(&mut self, value: u64) {
        if let [per_item, rest @ ..] = self.lists {
            self.skip = value.saturating_mul(*per_item);
            self.lists = rest;
            match self.at_clause {
                // The clause's length.
                Some(None) => self.at_clause = Some(Some(value)),
                // The number of hashes.
                Some(Some(literals)) => {
                    if literals == 0 || value != 1 {
                        self.conflicts += 1;
                    }
                    self.at_clause = None;
                }
                None => {}
            }
            return;
        }
        match value {
            SOLVER_VAR_NAME_UPDATE | USER_VAR_NAME_UPDATE => self.skip = 2,
            SOLVER_VAR_NAME_REMOVE
            | USER_VAR_NAME_REMOVE
            | DELETE_VAR
            | CHANGE_SAMPLING_MODE_SAMPLE
            | CHANGE_SAMPLING_MODE_WITNESS
            | CHANGE_HASH_BITS => self.skip = 1,
            // The clause, then the hashes of the clauses that showed it.
            AT_CLAUSE_RED | AT_CLAUSE_IRRED => {
                self.at_clause = Some(None);
                self.lists = &[1, 1];
            }
            // The failed core, then hashes.
            FAILED_ASSUMPTIONS => self.lists = &[1, 1],
            // Pairs of a literal and a hash.
            UNIT_CLAUSES => self.lists = &[2],
            DELETE_CLAUSE_REDUNDANT
            | DELETE_CLAUSE_SIMPLIFIED
            | DELETE_CLAUSE_SATISFIED
            | MODEL
            | ADD_CLAUSE
            | ASSUMPTIONS => self.lists = &[1],
            END => {}
            _ => self.unreadable = true,
        }
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
            let sink = ProofSink {
                interrupt: Some(interrupt.clone()),
                count: None,
            };
            solver.write_proof(sink, ProofFormat::Varisat);
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
            conflicts: None,
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
        SolverStats {
            conflicts: self.learned(),
            ..self.counter.stats()
        }
    }

    /// Counting has varisat write its proof (and work out the clause hashes in it) even
    /// without an interrupt, and reads it as it is written: 10–15% more time (`sweep`
    /// on Microban 100 at k = 50..52: 1.41 s against 1.27 s; docs/cli.md), so only
    /// when asked.
    fn count_search(&mut self) -> bool {
        if self.conflicts.is_some() {
            return true;
        }
        let Some(Lent(solver)) = &mut self.solver else {
            return false;
        };
        // varisat takes a proof writer only before the first clause.
        if self.counter.clauses > 0 {
            return false;
        }
        let total = Arc::new(AtomicU64::new(0));
        let sink = ProofSink {
            interrupt: self.interrupt.clone(),
            count: Some((ConflictCount::default(), total.clone())),
        };
        // This writer replaces the stopping one given before, and stops as it did.
        solver.write_proof(sink, ProofFormat::Varisat);
        self.conflicts = Some(total);
        true
    }

    /// One clause per conflict: the same number as the conflicts.
    fn learned(&self) -> Option<u64> {
        let total = self.conflicts.as_ref()?.load(Ordering::Relaxed);
        (total != UNREADABLE).then_some(total)
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

    /// Two variables and all four clauses over them: a conflict below the root learns a
    /// unit, and one at the root the empty clause.
    fn all_four_clauses(s: &mut dyn SatBackend) {
        let a = s.new_var();
        let b = s.new_var();
        for clause in [[a, b], [a, !b], [!a, b], [!a, !b]] {
            s.add_clause(&clause);
        }
    }

    #[test]
    fn counts_conflicts_only_when_asked() {
        let mut plain = VarisatBackend::new();
        all_four_clauses(&mut plain);
        assert_eq!(plain.solve(&[]), SolveResult::Unsat);
        assert_eq!((plain.stats().conflicts, plain.learned()), (None, None));
        // Too late once clauses are in.
        assert!(!plain.count_search());

        let mut counting = VarisatBackend::new();
        assert!(counting.count_search());
        all_four_clauses(&mut counting);
        assert_eq!(counting.solve(&[]), SolveResult::Unsat);
        assert_eq!(counting.stats().conflicts, Some(2));
        assert_eq!(counting.learned(), Some(2));

        // A false assumption is no conflict; nor is a model found without one.
        let mut counting = VarisatBackend::with_interrupt(Some(Arc::new(|| false)));
        assert!(counting.count_search());
        let a = counting.new_var();
        counting.add_clause(&[!a]);
        assert_eq!(counting.solve(&[a]), SolveResult::Unsat);
        assert_eq!(counting.solve(&[]), SolveResult::Sat);
        assert_eq!(counting.stats().conflicts, Some(0));
    }

    /// Keeps what is written to it.
    struct Keep(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

    impl io::Write for Keep {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_count_does_not_depend_on_where_the_writes_cut_the_proof() {
        let mut counting = VarisatBackend::new();
        assert!(counting.count_search());
        crate::sat::cnf::tests::pigeonhole(&mut counting, 6, 5);
        assert_eq!(counting.solve(&[]), SolveResult::Unsat);
        let conflicts = counting.learned().unwrap();
        assert!(conflicts > 0);

        // The same solver on the same clauses, its proof kept and read in pieces.
        let proof = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut solver = varisat::Solver::new();
        solver.write_proof(Keep(proof.clone()), ProofFormat::Varisat);
        let mut config = varisat::config::SolverConfigUpdate::new();
        config.vsids_decay = Some(VSIDS_DECAY);
        solver.config(&config).unwrap();
        let mut kept = crate::sat::dimacs::CnfBuffer::default();
        crate::sat::cnf::tests::pigeonhole(&mut kept, 6, 5);
        for clause in &kept.clauses {
            let clause: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
            solver.add_clause(&clause);
        }
        assert_eq!(solver.solve().ok(), Some(false));
        let proof = proof.borrow();
        for piece in 1..=17 {
            let mut count = ConflictCount::default();
            for bytes in proof.chunks(piece) {
                count.read(bytes);
            }
            assert_eq!(
                count.conflicts(),
                Some(conflicts),
                "pieces of {piece} bytes"
            );
        }
        // Not a varisat proof: no count.
        let mut count = ConflictCount::default();
        count.read(&[0x03, 0xff, 0xff]);
        assert_eq!(count.conflicts(), None);
    }

    #[test]
    fn numbers_decode_as_varisat_writes_them() {
        // varisat's `vli_enc::write_u64`: ((v << 1) | 1) << (n - 1) in n bytes, little
        // endian; 9 and 10 bytes for the largest numbers.
        assert_eq!(number_length(&[0b1]), Some(1));
        assert_eq!(decode_number(&[(5 << 1) | 1]), 5);
        assert_eq!(number_length(&[0b10]), Some(2));
        assert_eq!(
            decode_number(&(((300u64 << 1) | 1) << 1).to_le_bytes()[..2]),
            300
        );
        assert_eq!(number_length(&[0]), None);
        let v: u64 = (1 << 60) + 12345;
        let mut nine = (((v << 1) | 1) << 8).to_le_bytes().to_vec();
        nine.push((v >> 55) as u8);
        assert_eq!(number_length(&nine), Some(9));
        assert_eq!(decode_number(&nine), v);
        let v: u64 = u64::MAX - 7;
        let mut ten = (((v << 1) | 1) << 9).to_le_bytes().to_vec();
        ten.extend_from_slice(&((v >> 54) as u16).to_le_bytes());
        assert_eq!(number_length(&ten), Some(10));
        assert_eq!(decode_number(&ten), v);
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
