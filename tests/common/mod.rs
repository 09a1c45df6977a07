//! Shared helpers for the integration tests: a small deterministic random generator of
//! Sokoban levels (no external crate, so failures reproduce from the seed alone), a plain
//! run of the binary, and in [`cli`] the helpers of the end-to-end tests of the binary.

#![allow(dead_code)]

pub mod cli;

use std::process::{Command, Output};

/// Runs the built `satsoko` binary with `args`.
pub fn satsoko(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_satsoko"))
        .args(args)
        .output()
        .expect("satsoko runs")
}

/// xorshift64*: tiny, deterministic, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// What a generated board may contain besides walls and floor.
#[derive(Clone, Copy)]
pub struct GenOptions {
    pub max_boxes: usize,
    pub wall_percent: usize,
    pub ice_percent: usize,
    /// Rows and columns added to the interior's size range (0 for the small boards).
    pub extra_size: usize,
}

/// A random level as XSB text: an h×w interior (2..=5 by 3..=6, each plus up to
/// `extra_size`) inside a wall border,
/// random walls (and ice), 1..=max_boxes boxes. Half of the levels are made by pulling
/// boxes backwards from a solved position, so many are solvable; the rest are placed at
/// random. Returns `None` when the board has too little floor.
pub fn random_level(rng: &mut Rng, opts: GenOptions) -> Option<String> {
    let h = 2 + rng.below(4 + opts.extra_size);
    let w = 3 + rng.below(4 + opts.extra_size);
    let (gh, gw) = (h + 2, w + 2);
    // 0 wall, 1 floor, 2 ice
    let mut tile = vec![0u8; gh * gw];
    for r in 1..=h {
        for c in 1..=w {
            tile[r * gw + c] = if rng.chance(opts.wall_percent) {
                0
            } else if rng.chance(opts.ice_percent) {
                2
            } else {
                1
            };
        }
    }
    let floor: Vec<usize> = (0..tile.len()).filter(|&i| tile[i] == 1).collect();
    let open: Vec<usize> = (0..tile.len()).filter(|&i| tile[i] != 0).collect();
    let nboxes = 1 + rng.below(opts.max_boxes);
    if floor.len() < nboxes + 1 || open.len() < 2 * nboxes + 1 {
        return None;
    }
    let mut goals = vec![false; tile.len()];
    let mut boxes = vec![false; tile.len()];
    // Goals on floor only (goals are never ice).
    let mut placed = 0;
    while placed < nboxes {
        let g = floor[rng.below(floor.len())];
        if !goals[g] {
            goals[g] = true;
            placed += 1;
        }
    }
    let player;
    if rng.chance(50) {
        // Random placement.
        let mut placed = 0;
        while placed < nboxes {
            let b = open[rng.below(open.len())];
            if !boxes[b] {
                boxes[b] = true;
                placed += 1;
            }
        }
        let free: Vec<usize> = open.iter().copied().filter(|&i| !boxes[i]).collect();
        if free.is_empty() {
            return None;
        }
        player = free[rng.below(free.len())];
    } else {
        // Reverse play from the solved position: the player walks and pulls boxes.
        // (Pulls ignore ice, so on ice boards this is just another random placement.)
        boxes.clone_from(&goals);
        let free: Vec<usize> = open.iter().copied().filter(|&i| !boxes[i]).collect();
        if free.is_empty() {
            return None;
        }
        let mut p = free[rng.below(free.len())];
        let dirs = [1isize, -1, gw as isize, -(gw as isize)];
        for _ in 0..(5 + rng.below(40)) {
            let d = dirs[rng.below(4)];
            let to = (p as isize + d) as usize;
            if tile[to] == 0 || boxes[to] {
                continue;
            }
            let behind = (p as isize - d) as usize;
            if boxes[behind] && rng.chance(60) {
                boxes[behind] = false;
                boxes[p] = true;
            }
            p = to;
        }
        player = p;
    }
    let mut text = String::new();
    for r in 0..gh {
        for c in 0..gw {
            let i = r * gw + c;
            let ch = match (tile[i], goals[i], boxes[i], i == player) {
                (0, ..) => '#',
                (2, _, true, _) => '=',
                (2, _, _, true) => '&',
                (2, ..) => '~',
                (_, true, true, _) => '*',
                (_, true, _, true) => '+',
                (_, true, ..) => '.',
                (_, _, true, _) => '$',
                (_, _, _, true) => '@',
                _ => '-',
            };
            text.push(ch);
        }
        text.push('\n');
    }
    Some(text)
}
