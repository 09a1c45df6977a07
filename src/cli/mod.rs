//! The command-line interface: the only layer that talks to the terminal.

pub mod args;
mod bench;
mod encode;
mod input;
pub mod progress;
pub mod report;
mod solve;
mod sweep;
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
    let _ = input::FORMAT.set(cli.format);
    match cli.command {
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Verify(args)) => verify::run(&args),
        Some(Command::Encode(args)) => encode::run_encode(&args),
        Some(Command::Decode(args)) => encode::run_decode(&args),
        Some(Command::Sweep(args)) => sweep::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        None => solve::run(&cli.solve),
    }
}
