//! The command-line interface: the only layer that talks to the terminal.

pub mod args;
mod input;
pub mod progress;
pub mod report;
mod solve;
mod verify;
mod worker;

use clap::Parser;

use args::{Cli, Command};

/// Runs satsoko with the process's arguments and returns the exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Verify(args)) => verify::run(&args),
        None => solve::run(&cli.solve),
    }
}
