//! Out-of-plan boxes (FESS's out-of-plan feature): boxes standing where, once the
//! next boxes of the plan are in place, no box can reach any cell the plan still
//! needs. Such a box must leave before those boxes come, or the plan cannot go on.
//!
//! For each step of a plan (the goals of the packing order, or the steps of the plan
//! with bases) the **zone** is the live floor from which a lone box can no longer be
//! pushed to any later step's cell when the boxes that stay for good up to that step
//! stand as walls. A zone counts from the step after the one where the zone last
//! changed, so a box is asked to leave as soon as the plan knows it must, not when
//! the step that shuts it in is next.

use crate::analysis::Analysis;
use crate::analysis::distance::{UNREACHABLE, push_distances_from, push_distances_walking_to};
use crate::level::{Cell, Level};
use crate::stop::Stop;

/// The zones of one plan.
pub struct OutOfPlan {
    /// The distinct zones, as their cells, and the pushes a lone box needs from the
    /// zone to each cell.
    zones: Vec<Vec<Cell>>,
    away: Vec<Vec<u32>>,
    /// By steps borne out (0..=steps), the zone that counts (`None`: none).
    zone_of: Vec<Option<usize>>,
}

impl OutOfPlan {
    /// The zones of a plan whose steps bring a box to `to` and keep it there until the
    /// step `until` (`None`: for good); `None` when `stop` says stop first.
    pub fn new(
        level: &Level,
        analysis: &Analysis,
        steps: &[(Cell, Option<usize>)],
        stop: &Stop,
    ) -> Option<OutOfPlan> {
        let n = steps.len();
        // The zone once step k's box is in place, for k in 0..n-1; each counts from the
        // step after the last change before it (FESS), and the steps after the last
        // change keep its zone.
        let mut zones: Vec<Vec<Cell>> = Vec::new();
        let mut zone_of = vec![None; n + 1];
        let (mut from, mut last, mut previous) = (0, None, None);
        let mut region = analysis.region.clone();
        for k in 0..n.saturating_sub(1) {
            if stop.should_stop() {
                return None;
            }
            let (to, until) = steps[k];
            if until.is_none() {
                region[to] = false; // stays for good: a wall from now on
            }
            let later = steps[k + 1..].iter().map(|&(c, _)| c);
            let reach = push_distances_walking_to(level, &region, later);
            let zone: Vec<Cell> = (0..level.cell_count())
                .filter(|&c| region[c] && analysis.live[c] && reach[c] == UNREACHABLE)
                .collect();
            if previous.as_ref() == Some(&zone) {
                continue;
            }
            last = (!zone.is_empty()).then(|| {
                zones.push(zone.clone());
                zones.len() - 1
            });
            zone_of[from..=k].iter_mut().for_each(|z| *z = last);
            from = k + 1;
            previous = Some(zone);
        }
        let end = n.saturating_sub(1).max(from);
        zone_of[from..end].iter_mut().for_each(|z| *z = last);
        let away = (zones.iter())
            .map(|zone| push_distances_from(level, zone.iter().copied()))
            .collect();
        Some(OutOfPlan { zones, away, zone_of })
    }

    /// The cells of the zone that counts when `packed` steps are borne out, if any.
    pub fn zone(&self, packed: usize) -> Option<&[Cell]> {
        let id = (*self.zone_of.get(packed)?)?;
        Some(&self.zones[id])
    }

    /// The pushes from the zone that counts when `packed` steps are borne out to each
    /// cell, if there is a zone.
    pub fn away(&self, packed: usize) -> Option<&[u32]> {
        let id = (*self.zone_of.get(packed)?)?;
        Some(&self.away[id])
    }

    /// Boxes out of plan in the position with boxes on `boxes` (a mask) when `packed`
    /// steps are borne out.
    pub fn count(&self, packed: usize, boxes: &[bool]) -> u32 {
        (self.zone(packed)).map_or(0, |zone| zone.iter().filter(|&&c| boxes[c]).count() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_xsb;

    #[test]
    fn boxes_the_next_step_shuts_off_are_out_of_plan() {
        // A corridor closed on the left: goals on columns 1 and 4, boxes on 5 and 6,
        // pushed leftwards.
        let level = parse_xsb("t", "#########\n#.  .$$@#\n#########\n").unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let at = |col: usize| (1 + 1) * level.width() + col + 1;
        let mut boxes = vec![false; level.cell_count()];
        (boxes[at(5)], boxes[at(6)]) = (true, true);
        let stop = Stop::never();
        // Filling column 4 first shuts both boxes off from column 1.
        let wrong = OutOfPlan::new(&level, &analysis, &[(at(4), None), (at(1), None)], &stop);
        let wrong = wrong.expect("not stopped");
        assert_eq!(wrong.count(0, &boxes), 2);
        // Once the first step is borne out, no step is left to shut anything off.
        assert_eq!(wrong.count(1, &boxes), 0);
        assert!(wrong.zone(2).is_none());
        // Filling column 1 first shuts off only column 2 (no box can be pushed from
        // there to column 4), where no box stands; column 3 still feeds column 4.
        let right = OutOfPlan::new(&level, &analysis, &[(at(1), None), (at(4), None)], &stop);
        let right = right.expect("not stopped");
        assert_eq!(right.count(0, &boxes), 0);
        let zone = right.zone(0).expect("a zone");
        assert_eq!(zone, [at(2)]);
        // The way away from the zone: farther from column 2 is farther out.
        let away = right.away(0).expect("a zone");
        assert!(away[at(3)] < away[at(5)] || away[at(5)] == UNREACHABLE);
    }

    #[test]
    fn a_zone_that_stops_changing_still_counts_at_the_later_steps() {
        // Goals on columns 1, 4 and 5 of a corridor closed on the left, boxes on 6, 7
        // and 8. Filling 5 first, then 4, shuts all three boxes off from 1 at both.
        let level = parse_xsb("t", "###########\n#.  ..$$$@#\n###########\n").unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let at = |col: usize| (1 + 1) * level.width() + col + 1;
        let steps = [(at(5), None), (at(4), None), (at(1), None)];
        let plan = OutOfPlan::new(&level, &analysis, &steps, &Stop::never()).expect("not stopped");
        let mut boxes = vec![false; level.cell_count()];
        [6, 7, 8].iter().for_each(|&c| boxes[at(c)] = true);
        assert_eq!(plan.count(0, &boxes), 3);
        assert_eq!(plan.count(1, &boxes), 3);
        assert_eq!(plan.count(2, &boxes), 0, "the last step shuts nothing off");
    }

    #[test]
    fn a_stopped_computation_gives_no_zones() {
        let level = parse_xsb("t", "#########\n#.  .$$@#\n#########\n").unwrap().remove(0);
        let analysis = Analysis::new(&level);
        let past = Stop::new(Some(std::time::Instant::now()));
        let steps = [(level.goal_cells().next().unwrap(), None), (level.goal_cells().nth(1).unwrap(), None)];
        assert!(OutOfPlan::new(&level, &analysis, &steps, &past).is_none());
    }
}
