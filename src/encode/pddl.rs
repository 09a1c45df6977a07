//! A level as a PDDL problem of the IPC-2008 Sokoban domain (`sokoban-sequential`),
//! so that any classical planner can be run on the same level as satsoko's encodings.
//!
//! The domain ([`DOMAIN`]) has a player and stones on locations, `MOVE-DIR` facts for
//! the steps between neighbouring locations, and three actions: `move` (a walk step,
//! free), `push-to-nongoal` and `push-to-goal` (a push, cost 1), so a plan of least
//! `total-cost` is push-optimal, as satsoko's default. The problem names a location
//! `pos-CC-RR` by its 1-based column and row (two digits, or more on wider boards),
//! and lists the cells the player can ever reach (with the boxes taken as floor) and
//! the cells of boxes outside them. Ice has no counterpart in the domain and is refused.

use std::fmt::Write;

use crate::game::player_region;
use crate::level::{Cell, Direction, Level};

/// The domain file every problem is written for (written by us after the IPC-2008
/// domain's predicates and actions, so that planners read both alike).
pub const DOMAIN: &str = "\
(define (domain sokoban-sequential)
  (:requirements :typing :action-costs)
  (:types thing location direction - object
          player stone - thing)
  (:predicates (clear ?l - location)
               (at ?t - thing ?l - location)
               (at-goal ?s - stone)
               (IS-GOAL ?l - location)
               (IS-NONGOAL ?l - location)
               (MOVE-DIR ?from ?to - location ?dir - direction))
  (:functions (total-cost) - number)
  (:action move
   :parameters (?p - player ?from ?to - location ?dir - direction)
   :precondition (and (at ?p ?from) (clear ?to) (MOVE-DIR ?from ?to ?dir))
   :effect (and (not (at ?p ?from)) (not (clear ?to)) (at ?p ?to) (clear ?from)))
  (:action push-to-nongoal
   :parameters (?p - player ?s - stone ?ppos ?from ?to - location ?dir - direction)
   :precondition (and (at ?p ?ppos) (at ?s ?from) (clear ?to)
                      (MOVE-DIR ?ppos ?from ?dir) (MOVE-DIR ?from ?to ?dir)
                      (IS-NONGOAL ?to))
   :effect (and (not (at ?p ?ppos)) (not (at ?s ?from)) (not (clear ?to))
                (at ?p ?from) (at ?s ?to) (clear ?ppos) (not (at-goal ?s))
                (increase (total-cost) 1)))
  (:action push-to-goal
   :parameters (?p - player ?s - stone ?ppos ?from ?to - location ?dir - direction)
   :precondition (and (at ?p ?ppos) (at ?s ?from) (clear ?to)
                      (MOVE-DIR ?ppos ?from ?dir) (MOVE-DIR ?from ?to ?dir)
                      (IS-GOAL ?to))
   :effect (and (not (at ?p ?ppos)) (not (at ?s ?from)) (not (clear ?to))
                (at ?p ?from) (at ?s ?to) (clear ?ppos) (at-goal ?s)
                (increase (total-cost) 1))))
";

/// The direction objects, in [`Direction::ALL`]'s order.
fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::Left => "dir-left",
        Direction::Up => "dir-up",
        Direction::Right => "dir-right",
        Direction::Down => "dir-down",
    }
}

/// The PDDL problem of `level` for [`DOMAIN`], named `name`; an error for a level
/// with ice, which the domain cannot express.
pub fn problem(level: &Level, name: &str) -> Result<String, String> {
    if level.has_ice() {
        return Err("PDDL export: the IPC Sokoban domain has no ice".to_string());
    }
    let region = player_region(level);
    let is_listed = |c: Cell| region[c] || level.has_initial_box(c);
    let listed: Vec<Cell> = (0..level.cell_count()).filter(|&c| is_listed(c)).collect();
    let digits = (level.width().max(level.height())).to_string().len().max(2);
    let pos = |c: Cell| {
        let (r, col) = level.row_col(c);
        format!("pos-{:0digits$}-{:0digits$}", col + 1, r + 1)
    };
    let stones: Vec<Cell> = level.box_cells().collect();
    let stone = |i: usize| format!("stone-{:02}", i + 1);

    let mut out = String::new();
    let o = &mut out;
    let _ = writeln!(
        o,
        "; level {name}: satsoko encode --pddl (domain: --pddl-domain)"
    );
    let _ = writeln!(o, "(define (problem {})", pddl_name(name));
    let _ = writeln!(o, "  (:domain sokoban-sequential)");
    let _ = writeln!(o, "  (:objects");
    let dirs: Vec<&str> = Direction::ALL.iter().map(|&d| direction_name(d)).collect();
    let _ = writeln!(o, "    {} - direction", dirs.join(" "));
    let _ = writeln!(o, "    player-01 - player");
    for &c in &listed {
        let _ = writeln!(o, "    {} - location", pos(c));
    }
    for i in 0..stones.len() {
        let _ = writeln!(o, "    {} - stone", stone(i));
    }
    let _ = writeln!(o, "  )");
    let _ = writeln!(o, "  (:init");
    for &c in &listed {
        let kind = if level.is_goal(c) {
            "IS-GOAL"
        } else {
            "IS-NONGOAL"
        };
        let _ = writeln!(o, "    ({kind} {})", pos(c));
    }
    for &c in &listed {
        for d in Direction::ALL {
            let n = level.neighbor(c, d);
            if !level.is_wall(n) && is_listed(n) {
                let _ = writeln!(
                    o,
                    "    (MOVE-DIR {} {} {})",
                    pos(c),
                    pos(n),
                    direction_name(d)
                );
            }
        }
    }
    let _ = writeln!(o, "    (at player-01 {})", pos(level.player()));
    for (i, &c) in stones.iter().enumerate() {
        let _ = writeln!(o, "    (at {} {})", stone(i), pos(c));
        if level.is_goal(c) {
            let _ = writeln!(o, "    (at-goal {})", stone(i));
        }
    }
    for &c in &listed {
        if c != level.player() && !level.has_initial_box(c) {
            let _ = writeln!(o, "    (clear {})", pos(c));
        }
    }
    let _ = writeln!(o, "    (= (total-cost) 0)");
    let _ = writeln!(o, "  )");
    let _ = writeln!(o, "  (:goal (and");
    for i in 0..stones.len() {
        let _ = writeln!(o, "    (at-goal {})", stone(i));
    }
    let _ = writeln!(o, "  ))");
    let _ = writeln!(o, "  (:metric minimize (total-cost))");
    let _ = writeln!(o, ")");
    Ok(out)
}

/// `name` as a PDDL name: letters, digits and dashes, starting with a letter.
fn pddl_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("sokoban-{}", cleaned.trim_matches('-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn count(text: &str, what: &str) -> usize {
        text.lines()
            .filter(|l| l.trim_start().starts_with(what))
            .count()
    }

    #[test]
    fn a_corridor_becomes_its_locations_steps_stones_and_goals() {
        // Five floor cells in a row: the player, a box, two floor cells and a goal.
        let level = parse_xsb("t", "#######\n#@$  .#\n#######\n")
            .unwrap()
            .remove(0);
        let text = problem(&level, "corridor 1").unwrap();
        assert!(text.contains("(define (problem sokoban-corridor-1)"));
        assert_eq!(count(&text, "(IS-GOAL"), 1);
        assert_eq!(count(&text, "(IS-NONGOAL"), 4);
        // Four neighbouring pairs, each both ways.
        assert_eq!(count(&text, "(MOVE-DIR"), 8);
        assert!(text.contains("(MOVE-DIR pos-02-02 pos-03-02 dir-right)"));
        assert!(text.contains("(at player-01 pos-02-02)"));
        assert!(text.contains("(at stone-01 pos-03-02)"));
        assert_eq!(count(&text, "(clear"), 3);
        assert!(text.contains("(:goal (and\n    (at-goal stone-01)\n  ))"));
        assert_eq!(count(&text, "(at-goal"), 1, "the box starts off its goal");
    }

    #[test]
    fn a_box_on_a_goal_starts_at_its_goal_and_ice_is_refused() {
        let level = parse_xsb("t", "#####\n#@*.#\n# $ #\n#####\n")
            .unwrap()
            .remove(0);
        let text = problem(&level, "t").unwrap();
        // One at-goal in the start, two in the goal.
        assert_eq!(count(&text, "(at-goal"), 3);
        let balanced = text.matches('(').count() == text.matches(')').count();
        assert!(balanced && DOMAIN.matches('(').count() == DOMAIN.matches(')').count());
        let ice = parse_xsb("t", "######\n#@$~.#\n######\n")
            .unwrap()
            .remove(0);
        assert!(problem(&ice, "t").is_err());
    }
}
