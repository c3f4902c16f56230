//! `crosscap euler-getter`: its own commands, `score` (both regions of a position),
//! `survey` (the even-cells claim, board by board) and `verify` (a certificate, by the
//! checker alone), and `solve --certificate` (the margin's proof written out).

use std::path::{Path, PathBuf};

use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use crosscap_engine::Player;
use crosscap_engine::catalog::GameDescriptor;
use crosscap_euler_getter::proof::{CertifyError, certify};
use crosscap_euler_getter::{DESCRIPTOR, Rule, SwapRule, score, setup_game, survey};
use serde::Serialize;

use crate::host::{Described, GameSetup, SetupArgs};
use crate::limits::{BudgetArgs, SolveThreadsArgs, default_seconds, setup_limits, solve_budget};
use crate::output::{Answer, Output, Table, TableFormat, progress_bar};

/// Euler Getter's setup flags.
#[derive(Clone, Debug)]
pub struct Euler;

impl Described for Euler {
    fn descriptor() -> &'static GameDescriptor {
        &DESCRIPTOR
    }
}

#[derive(Subcommand, Debug)]
pub enum EulerGetterCommand {
    /// The Euler characteristic of both regions of a position, as V - E + F and as
    /// pieces minus loops; the winner once the board is full.
    Score {
        #[command(flatten)]
        game: SetupArgs<Euler>,
    },
    /// Solves the empty board of each given board and checks the claim "the first player
    /// wins whenever the number of cells is even" (each board with its own budget).
    #[command(mut_arg("max_seconds", default_seconds("600")))]
    Survey {
        /// Boards to solve, e.g. `--board goldberg:1 --board taylor:2`.
        #[arg(long = "board", required = true)]
        boards: Vec<String>,
        /// normal (larger characteristic wins) or reverse.
        #[arg(long, default_value = "normal")]
        rule: String,
        /// Swap rule: none, 1, 3, 5 or 7 (the claim is about the game without swap).
        #[arg(long, default_value = "none")]
        swap: String,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
    },
    /// Checks a certificate written by `solve --certificate` with a checker of its own (no
    /// solver): exit 0 and the result it proves when valid, 1 and the node that failed
    /// when not, 2 when the file is no certificate or one of another game.
    Verify {
        /// The certificate, zstd-compressed (`.cert.zst`) or plain text.
        file: PathBuf,
    },
}

/// The flags Euler Getter adds to `solve`.
#[derive(Args, Debug)]
pub struct CertificateArgs {
    /// Write the proof of the margin to FILE (zstd-compressed), for `verify` to check: the
    /// winner's strategy and the loser's, each down to full boards. Normal rule and --swap
    /// none only; written only when everything is solved within the budget.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
}

/// The game's subcommands, and `--certificate` and `--threads` on `solve`.
pub fn commands(command: Command) -> Command {
    EulerGetterCommand::augment_subcommands(command).mut_subcommand("solve", |solve| {
        SolveThreadsArgs::augment_args(CertificateArgs::augment_args(solve))
    })
}

/// Runs the game's own commands, and `solve --certificate`; `matches` are the game's.
pub fn run(matches: &ArgMatches, out: &Output) -> Option<anyhow::Result<Answer>> {
    if let Some(answer) = super::own(matches, out, own) {
        return Some(answer);
    }
    let solve = matches.subcommand_matches("solve")?;
    let file = CertificateArgs::from_arg_matches(solve).ok()?.certificate?;
    Some(write_certificate(solve, &file, out))
}

/// What an Euler Getter certificate proves: the winner with perfect play and by how much
/// (`chi` winner's minus loser's), no winner on a tie.
#[derive(Default, Serialize)]
struct Margin {
    winner: Option<Player>,
    margin: Option<i32>,
}

fn write_certificate(matches: &ArgMatches, file: &Path, out: &Output) -> anyhow::Result<Answer> {
    let budget = solve_budget(matches)?;
    let start = GameSetup::read(matches, &DESCRIPTOR.info)
        .with(|setup| setup_game(setup, &setup_limits()))?;
    let board = start.complex().board().spec().to_string();
    let solved = match certify(&start, &budget) {
        Ok(certified) => {
            let margin = Margin {
                winner: Player::X.winner_by(certified.margin),
                margin: Some(certified.margin.abs()),
            };
            Ok((certified.certificate, certified.nodes, margin))
        }
        Err(CertifyError::Unknown(unknown)) => Err(unknown),
        Err(other) => return Err(other.into()),
    };
    super::save_certificate(out, board, file, solved, |proved| match proved.winner {
        Some(winner) => format!("  {winner} wins by {}\n", proved.margin.unwrap_or(0)),
        None => "  a tie\n".to_string(),
    })
}

fn own(cmd: EulerGetterCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
        EulerGetterCommand::Verify { file } => {
            super::verify_file(&file, crosscap_certificate::Kind::EulerGetter, out)
        }
        EulerGetterCommand::Score { game } => {
            let game = game
                .setup
                .with(|setup| setup_game(setup, &setup_limits()))?;
            let report = score(&game);
            out.emit(&report, || report.to_string())
        }
        EulerGetterCommand::Survey {
            boards,
            rule,
            swap,
            budget,
            format,
        } => {
            let rule: Rule = rule.parse()?;
            let swap: SwapRule = swap.parse()?;
            let bar = progress_bar(boards.len() as u64, "boards");
            let report = survey(
                &boards,
                rule,
                swap,
                &budget.budget(),
                &setup_limits(),
                &|| bar.inc(1),
            )?;
            bar.finish_and_clear();
            let mut table = Table::new(&["board", "cells", "surface", "winner", "margin", "claim"]);
            for row in &report.boards {
                let (winner, margin, claim) = match &row.solved.answer {
                    Some(a) => (
                        a.winner.to_string(),
                        a.margin.to_string(),
                        a.claim.to_string(),
                    ),
                    None => ("unknown".into(), "unknown".into(), "unknown".into()),
                };
                table.push(vec![
                    row.name.clone(),
                    row.cells.to_string(),
                    row.surface.clone(),
                    winner,
                    margin,
                    claim,
                ]);
            }
            out.emit_status(&report, report.status, || table.render(format))
        }
    }
}
