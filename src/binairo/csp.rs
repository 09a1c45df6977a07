//! The constraint-propagation baselines, as A* is for Sokoban: forward checking with
//! the fewest-values-first choice (`fc`), and arc consistency maintained over rows and
//! columns whose domains are the valid line patterns (`mac`). Both count solutions up
//! to a cap, so they answer unique / multiple / unsolvable as the SAT route does, and
//! both can report their search as they make it, through a sink of [`TraceEvent`]s.

use super::brute::patterns;
use super::grid::{Puzzle, is_solution};
use crate::stop::Stop;

/// Solutions found by a CSP engine (at most the cap, row by row).
pub type Found = Vec<Vec<bool>>;

/// What a trace event sets: one cell (`fc`), or a whole row or column (`mac`). Rows
/// and columns count from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assigned {
    /// The cell at `row`, `col` holds `value` (`true`: a 1).
    Cell {
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
        /// Its value.
        value: bool,
    },
    /// Row `row` holds `pattern`, left to right.
    Row {
        /// The row.
        row: usize,
        /// Its cells.
        pattern: Vec<bool>,
    },
    /// Column `col` holds `pattern`, top to bottom.
    Column {
        /// The column.
        col: usize,
        /// Its cells.
        pattern: Vec<bool>,
    },
}

/// One step of a CSP search, sent to the trace sink as the search makes it. Replayed in
/// order (a decision of level `d` first undoes levels `d` and deeper, a backtrack to `d`
/// undoes them), the values in force at each [`TraceEvent::Solution`] are that solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// The search chose a value, opening decision level `depth` (1 for the first
    /// choice); it replaces any earlier decision of that level and what followed it.
    Decision {
        /// The decision level it opens.
        depth: usize,
        /// The value chosen.
        assigned: Assigned,
    },
    /// Propagation left one value: at level `depth`, after that level's decision (0:
    /// from the givens, before any choice).
    Forced {
        /// The decision level it belongs to.
        depth: usize,
        /// The value forced.
        assigned: Assigned,
    },
    /// A dead end: the decision of level `depth` left a cell or line without a value,
    /// or completed a line equal to another, and is undone with everything after it
    /// (0: the givens and what they force break a rule; the search ends).
    Backtrack {
        /// The decision level undone.
        depth: usize,
    },
    /// The values in force fill the grid by the rules: a solution. The search goes on
    /// for the next one, up to its cap.
    Solution,
}

/// A trace sink that drops every event.
pub fn no_trace(_: TraceEvent) {}

/// Forward checking over cells: the givens, then each assignment, take from every
/// unassigned cell of the two lines through them the values that would make three in a
/// row or too many of a digit (cells left with one value are assigned and checked in
/// turn); a cell left with no value ends the branch. The search branches on the open
/// cell with the fewest values left, ties to the first in row-major order. Full grids
/// are checked by the rules (distinct lines). Each step of the search goes to `trace`
/// ([`no_trace`] drops them). `None` if `stop` ended the search first.
pub fn forward_checking(
    p: &Puzzle,
    cap: usize,
    stop: &Stop,
    trace: &mut dyn FnMut(TraceEvent),
) -> Option<Found> {
    // domain bits: 1 = can be 0, 2 = can be 1.
    let mut domains: Vec<u8> = p
        .cells
        .iter()
        .map(|g| g.map_or(3, |v| if v { 2 } else { 1 }))
        .collect();
    let mut givens = (0..p.cells.len()).filter(|&i| p.cells[i].is_some());
    let consistent = givens.all(|i| {
        prune(p, &mut domains, i, &mut |x, value| {
            let assigned = cell(p, x, value);
            trace(TraceEvent::Forced { depth: 0, assigned });
        })
    });
    Search::new(Cells { p }, cap, stop, trace).run(consistent, domains)
}

/// A CSP as the depth-first search of [`Search`] walks it: domains, a choice, and
/// propagation after each assignment.
trait Csp {
    /// The domains of every variable.
    type Domains: Clone;
    /// The variable to branch on and the values to try, in order; `None` when every
    /// variable has one value left.
    fn branch(&self, d: &Self::Domains) -> Option<(usize, Vec<usize>)>;
    /// Variable `var` set to `value`, as a trace shows it.
    fn assigned(&self, var: usize, value: usize) -> Assigned;
    /// Sets variable `var` to `value` in `d` and propagates, telling `forced` each value
    /// it leaves alone; `false` at a contradiction.
    fn assign(
        &self,
        d: &mut Self::Domains,
        var: usize,
        value: usize,
        forced: &mut dyn FnMut(Assigned),
    ) -> bool;
    /// The grid of domains that have one value each.
    fn grid(&self, d: &Self::Domains) -> Vec<bool>;
    /// The puzzle.
    fn puzzle(&self) -> &Puzzle;
}

/// A depth-first search over a [`Csp`] that counts solutions up to a cap and traces
/// its steps.
struct Search<'a, C: Csp> {
    csp: C,
    cap: usize,
    stop: &'a Stop,
    found: Found,
    trace: &'a mut dyn FnMut(TraceEvent),
}

impl<'a, C: Csp> Search<'a, C> {
    fn new(csp: C, cap: usize, stop: &'a Stop, trace: &'a mut dyn FnMut(TraceEvent)) -> Self {
        Search {
            csp,
            cap,
            stop,
            found: Vec::new(),
            trace,
        }
    }

    /// Searches from the root once the givens are propagated (`consistent`: without a
    /// contradiction); the solutions, or `None` when stopped.
    fn run(mut self, consistent: bool, d: C::Domains) -> Option<Found> {
        if consistent {
            self.below(d, 0)?;
        } else {
            (self.trace)(TraceEvent::Backtrack { depth: 0 });
        }
        Some(self.found)
    }

    /// The search below a node of decision level `depth`; `None` when stopped.
    fn below(&mut self, d: C::Domains, depth: usize) -> Option<()> {
        if self.found.len() >= self.cap {
            return Some(());
        }
        if self.stop.should_stop() {
            return None;
        }
        let Some((var, values)) = self.csp.branch(&d) else {
            let grid = self.csp.grid(&d);
            if is_solution(self.csp.puzzle(), &grid) {
                (self.trace)(TraceEvent::Solution);
                self.found.push(grid);
            } else {
                (self.trace)(TraceEvent::Backtrack { depth });
            }
            return Some(());
        };
        let depth = depth + 1;
        for value in values {
            if self.found.len() >= self.cap {
                break;
            }
            let assigned = self.csp.assigned(var, value);
            (self.trace)(TraceEvent::Decision { depth, assigned });
            let mut next = d.clone();
            let trace = &mut *self.trace;
            let consistent = self.csp.assign(&mut next, var, value, &mut |assigned| {
                trace(TraceEvent::Forced { depth, assigned });
            });
            if consistent {
                self.below(next, depth)?;
            } else {
                (self.trace)(TraceEvent::Backtrack { depth });
            }
        }
        Some(())
    }
}

/// Forward checking's CSP: one variable per cell, domain bits 1 (can be 0) and 2 (can
/// be 1).
struct Cells<'a> {
    p: &'a Puzzle,
}

impl Csp for Cells<'_> {
    type Domains = Vec<u8>;

    /// The open cell with the fewest remaining values, ties to the first in row-major
    /// order. A cell left with one value is assigned at once, so every open cell has
    /// both: the choice is the first open cell.
    fn branch(&self, d: &Vec<u8>) -> Option<(usize, Vec<usize>)> {
        let i = d.iter().position(|&v| v == 3)?;
        Some((i, vec![1, 2]))
    }

    fn assigned(&self, i: usize, value: usize) -> Assigned {
        cell(self.p, i, value as u8)
    }

    fn assign(
        &self,
        d: &mut Vec<u8>,
        i: usize,
        value: usize,
        forced: &mut dyn FnMut(Assigned),
    ) -> bool {
        let p = self.p;
        d[i] = value as u8;
        prune(p, d, i, &mut |x, v| forced(cell(p, x, v)))
    }

    fn grid(&self, d: &Vec<u8>) -> Vec<bool> {
        d.iter().map(|&v| v == 2).collect()
    }

    fn puzzle(&self) -> &Puzzle {
        self.p
    }
}

/// Cell `i` holding the value of domain `d` (1: a 0, 2: a 1), as a trace shows it.
fn cell(p: &Puzzle, i: usize, d: u8) -> Assigned {
    Assigned::Cell {
        row: i / p.cols,
        col: i % p.cols,
        value: d == 2,
    }
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
/// forbid, repeating while a cell becomes assigned (each one told to `forced` with its
/// domain); `false` when a domain empties or a completed line repeats another.
fn prune(p: &Puzzle, d: &mut [u8], i: usize, forced: &mut dyn FnMut(usize, u8)) -> bool {
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
                            forced(x, d[x]);
                            work.push(x);
                        }
                    }
                }
            }
        }
    }
    true
}

/// Maintained arc consistency over lines: each row and column is a variable whose
/// domain is the valid patterns that keep its givens; a row and a column must agree
/// where they cross, and complete lines must differ. AC-3 runs after every choice; the
/// variable with the fewest patterns is chosen next. Each step of the search goes to
/// `trace` ([`no_trace`] drops them). `None` if `stop` ended the search first.
pub fn maintained_arc_consistency(
    p: &Puzzle,
    cap: usize,
    stop: &Stop,
    trace: &mut dyn FnMut(TraceEvent),
) -> Option<Found> {
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
    // At the root every line with an empty cell is open, even one its givens fix.
    let open: Vec<bool> = (0..p.rows)
        .map(|r| (0..p.cols).any(|c| p.at(r, c).is_none()))
        .chain((0..p.cols).map(|c| (0..p.rows).any(|r| p.at(r, c).is_none())))
        .collect();
    let consistent = lines.propagate(&mut domains, &open, &mut |assigned| {
        trace(TraceEvent::Forced { depth: 0, assigned });
    });
    Search::new(lines, cap, stop, trace).run(consistent, domains)
}

/// Arc consistency's CSP: one variable per row and column (rows first), its domain
/// the indices of its valid patterns.
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

    /// Runs AC-3 on `d` and tells `forced` the `open` lines it fixed to one pattern;
    /// none after a wipe-out, where the lines fixed on the way need not agree.
    fn propagate(
        &self,
        d: &mut [Vec<usize>],
        open: &[bool],
        forced: &mut dyn FnMut(Assigned),
    ) -> bool {
        if !self.ac3(d) {
            return false;
        }
        for var in (0..d.len()).filter(|&v| open[v] && d[v].len() == 1) {
            forced(self.assigned(var, d[var][0]));
        }
        true
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
}

impl Csp for Lines<'_> {
    type Domains = Vec<Vec<usize>>;

    /// The line with the fewest patterns left, ties to the first (rows before columns).
    fn branch(&self, d: &Vec<Vec<usize>>) -> Option<(usize, Vec<usize>)> {
        let open = (0..d.len()).filter(|&v| d[v].len() > 1);
        let var = open.min_by_key(|&v| d[v].len())?;
        Some((var, d[var].clone()))
    }

    /// Line `var` holding pattern `k`.
    fn assigned(&self, var: usize, k: usize) -> Assigned {
        if var < self.p.rows {
            let pattern = self.rows[k].clone();
            Assigned::Row { row: var, pattern }
        } else {
            let pattern = self.cols[k].clone();
            Assigned::Column {
                col: var - self.p.rows,
                pattern,
            }
        }
    }

    fn assign(
        &self,
        d: &mut Vec<Vec<usize>>,
        var: usize,
        k: usize,
        forced: &mut dyn FnMut(Assigned),
    ) -> bool {
        d[var] = vec![k];
        let open: Vec<bool> = d.iter().map(|dom| dom.len() > 1).collect();
        self.propagate(d, &open, forced)
    }

    fn grid(&self, d: &Vec<Vec<usize>>) -> Vec<bool> {
        (0..self.p.rows)
            .flat_map(|r| self.rows[d[r][0]].clone())
            .collect()
    }

    fn puzzle(&self) -> &Puzzle {
        self.p
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
                forward_checking(&p, 1000, &never, &mut no_trace)
                    .unwrap()
                    .len(),
                expected,
                "fc {text}"
            );
            assert_eq!(
                maintained_arc_consistency(&p, 1000, &never, &mut no_trace)
                    .unwrap()
                    .len(),
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
        assert_eq!(forward_checking(&p, 2, &stopped, &mut no_trace), None);
        assert_eq!(
            maintained_arc_consistency(&p, 2, &stopped, &mut no_trace),
            None
        );
    }
}
