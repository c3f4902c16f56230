//! Each game's own commands beyond the verbs every game has (research and inspection:
//! tables, surveys, series, ...), one module a game, and the tools (board, serve).

use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use crosscap_certificate::Certificate;
use crosscap_engine::catalog::Status;
use crosscap_engine::solver::SolveError;
use crosscap_engine::{Misere, MisereOf};
use serde::Serialize;

use crate::jobs::Joined;
use crate::output::{Answer, Output, TableFormat, nodes_text, part_text, status_text};

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
        run: nim::run_own,
        merge: None,
    },
    OwnCommands {
        game: "projective-hex",
        add: projective_hex::commands,
        run: projective_hex::run,
        merge: Some(crate::openings::merge::<crosscap_projective_hex::OpeningJobs>),
    },
    OwnCommands {
        game: "euler-getter",
        add: euler_getter::commands,
        run: euler_getter::run,
        merge: Some(crate::openings::merge::<crosscap_euler_getter::openings::OpeningJobs>),
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

/// The arguments of `GAME verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The certificate, zstd-compressed (`.cert.zst`) or plain text.
    file: std::path::PathBuf,
    /// Threads the leaves are checked on (1 to 64; default: the machine's cores); the
    /// verdict, and the node an invalid certificate fails at, are the same on any number.
    #[arg(long, value_parser = crate::limits::parse_threads)]
    threads: Option<usize>,
}

/// `GAME verify FILE`: checks a certificate with the checker alone (no solver) and prints
/// what it proves; invalid: one line on stderr and [`Answer::Invalid`]; no certificate at
/// all: an error.
pub fn verify_file(
    args: &VerifyArgs,
    game: crosscap_certificate::Kind,
    out: &Output,
) -> anyhow::Result<Answer> {
    let threads = (args.threads).unwrap_or_else(crosscap_certificate::default_threads);
    let checked = crosscap_certificate::check_file(&args.file, Some(game), threads)
        .map_err(anyhow::Error::msg)?;
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

/// What `solve --certificate` wrote, the same for every game: `P`, what the certificate
/// proves, is flattened into the JSON (its default when no certificate was written).
#[derive(Serialize)]
struct Written<P> {
    board: String,
    file: String,
    #[serde(flatten)]
    status: Status,
    #[serde(flatten)]
    proved: P,
    /// Positions in the certificate.
    certificate_nodes: usize,
    bytes: u64,
    /// Solver nodes, the extraction's included.
    nodes: u64,
}

/// Saves the certificate of a complete solve (`Ok`: the certificate, the solver's nodes and
/// what it proves) to `file`, or says that none was written when the budget ran out first,
/// and prints either; `proved_text` gives the lines that say what a certificate proves.
pub fn save_certificate<P: Serialize + Default>(
    out: &Output,
    board: String,
    file: &std::path::Path,
    solved: Result<(Certificate, u64, P), SolveError>,
    proved_text: impl Fn(&P) -> String,
) -> anyhow::Result<Answer> {
    let mut written = Written {
        board,
        file: file.display().to_string(),
        status: Status::Solved,
        proved: P::default(),
        certificate_nodes: 0,
        bytes: 0,
        nodes: 0,
    };
    match solved {
        Ok((certificate, nodes, proved)) => {
            certificate
                .save(file)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
            written.proved = proved;
            written.certificate_nodes = certificate.nodes.len();
            written.bytes = std::fs::metadata(file)?.len();
            written.nodes = nodes;
        }
        Err(SolveError::Unknown { nodes, reason, .. }) => {
            written.status = Status::Unknown { reason };
            written.nodes = nodes;
        }
    }
    out.emit_status(&written, written.status, || match written.status {
        Status::Solved => format!(
            "{}: certificate written to {} ({} positions, {} bytes, {} solver nodes)\n{}",
            written.board,
            written.file,
            written.certificate_nodes,
            written.bytes,
            written.nodes,
            proved_text(&written.proved)
        ),
        Status::Unknown { .. } => format!(
            "{}: no certificate written: {} after {}\n",
            written.board,
            status_text(&written.status),
            nodes_text(written.nodes)
        ),
    })
}

/// Runs `run` on the game's subcommand in `matches` when it is one of `E`'s.
pub(crate) fn own<E: Subcommand + FromArgMatches>(
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

/// Prints a misère answer of `position` (its keys, as the normal-play answer gives them):
/// the outcome and the winning moves, or why it is unknown.
pub fn emit_misere(
    out: &Output,
    position: impl Serialize,
    misere: &Misere,
) -> anyhow::Result<Answer> {
    let answer = MisereOf { position, misere };
    out.emit_status(&answer, misere.answer.status, || {
        part_text(&misere.answer, "the misère outcome", |a| {
            let moves = if a.winning_moves.is_empty() && a.outcome == "N" {
                // A won position with no winning move has no move at all.
                "none (no move is left, and the player who cannot move wins)".to_string()
            } else if a.winning_moves.is_empty() {
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
