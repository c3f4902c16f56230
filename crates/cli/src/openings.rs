//! `solve --all-openings` (every first move of the empty board, one class of symmetric
//! cells a row) for every game that has it: its flags, its run as jobs ([`run_jobs`]),
//! `crosscap merge` of its shards and its table. A game gives its jobs (the game crate's
//! [`SplitSolve`], answering the engine's [`Openings`]) and the little the CLI says of
//! them that is its own ([`AllOpenings`]).

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Command};
use crosscap_engine::Budget;
use crosscap_engine::catalog::{Setup, Status};
use crosscap_engine::jobs::SplitSolve;
use crosscap_engine::openings::{ClassValue, OpeningClass, Openings};
use serde::Serialize;

use crate::jobs::{
    JobBudget, Joined, Shard, SolveOf, Split, budgets_text, merged_answer, run_jobs,
};
use crate::output::{Answer, Output, Table, TableFormat, nodes_text, status_text};

/// The flags of `solve --all-openings`, the same in every game that has it. A sharded or
/// resumed solve writes no certificate, so `--shard` and `--jobs` conflict with the
/// `--certificate` of `solve`. The help of `--all-openings`, `--shard` and `--jobs` is
/// the game's ([`AllOpenings::HELP`], set by [`with_game_help`]).
#[derive(Args, Debug)]
pub struct AllOpeningsArgs {
    #[arg(long)]
    pub all_openings: bool,
    #[arg(
        long,
        value_name = "I/N",
        value_parser = Shard::parse,
        requires = "all_openings",
        conflicts_with = "certificate"
    )]
    pub shard: Option<Shard>,
    /// The shard's result file (default: GAME-BOARD-shard-I-of-N.json here).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    #[arg(
        long = "jobs",
        value_name = "DIR",
        requires = "all_openings",
        conflicts_with = "certificate"
    )]
    pub jobs_dir: Option<PathBuf>,
    /// With --all-openings: the table format of the openings (of a shard's jobs with
    /// --shard); a single solve prints text or --json.
    #[arg(long, value_enum, default_value_t = TableFormat::Text, requires = "all_openings")]
    pub format: TableFormat,
}

/// How a game's all-openings solve runs, in the help of its flags.
pub struct OpeningsHelp {
    /// `--all-openings`'s help: how the classes are solved and what the budget applies to.
    pub all_openings: &'static str,
    /// What one job is, in `--shard`'s help, e.g. `a first move and a reply`.
    pub job: &'static str,
    /// What `--jobs` records, one and several, e.g. `class` and `classes`.
    pub recorded: [&'static str; 2],
}

/// `solve`, holding the flags of [`AllOpeningsArgs`], with the help of `J`'s.
pub fn with_game_help<J: AllOpenings>(solve: Command) -> Command {
    let help = &J::HELP;
    let [one, several] = help.recorded;
    solve
        .mut_arg("all_openings", |arg| arg.help(help.all_openings))
        .mut_arg("shard", |arg| {
            arg.help(format!(
                "With --all-openings: solve shard I of N of its jobs ({} each) and write \
                 their results to --out, for `crosscap merge` to join",
                help.job
            ))
        })
        .mut_arg("jobs_dir", |arg| {
            arg.help(format!(
                "With --all-openings: record each solved {one} in DIR as it finishes, and \
                 skip the {several} DIR already holds (a killed solve restarts where it \
                 stopped)"
            ))
        })
}

/// A game's all-openings solve as the CLI runs and prints it.
pub trait AllOpenings: SplitSolve<Answer = Openings<Self::Value>> + Sized {
    type Value: ClassValue;
    /// What the answer's JSON adds from the budgets the jobs ran under (several when
    /// merged shards ran under different ones).
    type RunKeys: Serialize;
    /// The help of `--all-openings`, `--shard` and `--jobs`.
    const HELP: OpeningsHelp;
    /// The game's columns of a class in the table, after `opening`, `sides` and `cells`.
    const COLUMNS: &'static [&'static str];
    /// A job in words, as in `each reply under --max-seconds 600`.
    const JOB: &'static str;
    /// The jobs of the start `setup` describes (a solve's, or the one shard files name);
    /// a start that is not the empty board of an all-openings solve is refused in words.
    fn of_setup(setup: &Setup) -> anyhow::Result<Self>;
    /// The game's cells of a class's row.
    fn columns(class: &OpeningClass<Self::Value>) -> Vec<String>;
    /// The line under the table that says who wins.
    fn headline(openings: &Openings<Self::Value>) -> String;
    fn run_keys(budgets: &[Option<JobBudget>]) -> Self::RunKeys;
}

/// Runs the all-openings jobs (all of them, or a shard's, less those the job directory
/// holds) under `budget` each, recorded as `ran_under`, and prints the answer or the
/// shard. `clock` started with the command.
#[allow(clippy::too_many_arguments)]
pub fn solve<J: AllOpenings>(
    jobs: &J,
    of: SolveOf,
    budget: &Budget,
    ran_under: JobBudget,
    args: &AllOpeningsArgs,
    clock: Instant,
    out: &Output,
) -> anyhow::Result<Answer> {
    let split = Split {
        shard: args.shard,
        out: args.out.as_deref(),
        format: args.format,
        dir: args.jobs_dir.as_deref(),
    };
    run_jobs(
        jobs,
        of,
        budget,
        ran_under,
        &split,
        clock,
        out,
        |answer, budgets| emit::<J>(answer, budgets, args.format, out),
    )
}

/// `crosscap merge` of all-openings shards: the answer the solve gives unsharded.
pub fn merge<J: AllOpenings>(
    joined: Joined,
    format: TableFormat,
    out: &Output,
) -> anyhow::Result<Answer> {
    let answer = merged_answer(&joined, J::of_setup)?;
    emit::<J>(&answer, &joined.budgets, format, out)
}

/// The all-openings answer with the budgets its jobs ran under and the game's keys about
/// them.
#[derive(Serialize)]
#[serde(bound = "")]
struct Answered<'a, J: AllOpenings> {
    #[serde(flatten)]
    openings: &'a Openings<J::Value>,
    budgets: &'a [Option<JobBudget>],
    #[serde(flatten)]
    run: J::RunKeys,
}

/// Prints the answer: JSON, or the table of classes and, as text, who wins and the work.
fn emit<J: AllOpenings>(
    report: &Openings<J::Value>,
    budgets: &[Option<JobBudget>],
    format: TableFormat,
    out: &Output,
) -> anyhow::Result<Answer> {
    let answered = Answered::<J> {
        openings: report,
        budgets,
        run: J::run_keys(budgets),
    };
    let headers: Vec<&str> = ["opening", "sides", "cells"]
        .into_iter()
        .chain(J::COLUMNS.iter().copied())
        .collect();
    let mut table = Table::new(&headers);
    for class in &report.openings {
        let mut row = vec![
            class.cells[0].clone(),
            class.sides.to_string(),
            class.cells.len().to_string(),
        ];
        row.extend(J::columns(class));
        table.push(row);
    }
    out.emit_status(&answered, report.status, || {
        let mut text = table.render(format);
        if format == TableFormat::Text {
            text += &format!(
                "{}\n{} classes of openings, {} in {:.1} ms, each {} under {}\n",
                J::headline(report),
                report.classes,
                nodes_text(report.nodes),
                report.millis,
                J::JOB,
                budgets_text(budgets)
            );
            if let Status::Unknown { .. } = report.status {
                text += &format!(
                    "some classes are {} (per {})\n",
                    status_text(&report.status),
                    J::JOB
                );
            }
        }
        text
    })
}
