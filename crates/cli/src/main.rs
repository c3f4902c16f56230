//! `crosscap`: a thin command-line layer over the library crates.

mod commands;
mod output;
mod terminal;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Play, solve and explain combinatorial games on surfaces and graphs.
#[derive(Parser)]
#[command(name = "crosscap", version, about, propagate_version = true)]
struct Cli {
    /// Print one JSON document on stdout instead of text.
    #[arg(long, global = true)]
    json: bool,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Nim: Grundy values, winning moves, play and arena.
    #[command(subcommand)]
    Nim(commands::nim::NimCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let out = output::Output::new(cli.json);
    let result = match cli.command {
        Command::Nim(cmd) => commands::nim::run(cmd, &out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", output::one_line(&err));
            ExitCode::from(2)
        }
    }
}
