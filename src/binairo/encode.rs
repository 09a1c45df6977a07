//! The Binairo formula (encodings/binairo.md): one variable per cell (true = 1), the
//! givens as unit clauses, two clauses per three consecutive cells, a cardinality
//! constraint per line (as many 1s as 0s), and for every pair of rows and of columns a
//! difference variable per position with "some position differs".

use super::grid::Puzzle;
use crate::sat::cnf::exactly_k;
use crate::sat::{ClauseSink, Lit};

/// The variables of a puzzle's formula.
pub struct BinairoFormula {
    /// `one(r, c)`, row by row.
    pub cells: Vec<Lit>,
    pub cols: usize,
}

impl BinairoFormula {
    /// Encodes `p` into `sink`.
    pub fn new(p: &Puzzle, sink: &mut dyn ClauseSink) -> BinairoFormula {
        let cells: Vec<Lit> = (0..p.rows * p.cols).map(|_| sink.new_var()).collect();
        let one = |r: usize, c: usize| cells[r * p.cols + c];
        for (i, g) in p.cells.iter().enumerate() {
            if let Some(v) = g {
                sink.add_clause(&[if *v { cells[i] } else { !cells[i] }]);
            }
        }
        let rows: Vec<Vec<Lit>> = (0..p.rows)
            .map(|r| (0..p.cols).map(|c| one(r, c)).collect())
            .collect();
        let cols: Vec<Vec<Lit>> = (0..p.cols)
            .map(|c| (0..p.rows).map(|r| one(r, c)).collect())
            .collect();
        for group in [&rows, &cols] {
            for line in group.iter() {
                for w in line.windows(3) {
                    sink.add_clause(&[w[0], w[1], w[2]]);
                    sink.add_clause(&[!w[0], !w[1], !w[2]]);
                }
                exactly_k(sink, line, line.len() / 2);
            }
            for (i, a) in group.iter().enumerate() {
                for b in &group[i + 1..] {
                    differ(sink, a, b);
                }
            }
        }
        BinairoFormula {
            cells,
            cols: p.cols,
        }
    }

    /// The clause that excludes the grid `values`: some cell differs from it.
    pub fn blocking_clause(&self, values: &[bool]) -> Vec<Lit> {
        (self.cells.iter().zip(values))
            .map(|(&l, &v)| if v { !l } else { l })
            .collect()
    }
}

/// Lines `a` and `b` differ somewhere: `d(i) → a(i) ≠ b(i)` for each position and
/// `d(0) ∨ d(1) ∨ …`.
fn differ(sink: &mut dyn ClauseSink, a: &[Lit], b: &[Lit]) {
    let mut some = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        let d = sink.new_var();
        sink.add_clause(&[!d, x, y]);
        sink.add_clause(&[!d, !x, !y]);
        some.push(d);
    }
    sink.add_clause(&some);
}
