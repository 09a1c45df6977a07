//! `satsoko encode` and `satsoko decode`: DIMACS out to other solvers, answers back in.

use std::io::Read;

use super::args::{DecodeArgs, EncodeArgs, FormatArg};
use super::config::format_of;
use super::input::read_level;
use super::report::{EXIT_INPUT, EXIT_NO_PLAN, EXIT_OK, ErrorKind, LevelReport, Status};
use crate::binairo::grid::{Puzzle, parse};
use crate::encode::formula::Unrolled;
use crate::encode::{EncodingKind, dimspec, pddl};
use crate::engine::unroll::check_supported;
use crate::level::Level;
use crate::sat::dimacs::{SolverAnswer, parse_answer};

/// The header lines every CNF file starts with.
fn header(file: &str, level: &Level, kind: EncodingKind, k: usize) -> Vec<String> {
    vec![
        format!("satsoko {} CNF", env!("CARGO_PKG_VERSION")),
        format!(
            "level {file} #{} ({}), bound {k}, encoding {kind}",
            level.number,
            level.name()
        ),
        format!(
            "decode with: satsoko decode {file} --level {} --steps {k} --encoding {kind} --model ANSWER",
            level.number
        ),
    ]
}

/// Reads level `number` of `file` and checks that `encoding` can express it; on failure
/// the reason is printed and `None` returned.
fn load(
    file: &std::path::Path,
    number: usize,
    encoding: EncodingKind,
    format: Option<FormatArg>,
) -> Option<Level> {
    let level = read_level(file, number, format.map(format_of))
        .map_err(|e| eprintln!("error: {e}"))
        .ok()?;
    if let Err(e) = check_supported(&level, encoding) {
        eprintln!("error: {}: level {}: {e}", file.display(), level.number);
        return None;
    }
    Some(level)
}

/// Puzzle `number` (1-based) of the Binairo file `path`.
fn binairo_puzzle(path: &std::path::Path, number: usize) -> Result<Puzzle, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut puzzles = parse(&text);
    let available = puzzles.len();
    if number == 0 || number > available {
        return Err(format!(
            "{name}: there is no puzzle {number} (the file has {available}); choose one with \
             --level N"
        ));
    }
    puzzles
        .swap_remove(number - 1)
        .map_err(|e| format!("{name}: {e}"))
}

/// Writes the PDDL problem of the level (and, if asked, the domain) with `write`;
/// the exit code.
fn write_pddl(
    args: &EncodeArgs,
    format: Option<FormatArg>,
    write: impl Fn(Option<&std::path::Path>, String) -> Result<(), String>,
) -> i32 {
    let level = match read_level(&args.file, args.level, format.map(format_of)) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let name = format!("{} {}", file_stem(&args.file), level.number);
    let written = pddl::problem(&level, &name)
        .map_err(|e| format!("{}: level {}: {e}", args.file.display(), level.number))
        .and_then(|text| write(args.output.as_deref(), text))
        .and_then(|()| match &args.pddl_domain {
            Some(path) => write(Some(path), pddl::DOMAIN.to_string()),
            None => Ok(()),
        });
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_INPUT
        }
    }
}

/// The file name of `path` without its extension (`level` if it has none).
fn file_stem(path: &std::path::Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level".into())
}

/// Runs `encode` and returns the exit code.
pub fn run_encode(args: &EncodeArgs, format: Option<FormatArg>) -> i32 {
    let write = |path: Option<&std::path::Path>, text: String| -> Result<(), String> {
        match path {
            Some(p) => {
                std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
            }
            None => {
                use std::io::Write;
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
                Ok(())
            }
        }
    };
    if args.binairo {
        let written = binairo_puzzle(&args.file, args.level).and_then(|p| {
            write(
                args.output.as_deref(),
                super::binairo::cnf_text(&args.file, &p),
            )
        });
        return match written {
            Ok(()) => EXIT_OK,
            Err(e) => {
                eprintln!("error: {e}");
                EXIT_INPUT
            }
        };
    }
    if args.pddl {
        return write_pddl(args, format, write);
    }
    let Some(level) = load(&args.file, args.level, args.encoding, format) else {
        return EXIT_INPUT;
    };
    let file = args.file.display().to_string();
    let steps = args
        .steps
        .unwrap_or(super::args::StepRange { from: 0, to: 0 });
    let result = if args.dimspec {
        let header = vec![
            format!("satsoko {} DIMSPEC", env!("CARGO_PKG_VERSION")),
            format!("level {file} #{} ({})", level.number, level.name()),
        ];
        let text = dimspec::write(&level, args.encoding, &header);
        text.and_then(|t| write(args.output.as_deref(), t))
    } else if let Some(dir) = &args.out_dir {
        let stem = file_stem(&args.file);
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))
            .and_then(|_| {
                for k in steps.from..=steps.to {
                    let unrolled = Unrolled::new(&level, args.encoding, k);
                    let path = dir.join(format!("{stem}-{}-k{k}.cnf", level.number));
                    write(
                        Some(&path),
                        unrolled.to_dimacs(&header(&file, &level, args.encoding, k)),
                    )?;
                }
                Ok(())
            })
    } else if steps.from != steps.to {
        Err("a range of bounds needs --out-dir DIR (one file per bound)".into())
    } else {
        let k = steps.to;
        let unrolled = Unrolled::new(&level, args.encoding, k);
        write(
            args.output.as_deref(),
            unrolled.to_dimacs(&header(&file, &level, args.encoding, k)),
        )
    };
    match result {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_INPUT
        }
    }
}

/// Runs `decode` and returns the exit code.
pub fn run_decode(args: &DecodeArgs, format: Option<FormatArg>) -> i32 {
    let Some(level) = load(&args.file, args.level, args.encoding, format) else {
        return EXIT_INPUT;
    };
    let mut text = String::new();
    let read = if args.model.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(&args.model).map(|t| text = t)
    };
    if let Err(e) = read {
        eprintln!("error: cannot read the model {}: {e}", args.model.display());
        return EXIT_INPUT;
    }
    let file = args.file.display().to_string();
    let model_name = args.model.display().to_string();
    let fail = |msg: String| {
        eprintln!("error: {model_name}: {msg}");
        EXIT_INPUT
    };
    let answer = match parse_answer(&text) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let number = Some(level.number);
    let mut report = LevelReport::new(&file, number, level.title.clone(), Status::NoPlan);
    report.encoding = Some(args.encoding.name().to_string());
    report.solver = Some("external".into());
    report.k = Some(args.steps);
    match answer {
        SolverAnswer::Unknown => {
            return fail("the solver gave no verdict (no s line, no literals)".into());
        }
        SolverAnswer::Unsat => {
            report.message = Some(format!(
                "the solver says UNSATISFIABLE: no plan of at most {} steps exists",
                args.steps
            ));
        }
        SolverAnswer::Sat(model) => {
            let mut unrolled = Unrolled::new(&level, args.encoding, args.steps);
            report.variables = Some(unrolled.cnf.variables() as u64);
            report.clauses = Some(unrolled.cnf.clauses.len() as u64);
            let value = |l| SolverAnswer::value(&model, l);
            let (k, plan) = match unrolled.decode(&value) {
                Ok(x) => x,
                Err(e) => return fail(e),
            };
            if let Err(e) = plan.verify(&level) {
                // The model satisfies every clause, so this is a bug in the encoding.
                report = LevelReport::error(
                    &file,
                    number,
                    level.title.clone(),
                    ErrorKind::Internal,
                    format!("internal error (please report): the decoded plan fails replay: {e}"),
                );
            } else {
                report.status = Status::Solved;
                report.solution = Some(plan.lurd());
                report.moves = Some(plan.move_count());
                report.pushes = Some(plan.push_count());
                report.optimal = Some(None);
                report.k = Some(k);
            }
        }
    }
    if args.json {
        super::say(&report.to_json());
    } else {
        super::say(report.to_text().trim_end());
    }
    match report.status {
        Status::NoPlan => EXIT_NO_PLAN,
        _ => report.exit_code(),
    }
}
