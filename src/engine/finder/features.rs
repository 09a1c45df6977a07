//! The features the plan finder files positions under (as FESS does): how many goals
//! of the packing order are filled, in order, and how many regions the boxes split the
//! floor into. More packed goals and fewer regions are more advanced.

use crate::level::{Cell, Direction, Level};

/// Region counts the feature tells apart (1, 2, 3, and 4 or more).
pub const REGION_CELLS: usize = 4;

/// The feature of positions, with its buffers.
pub struct Features {
    /// The goals in the order to fill them (empty: no packing feature).
    order: Vec<Cell>,
    /// The floor of the player's region (empty: no connectivity feature).
    floor: Vec<Cell>,
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<Cell>,
}

impl Features {
    /// Features by the packing `order` (empty for none) and the regions of `floor`
    /// (empty for none), on a level of `cells` cells.
    pub fn new(order: Vec<Cell>, floor: Vec<Cell>, cells: usize) -> Features {
        Features {
            order,
            floor,
            seen: vec![0; cells],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// How many cells there are (the most advanced is the last).
    pub fn cells(&self) -> usize {
        (self.order.len() + 1) * REGION_CELLS
    }

    /// The cell of the position with boxes on `boxes` (a mask).
    pub fn cell(&mut self, level: &Level, boxes: &[bool]) -> usize {
        let packed = self.order.iter().take_while(|&&g| boxes[g]).count();
        let regions = self.regions(level, boxes).clamp(1, REGION_CELLS);
        packed * REGION_CELLS + (REGION_CELLS - regions)
    }

    /// The regions the boxes split the floor into (1 without the feature).
    fn regions(&mut self, level: &Level, boxes: &[bool]) -> usize {
        if self.floor.is_empty() {
            return 1;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let mut regions = 0;
        for &start in &self.floor {
            if boxes[start] || self.seen[start] == stamp {
                continue;
            }
            regions += 1;
            self.seen[start] = stamp;
            self.stack.push(start);
            while let Some(c) = self.stack.pop() {
                for d in Direction::ALL {
                    let n = level.neighbor(c, d);
                    if !level.is_wall(n) && !boxes[n] && self.seen[n] != stamp {
                        self.seen[n] = stamp;
                        self.stack.push(n);
                    }
                }
            }
        }
        regions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn packed_goals_and_split_floors_make_the_cell() {
        // A corridor: the box splits it in two.
        let l = parse_xsb("t", "#######\n#@ $ .#\n#######\n")
            .unwrap()
            .remove(0);
        let floor: Vec<Cell> = l.open_cells().collect();
        let goal = l.goal_cells().next().unwrap();
        let mut f = Features::new(vec![goal], floor, l.cell_count());
        assert_eq!(f.cells(), 2 * REGION_CELLS);
        // Not packed, two regions.
        assert_eq!(f.cell(&l, l.initial_boxes()), REGION_CELLS - 2);
        // Packed: the box on the goal, one region.
        let mut boxes = vec![false; l.cell_count()];
        boxes[goal] = true;
        assert_eq!(f.cell(&l, &boxes), 2 * REGION_CELLS - 1);
    }
}
