//! The frontier of the plan finder: positions waiting to be expanded, in cells by their
//! features (how many goals of the packing order are filled, how many regions the boxes
//! split the floor into), each cell a [`BestFirst`] queue (pushes made plus the estimate).
//! Turns alternate between the most advanced cell and the others in rotation (as in
//! FESS), so that a dead end the estimate cannot see does not hold the whole search:
//! the less advanced cells keep moving while the best one is explored.

use crate::engine::push_search::BestFirst;

/// Positions waiting, by feature.
pub struct Frontier {
    cells: Vec<BestFirst>,
    /// Whether turns rotate over the cells (else the best cell always goes first).
    rotate: bool,
    /// The next cell in rotation, and whether this turn is a rotation turn.
    next: usize,
    turn: bool,
    len: usize,
}

impl Frontier {
    /// An empty frontier for features `0..features` (larger is more advanced).
    pub fn new(features: usize, rotate: bool) -> Frontier {
        Frontier {
            cells: (0..features).map(|_| BestFirst::new()).collect(),
            rotate,
            next: 0,
            turn: false,
            len: 0,
        }
    }

    /// Adds node `id` to cell `feature` with `key` (smaller first) and `g` pushes so
    /// far (among equal keys, more pushes first: closer to a plan).
    pub fn push(&mut self, feature: usize, key: u32, g: u32, id: u32) {
        self.cells[feature].push(key, g, id);
        self.len += 1;
    }

    /// The next node to expand, with its pushes so far and its cell.
    pub fn pop(&mut self) -> Option<(u32, u32, usize)> {
        if self.len == 0 {
            return None;
        }
        self.turn = !self.turn;
        let cell = if self.rotate && self.turn {
            let n = self.cells.len();
            let cell = (0..n)
                .map(|i| (self.next + i) % n)
                .find(|&c| !self.cells[c].is_empty())
                .expect("a cell holds a position");
            self.next = (cell + 1) % n;
            cell
        } else {
            (0..self.cells.len())
                .rev()
                .find(|&c| !self.cells[c].is_empty())
                .expect("a cell holds a position")
        };
        let (_, g, id) = self.cells[cell].pop().expect("not empty");
        self.len -= 1;
        Some((id, g, cell))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_cell_and_the_rotation_take_turns() {
        let mut f = Frontier::new(3, true);
        f.push(0, 5, 0, 10);
        f.push(0, 1, 0, 11);
        f.push(2, 9, 0, 20);
        f.push(2, 3, 0, 21);
        // Rotation first (cell 0, its best estimate), then the best cell (2).
        assert_eq!(f.pop(), Some((11, 0, 0)));
        assert_eq!(f.pop(), Some((21, 0, 2)));
        assert_eq!(f.pop(), Some((20, 0, 2)));
        assert_eq!(f.pop(), Some((10, 0, 0)));
        assert_eq!(f.pop(), None);
        // Without rotation the best cell always goes first.
        let mut f = Frontier::new(2, false);
        f.push(0, 1, 0, 1);
        f.push(1, 9, 0, 2);
        assert_eq!(f.pop(), Some((2, 0, 1)));
    }
}
