//! The order a best-first push search takes its nodes in: a heap for any values
//! ([`BestFirst`]), and buckets for the small integer bounds of the optimal searches
//! ([`Buckets`]), where a pop costs no comparisons.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Nodes waiting to be expanded: the smallest value first (a bound or an estimate of
/// the plan's length through the node), and among equal values the node reached by
/// more pushes, which is closer to a plan. A node may wait more than once (queued
/// again when a shorter way reaches it); the search skips the stale entries.
#[derive(Default)]
pub struct BestFirst {
    heap: BinaryHeap<(Reverse<u32>, u32, u32)>,
}

impl BestFirst {
    /// An empty queue.
    pub fn new() -> BestFirst {
        BestFirst::default()
    }

    /// Queues node `id` at value `f`, reached after `g` pushes.
    pub fn push(&mut self, f: u32, g: u32, id: u32) {
        self.heap.push((Reverse(f), g, id));
    }

    /// The next node: its value, its pushes and its id.
    pub fn pop(&mut self) -> Option<(u32, u32, u32)> {
        self.heap.pop().map(|(Reverse(f), g, id)| (f, g, id))
    }

    /// Whether no node waits.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

/// Nodes waiting to be expanded, in the order of [`BestFirst`] (the smallest value
/// first, then the most pushes), kept in one stack per pair of value and pushes. The
/// values of `astar` and `pdr` are bounds on a plan's pushes: a few hundred, with
/// millions of nodes among them, where a heap spends a tenth of the search's time.
/// Among nodes of the same value and pushes the last queued comes first.
#[derive(Default)]
pub struct Buckets {
    /// `stacks[f][g]`: the nodes of value `f` reached after `g` pushes. A row ends at
    /// its last stack that may hold a node: emptied stacks at its end are dropped, so
    /// that the nodes of the values passed do not stay allocated.
    stacks: Vec<Vec<Vec<u32>>>,
    /// No node waits at a value below this.
    lowest: usize,
    /// Nodes waiting.
    len: usize,
}

impl Buckets {
    /// An empty queue.
    pub fn new() -> Buckets {
        Buckets::default()
    }

    /// Queues node `id` at value `f`, reached after `g` pushes.
    pub fn push(&mut self, f: u32, g: u32, id: u32) {
        let (f, g) = (f as usize, g as usize);
        if self.stacks.len() <= f {
            self.stacks.resize_with(f + 1, Vec::new);
        }
        let row = &mut self.stacks[f];
        if row.len() <= g {
            row.resize_with(g + 1, Vec::new);
        }
        row[g].push(id);
        self.lowest = self.lowest.min(f);
        self.len += 1;
    }

    /// The next node: its value, its pushes and its id.
    pub fn pop(&mut self) -> Option<(u32, u32, u32)> {
        if self.len == 0 {
            return None;
        }
        loop {
            let f = self.lowest;
            let row = &mut self.stacks[f];
            while let Some(stack) = row.last_mut() {
                if let Some(id) = stack.pop() {
                    self.len -= 1;
                    return Some((f as u32, (row.len() - 1) as u32, id));
                }
                row.pop();
            }
            self.lowest += 1;
        }
    }

    /// Whether no node waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_pop_in_the_heaps_order() {
        // Values and pushes in a scrambled order, with repeats and values that go
        // down after a pop: both queues give the same (value, pushes) sequence.
        let (mut heap, mut buckets) = (BestFirst::new(), Buckets::new());
        let mut x = 7u32;
        let mut popped = Vec::new();
        for id in 0..2000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let f = (x >> 8) % 40;
            let g = (x >> 16) % (f + 1);
            heap.push(f, g, id);
            buckets.push(f, g, id);
            if id % 3 == 0 {
                let (a, b) = (heap.pop().unwrap(), buckets.pop().unwrap());
                assert_eq!((a.0, a.1), (b.0, b.1));
                popped.push(b.2);
            }
        }
        while let Some(a) = heap.pop() {
            let b = buckets.pop().unwrap();
            assert_eq!((a.0, a.1), (b.0, b.1));
            popped.push(b.2);
        }
        assert!(buckets.is_empty() && buckets.pop().is_none());
        popped.sort_unstable();
        assert_eq!(popped, (0..2000).collect::<Vec<_>>());
    }

    #[test]
    fn the_smallest_value_first_then_the_deeper_node() {
        let mut q = BestFirst::new();
        q.push(5, 0, 1);
        q.push(3, 1, 2);
        q.push(3, 2, 3);
        assert_eq!(q.pop(), Some((3, 2, 3)));
        assert_eq!(q.pop(), Some((3, 1, 2)));
        assert_eq!(q.pop(), Some((5, 0, 1)));
        assert!(q.is_empty());
        assert_eq!(q.pop(), None);
    }
}
