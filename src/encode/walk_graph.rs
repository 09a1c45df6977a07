//! The graph the player walks on inside one step of the layered `pushes` encoding.
//!
//! A cell that may hold a box at the step is a node of its own: it is free exactly when
//! its `box_at` is false. Cells that cannot hold a box then (dead squares, cells no box
//! reaches in so few pushes) are always free, so each connected set of them is one node:
//! the player who reaches one of its cells reaches all of them. The breadth-first layers
//! run over these nodes, so a board whose corridors and corners are dead needs far fewer
//! layer variables, and fewer layers, than one layer per cell over every cell.

use crate::level::{Cell, Direction, Level};

/// The walking graph of one step.
#[derive(Clone, Debug)]
pub struct WalkGraph {
    /// The node of each cell of the region (`usize::MAX` outside it).
    node_of: Vec<usize>,
    /// Per node: the cell, when the node is a cell that may hold a box; `None` for a set
    /// of always-free cells.
    box_cell: Vec<Option<Cell>>,
    /// Per node: its neighbouring nodes, each once.
    adjacent: Vec<Vec<usize>>,
}

impl WalkGraph {
    /// The graph over `region`, where `may_hold_box(c)` says whether a box can stand on
    /// region cell `c` at the step.
    pub fn new(level: &Level, region: &[bool], may_hold_box: impl Fn(Cell) -> bool) -> WalkGraph {
        let n = level.cell_count();
        let mut node_of = vec![usize::MAX; n];
        let mut box_cell = Vec::new();
        for c in 0..n {
            if !region[c] || node_of[c] != usize::MAX {
                continue;
            }
            let node = box_cell.len();
            node_of[c] = node;
            if may_hold_box(c) {
                box_cell.push(Some(c));
                continue;
            }
            box_cell.push(None);
            // Flood the always-free cells connected to c into the same node.
            let mut stack = vec![c];
            while let Some(x) = stack.pop() {
                for d in Direction::ALL {
                    let y = level.neighbor(x, d);
                    if region[y] && node_of[y] == usize::MAX && !may_hold_box(y) {
                        node_of[y] = node;
                        stack.push(y);
                    }
                }
            }
        }
        let mut adjacent = vec![Vec::new(); box_cell.len()];
        for c in 0..n {
            if node_of[c] == usize::MAX {
                continue;
            }
            for d in Direction::ALL {
                let m = level.neighbor(c, d);
                let (a, b) = (node_of[c], node_of[m]);
                if region[m] && a != b && !adjacent[a].contains(&b) {
                    adjacent[a].push(b);
                }
            }
        }
        WalkGraph {
            node_of,
            box_cell,
            adjacent,
        }
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.box_cell.len()
    }

    /// Whether the region is empty.
    pub fn is_empty(&self) -> bool {
        self.box_cell.is_empty()
    }

    /// The node of region cell `cell`, `None` outside the region.
    pub fn node(&self, cell: Cell) -> Option<usize> {
        let node = self.node_of[cell];
        (node != usize::MAX).then_some(node)
    }

    /// The cell of `node` if it may hold a box, `None` if it is always free.
    pub fn box_cell(&self, node: usize) -> Option<Cell> {
        self.box_cell[node]
    }

    /// The nodes next to `node`.
    pub fn adjacent(&self, node: usize) -> &[usize] {
        &self.adjacent[node]
    }

    /// Breadth-first layers that reach every node the player can reach with `boxes`
    /// boxes on the board: a shortest walk visits distinct free nodes, and the boxes
    /// fill as many nodes.
    pub fn layers(&self, boxes: usize) -> usize {
        self.len().saturating_sub(boxes).saturating_sub(1)
    }

    /// The most nodes of an induced path (one with no edge between two of its nodes
    /// that are not next on it), or `None` when the search needs more than `budget`
    /// extensions of a path (open rooms have very many induced paths).
    ///
    /// It bounds every shortest walk: a shortest path among the free nodes is induced
    /// in the free nodes' subgraph (a chord would shorten it), and so in the whole
    /// graph. A step's graph merges more cells than a graph whose box cells include
    /// the step's, which only shortens walks, so the bound of the larger graph holds
    /// at every step.
    pub fn longest_induced_path(&self, budget: u64) -> Option<usize> {
        let mut search = InducedPaths {
            graph: self,
            on_path: vec![false; self.len()],
            touching: vec![0; self.len()],
            best: 0,
            budget,
        };
        for start in 0..self.len() {
            if !search.extend_from(start, 1) {
                return None;
            }
        }
        Some(search.best)
    }
}

/// Depth-first search over induced paths.
struct InducedPaths<'a> {
    graph: &'a WalkGraph,
    on_path: Vec<bool>,
    /// Per node: how many nodes of the path are next to it.
    touching: Vec<u32>,
    best: usize,
    budget: u64,
}

impl InducedPaths<'_> {
    /// Puts `node` at the end of the path (of `len` nodes with it) and tries every
    /// induced extension; false when the budget ran out.
    fn extend_from(&mut self, node: usize, len: usize) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        self.best = self.best.max(len);
        self.on_path[node] = true;
        for &m in self.graph.adjacent(node) {
            self.touching[m] += 1;
        }
        let mut complete = true;
        for &next in self.graph.adjacent(node) {
            // Next to the path only through its end: no chord.
            if !self.on_path[next] && self.touching[next] == 1 && !self.extend_from(next, len + 1) {
                complete = false;
                break;
            }
        }
        for &m in self.graph.adjacent(node) {
            self.touching[m] -= 1;
        }
        self.on_path[node] = false;
        complete
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn graph(rows: &str, may_hold_box: impl Fn(Cell) -> bool) -> (Level, WalkGraph) {
        let level = parse_xsb("t", rows).unwrap().remove(0);
        let region = crate::game::player_region(&level);
        let graph = WalkGraph::new(&level, &region, may_hold_box);
        (level, graph)
    }

    #[test]
    fn always_free_cells_that_touch_are_one_node() {
        // A corridor of five floor cells; only the box's cell may hold a box.
        let text = "#######\n#@ $ .#\n#######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let middle_cell = level.box_cells().next().unwrap();
        let (level, g) = graph(text, |c| c == middle_cell);
        assert_eq!(g.len(), 3);
        let player = level.player();
        let goal = level.goal_cells().next().unwrap();
        let left = g.node(player).unwrap();
        let middle = g.node(middle_cell).unwrap();
        let right = g.node(goal).unwrap();
        assert_eq!(g.node(level.neighbor(player, Direction::Right)), Some(left));
        assert_eq!(g.node(level.neighbor(goal, Direction::Left)), Some(right));
        assert_eq!(g.box_cell(middle), Some(middle_cell));
        assert_eq!(g.box_cell(left), None);
        assert_eq!(g.adjacent(left), &[middle]);
        assert_eq!(g.adjacent(middle).len(), 2);
        assert_eq!(g.node(level.neighbor(player, Direction::Up)), None);
        // Two nodes besides the box's: one layer takes the player from one to the other
        // across the middle, which would need the box gone.
        assert_eq!(g.layers(1), 1);
    }

    #[test]
    fn every_cell_that_may_hold_a_box_is_a_node() {
        let (level, g) = graph("#######\n#@ $ .#\n#######\n", |_| true);
        let region = crate::game::player_region(&level);
        assert_eq!(g.len(), region.iter().filter(|&&r| r).count());
        assert_eq!(g.layers(1), 3);
        assert_eq!(g.longest_induced_path(1000), Some(5));
        assert_eq!(g.longest_induced_path(2), None);
    }

    #[test]
    fn an_induced_path_has_no_chord() {
        // A 2×3 room: the longest induced path is the U along three sides (5 nodes);
        // a path through all 6 would have chords.
        let (_, g) = graph("#####\n#@$ #\n#  .#\n#####\n", |_| true);
        assert_eq!(g.len(), 6);
        assert_eq!(g.longest_induced_path(10_000), Some(5));
    }
}
