//! The one-push formula: a current position, one push, and the position after it, with
//! no steps; frame literals that switch the lemmas of each frame on; and the lemma
//! clauses themselves.

use std::collections::HashMap;

use crate::analysis::Analysis;
use crate::level::{Cell, Direction, Level};
use crate::sat::{Lit, SatBackend, Term, cnf};

/// One push variable: the box on `from` goes to `to`, the player stands on `behind`.
pub(super) struct PushVar {
    pub lit: Lit,
    pub from: Cell,
    pub dir: Direction,
    pub to: Cell,
    pub behind: Cell,
}

/// The formula and the solver that holds it.
pub(super) struct OnePush {
    pub solver: Box<dyn SatBackend>,
    /// `box_at(c)` before the push (constants where no box can come or go).
    pub box_now: Vec<Term>,
    /// `box_at(c)` after the push (where lemmas are stated).
    pub box_next: Vec<Term>,
    /// The cells whose `box_at(c)` before the push is a variable, with it: the
    /// assumptions that describe a position.
    pub box_lits: Vec<(Cell, Lit)>,
    /// The cell of each variable of `box_lits`, for reading cores.
    cell_of: HashMap<u32, Cell>,
    /// Every push the formula knows, in the order of their variables.
    pub pushes: Vec<PushVar>,
    /// `frame[i]`: the literal that switches on the lemmas of frame `i`.
    frame: Vec<Lit>,
    /// Which cells are goals, and which need more than `j` pushes, for new frames.
    goal: Vec<bool>,
    pushes_to_goal: Vec<u32>,
    region: Vec<bool>,
}

impl OnePush {
    /// Writes the formula of `level` into `solver`: boxes on the cells that can hold one
    /// (the player's region, live cells), every push between two such cells with the
    /// player's cell behind in the region, exactly one push, its effect, and the
    /// deadlock patterns on the position after it.
    pub fn new(level: &Level, analysis: &Analysis, mut solver: Box<dyn SatBackend>) -> OnePush {
        let cells = level.cell_count();
        let region = &analysis.region;
        let movable = |c: Cell| region[c] && analysis.live[c];
        let mut box_now = vec![Term::FALSE; cells];
        let mut box_next = vec![Term::FALSE; cells];
        for c in 0..cells {
            if movable(c) {
                box_now[c] = Term::Lit(solver.new_var());
                box_next[c] = Term::Lit(solver.new_var());
            } else {
                // Boxes outside the region never move; dead cells never hold one.
                let fixed = Term::Const(!region[c] && level.has_initial_box(c));
                box_now[c] = fixed;
                box_next[c] = fixed;
            }
        }
        let mut pushes = Vec::new();
        for c in (0..cells).filter(|&c| movable(c)) {
            for dir in Direction::ALL {
                let to = level.neighbor(c, dir);
                let behind = level.neighbor(c, dir.opposite());
                if movable(to) && region[behind] {
                    let lit = solver.new_var();
                    pushes.push(PushVar {
                        lit,
                        from: c,
                        dir,
                        to,
                        behind,
                    });
                }
            }
        }
        let terms: Vec<Term> = pushes.iter().map(|p| Term::Lit(p.lit)).collect();
        // Pairwise, so the many small questions pay for no ladder variables (a ladder
        // only on boards of thousands of pushes, see `cnf::PAIRWISE_MAX`).
        cnf::at_least_one(&mut *solver, &terms);
        cnf::at_most_one_pairwise(&mut *solver, &terms);
        let mut into = vec![Vec::new(); cells];
        let mut out_of = vec![Vec::new(); cells];
        for p in &pushes {
            let push = Term::Lit(p.lit);
            // The box is there and its target is free; afterwards the box has moved.
            // Whether the player can get behind the box is not in the formula: the
            // pushes it cannot make are barred by assumption.
            solver.clause(&[!push, box_now[p.from]]);
            solver.clause(&[!push, !box_now[p.to]]);
            solver.clause(&[!push, !box_next[p.from]]);
            solver.clause(&[!push, box_next[p.to]]);
            into[p.to].push(push);
            out_of[p.from].push(push);
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
        OnePush {
            solver,
            box_now,
            box_next,
            box_lits,
            cell_of,
            pushes,
            frame: Vec::new(),
            goal: (0..cells).map(|c| level.is_goal(c)).collect(),
            pushes_to_goal: analysis.pushes_to_goal.clone(),
            region: region.clone(),
        }
    }

    /// The literal of frame `i`, created with its fixed lemmas on first use: frame 0 is
    /// the goal, and frame `i` forbids a box on a cell that needs more than `i` pushes.
    pub fn frame(&mut self, i: usize) -> Lit {
        while self.frame.len() <= i {
            let j = self.frame.len();
            let on = Term::Lit(self.solver.new_var());
            for c in 0..self.goal.len() {
                if j == 0 && self.goal[c] {
                    self.solver.clause(&[!on, self.box_next[c]]);
                } else if self.region[c] && self.pushes_to_goal[c] as usize > j {
                    self.solver.clause(&[!on, !self.box_next[c]]);
                }
            }
            if let Some(&below) = self.frame.last() {
                // A lemma of frame j holds in every frame below it, so switching on
                // frame j - 1 switches on frame j (and, by the chain, all above).
                self.solver.clause(&[Term::Lit(!below), on]);
            }
            self.frame.push(on.lit().expect("a variable"));
        }
        self.frame[i]
    }

    /// The frame literals made so far.
    pub fn frames(&self) -> &[Lit] {
        &self.frame
    }

    /// The cell whose "box before the push" variable is `var`, if it is one.
    pub fn cell_of(&self, var: u32) -> Option<Cell> {
        self.cell_of.get(&var).copied()
    }

    /// Adds "no position matching `cube` reaches the goal within `i` pushes" to frames
    /// `0..=i` (`None`: ever, to every frame), as a clause on the position after the
    /// push.
    pub fn add_lemma(&mut self, cube: &[Lit], i: Option<usize>) {
        let mut clause = Vec::with_capacity(cube.len() + 1);
        if let Some(i) = i {
            let on = self.frame(i);
            clause.push(!on);
        }
        // Boxes first: the solver watches the first literals it can, and "no box on c"
        // after a push is false far less often than "a box on c", so such watches are
        // disturbed less.
        clause.extend(cube.iter().filter(|l| l.is_positive()).map(|&l| !l));
        clause.extend(cube.iter().filter(|l| !l.is_positive()).map(|&l| !l));
        self.solver.add_clause(&clause);
    }

    /// The push whose variable is true in the last model.
    pub fn push_in_model(&self) -> usize {
        (0..self.pushes.len())
            .find(|&n| self.solver.value(self.pushes[n].lit))
            .expect("exactly one push")
    }
}
