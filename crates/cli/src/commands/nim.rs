//! `crosscap nim`: the engine's reference game.

use anyhow::bail;
use clap::Subcommand;
use crosscap_engine::agents::standard_agent;
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::nim::{Nim, format_move};
use crosscap_engine::solver::solve;
use crosscap_engine::{Agent, GrundyTable, Level, NormalPlay, nim_sum};
use serde::Serialize;

use crate::limits::{BudgetArgs, default_seconds, setup_limits};
use crate::output::{Answer, Output, Part, Table, TableFormat, grundy_text};
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
    #[command(mut_arg("max_seconds", default_seconds("60")))]
    Solve {
        #[arg(required = true)]
        heaps: Vec<u32>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Every P-position of K heaps with sizes up to N (each listed once, heaps ascending);
    /// at most 1000000 rows are listed, `--count` counts any number.
    PPositions {
        /// Number of heaps, 1 to 6.
        #[arg(long, default_value_t = 3)]
        heaps: usize,
        /// Largest heap size, at most 255.
        #[arg(long)]
        max: u32,
        /// Print only the number of P-positions.
        #[arg(long)]
        count: bool,
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
    count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<Vec<Vec<u32>>>,
}

#[derive(Serialize)]
struct SolveReport {
    heaps: Vec<u32>,
    #[serde(flatten)]
    solved: Part<Solved>,
}

#[derive(Serialize)]
struct Solved {
    /// `first` or `second`.
    winner: &'static str,
    winning_moves: Vec<String>,
    nodes: u64,
    millis: f64,
}

/// The most heaps and the largest heap of `p-positions`.
const MAX_TABLE_HEAPS: usize = 6;
const MAX_TABLE_HEAP: u32 = 255;
/// The most rows `p-positions` lists (`--count` counts any number).
const MAX_ROWS: u64 = 1_000_000;

fn nim_agent(level: Level, seed: u64) -> Box<dyn Agent<NormalPlay<Nim>>> {
    standard_agent(level, MctsConfig::default(), seed)
}

pub fn run(cmd: NimCommand, out: &Output) -> anyhow::Result<Answer> {
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
        NimCommand::Solve { heaps, budget } => {
            let game = new_game(heaps.clone())?;
            let solved = solve(&game, budget.budget()).map(|solution| Solved {
                winner: if solution.value > 0 {
                    "first"
                } else {
                    "second"
                },
                winning_moves: if solution.value > 0 {
                    solution.best_moves.iter().map(format_move).collect()
                } else {
                    Vec::new()
                },
                nodes: solution.nodes,
                millis: solution.elapsed.as_secs_f64() * 1000.0,
            });
            let report = SolveReport {
                heaps,
                solved: Part::of(solved),
            };
            out.emit_status(&report, report.solved.status, || {
                report.solved.text("the winner", |s| {
                    format!(
                        "the {} player wins; winning moves: {}\n{} nodes in {:.1} ms\n",
                        s.winner,
                        s.winning_moves.join(" "),
                        s.nodes,
                        s.millis
                    )
                })
            })
        }
        NimCommand::PPositions {
            heaps,
            max,
            count,
            format,
        } => {
            if heaps == 0 || heaps > MAX_TABLE_HEAPS || max > MAX_TABLE_HEAP {
                bail!(
                    "p-positions takes 1 to {MAX_TABLE_HEAPS} heaps of at most {MAX_TABLE_HEAP} \
                     counters (--heaps {heaps} --max {max})"
                );
            }
            let total = count_p_positions(heaps, max);
            if !count && total > MAX_ROWS {
                bail!(
                    "--heaps {heaps} --max {max} has {total} P-positions, more than the \
                     {MAX_ROWS} rows listed at most; --count counts them"
                );
            }
            let positions = (!count).then(|| p_positions(heaps, max));
            let report = PPositionsReport {
                heaps,
                max,
                count: total,
                positions,
            };
            out.emit(&report, || match &report.positions {
                Some(positions) => {
                    let headers: Vec<String> = (1..=heaps).map(|i| format!("heap {i}")).collect();
                    let mut table =
                        Table::new(&headers.iter().map(String::as_str).collect::<Vec<_>>());
                    for p in positions {
                        table.push(p.iter().map(u32::to_string).collect());
                    }
                    table.render(format)
                }
                None => format!("{} P-positions\n", report.count),
            })
        }
        NimCommand::Play { heaps, play } => play_in_terminal(
            new_game(heaps)?,
            play.colour,
            nim_agent(play.level_or(Level::Perfect), play.seed),
            &|g| render(g),
        ),
        NimCommand::Arena { heaps, arena } => run_arena(&new_game(heaps)?, &nim_agent, &arena, out),
    }
}

/// A game of Nim within the setup limits every game has (one legal move per counter).
fn new_game(heaps: Vec<u32>) -> anyhow::Result<NormalPlay<Nim>> {
    setup_limits().check_moves(heaps.iter().map(|&h| u128::from(h)).sum())?;
    Ok(NormalPlay::new(Nim::new(heaps)))
}

/// How many ascending tuples of `heaps` sizes in `0..=max` have nim-sum 0: multisets
/// counted value by value (how many of each size, and the nim-sum so far).
fn count_p_positions(heaps: usize, max: u32) -> u64 {
    let sums = (max as usize + 1).next_power_of_two();
    // ways[k][x]: multisets of k sizes below the current one with nim-sum x.
    let mut ways = vec![vec![0u64; sums]; heaps + 1];
    ways[0][0] = 1;
    for size in 0..=max as usize {
        let mut next = vec![vec![0u64; sums]; heaps + 1];
        for (k, row) in ways.iter().enumerate() {
            for (x, &n) in row.iter().enumerate().filter(|(_, n)| **n > 0) {
                for copies in 0..=heaps - k {
                    let sum = if copies % 2 == 1 { x ^ size } else { x };
                    next[k + copies][sum] += n;
                }
            }
        }
        ways = next;
    }
    ways[heaps][0]
}

/// Every ascending tuple of `heaps` sizes in `0..=max` whose nim-sum (the Grundy value of
/// Nim) is 0: each ascending tuple of the first `heaps - 1` sizes with the one last size
/// that makes the sum 0, when it is at least the size before it and at most `max`.
fn p_positions(heaps: usize, max: u32) -> Vec<Vec<u32>> {
    let mut found = Vec::new();
    let mut prefix = vec![0u32; heaps - 1];
    loop {
        let last = nim_sum(prefix.iter().copied());
        if last <= max && prefix.last().is_none_or(|&before| last >= before) {
            let mut tuple = prefix.clone();
            tuple.push(last);
            found.push(tuple);
        }
        // Next ascending prefix: bump the last entry that can grow, reset the rest to it.
        let Some(i) = (0..prefix.len()).rev().find(|&i| prefix[i] < max) else {
            return found;
        };
        let v = prefix[i] + 1;
        prefix[i..].iter_mut().for_each(|t| *t = v);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ascending tuple with nim-sum 0, the slow way.
    fn brute_force(heaps: usize, max: u32) -> Vec<Vec<u32>> {
        let mut all = vec![Vec::new()];
        for _ in 0..heaps {
            all = all
                .into_iter()
                .flat_map(|t: Vec<u32>| {
                    let from = t.last().copied().unwrap_or(0);
                    (from..=max).map(move |v| [t.clone(), vec![v]].concat())
                })
                .collect();
        }
        all.retain(|t| nim_sum(t.iter().copied()) == 0);
        all
    }

    #[test]
    fn p_positions_and_their_count_agree_with_brute_force() {
        for heaps in 1..=4 {
            for max in [0, 1, 2, 5, 9] {
                let expected = brute_force(heaps, max);
                assert_eq!(p_positions(heaps, max), expected, "{heaps} heaps to {max}");
                assert_eq!(count_p_positions(heaps, max), expected.len() as u64);
            }
        }
    }

    #[test]
    fn the_largest_table_is_counted_at_once() {
        // About 1.6e9 rows: too many to list, counted exactly (checked by a second method).
        assert_eq!(count_p_positions(6, 255), 1_618_935_552);
    }
}
