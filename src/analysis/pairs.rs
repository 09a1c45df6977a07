//! Pattern databases over pairs and triples of boxes: for every two live cells, the
//! fewest pushes that bring two boxes standing there onto two distinct goals, the other
//! boxes taken off the board and the player anywhere in its region (or on a given side);
//! for triples, the dead ones and the costs of the initial boxes.
//!
//! Why it is a lower bound: project any solution onto two of its boxes. The other boxes
//! vanish, which only frees cells, so every walk and every push of the two boxes stays
//! legal, and the projection solves the two-box problem. So the pushes spent on those
//! two boxes are at least the pair's cost, and the pushes spent on every other box are
//! at least its own distance. A pair that can never reach two goals is a deadlock of the
//! full game.

use super::UNREACHABLE;
use super::patterns::GroupSearch;
use crate::level::{Cell, Direction, Level};

/// More (pair, player) states than this and the table is not built (it stays empty,
/// which is sound: it just prunes nothing).
const MAX_STATES: usize = 24_000_000;

/// More (triple, player) states than this and no triple costs are computed.
const MAX_TRIPLE_STATES: usize = 40_000_000;

/// Pair costs for every two live cells.
#[derive(Clone, Debug, Default)]
pub struct PairTable {
    /// The live cells, in cell order.
    live: Vec<Cell>,
    /// `cost[i * live.len() + j]` for i < j: pushes for boxes on live[i] and live[j],
    /// `UNREACHABLE` when no two goals can ever be reached.
    cost: Vec<u32>,
    /// `(a, b, n, cost)`: with boxes on a and b and the player on n, a neighbour of one
    /// of them, the pair needs `cost` pushes (`UNREACHABLE`: never), when that is more
    /// than the pair's cost with the player anywhere.
    sided: Vec<(Cell, Cell, Cell, u32)>,
}

impl PairTable {
    /// Builds the table by the backward search of `patterns.rs` over (two boxes,
    /// player) states.
    pub fn new(level: &Level, region: &[bool], live: &[bool]) -> PairTable {
        let Some(search) = GroupSearch::<2>::run(level, region, live, MAX_STATES) else {
            return PairTable::default();
        };
        let live_cells = search.live_cells().to_vec();
        let nl = live_cells.len();
        let mut cost = vec![UNREACHABLE; nl * nl];
        let mut sided = Vec::new();
        for i in 0..nl {
            for j in i + 1..nl {
                let (a, b) = (live_cells[i], live_cells[j]);
                let Some(best) = search.cost(&[a, b]) else {
                    continue;
                };
                cost[i * nl + j] = best;
                let mut sides: Vec<Cell> = [a, b]
                    .iter()
                    .flat_map(|&x| Direction::ALL.map(|d| level.neighbor(x, d)))
                    .filter(|&m| region[m] && m != a && m != b)
                    .collect();
                sides.sort_unstable();
                sides.dedup();
                for m in sides {
                    let c = search.cost_from(&[a, b], m).unwrap_or(UNREACHABLE);
                    if c > best {
                        sided.push((a, b, m, c));
                    }
                }
            }
        }
        PairTable {
            live: live_cells,
            cost,
            sided,
        }
    }

    /// The pushes two boxes on `a` and `b` need, `None` when they can never both reach
    /// goals (or the table was not built and knows nothing: then `Some(0)`).
    pub fn cost(&self, a: Cell, b: Cell) -> Option<u32> {
        let (Ok(i), Ok(j)) = (self.live.binary_search(&a), self.live.binary_search(&b)) else {
            return Some(0);
        };
        let (i, j) = (i.min(j), i.max(j));
        if i == j {
            return Some(0);
        }
        match self.cost[i * self.live.len() + j] {
            UNREACHABLE => None,
            c => Some(c),
        }
    }

    /// Pairs that need more pushes when the player stands on a given neighbour cell
    /// (or anywhere connected to it with only the two boxes on the board):
    /// `(a, b, player cell, cost)`, `None` meaning a deadlock.
    pub fn sided(&self) -> impl Iterator<Item = (Cell, Cell, Cell, Option<u32>)> + '_ {
        self.sided
            .iter()
            .map(|&(a, b, m, c)| (a, b, m, (c != UNREACHABLE).then_some(c)))
    }

    /// Every pair of live cells with its cost (`None`: a deadlock).
    pub fn pairs(&self) -> impl Iterator<Item = (Cell, Cell, Option<u32>)> + '_ {
        let nl = self.live.len();
        (0..nl).flat_map(move |i| {
            (i + 1..nl).map(move |j| {
                let c = self.cost[i * nl + j];
                (self.live[i], self.live[j], (c != UNREACHABLE).then_some(c))
            })
        })
    }
}

/// Triple costs of the placements that matter: the lower bound at the start, and the
/// triples that are dead although none of their pairs is.
#[derive(Clone, Debug, Default)]
pub struct TripleFacts {
    /// Sorted triples of live cells that can never all reach goals, with no dead pair.
    pub dead: Vec<[Cell; 3]>,
    /// The pushes each triple of the given boxes needs (`None`: dead), per sorted triple.
    pub of_boxes: Vec<([Cell; 3], Option<u32>)>,
}

impl TripleFacts {
    /// Searches all triples of live cells, if there are not too many.
    pub fn new(
        level: &Level,
        region: &[bool],
        live: &[bool],
        pairs: &PairTable,
        boxes: &[Cell],
    ) -> TripleFacts {
        let Some(search) = GroupSearch::<3>::run(level, region, live, MAX_TRIPLE_STATES) else {
            return TripleFacts::default();
        };
        let mut boxes = boxes.to_vec();
        boxes.sort_unstable();
        let of_boxes = super::patterns::combinations::<3>(&boxes)
            .into_iter()
            .filter(|t| t.iter().all(|&c| live[c]))
            .map(|t| (t, search.cost(&t)))
            .collect();
        let dead = super::patterns::combinations::<3>(search.live_cells())
            .into_iter()
            .filter(|&[a, b, c]| {
                pairs.cost(a, b).is_some()
                    && pairs.cost(a, c).is_some()
                    && pairs.cost(b, c).is_some()
                    && search.cost(&[a, b, c]).is_none()
            })
            .collect();
        TripleFacts { dead, of_boxes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Analysis;
    use crate::level::parse_xsb;
    use crate::search::{SearchResult, shortest_pushes};

    fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    #[test]
    fn two_boxes_side_by_side_on_a_wall_are_dead() {
        let l = level("#######\n#     #\n#  $$ #\n# .. @#\n#######\n");
        let a = Analysis::new(&l);
        let t = &a.pair_table;
        // Cells on row 1 (against the top wall), columns 2 and 3.
        let (x, y) = (l.width() + 2, l.width() + 3);
        if a.live[x] && a.live[y] {
            assert_eq!(t.cost(x, y), None);
        }
    }

    #[test]
    fn pair_cost_equals_brute_force_on_two_box_levels() {
        // On a level with exactly two boxes the pair cost from the initial boxes, taken
        // over every player cell, can only be at most the true optimum.
        let l = level("########\n#  .   #\n# $$ @ #\n#  .   #\n########\n");
        let a = Analysis::new(&l);
        let boxes: Vec<Cell> = l.box_cells().collect();
        let pair = a.pair_table.cost(boxes[0], boxes[1]).unwrap();
        let SearchResult::Optimal(best) = shortest_pushes(&l, 50, 1_000_000) else {
            panic!("solvable");
        };
        assert!(pair as usize <= best, "{pair} > {best}");
        let sum: u32 = boxes.iter().map(|&b| a.pushes_to_goal[b]).sum();
        assert!(pair >= sum);
    }
}
