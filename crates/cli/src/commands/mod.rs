//! Each game's own commands beyond the verbs every game has (research and inspection:
//! tables, surveys, series, ...), one module a game, and the tools (board, serve).

use clap::{ArgMatches, Command, FromArgMatches, Subcommand};
use crosscap_engine::Misere;

use crate::jobs::Joined;
use crate::output::{Answer, Output, TableFormat, part_text};

pub mod board;
pub mod edge_nim;
pub mod euler_getter;
pub mod manifold;
pub mod nim;
pub mod projective_hex;
pub mod sandpile;
pub mod serve;

/// A game's answer from the joined shard files of one of its solves.
pub type MergeShards = fn(Joined, TableFormat, &Output) -> anyhow::Result<Answer>;

/// What a game's module adds to the generic host.
pub struct OwnCommands {
    pub game: &'static str,
    /// Adds the game's own subcommands (and flags of its own on the verbs) to its command.
    pub add: fn(Command) -> Command,
    /// Runs the game's subcommand in `matches` (the game's) when it is one of its own, or
    /// a verb its own flags ask another answer of; `None` leaves it to the host.
    pub run: fn(&ArgMatches, &Output) -> Option<anyhow::Result<Answer>>,
    /// Answers from shard files of the game's solves split into jobs (`crosscap merge`),
    /// when it has such solves.
    pub merge: Option<MergeShards>,
}

/// The own commands of the games that have some.
pub const OWN: [OwnCommands; 6] = [
    OwnCommands {
        game: "nim",
        add: nim::NimCommand::augment_subcommands,
        run: |matches, out| own(matches, out, nim::run),
        merge: None,
    },
    OwnCommands {
        game: "projective-hex",
        add: projective_hex::commands,
        run: projective_hex::run,
        merge: Some(projective_hex::merge),
    },
    OwnCommands {
        game: "euler-getter",
        add: euler_getter::commands,
        run: euler_getter::run,
        merge: None,
    },
    OwnCommands {
        game: "edge-nim",
        add: edge_nim::EdgeNimCommand::augment_subcommands,
        run: |matches, out| own(matches, out, edge_nim::run),
        merge: None,
    },
    OwnCommands {
        game: "manifold",
        add: manifold::ManifoldCommand::augment_subcommands,
        run: |matches, out| own(matches, out, manifold::run),
        merge: None,
    },
    OwnCommands {
        game: "sandpile",
        add: sandpile::SandpileCommand::augment_subcommands,
        run: |matches, out| own(matches, out, sandpile::run),
        merge: None,
    },
];

/// `crosscap merge`: joins shard files and answers as the unsharded solve would.
pub fn merge(
    files: &[std::path::PathBuf],
    format: TableFormat,
    out: &Output,
) -> anyhow::Result<Answer> {
    let joined = crate::jobs::join(files)?;
    let game = joined.of.game.clone();
    match OWN
        .iter()
        .find(|own| own.game == game)
        .and_then(|own| own.merge)
    {
        Some(merge) => merge(joined, format, out),
        None => anyhow::bail!("{game} has no solves split into shards"),
    }
}

/// `GAME verify FILE`: checks a certificate with the checker alone (no solver) and prints
/// what it proves; invalid: one line on stderr and [`Answer::Invalid`]; no certificate at
/// all: an error.
pub fn verify_file(file: &std::path::Path, out: &Output) -> anyhow::Result<Answer> {
    let checked = crosscap_certificate::check_file(file).map_err(anyhow::Error::msg)?;
    if let Err(invalid) = &checked {
        eprintln!("invalid certificate: {invalid}");
    }
    out.emit(&crosscap_certificate::Report::from(&checked), || {
        checked
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default()
    })?;
    Ok(match checked {
        Ok(_) => Answer::Complete,
        Err(_) => Answer::Invalid,
    })
}

/// Runs `run` on the game's subcommand in `matches` when it is one of `E`'s.
fn own<E: Subcommand + FromArgMatches>(
    matches: &ArgMatches,
    out: &Output,
    run: fn(E, &Output) -> anyhow::Result<Answer>,
) -> Option<anyhow::Result<Answer>> {
    let (verb, _) = matches.subcommand()?;
    E::has_subcommand(verb).then(|| {
        E::from_arg_matches(matches)
            .map_err(anyhow::Error::from)
            .and_then(|command| run(command, out))
    })
}

/// Prints a misère answer: the outcome and the winning moves, or why it is unknown.
pub fn emit_misere(out: &Output, misere: &Misere) -> anyhow::Result<Answer> {
    out.emit_status(misere, misere.answer.status, || {
        part_text(&misere.answer, "the misère outcome", |a| {
            let moves = if a.winning_moves.is_empty() {
                "none".to_string()
            } else {
                a.winning_moves.join(" ")
            };
            format!(
                "misère play: {}-position (the player to move {})\nwinning moves: {moves}",
                a.outcome,
                if a.outcome == "N" { "wins" } else { "loses" }
            )
        })
    })
}
