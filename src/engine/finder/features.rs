//! The features the plan finder files positions under (as FESS does): how many goals
//! of the packing order are filled, in order, and (with the `connectivity` technique,
//! off by default) how many regions the boxes split the floor into. More packed goals
//! and fewer regions are more advanced.
//!
//! The same regions name a child's player region (by its smallest cell), which is
//! part of the child's key, so every child asks for them, stored before or not. They
//! are read off the labelled regions of the parent: freeing the box's old cell joins
//! the regions round it; its new cell splits nothing when the open cells round it are
//! joined round it, and when they form two runs two searches from the runs, taken in
//! turns, tell whether they meet (most often the part that is cut off is small). The
//! whole floor is filled only when the new cell was a region's smallest cell, when it
//! has three or four runs round it, or when the player is left in the part that was
//! not searched to its end and that part's smallest cell was cut off.

use crate::analysis::PackingStep;
use crate::level::{Cell, Direction, Level};

/// Region counts the feature tells apart (1, 2, 3, and 4 or more).
pub const REGION_CELLS: usize = 4;

/// The feature of positions, with its buffers.
pub struct Features {
    /// The goals in the order to fill them (empty: no packing feature).
    order: Vec<Cell>,
    /// By goal of the order, as bits over the order, the goals it requires filled
    /// before it counts as packed (see [`Features::with_requires`]); empty: each
    /// goal requires all before it.
    requires: Vec<u128>,
    /// Whether the regions of the floor are a feature (`connectivity`).
    connectivity: bool,
    /// The floor of the player's region.
    floor: Vec<Cell>,
    /// The cells each of [`Features::two_fronts`]'s searches has seen (by stamp).
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<Cell>,
    other: Vec<Cell>,
    /// The regions of the position being expanded.
    parent: Labels,
    /// The regions of a position filled whole.
    scratch: Labels,
}

/// The regions of one position: each open cell's region and each region's smallest
/// cell. A child (one box moved) is read off them with a look at the cells round the
/// box's new cell, instead of a fill of the floor for every child.
struct Labels {
    /// `seen[c] == stamp`: `c` is open and `label[c]` is its region.
    seen: Vec<u32>,
    stamp: u32,
    label: Vec<u32>,
    /// By region, its smallest cell.
    smallest: Vec<Cell>,
}

impl Labels {
    /// No labels yet, on a level of `cells` cells.
    fn new(cells: usize) -> Labels {
        Labels {
            seen: vec![0; cells],
            stamp: 0,
            label: vec![0; cells],
            smallest: Vec::new(),
        }
    }

    /// Labels the regions that the boxes on `boxes` split `floor` into (`stack` is a
    /// buffer). The floor is taken in cell order, so each region is entered at its
    /// smallest cell.
    fn fill(&mut self, level: &Level, boxes: &[bool], floor: &[Cell], stack: &mut Vec<Cell>) {
        self.stamp += 1;
        self.smallest.clear();
        let stamp = self.stamp;
        for &start in floor {
            if boxes[start] || self.seen[start] == stamp {
                continue;
            }
            let region = self.smallest.len() as u32;
            self.smallest.push(start);
            self.seen[start] = stamp;
            self.label[start] = region;
            stack.push(start);
            while let Some(c) = stack.pop() {
                for d in Direction::ALL {
                    let n = level.neighbor(c, d);
                    if !level.is_wall(n) && !boxes[n] && self.seen[n] != stamp {
                        self.seen[n] = stamp;
                        self.label[n] = region;
                        stack.push(n);
                    }
                }
            }
        }
    }

    /// The region of `cell` if it is open.
    fn of(&self, cell: Cell) -> Option<u32> {
        (self.seen[cell] == self.stamp).then(|| self.label[cell])
    }
}

impl Features {
    /// Features by the packing `order` (empty for none) and, with `connectivity`, the
    /// regions of `floor`, on a level of `cells` cells.
    pub fn new(order: Vec<Cell>, floor: Vec<Cell>, connectivity: bool, cells: usize) -> Features {
        Features {
            order,
            requires: Vec::new(),
            connectivity,
            floor,
            seen: vec![0; cells],
            stamp: 0,
            stack: Vec::new(),
            other: Vec::new(),
            parent: Labels::new(cells),
            scratch: Labels::new(cells),
        }
    }

    /// The same features, but a goal counts as packed once the goals the packing
    /// `plan` says it [requires](PackingStep::requires) are filled, not all the goals
    /// before it: goals that do not shut each other off can be filled in any order.
    /// The plan must be the one of the features' order.
    pub fn with_requires(mut self, plan: &[PackingStep]) -> Features {
        if plan.len() > u128::BITS as usize {
            return self; // (no level orders so many goals: see MAX_ORDERED_GOALS)
        }
        let index = |g: &Cell| plan.iter().position(|s| s.goal == *g);
        self.requires = (plan.iter())
            .map(|s| (s.requires.iter().filter_map(index)).fold(0, |m, j| m | 1 << j))
            .collect();
        self
    }

    /// How many cells there are (the most advanced is the last).
    pub fn cells(&self) -> usize {
        (self.order.len() + 1) * REGION_CELLS
    }

    /// The cell of the position with boxes on `boxes` (a mask).
    pub fn cell(&mut self, level: &Level, boxes: &[bool]) -> usize {
        let regions = if self.connectivity {
            self.regions(level, boxes, None).0
        } else {
            1
        };
        self.cell_of(boxes, regions)
    }

    /// The cell of the position with boxes on `boxes` whose floor they split into
    /// `regions` (from [`Features::child_regions`]).
    pub fn cell_of(&self, boxes: &[bool], regions: usize) -> usize {
        let regions = if self.connectivity { regions } else { 1 };
        self.progress(boxes) * REGION_CELLS + (REGION_CELLS - regions.clamp(1, REGION_CELLS))
    }

    /// How many regions the boxes on `boxes` split the floor into (with or without
    /// the connectivity feature).
    pub fn region_count(&mut self, level: &Level, boxes: &[bool]) -> usize {
        self.regions(level, boxes, None).0
    }

    /// How many goals of the packing order the boxes on `boxes` fill, in order.
    pub fn packed(&self, boxes: &[bool]) -> usize {
        self.order.iter().take_while(|&&g| boxes[g]).count()
    }

    /// How many goals of the packing order the boxes on `boxes` fill whose required
    /// goals are filled too: the goals filled in order, when no goal was told apart
    /// from those before it.
    fn progress(&self, boxes: &[bool]) -> usize {
        if self.requires.is_empty() {
            return self.packed(boxes);
        }
        let filled = (self.order.iter().enumerate())
            .filter(|&(_, &g)| boxes[g])
            .fold(0u128, |m, (j, _)| m | 1 << j);
        (self.requires.iter().enumerate())
            .filter(|&(j, &needs)| filled & (1 << j) != 0 && needs & !filled == 0)
            .count()
    }

    /// Labels the regions of the position with boxes on `boxes`, the parent of the
    /// children [`Features::child_regions`] is asked about. Only for floors without
    /// ice, where a region is the same from every cell.
    pub fn label(&mut self, level: &Level, boxes: &[bool]) {
        (self.parent).fill(level, boxes, &self.floor, &mut self.stack);
    }

    /// The regions the floor splits into after the box on `from` of the position last
    /// [labelled](Features::label) moved to `to` (the child laid out in `boxes`), and
    /// the name of the player's region with the player on `player` (its smallest
    /// cell, as [`crate::game::Region::fill`] names it). Read off the parent's
    /// regions; a fill only when the box's new cell may split its region or was its
    /// smallest cell.
    pub fn child_regions(
        &mut self,
        level: &Level,
        boxes: &[bool],
        (from, to): (Cell, Cell),
        player: Cell,
    ) -> (usize, Cell) {
        if let Some(answer) = self.read_off(level, boxes, (from, to), player) {
            return answer;
        }
        let (regions, name) = self.regions(level, boxes, Some(player));
        (regions, name.expect("the player stands on the floor"))
    }

    /// [`Features::child_regions`] from the parent's labels, `None` when that takes a
    /// fill. The move is two steps: freeing `from` joins the regions round it into
    /// one; filling `to` leaves its region whole if the open cells round `to` are
    /// joined round it (or, when they form two runs, if two searches from the runs
    /// meet), and keeps the region's name unless `to` was its smallest cell.
    fn read_off(
        &mut self,
        level: &Level,
        boxes: &[bool],
        (from, to): (Cell, Cell),
        player: Cell,
    ) -> Option<(usize, Cell)> {
        let labels = &self.parent;
        let count = labels.smallest.len();
        if from == to {
            return Some((count, labels.smallest[labels.of(player)? as usize]));
        }
        let mut joined = [0u32; 4];
        let mut m = 0;
        for d in Direction::ALL {
            if let Some(r) = labels.of(level.neighbor(from, d))
                && !joined[..m].contains(&r)
            {
                joined[m] = r;
                m += 1;
            }
        }
        let joined = &joined[..m];
        let joined_smallest = (joined.iter())
            .map(|&r| labels.smallest[r as usize])
            .fold(from, Cell::min);
        let name = |c: Cell| match labels.of(c) {
            _ if c == from => Some(joined_smallest),
            Some(r) if joined.contains(&r) => Some(joined_smallest),
            Some(r) => Some(labels.smallest[r as usize]),
            None => None,
        };
        let (region, name) = (name(to)?, name(player)?);
        // The `m` regions round `from` become one (with none, `from` is a new one).
        let count = count + 1 - m;
        if region == to {
            return None;
        }
        let (runs, k) = runs_round(level, boxes, to);
        match k {
            0 | 1 => Some((count, name)),
            2 => match self.two_fronts(level, boxes, runs[0], runs[1]) {
                None => Some((count, name)),
                // `to` split its region: one part is known cell by cell.
                Some((part, smallest)) => {
                    if self.seen[player] == part {
                        Some((count + 1, smallest))
                    } else if name == region && self.seen[region] == part {
                        // The player is in the other part, whose smallest cell is
                        // not known.
                        None
                    } else {
                        Some((count + 1, name))
                    }
                }
            },
            _ => None,
        }
    }

    /// Searches from `a` and from `b` in turns, one cell at a time: `None` when they
    /// meet, else the stamp in `seen` of the side whose search ran out (its cells,
    /// all of a region) and that region's smallest cell.
    fn two_fronts(
        &mut self,
        level: &Level,
        boxes: &[bool],
        a: Cell,
        b: Cell,
    ) -> Option<(u32, Cell)> {
        self.stamp += 2;
        let sides = [self.stamp - 1, self.stamp];
        let mut stacks = [
            std::mem::take(&mut self.stack),
            std::mem::take(&mut self.other),
        ];
        let mut smallest = [a, b];
        for (s, start) in [a, b].into_iter().enumerate() {
            stacks[s].clear();
            stacks[s].push(start);
            self.seen[start] = sides[s];
        }
        let mut answer = None;
        'search: for s in (0..2).cycle() {
            let Some(c) = stacks[s].pop() else {
                answer = Some((sides[s], smallest[s]));
                break;
            };
            for d in Direction::ALL {
                let n = level.neighbor(c, d);
                if level.is_wall(n) || boxes[n] || self.seen[n] == sides[s] {
                    continue;
                }
                if self.seen[n] == sides[1 - s] {
                    break 'search;
                }
                self.seen[n] = sides[s];
                smallest[s] = smallest[s].min(n);
                stacks[s].push(n);
            }
        }
        // The fills that use the stacks next expect them empty.
        let [mut stack, mut other] = stacks;
        stack.clear();
        other.clear();
        (self.stack, self.other) = (stack, other);
        answer
    }

    /// The regions the boxes on `boxes` split the floor into and, if a `player` is
    /// given, the name of the player's region, from a fill of the whole floor.
    fn regions(
        &mut self,
        level: &Level,
        boxes: &[bool],
        player: Option<Cell>,
    ) -> (usize, Option<Cell>) {
        let labels = &mut self.scratch;
        labels.fill(level, boxes, &self.floor, &mut self.stack);
        let name = player
            .and_then(|p| labels.of(p))
            .map(|r| labels.smallest[r as usize]);
        (labels.smallest.len(), name)
    }
}

/// The runs of open cells round `cell` (not walls, no box on `boxes`): two open
/// neighbours on adjacent sides are joined through the corner cell between them. One
/// open neighbour of each run, and how many runs there are (at most one: a box on
/// `cell` splits nothing).
fn runs_round(level: &Level, boxes: &[bool], cell: Cell) -> ([Cell; 4], usize) {
    let open = |c: Cell| !level.is_wall(c) && !boxes[c];
    // The sides in turn round the cell, each joined to the next through their corner.
    let sides = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];
    let side = |k: usize| level.neighbor(cell, sides[k % 4]);
    let linked = |k: usize| {
        open(side(k)) && open(side(k + 1)) && open(level.neighbor(side(k), sides[(k + 1) % 4]))
    };
    let Some(start) = (0..4).find(|&k| open(side(k)) && !linked((k + 3) % 4)) else {
        // Every open side is linked to the one before: none open, or a closed ring.
        return match (0..4).find(|&k| open(side(k))) {
            Some(k) => ([side(k); 4], 1),
            None => ([0; 4], 0),
        };
    };
    // From a side that starts a run, each open side not linked to the one before
    // starts another.
    let mut runs = [0; 4];
    let mut k = 0;
    for i in start..start + 4 {
        if open(side(i)) && (i == start || !linked(i - 1)) {
            runs[k] = side(i);
            k += 1;
        }
    }
    (runs, k)
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
        let mut f = Features::new(vec![goal], floor, true, l.cell_count());
        assert_eq!(f.cells(), 2 * REGION_CELLS);
        // Not packed, two regions.
        assert_eq!(f.cell(&l, l.initial_boxes()), REGION_CELLS - 2);
        // Packed: the box on the goal, one region.
        let mut boxes = vec![false; l.cell_count()];
        boxes[goal] = true;
        assert_eq!(f.cell(&l, &boxes), 2 * REGION_CELLS - 1);
    }

    #[test]
    fn a_goal_counts_as_packed_once_the_goals_it_requires_are_filled() {
        // Three goals at the end of a corridor, and a fourth apart from them.
        let text = "#########\n#...   .#\n###$$$$ #\n#   @   #\n#########\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let region = player_region(&level);
        let never = crate::stop::Stop::never();
        let plan = crate::analysis::packing_plan_with_requires(&level, &region, &never);
        let order: Vec<Cell> = plan.iter().map(|s| s.goal).collect();
        let floor: Vec<Cell> = level.open_cells().collect();
        let strict = Features::new(order.clone(), floor.clone(), false, level.cell_count());
        let loose = Features::new(order.clone(), floor, false, level.cell_count());
        let loose = loose.with_requires(&plan);
        let at = |c: usize| *order.iter().find(|&&g| level.row_col(g).1 == c).unwrap();
        // The deepest goal of the corridor comes first in the order; the goal apart,
        // filled alone, is progress too.
        assert_eq!(order[0], at(1));
        let mut boxes = vec![false; level.cell_count()];
        boxes[at(7)] = true;
        assert_eq!((strict.progress(&boxes), loose.progress(&boxes)), (0, 1));
        // The corridor's entrance counts only once the goals behind it are filled.
        boxes[at(3)] = true;
        assert_eq!(loose.progress(&boxes), 1);
        boxes[at(1)] = true;
        assert_eq!((strict.progress(&boxes), loose.progress(&boxes)), (1, 2));
        boxes[at(2)] = true;
        assert_eq!((strict.progress(&boxes), loose.progress(&boxes)), (4, 4));
    }

    /// Random positions of `level`'s boxes on its floor, from a small generator.
    fn random_layouts(level: &Level, floor: &[Cell], count: usize, seed: u64) -> Vec<Vec<bool>> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let boxes = level.box_cells().filter(|b| floor.contains(b)).count();
        (0..count)
            .map(|_| {
                let mut mask = level.initial_boxes().to_vec();
                for &c in floor {
                    mask[c] = false;
                }
                let mut placed = 0;
                while placed < boxes.min(floor.len() - 1) {
                    let c = floor[next() % floor.len()];
                    if !mask[c] {
                        mask[c] = true;
                        placed += 1;
                    }
                }
                mask
            })
            .collect()
    }

    #[test]
    fn a_childs_regions_read_off_its_parent_equal_a_fill() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
                .unwrap();
        let mut checked = 0;
        for level in parse_xsb("microban", &text).unwrap().iter().take(60) {
            let region = player_region(level);
            let floor: Vec<Cell> = (0..level.cell_count()).filter(|&c| region[c]).collect();
            let mut f = Features::new(Vec::new(), floor.clone(), true, level.cell_count());
            let mut fill = Region::new(level);
            for mut mask in random_layouts(level, &floor, 6, level.number as u64) {
                f.label(level, &mask);
                // Every box moved to every open cell, the player on every open cell.
                let boxes: Vec<Cell> = floor.iter().copied().filter(|&c| mask[c]).collect();
                for &from in &boxes {
                    let open: Vec<Cell> = floor.iter().copied().filter(|&c| !mask[c]).collect();
                    for &to in &open {
                        mask[from] = false;
                        mask[to] = true;
                        let expected = f.regions(level, &mask, None).0;
                        let players = floor.iter().copied().filter(|&c| !mask[c]);
                        for player in players.collect::<Vec<_>>() {
                            let got = f.child_regions(level, &mask, (from, to), player);
                            let name = fill.fill(level, &mask, player);
                            assert_eq!(
                                got,
                                (expected, name),
                                "level {} from {from} to {to} player {player} boxes {:?}",
                                level.number,
                                floor.iter().filter(|&&c| mask[c]).collect::<Vec<_>>()
                            );
                            checked += 1;
                        }
                        mask[to] = false;
                        mask[from] = true;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
