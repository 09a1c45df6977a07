//! The pushes a position allows, made as the rules make them.
//!
//! The push searches step from position to position by pushes; the walks between them
//! are free. A position is its boxes and the player's *place* (the cells the player can
//! walk to and back from, named by the smallest; see [`Region::name`]). From a place
//! the player can push every box it can get behind, and the rules say where the box
//! and the player come to rest: one cell on, without ice; on ice the box slides, and
//! the player slides on behind it ([`move_outcome`]). This is the one place that says
//! so for every push search, ice or not.

use crate::game::region::Region;
use crate::game::rules::move_outcome;
use crate::level::{Cell, Direction, Level};

/// One push and where it leaves the box and the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushMove {
    /// The box's cell before the push.
    pub from: Cell,
    /// The direction of the push.
    pub dir: Direction,
    /// The cell the box comes to rest on.
    pub to: Cell,
    /// The cell the player comes to rest on.
    pub player: Cell,
}

/// The rule of a push on floor without ice, whoever can make it: the box on `from`
/// can go one cell in `dir` when that cell is neither wall nor box. Returns the cell
/// the player pushes from and the cell the box comes to. The searches that push boxes
/// one cell at a time (no ice) ask this; [`PushMoves`] asks it first too.
#[inline]
pub fn one_cell_push(
    level: &Level,
    boxes: &[bool],
    from: Cell,
    dir: Direction,
) -> Option<(Cell, Cell)> {
    let to = level.neighbor(from, dir);
    (!level.is_wall(to) && !boxes[to]).then(|| (level.neighbor(from, dir.opposite()), to))
}

/// The pushes of one position at a time: [`PushMoves::enter`] a position, then ask
/// for its pushes.
pub struct PushMoves {
    region: Region,
    ice: bool,
}

impl PushMoves {
    /// Pushes on `level`.
    pub fn new(level: &Level) -> PushMoves {
        PushMoves {
            region: Region::new(level),
            ice: level.has_ice(),
        }
    }

    /// Enters the position of `boxes` with the player on `player`: fills where the
    /// player can walk, and returns the name of its place.
    pub fn enter(&mut self, level: &Level, boxes: &[bool], player: Cell) -> Cell {
        self.region.name(level, boxes, player)
    }

    /// Where the player of the position entered last can walk to.
    pub fn region(&self) -> &Region {
        &self.region
    }

    /// The push of the box on `from` in `dir` in the position entered last (its boxes
    /// are `boxes`), if the player can make it: the player can walk behind the box and
    /// nothing stops the box from moving.
    pub fn push(
        &self,
        level: &Level,
        boxes: &[bool],
        from: Cell,
        dir: Direction,
    ) -> Option<PushMove> {
        let (behind, next) = one_cell_push(level, boxes, from, dir)?;
        if !self.region.contains(behind) || !boxes[from] {
            return None;
        }
        if !self.ice {
            return Some(PushMove {
                from,
                dir,
                to: next,
                player: from,
            });
        }
        let effect = move_outcome(level, behind, dir, &mut |c| Ok(boxes[c]))
            .expect("every cell is known")
            .ok()?;
        let (_, to) = effect.box_move?;
        Some(PushMove {
            from,
            dir,
            to,
            player: effect.player_to,
        })
    }

    /// Every push of the position entered last (its boxes are `boxes`, the movable
    /// ones on `cells`), into `out`, box by box in the order of `cells`, each in LURD
    /// order.
    pub fn all(&self, level: &Level, boxes: &[bool], cells: &[Cell], out: &mut Vec<PushMove>) {
        out.clear();
        for &from in cells {
            for dir in Direction::ALL {
                out.extend(self.push(level, boxes, from, dir));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::{State, apply_move};
    use crate::level::parse_xsb;

    fn pushes_of(text: &str) -> (Level, Vec<PushMove>) {
        let level = parse_xsb("t", text).unwrap().remove(0);
        let mut moves = PushMoves::new(&level);
        let boxes = level.initial_boxes().to_vec();
        moves.enter(&level, &boxes, level.player());
        let cells: Vec<Cell> = level.box_cells().collect();
        let mut out = Vec::new();
        moves.all(&level, &boxes, &cells, &mut out);
        (level, out)
    }

    #[test]
    fn plain_pushes_move_the_box_one_cell() {
        let (level, pushes) = pushes_of("#######\n#@    #\n# $  .#\n#     #\n#######\n");
        // Every side of the box can be reached.
        assert_eq!(pushes.len(), 4);
        for p in pushes {
            assert_eq!(p.to, level.neighbor(p.from, p.dir));
            assert_eq!(p.player, p.from);
        }
    }

    #[test]
    fn ice_pushes_end_where_the_rules_end_them() {
        // The box slides over the ice to the wall; the player slides behind it.
        let text = "########\n#@$~~~.#\n#      #\n########\n";
        let (level, pushes) = pushes_of(text);
        let right = pushes
            .iter()
            .find(|p| p.dir == Direction::Right)
            .expect("the player stands behind the box");
        let mut state = State::initial(&level);
        let effect = apply_move(&level, &mut state, Direction::Right).unwrap();
        assert_eq!(effect.box_move, Some((right.from, right.to)));
        assert_eq!(effect.player_to, right.player);
        assert!(level.is_goal(right.to));
    }

    #[test]
    fn on_ice_a_place_is_where_the_player_can_walk_back_from() {
        // The player steps down onto the middle of a row of ice and can slide to either
        // end, but from an end it slides past the middle to the other end: the ends are
        // a place of their own, from which the start is never reached again.
        // (A box on its goal in a sealed pocket makes it a level.)
        let text = "#########\n###@##*##\n#~~~~~###\n#########\n";
        let level = parse_xsb("t", text).unwrap().remove(0);
        let boxes = level.initial_boxes().to_vec();
        let mut region = Region::new(&level);
        let start = level.player();
        let right_end = start + level.width() + 2;
        assert!(region.reaches(&level, &boxes, start, right_end));
        assert!(!region.reaches(&level, &boxes, right_end, start));
        let here = region.name(&level, &boxes, start);
        let there = region.name(&level, &boxes, right_end);
        assert_ne!(here, there);
        assert_eq!(there, region.name(&level, &boxes, right_end - 4));
        // Plain floor: the name is the region's smallest cell.
        let plain = parse_xsb("t", "#####\n#@ $.#\n#####\n").unwrap().remove(0);
        let mut region = Region::new(&plain);
        let b = plain.initial_boxes().to_vec();
        let name = region.name(&plain, &b, plain.player());
        assert_eq!(name, region.fill(&plain, &b, plain.player()));
    }
}
