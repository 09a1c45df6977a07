//! End-to-end tests of the `satsoko` binary's engines and of ice: the ice example levels
//! are read, verified with sliding and solved by the ice-aware moves encoding whatever the
//! encoding asked for; the searches of their own (A* and pdr) solve push-optimally and
//! refuse what they cannot do; and `--engine auto` picks pdr for push-optimal plans and
//! the unrolled formula otherwise. Outputs are as docs/formats.md describes them.
//!
//! Every command runs in the crate's root, so file names in messages are the relative
//! paths given on the command line.

mod common;

use common::cli::Encoding;
use common::cli::{
    MICROBAN, UNSOLVABLE, assert_verifies, expect_code, json_lines, levels_of, satsoko,
    solved_lines_without_seconds, str_field, u64_field,
};

/// Small levels with ice (slides of the player and of pushed boxes).
const ICE: &str = "levels/examples/ice.xsb";

// ---------------------------------------------------------------------------------------
// Ice: read, verified and solved

#[test]
fn ice_levels_are_read_and_verified_with_sliding() {
    // The first move slides over two ice cells onto the floor, next to the box.
    let run = expect_code(&["verify", ICE, "--level", "1", "--solution", "rR"], 0);
    assert!(run.stdout.contains("(2 moves, 1 push)"), "{run:?}");
    // So a second walk to the right would push the box.
    let run = expect_code(&["verify", ICE, "--level", "1", "--solution", "rrR"], 6);
    assert!(run.stdout.contains("letter 2 ('r') is illegal"), "{run:?}");
    // The pushed box slides over the ice onto the goal.
    expect_code(&["verify", ICE, "--level", "2", "--solution", "R"], 0);
    expect_code(&["verify", ICE, "--level", "2", "--solution", "RR"], 6);
    // The player, starting on ice, stops on the ice in front of the box.
    expect_code(&["verify", ICE, "--level", "3", "--solution", "rR"], 0);
    // Two slides: along the top row and down the right column.
    let run = expect_code(&["verify", ICE, "--level", "4", "--solution", "rdlL"], 0);
    assert!(run.stdout.contains("(4 moves, 1 push)"), "{run:?}");
    expect_code(&["verify", ICE, "--level", "4", "--solution", "ddrrrdL"], 0);
}

/// Ice levels are solved by the ice-aware moves encoding, whatever the encoding asked
/// for: the pushes encodings do not model slides, so they fall back to moves and say so.
#[test]
fn ice_levels_are_solved_with_the_moves_encoding() {
    let best_moves = [2, 1, 2, 4];
    for encoding in Encoding::ALL {
        let run = expect_code(&[ICE, "--encoding", encoding.name(), "--json"], 0);
        let lines = json_lines(&run);
        assert_eq!(levels_of(&lines), [1, 2, 3, 4], "{run:?}");
        for (v, moves) in lines.iter().zip(best_moves) {
            assert_eq!(str_field(v, "status"), "solved", "{v}");
            assert_eq!(str_field(v, "encoding"), "moves", "{v}");
            assert_eq!(str_field(v, "optimal"), "moves", "{v}");
            assert_eq!(u64_field(v, "moves"), moves, "{v}");
            if encoding.name() != "moves" {
                assert!(
                    str_field(v, "message").contains("does not model ice"),
                    "{v}"
                );
            }
        }
    }
    // The same through a worker process (with a time limit).
    let run = expect_code(&[ICE, "--level", "4", "--timeout", "30", "--json"], 0);
    assert_eq!(u64_field(&json_lines(&run)[0], "moves"), 4);
}

/// Writing a pushes CNF for an ice level is refused (it could not express slides).
#[test]
fn pushes_cnf_of_an_ice_level_is_refused() {
    let run = expect_code(&["encode", ICE, "--level", "1", "--steps", "2"], 1);
    assert!(run.stderr.contains("does not handle ice"), "{run:?}");
    expect_code(
        &[
            "encode",
            ICE,
            "--level",
            "1",
            "--steps",
            "2",
            "--encoding",
            "moves",
        ],
        0,
    );
    let run = expect_code(
        &["sweep", ICE, "--level", "1", "--from", "1", "--to", "2"],
        1,
    );
    assert!(run.stderr.contains("does not handle ice"), "{run:?}");
    // Refused before the table starts: nothing on stdout.
    assert!(run.stdout.is_empty(), "{run:?}");
}

/// An ice-blind encoding once solved level 4 as if ice were floor and claimed its 7-move
/// plan optimal, while two slides do it in 4 moves. Every ice level needs 1 push; the
/// optimal move counts are in `levels/examples/ice.xsb`.
#[test]
fn ice_levels_never_claim_a_wrong_optimum() {
    let best_moves = [2, 1, 2, 4];
    for encoding in Encoding::ALL {
        for (i, moves) in best_moves.into_iter().enumerate() {
            let level = (i + 1).to_string();
            let run = satsoko(&[
                ICE,
                "--level",
                &level,
                "--encoding",
                encoding.name(),
                "--json",
            ]);
            let v = &json_lines(&run)[0];
            if v["status"] == "solved" {
                assert_verifies(ICE, i as u64 + 1, str_field(v, "solution"));
                if v["optimal"] == "moves" {
                    assert_eq!(u64_field(v, "moves"), moves, "{v}");
                }
                if v["optimal"] == "pushes" {
                    assert_eq!(u64_field(v, "pushes"), 1, "{v}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Engines

/// The searches of their own: the A* baseline and the property-directed search.
const SEARCHES: [&str; 2] = ["astar", "pdr"];

#[test]
fn searches_solve_push_optimally_and_build_no_formula() {
    let sat = solved_lines_without_seconds(&[MICROBAN, "--level", "1-3"]);
    for search in SEARCHES {
        let run = expect_code(
            &[MICROBAN, "--level", "1-3", "--engine", search, "--json"],
            0,
        );
        for (v, s) in json_lines(&run).iter().zip(&sat) {
            assert_eq!(v["engine"], search, "{v}");
            assert_eq!(v["optimal"], "pushes", "{v}");
            assert_eq!(v["pushes"], s["pushes"], "same optimum as SAT: {v} {s}");
            // A* has no formula; pdr reports the one-push formula with its lemmas.
            let sized = v.get("variables").is_some_and(|x| x.as_u64().is_some());
            assert_eq!(sized, search == "pdr", "{v}");
            assert_verifies(MICROBAN, u64_field(v, "level"), str_field(v, "solution"));
        }
        // Unsolvable levels and too small bounds get the usual verdicts and exit codes.
        expect_code(&[UNSOLVABLE, "--engine", search], 3);
        expect_code(
            &[
                MICROBAN,
                "--level",
                "1",
                "--engine",
                search,
                "--max-steps",
                "7",
            ],
            4,
        );
    }
}

/// `unroll` without `--encoding` takes the push encoding that proves the most with its
/// solver: the layers with varisat, the walk of `pushes-path` with CaDiCaL. A named
/// encoding is kept.
#[test]
#[cfg(feature = "cadical")]
fn unroll_takes_the_walk_with_cadical_and_the_layers_with_varisat() {
    let encoding_of = |args: &[&str]| -> String {
        let base = [MICROBAN, "--level", "2", "--engine", "unroll", "--json"];
        let run = expect_code(&[&base[..], args].concat(), 0);
        let v = &json_lines(&run)[0];
        assert_eq!(str_field(v, "optimal"), "pushes", "{v}");
        format!("{} {}", str_field(v, "encoding"), str_field(v, "solver"))
    };
    assert_eq!(encoding_of(&[]), "pushes varisat");
    assert_eq!(encoding_of(&["--solver", "cadical"]), "pushes-path cadical");
    assert_eq!(
        encoding_of(&["--solver", "cadical", "--encoding", "pushes"]),
        "pushes cadical"
    );
    assert_eq!(
        encoding_of(&["--encoding", "pushes-path"]),
        "pushes-path varisat"
    );
}

#[test]
fn auto_engine_is_anytime_for_push_optimal_plans_astar_for_moves_and_ice() {
    let engine_of = |args: &[&str]| -> Vec<String> {
        let run = expect_code(&[args, &["--json"]].concat(), 0);
        json_lines(&run)
            .iter()
            .map(|v| str_field(v, "engine").to_string())
            .collect()
    };
    assert_eq!(engine_of(&[MICROBAN, "--level", "2"]), ["anytime"]);
    // Its prover, pdr, works with CaDiCaL too.
    assert_eq!(
        engine_of(&[MICROBAN, "--level", "2", "--solver", "cadical"]),
        ["anytime"]
    );
    // No optimum asked for: the plan finder alone.
    assert_eq!(
        engine_of(&[MICROBAN, "--level", "2", "--optimize", "none"]),
        ["finder"]
    );
    // Anything that asks for the unrolled formula.
    for args in [
        &[MICROBAN, "--level", "2", "--encoding", "pushes"][..],
        &[MICROBAN, "--level", "2", "--engine", "unroll"],
        &[ICE, "--level", "1", "--encoding", "moves"],
    ] {
        assert_eq!(engine_of(args), ["unroll"], "{args:?}");
    }
    // Moves, and ice (which the push engines do not model): A* over whole states.
    for args in [
        &[MICROBAN, "--level", "2", "--optimize", "moves"][..],
        &[ICE, "--level", "1"],
        &[ICE, "--level", "1", "--optimize", "moves"],
    ] {
        assert_eq!(engine_of(args), ["astar"], "{args:?}");
    }
    // pdr needs a solver it can question thousands of times.
    let run = expect_code(
        &[
            MICROBAN,
            "--engine",
            "pdr",
            "--solver-cmd",
            "minisat {in} {out}",
        ],
        2,
    );
    assert!(run.stderr.contains("--solver-cmd"), "{run:?}");
}

#[test]
fn searches_refuse_what_they_cannot_do() {
    for search in SEARCHES {
        // No formula to sweep, no move-optimal search (but astar's): usage errors,
        // before any output.
        let mut refused: Vec<Vec<&str>> = vec![
            vec![
                "sweep", MICROBAN, "--from", "1", "--to", "2", "--engine", search,
            ],
            vec![
                "bench",
                MICROBAN,
                "--timeout",
                "1",
                "--engine",
                search,
                "--encoding",
                "moves",
            ],
        ];
        if search != "astar" {
            refused.push(vec![MICROBAN, "--engine", search, "--optimize", "moves"]);
        }
        for args in &refused {
            let run = expect_code(args, 2);
            assert_eq!(run.stdout, "", "{run:?}");
            assert!(run.stderr.contains(search), "{run:?}");
        }
        // Every push search slides its boxes on ice.
        let run = expect_code(&[ICE, "--level", "1", "--engine", search], 0);
        assert!(run.stdout.contains("optimal in pushes"), "{run:?}");
    }
    // The goal-by-goal planner asks the unrolled `pushes` formula, which has no
    // slides: an input error naming the reason and the engines that take ice.
    let run = expect_code(
        &[
            ICE,
            "--level",
            "1",
            "--engine",
            "subgoals",
            "--optimize",
            "none",
        ],
        1,
    );
    assert!(
        run.stderr.contains("ice") && run.stderr.contains("astar"),
        "{run:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Tuning: the options that switch techniques and set the memory, for measurements

/// Every finder technique switched off still gives a verified plan, and the solve says
/// nothing different from the default's but the plan itself.
#[test]
fn finder_techniques_switch_off_and_on_by_name() {
    let off = "freeze,tunnels,packing,corrals,knots,rotation,pi-corrals,portfolio,switches,\
               goal-macros,frozen-goals,macros";
    for (flag, names) in [
        ("--finder-off", off),
        ("--finder-on", "connectivity,partial-order"),
    ] {
        let args = [
            MICROBAN,
            "--level",
            "2",
            "--engine",
            "finder",
            "--optimize",
            "none",
            flag,
            names,
            "--json",
        ];
        let run = expect_code(&args, 0);
        let lines = json_lines(&run);
        assert_eq!(str_field(&lines[0], "status"), "solved", "{run:?}");
        assert_verifies(MICROBAN, 2, str_field(&lines[0], "solution"));
    }
}

/// A name that is no technique is a usage error that lists the names and suggests the
/// nearest; `--memory` has a floor and `--horizons` a range; `pdr` without lemmas, and
/// `unroll` with any number of horizons, prove the same optimum.
#[test]
fn tuning_options_are_checked_and_take_effect() {
    let run = expect_code(&[MICROBAN, "--level", "1", "--finder-off", "knot"], 2);
    assert!(run.stderr.contains("frozen-goals"), "{run:?}");
    assert!(run.stderr.contains("'knots'"), "{run:?}");
    let run = expect_code(&[MICROBAN, "--level", "1", "--pdr-off", "lemma"], 2);
    assert!(run.stderr.contains("lemmas"), "{run:?}");
    let run = expect_code(&[MICROBAN, "--level", "1", "--memory", "8"], 2);
    assert!(run.stderr.contains("16"), "{run:?}");
    for horizons in ["0", "9"] {
        let run = expect_code(&[MICROBAN, "--level", "1", "--horizons", horizons], 2);
        assert!(run.stderr.contains("1..=8"), "{run:?}");
    }
    for horizons in ["1", "2", "8"] {
        let args = [
            MICROBAN,
            "--level",
            "5",
            "--engine",
            "unroll",
            "--horizons",
            horizons,
        ];
        let lines = json_lines(&expect_code(&[&args[..], &["--json"]].concat(), 0));
        assert_eq!(str_field(&lines[0], "optimal"), "pushes", "{lines:?}");
        assert_eq!(u64_field(&lines[0], "pushes"), 6, "{lines:?}");
    }
    for extra in [&[][..], &["--pdr-off", "lemmas", "--memory", "16"][..]] {
        let mut args = vec![MICROBAN, "--level", "1", "--engine", "pdr", "--json"];
        args.extend(extra);
        let lines = json_lines(&expect_code(&args, 0));
        assert_eq!(str_field(&lines[0], "optimal"), "pushes", "{lines:?}");
        assert_eq!(u64_field(&lines[0], "pushes"), 8, "{lines:?}");
    }
}

// ---------------------------------------------------------------------------------------
// The symbolic engine

/// `--engine bdd` counts moves by default, meets the state A*'s move optimum, reports
/// its layers and nodes, proves the unsolvable examples by its fixpoint (those static
/// analysis misses too), answers "no plan" below the optimum, and refuses pushes and
/// ice with the option to change.
#[test]
fn bdd_is_move_optimal_and_proves_unsolvable_by_its_fixpoint() {
    let args = |engine| vec![MICROBAN, "--level", "1-3", "--engine", engine, "--json"];
    let astar = [args("astar"), vec!["--optimize", "moves"]].concat();
    let astar = json_lines(&expect_code(&astar, 0));
    let bdd = json_lines(&expect_code(&args("bdd"), 0));
    for (v, a) in bdd.iter().zip(&astar) {
        assert_eq!(v["engine"], "bdd", "{v}");
        assert_eq!(v["optimal"], "moves", "{v}");
        assert_eq!(v["moves"], a["moves"], "same optimum as A*: {v} {a}");
        assert_eq!(v["stats"]["layers"], v["moves"], "{v}");
        assert!(v["stats"]["peak_nodes"].as_u64().unwrap() > 0, "{v}");
        assert_verifies(MICROBAN, u64_field(v, "level"), str_field(v, "solution"));
    }
    for file in [UNSOLVABLE, "levels/examples/unsolvable-search.xsb"] {
        let run = expect_code(&[file, "--engine", "bdd", "--json"], 3);
        for v in json_lines(&run) {
            assert_eq!(v["status"], "unsolvable", "{v}");
        }
    }
    let search = expect_code(
        &["levels/examples/unsolvable-search.xsb", "--engine", "bdd"],
        3,
    );
    assert!(search.stdout.contains("the fixpoint"), "{search:?}");
    let bound = [
        MICROBAN,
        "--level",
        "1",
        "--engine",
        "bdd",
        "--max-steps",
        "32",
    ];
    let run = expect_code(&bound, 4);
    assert!(run.stdout.contains("no plan of at most 32"), "{run:?}");
    let pushes = [
        MICROBAN,
        "--level",
        "1",
        "--engine",
        "bdd",
        "--optimize",
        "pushes",
    ];
    let run = expect_code(&pushes, 2);
    assert!(run.stderr.contains("--optimize pushes"), "{run:?}");
    let run = expect_code(&[ICE, "--level", "1", "--engine", "bdd"], 1);
    assert!(
        run.stderr.contains("ice") && run.stderr.contains("astar"),
        "{run:?}"
    );
    // At its memory budget the search stops with its bound, never aborts.
    let small = [
        MICROBAN, "--level", "93", "--engine", "bdd", "--memory", "16",
    ];
    let run = expect_code(&small, 5);
    assert!(
        run.stdout
            .contains("decision-diagram nodes (the memory limit)"),
        "{run:?}"
    );
    // The headline and the JSON say that the memory, not the clock, stopped it.
    assert!(
        run.stdout
            .contains("level 93: stopped at its memory limit in"),
        "{run:?}"
    );
    let json = json_lines(&expect_code(&[&small[..], &["--json"]].concat(), 5));
    assert_eq!(str_field(&json[0], "status"), "timeout", "{json:?}");
    assert_eq!(str_field(&json[0], "stop"), "memory", "{json:?}");
}

// ---------------------------------------------------------------------------------------
// The A* trace

/// The `N: f F = g G + h H, …` lines of an A* trace: (f, g, h, the rest).
fn traced_nodes(stdout: &str) -> Vec<(u64, u64, u64, String)> {
    stdout
        .lines()
        .filter_map(|line| {
            let (_, rest) = line.trim_start().split_once(": f ")?;
            let (f, rest) = rest.split_once(" = g ")?;
            let (g, rest) = rest.split_once(" + h ")?;
            let (h, rest) = rest.split_once(", ")?;
            Some((
                f.parse().ok()?,
                g.parse().ok()?,
                h.parse().ok()?,
                rest.to_string(),
            ))
        })
        .collect()
}

#[test]
fn astar_traces_each_expansion_with_f_g_and_h() {
    use satsoko::analysis::Analysis;
    let text = std::fs::read_to_string(MICROBAN).unwrap();
    let level = satsoko::level::parse_xsb(MICROBAN, &text)
        .unwrap()
        .remove(0);
    let analysis = Analysis::new(&level);
    let start_h = analysis.heuristic.potential(level.box_cells()).max(0) as u64;

    let run = expect_code(
        &[MICROBAN, "--level", "1", "--engine", "astar", "--trace"],
        0,
    );
    assert!(
        run.stdout
            .starts_with("levels/microban.xsb level 1: the search, node by node\n"),
        "{run:?}"
    );
    let nodes = traced_nodes(&run.stdout);
    // The root: no pushes yet, the heuristic's bound of the start.
    assert_eq!(nodes[0], (start_h, 0, start_h, "the start".to_string()));
    for (f, g, h, via) in &nodes {
        assert_eq!(*f, g + h, "{via}");
        // An admissible heuristic expands nothing above the optimum, 8 pushes.
        assert!(*f <= 8, "{via}");
    }
    let last = nodes.last().unwrap();
    assert_eq!((last.0, last.1, last.2), (8, 8, 0));
    assert!(last.3.starts_with("after pushing r") && last.3.ends_with(": solved"));
    let count = format!("  search: {} nodes traced\n", nodes.len());
    assert!(run.stdout.contains(&count), "{run:?}");
    assert!(run.stdout.contains("optimal in pushes"), "{run:?}");

    // Over whole states (--optimize moves) the heuristic is consistent: f never falls.
    let args = [
        MICROBAN,
        "--level",
        "1",
        "--engine",
        "astar",
        "--optimize",
        "moves",
    ];
    let run = expect_code(
        &[&args[..], &["--trace", "--trace-limit", "100000"]].concat(),
        0,
    );
    let nodes = traced_nodes(&run.stdout);
    assert_eq!((nodes[0].1, nodes[0].3.as_str()), (0, "the start"));
    assert!(nodes.iter().all(|(f, g, h, _)| *f == g + h));
    assert!(nodes.windows(2).all(|w| w[0].0 <= w[1].0), "{run:?}");
    assert_eq!(nodes.last().unwrap().1, 33);

    // The limit: the first lines, then a count of the others.
    let run = expect_code(&[&args[..], &["--trace", "--trace-limit", "3"]].concat(), 0);
    assert_eq!(traced_nodes(&run.stdout).len(), 3);
    let left_out = format!(
        "  … {} more nodes left out (the first 3 are shown; --trace-limit sets how many)\n",
        nodes.len() - 3
    );
    assert!(run.stdout.contains(&left_out), "{run:?}");
}

#[test]
fn only_astar_traces_its_search() {
    for engine in ["auto", "pdr", "finder", "anytime", "unroll", "subgoals"] {
        // (--optimize none: the plan finders would refuse a proof first.)
        let args = [MICROBAN, "--level", "1", "--optimize", "none", "--trace"];
        let run = expect_code(&[&args[..], &["--engine", engine]].concat(), 2);
        assert!(
            run.stderr.contains("--trace") && run.stderr.contains("add --engine astar"),
            "{engine}: {run:?}"
        );
        assert_eq!(run.stdout, "");
    }
    // The symbolic search expands sets, not nodes: it has no such trace either.
    let run = expect_code(&[MICROBAN, "--level", "1", "--engine", "bdd", "--trace"], 2);
    assert!(run.stderr.contains("--trace"), "{run:?}");
    // A JSON line has no room for a trace; a limit needs a trace.
    let args = [MICROBAN, "--engine", "astar", "--level", "1"];
    expect_code(&[&args[..], &["--trace", "--json"]].concat(), 2);
    expect_code(&[&args[..], &["--trace-limit", "5"]].concat(), 2);
}
