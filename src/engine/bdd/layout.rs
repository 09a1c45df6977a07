//! How a level's states become sets: which cells get a box variable, which cells the
//! player may stand on, and the moves between them as steps of the image.

use super::diagram::{Diagrams, Full};
use crate::engine::Stop;
use crate::analysis::Analysis;
use crate::game::Move;
use crate::level::{Cell, Direction, Level};

/// A state one move back and the move from it: its slot, its box variables.
pub type StepBack = (usize, Vec<bool>, Move);

/// One move of the player from a cell, as the image applies it to a set of box
/// positions.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The slot (player cell) the move leads to.
    pub to: usize,
    /// The box variable of the cell entered, if a box can stand there: the walk needs
    /// it false.
    pub entered: Option<usize>,
    /// The box variables of the cell entered and the cell beyond, when a box there can
    /// be pushed on (the cell beyond is live).
    pub push: Option<(usize, usize)>,
}

/// The variables and moves of one level.
pub struct Layout {
    /// The player's cells (the region), in row-major order: the slots.
    cells: Vec<Cell>,
    /// Per cell of the board, its box variable: the live cells of the region, in
    /// row-major order.
    var_of: Vec<Option<usize>>,
    vars: usize,
    /// Per slot, its moves.
    steps: Vec<Vec<Step>>,
    /// Per slot, the slot of its neighbour in each direction (by
    /// [`Direction::index`]), if the player can stand there.
    neighbors: Vec<[Option<usize>; 4]>,
    goals: Vec<usize>,
    /// Per box variable, the deadlock patterns through its cell, each as the box
    /// variables of its other cells.
    dead_with: Vec<Vec<Vec<usize>>>,
    start: Vec<bool>,
    start_slot: usize,
}

impl Layout {
    /// The layout of `level`, whose static analysis is `analysis` (a level it does not
    /// prove unsolvable: every box of the region stands on a live cell).
    pub fn new(level: &Level, analysis: &Analysis) -> Layout {
        let n = level.cell_count();
        let (mut slot_of, mut var_of) = (vec![None; n], vec![None; n]);
        let mut cells = Vec::new();
        let mut vars = 0;
        for c in 0..n {
            if analysis.region[c] {
                slot_of[c] = Some(cells.len());
                cells.push(c);
                if analysis.live[c] {
                    var_of[c] = Some(vars);
                    vars += 1;
                }
            }
        }
        let open = |c: Option<Cell>| c.filter(|&c| !level.is_wall(c));
        let steps: Vec<Vec<Step>> = cells
            .iter()
            .map(|&c| {
                Direction::ALL
                    .iter()
                    .filter_map(|&dir| {
                        let next = open(level.checked_neighbor(c, dir))?;
                        let beyond = open(level.checked_neighbor(next, dir));
                        let entered = var_of[next];
                        let push = entered.zip(beyond.and_then(|b| var_of[b]));
                        Some(Step {
                            to: slot_of[next].expect("a floor neighbour of the region is in it"),
                            entered,
                            push,
                        })
                    })
                    .collect()
            })
            .collect();
        let neighbors = cells
            .iter()
            .map(|&c| Direction::ALL.map(|dir| open(level.checked_neighbor(c, dir)).and_then(|n| slot_of[n])))
            .collect();
        let mut start = vec![false; vars];
        for c in level.box_cells() {
            if let Some(v) = var_of[c] {
                start[v] = true;
            }
        }
        let goals = level.goal_cells().filter_map(|g| var_of[g]).collect();
        let mut dead_with = vec![Vec::new(); vars];
        for pattern in analysis.deadlocks.patterns() {
            // A pattern with a cell no box can reach can never be completed.
            let Some(pattern_vars) = pattern.iter().map(|&c| var_of[c]).collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            for &v in &pattern_vars {
                dead_with[v].push(pattern_vars.iter().copied().filter(|&o| o != v).collect());
            }
        }
        let start_slot = slot_of[level.player()].expect("the player stands in its region");
        Layout {
            cells,
            var_of,
            vars,
            steps,
            neighbors,
            goals,
            dead_with,
            start,
            start_slot,
        }
    }

    /// The box variables.
    pub fn vars(&self) -> usize {
        self.vars
    }

    /// The player's cells.
    pub fn slots(&self) -> usize {
        self.cells.len()
    }

    /// The player's slot at the start.
    pub fn start_slot(&self) -> usize {
        self.start_slot
    }

    /// The boxes at the start, as literals.
    pub fn start_values(&self) -> Vec<(usize, bool)> {
        self.start.iter().copied().enumerate().collect()
    }

    /// A box on every goal of the region, as literals (as many boxes as goals, so
    /// nothing else need be said).
    pub fn goal_values(&self) -> Vec<(usize, bool)> {
        self.goals.iter().map(|&v| (v, true)).collect()
    }

    /// Per box variable, the placements a box may be pushed onto its cell in: no
    /// deadlock pattern (2×2 freeze block, dead pair or triple of the static
    /// analysis) through the cell is complete.
    /// `None` when `stop` says stop on the way.
    pub fn alive_after<D: Diagrams>(
        &self,
        d: &D,
        stop: &Stop,
    ) -> Result<Option<Vec<D::Set>>, Full> {
        let mut all = Vec::with_capacity(self.vars);
        for patterns in &self.dead_with {
            if stop.should_stop() {
                return Ok(None);
            }
            let mut alive = d.full();
            for others in patterns {
                let empty: Vec<(usize, bool)> = others.iter().map(|&o| (o, false)).collect();
                alive = d.and(&alive, &d.clause(&empty)?)?;
            }
            all.push(alive);
        }
        Ok(Some(all))
    }

    /// The moves from `slot`.
    pub fn steps(&self, slot: usize) -> &[Step] {
        &self.steps[slot]
    }

    /// The box positions after `step`, from the positions `set` with the player on the
    /// step's cell: a walk where the cell entered is free, and a push where it holds a
    /// box and the cell beyond is free (the box variables of the two cells set to
    /// their new values; every other variable stays), unless the push completes a
    /// deadlock pattern (`alive_after`, from [`Layout::alive_after`]).
    pub fn image<D: Diagrams>(
        &self,
        d: &D,
        set: &D::Set,
        step: &Step,
        alive_after: &[D::Set],
    ) -> Result<D::Set, Full> {
        let walk = match step.entered {
            Some(v) => d.and(set, &d.literal(v, false)?)?,
            None => set.clone(),
        };
        let Some((from, to)) = step.push else {
            return Ok(walk);
        };
        let pushable = d.restrict(set, &[(from, true), (to, false)])?;
        if d.is_empty(&pushable) {
            return Ok(walk);
        }
        let pushable = d.and(&pushable, &alive_after[to])?;
        let pushed = d.and(&pushable, &d.cube(&[(from, false), (to, true)])?)?;
        d.or(&walk, &pushed)
    }

    /// The states one move before the state (`slot`, `boxes`), each with the move
    /// that leads from it: the player came from the cell behind it, walking, or
    /// pushing the box now in front of it from the cell it stands on.
    pub fn predecessors<'a>(
        &'a self,
        slot: usize,
        boxes: &'a [bool],
    ) -> impl Iterator<Item = StepBack> + 'a {
        let here = self.cells[slot];
        Direction::ALL.into_iter().flat_map(move |dir| {
            let from = self.neighbors[slot][dir.opposite().index()];
            let walk = from.map(|p| (p, boxes.to_vec(), Move { dir, push: false }));
            let push = from.and_then(|p| {
                let ahead = self.neighbors[slot][dir.index()]?;
                let moved = self.var_of[self.cells[ahead]]?;
                let was = self.var_of[here]?;
                boxes[moved].then(|| {
                    let mut before = boxes.to_vec();
                    before[moved] = false;
                    before[was] = true;
                    (p, before, Move { dir, push: true })
                })
            });
            walk.into_iter().chain(push)
        })
    }
}
