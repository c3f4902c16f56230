//! `crosscap`: a thin command-line layer over the library crates. Every game of the
//! catalog gets the same verbs (`solve`, `hint`, `play`, `arena`, from [`host`]) and its
//! own commands ([`commands`]).

// The arguments' doc comments are clap's help texts, whose `<placeholders>` rustdoc would
// read as HTML tags.
#![allow(rustdoc::invalid_html_tags)]

mod commands;
mod host;
mod jobs;
mod limits;
mod openings;
mod output;
mod terminal;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command, FromArgMatches, Subcommand};
use crosscap_engine::catalog::Catalog;

use crate::output::Answer;

/// The commands beside the games.
#[derive(Subcommand)]
enum Tool {
    /// Boards on closed surfaces: show, info (surface, counts, cell order) and SVG.
    #[command(subcommand)]
    Board(commands::board::BoardCommand),
    /// The web app: every game in the browser, saved games, a JSON API.
    Serve(commands::serve::ServeArgs),
    /// Joins the result files of a solve's shards (`solve --all-openings --shard I/N`)
    /// into the answer of the whole solve.
    Merge {
        /// The shard files, every shard of one solve once.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = output::TableFormat::Text)]
        format: output::TableFormat,
    },
}

/// The command line: the games of `catalog`, each with the verbs every game has and its
/// own commands, then the tools.
fn command(catalog: &Catalog) -> Command {
    let root = Command::new("crosscap")
        .version(env!("CARGO_PKG_VERSION"))
        .propagate_version(true)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            Arg::new("json")
                .long("json")
                .global(true)
                .action(ArgAction::SetTrue)
                .help("Print one JSON document on stdout instead of text"),
        );
    let root = host::add_games(root, catalog, &|game, command| match commands::OWN
        .iter()
        .find(|own| own.game == game)
    {
        Some(own) => (own.add)(command),
        None => command,
    });
    // Set last: the tools' enum lends the root its own description.
    Tool::augment_subcommands(root)
        .about("Play, solve and explain combinatorial games on surfaces and graphs.")
}

/// Exit statuses: 0 a complete answer, 1 an invalid certificate (`verify`), 2 bad input (one line on stderr), 3 an answer
/// whose search ran out of budget (what was found is printed, `"status": "unknown"`, or
/// one line on stderr when nothing was found: [`output::OutOfBudget`]).
fn main() -> ExitCode {
    let catalog = crosscap_catalog::standard();
    let matches = match command(&catalog).try_get_matches() {
        Ok(matches) => matches,
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
    let out = output::Output::new(matches.get_flag("json"));
    match run(&catalog, &matches, &out) {
        Ok(Answer::Complete) => ExitCode::SUCCESS,
        Ok(Answer::Unknown) => ExitCode::from(3),
        Ok(Answer::Invalid) => ExitCode::from(1),
        Err(err) => {
            eprintln!("error: {}", output::one_line(&err));
            ExitCode::from(if err.is::<output::OutOfBudget>() {
                3
            } else {
                2
            })
        }
    }
}

/// Runs the subcommand of `matches`: a game's own command, else a verb of the host, else
/// a tool.
fn run(catalog: &Catalog, matches: &ArgMatches, out: &output::Output) -> anyhow::Result<Answer> {
    if let Some((name, game_matches)) = matches.subcommand()
        && let Some(game) = catalog.get(name)
    {
        let own = commands::OWN.iter().find(|own| own.game == name);
        return own
            .and_then(|own| (own.run)(game_matches, out))
            .or_else(|| host::run(game, game_matches, out))
            .unwrap_or_else(|| unreachable!("clap knows only the host's and the game's commands"));
    }
    match Tool::from_arg_matches(matches)? {
        Tool::Board(cmd) => commands::board::run(cmd, out),
        Tool::Serve(args) => commands::serve::run(args).map(|()| Answer::Complete),
        Tool::Merge { files, format } => commands::merge(&files, format, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag and argument of every command says in `--help` what it is.
    #[test]
    fn every_argument_says_what_it_is() {
        fn unexplained(command: &Command, path: &str, found: &mut Vec<String>) {
            for arg in command.get_arguments() {
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    found.push(format!("{path} {}", arg.get_id()));
                }
            }
            for sub in command.get_subcommands() {
                unexplained(sub, &format!("{path} {}", sub.get_name()), found);
            }
        }
        let mut root = command(&crosscap_catalog::standard());
        root.build();
        let mut found = Vec::new();
        unexplained(&root, "crosscap", &mut found);
        assert_eq!(found, Vec::<String>::new());
    }
}
