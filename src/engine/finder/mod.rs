//! The plan finder: best-first searches over push positions that look for a verified
//! plan fast and prove nothing about its length.
//!
//! A node is a box configuration and the player's region (named by its smallest cell);
//! an edge is a push, or several pushes of one box: through a tunnel, or onto an
//! entrance of the next goal of the packing order and on to that goal (a goal
//! macro). Positions are filed by their features (goals of the packing order filled,
//! and optionally regions of the floor; [`features`]) and, within a cell, in A*'s order (pushes made plus the cheapest
//! assignment of boxes to goals); turns alternate between the most advanced cell and
//! the others ([`frontier`]). Pushes into dead squares, deadlock patterns, frozen boxes
//! off their goals, corrals that can never open again ([`corral`]), learned knots
//! ([`knots`]) and boxes frozen on goals that wall the rest off ([`frozen_goals`]) are
//! not made.
//!
//! Up to five searches share the core in slices (a portfolio; the finder alone adds
//! two, and gives the searches by a plan longer turns, [`BY_PLAN_SLICES`]): one
//! pushes everywhere, one only into a PI-corral where there is one, the macro search moves a box its
//! whole way at a time, FESS-style ([`macros`]), a second macro search follows a
//! plan of box moves from a backward search to the boxes' start cells
//! ([`base_plan`]), when that search finds one, and a third moves only a PI-corral's
//! boxes where there is one. They solve different levels. The
//! first plan of a push search is the answer; a plan of a macro search is held
//! while the push searches have a grace, and the shorter one is the answer (or,
//! for a caller that takes a better plan later, answered at once).
//!
//! Every technique can be switched off for measurements with `--finder-off`, a
//! comma-separated list of the names in [`Techniques`]; those off by default
//! (`connectivity`, `partial-order`) are switched on with `--finder-on`.
//! They reach the finder in the request's [`Tuning`](super::Tuning).

mod base_plan;
mod corral;
mod features;
mod few_boxes;
mod frontier;
mod frozen_goals;
mod knots;
mod macros;
mod out_of_plan;
#[cfg(test)]
mod random_pushes;
mod search;

use std::time::{Duration, Instant};

use base_plan::BasePlan;
pub(crate) use corral::Corrals;
pub(crate) use knots::Knots;
use macros::MacroSearch;
use search::Search;

use super::push_search::arena::Arena;
use super::push_search::{self, Push, SearchAnswer};
use super::{
    About, Engine, Incumbent, Outcome, SatUse, SolveError, Stop, StopReason, Task, Verdict,
};
use crate::game::Metric;

/// The bytes a stored position costs besides its cells (one byte per box and one for
/// the player's name on levels of up to 256 floor cells, else two): its node in the
/// arena (12, and about 7 in its table), its place in the frontier (12, and the
/// heaps' spare room) and its count of changes of box (4), rounded up.
const BYTES_PER_POSITION: usize = 44;

/// The extra cost, in pushes, of turning to another box within a feature cell. FESS
/// counts a search's depth in macro moves (one box taken anywhere it can go), which
/// makes a plan that finishes one box before it starts the next cheap; at push level
/// the same bias is a cost per change of box. Measured on XSokoban, the finder alone
/// at 10 s: 35 levels without it, 41 at 3, 42 at 5, 43 at 10, 44 at 20 and 44 at 40.
pub const SWITCH_COST: u32 = 20;

/// How many times the estimate (the cheapest assignment of boxes to goals) counts
/// against the pushes made, within a feature cell, in a search that charges changes of
/// box (without the charge a weighted search wanders; it keeps A*'s order, a weight of
/// 1). Above 1 the search dives toward the
/// goals rather than widening at the same cost, as FESS's 0/1 move weights do; plans
/// may come out a little longer (the `anytime` engine shortens them). Measured on
/// XSokoban, the finder alone at 60 s: 64 levels at 2 against 62 at 1 (gains 39, 42, 77,
/// 86; loses 48, 63), in 1.02× the time on the 60 levels both solve (geometric mean), the
/// plans' pushes a median 1.00× (at most 1.09×); Microban at 10 s 153 either way.
pub const ESTIMATE_WEIGHT: u32 = 2;

/// Positions one search expands before the next search of the portfolio takes the core.
const SLICE: usize = 512;

/// The slices a search by the plan with bases expands per turn in the finder alone,
/// where every other member expands one: that plan is the best-informed guide the
/// portfolio has, and of its seven members the two searches by it are the ones that
/// finish where the others fail, if any does. Measured on XSokoban, the finder alone
/// at 60 s: 78 levels at 1, 79 at 3, 80 at 5 (gains 21 and 85, none lost, 0.97× the
/// first-plan time on the 78 both solve; docs/bench/finder-60/one-slice-by-plan.csv)
/// and 79 at 8 (loses 39, solved by a push search at 53 s under 5). At 5 the push
/// searches' grace after a held plan runs to the clock more often: 16 and 21 are
/// answered at the stop. `anytime`'s plan core (four members, the proof core running
/// the second search by the plan) keeps one slice: at 5 it lost 71 (solved at 40 s by
/// a push search) and gained nothing on the 22 levels it solves after 5 s or not at
/// all.
const BY_PLAN_SLICES: usize = 5;

/// The most positions each backward search for a plan with bases stores (the one by
/// the nearest bases, then the one by the cheapest assignment): on XSokoban, where the
/// first finds a plan, it does so in a median 3 ms (at most 0.15 s), and 20 000
/// positions take 0.1 to 1 s.
const BASE_PLAN_POSITIONS: usize = 20_000;

/// The most time the backward searches for a plan with bases take from the searches,
/// both together; where they find none, the packing pass with parking has as much
/// again (`parking`, which needs `bases`).
const BASE_PLAN_TIME: Duration = Duration::from_secs(1);

/// The least grace, in push expansions, the push searches have after the macro search
/// found a plan (see [`PlanFinder::run`]).
const MIN_GRACE: u64 = 4 * SLICE as u64;

/// Declares [`Techniques`] from one list of its switches: each field, its name on the
/// command line (`--finder-off`, `--finder-on`) and its doc, spelled once.
macro_rules! techniques {
    ($($(#[$doc:meta])* $field:ident = $name:literal,)*) => {
        /// The techniques of the finder, each of which can be switched off (or on) for
        /// measurements.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub struct Techniques {
            $($(#[$doc])* pub $field: bool,)*
        }

        impl Techniques {
            /// The names `--finder-off` and `--finder-on` take, in the order of the fields.
            pub const NAMES: &[&str] = &[$($name),*];

            /// Every technique on.
            pub const ALL: Techniques = Techniques { $($field: true),* };

            /// The switch of the technique `name`, if there is one.
            fn switch_mut(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $($name => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// The switches in the order of [`Techniques::NAMES`].
            #[cfg(test)]
            fn flags(self) -> Vec<bool> {
                vec![$(self.$field),*]
            }
        }
    };
}

techniques! {
    /// Prune pushes that freeze a box off its goal (`freeze`).
    freeze = "freeze",
    /// Push a box through a tunnel in one step (`tunnels`).
    tunnels = "tunnels",
    /// File positions by the goals of the packing order filled (`packing`).
    packing = "packing",
    /// Prune positions whose corral can never be opened (`corrals`).
    corrals = "corrals",
    /// Prune positions holding a few boxes jammed together that cannot all reach
    /// goals, learned where the search makes them (`knots`). The goal-by-goal planner
    /// refuses the subgoal ends that hold one.
    knots = "knots",
    /// Rotate turns over the cells of the features (`rotation`).
    rotation = "rotation",
    /// File positions by the regions the boxes split the floor into (`connectivity`;
    /// off by default: on XSokoban the finder alone solves 48 levels at 10 s
    /// without it against 45, and 50 against 49 at 60 s, in 0.75× the time).
    connectivity = "connectivity",
    /// Where a PI-corral is, push only into it (`pi-corrals`; the second search of
    /// the portfolio).
    pi_corrals = "pi-corrals",
    /// Run the search with PI-corral pruning beside the one without (`portfolio`).
    portfolio = "portfolio",
    /// Under `anytime`, run the goal-by-goal SAT planner beside the finder until the
    /// first plan (`subgoals`).
    subgoals = "subgoals",
    /// Within a cell, count a push of another box than the one pushed last as
    /// [`SWITCH_COST`] extra pushes, unless the push advances the features
    /// (`switches`).
    switches = "switches",
    /// Run a second finder, without the charge and without PI-corral pruning
    /// ([`Techniques::second_finder`]): under `anytime` in turns with the goal-by-goal
    /// planner on the proof core until the first plan, in the finder alone as one
    /// more push search of its portfolio (`second`).
    second = "second",
    /// When a push brings a box onto the entrance of the next goal of the packing
    /// order, also push it on to that goal in one step (`goal-macros`).
    goal_macros = "goal-macros",
    /// Count a goal as packed once the goals it shuts off are filled, not all the
    /// goals before it in the packing order (`partial-order`; off by default: on
    /// XSokoban the finder alone solves 53 levels at 60 s either way, four others,
    /// in 1.2× the time).
    partial_order = "partial-order",
    /// Prune a position where the boxes frozen on goals wall another box off from
    /// every goal left, or a goal left from every box, in the push and the macro
    /// searches ([`frozen_goals`]; `frozen-goals`).
    frozen_goals = "frozen-goals",
    /// Run a third search in the portfolio whose moves take one box anywhere it can
    /// go, FESS-style ([`macros`]; `macros`).
    macros = "macros",
    /// Run a fourth, a macro search filed by the steps of a plan that a backward
    /// search taking boxes to the cells where boxes start made ([`base_plan`];
    /// `bases`).
    bases = "bases",
    /// Where the backward searches with bases find no plan, give that macro search
    /// the plan of the packing pass in which boxes may wait off the goals
    /// ([`crate::analysis::parking_plan`]; `parking`).
    parking = "parking",
    /// File the macro searches' positions by the boxes standing where the next steps
    /// would shut them off, and let an advisor move them away ([`out_of_plan`];
    /// `out-of-plan`).
    out_of_plan = "out-of-plan",
    /// Select the next position of the macro search filed by the packing order as
    /// FESS does: filed under the most advanced feature cell on its way, ties of
    /// weight going to the most advanced features of its own, and every other turn
    /// in a round of the cells, a new cell first (else filed under its own cell, the
    /// other turns at the least advanced cell; `fess-turns`).
    fess_turns = "fess-turns",
    /// The same selection in the macro search filed by a plan with bases
    /// (`fess-turns-bases`; off by default: on XSokoban the finder alone solves 73
    /// levels at 60 s with it against 74 without, losing two and gaining one, and
    /// with the macro searches' test by frozen goals 68 against 70 at 20 s).
    fess_turns_bases = "fess-turns-bases",
    /// Before the macro searches expand a position, test every corral of it by the
    /// strict criterion: pushes of its fence alone must leave the player a board
    /// without corrals, or bring every fence box onto a goal ([`corral`];
    /// `strict-corrals`). The goal-by-goal planner tests its subgoals' ends the same
    /// way.
    strict_corrals = "strict-corrals",
    /// Run a fifth search in the portfolio: the macro search filed by the packing
    /// order that, where a PI-corral is, moves only the boxes of its fence the player
    /// can push into it, as the push searches' second member does push by push
    /// (`pi-macros`).
    pi_macros = "pi-macros",
    /// Where the search by a plan with bases keeps the older selection, run it a
    /// second time under FESS's (`bases-both-turns`): in the finder alone's
    /// portfolio, and in turns on `anytime`'s proof core. The two selections solve
    /// different levels.
    bases_both_turns = "bases-both-turns",
    /// The goal-by-goal planner tests its subgoals' ends, and the positions it keeps
    /// failing from, by an exhaustive push search with a budget, and refuses the boxes
    /// a dead end needs in every later question (`dead-ends`).
    dead_ends = "dead-ends",
}

impl Techniques {
    /// The techniques the finder uses unless told otherwise: all but `connectivity`,
    /// `partial-order` and `fess-turns-bases`.
    pub const DEFAULT: Techniques = Techniques {
        connectivity: false,
        partial_order: false,
        fess_turns_bases: false,
        ..Techniques::ALL
    };

    /// The techniques of a macro search, filed by a plan with bases (`by_plan`) or by
    /// the packing order: FESS's selection is `fess-turns-bases` for the one and
    /// `fess-turns` for the other.
    fn for_macros(self, by_plan: bool) -> Techniques {
        let fess_turns = if by_plan {
            self.fess_turns_bases
        } else {
            self.fess_turns
        };
        Techniques { fess_turns, ..self }
    }

    /// These techniques with those named in `off` switched off and those in `on`
    /// switched on (`off` wins); `Err` names a name that is no technique.
    pub fn switched(self, off: &[String], on: &[String]) -> Result<Techniques, String> {
        let mut t = self;
        for (names, value) in [(on, true), (off, false)] {
            for name in names {
                *t.switch_mut(name.trim()).ok_or_else(|| {
                    format!(
                        "{name:?} is no technique of the finder; the techniques are: {}",
                        Techniques::NAMES.join(", ")
                    )
                })? = value;
            }
        }
        Ok(t)
    }

    /// The portfolio split over two cores: the search without PI-corral pruning (with
    /// the macro search, when on), and the one with it when the portfolio has both
    /// (alone, to run where it will).
    pub fn split(self) -> (Techniques, Option<Techniques>) {
        match (self.pi_corrals, self.portfolio) {
            (true, true) => (
                Techniques {
                    pi_corrals: false,
                    ..self
                },
                Some(Techniques {
                    portfolio: false,
                    macros: false,
                    bases: false,
                    ..self
                }),
            ),
            _ => (self, None),
        }
    }

    /// The searches of the portfolio, on one core: the halves of [`Techniques::split`].
    fn searches(self) -> Vec<Techniques> {
        let (first, pi) = self.split();
        std::iter::once(first).chain(pi).collect()
    }

    /// The second finder's search (`anytime` runs it on the proof core; the finder
    /// alone in its portfolio): A*'s order without the charge for a change of box,
    /// with the connectivity feature, without PI-corral pruning or macro searches
    /// (those run once, in the first finder's portfolio). The first finder's order
    /// solves most levels, and this one others: on XSokoban, with connectivity it
    /// finds 11, 27 and 40 within the minute; without it, only 40.
    pub fn second_finder(self) -> Techniques {
        Techniques {
            switches: false,
            pi_corrals: false,
            portfolio: false,
            connectivity: true,
            macros: false,
            bases: false,
            pi_macros: false,
            ..self
        }
    }
}

/// A search of the portfolio: over pushes, or over macro moves.
enum Member<'a> {
    Pushes(Box<Search<'a>>),
    Macros(Box<MacroSearch<'a>>),
}

impl Member<'_> {
    fn start(&mut self) -> Option<SearchAnswer> {
        match self {
            Member::Pushes(s) => s.start(),
            Member::Macros(s) => s.start(),
        }
    }

    /// Looks only for plans of at most `max` pushes from now on.
    fn tighten(&mut self, max: usize) {
        match self {
            Member::Pushes(s) => s.tighten(max),
            Member::Macros(s) => s.tighten(max),
        }
    }

    fn advance(&mut self, budget: usize, stop: &Stop) -> Option<SearchAnswer> {
        match self {
            Member::Pushes(s) => s.advance(budget, stop),
            Member::Macros(s) => s.advance(budget, stop),
        }
    }

    /// The slices this search expands per turn: `by_plan` for a search by the plan
    /// with bases, else one.
    fn slices(&self, by_plan: usize) -> usize {
        match self {
            Member::Macros(s) if s.by_plan() => by_plan,
            _ => 1,
        }
    }

    fn positions(&self) -> usize {
        match self {
            Member::Pushes(s) => s.positions(),
            Member::Macros(s) => s.positions(),
        }
    }

    fn expanded(&self) -> u64 {
        match self {
            Member::Pushes(s) => s.expanded,
            Member::Macros(s) => s.expanded,
        }
    }

    fn release(&mut self) -> usize {
        match self {
            Member::Pushes(s) => s.release(),
            Member::Macros(s) => s.release(),
        }
    }

    fn grant(&mut self, more: usize) {
        match self {
            Member::Pushes(s) => s.grant(more),
            Member::Macros(s) => s.grant(more),
        }
    }

    #[cfg(test)]
    fn allowed(&self) -> usize {
        match self {
            Member::Pushes(s) => s.allowed(),
            Member::Macros(s) => s.allowed(),
        }
    }
}

/// What [`find_plan`] counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct FinderStats {
    /// Positions stored.
    pub positions: u64,
    /// Positions expanded.
    pub expanded: u64,
}

/// Searches `task`'s level for a plan with the `techniques`, checking
/// `stop`. A plan comes back as its pushes. Running out of positions proves the level
/// unsolvable only for a search that skipped none (no macro, no corral pruning).
pub fn find_plan(task: &Task, techniques: &Techniques, stop: &Stop) -> (SearchAnswer, FinderStats) {
    let mut finder = PlanFinder::alone(task, techniques, task.tuning.memory, stop);
    let answer = finder.run(stop);
    (answer, finder.stats())
}

/// Which searches a [`PlanFinder`] runs.
#[derive(Clone, Copy)]
enum Portfolio {
    /// The portfolio of `techniques` ([`PlanFinder::new`]).
    Core,
    /// With the members `anytime` runs on its other core ([`PlanFinder::alone`]).
    Alone,
    /// Only the search by the plan under FESS's selection
    /// ([`PlanFinder::by_plan_under_fess_turns`]).
    FessByPlan,
}

/// The searches of the portfolio, resumable: [`PlanFinder::run`] goes on from where
/// the last call stopped, so the finder can share a core with another planner.
pub struct PlanFinder<'a> {
    /// The searches; `None` when the stop came before they were ready.
    searches: Option<Vec<Member<'a>>>,
    /// The searches that have not given up, by index; `None` before the first run.
    running: Option<Vec<usize>>,
    /// Positions a search expands before the next search's turn (in push
    /// expansions; a search by the plan with bases expands `by_plan_slices` times as
    /// many).
    slice: usize,
    /// The slices a search by the plan with bases expands per turn.
    by_plan_slices: usize,
    /// The answer of the last search to give up.
    last: SearchAnswer,
    /// Positions stored by searches already given up and released.
    released: FinderStats,
    /// The bytes one stored position is counted at.
    per_position: usize,
    /// A plan of the macro search held back while the push searches have their grace
    /// (see [`PlanFinder::run`]), with the push expansions at which it ends.
    held: Option<(Vec<Push>, u64)>,
    /// Whether a plan of the macro search is answered at once, the push searches left
    /// running for a shorter one (see [`PlanFinder::answer_macro_plans_at_once`]).
    at_once: bool,
    /// The positions the last search released had been allowed.
    #[cfg(test)]
    last_share: usize,
}

impl<'a> PlanFinder<'a> {
    /// The portfolio of the `techniques` on `task`'s level, its searches sharing
    /// `memory` bytes. Their preparation (the packing order, the goals' distances)
    /// grows with the board and stops at `stop`; a finder stopped then answers
    /// `Stopped(Time)` to every run.
    pub fn new(
        task: &Task<'a>,
        techniques: &Techniques,
        memory: usize,
        stop: &Stop,
    ) -> PlanFinder<'a> {
        Self::with_members(task, techniques, Portfolio::Core, memory, stop)
    }

    /// The portfolio of [`PlanFinder::new`] with, when `techniques.second` is on, the
    /// second finder's search among its members: for the finder on a core of its
    /// own, where `anytime` would run that search on its other core. With
    /// `bases-both-turns` it also runs the search by the plan with bases under FESS's
    /// selection beside the one under the older selection (`anytime` runs that one
    /// on its proof core, [`PlanFinder::by_plan_under_fess_turns`]).
    pub fn alone(
        task: &Task<'a>,
        techniques: &Techniques,
        memory: usize,
        stop: &Stop,
    ) -> PlanFinder<'a> {
        Self::with_members(task, techniques, Portfolio::Alone, memory, stop)
    }

    /// Only the search by the plan with bases under FESS's selection, the one
    /// `bases-both-turns` adds to the finder alone: for `anytime`'s proof core, whose
    /// plan core runs the search by the plan under the older selection. It has no
    /// members (and answers `GaveUp`) when `techniques` have no such search, or the
    /// level no plan with bases.
    pub fn by_plan_under_fess_turns(
        task: &Task<'a>,
        techniques: &Techniques,
        memory: usize,
        stop: &Stop,
    ) -> PlanFinder<'a> {
        Self::with_members(task, techniques, Portfolio::FessByPlan, memory, stop)
    }

    fn with_members(
        task: &Task<'a>,
        techniques: &Techniques,
        portfolio: Portfolio,
        memory: usize,
        stop: &Stop,
    ) -> PlanFinder<'a> {
        let boxes = task.level.box_cells().count();
        let per_position = Arena::position_bytes(&task.analysis.region, boxes, BYTES_PER_POSITION);
        let macros = techniques.macros && !task.level.has_ice();
        let (level, analysis) = (task.level, task.analysis);
        let plan = (macros && techniques.bases)
            .then(|| {
                let until = stop.by(Instant::now() + BASE_PLAN_TIME);
                let plan = BasePlan::search(level, analysis, BASE_PLAN_POSITIONS, &until);
                // The pass with parking has a budget of its own: where the searches
                // above find nothing, they have often spent theirs.
                plan.or_else(|| {
                    let until = stop.by(Instant::now() + BASE_PLAN_TIME);
                    (techniques.parking)
                        .then(|| BasePlan::with_parking(level, analysis, &until))
                        .flatten()
                })
            })
            .flatten();
        let pi = macros && techniques.pi_macros;
        let twice = techniques.bases_both_turns && !techniques.fess_turns_bases;
        // The members: the push searches, the macro searches by the packing order
        // (plain and with the PI-corral rule), and those by the plan with bases (under
        // the older selection, or FESS's where `fess_turns_bases` asks for it, and
        // under FESS's a second time).
        let (variants, macros, pi, plan, plan_twice) = match portfolio {
            Portfolio::Core => (techniques.searches(), macros, pi, plan, None),
            Portfolio::Alone => {
                let mut variants = techniques.searches();
                if techniques.second {
                    variants.push(techniques.second_finder());
                }
                let twice = plan.clone().filter(|_| twice);
                (variants, macros, pi, plan, twice)
            }
            Portfolio::FessByPlan => (Vec::new(), false, false, None, plan.filter(|_| twice)),
        };
        let members = variants.len()
            + usize::from(macros)
            + usize::from(plan.is_some())
            + usize::from(plan_twice.is_some())
            + usize::from(pi);
        let share = memory / per_position / members.max(1);
        let limits = (share, task.max_steps);
        let push_search = |t| Search::new(level, analysis, t, limits, stop).map(Box::new);
        let pushes = (variants.into_iter()).map(|t| push_search(t).map(Member::Pushes));
        let macro_search = |plan: Option<BasePlan>, pi: bool, techniques: &Techniques| {
            let techniques = Techniques {
                pi_macros: pi,
                ..techniques.for_macros(plan.is_some())
            };
            let how = (plan, &techniques);
            MacroSearch::new(level, analysis, limits, how, stop).map(Box::new)
        };
        let macros = macros.then(|| macro_search(None, false, techniques).map(Member::Macros));
        let by_plan = (plan.map(|plan| macro_search(Some(plan), false, techniques)))
            .map(|search| search.map(Member::Macros));
        let with_pi = pi.then(|| macro_search(None, true, techniques).map(Member::Macros));
        let fess = Techniques {
            fess_turns_bases: true,
            ..*techniques
        };
        let fess_by_plan = (plan_twice.map(|plan| macro_search(Some(plan), false, &fess)))
            .map(|search| search.map(Member::Macros));
        let searches = (pushes.chain(macros).chain(by_plan))
            .chain(with_pi)
            .chain(fess_by_plan)
            .collect();
        // A slice is shorter when an expansion is costly (its children and their
        // heuristic grow with the boxes), so that the searches still take turns: with a
        // thousand boxes a whole slice took minutes. Up to 64 boxes, as in every real
        // collection, it stays `SLICE`. (The clock is read before every expansion.)
        let slice = match boxes {
            0..=64 => SLICE,
            _ => (SLICE * 64 * 64 / (boxes * boxes)).max(1),
        };
        PlanFinder {
            searches,
            running: None,
            slice,
            by_plan_slices: match portfolio {
                Portfolio::Alone => BY_PLAN_SLICES,
                Portfolio::Core | Portfolio::FessByPlan => 1,
            },
            last: SearchAnswer::Stopped(StopReason::GaveUp),
            released: FinderStats::default(),
            per_position,
            held: None,
            at_once: false,
            #[cfg(test)]
            last_share: 0,
        }
    }

    /// Lets the searches that have not given up store `memory` bytes more positions
    /// between them (memory another search gave back).
    pub fn grant(&mut self, memory: usize) {
        let Some(searches) = &mut self.searches else {
            return;
        };
        let all: Vec<usize> = (0..searches.len()).collect();
        let running = self.running.as_ref().unwrap_or(&all);
        share_out(searches, running, memory / self.per_position);
    }

    /// Answers a plan of the macro search at once instead of holding it for a grace:
    /// the push searches are left running, each cut to plans at least one push
    /// shorter, for a later [`PlanFinder::run`] to go on with (its answer is then a
    /// shorter plan, or no plan). For a caller that can use a plan at once and still
    /// take a better one, as `anytime`'s incumbent can.
    pub fn answer_macro_plans_at_once(&mut self) {
        self.at_once = true;
    }

    /// Searches on until a plan, until every search gives up (the answer of the last
    /// one), or until `stop` says stop (`Stopped(Time)`; a later call goes on). A plan
    /// of the macro search is held back while the push searches make as many
    /// expansions again as they had made by then (at least [`MIN_GRACE`]): its plans
    /// can be a few pushes longer, and the shorter plan of the two is the answer.
    pub fn run(&mut self, stop: &Stop) -> SearchAnswer {
        let Some(searches) = &mut self.searches else {
            return SearchAnswer::Stopped(StopReason::Time);
        };
        let running = match &mut self.running {
            Some(running) => running,
            None => {
                for search in searches.iter_mut() {
                    if let Some(answer) = search.start() {
                        self.running = Some(Vec::new());
                        self.last = answer.clone();
                        return answer;
                    }
                }
                self.running.insert((0..searches.len()).collect())
            }
        };
        while !running.is_empty() {
            if stop.should_stop() {
                // A plan held for the grace is a plan found: a stop never loses it.
                self.last = match self.held.take() {
                    Some((pushes, _)) => {
                        running.clear();
                        SearchAnswer::Plan(pushes)
                    }
                    None => SearchAnswer::Stopped(StopReason::Time),
                };
                return self.last.clone();
            }
            let mut i = 0;
            while i < running.len() {
                let slices = searches[running[i]].slices(self.by_plan_slices);
                match searches[running[i]].advance(self.slice * slices, stop) {
                    None => i += 1,
                    Some(answer @ SearchAnswer::Stopped(_)) => {
                        self.last = answer;
                        // The searches share one budget: a search that gives up (often
                        // the PI-corral search, within seconds) passes its memory on.
                        let _freed = retire(searches, running, i, &mut self.released);
                        #[cfg(test)]
                        {
                            self.last_share = _freed;
                        }
                    }
                    Some(SearchAnswer::Plan(pushes))
                        if matches!(searches[running[i]], Member::Macros(_)) && self.at_once =>
                    {
                        retire(searches, running, i, &mut self.released);
                        let shorter = pushes.len().saturating_sub(1);
                        for &j in running.iter() {
                            searches[j].tighten(shorter);
                        }
                        // A later run without a search left has found nothing more.
                        self.last = SearchAnswer::Stopped(StopReason::GaveUp);
                        return SearchAnswer::Plan(pushes);
                    }
                    Some(SearchAnswer::Plan(pushes))
                        if matches!(searches[running[i]], Member::Macros(_))
                            && self.held.is_none() =>
                    {
                        retire(searches, running, i, &mut self.released);
                        let made = push_expansions(searches, running);
                        self.held = Some((pushes, made + made.max(MIN_GRACE)));
                    }
                    Some(answer) => {
                        let answer = match (answer, self.held.take()) {
                            (SearchAnswer::Plan(p), Some((q, _))) if q.len() < p.len() => {
                                SearchAnswer::Plan(q)
                            }
                            (answer, _) => answer,
                        };
                        running.clear();
                        self.last = answer.clone();
                        return answer;
                    }
                }
            }
            if let Some((_, end)) = &self.held
                && (running.is_empty() || push_expansions(searches, running) >= *end)
            {
                let (pushes, _) = self.held.take().expect("a plan is held");
                running.clear();
                self.last = SearchAnswer::Plan(pushes);
                return self.last.clone();
            }
        }
        self.last.clone()
    }

    /// Whether some search is still running (after a plan answered at once, the push
    /// searches looking for a shorter one).
    pub fn is_running(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.is_empty())
    }

    /// What the searches counted so far.
    pub fn stats(&self) -> FinderStats {
        let searches = self.searches.as_deref().unwrap_or_default();
        FinderStats {
            positions: self.released.positions
                + searches.iter().map(|s| s.positions() as u64).sum::<u64>(),
            expanded: searches.iter().map(|s| s.expanded()).sum::<u64>(),
        }
    }
}

/// Takes the search at `running[i]` out of the turns: its positions count among the
/// `released`, and the memory it gives back (the positions it was allowed, answered)
/// is shared out among the searches still running.
fn retire(
    searches: &mut [Member],
    running: &mut Vec<usize>,
    i: usize,
    released: &mut FinderStats,
) -> usize {
    let k = running.remove(i);
    // Releasing drops a search's positions but not its count of expansions, which
    // [`PlanFinder::stats`] reads off every search.
    released.positions += searches[k].positions() as u64;
    let freed = searches[k].release();
    share_out(searches, running, freed);
    freed
}

/// The push expansions of the `running` searches so far.
fn push_expansions(searches: &[Member], running: &[usize]) -> u64 {
    (running.iter())
        .filter(|&&j| matches!(searches[j], Member::Pushes(_)))
        .map(|&j| searches[j].expanded())
        .sum()
}

/// Shares `positions` out evenly among the `running` searches.
fn share_out(searches: &mut [Member], running: &[usize], positions: usize) {
    if let Some(each) = positions.checked_div(running.len()) {
        for &j in running {
            searches[j].grant(each);
        }
    }
}

/// The plan finder alone: a verified plan, no proof of optimality.
pub struct Finder;

static ABOUT: About = About {
    name: "finder",
    summary: "best-first plan finder: a verified plan fast, no optimality proof",
    metrics: &[Metric::Pushes],
    optimal: false,
    sat: SatUse::None,
    encodings: false,
    ice: true,
    cores: 1,
    auto: true,
    fewest_moves_among_optimal: false,
    traces: false,
};

impl Engine for Finder {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn run(&self, task: &Task, stop: &Stop, board: &Incumbent) -> Result<Outcome, SolveError> {
        let (answer, stats) = find_plan(task, &task.tuning.finder, stop);
        let mut outcome = push_search::outcome(&ABOUT, task, answer)?;
        if let Verdict::Solved { plan, .. } = &outcome.verdict {
            board.offer(task.level, plan.clone(), ABOUT.name);
        }
        outcome.stats.positions = Some(stats.positions);
        Ok(outcome)
    }
}

/// A big open room (60 × 40 cells) with a box and a goal in every fourth cell of every
/// fourth row, the player in the corner: a board where one expansion of a macro search
/// or the backward search for bases takes long.
#[cfg(test)]
fn big_open_room() -> crate::level::Level {
    let mut text = "#".repeat(62) + "\n";
    for row in 0..40 {
        let cells: String = (0..60)
            .map(|col| match (row % 4, col % 4) {
                (1, 1) => '$',
                (1, 3) => '.',
                _ => ' ',
            })
            .collect();
        text.push_str(&format!("#{cells}#\n"));
    }
    text.push_str(&"#".repeat(62));
    let text = text.replacen(' ', "@", 1);
    crate::level::parse_xsb("big", &text).unwrap().remove(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::push_search::on_task;
    use std::time::Instant;

    /// Two boxes to push round corners onto their goals: the level of the portfolio's
    /// tests.
    const TWO_BOXES: &str = "########\n#@     #\n# $ $  #\n#  ## .#\n#    . #\n########\n";

    #[test]
    fn the_default_is_every_technique_but_three() {
        let flags = Techniques::DEFAULT.flags();
        let off: Vec<&str> = (Techniques::NAMES.iter())
            .zip(flags)
            .filter(|&(_, on)| !on)
            .map(|(&name, _)| name)
            .collect();
        assert_eq!(off, ["connectivity", "partial-order", "fess-turns-bases"]);
        assert!(Techniques::ALL.flags().iter().all(|&on| on));
    }

    #[test]
    fn techniques_are_switched_by_name_and_off_wins() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let t = Techniques::DEFAULT
            .switched(
                &names(&["knots", "partial-order"]),
                &names(&["connectivity", "knots"]),
            )
            .unwrap();
        assert!(!t.knots && t.connectivity && !t.partial_order);
        assert_eq!(
            t,
            Techniques {
                knots: false,
                connectivity: true,
                ..Techniques::DEFAULT
            }
        );
        let err = Techniques::DEFAULT
            .switched(&names(&["knot"]), &[])
            .unwrap_err();
        assert!(
            err.contains("\"knot\" is no technique") && err.contains("frozen-goals"),
            "{err}"
        );
    }

    #[test]
    fn each_macro_search_takes_its_own_selection() {
        let d = Techniques::DEFAULT;
        assert!(d.for_macros(false).fess_turns && !d.for_macros(true).fess_turns);
        let both = Techniques { fess_turns_bases: true, ..d };
        assert!(both.for_macros(false).fess_turns && both.for_macros(true).fess_turns);
        // Each switch is its own search's.
        let bases_only = Techniques { fess_turns: false, ..both };
        assert!(!bases_only.for_macros(false).fess_turns && bases_only.for_macros(true).fess_turns);
        // Nothing else changes.
        assert_eq!(d.for_macros(true), Techniques { fess_turns: false, ..d });
    }

    #[test]
    fn the_split_portfolio_runs_each_search_once() {
        let (first, pi) = Techniques::DEFAULT.split();
        let pi = pi.expect("two searches by default");
        let both = Techniques::DEFAULT.searches();
        assert_eq!(both.len(), 2);
        assert_eq!(first.searches(), [both[0]]);
        // The same search, the only one of its portfolio.
        let alone = Techniques {
            portfolio: false,
            ..both[1]
        };
        assert_eq!(pi.searches(), [alone]);
        // Without the portfolio, or without PI-corral pruning, there is nothing to split.
        let no_portfolio = Techniques {
            portfolio: false,
            ..Techniques::DEFAULT
        };
        let no_pi = Techniques {
            pi_corrals: false,
            ..Techniques::DEFAULT
        };
        for one in [no_portfolio, no_pi] {
            assert_eq!(one.split(), (one, None));
        }
    }

    #[test]
    fn the_macro_searches_join_the_portfolio_unless_switched_off_or_on_ice() {
        let text = TWO_BOXES;
        let members = |techniques: Techniques, text: &str| {
            let mut count = 0;
            on_task(text, |task| {
                let finder = PlanFinder::new(task, &techniques, task.tuning.memory, &Stop::never());
                let searches = finder.searches.as_ref().unwrap();
                count = searches.len();
                assert!(
                    !techniques.macros
                        || task.level.has_ice()
                        || matches!(searches.last(), Some(Member::Macros(_)))
                );
            });
            count
        };
        let on = Techniques {
            macros: true,
            ..Techniques::DEFAULT
        };
        let off = Techniques {
            macros: false,
            ..Techniques::DEFAULT
        };
        let no_bases = Techniques {
            bases: false,
            ..Techniques::DEFAULT
        };
        let no_pi = Techniques {
            pi_macros: false,
            ..Techniques::DEFAULT
        };
        // The plain and PI-corral searches, the macro search, the one filed by the
        // plan with bases (the backward search finds one here) and the macro search
        // with the PI-corral rule.
        assert_eq!(members(Techniques::DEFAULT, text), 5);
        assert_eq!(members(no_pi, text), 4);
        assert_eq!(members(no_bases, text), 4);
        assert_eq!(members(off, text), 2);
        // On ice a box can slide past where a macro move would stop it.
        let ice = "########\n#@  ~~~#\n# $ $  #\n#  ## .#\n#    . #\n########\n";
        assert_eq!(members(on, ice), 2);
    }

    /// The searches of `finder`'s portfolio.
    fn portfolio_size(finder: PlanFinder) -> usize {
        finder.searches.as_ref().unwrap().len()
    }

    #[test]
    fn the_search_by_a_plan_with_bases_runs_under_both_selections_unless_one_is_asked() {
        on_task(TWO_BOXES, |task| {
            let (memory, never) = (task.tuning.memory, Stop::never());
            let count = |t: Techniques| portfolio_size(PlanFinder::alone(task, &t, memory, &never));
            let d = Techniques::DEFAULT;
            let once = Techniques {
                bases_both_turns: false,
                ..d
            };
            assert_eq!(count(d), count(once) + 1);
            // Under FESS's selection alone, or without the plan, it runs once.
            let fess = Techniques {
                fess_turns_bases: true,
                ..d
            };
            assert_eq!(count(fess), count(once));
            let no_plan = |t: Techniques| Techniques { bases: false, ..t };
            assert_eq!(count(no_plan(d)), count(no_plan(once)));
            assert_eq!(count(no_plan(d)), count(once) - 1);
            // Under `anytime` the plan core runs it once, under the older selection,
            // and the proof core under FESS's, alone in a finder of its own.
            let shared = |t: Techniques| portfolio_size(PlanFinder::new(task, &t, memory, &never));
            assert_eq!(shared(d), shared(once));
            let fess_only =
                |t: Techniques| PlanFinder::by_plan_under_fess_turns(task, &t, memory, &never);
            let searches = fess_only(d).searches.unwrap();
            assert_eq!(searches.len(), 1);
            assert!(matches!(searches[0], Member::Macros(_)));
            for t in [once, fess, no_plan(d)] {
                assert_eq!(portfolio_size(fess_only(t)), 0);
            }
        });
    }

    #[test]
    fn the_search_by_the_plan_with_bases_takes_longer_turns_in_the_finder_alone() {
        on_task(TWO_BOXES, |task| {
            let (memory, never) = (task.tuning.memory, Stop::never());
            let slices = |finder: PlanFinder| -> Vec<usize> {
                (finder.searches.as_ref().unwrap().iter())
                    .map(|member| member.slices(finder.by_plan_slices))
                    .collect()
            };
            // The three push searches (the second finder's last), the macro search by
            // the packing order, the one by the plan under the older selection, the
            // one with the PI-corral rule and the one by the plan under FESS's.
            let alone = PlanFinder::alone(task, &Techniques::DEFAULT, memory, &never);
            let b = BY_PLAN_SLICES;
            assert_eq!(slices(alone), [1, 1, 1, 1, b, 1, b]);
            // `anytime`'s cores keep one slice each.
            let core = PlanFinder::new(task, &Techniques::DEFAULT, memory, &never);
            assert_eq!(slices(core), [1; 5]);
            let d = Techniques::DEFAULT;
            let fess = PlanFinder::by_plan_under_fess_turns(task, &d, memory, &never);
            assert_eq!(slices(fess), [1]);
        });
    }

    #[test]
    fn a_finder_without_searches_gives_up() {
        // Without a plan with bases the proof core's search by it has nothing to run
        // (and no memory to share out among searches).
        on_task(TWO_BOXES, |task| {
            let no_plan = Techniques {
                bases: false,
                ..Techniques::DEFAULT
            };
            let never = Stop::never();
            let mut finder =
                PlanFinder::by_plan_under_fess_turns(task, &no_plan, task.tuning.memory, &never);
            assert_eq!(finder.run(&never), SearchAnswer::Stopped(StopReason::GaveUp));
            assert_eq!(finder.stats().positions, 0);
        });
    }

    #[test]
    fn the_finder_alone_runs_the_second_finders_search_too_unless_switched_off() {
        let text = TWO_BOXES;
        // The search by the plan with bases once, as under `anytime` (its second run
        // in the finder alone has a test of its own).
        let d = Techniques {
            bases_both_turns: false,
            ..Techniques::DEFAULT
        };
        let no_second = Techniques { second: false, ..d };
        on_task(text, |task| {
            let memory = task.tuning.memory;
            let never = Stop::never();
            let count = portfolio_size;
            let shared = count(PlanFinder::new(task, &d, memory, &never));
            let alone = PlanFinder::alone(task, &d, memory, &never);
            // The push searches come first, the second finder's last of them.
            let searches = alone.searches.as_ref().unwrap();
            assert_eq!(searches.len(), shared + 1);
            assert!(matches!(searches[2], Member::Pushes(_)));
            let without = PlanFinder::alone(task, &no_second, memory, &never);
            assert_eq!(count(without), shared);
            // Under `anytime` the second finder runs on the proof core with the same
            // techniques: one description of it.
            let second = Techniques::DEFAULT.second_finder();
            assert!(!second.switches && !second.pi_corrals && !second.macros);
            assert!(second.connectivity);
            assert_eq!(second.searches(), [second]);
            // With it, the finder alone still finds a plan that replays.
            let (answer, _) = find_plan(task, &Techniques::DEFAULT, &never);
            assert!(matches!(answer, SearchAnswer::Plan(_)), "{answer:?}");
        });
    }

    #[test]
    fn a_search_that_gives_up_passes_its_memory_on() {
        // Unsolvable, though no static test sees it: each search runs out of
        // positions. The one that gives up first hands its share to the other.
        let text = "########\n###  $.#\n#  #$  #\n#   $. #\n#   +  #\n#      #\n########\n";
        let two = Techniques {
            macros: false,
            ..Techniques::ALL
        };
        on_task(text, |task| {
            let mut finder = PlanFinder::new(task, &two, task.tuning.memory, &Stop::never());
            let share = finder.searches.as_ref().unwrap()[0].allowed();
            assert_eq!(finder.searches.as_ref().unwrap().len(), 2);
            let answer = finder.run(&Stop::never());
            assert!(!matches!(answer, SearchAnswer::Plan(_)), "{answer:?}");
            // Both skip positions (tunnel macros, corrals), so both give up and are
            // released; the second had its own share and the first one's.
            let searches = finder.searches.as_ref().unwrap();
            assert!(
                searches
                    .iter()
                    .all(|s| s.allowed() == 0 && s.positions() == 0)
            );
            assert_eq!(finder.last_share, 2 * share);
            // Their positions are still counted, and their expansions once each.
            assert!(finder.stats().positions > 0);
            let expanded: u64 = searches.iter().map(|s| s.expanded()).sum();
            assert!(expanded > 0);
            assert_eq!(finder.stats().expanded, expanded);
        });
    }

    #[test]
    fn a_macro_plan_held_for_the_grace_survives_a_stop_and_yields_to_a_shorter_plan() {
        let text = TWO_BOXES;
        let on = Techniques {
            macros: true,
            ..Techniques::DEFAULT
        };
        on_task(text, |task| {
            let (plan, _) = find_plan(task, &on, &Stop::never());
            let SearchAnswer::Plan(plan) = plan else {
                panic!("{plan:?}")
            };
            // A held plan longer than any the searches find (the finder does not
            // replay it; the caller does).
            let longer: Vec<Push> = plan.iter().chain(&plan).copied().collect();
            let held = |finder: &mut PlanFinder| finder.held = Some((longer.clone(), u64::MAX));
            let mut finder = PlanFinder::new(task, &on, task.tuning.memory, &Stop::never());
            held(&mut finder);
            let past = Stop::new(Some(Instant::now()));
            assert_eq!(finder.run(&past), SearchAnswer::Plan(longer.clone()));
            let mut finder = PlanFinder::new(task, &on, task.tuning.memory, &Stop::never());
            held(&mut finder);
            match finder.run(&Stop::never()) {
                SearchAnswer::Plan(p) => assert!(p.len() < longer.len()),
                other => panic!("{other:?}"),
            }
        });
    }

    #[test]
    fn a_macro_plan_answered_at_once_leaves_the_push_searches_after_a_shorter_one() {
        // Two boxes, each pushed round a corner: the macro search's plan may take them
        // in an order that costs pushes, and the push searches go on below it.
        let text = TWO_BOXES;
        on_task(text, |task| {
            let mut finder =
                PlanFinder::new(task, &Techniques::DEFAULT, task.tuning.memory, &Stop::never());
            finder.answer_macro_plans_at_once();
            // The macro search takes the first turn, so its plan comes first.
            let searches = finder.searches.as_mut().unwrap();
            let last = searches.len() - 1;
            assert!(matches!(searches[last], Member::Macros(_)));
            searches.swap(0, last);
            let SearchAnswer::Plan(first) = finder.run(&Stop::never()) else {
                panic!("the macro search finds a plan");
            };
            assert!(finder.is_running(), "the push searches go on");
            // What they answer next is a shorter plan or none, never one as long.
            match finder.run(&Stop::never()) {
                SearchAnswer::Plan(shorter) => assert!(shorter.len() < first.len()),
                SearchAnswer::NoneWithin(n) => assert_eq!(n, first.len() - 1),
                other => assert!(matches!(other, SearchAnswer::Stopped(_)), "{other:?}"),
            }
            // With no search left, a later run finds nothing more.
            assert!(!matches!(finder.run(&Stop::never()), SearchAnswer::Plan(_)));
        });
    }

    #[test]
    fn a_stopped_finder_goes_on_from_where_it_stopped() {
        let text = TWO_BOXES;
        on_task(text, |task| {
            let (whole, _) = find_plan(task, &Techniques::ALL, &Stop::never());
            assert!(matches!(whole, SearchAnswer::Plan(_)));
            // A stop already past: the finder starts its searches and stops at once.
            let mut finder =
                PlanFinder::new(task, &Techniques::ALL, task.tuning.memory, &Stop::never());
            let past = Stop::new(Some(Instant::now()));
            assert_eq!(finder.run(&past), SearchAnswer::Stopped(StopReason::Time));
            let stored = finder.stats().positions;
            assert!(stored > 0);
            // Resumed, it keeps what it stored and finds the same plan as in one run.
            assert_eq!(finder.run(&Stop::never()), whole);
            assert!(finder.stats().positions >= stored);
        });
    }

    #[test]
    fn where_no_plan_with_bases_is_found_the_plan_with_parking_is_followed() {
        on_task(crate::analysis::ROOM_BESIDE_A_DEAD_END, |task| {
            let (memory, never) = (task.tuning.memory, Stop::never());
            let count = |t: Techniques| portfolio_size(PlanFinder::alone(task, &t, memory, &never));
            let d = Techniques::DEFAULT;
            let off = Techniques { parking: false, ..d };
            // The search by the plan, under both selections.
            assert_eq!(count(d), count(off) + 2);
            // The finder alone solves the level (the backward searches to the bases
            // find no plan for it, and without one it has none within 20 s).
            let stop = Stop::new(Some(Instant::now() + Duration::from_secs(120)));
            let (answer, _) = find_plan(task, &d, &stop);
            let SearchAnswer::Plan(pushes) = answer else {
                panic!("no plan: {answer:?}");
            };
            assert!(crate::game::plan_from_pushes(task.level, &pushes).is_ok());
        });
    }
}
