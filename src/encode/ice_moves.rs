//! The `moves` encoding for levels with ice: one move per step, where a move's effect is
//! its whole slide. Each possible outcome of a move (which cells along the ray hold
//! boxes decides how far the player or the pushed box slides) gets its own variable,
//! enumerated from the rules engine's own definition of a move
//! ([`crate::game::rules::move_outcome`]), so the encoding cannot drift from the rules.
//! See `encodings/moves.md` (section "Ice").

use std::collections::{BTreeMap, HashMap};

use super::{Decoded, Encoding, EncodingKind, add_goal_clauses, name_cells};
use crate::analysis::Analysis;
use crate::game::rules::{MoveEffect, move_outcome};
use crate::game::{Move, Plan};
use crate::level::{Cell, Direction, Level};
use crate::sat::cnf::{at_most_one, implies};
use crate::sat::{ClauseSink, Lit, Term};
use crate::stop::{Stop, Stopped};

/// One way a move can end: the box cells it reads and what it does.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Cells whose box (true) or emptiness (false) this outcome needs.
    pub condition: Vec<(Cell, bool)>,
    /// What the move does then.
    pub effect: MoveEffect,
}

/// Every legal outcome of moving from `from` in direction `dir`, by deciding the cells the
/// rules engine asks about one at a time.
pub fn outcomes(level: &Level, from: Cell, dir: Direction) -> Vec<Outcome> {
    let mut found = Vec::new();
    let mut stack: Vec<BTreeMap<Cell, bool>> = vec![BTreeMap::new()];
    while let Some(known) = stack.pop() {
        let mut ask = |c: Cell| known.get(&c).copied().ok_or(c);
        match move_outcome(level, from, dir, &mut ask) {
            Ok(Ok(effect)) => found.push(Outcome {
                condition: known.into_iter().collect(),
                effect,
            }),
            Ok(Err(_)) => {}
            Err(cell) => {
                for value in [false, true] {
                    let mut next = known.clone();
                    next.insert(cell, value);
                    stack.push(next);
                }
            }
        }
    }
    found
}

/// The most cells the outcomes of one step may read (see [`outcome_cells`]); beyond it
/// the formula would take gigabytes, and the level is refused.
pub const MAX_OUTCOME_CELLS: usize = 4_000_000;

/// An upper estimate of the cells the outcomes of every move read: a move's outcomes
/// read the cells along its slide, one outcome more for each place a box can stop it,
/// so a straight line of n ice cells costs about n² per move. The outcome table and
/// every step's clauses grow with it.
pub fn outcome_cells(level: &Level) -> usize {
    let mut total = 0usize;
    for c in level.open_cells() {
        for d in Direction::ALL {
            let mut run = 0usize;
            let mut x = level.neighbor(c, d);
            while level.is_ice(x) {
                run += 1;
                x = level.neighbor(x, d);
            }
            total = total.saturating_add((run + 2) * (run + 2));
        }
    }
    total
}

/// The ice-aware `moves` encoding of one level.
pub struct IceMovesEncoding {
    level: Level,
    region: Vec<bool>,
    /// Outcomes of each (cell, direction), computed once.
    table: Vec<[Vec<Outcome>; 4]>,
    player: Vec<Vec<Term>>,
    boxes: Vec<Vec<Term>>,
    /// `chosen[t][c][d][i]`: at step t the player at c moves in direction d with
    /// outcome i.
    chosen: Vec<Vec<[Vec<Term>; 4]>>,
    goals: HashMap<usize, Lit>,
}

impl IceMovesEncoding {
    /// Sets up step 0 (the initial state, all constants).
    pub fn new(level: &Level, analysis: &Analysis) -> IceMovesEncoding {
        let n = level.cell_count();
        let table = (0..n)
            .map(|c| {
                if analysis.region[c] && !level.is_wall(c) {
                    Direction::ALL.map(|d| outcomes(level, c, d))
                } else {
                    Default::default()
                }
            })
            .collect();
        IceMovesEncoding {
            level: level.clone(),
            region: analysis.region.clone(),
            table,
            player: vec![(0..n).map(|c| Term::Const(c == level.player())).collect()],
            boxes: vec![
                (0..n)
                    .map(|c| Term::Const(level.has_initial_box(c)))
                    .collect(),
            ],
            chosen: Vec::new(),
            goals: HashMap::new(),
        }
    }
}

impl Encoding for IceMovesEncoding {
    fn kind(&self) -> EncodingKind {
        EncodingKind::Moves
    }

    fn steps(&self) -> usize {
        self.chosen.len()
    }

    fn add_step(&mut self, sink: &mut dyn ClauseSink, stop: &Stop) -> Result<(), Stopped> {
        let t = self.steps();
        let n = self.level.cell_count();
        let (player, boxes) = (self.player[t].clone(), self.boxes[t].clone());
        let fresh = |sink: &mut dyn ClauseSink, c: Cell| -> Term {
            if self.region[c] {
                sink.new_var().into()
            } else {
                Term::FALSE
            }
        };
        let next_player: Vec<Term> = (0..n).map(|c| fresh(sink, c)).collect();
        let next_boxes: Vec<Term> = (0..n)
            .map(|c| {
                if self.region[c] {
                    sink.new_var().into()
                } else {
                    Term::Const(self.level.has_initial_box(c))
                }
            })
            .collect();

        let mut chosen: Vec<[Vec<Term>; 4]> = vec![Default::default(); n];
        let mut arrive_player: Vec<Vec<Term>> = vec![Vec::new(); n];
        let mut box_leaves: Vec<Vec<Term>> = vec![Vec::new(); n];
        let mut box_arrives: Vec<Vec<Term>> = vec![Vec::new(); n];
        for c in 0..n {
            // A step grows with the board, and on a big board with ice it takes a
            // tenth of a second: the stop is read every 256 cells.
            if c % 256 == 0 && stop.should_stop() {
                return Err(Stopped);
            }
            if player[c].is_false() {
                continue;
            }
            let mut all_here = Vec::new();
            for d in Direction::ALL {
                for o in &self.table[c][d.index()] {
                    let v: Term = sink.new_var().into();
                    implies(sink, v, player[c]);
                    for &(cell, has) in &o.condition {
                        let b = boxes[cell];
                        implies(sink, v, if has { b } else { !b });
                    }
                    implies(sink, v, next_player[o.effect.player_to]);
                    arrive_player[o.effect.player_to].push(v);
                    if let Some((from, to)) = o.effect.box_move {
                        implies(sink, v, next_boxes[to]);
                        implies(sink, v, !next_boxes[from]);
                        box_leaves[from].push(v);
                        box_arrives[to].push(v);
                    }
                    chosen[c][d.index()].push(v);
                    all_here.push(v);
                }
            }
            // The player at c makes exactly one move (one outcome) from c.
            let mut clause = vec![!player[c]];
            clause.extend(all_here.iter().copied());
            sink.clause(&clause);
            at_most_one(sink, &all_here);
        }
        for x in 0..n {
            if !self.region[x] {
                continue;
            }
            let mut clause = vec![!next_player[x]];
            clause.extend(arrive_player[x].iter().copied());
            sink.clause(&clause);
            sink.clause(&[!next_player[x], !next_boxes[x]]);
            let mut leave = vec![!boxes[x], next_boxes[x]];
            leave.extend(box_leaves[x].iter().copied());
            sink.clause(&leave);
            let mut arrive = vec![boxes[x], !next_boxes[x]];
            arrive.extend(box_arrives[x].iter().copied());
            sink.clause(&arrive);
        }
        self.player.push(next_player);
        self.boxes.push(next_boxes);
        self.chosen.push(chosen);
        Ok(())
    }

    fn goal_literal(&mut self, k: usize, sink: &mut dyn ClauseSink) -> Lit {
        if let Some(&g) = self.goals.get(&k) {
            return g;
        }
        let goal = sink.new_var();
        // No backward pruning on ice: a slide moves a box many cells in one push.
        let no_pruning = vec![0; self.level.cell_count()];
        add_goal_clauses(sink, goal, &self.level, &self.boxes, &no_pruning, k);
        self.goals.insert(k, goal);
        goal
    }

    fn decode(
        &mut self,
        k: usize,
        model: &dyn Fn(Lit) -> bool,
        _sink: &mut dyn ClauseSink,
    ) -> Decoded {
        let mut plan = Plan::default();
        for t in 0..k {
            let mut found = None;
            for (c, dirs) in self.chosen[t].iter().enumerate() {
                for d in Direction::ALL {
                    if let Some(i) = dirs[d.index()].iter().position(|v| v.eval(model)) {
                        found = Some((d, self.table[c][d.index()][i].effect.pushed));
                    }
                }
            }
            match found {
                Some((dir, push)) => plan.moves.push(Move { dir, push }),
                None => return Decoded::Invalid(format!("no move at step {t}")),
            }
        }
        Decoded::Plan(plan)
    }

    fn variable_names(&self) -> Vec<(u32, String)> {
        let level = &self.level;
        let mut names = Vec::new();
        name_cells(&mut names, level, "player_at", &self.player);
        name_cells(&mut names, level, "box_at", &self.boxes);
        for (t, row) in self.chosen.iter().enumerate() {
            for (c, dirs) in row.iter().enumerate() {
                for d in Direction::ALL {
                    for (i, v) in dirs[d.index()].iter().enumerate() {
                        if let Some(l) = v.lit() {
                            let o = &self.table[c][d.index()][i];
                            names.push((
                                l.var(),
                                format!(
                                    "move {} {} t{t} ending {}{}",
                                    level.cell_name(c),
                                    d.letter(o.effect.pushed),
                                    level.cell_name(o.effect.player_to),
                                    o.effect.box_move.map_or(String::new(), |(_, to)| format!(
                                        ", box to {}",
                                        level.cell_name(to)
                                    ))
                                ),
                            ));
                        }
                    }
                }
            }
        }
        for (&k, &g) in &self.goals {
            names.push((g.var(), format!("goal k{k}")));
        }
        names.sort();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn a_slide_has_one_outcome_per_stopping_box() {
        // Player right of @: ice ~~ then floor. Walking right can stop at either ice cell
        // (a box ahead) or step onto the floor.
        let l = parse_xsb("t", "#######\n#@~~ $.#\n#######\n")
            .unwrap()
            .remove(0);
        let o = outcomes(&l, l.player(), Direction::Right);
        let ends: Vec<(usize, usize)> = o.iter().map(|o| l.row_col(o.effect.player_to)).collect();
        // Walks: stop on c2 or c3 (a box ahead) or reach c4. Pushes of a box on c2: it
        // slides to c4 (player follows to c3) or stops on c3 (player stays on c2).
        assert_eq!(o.len(), 5, "{ends:?}");
        assert_eq!(o.iter().filter(|o| o.effect.pushed).count(), 2);
        assert!(ends.contains(&(1, 4)));
    }
}
