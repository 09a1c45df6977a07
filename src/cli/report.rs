//! One level's result as the CLI shows it: text, or a JSON line (docs/formats.md).
//! An engine's outcome becomes a report here, and its data become words.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{Outcome, Statistics, StopReason, Verdict};
use crate::game::Metric;

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
/// Exit code: interrupted by Ctrl-C (the shell's convention for SIGINT).
pub const EXIT_INTERRUPTED: i32 = 130;

/// The status of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A verified plan was found.
    Solved,
    /// Proved unsolvable.
    Unsolvable,
    /// No plan within the bound.
    NoPlan,
    /// Time ran out.
    Timeout,
    /// The level could not be solved: see the error kind.
    Error,
}

impl Status {
    /// The `status` field of the JSON line.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::NoPlan => "no-plan",
            Status::Timeout => "timeout",
            Status::Error => "error",
        }
    }
}

/// What kind of error a level met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// The input (or an option) cannot be used: the user can fix it.
    Input,
    /// A bug in satsoko.
    Internal,
}

/// What stopped a search short of an answer (the `stop` field of a `timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopKind {
    /// The time limit, or Ctrl-C.
    Time,
    /// A store of positions or decision-diagram nodes, or a formula, reached its
    /// memory limit.
    Memory,
    /// A search that skips positions ran out of them.
    GaveUp,
    /// The proven bound met the best plan.
    Closed,
}

impl StopKind {
    /// The kind of an engine's stop reason.
    pub fn of(why: &StopReason) -> StopKind {
        match why {
            StopReason::Time => StopKind::Time,
            StopReason::Memory { .. }
            | StopReason::Nodes { .. }
            | StopReason::FormulaFull { .. } => StopKind::Memory,
            StopReason::GaveUp => StopKind::GaveUp,
            StopReason::Closed => StopKind::Closed,
        }
    }
}

/// The counters of an engine, as the JSON line carries them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportStats {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    queries: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refuted: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lemmas: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base_variables: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base_clauses: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    positions: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    windows: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    windows_shortened: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pushes_saved: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subgoals: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    backtracks: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dead_ends: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    layers: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    peak_nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    tables_full: bool,
}

impl ReportStats {
    fn of(s: &Statistics) -> Option<ReportStats> {
        let r = ReportStats {
            queries: s.queries,
            refuted: s.refuted,
            lemmas: s.lemmas,
            base_variables: s.base_formula.map(|f| f.variables),
            base_clauses: s.base_formula.map(|f| f.clauses),
            positions: s.positions,
            windows: s.windows,
            windows_shortened: s.windows_shortened,
            pushes_saved: s.pushes_saved,
            subgoals: s.subgoals,
            backtracks: s.backtracks,
            dead_ends: s.dead_ends,
            layers: s.layers,
            peak_nodes: s.peak_nodes,
            tables_full: s.tables_full,
        };
        (r != ReportStats::default()).then_some(r)
    }

    /// The counters in words, for the text report (`None`: nothing worth a line).
    fn words(&self) -> Option<String> {
        let mut lines = Vec::new();
        if let Some(positions) = self.positions {
            lines.push(format!("{positions} positions stored"));
        }
        if let (Some(layers), Some(nodes)) = (self.layers, self.peak_nodes) {
            let layers = plural(layers, "breadth-first layer");
            lines.push(format!(
                "{layers}, at most {nodes} decision-diagram nodes held"
            ));
        }
        if let (Some(windows), Some(shorter), Some(saved)) =
            (self.windows, self.windows_shortened, self.pushes_saved)
        {
            let (w, p) = (plural(windows, "window"), plural(saved, "push"));
            lines.push(format!(
                "SAT shortening: {w} asked, {shorter} made shorter, {p} saved"
            ));
        }
        if let (Some(reached), Some(back)) = (self.subgoals, self.backtracks) {
            let dead = (self.dead_ends.filter(|&d| d > 0))
                .map(|d| format!(", {} proved", plural(d, "dead end")))
                .unwrap_or_default();
            lines.push(format!(
                "goal by goal: {reached} subgoals reached by the SAT solver, {back} given up{dead}"
            ));
        }
        lines.extend(self.pdr_words());
        if self.tables_full {
            lines.push(
                "a store of positions or lemmas reached its memory limit and stopped growing \
                 (pdr's search then ends, its lemmas learn no more)"
                    .to_string(),
            );
        }
        (!lines.is_empty()).then(|| lines.join("\n  "))
    }

    /// `pdr`'s counters in words.
    fn pdr_words(&self) -> Option<String> {
        let queries = self.queries?;
        let refuted = plural(self.refuted.unwrap_or(0), "position");
        let lemmas = plural(self.lemmas.unwrap_or(0), "lemma");
        let questions = plural(queries, "SAT question");
        let formula = match (self.base_variables, self.base_clauses) {
            (Some(v), Some(c)) => {
                format!("; one-push formula of {v} variables and {c} clauses")
            }
            _ => String::new(),
        };
        Some(format!(
            "{refuted} refuted for good, {questions}, {lemmas}{formula}"
        ))
    }
}

/// Everything reported about one level, in the order of the JSON line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelReport {
    /// The file as the user named it.
    pub file: String,
    /// 1-based level number in the file (`None`: an error about the whole file).
    pub level: Option<usize>,
    /// The level's title, if any.
    pub title: Option<String>,
    /// The verdict.
    pub status: Status,
    /// For errors: whose fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    /// The LURD solution, when solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// Moves of the solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<usize>,
    /// Pushes of the solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pushes: Option<usize>,
    /// When solved: the metric the solution is proved optimal for (`Some(None)`, a
    /// JSON null: not proved).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub optimal: Option<Option<Metric>>,
    /// The proven lower bound on the optimum, in the metric (when solved, equal to the
    /// plan's length if it is optimal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<usize>,
    /// When solved with a lower bound: how far the plan is above the bound, in percent
    /// of the plan's length in the metric, to one decimal ([`gap_percent`]); 0 for an
    /// optimal plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap_percent: Option<f64>,
    /// Seconds until the first plan was found.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "milliseconds_opt"
    )]
    pub first_seconds: Option<f64>,
    /// What found the plan reported (an engine, or a part of one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_by: Option<String>,
    /// Steps of the encoding (the k that was satisfiable, or the bound tried).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<usize>,
    /// The engine's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The encoding's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// The SAT solver's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver: Option<String>,
    /// Wall-clock seconds (written to the millisecond).
    #[serde(serialize_with = "milliseconds")]
    pub seconds: f64,
    /// Variables of the formula at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables: Option<u64>,
    /// Clauses of the formula at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clauses: Option<u64>,
    /// Cut clauses the lazy pushes encoding added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuts: Option<u64>,
    /// The engine's counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<ReportStats>,
    /// An explanation (errors, unsolvability reasons, notes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The most memory the solving process held resident, in MiB (`bench` workers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_mib: Option<u64>,
    /// Why the verdict is what it is, for `unsolvable` (the proof), `no-plan` (the bound)
    /// and `timeout` (what stopped the search); the same words as `message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For `timeout`, what stopped the search: `time` (the limit or Ctrl-C), `memory`
    /// (a store of positions or nodes, or a formula, reached its memory limit),
    /// `gave-up` (a search that skips positions ran out of them) or `closed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopKind>,
    /// With `--proof`, for an optimal plan: whether its certificate was written and
    /// checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certified: Option<bool>,
    /// The certificate's formula (its proof is beside it, `.lrat`), or why there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<String>,
}

/// Reads a field that is present, even as null, as `Some`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

fn milliseconds<S: Serializer>(seconds: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((seconds * 1000.0).round() / 1000.0)
}

fn milliseconds_opt<S: Serializer>(seconds: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match seconds {
        Some(x) => milliseconds(x, s),
        None => s.serialize_none(),
    }
}

impl LevelReport {
    /// A report with only the identity of the level filled in.
    pub fn new(file: &str, level: Option<usize>, title: Option<String>, status: Status) -> Self {
        LevelReport {
            file: file.to_string(),
            level,
            title,
            status,
            error_kind: None,
            solution: None,
            moves: None,
            pushes: None,
            optimal: None,
            lower_bound: None,
            gap_percent: None,
            first_seconds: None,
            found_by: None,
            k: None,
            engine: None,
            encoding: None,
            solver: None,
            seconds: 0.0,
            variables: None,
            clauses: None,
            cuts: None,
            stats: None,
            message: None,
            peak_mib: None,
            reason: None,
            stop: None,
            certified: None,
            certificate: None,
        }
    }

    /// An error report: `kind` says whose fault, `message` what is wrong.
    pub fn error(
        file: &str,
        level: Option<usize>,
        title: Option<String>,
        kind: ErrorKind,
        message: String,
    ) -> Self {
        let mut r = LevelReport::new(file, level, title, Status::Error);
        r.error_kind = Some(kind);
        r.message = Some(message);
        r
    }

    /// The report of an engine's outcome.
    pub fn from_outcome(file: &str, level: usize, title: Option<String>, o: &Outcome) -> Self {
        let status = match o.verdict {
            Verdict::Solved { .. } => Status::Solved,
            Verdict::Unsolvable { .. } => Status::Unsolvable,
            Verdict::NoPlan { .. } => Status::NoPlan,
            Verdict::Stopped { .. } => Status::Timeout,
        };
        let mut r = LevelReport::new(file, Some(level), title, status);
        r.k = o.k;
        r.lower_bound = o.lower_bound;
        r.first_seconds = o.first_plan.map(|(after, _)| after.as_secs_f64());
        r.found_by = o.found_by.map(str::to_string);
        r.engine = Some(o.engine.to_string());
        r.encoding = o.encoding.map(|e| e.name().to_string());
        r.solver = o.solver.clone();
        r.seconds = o.elapsed.as_secs_f64();
        r.variables = o.formula.map(|f| f.variables);
        r.clauses = o.formula.map(|f| f.clauses);
        r.cuts = o.stats.cuts;
        r.stats = ReportStats::of(&o.stats);
        r.message = o.fallback_from.map(|asked| {
            format!(
                "the {asked} encoding does not model ice; solved with the moves encoding instead"
            )
        });
        match &o.verdict {
            Verdict::Solved { plan, optimal } => {
                r.solution = Some(plan.lurd());
                r.moves = Some(plan.move_count());
                r.pushes = Some(plan.push_count());
                r.optimal = Some(optimal.then_some(o.metric));
                r.gap_percent = o
                    .lower_bound
                    .map(|bound| gap_percent(plan.count(o.metric), bound));
            }
            Verdict::Unsolvable { reason } => r.message = Some(reason.clone()),
            Verdict::NoPlan { bound } => {
                r.message = Some(format!("no plan of at most {bound} steps exists"));
            }
            Verdict::Stopped { why } => {
                r.stop = Some(StopKind::of(why));
                r.message = Some(match why {
                    StopReason::Time => format!("no answer within {:.1} s", r.seconds),
                    StopReason::Memory { positions } => {
                        format!("stopped after storing {positions} positions (the memory limit)")
                    }
                    StopReason::Nodes { nodes } => {
                        format!("stopped holding {nodes} decision-diagram nodes (the memory limit)")
                    }
                    StopReason::FormulaFull { size } => format!(
                        "stopped with a formula of {} variables and {} clauses (the memory \
                         limit)",
                        size.variables, size.clauses
                    ),
                    StopReason::Closed => "stopped: the bound met the best plan".to_string(),
                    StopReason::GaveUp => {
                        "no plan, and no proof that there is none: the plan finder skips \
                         positions, the goal-by-goal planner caps its subgoals and its \
                         formulas, and the plan of fewest box lines (pushes-folded) may \
                         have more pushes than --max-steps allows"
                            .to_string()
                    }
                });
            }
        }
        if matches!(
            r.status,
            Status::Unsolvable | Status::NoPlan | Status::Timeout
        ) {
            r.reason = r.message.clone();
        }
        r
    }

    /// How far the plan is above its proven bound, in percent (`gap_percent`; 0 for a
    /// plan proved optimal, also in reports written before the field existed); `None`
    /// without a plan or a bound.
    pub fn bound_gap(&self) -> Option<f64> {
        if self.optimal.flatten().is_some() {
            return Some(0.0);
        }
        self.gap_percent
    }

    /// Whether this is an input error.
    pub fn is_input_error(&self) -> bool {
        self.error_kind == Some(ErrorKind::Input)
    }

    /// The exit code this report alone would give.
    pub fn exit_code(&self) -> i32 {
        match (self.status, self.error_kind) {
            (Status::Solved, _) => EXIT_OK,
            (Status::Unsolvable, _) => EXIT_UNSOLVABLE,
            (Status::NoPlan, _) => EXIT_NO_PLAN,
            (Status::Timeout, _) => EXIT_TIMEOUT,
            (Status::Error, Some(ErrorKind::Input)) => EXIT_INPUT,
            (Status::Error, _) => EXIT_INTERNAL,
        }
    }

    /// The JSON line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report is always JSON")
    }

    /// Reads a report back from its JSON line (as a worker process prints it).
    pub fn from_json(line: &str) -> Option<LevelReport> {
        serde_json::from_str(line).ok()
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let number = self.level.unwrap_or(0);
        let name = match &self.title {
            Some(t) if *t != number.to_string() => format!("level {number} ({t})"),
            _ => format!("level {number}"),
        };
        let status = match self.stop {
            Some(StopKind::Memory) => "stopped at its memory limit",
            Some(StopKind::GaveUp) => "gave up",
            Some(StopKind::Closed) => "stopped",
            _ => self.status.name(),
        };
        let mut out = format!("{} {name}: {status} in {:.2} s\n", self.file, self.seconds);
        if let (Some(moves), Some(pushes)) = (self.moves, self.pushes) {
            let optimal = match (self.optimal.flatten(), self.lower_bound) {
                (Some(m), _) => match (self.certified, &self.certificate) {
                    (Some(true), _) => format!("optimal in {m} (certified)"),
                    (Some(false), Some(why)) => format!("optimal in {m} (not certified: {why})"),
                    _ => format!("optimal in {m}"),
                },
                (None, Some(lb)) => match self.gap_percent {
                    Some(gap) => format!("optimal ≥ {lb} (gap {gap:.1}%)"),
                    None => format!("optimal ≥ {lb}"),
                },
                (None, None) => "optimality not proved".to_string(),
            };
            out.push_str(&format!("  moves {moves}, pushes {pushes}, {optimal}\n"));
        }
        if let (Some(true), Some(cnf)) = (self.certified, &self.certificate) {
            out.push_str(&format!("  certificate: {cnf} and its .lrat refutation\n"));
        }
        if let (Some(first), Some(by)) = (self.first_seconds, &self.found_by)
            && self.optimal.flatten().is_none()
        {
            out.push_str(&format!(
                "  plan found by {by}; first plan after {first:.2} s\n"
            ));
        } else if self.status == Status::Timeout
            && let Some(lb) = self.lower_bound
        {
            out.push_str(&format!("  no plan; optimal ≥ {lb}\n"));
        }
        // The engine, its formula and solver.
        let mut parts = Vec::new();
        if let Some(k) = self.k.filter(|_| self.variables.is_some()) {
            parts.push(format!("k={k}"));
        }
        if let Some(engine) = self.engine.as_deref() {
            parts.push(format!("engine {engine}"));
        }
        if let Some(encoding) = &self.encoding {
            parts.push(format!("encoding {encoding}"));
        }
        if let Some(solver) = &self.solver {
            parts.push(format!("solver {solver}"));
        }
        if let (Some(v), Some(c)) = (self.variables, self.clauses) {
            parts.push(format!("{v} variables, {c} clauses"));
        }
        if !parts.is_empty() {
            out.push_str(&format!("  {}\n", parts.join(", ")));
        }
        if let Some(sol) = &self.solution {
            out.push_str(&format!("  solution: {sol}\n"));
        }
        if let Some(msg) = &self.message {
            out.push_str(&format!("  {msg}\n"));
        }
        if let Some(words) = self.stats.as_ref().and_then(ReportStats::words) {
            out.push_str(&format!("  {words}\n"));
        }
        out
    }
}

/// How far a plan of `length` steps is above the proven lower `bound` on the optimum,
/// in percent of the plan: (length − bound) / length × 100, rounded to one decimal.
/// A bound at or above the plan (an optimal plan) gives 0.
pub fn gap_percent(length: usize, bound: usize) -> f64 {
    if length == 0 {
        return 0.0;
    }
    let gap = length.saturating_sub(bound) as f64 / length as f64 * 100.0;
    (gap * 10.0).round() / 10.0
}

/// "1 window", "2 windows", "1 push", "2 pushes".
pub(crate) fn plural(n: u64, word: &str) -> String {
    match (n, word.ends_with('h')) {
        (1, _) => format!("1 {word}"),
        (_, true) => format!("{n} {word}es"),
        _ => format!("{n} {word}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trips_and_keeps_the_field_order() {
        let mut r = LevelReport::new("f.xsb", Some(3), None, Status::Solved);
        r.solution = Some("rR".into());
        r.moves = Some(2);
        r.pushes = Some(1);
        r.optimal = Some(None);
        r.seconds = 0.12345;
        let line = r.to_json();
        assert_eq!(
            line,
            r#"{"file":"f.xsb","level":3,"title":null,"status":"solved","solution":"rR","moves":2,"pushes":1,"optimal":null,"seconds":0.123}"#
        );
        let back = LevelReport::from_json(&line).unwrap();
        assert_eq!(back.optimal, Some(None));
        let e = LevelReport::error("f.xsb", None, None, ErrorKind::Input, "bad".into());
        let back = LevelReport::from_json(&e.to_json()).unwrap();
        assert!(back.is_input_error());
        assert_eq!(back.exit_code(), EXIT_INPUT);
    }

    #[test]
    fn the_gap_is_the_share_of_the_plan_above_the_bound() {
        assert_eq!(gap_percent(97, 90), 7.2);
        assert_eq!(gap_percent(100, 99), 1.0);
        assert_eq!(gap_percent(3, 2), 33.3);
        assert_eq!(gap_percent(8, 8), 0.0);
        assert_eq!(gap_percent(8, 9), 0.0);
        assert_eq!(gap_percent(0, 0), 0.0);
    }

    #[test]
    fn a_plan_above_its_bound_shows_the_gap() {
        let mut r = LevelReport::new("f.xsb", Some(3), None, Status::Solved);
        (r.moves, r.pushes, r.lower_bound) = (Some(230), Some(97), Some(90));
        r.optimal = Some(None);
        r.gap_percent = Some(gap_percent(97, 90));
        assert!(
            r.to_text()
                .contains("  moves 230, pushes 97, optimal ≥ 90 (gap 7.2%)\n"),
            "{}",
            r.to_text()
        );
        let line = r.to_json();
        assert!(
            line.contains(r#""lower_bound":90,"gap_percent":7.2,"#),
            "{line}"
        );
        assert_eq!(
            LevelReport::from_json(&line).unwrap().gap_percent,
            Some(7.2)
        );
        // Optimal: the gap is 0 and the text says optimal.
        r.optimal = Some(Some(Metric::Pushes));
        (r.lower_bound, r.gap_percent) = (Some(97), Some(0.0));
        assert!(r.to_text().contains("pushes 97, optimal in pushes\n"));
        assert_eq!(r.bound_gap(), Some(0.0));
        // No bound: no gap.
        (r.optimal, r.lower_bound, r.gap_percent) = (Some(None), None, None);
        assert!(r.to_text().contains("pushes 97, optimality not proved\n"));
        assert_eq!(r.bound_gap(), None);
    }
}
