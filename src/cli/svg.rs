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

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::report::{EXIT_INPUT, EXIT_USAGE, plural};
use crate::game::{Convention, ReplayError, State, apply_move, player_region, replay_in};
use crate::level::{Cell, Direction, Level};

/// The side of a cell, in SVG pixels.
pub const CELL: i64 = 32;
/// How long the start position stays before the first move, in seconds.
pub const START_SECONDS: f64 = 0.6;
/// How long each move stays, in seconds.
pub const STEP_SECONDS: f64 = 0.15;
/// How long the final position stays before the animation loops, in seconds.
pub const END_SECONDS: f64 = 1.5;

/// The margin around the drawing, in pixels.
const MARGIN: i64 = 12;
/// The advance of one character of the counter line (monospace), in pixels.
const CHAR: i64 = 9;
/// The slot of a digit strip that holds no digit (a leading blank of a counter).
const BLANK: usize = 10;

/// When frame `i` begins, in seconds from the start of a loop: frame 0 is the start
/// position, frame `i` the position after move `i`.
pub fn frame_start(i: usize) -> f64 {
    if i == 0 {
        0.0
    } else {
        START_SECONDS + (i - 1) as f64 * STEP_SECONDS
    }
}

/// The length of one loop of the animation of a plan of `moves` moves, in seconds.
pub fn loop_seconds(moves: usize) -> f64 {
    if moves == 0 {
        START_SECONDS + END_SECONDS
    } else {
        frame_start(moves) + END_SECONDS
    }
}

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

/// How many decimal digits `n` has (1 for 0).
fn digits(n: usize) -> usize {
    n.to_string().len()
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

/// Writes the animations of one loop of `dur` seconds over the frames of a plan.
struct Clock {
    /// The loop's length, as written in `dur`.
    dur: String,
    /// `keyTimes` of every frame, as written.
    key_times: Vec<String>,
}

impl Clock {
    /// The clock of a plan of `moves` moves with a loop of `dur` seconds.
    fn new(moves: usize, dur: f64) -> Clock {
        // Enough decimals that a key time is off by far less than a frame.
        let gap = STEP_SECONDS / dur;
        let decimals = ((4.0 / gap).log10().ceil() as usize).max(3);
        let key_times = (0..=moves)
            .map(|i| {
                let text = format!("{:.*}", decimals, frame_start(i) / dur);
                let text = text.trim_end_matches('0').trim_end_matches('.');
                text.to_string()
            })
            .collect();
        Clock {
            dur: trimmed(dur),
            key_times,
        }
    }

    /// A discrete, looping `animateTransform` translating to each value from its frame
    /// on; nothing when the value never changes.
    fn translate(&self, s: &mut String, changes: &[(usize, String)]) {
        self.write(
            s,
            "animateTransform",
            r#"attributeName="transform" type="translate""#,
            changes,
        );
    }

    /// A discrete, looping `animate` of `attribute`; nothing when it never changes.
    fn animate(&self, s: &mut String, attribute: &str, changes: &[(usize, String)]) {
        self.write(
            s,
            "animate",
            &format!(r#"attributeName="{attribute}""#),
            changes,
        );
    }

    fn write(&self, s: &mut String, element: &str, what: &str, changes: &[(usize, String)]) {
        if changes.len() < 2 {
            return;
        }
        let times: Vec<&str> = changes
            .iter()
            .map(|(i, _)| self.key_times[*i].as_str())
            .collect();
        let values: Vec<&str> = changes.iter().map(|(_, v)| v.as_str()).collect();
        let _ = write!(
            s,
            r#"<{element} {what} calcMode="discrete" dur="{}s" repeatCount="indefinite" keyTimes="{}" values="{}"/>"#,
            self.dur,
            times.join(";"),
            values.join(";")
        );
    }
}

/// A number of seconds without trailing zeros.
fn trimmed(x: f64) -> String {
    let text = format!("{x:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The counter line, in columns of [`CHAR`] pixels:
/// `move ___ of N   push __ of P`, the blanks being the animated digit places.
struct CounterLine {
    /// The fixed words and the column each starts in.
    labels: Vec<(i64, String)>,
    /// The column of the move counter's first (leftmost) place.
    move_col: i64,
    /// The column of the push counter's first place.
    push_col: i64,
    /// The width of the line in columns.
    cols: i64,
}

impl CounterLine {
    fn new(moves: usize, pushes: usize, move_places: usize, push_places: usize) -> CounterLine {
        let (mp, pp) = (move_places as i64, push_places as i64);
        let move_col = 5;
        let of_moves = format!("of {moves}");
        let of_col = move_col + mp + 1;
        let push_word = of_col + of_moves.len() as i64 + 3;
        let push_col = push_word + 5;
        let of_pushes = format!("of {pushes}");
        let of_col2 = push_col + pp + 1;
        let cols = of_col2 + of_pushes.len() as i64;
        CounterLine {
            labels: vec![
                (0, "move".to_string()),
                (of_col, of_moves),
                (push_word, "push".to_string()),
                (of_col2, of_pushes),
            ],
            move_col,
            push_col,
            cols,
        }
    }
}

/// The digit places of a counter whose value at frame `i` is `values[i]`, right-aligned
/// in `places` columns from column `col`, leading zeros blank. Each place shows one
/// slot of the digit strip (slot 10 is blank) by shifting the strip under a window.
fn counter_places(
    s: &mut String,
    clock: &Clock,
    name: &str,
    col: i64,
    places: usize,
    values: &[usize],
) {
    let _ = writeln!(s, r#"<g id="{name}-counter">"#);
    for place in (0..places).rev() {
        let power = 10usize.pow(place as u32);
        let slot = |v: usize| {
            if place > 0 && v < power {
                BLANK
            } else {
                (v / power) % 10
            }
        };
        let mut changes: Vec<(usize, String)> = Vec::new();
        let mut last = None;
        for (i, &v) in values.iter().enumerate() {
            let k = slot(v);
            if last != Some(k) {
                changes.push((i, format!("{} 0", -(k as i64) * CHAR)));
                last = Some(k);
            }
        }
        let x = (col + (places - 1 - place) as i64) * CHAR;
        let _ = write!(
            s,
            r##"<g transform="translate({x} 0)" clip-path="url(#digit)"><use class="digit" data-place="{place}" xlink:href="#digits" transform="translate({})">"##,
            changes[0].1
        );
        clock.translate(s, &changes);
        s.push_str("</use></g>\n");
    }
    s.push_str("</g>\n");
}

/// The static board: which cells are drawn, and how.
struct Board {
    /// Cells drawn as floor (or ice): the inside of the level.
    inside: Vec<bool>,
    /// Walls drawn: those beside (or diagonally beside) an inside cell.
    walls: Vec<bool>,
    /// The first drawn row and column, in the level's coordinates (-1 is the border).
    row0: i64,
    col0: i64,
    /// How many rows and columns are drawn.
    rows: i64,
    cols: i64,
}

impl Board {
    /// Decides what to draw: the open cells not connected to the edge of the board
    /// (the space outside the walls is left blank), plus every cell the player can
    /// reach and every goal and box, and the walls around them.
    fn of(level: &Level) -> Board {
        let (w, h, n) = (level.width(), level.height(), level.cell_count());
        // The open cells connected to the edge of the level's rectangle.
        let mut outside = vec![false; n];
        let mut stack: Vec<Cell> = (0..n)
            .filter(|&c| {
                let (r, col) = (c / w, c % w);
                !level.is_wall(c) && (r == 1 || r == h - 2 || col == 1 || col == w - 2)
            })
            .collect();
        for &c in &stack {
            outside[c] = true;
        }
        while let Some(c) = stack.pop() {
            for dir in Direction::ALL {
                let next = level.neighbor(c, dir);
                if !level.is_wall(next) && !outside[next] {
                    outside[next] = true;
                    stack.push(next);
                }
            }
        }
        let region = player_region(level);
        let inside: Vec<bool> = (0..n)
            .map(|c| {
                !level.is_wall(c)
                    && (!outside[c] || region[c] || level.is_goal(c) || level.has_initial_box(c))
            })
            .collect();
        let walls: Vec<bool> = (0..n)
            .map(|c| {
                level.is_wall(c) && {
                    let (r, col) = ((c / w) as i64, (c % w) as i64);
                    (-1..=1).any(|dr| {
                        (-1..=1).any(|dc| {
                            let (rr, cc) = (r + dr, col + dc);
                            rr >= 0
                                && cc >= 0
                                && (rr as usize) < h
                                && (cc as usize) < w
                                && inside[rr as usize * w + cc as usize]
                        })
                    })
                }
            })
            .collect();
        let drawn = (0..n).filter(|&c| inside[c] || walls[c]);
        let (mut r0, mut r1, mut c0, mut c1) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for c in drawn {
            let (r, col) = ((c / w) as i64 - 1, (c % w) as i64 - 1);
            r0 = r0.min(r);
            r1 = r1.max(r);
            c0 = c0.min(col);
            c1 = c1.max(col);
        }
        Board {
            inside,
            walls,
            row0: r0,
            col0: c0,
            rows: r1 - r0 + 1,
            cols: c1 - c0 + 1,
        }
    }

    /// Floor, ice (with streaks), walls and goals, as a few paths and circles.
    fn draw_static(&self, level: &Level, s: &mut String) {
        let w = level.width();
        let (mut floor, mut ice, mut streaks, mut walls) =
            (String::new(), String::new(), String::new(), String::new());
        // Floor and ice as runs along the rows; walls one square each (their outlines
        // make the blocks).
        for r in 0..level.height() {
            let mut c = 0;
            while c < w {
                let cell = r * w + c;
                let kind = self.inside[cell].then(|| level.is_ice(cell));
                let mut end = c + 1;
                while end < w && self.inside[r * w + end].then(|| level.is_ice(r * w + end)) == kind
                {
                    end += 1;
                }
                if let Some(is_ice) = kind {
                    let (x, y) = cell_xy(level, cell);
                    let run = (end - c) as i64 * CELL;
                    let path = if is_ice { &mut ice } else { &mut floor };
                    let _ = write!(path, "M{x} {y}h{run}v{CELL}h-{run}z");
                }
                c = end;
            }
        }
        for cell in 0..level.cell_count() {
            let (x, y) = cell_xy(level, cell);
            if self.walls[cell] {
                let _ = write!(walls, "M{x} {y}h{CELL}v{CELL}h-{CELL}z");
            }
            if self.inside[cell] && level.is_ice(cell) {
                let _ = write!(streaks, "M{} {}l10-10m-2 17l12-12", x + 6, y + 18);
            }
        }
        if !floor.is_empty() {
            let _ = writeln!(s, r##"<path id="floor" fill="#e6dcc3" d="{floor}"/>"##);
        }
        if !ice.is_empty() {
            let _ = writeln!(s, r##"<path id="ice" fill="#bfe6fa" d="{ice}"/>"##);
            let _ = writeln!(
                s,
                r##"<path fill="none" stroke="#ffffff" stroke-width="2" stroke-linecap="round" d="{streaks}"/>"##
            );
        }
        let _ = writeln!(
            s,
            r##"<path id="walls" fill="#7a6654" stroke="#5a4a3c" stroke-width="1.5" d="{walls}"/>"##
        );
        let _ = write!(
            s,
            r##"<g id="goals" fill="#f3b7ae" stroke="#d9453c" stroke-width="3">"##
        );
        for goal in level.goal_cells() {
            let (x, y) = cell_xy(level, goal);
            let _ = write!(s, r#"<circle cx="{}" cy="{}" r="7"/>"#, x + 16, y + 16);
        }
        s.push_str("</g>\n");
    }
}

/// Where `solve --svg PATH` writes its animations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvgTarget {
    /// The run covers one level: its animation is this file.
    File(PathBuf),
    /// The run covers several levels: `<file stem>-<level>.svg` in this directory.
    Dir(PathBuf),
}

impl SvgTarget {
    /// The target of `--svg path` for a run over `levels` selected levels: a file for
    /// one level, a directory (created if missing) for more. A path that exists as the
    /// other kind is refused with the usage-error exit code and a message; a directory
    /// that cannot be created, with the input-error code.
    pub fn new(path: &Path, levels: usize) -> Result<SvgTarget, (i32, String)> {
        let shown = path.display();
        if levels <= 1 {
            if path.is_dir() {
                return Err((
                    EXIT_USAGE,
                    format!(
                        "--svg {shown}: the run covers one level, so --svg names the file to write, but {shown} is a directory (give a file name, e.g. {})",
                        path.join("level.svg").display()
                    ),
                ));
            }
            return Ok(SvgTarget::File(path.to_path_buf()));
        }
        if path.exists() && !path.is_dir() {
            return Err((
                EXIT_USAGE,
                format!(
                    "--svg {shown}: the run covers {levels} levels, so --svg names a directory (one <file stem>-<level>.svg per solved level), but {shown} is a file"
                ),
            ));
        }
        std::fs::create_dir_all(path).map_err(|e| {
            (
                EXIT_INPUT,
                format!("--svg {shown}: cannot create the directory: {e}"),
            )
        })?;
        Ok(SvgTarget::Dir(path.to_path_buf()))
    }

    /// The file the animation of level `number` of the level file `file` goes to
    /// (`-`, standard input, has the stem `stdin`).
    pub fn path_for(&self, file: &Path, number: usize) -> PathBuf {
        match self {
            SvgTarget::File(path) => path.clone(),
            SvgTarget::Dir(dir) => {
                let stem = if file.as_os_str() == "-" {
                    "stdin".to_string()
                } else {
                    file.file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_else(|| "level".to_string())
                };
                dir.join(format!("{stem}-{number}.svg"))
            }
        }
    }

    /// Draws `solution` of `level` (from `file`) and writes it where it belongs;
    /// returns the file written, or why nothing was.
    pub fn write(
        &self,
        file: &Path,
        level: &Level,
        solution: &str,
        convention: Convention,
    ) -> Result<PathBuf, String> {
        let path = self.path_for(file, level.number);
        let svg = animation(level, solution, convention)
            .map_err(|e| format!("the solution does not replay: {e}"))?;
        std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
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
    fn key_times_increase_and_titles_are_escaped() {
        let mut l = level("######\n#@ $.#\n######\n");
        l.title = Some("<A & B>".to_string());
        let svg = animation(&l, "rR", Convention::Xsb).unwrap();
        assert!(svg.contains("&lt;A &amp; B&gt; (level 1)"));
        let clock = Clock::new(5000, loop_seconds(5000));
        let times: Vec<f64> = clock.key_times.iter().map(|t| t.parse().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(clock.key_times[0], "0");
    }
}
