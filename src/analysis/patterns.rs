//! The search behind the pattern databases: for every placement of K boxes on live
//! cells (every other box taken off the board) and every player cell, the fewest pushes
//! that bring the K boxes onto K distinct goals. A backward search from all solved
//! placements, by distance (a bucket per distance): walking back costs nothing, pulling
//! a box back costs one. A solved placement may start at a cost of its own, which
//! the pair table uses to charge each goal its price in the matching.
//!
//! Why the costs bound the full game: project any solution onto K of its boxes. The
//! other boxes vanish, which only frees cells, so every walk and every push of the K
//! boxes stays legal, and the projection solves the K-box problem with the pushes the
//! solution spent on those boxes. Pushes of disjoint sets of boxes are disjoint, so the
//! costs of disjoint groups add up.

use itertools::Itertools;

use crate::level::{Cell, Direction, Level};
use crate::stop::Stop;

/// Distances of the K-box searches, per (sorted box cells, player cell).
pub(super) struct GroupSearch<const K: usize> {
    live_cells: Vec<Cell>,
    live_index: Vec<usize>,
    region_index: Vec<usize>,
    regions: usize,
    /// `u16::MAX`: the placement can never be solved from there.
    dist: Vec<u16>,
}

impl<const K: usize> GroupSearch<K> {
    /// Runs the search, or returns `None` when it would have more than `max_states`
    /// states (or there are fewer than K live cells), or when `stop` says stop before
    /// it is done.
    pub(super) fn run(
        level: &Level,
        region: &[bool],
        live: &[bool],
        max_states: usize,
        stop: &Stop,
    ) -> Option<GroupSearch<K>> {
        GroupSearch::run_from(level, (region, live), max_states, |_| 0, stop)
    }

    /// [`run`](Self::run) with each solved placement (its goals, sorted) starting at
    /// `source_cost(goals)` instead of 0: the distance of a state is then the least,
    /// over the placements it can reach, of the pushes to reach it plus its start cost.
    /// With start costs that are a price per goal, this measures the pushes beyond
    /// those prices (see `PairTable`'s priced costs).
    pub(super) fn run_from(
        level: &Level,
        (region, live): (&[bool], &[bool]),
        max_states: usize,
        source_cost: impl Fn(&[Cell; K]) -> u16,
        stop: &Stop,
    ) -> Option<GroupSearch<K>> {
        let n = level.cell_count();
        let live_cells: Vec<Cell> = (0..n).filter(|&c| live[c]).collect();
        let region_cells: Vec<Cell> = (0..n).filter(|&c| region[c]).collect();
        let states = live_cells
            .len()
            .checked_pow(K as u32)?
            .checked_mul(region_cells.len())?;
        if live_cells.len() < K || states > max_states {
            return None;
        }
        let mut live_index = vec![usize::MAX; n];
        for (i, &c) in live_cells.iter().enumerate() {
            live_index[c] = i;
        }
        let mut region_index = vec![usize::MAX; n];
        for (i, &c) in region_cells.iter().enumerate() {
            region_index[c] = i;
        }
        let mut search = GroupSearch {
            live_cells,
            live_index,
            region_index,
            regions: region_cells.len(),
            dist: vec![u16::MAX; states],
        };
        // Dijkstra with a bucket per distance: a walk back stays in its bucket, a pull
        // goes to the next one, and each bucket is a stack (any order within a
        // distance is fine).
        let mut buckets: Vec<Vec<([Cell; K], Cell)>> = Vec::new();
        let goals: Vec<Cell> = level.goal_cells().filter(|&g| live[g]).collect();
        for boxes in goals.iter().copied().array_combinations::<K>() {
            let c = source_cost(&boxes);
            if c == u16::MAX {
                continue;
            }
            if buckets.len() <= c as usize {
                buckets.resize_with(c as usize + 1, Vec::new);
            }
            for &p in region_cells.iter().filter(|p| !boxes.contains(p)) {
                let s = search.index(&boxes, p);
                search.dist[s] = c;
                buckets[c as usize].push((boxes, p));
            }
        }
        let mut popped = 0u32;
        let mut c = 0usize;
        while c < buckets.len() {
            let Some((boxes, p)) = buckets[c].pop() else {
                c += 1;
                continue;
            };
            popped = popped.wrapping_add(1);
            if popped.is_multiple_of(1 << 16) && stop.should_stop() {
                return None;
            }
            let cost = c as u16;
            if search.dist[search.index(&boxes, p)] < cost {
                continue;
            }
            for d in Direction::ALL {
                // A walk back (walks are reversible).
                let q = level.neighbor(p, d);
                if region[q] && !boxes.contains(&q) {
                    let s = search.index(&boxes, q);
                    if search.dist[s] > cost {
                        search.dist[s] = cost;
                        buckets[c].push((boxes, q));
                    }
                }
                // A pull: before the push the box stood on p and the player behind it.
                let behind = level.neighbor(p, d.opposite());
                let Some(which) = boxes.iter().position(|&b| b == q) else {
                    continue;
                };
                if !live[p] || !region[behind] || boxes.contains(&behind) || cost == u16::MAX - 1 {
                    continue;
                }
                let mut before = boxes;
                before[which] = p;
                before.sort_unstable();
                let s = search.index(&before, behind);
                if search.dist[s] > cost + 1 {
                    search.dist[s] = cost + 1;
                    if buckets.len() <= c + 1 {
                        buckets.push(Vec::new());
                    }
                    buckets[c + 1].push((before, behind));
                }
            }
        }
        Some(search)
    }

    /// The live cells, in cell order.
    pub(super) fn live_cells(&self) -> &[Cell] {
        &self.live_cells
    }

    /// Where the states of the placement `boxes` (sorted) begin in `dist`: one state
    /// per player cell follows.
    fn group_start(&self, boxes: &[Cell; K]) -> usize {
        let nl = self.live_cells.len();
        boxes.iter().fold(0, |i, &b| i * nl + self.live_index[b]) * self.regions
    }

    fn index(&self, boxes: &[Cell; K], player: Cell) -> usize {
        self.group_start(boxes) + self.region_index[player]
    }

    /// Pushes for the boxes on `boxes` (sorted) with the player on `player`.
    pub(super) fn cost_from(&self, boxes: &[Cell; K], player: Cell) -> Option<u32> {
        match self.dist[self.index(boxes, player)] {
            u16::MAX => None,
            c => Some(c as u32),
        }
    }

    /// Pushes for the boxes on `boxes` (sorted), the player wherever it is best.
    pub(super) fn cost(&self, boxes: &[Cell; K]) -> Option<u32> {
        let start = self.group_start(boxes);
        self.dist[start..start + self.regions]
            .iter()
            .min()
            .copied()
            .filter(|&c| c != u16::MAX)
            .map(u32::from)
    }
}
