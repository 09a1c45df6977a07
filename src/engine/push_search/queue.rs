//! The order a best-first push search takes its nodes in.

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

#[cfg(test)]
mod tests {
    use super::*;

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
