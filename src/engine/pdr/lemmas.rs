//! What pdr learns: the lemma an UNSAT answer teaches ([`explain`]), and the lemmas
//! themselves, kept beside the solver as patterns the search checks each push against
//! ([`Lemmas`]). In the formula they are clauses ([`OnePush::add_lemma`]).

use std::collections::HashSet;

use super::formula::OnePush;
use crate::engine::table::{PositionTable, is_key_of, key_of};
use crate::level::{Cell, Level};
use crate::sat::{Lit, Term};

/// A lemma: no position with a box on each of `boxes`, none on any of `empty`, and
/// the player unable to walk to any of `unreachable` can reach the goal, however many
/// pushes it makes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Cube {
    pub boxes: Vec<Cell>,
    pub empty: Vec<Cell>,
    pub unreachable: Vec<Cell>,
}

impl Cube {
    /// The cube as literals on the position after a push (where the formula states
    /// lemmas); `None` when it says where the player cannot walk, which the formula
    /// does not know of the position after the push.
    pub fn literals(&self, formula: &OnePush) -> Option<Vec<Lit>> {
        if !self.unreachable.is_empty() {
            return None;
        }
        let named = |c: Cell, has_box: bool| match formula.box_next[c] {
            Term::Lit(l) => Some(if has_box { l } else { !l }),
            Term::Const(_) => None,
        };
        let literals = (self.boxes.iter().filter_map(|&c| named(c, true)))
            .chain(self.empty.iter().filter_map(|&c| named(c, false)))
            .collect();
        Some(literals)
    }
}

/// The lemmas learned. Those that name every box are looked up by their boxes (in a
/// table, like the positions themselves); the others are indexed by their cells with a
/// box, as a push that puts a box on `c` can only complete one with a box on `c`.
pub(super) struct Lemmas {
    /// The boxes a position has (the movable ones).
    boxes: usize,
    /// The lemmas naming part of the boxes, as bit sets of their cells with a box and
    /// without one (`words` words each), and whether each says where the player cannot
    /// walk, with those cells.
    words: usize,
    with_bits: Vec<u64>,
    without_bits: Vec<u64>,
    partial_reach: Vec<Box<[u16]>>,
    with_box: Vec<Vec<u32>>,
    /// Per set of boxes: the sets of cells the player must be unable to reach.
    whole: PositionTable<Vec<Box<[u16]>>>,
    known: HashSet<Cube>,
    count: usize,
    /// The most lemmas kept (beyond it new ones are not taken in: the search stays
    /// sound, it just prunes less).
    limit: usize,
}

impl Lemmas {
    /// No lemmas yet, for positions of `boxes` boxes on a level of `cells` cells,
    /// keeping at most `limit`.
    pub fn new(boxes: usize, cells: usize, limit: usize) -> Lemmas {
        Lemmas {
            boxes,
            words: cells.div_ceil(64),
            with_bits: Vec::new(),
            without_bits: Vec::new(),
            partial_reach: Vec::new(),
            with_box: vec![Vec::new(); cells],
            whole: PositionTable::default(),
            known: HashSet::new(),
            count: 0,
            limit,
        }
    }

    /// Whether no more lemmas are taken in.
    pub fn is_full(&self) -> bool {
        self.count >= self.limit
    }

    /// Whether `cube` names every box of a position.
    pub fn is_whole(&self, cube: &Cube) -> bool {
        cube.boxes.len() == self.boxes
    }

    /// Keeps `cube` (`hash`: the Zobrist hash of its boxes); whether it is new (and
    /// was kept). A cube naming every box needs no "no box" literal: every position has
    /// as many boxes.
    pub fn add(&mut self, mut cube: Cube, hash: u64) -> bool {
        if self.is_whole(&cube) {
            cube.empty.clear();
        }
        if self.is_full() || self.known.contains(&cube) {
            return false;
        }
        if !self.is_whole(&cube) && cube.boxes.len() * 2 > self.boxes + 1 {
            // A lemma naming most boxes but not all is seldom met again, and every
            // push into one of its cells would have to check it.
            return false;
        }
        if self.is_whole(&cube) {
            let unreachable: Box<[u16]> = cube.unreachable.iter().map(|&c| c as u16).collect();
            let sets = self.whole.get_or_insert_with(
                hash,
                |k| is_key_of(k, &cube.boxes, None),
                || key_of(&cube.boxes, None),
                Vec::new,
            );
            match sets {
                Some(sets) => sets.push(unreachable),
                None => return false,
            }
        } else {
            let id = self.partial_reach.len() as u32;
            for &c in &cube.boxes {
                self.with_box[c].push(id);
            }
            let at = self.with_bits.len();
            self.with_bits.resize(at + self.words, 0);
            self.without_bits.resize(at + self.words, 0);
            for &c in &cube.boxes {
                self.with_bits[at + c / 64] |= 1 << (c % 64);
            }
            for &c in &cube.empty {
                self.without_bits[at + c / 64] |= 1 << (c % 64);
            }
            (self.partial_reach).push(cube.unreachable.iter().map(|&c| c as u16).collect());
        }
        self.known.insert(cube);
        self.count += 1;
        true
    }

    /// Whether a lemma naming part of the boxes has a box on `to`.
    pub fn any_part_at(&self, to: Cell) -> bool {
        !self.with_box[to].is_empty()
    }

    /// Whether the position whose boxes are the bit set `bits`, just reached by a push
    /// of a box to `to`, matches a lemma that names part of its boxes, one with a box
    /// on `to`; and whether that lemma says where the player cannot walk (`reaches`
    /// answers where it can).
    pub fn refute_part(
        &self,
        bits: &[u64],
        to: Cell,
        reaches: &mut dyn FnMut(Cell) -> bool,
    ) -> Option<bool> {
        let w = self.words;
        // A lemma the formula knows (no unreachable cell) is preferred: a push it
        // rules out needs no bar in later questions.
        let mut found = None;
        for &i in &self.with_box[to] {
            let at = i as usize * w;
            let with = &self.with_bits[at..at + w];
            let without = &self.without_bits[at..at + w];
            let boxes_match =
                (bits.iter().zip(with).zip(without)).all(|((&b, &y), &n)| b & y == y && b & n == 0);
            let unreachable = &self.partial_reach[i as usize];
            if boxes_match && unreachable.iter().all(|&c| !reaches(c as Cell)) {
                if unreachable.is_empty() {
                    return Some(false);
                }
                found = Some(true);
            }
        }
        found
    }

    /// The lemmas that name every box of the position with boxes on `cells` (sorted;
    /// `hash` their Zobrist hash): per lemma, the cells its player must be unable to
    /// reach. (Most positions have none, and their player's region is not needed.)
    pub fn whole_lemmas(&self, hash: u64, cells: &[u16]) -> Option<&[Box<[u16]>]> {
        let sets = self.whole.get(hash, |k| {
            k.len() == cells.len() && k.iter().zip(cells).all(|(&a, &b)| a == b as u32)
        })?;
        Some(sets)
    }

    /// Whether one of `sets` (a position's [`Lemmas::whole_lemmas`]) refutes the
    /// position, its player able to walk where `reaches` says; and whether that lemma
    /// says where the player cannot walk.
    pub fn refute_whole(sets: &[Box<[u16]>], reaches: impl Fn(Cell) -> bool) -> Option<bool> {
        // As in `refute_part`, a lemma the formula knows first.
        let mut matches = (sets.iter().map(|set| &set[..]))
            .filter(|set| set.iter().all(|&c| !reaches(c as Cell)));
        let first = matches.next()?;
        Some(!first.is_empty() && matches.all(|set| !set.is_empty()))
    }
}

/// What the failed assumptions of an UNSAT question about the position `boxes` say: the
/// cube of the box and reach literals they hold (`None` when they also hold a barred
/// push, which only that position with the player in that place is sure to share). A cube that
/// names no empty goal gets one, so that it never covers a solved position.
pub(super) fn explain(
    formula: &OnePush,
    level: &Level,
    boxes: &[bool],
    barred: &[Lit],
) -> Option<Cube> {
    let core = formula.solver.failed_assumptions()?.to_vec();
    let barred: HashSet<u32> = barred.iter().map(|l| l.var()).collect();
    if core.iter().any(|l| barred.contains(&l.var())) {
        return None;
    }
    let mut cube = Cube {
        boxes: Vec::new(),
        empty: Vec::new(),
        unreachable: Vec::new(),
    };
    for l in core {
        if let Some(c) = formula.cell_of(l.var()) {
            if boxes[c] {
                cube.boxes.push(c);
            } else {
                cube.empty.push(c);
            }
        } else if let Some(c) = formula.reach_cell_of(l.var())
            && !l.is_positive()
        {
            // Only "cannot walk there" helps a refutation (a push needs the player
            // behind the box), so only such literals are in a core.
            cube.unreachable.push(c);
        }
    }
    let names_empty_goal = cube.empty.iter().any(|&c| level.is_goal(c));
    if !names_empty_goal {
        let goal = level.goal_cells().find(|&g| !boxes[g])?;
        cube.empty.push(goal);
    }
    cube.boxes.sort_unstable();
    cube.empty.sort_unstable();
    cube.unreachable.sort_unstable();
    Some(cube)
}
