//! The player's region: the one flood fill of the project.
//!
//! Every question "where can the player walk?" is answered here: the searches fill the
//! region of each position they meet, plans get their walks between pushes from it, and
//! the static analysis takes the open cells connected to the player from it. Walking
//! follows the rules engine: on ice a step slides ([`slide_end`]), so a region on ice is
//! the set of cells the player can come to rest on, which need not be symmetric.
//! The corral checks fill a corral with it too ([`Region::fill_cells`]). One question
//! is asked elsewhere: the plan finder's features label every region of the floor at
//! once and read each child's regions off the parent's labels (its `features.rs`)
//! instead of filling each child's.

use crate::game::rules::slide_end;
use crate::level::{Cell, Direction, Level};

/// How one step of the fill goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Steps {
    /// To any of the four neighbours that is not a wall and holds no box.
    Adjacent,
    /// As the rules move the player: onto a free neighbour, sliding on over ice.
    Walking,
}

/// A reusable flood fill over one level. Each fill gets a new stamp, so nothing needs
/// clearing between fills; the searches fill once per position they visit.
pub struct Region {
    steps: Steps,
    stamp_of: Vec<u32>,
    stamp: u32,
    /// Cells whose neighbours are still to look at: a queue (read from its head) where
    /// walks are wanted, a stack in the plain fill.
    queue: Vec<Cell>,
    /// For fills that record walks: the cell each reached cell was entered from, and
    /// the direction of that step.
    parent: Vec<(u32, Direction)>,
    /// For [`Region::name`] on ice: the steps of the fill backwards, as lists by the
    /// cell they lead to (each step: the cell it comes from and the next step of its
    /// list), the first step of each cell's list with the stamp it is valid for, and
    /// the stamps of the walk back.
    back: Vec<(Cell, u32)>,
    back_head: Vec<(u32, u32)>,
    back_stamp_of: Vec<u32>,
}

impl Region {
    /// A fill that walks as the rules move the player (slides on ice).
    pub fn new(level: &Level) -> Region {
        let steps = if level.has_ice() {
            Steps::Walking
        } else {
            Steps::Adjacent
        };
        Region::with_steps(level, steps)
    }

    /// A fill over plain adjacency, ice taken as floor: the cells anything could ever
    /// pass over (the static analysis's region, which must not miss a cell a box
    /// slides through).
    pub fn adjacency(level: &Level) -> Region {
        Region::with_steps(level, Steps::Adjacent)
    }

    fn with_steps(level: &Level, steps: Steps) -> Region {
        Region {
            steps,
            stamp_of: vec![0; level.cell_count()],
            stamp: 0,
            queue: Vec::new(),
            parent: Vec::new(),
            back: Vec::new(),
            back_head: Vec::new(),
            back_stamp_of: Vec::new(),
        }
    }

    /// Fills from `from` around `boxes` and returns the smallest cell reached, which
    /// names the region (on floor without ice, every cell of a region gives the same
    /// name).
    pub fn fill(&mut self, level: &Level, boxes: &[bool], from: Cell) -> Cell {
        self.flood(level, boxes, from, None, false).0
    }

    /// Fills from `from` around `boxes` (as [`Region::fill`]) and returns the name of the
    /// player's *place*: the smallest cell the player can walk to and back from. Walks
    /// cost nothing, so two players of one place have the same pushes ahead of them.
    /// Without ice every walk can be walked back and the place is the whole region (the
    /// name is [`Region::fill`]'s); on ice a slide can be one-way, and the place is the
    /// part of the fill from which `from` can be reached again.
    pub fn name(&mut self, level: &Level, boxes: &[bool], from: Cell) -> Cell {
        let smallest = self.fill(level, boxes, from);
        if self.steps == Steps::Adjacent {
            return smallest;
        }
        // The fill's queue holds every cell it reached; list its steps backwards, by
        // the cell each leads to, in linked lists: a sort would cost most of a
        // search's time on a big board of ice.
        const NONE: u32 = u32::MAX;
        let stamp = self.stamp;
        if self.back_stamp_of.len() != self.stamp_of.len() {
            self.back_stamp_of = vec![0; self.stamp_of.len()];
            self.back_head = vec![(0, NONE); self.stamp_of.len()];
        }
        self.back.clear();
        for &c in &self.queue {
            for dir in Direction::ALL {
                let n = level.neighbor(c, dir);
                if !level.is_wall(n) && !boxes[n] {
                    let to = slide_end(level, boxes, n, dir);
                    let (valid, first) = self.back_head[to];
                    let next = if valid == stamp { first } else { NONE };
                    self.back_head[to] = (stamp, self.back.len() as u32);
                    self.back.push((c, next));
                }
            }
        }
        self.back_stamp_of[from] = stamp;
        let mut stack = vec![from];
        let mut name = from;
        while let Some(c) = stack.pop() {
            name = name.min(c);
            let (valid, first) = self.back_head[c];
            let mut step = if valid == stamp { first } else { NONE };
            while step != NONE {
                let (before, next) = self.back[step as usize];
                if self.back_stamp_of[before] != stamp {
                    self.back_stamp_of[before] = stamp;
                    stack.push(before);
                }
                step = next;
            }
        }
        name
    }

    /// Fills from `from` around `boxes` (as [`Region::fill`]) and lists every cell
    /// reached, `from` first.
    pub fn fill_cells(&mut self, level: &Level, boxes: &[bool], from: Cell) -> &[Cell] {
        self.begin(std::iter::once(from));
        // The breadth-first loops keep every cell they reached in the queue.
        match self.steps {
            Steps::Adjacent => self.spread::<false>(level, boxes, None),
            Steps::Walking => self.spread::<true>(level, boxes, None),
        };
        &self.queue
    }

    /// Fills from every cell of `from` at once around `boxes`: the cells some cell of
    /// `from` reaches (read them with [`Region::contains`]).
    pub fn fill_from_all(
        &mut self,
        level: &Level,
        boxes: &[bool],
        from: impl Iterator<Item = Cell>,
    ) {
        self.begin(from);
        if self.queue.is_empty() {
            return;
        }
        match self.steps {
            Steps::Adjacent => self.spread_plain(level, boxes, None),
            Steps::Walking => self.spread::<true>(level, boxes, None),
        };
    }

    /// Whether `target` is in the region of `from` around `boxes`: a fill that stops
    /// as soon as it gets there (after which [`Region::contains`] says nothing).
    pub fn reaches(&mut self, level: &Level, boxes: &[bool], from: Cell, target: Cell) -> bool {
        self.flood(level, boxes, from, Some(target), false).1
    }

    /// A shortest walk (no pushes) from `from` to `target` around `boxes`, as the
    /// directions of its moves; `None` when the boxes wall `target` off.
    pub fn walk(
        &mut self,
        level: &Level,
        boxes: &[bool],
        from: Cell,
        target: Cell,
    ) -> Option<Vec<Direction>> {
        if !self.flood(level, boxes, from, Some(target), true).1 {
            return None;
        }
        let mut path = Vec::new();
        let mut at = target;
        while at != from {
            let (prev, dir) = self.parent[at];
            path.push(dir);
            at = prev as Cell;
        }
        path.reverse();
        Some(path)
    }

    /// Whether the last complete fill reached `cell`.
    pub fn contains(&self, cell: Cell) -> bool {
        self.stamp_of[cell] == self.stamp
    }

    /// The mask of the last complete fill.
    pub fn mask(&self) -> Vec<bool> {
        (0..self.stamp_of.len()).map(|c| self.contains(c)).collect()
    }

    /// Fills from `from` until the region is full or `target` is reached (recording
    /// parents if `record`); returns the smallest cell reached and whether `target` was.
    fn flood(
        &mut self,
        level: &Level,
        boxes: &[bool],
        from: Cell,
        target: Option<Cell>,
        record: bool,
    ) -> (Cell, bool) {
        self.begin(std::iter::once(from));
        if target == Some(from) {
            return (from, true);
        }
        if record && self.parent.len() != self.stamp_of.len() {
            self.parent = vec![(0, Direction::Left); self.stamp_of.len()];
        }
        // One loop per kind of step, so the searches' hot fill has no branch on it.
        match (self.steps, record) {
            (Steps::Adjacent, false) => self.spread_plain(level, boxes, target),
            (Steps::Adjacent, true) => self.spread::<false>(level, boxes, target),
            (Steps::Walking, false) => self.spread::<true>(level, boxes, target),
            (Steps::Walking, true) => self.spread::<true>(level, boxes, target),
        }
    }

    /// Starts a new fill from the cells `from` (each reached, each waiting).
    fn begin(&mut self, from: impl Iterator<Item = Cell>) {
        if self.stamp == u32::MAX {
            // After four billion fills, start the stamps again.
            self.stamp_of.fill(0);
            self.back_stamp_of.fill(0);
            self.back_head.fill((0, u32::MAX));
            self.stamp = 0;
        }
        self.stamp += 1;
        self.queue.clear();
        for c in from {
            if self.stamp_of[c] != self.stamp {
                self.stamp_of[c] = self.stamp;
                self.queue.push(c);
            }
        }
    }

    /// The fill on floor without ice when no walk is wanted: the order of the cells
    /// does not matter, so they wait on a stack (the searches' hot loop).
    fn spread_plain(
        &mut self,
        level: &Level,
        boxes: &[bool],
        target: Option<Cell>,
    ) -> (Cell, bool) {
        let stamp = self.stamp;
        let width = level.width();
        let mut smallest = self.queue[0];
        while let Some(c) = self.queue.pop() {
            smallest = smallest.min(c);
            for n in [c - 1, c + 1, c - width, c + width] {
                if self.stamp_of[n] != stamp && !level.is_wall(n) && !boxes[n] {
                    if target == Some(n) {
                        return (smallest.min(n), true);
                    }
                    self.stamp_of[n] = stamp;
                    self.queue.push(n);
                }
            }
        }
        (smallest, false)
    }

    /// The breadth-first loop of [`Region::flood`], from the queue as it stands.
    #[inline(never)]
    fn spread<const SLIDES: bool>(
        &mut self,
        level: &Level,
        boxes: &[bool],
        target: Option<Cell>,
    ) -> (Cell, bool) {
        let stamp = self.stamp;
        // Locals, so the loop keeps them in registers.
        let mut queue = std::mem::take(&mut self.queue);
        let stamp_of = &mut self.stamp_of[..];
        let parent = &mut self.parent[..];
        let width = level.width() as isize;
        // The neighbours in the order of Direction::ALL (a floor cell is never on the
        // grid's edge, so they exist).
        let offsets = [-1, -width, 1, width];
        let mut smallest = queue[0];
        let mut head = 0;
        let mut reached = false;
        'fill: while head < queue.len() {
            let c = queue[head];
            head += 1;
            smallest = smallest.min(c);
            for (dir, offset) in Direction::ALL.into_iter().zip(offsets) {
                let n = c.wrapping_add_signed(offset);
                if level.is_wall(n) || boxes[n] {
                    continue;
                }
                let to = if SLIDES {
                    slide_end(level, boxes, n, dir)
                } else {
                    n
                };
                if stamp_of[to] == stamp {
                    continue;
                }
                stamp_of[to] = stamp;
                if let Some(p) = parent.get_mut(to) {
                    *p = (c as u32, dir);
                }
                if target == Some(to) {
                    smallest = smallest.min(to);
                    reached = true;
                    break 'fill;
                }
                queue.push(to);
            }
        }
        self.queue = queue;
        (smallest, reached)
    }
}

/// The open cells connected to the player's start, boxes and ice taken as floor: the
/// only cells where anything can ever move.
pub fn player_region(level: &Level) -> Vec<bool> {
    let mut region = Region::adjacency(level);
    let no_boxes = vec![false; level.cell_count()];
    region.fill(level, &no_boxes, level.player());
    region.mask()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    #[test]
    fn reaches_agrees_with_a_full_fill() {
        // Two boxes wall the player into the left part of the corridor.
        let l = level("########\n#@ $  .#\n###$####\n  #.#\n  ###\n");
        let mut full = Region::new(&l);
        let mut early = Region::new(&l);
        full.fill(&l, l.initial_boxes(), l.player());
        for target in l.open_cells() {
            assert_eq!(
                early.reaches(&l, l.initial_boxes(), l.player(), target),
                full.contains(target),
                "cell {target}"
            );
        }
        assert_eq!(full.mask().iter().filter(|&&c| c).count(), 2);
    }

    #[test]
    fn a_fill_lists_the_cells_it_reaches() {
        let l = level("#######\n#@ $ .#\n#######\n");
        let mut boxes = vec![false; l.cell_count()];
        boxes[l.box_cells().next().unwrap()] = true;
        let mut region = Region::new(&l);
        let mut cells = region.fill_cells(&l, &boxes, l.player()).to_vec();
        cells.sort_unstable();
        let mut expected: Vec<Cell> = (0..l.cell_count())
            .filter(|&c| region.contains(c))
            .collect();
        expected.sort_unstable();
        assert_eq!(cells, expected);
        assert_eq!(cells.len(), 2);
    }

    #[test]
    fn a_fill_from_several_cells_reaches_what_each_reaches() {
        // A box splits the corridor in two; one seed on each side.
        let l = level("#########\n#@  $ ..#\n#  $    #\n#########\n");
        let mut boxes = vec![false; l.cell_count()];
        // The board's cells only: the padding round it has no (row, column).
        let at = |r: usize, c: usize| {
            (0..l.cell_count())
                .filter(|&x| x >= l.width() && x % l.width() >= 1)
                .find(|&x| l.row_col(x) == (r, c))
                .unwrap()
        };
        for c in [at(1, 4), at(2, 3)] {
            boxes[c] = true;
        }
        let (left, right) = (at(1, 1), at(1, 7));
        let mut all = Region::adjacency(&l);
        all.fill_from_all(&l, &boxes, [left, right].into_iter());
        for seed in [left, right] {
            let mut one = Region::adjacency(&l);
            one.fill(&l, &boxes, seed);
            let mask = one.mask();
            assert!((0..l.cell_count()).all(|c| !mask[c] || all.contains(c)));
        }
        assert!(all.contains(at(2, 1)) && all.contains(at(2, 7)));
    }

    #[test]
    fn walks_are_shortest_and_slide_on_ice() {
        let l = level("#######\n#@    #\n# $  .#\n#     #\n#######\n");
        let mut r = Region::new(&l);
        let b = l.box_cells().next().unwrap();
        let below = l.neighbor(b, Direction::Down);
        let walk = r.walk(&l, l.initial_boxes(), l.player(), below).unwrap();
        assert_eq!(walk.len(), 3);
        // On ice one move slides to the far end.
        let l = level("########\n#@~~~ $.#\n########\n");
        let mut r = Region::new(&l);
        let end = l.neighbor(l.player(), Direction::Right) + 3;
        assert_eq!(
            r.walk(&l, l.initial_boxes(), l.player(), end),
            Some(vec![Direction::Right])
        );
        // The ice cells passed over are not places to stop.
        r.fill(&l, l.initial_boxes(), l.player());
        assert!(!r.contains(l.neighbor(l.player(), Direction::Right)));
        // The analysis's region takes ice as floor.
        assert!(player_region(&l)[l.neighbor(l.player(), Direction::Right)]);
    }
}
