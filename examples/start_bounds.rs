//! How far below the optimum a push search starts: the lower bounds on a level's pushes
//! before any search, against the plans of a `satsoko bench` run.
//!
//! ```text
//! cargo run --release --example start_bounds -- LEVELS.xsb [BENCH.csv]
//! ```
//!
//! For each level of LEVELS.xsb it prints a CSV row: the level's number and title, the
//! matching potential of the start (the cheapest assignment of boxes to goals with the
//! player walking round each box), and the searches' bound of the start
//! (`Heuristic::bound_of`: the potential plus the priced extras of disjoint pairs of
//! boxes, or the boxes' own distances plus the pairs' extras, whichever is more), both
//! rounded up to the parity of every plan's pushes. With BENCH.csv (`satsoko bench
//! --csv`) the row also has the level's plan, whether it was proved push-optimal, and
//! each bound's gap to the plan in percent of the plan. A summary follows on standard
//! error: for the levels proved optimal and for the others, the median gap of each
//! bound and how many levels start at their plan.

use std::collections::HashMap;
use std::error::Error;

use satsoko::analysis::Analysis;
use satsoko::level::{Cell, parse_xsb};

/// A level's plan in the bench run: its pushes and whether they were proved optimal.
struct Plan {
    pushes: usize,
    optimal: bool,
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(levels), bench) = (args.first(), args.get(1)) else {
        return Err("usage: start_bounds LEVELS.xsb [BENCH.csv]".into());
    };
    let plans = match bench {
        Some(path) => read_plans(path)?,
        None => HashMap::new(),
    };
    let text = std::fs::read_to_string(levels)?;
    println!("level,title,matching,bound,plan,optimal,matching_gap_percent,bound_gap_percent");
    // (matching gap, bound gap) per level with a plan: proved optimal, and the rest.
    let mut gaps: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, level) in parse_xsb(levels, &text)?.iter().enumerate() {
        let number = i + 1;
        let analysis = Analysis::new(level);
        let cells: Vec<Cell> = level.box_cells().filter(|&c| analysis.region[c]).collect();
        let h = &analysis.heuristic;
        let matching = h.left(0, h.potential(cells.iter().copied())) as usize;
        let bound = h.left(0, h.bound_of(&analysis, &cells)) as usize;
        let mut row = format!(
            "{number},{},{matching},{bound}",
            level.name().replace(',', " ")
        );
        match plans.get(&number) {
            Some(plan) if plan.pushes > 0 => {
                let gap = |b: usize| 100.0 * (plan.pushes as f64 - b as f64) / plan.pushes as f64;
                let (gm, gb) = (gap(matching), gap(bound));
                row += &format!(",{},{},{gm:.1},{gb:.1}", plan.pushes, plan.optimal);
                gaps[usize::from(!plan.optimal)].push((gm, gb));
            }
            _ => row += ",,,,",
        }
        println!("{row}");
    }
    for (gaps, which) in gaps.iter().zip(["proved optimal", "not proved optimal"]) {
        if gaps.is_empty() {
            continue;
        }
        let at_plan = |pick: fn(&(f64, f64)) -> f64| gaps.iter().filter(|g| pick(g) <= 0.0).count();
        eprintln!(
            "{} levels {which}: median gap of the matching {:.1}%, of the bound {:.1}%; \
             starting at the plan: matching {}, bound {}",
            gaps.len(),
            median(gaps.iter().map(|g| g.0).collect()),
            median(gaps.iter().map(|g| g.1).collect()),
            at_plan(|g| g.0),
            at_plan(|g| g.1),
        );
    }
    Ok(())
}

/// The plans of a `satsoko bench --csv` file, by level number (0 pushes: no plan).
fn read_plans(path: &str) -> Result<HashMap<usize, Plan>, Box<dyn Error>> {
    let mut reader = csv::Reader::from_path(path)?;
    let headers = reader.headers()?.clone();
    let column = |name: &str| {
        (headers.iter().position(|h| h == name)).ok_or(format!("{path}: no column {name}"))
    };
    let (level, pushes, optimal) = (column("level")?, column("pushes")?, column("optimal")?);
    let mut plans = HashMap::new();
    for record in reader.records() {
        let record = record?;
        plans.insert(
            record[level].parse()?,
            Plan {
                pushes: record[pushes].parse().unwrap_or(0),
                optimal: &record[optimal] == "pushes",
            },
        );
    }
    Ok(plans)
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}
