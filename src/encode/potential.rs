//! A potential: the sum over boxes of their push distances to the nearest goal,
//! R(t) = Σ_x pushes_to_goal(x) · box_at(x, t), kept as unary lower-bound literals
//! `at_least(t, j)` ⇔ "R(t) ≥ j is known".
//!
//! Each push changes R by exactly the distance difference Δ of the box's two cells, so
//! the unary literals can follow R from step to step. Each box still needs at least its
//! distance in pushes (the distances are lower bounds for a lone box, and other boxes only
//! get in the way), so R(t) is a lower bound on the pushes left, and a plan that reaches
//! the goal at k needs R(t) ≤ k − t at every step: asking the goal at k forbids
//! `at_least(t, k − t + 1)`. Only implications that make `at_least` true are added, so
//! any real plan satisfies them with `at_least(t, j)` = [R(t) ≥ j].

use std::collections::BTreeMap;

use crate::analysis::{Analysis, UNREACHABLE};
use crate::level::Level;
use crate::sat::{ClauseSink, Lit, Term};

/// How far above its start the potential is tracked exactly.
pub(crate) const POTENTIAL_SLACK: usize = 20;

/// The potential at the start: the boxes' push distances to their nearest goals.
pub(crate) fn initial_potential(level: &Level, analysis: &Analysis) -> usize {
    level
        .box_cells()
        .filter(|&b| analysis.region[b] && analysis.pushes_to_goal[b] != UNREACHABLE)
        .map(|b| analysis.pushes_to_goal[b] as usize)
        .sum()
}

/// The unary potential over the steps of an encoding.
pub struct Potential {
    cap: usize,
    /// `at_least[t][j - 1]` for j in 1..=cap.
    at_least: Vec<Vec<Term>>,
}

impl Potential {
    /// Starts at R(0) = `initial`; values above `cap` are tracked as "at least cap".
    pub fn new(initial: usize, cap: usize) -> Potential {
        let cap = cap.max(initial).max(1);
        let first = (1..=cap).map(|j| Term::Const(j <= initial)).collect();
        Potential {
            cap,
            at_least: vec![first],
        }
    }

    /// The largest value tracked exactly.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Adds step t → t+1 given the step's pushes and their Δ of R. With `always_push`
    /// every step pushes (the pushes encoding); otherwise a step may be a walk.
    pub fn add_step(
        &mut self,
        sink: &mut dyn ClauseSink,
        pushes: &[(Term, i64)],
        always_push: bool,
    ) {
        let t = self.at_least.len() - 1;
        let next: Vec<Term> = (0..self.cap).map(|_| sink.new_var().into()).collect();
        // One literal per distinct Δ: "this step's push changes R by Δ".
        let mut by_delta: BTreeMap<i64, Vec<Term>> = BTreeMap::new();
        for &(p, delta) in pushes {
            if !p.is_false() {
                by_delta.entry(delta).or_default().push(p);
            }
        }
        // Steps without a push (walks in the moves encoding) keep R as it is.
        let any_push: Vec<Term> = pushes
            .iter()
            .map(|&(p, _)| p)
            .filter(|p| !p.is_false())
            .collect();
        let mut changes: Vec<(Term, i64)> = Vec::new();
        for (delta, ps) in by_delta {
            let m: Term = if ps.len() == 1 {
                ps[0]
            } else {
                sink.new_var().into()
            };
            if ps.len() > 1 {
                for &p in &ps {
                    sink.clause(&[!p, m]);
                }
            }
            changes.push((m, delta));
        }
        let no_push: Term = if any_push.is_empty() {
            Term::TRUE
        } else if always_push {
            Term::FALSE
        } else {
            let v: Term = sink.new_var().into();
            let mut clause = vec![v];
            clause.extend(any_push.iter().copied());
            sink.clause(&clause); // no push at all → v
            v
        };
        if !no_push.is_false() {
            changes.push((no_push, 0));
        }
        let cur = self.at_least[t].clone();
        for (j, &known) in cur.iter().enumerate() {
            if known.is_false() {
                continue;
            }
            let j = j as i64 + 1;
            for &(m, delta) in &changes {
                let target = (j + delta).min(self.cap as i64);
                if target >= 1 {
                    sink.clause(&[!known, !m, next[target as usize - 1]]);
                }
            }
        }
        self.at_least.push(next);
    }

    /// The literal "R(t) ≥ j": true for j ≤ 0, `None` above the cap (not tracked).
    /// "True for j ≤ 0" needs a potential that is never negative, like R; for one that
    /// can be (the matching potential), ask only for j ≥ 1.
    pub fn at_least(&self, t: usize, j: i64) -> Option<Term> {
        if j <= 0 {
            Some(Term::TRUE)
        } else if j as usize > self.cap {
            None
        } else {
            self.at_least.get(t).map(|row| row[j as usize - 1])
        }
    }

    /// Under `goal`, R(t) ≤ k − t for every t ≤ k.
    pub fn bound(&self, sink: &mut dyn ClauseSink, goal: Lit, k: usize) {
        for t in 0..=k.min(self.at_least.len() - 1) {
            let j = k - t + 1;
            if j <= self.cap {
                sink.clause(&[(!goal).into(), !self.at_least[t][j - 1]]);
            }
        }
    }
}
