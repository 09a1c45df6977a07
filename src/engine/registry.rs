//! The engines satsoko has, and the `auto` policy that picks one per level.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{ENGINES, Engine, Request, SatUse, Tuning};
use crate::level::Level;

/// The engine with this name.
pub fn by_name(name: &str) -> Option<&'static dyn Engine> {
    ENGINES.iter().copied().find(|e| e.about().name == name)
}

/// The `--engine` choice: one engine, or `auto`.
#[derive(Clone, Copy, Default)]
pub enum EngineChoice {
    /// The first engine of [`ENGINES`] that `auto` may pick and that can do the job.
    #[default]
    Auto,
    /// This engine.
    Named(&'static dyn Engine),
}

impl EngineChoice {
    /// The engine for `level`. Under `auto`: the first engine `auto` may pick that
    /// handles the level (ice), counts the metric, reads `--encoding` if one was named,
    /// can use the solver (an outside program only suits engines that take any
    /// backend), and proves the optimum if asked to (and, if not, preferably proves
    /// none: finding a plan is faster).
    pub fn engine_for(self, level: &Level, request: &Request) -> &'static dyn Engine {
        match self {
            EngineChoice::Named(engine) => engine,
            EngineChoice::Auto => {
                let fits = |e: &&dyn Engine| {
                    let about = e.about();
                    about.auto
                        && (about.ice || !level.has_ice())
                        && about.metrics.contains(&request.metric)
                        && (about.encodings || request.encoding.is_none())
                        && (about.sat == SatUse::Any || request.solver.in_process())
                };
                // An engine that proves no optimum where none is asked for; else one
                // that proves it (its plan will do). On ice an optimum is asked first
                // of an engine that finds the fewest moves among the optimal plans.
                let engines = || ENGINES.iter().copied().filter(fits);
                let state_search = (level.has_ice() && request.prove)
                    .then(|| engines().find(|e| e.about().fewest_moves_among_optimal))
                    .flatten();
                state_search
                    .or_else(|| engines().find(|e| e.about().optimal == request.prove))
                    .or_else(|| engines().find(|e| e.about().optimal))
                    .expect("unroll takes every level, metric and solver")
            }
        }
    }

    /// The cores a level keeps busy with `tuning`: the engine's, or under `auto` the
    /// most of any engine it may pick.
    pub fn cores(self, tuning: &Tuning) -> usize {
        match self {
            EngineChoice::Named(engine) => engine.cores(tuning),
            EngineChoice::Auto => (ENGINES.iter())
                .filter(|e| e.about().auto)
                .map(|e| e.cores(tuning))
                .max()
                .unwrap_or(1),
        }
    }

    /// The name `--engine` takes.
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Named(engine) => engine.about().name,
        }
    }
}

impl PartialEq for EngineChoice {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for EngineChoice {}

impl fmt::Debug for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EngineChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "auto" {
            return Ok(EngineChoice::Auto);
        }
        by_name(s).map(EngineChoice::Named).ok_or_else(|| {
            let names: Vec<&str> = ENGINES.iter().map(|e| e.about().name).collect();
            format!("unknown engine {s:?}: use auto, {}", names.join(", "))
        })
    }
}

impl Serialize for EngineChoice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for EngineChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::EncodingKind;
    use crate::game::Metric;
    use crate::level::parse_xsb;
    use crate::sat::{SolverChoice, SolverName};

    /// Every engine defined under src/engine/ is registered, so a new one needs its
    /// file or folder and one line of `engines!`; with that line it is chosen by name
    /// and listed with its summary.
    #[test]
    fn every_engine_is_registered_by_its_one_line() {
        fn impls(dir: &std::path::Path) -> usize {
            let mut n = 0;
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    n += impls(&path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    n += text.matches("\nimpl Engine for ").count();
                }
            }
            n
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
        assert_eq!(
            impls(&dir),
            ENGINES.len(),
            "an engine is missing from engines!"
        );
        for engine in ENGINES {
            let name = engine.about().name;
            let chosen: EngineChoice = name.parse().unwrap();
            assert_eq!(chosen.name(), name);
            assert!(!engine.about().summary.is_empty());
        }
        let mut names: Vec<&str> = ENGINES.iter().map(|e| e.about().name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ENGINES.len(), "two engines share a name");
    }

    #[test]
    fn auto_picks_anytime_for_pushes_the_finder_for_a_plan_astar_for_moves_and_ice() {
        let plain = &parse_xsb("t", "#####\n#@$.#\n#####\n").unwrap()[0];
        let ice = &parse_xsb("t", "######\n#@$~.#\n######\n").unwrap()[0];
        let varisat = SolverChoice::Builtin(SolverName::Varisat);
        let command = SolverChoice::Command("minisat {in} {out}".into());
        let auto_for = |level, metric, prove, encoding, solver: &SolverChoice| {
            let request = Request {
                metric,
                prove,
                encoding,
                solver: solver.clone(),
                max_steps: Some(10),
                tuning: crate::engine::Tuning::default(),
            };
            EngineChoice::Auto.engine_for(level, &request).about().name
        };
        let auto = |level, metric, encoding, solver: &SolverChoice| {
            auto_for(level, metric, true, encoding, solver)
        };
        assert_eq!(auto(plain, Metric::Pushes, None, &varisat), "anytime");
        assert_eq!(
            auto_for(plain, Metric::Pushes, false, None, &varisat),
            "finder"
        );
        // A plan on ice: the finder, which slides its boxes.
        assert_eq!(
            auto_for(ice, Metric::Pushes, false, None, &varisat),
            "finder"
        );
        assert_eq!(auto(ice, Metric::Pushes, None, &varisat), "astar");
        assert_eq!(auto(ice, Metric::Moves, None, &varisat), "astar");
        assert_eq!(auto(plain, Metric::Moves, None, &varisat), "astar");
        assert_eq!(
            auto(ice, Metric::Moves, Some(EncodingKind::Moves), &varisat),
            "unroll"
        );
        assert_eq!(
            auto(plain, Metric::Pushes, Some(EncodingKind::Pushes), &varisat),
            "unroll"
        );
        assert_eq!(auto(plain, Metric::Pushes, None, &command), "unroll");
        // Every engine is found by its name, and auto is a name too.
        for engine in ENGINES {
            let name = engine.about().name;
            assert_eq!(name.parse::<EngineChoice>().unwrap().name(), name);
        }
        assert!("nope".parse::<EngineChoice>().unwrap_err().contains("pdr"));
    }
}
