//! The oracle test: on many small generated levels, the SAT driver's answer (the first
//! satisfiable k, or "no plan within k", or "unsolvable") must agree with a brute-force
//! search over the rules engine.

mod common;

use std::time::{Duration, Instant};

use common::{GenOptions, Rng, random_level};
use satsoko::encode::EncodingKind;
use satsoko::engine::finder::Techniques;
use satsoko::engine::oracle::{
    SearchResult, shortest_lines, shortest_moves, shortest_parallel_steps, shortest_pushes,
};
use satsoko::engine::{
    self, Incumbent, Outcome, Questions, Request, SolveError, Stop, Tuning, Verdict, registry,
};
use satsoko::game::Metric;
use satsoko::level::{Level, parse_xsb};
use satsoko::sat::SolverChoice;

/// State limit of the brute-force search.
const STATES: usize = 400_000;

/// The engine `name` on one level with the embedded solver, through the gate every
/// plan passes, stopped at `deadline`.
fn run_engine(
    name: &str,
    level: &Level,
    encoding: EncodingKind,
    bound: usize,
    deadline: Option<Instant>,
) -> Result<Outcome, SolveError> {
    run_tuned(name, level, (encoding, bound), deadline, Tuning::default())
}

/// [`run_engine`] with the techniques of `tuning` (`--finder-off`, `--pdr-off`, …).
fn run_tuned(
    name: &str,
    level: &Level,
    (encoding, bound): (EncodingKind, usize),
    deadline: Option<Instant>,
    tuning: Tuning,
) -> Result<Outcome, SolveError> {
    run_with(
        name,
        level,
        (encoding, bound),
        deadline,
        (tuning, SolverChoice::default()),
    )
}

/// [`run_tuned`] with the SAT `solver` too.
fn run_with(
    name: &str,
    level: &Level,
    (encoding, bound): (EncodingKind, usize),
    deadline: Option<Instant>,
    (tuning, solver): (Tuning, SolverChoice),
) -> Result<Outcome, SolveError> {
    let engine = registry::by_name(name).expect("a registered engine");
    let request = Request {
        metric: encoding.metric(),
        prove: engine.about().optimal,
        encoding: engine.about().encodings.then_some(encoding),
        solver,
        max_steps: Some(bound),
        tuning,
    };
    let board = Incumbent::new(encoding.metric());
    engine::solve(engine, level, &request, &Stop::new(deadline), &board)
}

/// The unroll engine on one level.
fn run_driver(level: &Level, encoding: EncodingKind, bound: usize) -> Result<Outcome, SolveError> {
    run_engine("unroll", level, encoding, bound, None)
}

/// The A* baseline on one level.
fn run_astar(level: &Level, bound: usize) -> Result<Outcome, SolveError> {
    run_engine("astar", level, EncodingKind::Pushes, bound, None)
}

/// The property-directed search on one level.
fn run_pdr(level: &Level, bound: usize) -> Result<Outcome, SolveError> {
    run_engine("pdr", level, EncodingKind::Pushes, bound, None)
}

/// The property-directed search, stopped after `limit`.
fn run_pdr_for(level: &Level, bound: usize, limit: Duration) -> Result<Outcome, SolveError> {
    let deadline = Some(Instant::now() + limit);
    run_engine("pdr", level, EncodingKind::Pushes, bound, deadline)
}

fn check_encoding(encoding: EncodingKind, seed: u64, count: usize, bound: usize, opts: GenOptions) {
    let solve = |level: &Level, bound| run_driver(level, encoding, bound);
    check_engine(encoding, &solve, seed, count, bound, opts);
}

/// The brute-force search of `metric` on `level`, up to `bound`.
fn oracle_search(level: &Level, metric: Metric, bound: usize) -> SearchResult {
    match metric {
        Metric::Moves => shortest_moves(level, bound, STATES),
        Metric::Pushes => shortest_pushes(level, bound, STATES),
    }
}

/// The brute-force search of what `encoding`'s steps count, up to `bound`: box lines
/// for `pushes-folded`, parallel steps for `pushes-parallel`, else its metric.
fn oracle_of_steps(level: &Level, encoding: EncodingKind, bound: usize) -> SearchResult {
    match encoding {
        EncodingKind::PushesFolded => shortest_lines(level, bound, STATES),
        EncodingKind::PushesParallel => shortest_parallel_steps(level, bound, STATES),
        _ => oracle_search(level, encoding.metric(), bound),
    }
}

/// A proof of unsolvability (`claim`) must never meet a solution, at any depth.
fn assert_never_solved(level: &Level, encoding: EncodingKind, claim: &str, text: &str) {
    let deep = oracle_of_steps(level, encoding, usize::MAX);
    assert!(
        matches!(deep, SearchResult::Unsolvable | SearchResult::TooLarge),
        "{claim}, but BFS found {deep:?} on\n{text}"
    );
}

/// Checks `solve` (the driver on `encoding`, or the A* baseline with `Pushes`) against
/// the brute-force search of the same metric.
fn check_engine(
    encoding: EncodingKind,
    solve: &dyn Fn(&Level, usize) -> Result<Outcome, SolveError>,
    seed: u64,
    count: usize,
    bound: usize,
    opts: GenOptions,
) {
    let mut rng = Rng::new(seed);
    let (mut solved, mut none_within, mut unsolvable, mut checked) = (0, 0, 0, 0);
    while checked < count {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text)
            .expect("generated levels parse")
            .remove(0);
        let outcome = solve(&level, bound).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let oracle = oracle_of_steps(&level, encoding, bound);
        checked += 1;
        match (&outcome.verdict, oracle) {
            (Verdict::Solved { plan, optimal }, SearchResult::Optimal(m)) => {
                let k = outcome.k.expect("a solved outcome has k");
                assert_eq!(k, m, "SAT k differs from BFS optimum on\n{text}");
                assert_eq!(plan.count(encoding.metric()), m, "plan length on\n{text}");
                assert!(*optimal && outcome.metric == encoding.metric());
                plan.verify(&level).expect("driver plans replay");
                solved += 1;
            }
            (Verdict::NoPlan { bound }, SearchResult::NoneWithin(b)) => {
                assert_eq!(*bound, b);
                none_within += 1;
            }
            (Verdict::NoPlan { .. }, SearchResult::Unsolvable) => unsolvable += 1,
            (Verdict::Unsolvable { reason }, r) => {
                let claim = format!("SAT says unsolvable ({reason}; bounded BFS: {r:?})");
                assert_never_solved(&level, encoding, &claim, &text);
                unsolvable += 1;
            }
            (_, SearchResult::TooLarge) => checked -= 1,
            (v, r) => panic!("SAT {v:?} disagrees with BFS {r:?} on\n{text}"),
        }
    }
    eprintln!(
        "{encoding}: {checked} levels: {solved} solved, {none_within} none within {bound}, {unsolvable} unsolvable"
    );
    assert!(
        solved >= count / 5,
        "too few solvable levels generated: {solved}"
    );
    assert!(
        unsolvable + none_within >= count / 20,
        "too few unsolvable levels generated"
    );
}

#[test]
fn moves_encoding_matches_bfs_one_box() {
    let opts = GenOptions {
        max_boxes: 1,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Moves, 1, 150, 24, opts);
}

#[test]
fn moves_encoding_matches_bfs_up_to_three_boxes() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Moves, 2, 200, 24, opts);
}

#[test]
fn moves_encoding_agrees_on_none_within_a_small_bound() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Moves, 3, 150, 9, opts);
}

#[test]
fn lazy_pushes_encoding_matches_push_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::PushesLazy, 4, 300, 12, opts);
}

#[test]
fn lazy_pushes_encoding_agrees_on_none_within_a_small_bound() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::PushesLazy, 5, 200, 3, opts);
}

#[test]
fn pushes_encoding_matches_push_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Pushes, 6, 200, 12, opts);
}

#[test]
fn path_pushes_encoding_matches_push_bfs() {
    // Larger boards with walls, where boxes wall the player in more often. (A walk
    // whose inner count is dropped is not caught here, as these rooms are too open
    // for a jump to pay; the example levels of tests/cli_solve.rs catch it.)
    let opts = GenOptions {
        max_boxes: 4,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 2,
    };
    check_encoding(EncodingKind::PushesPath, 14, 600, 16, opts);
}

/// `pushes-folded` counts box lines and `pushes-parallel` parallel steps: the least k
/// must be the brute-force fewest lines or steps (for lines, the plan has that many),
/// and it claims push-optimality only where the push search agrees; "none within k"
/// and "unsolvable" must agree too. Returns how many plans have fewer steps than
/// pushes.
fn check_by_steps(
    encoding: EncodingKind,
    seed: u64,
    count: usize,
    bound: usize,
    opts: GenOptions,
) -> usize {
    let mut rng = Rng::new(seed);
    let (mut solved, mut claimed, mut none_within, mut unsolvable, mut checked) = (0, 0, 0, 0, 0);
    let (mut fewer, mut beyond) = (0, 0);
    while checked < count {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text)
            .expect("generated levels parse")
            .remove(0);
        let outcome = run_driver(&level, encoding, bound).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let steps = oracle_of_steps(&level, encoding, bound);
        checked += 1;
        match (&outcome.verdict, steps) {
            (Verdict::Solved { plan, optimal }, SearchResult::Optimal(m)) => {
                plan.verify(&level).expect("driver plans replay");
                match encoding {
                    EncodingKind::PushesFolded => {
                        assert_eq!(plan.line_count(), m, "box lines on\n{text}")
                    }
                    _ => assert_eq!(least_k(&level, encoding, bound), Some(m), "on\n{text}"),
                }
                fewer += (m < plan.push_count()) as usize;
                let pushes = shortest_pushes(&level, usize::MAX, STATES);
                let SearchResult::Optimal(p) = pushes else {
                    panic!("{m} steps but pushes {pushes:?} on\n{text}");
                };
                let lower = outcome.lower_bound.expect("a lower bound");
                assert!(
                    lower <= p,
                    "bound {lower} above the push optimum {p} on\n{text}"
                );
                if *optimal {
                    assert_eq!(plan.push_count(), p, "claimed push-optimal on\n{text}");
                    claimed += 1;
                }
                solved += 1;
            }
            (Verdict::NoPlan { bound }, SearchResult::NoneWithin(b)) => {
                assert_eq!(*bound, b);
                none_within += 1;
            }
            (Verdict::NoPlan { .. }, SearchResult::Unsolvable) => unsolvable += 1,
            (Verdict::Unsolvable { reason }, r) => {
                let claim = format!("SAT says unsolvable ({reason}; bounded BFS: {r:?})");
                assert_never_solved(&level, encoding, &claim, &text);
                unsolvable += 1;
            }
            (_, SearchResult::TooLarge) => checked -= 1,
            // The bound counts pushes: the plan of fewest steps had more.
            (Verdict::Stopped { .. }, SearchResult::Optimal(m)) if m <= bound => beyond += 1,
            (v, r) => panic!("SAT {v:?} disagrees with the steps BFS {r:?} on\n{text}"),
        }
    }
    eprintln!(
        "{encoding}: {checked} levels: {solved} solved ({fewer} in fewer steps than pushes, \
         {claimed} claimed push-optimal), {none_within} none within {bound} steps, \
         {unsolvable} unsolvable, {beyond} with more pushes than {bound}"
    );
    assert!(solved >= count / 5, "too few solvable levels: {solved}");
    assert!(claimed > 0, "no plan claimed push-optimal");
    assert!(
        unsolvable + none_within >= count / 20,
        "too few unsolvable levels"
    );
    fewer
}

/// The least k at most `bound` at which `encoding`'s formula of `level` is satisfiable,
/// asked of the encoding directly, one step at a time.
fn least_k(level: &Level, encoding: EncodingKind, bound: usize) -> Option<usize> {
    use satsoko::analysis::Analysis;
    use satsoko::sat::{SatBackend, SolveResult, VarisatBackend};
    let analysis = Analysis::new(level);
    let mut solver = VarisatBackend::new();
    let mut formula = encoding.build(level, &analysis, &mut solver);
    (0..=bound).find(|&k| {
        while formula.steps() < k {
            formula
                .add_step(&mut solver, &Stop::never())
                .expect("never stopped");
        }
        let goal = formula.goal_literal(k, &mut solver);
        solver.solve(&[goal]) == SolveResult::Sat
    })
}

#[test]
fn folded_pushes_encoding_matches_the_lines_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 10,
        ice_percent: 0,
        extra_size: 4,
    };
    let folded = check_by_steps(EncodingKind::PushesFolded, 31, 400, 10, opts);
    assert!(
        folded >= 30,
        "too few plans with lines of several pushes: {folded}"
    );
}

#[test]
fn parallel_pushes_encoding_matches_the_parallel_steps_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 10,
        ice_percent: 0,
        extra_size: 4,
    };
    let parallel = check_by_steps(EncodingKind::PushesParallel, 41, 300, 10, opts);
    assert!(
        parallel >= 10,
        "too few plans with steps of several pushes: {parallel}"
    );
}

#[test]
fn parallel_pushes_encoding_agrees_on_none_within_a_small_bound() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 0,
    };
    check_by_steps(EncodingKind::PushesParallel, 42, 200, 1, opts);
}

#[test]
fn folded_pushes_encoding_agrees_on_none_within_a_small_bound() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 0,
    };
    check_by_steps(EncodingKind::PushesFolded, 32, 200, 1, opts);
}

#[test]
fn path_pushes_encoding_agrees_on_none_within_a_small_bound() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::PushesPath, 13, 200, 3, opts);
}

/// `unroll --solver cadical` takes the walk (`pushes-path`) by default: the same
/// oracle with CaDiCaL in process, for both reachability encodings.
#[cfg(feature = "cadical")]
#[test]
fn unroll_with_cadical_matches_push_bfs() {
    use satsoko::sat::SolverName;
    let opts = GenOptions {
        max_boxes: 4,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 2,
    };
    for (encoding, seed) in [(EncodingKind::PushesPath, 21), (EncodingKind::Pushes, 22)] {
        let solve = |level: &Level, bound| {
            let cadical = (
                Tuning::default(),
                SolverChoice::Builtin(SolverName::Cadical),
            );
            run_with("unroll", level, (encoding, bound), None, cadical)
        };
        check_engine(encoding, &solve, seed, 300, 16, opts);
    }
}

#[test]
fn moves_encoding_matches_bfs_on_ice() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 15,
        ice_percent: 35,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Moves, 7, 250, 16, opts);
}

#[test]
fn moves_encoding_agrees_on_none_within_a_small_bound_on_ice() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 10,
        ice_percent: 50,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Moves, 8, 150, 6, opts);
}

#[test]
fn pushes_encoding_agrees_on_none_within_a_small_bound() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Pushes, 9, 200, 3, opts);
}

#[test]
fn pushes_encoding_matches_push_bfs_up_to_four_boxes() {
    // Four boxes on small boards: crowded enough for the pair database, the dead pairs
    // with the player on one side and the push-back rule to take part.
    let opts = GenOptions {
        max_boxes: 4,
        wall_percent: 10,
        ice_percent: 0,
        extra_size: 0,
    };
    check_encoding(EncodingKind::Pushes, 10, 150, 14, opts);
}

/// The DIMSPEC form of `encoding`, unrolled as incplan does: on generated levels the
/// first satisfiable k up to `bound` is the brute-force optimum, and none is
/// satisfiable when there is no plan within `bound` (a level the analysis proves
/// unsolvable is refused, and the search must agree).
fn check_dimspec(encoding: EncodingKind, seed: u64, count: usize, bound: usize, opts: GenOptions) {
    use satsoko::encode::dimspec;
    use satsoko::sat::{SatBackend, SolveResult, VarisatBackend};
    let satisfiable = |spec: &str, k: usize| {
        let mut solver = VarisatBackend::new();
        let cnf = dimspec::unroll(spec, k).expect("our DIMSPEC unrolls");
        cnf.add_to(&mut solver);
        solver.solve(&[]) == SolveResult::Sat
    };
    let mut rng = Rng::new(seed);
    let (mut solved, mut checked) = (0, 0);
    while checked < count {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text).unwrap().remove(0);
        let oracle = oracle_of_steps(&level, encoding, bound);
        if oracle == SearchResult::TooLarge {
            continue;
        }
        checked += 1;
        let spec = match dimspec::write(&level, encoding, &[]) {
            Ok(spec) => spec,
            Err(why) => {
                assert!(why.contains("unsolvable"), "{why}\n{text}");
                assert_never_solved(&level, encoding, &why, &text);
                continue;
            }
        };
        let first = (0..=bound).find(|&k| satisfiable(&spec, k));
        match oracle {
            SearchResult::Optimal(best) => {
                assert_eq!(first, Some(best), "DIMSPEC disagrees with BFS on\n{text}");
                solved += 1;
            }
            _ => assert_eq!(first, None, "DIMSPEC finds a plan BFS does not on\n{text}"),
        }
    }
    eprintln!("{encoding} DIMSPEC: {checked} levels, {solved} solved");
    assert!(solved >= count / 5, "too few solvable levels: {solved}");
}

#[test]
fn folded_dimspec_matches_the_lines_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 1,
    };
    check_dimspec(EncodingKind::PushesFolded, 33, 150, 6, opts);
}

#[test]
fn parallel_dimspec_matches_the_parallel_steps_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 1,
    };
    check_dimspec(EncodingKind::PushesParallel, 43, 150, 6, opts);
}

#[test]
fn pushes_dimspec_matches_push_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    check_dimspec(EncodingKind::Pushes, 21, 150, 10, opts);
}

#[test]
fn path_pushes_dimspec_matches_push_bfs() {
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    check_dimspec(EncodingKind::PushesPath, 25, 150, 10, opts);
}

#[test]
fn moves_dimspec_matches_bfs() {
    let opts = GenOptions {
        max_boxes: 2,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    check_dimspec(EncodingKind::Moves, 22, 100, 20, opts);
}

#[test]
fn any_number_of_horizons_gives_the_optimum() {
    // The oracle tests above run the default two horizons. One grows k a bound at a
    // time; three take turns with more bounds in flight than the two cores, so a plan
    // above a bound still open, and a bound refuted after a plan above it, both come
    // up. Moves have no parity, so there the horizons take every bound in turn.
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 1,
    };
    for horizons in [1, 3] {
        for (encoding, seed, bound) in [
            (EncodingKind::Pushes, 12, 14),
            (EncodingKind::Moves, 13, 20),
        ] {
            let tuning = Tuning {
                horizons,
                ..Tuning::default()
            };
            let solve =
                |level: &Level, bound| run_tuned("unroll", level, (encoding, bound), None, tuning);
            check_engine(encoding, &solve, seed, 150, bound, opts);
        }
    }
}

#[test]
fn pushes_encoding_matches_push_bfs_on_larger_boards() {
    // Larger boards with walls split the player's region as boxes move, so pairs of
    // pushes that commute (and pairs that only seem to) come up often.
    let opts = GenOptions {
        max_boxes: 4,
        wall_percent: 20,
        ice_percent: 0,
        extra_size: 2,
    };
    check_encoding(EncodingKind::Pushes, 11, 1500, 16, opts);
}

#[test]
fn commuting_pushes_keep_the_optimum_on_known_boards() {
    // Boards where a weaker commutation rule (without the walk round the box's old
    // cell) lost the optimum.
    let boards = ["##########\n##@-#.-$-#\n#-#-$----#\n#.-----#-#\n##########\n"];
    for text in boards {
        let level = parse_xsb("known", text).unwrap().remove(0);
        let outcome = run_driver(&level, EncodingKind::Pushes, 30).unwrap();
        let (Verdict::Solved { .. }, Some(k)) = (&outcome.verdict, outcome.k) else {
            panic!("not solved: {:?}\n{text}", outcome.verdict);
        };
        assert_eq!(
            SearchResult::Optimal(k),
            shortest_pushes(&level, 30, STATES),
            "\n{text}"
        );
    }
}

#[test]
fn static_analysis_never_contradicts_the_push_bfs() {
    // The lower bound the driver starts from (matching, pairs, parity) and the searches'
    // bound of the start never exceed the optimum, and a level analysis calls unsolvable has no solution at any depth.
    let opts = GenOptions {
        max_boxes: 4,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 0,
    };
    let mut rng = Rng::new(11);
    let (mut bounded, mut refused, mut checked) = (0, 0, 0);
    while checked < 400 {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text).unwrap().remove(0);
        let analysis = satsoko::analysis::Analysis::new(&level);
        match shortest_pushes(&level, usize::MAX, STATES) {
            SearchResult::Optimal(m) => {
                assert!(analysis.unsolvable.is_none(), "{text}");
                assert!(
                    analysis.push_lower_bound <= m,
                    "bound {} > optimum {m} on\n{text}",
                    analysis.push_lower_bound
                );
                // Every plan has the parity analysis names, and the searches' bound of
                // the start, rounded up to it, stays at most the optimum.
                assert_eq!(analysis.push_parity, Some(m % 2), "{text}");
                let cells: Vec<usize> = (level.box_cells())
                    .filter(|&c| analysis.region[c])
                    .collect();
                let h = &analysis.heuristic;
                let start = h.left(0, h.bound_of(&analysis, &cells));
                assert!(
                    start as usize <= m,
                    "bound {start} > optimum {m} on\n{text}"
                );
                bounded += 1;
            }
            SearchResult::Unsolvable => refused += analysis.unsolvable.is_some() as usize,
            _ => continue,
        }
        checked += 1;
    }
    eprintln!("{checked} levels: {bounded} solvable, {refused} refused by analysis");
    assert!(bounded >= 100 && refused >= 20, "{bounded} / {refused}");
}

/// Checks that the matching potential plus the priced extra of any pair of `level`'s
/// boxes (those the player can reach), and the whole bound of the position, stay at
/// most `optimum`; says whether some pair needs pushes beyond its potential.
fn assert_pairs_bound_the_optimum(level: &Level, optimum: usize) -> bool {
    let level_text = level.to_string();
    let analysis = satsoko::analysis::Analysis::new(level);
    let cells: Vec<usize> = (level.box_cells())
        .filter(|&c| analysis.region[c])
        .collect();
    let h = &analysis.heuristic;
    let potential = h.potential(cells.iter().copied());
    let mut raised = false;
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            let extra = analysis.pair_table.priced_extra(a, b);
            raised |= extra > 0;
            assert!(
                potential + extra as i64 <= optimum as i64,
                "potential {potential} + pair {extra} > optimum {optimum} on\n{level_text}"
            );
        }
    }
    let bound = h.left(0, h.bound_of(&analysis, &cells)) as usize;
    assert!(
        bound <= optimum,
        "bound {bound} > optimum {optimum} on\n{level_text}"
    );
    raised
}

#[test]
fn priced_pairs_raise_the_matching_bound_and_never_past_the_optimum() {
    // The matching potential plus the priced extras of disjoint pairs of boxes (the
    // pushes two boxes need beyond their potentials and their goals' prices) is a lower
    // bound. Random boards seldom crowd their boxes enough for it to count; Microban's
    // small levels do.
    let opts = GenOptions {
        max_boxes: 4,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 1,
    };
    let mut rng = Rng::new(23);
    let mut checked = 0;
    while checked < 300 {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text).unwrap().remove(0);
        let SearchResult::Optimal(m) = shortest_pushes(&level, usize::MAX, STATES) else {
            continue;
        };
        assert_pairs_bound_the_optimum(&level, m);
        checked += 1;
    }
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
        .expect("bundled Microban");
    let (mut compared, mut raised) = (0, 0);
    for level in parse_xsb("microban", &text).unwrap() {
        if level.box_cells().count() > 4 {
            continue;
        }
        let SearchResult::Optimal(m) = shortest_pushes(&level, 120, STATES) else {
            continue;
        };
        raised += assert_pairs_bound_the_optimum(&level, m) as usize;
        compared += 1;
    }
    eprintln!(
        "{compared} Microban levels compared, a pair needs more than its potential on {raised}"
    );
    assert!(compared >= 40 && raised >= 8, "{compared} / {raised}");
}

#[test]
fn pushes_encoding_matches_push_bfs_on_small_microban_levels() {
    // Real levels where the brute-force search fits: here the matching potential's
    // goal prices make it negative near the goal, which random boards rarely show.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
        .expect("bundled Microban");
    let mut compared = 0;
    for level in parse_xsb("microban", &text).unwrap() {
        if level.box_cells().count() > 2 {
            continue;
        }
        let SearchResult::Optimal(best) = shortest_pushes(&level, 60, STATES) else {
            continue;
        };
        let outcome = run_driver(&level, EncodingKind::Pushes, 60).unwrap();
        let (Verdict::Solved { .. }, Some(k)) = (&outcome.verdict, outcome.k) else {
            panic!("Microban {}: {:?}", level.number, outcome.verdict);
        };
        assert_eq!(k, best, "Microban {}", level.number);
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} levels compared");
}

/// Checks a push search that is itself an oracle candidate against the push BFS on
/// small and larger generated boards ("none within k" included), one seed per shape.
fn check_push_search(run: &dyn Fn(&Level, usize) -> Result<Outcome, SolveError>, seeds: [u64; 2]) {
    for (seed, wall_percent, extra_size) in [(seeds[0], 10, 0), (seeds[1], 20, 2)] {
        let opts = GenOptions {
            max_boxes: 4,
            wall_percent,
            ice_percent: 0,
            extra_size,
        };
        check_engine(EncodingKind::Pushes, run, seed, 600, 14 + extra_size, opts);
    }
}

#[test]
fn anytime_engine_matches_push_bfs() {
    // The default: a plan from the finder, shortened by the solver, proved optimal by
    // pdr. Its optimal claims and its verdicts must be those of brute force.
    check_push_search(
        &|level, bound| run_engine("anytime", level, EncodingKind::Pushes, bound, None),
        [16, 17],
    );
}

/// A plan finder (`name`) proves nothing about length: its plans must replay and be no
/// shorter than the optimum, it may call a level unsolvable only when brute force
/// agrees, and it must find a plan on at least `min_found` of 600 generated levels
/// (and, when `complete`, on every solvable one).
fn check_plan_finder(name: &str, seed: u64, complete: bool, min_found: usize) {
    check_plan_finder_with(name, seed, complete, min_found, 0, Tuning::default());
}

/// [`check_plan_finder`] on boards with `ice_percent` of their floor ice.
fn check_plan_finder_with(
    name: &str,
    seed: u64,
    complete: bool,
    min_found: usize,
    ice_percent: usize,
    tuning: Tuning,
) {
    let mut rng = Rng::new(seed);
    let (mut found, mut refuted, mut missed, mut checked) = (0, 0, 0, 0);
    let opts = GenOptions {
        max_boxes: if ice_percent > 0 { 3 } else { 4 },
        wall_percent: 15,
        ice_percent,
        extra_size: 1,
    };
    while checked < 600 {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text).unwrap().remove(0);
        let oracle = shortest_pushes(&level, usize::MAX, STATES);
        if oracle == SearchResult::TooLarge {
            continue;
        }
        checked += 1;
        let outcome = run_tuned(name, &level, (EncodingKind::Pushes, 1000), None, tuning).unwrap();
        match (&outcome.verdict, oracle) {
            (Verdict::Solved { plan, optimal }, SearchResult::Optimal(m)) => {
                assert!(!optimal && plan.push_count() >= m, "{text}");
                plan.verify(&level).expect("plans replay");
                found += 1;
            }
            (Verdict::Unsolvable { .. }, SearchResult::Unsolvable) => refuted += 1,
            // Its pruning may leave it without an answer on an unsolvable level.
            (Verdict::Stopped { .. }, SearchResult::Unsolvable) => refuted += 1,
            (Verdict::Stopped { .. }, SearchResult::Optimal(_)) if !complete => missed += 1,
            (v, r) => panic!("{name} {v:?}, brute force {r:?} on\n{text}"),
        }
    }
    eprintln!("{name}: {checked} levels: {found} plans, {refuted} unsolvable, {missed} missed");
    assert!(found >= min_found && refuted >= 30, "{found} / {refuted}");
}

#[test]
fn finder_finds_a_plan_wherever_brute_force_does() {
    check_plan_finder("finder", 18, true, 150);
}

/// The finder's variants for measurements (`--finder-off`, `--finder-on`): with every
/// technique off, and with every one on, its answers still agree with brute force.
#[test]
fn finder_variants_find_a_plan_wherever_brute_force_does() {
    let every: Vec<String> = Techniques::NAMES.iter().map(|n| n.to_string()).collect();
    for (seed, off, on) in [(36, &every[..], &[][..]), (37, &[][..], &every[..])] {
        let finder = Techniques::DEFAULT.switched(off, on).unwrap();
        let tuning = Tuning {
            finder,
            ..Tuning::default()
        };
        check_plan_finder_with("finder", seed, true, 150, 0, tuning);
    }
}

#[test]
fn goal_by_goal_plans_replay_and_are_never_shorter_than_the_optimum() {
    // The goal-by-goal planner may miss a plan (its subgoals are capped and ordered).
    check_plan_finder("subgoals", 19, false, 150);
}

/// The goal-by-goal planner asking its questions with `pushes-path`'s walk
/// (`--questions path`).
#[test]
fn goal_by_goal_plans_with_path_questions_replay() {
    let tuning = Tuning {
        questions: Questions::Path,
        ..Tuning::default()
    };
    check_plan_finder_with("subgoals", 20, false, 150, 0, tuning);
}

/// The goal-by-goal planner asking for the fewest box lines alone (`--questions
/// folded`), and for the fewest pushes alone (`--questions layers`); the default, both
/// by turns, is `goal_by_goal_plans_replay_and_are_never_shorter_than_the_optimum`.
#[test]
fn goal_by_goal_plans_with_folded_questions_replay() {
    for (questions, seed) in [(Questions::Folded, 34), (Questions::Layers, 35)] {
        let tuning = Tuning {
            questions,
            ..Tuning::default()
        };
        check_plan_finder_with("subgoals", seed, false, 150, 0, tuning);
    }
}

/// A* over single moves on ice (its over-approximated slide analysis on) must give the
/// brute-force optimum in `encoding`'s metric, and its verdicts.
fn check_astar_on_ice(encoding: EncodingKind, seed: u64, bound: usize) {
    check_on_ice("astar", encoding, seed, bound);
}

/// The engine `name` on generated ice boards must give the brute-force optimum in
/// `encoding`'s metric, and its verdicts.
fn check_on_ice(name: &str, encoding: EncodingKind, seed: u64, bound: usize) {
    let solve = |level: &Level, bound| run_engine(name, level, encoding, bound, None);
    for (wall_percent, ice_percent, extra_size) in [(15, 35, 0), (10, 50, 2)] {
        let opts = GenOptions {
            max_boxes: 3,
            wall_percent,
            ice_percent,
            extra_size,
        };
        check_engine(encoding, &solve, seed + extra_size as u64, 400, bound, opts);
    }
}

#[test]
fn astar_is_move_optimal_on_ice() {
    check_astar_on_ice(EncodingKind::Moves, 30, 18);
}

#[test]
fn astar_is_push_optimal_on_ice() {
    check_astar_on_ice(EncodingKind::Pushes, 31, 10);
}

#[test]
fn pdr_is_push_optimal_on_ice() {
    // Its pushes are the rules' (a box slides to where it stops), its positions name
    // the player's place by where it can walk and back, and its lemmas read slides
    // from the one-push formula.
    check_on_ice("pdr", EncodingKind::Pushes, 33, 10);
}

#[test]
fn anytime_is_push_optimal_on_ice() {
    check_on_ice("anytime", EncodingKind::Pushes, 34, 10);
}

#[test]
fn finder_finds_a_plan_on_ice_wherever_brute_force_does() {
    check_plan_finder_with("finder", 35, true, 100, 30, Tuning::default());
}

/// The search `name` must give the brute-force move optimum on generated boards
/// without ice, up to three boxes.
fn check_move_optimal(name: &str, seed: u64) {
    let solve = |level: &Level, bound| run_engine(name, level, EncodingKind::Moves, bound, None);
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 15,
        ice_percent: 0,
        extra_size: 1,
    };
    check_engine(EncodingKind::Moves, &solve, seed, 400, 20, opts);
}

#[test]
fn astar_is_move_optimal_without_ice() {
    check_move_optimal("astar", 32);
}

/// The symbolic search, on other boards than A*'s.
#[test]
fn bdd_is_move_optimal() {
    check_move_optimal("bdd", 33);
}

#[test]
fn astar_baseline_matches_push_bfs() {
    // The baseline is itself an oracle for levels too large for BFS, so it is checked
    // like an encoding.
    check_push_search(&run_astar, [12, 13]);
}

#[test]
fn pdr_search_matches_push_bfs() {
    // Lemmas generalise what one query refutes to every position that matches them, so
    // an over-general lemma would show here as a missed or longer plan.
    check_push_search(&run_pdr, [14, 15]);
}

#[test]
fn pdr_without_lemmas_matches_push_bfs() {
    // `--pdr-off lemmas`: the search refutes positions one by one.
    let tuning = Tuning {
        pdr_lemmas: false,
        ..Tuning::default()
    };
    let run =
        |level: &Level, bound| run_tuned("pdr", level, (EncodingKind::Pushes, bound), None, tuning);
    check_push_search(&run, [24, 25]);
}

/// Microban levels the unroll engine solves in well under a second (0.2 s or less):
/// the SAT engines and the A* baseline must give the same optimum.
const QUICK_MICROBAN: [usize; 76] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
    28, 29, 30, 31, 32, 33, 34, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
    55, 56, 57, 58, 61, 62, 66, 67, 68, 70, 71, 73, 79, 81, 82, 86, 91, 95, 103, 107, 110, 116,
    119, 125, 136, 154,
];

#[test]
fn pushes_encoding_matches_astar_on_quick_microban_levels() {
    // Real levels with up to 10 boxes, far beyond the brute-force search.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
        .expect("bundled Microban");
    let levels = parse_xsb("microban", &text).unwrap();
    for n in QUICK_MICROBAN {
        let level = &levels[n - 1];
        let sat = run_driver(level, EncodingKind::Pushes, 300).unwrap();
        let search = run_astar(level, 300).unwrap();
        match (&sat.verdict, &search.verdict) {
            (Verdict::Solved { plan: a, .. }, Verdict::Solved { plan: b, .. }) => {
                assert_eq!(a.push_count(), b.push_count(), "Microban {n}");
            }
            (a, b) => panic!("Microban {n}: SAT {a:?}, A* {b:?}"),
        }
    }
}

#[test]
fn pdr_search_matches_astar_on_microban() {
    // Real levels with up to 10 boxes; a level the search does not finish in 2 s is
    // skipped (on a loaded machine), a different answer is not.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/microban.xsb"))
        .expect("bundled Microban");
    let levels = parse_xsb("microban", &text).unwrap();
    let mut compared = 0;
    for n in QUICK_MICROBAN {
        let level = &levels[n - 1];
        let search = run_astar(level, 300).unwrap();
        let pdr = run_pdr_for(level, 300, Duration::from_secs(2)).unwrap();
        match (&pdr.verdict, &search.verdict) {
            (Verdict::Stopped { .. }, _) => {}
            (Verdict::Solved { plan: a, .. }, Verdict::Solved { plan: b, .. }) => {
                assert_eq!(a.push_count(), b.push_count(), "Microban {}", level.number);
                compared += 1;
            }
            (a, b) => panic!("Microban {}: pdr {a:?}, A* {b:?}", level.number),
        }
    }
    assert!(compared >= 70, "only {compared} levels compared");
}

/// pdr's convergence check: on generated levels that brute force proves unsolvable and
/// static analysis does not, pdr without a bound answers `unsolvable` (never a plan,
/// never a bound); levels that have a plan never get that verdict (the other oracle
/// tests check that).
#[test]
fn pdr_proves_unsolvable_levels_and_learns_from_them() {
    let mut rng = Rng::new(40);
    let opts = GenOptions {
        max_boxes: 3,
        wall_percent: 8,
        ice_percent: 0,
        extra_size: 2,
    };
    let (mut needing_search, mut learned) = (0, 0);
    while needing_search < 40 {
        let Some(text) = random_level(&mut rng, opts) else {
            continue;
        };
        let level = parse_xsb("generated", &text).unwrap().remove(0);
        if shortest_pushes(&level, usize::MAX, STATES) != SearchResult::Unsolvable
            || satsoko::analysis::Analysis::new(&level)
                .unsolvable
                .is_some()
        {
            continue;
        }
        needing_search += 1;
        let engine = registry::by_name("pdr").unwrap();
        let request = Request {
            metric: EncodingKind::Pushes.metric(),
            prove: true,
            encoding: None,
            solver: SolverChoice::default(),
            max_steps: None,
            tuning: Tuning::default(),
        };
        let board = Incumbent::new(request.metric);
        let stop = Stop::new(Some(Instant::now() + Duration::from_secs(20)));
        let outcome = engine::solve(engine, &level, &request, &stop, &board).unwrap();
        match outcome.verdict {
            Verdict::Unsolvable { .. } => {
                learned += usize::from(outcome.stats.lemmas.unwrap_or(0) > 0);
            }
            v => panic!("pdr answered {v:?} on a level brute force proves unsolvable:\n{text}"),
        }
    }
    eprintln!(
        "pdr proved all {needing_search} unsolvable levels that need search (lemmas \
         learned on {learned})"
    );
    assert!(learned > 0);
}
