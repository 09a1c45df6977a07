//! The graph every push search walks: positions stored once in an [`Arena`], and the
//! positions one push away, listed by game/'s one push rule ([`PushMoves`]) and
//! filtered by the static analysis's deadlocks. A search enters a node, lists its
//! pushes, makes each in the laid-out position, asks whether it is dead, keys the child
//! and finds or stores it; the order it takes nodes in is its own ([`Buckets`] in the
//! optimal searches, the plan finder's cells of [`BestFirst`] queues).
//!
//! A position is its movable boxes (those in the player's region: the others never
//! move, and the analysis refuses a level where one stands off a goal) and the name of
//! the player's place.
//!
//! [`BestFirst`]: super::BestFirst
//! [`Buckets`]: super::Buckets

use super::arena::{Arena, Step};
use crate::analysis::Analysis;
use crate::game::{PushMove, PushMoves, Region};
use crate::level::{Cell, Direction, Level};

/// A child's key: the name of the player's place after the push and the full hash of
/// the position (its box cells are [`PushGraph::child_boxes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// The name of the player's place.
    pub name: Cell,
    /// The hash the arena finds the position by.
    pub hash: u64,
}

/// Positions and the pushes between them, with the buffers one expansion needs.
pub struct PushGraph<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    arena: Arena,
    /// Movable boxes per position.
    n: usize,
    /// The position at hand laid out, with the boxes that never move.
    mask: Vec<bool>,
    moves: PushMoves,
    /// The name of the entered node's place (its region is `moves`').
    name: Cell,
    /// The region of the player after the push at hand, and the player's cell when
    /// that region is still to fill: a child named from its parent's region is filled
    /// only if a lemma asks where its player can walk.
    child_region: Region,
    child_owed: Option<Cell>,
    /// The entered node's boxes (sorted) and their hash.
    boxes: Vec<u16>,
    box_hash: u64,
    /// The boxes after the push at hand, sorted.
    children: Vec<u16>,
}

impl<'a> PushGraph<'a> {
    /// An empty graph of `level` (`analysis` its static analysis).
    pub fn new(level: &'a Level, analysis: &'a Analysis) -> PushGraph<'a> {
        let n = level.box_cells().filter(|&c| analysis.region[c]).count();
        PushGraph {
            level,
            analysis,
            arena: Arena::new(n, &analysis.region),
            n,
            mask: (0..level.cell_count())
                .map(|c| level.has_initial_box(c) && !analysis.region[c])
                .collect(),
            moves: PushMoves::new(level),
            name: 0,
            child_region: Region::new(level),
            child_owed: None,
            boxes: Vec::with_capacity(n),
            box_hash: 0,
            children: Vec::with_capacity(n),
        }
    }

    /// The stored positions.
    pub fn arena(&self) -> &Arena {
        &self.arena
    }

    /// The stored positions, to make room or to record a shorter way.
    pub fn arena_mut(&mut self) -> &mut Arena {
        &mut self.arena
    }

    /// Gives back every stored position (the graph is empty after).
    pub fn clear(&mut self) {
        self.arena = Arena::new(self.n, &self.analysis.region);
    }

    /// The number of stored positions.
    pub fn len(&self) -> usize {
        self.arena.len()
    }

    /// Whether no position is stored.
    pub fn is_empty(&self) -> bool {
        self.arena.is_empty()
    }

    /// Stores the level's start as node 0 and enters it.
    pub fn add_start(&mut self) -> u32 {
        let level = self.level;
        let start: Vec<u16> = (level.box_cells())
            .filter(|&c| self.analysis.region[c])
            .map(|c| c as u16)
            .collect();
        for &b in &start {
            self.mask[b as usize] = true;
        }
        let name = self.moves.enter(level, &self.mask, level.player());
        self.name = name;
        let cells: Vec<Cell> = start.iter().map(|&b| b as Cell).collect();
        self.box_hash = self.arena.zobrist().of(&cells);
        let hash = self.arena.zobrist().marked(self.box_hash, name);
        let id = self.arena.add(hash, &start, name, 0, Step::START);
        self.boxes = start;
        id
    }

    /// Lays node `id` out and fills where its player can walk.
    pub fn enter(&mut self, id: u32) {
        self.boxes.clear();
        self.boxes.extend(self.arena.box_cells(id));
        for &b in &self.boxes {
            self.mask[b as usize] = true;
        }
        self.box_hash = self.arena.box_hash(id);
        self.name = (self.moves).enter(self.level, &self.mask, self.arena.player(id));
    }

    /// Takes the entered node off the board.
    pub fn leave(&mut self) {
        for &b in &self.boxes {
            self.mask[b as usize] = false;
        }
    }

    /// The entered node's movable boxes, sorted.
    pub fn boxes(&self) -> &[u16] {
        &self.boxes
    }

    /// The position at hand, as a mask of box cells (with the boxes that never move).
    pub fn mask(&self) -> &[bool] {
        &self.mask
    }

    /// The position at hand, for a search that makes pushes of its own in it (and
    /// takes them back).
    pub fn mask_mut(&mut self) -> &mut [bool] {
        &mut self.mask
    }

    /// Where the entered node's player can walk.
    pub fn region(&self) -> &Region {
        self.moves.region()
    }

    /// Whether every box of node `id` stands on a goal (read from the store: the node
    /// need not be entered).
    pub fn is_solved(&self, id: u32) -> bool {
        (self.arena.box_cells(id)).all(|b| self.level.is_goal(b as Cell))
    }

    /// The push of the box on `from` in `dir` in the entered node, if the player can
    /// make it and the box does not come to rest on a dead square.
    pub fn push(&self, from: Cell, dir: Direction) -> Option<PushMove> {
        let p = self.moves.push(self.level, &self.mask, from, dir)?;
        self.analysis.live[p.to].then_some(p)
    }

    /// Every push of the entered node into `out`, box by box in cell order, each in
    /// LURD order (pushes onto dead squares left out).
    pub fn pushes(&self, out: &mut Vec<PushMove>) {
        out.clear();
        for &b in &self.boxes {
            for dir in Direction::ALL {
                out.extend(self.push(b as Cell, dir));
            }
        }
    }

    /// Moves the box on `from` to `to` in the laid-out position (a push made).
    pub fn make(&mut self, from: Cell, to: Cell) {
        self.mask[from] = false;
        self.mask[to] = true;
    }

    /// Takes back [`PushGraph::make`].
    pub fn unmake(&mut self, from: Cell, to: Cell) {
        self.mask[to] = false;
        self.mask[from] = true;
    }

    /// Whether the position after the box of the entered node on `from` came to `to`
    /// (made in the mask) is a deadlock the static analysis knows: a freeze block, a
    /// dead pair or a dead triple through `to`.
    pub fn is_dead_after(&self, from: Cell, to: Cell) -> bool {
        let mask = &self.mask;
        let others = (self.boxes.iter())
            .map(|&o| o as Cell)
            .filter(|&o| o != from);
        (self.analysis.deadlocks).dead_after(&self.analysis.pair_table, to, |c| mask[c], others)
    }

    /// The boxes after the box on `from` came to `to`, sorted; they stay in
    /// [`PushGraph::child_boxes`] until the next child.
    pub fn move_box(&mut self, from: Cell, to: Cell) -> &[u16] {
        self.children.clear();
        let moved = |&b: &u16| if b as Cell == from { to as u16 } else { b };
        self.children.extend(self.boxes.iter().map(moved));
        self.children.sort_unstable();
        &self.children
    }

    /// The boxes of the child at hand (see [`PushGraph::move_box`]).
    pub fn child_boxes(&self) -> &[u16] {
        &self.children
    }

    /// The name of the player's place on `player` in the position at hand (made in
    /// the mask); its region stays in [`PushGraph::child_region`].
    pub fn name_after(&mut self, player: Cell) -> Cell {
        self.child_owed = None;
        self.child_region.name(self.level, &self.mask, player)
    }

    /// The name of the player's place after push `p` of the entered node (made in the
    /// mask), as [`PushGraph::name_after`] gives it, read off the entered node's region
    /// where that is safe (see `name_from_parent`) and filled otherwise.
    pub fn name_after_push(&mut self, p: &PushMove) -> Cell {
        match self.name_from_parent(p.from, p.to) {
            Some(name) => {
                self.child_owed = Some(p.player);
                name
            }
            None => self.name_after(p.player),
        }
    }

    /// The name of the player's place after the box of the entered node on `from`
    /// came to `to` (made in the mask; no ice, so the player stands on `from`), from
    /// the entered node's region `R` without a fill, when a look at the cells round
    /// the push settles it. The push frees `from` and fills `to`; nothing else changes.
    /// - If `from`'s two side cells are walls, boxes or in `R`, the player reaches no
    ///   cell beyond `R` but `from`.
    /// - If `to` was not in `R`, no walk in `R` crossed it: the place is `R` and
    ///   `from`.
    /// - If it was, a walk across `to` entered and left it by two of its free
    ///   neighbours; when all of them lie on one run of free cells round `to` (its
    ///   eight neighbours in turn), the walk can go round it instead: the place is `R`
    ///   and `from`, without `to`. Its name is the smaller of `R`'s and `from`, unless
    ///   `R`'s name is `to`.
    ///
    /// `None` when the look does not settle it: the region must be filled.
    fn name_from_parent(&self, from: Cell, to: Cell) -> Option<Cell> {
        let level = self.level;
        if level.has_ice() {
            return None;
        }
        let (region, mask) = (self.moves.region(), &self.mask);
        let free = |c: Cell| !level.is_wall(c) && !mask[c];
        let w = level.width() as isize;
        let step = to as isize - from as isize;
        let side = if step.abs() == 1 { w } else { 1 };
        for s in [from as isize - side, from as isize + side] {
            if free(s as Cell) && !region.contains(s as Cell) {
                return None;
            }
        }
        let name = self.name.min(from);
        if !region.contains(to) {
            return Some(name);
        }
        if self.name == to {
            return None;
        }
        // The eight neighbours of `to` in turn, from the one above it, clockwise: the
        // even ones share a side with it. (A floor cell is never on the grid's edge.)
        let ring =
            [-w, 1 - w, 1, w + 1, w, w - 1, -1, -w - 1].map(|o| free((to as isize + o) as Cell));
        // A free side cell starts a new run unless the corner and the side cell before
        // it are free too (all eight free: no side starts one, and they are one run).
        let runs = (0..8)
            .step_by(2)
            .filter(|&k| ring[k] && !(ring[(k + 7) % 8] && ring[(k + 6) % 8]))
            .count();
        (runs <= 1).then_some(name)
    }

    /// The region of the player after the push at hand (made in the mask), filled now
    /// if [`PushGraph::name_after_push`] named it without a fill.
    pub fn child_region(&mut self) -> &Region {
        if let Some(player) = self.child_owed.take() {
            self.child_region.fill(self.level, &self.mask, player);
        }
        &self.child_region
    }

    /// The hash of the entered node's boxes after the box on `from` came to `to`.
    pub fn box_hash_after(&self, from: Cell, to: Cell) -> u64 {
        self.arena.zobrist().moved(self.box_hash, from, to)
    }

    /// The key of the child whose box on `from` came to `to`, the player's place named
    /// `name`.
    pub fn key(&self, from: Cell, to: Cell, name: Cell) -> Child {
        let hash = self
            .arena
            .zobrist()
            .marked(self.box_hash_after(from, to), name);
        Child { name, hash }
    }

    /// The stored node of the child at hand (boxes from [`PushGraph::move_box`]).
    pub fn find(&self, child: Child) -> Option<u32> {
        self.arena.find(child.hash, &self.children, child.name)
    }

    /// Stores the child at hand, reached from `parent` by `step`; its id.
    pub fn add(&mut self, child: Child, parent: u32, step: Step) -> u32 {
        (self.arena).add(child.hash, &self.children, child.name, parent, step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn a_child_is_found_again_by_its_key_and_walks_back_to_the_start() {
        let text = "#######\n#@    #\n# $$ .#\n#   . #\n#######\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let mut graph = PushGraph::new(&level, &analysis);
        let start = graph.add_start();
        graph.leave();
        graph.enter(start);
        let mut pushes = Vec::new();
        graph.pushes(&mut pushes);
        assert!(!pushes.is_empty());
        let p = pushes[0];
        graph.make(p.from, p.to);
        assert!(!graph.is_dead_after(p.from, p.to));
        graph.move_box(p.from, p.to);
        let name = graph.name_after(p.player);
        let child = graph.key(p.from, p.to, name);
        assert_eq!(graph.find(child), None);
        let id = graph.add(child, start, Step::push(p.from, p.dir, p.to));
        assert_eq!(graph.find(child), Some(id));
        graph.unmake(p.from, p.to);
        graph.leave();
        // Entered again, the node's boxes hash as its key said.
        graph.enter(id);
        assert_eq!(graph.boxes(), graph.child_boxes());
        assert_eq!(graph.arena().pushes_to(&level, id), vec![(p.from, p.dir)]);
    }

    #[test]
    fn a_place_named_from_the_parent_is_the_one_a_fill_names() {
        // Every push of the first positions of random boards and of Microban-like
        // rooms: the name read off the parent's region, and the region filled later,
        // equal a fresh fill's.
        use crate::level::generate::{BoardSpec, random_board};
        let mut boards: Vec<String> = (0..9)
            .map(|i| random_board(&BoardSpec::class(12, (3, 8), i, 5)))
            .collect();
        boards.push("########\n#@ $ . #\n# $$.  #\n#  . # #\n##     #\n########\n".into());
        let (mut read, mut filled) = (0, 0);
        for text in boards {
            let level = parse_xsb("t", &text).unwrap().remove(0);
            let analysis = Analysis::new(&level);
            let mut graph = PushGraph::new(&level, &analysis);
            graph.add_start();
            graph.leave();
            let mut pushes = Vec::new();
            let mut next = 0;
            while next < graph.len().min(400) as u32 {
                let id = next;
                next += 1;
                graph.enter(id);
                graph.pushes(&mut pushes);
                for p in pushes.clone() {
                    graph.make(p.from, p.to);
                    graph.move_box(p.from, p.to);
                    let fast = graph.name_after_push(&p);
                    let owed = graph.child_owed.is_some();
                    let cells: Vec<bool> = (0..level.cell_count())
                        .map(|c| graph.child_region().contains(c))
                        .collect();
                    let name = graph.name_after(p.player);
                    let full: Vec<bool> = (0..level.cell_count())
                        .map(|c| graph.child_region().contains(c))
                        .collect();
                    assert_eq!((fast, &cells), (name, &full), "{text}");
                    if owed {
                        read += 1;
                    } else {
                        filled += 1;
                    }
                    let key = graph.key(p.from, p.to, name);
                    if graph.find(key).is_none() {
                        graph.add(key, id, Step::push(p.from, p.dir, p.to));
                    }
                    graph.unmake(p.from, p.to);
                }
                graph.leave();
            }
        }
        // Both ways are taken often.
        assert!(read > 1000 && filled > 1000, "{read} read, {filled} filled");
    }
}
