//! `crosscap sandpile`: the sandpile toppling game's own commands: the minimum topple
//! and the classification of graph6 input.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Context;
use clap::{Arg, Subcommand};
use crosscap_engine::Player;
use crosscap_engine::catalog::{Part, Status};
use crosscap_graphs::read_graph6_lines;
use crosscap_sandpile::{
    ClassifyRow, Sequences, Toppling, classify_all, min_topple, min_topple_game, new_game,
    result_name,
};
use serde::Serialize;

use crate::limits::{BudgetArgs, default_seconds, setup_limits};
use crate::output::{Answer, Output, Table, TableFormat, part_text, progress_bar, with_search_bar};

#[derive(Subcommand, Debug)]
pub enum SandpileCommand {
    /// The fewest chips after which toppling never stops, with a placement sequence: as
    /// chip-firing (chips anywhere, colours ignored) and under the game's own rules (two
    /// searches, sharing --max-seconds).
    #[command(
        mut_arg("max_seconds", default_seconds("10")),
        mut_arg("max_nodes", positions)
    )]
    MinTopple {
        /// The graph: path:N, cycle:N, complete:N, star:M, bipartite:M,N, grid:RxC,
        /// wheel:N, petersen, P5, C4, K4, K1,3, edges:0-1,1-2, arcs:0>1,1>0, g6:<graph6>.
        #[arg(long)]
        graph: String,
        #[command(flatten)]
        toppling: TopplingArg,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Reads graph6 lines on stdin (e.g. from `geng -c 6`) and prints one row per graph:
    /// perfect-play winner, predetermined winner, minimum topple (chip-firing and game).
    /// Each graph has its own budget (--max-seconds for its four searches, --max-memory for
    /// each), so that the answers do not depend on how many graphs are searched at once.
    #[command(
        mut_arg("max_seconds", default_seconds("60")),
        mut_arg("max_nodes", positions)
    )]
    Classify {
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
        /// Print only the summary by number of vertices.
        #[arg(long)]
        summary: bool,
        #[command(flatten)]
        toppling: TopplingArg,
        #[command(flatten)]
        budget: BudgetArgs,
    },
}

/// The game's `toppling` option, as `solve` and `play` take it.
#[derive(clap::Args, Debug)]
pub struct TopplingArg {
    /// abelian: a toppling vertex loses its degree (chips conserved); reset: its score goes
    /// to 0, as the seed words it (chips beyond the degree are lost)
    #[arg(long = "toppling", value_name = "TOPPLING", default_value = "abelian")]
    rule: String,
}

impl TopplingArg {
    fn rule(&self) -> anyhow::Result<Toppling> {
        Ok(self.rule.parse()?)
    }
}

/// The sandpile's searches count positions (moves played): `--max-nodes`, also
/// `--max-positions`, 20,000,000 per search unless given (the connected graphs on 7
/// vertices need at most 6 to 8 million).
fn positions(arg: Arg) -> Arg {
    arg.default_value("20000000")
        .help("Give up after this many positions (moves played) in each search")
}

#[derive(Serialize)]
struct MinToppleReport {
    graph: String,
    vertices: usize,
    edges: usize,
    /// `solved` when both parts are.
    #[serde(flatten)]
    status: Status,
    chip_firing: Part<ChipFiring>,
    game_rules: Part<GameLine>,
}

/// Question 4 as chip-firing.
#[derive(Serialize)]
struct ChipFiring {
    /// The fewest chips (null: toppling always stops).
    chips: Option<usize>,
    placements: Vec<String>,
}

/// Question 4 under the game's rules.
#[derive(Serialize)]
struct GameLine {
    /// The fewest moves (null: every game ends first).
    moves: Option<usize>,
    line: Vec<String>,
}

#[derive(Serialize)]
struct ClassifyReport {
    graphs: usize,
    /// `solved` when every row is.
    #[serde(flatten)]
    status: Status,
    rows: Vec<RowReport>,
    summary: Vec<SummaryRow>,
}

/// One graph of `classify`: each answer with its own status.
#[derive(Serialize)]
struct RowReport {
    graph6: String,
    vertices: usize,
    edges: usize,
    /// `solved` when all four answers are.
    #[serde(flatten)]
    status: Status,
    perfect_play: Part<WinnerReport>,
    sequences: Part<Sequences>,
    min_topple: Part<ChipCount>,
    min_topple_game: Part<MoveCount>,
}

/// The chip-firing minimum alone (null: never).
#[derive(Serialize)]
struct ChipCount {
    chips: Option<usize>,
}

/// The game-rules minimum alone (null: never).
#[derive(Serialize)]
struct MoveCount {
    moves: Option<usize>,
}

/// The winner with perfect play from the empty board.
#[derive(Serialize)]
struct WinnerReport {
    /// X, O or draw.
    winner: String,
    nodes: u64,
}

impl RowReport {
    fn new(row: ClassifyRow) -> Self {
        let perfect_play = Part::of(row.analysis.perfect_play.map(|found| WinnerReport {
            winner: result_name(found.winner),
            nodes: found.nodes,
        }));
        let sequences = Part::of(row.analysis.sequences);
        let min_topple = Part::of(row.min_topple.map(|chips| ChipCount { chips }));
        let min_topple_game = Part::of(row.min_topple_game.map(|moves| MoveCount { moves }));
        RowReport {
            graph6: row.graph6,
            vertices: row.vertices,
            edges: row.edges,
            status: Status::of_parts([
                perfect_play.status,
                sequences.status,
                min_topple.status,
                min_topple_game.status,
            ]),
            perfect_play,
            sequences,
            min_topple,
            min_topple_game,
        }
    }
}

/// Counts over the graphs with one number of vertices (answers that ran out are counted
/// in `unknown` only).
#[derive(Serialize, Default, Clone)]
struct SummaryRow {
    vertices: usize,
    graphs: usize,
    predetermined: usize,
    first_player_wins: usize,
    second_player_wins: usize,
    draws: usize,
    min_topple_equals_edges: usize,
    game_min_topple_differs: usize,
    game_never_topples: usize,
    /// Graphs with an answer that ran out of budget.
    unknown: usize,
}

pub fn run(cmd: SandpileCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
        SandpileCommand::MinTopple {
            graph,
            toppling,
            budget,
        } => {
            let game = new_game(&graph, None, Player::X, toppling.rule()?, &setup_limits())?;
            let start = Instant::now();
            let budget = budget.budget();
            let g = game.board().graph();
            let names = |vs: &[usize]| vs.iter().map(|&v| g.vertex_name(v)).collect::<Vec<_>>();
            let (chip_firing, game_rules) = with_search_bar("searching", &budget, |budget| {
                let chip_firing = min_topple(game.board(), budget);
                (
                    chip_firing,
                    min_topple_game(&game, &budget.less(0, start.elapsed())),
                )
            });
            let chip_firing = Part::of(chip_firing.map(|found| ChipFiring {
                chips: found.as_ref().map(|m| m.chips),
                placements: found.as_ref().map_or(Vec::new(), |m| names(&m.placements)),
            }));
            let game_rules = Part::of(game_rules.map(|found| GameLine {
                moves: found.as_ref().map(Vec::len),
                line: found.as_deref().map_or(Vec::new(), names),
            }));
            let report = MinToppleReport {
                graph: g.spec().to_string(),
                vertices: g.vertex_count(),
                edges: g.edge_count(),
                status: Status::of_parts([chip_firing.status, game_rules.status]),
                chip_firing,
                game_rules,
            };
            out.emit_status(&report, report.status, || min_topple_text(&report))
        }
        SandpileCommand::Classify {
            format,
            summary,
            toppling,
            budget,
        } => {
            let toppling = toppling.rule()?;
            let stdin = std::io::stdin();
            let graphs = read_graph6_lines(stdin.lock())
                .collect::<Result<Vec<_>, _>>()
                .context("reading graph6 on stdin")?;
            let bar = progress_bar(graphs.len() as u64, "graphs");
            let rows = classify_all(graphs, toppling, &budget.budget(), &setup_limits(), &|| {
                bar.inc(1)
            });
            bar.finish_and_clear();
            let rows = rows
                .into_iter()
                .enumerate()
                .map(|(i, row)| {
                    row.map(RowReport::new)
                        .with_context(|| format!("graph on line {}", i + 1))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let report = ClassifyReport {
                graphs: rows.len(),
                status: Status::of_parts(rows.iter().map(|row| row.status)),
                summary: summarise(&rows),
                rows,
            };
            out.emit_status(&report, report.status, || {
                if summary {
                    summary_table(&report.summary).render(format)
                } else {
                    rows_table(&report.rows).render(format)
                }
            })
        }
    }
}

fn min_topple_text(report: &MinToppleReport) -> String {
    let chips = part_text(
        &report.chip_firing,
        "the chip-firing minimum",
        |c| match c.chips {
            Some(k) => format!(
                "toppling never stops after {k} chips ({} edges), placed on {}",
                report.edges,
                c.placements.join(" ")
            ),
            None => "toppling always stops: every chip drains into a sink".to_string(),
        },
    );
    let game = part_text(
        &report.game_rules,
        "the minimum under the game's rules",
        |g| match g.moves {
            Some(k) => format!("under the game's rules: {k} moves: {}", g.line.join(" ")),
            None => "under the game's rules: never, every game ends before".to_string(),
        },
    );
    format!("{}: {chips}\n{game}\n", report.graph)
}

/// A table cell: the answer, or `unknown` when its search ran out.
fn cell<T>(part: &Part<T>, text: impl FnOnce(&T) -> String) -> String {
    part.answer.as_ref().map_or("unknown".to_string(), text)
}

fn never_or(value: Option<usize>) -> String {
    value.map_or("never".to_string(), |v| v.to_string())
}

fn rows_table(rows: &[RowReport]) -> Table {
    let mut table = Table::new(&[
        "graph6",
        "vertices",
        "edges",
        "winner",
        "predetermined",
        "min topple",
        "min topple (game)",
    ]);
    for row in rows {
        table.push(vec![
            row.graph6.clone(),
            row.vertices.to_string(),
            row.edges.to_string(),
            cell(&row.perfect_play, |p| p.winner.clone()),
            cell(&row.sequences, |s| {
                if s.predetermined { "yes" } else { "no" }.to_string()
            }),
            cell(&row.min_topple, |m| never_or(m.chips)),
            cell(&row.min_topple_game, |m| never_or(m.moves)),
        ]);
    }
    table
}

fn summarise(rows: &[RowReport]) -> Vec<SummaryRow> {
    let mut by_size: BTreeMap<usize, SummaryRow> = BTreeMap::new();
    for row in rows {
        let s = by_size.entry(row.vertices).or_default();
        s.vertices = row.vertices;
        s.graphs += 1;
        s.unknown += (row.status != Status::Solved) as usize;
        if let Some(sequences) = &row.sequences.answer {
            s.predetermined += sequences.predetermined as usize;
        }
        match row.perfect_play.answer.as_ref().map(|p| p.winner.as_str()) {
            Some("X") => s.first_player_wins += 1,
            Some("O") => s.second_player_wins += 1,
            Some(_) => s.draws += 1,
            None => {}
        }
        let chips = row.min_topple.answer.as_ref().map(|m| m.chips);
        let moves = row.min_topple_game.answer.as_ref().map(|m| m.moves);
        s.min_topple_equals_edges += (chips == Some(Some(row.edges))) as usize;
        if let (Some(chips), Some(moves)) = (chips, moves) {
            s.game_min_topple_differs += (moves.is_some() && moves != chips) as usize;
        }
        s.game_never_topples += (moves == Some(None)) as usize;
    }
    by_size.into_values().collect()
}

fn summary_table(summary: &[SummaryRow]) -> Table {
    let mut table = Table::new(&[
        "vertices",
        "graphs",
        "predetermined",
        "X wins",
        "O wins",
        "draws",
        "min topple = edges",
        "game min differs",
        "game never topples",
        "unknown",
    ]);
    for s in summary {
        table.push(
            [
                s.vertices,
                s.graphs,
                s.predetermined,
                s.first_player_wins,
                s.second_player_wins,
                s.draws,
                s.min_topple_equals_edges,
                s.game_min_topple_differs,
                s.game_never_topples,
                s.unknown,
            ]
            .iter()
            .map(usize::to_string)
            .collect(),
        );
    }
    table
}
