//! `bdd`: symbolic breadth-first search. Every state reachable in exactly `k` moves is
//! held at once, as one binary decision diagram over the box cells per cell of the
//! player, and layer `k + 1` is the image of layer `k` under the moves. The first
//! layer that meets the goals gives a move-optimal plan, read back layer by layer; a
//! layer with nothing new is the fixpoint, the proof that the level is unsolvable.
//! No SAT solver. The variables and the image are documented in `encodings/bdd.md`.

mod biodivine;
mod diagram;
mod layout;

use super::{About, Engine, Incumbent, Outcome, SatUse, SolveError, Stop, StopReason, Task};
use super::{Verdict, Statistics};
use crate::game::{Metric, Plan};
use biodivine::Biodivine;
pub use diagram::{Diagrams, Full};
pub use layout::Layout;

/// The symbolic engine.
pub struct Symbolic;

static ABOUT: About = About {
    name: "bdd",
    summary: "no SAT: breadth-first search over sets of states held as binary decision \
              diagrams, a layer per move (move-optimal; the fixpoint proves unsolvable)",
    metrics: &[Metric::Moves],
    optimal: true,
    sat: SatUse::None,
    encodings: false,
    ice: false,
    cores: 1,
    auto: false,
    fewest_moves_among_optimal: false,
    traces: false,
};

/// Bytes a node of a held set is counted as against `--memory` (a node of the library
/// takes 10 bytes; the sets being built, and the library's work tables during an
/// operation, take about as much again).
const BYTES_PER_NODE: usize = 32;

impl Engine for Symbolic {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        if let Some(reason) = &task.analysis.unsolvable {
            return Ok(Outcome::new(&ABOUT, Metric::Moves, Verdict::unsolvable(reason)));
        }
        let layout = Layout::new(task.level, task.analysis);
        if layout.vars() > usize::from(u16::MAX) {
            return Err(SolveError::Unsupported(format!(
                "the bdd engine takes at most {} box cells, this level has {}",
                u16::MAX,
                layout.vars()
            )));
        }
        let limits = Limits {
            max_moves: task.max_steps,
            max_nodes: task.tuning.memory / BYTES_PER_NODE,
        };
        let diagrams = Biodivine::new(layout.vars());
        let (verdict, counts) = search(&diagrams, &layout, &limits, stop, board);
        let mut outcome = Outcome::new(&ABOUT, Metric::Moves, verdict);
        outcome.stats = Statistics {
            layers: Some(counts.layers as u64),
            peak_nodes: Some(counts.peak_nodes as u64),
            ..Statistics::default()
        };
        Ok(outcome)
    }
}

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Plans longer than this many moves are not looked for (`None`: no bound).
    pub max_moves: Option<usize>,
    /// Nodes the held sets may take before the search stops.
    pub max_nodes: usize,
}

/// What a search measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Layers built (the deepest `k` whose states were all found).
    pub layers: usize,
    /// The most nodes the held sets took at once.
    pub peak_nodes: usize,
}

/// Searches the level of `layout` breadth first on `diagrams` within `limits`,
/// checking `stop`. Each layer without the goals raises the proven lower bound on
/// `board`.
pub fn search<D: Diagrams>(
    diagrams: &D,
    layout: &Layout,
    limits: &Limits,
    stop: &Stop,
    board: &Incumbent,
) -> (Verdict, Counts) {
    let mut counts = Counts::default();
    let verdict = match layers(diagrams, layout, limits, stop, board, &mut counts) {
        Ok(verdict) => verdict,
        Err(Full) => Verdict::Stopped {
            why: StopReason::Nodes {
                nodes: counts.peak_nodes as u64,
            },
        },
    };
    (verdict, counts)
}

/// The breadth-first layers, until the goals, the fixpoint, the bound or a stop.
fn layers<D: Diagrams>(
    d: &D,
    layout: &Layout,
    limits: &Limits,
    stop: &Stop,
    board: &Incumbent,
    counts: &mut Counts,
) -> Result<Verdict, Full> {
    let slots = layout.slots();
    let stopped = Verdict::Stopped {
        why: StopReason::Time,
    };
    let goal = d.cube(&layout.goal_values())?;
    let Some(alive_after) = layout.alive_after(d, stop)? else {
        return Ok(stopped);
    };
    let mut frontier = vec![d.empty(); slots];
    frontier[layout.start_slot()] = d.cube(&layout.start_values())?;
    let mut reached = frontier.clone();
    // Every layer is kept: the plan is read back through them.
    let mut kept: Vec<Vec<D::Set>> = Vec::new();
    // The nodes of the kept layers (without the frontier, counted below).
    let mut kept_nodes = 0;
    let nodes = |sets: &[D::Set]| sets.iter().map(|s| d.size(s)).sum::<usize>();
    for depth in 0.. {
        for (slot, set) in frontier.iter().enumerate() {
            let solved = d.and(set, &goal)?;
            if !d.is_empty(&solved) {
                kept.push(frontier);
                counts.layers = depth;
                let plan = read_back(d, layout, &kept, slot, &solved);
                return Ok(Verdict::Solved {
                    plan,
                    optimal: true,
                });
            }
        }
        if limits.max_moves == Some(depth) {
            counts.layers = depth;
            return Ok(Verdict::NoPlan { bound: depth });
        }
        // No plan of `depth` moves or fewer: the next layer is a proven bound.
        board.raise_lower(depth + 1);
        if board.closed() {
            return Ok(Verdict::Stopped {
                why: StopReason::Closed,
            });
        }
        let mut next = vec![d.empty(); slots];
        for (slot, set) in frontier.iter().enumerate() {
            if d.is_empty(set) {
                continue;
            }
            for step in layout.steps(slot) {
                if stop.should_stop() {
                    counts.layers = depth;
                    return Ok(stopped);
                }
                let image = layout.image(d, set, step, &alive_after)?;
                next[step.to] = d.or(&next[step.to], &image)?;
            }
        }
        let mut grew = false;
        for (slot, set) in next.iter_mut().enumerate() {
            *set = d.and_not(set, &reached[slot])?;
            if !d.is_empty(set) {
                grew = true;
                reached[slot] = d.or(&reached[slot], set)?;
            }
        }
        kept_nodes += nodes(&frontier);
        kept.push(std::mem::replace(&mut frontier, next));
        counts.layers = depth + 1;
        let held = kept_nodes + nodes(&reached) + nodes(&frontier);
        counts.peak_nodes = counts.peak_nodes.max(held);
        if held > limits.max_nodes {
            return Err(Full);
        }
        if !grew {
            let reason = format!(
                "every state reachable from the start was found in {} breadth-first layers \
                 (the fixpoint), and none has every goal covered",
                depth
            );
            return Ok(Verdict::Unsolvable { reason });
        }
    }
    unreachable!("the loop returns")
}

/// A move-optimal plan: one solved state of the last layer, then for each layer
/// below a state of it one move before, found by undoing each move the rules allow.
fn read_back<D: Diagrams>(
    d: &D,
    layout: &Layout,
    kept: &[Vec<D::Set>],
    slot: usize,
    solved: &D::Set,
) -> Plan {
    let mut boxes = d.witness(solved).expect("a non-empty set has a member");
    let mut slot = slot;
    let mut moves = Vec::new();
    for layer in kept[..kept.len() - 1].iter().rev() {
        let (before, before_boxes, step) = layout
            .predecessors(slot, &boxes)
            .find(|(p, b, _)| d.contains(&layer[*p], b))
            .expect("a state of layer k+1 has a predecessor in layer k");
        moves.push(step);
        slot = before;
        boxes = before_boxes;
    }
    moves.reverse();
    Plan { moves }
}

#[cfg(test)]
mod tests;
