//! Reusable CNF building blocks.

use itertools::Itertools;

use super::{ClauseSink, Lit, Term};

/// Up to this many literals, at-most-one uses the pairwise encoding (n(n-1)/2 binary
/// clauses, no extra variables); above it, the sequential (ladder) encoding with n-1
/// auxiliary variables and about 3n clauses.
pub const PAIRWISE_LIMIT: usize = 6;

/// At most one of `terms` is true. False constants are ignored; two true constants make
/// the formula unsatisfiable (an empty clause).
pub fn at_most_one(sink: &mut dyn ClauseSink, terms: &[Term]) {
    at_most_one_up_to(sink, terms, PAIRWISE_LIMIT);
}

/// Above this many literals even [`at_most_one_pairwise`] writes a ladder: two thousand
/// literals already make two million pairs, and a board of thousands of cells would
/// make hundreds of millions.
pub const PAIRWISE_MAX: usize = 2000;

/// At most one of `terms` is true, pairwise up to [`PAIRWISE_MAX`] literals: no
/// auxiliary variable, for formulas asked many small questions, where every variable
/// costs the solver on each of them.
pub fn at_most_one_pairwise(sink: &mut dyn ClauseSink, terms: &[Term]) {
    at_most_one_up_to(sink, terms, PAIRWISE_MAX);
}

/// At most one of `terms`, pairwise up to `pairwise_limit` literals, a ladder above.
fn at_most_one_up_to(sink: &mut dyn ClauseSink, terms: &[Term], pairwise_limit: usize) {
    let trues = terms.iter().filter(|t| **t == Term::TRUE).count();
    let lits: Vec<Lit> = terms.iter().filter_map(|t| t.lit()).collect();
    if trues > 1 {
        sink.add_clause(&[]);
        return;
    }
    if trues == 1 {
        for &l in &lits {
            sink.add_clause(&[!l]);
        }
        return;
    }
    if lits.len() <= pairwise_limit {
        for [a, b] in lits.iter().copied().array_combinations() {
            sink.add_clause(&[!a, !b]);
        }
        return;
    }
    // Sequential encoding: s_i means "one of lits[0..=i] is true".
    let mut prev = sink.new_var();
    sink.add_clause(&[!lits[0], prev]);
    for &l in &lits[1..lits.len() - 1] {
        let s = sink.new_var();
        sink.add_clause(&[!l, s]);
        sink.add_clause(&[!prev, s]);
        sink.add_clause(&[!l, !prev]);
        prev = s;
    }
    sink.add_clause(&[!lits[lits.len() - 1], !prev]);
}

/// At least one of `terms` is true.
pub fn at_least_one(sink: &mut dyn ClauseSink, terms: &[Term]) {
    sink.clause(terms);
}

/// Exactly one of `terms` is true.
pub fn exactly_one(sink: &mut dyn ClauseSink, terms: &[Term]) {
    at_least_one(sink, terms);
    at_most_one(sink, terms);
}

/// `lhs` implies the disjunction of `rhs`: the clause ¬lhs ∨ rhs₁ ∨ … ∨ rhsₙ.
pub fn implies_any(sink: &mut dyn ClauseSink, lhs: Term, rhs: &[Term]) {
    let mut terms = Vec::with_capacity(rhs.len() + 1);
    terms.push(!lhs);
    terms.extend_from_slice(rhs);
    sink.clause(&terms);
}

/// `lhs` implies `rhs`: the clause ¬lhs ∨ rhs.
pub fn implies(sink: &mut dyn ClauseSink, lhs: Term, rhs: Term) {
    sink.clause(&[!lhs, rhs]);
}

/// A term that is true whenever all of `terms` are (one clause ¬t₁ ∨ … ∨ ¬tₙ ∨ v). It may
/// also be true otherwise, so use it only where a true value restricts the formula more:
/// then the solver sets it false when it can, and the formula means the same as with
/// the conjunction written out. Constants are folded and no variable is made for zero
/// or one non-constant term.
pub fn implied_by_all(sink: &mut dyn ClauseSink, terms: &[Term]) -> Term {
    if terms.contains(&Term::FALSE) {
        return Term::FALSE;
    }
    let lits: Vec<Lit> = terms.iter().filter_map(|t| t.lit()).collect();
    match lits.as_slice() {
        [] => Term::TRUE,
        [one] => (*one).into(),
        _ => {
            let v = sink.new_var();
            let mut clause: Vec<Lit> = lits.iter().map(|&l| !l).collect();
            clause.push(v);
            sink.add_clause(&clause);
            v.into()
        }
    }
}

/// A term that is true whenever any of `terms` is (clauses tᵢ → v), with the same
/// one-way meaning as [`implied_by_all`].
pub fn implied_by_any(sink: &mut dyn ClauseSink, terms: &[Term]) -> Term {
    if terms.contains(&Term::TRUE) {
        return Term::TRUE;
    }
    let lits: Vec<Lit> = terms.iter().filter_map(|t| t.lit()).collect();
    match lits.as_slice() {
        [] => Term::FALSE,
        [one] => (*one).into(),
        _ => {
            let v = sink.new_var();
            for &l in &lits {
                sink.add_clause(&[!l, v]);
            }
            v.into()
        }
    }
}

/// At most `k` of `lits` are true: Sinz's sequential counter, with `s(i, j)` = "at
/// least `j + 1` of the first `i + 1` literals are true" — (n − 1)·k auxiliary
/// variables and about 2nk + n clauses. Nothing is added when `k ≥ n`; `k = 0` makes
/// every literal false.
pub fn at_most_k(sink: &mut dyn ClauseSink, lits: &[Lit], k: usize) {
    let n = lits.len();
    if k >= n {
        return;
    }
    if k == 0 {
        for &l in lits {
            sink.add_clause(&[!l]);
        }
        return;
    }
    // counter[i][j] for the first n - 1 literals.
    let counter: Vec<Vec<Lit>> = (0..n - 1)
        .map(|_| (0..k).map(|_| sink.new_var()).collect())
        .collect();
    sink.add_clause(&[!lits[0], counter[0][0]]);
    for &s in &counter[0][1..] {
        sink.add_clause(&[!s]);
    }
    for i in 1..n - 1 {
        let (x, prev, cur) = (lits[i], &counter[i - 1], &counter[i]);
        sink.add_clause(&[!x, cur[0]]);
        sink.add_clause(&[!prev[0], cur[0]]);
        for j in 1..k {
            sink.add_clause(&[!x, !prev[j - 1], cur[j]]);
            sink.add_clause(&[!prev[j], cur[j]]);
        }
        sink.add_clause(&[!x, !prev[k - 1]]);
    }
    sink.add_clause(&[!lits[n - 1], !counter[n - 2][k - 1]]);
}

/// At least `k` of `lits` are true: at most `n − k` of their negations are.
pub fn at_least_k(sink: &mut dyn ClauseSink, lits: &[Lit], k: usize) {
    if k > lits.len() {
        sink.add_clause(&[]);
        return;
    }
    let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
    at_most_k(sink, &negated, lits.len() - k);
}

/// Exactly `k` of `lits` are true.
pub fn exactly_k(sink: &mut dyn ClauseSink, lits: &[Lit], k: usize) {
    at_most_k(sink, lits, k);
    at_least_k(sink, lits, k);
}

/// Up to this many clauses a guarded cardinality constraint is written out one clause
/// per forbidden choice of terms; above it, as a sequential counter.
const GUARDED_CLAUSES_MAX: usize = 20;

fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k.min(n - k)).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// When every term of `guard` is true, at most `k` of `terms` are. Small cases get one
/// clause per `k + 1` of the terms, with the negated guard in each; larger ones a
/// sequential counter (Sinz) whose auxiliaries are only implied upward, so that only
/// its conflict clauses need the guard and the counter is free when the guard is off.
pub fn guarded_at_most_k(sink: &mut dyn ClauseSink, guard: &[Term], terms: &[Term], k: usize) {
    let terms: Vec<Term> = terms.iter().copied().filter(|t| !t.is_false()).collect();
    let n = terms.len();
    if k >= n || guard.contains(&Term::FALSE) {
        return;
    }
    let unless: Vec<Term> = guard.iter().map(|&g| !g).collect();
    let with_guard = |lits: &[Term]| {
        let mut clause = unless.clone();
        clause.extend_from_slice(lits);
        clause
    };
    if binomial(n, k + 1) <= GUARDED_CLAUSES_MAX || k == 0 {
        for chosen in terms.iter().copied().combinations(k + 1) {
            let negated: Vec<Term> = chosen.iter().map(|&t| !t).collect();
            sink.clause(&with_guard(&negated));
        }
        return;
    }
    // prev[j]: at least j + 1 of the terms so far are true (implied, never denied).
    let mut prev: Vec<Term> = (0..k)
        .map(|j| if j == 0 { terms[0] } else { Term::FALSE })
        .collect();
    for (i, &x) in terms.iter().enumerate().skip(1) {
        sink.clause(&with_guard(&[!x, !prev[k - 1]]));
        if i == n - 1 {
            break;
        }
        let cur: Vec<Term> = (0..k).map(|_| sink.new_var().into()).collect();
        for j in 0..k {
            sink.clause(&[!prev[j], cur[j]]);
            if j == 0 {
                sink.clause(&[!x, cur[0]]);
            } else {
                sink.clause(&[!x, !prev[j - 1], cur[j]]);
            }
        }
        prev = cur;
    }
}

/// When every term of `guard` is true, at least `k` of `terms` are (at most `n − k` of
/// their negations).
pub fn guarded_at_least_k(sink: &mut dyn ClauseSink, guard: &[Term], terms: &[Term], k: usize) {
    let terms: Vec<Term> = terms.iter().copied().filter(|t| !t.is_false()).collect();
    if guard.contains(&Term::FALSE) {
        return;
    }
    if k > terms.len() {
        let unless: Vec<Term> = guard.iter().map(|&g| !g).collect();
        sink.clause(&unless);
        return;
    }
    let negated: Vec<Term> = terms.iter().map(|&t| !t).collect();
    guarded_at_most_k(sink, guard, &negated, terms.len() - k);
}

/// When every term of `guard` is true, exactly `k` of `terms` are.
pub fn guarded_exactly_k(sink: &mut dyn ClauseSink, guard: &[Term], terms: &[Term], k: usize) {
    guarded_at_least_k(sink, guard, terms, k);
    guarded_at_most_k(sink, guard, terms, k);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sat::{SatBackend, SolveResult, VarisatBackend};

    /// `pigeons` pigeons in `holes` holes, each in one hole, no two in one: UNSAT when
    /// there are more pigeons, and exponentially hard for resolution.
    pub(crate) fn pigeonhole(sink: &mut dyn ClauseSink, pigeons: usize, holes: usize) {
        let vars: Vec<Vec<Term>> = (0..pigeons)
            .map(|_| (0..holes).map(|_| sink.new_var().into()).collect())
            .collect();
        for row in &vars {
            at_least_one(sink, row);
        }
        for h in 0..holes {
            let column: Vec<Term> = vars.iter().map(|row| row[h]).collect();
            at_most_one_pairwise(sink, &column);
        }
    }

    /// Counts the assignments of `n` inputs the constraint allows, by solving under
    /// every full assignment.
    fn allowed(n: usize, build: fn(&mut dyn ClauseSink, &[Term])) -> Vec<u32> {
        let mut out = Vec::new();
        for mask in 0u32..(1 << n) {
            let mut s = VarisatBackend::new();
            let vars: Vec<Lit> = (0..n).map(|_| s.new_var()).collect();
            let terms: Vec<Term> = vars.iter().map(|&l| l.into()).collect();
            build(&mut s, &terms);
            let assumptions: Vec<Lit> = vars
                .iter()
                .enumerate()
                .map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l })
                .collect();
            if s.solve(&assumptions) == SolveResult::Sat {
                out.push(mask);
            }
        }
        out
    }

    fn lits_of(terms: &[Term]) -> Vec<Lit> {
        terms
            .iter()
            .map(|t| match t {
                Term::Lit(l) => *l,
                Term::Const(_) => unreachable!("variables only"),
            })
            .collect()
    }

    #[test]
    fn cardinalities_allow_exactly_the_right_counts() {
        fn at_most_two(s: &mut dyn ClauseSink, t: &[Term]) {
            at_most_k(s, &lits_of(t), 2);
        }
        fn at_least_two(s: &mut dyn ClauseSink, t: &[Term]) {
            at_least_k(s, &lits_of(t), 2);
        }
        fn exactly_three(s: &mut dyn ClauseSink, t: &[Term]) {
            exactly_k(s, &lits_of(t), 3);
        }
        fn none(s: &mut dyn ClauseSink, t: &[Term]) {
            at_most_k(s, &lits_of(t), 0);
        }
        let choose = |n: u64, k: u64| (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1));
        for n in [1usize, 2, 3, 5, 6, 8] {
            let count = |ok: &[u32], f: &dyn Fn(u32) -> bool| ok.iter().all(|&m| f(m.count_ones()));
            let ok = allowed(n, at_most_two);
            assert!(count(&ok, &|c| c <= 2));
            assert_eq!(
                ok.len() as u64,
                (0..=2.min(n as u64))
                    .map(|k| choose(n as u64, k))
                    .sum::<u64>()
            );
            let ok = allowed(n, at_least_two);
            assert!(count(&ok, &|c| c >= 2));
            assert_eq!(
                ok.len() as u64,
                (2..=n as u64).map(|k| choose(n as u64, k)).sum::<u64>()
            );
            let ok = allowed(n, exactly_three);
            assert!(count(&ok, &|c| c == 3));
            assert_eq!(
                ok.len() as u64,
                if n >= 3 { choose(n as u64, 3) } else { 0 }
            );
            assert_eq!(allowed(n, none), vec![0]);
        }
    }

    #[test]
    fn guarded_cardinalities_hold_only_under_their_guard() {
        fn at_most_one_if(s: &mut dyn ClauseSink, t: &[Term]) {
            guarded_at_most_k(s, &t[..1], &t[1..], 1);
        }
        fn exactly_two_if(s: &mut dyn ClauseSink, t: &[Term]) {
            guarded_exactly_k(s, &t[..1], &t[1..], 2);
        }
        fn at_least_three_if(s: &mut dyn ClauseSink, t: &[Term]) {
            guarded_at_least_k(s, &t[..1], &t[1..], 3);
        }
        fn check(n: usize, build: fn(&mut dyn ClauseSink, &[Term]), holds: fn(u32) -> bool) {
            let ok = allowed(n + 1, build);
            for mask in 0u32..(1 << (n + 1)) {
                let guard = mask & 1 == 1;
                let expected = !guard || holds((mask >> 1).count_ones());
                assert_eq!(ok.contains(&mask), expected, "n={n} mask={mask:b}");
            }
        }
        // 8 terms make the counters (more than 20 choices of three), 4 the clauses.
        for n in [1usize, 2, 4, 8] {
            check(n, at_most_one_if, |c| c <= 1);
            check(n, exactly_two_if, |c| c == 2);
            check(n, at_least_three_if, |c| c >= 3);
        }
    }

    #[test]
    fn at_most_one_small_and_ladder() {
        for n in [1, 2, 3, 6, 7, 9] {
            let ok = allowed(n, at_most_one);
            assert!(ok.iter().all(|m| m.count_ones() <= 1), "n={n}");
            assert_eq!(ok.len(), n + 1, "n={n}");
        }
    }

    #[test]
    fn at_most_one_pairwise_makes_no_variable() {
        for n in [1, 2, 7, 9] {
            let ok = allowed(n, at_most_one_pairwise);
            assert!(ok.iter().all(|m| m.count_ones() <= 1), "n={n}");
            assert_eq!(ok.len(), n + 1, "n={n}");
        }
        let mut s = VarisatBackend::new();
        let terms: Vec<Term> = (0..9).map(|_| s.new_var().into()).collect();
        at_most_one_pairwise(&mut s, &terms);
        assert_eq!(s.stats().variables, 9);
        assert_eq!(s.stats().clauses, 36);
    }

    #[test]
    fn exactly_one_small_and_ladder() {
        for n in [1, 2, 5, 8] {
            let ok = allowed(n, exactly_one);
            assert!(ok.iter().all(|m| m.count_ones() == 1));
            assert_eq!(ok.len(), n);
        }
    }

    #[test]
    fn constants_are_folded() {
        let mut s = VarisatBackend::new();
        let a = s.new_var();
        at_most_one(&mut s, &[Term::TRUE, a.into(), Term::FALSE]);
        assert_eq!(s.solve(&[a]), SolveResult::Unsat);
        assert_eq!(s.solve(&[!a]), SolveResult::Sat);
        let mut s = VarisatBackend::new();
        at_most_one(&mut s, &[Term::TRUE, Term::TRUE]);
        assert_eq!(s.solve(&[]), SolveResult::Unsat);
    }

    #[test]
    fn implied_terms_hold_when_their_inputs_do() {
        for n in 0..4usize {
            for mask in 0u32..(1 << n) {
                let mut s = VarisatBackend::new();
                let vars: Vec<Lit> = (0..n).map(|_| s.new_var()).collect();
                let terms: Vec<Term> = vars.iter().map(|&l| l.into()).collect();
                let all = implied_by_all(&mut s, &terms);
                let any = implied_by_any(&mut s, &terms);
                let mut assumptions: Vec<Lit> = vars
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if mask >> i & 1 == 1 { l } else { !l })
                    .collect();
                let forced = |s: &mut VarisatBackend, t: Term, a: &mut Vec<Lit>| match t {
                    Term::Const(b) => b,
                    Term::Lit(l) => {
                        a.push(!l);
                        let r = s.solve(a) == SolveResult::Unsat;
                        a.pop();
                        r
                    }
                };
                let ones = mask.count_ones() as usize;
                assert_eq!(
                    forced(&mut s, all, &mut assumptions),
                    ones == n,
                    "all n={n}"
                );
                assert_eq!(forced(&mut s, any, &mut assumptions), ones > 0, "any n={n}");
            }
        }
    }
}
