//! The heuristic every push search shares: lower bounds on the pushes left in a
//! position, or in a part of one.
//!
//! The fast one is the matching potential (see [`MatchingPotential`]): linear in the
//! boxes' cells, so a push changes it by a difference of two cells. The stronger one,
//! [`Heuristic::bound_of`], adds the extra pushes of disjoint pairs of boxes, either to
//! the potential (each pair measured against its potential and its goals' prices) or
//! to the boxes' own distances, whichever gives more.
//! Where a level has no matching potential, each box's own distance to its nearest goal
//! stands in for it (also a lower bound).
//!
//! A bound on a whole position is rounded up to the parity of its pushes left
//! ([`Heuristic::left`]): every push moves a box to a cell of the other colour of the
//! checkerboard, so the pushes from a position to the goals have a parity fixed by the
//! position. A bound of the wrong parity is one push short of the truth; the matching
//! potential seldom has one (docs/engines.md, "The heuristic").

use super::{Analysis, MatchingPotential};
use crate::level::Cell;

/// Lower bounds on the pushes left, per cell and per set of boxes.
#[derive(Clone, Debug, Default)]
pub struct Heuristic {
    /// `φ(c)` per cell: the potential of a box there (0 where no goal is reachable).
    potential: Vec<i64>,
    /// The potential's constant part (the sum of the goal prices).
    offset: i64,
    /// The goal prices, smallest first (empty without a matching).
    prices: Vec<i64>,
    /// Each cell's pushes to its nearest goal.
    own: Vec<i64>,
    /// The parity of a plan's pushes from the start (see [`Analysis::push_parity`]);
    /// `None` on ice, where a slide is one push of any length.
    parity: Option<u32>,
}

impl Heuristic {
    /// The heuristic of a level with the potential `matching` (see
    /// [`Analysis::matching_potential`]), the distances `pushes_to_goal` and the parity
    /// of its plans' pushes, `push_parity` (see [`Analysis::push_parity`]).
    pub fn new(
        matching: Option<&MatchingPotential>,
        pushes_to_goal: &[u32],
        push_parity: Option<usize>,
    ) -> Heuristic {
        let own: Vec<i64> = pushes_to_goal.iter().map(|&d| d as i64).collect();
        let parity = push_parity.map(|p| p as u32);
        match matching {
            Some(m) => Heuristic {
                potential: m.cell.iter().map(|p| p.unwrap_or(0)).collect(),
                offset: m.offset,
                prices: m.prices.clone(),
                own,
                parity,
            },
            None => Heuristic {
                potential: own.clone(),
                offset: 0,
                prices: Vec::new(),
                own,
                parity,
            },
        }
    }

    /// A lower bound on the pushes left in a whole position reached by `made` pushes,
    /// from a lower bound `bound` on them: `bound` (0 if negative) rounded up to the
    /// parity of the pushes left. Every push changes the number of boxes on dark cells
    /// of the checkerboard by one, so `made` plus the pushes left has the parity of
    /// every plan; on ice there is none, and `bound` is returned as it is.
    pub fn left(&self, made: u32, bound: i64) -> u32 {
        let bound = bound.max(0) as u32;
        match self.parity {
            Some(p) if (made + bound) % 2 != p => bound + 1,
            _ => bound,
        }
    }

    /// `φ` of one cell.
    pub fn cell(&self, c: Cell) -> i64 {
        self.potential[c]
    }

    /// The potential of a whole position whose boxes stand on `cells`: a lower bound on
    /// its pushes left.
    pub fn potential(&self, cells: impl IntoIterator<Item = Cell>) -> i64 {
        self.offset + cells.into_iter().map(|c| self.potential[c]).sum::<i64>()
    }

    /// How much a push of a box from `from` to `to` changes the potential.
    pub fn change(&self, from: Cell, to: Cell) -> i64 {
        self.potential[to] - self.potential[from]
    }

    /// A lower bound on the pushes that bring the boxes on `cells` (some or all of a
    /// position's) to distinct goals, whatever else is on the board: the larger of
    /// their matching potential (their `φ` and the cheapest goal prices) plus the
    /// priced extras of disjoint pairs among them ([`PairTable::priced_extra`]), and
    /// their own distances plus the extras of disjoint pairs over those (pushes of
    /// different boxes are different pushes, so the pairs' extras add up).
    ///
    /// [`PairTable::priced_extra`]: super::PairTable::priced_extra
    pub fn bound_of(&self, analysis: &Analysis, cells: &[Cell]) -> i64 {
        let table = &analysis.pair_table;
        let own: i64 = cells.iter().map(|&c| self.own[c]).sum();
        let extra = disjoint_pairs(cells, |a, b| table.extra(a, b, &analysis.pushes_to_goal));
        let potential = cells.iter().map(|&c| self.potential[c]).sum::<i64>()
            + self.prices.iter().take(cells.len()).sum::<i64>();
        let priced = disjoint_pairs(cells, |a, b| table.priced_extra(a, b));
        (potential + priced).max(own + extra)
    }

    /// A small set of the boxes on `cells` (a position's) whose bound is still at
    /// least `need` (which the whole position's is), with that bound. Boxes are dropped
    /// greedily, the closest to a goal first. (A part's bound may even exceed the
    /// whole's, as the greedy pair packing is not monotone; both are lower bounds.)
    pub fn boxes_needing(
        &self,
        analysis: &Analysis,
        cells: &[Cell],
        need: i64,
    ) -> (Vec<Cell>, i64) {
        let mut cells = cells.to_vec();
        let mut order = cells.clone();
        order.sort_by_key(|&c| self.own[c]);
        let mut bound = self.bound_of(analysis, &cells);
        for c in order {
            let without: Vec<Cell> = cells.iter().copied().filter(|&d| d != c).collect();
            let b = self.bound_of(analysis, &without);
            if b >= need {
                cells = without;
                bound = b;
            }
        }
        (cells, bound)
    }

    /// The least potential of a position with `count` boxes on the cells `movable`
    /// allows that has a box wherever `used` says `Some(true)` and none where it says
    /// `Some(false)`.
    pub fn least_potential(
        &self,
        used: &[Option<bool>],
        count: usize,
        movable: impl Fn(Cell) -> bool,
    ) -> i64 {
        let mut fixed = self.offset;
        let mut placed = 0;
        let mut free = Vec::new();
        for c in (0..used.len()).filter(|&c| movable(c)) {
            match used[c] {
                Some(true) => {
                    fixed += self.potential[c];
                    placed += 1;
                }
                Some(false) => {}
                None => free.push(self.potential[c]),
            }
        }
        free.sort_unstable();
        fixed + free.iter().take(count.saturating_sub(placed)).sum::<i64>()
    }
}

/// The extra pushes of a set of disjoint pairs among the boxes on `cells`, each pair
/// adding `extra(a, b)`: pushes of different boxes are different pushes, so disjoint
/// pairs' extras add up. The packing is greedy, the largest extra first: not the best
/// one, but any disjoint set of pairs is a bound.
fn disjoint_pairs(cells: &[Cell], extra: impl Fn(Cell, Cell) -> u32) -> i64 {
    let mut pairs = Vec::new();
    for (n, &a) in cells.iter().enumerate() {
        for &b in &cells[n + 1..] {
            let e = extra(a, b);
            if e > 0 {
                pairs.push((e, a, b));
            }
        }
    }
    pairs.sort_unstable_by(|x, y| y.cmp(x));
    let mut used: Vec<Cell> = Vec::new();
    let mut total = 0i64;
    for (e, a, b) in pairs {
        if !used.contains(&a) && !used.contains(&b) {
            total += i64::from(e);
            used.extend([a, b]);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::Heuristic;
    use crate::analysis::Analysis;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::level::{Cell, parse_xsb};

    #[test]
    fn bounds_of_positions_and_their_parts_stay_at_most_the_optimum() {
        for text in [
            "#######\n#@    #\n# $$ .#\n#   . #\n#######\n",
            "#########\n#.  $ $.#\n#   @   #\n#########\n",
            "########\n#@$ .  #\n#$     #\n#.     #\n########\n",
        ] {
            let level = parse_xsb("t", text).unwrap().remove(0);
            let analysis = Analysis::new(&level);
            let h = &analysis.heuristic;
            let cells: Vec<Cell> = level.box_cells().collect();
            let whole = h.bound_of(&analysis, &cells);
            let SearchResult::Optimal(optimum) = shortest_pushes(&level, 60, 1_000_000) else {
                panic!("solvable: {text}");
            };
            assert!(whole <= optimum as i64, "{text}");
            assert!(
                h.potential(cells.iter().copied()) <= optimum as i64,
                "{text}"
            );
            for need in 0..=whole {
                let (part, bound) = h.boxes_needing(&analysis, &cells, need);
                assert!(need <= bound && bound <= optimum as i64, "{text}");
                assert_eq!(bound, h.bound_of(&analysis, &part));
            }
            // Needing nothing keeps no box.
            assert!(h.boxes_needing(&analysis, &cells, 0).0.is_empty());
        }
    }

    #[test]
    fn bounds_left_are_rounded_up_to_the_parity_of_the_pushes_left() {
        let level = parse_xsb("t", "#######\n#@ $ .#\n#######\n")
            .unwrap()
            .remove(0);
        let analysis = Analysis::new(&level);
        // Two pushes: 2 left at the start, 1 after one push.
        assert_eq!(analysis.push_parity, Some(0));
        let h = &analysis.heuristic;
        assert_eq!((h.left(0, 1), h.left(0, 2), h.left(0, -3)), (2, 2, 0));
        assert_eq!((h.left(1, 0), h.left(1, 1), h.left(1, 2)), (1, 1, 3));
        // On ice a slide is one push of any length: no parity.
        let ice = Heuristic::new(None, &[0, 1], None);
        assert_eq!((ice.left(0, 1), ice.left(1, 1), ice.left(1, -1)), (1, 1, 0));
    }
}
