//! Generates random ice boards with their move optimum proved by breadth-first search
//! over the rules engine, as an XSB collection on standard output (each board's optimum
//! in the comment line before its title).
//!
//! ```text
//! cargo run --release --example ice_boards -- ROWS COLS BOXES MIN MAX COUNT [SEED]
//! ```
//!
//! ROWS and COLS are the board's outer size (walls included), ranges like `7-9`;
//! BOXES a range like `1-3`; MIN and MAX the range the move optimum must fall in;
//! COUNT the number of boards. Boards whose search needs more than two million states
//! are skipped. The benchmark of docs/benchmarks.md ("Ice") was made with it.

use std::process::ExitCode;

use satsoko::engine::oracle::{SearchResult, shortest_moves, shortest_pushes};
use satsoko::level::parse_xsb;

/// A small deterministic generator (xorshift), so a seed gives the same boards.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn within(&mut self, (lo, hi): (usize, usize)) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn range(text: &str) -> Option<(usize, usize)> {
    match text.split_once('-') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => text.parse().ok().map(|n| (n, n)),
    }
}

/// One random board as XSB text: walls around, about 12% inner walls, 35% ice, goals on
/// floor, boxes and the player anywhere open.
fn board(rng: &mut Rng, rows: usize, cols: usize, boxes: usize) -> Option<String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Tile {
        Wall,
        Floor,
        Ice,
    }
    let mut tiles = vec![Tile::Wall; rows * cols];
    for r in 1..rows - 1 {
        for c in 1..cols - 1 {
            tiles[r * cols + c] = if rng.chance(12) {
                Tile::Wall
            } else if rng.chance(35) {
                Tile::Ice
            } else {
                Tile::Floor
            };
        }
    }
    let cells = |t: Tile| -> Vec<usize> { (0..tiles.len()).filter(|&i| tiles[i] == t).collect() };
    let floor = cells(Tile::Floor);
    let mut open = floor.clone();
    open.extend(cells(Tile::Ice));
    if floor.len() < boxes + 1 || open.len() < 2 * boxes + 1 {
        return None;
    }
    let mut pick = |from: &[usize], taken: &[usize]| loop {
        let c = from[(rng.next() % from.len() as u64) as usize];
        if !taken.contains(&c) {
            return c;
        }
    };
    let mut goals = Vec::new();
    for _ in 0..boxes {
        let g = pick(&floor, &goals);
        goals.push(g);
    }
    let mut box_cells = Vec::new();
    for _ in 0..boxes {
        let b = pick(&open, &box_cells);
        box_cells.push(b);
    }
    let player = pick(&open, &box_cells);
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            let (b, g, p) = (box_cells.contains(&i), goals.contains(&i), i == player);
            text.push(match (tiles[i], b, g, p) {
                (Tile::Wall, ..) => '#',
                (Tile::Ice, true, ..) => '=',
                (Tile::Ice, _, _, true) => '&',
                (Tile::Ice, ..) => '~',
                (_, true, true, _) => '*',
                (_, true, false, _) => '$',
                (_, _, true, true) => '+',
                (_, _, true, _) => '.',
                (_, _, _, true) => '@',
                _ => ' ',
            });
        }
        text.push('\n');
    }
    Some(text)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = (|| {
        Some((
            range(args.first()?)?,
            range(args.get(1)?)?,
            range(args.get(2)?)?,
            args.get(3)?.parse::<usize>().ok()?,
            args.get(4)?.parse::<usize>().ok()?,
            args.get(5)?.parse::<usize>().ok()?,
            args.get(6).map_or(Some(1), |s| s.parse::<u64>().ok())?,
        ))
    })();
    let Some((rows, cols, boxes, min, max, count, seed)) = parsed else {
        eprintln!("usage: ice_boards ROWS COLS BOXES MIN MAX COUNT [SEED] (ranges like 7-9)");
        return ExitCode::from(2);
    };
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    println!("; Random ice boards with their move optimum (breadth-first search).");
    println!(
        "; ice_boards {} (rows {rows:?}, cols {cols:?}, boxes {boxes:?}, optimum {min}-{max})",
        args.join(" ")
    );
    let mut made = 0;
    let mut tried = 0;
    while made < count {
        tried += 1;
        let (r, c, b) = (rng.within(rows), rng.within(cols), rng.within(boxes));
        let Some(text) = board(&mut rng, r, c, b) else {
            continue;
        };
        let Ok(mut levels) = parse_xsb("generated", &text) else {
            continue;
        };
        let level = levels.remove(0);
        let SearchResult::Optimal(moves) = shortest_moves(&level, max, 2_000_000) else {
            continue;
        };
        if moves < min {
            continue;
        }
        let pushes = match shortest_pushes(&level, moves, 2_000_000) {
            SearchResult::Optimal(p) => p.to_string(),
            _ => "?".to_string(),
        };
        made += 1;
        println!();
        let plural = if b == 1 { "" } else { "es" };
        println!("; optimal: {moves} moves; fewest pushes {pushes}; {r}x{c}, {b} box{plural}");
        println!("; Board {made}");
        print!("{text}");
    }
    eprintln!("{made} boards from {tried} tries");
    ExitCode::SUCCESS
}
