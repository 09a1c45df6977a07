//! Random boards of any size, for the stop-latency benchmark and the tests that need a
//! big level: a walled rectangle with inner walls in one of three [`Layout`]s, goals at
//! random on the floor, and boxes pulled away from them, so that most boxes can be
//! pushed back and the engines have real work to do (a box dropped at random is often
//! dead, and static analysis answers such a level at once).
//!
//! The same [`BoardSpec`] always gives the same board.

use std::fmt;

/// How the inner walls are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One room with a few scattered walls (about 1 cell in 20).
    Open,
    /// Halls: every fourth row is a wall across half of the board with gaps in it,
    /// the rest open.
    Halls,
    /// Walls scattered on about a quarter of the cells: corridors, pillars and small
    /// rooms.
    Scattered,
}

impl Layout {
    /// The three layouts, in the order [`BoardSpec::class`] cycles through them.
    pub const ALL: [Layout; 3] = [Layout::Open, Layout::Halls, Layout::Scattered];

    /// The name used in titles and reports.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Open => "open",
            Layout::Halls => "halls",
            Layout::Scattered => "scattered",
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What board to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    /// Rows and columns of the board, its outer walls included (at least 5 each).
    pub rows: usize,
    /// See `rows`.
    pub cols: usize,
    /// Boxes (and goals) to place; fewer when the floor is too small.
    pub boxes: usize,
    /// The inner walls.
    pub layout: Layout,
    /// The seed of the random choices.
    pub seed: u64,
}

impl BoardSpec {
    /// The `index`-th board of a size class: an `size`×`size` board (give or take a
    /// tenth), between `boxes.0` and `boxes.1` boxes, the layouts in turn.
    pub fn class(size: usize, boxes: (usize, usize), index: usize, seed: u64) -> BoardSpec {
        let mut rng = Rng::new(seed ^ (size as u64) << 32 ^ index as u64);
        let spread = (size / 10).max(1);
        let mut side = || (size - spread / 2 + rng.below(spread + 1)).max(5);
        let (rows, cols) = (side(), side());
        let boxes = boxes.0 + rng.below(boxes.1.saturating_sub(boxes.0) + 1);
        BoardSpec {
            rows,
            cols,
            boxes,
            layout: Layout::ALL[index % Layout::ALL.len()],
            seed: rng.next(),
        }
    }
}

/// The board of `spec` as one XSB level, its title line first
/// (`; 120x118 halls, 60 boxes, seed 7`).
pub fn random_board(spec: &BoardSpec) -> String {
    let (h, w) = (spec.rows.max(5), spec.cols.max(5));
    let mut rng = Rng::new(spec.seed);
    let mut wall = vec![false; h * w];
    for r in 0..h {
        for c in 0..w {
            let border = r == 0 || c == 0 || r == h - 1 || c == w - 1;
            wall[r * w + c] = border
                || match spec.layout {
                    Layout::Open => rng.below(20) == 0,
                    Layout::Halls => {
                        // Half of every fourth row, the half alternating, one cell in
                        // ten left open as a door.
                        let left_half = (r / 4) % 2 == 0;
                        r % 4 == 0 && (c < w / 2) == left_half && rng.below(10) != 0
                    }
                    Layout::Scattered => rng.below(4) == 0,
                };
        }
    }
    let floor: Vec<usize> = (0..h * w).filter(|&i| !wall[i]).collect();
    let boxes = spec.boxes.min(floor.len().saturating_sub(1) / 2).max(1);
    let mut goal = vec![false; h * w];
    let mut on = vec![false; h * w];
    let mut placed = 0;
    while placed < boxes && placed < floor.len() {
        let g = floor[rng.below(floor.len())];
        if !goal[g] {
            goal[g] = true;
            on[g] = true;
            placed += 1;
        }
    }
    // Pull each box away from its goal: a pull moves the box one cell towards the
    // player, who steps back; both cells must be free floor.
    let steps = [1isize, -1, w as isize, -(w as isize)];
    let pulls = 4 + (h + w) / 2;
    let mut boxes_at: Vec<usize> = (0..h * w).filter(|&i| on[i]).collect();
    for b in boxes_at.iter_mut() {
        let mut dir = steps[rng.below(4)];
        for _ in 0..rng.below(pulls) {
            if rng.below(4) == 0 {
                dir = steps[rng.below(4)];
            }
            let to = (*b as isize + dir) as usize;
            let player = (*b as isize + 2 * dir) as usize;
            if player >= h * w || wall[to] || wall[player] || on[to] || on[player] {
                continue;
            }
            on[*b] = false;
            on[to] = true;
            *b = to;
        }
    }
    let free: Vec<usize> = floor.iter().copied().filter(|&i| !on[i]).collect();
    let player = free[rng.below(free.len())];
    let mut text = format!(
        "; {}x{} {}, {} boxes, seed {}\n",
        h, w, spec.layout, boxes, spec.seed
    );
    for r in 0..h {
        let row: String = (0..w)
            .map(|c| {
                let i = r * w + c;
                match (wall[i], goal[i], on[i], i == player) {
                    (true, ..) => '#',
                    (_, true, true, _) => '*',
                    (_, false, true, _) => '$',
                    (_, true, _, true) => '+',
                    (_, false, _, true) => '@',
                    (_, true, ..) => '.',
                    _ => ' ',
                }
            })
            .collect();
        text.push_str(row.trim_end());
        text.push('\n');
    }
    text
}

/// xorshift64*: small and deterministic.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn boards_parse_with_the_boxes_asked_for_and_repeat_from_the_seed() {
        for (i, layout) in Layout::ALL.into_iter().enumerate() {
            for size in [5, 12, 60, 200] {
                let spec = BoardSpec {
                    rows: size,
                    cols: size + 3,
                    boxes: size / 3 + 1,
                    layout,
                    seed: i as u64 + 1,
                };
                let text = random_board(&spec);
                assert_eq!(text, random_board(&spec));
                let level = parse_xsb("gen", &text).unwrap().remove(0);
                assert_eq!(level.height(), size + 2, "{layout} {size}"); // padded
                let boxes = level.box_cells().count();
                assert!(
                    boxes >= 1 && boxes <= size / 3 + 1,
                    "{layout} {size}: {boxes}"
                );
            }
        }
    }

    #[test]
    fn a_class_varies_its_sizes_and_layouts_around_the_size() {
        let specs: Vec<BoardSpec> = (0..6)
            .map(|i| BoardSpec::class(100, (20, 80), i, 1))
            .collect();
        for s in &specs {
            assert!(
                (95..=105).contains(&s.rows) && (95..=105).contains(&s.cols),
                "{s:?}"
            );
            assert!((20..=80).contains(&s.boxes), "{s:?}");
        }
        assert_eq!(specs[0].layout, Layout::Open);
        assert_eq!(specs[4].layout, Layout::Halls);
        assert_ne!(specs[0].seed, specs[3].seed);
    }
}
