//! The `moves` encoding: one player move (walk or push) per step.
//!
//! State at step t: `player_at(c, t)` for cells the player can be on at t, `box_at(c, t)`
//! for live cells a box can reach by t. Actions between t and t+1: `move(c, d, t)` (the
//! player leaves c in direction d) and `push(c, d, t)` (that move pushes the box at c+d).
//! Variables that static analysis proves false are constants and never reach the solver.
//! See `encodings/moves.md`.

use std::collections::HashMap;

use super::dimspec::Uniform;
use super::{
    Decoded, Encoding, EncodingKind, add_goal_clauses, name_cells, next_box_terms,
    start_as_variables,
};
use crate::analysis::{Analysis, UNREACHABLE};
use crate::game::{Move, Plan};
use crate::level::{Cell, Direction, Level};
use crate::sat::cnf::{at_most_one, implies, implies_any};
use crate::sat::{ClauseSink, Lit, Term};
use crate::stop::{Stop, Stopped};

/// The `moves` encoding of one level.
pub struct MovesEncoding {
    level: Level,
    region: Vec<bool>,
    live: Vec<bool>,
    player_distance: Vec<u32>,
    moves_to_box_at: Vec<u32>,
    pushes_to_goal: Vec<u32>,
    freeze_blocks: Vec<Vec<Cell>>,
    parity: bool,
    /// Whether walks commute (no ice), so their order can be fixed.
    commute: bool,
    /// Every step has the same variables (no pruning by time, no clauses spanning three
    /// steps): the form DIMSPEC needs.
    uniform: bool,
    /// `player[t][c]`: the player is at c at step t.
    player: Vec<Vec<Term>>,
    /// `boxes[t][c]`: a box is at c at step t.
    boxes: Vec<Vec<Term>>,
    /// `moves[t][c][d]`: between t and t+1 the player moves from c in direction d.
    moves: Vec<Vec<[Term; 4]>>,
    /// `pushes[t][c][d]`: that move pushes the box at c+d to c+2d.
    pushes: Vec<Vec<[Term; 4]>>,
    goals: HashMap<usize, Lit>,
}

impl MovesEncoding {
    /// Sets up step 0 (the initial state, all constants) for `level`.
    pub fn new(level: &Level, analysis: &Analysis, _sink: &mut dyn ClauseSink) -> MovesEncoding {
        let n = level.cell_count();
        let player0 = (0..n).map(|c| Term::Const(c == level.player())).collect();
        let boxes0 = (0..n)
            .map(|c| Term::Const(level.has_initial_box(c)))
            .collect();
        MovesEncoding {
            level: level.clone(),
            region: analysis.region.clone(),
            live: analysis.live.clone(),
            player_distance: analysis.player_distance.clone(),
            moves_to_box_at: analysis.moves_to_box_at.clone(),
            pushes_to_goal: analysis.pushes_to_goal.clone(),
            freeze_blocks: analysis.deadlocks.freeze_blocks().to_vec(),
            parity: analysis.parity,
            commute: !level.has_ice(),
            uniform: false,
            player: vec![player0],
            boxes: vec![boxes0],
            moves: Vec::new(),
            pushes: Vec::new(),
            goals: HashMap::new(),
        }
    }

    /// The time-uniform variant for DIMSPEC: step 0 has real variables for every cell
    /// (fixed by unit clauses) and no variable is pruned by time.
    pub fn new_uniform(level: &Level, analysis: &Analysis, sink: &mut dyn ClauseSink) -> Self {
        let mut enc = MovesEncoding::new(level, analysis, sink);
        enc.uniform = true;
        let box_may = |c| enc.region[c] && enc.box_possible(c, 0);
        let (player, boxes) =
            start_as_variables(sink, level, |c| enc.player_possible(c, 0), box_may);
        (enc.player[0], enc.boxes[0]) = (player, boxes);
        enc
    }

    /// `player_at(c, t)`.
    pub fn player_at(&self, cell: Cell, t: usize) -> Term {
        self.player[t][cell]
    }

    /// `box_at(c, t)`.
    pub fn box_at(&self, cell: Cell, t: usize) -> Term {
        self.boxes[t][cell]
    }

    /// Whether the player may be at `cell` at step t, by distance and parity.
    fn player_possible(&self, cell: Cell, t: usize) -> bool {
        if self.uniform {
            return self.region[cell];
        }
        let d = self.player_distance[cell];
        self.region[cell]
            && d != UNREACHABLE
            && d as usize <= t
            && (!self.parity || (t - d as usize).is_multiple_of(2))
    }

    /// Whether a box may be at `cell` at step t.
    fn box_possible(&self, cell: Cell, t: usize) -> bool {
        if self.uniform {
            return self.live[cell];
        }
        let d = self.moves_to_box_at[cell];
        self.live[cell] && d != UNREACHABLE && d as usize <= t
    }
}

impl Uniform for MovesEncoding {
    fn state(&self, t: usize) -> (&[Term], &[Term]) {
        (&self.player[t], &self.boxes[t])
    }
}

impl Encoding for MovesEncoding {
    fn kind(&self) -> EncodingKind {
        EncodingKind::Moves
    }

    fn steps(&self) -> usize {
        self.moves.len()
    }

    fn add_step(&mut self, sink: &mut dyn ClauseSink, stop: &Stop) -> Result<(), Stopped> {
        let t = self.steps();
        let n = self.level.cell_count();
        let level = &self.level;

        let next_player: Vec<Term> = (0..n)
            .map(|c| {
                if self.player_possible(c, t + 1) {
                    sink.new_var().into()
                } else {
                    Term::FALSE
                }
            })
            .collect();
        let next_boxes = next_box_terms(sink, level, &self.region, |c| self.box_possible(c, t + 1));

        let (player, boxes) = (&self.player[t], &self.boxes[t]);
        let mut moves = vec![[Term::FALSE; 4]; n];
        let mut pushes = vec![[Term::FALSE; 4]; n];
        for c in 0..n {
            if player[c].is_false() {
                continue;
            }
            for d in Direction::ALL {
                let q = level.neighbor(c, d);
                if level.is_wall(q) || next_player[q].is_false() {
                    continue;
                }
                moves[c][d.index()] = sink.new_var().into();
                let r = level.neighbor(q, d);
                if !boxes[q].is_false() && !level.is_wall(r) && !next_boxes[r].is_false() {
                    pushes[c][d.index()] = sink.new_var().into();
                }
            }
        }

        for c in 0..n {
            // On a board of tens of thousands of cells a step takes a tenth of a
            // second: the stop is read every 1024 cells.
            if c % 1024 == 0 && stop.should_stop() {
                return Err(Stopped);
            }
            if player[c].is_false() {
                continue;
            }
            // The player at c makes exactly one move from c.
            implies_any(sink, player[c], &moves[c]);
            at_most_one(sink, &moves[c]);
            for d in Direction::ALL {
                let (m, p) = (moves[c][d.index()], pushes[c][d.index()]);
                if m.is_false() {
                    continue;
                }
                let q = level.neighbor(c, d);
                implies(sink, m, player[c]);
                implies(sink, m, next_player[q]);
                if p.is_false() {
                    // No push possible this way: the move must find q empty.
                    implies(sink, m, !boxes[q]);
                } else {
                    let r = level.neighbor(q, d);
                    implies(sink, p, m);
                    implies(sink, p, boxes[q]);
                    sink.clause(&[!m, !boxes[q], p]);
                    implies(sink, p, !boxes[r]);
                    implies(sink, p, next_boxes[r]);
                }
            }
        }

        for x in 0..n {
            if !self.region[x] {
                continue;
            }
            if !next_player[x].is_false() {
                // The player arrives at x only by a move into x; no box shares its cell.
                let into: Vec<Term> = Direction::ALL
                    .iter()
                    .map(|&d| {
                        let from = level.neighbor(x, d.opposite());
                        if level.is_wall(from) {
                            Term::FALSE
                        } else {
                            moves[from][d.index()]
                        }
                    })
                    .collect();
                implies_any(sink, next_player[x], &into);
                sink.clause(&[!next_player[x], !next_boxes[x]]);
            }
            if boxes[x].is_false() && next_boxes[x].is_false() {
                continue;
            }
            // Frame axioms: a box leaves x only by a push from x - d, arrives only by a
            // push from x - 2d.
            let mut leave = vec![!boxes[x], next_boxes[x]];
            let mut arrive = vec![boxes[x], !next_boxes[x]];
            for d in Direction::ALL {
                let back = level.neighbor(x, d.opposite());
                if level.is_wall(back) {
                    continue;
                }
                leave.push(pushes[back][d.index()]);
                if let Some(back2) = level.checked_neighbor(back, d.opposite())
                    && !level.is_wall(back2)
                {
                    arrive.push(pushes[back2][d.index()]);
                }
            }
            sink.clause(&leave);
            sink.clause(&arrive);
        }

        // Freeze deadlocks: a 2×2 block of boxes and walls with a box off its goal.
        for block in &self.freeze_blocks {
            let terms: Vec<Term> = block.iter().map(|&c| !next_boxes[c]).collect();
            sink.clause(&terms);
        }

        // A walk straight back undoes the previous walk, so no shortest plan has one:
        // move(c, d, t-1) that is not a push excludes move(c+d, -d, t).
        if t > 0 {
            let (prev_moves, prev_pushes) = (&self.moves[t - 1], &self.pushes[t - 1]);
            for c in 0..n {
                for d in Direction::ALL {
                    let before = prev_moves[c][d.index()];
                    if before.is_false() {
                        continue;
                    }
                    let q = level.neighbor(c, d);
                    let back = moves[q][d.opposite().index()];
                    sink.clause(&[!before, prev_pushes[c][d.index()], !back]);
                    if self.commute {
                        // Two perpendicular walks commute when the other corner is
                        // free; keep only the order whose first direction comes first
                        // in LURD order (forbid d then d2 when d2 < d).
                        for d2 in Direction::ALL {
                            if d2.index() >= d.index() || d2 == d.opposite() {
                                continue;
                            }
                            let corner = level.neighbor(c, d2);
                            if level.is_wall(corner) {
                                continue;
                            }
                            let after = moves[q][d2.index()];
                            sink.clause(&[
                                !before,
                                prev_pushes[c][d.index()],
                                !after,
                                pushes[q][d2.index()],
                                self.boxes[t - 1][corner],
                            ]);
                        }
                    }
                }
            }
        }

        // A detour d, e, -d (e ⊥ d) through free cells is longer than the single walk e
        // from the same cell when that cell is free, so no shortest plan has one.
        if t > 1 && self.commute && !self.uniform {
            let (m0, p0) = (&self.moves[t - 2], &self.pushes[t - 2]);
            let (m1, p1) = (&self.moves[t - 1], &self.pushes[t - 1]);
            for c in 0..n {
                for d in Direction::ALL {
                    let first = m0[c][d.index()];
                    if first.is_false() {
                        continue;
                    }
                    let q = level.neighbor(c, d);
                    for e in Direction::ALL {
                        if e == d || e == d.opposite() {
                            continue;
                        }
                        let (second, r) = (m1[q][e.index()], level.neighbor(q, e));
                        let shortcut = level.neighbor(c, e);
                        if second.is_false() || level.is_wall(shortcut) || level.is_wall(r) {
                            continue;
                        }
                        let third = moves[r][d.opposite().index()];
                        sink.clause(&[
                            !first,
                            p0[c][d.index()],
                            !second,
                            p1[q][e.index()],
                            !third,
                            pushes[r][d.opposite().index()],
                            self.boxes[t - 2][shortcut],
                        ]);
                    }
                }
            }
        }

        self.player.push(next_player);
        self.boxes.push(next_boxes);
        self.moves.push(moves);
        self.pushes.push(pushes);
        Ok(())
    }

    fn goal_literal(&mut self, k: usize, sink: &mut dyn ClauseSink) -> Lit {
        if let Some(&g) = self.goals.get(&k) {
            return g;
        }
        assert!(k <= self.steps(), "goal asked beyond the encoded steps");
        let goal = sink.new_var();
        add_goal_clauses(
            sink,
            goal,
            &self.level,
            &self.boxes,
            &self.pushes_to_goal,
            k,
        );
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
            let chosen = self.moves[t].iter().enumerate().find_map(|(c, dirs)| {
                Direction::ALL
                    .into_iter()
                    .find(|d| dirs[d.index()].eval(model))
                    .map(|d| (c, d))
            });
            // A model always has a move at every step; a missing one shows up as a
            // shorter plan that then fails replay, which the driver reports.
            if let Some((c, dir)) = chosen {
                let push = self.pushes[t][c][dir.index()].eval(model);
                plan.moves.push(Move { dir, push });
            }
        }
        Decoded::Plan(plan)
    }

    fn variable_names(&self) -> Vec<(u32, String)> {
        let mut names = Vec::new();
        let level = &self.level;
        name_cells(&mut names, level, "player_at", &self.player);
        name_cells(&mut names, level, "box_at", &self.boxes);
        for (label, table) in [("move", &self.moves), ("push", &self.pushes)] {
            for (t, row) in table.iter().enumerate() {
                for (c, dirs) in row.iter().enumerate() {
                    for d in Direction::ALL {
                        if let Some(l) = dirs[d.index()].lit() {
                            names.push((
                                l.var(),
                                format!("{label} {} {} t{t}", level.cell_name(c), d.letter(false)),
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
