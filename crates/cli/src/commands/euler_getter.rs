//! `crosscap euler-getter`: its own commands, `score` (both regions of a position),
//! `survey` (the even-cells claim, board by board) and `verify` (a certificate, by the
//! checker alone), `solve --certificate` (the margin's proof written out) and `solve
//! --all-openings` (every first move of the empty board, one class of symmetric cells a
//! job).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use crosscap_engine::catalog::{GameDescriptor, Setup};
use crosscap_engine::jobs::SplitSolve;
use crosscap_engine::{NodeCounter, Player};
use crosscap_euler_getter::openings::{
    ClassMargin, NotAtStart, OpeningJobs, OpeningResult, Openings,
};
use crosscap_euler_getter::proof::{CertifyError, certify};
use crosscap_euler_getter::{DESCRIPTOR, EulerGetter, Rule, SwapRule, score, setup_game, survey};
use serde::Serialize;
use serde_json::json;

use crate::host::{Described, GameSetup, SetupArgs};
use crate::jobs::{ALL_OPENINGS, JobBudget, SolveOf};
use crate::limits::{BudgetArgs, SolveThreadsArgs, default_seconds, setup_limits, solve_budget};
use crate::openings::{self, AllOpenings, AllOpeningsArgs, OpeningsHelp, with_game_help};
use crate::output::{
    Answer, Output, Table, TableFormat, counting, long_steps_bar, status_text, with_search_bar,
};

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
    Verify(super::VerifyArgs),
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

/// The game's subcommands, and `--certificate`, `--all-openings` and `--threads` on
/// `solve`.
pub fn commands(command: Command) -> Command {
    EulerGetterCommand::augment_subcommands(command).mut_subcommand("solve", |solve| {
        let solve = AllOpeningsArgs::augment_args(SolveThreadsArgs::augment_args(
            CertificateArgs::augment_args(solve),
        ));
        with_game_help::<OpeningJobs>(solve)
            .mut_arg("all_openings", |arg| arg.conflicts_with("certificate"))
    })
}

/// Runs the game's own commands, `solve --certificate` and `solve --all-openings`;
/// `matches` are the game's.
pub fn run(matches: &ArgMatches, out: &Output) -> Option<anyhow::Result<Answer>> {
    if let Some(answer) = super::own(matches, out, own) {
        return Some(answer);
    }
    let solve = matches.subcommand_matches("solve")?;
    let openings = AllOpeningsArgs::from_arg_matches(solve).ok()?;
    if openings.all_openings {
        return Some(solve_openings(solve, &openings, out));
    }
    let file = CertificateArgs::from_arg_matches(solve).ok()?.certificate?;
    Some(write_certificate(solve, &file, out))
}

/// Euler Getter's all-openings solve (a job per class of first moves) as the CLI runs and
/// prints it.
impl AllOpenings for OpeningJobs {
    type Value = ClassMargin;
    type RunKeys = Threads;
    const HELP: OpeningsHelp = OpeningsHelp {
        all_openings: "Solve every first move of the empty board instead, with --swap none: \
                       one class of symmetric cells after another, each with the whole budget \
                       and its threads, so a class that runs out is reported unknown and the \
                       others are still solved",
        job: "a class of first moves",
        recorded: ["class", "classes"],
    };
    const COLUMNS: &'static [&'static str] = &["status", "winner", "margin", "nodes", "ms"];
    const JOB: &'static str = "class";

    fn of_setup(setup: &Setup) -> anyhow::Result<OpeningJobs> {
        opening_jobs(&setup_game(setup, &setup_limits())?)
    }

    fn columns(class: &OpeningResult) -> Vec<String> {
        let ClassMargin {
            margin,
            margin_at_least,
            margin_at_most,
        } = class.value;
        vec![
            status_text(&class.status),
            class
                .winner
                .map_or("unknown".to_string(), |w| w.to_string()),
            margin_text(margin, margin_at_least, margin_at_most),
            class.nodes.to_string(),
            format!("{:.1}", class.millis),
        ]
    }

    fn headline(report: &Openings) -> String {
        let verdict = match (report.winner, report.game.margin) {
            (Some(w), Some(margin)) => format!(
                "{w} wins by {}, first moves reaching it: {}",
                margin.abs(),
                report.game.optimal_moves.join(" ")
            ),
            (Some(w), None) => format!(
                "{w} wins (the margin is unknown), winning first moves: {}",
                report.winning_moves.join(" ")
            ),
            (None, _) => "the winner is unknown".to_string(),
        };
        format!(
            "{} ({} rule, margin chi X - chi O): {verdict}",
            report.board, report.game.rule
        )
    }

    fn run_keys(budgets: &[Option<JobBudget>]) -> Threads {
        Threads {
            threads: JobBudget::agreed(budgets, |b| b.threads),
        }
    }
}

/// The threads of each class's search, when every job recorded the same number.
#[derive(Serialize)]
pub struct Threads {
    threads: Option<usize>,
}

fn opening_jobs(start: &EulerGetter) -> anyhow::Result<OpeningJobs> {
    OpeningJobs::of(start).map_err(|NotAtStart| {
        anyhow::anyhow!(
            "--all-openings solves the empty board with --swap none (no --position, no swap)"
        )
    })
}

/// Every class of first moves as jobs: all of them, or a shard's, less those the job
/// directory holds.
fn solve_openings(
    matches: &ArgMatches,
    args: &AllOpeningsArgs,
    out: &Output,
) -> anyhow::Result<Answer> {
    let clock = Instant::now();
    let budget = solve_budget(matches)?;
    let start = GameSetup::read(matches, &DESCRIPTOR.info)
        .with(|setup| setup_game(setup, &setup_limits()))?;
    let jobs = opening_jobs(&start)?;
    let of = SolveOf {
        game: DESCRIPTOR.info.name.to_string(),
        solve: ALL_OPENINGS.to_string(),
        board: start.complex().board().spec().to_string(),
        options: json!({ "rule": start.rule().to_string(), "swap": "none" }),
        jobs: jobs.len(),
    };
    let ran_under = JobBudget::from(&budget);
    openings::solve(&jobs, of, &budget, ran_under, args, clock, out)
}

/// A class's margin, or what was proven of it: `+1`, `>= +1`, `<= -1`, `+1 to +5` or
/// `unknown`.
fn margin_text(margin: Option<i32>, least: Option<i32>, most: Option<i32>) -> String {
    match (margin, least, most) {
        (Some(margin), _, _) => format!("{margin:+}"),
        (None, Some(least), Some(most)) => format!("{least:+} to {most:+}"),
        (None, Some(least), None) => format!(">= {least:+}"),
        (None, None, Some(most)) => format!("<= {most:+}"),
        (None, None, None) => "unknown".to_string(),
    }
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
    let solved = match with_search_bar("certifying", &budget, |budget| certify(&start, budget)) {
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
        EulerGetterCommand::Verify(args) => {
            super::verify_file(&args, crosscap_certificate::Kind::EulerGetter, out)
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
            let counter = NodeCounter::new();
            let bar = long_steps_bar(boards.len() as u64, "boards", &counter);
            let report = survey(
                &boards,
                rule,
                swap,
                &counting(&bar, &budget.budget(), &counter),
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
