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
        let regions = self.regions(level, boxes, None).0;
        self.cell_of(boxes, regions)
    }

    /// The cell of the position with boxes on `boxes` whose floor they split into
    /// `regions` (from [`Features::regions_and_name`]).
    pub fn cell_of(&self, boxes: &[bool], regions: usize) -> usize {
        self.packed(boxes) * REGION_CELLS + (REGION_CELLS - regions.clamp(1, REGION_CELLS))
    }

    /// How many goals of the packing order the boxes on `boxes` fill, in order.
    pub fn packed(&self, boxes: &[bool]) -> usize {
        self.order.iter().take_while(|&&g| boxes[g]).count()
    }

    /// With the connectivity feature, the regions the boxes on `boxes` split the floor
    /// into and the name of the player's on `player` (its smallest cell, as
    /// [`crate::game::Region::fill`] names it), from one fill of the floor; `None`
    /// without the feature (or with the player off the floor). Only for floors without ice, where a region is the same
    /// from every cell.
    pub fn regions_and_name(
        &mut self,
        level: &Level,
        boxes: &[bool],
        player: Cell,
    ) -> Option<(usize, Cell)> {
        if self.floor.is_empty() {
            return None;
        }
        let (regions, name) = self.regions(level, boxes, Some(player));
        name.map(|name| (regions, name))
    }

    /// The regions the boxes split the floor into (1 without the feature) and, if a
    /// `player` is given, the smallest cell of the player's region. The floor is
    /// filled in cell order, so each region is entered at its smallest cell.
    fn regions(
        &mut self,
        level: &Level,
        boxes: &[bool],
        player: Option<Cell>,
    ) -> (usize, Option<Cell>) {
        if self.floor.is_empty() {
            return (1, None);
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let mut regions = 0;
        let mut name = None;
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
            if name.is_none() && player.is_some_and(|p| self.seen[p] == stamp) {
                name = Some(start);
            }
        }
        (regions, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Region, player_region};
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

    #[test]
    fn the_one_fill_names_the_players_region_as_the_region_fill_does() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
                .unwrap();
        for level in parse_xsb("microban", &text).unwrap().iter().take(40) {
            let floor: Vec<Cell> = (0..level.cell_count())
                .filter(|&c| player_region(level)[c])
                .collect();
            let mut f = Features::new(Vec::new(), floor.clone(), level.cell_count());
            let mut region = Region::new(level);
            let boxes = level.initial_boxes();
            for &player in floor.iter().filter(|&&c| !boxes[c]) {
                let (regions, name) = f.regions_and_name(level, boxes, player).unwrap();
                assert_eq!(
                    name,
                    region.fill(level, boxes, player),
                    "level {}",
                    level.number
                );
                assert_eq!(regions, f.regions(level, boxes, None).0);
            }
        }
        // Without the connectivity feature there is no fill to share.
        let level = parse_xsb("t", "#####\n#@$.#\n#####\n").unwrap().remove(0);
        let mut f = Features::new(Vec::new(), Vec::new(), level.cell_count());
        assert_eq!(f.regions_and_name(&level, level.initial_boxes(), 6), None);
    }
}
