//! `crosscap euler-getter`: its own commands, `score` (both regions of a position),
//! `survey` (the even-cells claim, board by board) and `verify` (a certificate, by the
//! checker alone), `solve --certificate` (the margin's proof written out) and `solve
//! --all-openings` (every first move of the empty board, one class of symmetric cells a
//! job).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use crosscap_engine::catalog::{GameDescriptor, Status};
use crosscap_engine::jobs::{JobValue, ValueCount};
use crosscap_engine::{Budget, Player};
use crosscap_euler_getter::openings::{NotAtStart, OpeningJobs, Openings};
use crosscap_euler_getter::proof::{CertifyError, certify};
use crosscap_euler_getter::{DESCRIPTOR, EulerGetter, Rule, SwapRule, score, setup_game, survey};
use serde::Serialize;
use serde_json::json;

use crate::host::{Described, GameSetup, SetupArgs};
use crate::jobs::{
    ALL_OPENINGS, JobBudget, Joined, Shard, SolveOf, Split, SplitSolve, budgets_text,
    merged_answer, run_jobs,
};
use crate::limits::{BudgetArgs, SolveThreadsArgs, default_seconds, setup_limits, solve_budget};
use crate::output::{Answer, Output, Table, TableFormat, progress_bar, status_text};

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

/// The flags of `solve --all-openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Solve every first move of the empty board instead, with --swap none: one class of
    /// symmetric cells after another, each with the whole budget and its threads, so a
    /// class that runs out is reported unknown and the others are still solved.
    #[arg(long, conflicts_with = "certificate")]
    all_openings: bool,
    /// With --all-openings: solve shard I of N of its jobs (a class of first moves each)
    /// and write their results to --out, for `crosscap merge` to join.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, requires = "all_openings")]
    shard: Option<Shard>,
    /// The shard's result file (default: GAME-BOARD-shard-I-of-N.json here).
    #[arg(long, value_name = "FILE", requires = "shard")]
    out: Option<PathBuf>,
    /// With --all-openings: record each solved class in DIR as it finishes, and skip the
    /// classes DIR already holds (a killed solve restarts where it stopped).
    #[arg(long = "jobs", value_name = "DIR", requires = "all_openings")]
    jobs_dir: Option<PathBuf>,
    /// Table format of the openings for text output.
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    format: TableFormat,
}

/// The game's subcommands, and `--certificate`, `--all-openings` and `--threads` on
/// `solve`.
pub fn commands(command: Command) -> Command {
    EulerGetterCommand::augment_subcommands(command).mut_subcommand("solve", |solve| {
        OpeningsArgs::augment_args(SolveThreadsArgs::augment_args(
            CertificateArgs::augment_args(solve),
        ))
    })
}

/// Runs the game's own commands, `solve --certificate` and `solve --all-openings`;
/// `matches` are the game's.
pub fn run(matches: &ArgMatches, out: &Output) -> Option<anyhow::Result<Answer>> {
    if let Some(answer) = super::own(matches, out, own) {
        return Some(answer);
    }
    let solve = matches.subcommand_matches("solve")?;
    let openings = OpeningsArgs::from_arg_matches(solve).ok()?;
    if openings.all_openings {
        return Some(solve_openings(solve, &openings, out));
    }
    let file = CertificateArgs::from_arg_matches(solve).ok()?.certificate?;
    Some(write_certificate(solve, &file, out))
}

/// Euler Getter's all-openings jobs (a class of first moves each) as the CLI runs them.
impl SplitSolve for OpeningJobs {
    type Answer = Openings;

    fn len(&self) -> usize {
        OpeningJobs::len(self)
    }

    fn id(&self, job: usize) -> String {
        OpeningJobs::id(self, job)
    }

    fn winner(&self, _job: usize, value: i32) -> Option<Player> {
        OpeningJobs::winner(self, value)
    }

    fn solve(
        &self,
        which: &[usize],
        budget: &Budget,
        done: &(dyn Fn(usize, &JobValue) + Sync),
    ) -> Vec<JobValue> {
        OpeningJobs::solve(self, which, budget, done)
    }

    fn answer(&self, values: &[JobValue], millis: f64) -> Result<Openings, ValueCount> {
        OpeningJobs::answer(self, values, millis)
    }
}

fn opening_jobs(start: &EulerGetter) -> anyhow::Result<OpeningJobs> {
    OpeningJobs::of(start).map_err(|NotAtStart| {
        anyhow::anyhow!(
            "--all-openings solves the empty board with --swap none (no --position, no swap)"
        )
    })
}

/// Every class of first moves as jobs of the CLI's [`run_jobs`]: all of them, or a
/// shard's, less those the job directory holds.
fn solve_openings(
    matches: &ArgMatches,
    args: &OpeningsArgs,
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
    let split = Split {
        shard: args.shard,
        out: args.out.as_deref(),
        dir: args.jobs_dir.as_deref(),
    };
    let threads = budget.threads.unwrap_or(1);
    run_jobs(
        &jobs,
        of,
        &budget,
        JobBudget::from(&budget),
        &split,
        clock,
        out,
        |answer, budgets| emit_openings(answer, budgets, Some(threads), args.format, out),
    )
}

/// `crosscap merge` of all-openings shards: the answer the solve gives unsharded.
pub fn merge(joined: Joined, format: TableFormat, out: &Output) -> anyhow::Result<Answer> {
    let answer = merged_answer(&joined, |setup| {
        opening_jobs(&setup_game(setup, &setup_limits())?)
    })?;
    emit_openings(&answer, &joined.budgets, None, format, out)
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

/// The all-openings answer with the budget each class ran under (several when merged
/// shards ran under different ones) and the threads of each class's search (unrecorded
/// in merged shards).
#[derive(Serialize)]
struct Answered<'a> {
    #[serde(flatten)]
    openings: &'a Openings,
    budgets: &'a [Option<JobBudget>],
    threads: Option<usize>,
}

fn emit_openings(
    report: &Openings,
    budgets: &[Option<JobBudget>],
    threads: Option<usize>,
    format: TableFormat,
    out: &Output,
) -> anyhow::Result<Answer> {
    let answered = Answered {
        openings: report,
        budgets,
        threads,
    };
    let mut table = Table::new(&[
        "opening", "sides", "cells", "status", "winner", "margin", "nodes", "ms",
    ]);
    for row in &report.openings {
        table.push(vec![
            row.cells[0].clone(),
            row.sides.to_string(),
            row.cells.len().to_string(),
            status_text(&row.status),
            row.winner.map_or("unknown".to_string(), |w| w.to_string()),
            margin_text(row.margin, row.margin_at_least, row.margin_at_most),
            row.nodes.to_string(),
            format!("{:.1}", row.millis),
        ]);
    }
    out.emit_status(&answered, report.status, || {
        let mut text = table.render(format);
        if format == TableFormat::Text {
            let verdict = match (report.winner, report.margin) {
                (Some(w), Some(margin)) => format!(
                    "{w} wins by {}, first moves reaching it: {}",
                    margin.abs(),
                    report.best_moves.join(" ")
                ),
                (Some(w), None) => format!(
                    "{w} wins (the margin is unknown), winning first moves: {}",
                    report.winning_moves.join(" ")
                ),
                (None, _) => "the winner is unknown".to_string(),
            };
            text += &format!(
                "{} ({} rule, margin chi X - chi O): {verdict}
{} classes of openings, {} nodes in {:.1} ms, each class under {}
",
                report.board,
                report.rule,
                report.classes,
                report.nodes,
                report.millis,
                budgets_text(budgets)
            );
            if let Status::Unknown { .. } = report.status {
                text += &format!(
                    "some classes are {} (per class)\n",
                    status_text(&report.status)
                );
            }
        }
        text
    })
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
