//! The corpus and the fixtures: the seeds every input is mutated from (the files under
//! `levels/`, boards beyond the size limits, and generated answers, solutions, Binairo
//! grids and LRAT proofs), and the fixed levels and formulas the answer and solution
//! targets run against.
//!
//! Apart because it is built once, before the run, by solving and certifying small
//! levels; nothing here runs on a mutated input.

use std::path::{Path, PathBuf};

use satsoko::analysis::Analysis;
use satsoko::cert::check::{Formula, parse_cnf};
use satsoko::encode::EncodingKind;
use satsoko::encode::formula::Unrolled;
use satsoko::engine::registry::by_name;
use satsoko::engine::{self, Incumbent, Request, Stop, Tuning, Verdict};
use satsoko::game::{Metric, Plan};
use satsoko::level::{Level, parse_xsb};
use satsoko::sat::{
    ClauseSink, Lit, SatBackend, SolveResult, SolverChoice, SolverName, VarisatBackend,
};

use crate::targets::Target;

/// One corpus entry.
pub(crate) struct Seed {
    pub(crate) target: Target,
    /// The target's context: the level of a solution, the formula of an answer.
    pub(crate) context: usize,
    pub(crate) bytes: Vec<u8>,
}

/// Every seed, by target.
pub(crate) struct Corpus {
    pub(crate) seeds: Vec<Seed>,
    pub(crate) by_target: [Vec<usize>; 5],
}

impl Corpus {
    fn add(&mut self, target: Target, context: usize, bytes: Vec<u8>) {
        self.by_target[target.index()].push(self.seeds.len());
        self.seeds.push(Seed {
            target,
            context,
            bytes,
        });
    }
}

/// The fixed things the answer and solution targets work against.
pub(crate) struct Fixtures {
    /// Levels the solution seeds solve.
    pub(crate) levels: Vec<Level>,
    /// Formulas the answer seeds answer: (level, encoding, bound).
    pub(crate) formulas: Vec<(Level, EncodingKind, usize)>,
}

/// What each thread keeps: the fixtures, with the formulas built once.
pub(crate) struct Context<'a> {
    pub(crate) fixtures: &'a Fixtures,
    pub(crate) unrolled: Vec<Unrolled>,
    /// The formula an LRAT input without `%%` is checked against.
    pub(crate) small_formula: Formula,
}

/// A small unsatisfiable formula (every clause over two variables), and its refutation.
const SMALL_CNF: &str = "c x\np cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
const SMALL_PROOF: &str = "5 2 0 1 2 0\n5 d 1 0\n6 0 5 3 4 0\n";

impl<'a> Context<'a> {
    pub(crate) fn new(fixtures: &'a Fixtures) -> Context<'a> {
        Context {
            fixtures,
            unrolled: (fixtures.formulas.iter())
                .map(|(level, kind, k)| Unrolled::new(level, *kind, *k))
                .collect(),
            small_formula: parse_cnf(SMALL_CNF).expect("the small formula parses"),
        }
    }
}

/// Level `number` (1-based) of a bundled XSB file.
fn read_level(path: &str, number: usize) -> Level {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_xsb(path, &text)
        .unwrap_or_else(|e| panic!("{e}"))
        .remove(number - 1)
}

/// Seed texts, each with its context (a fixture's index).
pub(crate) type Seeds = Vec<(usize, String)>;

/// The solution levels and answer formulas, with the plans and models that seed them.
pub(crate) fn fixtures() -> (Fixtures, Seeds, Seeds) {
    let levels = vec![
        read_level("levels/microban.xsb", 1),
        read_level("levels/microban.xsb", 2),
        read_level("levels/examples/solvable.xsb", 1),
        read_level("levels/examples/solvable.xsb", 4),
        read_level("levels/examples/moves_vs_pushes.xsb", 1),
        read_level("levels/ice/ice.xsb", 1),
        read_level("levels/ice/ice.xsb", 4),
        read_level("levels/ice/ice.xsb", 8),
    ];
    let mut solutions = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        let metric = if i % 2 == 0 {
            Metric::Pushes
        } else {
            Metric::Moves
        };
        if let Some(plan) = solve_fully(level, metric) {
            let lurd = plan.lurd();
            solutions.push((i, lurd.to_uppercase()));
            solutions.push((i, run_length(&lurd)));
            solutions.push((i, format!("2({lurd})")));
            solutions.push((i, lurd));
        }
    }
    let plain = read_level("levels/microban.xsb", 1);
    let small = read_level("levels/examples/solvable.xsb", 2);
    let ice = read_level("levels/ice/ice.xsb", 1);
    let formulas = vec![
        (plain.clone(), EncodingKind::Pushes, 8),
        (small.clone(), EncodingKind::Moves, 6),
        (ice, EncodingKind::Moves, 3),
        (plain, EncodingKind::Pushes, 6),
        (small, EncodingKind::Pushes, 3),
    ];
    let mut answers = Vec::new();
    for (i, (level, kind, k)) in formulas.iter().enumerate() {
        let unrolled = Unrolled::new(level, *kind, *k);
        let mut solver = VarisatBackend::new();
        for _ in 0..unrolled.cnf.variables() {
            solver.new_var();
        }
        for clause in &unrolled.cnf.clauses {
            solver.add_clause(clause);
        }
        match solver.solve(&[]) {
            SolveResult::Sat => {
                let lits: Vec<String> = (1..=unrolled.cnf.variables())
                    .map(|v| {
                        let l = Lit::positive(v);
                        if solver.value(l) { l } else { !l }.to_string()
                    })
                    .collect();
                let mut competition = String::from("c fuzz seed\ns SATISFIABLE\n");
                for chunk in lits.chunks(12) {
                    competition.push_str(&format!("v {}\n", chunk.join(" ")));
                }
                competition.push_str("v 0\n");
                answers.push((i, competition));
                answers.push((i, format!("SAT\n{} 0\n", lits.join(" "))));
                answers.push((i, format!("{} 0", lits.join(" "))));
            }
            _ => answers.push((i, "s UNSATISFIABLE\n".into())),
        }
        answers.push((i, "UNSAT\n".into()));
        answers.push((i, "s UNKNOWN\n".into()));
    }
    (Fixtures { levels, formulas }, solutions, answers)
}

/// A LURD string run-length encoded (`dlUrrrdL` → `dlU3rdL`).
fn run_length(lurd: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = lurd.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let n = chars[i..].iter().take_while(|&&c| c == chars[i]).count();
        if n > 1 {
            out.push_str(&n.to_string());
        }
        out.push(chars[i]);
        i += n;
    }
    out
}

/// A plan of `level` by `astar` without a time limit (the fixtures are small).
fn solve_fully(level: &Level, metric: Metric) -> Option<Plan> {
    let request = Request {
        metric,
        prove: true,
        encoding: None,
        solver: SolverChoice::default(),
        max_steps: None,
        tuning: Tuning::default(),
    };
    let engine = by_name("astar").expect("astar");
    let board = Incumbent::new(metric);
    match engine::solve(engine, level, &request, &Stop::never(), &board) {
        Ok(outcome) => match outcome.verdict {
            Verdict::Solved { plan, .. } => Some(plan),
            _ => None,
        },
        Err(_) => None,
    }
}

/// Every file under `dir`, sorted.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The paragraphs of a text (runs of lines between blank lines), for collections.
fn paragraphs(bytes: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current).into_bytes());
            }
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    if !current.is_empty() {
        out.push(current.into_bytes());
    }
    out
}

/// A board far larger than any real one: `side` × `side` cells, the player and a box in
/// the top corner and the goal in the bottom one, as XSB or as a numeric grid.
fn big_board(side: usize, numeric: bool) -> Vec<u8> {
    let mut rows = vec![vec![b' '; side]; side];
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if r == 0 || c == 0 || r + 1 == side || c + 1 == side {
                *cell = b'#';
            }
        }
    }
    rows[1][1] = b'@';
    rows[side - 3][side - 3] = b'$';
    rows[side - 2][side - 2] = b'.';
    let mut out = Vec::new();
    for row in rows {
        if numeric {
            let codes: Vec<&str> = (row.iter())
                .map(|&c| match c {
                    b'#' => "99",
                    b'@' => "17",
                    b'$' => "15",
                    b'.' => "20",
                    _ => "10",
                })
                .collect();
            out.extend_from_slice(codes.join(" ").as_bytes());
        } else {
            out.extend_from_slice(&row);
        }
        out.push(b'\n');
    }
    out
}

/// The corpus: every file under levels/ (whole, and collections paragraph by
/// paragraph), boards beyond the size limits, and the generated answers, solutions,
/// Binairo grids and LRAT proofs.
pub(crate) fn corpus(
    fixtures: &Fixtures,
    solutions: &[(usize, String)],
    answers: &[(usize, String)],
) -> Corpus {
    let mut corpus = Corpus {
        seeds: Vec::new(),
        by_target: Default::default(),
    };
    let mut files = Vec::new();
    files_under(Path::new("levels"), &mut files);
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let target = if path.starts_with("levels/binairo") {
            Target::Binairo
        } else {
            Target::Level
        };
        let parts = paragraphs(&bytes);
        if parts.len() > 1 {
            for part in parts {
                corpus.add(target, 0, part);
            }
        }
        corpus.add(target, 0, bytes);
    }
    for (side, numeric) in [(40, false), (257, false), (300, true), (120, true)] {
        corpus.add(Target::Level, 0, big_board(side, numeric));
    }
    for text in [
        "10000#|#@$.#|10000#\n",
        "#####\n#@$.#\n#####\n",
        "5#|#@$.#|5#",
        "((99,99,99,99,99),(99,17,15,20,99),(99,99,99,99,99))",
        "[[99,99,99],[99,17,99]]\n",
        "99 99 99 99 99\n99 17 15 20 99\n99 99 99 99 99\n",
        "######\n#1 0$#\n######\n",
        "#######\n#@~~$.#\n#######\n",
    ] {
        corpus.add(Target::Level, 0, text.as_bytes().to_vec());
    }
    for (context, lurd) in solutions {
        corpus.add(Target::Solution, *context, lurd.clone().into_bytes());
        // The level with the solution stored after it, as SOK writes it.
        let level = &fixtures.levels[*context];
        let text = format!("; {context}\n{level}Title: t\nSolution\n{lurd}\n");
        corpus.add(Target::Level, 0, text.into_bytes());
    }
    for (context, answer) in answers {
        corpus.add(Target::Answer, *context, answer.clone().into_bytes());
    }
    for text in [
        "10\n01\n",
        "....\n....\n....\n....\n",
        "1..0\n....\n..1.\n....\n",
        "; t\n1 0 . .\n. . . .\n. . . .\n. . . .\n\n; u\n10\n01\n",
        "000.\n....\n....\n....\n",
        "1010\n1010\n....\n....\n",
        "......\n......\n......\n......\n......\n......\n",
    ] {
        corpus.add(Target::Binairo, 0, text.as_bytes().to_vec());
    }
    corpus.add(Target::Lrat, 0, SMALL_PROOF.as_bytes().to_vec());
    corpus.add(
        Target::Lrat,
        0,
        format!("{SMALL_CNF}\n%%\n{SMALL_PROOF}").into_bytes(),
    );
    corpus.add(
        Target::Lrat,
        0,
        "p cnf 1 2\n1 0\n-1 0\n%%\n3 0 1 2 0\n".as_bytes().to_vec(),
    );
    for (path, number) in [
        ("levels/examples/solvable.xsb", 3),
        ("levels/microban.xsb", 1),
    ] {
        if let Some(text) = certificate(&read_level(path, number)) {
            corpus.add(Target::Lrat, 0, text.into_bytes());
        }
    }
    corpus
}

/// A certificate of `level`'s push optimum as one LRAT input: its formula, `%%`, its
/// proof.
fn certificate(level: &Level) -> Option<String> {
    let optimum = solve_fully(level, Metric::Pushes)?.push_count();
    let dir = std::env::temp_dir().join(format!("satsoko-fuzz-{}", std::process::id()));
    let cert = satsoko::cert::certify(
        level,
        &Analysis::new(level),
        (Metric::Pushes, optimum),
        &dir,
        "seed",
        SolverName::Varisat,
        &Stop::never(),
    );
    let text = cert.ok().and_then(|c| {
        let cnf = std::fs::read_to_string(&c.cnf).ok()?;
        let proof = std::fs::read_to_string(&c.lrat).ok()?;
        Some(format!("{cnf}\n%%\n{proof}"))
    });
    let _ = std::fs::remove_dir_all(&dir);
    text
}
