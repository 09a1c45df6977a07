//! The command-line interface: the only layer that talks to the terminal. Arguments
//! are parsed by clap ([`args`]), resolved once into a typed configuration
//! ([`config`]), and each command has its file.

pub mod args;
mod bench;
mod bench_binairo;
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
        None => solve::run(&cli.solve, format),
    }
}
