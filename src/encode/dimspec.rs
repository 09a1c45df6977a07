//! The incremental DIMSPEC form (as the incplan tool reads it): four CNFs over the
//! variables of one step — initial state (`i`), universal (`u`, every step), goal (`g`),
//! and transition (`t`, over 2V variables: step t as 1..V, step t+1 as V+1..2V).
//!
//! Needs a time-uniform encoding, so it is written from a variant of the `moves` or the
//! `pushes` encoding without their pruning by time and without the clauses that span
//! three steps or count across steps; the first satisfiable k is still the optimum.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::moves::MovesEncoding;
use super::pushes::{PushesEncoding, Reach, Steps};
use super::{Encoding, EncodingKind};
use crate::analysis::Analysis;
use crate::level::Level;
use crate::sat::dimacs::CnfBuffer;
use crate::sat::{ClauseSink, Lit, Term};
use crate::stop::Stop;

/// Steps unrolled to read one generic transition off the clauses of step 2 → 3.
const PROBE_STEP: usize = 2;

/// An encoding whose steps all have the same variables.
pub(crate) trait Uniform: Encoding {
    /// The state of step t: the player's terms and the boxes', per cell.
    fn state(&self, t: usize) -> (&[Term], &[Term]);

    /// The state variables of step t in a fixed order: the player's cells, then the
    /// boxes', each in cell order.
    fn state_variables(&self, t: usize) -> Vec<Lit> {
        let (player, boxes) = self.state(t);
        player.iter().chain(boxes).filter_map(|x| x.lit()).collect()
    }
}

/// The four sections of a DIMSPEC form over the `variables` of one step (numbered from
/// 1; in `transition`, the next step's from `variables + 1`).
#[derive(Clone, Debug)]
pub struct Spec {
    /// Variables of one step.
    pub variables: usize,
    /// The start (`i`).
    pub initial: Vec<Vec<i64>>,
    /// Held at every step (`u`).
    pub universal: Vec<Vec<i64>>,
    /// The goal (`g`).
    pub goal: Vec<Vec<i64>>,
    /// One step to the next (`t`).
    pub transition: Vec<Vec<i64>>,
    /// Each variable's name (`aux` for ladders, inner layers and walk counts), by
    /// index − 1.
    pub names: Vec<String>,
}

/// Writes the DIMSPEC text for `level`, with `header` as comment lines.
pub fn write(level: &Level, kind: EncodingKind, header: &[String]) -> Result<String, String> {
    let spec = spec(level, kind)?;
    let v = spec.variables;
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "c {line}");
    }
    let _ = writeln!(
        out,
        "c DIMSPEC of the {kind} encoding (time-uniform, see encodings/{kind}.md)"
    );
    let _ = writeln!(
        out,
        "c step variables 1..{v}; in t, step t+1 is {}..{}",
        v + 1,
        2 * v
    );
    for (i, name) in spec.names.iter().enumerate() {
        let _ = writeln!(out, "c var {} {name}", i + 1);
    }
    for (tag, vars, clauses) in [
        ("i", v, &spec.initial),
        ("u", v, &spec.universal),
        ("g", v, &spec.goal),
        ("t", 2 * v, &spec.transition),
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

/// The DIMSPEC form of `level` in `kind` (`moves` or `pushes`), read off three unrolled
/// steps of its time-uniform variant.
pub fn spec(level: &Level, kind: EncodingKind) -> Result<Spec, String> {
    let analysis = Analysis::new(level);
    if let Some(why) = &analysis.unsolvable {
        return Err(format!(
            "the level is unsolvable ({why}); there is nothing to encode"
        ));
    }
    if level.has_ice() {
        return Err("DIMSPEC is not written for levels with ice (use plain DIMACS)".into());
    }
    let mut cnf = CnfBuffer::new();
    let mut enc: Box<dyn Uniform> = match kind {
        EncodingKind::Moves => Box::new(MovesEncoding::new_uniform(level, &analysis, &mut cnf)),
        EncodingKind::Pushes
        | EncodingKind::PushesPath
        | EncodingKind::PushesFolded
        | EncodingKind::PushesParallel => {
            let form = match kind {
                EncodingKind::Pushes => (Reach::Layered, Steps::OnePush),
                EncodingKind::PushesFolded => (Reach::Layered, Steps::OneLine),
                EncodingKind::PushesParallel => (Reach::Layered, Steps::Parallel),
                _ => (Reach::Path, Steps::OnePush),
            };
            Box::new(PushesEncoding::new_uniform(
                level, &analysis, form, &mut cnf,
            ))
        }
        EncodingKind::PushesLazy => {
            return Err(format!(
                "DIMSPEC is not written for {kind}, which learns its cuts model by model \
                 (use plain DIMACS)"
            ));
        }
    };
    let initial_clauses = cnf.clauses.len();
    let mut ranges = Vec::new();
    let mut created = Vec::new();
    for _ in 0..=PROBE_STEP {
        let (first_var, first_clause) = (cnf.variables() + 1, cnf.clauses.len());
        enc.add_step(&mut cnf, &Stop::never())
            .expect("never stopped");
        ranges.push(first_clause..cnf.clauses.len());
        created.push(first_var..cnf.variables() + 1);
    }

    // The variables of step t: its state, then those its step made that are not the
    // next step's state (actions and auxiliary variables), in the order they were made.
    let step_variables = |t: usize| -> Vec<Lit> {
        let mut vars = enc.state_variables(t);
        if let Some(made) = created.get(t) {
            let next: std::collections::HashSet<u32> =
                enc.state_variables(t + 1).iter().map(|l| l.var()).collect();
            vars.extend(
                made.clone()
                    .filter(|v| !next.contains(v))
                    .map(Lit::positive),
            );
        }
        vars
    };
    // Variable -> (step, index within the step).
    let mut place: HashMap<u32, (usize, usize)> = HashMap::new();
    let mut size = None;
    for t in 0..=PROBE_STEP + 1 {
        let vars = step_variables(t);
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
    let state_vars = enc.state_variables(PROBE_STEP + 1).len();
    let renumber = |l: Lit, base: usize| -> Result<i64, String> {
        let &(t, i) = place
            .get(&l.var())
            .ok_or("internal error: an auxiliary variable in a transition")?;
        let n = if t == base { i + 1 } else { v + i + 1 } as i64;
        Ok(if l.is_positive() { n } else { -n })
    };

    let initial: Vec<Vec<i64>> = cnf.clauses[..initial_clauses]
        .iter()
        .map(|c| c.iter().map(|&l| renumber(l, 0)).collect::<Result<_, _>>())
        .collect::<Result<_, _>>()?;
    // The start, as the initial section's unit clauses fix it.
    let start: std::collections::HashSet<i64> = (initial.iter())
        .filter_map(|c| match c.as_slice() {
            [unit] => Some(*unit),
            _ => None,
        })
        .collect();
    // A literal of the transition renumbered to its own step.
    let into_step = |l: i64| l.signum() * ((l.abs() - 1) % v.max(1) as i64 + 1);
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
        // A clause the step writes over step t+1 alone is numbered as step t+1 of
        // the transition. One over one step's state is universal, held at every step,
        // when the start satisfies it too; otherwise (true only once a push was made)
        // it stays in the transition into that state.
        let one_state = lo == hi && only_state;
        let lits: Vec<i64> = clause
            .iter()
            .map(|&l| renumber(l, if hi > PROBE_STEP { PROBE_STEP } else { lo }))
            .collect::<Result<_, _>>()?;
        if one_state && lits.iter().any(|l| start.contains(&into_step(*l))) {
            universal.push(lits.iter().map(|&l| into_step(l)).collect());
        } else {
            transition.push(lits);
        }
    }
    let goal: Vec<Vec<i64>> = level
        .goal_cells()
        .filter_map(|g| enc.state(0).1[g].lit())
        .map(|l| renumber(l, 0).map(|n| vec![n]))
        .collect::<Result<_, _>>()?;

    let mut names =
        vec![String::from("aux (at-most-one ladder, reachability layer or walk count)"); v];
    for (var, name) in enc.variable_names() {
        if let Some(&(0, i)) = place.get(&var) {
            names[i] = name.replace(" t0", "");
        }
    }
    Ok(Spec {
        variables: v,
        initial,
        universal,
        goal,
        transition,
        names,
    })
}

/// Unrolls DIMSPEC `text` to `k` steps as incplan does: `i` at step 0, `u` at every
/// step 0..=k, `t` between each step and the next, `g` at step k, step t's variables
/// numbered from t·V + 1. Fails on text that is not DIMSPEC, naming the line.
pub fn unroll(text: &str, k: usize) -> Result<CnfBuffer, String> {
    let mut sections: HashMap<char, (u32, Vec<Vec<i64>>)> = HashMap::new();
    let mut current = None;
    for (number, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = |why: &str| format!("line {}: {why}", number + 1);
        match words.as_slice() {
            [] => continue,
            [c, ..] if c.starts_with('c') => continue,
            [tag, "cnf", vars, _] => {
                let tag = tag.chars().next().filter(|t| "iugt".contains(*t));
                let tag = tag.ok_or_else(|| bad("a section is i, u, g or t"))?;
                let vars = vars
                    .parse()
                    .map_err(|_| bad("the variable count is a number"))?;
                sections.insert(tag, (vars, Vec::new()));
                current = Some(tag);
            }
            _ => {
                let tag = current.ok_or_else(|| bad("a clause before any section"))?;
                let lits: Vec<i64> = (words.iter().map(|w| w.parse::<i64>()))
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad("a clause is numbers"))?;
                let clause = lits.iter().copied().filter(|&x| x != 0).collect();
                sections.get_mut(&tag).expect("filed").1.push(clause);
            }
        }
    }
    let section = |tag: char| sections.get(&tag).ok_or(format!("no {tag} section"));
    let v = section('i')?.0;
    let mut cnf = CnfBuffer::new();
    for _ in 0..(v as u64) * (k as u64 + 1) {
        cnf.new_var();
    }
    let mut add = |tag: char, t: usize| -> Result<(), String> {
        for clause in &section(tag)?.1 {
            let lits = clause.iter().map(|&l| {
                let n = l.unsigned_abs() + v as u64 * t as u64;
                let n = i32::try_from(n).map_err(|_| "too many variables".to_string())?;
                Ok(Lit::from_dimacs(if l > 0 { n } else { -n }).expect("not 0"))
            });
            let lits: Vec<Lit> = lits.collect::<Result<_, String>>()?;
            cnf.add_clause(&lits);
        }
        Ok(())
    };
    add('i', 0)?;
    for t in 0..=k {
        add('u', t)?;
    }
    for t in 0..k {
        add('t', t)?;
    }
    add('g', k)?;
    Ok(cnf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oracle::{SearchResult, shortest_moves, shortest_pushes};
    use crate::level::parse_xsb;
    use crate::sat::{SatBackend, SolveResult, VarisatBackend};

    /// Solves `text` unrolled to k steps.
    fn solve_unrolled(text: &str, k: usize) -> SolveResult {
        let mut s = VarisatBackend::new();
        unroll(text, k).unwrap().add_to(&mut s);
        s.solve(&[])
    }

    /// The first k at which `spec` unrolled is satisfiable, if any up to `max`.
    fn first_satisfiable(spec: &str, max: usize) -> Option<usize> {
        (0..=max).find(|&k| solve_unrolled(spec, k) == SolveResult::Sat)
    }

    #[test]
    fn unrolled_dimspec_finds_the_optimum() {
        let text = "######\n#@   #\n# $ .#\n######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let spec = write(&level, EncodingKind::Moves, &[]).unwrap();
        let SearchResult::Optimal(best) = shortest_moves(&level, 20, 100_000) else {
            panic!("solvable")
        };
        assert_eq!(first_satisfiable(&spec, best), Some(best));
    }

    #[test]
    fn unrolled_pushes_dimspec_finds_the_push_optimum() {
        // The player must walk round the first box to the second (reachability inside
        // a step), and the boxes block each other's way.
        let text = "########\n#@ $  .#\n#  ##  #\n# $  . #\n########\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let spec = write(&level, EncodingKind::Pushes, &[]).unwrap();
        assert!(spec.contains("c DIMSPEC of the pushes encoding"));
        let SearchResult::Optimal(best) = shortest_pushes(&level, 30, 100_000) else {
            panic!("solvable")
        };
        assert!(best >= 3);
        assert_eq!(first_satisfiable(&spec, best), Some(best));
    }

    #[test]
    fn the_lazy_encoding_is_refused() {
        let level = parse_xsb("t", "#####\n#@$.#\n#####\n").unwrap().remove(0);
        let err = write(&level, EncodingKind::PushesLazy, &[]).unwrap_err();
        assert!(err.contains("not written for pushes-lazy"), "{err}");
    }

    #[test]
    fn text_that_is_not_dimspec_is_refused_with_its_line() {
        assert_eq!(
            unroll("c hi\n1 2 0\n", 1).unwrap_err(),
            "line 2: a clause before any section"
        );
        assert_eq!(
            unroll("i cnf 2 1\n1 x 0\n", 1).unwrap_err(),
            "line 2: a clause is numbers"
        );
        assert_eq!(unroll("i cnf 2 1\n1 0\n", 1).unwrap_err(), "no u section");
    }
}
