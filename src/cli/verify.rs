//! `satsoko verify`: replays a LURD solution through the rules engine.

use serde_json::json;

use super::args::{FormatArg, VerifyArgs};
use super::config::format_of;
use super::input::read_level;
use super::report::{EXIT_INPUT, EXIT_OK, EXIT_REJECTED};
use crate::game::replay_in;

/// "1 move", "2 moves", "1 push", "2 pushes".
fn count(n: usize, word: &str) -> String {
    super::report::plural(n as u64, word)
}

/// Runs `verify` and returns the exit code.
pub fn run(args: &VerifyArgs, format: Option<FormatArg>) -> i32 {
    if args.from_file {
        return super::solutions::verify_stored(args, format.map(format_of));
    }
    let number = args.level.unwrap_or(1);
    let level = match read_level(&args.file, number, format.map(format_of)) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let solution = match (&args.solution, &args.solution_file) {
        (Some(s), _) => s.clone(),
        (None, Some(path)) => match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return EXIT_INPUT;
            }
        },
        (None, None) => unreachable!("clap requires one of them"),
    };
    let file = args.file.display().to_string();
    let result = replay_in(&level, &solution, args.rules.convention());
    let (code, text, value) = match &result {
        Ok(r) => {
            let verdict = if r.solved {
                "solves the level"
            } else {
                "is legal but does not solve the level"
            };
            (
                if r.solved { EXIT_OK } else { EXIT_REJECTED },
                format!(
                    "{file} level {}: the solution {verdict} ({}, {})",
                    number,
                    count(r.moves, "move"),
                    count(r.pushes, "push")
                ),
                json!({"file": file, "level": number, "legal": true, "solved": r.solved,
                       "moves": r.moves, "pushes": r.pushes}),
            )
        }
        Err(e) => (
            EXIT_REJECTED,
            format!("{file} level {}: {e}", number),
            json!({"file": file, "level": number, "legal": false, "solved": false,
                   "position": e.position, "letter": e.letter.to_string(),
                   "message": e.reason}),
        ),
    };
    if args.json {
        super::say(&value.to_string());
    } else {
        super::say(&text);
    }
    code
}
