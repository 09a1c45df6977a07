//! The incremental DIMSPEC form (as the incplan tool reads it): four CNFs over the
//! variables of one step — initial state (`i`), universal (`u`, every step), goal (`g`),
//! and transition (`t`, over 2V variables: step t as 1..V, step t+1 as V+1..2V).
//!
//! Needs a time-uniform encoding, so it is written from the `moves` encoding without its
//! pruning by time and without the clauses that span three steps (detours); the first
//! satisfiable k is still the optimum.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::EncodingKind;
use super::moves::MovesEncoding;
use crate::analysis::Analysis;
use crate::level::Level;
use crate::sat::Lit;
use crate::sat::dimacs::CnfBuffer;
use crate::stop::Stop;

/// Steps unrolled to read one generic transition off the clauses of step 2 → 3.
const PROBE_STEP: usize = 2;

/// Writes the DIMSPEC text for `level`, with `header` as comment lines.
pub fn write(level: &Level, kind: EncodingKind, header: &[String]) -> Result<String, String> {
    let analysis = Analysis::new(level);
    if let Some(why) = &analysis.unsolvable {
        return Err(format!(
            "the level is unsolvable ({why}); there is nothing to encode"
        ));
    }
    if level.has_ice() {
        return Err("DIMSPEC is not written for levels with ice (use plain DIMACS)".into());
    }
    if kind != EncodingKind::Moves {
        return Err(format!(
            "DIMSPEC is written for the moves encoding only; {kind} needs reachability inside \
             a step, which its transition cannot express compactly (use plain DIMACS)"
        ));
    }
    let mut cnf = CnfBuffer::new();
    let mut enc = MovesEncoding::new_uniform(level, &analysis, &mut cnf);
    let initial_clauses = cnf.clauses.len();
    use super::Encoding;
    let mut ranges = Vec::new();
    for _ in 0..=PROBE_STEP {
        let start = cnf.clauses.len();
        enc.add_step(&mut cnf, &Stop::never())
            .expect("never stopped");
        ranges.push(start..cnf.clauses.len());
    }

    // Variable -> (step, index within the step).
    let mut place: HashMap<u32, (usize, usize)> = HashMap::new();
    let mut size = None;
    for t in 0..=PROBE_STEP + 1 {
        let vars = enc.step_variables(t);
        if t <= PROBE_STEP {
            if size.is_some_and(|s| s != vars.len()) {
                return Err("internal error: steps differ in size".into());
            }
            size = Some(vars.len());
        }
        for (i, l) in vars.iter().enumerate() {
            place.insert(l.var(), (t, i));
        }
    }
    let v = size.unwrap_or(0);
    let state_vars = enc.step_variables(PROBE_STEP + 1).len(); // state only: no actions yet
    let renumber = |l: Lit, base: usize| -> Result<i64, String> {
        let &(t, i) = place
            .get(&l.var())
            .ok_or("internal error: an auxiliary variable in a transition")?;
        let n = if t == base { i + 1 } else { v + i + 1 } as i64;
        Ok(if l.is_positive() { n } else { -n })
    };

    let mut universal = Vec::new();
    let mut transition = Vec::new();
    for clause in &cnf.clauses[ranges[PROBE_STEP].clone()] {
        let steps: Vec<usize> = clause
            .iter()
            .map(|l| place.get(&l.var()).map_or(usize::MAX, |p| p.0))
            .collect();
        let lo = *steps.iter().min().unwrap_or(&PROBE_STEP);
        let hi = *steps.iter().max().unwrap_or(&PROBE_STEP);
        if hi > lo + 1 || hi == usize::MAX {
            return Err("internal error: a clause spans more than two steps".into());
        }
        let only_state = clause
            .iter()
            .all(|l| place.get(&l.var()).is_some_and(|&(_, i)| i < state_vars));
        let lits: Vec<i64> = clause
            .iter()
            .map(|&l| renumber(l, lo))
            .collect::<Result<_, _>>()?;
        if lo == hi && only_state {
            universal.push(lits);
        } else {
            transition.push(lits);
        }
    }
    let initial: Vec<Vec<i64>> = cnf.clauses[..initial_clauses]
        .iter()
        .map(|c| c.iter().map(|&l| renumber(l, 0)).collect::<Result<_, _>>())
        .collect::<Result<_, _>>()?;
    let goal: Vec<Vec<i64>> = level
        .goal_cells()
        .filter_map(|g| enc.box_at(g, 0).lit())
        .map(|l| renumber(l, 0).map(|n| vec![n]))
        .collect::<Result<_, _>>()?;

    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "c {line}");
    }
    let _ = writeln!(
        out,
        "c DIMSPEC of the moves encoding (time-uniform, see encodings/moves.md)"
    );
    let _ = writeln!(
        out,
        "c step variables 1..{v}; in t, step t+1 is {}..{}",
        v + 1,
        2 * v
    );
    let mut names: Vec<(usize, String)> = enc
        .variable_names()
        .into_iter()
        .filter_map(|(var, name)| match place.get(&var) {
            Some(&(0, i)) => Some((i + 1, name.replace(" t0", ""))),
            _ => None,
        })
        .collect();
    names.sort();
    for (index, name) in names {
        let _ = writeln!(out, "c var {index} {name}");
    }
    for (tag, vars, clauses) in [
        ("i", v, &initial),
        ("u", v, &universal),
        ("g", v, &goal),
        ("t", 2 * v, &transition),
    ] {
        let _ = writeln!(out, "{tag} cnf {vars} {}", clauses.len());
        for c in clauses.iter() {
            for n in c {
                let _ = write!(out, "{n} ");
            }
            out.push_str("0\n");
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;
    use crate::sat::{ClauseSink, SatBackend, SolveResult, VarisatBackend};

    /// Unrolls DIMSPEC text to k steps the way incplan does and solves it.
    fn solve_unrolled(text: &str, k: usize) -> SolveResult {
        let mut sections: HashMap<String, (usize, Vec<Vec<i64>>)> = HashMap::new();
        let mut current = String::new();
        for line in text.lines().filter(|l| !l.starts_with('c')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() == 4 && words[1] == "cnf" {
                current = words[0].to_string();
                sections.insert(current.clone(), (words[2].parse().unwrap(), Vec::new()));
                continue;
            }
            let lits: Vec<i64> = words
                .iter()
                .map(|w| w.parse().unwrap())
                .filter(|&x| x != 0)
                .collect();
            sections.get_mut(&current).unwrap().1.push(lits);
        }
        let v = sections["i"].0 as i64;
        let mut s = VarisatBackend::new();
        for _ in 0..(v as usize) * (k + 1) {
            s.new_var();
        }
        let at = |lit: i64, t: usize| {
            let n = lit.abs() + v * t as i64;
            Lit::from_dimacs(if lit > 0 { n } else { -n } as i32).unwrap()
        };
        let add = |clauses: &Vec<Vec<i64>>, t: usize, s: &mut VarisatBackend| {
            for c in clauses {
                let lits: Vec<Lit> = c.iter().map(|&l| at(l, t)).collect();
                s.add_clause(&lits);
            }
        };
        add(&sections["i"].1, 0, &mut s);
        for t in 0..=k {
            add(&sections["u"].1, t, &mut s);
        }
        for t in 0..k {
            add(&sections["t"].1, t, &mut s);
        }
        add(&sections["g"].1, k, &mut s);
        s.solve(&[])
    }

    #[test]
    fn unrolled_dimspec_finds_the_optimum() {
        // Optimal: 4 moves (walk down, push right twice... see the asserts).
        let text = "######\n#@   #\n# $ .#\n######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let spec = write(&level, EncodingKind::Moves, &[]).unwrap();
        let best = match crate::engine::oracle::shortest_moves(&level, 20, 100_000) {
            crate::engine::oracle::SearchResult::Optimal(m) => m,
            r => panic!("{r:?}"),
        };
        for k in 0..best {
            assert_eq!(solve_unrolled(&spec, k), SolveResult::Unsat, "k={k}");
        }
        assert_eq!(solve_unrolled(&spec, best), SolveResult::Sat);
    }
}
