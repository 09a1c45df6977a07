//! Every position a best-first search over pushes has stored (the plan finder's,
//! `pdr`'s and `astar`'s), in arrays indexed by node: the box cells, the name of the
//! player's place, the node it was reached from and how. A cell is stored as its rank
//! among the cells a row can hold, in one byte on levels of up to 256 floor cells (every
//! level of XSokoban), else two. A position is found again by its hash (Zobrist keys of
//! its boxes, marked by the player's name) in an open-addressing table of node ids,
//! which keeps no hashes: a node's hash is computed again from its boxes when the table
//! grows. With its arrays reserved ([`Arena::reserve`]) a node costs about 19 bytes
//! plus one per box and one for the player (the table at most 3/4 full).

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

/// The `entrance` that marks a [box macro](Step::box_macro).
const BOX_MACRO: u8 = u8::MAX;

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

    /// The box on `from` taken to `to` in `count` pushes by the way the plan finder's
    /// macro search finds (the direction of its first push is not kept).
    pub fn box_macro(from: Cell, to: Cell, count: u16) -> Step {
        Step {
            entrance: BOX_MACRO,
            ..Step::straight(from, Direction::ALL[0], to, count)
        }
    }

    /// For a goal macro, the index of its goal's entrance.
    pub fn goal_entrance(self) -> Option<usize> {
        (self.entrance > 0 && self.entrance != BOX_MACRO).then(|| self.entrance as usize - 1)
    }
}

/// An empty slot of the table (slots hold node ids plus one, so that a new table is
/// all zeros: memory the system hands out untouched).
const EMPTY: u32 = 0;

/// The positions a search stores before it makes room for all it may store
/// ([`Arena::reserve`]): a search that grows this far is likely to fill its share, and
/// one that stops short of it never asks the allocator for its whole share (mimalloc
/// touches some of every large block it hands out).
pub const RESERVE_AT: usize = 1 << 16;

/// The table's fill at most, in eighths: linear probing stays short up to about 3/4,
/// and each slot costs 5 bytes.
const FILL_EIGHTHS: usize = 6;

/// The stored positions.
pub struct Arena {
    /// Boxes per position (the boxes that can move).
    n: usize,
    /// How a row stores its cells.
    codec: Codec,
    /// Per node the codes of its `n` box cells and its player's name after them, `width`
    /// bytes each (one place in memory, so that finding a node touches one line).
    rows: Vec<u8>,
    parent: Vec<u32>,
    step: Vec<Step>,
    /// The table: node ids (plus one) by their hash, linear probing, at most
    /// [`FILL_EIGHTHS`] full; beside each slot eight bits of its node's hash, so that a
    /// probe seldom reads a node that is not the one looked for.
    slots: Vec<u32>,
    tags: Vec<u8>,
    /// The nodes [`Arena::reserve`] made room for: the table's final size.
    planned: usize,
    zobrist: Zobrist,
}

impl Arena {
    /// An empty arena for positions of `n` boxes on a level whose cells a row may hold
    /// (boxes' cells and players' names) are marked in `held`, one entry per cell.
    pub fn new(n: usize, held: &[bool]) -> Arena {
        Arena {
            n,
            codec: Codec::new(held),
            rows: Vec::new(),
            parent: Vec::new(),
            step: Vec::new(),
            slots: vec![EMPTY; 16],
            tags: vec![0; 16],
            planned: 0,
            zobrist: Zobrist::new(held.len()),
        }
    }

    /// The bytes a search that stores positions of `boxes` boxes in an arena whose
    /// rows hold the cells marked in `held` spends per position: `besides` for its
    /// node and the search's own arrays, and its row (the boxes' cells and the
    /// player's name).
    pub fn position_bytes(held: &[bool], boxes: usize, besides: usize) -> usize {
        besides + Arena::cell_bytes(held) * (boxes + 1)
    }

    /// The bytes a stored cell takes in an arena whose rows hold the cells marked in
    /// `held`.
    pub fn cell_bytes(held: &[bool]) -> usize {
        if held.iter().filter(|&&h| h).count() <= 256 {
            1
        } else {
            2
        }
    }

    /// Makes room for `positions` nodes in all: the arrays take that capacity at once
    /// (the system commits pages only as they fill), so that none doubles on the way
    /// (a doubling holds both copies for a moment), and the table grows to the size
    /// that holds them at most [`FILL_EIGHTHS`] full, not to the next power of two.
    pub fn reserve(&mut self, positions: usize) {
        let row_len = self.row_len();
        reserve_total(&mut self.rows, positions * row_len);
        reserve_total(&mut self.parent, positions);
        reserve_total(&mut self.step, positions);
        self.planned = self.planned.max(positions);
    }

    /// The table size that holds `positions` nodes.
    fn table_size(positions: usize) -> usize {
        (positions * 8 / FILL_EIGHTHS + 1).max(16)
    }

    /// The size of the table after the one of `size` slots: twice as large, or the
    /// planned size if that is at most four times as large.
    fn next_size(&self, size: usize) -> usize {
        let planned = Self::table_size(self.planned);
        if planned > size && planned <= 4 * size {
            planned
        } else {
            2 * size
        }
    }

    /// The bytes of a row: the `n` box cells and the player's name.
    fn row_len(&self) -> usize {
        (self.n + 1) * self.codec.width
    }

    /// The row of node `id`.
    fn row(&self, id: u32) -> &[u8] {
        let at = id as usize * self.row_len();
        &self.rows[at..at + self.row_len()]
    }

    /// The box cells of node `id`, sorted, without a copy.
    pub fn box_cells(&self, id: u32) -> impl Iterator<Item = u16> + '_ {
        let row = self.row(id);
        (0..self.n).map(move |k| self.codec.value(row, k))
    }

    /// The box cells of node `id`, sorted.
    pub fn boxes(&self, id: u32) -> Vec<u16> {
        self.box_cells(id).collect()
    }

    /// The hash of node `id`'s boxes alone (the searches' [`Zobrist`] keys: the same
    /// for every table of a level).
    pub fn box_hash(&self, id: u32) -> u64 {
        (self.box_cells(id)).fold(0, |h, c| h ^ self.zobrist.key(c as Cell))
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
        self.codec.value(self.row(id), self.n) as Cell
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

    /// The first slot to probe for `hash` (its high bits scaled to the table, of any
    /// size), and its tag (its low bits).
    fn home(&self, hash: u64) -> (usize, u8) {
        let slot = ((hash as u128 * self.slots.len() as u128) >> 64) as usize;
        (slot, hash as u8)
    }

    /// The slot after `slot`, wrapping around.
    fn next(&self, slot: usize) -> usize {
        if slot + 1 == self.slots.len() {
            0
        } else {
            slot + 1
        }
    }

    /// The node with these boxes and player name, if stored (`hash`: its full hash).
    pub fn find(&self, hash: u64, boxes: &[u16], player: Cell) -> Option<u32> {
        // The row looked for, encoded once (on the stack unless the row is long), so
        // that a probe compares bytes.
        let len = self.row_len();
        let (mut short, mut long) = ([0u8; 256], Vec::new());
        let row = if len <= short.len() {
            &mut short[..len]
        } else {
            long.resize(len, 0);
            &mut long[..]
        };
        if !self.codec.encode(boxes, player, row) {
            return None; // a cell no row holds
        }
        let (mut slot, tag) = self.home(hash);
        loop {
            let id = self.slots[slot];
            if id == EMPTY {
                return None;
            }
            if self.tags[slot] == tag && self.row(id - 1) == row {
                return Some(id - 1);
            }
            slot = self.next(slot);
        }
    }

    /// Stores a new node (`hash`: its full hash) and returns its id.
    pub fn add(&mut self, hash: u64, boxes: &[u16], player: Cell, parent: u32, step: Step) -> u32 {
        let id = self.len() as u32;
        let at = self.rows.len();
        self.rows.resize(at + self.row_len(), 0);
        let encoded = self.codec.encode(boxes, player, &mut self.rows[at..]);
        assert!(encoded, "a cell of the position is not one a row can hold");
        self.parent.push(parent);
        self.step.push(step);
        if self.len() * 8 > self.slots.len() * FILL_EIGHTHS {
            self.rehash(self.next_size(self.slots.len()));
        } else {
            self.place(hash, id);
        }
        id
    }

    /// Puts node `id` into the first free slot from its `hash`'s.
    fn place(&mut self, hash: u64, id: u32) {
        let (mut slot, tag) = self.home(hash);
        while self.slots[slot] != EMPTY {
            slot = self.next(slot);
        }
        self.slots[slot] = id + 1;
        self.tags[slot] = tag;
    }

    /// A table of `size` slots, every node placed again, its hash computed anew (the
    /// old table is freed first).
    fn rehash(&mut self, size: usize) {
        self.slots = Vec::new();
        self.tags = Vec::new();
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

/// How an arena's rows store cells: as codes, a cell's rank among the cells a row can
/// hold, in one byte when there are at most 256 of them, else two.
struct Codec {
    /// Bytes per code.
    width: usize,
    /// Per cell its code (`u16::MAX`: none), and per code its cell.
    code: Vec<u16>,
    cell: Vec<u16>,
}

impl Codec {
    /// The codes of the cells marked in `held`.
    fn new(held: &[bool]) -> Codec {
        let cell: Vec<u16> = (0..held.len())
            .filter(|&c| held[c])
            .map(|c| c as u16)
            .collect();
        let mut code = vec![u16::MAX; held.len()];
        for (k, &c) in cell.iter().enumerate() {
            code[c as usize] = k as u16;
        }
        Codec {
            width: Arena::cell_bytes(held),
            code,
            cell,
        }
    }

    /// The cell of the `k`-th code of `row`.
    fn value(&self, row: &[u8], k: usize) -> u16 {
        let code = match self.width {
            1 => row[k] as usize,
            _ => u16::from_le_bytes([row[2 * k], row[2 * k + 1]]) as usize,
        };
        self.cell[code]
    }

    /// Writes the codes of these boxes and player name into `row`; false if one of the
    /// cells has none.
    fn encode(&self, boxes: &[u16], player: Cell, row: &mut [u8]) -> bool {
        for (k, &c) in boxes.iter().chain(&[player as u16]).enumerate() {
            let code = self.code[c as usize];
            if code == u16::MAX {
                return false;
            }
            match self.width {
                1 => row[k] = code as u8,
                _ => row[2 * k..2 * k + 2].copy_from_slice(&code.to_le_bytes()),
            }
        }
        true
    }
}

/// Gives `v` a capacity of at least `total`, copying only its elements: a reallocation
/// would copy its whole old capacity (the allocator knows no length), and so touch
/// every page of a large reserve.
pub fn reserve_total<T: Copy>(v: &mut Vec<T>, total: usize) {
    if v.capacity() < total {
        let mut larger = Vec::with_capacity(total);
        larger.extend_from_slice(v);
        *v = larger;
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
        let mut arena = Arena::new(n, &[true; 64]);
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

    #[test]
    fn wide_levels_take_two_bytes_a_cell_and_a_reserved_table_takes_its_planned_size() {
        // 400 cells, 300 of which a row can hold: codes above 255 need two bytes.
        let cells = 400;
        let held: Vec<bool> = (0..cells).map(|c| c % 4 != 3).collect();
        assert_eq!(Arena::cell_bytes(&held), 2);
        assert_eq!(Arena::cell_bytes(&held[..300]), 1);
        let zobrist = Zobrist::new(cells);
        let mut arena = Arena::new(2, &held);
        let planned = 5_000;
        arena.reserve(planned);
        // Every pair of the first 100 cells a row holds (4 950), the player on a cell
        // above code 255.
        let usable: Vec<u16> = (0..cells as u16).filter(|&c| held[c as usize]).collect();
        let mut stored = Vec::new();
        for a in 0..100 {
            for b in a + 1..100 {
                let boxes = [usable[a], usable[b]];
                let player = usable[256 + (a + b) % 40] as Cell;
                let cells: Vec<Cell> = boxes.iter().map(|&b| b as Cell).collect();
                let hash = zobrist.marked(zobrist.of(&cells), player);
                let id = arena.add(hash, &boxes, player, 0, Step::START);
                stored.push((boxes, player, hash, id));
            }
        }
        for &(boxes, player, hash, id) in &stored {
            assert_eq!(arena.find(hash, &boxes, player), Some(id));
            assert_eq!(arena.boxes(id), boxes);
            assert_eq!(arena.player(id), player);
        }
        // The table grew straight to the size planned, not to a power of two.
        assert_eq!(arena.slots.len(), Arena::table_size(planned));
        assert!(!arena.slots.len().is_power_of_two());
    }
}
