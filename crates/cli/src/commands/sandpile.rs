//! `crosscap sandpile`: the sandpile toppling game on any graph: exact solving, the
//! minimum topple, classification of graph6 input, play and arena.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};
use crosscap_engine::solver::Budget;
use crosscap_engine::{Game, Level, Player};
use crosscap_graphs::read_graph6_lines;
use crosscap_sandpile::{
    Board, ClassifyRow, Sandpile, SandpileError, agent, analyse, classify_all, min_topple,
    min_topple_game,
};
use serde::Serialize;

use crate::output::{Output, Table, TableFormat, progress_bar};
use crate::terminal::{ArenaArgs, PlayArgs, play_in_terminal, run_arena};

#[derive(Subcommand, Debug)]
pub enum SandpileCommand {
    /// The winner with perfect play, whether every play sequence has the same winner, and
    /// the winning moves.
    Solve {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// The fewest chips after which toppling never stops, with a placement sequence: as
    /// chip-firing (chips anywhere, colours ignored) and under the game's own rules.
    MinTopple {
        /// The graph: path:N, cycle:N, complete:N, star:M, bipartite:M,N, grid:RxC,
        /// wheel:N, petersen, P5, C4, K4, K1,3, edges:0-1,1-2, arcs:0>1,1>0, g6:<graph6>.
        #[arg(long)]
        graph: String,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Reads graph6 lines on stdin (e.g. from `geng -c 6`) and prints one row per graph:
    /// perfect-play winner, predetermined winner, minimum topple (chip-firing and game).
    Classify {
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
        /// Print only the summary by number of vertices.
        #[arg(long)]
        summary: bool,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Plays a game in the terminal against the computer (e.g. `--graph grid:5x5`).
    Play {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Plays two computer levels against each other.
    Arena {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        arena: ArenaArgs,
    },
}

/// A graph and an optional mid-game position on it.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The graph: path:N, cycle:N, complete:N, star:M, bipartite:M,N, grid:RxC, wheel:N,
    /// petersen, P5, C4, K4, K1,3, edges:0-1,1-2, arcs:0>1,1>0, g6:<graph6>.
    #[arg(long)]
    graph: String,
    /// A mid-game position, one entry per vertex: `.`, X<score>, O<score>, X* or O*
    /// (toppling for ever), e.g. `X1,O0,.,X2`. Default: the empty board.
    #[arg(long)]
    position: Option<String>,
    /// The player to move in `--position`.
    #[arg(long, default_value = "X")]
    to_move: Player,
}

impl PositionArgs {
    fn game(&self) -> anyhow::Result<Sandpile> {
        let board = Arc::new(Board::from_spec(&self.graph)?);
        Ok(match &self.position {
            Some(text) => Sandpile::from_position(board, text, self.to_move)?,
            None if self.to_move == Player::X => Sandpile::new(board),
            None => anyhow::bail!("--to-move O needs a --position (X moves first)"),
        })
    }
}

/// Limits of the exact searches.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Give up after this many positions per search (every connected graph on 7 vertices
    /// needs at most about 2 million).
    #[arg(long, default_value_t = 5_000_000)]
    max_positions: u64,
}

impl BudgetArgs {
    fn budget(&self) -> Budget {
        Budget::nodes(self.max_positions).with_memory(crate::limits::DEFAULT_MAX_MEMORY)
    }
}

#[derive(Serialize)]
struct SolveReport {
    graph: String,
    position: String,
    to_move: Option<Player>,
    winner: String,
    predetermined: bool,
    possible_winners: Vec<String>,
    winning_moves: Vec<String>,
    positions: u64,
    solver_nodes: u64,
}

#[derive(Serialize)]
struct MinToppleReport {
    graph: String,
    vertices: usize,
    edges: usize,
    /// Chip-firing: the fewest chips (null: toppling always stops).
    chips: Option<usize>,
    placements: Vec<String>,
    /// Under the game's rules: the fewest moves (null: every game ends first, or unknown).
    game_moves: Option<usize>,
    game_line: Vec<String>,
    /// Whether the game-rules search finished (it ranges over colours too, so it runs out
    /// of budget on graphs where the chip-firing search still finishes).
    game_search_complete: bool,
}

#[derive(Serialize)]
struct ClassifyReport {
    graphs: usize,
    rows: Vec<ClassifyRow>,
    summary: Vec<SummaryRow>,
}

/// Counts over the graphs with one number of vertices.
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
}

fn result_name(winner: Option<Player>) -> String {
    winner.map_or("draw".to_string(), |p| p.to_string())
}

pub fn run(cmd: SandpileCommand, out: &Output) -> anyhow::Result<()> {
    match cmd {
        SandpileCommand::Solve { position, budget } => {
            let game = position.game()?;
            let analysis = analyse(&game, &budget.budget())
                .with_context(|| format!("solving {}", position.graph))?;
            let graph = game.board().graph();
            let report = SolveReport {
                graph: graph.spec().to_string(),
                position: game.position_text(),
                to_move: game.outcome().is_none().then(|| game.to_move()),
                winner: result_name(analysis.winner),
                predetermined: analysis.predetermined,
                possible_winners: analysis
                    .possible_winners
                    .iter()
                    .map(|w| result_name(*w))
                    .collect(),
                winning_moves: if game.outcome().is_none()
                    && analysis.winner == Some(game.to_move())
                {
                    analysis
                        .best_moves
                        .iter()
                        .map(|&v| graph.vertex_name(v))
                        .collect()
                } else {
                    Vec::new()
                },
                positions: analysis.positions,
                solver_nodes: analysis.solver_nodes,
            };
            out.emit(&report, || {
                let who = match report.winner.as_str() {
                    "draw" => "the game is a draw with perfect play".to_string(),
                    w => format!("{w} wins with perfect play"),
                };
                let whatever = if report.predetermined {
                    "whatever is played".to_string()
                } else {
                    format!("(possible results: {})", report.possible_winners.join(", "))
                };
                format!(
                    "{}: {who} {whatever}\nwinning moves: {}\n{} positions, {} solver nodes\n",
                    report.graph,
                    if report.winning_moves.is_empty() {
                        "none".to_string()
                    } else {
                        report.winning_moves.join(" ")
                    },
                    report.positions,
                    report.solver_nodes
                )
            })
        }
        SandpileCommand::MinTopple { graph, budget } => {
            let board = Arc::new(Board::from_spec(&graph)?);
            let chip_firing = min_topple(&board, &budget.budget())
                .with_context(|| format!("searching chip placements on {graph}"))?;
            let game = Sandpile::new(Arc::clone(&board));
            let (game_line, game_search_complete) = match min_topple_game(&game, &budget.budget()) {
                Ok(line) => (line, true),
                Err(SandpileError::Search(_)) => (None, false),
                Err(err) => return Err(err.into()),
            };
            let g = board.graph();
            let names = |vs: &[usize]| vs.iter().map(|&v| g.vertex_name(v)).collect::<Vec<_>>();
            let report = MinToppleReport {
                graph: g.spec().to_string(),
                vertices: g.vertex_count(),
                edges: g.edge_count(),
                chips: chip_firing.as_ref().map(|m| m.chips),
                placements: chip_firing
                    .as_ref()
                    .map_or(Vec::new(), |m| names(&m.placements)),
                game_moves: game_line.as_ref().map(Vec::len),
                game_line: game_line.as_deref().map_or(Vec::new(), names),
                game_search_complete,
            };
            out.emit(&report, || {
                let chips = match report.chips {
                    Some(k) => format!(
                        "toppling never stops after {k} chips ({} edges), placed on {}",
                        report.edges,
                        report.placements.join(" ")
                    ),
                    None => "toppling always stops: every chip drains into a sink".to_string(),
                };
                let game = match report.game_moves {
                    Some(k) => format!("{k} moves: {}", report.game_line.join(" ")),
                    None if report.game_search_complete => {
                        "never: every game ends before".to_string()
                    }
                    None => "unknown: the search ran out of budget (--max-positions)".to_string(),
                };
                format!(
                    "{}: {chips}\nunder the game's rules: {game}\n",
                    report.graph
                )
            })
        }
        SandpileCommand::Classify {
            format,
            summary,
            budget,
        } => {
            let stdin = std::io::stdin();
            let graphs = read_graph6_lines(stdin.lock())
                .collect::<Result<Vec<_>, _>>()
                .context("reading graph6 on stdin")?;
            let bar = progress_bar(graphs.len() as u64, "graphs");
            let rows = classify_all(graphs, &budget.budget(), &|| bar.inc(1));
            bar.finish_and_clear();
            let rows = rows
                .into_iter()
                .enumerate()
                .map(|(i, row)| row.with_context(|| format!("graph on line {}", i + 1)))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let report = ClassifyReport {
                graphs: rows.len(),
                summary: summarise(&rows),
                rows,
            };
            out.emit(&report, || {
                if summary {
                    summary_table(&report.summary).render(format)
                } else {
                    rows_table(&report.rows).render(format)
                }
            })
        }
        SandpileCommand::Play { position, play } => {
            let game = position.game()?;
            let colour = std::io::stdout().is_terminal();
            play_in_terminal(
                game,
                play.colour,
                agent(play.level_or(Level::Medium), play.seed),
                &|g: &Sandpile| g.render(colour),
            )
        }
        SandpileCommand::Arena { position, arena } => {
            let game = position.game()?;
            run_arena(&game, &agent, &arena, out).map(|_| ())
        }
    }
}

fn option_cell(value: Option<usize>) -> String {
    value.map_or("never".to_string(), |v| v.to_string())
}

fn rows_table(rows: &[ClassifyRow]) -> Table {
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
            result_name(row.winner),
            if row.predetermined { "yes" } else { "no" }.to_string(),
            option_cell(row.min_topple),
            option_cell(row.min_topple_game),
        ]);
    }
    table
}

fn summarise(rows: &[ClassifyRow]) -> Vec<SummaryRow> {
    let mut by_size: BTreeMap<usize, SummaryRow> = BTreeMap::new();
    for row in rows {
        let s = by_size.entry(row.vertices).or_default();
        s.vertices = row.vertices;
        s.graphs += 1;
        s.predetermined += row.predetermined as usize;
        match row.winner {
            Some(Player::X) => s.first_player_wins += 1,
            Some(Player::O) => s.second_player_wins += 1,
            None => s.draws += 1,
        }
        s.min_topple_equals_edges += (row.min_topple == Some(row.edges)) as usize;
        s.game_min_topple_differs +=
            (row.min_topple_game.is_some() && row.min_topple_game != row.min_topple) as usize;
        s.game_never_topples += row.min_topple_game.is_none() as usize;
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
            ]
            .iter()
            .map(usize::to_string)
            .collect(),
        );
    }
    table
}
