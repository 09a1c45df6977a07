//! Double-ended growth over the DIMSPEC form (Gocht and Balyo's incplan): one chain of
//! steps grows from the start and one back from the goal, and each question links the
//! two ends with one more transition, under an assumption dropped once refuted. Steps
//! near either end keep their clauses, learned ones included, from question to
//! question. Unlike the DIMSPEC text, the chains carry pruning that fits them: a box
//! `j` steps from the start only where the pushes from the start reach by then, and
//! `j` steps before the goal only where the goals are at most `j` pushes away.

use std::collections::HashMap;

use super::EncodingKind;
use super::dimspec::{Spec, spec};
use crate::analysis::{Analysis, UNREACHABLE, push_distances_from};
use crate::level::{Cell, Direction, Level};
use crate::sat::{Lit, SatBackend, SolveResult};
use crate::stop::Stop;

/// How a double-ended search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The pushes of a shortest plan.
    Plan(Vec<(Cell, Direction)>),
    /// No plan of at most this many pushes.
    NoneWithin(usize),
    /// Stopped with every push count below this one refuted.
    Stopped(usize),
    /// Refused (the level is unsolvable by analysis, or has ice).
    Refused(String),
}

/// One chain of steps: the first variable of each step's block.
struct Chain(Vec<u32>);

/// Finds a shortest plan of at most `max_pushes` pushes, asking `backend`.
pub fn solve(
    level: &Level,
    kind: EncodingKind,
    backend: &mut dyn SatBackend,
    max_pushes: usize,
    stop: &Stop,
) -> Ended {
    let analysis = Analysis::new(level);
    let spec = match spec(level, kind) {
        Ok(spec) => spec,
        Err(why) => return Ended::Refused(why),
    };
    let lower = EncodingKind::Pushes.lower_bound(&analysis);
    let parity = EncodingKind::Pushes.parity(&analysis);
    let start_boxes = level.box_cells().filter(|&b| analysis.region[b]);
    let from_start = push_distances_from(level, start_boxes);
    let to_goal = &analysis.pushes_to_goal;
    let grower = Grower { spec: &spec };

    let forward_block = |j: usize, backend: &mut dyn SatBackend| {
        let base = grower.block(backend);
        let far = |c: Cell| from_start[c] == UNREACHABLE || from_start[c] as usize > j;
        grower.prune(backend, base, far);
        base
    };
    let backward_block = |j: usize, backend: &mut dyn SatBackend| {
        let base = grower.block(backend);
        let far = |c: Cell| to_goal[c] == UNREACHABLE || to_goal[c] as usize > j;
        grower.prune(backend, base, far);
        base
    };
    let mut forward = Chain(vec![forward_block(0, backend)]);
    grower.add(backend, &spec.initial, forward.0[0], forward.0[0], None);
    let mut backward = Chain(vec![backward_block(0, backend)]);
    grower.add(backend, &spec.goal, backward.0[0], backward.0[0], None);
    if level.box_cells().all(|b| level.is_goal(b)) {
        return Ended::Plan(Vec::new());
    }
    // Question m links the last forward step to the last backward one by a transition:
    // m = (forward steps − 1) + (backward steps − 1) + 1.
    for m in 1..=max_pushes {
        if stop.should_stop() {
            return Ended::Stopped(m);
        }
        if m > 1 {
            if forward.0.len() <= backward.0.len() {
                let next = forward_block(forward.0.len(), backend);
                let last = *forward.0.last().expect("the start");
                grower.add(backend, &spec.transition, last, next, None);
                forward.0.push(next);
            } else {
                let next = backward_block(backward.0.len(), backend);
                let last = *backward.0.last().expect("the goal");
                grower.add(backend, &spec.transition, next, last, None);
                backward.0.push(next);
            }
        }
        if m < lower || parity.is_some_and(|p| m % 2 != p % 2) {
            continue;
        }
        let link = backend.new_var();
        let (from, to) = (
            *forward.0.last().expect("start"),
            *backward.0.last().expect("goal"),
        );
        grower.add(backend, &spec.transition, from, to, Some(link));
        match backend.solve(&[link]) {
            SolveResult::Sat => {
                return match grower.pushes(level, backend, &forward, &backward) {
                    Some(pushes) => Ended::Plan(pushes),
                    None => Ended::Refused("a model without one push per step".into()),
                };
            }
            SolveResult::Unsat => backend.add_clause(&[!link]),
            SolveResult::Unknown => return Ended::Stopped(m),
        }
    }
    Ended::NoneWithin(max_pushes)
}

/// Instantiates the sections of a [`Spec`] on blocks of fresh variables.
struct Grower<'a> {
    spec: &'a Spec,
}

impl Grower<'_> {
    /// A new step: its block of variables, with the universal clauses on it.
    fn block(&self, backend: &mut dyn SatBackend) -> u32 {
        let first = backend.new_var().var();
        for _ in 1..self.spec.variables {
            backend.new_var();
        }
        self.add(backend, &self.spec.universal, first, first, None);
        first
    }

    /// No box on the cells `far` marks in the step at `base`.
    fn prune(&self, backend: &mut dyn SatBackend, base: u32, far: impl Fn(Cell) -> bool) {
        for &(c, i) in &self.spec.boxes {
            if far(c) {
                backend.add_clause(&[!Lit::positive(base + i as u32 - 1)]);
            }
        }
    }

    /// Adds `clauses` with step t at `from` and step t+1 at `to`, each with `¬guard`.
    fn add(
        &self,
        backend: &mut dyn SatBackend,
        clauses: &[Vec<i64>],
        from: u32,
        to: u32,
        guard: Option<Lit>,
    ) {
        let v = self.spec.variables as i64;
        let mut lits = Vec::new();
        for clause in clauses {
            lits.clear();
            lits.extend(clause.iter().map(|&l| {
                let (index, base) = if l.abs() <= v {
                    (l.abs(), from)
                } else {
                    (l.abs() - v, to)
                };
                let lit = Lit::positive(base + index as u32 - 1);
                if l > 0 { lit } else { !lit }
            }));
            lits.extend(guard.map(|g| !g));
            backend.add_clause(&lits);
        }
    }

    /// The pushes of the model: the forward steps' in order, then the backward ones'
    /// from the far end to the goal.
    fn pushes(
        &self,
        level: &Level,
        backend: &dyn SatBackend,
        forward: &Chain,
        backward: &Chain,
    ) -> Option<Vec<(Cell, Direction)>> {
        let cells: HashMap<String, Cell> = (0..level.cell_count())
            .map(|c| (level.cell_name(c), c))
            .collect();
        let pushes: Vec<(usize, Cell, Direction)> = (self.spec.names.iter().enumerate())
            .filter_map(|(i, name)| {
                let mut words = name.split(' ');
                let (Some("push"), Some(cell), Some(d)) =
                    (words.next(), words.next(), words.next())
                else {
                    return None;
                };
                let d = Direction::ALL
                    .into_iter()
                    .find(|x| x.letter(true).to_string() == d)?;
                Some((i, *cells.get(cell)?, d))
            })
            .collect();
        let made = |base: u32| {
            (pushes.iter())
                .find(|&&(i, _, _)| backend.value(Lit::positive(base + i as u32)))
                .map(|&(_, c, d)| (c, d))
        };
        let steps = forward.0.iter().chain(backward.0[1..].iter().rev());
        steps.map(|&base| made(base)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oracle::{SearchResult, shortest_pushes};
    use crate::game::plan_from_pushes;
    use crate::level::parse_xsb;
    use crate::sat::VarisatBackend;

    #[test]
    fn double_ended_growth_finds_the_push_optimum() {
        let text = "########\n#@ $  .#\n#  ##  #\n# $  . #\n########\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let SearchResult::Optimal(best) = shortest_pushes(&level, 30, 100_000) else {
            panic!("solvable")
        };
        let mut backend = VarisatBackend::new();
        let Ended::Plan(pushes) = solve(
            &level,
            EncodingKind::Pushes,
            &mut backend,
            30,
            &Stop::never(),
        ) else {
            panic!("a plan")
        };
        assert_eq!(pushes.len(), best);
        plan_from_pushes(&level, &pushes)
            .unwrap()
            .verify(&level)
            .unwrap();
    }
}
