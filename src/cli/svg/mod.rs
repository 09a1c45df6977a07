//! `--svg`: a solution as a self-contained animated SVG.
//!
//! [`animation`] replays a plan through the rules engine, one frame per move, and draws
//! it: the static board (floor, ice, walls, goals) once, then one element per box and
//! one for the player, each moved by a single discrete SMIL `animateTransform` whose
//! value list holds the frames where it changes. A caption gives the level's title,
//! the plan's moves and pushes, and two counters (the move and the pushes so far) made
//! of digit strips shifted by the same kind of animation. No script, no outside file:
//! the SVG opens in a browser as it is and loops forever.
//!
//! The timing is fixed: the start stays [`START_SECONDS`], each move takes
//! [`STEP_SECONDS`] (about 6.7 moves a second), and the last frame stays
//! [`END_SECONDS`] before the loop begins again ([`frame_start`], [`loop_seconds`]).
//! The root element carries these numbers as `data-*` attributes, so a program can
//! read every frame back (`tests/cli_svg.rs` does).
//!
//! [`SvgTarget`] decides where `solve --svg PATH` writes: PATH itself when the run
//! covers one level, else one file per solved level in the directory PATH.

mod board;
mod counters;
mod target;
mod timing;

use std::fmt::Write as _;

use super::report::plural;
use crate::game::{Convention, ReplayError, State, apply_move, replay_in};
use crate::level::{Cell, Direction, Level};
use board::Board;
use counters::{CHAR, CounterLine, counter_places, digits};
pub use target::SvgTarget;
use timing::Clock;
pub use timing::{END_SECONDS, START_SECONDS, STEP_SECONDS, frame_start, loop_seconds};

/// The side of a cell, in SVG pixels.
pub const CELL: i64 = 32;

/// The margin around the drawing, in pixels.
const MARGIN: i64 = 12;

/// The animated SVG of `solution` on `level`, written in `convention`: every letter is
/// replayed by the rules engine and becomes one frame (a slide on ice is one move; a
/// bump of the course's convention is a frame where nothing moves). Fails, naming the
/// letter, when the solution does not replay.
pub fn animation(
    level: &Level,
    solution: &str,
    convention: Convention,
) -> Result<String, ReplayError> {
    let replay = replay_in(level, solution, convention)?;
    let frames = Frames::replay(level, solution);
    debug_assert_eq!(frames.moves(), replay.moves);
    let board = Board::of(level);
    let dur = loop_seconds(replay.moves);
    let clock = Clock::new(replay.moves, dur);

    // The caption: a title line and a counter line in monospace columns.
    let name = match &level.title {
        Some(t) if *t != level.number.to_string() => format!("{t} (level {})", level.number),
        _ => format!("Level {}", level.number),
    };
    let title = format!(
        "{name} \u{2014} {}, {}",
        plural(replay.moves as u64, "move"),
        plural(replay.pushes as u64, "push")
    );
    let move_places = digits(replay.moves);
    let push_places = digits(replay.pushes);
    let counter = CounterLine::new(replay.moves, replay.pushes, move_places, push_places);

    let board_w = board.cols * CELL;
    let board_h = board.rows * CELL;
    let title_w = (title.chars().count() as i64 * 9) + 4;
    let width = board_w.max(title_w).max(counter.cols * CHAR) + 2 * MARGIN;
    let height = board_h + 2 * MARGIN + 52;
    let board_x = (width - board_w) / 2;
    let (ox, oy) = (board_x - board.col0 * CELL, MARGIN - board.row0 * CELL);

    let mut s = String::with_capacity(4096 + 40 * replay.moves);
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{width}" height="{height}" viewBox="0 0 {width} {height}" data-cell="{CELL}" data-start="{START_SECONDS}" data-step="{STEP_SECONDS}" data-end="{END_SECONDS}" data-moves="{}" data-pushes="{}">"#,
        replay.moves, replay.pushes
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&title));
    let compact: String = solution.chars().filter(|c| !c.is_whitespace()).collect();
    let _ = writeln!(
        s,
        "<desc>Drawn by satsoko {}: the solution {}, replayed by its rules engine, one frame per move.</desc>",
        env!("CARGO_PKG_VERSION"),
        escape(&compact)
    );
    s.push_str(DEFS);
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#f7f4ec"/>"##);
    let _ = writeln!(s, r#"<g id="board" transform="translate({ox} {oy})">"#);
    board.draw_static(level, &mut s);

    // One element per box (numbered in the order of their start cells), then the player.
    for (id, changes) in frames.boxes.iter().enumerate() {
        let (x, y) = cell_xy(level, changes[0].1);
        let fill = box_fill(level, changes[0].1);
        let _ = write!(
            s,
            r##"<g id="box{}" class="box" transform="translate({x} {y})" fill="{fill}"><use xlink:href="#box"/>"##,
            id + 1
        );
        clock.translate(&mut s, &translations(level, changes));
        let mut fills: Vec<(usize, String)> = Vec::new();
        for &(i, c) in changes {
            let f = box_fill(level, c).to_string();
            if fills.last().is_none_or(|(_, last)| *last != f) {
                fills.push((i, f));
            }
        }
        clock.animate(&mut s, "fill", &fills);
        s.push_str("</g>\n");
    }
    let (x, y) = cell_xy(level, frames.player[0].1);
    let _ = write!(
        s,
        r##"<g id="player" transform="translate({x} {y})"><use xlink:href="#man"/>"##
    );
    clock.translate(&mut s, &translations(level, &frames.player));
    s.push_str("</g>\n</g>\n");

    // The caption.
    let title_y = MARGIN + board_h + 24;
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{title_y}" text-anchor="middle" font-family="Helvetica,Arial,sans-serif" font-size="15" font-weight="bold" fill="#333">{}</text>"##,
        width / 2,
        escape(&title)
    );
    let line_x = (width - counter.cols * CHAR) / 2;
    let line_y = title_y + 22;
    let _ = writeln!(
        s,
        r##"<g id="counters" transform="translate({line_x} {line_y})" font-family="DejaVu Sans Mono,Menlo,Consolas,monospace" font-size="15" fill="#333">"##
    );
    for (col, text) in &counter.labels {
        let _ = writeln!(
            s,
            r#"<text x="{}" textLength="{}" lengthAdjust="spacingAndGlyphs">{}</text>"#,
            col * CHAR,
            text.chars().count() as i64 * CHAR,
            escape(text)
        );
    }
    let per_frame_moves: Vec<usize> = (0..=replay.moves).collect();
    counter_places(
        &mut s,
        &clock,
        "moves",
        counter.move_col,
        move_places,
        &per_frame_moves,
    );
    counter_places(
        &mut s,
        &clock,
        "pushes",
        counter.push_col,
        push_places,
        &frames.pushes,
    );
    s.push_str("</g>\n</svg>\n");
    Ok(s)
}

/// The shapes drawn many times: a box, the player, a digit strip and the window that
/// shows one digit of it.
const DEFS: &str = r##"<defs>
<g id="box" stroke="#5e3d14" stroke-width="2"><rect x="3" y="3" width="26" height="26" rx="3"/><path d="M8 8l16 16m0-16l-16 16" fill="none" stroke-width="1.5" opacity="0.6"/></g>
<g id="man"><circle cx="16" cy="16" r="11" fill="#2f6fd6" stroke="#17397a" stroke-width="2"/><circle cx="12.5" cy="12.5" r="3.5" fill="#ffffff" opacity="0.7"/></g>
<text id="digits" x="0 9 18 27 36 45 54 63 72 81">0123456789</text>
<clipPath id="digit"><rect x="-0.5" y="-14" width="9.5" height="19"/></clipPath>
</defs>
"##;

/// The fill of a box on `cell`: green on a goal, brown elsewhere.
fn box_fill(level: &Level, cell: Cell) -> &'static str {
    if level.is_goal(cell) {
        "#4caf50"
    } else {
        "#d08c3a"
    }
}

/// The `translate` values of an element that moves at the frames of `changes` (frame,
/// cell).
fn translations(level: &Level, changes: &[(usize, Cell)]) -> Vec<(usize, String)> {
    (changes.iter())
        .map(|&(i, c)| {
            let (x, y) = cell_xy(level, c);
            (i, format!("{x} {y}"))
        })
        .collect()
}

/// The top-left corner of `cell` on the board, in pixels (row and column of the level,
/// 0-based; the border of walls around it is row or column -1).
fn cell_xy(level: &Level, cell: Cell) -> (i64, i64) {
    let (r, c) = (cell / level.width(), cell % level.width());
    ((c as i64 - 1) * CELL, (r as i64 - 1) * CELL)
}

/// Escapes text for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The frames of a plan, kept as changes: `(frame, cell)` from frame 0 on, one entry
/// wherever the thing moved.
struct Frames {
    /// The player's cell.
    player: Vec<(usize, Cell)>,
    /// Each box's cell, boxes numbered in the order of their start cells.
    boxes: Vec<Vec<(usize, Cell)>>,
    /// The pushes so far, for every frame.
    pushes: Vec<usize>,
}

impl Frames {
    /// Replays `solution` (already checked by `replay_in`) one move at a time.
    fn replay(level: &Level, solution: &str) -> Frames {
        let mut state = State::initial(level);
        let mut at: Vec<Cell> = level.box_cells().collect();
        let mut boxes: Vec<Vec<(usize, Cell)>> = at.iter().map(|&c| vec![(0, c)]).collect();
        let mut player = vec![(0, state.player)];
        let mut pushes = vec![0];
        let letters = solution.chars().filter(|c| !c.is_whitespace());
        for (i, letter) in (1..).zip(letters) {
            let pushed = match Direction::from_letter(letter) {
                // A bump of the course's convention: a move where nothing changes.
                Some((dir, _)) => apply_move(level, &mut state, dir).ok(),
                None => None,
            };
            let mut count = *pushes.last().expect("frame 0 is there");
            if let Some(effect) = pushed {
                if let Some((from, to)) = effect.box_move {
                    let id = at
                        .iter()
                        .position(|&c| c == from)
                        .expect("the pushed box is one of the boxes");
                    at[id] = to;
                    boxes[id].push((i, to));
                    count += 1;
                }
                if player.last().map(|p| p.1) != Some(state.player) {
                    player.push((i, state.player));
                }
            }
            pushes.push(count);
        }
        Frames {
            player,
            boxes,
            pushes,
        }
    }

    /// The number of moves (frames after the start).
    fn moves(&self) -> usize {
        self.pushes.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    #[test]
    fn frames_follow_the_rules_and_change_only_where_things_move() {
        let l = level("#######\n#@ $ .#\n#######\n");
        let f = Frames::replay(&l, "rRR");
        assert_eq!(f.moves(), 3);
        assert_eq!(f.pushes, vec![0, 0, 1, 2]);
        let frames: Vec<usize> = f.player.iter().map(|p| p.0).collect();
        assert_eq!(frames, vec![0, 1, 2, 3]);
        let frames: Vec<usize> = f.boxes[0].iter().map(|b| b.0).collect();
        assert_eq!(frames, vec![0, 2, 3]);
    }

    #[test]
    fn a_bump_is_a_frame_where_nothing_moves() {
        let l = level("######\n#@ $.#\n######\n");
        let f = Frames::replay(&l, "LRR");
        assert_eq!(f.moves(), 3);
        let frames: Vec<usize> = f.player.iter().map(|p| p.0).collect();
        assert_eq!(frames, vec![0, 2, 3]);
        assert!(animation(&l, "LRR", Convention::Xsb).is_err());
        assert!(animation(&l, "LRR", Convention::Course).is_ok());
    }

    #[test]
    fn titles_are_escaped() {
        let mut l = level("######\n#@ $.#\n######\n");
        l.title = Some("<A & B>".to_string());
        let svg = animation(&l, "rR", Convention::Xsb).unwrap();
        assert!(svg.contains("&lt;A &amp; B&gt; (level 1)"));
    }
}
