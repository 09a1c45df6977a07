//! DIMACS CNF: a sink that keeps clauses in memory and writes them out with comment
//! lines naming every variable, and a reader for outside solvers' answers.

use std::io;

use super::{ClauseSink, Counter, Lit};

/// Clauses collected in memory, ready to be written as DIMACS.
#[derive(Clone, Debug, Default)]
pub struct CnfBuffer {
    counter: Counter,
    /// The clauses, in the order they were added.
    pub clauses: Vec<Vec<Lit>>,
}

impl CnfBuffer {
    /// An empty formula.
    pub fn new() -> CnfBuffer {
        CnfBuffer::default()
    }

    /// Number of variables.
    pub fn variables(&self) -> u32 {
        self.counter.variables
    }

    /// Gives the formula to `sink` (a solver, say), whose variables must start at 1
    /// as these do: its variables, then its clauses.
    pub fn add_to(&self, sink: &mut dyn ClauseSink) {
        for _ in 0..self.variables() {
            sink.new_var();
        }
        for clause in &self.clauses {
            sink.add_clause(clause);
        }
    }

    /// The formula in DIMACS CNF, `comments` first (each becomes a `c` line), then
    /// `extra` clauses after the collected ones (e.g. units for assumptions).
    pub fn to_dimacs(&self, comments: &[String], extra: &[Vec<Lit>]) -> String {
        let mut out = Vec::new();
        self.write_dimacs(comments, extra, &mut out)
            .expect("writing to memory does not fail");
        String::from_utf8(out).expect("DIMACS is ASCII")
    }

    /// Writes what [`CnfBuffer::to_dimacs`] returns to `out`, clause by clause (a
    /// certificate's formula runs to gigabytes: it is not built as one string first).
    pub fn write_dimacs(
        &self,
        comments: &[String],
        extra: &[Vec<Lit>],
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        for c in comments {
            for line in c.lines() {
                writeln!(out, "c {line}")?;
            }
        }
        writeln!(
            out,
            "p cnf {} {}",
            self.counter.variables,
            self.clauses.len() + extra.len()
        )?;
        for clause in self.clauses.iter().chain(extra) {
            for l in clause {
                write!(out, "{l} ")?;
            }
            out.write_all(b"0\n")?;
        }
        Ok(())
    }

    /// Checks a full assignment against every clause; the index of the first clause it
    /// falsifies, if any.
    pub fn first_falsified(&self, value: &dyn Fn(Lit) -> bool) -> Option<usize> {
        self.clauses
            .iter()
            .position(|clause| !clause.iter().any(|&l| value(l)))
    }
}

impl ClauseSink for CnfBuffer {
    fn new_var(&mut self) -> Lit {
        self.counter.next_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.counter.clauses += 1;
        self.clauses.push(clause.to_vec());
    }
}

/// An outside solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// A model: the value of each variable (index 0 unused); unmentioned ones are false.
    Sat(Vec<bool>),
    /// The solver proved the formula unsatisfiable.
    Unsat,
    /// The solver gave no verdict (`s UNKNOWN`, or no `s` line and no literals).
    Unknown,
}

impl SolverAnswer {
    /// The value of a literal in a model answer.
    pub fn value(model: &[bool], lit: Lit) -> bool {
        model.get(lit.var() as usize).copied().unwrap_or(false) == lit.is_positive()
    }
}

/// The largest variable an answer may name: far more than any formula satsoko writes
/// (its DIMACS file would take gigabytes), and a model that large still takes only
/// 64 MiB. The model is a table up to the largest variable named, so without a limit
/// one literal such as `2147483647` would allocate 2 GiB.
pub const MAX_VARIABLE: usize = 1 << 26;

/// The conflicts and decisions a solver's output reports, if it does: CaDiCaL and
/// Kissat print `c conflicts: N` and `c decisions: N` among their statistics, MiniSat
/// `conflicts : N` and `decisions : N`.
pub fn parse_counters(text: &str) -> (Option<u64>, Option<u64>) {
    let (mut conflicts, mut decisions) = (None, None);
    for line in text.lines() {
        // A comment's `c ` goes, not the `c` of `conflicts`.
        let line = line.strip_prefix("c ").unwrap_or(line).trim_start();
        let Some((name, rest)) = line.split_once(':') else {
            continue;
        };
        let value = rest
            .split_whitespace()
            .next()
            .and_then(|v| v.parse::<u64>().ok());
        match name.trim() {
            "conflicts" => conflicts = value.or(conflicts),
            "decisions" => decisions = value.or(decisions),
            _ => {}
        }
    }
    (conflicts, decisions)
}

/// Reads a solver answer: SAT-competition output (`s SATISFIABLE` and `v ... 0` lines,
/// other lines ignored) or a plain list of signed literals. Errors name the line.
pub fn parse_answer(text: &str) -> Result<SolverAnswer, String> {
    let mut status: Option<bool> = None;
    let mut saw_status = false;
    let mut model: Vec<bool> = Vec::new();
    let mut saw_literal = false;
    let competition = text.lines().any(|l| l.trim_start().starts_with("s "));
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("s ") {
            saw_status = true;
            status = match rest.trim() {
                "SATISFIABLE" | "SAT" => Some(true),
                "UNSATISFIABLE" | "UNSAT" => Some(false),
                _ => None,
            };
            continue;
        }
        // MiniSat's result file says SAT / UNSAT / INDET on a line of its own.
        match line {
            "SAT" | "SATISFIABLE" => {
                (saw_status, status) = (true, Some(true));
                continue;
            }
            "UNSAT" | "UNSATISFIABLE" => {
                (saw_status, status) = (true, Some(false));
                continue;
            }
            "INDET" | "UNKNOWN" => {
                (saw_status, status) = (true, None);
                continue;
            }
            _ => {}
        }
        let body = if let Some(rest) = line.strip_prefix("v ") {
            rest
        } else if line == "v" {
            ""
        } else if competition || line.is_empty() || line.starts_with('c') {
            continue;
        } else {
            line
        };
        for word in body.split_whitespace() {
            let n: i64 = word
                .parse()
                .map_err(|_| format!("line {}: {word:?} is not a literal", i + 1))?;
            if n == 0 {
                continue;
            }
            saw_literal = true;
            let var = n.unsigned_abs() as usize;
            if var > MAX_VARIABLE {
                return Err(format!(
                    "line {}: variable {var} is out of range (at most {MAX_VARIABLE})",
                    i + 1
                ));
            }
            if model.len() <= var {
                model.resize(var + 1, false);
            }
            model[var] = n > 0;
        }
    }
    match (saw_status, status) {
        (true, Some(false)) => Ok(SolverAnswer::Unsat),
        (true, Some(true)) | (false, _) if saw_literal => Ok(SolverAnswer::Sat(model)),
        (true, Some(true)) => Err("the answer says SATISFIABLE but lists no model".into()),
        _ => Ok(SolverAnswer::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_read_from_cadical_and_minisat_output() {
        let cadical = "c conflicts:                    85     12590.73    per second\n\
                       c decisions:                  4932    730558.44    per second\ns SATISFIABLE\n";
        assert_eq!(parse_counters(cadical), (Some(85), Some(4932)));
        let minisat = "conflicts             : 7              (0 /sec)\n\
                       decisions             : 12             (0.00 % random) (311 /sec)\n";
        assert_eq!(parse_counters(minisat), (Some(7), Some(12)));
        assert_eq!(parse_counters("s UNSATISFIABLE\n"), (None, None));
    }

    #[test]
    fn writes_header_comments_and_clauses() {
        let mut cnf = CnfBuffer::new();
        let a = cnf.new_var();
        let b = cnf.new_var();
        cnf.add_clause(&[a, !b]);
        let text = cnf.to_dimacs(&["hello\nworld".into()], &[vec![b]]);
        assert_eq!(text, "c hello\nc world\np cnf 2 2\n1 -2 0\n2 0\n");
    }

    #[test]
    fn reads_competition_and_plain_answers() {
        let sat = "c comment\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(
            parse_answer(sat).unwrap(),
            SolverAnswer::Sat(vec![false, true, false, true])
        );
        assert_eq!(
            parse_answer("s UNSATISFIABLE\n").unwrap(),
            SolverAnswer::Unsat
        );
        assert_eq!(
            parse_answer("SAT\n-1 2 0\n").unwrap(),
            SolverAnswer::Sat(vec![false, false, true])
        );
        assert_eq!(
            parse_answer("1 -2 0").unwrap(),
            SolverAnswer::Sat(vec![false, true, false])
        );
        assert_eq!(parse_answer("s UNKNOWN\n").unwrap(), SolverAnswer::Unknown);
        assert!(parse_answer("1 x 0").unwrap_err().contains("line 1"));
        assert!(parse_answer("s SATISFIABLE\n").is_err());
        // A variable far beyond any formula is refused before a model is made for it.
        let e = parse_answer("s SATISFIABLE\nv 1 -2147483647 0\n").unwrap_err();
        assert!(
            e.starts_with("line 2: variable 2147483647 is out of range"),
            "{e}"
        );
        assert!(parse_answer("v 67108864 0").is_ok());
    }
}
