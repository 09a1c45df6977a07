//! Generating puzzles with a unique solution and no redundant clue, on one incremental
//! solver: the rules plus "not this solution" are the formula, the givens are
//! assumptions, and a puzzle is unique exactly when that is unsatisfiable.

use super::encode::BinairoFormula;
use super::grid::{Puzzle, is_solution};
use crate::sat::{Lit, SatBackend, SolveResult};

/// A small deterministic generator (xorshift), so a seed gives the same puzzles.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// The cells `0..n` in a random order.
    fn order(&mut self, n: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            all.swap(i, (self.next() % (i as u64 + 1)) as usize);
        }
        all
    }
}

/// One puzzle of `size × size` with a unique solution and no redundant given, made
/// with `solver` (fresh); `Err` if the solver fails or the size has no solution.
pub fn generate(
    size: usize,
    rng: &mut Rng,
    mut solver: Box<dyn SatBackend>,
) -> Result<Puzzle, String> {
    let empty = Puzzle {
        number: 1,
        title: None,
        rows: size,
        cols: size,
        cells: vec![None; size * size],
    };
    let formula = BinairoFormula::new(&empty, solver.as_mut());
    let lit = |i: usize, v: bool| {
        if v {
            formula.cells[i]
        } else {
            !formula.cells[i]
        }
    };
    let ask = |solver: &mut dyn SatBackend, assumptions: &[Lit]| match solver.solve(assumptions) {
        SolveResult::Sat => Ok(true),
        SolveResult::Unsat => Ok(false),
        SolveResult::Unknown => Err("the solver stopped".to_string()),
    };
    // A random solution: fix cells one by one to a random value the rules allow.
    let mut fixed: Vec<Lit> = Vec::new();
    for i in rng.order(size * size) {
        let v = rng.next() % 2 == 1;
        fixed.push(lit(i, v));
        if !ask(solver.as_mut(), &fixed)? {
            fixed.pop();
            fixed.push(lit(i, !v));
            if !ask(solver.as_mut(), &fixed)? {
                return Err(format!("no {size}×{size} grid exists"));
            }
        }
    }
    ask(solver.as_mut(), &fixed)?;
    let solution: Vec<bool> = formula.cells.iter().map(|&l| solver.value(l)).collect();
    if !is_solution(&empty, &solution) {
        return Err("the generated grid breaks a rule (a bug)".into());
    }
    // From now on the formula forbids that solution: a set of givens is a unique puzzle
    // exactly when the formula under them is unsatisfiable.
    solver.add_clause(&formula.blocking_clause(&solution));
    let mut given = vec![true; size * size];
    for i in rng.order(size * size) {
        given[i] = false;
        let assumptions: Vec<Lit> = (0..size * size)
            .filter(|&j| given[j])
            .map(|j| lit(j, solution[j]))
            .collect();
        if ask(solver.as_mut(), &assumptions)? {
            given[i] = true; // without it a second solution appears: keep it
        }
    }
    Ok(Puzzle {
        cells: (0..size * size)
            .map(|i| given[i].then_some(solution[i]))
            .collect(),
        ..empty
    })
}

/// The puzzle as text in the input format.
pub fn to_text(p: &Puzzle) -> String {
    let mut out = String::new();
    for r in 0..p.rows {
        for c in 0..p.cols {
            out.push(match p.at(r, c) {
                Some(true) => '1',
                Some(false) => '0',
                None => '.',
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binairo::brute::count_solutions;
    use crate::sat::VarisatBackend;

    #[test]
    fn generated_puzzles_are_unique_and_minimal() {
        let mut rng = Rng::new(7);
        for _ in 0..3 {
            let p = generate(6, &mut rng, Box::new(VarisatBackend::new())).unwrap();
            assert_eq!(count_solutions(&p, 10), 1);
            for i in (0..36).filter(|&i| p.cells[i].is_some()) {
                let mut fewer = p.clone();
                fewer.cells[i] = None;
                assert!(count_solutions(&fewer, 10) > 1, "given {i} is redundant");
            }
        }
    }
}
