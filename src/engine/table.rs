//! A hash table keyed by sets of box cells, hashed by Zobrist keys, and a set of
//! positions built on it.
//!
//! A search meets the same box positions again and again, and a position one push away
//! differs in two cells. A Zobrist hash (one random word per cell, XORed over the set)
//! follows a push with two XORs, so neither the position nor its successors need a key
//! built and hashed to be looked up; the cells are compared only on a hash hit.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use crate::level::Cell;

/// Random words per cell, whose XOR over a set of cells is the set's hash.
pub struct Zobrist {
    cell: Vec<u64>,
    /// A second word per cell, for naming one more cell beside a set (a player region).
    mark: Vec<u64>,
}

impl Zobrist {
    /// Keys for a level of `cells` cells (the same keys every time: the table's order
    /// never decides anything, but repeatable runs are easier to study).
    pub fn new(cells: usize) -> Zobrist {
        let mut state = 0x5EED_0F5A_750C_0B17_u64;
        let mut next = || {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let cell = (0..cells).map(|_| next()).collect();
        let mark = (0..cells).map(|_| next()).collect();
        Zobrist { cell, mark }
    }

    /// The hash of the set of `cells`.
    pub fn of(&self, cells: &[Cell]) -> u64 {
        cells.iter().fold(0, |h, &c| h ^ self.cell[c])
    }

    /// The key of one cell (a set's hash is the XOR of its cells' keys).
    pub fn key(&self, c: Cell) -> u64 {
        self.cell[c]
    }

    /// The hash of a set after a box moves from `from` to `to`.
    pub fn moved(&self, hash: u64, from: Cell, to: Cell) -> u64 {
        hash ^ self.cell[from] ^ self.cell[to]
    }

    /// The hash of a set together with the mark `c` (such as the name of a region).
    pub fn marked(&self, hash: u64, c: Cell) -> u64 {
        hash ^ self.mark[c]
    }
}

/// A map from keys (sorted cell lists, possibly with a mark after them) to values, by
/// their Zobrist hash. Two keys with the same hash both live in the table: the hash
/// finds the slot and the cells decide. A table holds at most its limit of keys; once
/// full it stops growing (new keys are not taken in), so a search's memory stays
/// bounded.
pub struct PositionTable<V> {
    slots: FxHashMap<u64, Slot<V>>,
    keys: usize,
    limit: usize,
}

/// The keys of one hash: nearly always one, kept in the table itself (one memory access
/// fewer than a list).
enum Slot<V> {
    One(Box<[u32]>, V),
    Many(Vec<(Box<[u32]>, V)>),
}

impl<V> Default for PositionTable<V> {
    fn default() -> Self {
        PositionTable::with_limit(usize::MAX)
    }
}

/// The key of `cells` (sorted) followed by `mark`, if any.
pub fn key_of(cells: &[Cell], mark: Option<Cell>) -> Box<[u32]> {
    cells.iter().chain(&mark).map(|&c| c as u32).collect()
}

impl<V> PositionTable<V> {
    /// An empty table that holds at most `limit` keys.
    pub fn with_limit(limit: usize) -> Self {
        PositionTable {
            slots: FxHashMap::default(),
            keys: 0,
            limit,
        }
    }

    /// Whether the table holds as many keys as it may.
    pub fn is_full(&self) -> bool {
        self.keys >= self.limit
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The value of the key with hash `hash` for which `is_key` holds.
    pub fn get(&self, hash: u64, is_key: impl Fn(&[u32]) -> bool) -> Option<&V> {
        match self.slots.get(&hash)? {
            Slot::One(k, v) => is_key(k).then_some(v),
            Slot::Many(all) => all.iter().find(|(k, _)| is_key(k)).map(|(_, v)| v),
        }
    }

    /// The value of the key with hash `hash` for which `is_key` holds, inserted with
    /// the key `make_key` makes and the value `new` makes if it is not there (so that
    /// a key is built only when it is new); `None` when it is not there and the table
    /// is full.
    pub fn get_or_insert_with(
        &mut self,
        hash: u64,
        is_key: impl Fn(&[u32]) -> bool,
        make_key: impl FnOnce() -> Box<[u32]>,
        new: impl FnOnce() -> V,
    ) -> Option<&mut V> {
        let full = self.keys >= self.limit;
        let slot = match self.slots.entry(hash) {
            Entry::Vacant(_) if full => return None,
            Entry::Vacant(e) => {
                self.keys += 1;
                let Slot::One(_, v) = e.insert(Slot::One(make_key(), new())) else {
                    unreachable!("just inserted")
                };
                return Some(v);
            }
            Entry::Occupied(e) => e.into_mut(),
        };
        let present = match slot {
            Slot::One(k, _) => is_key(k),
            Slot::Many(all) => all.iter().any(|(k, _)| is_key(k)),
        };
        if !present {
            if full {
                return None;
            }
            self.keys += 1;
        }
        if let Slot::One(k, _) = slot
            && !is_key(k)
        {
            // A second key with this hash: the slot becomes a list.
            let first = std::mem::replace(slot, Slot::Many(Vec::new()));
            if let (Slot::One(k, v), Slot::Many(all)) = (first, &mut *slot) {
                all.push((k, v));
            }
        }
        match slot {
            Slot::One(_, v) => Some(v),
            Slot::Many(all) => {
                let at = match all.iter().position(|(k, _)| is_key(k)) {
                    Some(at) => at,
                    None => {
                        all.push((make_key(), new()));
                        all.len() - 1
                    }
                };
                Some(&mut all[at].1)
            }
        }
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys
    }

    /// Every key with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&[u32], &V)> {
        self.slots.values().flat_map(|slot| {
            let all: Vec<(&[u32], &V)> = match slot {
                Slot::One(k, v) => vec![(&k[..], v)],
                Slot::Many(all) => all.iter().map(|(k, v)| (&k[..], v)).collect(),
            };
            all
        })
    }
}

/// A set of positions of any number of boxes (sorted cells and a mark, such as the
/// name of the player's place): what the small searches over a few boxes visit, and
/// the caches of their answers. The big searches store their nodes in an
/// [`Arena`](super::push_search::Arena), whose rows have one length.
pub struct PositionSet {
    zobrist: Zobrist,
    table: PositionTable<()>,
}

impl PositionSet {
    /// An empty set for a level of `cells` cells.
    pub fn new(cells: usize) -> PositionSet {
        PositionSet {
            zobrist: Zobrist::new(cells),
            table: PositionTable::default(),
        }
    }

    fn hash(&self, cells: &[Cell], mark: Cell) -> u64 {
        self.zobrist.marked(self.zobrist.of(cells), mark)
    }

    /// Whether the set holds `cells` (sorted) marked by `mark`.
    pub fn contains(&self, cells: &[Cell], mark: Cell) -> bool {
        let is_key = |k: &[u32]| is_key_of(k, cells, Some(mark));
        self.table.get(self.hash(cells, mark), is_key).is_some()
    }

    /// Adds `cells` (sorted) marked by `mark`; whether they were new.
    pub fn insert(&mut self, cells: &[Cell], mark: Cell) -> bool {
        let before = self.table.len();
        let is_key = |k: &[u32]| is_key_of(k, cells, Some(mark));
        let key = || key_of(cells, Some(mark));
        (self.table).get_or_insert_with(self.hash(cells, mark), is_key, key, || ());
        self.table.len() > before
    }

    /// The number of positions held.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Forgets every position.
    pub fn clear(&mut self) {
        self.table = PositionTable::default();
    }
}

/// Whether `key` is `cells` (sorted) followed by `mark`, if any.
pub fn is_key_of(key: &[u32], cells: &[Cell], mark: Option<Cell>) -> bool {
    key.len() == cells.len() + usize::from(mark.is_some())
        && key
            .iter()
            .zip(cells.iter().chain(&mark))
            .all(|(&k, &c)| k == c as u32)
}

/// Whether `key` (sorted cells) is the set `cells` after a box moved from `from` to
/// `to`, without building that set.
pub fn is_after_move(key: &[u32], cells: &[Cell], from: Cell, to: Cell) -> bool {
    key.len() == cells.len()
        && cells.iter().all(|&c| {
            let c = if c == from { to } else { c };
            key.binary_search(&(c as u32)).is_ok()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_set_tells_positions_apart_by_cells_and_mark() {
        let mut set = PositionSet::new(20);
        assert!(set.insert(&[3, 7], 1));
        assert!(!set.insert(&[3, 7], 1));
        assert!(set.insert(&[3, 7], 2));
        assert!(set.insert(&[3], 7));
        assert!(set.contains(&[3, 7], 2) && !set.contains(&[3, 8], 1));
        assert_eq!(set.len(), 3);
        set.clear();
        assert!(set.is_empty() && !set.contains(&[3, 7], 1));
    }

    #[test]
    fn a_move_changes_the_hash_as_a_fresh_one_would() {
        let z = Zobrist::new(50);
        let before = [3, 10, 17];
        let after = [3, 11, 17];
        assert_eq!(z.moved(z.of(&before), 10, 11), z.of(&after));
        assert_ne!(z.of(&before), z.of(&after));
        // Order does not matter.
        assert_eq!(z.of(&[17, 3, 10]), z.of(&before));
        assert_ne!(z.marked(z.of(&before), 4), z.of(&before));
    }

    #[test]
    fn keys_with_one_hash_are_told_apart_by_their_cells() {
        let mut table: PositionTable<u32> = PositionTable::default();
        assert!(table.is_empty());
        // Two different keys forced into one bucket.
        let mut add = |hash, key: [u32; 2], new, by| {
            let cells = [key[0] as Cell, key[1] as Cell];
            let v = table.get_or_insert_with(hash, |k| k == key, || key_of(&cells, None), || new);
            *v.expect("room") += by;
        };
        add(7, [1, 2], 0, 5);
        add(7, [1, 3], 100, 1);
        add(7, [1, 2], 0, 1);
        assert_eq!(table.len(), 2);
        assert_eq!(table.get(7, |k| k == [1, 2]), Some(&6));
        assert_eq!(table.get(7, |k| k == [1, 3]), Some(&101));
        assert_eq!(table.get(7, |k| k == [2, 3]), None);
        assert_eq!(table.get(8, |k| k == [1, 2]), None);
        assert_eq!(&*key_of(&[1, 2], Some(9)), &[1, 2, 9]);
        assert!(is_key_of(&[1, 2, 9], &[1, 2], Some(9)));
        assert!(!is_key_of(&[1, 2, 9], &[1, 2], Some(8)));
        assert!(!is_key_of(&[1, 2, 9], &[1, 2], None));
        assert!(is_key_of(&[1, 2], &[1, 2], None));
        // A full table keeps what it has and takes nothing new.
        let mut small: PositionTable<u32> = PositionTable::with_limit(1);
        assert!(
            small
                .get_or_insert_with(1, |k| k == [5], || key_of(&[5], None), || 1)
                .is_some()
        );
        assert!(small.is_full());
        assert!(
            small
                .get_or_insert_with(2, |k| k == [6], || key_of(&[6], None), || 1)
                .is_none()
        );
        assert!(
            small
                .get_or_insert_with(1, |k| k == [5], || key_of(&[5], None), || 1)
                .is_some()
        );
        assert_eq!(small.len(), 1);
    }

    #[test]
    fn a_key_is_recognised_after_a_move() {
        let key = key_of(&[3, 11, 17], None);
        assert!(is_after_move(&key, &[3, 10, 17], 10, 11));
        assert!(!is_after_move(&key, &[3, 10, 17], 3, 4));
        assert!(!is_after_move(&key, &[3, 10], 10, 11));
        // The box moved past another one in the order.
        let key = key_of(&[2, 3, 17], None);
        assert!(is_after_move(&key, &[3, 10, 17], 10, 2));
    }
}
