//! `crosscap nim`: the engine's reference game.

use anyhow::bail;
use clap::Subcommand;
use crosscap_engine::agents::standard_agent;
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::nim::{Nim, format_move};
use crosscap_engine::solver::{Budget, solve};
use crosscap_engine::{Agent, GrundyTable, Level, NormalPlay};
use serde::Serialize;

use crate::output::Output;
use crate::terminal::{ArenaArgs, PlayArgs, play_in_terminal, run_arena};

#[derive(Subcommand, Debug)]
pub enum NimCommand {
    /// The Grundy value of a position and every winning move.
    Value {
        /// Heap sizes, e.g. `3 4 5`.
        #[arg(required = true)]
        heaps: Vec<u32>,
    },
    /// Solves a position with the engine's exact solver (a check on the Grundy theory).
    Solve {
        #[arg(required = true)]
        heaps: Vec<u32>,
    },
    /// Plays Nim in the terminal against the computer.
    Play {
        #[arg(required = true)]
        heaps: Vec<u32>,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Plays two computer levels against each other.
    Arena {
        #[arg(required = true)]
        heaps: Vec<u32>,
        #[command(flatten)]
        arena: ArenaArgs,
    },
}

#[derive(Serialize)]
struct ValueReport {
    heaps: Vec<u32>,
    grundy: u32,
    outcome: &'static str,
    winning_moves: Vec<String>,
}

#[derive(Serialize)]
struct SolveReport {
    heaps: Vec<u32>,
    winner: String,
    winning_moves: Vec<String>,
    nodes: u64,
    millis: f64,
}

/// Largest total of counters the generic searches accept: beyond it, use `value`.
const MAX_SEARCH_COUNTERS: u64 = 64;

fn nim_agent(level: Level, seed: u64) -> Box<dyn Agent<NormalPlay<Nim>>> {
    standard_agent(level, MctsConfig::default(), seed)
}

pub fn run(cmd: NimCommand, out: &Output) -> anyhow::Result<()> {
    match cmd {
        NimCommand::Value { heaps } => {
            let nim = Nim::new(heaps.clone());
            // Heaps are memoised separately, so only the largest heap costs time.
            let largest = heaps.iter().copied().max().unwrap_or(0);
            if largest > 20_000 {
                bail!("heap {largest} is too large for the generic search (at most 20000)");
            }
            let mut table = GrundyTable::new();
            let grundy = table.grundy(&nim);
            let winning_moves: Vec<String> =
                table.winning_moves(&nim).iter().map(format_move).collect();
            let report = ValueReport {
                heaps,
                grundy,
                outcome: if grundy == 0 { "P" } else { "N" },
                winning_moves,
            };
            out.emit(&report, || {
                format!(
                    "Grundy value {} ({}-position)\nwinning moves: {}\n",
                    report.grundy,
                    report.outcome,
                    if report.winning_moves.is_empty() {
                        "none".to_string()
                    } else {
                        report.winning_moves.join(" ")
                    }
                )
            })
        }
        NimCommand::Solve { heaps } => {
            check_search_size(&heaps)?;
            let game = NormalPlay::new(Nim::new(heaps.clone()));
            let solution = solve(&game, Budget::unlimited())?;
            let winner = if solution.value > 0 {
                "first"
            } else {
                "second"
            };
            let report = SolveReport {
                heaps,
                winner: winner.to_string(),
                winning_moves: if solution.value > 0 {
                    solution.best_moves.iter().map(format_move).collect()
                } else {
                    Vec::new()
                },
                nodes: solution.nodes,
                millis: solution.elapsed.as_secs_f64() * 1000.0,
            };
            out.emit(&report, || {
                format!(
                    "the {} player wins; winning moves: {}\n{} nodes in {:.1} ms\n",
                    report.winner,
                    report.winning_moves.join(" "),
                    report.nodes,
                    report.millis
                )
            })
        }
        NimCommand::Play { heaps, play } => {
            let game = NormalPlay::new(Nim::new(heaps));
            play_in_terminal(game, play.colour, nim_agent(play.level, play.seed), &|g| {
                render(g)
            })
        }
        NimCommand::Arena { heaps, arena } => {
            check_search_size(&heaps)?;
            let game = NormalPlay::new(Nim::new(heaps));
            run_arena(&game, &nim_agent, &arena, out).map(|_| ())
        }
    }
}

fn check_search_size(heaps: &[u32]) -> anyhow::Result<()> {
    let total: u64 = heaps.iter().map(|&h| h as u64).sum();
    if total > MAX_SEARCH_COUNTERS {
        bail!(
            "{total} counters is too many for a full game-tree search (at most {MAX_SEARCH_COUNTERS})"
        );
    }
    Ok(())
}

fn render(game: &NormalPlay<Nim>) -> String {
    game.position
        .heaps
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            format!(
                "heap {}: {:>3} {}",
                i + 1,
                h,
                "|".repeat(h.min(60) as usize)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
