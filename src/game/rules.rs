//! The game's rules: the single source of truth for what a move does.
//!
//! Every plan that any encoding produces is replayed here before it is shown.

use std::fmt;

use crate::level::{Cell, Direction, Level};

/// A position in the game: where the player is and which cells hold boxes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The player's cell.
    pub player: Cell,
    /// One flag per cell of the level: does it hold a box?
    pub boxes: Vec<bool>,
}

impl State {
    /// The level's initial state.
    pub fn initial(level: &Level) -> State {
        State {
            player: level.player(),
            boxes: level.initial_boxes().to_vec(),
        }
    }

    /// Whether every goal holds a box (boxes and goals are equal in number).
    pub fn is_solved(&self, level: &Level) -> bool {
        level.goal_cells().all(|g| self.boxes[g])
    }

    /// Whether `cell` is free for the player or a box: not a wall and no box.
    pub fn is_free(&self, level: &Level, cell: Cell) -> bool {
        !level.is_wall(cell) && !self.boxes[cell]
    }
}

/// Why a move cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The player would walk into a wall.
    Wall,
    /// The box in the way cannot move: a wall or another box is behind it.
    BoxBlocked,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::Wall => f.write_str("the player would walk into a wall"),
            Illegal::BoxBlocked => {
                f.write_str("the box cannot be pushed: a wall or another box is behind it")
            }
        }
    }
}

/// What one legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEffect {
    /// Whether the move pushed a box.
    pub pushed: bool,
    /// Where the pushed box came from and where it came to rest.
    pub box_move: Option<(Cell, Cell)>,
    /// Where the player came to rest.
    pub player_to: Cell,
}

/// Where something entering `cell` from direction `dir` comes to rest: on ice it slides
/// while the next cell is ice without a box; when the next cell is not ice it steps onto
/// it if that is free floor, and stays otherwise. On floor it simply stops.
///
/// `has_box` answers whether a cell holds a box; it may answer `Err(cell)` ("unknown"),
/// which is passed on, so an encoder can enumerate every way a move can end.
pub fn slide_end_with(
    level: &Level,
    has_box: &mut dyn FnMut(Cell) -> Result<bool, Cell>,
    cell: Cell,
    dir: Direction,
) -> Result<Cell, Cell> {
    let mut at = cell;
    while level.is_ice(at) {
        let next = level.neighbor(at, dir);
        if level.is_wall(next) || has_box(next)? {
            break;
        }
        at = next;
        if !level.is_ice(next) {
            break;
        }
    }
    Ok(at)
}

/// [`slide_end_with`] on a known box configuration.
pub fn slide_end(level: &Level, boxes: &[bool], cell: Cell, dir: Direction) -> Cell {
    slide_end_with(level, &mut |c| Ok(boxes[c]), cell, dir).expect("every cell is known")
}

/// The effect of moving the player from `player` in direction `dir`, reading boxes
/// through `has_box` (see [`slide_end_with`]): `Ok(Ok(effect))` for a legal move,
/// `Ok(Err(why))` for an illegal one, `Err(cell)` when an unknown cell must be decided.
/// This is the one definition of a move; [`apply_move`] applies it to a state.
pub fn move_outcome(
    level: &Level,
    player: Cell,
    dir: Direction,
    has_box: &mut dyn FnMut(Cell) -> Result<bool, Cell>,
) -> Result<Result<MoveEffect, Illegal>, Cell> {
    let q = level.neighbor(player, dir);
    if level.is_wall(q) {
        return Ok(Err(Illegal::Wall));
    }
    if !has_box(q)? {
        let to = slide_end_with(level, has_box, q, dir)?;
        return Ok(Ok(MoveEffect {
            pushed: false,
            box_move: None,
            player_to: to,
        }));
    }
    let r = level.neighbor(q, dir);
    if level.is_wall(r) || has_box(r)? {
        return Ok(Err(Illegal::BoxBlocked));
    }
    // The box has left q (behind both slides, which only look ahead).
    let box_to = slide_end_with(level, has_box, r, dir)?;
    let mut after = |c: Cell| if c == box_to { Ok(true) } else { has_box(c) };
    let player_to = slide_end_with(level, &mut after, q, dir)?;
    Ok(Ok(MoveEffect {
        pushed: true,
        box_move: Some((q, box_to)),
        player_to,
    }))
}

/// Applies one move to `state`, or says why it is illegal (leaving `state` unchanged).
pub fn apply_move(level: &Level, state: &mut State, dir: Direction) -> Result<MoveEffect, Illegal> {
    let effect = move_outcome(level, state.player, dir, &mut |c| Ok(state.boxes[c]))
        .expect("every cell is known")?;
    if let Some((from, to)) = effect.box_move {
        state.boxes[from] = false;
        state.boxes[to] = true;
    }
    state.player = effect.player_to;
    Ok(effect)
}

/// A problem found while replaying a LURD string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based position of the offending letter.
    pub position: usize,
    /// The offending letter.
    pub letter: char,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "letter {} ({:?}) is illegal: {}",
            self.position, self.letter, self.reason
        )
    }
}

/// The result of replaying a legal LURD string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Number of moves (letters).
    pub moves: usize,
    /// Number of pushes (upper-case letters).
    pub pushes: usize,
    /// Whether the final state has every box on a goal.
    pub solved: bool,
    /// The final state.
    pub end: State,
}

/// The convention a solution string is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Convention {
    /// The XSB convention: every letter a legal move, lower case walks, upper case
    /// pushes.
    #[default]
    Xsb,
    /// The course's convention: a letter is an action, whatever its case; an action
    /// into a wall or against a box that cannot move is allowed and changes nothing
    /// (it still counts as a move). Its plans are printed in upper case.
    Course,
}

/// Replays a LURD string from the level's initial state in the XSB convention. White
/// space is ignored. A letter is rejected when the move is illegal or its case
/// disagrees with whether the move pushes a box.
pub fn replay(level: &Level, lurd: &str) -> Result<Replay, ReplayError> {
    replay_in(level, lurd, Convention::Xsb)
}

/// Replays a LURD string written in `convention` (see [`Convention`]).
pub fn replay_in(level: &Level, lurd: &str, convention: Convention) -> Result<Replay, ReplayError> {
    let mut state = State::initial(level);
    let (mut moves, mut pushes) = (0, 0);
    for letter in lurd.chars().filter(|c| !c.is_whitespace()) {
        moves += 1;
        let fail = |reason: String| ReplayError {
            position: moves,
            letter,
            reason,
        };
        let (dir, claims_push) = Direction::from_letter(letter)
            .ok_or_else(|| fail("not one of l u r d L U R D".to_string()))?;
        let effect = match apply_move(level, &mut state, dir) {
            Ok(effect) => effect,
            // A bump: the course counts it as a move that changes nothing.
            Err(_) if convention == Convention::Course => continue,
            Err(e) => return Err(fail(e.to_string())),
        };
        if effect.pushed != claims_push && convention == Convention::Xsb {
            let reason = if claims_push {
                "upper case claims a push, but the move pushes no box (write it in lower case)"
            } else {
                "lower case claims a walk, but the move pushes a box (write it in upper case)"
            };
            return Err(fail(reason.to_string()));
        }
        pushes += effect.pushed as usize;
    }
    let solved = state.is_solved(level);
    Ok(Replay {
        moves,
        pushes,
        solved,
        end: state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    fn level(text: &str) -> Level {
        parse_xsb("t", text).unwrap().remove(0)
    }

    #[test]
    fn walk_push_and_solve() {
        let l = level("######\n#@ $.#\n######\n");
        let r = replay(&l, "rR").unwrap();
        assert_eq!((r.moves, r.pushes, r.solved), (2, 1, true));
    }

    #[test]
    fn illegal_letters_are_named() {
        let l = level("######\n#@ $.#\n######\n");
        let e = replay(&l, "l").unwrap_err();
        assert_eq!((e.position, e.letter), (1, 'l'));
        assert!(e.reason.contains("wall"));
        let e = replay(&l, "rr").unwrap_err();
        assert_eq!(e.position, 2);
        assert!(e.reason.contains("upper case"));
        let e = replay(&l, "R").unwrap_err();
        assert!(e.reason.contains("claims a push"));
        let e = replay(&l, "rRR").unwrap_err();
        assert!(e.reason.contains("cannot be pushed"));
        let e = replay(&l, "x").unwrap_err();
        assert!(e.reason.contains("not one of"));
    }

    #[test]
    fn the_course_convention_allows_bumps_and_either_case() {
        let l = level("######\n#@ $.#\n######\n");
        assert!(replay(&l, "LRR").is_err());
        let r = replay_in(&l, "LURR", Convention::Course).unwrap();
        assert_eq!((r.moves, r.pushes, r.solved), (4, 1, true));
        let r = replay_in(&l, "rr", Convention::Course).unwrap();
        assert_eq!((r.moves, r.pushes, r.solved), (2, 1, true));
        // A push against a wall is a bump too; other letters are still refused.
        let r = replay_in(&l, "rRR", Convention::Course).unwrap();
        assert_eq!((r.moves, r.pushes, r.solved), (3, 1, true));
        assert!(replay_in(&l, "rx", Convention::Course).is_err());
    }

    #[test]
    fn player_slides_on_ice_and_steps_off() {
        // Player slides over ~~ and steps onto the floor beyond.
        let l = level("#######\n#@~~ $.#\n#######\n");
        let mut s = State::initial(&l);
        let e = apply_move(&l, &mut s, Direction::Right).unwrap();
        assert_eq!(l.row_col(e.player_to), (1, 4));
    }

    #[test]
    fn player_stops_on_last_ice_before_a_box() {
        let l = level("#######\n#@~~$.#\n#######\n");
        let mut s = State::initial(&l);
        let e = apply_move(&l, &mut s, Direction::Right).unwrap();
        assert_eq!(l.row_col(e.player_to), (1, 3));
    }

    #[test]
    fn pushed_box_slides_and_player_follows() {
        // Box on ice slides to the wall; the player, entering ice, slides up behind it.
        let l = level("########\n#@=~~~.#\n########\n");
        let mut s = State::initial(&l);
        let e = apply_move(&l, &mut s, Direction::Right).unwrap();
        let (from, to) = e.box_move.unwrap();
        assert_eq!(l.row_col(from), (1, 2));
        assert_eq!(l.row_col(to), (1, 6)); // stepped off the ice onto the goal
        assert_eq!(l.row_col(e.player_to), (1, 5)); // last ice cell before the box
        assert!(s.is_solved(&l));
    }
}
