//! `crosscap projective-hex`: its own commands, `winner` (who has a global loop), `verify`
//! (a certificate, by the checker alone), `solve --all-openings` (every first move of the
//! empty board) and `solve --certificate` (the winning strategy written out).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use crosscap_certificate::ClaimSummary;
use crosscap_engine::Player;
use crosscap_engine::catalog::{GameDescriptor, Setup, Status};
use crosscap_projective_hex::exact::{CertifyError, certify, certify_openings};
use crosscap_projective_hex::{
    DESCRIPTOR, NotAtStart, OpeningJobs, Openings, ProjectiveHex, ReplyValue, loop_winner,
    setup_game,
};
use serde::Serialize;
use serde_json::json;

use crate::host::{Described, GameSetup, SetupArgs};
use crate::jobs::{
    JobBudget, JobResult, JobRun, Joined, Shard, SolveOf, budgets_text, default_shard_file,
    emit_shard,
};
use crate::limits::{BudgetArgs, setup_limits};
use crate::output::{Answer, Output, Table, TableFormat, status_text};

/// Projective Hex's setup flags.
#[derive(Clone, Debug)]
pub struct Hex;

impl Described for Hex {
    fn descriptor() -> &'static GameDescriptor {
        &DESCRIPTOR
    }
}

#[derive(Subcommand, Debug)]
pub enum ProjectiveHexCommand {
    /// Who has a global loop in a position, and the loop's cells in order.
    Winner {
        #[command(flatten)]
        game: SetupArgs<Hex>,
    },
    /// Checks a certificate written by `solve --certificate` with a checker of its own (no
    /// solver): exit 0 and the claims it proves when valid, 1 and the node that failed
    /// when not, 2 when the file is no certificate or one of another game.
    Verify {
        /// The certificate, zstd-compressed (`.cert.zst`) or plain text.
        file: PathBuf,
    },
}

/// The flags Projective Hex adds to `solve`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Solve every first move of the empty board instead (one per class of symmetric
    /// cells, the classes in parallel); the budget applies to each reply to a first move.
    #[arg(long)]
    all_openings: bool,
    /// With --all-openings: solve shard I of N of its jobs (a first move and a reply
    /// each) and write their results to --out, for `crosscap merge` to join.
    #[arg(
        long,
        value_name = "I/N",
        value_parser = Shard::parse,
        requires = "all_openings",
        conflicts_with = "certificate"
    )]
    shard: Option<Shard>,
    /// The shard's result file (default: GAME-BOARD-shard-I-of-N.json here).
    #[arg(long, value_name = "FILE", requires = "shard")]
    out: Option<PathBuf>,
    /// With --all-openings: record each solved job in DIR as it finishes, and skip the
    /// jobs DIR already holds (a killed solve restarts where it stopped).
    #[arg(
        long = "jobs",
        value_name = "DIR",
        requires = "all_openings",
        conflicts_with = "certificate"
    )]
    jobs_dir: Option<PathBuf>,
    /// Table format of the openings for text output.
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    format: TableFormat,
    /// Write the winning strategy to FILE (zstd-compressed), for `verify` to check: of the
    /// position, or with --all-openings of one first move per class and the empty board.
    /// Written only when everything is solved within the budget.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
}

/// The game's subcommand with its own commands and flags.
pub fn commands(command: Command) -> Command {
    ProjectiveHexCommand::augment_subcommands(command)
        .mut_subcommand("solve", OpeningsArgs::augment_args)
}

/// Runs the game's own commands, and `solve --all-openings`; `matches` are the game's.
pub fn run(matches: &ArgMatches, out: &Output) -> Option<anyhow::Result<Answer>> {
    if let Some(answer) = super::own(matches, out, |command, out| match command {
        ProjectiveHexCommand::Winner { game } => winner(&game.setup, out),
        ProjectiveHexCommand::Verify { file } => {
            super::verify_file(&file, crosscap_certificate::Kind::ProjectiveHex, out)
        }
    }) {
        return Some(answer);
    }
    let solve = matches.subcommand_matches("solve")?;
    let openings = OpeningsArgs::from_arg_matches(solve).ok()?;
    if let Some(file) = &openings.certificate {
        return Some(write_certificate(solve, openings.all_openings, file, out));
    }
    openings
        .all_openings
        .then(|| solve_openings(solve, &openings, out))
}

fn winner(setup: &GameSetup, out: &Output) -> anyhow::Result<Answer> {
    let game = setup.with(|setup| setup_game(setup, &setup_limits()))?;
    let report = loop_winner(&game);
    out.emit(&report, || match report.winner {
        Some(w) => format!("{w} has a global loop: {}\n", report.cells.join(" ")),
        None => "nobody has a global loop yet\n".to_string(),
    })
}

fn player_text(player: Option<Player>) -> String {
    player.map_or("nobody".to_string(), |p| p.to_string())
}

/// The all-openings solve as jobs of the CLI's [`JobRun`]: all of them, or a shard's,
/// less those the job directory holds.
fn solve_openings(
    matches: &ArgMatches,
    args: &OpeningsArgs,
    out: &Output,
) -> anyhow::Result<Answer> {
    let clock = Instant::now();
    let budget = BudgetArgs::from_arg_matches(matches)?.budget();
    let start = GameSetup::read(matches, &DESCRIPTOR.info)
        .with(|setup| setup_game(setup, &setup_limits()))?;
    let jobs = opening_jobs(&start)?;
    let of = SolveOf {
        game: DESCRIPTOR.info.name.to_string(),
        solve: ALL_OPENINGS.to_string(),
        board: start.board().spec().to_string(),
        options: json!({ "opening": "standard" }),
        jobs: jobs.len(),
    };
    let run = JobRun::start(of, args.shard, args.jobs_dir.as_deref(), &|job| {
        jobs.id(job)
    })?;
    if run.reused() > 0 {
        eprintln!("{} jobs already solved in the job directory", run.reused());
    }
    let todo = run.todo();
    jobs.solve(&todo, &budget, &|job, value| {
        run.finished(job_result(&jobs, job, value));
    });
    let (of, results) = run.finish()?;
    let millis = clock.elapsed().as_secs_f64() * 1000.0;
    match args.shard {
        Some(shard) => {
            let file = args
                .out
                .clone()
                .unwrap_or_else(|| default_shard_file(&of, shard));
            emit_shard(of, shard, results, &budget, millis, &file, out)
        }
        None => emit_openings(
            &jobs.answer(&reply_values(&results)?, millis)?,
            &[Some(JobBudget::from(&budget))],
            args.format,
            out,
        ),
    }
}

/// The kind of solve the all-openings jobs are, in their files.
const ALL_OPENINGS: &str = "all-openings";

fn opening_jobs(start: &ProjectiveHex) -> anyhow::Result<OpeningJobs> {
    OpeningJobs::of(start).map_err(|NotAtStart| {
        anyhow::anyhow!("--all-openings analyses the empty board under the standard opening")
    })
}

/// A job's value as the files keep it.
fn job_result(jobs: &OpeningJobs, job: usize, value: &ReplyValue) -> JobResult {
    JobResult {
        job,
        id: jobs.id(job),
        status: match value.value {
            Ok(_) => Status::Solved,
            Err(reason) => Status::Unknown { reason },
        },
        winner: value.value.ok().and_then(|v| jobs.winner(job, v)),
        value: value.value.ok(),
        nodes: value.nodes,
        millis: value.elapsed.as_secs_f64() * 1000.0,
    }
}

/// The jobs' values back from their results (every job, by number).
fn reply_values(results: &[JobResult]) -> anyhow::Result<Vec<ReplyValue>> {
    results
        .iter()
        .map(|result| {
            let value = match (result.status, result.value) {
                (Status::Solved, Some(value)) => Ok(value),
                (Status::Unknown { reason }, _) => Err(reason),
                (Status::Solved, None) => {
                    anyhow::bail!(
                        "job {} ({}) is solved without a value",
                        result.job,
                        result.id
                    )
                }
            };
            Ok(ReplyValue {
                value,
                nodes: result.nodes,
                elapsed: Duration::try_from_secs_f64(result.millis / 1000.0).map_err(|_| {
                    anyhow::anyhow!(
                        "job {} has no time in milliseconds: {}",
                        result.job,
                        result.millis
                    )
                })?,
            })
        })
        .collect()
}

/// `crosscap merge` of all-openings shards: the answer the solve gives unsharded.
pub fn merge(joined: Joined, format: TableFormat, out: &Output) -> anyhow::Result<Answer> {
    let of = &joined.of;
    if of.solve != ALL_OPENINGS {
        anyhow::bail!("{} has no sharded solve `{}`", of.game, of.solve);
    }
    let start = setup_game(
        &Setup {
            board: &of.board,
            options: &of.options,
        },
        &setup_limits(),
    )?;
    let jobs = opening_jobs(&start)?;
    if jobs.len() != of.jobs {
        anyhow::bail!(
            "the files say {} has {} jobs, this crosscap makes {}: shards of another version?",
            of.board,
            of.jobs,
            jobs.len()
        );
    }
    if let Some(result) = joined.results.iter().find(|r| r.id != jobs.id(r.job)) {
        anyhow::bail!(
            "job {} is `{}` in the files, `{}` on {} here: shards of another version?",
            result.job,
            result.id,
            jobs.id(result.job),
            of.board
        );
    }
    let values = reply_values(&joined.results)?;
    let answer = jobs.answer(&values, joined.millis)?;
    emit_openings(&answer, &joined.budgets, format, out)
}

/// The all-openings answer with the budget its jobs ran under (several when merged shards
/// ran under different ones).
#[derive(Serialize)]
struct Answered<'a> {
    #[serde(flatten)]
    openings: &'a Openings,
    budgets: &'a [Option<JobBudget>],
}

fn emit_openings(
    report: &Openings,
    budgets: &[Option<JobBudget>],
    format: TableFormat,
    out: &Output,
) -> anyhow::Result<Answer> {
    let answered = Answered {
        openings: report,
        budgets,
    };
    let mut table = Table::new(&["opening", "sides", "cells", "winner", "O's winning replies"]);
    for row in &report.openings {
        let (winner, replies) = match row.status {
            Status::Solved if row.winning_replies.is_empty() => {
                (player_text(row.winner), "none".to_string())
            }
            Status::Solved => (player_text(row.winner), row.winning_replies.join(" ")),
            Status::Unknown { .. } => ("unknown".to_string(), "unknown".to_string()),
        };
        table.push(vec![
            row.cells[0].clone(),
            row.sides.to_string(),
            row.cells.len().to_string(),
            winner,
            replies,
        ]);
    }
    out.emit_status(&answered, report.status, || {
        let mut text = table.render(format);
        if format == TableFormat::Text {
            let verdict = match report.winner {
                Some(w) => format!("{w} wins"),
                None => "the winner is unknown".to_string(),
            };
            text += &format!(
                "{}: {verdict}; winning first moves: {}\n{} classes of openings, {} nodes in {:.1} ms, each reply under {}\n",
                report.board,
                match (report.winning_moves.is_empty(), report.status) {
                    (false, _) => report.winning_moves.join(" "),
                    (true, Status::Solved) => "none".to_string(),
                    (true, Status::Unknown { .. }) => "none proved".to_string(),
                },
                report.classes,
                report.nodes,
                report.millis,
                budgets_text(budgets)
            );
            if let Status::Unknown { .. } = report.status {
                text += &format!(
                    "some classes are {} (per reply)\n",
                    status_text(&report.status)
                );
            }
        }
        text
    })
}

/// The claims a Projective Hex certificate proves, one a start position.
#[derive(Default, Serialize)]
struct Claims {
    claims: Vec<ClaimSummary>,
}

fn write_certificate(
    matches: &ArgMatches,
    all: bool,
    file: &Path,
    out: &Output,
) -> anyhow::Result<Answer> {
    let budget = BudgetArgs::from_arg_matches(matches)?.budget();
    let start = GameSetup::read(matches, &DESCRIPTOR.info)
        .with(|setup| setup_game(setup, &setup_limits()))?;
    let board = start.board().spec().to_string();
    let certified = if all {
        certify_openings(&start, &budget)
    } else {
        certify(std::slice::from_ref(&start), &budget)
    };
    let solved = match certified {
        Ok(certified) => {
            let claims = certified.certificate.summaries();
            Ok((certified.certificate, certified.nodes, Claims { claims }))
        }
        Err(CertifyError::Unknown(unknown)) => Err(unknown),
        Err(other) => return Err(other.into()),
    };
    super::save_certificate(out, board, file, solved, |proved| {
        proved
            .claims
            .iter()
            .map(|claim| format!("  {claim}\n"))
            .collect()
    })
}
