//! The four directions the player can move in, and their LURD letters.

/// A direction of movement on the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards smaller column numbers (`l`).
    Left,
    /// Towards smaller row numbers (`u`).
    Up,
    /// Towards larger column numbers (`r`).
    Right,
    /// Towards larger row numbers (`d`).
    Down,
}

impl Direction {
    /// All four directions in LURD order.
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Up,
        Direction::Right,
        Direction::Down,
    ];

    /// Index of the direction in [`Direction::ALL`] (0..4).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self.index() + 2) % 4]
    }

    /// The direction a quarter turn clockwise (LURD is clockwise order).
    pub fn clockwise(self) -> Direction {
        Direction::ALL[(self.index() + 1) % 4]
    }

    /// The LURD letter: lower case for a walk, upper case for a push.
    pub fn letter(self, push: bool) -> char {
        let c = ['l', 'u', 'r', 'd'][self.index()];
        if push { c.to_ascii_uppercase() } else { c }
    }

    /// Parses a LURD letter into its direction and whether it claims a push.
    pub fn from_letter(c: char) -> Option<(Direction, bool)> {
        let dir = match c.to_ascii_lowercase() {
            'l' => Direction::Left,
            'u' => Direction::Up,
            'r' => Direction::Right,
            'd' => Direction::Down,
            _ => return None,
        };
        Some((dir, c.is_ascii_uppercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_clockwise() {
        assert_eq!(Direction::Up.clockwise(), Direction::Right);
        assert_eq!(Direction::Right.clockwise(), Direction::Down);
        assert_eq!(Direction::Down.clockwise(), Direction::Left);
        assert_eq!(Direction::Left.clockwise(), Direction::Up);
    }

    #[test]
    fn letters_round_trip() {
        for d in Direction::ALL {
            for push in [false, true] {
                assert_eq!(Direction::from_letter(d.letter(push)), Some((d, push)));
            }
            assert_eq!(d.opposite().opposite(), d);
        }
        assert_eq!(Direction::from_letter('x'), None);
    }
}
