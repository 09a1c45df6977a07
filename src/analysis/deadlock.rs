//! The deadlock patterns of a level, built once: freeze blocks, dead pairs and dead
//! triples, each a set of cells that must never all hold a box. The formulas state them
//! as clauses ([`Deadlocks::patterns`]); the searches check each push against the
//! patterns through the cell it moves a box to ([`Deadlocks::dead_after`]).

use std::collections::HashSet;

use super::PairTable;
use crate::level::Cell;

/// Every deadlock pattern of a level, indexed by the cells it contains.
#[derive(Clone, Debug, Default)]
pub struct Deadlocks {
    /// 2×2 freeze blocks, as their box-capable cells.
    freeze_blocks: Vec<Vec<Cell>>,
    /// Pairs of live cells two boxes can never leave for goals (from the pair table).
    dead_pairs: Vec<[Cell; 2]>,
    /// Triples of live cells three boxes can never leave for goals, no two of them a
    /// dead pair.
    dead_triples: Vec<[Cell; 3]>,
    /// Indices of the freeze blocks that contain each cell.
    blocks_at: Vec<Vec<u32>>,
    /// Indices of the dead triples that contain each cell.
    triples_at: Vec<Vec<u32>>,
}

impl Deadlocks {
    /// Gathers the patterns of a level of `cells` cells.
    pub fn new(
        cells: usize,
        freeze_blocks: Vec<Vec<Cell>>,
        pairs: &PairTable,
        dead_triples: Vec<[Cell; 3]>,
    ) -> Deadlocks {
        let dead_pairs = pairs
            .pairs()
            .filter(|p| p.2.is_none())
            .map(|(a, b, _)| [a, b])
            .collect();
        let mut blocks_at = vec![Vec::new(); cells];
        for (i, block) in freeze_blocks.iter().enumerate() {
            for &c in block {
                blocks_at[c].push(i as u32);
            }
        }
        let mut triples_at = vec![Vec::new(); cells];
        for (i, triple) in dead_triples.iter().enumerate() {
            for &c in triple {
                triples_at[c].push(i as u32);
            }
        }
        Deadlocks {
            freeze_blocks,
            dead_pairs,
            dead_triples,
            blocks_at,
            triples_at,
        }
    }

    /// The freeze blocks alone (the `moves` encoding states only these).
    pub fn freeze_blocks(&self) -> &[Vec<Cell>] {
        &self.freeze_blocks
    }

    /// The dead triples alone.
    pub fn dead_triples(&self) -> &[[Cell; 3]] {
        &self.dead_triples
    }

    /// Every pattern: the freeze blocks, then the dead pairs, then the dead triples.
    pub fn patterns(&self) -> impl Iterator<Item = &[Cell]> {
        (self.freeze_blocks.iter().map(Vec::as_slice))
            .chain(self.dead_pairs.iter().map(|p| p.as_slice()))
            .chain(self.dead_triples.iter().map(|t| t.as_slice()))
    }

    /// The patterns as sorted cell sets, without those that contain another, smallest
    /// first. A clause per pattern is then never subsumed by another: a freeze block of
    /// two cells that is also a dead pair comes once, a freeze block or triple holding a
    /// dead pair not at all.
    pub fn minimal_patterns(&self) -> Vec<Vec<Cell>> {
        let mut sorted: Vec<Vec<Cell>> = self
            .patterns()
            .map(|p| {
                let mut cells = p.to_vec();
                cells.sort_unstable();
                cells.dedup();
                cells
            })
            .collect();
        // Smaller first, so a pattern meets every pattern it could contain before it.
        sorted.sort_by_key(Vec::len);
        let mut kept: HashSet<Vec<Cell>> = HashSet::new();
        let mut minimal = Vec::new();
        for cells in sorted {
            let m = cells.len();
            // Every subset, itself included, by bit mask: patterns have at most four
            // cells (a longer one is kept as it is).
            let holds_a_kept_one = m <= 6
                && (1u32..(1 << m)).any(|mask| {
                    let subset: Vec<Cell> = (0..m)
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| cells[i])
                        .collect();
                    kept.contains(&subset)
                });
            if !holds_a_kept_one {
                kept.insert(cells.clone());
                minimal.push(cells);
            }
        }
        minimal
    }

    /// Whether a box just pushed to `to` completes a pattern, so that no plan solves
    /// the position: `box_after` says which cells hold a box after the push, and
    /// `others` are the cells of the other boxes. Only patterns through `to` are
    /// checked: the position before the push had none. Pairs are looked up in `pairs`
    /// (one lookup per other box, instead of a list per cell).
    pub fn dead_after(
        &self,
        pairs: &PairTable,
        to: Cell,
        box_after: impl Fn(Cell) -> bool,
        mut others: impl Iterator<Item = Cell>,
    ) -> bool {
        let all = |cells: &[Cell]| cells.iter().all(|&c| box_after(c));
        self.blocks_at[to]
            .iter()
            .any(|&i| all(&self.freeze_blocks[i as usize]))
            || self.triples_at[to]
                .iter()
                .any(|&i| all(&self.dead_triples[i as usize]))
            || others.any(|o| pairs.cost(o, to).is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::Deadlocks;
    use crate::analysis::Analysis;
    use crate::level::{Cell, Direction, parse_xsb};

    #[test]
    fn a_push_into_a_pattern_is_dead_and_others_are_not() {
        // One box on the top row between the goals, one below it to the left.
        let level = parse_xsb(
            "t",
            "#######\n#. $ .#\n# $   #\n#  @  #\n#     #\n#######\n",
        )
        .unwrap()
        .remove(0);
        let analysis = Analysis::new(&level);
        let deadlocks = &analysis.deadlocks;
        let boxes: Vec<Cell> = level.box_cells().collect();
        let (top, lower) = (boxes[0], boxes[1]);
        let push = |to: Cell| move |c: Cell| c == to || c == top;
        let pairs = &analysis.pair_table;
        // Up, beside the other box against the top wall: neither can move any more.
        let up = level.neighbor(lower, Direction::Up);
        assert!(deadlocks.dead_after(pairs, up, push(up), [top].into_iter()));
        // Left, below a goal: both can still reach goals.
        let left = level.neighbor(lower, Direction::Left);
        assert!(!deadlocks.dead_after(pairs, left, push(left), [top].into_iter()));
        // Every freeze block is a pattern, and so is every dead pair.
        let patterns: Vec<&[Cell]> = deadlocks.patterns().collect();
        assert!(patterns.len() >= deadlocks.freeze_blocks().len());
        assert!(patterns.iter().any(|p| p.len() == 2 && p.contains(&up)));
    }

    #[test]
    fn minimal_patterns_drop_repeats_and_supersets() {
        let deadlocks = Deadlocks {
            freeze_blocks: vec![vec![5, 4], vec![4, 5, 9, 10], vec![20, 21, 26, 27]],
            dead_pairs: vec![[4, 5], [30, 31]],
            dead_triples: vec![[30, 31, 40], [40, 41, 42]],
            ..Deadlocks::default()
        };
        assert_eq!(
            deadlocks.minimal_patterns(),
            vec![
                vec![4, 5],
                vec![30, 31],
                vec![40, 41, 42],
                vec![20, 21, 26, 27],
            ]
        );
    }
}
