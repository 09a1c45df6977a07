//! An LRAT checker of our own: it shares no code with the SAT solver (or with the rest
//! of satsoko) and trusts nothing but the formula and the hints.
//!
//! Each added clause must follow from the clauses its hints name by unit propagation:
//! with the clause's literals false, each hint in turn must be a clause with all
//! literals false but one (which becomes true) or, last, with all literals false (a
//! conflict). Deleted clauses may no longer be named. The proof certifies
//! unsatisfiability when it derives the empty clause (or the formula holds it).
//! Hints for RAT steps (negative ids) are refused: the solver never writes them.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// What a successful check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Clauses of the formula.
    pub clauses: usize,
    /// Clauses the proof added.
    pub added: usize,
    /// Clauses the proof deleted.
    pub deleted: usize,
}

/// The largest variable a literal may name: DIMACS variables are 32-bit, and a literal
/// as large as `i64::MIN` would have no negation.
const MAX_VARIABLE: u64 = i32::MAX as u64;

/// A CNF formula with its clauses one after another in one array (a certificate's
/// formula has hundreds of millions of literals: one allocation per clause would
/// double its memory). Clause `i` has id `i + 1`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Formula {
    literals: Vec<i32>,
    /// Where each clause ends in `literals`.
    ends: Vec<usize>,
}

impl Formula {
    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the formula has no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Clause `i` (id `i + 1`).
    pub fn clause(&self, i: usize) -> &[i32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.literals[start..self.ends[i]]
    }

    /// The clauses in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        (0..self.len()).map(|i| self.clause(i))
    }

    /// The largest variable a clause names (0 when none does).
    pub fn variables(&self) -> u32 {
        (self.literals.iter())
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0)
    }

    /// The formula of the first `n` clauses.
    pub fn first(&self, n: usize) -> Formula {
        let ends = self.ends[..n].to_vec();
        let literals = self.literals[..ends.last().copied().unwrap_or(0)].to_vec();
        Formula { literals, ends }
    }

    /// Adds a clause at the end.
    pub fn push(&mut self, clause: &[i32]) {
        self.literals.extend_from_slice(clause);
        self.ends.push(self.literals.len());
    }
}

/// Reads one literal or id; `None` when `word` is no number or out of range.
fn literal(word: &str) -> Option<i32> {
    let value: i64 = word.parse().ok()?;
    (value.unsigned_abs() <= MAX_VARIABLE).then_some(value as i32)
}

/// Why `word` (on line `number`) is no literal.
fn bad_literal(word: &str) -> String {
    match word.parse::<i64>() {
        Ok(l) => format!("literal {l} is out of range (variables go up to {MAX_VARIABLE})"),
        Err(_) => format!("{word:?} is not a literal"),
    }
}

/// Parses DIMACS CNF text: the clauses in order.
pub fn parse_cnf(text: &str) -> Result<Formula, String> {
    read_cnf(text.as_bytes())
}

/// Reads DIMACS CNF line by line from `input`: the clauses in order.
pub fn read_cnf(mut input: impl BufRead) -> Result<Formula, String> {
    let mut formula = Formula::default();
    let mut open = false;
    let mut declared = None;
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let read = input.read_line(&mut line).map_err(|e| e.to_string())?;
        if read == 0 {
            break;
        }
        number += 1;
        let text = line.trim();
        if text.is_empty() || text.starts_with('c') {
            continue;
        }
        if let Some(rest) = text.strip_prefix('p') {
            let words: Vec<&str> = rest.split_whitespace().collect();
            match words.as_slice() {
                ["cnf", _, n] => declared = n.parse::<usize>().ok(),
                _ => return Err(format!("line {number}: a bad header {text:?}")),
            }
            continue;
        }
        for word in text.split_whitespace() {
            let lit =
                literal(word).ok_or_else(|| format!("line {number}: {}", bad_literal(word)))?;
            if lit == 0 {
                formula.ends.push(formula.literals.len());
                open = false;
            } else {
                formula.literals.push(lit);
                open = true;
            }
        }
    }
    if open {
        return Err("the last clause has no terminating 0".into());
    }
    match declared {
        Some(n) if n == formula.len() => Ok(formula),
        Some(n) => Err(format!(
            "the header declares {n} clauses, the file has {}",
            formula.len()
        )),
        None => Err("no \"p cnf\" header".into()),
    }
}

/// Checks the LRAT proof text `proof` against `formula`: `Ok` when every step holds
/// and the empty clause is derived.
pub fn check_lrat(formula: &Formula, proof: &str) -> Result<Checked, String> {
    read_lrat(formula, proof.as_bytes()).map_err(|e| e.to_string())
}

/// Why a check could not be made, or what it refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// A file cannot be read, or the formula is not DIMACS CNF.
    Input(String),
    /// The proof does not refute the formula.
    Refused(String),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            CheckError::Input(why) | CheckError::Refused(why) => f.write_str(why),
        }
    }
}

/// Checks the LRAT proof in the file `lrat` against the DIMACS formula in `cnf`, both
/// read line by line.
pub fn check_files(cnf: &Path, lrat: &Path) -> Result<Checked, CheckError> {
    let open = |path: &Path| {
        File::open(path)
            .map(|f| BufReader::with_capacity(1 << 20, f))
            .map_err(|e| CheckError::Input(format!("cannot read {}: {e}", path.display())))
    };
    let (formula, proof) = (open(cnf)?, open(lrat)?);
    let formula =
        read_cnf(formula).map_err(|e| CheckError::Input(format!("{}: {e}", cnf.display())))?;
    read_lrat(&formula, proof)
}

/// The clauses a proof may name: the formula's (until deleted) and those it added.
struct Clauses<'f> {
    formula: &'f Formula,
    /// Whether each clause of the formula is still there.
    kept: Vec<bool>,
    added: HashMap<u64, Box<[i32]>>,
}

impl Clauses<'_> {
    fn get(&self, id: u64) -> Option<&[i32]> {
        match usize::try_from(id) {
            Ok(i) if (1..=self.formula.len()).contains(&i) => {
                self.kept[i - 1].then(|| self.formula.clause(i - 1))
            }
            _ => self.added.get(&id).map(|c| &c[..]),
        }
    }

    fn delete(&mut self, id: u64) {
        match usize::try_from(id) {
            Ok(i) if (1..=self.formula.len()).contains(&i) => self.kept[i - 1] = false,
            _ => {
                self.added.remove(&id);
            }
        }
    }
}

/// A partial assignment that is undone after each step. Variables up to the formula's
/// literal count sit in an array; any larger (a formula that names variable 2³¹ − 1
/// once must not cost gigabytes) in a map.
struct Assignment {
    /// Per variable: 1 true, -1 false, 0 unset.
    dense: Vec<i8>,
    sparse: HashMap<u32, i8>,
    /// The variables set since the last [`Assignment::clear`].
    set: Vec<u32>,
}

impl Assignment {
    fn for_formula(formula: &Formula) -> Assignment {
        let variables = formula.variables() as usize + 1;
        Assignment {
            dense: vec![0; variables.min(formula.literals.len() + 1)],
            sparse: HashMap::new(),
            set: Vec::new(),
        }
    }

    fn of(&self, lit: i32) -> i8 {
        let var = lit.unsigned_abs();
        let v = match self.dense.get(var as usize) {
            Some(&v) => v,
            None => self.sparse.get(&var).copied().unwrap_or(0),
        };
        if lit > 0 { v } else { -v }
    }

    fn make_true(&mut self, lit: i32) {
        let var = lit.unsigned_abs();
        let v = if lit > 0 { 1 } else { -1 };
        match self.dense.get_mut(var as usize) {
            Some(slot) => *slot = v,
            None => {
                self.sparse.insert(var, v);
            }
        }
        self.set.push(var);
    }

    fn clear(&mut self) {
        for var in self.set.drain(..) {
            match self.dense.get_mut(var as usize) {
                Some(slot) => *slot = 0,
                None => {
                    self.sparse.remove(&var);
                }
            }
        }
    }
}

/// Checks the LRAT proof read line by line from `proof` against `formula`.
pub fn read_lrat(formula: &Formula, mut proof: impl BufRead) -> Result<Checked, CheckError> {
    let mut db = Clauses {
        formula,
        kept: vec![true; formula.len()],
        added: HashMap::new(),
    };
    let mut refuted = formula.clauses().any(<[i32]>::is_empty);
    let (mut added, mut deleted) = (0, 0);
    let mut last_id = formula.len() as u64;
    let mut assignment = Assignment::for_formula(formula);
    let (mut line, mut numbers) = (String::new(), Vec::new());
    let mut number = 0;
    loop {
        line.clear();
        let read = proof.read_line(&mut line);
        if read.map_err(|e| CheckError::Input(format!("cannot read the proof: {e}")))? == 0 {
            break;
        }
        number += 1;
        let at = |msg: String| CheckError::Refused(format!("proof line {number}: {msg}"));
        let mut words = line.split_whitespace();
        let Some(first) = words.next().filter(|w| !w.starts_with('c')) else {
            continue;
        };
        let id: u64 = first
            .parse()
            .map_err(|_| at(format!("{first:?} is not an id")))?;
        let mut words = words.peekable();
        if words.peek() == Some(&"d") {
            for w in words.skip(1) {
                let n: u64 = w.parse().map_err(|_| at(format!("{w:?} is not an id")))?;
                if n != 0 {
                    db.delete(n);
                    deleted += 1;
                }
            }
            continue;
        }
        if id <= last_id {
            return Err(at(format!(
                "clause id {id} does not increase (last {last_id})"
            )));
        }
        last_id = id;
        numbers.clear();
        for w in words {
            numbers.push(
                w.parse::<i64>()
                    .map_err(|_| at(format!("{w:?} is not a number")))?,
            );
        }
        let split = numbers
            .iter()
            .position(|&n| n == 0)
            .ok_or_else(|| at("no 0 after the literals".into()))?;
        let (clause, rest) = (&numbers[..split], &numbers[split + 1..]);
        if let Some(l) = clause.iter().find(|l| l.unsigned_abs() > MAX_VARIABLE) {
            return Err(at(format!(
                "literal {l} is out of range (variables go up to {MAX_VARIABLE})"
            )));
        }
        let clause: Box<[i32]> = clause.iter().map(|&l| l as i32).collect();
        let hints = match rest.split_last() {
            Some((0, hints)) => hints,
            _ => return Err(at("the hints do not end with 0".into())),
        };
        assignment.clear();
        for &l in &clause[..] {
            assignment.make_true(-l);
        }
        let mut conflict = false;
        for &h in hints {
            if h < 0 {
                return Err(at("RAT hints are not accepted".into()));
            }
            let hinted = db
                .get(h as u64)
                .ok_or_else(|| at(format!("hint {h} names no clause")))?;
            let mut open = None;
            for &l in hinted {
                match assignment.of(l) {
                    -1 => {}
                    1 => return Err(at(format!("hint {h} is satisfied, not unit"))),
                    _ if open.is_none() => open = Some(l),
                    _ => return Err(at(format!("hint {h} has two open literals"))),
                }
            }
            match open {
                Some(l) => assignment.make_true(l),
                None => {
                    conflict = true;
                    break;
                }
            }
        }
        if !conflict {
            return Err(at("the hints end without a conflict".into()));
        }
        added += 1;
        refuted |= clause.is_empty();
        db.added.insert(id, clause);
    }
    if !refuted {
        let why = "the proof never derives the empty clause";
        return Err(CheckError::Refused(why.into()));
    }
    Ok(Checked {
        clauses: formula.len(),
        added,
        deleted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CNF: &str = "c x\np cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";

    #[test]
    fn a_resolution_proof_is_accepted_and_tampering_is_refused() {
        let formula = parse_cnf(CNF).unwrap();
        let proof = "5 2 0 1 2 0\n5 d 1 0\n6 0 5 3 4 0\n";
        assert_eq!(check_lrat(&formula, proof).unwrap().added, 2);
        // A wrong hint, a missing hint, a clause used after its deletion, no empty clause.
        for bad in [
            "5 2 0 1 3 0\n6 0 5 3 4 0\n",
            "5 2 0 1 2 0\n6 0 5 3 0\n",
            "5 2 0 1 2 0\n5 d 5 0\n6 0 5 3 4 0\n",
            "5 2 0 1 2 0\n",
        ] {
            assert!(check_lrat(&formula, bad).is_err(), "{bad}");
        }
        // A formula without its last clause is satisfiable: the proof no longer holds.
        let weaker = formula.first(3);
        assert!(check_lrat(&weaker, proof).is_err());
    }

    #[test]
    fn bad_cnf_is_refused() {
        assert!(parse_cnf("p cnf 1 2\n1 0\n").is_err());
        assert!(parse_cnf("1 0\n").is_err());
        assert!(parse_cnf("p cnf 1 1\n1 x 0\n").is_err());
        // A literal beyond 32 bits (i64::MIN has no negation) is refused, not negated.
        let e = parse_cnf("p cnf 1 1\n-9223372036854775808 0\n").unwrap_err();
        assert!(
            e.starts_with("line 2: literal -9223372036854775808 is out of range"),
            "{e}"
        );
        let formula = parse_cnf(CNF).unwrap();
        let e = check_lrat(&formula, "5 -9223372036854775808 0 1 0\n").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        // A variable near 2^31 costs no huge array, and is checked all the same.
        let far = parse_cnf("p cnf 2147483647 2\n2147483647 0\n-2147483647 0\n").unwrap();
        assert!(check_lrat(&far, "3 0 1 2 0\n").is_ok());
        assert!(check_lrat(&far, "3 0 1 0\n").is_err());
        // A formula holding the empty clause needs no proof.
        let mut empty = Formula::default();
        empty.push(&[]);
        assert!(check_lrat(&empty, "").is_ok());
        assert!(check_lrat(&formula, "").is_err());
    }
}
