//! Writing varisat's proof as LRAT: varisat checks its own proof as it solves and hands
//! every checked step to a proof processor, with the clauses whose propagation showed
//! it (the hints LRAT wants). This processor writes those steps in LRAT, clause ids
//! counted from 1 in the order the formula's clauses were given.

use std::io::Write;

use varisat::Lit;
use varisat::checker::{CheckedProofStep, CheckerData, ProofProcessor};

/// A proof processor that writes LRAT to `out`.
pub struct LratWriter<W: Write> {
    out: W,
    /// Input clauses seen so far (their ids must be 0, 1, 2, … in order).
    inputs: u64,
    /// The highest id so far (LRAT numbering), which names deletion lines.
    last: u64,
    /// Why the proof cannot be written, if it cannot.
    pub failed: Option<String>,
}

impl<W: Write> LratWriter<W> {
    /// A writer to `out` for a formula of `clauses` clauses.
    pub fn new(out: W, clauses: usize) -> LratWriter<W> {
        LratWriter {
            out,
            inputs: 0,
            // Deletion lines are named after the last clause id, at least the formula's.
            last: clauses as u64,
            failed: None,
        }
    }

    /// The output, flushed.
    pub fn finish(mut self) -> Result<W, String> {
        if let Some(why) = self.failed {
            return Err(why);
        }
        self.out.flush().map_err(|e| e.to_string())?;
        Ok(self.out)
    }

    fn input(&mut self, id: u64) {
        if id != self.inputs && self.failed.is_none() {
            self.failed = Some(format!("input clause {} got the id {id}", self.inputs));
        }
        self.inputs += 1;
        self.last = self.last.max(id + 1);
    }

    fn write_clause(&mut self, id: u64, clause: &[Lit], hints: &[u64], data: &CheckerData) {
        let mut line = format!("{}", id + 1);
        for &l in clause {
            match data.user_from_proof_var(l.var()) {
                Some(v) => line.push_str(&format!(" {}", v.lit(l.is_positive()).to_dimacs())),
                None => {
                    self.failed = Some("the proof uses a variable of the solver's own".into());
                    return;
                }
            }
        }
        line.push_str(" 0");
        for h in hints {
            line.push_str(&format!(" {}", h + 1));
        }
        line.push_str(" 0\n");
        self.last = self.last.max(id + 1);
        if let Err(e) = self.out.write_all(line.as_bytes()) {
            self.failed = Some(e.to_string());
        }
    }

    fn delete(&mut self, id: u64) {
        let line = format!("{} d {} 0\n", self.last, id + 1);
        if let Err(e) = self.out.write_all(line.as_bytes()) {
            self.failed = Some(e.to_string());
        }
    }
}

impl<W: Write> ProofProcessor for LratWriter<W> {
    fn process_step(&mut self, step: &CheckedProofStep, data: CheckerData) -> anyhow::Result<()> {
        match *step {
            CheckedProofStep::AddClause { id, .. }
            | CheckedProofStep::DuplicatedClause { id, .. }
            | CheckedProofStep::TautologicalClause { id, .. } => self.input(id),
            CheckedProofStep::AtClause {
                id,
                clause,
                propagations,
                ..
            } => self.write_clause(id, clause, propagations, &data),
            CheckedProofStep::DeleteClause { id, .. } => self.delete(id),
            CheckedProofStep::DeleteAtClause {
                id,
                keep_as_redundant: false,
                ..
            }
            | CheckedProofStep::DeleteRatClause {
                id,
                keep_as_redundant: false,
                ..
            } => self.delete(id),
            _ => {}
        }
        Ok(())
    }
}
