//! `crosscap euler-getter`: its own commands, `score` (both regions of a position) and
//! `survey` (the even-cells claim, board by board).

use clap::Subcommand;
use crosscap_engine::catalog::GameDescriptor;
use crosscap_euler_getter::{DESCRIPTOR, Rule, SwapRule, score, setup_game, survey};

use crate::host::{Described, SetupArgs};
use crate::limits::{BudgetArgs, default_seconds, setup_limits};
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
}

pub fn run(cmd: EulerGetterCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
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
