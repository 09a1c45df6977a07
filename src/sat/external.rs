//! Any DIMACS solver run as a child process, one call per solve: the clauses so far plus
//! the assumptions as unit clauses go to a temporary file, the answer is read back.
//!
//! The command is split on white space. `{in}` in it is replaced by the input file (else
//! the file is appended as the last argument); `{out}`, if present, is replaced by a file
//! the solver writes its answer to (MiniSat's style), else the answer is read from the
//! solver's standard output. While the solver runs, the interrupt is asked every few
//! milliseconds; when it says stop, the solver process is killed.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::dimacs::{CnfBuffer, SolverAnswer, parse_answer, parse_counters};
use super::{ClauseSink, Interrupt, Lit, SatBackend, SolveResult, SolverStats};

/// How often a running solver process is looked at.
const POLL: Duration = Duration::from_millis(10);

/// An outside solver behind [`SatBackend`].
pub struct ExternalBackend {
    command: Vec<String>,
    cnf: CnfBuffer,
    model: Vec<bool>,
    last_error: Option<String>,
    interrupt: Option<Interrupt>,
    /// The conflicts and decisions the solver's output reported, summed over calls.
    conflicts: Option<u64>,
    decisions: Option<u64>,
}

/// Why a call gave no verdict.
enum Failure {
    /// The interrupt stopped it.
    Interrupted,
    /// The solver could not be run or its answer not read.
    Failed(String),
}

impl From<String> for Failure {
    fn from(why: String) -> Failure {
        Failure::Failed(why)
    }
}

/// A fresh temporary path, unique within this process.
fn temp_path(tag: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("satsoko-{}-{n}-{tag}", std::process::id()))
}

impl ExternalBackend {
    /// A backend running `command` (e.g. `"cadical -q"` or `"minisat {in} {out}"`),
    /// killed when `interrupt` answers true.
    pub fn new(command: &str, interrupt: Option<Interrupt>) -> Result<ExternalBackend, String> {
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err("the solver command is empty".into());
        }
        Ok(ExternalBackend {
            command,
            cnf: CnfBuffer::new(),
            model: Vec::new(),
            last_error: None,
            interrupt,
            conflicts: None,
            decisions: None,
        })
    }

    fn run(&mut self, assumptions: &[Lit]) -> Result<SolverAnswer, Failure> {
        let input = temp_path("in.cnf");
        let output = temp_path("out.txt");
        let units: Vec<Vec<Lit>> = assumptions.iter().map(|&l| vec![l]).collect();
        std::fs::write(&input, self.cnf.to_dimacs(&[], &units))
            .map_err(|e| format!("cannot write {}: {e}", input.display()))?;
        let mut args: Vec<String> = Vec::new();
        let (mut has_in, mut has_out) = (false, false);
        for word in &self.command[1..] {
            has_in |= word.contains("{in}");
            has_out |= word.contains("{out}");
            args.push(
                word.replace("{in}", &input.display().to_string())
                    .replace("{out}", &output.display().to_string()),
            );
        }
        if !has_in {
            args.push(input.display().to_string());
        }
        let finished = self.wait_for(&args);
        let _ = std::fs::remove_file(&input);
        let (status, stdout) = finished?;
        // The counters are summed over the calls, as an in-process solver counts them.
        let (conflicts, decisions) = parse_counters(&stdout);
        let add = |total: &mut Option<u64>, more: Option<u64>| {
            if let Some(more) = more {
                *total = Some(total.unwrap_or(0) + more);
            }
        };
        add(&mut self.conflicts, conflicts);
        add(&mut self.decisions, decisions);
        let text = if has_out {
            let t = std::fs::read_to_string(&output)
                .map_err(|e| format!("the solver wrote no answer file: {e}"))?;
            let _ = std::fs::remove_file(&output);
            t
        } else {
            stdout
        };
        match parse_answer(&text)? {
            // Solvers conventionally exit with 10 (SAT) and 20 (UNSAT); trust the text,
            // but an empty answer with one of those codes still tells the verdict.
            SolverAnswer::Unknown if status.code() == Some(20) => Ok(SolverAnswer::Unsat),
            answer => Ok(answer),
        }
    }

    /// Runs the solver with `args` until it exits (its status and standard output) or
    /// the interrupt says stop (then it is killed).
    fn wait_for(&self, args: &[String]) -> Result<(std::process::ExitStatus, String), Failure> {
        let mut child = Command::new(&self.command[0])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {:?}: {e}", self.command[0]))?;
        // Read the answer on the side, so a long one cannot fill the pipe and block.
        let mut stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if self.interrupt.as_ref().is_some_and(|stop| stop()) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    let _ = reader.join();
                    return Err(Failure::Interrupted);
                }
                Ok(None) => std::thread::sleep(POLL),
                Err(e) => return Err(format!("lost the solver process: {e}").into()),
            }
        };
        Ok((status, reader.join().unwrap_or_default()))
    }
}

impl ClauseSink for ExternalBackend {
    fn new_var(&mut self) -> Lit {
        self.cnf.new_var()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.cnf.add_clause(clause);
    }
}

impl SatBackend for ExternalBackend {
    fn name(&self) -> &'static str {
        "external"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        match self.run(assumptions) {
            Ok(SolverAnswer::Sat(model)) => {
                self.model = model;
                self.last_error = None;
                SolveResult::Sat
            }
            Ok(SolverAnswer::Unsat) => SolveResult::Unsat,
            Ok(SolverAnswer::Unknown) => {
                self.last_error = Some("the solver gave no verdict".into());
                SolveResult::Unknown
            }
            Err(Failure::Interrupted) => {
                self.last_error = None;
                SolveResult::Unknown
            }
            Err(Failure::Failed(e)) => {
                self.last_error = Some(e);
                SolveResult::Unknown
            }
        }
    }

    fn value(&self, lit: Lit) -> bool {
        SolverAnswer::value(&self.model, lit)
    }

    fn assumptions_used(&self) -> bool {
        // Assumptions were unit clauses: the answer cannot tell them apart.
        true
    }

    fn failure(&self) -> Option<String> {
        self.last_error.clone()
    }

    fn stats(&self) -> SolverStats {
        SolverStats {
            variables: self.cnf.variables() as u64,
            clauses: self.cnf.clauses.len() as u64,
            conflicts: self.conflicts,
            decisions: self.decisions,
        }
    }
}
