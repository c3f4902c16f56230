//! `crosscap projective-hex`: its own commands, `winner` (who has a global loop), `verify`
//! (a certificate, by the checker alone), `solve --all-openings` (every first move of the
//! empty board), `solve --certificate` (the winning strategy written out) and `patterns`
//! (move patterns counted in seeded self-play).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use crosscap_certificate::{ClaimSummary, MAX_CARRIER};
use crosscap_engine::catalog::{GameDescriptor, Setup, Status};
use crosscap_engine::jobs::SplitSolve;
use crosscap_engine::session::{GameMatch, Match};
use crosscap_engine::{Cancel, Exhausted, Level, Player};
use crosscap_projective_hex::exact::{CARRIER_CELLS, CertifyError, certify, certify_openings};
use crosscap_projective_hex::patterns::{Pattern, PatternCount, is_reproducible, learn};
use crosscap_projective_hex::search::pattern_learner;
use crosscap_projective_hex::{
    DESCRIPTOR, HexHost, NotAtStart, OpeningJobs, OpeningResult, Openings, ProjectiveHex,
    WinningReplies, loop_winner, setup_game,
};
use serde::Serialize;
use serde_json::json;

use crate::host::{Described, GameSetup, SetupArgs, solved_text};
use crate::jobs::{ALL_OPENINGS, JobBudget, SolveOf};
use crate::limits::{BudgetArgs, parse_games, parse_level, parse_max_minutes, setup_limits};
use crate::openings::{self, AllOpenings, AllOpeningsArgs, OpeningsHelp, with_game_help};
use crate::output::{Answer, Output, Table, TableFormat, progress_bar, with_search_bar};
use crate::terminal::Deadline;

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
    Verify(super::VerifyArgs),
    /// Learns move patterns from seeded self-play: for each cell's ring of neighbours
    /// (empty, own, opponent's, opponent's last stone; one class per rotation and
    /// reflection), how often a move of it was available, played, and played by the
    /// winner. The same seed and level give the same counts.
    Patterns(PatternsArgs),
}

/// The flags of `patterns`.
#[derive(Args, Debug)]
pub struct PatternsArgs {
    /// The board the games are played on.
    #[arg(long, default_value = "taylor:5")]
    board: String,
    /// Self-play games, 1 to 1000000.
    #[arg(long, default_value = "20", value_parser = parse_games)]
    games: usize,
    /// Both sides' level, with a budget in iterations or playouts (mcts:N, plain:mcts:N,
    /// flatmc:N, random) so that the games are reproducible; MCTS levels play without
    /// priors, so the patterns never depend on the patterns built in.
    #[arg(long, default_value = "mcts:300", value_parser = parse_level)]
    level: Level,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the counts to FILE in the format the players read (the command in
    /// its header).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Stop after this many minutes (above 0, at most 1440, fractions allowed): games
    /// under way are dropped, the finished ones are shown, no file is written, exit
    /// status 3.
    #[arg(long, default_value = "60", value_parser = parse_max_minutes)]
    max_minutes: Duration,
    /// Table format for text output.
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    format: TableFormat,
}

/// The flags Projective Hex adds to `solve`: every opening, the H-search and the
/// certificate.
#[derive(Args, Debug)]
pub struct HexSolveArgs {
    #[command(flatten)]
    openings: AllOpeningsArgs,
    /// Run the H-search of virtual connections (loops held or threatened through
    /// carriers of at most 12 empty cells) at positions of at most 14 empty cells: the
    /// same answers, fewer nodes, dearer ones (off by default; BENCHMARKS.md).
    #[arg(long, conflicts_with = "certificate")]
    virtual_connections: bool,
    /// Write the winning strategy to FILE (zstd-compressed), for `verify` to check: of the
    /// position, or with --all-openings of every first move (one searched per class, the
    /// others carried onto it by symmetries) and the empty board.
    /// Written only when everything is solved within the budget.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// With --certificate: carrier leaves of at most K empty cells (0 to 12; 0: none, every
    /// line written out), inside which the checker searches every line itself: larger
    /// carriers make smaller certificates that take longer to check.
    #[arg(
        long,
        value_name = "K",
        default_value_t = CARRIER_CELLS,
        value_parser = parse_carrier_cells,
        requires = "certificate"
    )]
    carrier_cells: usize,
}

/// A carrier's most empty cells: the checker takes up to [`MAX_CARRIER`].
fn parse_carrier_cells(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(cells) if cells <= MAX_CARRIER => Ok(cells),
        _ => Err(format!(
            "expected a number of cells from 0 to {MAX_CARRIER}"
        )),
    }
}

/// The game's subcommand with its own commands and flags.
pub fn commands(command: Command) -> Command {
    ProjectiveHexCommand::augment_subcommands(command).mut_subcommand("solve", |solve| {
        with_game_help::<OpeningJobs>(HexSolveArgs::augment_args(solve))
    })
}

/// Runs the game's own commands, and `solve --all-openings`; `matches` are the game's.
pub fn run(matches: &ArgMatches, out: &Output) -> Option<anyhow::Result<Answer>> {
    if let Some(answer) = super::own(matches, out, |command, out| match command {
        ProjectiveHexCommand::Winner { game } => winner(&game.setup, out),
        ProjectiveHexCommand::Verify(args) => {
            super::verify_file(&args, crosscap_certificate::Kind::ProjectiveHex, out)
        }
        ProjectiveHexCommand::Patterns(args) => patterns(&args, out),
    }) {
        return Some(answer);
    }
    let solve = matches.subcommand_matches("solve")?;
    let args = HexSolveArgs::from_arg_matches(solve).ok()?;
    if let Some(file) = &args.certificate {
        return Some(write_certificate(solve, &args, file, out));
    }
    if args.openings.all_openings {
        return Some(solve_openings(solve, &args, out));
    }
    args.virtual_connections
        .then(|| solve_with_virtual_connections(solve, out))
}

/// `solve` of one position as every game's, its solver running the H-search.
fn solve_with_virtual_connections(matches: &ArgMatches, out: &Output) -> anyhow::Result<Answer> {
    let budget = BudgetArgs::from_arg_matches(matches)?.budget();
    let game = GameSetup::read(matches, &DESCRIPTOR.info)
        .with(|setup| setup_game(setup, &setup_limits()))?;
    let mut solved = with_search_bar("solving", &budget, |budget| {
        GameMatch::<HexHost<true>> { game }.solve(budget)
    });
    solved
        .extra
        .insert("virtual_connections".to_string(), json!(true));
    out.emit_status(&solved, solved.status, || solved_text(&solved))
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

/// Projective Hex's all-openings solve (a job per reply to a first move) as the CLI runs
/// and prints it.
impl AllOpenings for OpeningJobs {
    type Value = WinningReplies;
    type RunKeys = RanHSearch;
    const HELP: OpeningsHelp = OpeningsHelp {
        all_openings: "Solve every first move of the empty board instead (one per class of \
                       symmetric cells, the classes in parallel); the budget applies to each \
                       reply to a first move",
        job: "a first move and a reply",
        recorded: ["job", "jobs"],
    };
    const COLUMNS: &'static [&'static str] = &["winner", "O's winning replies"];
    const JOB: &'static str = "reply";

    fn of_setup(setup: &Setup) -> anyhow::Result<OpeningJobs> {
        opening_jobs(&setup_game(setup, &setup_limits())?)
    }

    fn columns(class: &OpeningResult) -> Vec<String> {
        let replies = &class.value.winning_replies;
        match class.status {
            Status::Solved if replies.is_empty() => {
                vec![player_text(class.winner), "none".to_string()]
            }
            Status::Solved => vec![player_text(class.winner), replies.join(" ")],
            Status::Unknown { .. } => vec!["unknown".to_string(), "unknown".to_string()],
        }
    }

    fn headline(report: &Openings) -> String {
        let verdict = match report.winner {
            Some(w) => format!("{w} wins"),
            None => "the winner is unknown".to_string(),
        };
        format!(
            "{}: {verdict}; winning first moves: {}",
            report.board,
            match (report.winning_moves.is_empty(), report.status) {
                (false, _) => report.winning_moves.join(" "),
                (true, Status::Solved) => "none".to_string(),
                (true, Status::Unknown { .. }) => "none proved".to_string(),
            }
        )
    }

    fn run_keys(budgets: &[Option<JobBudget>]) -> RanHSearch {
        RanHSearch {
            virtual_connections: JobBudget::agreed(budgets, |b| b.virtual_connections)
                == Some(true),
        }
    }
}

/// Whether every job of an all-openings answer ran the H-search of virtual connections.
#[derive(Serialize)]
pub struct RanHSearch {
    virtual_connections: bool,
}

/// The all-openings solve as jobs: all of them, or a shard's, less those the job
/// directory holds.
fn solve_openings(
    matches: &ArgMatches,
    args: &HexSolveArgs,
    out: &Output,
) -> anyhow::Result<Answer> {
    let clock = Instant::now();
    let budget = BudgetArgs::from_arg_matches(matches)?.budget();
    let start = GameSetup::read(matches, &DESCRIPTOR.info)
        .with(|setup| setup_game(setup, &setup_limits()))?;
    let mut jobs = opening_jobs(&start)?;
    jobs.set_virtual_connections(args.virtual_connections);
    let of = SolveOf {
        game: DESCRIPTOR.info.name.to_string(),
        solve: ALL_OPENINGS.to_string(),
        board: start.board().spec().to_string(),
        options: json!({ "opening": "standard" }),
        jobs: jobs.len(),
    };
    let ran_under = JobBudget {
        virtual_connections: Some(args.virtual_connections),
        ..JobBudget::from(&budget)
    };
    openings::solve(&jobs, of, &budget, ran_under, &args.openings, clock, out)
}

fn opening_jobs(start: &ProjectiveHex) -> anyhow::Result<OpeningJobs> {
    OpeningJobs::of(start).map_err(|NotAtStart| {
        anyhow::anyhow!("--all-openings analyses the empty board under the standard opening")
    })
}

/// The claims a Projective Hex certificate proves, one a start position.
#[derive(Default, Serialize)]
struct Claims {
    claims: Vec<ClaimSummary>,
}

fn write_certificate(
    matches: &ArgMatches,
    args: &HexSolveArgs,
    file: &Path,
    out: &Output,
) -> anyhow::Result<Answer> {
    let budget = BudgetArgs::from_arg_matches(matches)?.budget();
    let start = GameSetup::read(matches, &DESCRIPTOR.info)
        .with(|setup| setup_game(setup, &setup_limits()))?;
    let board = start.board().spec().to_string();
    let carrier_cells = args.carrier_cells;
    let certified = with_search_bar("certifying", &budget, |budget| {
        if args.openings.all_openings {
            certify_openings(&start, budget, carrier_cells)
        } else {
            certify(std::slice::from_ref(&start), budget, carrier_cells)
        }
    });
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

/// One pattern's row of `patterns`.
#[derive(Serialize)]
struct PatternRow {
    pattern: Pattern,
    degree: usize,
    #[serde(flatten)]
    count: PatternCount,
    play_rate: f64,
    win_rate: Option<f64>,
}

/// `patterns`' answer.
#[derive(Serialize)]
struct LearntPatterns {
    board: String,
    /// Games played to the end and counted.
    games: u64,
    /// `solved` when every game asked for was played, else `unknown` with the time as the
    /// reason.
    #[serde(flatten)]
    status: Status,
    level: String,
    seed: u64,
    available: u64,
    played: u64,
    /// Most played first (by play rate).
    patterns: Vec<PatternRow>,
    file: Option<PathBuf>,
    millis: f64,
}

fn patterns(args: &PatternsArgs, out: &Output) -> anyhow::Result<Answer> {
    if !is_reproducible(args.level) {
        anyhow::bail!(
            "--level {} is timed; patterns need a level with a budget in iterations or \
             playouts (mcts:N, plain:mcts:N, flatmc:N, random) so that the games are \
             reproducible",
            args.level
        );
    }
    let clock = Instant::now();
    let stop = Cancel::new();
    let _deadline = Deadline::after(args.max_minutes, stop.clone());
    let bar = progress_bar(args.games as u64, "games");
    let learnt = learn(
        &args.board,
        args.games as u64,
        args.seed,
        &|seed| pattern_learner(args.level, seed),
        &stop,
        &|| bar.inc(1),
    )?;
    bar.finish_and_clear();
    let table = learnt.table;
    let status = if learnt.games < args.games as u64 {
        eprintln!(
            "the {} minutes of --max-minutes ran out after {} of {} games: patterns of those, \
             no file written",
            args.max_minutes.as_secs_f64() / 60.0,
            learnt.games,
            args.games
        );
        Status::Unknown {
            reason: Exhausted::Time,
        }
    } else {
        Status::Solved
    };
    let written = args.out.as_ref().filter(|_| status == Status::Solved);
    if let Some(file) = written {
        let header = format!(
            "Projective Hex move patterns learnt from self-play (issue #21), made by:\n\
             crosscap projective-hex patterns --board {} --games {} --level {} --seed {} --out {}",
            args.board,
            args.games,
            args.level,
            args.seed,
            file.display()
        );
        std::fs::write(file, table.to_text(&header))
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    let (available, played) = table.totals();
    let rate = |part: u64, whole: u64| (whole > 0).then(|| part as f64 / whole as f64);
    let mut rows: Vec<PatternRow> = table
        .counts
        .iter()
        .map(|(pattern, count)| PatternRow {
            pattern: *pattern,
            degree: pattern.degree(),
            count: *count,
            play_rate: rate(count.played, count.available).unwrap_or(0.0),
            win_rate: rate(count.wins, count.played),
        })
        .collect();
    rows.sort_by(|a, b| {
        (b.play_rate.total_cmp(&a.play_rate)).then(b.count.available.cmp(&a.count.available))
    });
    let answer = LearntPatterns {
        board: args.board.clone(),
        games: learnt.games,
        status,
        level: args.level.to_string(),
        seed: args.seed,
        available,
        played,
        patterns: rows,
        file: written.cloned(),
        millis: clock.elapsed().as_secs_f64() * 1000.0,
    };
    let mut shown = Table::new(&["pattern", "available", "played", "play rate", "win rate"]);
    for row in &answer.patterns {
        shown.push(vec![
            row.pattern.to_string(),
            row.count.available.to_string(),
            row.count.played.to_string(),
            format!("{:.4}", row.play_rate),
            row.win_rate.map_or("-".into(), |r| format!("{r:.3}")),
        ]);
    }
    out.emit_status(&answer, status, || {
        let mut text = shown.render(args.format);
        if args.format == TableFormat::Text {
            text += &format!(
                "{} games on {} at {}, seed {}: {} moves played of {} available, {} patterns \
                 (. empty, x the mover's stone, o the opponent's, * the opponent's last)\n",
                answer.games,
                answer.board,
                answer.level,
                answer.seed,
                answer.played,
                answer.available,
                answer.patterns.len()
            );
            if let Some(file) = &answer.file {
                text += &format!("written to {}\n", file.display());
            }
        }
        text
    })
}
