//! Player walks on a fixed box configuration: shortest paths by breadth-first search
//! over the rules engine's walking moves (so slides on ice count as one move), and the
//! expansion of a push sequence into a full LURD plan.

use std::collections::{HashMap, VecDeque};

use crate::level::{Cell, Direction, Level};
use crate::plan::{Move, Plan};
use crate::rules::{State, apply_move};

/// The shortest walk (no pushes) that takes the player from its cell in `state` to
/// `target`, or `None` if the boxes wall it off.
pub fn walk_to(level: &Level, state: &State, target: Cell) -> Option<Vec<Direction>> {
    let mut parent: HashMap<Cell, (Cell, Direction)> = HashMap::new();
    let mut queue = VecDeque::from([state.player]);
    let mut probe = state.clone();
    let start = state.player;
    while let Some(cell) = queue.pop_front() {
        if cell == target {
            let mut path = Vec::new();
            let mut at = cell;
            while at != start {
                let (from, dir) = parent[&at];
                path.push(dir);
                at = from;
            }
            path.reverse();
            return Some(path);
        }
        for dir in Direction::ALL {
            probe.player = cell;
            let Ok(effect) = apply_move(level, &mut probe, dir) else {
                continue;
            };
            if effect.pushed {
                // Undo: only walks are wanted here.
                probe.boxes.clone_from(&state.boxes);
                continue;
            }
            let to = effect.player_to;
            if to != start && !parent.contains_key(&to) {
                parent.insert(to, (cell, dir));
                queue.push_back(to);
            }
        }
    }
    None
}

/// The cells the player can walk to in `state` (its component), as a mask.
pub fn reachable(level: &Level, state: &State) -> Vec<bool> {
    let mut seen = vec![false; level.cell_count()];
    let mut queue = VecDeque::from([state.player]);
    seen[state.player] = true;
    let mut probe = state.clone();
    while let Some(cell) = queue.pop_front() {
        for dir in Direction::ALL {
            probe.player = cell;
            match apply_move(level, &mut probe, dir) {
                Ok(e) if !e.pushed => {
                    if !seen[e.player_to] {
                        seen[e.player_to] = true;
                        queue.push_back(e.player_to);
                    }
                }
                Ok(_) => probe.boxes.clone_from(&state.boxes),
                Err(_) => {}
            }
        }
    }
    seen
}

/// The player's region around a box mask, by breadth-first flood fill over the floor
/// (walls and boxes block; no ice). Each fill gets a new stamp, so nothing needs
/// clearing between fills; the searches call it once per position.
pub struct Region {
    stamp_of: Vec<u32>,
    stamp: u32,
    /// Cells reached whose neighbours are still to look at (a stack: the order does
    /// not change the region).
    pending: Vec<Cell>,
}

impl Region {
    /// An empty region for a level of `cells` cells.
    pub fn new(cells: usize) -> Region {
        Region {
            stamp_of: vec![0; cells],
            stamp: 0,
            pending: Vec::new(),
        }
    }

    /// Fills from `from` around `boxes` and returns the smallest cell reached, which
    /// names the region.
    pub fn fill(&mut self, level: &Level, boxes: &[bool], from: Cell) -> Cell {
        self.flood(level, boxes, from, None).0
    }

    /// Whether `target` is in the region of `from` around `boxes`: a fill that stops
    /// as soon as it gets there (after which [`Region::contains`] says nothing).
    pub fn reaches(&mut self, level: &Level, boxes: &[bool], from: Cell, target: Cell) -> bool {
        self.flood(level, boxes, from, Some(target)).1
    }

    /// Fills from `from` until the region is full or `target` is reached; returns the
    /// smallest cell reached and whether `target` was.
    fn flood(
        &mut self,
        level: &Level,
        boxes: &[bool],
        from: Cell,
        target: Option<Cell>,
    ) -> (Cell, bool) {
        if self.stamp == u32::MAX {
            // After four billion fills, start the stamps again.
            self.stamp_of.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        if target == Some(from) {
            return (from, true);
        }
        self.pending.clear();
        self.pending.push(from);
        self.stamp_of[from] = stamp;
        let mut smallest = from;
        let width = level.width();
        while let Some(c) = self.pending.pop() {
            smallest = smallest.min(c);
            // The four neighbours (a floor cell is never on the grid's edge).
            for n in [c - 1, c + 1, c - width, c + width] {
                if self.stamp_of[n] != stamp && !level.is_wall(n) && !boxes[n] {
                    if target == Some(n) {
                        return (smallest, true);
                    }
                    self.stamp_of[n] = stamp;
                    self.pending.push(n);
                }
            }
        }
        (smallest, false)
    }

    /// Whether the last fill reached `cell`.
    pub fn contains(&self, cell: Cell) -> bool {
        self.stamp_of[cell] == self.stamp
    }
}

/// Expands pushes `(box cell, direction)` into a plan: before each push the player takes
/// a shortest walk to the cell behind the box. `Err(i)` if push i cannot be made (the
/// player cannot get behind the box, or the push is illegal).
pub fn plan_from_pushes(level: &Level, pushes: &[(Cell, Direction)]) -> Result<Plan, usize> {
    let mut state = State::initial(level);
    let mut plan = Plan::default();
    for (i, &(cell, dir)) in pushes.iter().enumerate() {
        let behind = level.neighbor(cell, dir.opposite());
        if level.is_wall(behind) || !state.boxes[cell] {
            return Err(i);
        }
        let walk = walk_to(level, &state, behind).ok_or(i)?;
        for d in walk {
            apply_move(level, &mut state, d).map_err(|_| i)?;
            plan.moves.push(Move {
                dir: d,
                push: false,
            });
        }
        let effect = apply_move(level, &mut state, dir).map_err(|_| i)?;
        if !effect.pushed {
            return Err(i);
        }
        plan.moves.push(Move { dir, push: true });
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn reaches_agrees_with_a_full_fill() {
        // Two boxes wall the player into the left part of the corridor.
        let l = parse_xsb("t", "########\n#@ $  .#\n###$####\n  #.#\n  ###\n")
            .unwrap()
            .remove(0);
        let mut full = Region::new(l.cell_count());
        let mut early = Region::new(l.cell_count());
        full.fill(&l, l.initial_boxes(), l.player());
        for target in l.open_cells() {
            assert_eq!(
                early.reaches(&l, l.initial_boxes(), l.player(), target),
                full.contains(target),
                "cell {target}"
            );
        }
    }

    #[test]
    fn walks_around_a_box_and_pushes() {
        let l = parse_xsb("t", "#######\n#@    #\n# $  .#\n#     #\n#######\n")
            .unwrap()
            .remove(0);
        let b = l.box_cells().next().unwrap();
        let right = [
            (b, Direction::Right),
            (b + 1, Direction::Right),
            (b + 2, Direction::Right),
        ];
        let plan = plan_from_pushes(&l, &right).unwrap();
        assert_eq!(plan.lurd(), "dRRR");
        assert!(plan.verify(&l).is_ok());
        // Pushing left needs the player on the right of the box: walk round it.
        let plan = plan_from_pushes(&l, &[(b, Direction::Down)]).unwrap();
        assert_eq!(plan.lurd(), "rD");
    }

    #[test]
    fn walled_off_push_is_reported() {
        let l = parse_xsb("t", "######\n#@$ .#\n######\n")
            .unwrap()
            .remove(0);
        let b = l.box_cells().next().unwrap();
        assert_eq!(plan_from_pushes(&l, &[(b, Direction::Left)]), Err(0));
        let s = State::initial(&l);
        assert_eq!(reachable(&l, &s).iter().filter(|x| **x).count(), 1);
    }
}
