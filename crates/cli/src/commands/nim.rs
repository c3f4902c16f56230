//! `crosscap nim`: the engine's reference game. Its own commands: `value` (the generic
//! Grundy search) and the table of P-positions; its `solve` on any heaps.

use anyhow::bail;
use clap::{ArgMatches, Subcommand};
use crosscap_engine::catalog::Part;
use crosscap_engine::nim::{DESCRIPTOR, Nim, format_move, solve_any_heaps};
use crosscap_engine::{GrundyTable, Misere, MisereAnswer, nim_sum};
use serde::Serialize;

use crate::host::{GameSetup, emit_solved};
use crate::limits::solve_budget;
use crate::output::{Answer, Output, Table, TableFormat, grundy_text};

#[derive(Subcommand, Debug)]
pub enum NimCommand {
    /// The Grundy value of a position and every winning move, by the engine's generic
    /// Grundy search (heaps of up to 10000 counters).
    Value {
        /// Heap sizes, e.g. `3 4 5`.
        #[arg(required = true)]
        heaps: Vec<u32>,
        /// Misère play: whoever takes the last counter loses (the outcome and winning moves
        /// by Bouton's misère rule, any heaps).
        #[arg(long)]
        misere: bool,
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

/// The largest heap of `value`: the generic Grundy search takes time quadratic in it
/// (10000 in about 5 s, 20000 in 20 s).
const MAX_VALUE_HEAP: u32 = 10_000;

/// The most heaps and the largest heap of `p-positions`.
const MAX_TABLE_HEAPS: usize = 6;
const MAX_TABLE_HEAP: u32 = 255;
/// The most rows `p-positions` lists (`--count` counts any number).
const MAX_ROWS: u64 = 1_000_000;

/// Runs Nim's own commands and its `solve`, which Bouton's theorem answers on any heaps
/// (no setup limit: [`solve_any_heaps`]); `matches` are the game's.
pub fn run_own(matches: &ArgMatches, out: &Output) -> Option<anyhow::Result<Answer>> {
    if let Some(answer) = super::own(matches, out, run) {
        return Some(answer);
    }
    let solve = matches.subcommand_matches("solve")?;
    Some(solve_budget(solve).and_then(|budget| {
        let solved = GameSetup::read(solve, &DESCRIPTOR.info)
            .with(|setup| solve_any_heaps(setup, &budget))?;
        emit_solved(&solved, out)
    }))
}

pub fn run(cmd: NimCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
        NimCommand::Value { heaps, misere } => {
            let nim = Nim::new(heaps.clone());
            if misere {
                let answer = MisereAnswer {
                    outcome: if nim.misere_mover_loses() { "P" } else { "N" },
                    winning_moves: nim.misere_winning_moves().iter().map(format_move).collect(),
                };
                let misere = Misere {
                    rule: "misere",
                    answer: Part::of(Ok(answer)),
                };
                return super::emit_misere(out, serde_json::json!({ "heaps": heaps }), &misere);
            }
            // Heaps are memoised separately, so only the largest heap costs time.
            let largest = heaps.iter().copied().max().unwrap_or(0);
            if largest > MAX_VALUE_HEAP {
                bail!(
                    "heap {largest} is too large for the generic search (at most {MAX_VALUE_HEAP})"
                );
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
                        Table::new(&headers.iter().map(String::as_str).collect::<Vec<_>>())
                            .all_math();
                    for p in positions {
                        table.push(p.iter().map(u32::to_string).collect());
                    }
                    table.render(format)
                }
                None if format == TableFormat::Text => format!("{} P-positions\n", report.count),
                None => {
                    let mut table = Table::new(&["heaps", "max", "P-positions"]);
                    table.push(vec![
                        heaps.to_string(),
                        max.to_string(),
                        report.count.to_string(),
                    ]);
                    table.render(format)
                }
            })
        }
    }
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
