//! Solving a puzzle with the SAT solver: solve, check the grid against the rules, block
//! it and solve again, until a second solution (or `count` of them) is found or none
//! is left.

use super::encode::BinairoFormula;
use super::grid::{Puzzle, is_solution};
use crate::sat::{SatBackend, SolveResult};

/// What a puzzle's solutions are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution.
    Unique,
    /// More than one.
    Multiple,
    /// None.
    Unsolvable,
}

impl Verdict {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::Unsolvable => "unsolvable",
        }
    }

    /// The verdict of `found` solutions, found by a search that looked for at least two.
    pub fn of(found: usize) -> Verdict {
        match found {
            0 => Verdict::Unsolvable,
            1 => Verdict::Unique,
            _ => Verdict::Multiple,
        }
    }
}

/// The answer for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Unique, multiple or unsolvable.
    pub verdict: Verdict,
    /// The solutions found (row by row), at most the number asked for and at least two
    /// when there are two.
    pub solutions: Vec<Vec<bool>>,
    /// Size of the formula at the end.
    pub variables: u64,
    pub clauses: u64,
}

/// Solves `p` with `solver` (fresh), looking for up to `count` solutions (at least two,
/// to tell unique from multiple). `Ok(None)` if the solver's interrupt stopped it;
/// `Err` if the solver fails or, which would be a bug, a model is not a solution.
pub fn solve_sat(
    p: &Puzzle,
    mut solver: Box<dyn SatBackend>,
    count: usize,
) -> Result<Option<Answer>, String> {
    let formula = BinairoFormula::new(p, solver.as_mut());
    let mut solutions = Vec::new();
    while solutions.len() < count.max(2) {
        match solver.solve(&[]) {
            SolveResult::Sat => {
                let grid: Vec<bool> = formula.cells.iter().map(|&l| solver.value(l)).collect();
                if !is_solution(p, &grid) {
                    return Err("the solver's grid breaks a rule (a bug of the encoding)".into());
                }
                solver.add_clause(&formula.blocking_clause(&grid));
                solutions.push(grid);
            }
            SolveResult::Unsat => break,
            SolveResult::Unknown => match solver.failure() {
                Some(failure) => return Err(failure),
                // Its interrupt answered: the caller's time is up.
                None => return Ok(None),
            },
        }
    }
    let stats = solver.stats();
    let verdict = Verdict::of(solutions.len());
    solutions.truncate(count.max(1));
    Ok(Some(Answer {
        verdict,
        solutions,
        variables: stats.variables,
        clauses: stats.clauses,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binairo::grid::parse;
    use crate::sat::VarisatBackend;

    fn answer(text: &str, count: usize) -> Answer {
        let p = parse(text).remove(0).unwrap();
        solve_sat(&p, Box::new(VarisatBackend::new()), count)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn unique_multiple_and_unsolvable() {
        // The empty 4×4 grid has 72 solutions.
        let a = answer("....\n....\n....\n....\n", 100);
        assert_eq!((a.verdict, a.solutions.len()), (Verdict::Multiple, 72));
        let a = answer("1..0\n....\n.1..\n....\n", 1);
        assert_eq!(a.verdict, Verdict::Multiple);
        assert_eq!(a.solutions.len(), 1);
        // A single 2×2 grid: 10/01 or 01/10; a given makes it unique.
        assert_eq!(answer("1.\n..\n", 5).verdict, Verdict::Unique);
        // Givens that break no rule yet admit no solution.
        assert_eq!(
            answer("11..\n....\n..00\n0...\n", 5).verdict,
            Verdict::Unsolvable
        );
    }
}
