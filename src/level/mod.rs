//! Levels: the static board (walls, floor, ice, goals) and the initial positions of the
//! player and the boxes, plus the parsers that read them.

mod board;
mod digits;
mod direction;
mod error;
pub mod generate;
mod numeric;
mod xsb;

pub use board::MAX_CELLS;
pub use direction::Direction;
pub use error::{LevelError, LevelErrorKind};
pub use numeric::{looks_numeric, parse_numeric_entries};
pub use xsb::{
    Insertion, LevelBlock, MovesError, SavedSolution, level_blocks, parse_xsb, parse_xsb_entries,
};

use std::fmt;

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// XSB / SOK collections (with the ice extension).
    Xsb,
    /// The numeric course format.
    Numeric,
    /// The seed A* solver's characters (`0` box, `$` goal, `1` player, …).
    Digits,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "xsb" | "sok" => Ok(Format::Xsb),
            "numeric" => Ok(Format::Numeric),
            "digits" => Ok(Format::Digits),
            _ => Err(format!("unknown format {s:?}: use xsb, numeric or digits")),
        }
    }
}

/// Parses a level file in `format`, or in the format it looks like when `None`
/// (numeric when it holds only numbers and separators, XSB otherwise).
pub fn parse_entries(
    file: &str,
    text: &str,
    format: Option<Format>,
) -> Result<Vec<Result<Level, LevelError>>, LevelError> {
    let format = format.unwrap_or(if looks_numeric(text) {
        Format::Numeric
    } else {
        Format::Xsb
    });
    match format {
        Format::Xsb => parse_xsb_entries(file, text),
        Format::Numeric => parse_numeric_entries(file, text),
        Format::Digits => digits::parse_digits_entries(file, text),
    }
}

/// A cell of the board, as an index into the level's row-major grid.
pub type Cell = usize;

/// What a cell is made of. Boxes, goals and the player are kept separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tile {
    /// Nothing can enter a wall. Everything outside the board counts as wall.
    Wall,
    /// Ordinary floor (goals are floor too).
    Floor,
    /// Floor that the player and pushed boxes slide over.
    Ice,
}

/// One puzzle: the board and its initial state.
///
/// The grid is padded with a border of walls, so every non-wall cell has four
/// neighbours inside the grid and [`Level::neighbor`] never leaves it. A level
/// serialises whole, so a bench worker gets its own level without reading the file.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Level {
    /// 1-based position of the level in its file.
    pub number: usize,
    /// The level's name, from a comment or `Title:` line, if it has one.
    pub title: Option<String>,
    /// `Key: value` lines that belong to the level (`Author`, `Comment`, ...).
    pub metadata: Vec<(String, String)>,
    /// The solution sections stored after the level in an XSB/SOK file (never used to
    /// solve it; `verify --from-file` checks them).
    pub solutions: Vec<SavedSolution>,
    /// 1-based line of the file where the board starts.
    pub first_line: usize,
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    /// Whether any tile is ice (asked in the searches' inner loops).
    any_ice: bool,
    goals: Vec<bool>,
    boxes: Vec<bool>,
    player: Cell,
}

impl Level {
    /// Builds a level from rows of tiles and marks. `rows[r][c]` is the cell in row r,
    /// column c (0-based, unpadded); rows may have different lengths.
    ///
    /// This is the constructor the parsers use once they have checked the counts.
    pub fn from_rows(rows: &[Vec<(Tile, bool, bool)>], player: (usize, usize)) -> Level {
        let inner_width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let width = inner_width + 2;
        let height = rows.len() + 2;
        let mut tiles = vec![Tile::Wall; width * height];
        let mut goals = vec![false; width * height];
        let mut boxes = vec![false; width * height];
        for (r, row) in rows.iter().enumerate() {
            for (c, &(tile, goal, has_box)) in row.iter().enumerate() {
                let cell = (r + 1) * width + c + 1;
                tiles[cell] = tile;
                goals[cell] = goal;
                boxes[cell] = has_box;
            }
        }
        Level {
            number: 1,
            title: None,
            metadata: Vec::new(),
            solutions: Vec::new(),
            first_line: 1,
            width,
            height,
            any_ice: tiles.contains(&Tile::Ice),
            tiles,
            goals,
            boxes,
            player: (player.0 + 1) * width + player.1 + 1,
        }
    }

    /// The same board with the player on `player` and boxes where `boxes` says: a
    /// position of this level as the start of another problem (a window of a plan).
    pub fn with_position(&self, player: Cell, boxes: &[bool]) -> Level {
        Level {
            boxes: boxes.to_vec(),
            player,
            ..self.clone()
        }
    }

    /// The name to show for this level: its title, or its number.
    pub fn name(&self) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| self.number.to_string())
    }

    /// Number of cells in the (padded) grid; cells are `0..cell_count()`.
    pub fn cell_count(&self) -> usize {
        self.tiles.len()
    }

    /// Width of the padded grid.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height of the padded grid.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The tile at `cell`.
    pub fn tile(&self, cell: Cell) -> Tile {
        self.tiles[cell]
    }

    /// Whether `cell` is a wall.
    pub fn is_wall(&self, cell: Cell) -> bool {
        self.tiles[cell] == Tile::Wall
    }

    /// Whether `cell` is ice.
    pub fn is_ice(&self, cell: Cell) -> bool {
        self.tiles[cell] == Tile::Ice
    }

    /// Whether the level has any ice at all.
    pub fn has_ice(&self) -> bool {
        self.any_ice
    }

    /// Whether `cell` is a goal.
    pub fn is_goal(&self, cell: Cell) -> bool {
        self.goals[cell]
    }

    /// Whether a box stands on `cell` at the start.
    pub fn has_initial_box(&self, cell: Cell) -> bool {
        self.boxes[cell]
    }

    /// The initial box occupancy, one flag per cell.
    pub fn initial_boxes(&self) -> &[bool] {
        &self.boxes
    }

    /// The player's initial cell.
    pub fn player(&self) -> Cell {
        self.player
    }

    /// The goal cells.
    pub fn goal_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.cell_count()).filter(|&c| self.goals[c])
    }

    /// The cells that hold a box at the start.
    pub fn box_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.cell_count()).filter(|&c| self.boxes[c])
    }

    /// The cells that are not walls.
    pub fn open_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.cell_count()).filter(|&c| !self.is_wall(c))
    }

    /// The neighbour of a non-wall `cell` in direction `dir`.
    pub fn neighbor(&self, cell: Cell, dir: Direction) -> Cell {
        match dir {
            Direction::Left => cell - 1,
            Direction::Right => cell + 1,
            Direction::Up => cell - self.width,
            Direction::Down => cell + self.width,
        }
    }

    /// The neighbour of `cell` in direction `dir`, or `None` if it would leave the grid.
    /// Safe for any cell, walls included.
    pub fn checked_neighbor(&self, cell: Cell, dir: Direction) -> Option<Cell> {
        let (r, c) = (cell / self.width, cell % self.width);
        match dir {
            Direction::Left if c > 0 => Some(cell - 1),
            Direction::Right if c + 1 < self.width => Some(cell + 1),
            Direction::Up if r > 0 => Some(cell - self.width),
            Direction::Down if r + 1 < self.height => Some(cell + self.width),
            _ => None,
        }
    }

    /// The (row, column) of a cell on the original board, both 0-based.
    pub fn row_col(&self, cell: Cell) -> (usize, usize) {
        (cell / self.width - 1, cell % self.width - 1)
    }

    /// A short human-readable name of a cell, `r<row>c<col>`, 1-based like editors.
    pub fn cell_name(&self, cell: Cell) -> String {
        let (r, c) = self.row_col(cell);
        format!("r{}c{}", r + 1, c + 1)
    }

    /// Renders a board in XSB (with the ice extension) for the given state.
    pub fn render(&self, player: Cell, boxes: &[bool]) -> String {
        let mut out = String::new();
        for r in 1..self.height - 1 {
            let mut line = String::new();
            for c in 1..self.width - 1 {
                let cell = r * self.width + c;
                let ch = match (
                    self.tiles[cell],
                    self.goals[cell],
                    boxes[cell],
                    cell == player,
                ) {
                    (Tile::Wall, ..) => '#',
                    (Tile::Ice, _, true, _) => '=',
                    (Tile::Ice, _, _, true) => '&',
                    (Tile::Ice, ..) => '~',
                    (_, true, true, _) => '*',
                    (_, true, _, true) => '+',
                    (_, true, ..) => '.',
                    (_, _, true, _) => '$',
                    (_, _, _, true) => '@',
                    _ => ' ',
                };
                line.push(ch);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(self.player, &self.boxes))
    }
}
