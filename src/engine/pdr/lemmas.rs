//! What pdr learns: the lemma an UNSAT answer teaches ([`explain`]), and the lemmas
//! that name a whole position, kept in a hash table beside the solver
//! ([`WholeLemmas`]). The partial lemmas are clauses of the one-push formula
//! ([`OnePush::add_lemma`]).

use std::collections::HashSet;

use super::formula::OnePush;
use super::search::{Barred, Position};
use crate::analysis::Analysis;
use crate::engine::table::{PositionTable, is_after_move, is_key_of, key_of};
use crate::game::Region;
use crate::level::{Cell, Level};
use crate::sat::{Lit, Term};

/// What [`WholeLemmas::known_bound`] says of a position refuted for good.
pub(super) const DEAD: usize = usize::MAX;

/// A lemma naming every box of a position.
#[derive(Clone, Copy)]
struct WholeLemma {
    /// A cell the player must be able to reach for the lemma to apply.
    reach: Option<Cell>,
    /// Its frame (`None`: it holds for any number of pushes).
    frame: Option<usize>,
}

impl WholeLemma {
    /// The pushes the positions it matches need at least ([`DEAD`]: any number fails).
    fn bound(&self) -> usize {
        self.frame.map_or(DEAD, |f| f + 1)
    }
}

/// Lemmas that name every box of a position, kept out of the solver: by the cells of
/// the boxes, what else each lemma needs (a cell of the player's region) and its frame.
pub(super) struct WholeLemmas {
    table: PositionTable<Vec<WholeLemma>>,
    /// A fill for the lemmas whose region is not known by name.
    region: Region,
    /// A scratch box mask for that fill.
    boxes: Vec<bool>,
}

impl WholeLemmas {
    /// An empty table for `level` that holds at most `limit` positions.
    pub fn new(level: &Level, limit: usize) -> WholeLemmas {
        WholeLemmas {
            table: PositionTable::with_limit(limit),
            region: Region::new(level),
            boxes: Vec::new(),
        }
    }

    /// Whether the table stopped growing (its memory limit).
    pub fn is_full(&self) -> bool {
        self.table.is_full()
    }

    /// How many box configurations the table holds.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Every lemma: the cells of its boxes, the cell the player must reach (if any),
    /// and whether it holds for any number of pushes.
    pub fn all(&self) -> Vec<(Vec<Cell>, Option<Cell>, bool)> {
        let mut all = Vec::new();
        for (key, lemmas) in self.table.iter() {
            let cells: Vec<Cell> = key.iter().map(|&c| c as Cell).collect();
            for l in lemmas {
                all.push((cells.clone(), l.reach, l.frame.is_none()));
            }
        }
        all
    }

    /// Records that boxes on `cells` (hashed `hash`, and nowhere else), the player able
    /// to reach `reach`, cannot reach the goal within `frame` pushes (`None`: ever).
    pub fn add(&mut self, hash: u64, cells: &[Cell], reach: Option<Cell>, frame: Option<usize>) {
        let new = WholeLemma { reach, frame };
        let Some(lemmas) = self.table.get_or_insert_with(
            hash,
            |k| is_key_of(k, cells, None),
            || key_of(cells, None),
            Vec::new,
        ) else {
            return; // the table is full: the lemma is not kept (the search stays sound)
        };
        match lemmas.iter_mut().find(|l| l.reach == reach) {
            // A higher frame says more about the same positions.
            Some(l) => {
                if new.bound() > l.bound() {
                    *l = new;
                }
            }
            None => lemmas.push(new),
        }
    }

    /// The most pushes the lemmas say the position after a push of the box on `from`
    /// to `to` in `s` needs (`hash`: that position's hash): one more than the highest
    /// frame that refutes it, [`DEAD`] when one refutes it for good, 0 when none does.
    /// `name`: the name of the player's region after the push, if known (else a
    /// lemma's region is checked by a fill).
    pub fn known_bound(
        &mut self,
        level: &Level,
        s: &Position,
        (from, to): (Cell, Cell),
        hash: u64,
        name: Option<Cell>,
    ) -> usize {
        if self.table.is_empty() {
            return 0;
        }
        let Some(lemmas) = (self.table).get(hash, |k| is_after_move(k, &s.cells, from, to)) else {
            return 0;
        };
        let mut best = 0;
        let mut after_ready = false;
        for l in lemmas {
            let bound = l.bound();
            if bound <= best {
                continue;
            }
            if let (Some(m), Some(name)) = (l.reach, name) {
                if m != name {
                    continue;
                }
            } else if let Some(m) = l.reach {
                if !after_ready {
                    self.boxes.clone_from(&s.boxes);
                    self.boxes[from] = false;
                    self.boxes[to] = true;
                    after_ready = true;
                }
                if !self.region.reaches(level, &self.boxes, from, m) {
                    continue;
                }
            }
            best = bound;
        }
        best
    }
}

/// What an UNSAT question taught about its position.
pub(super) struct Refutation {
    /// The part of the position the refutation used, on the position after a push.
    pub cube: Vec<Lit>,
    /// Whether it holds for any number of pushes.
    pub dead: bool,
    /// Whether the cube names every box (and no empty cell).
    pub whole: bool,
    /// Whether the cube says the player can reach the position's region.
    pub player_used: bool,
}

/// After an UNSAT question about `s` with `i` pushes left and `barred` barred: the part
/// of `s` that the refutation used, as literals on the position after the push (where
/// lemmas are checked). Also says whether the refutation used no frame and no push
/// barred by the potential or by a table lemma with a frame, so the lemma holds
/// whatever the number of pushes left.
pub(super) fn explain(
    formula: &OnePush,
    analysis: &Analysis,
    level: &Level,
    s: &Position,
    i: usize,
    barred: &Barred,
) -> Refutation {
    let core = formula
        .solver
        .failed_assumptions()
        .map(|c| c.to_vec())
        .unwrap_or_default();
    let in_core: HashSet<u32> = core.iter().map(|l| l.var()).collect();
    let used = |n: &usize| in_core.contains(&formula.pushes[*n].lit.var());
    let mut dead = !formula.frames().iter().any(|f| in_core.contains(&f.var()));
    let mut boxes_used = vec![None; s.boxes.len()];
    for l in core {
        if let Some(c) = formula.cell_of(l.var()) {
            boxes_used[c] = Some(s.boxes[c]);
        }
    }
    // A push the player could not make was used: the lemma is about this position
    // with the player in this region, which needs every box (see below).
    let player_used = barred.walled.iter().any(used);
    // Barred pushes the refutation used: keep enough of the boxes that every
    // position matching the lemma has the potential to bar them too.
    let heuristic = &analysis.heuristic;
    let least_change = (barred.by_potential.iter().filter(|n| used(n)))
        .map(|&n| heuristic.change(formula.pushes[n].from, formula.pushes[n].to))
        .min();
    if let Some(change) = least_change {
        dead = false;
        let count = s.cells.len();
        let mut extra: Vec<Cell> = (s.cells.iter().copied())
            .filter(|&c| boxes_used[c].is_none())
            .collect();
        extra.sort_by_key(|&c| std::cmp::Reverse(heuristic.cell(c)));
        let mut extra = extra.into_iter();
        let movable = |c: Cell| analysis.region[c] && analysis.live[c];
        while heuristic.least_potential(&boxes_used, count, movable) + change < i as i64 {
            let c = extra
                .next()
                .expect("all boxes give the position's own potential");
            boxes_used[c] = Some(true);
        }
    }
    // Pushes into positions a whole-position lemma refutes: only the same position
    // is sure to lead to the same one.
    let known_used: Vec<bool> = (barred.by_table.iter())
        .filter(|(n, _)| used(n))
        .map(|&(_, dead)| dead)
        .collect();
    dead &= known_used.iter().all(|&d| d);
    if !known_used.is_empty() || player_used {
        // Only the table can say where the player is (as its region), and the
        // table holds whole positions.
        for &c in &s.cells {
            boxes_used[c] = Some(true);
        }
    }
    // The lemma must not cover a solved position.
    let excludes_goal = level
        .goal_cells()
        .any(|g| boxes_used[g] == Some(false) || formula.box_now[g] == Term::FALSE);
    if !excludes_goal {
        let g = level
            .goal_cells()
            .find(|&g| !s.boxes[g])
            .expect("s is not solved");
        boxes_used[g] = Some(false);
    }
    // Every position has the same number of boxes, so a cube that names them all
    // says where the others are not: its "no box here" literals add nothing.
    let count = s.cells.len();
    let named = (s.cells.iter())
        .filter(|&&c| boxes_used[c] == Some(true))
        .count();
    if named == count {
        for used in boxes_used.iter_mut() {
            if *used == Some(false) {
                *used = None;
            }
        }
    }
    let mut cube = Vec::new();
    for (c, used) in boxes_used.into_iter().enumerate() {
        if let (Some(has_box), Term::Lit(l)) = (used, formula.box_next[c]) {
            cube.push(if has_box { l } else { !l });
        }
    }
    Refutation {
        cube,
        dead,
        whole: named == count,
        player_used,
    }
}
