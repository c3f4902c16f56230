//! `crosscap nim`: the engine's reference game.

use anyhow::bail;
use clap::Subcommand;
use crosscap_engine::agents::standard_agent;
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::nim::{Nim, format_move};
use crosscap_engine::solver::{Budget, solve};
use crosscap_engine::{Agent, GrundyTable, Level, NormalPlay};
use serde::Serialize;

use crate::output::{Output, Table, TableFormat, grundy_text};
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
    /// Every P-position of K heaps with sizes up to N (each listed once, heaps ascending).
    PPositions {
        /// Number of heaps.
        #[arg(long, default_value_t = 3)]
        heaps: usize,
        /// Largest heap size.
        #[arg(long)]
        max: u32,
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
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
struct PPositionsReport {
    heaps: usize,
    max: u32,
    count: usize,
    positions: Vec<Vec<u32>>,
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
                grundy_text(report.grundy, &report.winning_moves)
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
        NimCommand::PPositions { heaps, max, format } => {
            if heaps == 0 || heaps > 6 || max > 255 {
                bail!("p-positions takes 1 to 6 heaps of at most 255 counters");
            }
            let positions = p_positions(heaps, max);
            let headers: Vec<String> = (1..=heaps).map(|i| format!("heap {i}")).collect();
            let mut table = Table::new(&headers.iter().map(String::as_str).collect::<Vec<_>>());
            for p in &positions {
                table.push(p.iter().map(u32::to_string).collect());
            }
            let report = PPositionsReport {
                heaps,
                max,
                count: positions.len(),
                positions,
            };
            out.emit(&report, || table.render(format))
        }
        NimCommand::Play { heaps, play } => {
            let game = NormalPlay::new(Nim::new(heaps));
            play_in_terminal(
                game,
                play.colour,
                nim_agent(play.level_or(Level::Perfect), play.seed),
                &|g| render(g),
            )
        }
        NimCommand::Arena { heaps, arena } => {
            check_search_size(&heaps)?;
            let game = NormalPlay::new(Nim::new(heaps));
            run_arena(&game, &nim_agent, &arena, out).map(|_| ())
        }
    }
}

/// Every ascending tuple of `heaps` sizes in `0..=max` whose Grundy value, computed by the
/// engine, is 0.
fn p_positions(heaps: usize, max: u32) -> Vec<Vec<u32>> {
    let mut table = GrundyTable::new();
    let mut found = Vec::new();
    let mut tuple = vec![0u32; heaps];
    loop {
        if table.grundy(&Nim::new(tuple.clone())) == 0 {
            found.push(tuple.clone());
        }
        // Next ascending tuple: bump the last entry that can grow, reset the rest to it.
        let Some(i) = (0..heaps).rev().find(|&i| tuple[i] < max) else {
            return found;
        };
        let v = tuple[i] + 1;
        tuple[i..].iter_mut().for_each(|t| *t = v);
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
