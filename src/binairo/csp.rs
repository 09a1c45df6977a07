//! The constraint-propagation baselines, as A* is for Sokoban: forward checking with
//! the fewest-values-first choice (`fc`), and arc consistency maintained over rows and
//! columns whose domains are the valid line patterns (`mac`). Both count solutions up
//! to a cap, so they answer unique / multiple / unsolvable as the SAT route does.

use super::brute::patterns;
use super::grid::{Puzzle, is_solution};
use crate::stop::Stop;

/// Solutions found by a CSP engine (at most the cap, row by row).
pub type Found = Vec<Vec<bool>>;

/// Forward checking over cells: after each assignment, every unassigned cell of the
/// two lines through it loses the values that would make three in a row or too many
/// of a digit (cells left with one value are assigned and checked in turn); a cell left
/// with no value ends the branch. With two values per cell, the fewest-values choice
/// is any open cell: the first in reading order. Full grids are checked by the rules
/// (distinct lines). `None` if `stop` ended the search first.
pub fn forward_checking(p: &Puzzle, cap: usize, stop: &Stop) -> Option<Found> {
    // domain bits: 1 = can be 0, 2 = can be 1.
    let domains: Vec<u8> = p
        .cells
        .iter()
        .map(|g| g.map_or(3, |v| if v { 2 } else { 1 }))
        .collect();
    let mut found = Vec::new();
    if domains
        .iter()
        .enumerate()
        .all(|(i, _)| consistent_around(p, &domains, i))
    {
        fc(p, domains, cap, stop, &mut found)?;
    }
    Some(found)
}

/// The search below one choice; `None` when stopped.
fn fc(p: &Puzzle, domains: Vec<u8>, cap: usize, stop: &Stop, found: &mut Found) -> Option<()> {
    if found.len() >= cap {
        return Some(());
    }
    if stop.should_stop() {
        return None;
    }
    // Every open cell has two values, so the fewest-values choice ties everywhere; the
    // tie goes to the cell whose row or column has the fewest open cells.
    let open_in =
        |cells: &mut dyn Iterator<Item = usize>| cells.filter(|&x| domains[x] == 3).count();
    let open = (0..domains.len()).filter(|&i| domains[i] == 3);
    let choice = open.min_by_key(|&i| {
        let (r, c) = (i / p.cols, i % p.cols);
        let row = open_in(&mut (0..p.cols).map(|x| r * p.cols + x));
        let col = open_in(&mut (0..p.rows).map(|y| y * p.cols + c));
        row.min(col)
    });
    let Some(i) = choice else {
        let grid: Vec<bool> = domains.iter().map(|&d| d == 2).collect();
        if is_solution(p, &grid) {
            found.push(grid);
        }
        return Some(());
    };
    for value in [1u8, 2] {
        let mut next = domains.clone();
        next[i] = value;
        if prune(p, &mut next, i) {
            fc(p, next, cap, stop, found)?;
        }
    }
    Some(())
}

/// The cells of the row and the column through cell `i`.
fn lines_through(p: &Puzzle, i: usize) -> [Vec<usize>; 2] {
    let (r, c) = (i / p.cols, i % p.cols);
    [
        (0..p.cols).map(|x| r * p.cols + x).collect(),
        (0..p.rows).map(|y| y * p.cols + c).collect(),
    ]
}

/// Whether the full line `line` equals another full line of its kind (rows when
/// `row`, else columns).
fn repeats(p: &Puzzle, d: &[u8], line: &[usize], row: bool) -> bool {
    let others: Vec<Vec<usize>> = if row {
        (0..p.rows)
            .map(|r| (0..p.cols).map(|c| r * p.cols + c).collect())
            .collect()
    } else {
        (0..p.cols)
            .map(|c| (0..p.rows).map(|r| r * p.cols + c).collect())
            .collect()
    };
    others.iter().any(|o| {
        o[..] != line[..]
            && o.iter().all(|&x| d[x] != 3)
            && o.iter().zip(line).all(|(&x, &y)| d[x] == d[y])
    })
}

/// Removes from the open cells of the lines through `i` the values the assigned cells
/// forbid, repeating while a cell becomes assigned; `false` when a domain empties or a
/// completed line repeats another.
fn prune(p: &Puzzle, d: &mut [u8], i: usize) -> bool {
    let mut work = vec![i];
    while let Some(i) = work.pop() {
        for (which, line) in lines_through(p, i).into_iter().enumerate() {
            if line.iter().all(|&x| d[x] != 3) && repeats(p, d, &line, which == 0) {
                return false;
            }
            let half = line.len() / 2;
            for value in [1u8, 2] {
                let count = line.iter().filter(|&&x| d[x] == value).count();
                if count > half {
                    return false;
                }
                for (k, &x) in line.iter().enumerate() {
                    if d[x] != 3 {
                        continue;
                    }
                    let is = |j: isize| {
                        let j = k as isize + j;
                        j >= 0 && (j as usize) < line.len() && d[line[j as usize]] == value
                    };
                    let three = (is(-2) && is(-1)) || (is(-1) && is(1)) || (is(1) && is(2));
                    if count == half || three {
                        d[x] &= !value;
                        if d[x] == 0 {
                            return false;
                        }
                        if d[x] != 3 {
                            work.push(x);
                        }
                    }
                }
            }
        }
    }
    true
}

/// Whether the givens around cell `i` leave every domain non-empty (a start check).
fn consistent_around(p: &Puzzle, d: &[u8], i: usize) -> bool {
    let mut copy = d.to_vec();
    d[i] == 3 || prune(p, &mut copy, i)
}

/// Maintained arc consistency over lines: each row and column is a variable whose
/// domain is the valid patterns that keep its givens; a row and a column must agree
/// where they cross, and complete lines must differ. AC-3 runs after every choice; the
/// variable with the fewest patterns is chosen next. `None` if `stop` ended the search
/// first.
pub fn maintained_arc_consistency(p: &Puzzle, cap: usize, stop: &Stop) -> Option<Found> {
    let rows = patterns(p.cols);
    let cols = patterns(p.rows);
    let mut domains: Vec<Vec<usize>> = Vec::with_capacity(p.rows + p.cols);
    for r in 0..p.rows {
        domains.push(
            (0..rows.len())
                .filter(|&k| (0..p.cols).all(|c| p.at(r, c).is_none_or(|g| g == rows[k][c])))
                .collect(),
        );
    }
    for c in 0..p.cols {
        domains.push(
            (0..cols.len())
                .filter(|&k| (0..p.rows).all(|r| p.at(r, c).is_none_or(|g| g == cols[k][r])))
                .collect(),
        );
    }
    let lines = Lines { p, rows, cols };
    let mut found = Vec::new();
    if lines.ac3(&mut domains) {
        lines.search(domains, cap, stop, &mut found)?;
    }
    Some(found)
}

struct Lines<'a> {
    p: &'a Puzzle,
    rows: Vec<Vec<bool>>,
    cols: Vec<Vec<bool>>,
}

impl Lines<'_> {
    fn bit(&self, var: usize, k: usize, at: usize) -> bool {
        if var < self.p.rows {
            self.rows[k][at]
        } else {
            self.cols[k][at]
        }
    }

    /// Prunes until every row/column pattern has a support in each crossing line and a
    /// line fixed to one pattern removes it from the other lines of its kind.
    fn ac3(&self, d: &mut [Vec<usize>]) -> bool {
        let (nr, nc) = (self.p.rows, self.p.cols);
        let mut changed = true;
        while changed {
            changed = false;
            for var in 0..nr + nc {
                let crossings: Vec<(usize, usize, usize)> = if var < nr {
                    (0..nc).map(|c| (nr + c, c, var)).collect()
                } else {
                    (0..nr).map(|r| (r, r, var - nr)).collect()
                };
                let before = d[var].len();
                let others: Vec<Vec<usize>> =
                    crossings.iter().map(|&(o, _, _)| d[o].clone()).collect();
                d[var].retain(|&k| {
                    crossings
                        .iter()
                        .zip(&others)
                        .all(|(&(o, at_self, at_other), dom)| {
                            let v = self.bit(var, k, at_self);
                            dom.iter().any(|&m| self.bit(o, m, at_other) == v)
                        })
                });
                // Distinct lines: a fixed line's pattern is taken.
                let same_kind = if var < nr { 0..nr } else { nr..nr + nc };
                for o in same_kind {
                    if o != var && d[o].len() == 1 {
                        let taken = d[o][0];
                        d[var].retain(|&k| k != taken);
                    }
                }
                if d[var].is_empty() {
                    return false;
                }
                changed |= d[var].len() != before;
            }
        }
        true
    }

    /// The search below one choice; `None` when stopped.
    fn search(&self, d: Vec<Vec<usize>>, cap: usize, stop: &Stop, found: &mut Found) -> Option<()> {
        if found.len() >= cap {
            return Some(());
        }
        if stop.should_stop() {
            return None;
        }
        let open = (0..d.len()).filter(|&v| d[v].len() > 1);
        let Some(var) = open.min_by_key(|&v| d[v].len()) else {
            let grid: Vec<bool> = (0..self.p.rows)
                .flat_map(|r| self.rows[d[r][0]].clone())
                .collect();
            if is_solution(self.p, &grid) {
                found.push(grid);
            }
            return Some(());
        };
        for &k in &d[var] {
            let mut next = d.clone();
            next[var] = vec![k];
            if self.ac3(&mut next) {
                self.search(next, cap, stop, found)?;
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binairo::brute::count_solutions;
    use crate::binairo::grid::parse;

    #[test]
    fn both_engines_count_as_brute_force_does() {
        for text in [
            "....\n....\n....\n....\n",
            "11..\n....\n..00\n0...\n",
            "1.....\n......\n..0...\n......\n....1.\n......\n",
            "1.\n..\n",
        ] {
            let p = parse(text).remove(0).unwrap();
            let expected = count_solutions(&p, 1000);
            let never = Stop::never();
            assert_eq!(
                forward_checking(&p, 1000, &never).unwrap().len(),
                expected,
                "fc {text}"
            );
            assert_eq!(
                maintained_arc_consistency(&p, 1000, &never).unwrap().len(),
                expected,
                "mac {text}"
            );
        }
    }

    #[test]
    fn a_stopped_search_says_so() {
        let p = parse(&"............\n".repeat(12)).remove(0).unwrap();
        let stopped = Stop::never();
        stopped.cancel();
        assert_eq!(forward_checking(&p, 2, &stopped), None);
        assert_eq!(maintained_arc_consistency(&p, 2, &stopped), None);
    }
}
