//! Counting solutions by brute force, for the oracle tests: every row is one of the
//! valid patterns of its length, the rows are tried in order, and the full grid is
//! judged by the rules of [`grid`](super::grid) alone.

use super::grid::{Puzzle, is_solution};

/// The valid lines of length `n`: as many 1s as 0s, never three equal in a row.
pub fn patterns(n: usize) -> Vec<Vec<bool>> {
    (0u32..1 << n)
        .map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|line| {
            line.iter().filter(|&&v| v).count() * 2 == n
                && line.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2]))
        })
        .collect()
}

/// The number of solutions of `p`, counting at most `cap`.
pub fn count_solutions(p: &Puzzle, cap: usize) -> usize {
    let rows: Vec<Vec<Vec<bool>>> = (0..p.rows)
        .map(|r| {
            patterns(p.cols)
                .into_iter()
                .filter(|line| {
                    line.iter()
                        .enumerate()
                        .all(|(c, &v)| p.at(r, c).is_none_or(|g| g == v))
                })
                .collect()
        })
        .collect();
    let mut grid = Vec::with_capacity(p.rows * p.cols);
    let mut found = 0;
    fill(p, &rows, 0, &mut grid, &mut found, cap);
    found
}

fn fill(
    p: &Puzzle,
    rows: &[Vec<Vec<bool>>],
    r: usize,
    grid: &mut Vec<bool>,
    found: &mut usize,
    cap: usize,
) {
    if *found >= cap {
        return;
    }
    if r == p.rows {
        *found += usize::from(is_solution(p, grid));
        return;
    }
    for line in &rows[r] {
        grid.extend_from_slice(line);
        fill(p, rows, r + 1, grid, found, cap);
        grid.truncate(r * p.cols);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binairo::grid::parse;

    #[test]
    fn line_patterns_and_small_counts() {
        assert_eq!(patterns(4).len(), 6);
        assert_eq!(patterns(6).len(), 14);
        let empty = parse("....\n....\n....\n....\n").remove(0).unwrap();
        assert_eq!(count_solutions(&empty, usize::MAX), 72);
    }
}
