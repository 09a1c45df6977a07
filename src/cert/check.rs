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

/// Parses DIMACS CNF: the clauses in order, each a list of non-zero literals.
pub fn parse_cnf(text: &str) -> Result<Vec<Vec<i64>>, String> {
    let mut clauses = Vec::new();
    let mut current = Vec::new();
    let mut declared = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('p') {
            let words: Vec<&str> = rest.split_whitespace().collect();
            match words.as_slice() {
                ["cnf", _, n] => declared = n.parse::<usize>().ok(),
                _ => return Err(format!("line {}: a bad header {line:?}", number + 1)),
            }
            continue;
        }
        for word in line.split_whitespace() {
            let lit: i64 = word
                .parse()
                .map_err(|_| format!("line {}: {word:?} is not a literal", number + 1))?;
            if lit.unsigned_abs() > MAX_VARIABLE {
                return Err(format!(
                    "line {}: literal {lit} is out of range (variables go up to {MAX_VARIABLE})",
                    number + 1
                ));
            }
            if lit == 0 {
                clauses.push(std::mem::take(&mut current));
            } else {
                current.push(lit);
            }
        }
    }
    if !current.is_empty() {
        return Err("the last clause has no terminating 0".into());
    }
    match declared {
        Some(n) if n == clauses.len() => Ok(clauses),
        Some(n) => Err(format!(
            "the header declares {n} clauses, the file has {}",
            clauses.len()
        )),
        None => Err("no \"p cnf\" header".into()),
    }
}

/// Checks the LRAT proof `proof` against the clauses `formula` (clause `i` has id
/// `i + 1`): `Ok` when every step holds and the empty clause is derived.
pub fn check_lrat(formula: &[Vec<i64>], proof: &str) -> Result<Checked, String> {
    if let Some(l) = (formula.iter().flatten()).find(|l| l.unsigned_abs() > MAX_VARIABLE) {
        return Err(format!("the formula has the literal {l}, out of range"));
    }
    let mut db: HashMap<u64, Vec<i64>> = HashMap::with_capacity(formula.len());
    for (i, clause) in formula.iter().enumerate() {
        db.insert(i as u64 + 1, clause.clone());
    }
    let mut refuted = formula.iter().any(Vec::is_empty);
    let (mut added, mut deleted) = (0, 0);
    let mut last_id = formula.len() as u64;
    let mut value: HashMap<i64, bool> = HashMap::new();
    for (number, line) in proof.lines().enumerate() {
        let at = |msg: String| format!("proof line {}: {msg}", number + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() || words[0].starts_with('c') {
            continue;
        }
        let id: u64 = words[0]
            .parse()
            .map_err(|_| at(format!("{:?} is not an id", words[0])))?;
        if words.get(1) == Some(&"d") {
            for w in &words[2..] {
                let n: u64 = w.parse().map_err(|_| at(format!("{w:?} is not an id")))?;
                if n != 0 {
                    db.remove(&n);
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
        let numbers: Vec<i64> = (words[1..].iter())
            .map(|w| w.parse().map_err(|_| at(format!("{w:?} is not a number"))))
            .collect::<Result<_, _>>()?;
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
        let hints = match rest.split_last() {
            Some((0, hints)) => hints,
            _ => return Err(at("the hints do not end with 0".into())),
        };
        value.clear();
        for &l in clause {
            value.insert(l, false);
            value.insert(-l, true);
        }
        let mut conflict = false;
        for &h in hints {
            if h < 0 {
                return Err(at("RAT hints are not accepted".into()));
            }
            let hinted = db
                .get(&(h as u64))
                .ok_or_else(|| at(format!("hint {h} names no clause")))?;
            let mut open = None;
            for &l in hinted {
                match value.get(&l) {
                    Some(false) => {}
                    Some(true) => return Err(at(format!("hint {h} is satisfied, not unit"))),
                    None if open.is_none() => open = Some(l),
                    None => return Err(at(format!("hint {h} has two open literals"))),
                }
            }
            match open {
                Some(l) => {
                    value.insert(l, true);
                    value.insert(-l, false);
                }
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
        db.insert(id, clause.to_vec());
    }
    if !refuted {
        return Err("the proof never derives the empty clause".into());
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
        let weaker = &formula[..3];
        assert!(check_lrat(weaker, proof).is_err());
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
        assert!(check_lrat(&[vec![i64::MIN]], "2 0 1 0\n").is_err());
    }
}
