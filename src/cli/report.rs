//! One level's result as the CLI shows it: text or a JSON line (FORMATS.md).

use serde_json::{Value, json};

use crate::driver::{Engine, Outcome, Verdict};

/// Exit code: every level solved.
pub const EXIT_OK: i32 = 0;
/// Exit code: an input error (a file or level could not be read).
pub const EXIT_INPUT: i32 = 1;
/// Exit code: a usage error (clap's own code).
pub const EXIT_USAGE: i32 = 2;
/// Exit code: a level was proved unsolvable.
pub const EXIT_UNSOLVABLE: i32 = 3;
/// Exit code: no plan within the bound.
pub const EXIT_NO_PLAN: i32 = 4;
/// Exit code: the time limit ran out.
pub const EXIT_TIMEOUT: i32 = 5;
/// Exit code of `verify`: the solution is illegal or does not solve the level.
pub const EXIT_REJECTED: i32 = 6;
/// Exit code: an internal error (a bug; please report it).
pub const EXIT_INTERNAL: i32 = 70;

/// The status of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A verified plan was found.
    Solved,
    /// Proved unsolvable.
    Unsolvable,
    /// No plan within the bound.
    NoPlan,
    /// Time ran out.
    Timeout,
    /// The level could not be read (input error).
    InputError,
    /// A bug in satsoko.
    InternalError,
}

impl Status {
    /// The `status` field of the JSON line.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::NoPlan => "no-plan",
            Status::Timeout => "timeout",
            Status::InputError | Status::InternalError => "error",
        }
    }

    /// The exit code this status alone would give.
    pub fn exit_code(self) -> i32 {
        match self {
            Status::Solved => EXIT_OK,
            Status::Unsolvable => EXIT_UNSOLVABLE,
            Status::NoPlan => EXIT_NO_PLAN,
            Status::Timeout => EXIT_TIMEOUT,
            Status::InputError => EXIT_INPUT,
            Status::InternalError => EXIT_INTERNAL,
        }
    }
}

/// Everything reported about one level.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelReport {
    /// The file as the user named it.
    pub file: String,
    /// 1-based level number in the file.
    pub level: usize,
    /// The level's title, if any.
    pub title: Option<String>,
    /// The verdict.
    pub status: Status,
    /// The LURD solution, when solved.
    pub solution: Option<String>,
    /// Moves of the solution.
    pub moves: Option<usize>,
    /// Pushes of the solution.
    pub pushes: Option<usize>,
    /// The metric the solution is proved optimal for.
    pub optimal: Option<String>,
    /// Steps of the encoding (the k that was satisfiable, or the bound tried).
    pub k: Option<usize>,
    /// The engine's name (`unroll`, `pdr`, `astar`).
    pub engine: Option<String>,
    /// The encoding's name.
    pub encoding: Option<String>,
    /// The SAT solver's name.
    pub solver: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Variables at the final k.
    pub variables: Option<u64>,
    /// Clauses at the final k.
    pub clauses: Option<u64>,
    /// Cut clauses the lazy pushes encoding added (its refinement rounds).
    pub cuts: Option<usize>,
    /// An explanation (errors, unsolvability reasons).
    pub message: Option<String>,
}

impl LevelReport {
    /// A report with only the identity of the level filled in.
    pub fn new(file: &str, level: usize, title: Option<String>, status: Status) -> LevelReport {
        LevelReport {
            file: file.to_string(),
            level,
            title,
            status,
            solution: None,
            moves: None,
            pushes: None,
            optimal: None,
            k: None,
            engine: None,
            encoding: None,
            solver: None,
            seconds: 0.0,
            variables: None,
            clauses: None,
            cuts: None,
            message: None,
        }
    }

    /// The report of a driver outcome.
    pub fn from_outcome(file: &str, level: usize, title: Option<String>, o: &Outcome) -> Self {
        let status = match o.verdict {
            Verdict::Solved { .. } => Status::Solved,
            Verdict::Unsolvable { .. } => Status::Unsolvable,
            Verdict::NoPlan { .. } => Status::NoPlan,
            Verdict::Cancelled => Status::Timeout,
        };
        let mut r = LevelReport::new(file, level, title, status);
        r.encoding = Some(o.encoding.name().to_string());
        r.engine = Some(o.engine.name().to_string());
        r.solver = o.solver.map(str::to_string);
        r.seconds = o.elapsed.as_secs_f64();
        r.variables = o.variables;
        r.clauses = o.clauses;
        r.message = o.note.clone();
        r.cuts = (o.encoding == crate::encode::EncodingKind::PushesLazy).then_some(o.refinements);
        match &o.verdict {
            Verdict::Solved { plan, k, optimal } => {
                r.solution = Some(plan.lurd());
                r.moves = Some(plan.move_count());
                r.pushes = Some(plan.push_count());
                r.optimal = optimal.map(str::to_string);
                r.k = Some(*k);
            }
            Verdict::Unsolvable { reason } => r.message = Some(reason.clone()),
            Verdict::NoPlan { bound } => {
                r.k = Some(*bound);
                r.message = Some(format!("no plan of at most {bound} steps exists"));
            }
            Verdict::Cancelled => {
                r.message = Some(format!("no answer within {:.1} s", r.seconds));
            }
        }
        r
    }

    /// The JSON object of FORMATS.md.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "file": self.file,
            "level": if self.level == 0 { Value::Null } else { json!(self.level) },
            "title": self.title,
            "status": self.status.name(),
        });
        let obj = v.as_object_mut().expect("an object");
        match self.status {
            Status::InputError => drop(obj.insert("error_kind".into(), json!("input"))),
            Status::InternalError => drop(obj.insert("error_kind".into(), json!("internal"))),
            _ => {}
        }
        if self.status == Status::Solved {
            obj.insert("solution".into(), json!(self.solution));
            obj.insert("moves".into(), json!(self.moves));
            obj.insert("pushes".into(), json!(self.pushes));
            obj.insert("optimal".into(), json!(self.optimal));
        }
        for (key, value) in [
            ("k", json!(self.k)),
            ("engine", json!(self.engine)),
            ("encoding", json!(self.encoding)),
            ("solver", json!(self.solver)),
        ] {
            if !value.is_null() {
                obj.insert(key.into(), value);
            }
        }
        obj.insert(
            "seconds".into(),
            json!((self.seconds * 1000.0).round() / 1000.0),
        );
        for (key, value) in [
            ("variables", json!(self.variables)),
            ("clauses", json!(self.clauses)),
            ("cuts", json!(self.cuts)),
            ("message", json!(self.message)),
        ] {
            if !value.is_null() {
                obj.insert(key.into(), value);
            }
        }
        v
    }

    /// Reads a report back from its JSON object (as a worker process prints it).
    pub fn from_json(v: &Value) -> Option<LevelReport> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let u = |k: &str| v.get(k).and_then(Value::as_u64);
        let status = match v.get("status")?.as_str()? {
            "solved" => Status::Solved,
            "unsolvable" => Status::Unsolvable,
            "no-plan" => Status::NoPlan,
            "timeout" => Status::Timeout,
            _ if v.get("error_kind").and_then(Value::as_str) == Some("input") => Status::InputError,
            _ => Status::InternalError,
        };
        Some(LevelReport {
            file: s("file")?,
            level: u("level")? as usize,
            title: s("title"),
            status,
            solution: s("solution"),
            moves: u("moves").map(|x| x as usize),
            pushes: u("pushes").map(|x| x as usize),
            optimal: s("optimal"),
            k: u("k").map(|x| x as usize),
            engine: s("engine"),
            encoding: s("encoding"),
            solver: s("solver"),
            seconds: v.get("seconds").and_then(Value::as_f64).unwrap_or(0.0),
            variables: u("variables"),
            clauses: u("clauses"),
            cuts: u("cuts").map(|x| x as usize),
            message: s("message"),
        })
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let name = match &self.title {
            Some(t) if *t != self.level.to_string() => format!("level {} ({t})", self.level),
            _ => format!("level {}", self.level),
        };
        let mut out = format!(
            "{} {name}: {} in {:.2} s\n",
            self.file,
            self.status.name(),
            self.seconds
        );
        if let (Some(moves), Some(pushes)) = (self.moves, self.pushes) {
            let optimal = match &self.optimal {
                Some(m) => format!("optimal in {m}"),
                None => "optimality not proved".to_string(),
            };
            out.push_str(&format!("  moves {moves}, pushes {pushes}, {optimal}\n"));
        }
        if let (Some(enc), Some(solver), Some(_)) = (&self.encoding, &self.solver, self.variables) {
            let k = self.k.map(|k| format!("k={k}, ")).unwrap_or_default();
            let engine = match self.engine.as_deref() {
                Some(e) if e != Engine::Unroll.name() => format!("engine {e}, "),
                _ => String::new(),
            };
            out.push_str(&format!(
                "  {k}{engine}encoding {enc}, solver {solver}, {} variables, {} clauses\n",
                self.variables.unwrap_or(0),
                self.clauses.unwrap_or(0)
            ));
        } else if let Some(engine) = self
            .engine
            .as_deref()
            .filter(|e| *e != Engine::Unroll.name())
        {
            // The searches unroll no formula: name the engine and its solver instead.
            let solver = match &self.solver {
                Some(s) => format!(", solver {s}"),
                None => String::new(),
            };
            out.push_str(&format!("  engine {engine}{solver}\n"));
        }
        if let Some(sol) = &self.solution {
            out.push_str(&format!("  solution: {sol}\n"));
        }
        if let Some(msg) = &self.message {
            out.push_str(&format!("  {msg}\n"));
        }
        out
    }
}
