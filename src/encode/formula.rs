//! A whole formula for a fixed bound, for outside solvers: satisfiable iff a plan of at
//! most K steps exists. Built the same way every time, so a model can be decoded later.

use std::io;

use super::{Decoded, Encoding, EncodingKind};
use crate::analysis::Analysis;
use crate::game::Plan;
use crate::level::Level;
use crate::sat::dimacs::CnfBuffer;
use crate::sat::{ClauseSink, Lit};
use crate::stop::{Stop, Stopped};

/// A sink that adds `¬unless` to every clause: the clause only binds when `unless` holds.
struct Guarded<'a> {
    inner: &'a mut CnfBuffer,
    unless: Lit,
}

impl ClauseSink for Guarded<'_> {
    fn new_var(&mut self) -> Lit {
        self.inner.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let mut guarded = clause.to_vec();
        guarded.push(!self.unless);
        self.inner.add_clause(&guarded);
    }
}

/// An encoding unrolled to a bound, with its clauses in memory.
pub struct Unrolled {
    /// The clauses.
    pub cnf: CnfBuffer,
    /// The encoding (for decoding and variable names).
    pub encoding: Box<dyn Encoding>,
    /// `goal(k)` for each k from the lower bound to the bound; one of them must hold.
    pub goals: Vec<(usize, Lit)>,
    /// Why the formula was made unsatisfiable outright, if it was.
    pub refuted: Option<String>,
}

impl Unrolled {
    /// Unrolls `kind` for `level` to `bound` steps, with the clause
    /// goal(lb) ∨ … ∨ goal(bound) so that the formula asks for a plan of at most `bound`
    /// steps. A level that static analysis proves unsolvable, or a bound below the lower
    /// bound, gets an empty clause (the formula is then trivially unsatisfiable).
    pub fn new(level: &Level, kind: EncodingKind, bound: usize) -> Unrolled {
        // An export is written whole (`satsoko encode` has no time limit).
        let analysis = Analysis::new(level);
        Unrolled::build(level, &analysis, kind, bound, true, &Stop::never()).expect("never stopped")
    }

    /// [`Unrolled::new`] without the static lower bound: goal(0) ∨ … ∨ goal(bound), so
    /// that a refutation must come from the steps themselves and not from an empty
    /// clause the bound puts there (the formula of a certificate), with the level's
    /// `analysis` (the solve's, which need not be made again). `Err` when `stop` says
    /// stop before it is written.
    pub fn without_lower_bound(
        level: &Level,
        analysis: &Analysis,
        kind: EncodingKind,
        bound: usize,
        stop: &Stop,
    ) -> Result<Unrolled, Stopped> {
        Unrolled::build(level, analysis, kind, bound, false, stop)
    }

    fn build(
        level: &Level,
        analysis: &Analysis,
        kind: EncodingKind,
        bound: usize,
        use_lower: bool,
        stop: &Stop,
    ) -> Result<Unrolled, Stopped> {
        let kind = kind.for_export();
        if stop.should_stop() {
            return Err(Stopped);
        }
        let mut cnf = CnfBuffer::new();
        // running(t): the plan is still running at step t, so transition t → t+1 is a
        // real step. Every clause of that transition is guarded by it, which lets a plan
        // stop at any k ≤ bound (the steps after it are free).
        let running: Vec<Lit> = (0..bound).map(|_| cnf.new_var()).collect();
        for pair in running.windows(2) {
            cnf.add_clause(&[!pair[1], pair[0]]);
        }
        let mut encoding = kind.build(level, analysis, &mut cnf);
        while encoding.steps() < bound {
            let t = encoding.steps();
            let mut guarded = Guarded {
                inner: &mut cnf,
                unless: running[t],
            };
            encoding.add_step(&mut guarded, stop)?;
        }
        let lower = if use_lower {
            kind.lower_bound(analysis)
        } else {
            0
        };
        let mut refuted = analysis.unsolvable.clone();
        if refuted.is_none() && lower > bound {
            refuted = Some(format!(
                "no plan can be shorter than the lower bound {lower}"
            ));
        }
        let mut goals = Vec::new();
        if refuted.is_none() {
            for k in lower..=bound {
                let goal = encoding.goal_literal(k, &mut cnf);
                // goal(k) means the plan runs exactly k steps.
                if k > 0 {
                    cnf.add_clause(&[!goal, running[k - 1]]);
                }
                if k < bound {
                    cnf.add_clause(&[!goal, !running[k]]);
                }
                goals.push((k, goal));
            }
        }
        let any_goal: Vec<Lit> = goals.iter().map(|&(_, g)| g).collect();
        cnf.add_clause(&any_goal);
        Ok(Unrolled {
            cnf,
            encoding,
            goals,
            refuted,
        })
    }

    /// The DIMACS text with comment lines naming the encoding, the level and every
    /// variable.
    pub fn to_dimacs(&self, header: &[String]) -> String {
        self.cnf.to_dimacs(&self.comments(header), &[])
    }

    /// Writes [`Unrolled::to_dimacs`]'s text to `out`, clause by clause.
    pub fn write_dimacs(&self, header: &[String], out: &mut dyn io::Write) -> io::Result<()> {
        self.cnf.write_dimacs(&self.comments(header), &[], out)
    }

    /// The comment lines: the `header`, then the encoding, the level and every variable.
    fn comments(&self, header: &[String]) -> Vec<String> {
        let kind = self.encoding.kind();
        let mut comments: Vec<String> = header.to_vec();
        comments.push(format!(
            "encoding {kind}: see {} in the satsoko sources",
            kind.document()
        ));
        comments.push(format!(
            "satisfiable iff a plan of at most {} steps exists; the last clause asks for one goal(k)",
            self.encoding.steps()
        ));
        if let Some(why) = &self.refuted {
            comments.push(format!("refuted before encoding: {why} (empty clause)"));
        }
        let mut names = self.encoding.variable_names().into_iter().peekable();
        for var in 1..=self.cnf.variables() {
            match names.peek() {
                Some((v, _)) if *v == var => {
                    let (_, name) = names.next().expect("peeked");
                    comments.push(format!("var {var} {name}"));
                }
                _ if var as usize <= self.encoding.steps() => comments.push(format!(
                    "var {var} running t{} (the plan is still running: step t{} is taken)",
                    var - 1,
                    var - 1
                )),
                _ => comments.push(format!(
                    "var {var} aux (at-most-one ladder, reachability layer or potential)"
                )),
            }
        }
        comments
    }

    /// Decodes a model of this formula: the plan for the smallest k whose goal literal is
    /// true. `Err` if the model falsifies a clause or sets no goal.
    pub fn decode(&mut self, value: &dyn Fn(Lit) -> bool) -> Result<(usize, Plan), String> {
        if let Some(i) = self.cnf.first_falsified(value) {
            let clause: Vec<String> = self.cnf.clauses[i].iter().map(|l| l.to_string()).collect();
            return Err(format!(
                "the model violates clause {} of the formula ({} 0); was it produced for this \
                 level, encoding and bound?",
                i + 1,
                clause.join(" ")
            ));
        }
        let &(k, _) = self
            .goals
            .iter()
            .find(|&&(_, g)| value(g))
            .ok_or("the model sets no goal literal")?;
        let mut scratch = CnfBuffer::new();
        match self.encoding.decode(k, value, &mut scratch) {
            Decoded::Plan(plan) => Ok((k, plan)),
            Decoded::Refined(_) => Err("internal error: the exported formula needed a cut".into()),
            Decoded::Invalid(why) => Err(format!("the model is not a plan: {why}")),
        }
    }
}
