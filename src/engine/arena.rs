//! Every position a best-first search over pushes has stored (the plan finder's,
//! `pdr`'s and `astar`'s), in arrays indexed by node: the box cells, the name of the player's place,
//! the node it was reached from and how. A position is found again by its hash
//! (Zobrist keys of its boxes, marked by the player's name) in an open-addressing
//! table of node ids, which keeps no hashes: a node's hash is computed again from its
//! boxes when the table grows. Each node costs about 30 bytes plus two per box
//! (the table at most half full).

use crate::engine::push_search::Push;
use crate::engine::table::Zobrist;
use crate::level::{Cell, Direction, Level};

/// How a node was reached: the box on `from` pushed in direction `dir` came to rest on
/// `to`, after `count` pushes (one, or several through a tunnel; on ice one push can
/// slide the box several cells). A goal macro's pushes in `dir` end on one of the
/// entrances of goal `to`, and that entrance's entry pushes (see
/// [`crate::analysis::GoalEntry`]) take the box on to the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The box's cell before the step.
    pub from: u16,
    /// The cell it came to rest on.
    pub to: u16,
    /// The direction's index in [`Direction::ALL`].
    pub dir: u8,
    /// For a goal macro, the index of its goal's entrance plus one; 0 for none.
    pub entrance: u8,
    /// The pushes the step counts (a goal macro's entry pushes included).
    pub count: u16,
}

impl Step {
    /// The step of the start node (no push).
    pub const START: Step = Step::straight(0, Direction::ALL[0], 0, 0);

    /// One push of the box on `from` in `dir`, coming to rest on `to`.
    pub fn push(from: Cell, dir: Direction, to: Cell) -> Step {
        Step::straight(from, dir, to, 1)
    }

    /// `count` pushes of the box on `from` in `dir`, coming to rest on `to`.
    pub const fn straight(from: Cell, dir: Direction, to: Cell, count: u16) -> Step {
        Step {
            from: from as u16,
            to: to as u16,
            dir: dir.index() as u8,
            entrance: 0,
            count,
        }
    }

    /// `straight` pushes of the box on `from` in `dir` onto entrance number `entrance`
    /// of goal `goal`, then its `entry` pushes on to the goal.
    pub fn goal_macro(
        from: Cell,
        dir: Direction,
        (straight, entry): (u16, u16),
        (goal, entrance): (Cell, u8),
    ) -> Step {
        Step {
            entrance: entrance + 1,
            ..Step::straight(from, dir, goal, straight + entry)
        }
    }

    /// The cell the box ended on.
    pub fn end(self) -> Cell {
        self.to as Cell
    }

    /// The direction of the step's first push.
    pub fn direction(self) -> Direction {
        Direction::ALL[self.dir as usize]
    }

    /// For a goal macro, the index of its goal's entrance.
    pub fn goal_entrance(self) -> Option<usize> {
        (self.entrance > 0).then(|| self.entrance as usize - 1)
    }
}

/// An empty slot of the table.
const EMPTY: u32 = u32::MAX;

/// The stored positions.
pub struct Arena {
    /// Boxes per position (the boxes that can move).
    n: usize,
    /// Per node its `n` box cells and its player's name after them (one place in
    /// memory, so that finding a node touches one line).
    boxes: Vec<u16>,
    parent: Vec<u32>,
    step: Vec<Step>,
    /// The table: node ids by their hash, linear probing, at most half full; beside
    /// each slot eight bits of its node's hash, so that a probe seldom reads a node
    /// that is not the one looked for.
    slots: Vec<u32>,
    tags: Vec<u8>,
    zobrist: Zobrist,
}

impl Arena {
    /// An empty arena for positions of `n` boxes on a level of `cells` cells.
    pub fn new(n: usize, cells: usize) -> Arena {
        Arena {
            n,
            boxes: Vec::new(),
            parent: Vec::new(),
            step: Vec::new(),
            slots: vec![EMPTY; 16],
            tags: vec![0; 16],
            zobrist: Zobrist::new(cells),
        }
    }

    /// The box cells of node `id`, sorted.
    pub fn boxes(&self, id: u32) -> &[u16] {
        let at = id as usize * (self.n + 1);
        &self.boxes[at..at + self.n]
    }

    /// The hash of node `id`'s boxes alone (the searches' [`Zobrist`] keys: the same
    /// for every table of a level).
    pub fn box_hash(&self, id: u32) -> u64 {
        (self.boxes(id).iter()).fold(0, |h, &c| h ^ self.zobrist.key(c as Cell))
    }

    /// The Zobrist keys of the level, which the searches hash their positions with.
    pub fn zobrist(&self) -> &Zobrist {
        &self.zobrist
    }

    /// The full hash of node `id`: its boxes marked by its player's name.
    fn hash(&self, id: u32) -> u64 {
        self.zobrist.marked(self.box_hash(id), self.player(id))
    }

    /// The name of node `id`'s player region.
    pub fn player(&self, id: u32) -> Cell {
        self.boxes[id as usize * (self.n + 1) + self.n] as Cell
    }

    /// How node `id` was reached.
    pub fn step(&self, id: u32) -> Step {
        self.step[id as usize]
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether no node is stored.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The first slot to probe for `hash`, and its tag.
    fn home(&self, hash: u64) -> (usize, u8) {
        ((hash as usize) & (self.slots.len() - 1), (hash >> 56) as u8)
    }

    /// The node with these boxes and player name, if stored (`hash`: its full hash).
    pub fn find(&self, hash: u64, boxes: &[u16], player: Cell) -> Option<u32> {
        let (mut slot, tag) = self.home(hash);
        let width = self.n + 1;
        loop {
            let id = self.slots[slot];
            if id == EMPTY {
                return None;
            }
            if self.tags[slot] == tag {
                let at = id as usize * width;
                let stored = &self.boxes[at..at + width];
                if stored[self.n] as Cell == player && &stored[..self.n] == boxes {
                    return Some(id);
                }
            }
            slot = (slot + 1) & (self.slots.len() - 1);
        }
    }

    /// Stores a new node (`hash`: its full hash) and returns its id.
    pub fn add(&mut self, hash: u64, boxes: &[u16], player: Cell, parent: u32, step: Step) -> u32 {
        let id = self.len() as u32;
        self.boxes.extend_from_slice(boxes);
        self.boxes.push(player as u16);
        self.parent.push(parent);
        self.step.push(step);
        if 2 * self.len() > self.slots.len() {
            self.grow();
        } else {
            self.place(hash, id);
        }
        id
    }

    /// Puts node `id` into the first free slot from its `hash`'s.
    fn place(&mut self, hash: u64, id: u32) {
        let (mut slot, tag) = self.home(hash);
        while self.slots[slot] != EMPTY {
            slot = (slot + 1) & (self.slots.len() - 1);
        }
        self.slots[slot] = id;
        self.tags[slot] = tag;
    }

    /// Doubles the table and places every node again, its hash computed anew.
    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        self.slots = vec![EMPTY; size];
        self.tags = vec![0; size];
        for id in 0..self.len() as u32 {
            self.place(self.hash(id), id);
        }
    }

    /// The node node `id` was reached from (the start's is itself).
    pub fn parent(&self, id: u32) -> u32 {
        self.parent[id as usize]
    }

    /// Makes node `id` reached from `parent` by `step` (a shorter way to it).
    pub fn reach_by(&mut self, id: u32, parent: u32, step: Step) {
        self.parent[id as usize] = parent;
        self.step[id as usize] = step;
    }

    /// The pushes from the start (node 0) to node `id`: a step of several pushes is
    /// one box pushed on in a straight line.
    pub fn pushes_to(&self, level: &Level, id: u32) -> Vec<Push> {
        self.pushes_with_entries(level, id, |_, _| &[])
    }

    /// The pushes from the start to node `id`, with `entry(goal, i)` the entry pushes
    /// of entrance `i` of `goal` (see [`Step::goal_macro`]).
    pub fn pushes_with_entries<'e>(
        &self,
        level: &Level,
        mut id: u32,
        entry: impl Fn(Cell, usize) -> &'e [Push],
    ) -> Vec<Push> {
        let mut steps = Vec::new();
        while id != 0 {
            steps.push(self.step(id));
            id = self.parent[id as usize];
        }
        let mut pushes = Vec::new();
        for s in steps.into_iter().rev() {
            let dir = s.direction();
            let entered = s.goal_entrance().map_or(&[][..], |i| entry(s.end(), i));
            let mut at = s.from as Cell;
            for _ in 0..s.count as usize - entered.len() {
                pushes.push((at, dir));
                at = level.neighbor(at, dir);
            }
            pushes.extend_from_slice(entered);
        }
        pushes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_found_again_after_the_table_grows() {
        let (n, cells) = (3, 64);
        let zobrist = Zobrist::new(cells);
        let hash = |boxes: &[u16], player: Cell| {
            let cells: Vec<Cell> = boxes.iter().map(|&b| b as Cell).collect();
            zobrist.marked(zobrist.of(&cells), player)
        };
        let mut arena = Arena::new(n, cells);
        // Every set of three cells below 20 with two player names: 2280 nodes, so the
        // table doubles many times.
        let mut stored = Vec::new();
        for a in 0..20u16 {
            for b in a + 1..20 {
                for c in b + 1..20 {
                    for player in [40, 41] {
                        let boxes = [a, b, c];
                        let id = arena.add(hash(&boxes, player), &boxes, player, 0, Step::START);
                        stored.push((boxes, player, id));
                    }
                }
            }
        }
        assert_eq!(arena.len(), stored.len());
        for (boxes, player, id) in stored {
            assert_eq!(arena.find(hash(&boxes, player), &boxes, player), Some(id));
            let cells: Vec<Cell> = boxes.iter().map(|&b| b as Cell).collect();
            assert_eq!(arena.box_hash(id), zobrist.of(&cells));
            assert_eq!(arena.player(id), player);
        }
        // A position not stored: a set with a cell above 20, or another player.
        assert_eq!(arena.find(hash(&[1, 2, 30], 40), &[1, 2, 30], 40), None);
        assert_eq!(arena.find(hash(&[1, 2, 3], 42), &[1, 2, 3], 42), None);
    }
}
