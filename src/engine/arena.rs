//! Every position a best-first search over pushes has stored (the plan finder's and
//! `pdr`'s), in arrays indexed by node: the box cells, the name of the player's place,
//! the node it was reached from and how. A position is found again by its hash
//! (Zobrist keys of its boxes, marked by the player's name), with a chain through the
//! nodes of one hash. Each node costs about 40 bytes plus two per box.

use rustc_hash::FxHashMap;

use crate::engine::push_search::Push;
use crate::level::{Cell, Direction, Level};

/// How a node was reached: the box on `from` pushed in direction `dir` came to rest on
/// `to`, after `count` pushes (one, or several through a tunnel; on ice one push can
/// slide the box several cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The box's cell before the step.
    pub from: u16,
    /// The cell it came to rest on.
    pub to: u16,
    /// The direction's index in [`Direction::ALL`].
    pub dir: u8,
    /// The pushes the step counts.
    pub count: u16,
}

impl Step {
    /// The step of the start node (no push).
    pub const START: Step = Step {
        from: 0,
        to: 0,
        dir: 0,
        count: 0,
    };

    /// One push of the box on `from` in `dir`, coming to rest on `to`.
    pub fn push(from: Cell, dir: Direction, to: Cell) -> Step {
        Step {
            from: from as u16,
            to: to as u16,
            dir: dir.index() as u8,
            count: 1,
        }
    }

    /// The cell the box ended on.
    pub fn end(self) -> Cell {
        self.to as Cell
    }
}

/// The stored positions.
pub struct Arena {
    /// Boxes per position (the boxes that can move).
    n: usize,
    /// Per node its `n` box cells and its player's name after them (one place in
    /// memory, so that finding a node touches one line).
    boxes: Vec<u16>,
    box_hash: Vec<u64>,
    parent: Vec<u32>,
    step: Vec<Step>,
    /// The next node with the same hash, or `u32::MAX`.
    next_same: Vec<u32>,
    index: FxHashMap<u64, u32>,
}

impl Arena {
    /// An empty arena for positions of `n` boxes.
    pub fn new(n: usize) -> Arena {
        Arena {
            n,
            boxes: Vec::new(),
            box_hash: Vec::new(),
            parent: Vec::new(),
            step: Vec::new(),
            next_same: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// The box cells of node `id`, sorted.
    pub fn boxes(&self, id: u32) -> &[u16] {
        let at = id as usize * (self.n + 1);
        &self.boxes[at..at + self.n]
    }

    /// The hash of node `id`'s boxes alone.
    pub fn box_hash(&self, id: u32) -> u64 {
        self.box_hash[id as usize]
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

    /// The node with these boxes and player name, if stored (`hash`: its full hash).
    pub fn find(&self, hash: u64, boxes: &[u16], player: Cell) -> Option<u32> {
        let mut id = *self.index.get(&hash)?;
        let width = self.n + 1;
        while id != u32::MAX {
            let at = id as usize * width;
            let stored = &self.boxes[at..at + width];
            if stored[self.n] as Cell == player && &stored[..self.n] == boxes {
                return Some(id);
            }
            id = self.next_same[id as usize];
        }
        None
    }

    /// Stores a new node and returns its id.
    pub fn add(
        &mut self,
        (hash, box_hash): (u64, u64),
        boxes: &[u16],
        player: Cell,
        parent: u32,
        step: Step,
    ) -> u32 {
        let id = self.len() as u32;
        self.boxes.extend_from_slice(boxes);
        self.boxes.push(player as u16);
        self.box_hash.push(box_hash);
        self.parent.push(parent);
        self.step.push(step);
        let before = self.index.insert(hash, id).unwrap_or(u32::MAX);
        self.next_same.push(before);
        id
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
    pub fn pushes_to(&self, level: &Level, mut id: u32) -> Vec<Push> {
        let mut steps = Vec::new();
        while id != 0 {
            steps.push(self.step(id));
            id = self.parent[id as usize];
        }
        let mut pushes = Vec::new();
        for s in steps.into_iter().rev() {
            let dir = Direction::ALL[s.dir as usize];
            let mut at = s.from as Cell;
            for _ in 0..s.count {
                pushes.push((at, dir));
                at = level.neighbor(at, dir);
            }
        }
        pushes
    }
}
