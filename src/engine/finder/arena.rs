//! Every position a plan-finder search has stored, in arrays indexed by node: the box
//! cells, the player's region name, the node it was reached from and how. A position
//! is found again by its hash (Zobrist keys of its boxes, marked by the region name),
//! with a chain through the nodes of one hash.

use rustc_hash::FxHashMap;

use crate::engine::push_search::Push;
use crate::level::{Cell, Direction, Level};

/// How a node was reached: `count` pushes of the box on `from` in direction `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub from: u16,
    pub dir: u8,
    pub count: u16,
}

impl Step {
    /// The step of the start node (no push).
    pub const START: Step = Step {
        from: 0,
        dir: 0,
        count: 0,
    };

    /// The cell the box ended on.
    pub fn end(self, level: &Level) -> Cell {
        let dir = Direction::ALL[self.dir as usize];
        (0..self.count).fold(self.from as Cell, |c, _| level.neighbor(c, dir))
    }
}

/// The stored positions.
pub struct Arena {
    /// Boxes per position (the boxes that can move).
    n: usize,
    boxes: Vec<u16>,
    box_hash: Vec<u64>,
    player: Vec<u16>,
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
            player: Vec::new(),
            parent: Vec::new(),
            step: Vec::new(),
            next_same: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// The box cells of node `id`, sorted.
    pub fn boxes(&self, id: u32) -> &[u16] {
        let at = id as usize * self.n;
        &self.boxes[at..at + self.n]
    }

    /// The hash of node `id`'s boxes alone.
    pub fn box_hash(&self, id: u32) -> u64 {
        self.box_hash[id as usize]
    }

    /// The name of node `id`'s player region.
    pub fn player(&self, id: u32) -> Cell {
        self.player[id as usize] as Cell
    }

    /// How node `id` was reached.
    pub fn step(&self, id: u32) -> Step {
        self.step[id as usize]
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.player.len()
    }

    /// The node with these boxes and player name, if stored (`hash`: its full hash).
    pub fn find(&self, hash: u64, boxes: &[u16], player: Cell) -> Option<u32> {
        let mut id = *self.index.get(&hash)?;
        while id != u32::MAX {
            if self.player(id) == player && self.boxes(id) == boxes {
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
        self.box_hash.push(box_hash);
        self.player.push(player as u16);
        self.parent.push(parent);
        self.step.push(step);
        let before = self.index.insert(hash, id).unwrap_or(u32::MAX);
        self.next_same.push(before);
        id
    }

    /// The pushes from the start (node 0) to node `id`.
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
