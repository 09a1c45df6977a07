//! The one-push formula: a current position, one push, and the position after it, with
//! no steps, and the lemmas learned so far as clauses on the position after the push.

use std::collections::HashMap;

use crate::analysis::Analysis;
use crate::level::{Cell, Direction, Level};
use crate::sat::{Lit, SatBackend, Term, cnf};
use crate::stop::Stop;

/// One push variable: the box on `from` is pushed in `dir` (the player stands on
/// `behind`).
pub(super) struct PushVar {
    pub lit: Lit,
    pub from: Cell,
    pub dir: Direction,
    pub behind: Cell,
}

/// The formula and the solver that holds it.
pub(super) struct OnePush {
    pub solver: Box<dyn SatBackend>,
    /// `box_at(c)` after the push (where lemmas are stated).
    pub box_next: Vec<Term>,
    /// The cells whose `box_at(c)` before the push is a variable, with it: the
    /// assumptions that describe a position.
    pub box_lits: Vec<(Cell, Lit)>,
    /// `reach(c)` before the push: the player can walk to `c`, for the cells the
    /// player pushes from (the assumptions that say where it can walk).
    pub reach_lits: Vec<(Cell, Lit)>,
    /// The cell of each variable of `box_lits`, and of `reach_lits`, for reading cores.
    cell_of: HashMap<u32, Cell>,
    reach_cell_of: HashMap<u32, Cell>,
    /// Every push the formula knows, in the order of their variables.
    pub pushes: Vec<PushVar>,
}

impl OnePush {
    /// Writes the formula of `level` into `solver`: boxes on the cells that can hold one
    /// (the player's region, live cells), every push of a box on such a cell with the
    /// player's cell behind it in the region, exactly one push, where it leaves the box
    /// (one cell on; on ice the end of its slide, which the boxes ahead decide), and
    /// the deadlock patterns on the position after it. `None` when `stop` says stop
    /// before it is written (it grows with the board: a few hundred thousand variables
    /// on a 200×200 board).
    pub fn new(
        level: &Level,
        analysis: &Analysis,
        mut solver: Box<dyn SatBackend>,
        stop: &Stop,
    ) -> Option<OnePush> {
        let cells = level.cell_count();
        // The clock is read every 1024 cells or pushes written.
        let mut written = 0u32;
        let mut stopped = || {
            written = written.wrapping_add(1);
            written.is_multiple_of(1024) && stop.should_stop()
        };
        let region = &analysis.region;
        let movable = |c: Cell| region[c] && analysis.live[c];
        let mut box_now = vec![Term::FALSE; cells];
        let mut box_next = vec![Term::FALSE; cells];
        for c in 0..cells {
            if movable(c) {
                box_now[c] = Term::Lit(solver.new_var());
                box_next[c] = Term::Lit(solver.new_var());
            } else {
                // Boxes outside the region never move; dead cells never hold one (a box
                // may slide over dead ice, but never rests there).
                let fixed = Term::Const(!region[c] && level.has_initial_box(c));
                box_now[c] = fixed;
                box_next[c] = fixed;
            }
        }
        // Each push and the cells its box may come to rest on, with what must hold for
        // it to rest there: the cells it slides over are empty, and the next one stops it.
        let mut pushes = Vec::new();
        let mut ends: Vec<Vec<(Cell, Vec<Term>)>> = Vec::new();
        for c in (0..cells).filter(|&c| movable(c)) {
            if stopped() {
                return None;
            }
            for dir in Direction::ALL {
                let behind = level.neighbor(c, dir.opposite());
                let stops = slide_stops(level, &box_now, c, dir);
                if !region[behind] || stops.iter().all(|(to, _)| !movable(*to)) {
                    continue;
                }
                pushes.push(PushVar {
                    lit: solver.new_var(),
                    from: c,
                    dir,
                    behind,
                });
                ends.push(stops);
            }
        }
        // The player must be able to walk behind the box. Where it can is a fill
        // outside the solver, told by assumption; a refutation that needs a cell to be
        // out of reach names it, and its lemma holds wherever the player cannot get there.
        let mut reach = vec![None; cells];
        for p in &pushes {
            let r = *reach[p.behind].get_or_insert_with(|| solver.new_var());
            solver.add_clause(&[!p.lit, r]);
        }
        let reach_lits: Vec<(Cell, Lit)> = (0..cells)
            .filter_map(|c| reach[c].map(|l| (c, l)))
            .collect();
        let terms: Vec<Term> = pushes.iter().map(|p| Term::Lit(p.lit)).collect();
        // Pairwise, so the many small questions pay for no ladder variables (a ladder
        // only on boards of thousands of pushes, see `cnf::PAIRWISE_MAX`).
        cnf::at_least_one(&mut *solver, &terms);
        cnf::at_most_one_pairwise(&mut *solver, &terms);
        let mut into = vec![Vec::new(); cells];
        let mut out_of = vec![Vec::new(); cells];
        for (p, stops) in pushes.iter().zip(&ends) {
            if stopped() {
                return None;
            }
            let push = Term::Lit(p.lit);
            let first = level.neighbor(p.from, p.dir);
            // The box is there and the cell ahead is free; afterwards it has left.
            solver.clause(&[!push, box_now[p.from]]);
            solver.clause(&[!push, !box_now[first]]);
            solver.clause(&[!push, !box_next[p.from]]);
            out_of[p.from].push(push);
            if let [(to, _)] = stops.as_slice() {
                solver.clause(&[!push, box_next[*to]]);
                into[*to].push(push);
                continue;
            }
            // On ice: one literal per place it may rest, exactly one of them, and each
            // says what the boxes ahead must be.
            let mut rests = Vec::new();
            for (to, condition) in stops {
                let rest = Term::Lit(solver.new_var());
                solver.clause(&[!rest, push]);
                for &t in condition {
                    solver.clause(&[!rest, t]);
                }
                // The push and the condition make it rest there.
                let mut makes: Vec<Term> = vec![!push, rest];
                makes.extend(condition.iter().map(|&t| !t));
                solver.clause(&makes);
                solver.clause(&[!rest, box_next[*to]]);
                into[*to].push(rest);
                rests.push(rest);
            }
            let mut some = vec![!push];
            some.extend(&rests);
            solver.clause(&some);
        }
        for c in (0..cells).filter(|&c| movable(c)) {
            // A box stays unless pushed away; a box appears only if pushed in.
            let mut stays = vec![!box_now[c], box_next[c]];
            stays.extend(&out_of[c]);
            solver.clause(&stays);
            let mut appears = vec![!box_next[c], box_now[c]];
            appears.extend(&into[c]);
            solver.clause(&appears);
        }
        // Deadlocks no position on the way to the goal holds.
        for pattern in analysis.deadlocks.patterns() {
            let clause: Vec<Term> = pattern.iter().map(|&c| !box_next[c]).collect();
            solver.clause(&clause);
        }
        let box_lits: Vec<(Cell, Lit)> = (0..cells)
            .filter_map(|c| box_now[c].lit().map(|l| (c, l)))
            .collect();
        let cell_of = box_lits.iter().map(|&(c, l)| (l.var(), c)).collect();
        let reach_cell_of = reach_lits.iter().map(|&(c, l)| (l.var(), c)).collect();
        Some(OnePush {
            solver,
            box_next,
            box_lits,
            reach_lits,
            cell_of,
            reach_cell_of,
            pushes,
        })
    }

    /// The cell whose "box before the push" variable is `var`, if it is one.
    pub fn cell_of(&self, var: u32) -> Option<Cell> {
        self.cell_of.get(&var).copied()
    }

    /// The push variable of the box on `from` pushed in `dir`, if the formula has one.
    pub fn push_of(&self, from: Cell, dir: Direction) -> Option<usize> {
        self.pushes
            .iter()
            .position(|p| p.from == from && p.dir == dir)
    }

    /// The cell whose "reach" variable is `var`, if it is one.
    pub fn reach_cell_of(&self, var: u32) -> Option<Cell> {
        self.reach_cell_of.get(&var).copied()
    }

    /// Adds "no position matching `cube` (literals on the position after the push) can
    /// reach the goal" as a clause.
    pub fn add_lemma(&mut self, cube: &[Lit]) {
        // Boxes first: the solver watches the first literals it can, and "no box on c"
        // after a push is false far less often than "a box on c", so such watches are
        // disturbed less.
        let mut clause = Vec::with_capacity(cube.len());
        clause.extend(cube.iter().filter(|l| l.is_positive()).map(|&l| !l));
        clause.extend(cube.iter().filter(|l| !l.is_positive()).map(|&l| !l));
        self.solver.add_clause(&clause);
    }
}

/// Where a box on `cell` pushed in `dir` may come to rest, each with the conditions
/// (on `box_now`) under which it rests there: the next cell without ice; on ice the
/// rules' slide ([`crate::game::rules::slide_end_with`]) with the boxes ahead unknown.
/// Empty when a wall is ahead.
fn slide_stops(
    level: &Level,
    box_now: &[Term],
    cell: Cell,
    dir: Direction,
) -> Vec<(Cell, Vec<Term>)> {
    let first = level.neighbor(cell, dir);
    if level.is_wall(first) {
        return Vec::new();
    }
    let mut stops = Vec::new();
    // The cells the box has slid over (beyond the first) must hold no box.
    let mut clear: Vec<Term> = Vec::new();
    let mut at = first;
    loop {
        if !level.is_ice(at) {
            stops.push((at, clear.clone()));
            break;
        }
        let next = level.neighbor(at, dir);
        if level.is_wall(next) {
            stops.push((at, clear.clone()));
            break;
        }
        // A box on `next` stops it here; else it goes on.
        let mut here = clear.clone();
        here.push(box_now[next]);
        stops.push((at, here));
        clear.push(!box_now[next]);
        at = next;
    }
    // Conditions that are constantly false never happen.
    stops.retain(|(_, condition)| !condition.contains(&Term::FALSE));
    for (_, condition) in &mut stops {
        condition.retain(|&t| t != Term::TRUE);
    }
    stops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::slide_end;
    use crate::level::parse_xsb;

    #[test]
    fn slide_stops_agree_with_the_rules_on_every_board() {
        // A row of ice with boxes in some places: for each push the condition that
        // holds on the board names the rules' end.
        let text = "##########\n#@$~~~~~ #\n#   .    #\n##########\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let cells = level.cell_count();
        let start = level.box_cells().next().unwrap();
        for mask in 0..32u32 {
            let mut boxes = vec![false; cells];
            boxes[start] = true;
            for k in 0..5 {
                if mask & (1 << k) != 0 {
                    boxes[start + 2 + k] = true;
                }
            }
            if boxes[start + 1] {
                continue;
            }
            let known: Vec<Term> = (0..cells).map(|c| Term::Const(boxes[c])).collect();
            let stops = slide_stops(&level, &known, start, Direction::Right);
            let holding: Vec<Cell> = stops
                .iter()
                .filter(|(_, cond)| cond.iter().all(|&t| t == Term::TRUE))
                .map(|&(to, _)| to)
                .collect();
            let mut after = boxes.clone();
            after[start] = false;
            let end = slide_end(&level, &after, start + 1, Direction::Right);
            assert_eq!(holding, vec![end], "mask {mask:b}");
        }
    }
}
