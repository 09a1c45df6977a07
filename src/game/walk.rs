//! Walks between pushes: a push-level plan (which box goes where) becomes a full LURD
//! plan by shortest walks of the player, found by the region's flood fill.

use crate::game::plan::{Move, Plan};
use crate::game::region::Region;
use crate::game::rules::{State, apply_move};
use crate::level::{Cell, Direction, Level};

/// Expands pushes `(box cell, direction)` into a plan: before each push the player takes
/// a shortest walk to the cell behind the box. `Err(i)` if push i cannot be made (the
/// player cannot get behind the box, or the push is illegal).
pub fn plan_from_pushes(level: &Level, pushes: &[(Cell, Direction)]) -> Result<Plan, usize> {
    let mut state = State::initial(level);
    let mut region = Region::new(level);
    let mut plan = Plan::default();
    for (i, &(cell, dir)) in pushes.iter().enumerate() {
        let behind = level.neighbor(cell, dir.opposite());
        if level.is_wall(behind) || !state.boxes[cell] {
            return Err(i);
        }
        let walk = region
            .walk(level, &state.boxes, state.player, behind)
            .ok_or(i)?;
        for d in walk {
            apply_move(level, &mut state, d).map_err(|_| i)?;
            plan.moves.push(Move {
                dir: d,
                push: false,
            });
        }
        let effect = apply_move(level, &mut state, dir).map_err(|_| i)?;
        if !effect.pushed {
            return Err(i);
        }
        plan.moves.push(Move { dir, push: true });
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn walks_around_a_box_and_pushes() {
        let l = parse_xsb("t", "#######\n#@    #\n# $  .#\n#     #\n#######\n")
            .unwrap()
            .remove(0);
        let b = l.box_cells().next().unwrap();
        let right = [
            (b, Direction::Right),
            (b + 1, Direction::Right),
            (b + 2, Direction::Right),
        ];
        let plan = plan_from_pushes(&l, &right).unwrap();
        assert_eq!(plan.lurd(), "dRRR");
        assert!(plan.verify(&l).is_ok());
        // Pushing down needs the player above the box.
        let plan = plan_from_pushes(&l, &[(b, Direction::Down)]).unwrap();
        assert_eq!(plan.lurd(), "rD");
    }

    #[test]
    fn walled_off_push_is_reported() {
        let l = parse_xsb("t", "######\n#@$ .#\n######\n")
            .unwrap()
            .remove(0);
        let b = l.box_cells().next().unwrap();
        assert_eq!(plan_from_pushes(&l, &[(b, Direction::Left)]), Err(0));
    }
}
