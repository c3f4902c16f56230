//! `crosscap`: a thin command-line layer over the library crates.

mod commands;
mod limits;
mod output;
mod terminal;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

use crate::output::Answer;

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
    /// Boards on closed surfaces: show, info (surface, counts, cell order) and SVG.
    #[command(subcommand)]
    Board(commands::board::BoardCommand),
    /// Edge-Nim on any graph: values, P-position and Grundy tables, the tetrahedron theorem.
    #[command(subcommand)]
    EdgeNim(commands::edge_nim::EdgeNimCommand),
    /// Euler Getter: scores, exact solutions, the even-cells claim, play and arena.
    #[command(subcommand)]
    EulerGetter(commands::euler_getter::EulerGetterCommand),
    /// The manifold decomposition game: G-values, Table 2.1, G-series, play and arena.
    #[command(subcommand)]
    Manifold(commands::manifold::ManifoldCommand),
    /// Projective Hex: who has a global loop, exact solving, play and arena.
    #[command(subcommand)]
    ProjectiveHex(commands::projective_hex::ProjectiveHexCommand),
    /// The sandpile toppling game on any graph: solve, min-topple, classify, play, arena.
    #[command(subcommand)]
    Sandpile(commands::sandpile::SandpileCommand),
    /// The web app: every game in the browser, saved games, a JSON API.
    Serve(commands::serve::ServeArgs),
}

/// Exit statuses: 0 a complete answer, 2 bad input (one line on stderr), 3 an answer
/// whose search ran out of budget (what was found is printed, `"status": "unknown"`).
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout; a missing subcommand prints the help.
        Err(err)
            if !err.use_stderr()
                || err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            err.exit()
        }
        Err(err) => {
            eprintln!("{}", output::usage_error_line(&err.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let out = output::Output::new(cli.json);
    let result = match cli.command {
        Command::Nim(cmd) => commands::nim::run(cmd, &out),
        Command::Board(cmd) => commands::board::run(cmd, &out),
        Command::EdgeNim(cmd) => commands::edge_nim::run(cmd, &out),
        Command::EulerGetter(cmd) => commands::euler_getter::run(cmd, &out),
        Command::Manifold(cmd) => commands::manifold::run(cmd, &out),
        Command::ProjectiveHex(cmd) => commands::projective_hex::run(cmd, &out),
        Command::Sandpile(cmd) => commands::sandpile::run(cmd, &out),
        Command::Serve(args) => commands::serve::run(args).map(|()| Answer::Complete),
    };
    match result {
        Ok(Answer::Complete) => ExitCode::SUCCESS,
        Ok(Answer::Unknown) => ExitCode::from(3),
        Err(err) => {
            eprintln!("error: {}", output::one_line(&err));
            ExitCode::from(2)
        }
    }
}
