//! The static deadlock patterns of a level (freeze blocks, dead pairs and dead
//! triples), looked up by cell, so that a push can be checked against them in a few
//! steps. The unrolled formulas and `pdr` state the same patterns as clauses; the
//! searches check them on each push.

use super::Analysis;
use crate::level::Cell;

/// The freeze blocks and dead triples of an [`Analysis`], indexed by the cells they
/// contain.
#[derive(Clone, Debug)]
pub struct DeadlockIndex {
    /// Indices of the freeze blocks that contain each cell.
    blocks_at: Vec<Vec<usize>>,
    /// Indices of the dead triples that contain each cell.
    triples_at: Vec<Vec<usize>>,
}

impl DeadlockIndex {
    /// Indexes the patterns of `analysis`, for a level of `cells` cells.
    pub fn new(analysis: &Analysis, cells: usize) -> DeadlockIndex {
        let mut blocks_at = vec![Vec::new(); cells];
        for (i, block) in analysis.freeze_blocks.iter().enumerate() {
            for &c in block {
                blocks_at[c].push(i);
            }
        }
        let mut triples_at = vec![Vec::new(); cells];
        for (i, triple) in analysis.dead_triples.iter().enumerate() {
            for &c in triple {
                triples_at[c].push(i);
            }
        }
        DeadlockIndex {
            blocks_at,
            triples_at,
        }
    }

    /// Whether a box just pushed to `to` completes a pattern of `analysis` (the one
    /// indexed), so that no plan solves the position: `box_after` says which cells
    /// hold a box after the push, and `others` are the cells of the other boxes. Only
    /// patterns through `to` are checked: the position before the push had none.
    pub fn dead_after(
        &self,
        analysis: &Analysis,
        to: Cell,
        box_after: impl Fn(Cell) -> bool,
        mut others: impl Iterator<Item = Cell>,
    ) -> bool {
        let frozen = self.blocks_at[to]
            .iter()
            .any(|&i| analysis.freeze_blocks[i].iter().all(|&c| box_after(c)));
        let dead_triple = self.triples_at[to]
            .iter()
            .any(|&i| analysis.dead_triples[i].iter().all(|&c| box_after(c)));
        frozen || dead_triple || others.any(|o| analysis.pair_table.cost(o, to).is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Direction, parse_xsb};

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
        let index = DeadlockIndex::new(&analysis, level.cell_count());
        let boxes: Vec<Cell> = level.box_cells().collect();
        let (top, lower) = (boxes[0], boxes[1]);
        let push = |to: Cell| move |c: Cell| c == to || c == top;
        // Up, beside the other box against the top wall: neither can move any more.
        let up = level.neighbor(lower, Direction::Up);
        assert!(index.dead_after(&analysis, up, push(up), [top].into_iter()));
        // Left, below a goal: both can still reach goals.
        let left = level.neighbor(lower, Direction::Left);
        assert!(!index.dead_after(&analysis, left, push(left), [top].into_iter()));
    }
}
