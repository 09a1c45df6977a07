//! End-to-end tests of `solve --svg`: the animated SVG of a solution.
//!
//! Every SVG written is parsed with an XML parser (`roxmltree`), so it is well-formed
//! XML; its animations are checked for the form a browser plays (discrete SMIL, one
//! loop length, key times from 0 upwards, no script, every reference inside the file);
//! and then it is read back frame by frame: for every move, the player, each box and
//! the two counters as the animation shows them at the middle of that move's frame
//! must equal the position the rules engine's replay gives (`satsoko::game`). This is
//! done on plain levels (Microban 1, XSokoban 1), on every ice level of
//! `levels/ice/ice.xsb` (written into a directory, one file per level) and with the
//! course's convention; then the directory mode with levels that are not solved, and
//! the refused paths.

mod common;

use std::collections::HashSet;
use std::path::Path;

use roxmltree::{Document, Node};
use satsoko::game::{State, apply_move};
use satsoko::level::{Direction, Level, parse_entries};

use common::cli::{expect_code, json_lines, str_field, u64_field};

/// Level `number` (1-based) of `file`, read as the binary reads it.
fn level_of(file: &str, number: usize) -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(path).expect("the level file is there");
    parse_entries(file, &text, None)
        .expect("the file parses")
        .remove(number - 1)
        .expect("the level parses")
}

/// One frame: the player's and the boxes' (row, column), 0-based, boxes sorted, the
/// boxes shown on a goal, and the two counters as shown.
#[derive(Debug, PartialEq)]
struct Frame {
    player: (i64, i64),
    boxes: Vec<(i64, i64)>,
    boxes_on_goals: usize,
    moves: String,
    pushes: String,
}

/// The frames of `solution` by the rules engine: the start, then one per letter (a
/// move the rules refuse is a bump of the course's convention and changes nothing).
fn replayed(level: &Level, solution: &str) -> Vec<Frame> {
    let at = |cell: usize| {
        let (r, c) = level.row_col(cell);
        (r as i64, c as i64)
    };
    let mut state = State::initial(level);
    let mut pushes = 0;
    let mut frames = Vec::new();
    let letters: Vec<char> = solution.chars().collect();
    for i in 0..=letters.len() {
        if i > 0 {
            let (dir, _) = Direction::from_letter(letters[i - 1]).expect("a LURD letter");
            if let Ok(effect) = apply_move(level, &mut state, dir) {
                pushes += usize::from(effect.pushed);
            }
        }
        let mut boxes: Vec<(i64, i64)> = level
            .open_cells()
            .filter(|&c| state.boxes[c])
            .map(at)
            .collect();
        boxes.sort();
        let on_goals = level.goal_cells().filter(|&g| state.boxes[g]).count();
        frames.push(Frame {
            player: at(state.player),
            boxes,
            boxes_on_goals: on_goals,
            moves: i.to_string(),
            pushes: pushes.to_string(),
        });
    }
    frames
}

/// A number attribute of the root.
fn number(root: Node, name: &str) -> f64 {
    root.attribute(name)
        .unwrap_or_else(|| panic!("the root has {name}"))
        .parse()
        .unwrap_or_else(|_| panic!("{name} is a number"))
}

/// The numbers of a translation: `translate(x y)` or a value `x y`.
fn pair(text: &str) -> (f64, f64) {
    let inner = text
        .trim()
        .trim_start_matches("translate(")
        .trim_end_matches(')');
    let xs: Vec<f64> = inner
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a number"))
        .collect();
    assert_eq!(xs.len(), 2, "{text:?}");
    (xs[0], xs[1])
}

/// The value `node`'s `attribute` has at `t` seconds into a loop: its own, or that of
/// its discrete animation of the attribute (SMIL: value k holds from key time k until
/// key time k + 1).
fn value_at<'a>(node: Node<'a, 'a>, attribute: &str, t: f64) -> &'a str {
    let own = node
        .attribute(attribute)
        .unwrap_or_else(|| panic!("{attribute} on {node:?}"));
    let Some(anim) = node.children().find(|c| {
        c.is_element()
            && ["animate", "animateTransform"].contains(&c.tag_name().name())
            && c.attribute("attributeName") == Some(attribute)
    }) else {
        return own;
    };
    let dur: f64 = anim
        .attribute("dur")
        .unwrap()
        .trim_end_matches('s')
        .parse()
        .unwrap();
    let times: Vec<f64> = anim
        .attribute("keyTimes")
        .unwrap()
        .split(';')
        .map(|k| k.trim().parse().unwrap())
        .collect();
    let values: Vec<&str> = anim.attribute("values").unwrap().split(';').collect();
    let k = times.iter().rposition(|&k| k * dur <= t).unwrap();
    values[k]
}

/// The text a counter (`moves-counter`, `pushes-counter`) shows at `t`: each digit
/// place is the digit strip `0123456789` shifted left by 9 pixels a slot, slot 10
/// being blank.
fn counter_at(doc: &Document, id: &str, t: f64) -> String {
    let counter = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no {id}"));
    let places: Vec<Node> = counter
        .descendants()
        .filter(|n| n.attribute("class") == Some("digit"))
        .collect();
    assert!(!places.is_empty());
    let shown: String = places
        .iter()
        .map(|&p| {
            let (x, _) = pair(value_at(p, "transform", t));
            let slot = (-x / 9.0).round() as u32;
            char::from_digit(slot, 10).unwrap_or(' ')
        })
        .collect();
    shown.trim().to_string()
}

/// Checks that `svg` is well-formed XML in the form a browser plays, and reads its
/// frames back: frame `i` at the middle of its time in the loop.
fn frames_of(svg: &str) -> Vec<Frame> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let (cell, start, step, end) = (
        number(root, "data-cell"),
        number(root, "data-start"),
        number(root, "data-step"),
        number(root, "data-end"),
    );
    let moves = number(root, "data-moves") as usize;
    // About 6–8 moves a second, and pauses at both ends.
    assert!((0.12..=0.17).contains(&step), "step {step}");
    assert!(start >= step && end >= 1.0);
    let frame_start = |i: usize| {
        if i == 0 {
            0.0
        } else {
            start + (i - 1) as f64 * step
        }
    };
    let loop_seconds = if moves == 0 {
        start + end
    } else {
        frame_start(moves) + end
    };

    // Self-contained: no script, and every reference is to an element of the file.
    let ids: HashSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    for n in doc.descendants().filter(|n| n.is_element()) {
        assert_ne!(n.tag_name().name(), "script");
        for a in n.attributes() {
            assert!(
                !a.name().starts_with("on"),
                "an event handler: {}",
                a.name()
            );
            let v = a.value();
            let target = if a.name() == "href" {
                Some(v)
            } else {
                v.strip_prefix("url(").map(|r| r.trim_end_matches(')'))
            };
            if let Some(target) = target {
                let id = target
                    .strip_prefix('#')
                    .unwrap_or_else(|| panic!("an outside reference {v}"));
                assert!(ids.contains(id), "{v} refers to nothing");
            }
        }
    }
    // Every animation: discrete, looping, one loop length, key times from 0 upwards.
    for anim in doc
        .descendants()
        .filter(|n| ["animate", "animateTransform"].contains(&n.tag_name().name()))
    {
        assert_eq!(anim.attribute("calcMode"), Some("discrete"));
        assert_eq!(anim.attribute("repeatCount"), Some("indefinite"));
        let dur: f64 = anim
            .attribute("dur")
            .unwrap()
            .trim_end_matches('s')
            .parse()
            .unwrap();
        assert!((dur - loop_seconds).abs() < 1e-6, "{dur} vs {loop_seconds}");
        let times: Vec<f64> = anim
            .attribute("keyTimes")
            .unwrap()
            .split(';')
            .map(|k| k.parse().unwrap())
            .collect();
        assert_eq!(times[0], 0.0);
        assert!(times.windows(2).all(|w| w[0] < w[1]) && times[times.len() - 1] < 1.0);
        assert_eq!(
            times.len(),
            anim.attribute("values").unwrap().split(';').count()
        );
    }

    let by_id = |id: &str| doc.descendants().find(|n| n.attribute("id") == Some(id));
    let player = by_id("player").expect("a player");
    let boxes: Vec<Node> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("box"))
        .collect();
    let at = |(x, y): (f64, f64)| ((y / cell).round() as i64, (x / cell).round() as i64);
    (0..=moves)
        .map(|i| {
            let length = match i {
                0 => start,
                _ if i == moves => end,
                _ => step,
            };
            let t = frame_start(i) + length / 2.0;
            let mut cells: Vec<(i64, i64)> = boxes
                .iter()
                .map(|&b| at(pair(value_at(b, "transform", t))))
                .collect();
            cells.sort();
            let green = boxes
                .iter()
                .filter(|&&b| value_at(b, "fill", t) == "#4caf50")
                .count();
            Frame {
                player: at(pair(value_at(player, "transform", t))),
                boxes: cells,
                boxes_on_goals: green,
                moves: counter_at(&doc, "moves-counter", t),
                pushes: counter_at(&doc, "pushes-counter", t),
            }
        })
        .collect()
}

/// Checks the animation in `svg` against the replay of `solution` on `level`, frame by
/// frame, and its caption.
fn check_animation(svg: &str, level: &Level, solution: &str, moves: u64, pushes: u64) {
    let want = replayed(level, solution);
    let got = frames_of(svg);
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "frame {i} of {solution}");
    }
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let counts = format!(
        "{}, {}",
        plural(moves, "move", "moves"),
        plural(pushes, "push", "pushes")
    );
    assert!(
        svg.contains(&counts),
        "the caption gives the counts: {counts}"
    );
}

#[test]
fn plain_levels_are_animated_as_the_rules_replay_them() {
    let dir = tempfile::tempdir().unwrap();
    for (file, number, extra) in [
        ("levels/microban.xsb", 1, &[][..]),
        ("levels/xsokoban.xsb", 1, &["--optimize", "none"][..]),
    ] {
        let path = dir.path().join(format!("{number}.svg"));
        let path_arg = path.to_str().unwrap();
        let n = number.to_string();
        let mut args = vec![file, "--level", &n, "--svg", path_arg, "--json"];
        args.extend(extra);
        let run = expect_code(&args, 0);
        let line = &json_lines(&run)[0];
        let solution = str_field(line, "solution");
        let svg = std::fs::read_to_string(&path).expect("the SVG is written");
        let level = level_of(file, number);
        let (moves, pushes) = (u64_field(line, "moves"), u64_field(line, "pushes"));
        check_animation(&svg, &level, solution, moves, pushes);
        // Small: value lists, not one group per frame.
        assert!(
            svg.len() < 6000 + 60 * moves as usize,
            "{} bytes for {moves} moves",
            svg.len()
        );
        let caption = match &level.title {
            Some(title) if *title != n => format!("<title>{title} (level {number})"),
            _ => format!("<title>Level {number}"),
        };
        assert!(svg.contains(&caption), "{caption}");
    }
}

#[test]
fn every_ice_level_is_animated_into_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ice-animations");
    let file = "levels/ice/ice.xsb";
    let run = expect_code(&[file, "--svg", out.to_str().unwrap(), "--json"], 0);
    let lines = json_lines(&run);
    assert!(lines.len() > 5);
    for line in &lines {
        assert_eq!(str_field(line, "status"), "solved");
        let number = u64_field(line, "level") as usize;
        let svg = std::fs::read_to_string(out.join(format!("ice-{number}.svg")))
            .expect("one file per solved level");
        let level = level_of(file, number);
        assert!(level.has_ice() && svg.contains(r#"id="ice""#));
        let (moves, pushes) = (u64_field(line, "moves"), u64_field(line, "pushes"));
        check_animation(&svg, &level, str_field(line, "solution"), moves, pushes);
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), lines.len());
}

#[test]
fn the_course_convention_is_animated_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pinball.svg");
    let file = "levels/ice/ice.xsb";
    let args = [
        file,
        "--level",
        "5",
        "--rules",
        "course",
        "--svg",
        path.to_str().unwrap(),
        "--json",
    ];
    let line = &json_lines(&expect_code(&args, 0))[0];
    let solution = str_field(line, "solution");
    assert_eq!(solution, solution.to_uppercase());
    let svg = std::fs::read_to_string(&path).unwrap();
    let (moves, pushes) = (u64_field(line, "moves"), u64_field(line, "pushes"));
    check_animation(&svg, &level_of(file, 5), solution, moves, pushes);
}

#[test]
fn a_collection_gets_a_directory_with_one_file_per_solved_level() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new").join("animations");
    let out_arg = out.to_str().unwrap();
    let run = expect_code(
        &[
            "levels/examples/solvable.xsb",
            "levels/examples/unsolvable.xsb",
            "--level",
            "1-2",
            "--svg",
            out_arg,
        ],
        3,
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .expect("the directory is created")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["solvable-1.svg", "solvable-2.svg"], "{run:?}");
    for name in &names {
        let line = format!("  animation: {}\n", out.join(name).display());
        assert!(run.stdout.contains(&line), "{run:?}");
    }
    assert_eq!(run.stdout.matches("animation:").count(), 2);
}

#[test]
fn a_path_of_the_wrong_kind_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    // One level and a directory: a usage error, nothing written.
    let run = expect_code(
        &["levels/microban.xsb", "--level", "1", "--svg", dir_arg],
        2,
    );
    assert!(run.stderr.contains("is a directory"), "{run:?}");
    assert_eq!(run.stdout, "");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // Several levels and a file: a usage error, the file left alone.
    let file = dir.path().join("taken.svg");
    std::fs::write(&file, "mine").unwrap();
    let run = expect_code(
        &[
            "levels/microban.xsb",
            "--level",
            "1-2",
            "--svg",
            file.to_str().unwrap(),
        ],
        2,
    );
    assert!(run.stderr.contains("names a directory"), "{run:?}");
    assert!(run.stderr.contains("is a file"), "{run:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");

    // A file that cannot be written: an input error; the report is still printed.
    let missing = dir.path().join("no-such-dir").join("x.svg");
    let run = expect_code(
        &[
            "levels/microban.xsb",
            "--level",
            "1",
            "--svg",
            missing.to_str().unwrap(),
        ],
        1,
    );
    assert!(run.stderr.contains("cannot write"), "{run:?}");
    assert!(run.stdout.contains("solved in"), "{run:?}");
}
