//! The static board: which cells are drawn (the inside of the level and the walls
//! around it, not the space outside the walls) and how (floor and ice as runs along the
//! rows, walls, goals), written once under the moving boxes and player.
//!
//! Apart from the animation because it does not change from frame to frame: it is
//! decided and drawn from the level alone.

use std::fmt::Write as _;

use super::{CELL, cell_xy};
use crate::game::{Region, player_region};
use crate::level::Level;

/// The static board: which cells are drawn, and how.
pub(super) struct Board {
    /// Cells drawn as floor (or ice): the inside of the level.
    inside: Vec<bool>,
    /// Walls drawn: those beside (or diagonally beside) an inside cell.
    walls: Vec<bool>,
    /// The first drawn row and column, in the level's coordinates (-1 is the border).
    pub(super) row0: i64,
    pub(super) col0: i64,
    /// How many rows and columns are drawn.
    pub(super) rows: i64,
    pub(super) cols: i64,
}

impl Board {
    /// Decides what to draw: the open cells not connected to the edge of the board
    /// (the space outside the walls is left blank), plus every cell the player can
    /// reach and every goal and box, and the walls around them.
    pub(super) fn of(level: &Level) -> Board {
        let (w, h, n) = (level.width(), level.height(), level.cell_count());
        // The open cells connected to the edge of the level's rectangle (boxes do not
        // fence them: the board is drawn without its boxes' positions mattering).
        let edge = (0..n).filter(|&c| {
            let (r, col) = (c / w, c % w);
            !level.is_wall(c) && (r == 1 || r == h - 2 || col == 1 || col == w - 2)
        });
        let mut fill = Region::adjacency(level);
        fill.fill_from_all(level, &vec![false; n], edge);
        let outside: Vec<bool> = (0..n).map(|c| fill.contains(c)).collect();
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
    pub(super) fn draw_static(&self, level: &Level, s: &mut String) {
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
