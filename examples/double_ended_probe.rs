//! Probe: double-ended growth (src/encode/double_ended.rs) on every level of a
//! collection, one after another, CaDiCaL in its `unsat` configuration, every plan
//! replayed: `double_ended_probe FILE SECONDS ENCODING` prints one CSV row per level.
use std::sync::Arc;
use std::time::{Duration, Instant};

use satsoko::encode::double_ended::{Ended, solve};
use satsoko::engine::Stop;
use satsoko::game::plan_from_pushes;
use satsoko::level::parse_xsb;
use satsoko::sat::{CadicalBackend, Workload};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let timeout: f64 = args[2].parse().unwrap();
    let levels = parse_xsb(&args[1], &text).unwrap();
    println!("level,status,seconds,pushes");
    for level in &levels {
        let started = Instant::now();
        let stop = Stop::new(Some(started + Duration::from_secs_f64(timeout)));
        let s2 = stop.clone();
        let mut backend = CadicalBackend::for_workload(
            Some(Arc::new(move || s2.should_stop())),
            Workload::Refutations,
        );
        let kind: satsoko::encode::EncodingKind = args[3].parse().unwrap();
        let ended = solve(level, kind, &mut backend, 10_000, &stop);
        let secs = started.elapsed().as_secs_f64();
        let (status, pushes) = match &ended {
            Ended::Plan(p) => {
                let plan = plan_from_pushes(level, p).expect("replays");
                plan.verify(level).expect("verifies");
                ("solved", p.len().to_string())
            }
            Ended::Stopped(m) => ("timeout", format!("lb{m}")),
            Ended::NoneWithin(_) => ("none", String::new()),
            Ended::Refused(w) => ("refused", w.replace(',', ";")),
        };
        println!("{},{status},{secs:.3},{pushes}", level.number);
    }
}
