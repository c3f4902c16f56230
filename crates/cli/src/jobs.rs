//! Long solves split into jobs (an all-openings solve: one job per reply to a first move),
//! so that they run in shards on several machines (`--shard I/N`, one result file each,
//! joined by `crosscap merge`) and restart after a kill from the jobs they finished (`--jobs
//! DIR`, one file per finished job). Generic over the game: a game names its jobs, solves
//! them and puts their results together; this module splits the jobs, records, reloads and
//! joins their results, and checks that the files belong to one solve.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use crosscap_engine::catalog::{Setup, Status};
use crosscap_engine::jobs::{JobValue, SplitSolve};
use crosscap_engine::solver::MarginBounds;
use crosscap_engine::{Budget, NodeCounter, Player};
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use crate::output::{
    Answer, Output, Table, TableFormat, counting, long_steps_bar, nodes_text, status_text,
};

/// The kind of solve every first move's is, in the files.
pub const ALL_OPENINGS: &str = "all-openings";

/// Where a split solve's jobs go: the shard to solve (all jobs when `None`), its result
/// file and the table format its jobs are printed in, and the job directory of finished
/// jobs.
pub struct Split<'a> {
    pub shard: Option<Shard>,
    pub out: Option<&'a Path>,
    pub format: TableFormat,
    pub dir: Option<&'a Path>,
}

/// Runs the jobs of `split` less those its job directory holds, each under `budget`
/// (`ran_under` in the files); then writes and prints the shard's file, or gives the
/// whole answer with the budget to `emit`. `clock` started with the command.
#[allow(clippy::too_many_arguments)]
pub fn run_jobs<S: SplitSolve>(
    jobs: &S,
    of: SolveOf,
    budget: &Budget,
    ran_under: JobBudget,
    split: &Split,
    clock: Instant,
    out: &Output,
    emit: impl FnOnce(&S::Answer, &[Option<JobBudget>]) -> anyhow::Result<Answer>,
) -> anyhow::Result<Answer> {
    let run = JobRun::start(of, &ran_under, split.shard, split.dir, &|job| jobs.id(job))?;
    if run.reused() > 0 {
        eprintln!("{} jobs already solved in the job directory", run.reused());
    }
    let todo = run.todo();
    jobs.solve(&todo, &run.counting(budget), &|job, value| {
        run.finished(job_result(jobs, job, value));
    });
    let (of, results, earlier) = run.finish()?;
    let millis = clock.elapsed().as_secs_f64() * 1000.0;
    match split.shard {
        Some(shard) => {
            let file = split
                .out
                .map_or_else(|| default_shard_file(&of, shard), Path::to_path_buf);
            let printed = (file.as_path(), split.format);
            emit_shard(
                of,
                shard,
                results,
                (ran_under, earlier),
                millis,
                printed,
                out,
            )
        }
        None => emit(
            &jobs.answer(&job_values(&results)?, millis)?,
            &with_earlier(Some(ran_under), earlier),
        ),
    }
}

/// A job's value as the files keep it.
fn job_result<S: SplitSolve>(jobs: &S, job: usize, value: &JobValue) -> JobResult {
    JobResult {
        job,
        id: jobs.id(job),
        status: match value.value {
            Ok(_) => Status::Solved,
            Err(reason) => Status::Unknown { reason },
        },
        winner: value.value.ok().and_then(|v| jobs.winner(job, v)),
        value: value.value.ok(),
        value_at_least: value.bounds.least,
        value_at_most: value.bounds.most,
        nodes: value.nodes,
        millis: value.elapsed.as_secs_f64() * 1000.0,
    }
}

/// The jobs' values back from their results (every job, by number).
fn job_values(results: &[JobResult]) -> anyhow::Result<Vec<JobValue>> {
    results
        .iter()
        .map(|result| {
            let value = match (result.status, result.value) {
                (Status::Solved, Some(value)) => Ok(value),
                (Status::Unknown { reason }, _) => Err(reason),
                (Status::Solved, None) => {
                    bail!(
                        "job {} ({}) is solved without a value",
                        result.job,
                        result.id
                    )
                }
            };
            Ok(JobValue {
                value,
                bounds: MarginBounds {
                    least: result.value_at_least,
                    most: result.value_at_most,
                },
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

/// The answer of joined shard files of an all-openings solve, from the jobs `jobs_of`
/// makes of the setup the files name (the start of the solve); files of another kind of
/// solve, or whose jobs this version makes otherwise, are refused.
pub fn merged_answer<S: SplitSolve>(
    joined: &Joined,
    jobs_of: impl FnOnce(&Setup) -> anyhow::Result<S>,
) -> anyhow::Result<S::Answer> {
    let of = &joined.of;
    if of.solve != ALL_OPENINGS {
        bail!("{} has no sharded solve `{}`", of.game, of.solve);
    }
    let jobs = jobs_of(&Setup {
        board: &of.board,
        options: &of.options,
    })?;
    if jobs.len() != of.jobs {
        bail!(
            "the files say {} has {} jobs, this crosscap makes {}: shards of another version?",
            of.board,
            of.jobs,
            jobs.len()
        );
    }
    if let Some(result) = joined.results.iter().find(|r| r.id != jobs.id(r.job)) {
        bail!(
            "job {} is `{}` in the files, `{}` on {} here: shards of another version?",
            result.job,
            result.id,
            jobs.id(result.job),
            of.board
        );
    }
    Ok(jobs.answer(&job_values(&joined.results)?, joined.millis)?)
}

/// Shard I of N: the jobs whose number is I-1 modulo N (round robin, so that every shard
/// gets jobs of every class and hard classes spread over the shards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Reads `I/N` with 1 <= I <= N (the value parser of `--shard`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let numbers = text
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)));
        match numbers {
            Some((index, count)) if 1 <= index && index <= count => Ok(Shard { index, count }),
            _ => Err("expected I/N with 1 <= I <= N, e.g. 1/4".to_string()),
        }
    }

    pub fn takes(self, job: usize) -> bool {
        job % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a solve split into jobs is of: every shard file and job file of one solve says
/// the same, and files that differ here are never joined.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveOf {
    pub game: String,
    /// The kind of solve, e.g. `all-openings`.
    pub solve: String,
    pub board: String,
    /// The game's options the solve ran under.
    pub options: serde_json::Value,
    /// How many jobs the whole solve has.
    pub jobs: usize,
}

impl fmt::Display for SolveOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} of {} ({} jobs, options {})",
            self.game, self.solve, self.board, self.jobs, self.options
        )
    }
}

/// One job's result, as the files keep it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The job's number in the solve.
    pub job: usize,
    /// The job's name, e.g. `a1 b2` (a first move and a reply).
    pub id: String,
    #[serde(flatten)]
    pub status: Status,
    /// Who wins after the job's move, when it is solved (`null` for a draw).
    pub winner: Option<Player>,
    /// The move's value for the player who made it (1 a win, -1 a loss, 0 a draw; a scored
    /// game's margin in its rule's terms), when it is solved.
    pub value: Option<i32>,
    /// What a job cut short proved of its value: bounds, each when known (absent for
    /// games whose searches prove none before the value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_at_least: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_at_most: Option<i32>,
    pub nodes: u64,
    pub millis: f64,
}

/// The budget each job of a solve ran under, as its flags gave it (`null`: no limit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobBudget {
    pub max_seconds: Option<f64>,
    pub max_nodes: Option<u64>,
    /// Bytes.
    pub max_memory: Option<usize>,
    /// Whether Projective Hex's solvers ran the H-search of virtual connections (its flag
    /// changes the nodes, not the answers); `None`, and no key, for the games without one
    /// and in files written before it was recorded.
    ///
    /// A merge of shards written before and after it was recorded reads the older ones as
    /// `None` (they could not run the H-search, which came with its record): the answers
    /// are those of every shard (the H-search changes nodes, not values), the merged
    /// `virtual_connections` is true only when every shard ran it, and each budget is
    /// listed with its own flags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_connections: Option<bool>,
    /// The threads of each job's search where the game's solver takes `--threads` (Euler
    /// Getter's; they change nodes and time, not values); `None`, and no key, for the
    /// other games and in files written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
}

impl From<&Budget> for JobBudget {
    fn from(budget: &Budget) -> JobBudget {
        JobBudget {
            max_seconds: budget.max_time.map(|time| time.as_secs_f64()),
            max_nodes: budget.max_nodes,
            max_memory: budget.max_memory,
            virtual_connections: None,
            threads: budget.threads,
        }
    }
}

impl JobBudget {
    /// What every one of `budgets` recorded of a setting, when all recorded the same;
    /// `None` when they differ or some file did not record it.
    pub fn agreed<T: PartialEq>(
        budgets: &[Option<JobBudget>],
        setting: impl Fn(&JobBudget) -> Option<T>,
    ) -> Option<T> {
        let mut settings = budgets
            .iter()
            .map(|budget| budget.as_ref().and_then(&setting));
        let first = settings.next()??;
        settings
            .all(|other| other.as_ref() == Some(&first))
            .then_some(first)
    }
}

/// The flags that give the budget: `--max-seconds 60 --max-memory 512MiB`, and the
/// H-search's.
impl fmt::Display for JobBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut flags = Vec::new();
        if let Some(seconds) = self.max_seconds {
            flags.push(format!("--max-seconds {seconds}"));
        }
        if let Some(nodes) = self.max_nodes {
            flags.push(format!("--max-nodes {nodes}"));
        }
        if let Some(bytes) = self.max_memory {
            flags.push(format!(
                "--max-memory {}MiB",
                bytes as f64 / (1 << 20) as f64
            ));
        }
        match flags.is_empty() {
            true => f.write_str("no limit")?,
            false => f.write_str(&flags.join(" "))?,
        }
        if self.virtual_connections == Some(true) {
            f.write_str(" with --virtual-connections")?;
        }
        Ok(())
    }
}

/// `budget` and the `earlier` budgets of jobs reused from a job directory, each once.
fn with_earlier(
    budget: Option<JobBudget>,
    earlier: Vec<Option<JobBudget>>,
) -> Vec<Option<JobBudget>> {
    let mut budgets = vec![budget];
    for other in earlier {
        if !budgets.contains(&other) {
            budgets.push(other);
        }
    }
    budgets
}

/// The budgets a solve's jobs ran under, in words: one, or each of several (`unrecorded`
/// for shard files written before budgets were recorded), each once (budgets that differ
/// only in their threads read alike).
pub fn budgets_text(budgets: &[Option<JobBudget>]) -> String {
    let mut texts: Vec<String> = Vec::new();
    for budget in budgets {
        let text = budget
            .as_ref()
            .map_or("unrecorded".to_string(), ToString::to_string);
        if !texts.contains(&text) {
            texts.push(text);
        }
    }
    texts.join(", or ")
}

/// The result file of a shard (`--shard I/N`, written to `--out`).
#[derive(Debug, Serialize, Deserialize)]
pub struct ShardFile {
    #[serde(flatten)]
    pub of: SolveOf,
    /// `I/N`.
    pub shard: String,
    /// `solved` when every job of the shard is.
    #[serde(flatten)]
    pub status: Status,
    /// Nodes of the shard's jobs, and the shard's wall time.
    pub nodes: u64,
    pub millis: f64,
    /// The budget of the jobs solved in the run that wrote the file (absent from files of
    /// older versions).
    #[serde(default)]
    pub budget: Option<JobBudget>,
    /// The other budgets of jobs reused from the job directory (`--jobs`), as their files
    /// recorded them (`null`: not recorded): a restart under other `--threads` or limits
    /// reports both (absent when none differ, and from files of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_budgets: Vec<Option<JobBudget>>,
    /// The shard's jobs, by number.
    pub results: Vec<JobResult>,
}

/// A finished job recorded in a job directory (`--jobs DIR`).
#[derive(Serialize, Deserialize)]
struct JobFile {
    #[serde(flatten)]
    of: SolveOf,
    /// The flags the job ran under (`None` in files written before they were recorded):
    /// a restart under other flags that the answer reports is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ran_under: Option<JobBudget>,
    result: JobResult,
}

/// The flags of a run that its answer reports beside the values (Projective Hex's
/// `--virtual-connections`), in words.
fn reported_flags(budget: &JobBudget) -> &'static str {
    match budget.virtual_connections {
        Some(true) => "with --virtual-connections",
        Some(false) => "without --virtual-connections",
        None => "without flags of its own",
    }
}

/// The default name of a shard's result file: the game, the board and the shard, with
/// anything but letters, digits, `.` and `-` turned into `-`.
pub fn default_shard_file(of: &SolveOf, shard: Shard) -> PathBuf {
    let name = format!(
        "{}-{}-shard-{}-of-{}.json",
        of.game, of.board, shard.index, shard.count
    );
    name.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' => c,
            _ => '-',
        })
        .collect::<String>()
        .into()
}

/// One run of a solve's jobs: those of its shard (or all of them) that the job directory
/// does not hold yet. Finished jobs are recorded in the directory as they finish (solved
/// ones only: a job cut short by its budget runs again on a restart, perhaps with more).
pub struct JobRun {
    of: SolveOf,
    ran_under: JobBudget,
    shard: Option<Shard>,
    dir: Option<PathBuf>,
    /// Results of the run's jobs: from the directory, then as they finish.
    results: Mutex<BTreeMap<usize, JobResult>>,
    reused: usize,
    /// The budgets the reused jobs' files recorded other than `ran_under`, each once.
    earlier: Vec<Option<JobBudget>>,
    /// The first job file that could not be written.
    write_error: Mutex<Option<anyhow::Error>>,
    bar: ProgressBar,
    /// The nodes of the jobs' searches, for the bar.
    counter: NodeCounter,
}

impl JobRun {
    /// Starts a run under `ran_under`, reading the jobs already finished from `dir`
    /// (created when missing); `id` names each job, and a recorded job of another name, or
    /// run under other flags that the answer reports, is refused.
    pub fn start(
        of: SolveOf,
        ran_under: &JobBudget,
        shard: Option<Shard>,
        dir: Option<&Path>,
        id: &dyn Fn(usize) -> String,
    ) -> anyhow::Result<JobRun> {
        let mut results = BTreeMap::new();
        let mut earlier = Vec::new();
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the job directory {}", dir.display()))?;
            for (result, budget) in read_job_dir(dir, &of, ran_under, id)? {
                if shard.is_none_or(|s| s.takes(result.job)) {
                    results.insert(result.job, result);
                    if budget.as_ref() != Some(ran_under) && !earlier.contains(&budget) {
                        earlier.push(budget);
                    }
                }
            }
        }
        let total = (0..of.jobs)
            .filter(|&job| shard.is_none_or(|s| s.takes(job)))
            .count();
        let reused = results.len();
        let counter = NodeCounter::new();
        let bar = long_steps_bar(total as u64, "jobs", &counter);
        bar.inc(reused as u64);
        Ok(JobRun {
            of,
            ran_under: ran_under.clone(),
            shard,
            dir: dir.map(Path::to_path_buf),
            results: Mutex::new(results),
            reused,
            earlier,
            write_error: Mutex::new(None),
            bar,
            counter,
        })
    }

    /// The jobs left to solve, by number.
    pub fn todo(&self) -> Vec<usize> {
        let results = self.results.lock().expect("no panics");
        (0..self.of.jobs)
            .filter(|&job| self.shard.is_none_or(|s| s.takes(job)) && !results.contains_key(&job))
            .collect()
    }

    /// `budget`, counting the nodes of the jobs' searches for the bar when it is drawn.
    pub fn counting(&self, budget: &Budget) -> Budget {
        counting(&self.bar, budget, &self.counter)
    }

    /// How many of the run's jobs came from the job directory.
    pub fn reused(&self) -> usize {
        self.reused
    }

    /// Keeps a finished job's result and, when it is solved, records it in the job
    /// directory: written to a temporary file and renamed, so that a kill never leaves a
    /// half-written job behind.
    pub fn finished(&self, result: JobResult) {
        if let (Some(dir), Status::Solved) = (&self.dir, result.status) {
            let file = JobFile {
                of: self.of.clone(),
                ran_under: Some(self.ran_under.clone()),
                result: result.clone(),
            };
            if let Err(error) = write_job_file(dir, &file) {
                self.write_error
                    .lock()
                    .expect("no panics")
                    .get_or_insert(error);
            }
        }
        self.bar.inc(1);
        self.results
            .lock()
            .expect("no panics")
            .insert(result.job, result);
    }

    /// Every result of the run's jobs, by number, once all are finished, and the other
    /// budgets the reused ones ran under; the first job file that could not be written is
    /// an error.
    #[allow(clippy::type_complexity)]
    pub fn finish(self) -> anyhow::Result<(SolveOf, Vec<JobResult>, Vec<Option<JobBudget>>)> {
        self.bar.finish_and_clear();
        if let Some(error) = self.write_error.into_inner().expect("no panics") {
            return Err(error);
        }
        let results = self.results.into_inner().expect("no panics");
        Ok((self.of, results.into_values().collect(), self.earlier))
    }
}

fn write_job_file(dir: &Path, file: &JobFile) -> anyhow::Result<()> {
    let job = file.result.job;
    let path = dir.join(format!("job-{job}.json"));
    let temporary = dir.join(format!(".job-{job}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, serde_json::to_string_pretty(file)?)
        .and_then(|()| std::fs::rename(&temporary, &path))
        .with_context(|| format!("cannot record job {job} in {}", path.display()))
}

/// The jobs recorded in `dir`, with the budget each recorded: its `job-N.json` files
/// (temporary files left by a kill are ignored), each of the solve `of`, run under the
/// flags of `ran_under` that the answer reports, and named as `id` names it.
fn read_job_dir(
    dir: &Path,
    of: &SolveOf,
    ran_under: &JobBudget,
    id: &dyn Fn(usize) -> String,
) -> anyhow::Result<Vec<(JobResult, Option<JobBudget>)>> {
    let mut results = Vec::new();
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if !(name.starts_with("job-") && name.ends_with(".json")) {
            continue;
        }
        let file: JobFile = read_json(&path, "job file")?;
        if file.of != *of {
            bail!(
                "{} is a job of another solve ({}), not of this one ({of})",
                path.display(),
                file.of
            );
        }
        // Files of games without such flags read alike, recorded or not.
        let theirs = match &file.ran_under {
            Some(budget) => reported_flags(budget),
            None if ran_under.virtual_connections.is_none() => reported_flags(ran_under),
            None => "under flags it did not record (an older crosscap)",
        };
        let ours = reported_flags(ran_under);
        if theirs != ours {
            bail!(
                "{} is a job solved {theirs}, and this run is {ours}: restart with the same \
                 flags or another --jobs directory",
                path.display()
            );
        }
        if file.result.job >= of.jobs || file.result.status != Status::Solved {
            bail!(
                "{} holds no solved job of the {} jobs",
                path.display(),
                of.jobs
            );
        }
        if file.result.id != id(file.result.job) {
            bail!(
                "{} holds job {} as `{}`, this solve names it `{}`",
                path.display(),
                file.result.job,
                file.result.id,
                id(file.result.job)
            );
        }
        results.push((file.result, file.ran_under));
    }
    Ok(results)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> anyhow::Result<T> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is no {what}", path.display()))
}

/// Writes a shard's result file and prints its jobs (a table in `format`, as text with a
/// line on the work, or the file with `--json`).
pub fn emit_shard(
    of: SolveOf,
    shard: Shard,
    results: Vec<JobResult>,
    (budget, earlier_budgets): (JobBudget, Vec<Option<JobBudget>>),
    millis: f64,
    (file, format): (&Path, TableFormat),
    out: &Output,
) -> anyhow::Result<Answer> {
    let shard_file = ShardFile {
        of,
        shard: shard.to_string(),
        status: Status::of_parts(results.iter().map(|r| r.status)),
        nodes: results.iter().map(|r| r.nodes).sum(),
        millis,
        budget: Some(budget),
        earlier_budgets,
        results,
    };
    std::fs::write(file, serde_json::to_string_pretty(&shard_file)?)
        .with_context(|| format!("cannot write {}", file.display()))?;
    out.emit_status(&shard_file, shard_file.status, || {
        let mut table = Table::new(&["job", "move", "winner", "nodes", "ms"]);
        for result in &shard_file.results {
            let winner = match result.status {
                Status::Solved => result
                    .winner
                    .map_or("nobody".to_string(), |w| w.to_string()),
                Status::Unknown { .. } => status_text(&result.status),
            };
            table.push(vec![
                result.job.to_string(),
                result.id.clone(),
                winner,
                result.nodes.to_string(),
                format!("{:.1}", result.millis),
            ]);
        }
        if format != TableFormat::Text {
            return table.render(format);
        }
        format!(
            "{}shard {} of {}: {} of {} jobs, {} in {:.1} ms, each job under {}, written to {}\n",
            table.render(format),
            shard_file.shard,
            shard_file.of.board,
            shard_file.results.len(),
            shard_file.of.jobs,
            nodes_text(shard_file.nodes),
            shard_file.millis,
            budgets_text(&with_earlier(
                shard_file.budget.clone(),
                shard_file.earlier_budgets.clone()
            )),
            file.display()
        )
    })
}

/// Shard files joined: every job of one solve, by number.
pub struct Joined {
    pub of: SolveOf,
    pub results: Vec<JobResult>,
    /// The shards' wall times added up.
    pub millis: f64,
    /// The budgets the shards' jobs ran under, each once, in the order of the files.
    pub budgets: Vec<Option<JobBudget>>,
}

/// Joins shard files of one solve; files of different solves, a job in two files, a job
/// in none and files that are no shard files are refused.
pub fn join(files: &[PathBuf]) -> anyhow::Result<Joined> {
    let mut of: Option<(SolveOf, &Path)> = None;
    let mut by_job: BTreeMap<usize, (JobResult, &Path)> = BTreeMap::new();
    let mut millis = 0.0;
    let mut budgets = Vec::new();
    for path in files {
        let shard: ShardFile = read_json(path, "shard file")?;
        for budget in with_earlier(shard.budget.clone(), shard.earlier_budgets.clone()) {
            if !budgets.contains(&budget) {
                budgets.push(budget);
            }
        }
        match &of {
            Some((first, first_path)) if *first != shard.of => bail!(
                "{} and {} are shards of different solves ({first} and {})",
                first_path.display(),
                path.display(),
                shard.of
            ),
            Some(_) => {}
            None => of = Some((shard.of.clone(), path)),
        }
        millis += shard.millis;
        for result in shard.results {
            if result.job >= shard.of.jobs {
                bail!(
                    "{} holds job {} of a solve of {} jobs",
                    path.display(),
                    result.job,
                    shard.of.jobs
                );
            }
            if let Some((_, other)) = by_job.get(&result.job) {
                bail!(
                    "job {} ({}) is in both {} and {}",
                    result.job,
                    result.id,
                    other.display(),
                    path.display()
                );
            }
            by_job.insert(result.job, (result, path));
        }
    }
    let Some((of, _)) = of else {
        bail!("merge needs at least one shard file");
    };
    let missing: Vec<String> = (0..of.jobs)
        .filter(|job| !by_job.contains_key(job))
        .map(|job| job.to_string())
        .collect();
    if !missing.is_empty() {
        const SHOWN: usize = 12;
        let more = match missing.len() {
            n if n > SHOWN => format!(" and {} more", n - SHOWN),
            _ => String::new(),
        };
        bail!(
            "{} of the {} jobs are in no file given: {}{more}",
            missing.len(),
            of.jobs,
            missing[..missing.len().min(SHOWN)].join(", ")
        );
    }
    Ok(Joined {
        of,
        results: by_job.into_values().map(|(result, _)| result).collect(),
        millis,
        budgets,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The shard file of the one job of goldberg:1, as `solve --all-openings --shard 1/1`
    /// writes it.
    const GOLDBERG_1: &str = r#"{"game": "projective-hex", "solve": "all-openings",
        "board": "goldberg:1", "options": {"opening": "standard"}, "jobs": 1, "shard": "1/1",
        "status": "solved", "nodes": 1, "millis": 33.9, "results": [{"job": 0, "id": "1 2",
        "status": "solved", "winner": "X", "value": -1, "nodes": 1, "millis": 0.02}]}"#;

    /// `crosscap merge` of one file holding `text`.
    fn merge_text(text: &[u8]) -> anyhow::Result<Answer> {
        let file = std::env::temp_dir().join(format!(
            "crosscap-merge-{}-{:?}.json",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::write(&file, text).unwrap();
        let merged = crate::commands::merge(
            std::slice::from_ref(&file),
            TableFormat::Text,
            &Output::capturing(true),
        );
        std::fs::remove_file(file).unwrap();
        merged
    }

    #[test]
    fn a_whole_shard_merges() {
        assert!(matches!(
            merge_text(GOLDBERG_1.as_bytes()),
            Ok(Answer::Complete)
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Any file content gives an answer or a clean error, never a panic: arbitrary
        /// bytes, and a real shard file with bytes changed or cut short.
        #[test]
        fn any_file_content_merges_or_is_refused(
            junk in proptest::collection::vec(any::<u8>(), 0..200),
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
            cut in any::<prop::sample::Index>(),
        ) {
            let _ = merge_text(&junk);
            let mut edited = GOLDBERG_1.as_bytes().to_vec();
            for (at, byte) in edits {
                let at = at.index(edited.len());
                edited[at] = byte;
            }
            let _ = merge_text(&edited);
            let _ = merge_text(&GOLDBERG_1.as_bytes()[..cut.index(GOLDBERG_1.len())]);
        }
    }

    fn budget(threads: Option<usize>, virtual_connections: Option<bool>) -> Option<JobBudget> {
        Some(JobBudget {
            max_seconds: Some(600.0),
            max_nodes: None,
            max_memory: Some(512 << 20),
            virtual_connections,
            threads,
        })
    }

    /// A setting is agreed only when every budget recorded the same value: files that
    /// differ, an unrecorded budget and a budget without the setting agree on nothing.
    #[test]
    fn a_setting_is_agreed_only_when_every_budget_recorded_it_alike() {
        let threads = |budgets: &[Option<JobBudget>]| JobBudget::agreed(budgets, |b| b.threads);
        assert_eq!(threads(&[budget(Some(2), None)]), Some(2));
        assert_eq!(
            threads(&[budget(Some(2), None), budget(Some(2), None)]),
            Some(2)
        );
        assert_eq!(
            threads(&[budget(Some(2), None), budget(Some(1), None)]),
            None
        );
        assert_eq!(threads(&[budget(Some(2), None), budget(None, None)]), None);
        assert_eq!(threads(&[budget(Some(2), None), None]), None);
        assert_eq!(threads(&[]), None);
    }

    /// Budgets that differ only in what their text leaves out (the threads) are named once.
    #[test]
    fn budgets_reading_alike_are_named_once() {
        let text = budgets_text(&[
            budget(Some(1), None),
            budget(Some(2), None),
            None,
            budget(None, Some(true)),
        ]);
        assert_eq!(
            text,
            "--max-seconds 600 --max-memory 512MiB, or unrecorded, or --max-seconds 600 \
             --max-memory 512MiB with --virtual-connections"
        );
    }

    #[test]
    fn shards_take_every_job_once() {
        for count in 1..6 {
            for job in 0..40 {
                let takers = (1..=count)
                    .filter(|&index| Shard { index, count }.takes(job))
                    .count();
                assert_eq!(takers, 1, "job {job} of {count} shards");
            }
        }
    }

    #[test]
    fn shard_syntax_is_checked() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::parse("2/3").unwrap().to_string(), "2/3");
        for bad in [
            "0/2", "3/2", "x", "1/0", "1/", "/2", "1/2/3", " 1/2", "-1/2", "",
        ] {
            assert!(Shard::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn default_names_are_plain_file_names() {
        let of = SolveOf {
            game: "projective-hex".into(),
            solve: "all-openings".into(),
            board: "file:/tmp/a b.txt".into(),
            options: serde_json::json!({}),
            jobs: 3,
        };
        let name = default_shard_file(&of, Shard { index: 1, count: 2 });
        assert_eq!(
            name,
            PathBuf::from("projective-hex-file--tmp-a-b.txt-shard-1-of-2.json")
        );
    }
}
