//! The command-line interface: the only layer that talks to the terminal. Arguments
//! are parsed by clap ([`args`]), resolved once into a typed configuration
//! ([`config`]), and each command has its file.

pub mod args;
mod bench;
mod bench_binairo;
mod bench_progress;
mod binairo;
mod certify;
pub mod config;
mod encode;
mod input;
mod interrupt;
pub mod progress;
pub mod report;
mod solutions;
mod solve;
pub mod svg;
mod sweep;
mod trace;
mod verify;
mod worker;

use clap::Parser;

use args::{Cli, Command};

/// Prints a line on stdout, ignoring a closed pipe (e.g. output piped into `head`).
pub(crate) fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
}

/// Runs satsoko with the process's arguments and returns the exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let format = cli.format;
    match cli.command {
        Some(Command::Solve(args)) => solve::run(&args, format),
        Some(Command::Verify(args)) => verify::run(&args, format),
        Some(Command::Encode(args)) => encode::run_encode(&args, format),
        Some(Command::Decode(args)) => encode::run_decode(&args, format),
        Some(Command::Sweep(args)) => sweep::run(&args, format),
        Some(Command::Bench(args)) => bench::run(&args, format),
        Some(Command::CheckProof(args)) => certify::check_proof(&args),
        Some(Command::Binairo(args)) => binairo::run(&args),
        Some(Command::Worker) => worker::run(),
        None => match near_miss_command(&cli.solve.files[0]) {
            Some(name) => {
                eprintln!(
                    "error: {:?} is neither a file nor a command; did you mean `satsoko {name}`? \
                     (`satsoko --help` lists the commands)",
                    cli.solve.files[0]
                );
                report::EXIT_USAGE
            }
            None => solve::run(&cli.solve, format),
        },
    }
}

/// The command a first argument that names no file was probably meant to be: one
/// within two edits of its name (`solv`, `bnech`), or of which it is a prefix.
fn near_miss_command(first: &std::path::Path) -> Option<String> {
    use clap::CommandFactory;
    let word = first.to_str()?;
    if first.exists() || word.contains(['/', '.', '\\']) {
        return None;
    }
    Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .filter(|name| name.starts_with(word) || strsim::levenshtein(word, name) <= 2)
        .min_by_key(|name| strsim::levenshtein(word, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_missing_file_near_a_command_is_taken_for_it() {
        assert_eq!(
            near_miss_command(Path::new("solv")).as_deref(),
            Some("solve")
        );
        assert_eq!(
            near_miss_command(Path::new("bnech")).as_deref(),
            Some("bench")
        );
        assert_eq!(
            near_miss_command(Path::new("check")).as_deref(),
            Some("check-proof")
        );
        // A path, or a word far from every command, is left to be read as a file.
        assert_eq!(near_miss_command(Path::new("solv.xsb")), None);
        assert_eq!(near_miss_command(Path::new("levels/solv")), None);
        assert_eq!(near_miss_command(Path::new("microban")), None);
        // An existing file is a file, whatever its name.
        assert_eq!(near_miss_command(Path::new("src")), None);
    }
}
