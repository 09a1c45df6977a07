use super::*;
use crate::analysis::Analysis;
use crate::level::parse_xsb;

fn level(text: &str) -> crate::level::Level {
    parse_xsb("test", text).expect("parses").remove(0)
}

fn run(text: &str, max_moves: Option<usize>) -> (Verdict, Counts) {
    let level = level(text);
    let analysis = Analysis::new(&level);
    let layout = Layout::new(&level, &analysis);
    let limits = Limits {
        max_moves,
        max_nodes: 1 << 24,
    };
    let board = Incumbent::new(Metric::Moves);
    search(&Biodivine::new(layout.vars()), &layout, &limits, &Stop::never(), &board)
}

#[test]
fn one_push_is_one_layer_after_the_walk() {
    let (verdict, counts) = run("#####\n#@$.#\n#####\n", None);
    let Verdict::Solved { plan, optimal } = verdict else {
        panic!("{verdict:?}")
    };
    assert!(optimal);
    assert_eq!(plan.lurd(), "R");
    assert_eq!(counts.layers, 1);
}

#[test]
fn the_plan_walks_round_to_push() {
    let text = "######\n#@   #\n# $  #\n# .  #\n######\n";
    let (verdict, _) = run(text, None);
    let Verdict::Solved { plan, .. } = verdict else {
        panic!("{verdict:?}")
    };
    assert_eq!(plan.move_count(), 2);
    plan.verify(&level(text)).expect("replays");
}

#[test]
fn a_bound_below_the_optimum_gives_no_plan() {
    let text = "######\n#@   #\n# $  #\n# .  #\n######\n";
    let (verdict, _) = run(text, Some(1));
    assert_eq!(verdict, Verdict::NoPlan { bound: 1 });
}

#[test]
fn the_fixpoint_proves_what_static_analysis_does_not() {
    // The first level of levels/examples/unsolvable-search.xsb: the boxes move, but
    // no sequence of moves fills both goals.
    let text = "##########\n#   .    #\n#    $   #\n#. #    ##\n## @ # $ #\n#      # #\n##########\n";
    assert!(Analysis::new(&level(text)).unsolvable.is_none());
    let (verdict, counts) = run(text, None);
    assert!(matches!(verdict, Verdict::Unsolvable { .. }), "{verdict:?}");
    assert!(counts.layers > 0 && counts.peak_nodes > 0);
}
