//! The caption's counters, `move ___ of N   push __ of P`: the layout of the line in
//! monospace columns, and each digit place drawn as a strip of the ten digits shifted
//! under a one-digit window at the frames where that digit changes.
//!
//! Apart from the rest of the drawing because it is its own trick: a number that counts
//! up with no script, out of the same discrete animations that move the boxes.

use std::fmt::Write as _;

use super::timing::Clock;

/// The advance of one character of the counter line (monospace), in pixels.
pub(super) const CHAR: i64 = 9;
/// The slot of a digit strip that holds no digit (a leading blank of a counter).
const BLANK: usize = 10;

/// How many decimal digits `n` has (1 for 0).
pub(super) fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// The counter line, in columns of [`CHAR`] pixels:
/// `move ___ of N   push __ of P`, the blanks being the animated digit places.
pub(super) struct CounterLine {
    /// The fixed words and the column each starts in.
    pub(super) labels: Vec<(i64, String)>,
    /// The column of the move counter's first (leftmost) place.
    pub(super) move_col: i64,
    /// The column of the push counter's first place.
    pub(super) push_col: i64,
    /// The width of the line in columns.
    pub(super) cols: i64,
}

impl CounterLine {
    pub(super) fn new(
        moves: usize,
        pushes: usize,
        move_places: usize,
        push_places: usize,
    ) -> CounterLine {
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
pub(super) fn counter_places(
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
