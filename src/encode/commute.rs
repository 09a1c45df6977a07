//! Commuting pushes. Two consecutive pushes of different boxes can often be made in the
//! other order, reaching the same boxes with the player in the same region: two plans of
//! the same length that differ only in that order. Number the pushes by (cell,
//! direction) and take, among all shortest plans, the least in the lexicographic order
//! of its push sequence. It never has such a swappable pair in descending order, since
//! swapping the pair gives a smaller shortest plan. So these clauses forbid a
//! descending pair whenever the swap is certain to be legal, and a shortest plan stays.
//!
//! Pushes p (box A from a to a', player from pa) at step t and q (box B from b to b',
//! player from pb) at t + 1. The swap is certain to be legal when
//! - q can go first: pb is reachable at step t (and b' ≠ a, b ≠ a', checked statically);
//! - the player, after q, stands at b in the same region as a, i.e. a is reachable at
//!   step t + 2, so the rest of the plan is unchanged;
//! - p can go second: pa is reachable from b with A back on a. A shortest walk from b to
//!   pa at step t + 2 either avoids a, or ends u → a → pa for a side neighbour u of a.
//!   With A back on a, that walk can go round a through the corner next to pa and u,
//!   if the corner is free. So each side needs u blocked (wall or box) or its corner
//!   free.
//!
//! The pairs are counted with a ladder over q's number, so a step costs a few clauses
//! per push rather than one per pair. See `encodings/pushes.md`.

use std::collections::HashMap;

use crate::level::{Cell, Direction, Level};
use crate::sat::cnf::{implied_by_all, implied_by_any};
use crate::sat::{ClauseSink, Term};

/// The variables of one step that the commutation clauses read.
pub struct StepTerms<'a> {
    /// `push(c, d)` of the step, indexed by cell and direction.
    pub pushes: &'a [[Term; 4]],
    /// `reach(c)`: the player's region during the step (exact).
    pub reach: &'a [Term],
}

/// The position of push (cell, direction) in the order the clauses use.
fn push_number(cell: Cell, dir: Direction) -> usize {
    cell * 4 + dir.index()
}

/// The two directions at right angles to `dir`.
fn sides(dir: Direction) -> [Direction; 2] {
    let i = dir.index();
    [Direction::ALL[(i + 1) % 4], Direction::ALL[(i + 3) % 4]]
}

/// Forbids a swappable pair (p at step t, q at t + 1) with q numbered below p.
/// `first` and `second` are steps t and t + 1; `reach_after` and `boxes_after` are the
/// region and the boxes at step t + 2.
pub fn add_commutation(
    level: &Level,
    first: &StepTerms,
    second: &StepTerms,
    reach_after: &[Term],
    boxes_after: &[Term],
    sink: &mut dyn ClauseSink,
) {
    let n = level.cell_count();
    // q at t + 1 that could have been made at t: (number, cell, direction, q, q*).
    let mut early = Vec::new();
    for b in 0..n {
        for e in Direction::ALL {
            let q = second.pushes[b][e.index()];
            if q.is_false() {
                continue;
            }
            let behind = level.neighbor(b, e.opposite());
            let ready = implied_by_all(sink, &[q, first.reach[behind]]);
            if !ready.is_false() {
                early.push((push_number(b, e), b, e, q, ready));
            }
        }
    }
    // below[i]: one of the first i entries of `early` is ready (numbers ascend).
    let mut below = vec![Term::FALSE];
    for &(.., ready) in &early {
        let prev = *below.last().expect("starts with one entry");
        below.push(implied_by_any(sink, &[prev, ready]));
    }

    let mut side_open: HashMap<(Cell, Cell), Term> = HashMap::new();
    for (a, &reached) in reach_after.iter().enumerate() {
        for d in Direction::ALL {
            let p = first.pushes[a][d.index()];
            if p.is_false() {
                continue;
            }
            let count = early.partition_point(|e| e.0 < push_number(a, d));
            if below[count].is_false() {
                continue;
            }
            let (to, from) = (level.neighbor(a, d), level.neighbor(a, d.opposite()));
            let mut conditions = vec![p, reached];
            for s in sides(d) {
                let u = level.neighbor(a, s);
                if level.is_wall(u) {
                    continue;
                }
                let corner = level.neighbor(from, s);
                let corner_free = if level.is_wall(corner) {
                    Term::FALSE
                } else {
                    !boxes_after[corner]
                };
                let ok = *side_open
                    .entry((u, corner))
                    .or_insert_with(|| implied_by_any(sink, &[boxes_after[u], corner_free]));
                conditions.push(ok);
            }
            let swappable = implied_by_all(sink, &conditions);
            if swappable.is_false() {
                continue;
            }
            // Pushes q that cannot go first whatever the region: the same box again, or
            // a box pushed into the cell A left or the cell the player pushed A from.
            let mut clause = vec![!swappable, !below[count]];
            for &(_, b, e, q, _) in &early[..count] {
                let b_to = level.neighbor(b, e);
                if b == to || b_to == a || b_to == from {
                    clause.push(q);
                }
            }
            sink.clause(&clause);
        }
    }
}
