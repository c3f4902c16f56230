//! `crosscap projective-hex`: who has won, exact solving, play and arena.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use crosscap_engine::solver::Budget;
use crosscap_engine::{Game, Level, Notation, Player};
use crosscap_projective_hex::{
    Analyser, Geometry, Opening, OpeningResult, ProjectiveHex, agent, all_openings,
};
use crosscap_topology::Board;
use serde::Serialize;

use crate::output::{Output, Table, TableFormat, progress_bar};
use crate::terminal::{ArenaArgs, PlayArgs, play_in_terminal, run_arena};

#[derive(Subcommand, Debug)]
pub enum ProjectiveHexCommand {
    /// Who has a global loop in a position, and the loop's cells in order.
    Winner {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Who wins with perfect play, and every winning move.
    Solve {
        #[command(flatten)]
        game: GameArgs,
        /// Solve every first move of the empty board (one per class of symmetric cells,
        /// the classes in parallel).
        #[arg(long)]
        all_openings: bool,
        /// Give up after this many search nodes (per solved position, or per reply to a first
        /// move with --all-openings).
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Give up after this many seconds (per solved position, or per reply to a first move
        /// with --all-openings).
        #[arg(long)]
        max_seconds: Option<f64>,
        /// Table format of the openings for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
    },
    /// Plays Projective Hex in the terminal against the computer.
    Play {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Plays two computer levels against each other.
    Arena {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        arena: ArenaArgs,
    },
}

/// Which game: the board, the opening rule and a start position or moves.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The board: taylor:N, goldberg:K or file:PATH (other surfaces play the Z2 variant).
    #[arg(long, default_value = "taylor:3")]
    board: String,
    /// Stones in cell order, `.` empty (`/` and spaces ignored).
    #[arg(long, conflicts_with = "moves")]
    position: Option<String>,
    /// Moves from the empty board, separated by spaces or commas.
    #[arg(long)]
    moves: Option<String>,
    /// Equalisation: standard, swap (pie rule) or cut-and-choose (X O X, then a choice).
    #[arg(long, default_value = "standard")]
    opening: String,
}

impl GameArgs {
    fn game(&self) -> anyhow::Result<ProjectiveHex> {
        let opening: Opening = self.opening.parse()?;
        let board = Board::from_spec(&self.board)?;
        let geometry = Arc::new(Geometry::new(board)?);
        let mut game = match &self.position {
            Some(text) => ProjectiveHex::from_position_text(geometry, text)?,
            None => ProjectiveHex::new(geometry, opening),
        };
        if let Some(moves) = &self.moves {
            for text in moves.split([' ', ',']).filter(|t| !t.trim().is_empty()) {
                game.play_text(text)?;
            }
        }
        Ok(game)
    }
}

#[derive(Serialize)]
struct WinnerReport {
    board: String,
    position: String,
    winner: Option<Player>,
    #[serde(rename = "loop")]
    winning_loop: Vec<String>,
}

#[derive(Serialize)]
struct SolveReport {
    board: String,
    position: String,
    to_move: Option<Player>,
    winner: Option<Player>,
    winning_moves: Vec<String>,
    nodes: u64,
    millis: f64,
}

#[derive(Serialize)]
struct OpeningsReport {
    board: String,
    cells: usize,
    winner: Option<Player>,
    winning_moves: Vec<String>,
    classes: usize,
    openings: Vec<OpeningResult>,
    nodes: u64,
    millis: f64,
}

fn cell_names(game: &ProjectiveHex, cells: &[usize]) -> Vec<String> {
    cells
        .iter()
        .map(|&c| game.board().cell_name(c).to_string())
        .collect()
}

fn player_text(player: Option<Player>) -> String {
    player.map_or("nobody".to_string(), |p| p.to_string())
}

pub fn run(cmd: ProjectiveHexCommand, out: &Output) -> anyhow::Result<()> {
    match cmd {
        ProjectiveHexCommand::Winner { game } => {
            let game = game.game()?;
            let winning_loop = game.winning_loop().unwrap_or_default();
            let report = WinnerReport {
                board: game.board().spec().to_string(),
                position: game.board().format_position(game.stones()),
                winner: game.winner(),
                winning_loop: cell_names(&game, &winning_loop),
            };
            out.emit(&report, || match report.winner {
                Some(w) => format!("{w} has a global loop: {}\n", report.winning_loop.join(" ")),
                None => "nobody has a global loop yet\n".to_string(),
            })
        }
        ProjectiveHexCommand::Solve {
            game,
            all_openings: openings,
            max_nodes,
            max_seconds,
            format,
        } => {
            let max_time = match max_seconds {
                Some(s) if !(s > 0.0 && s.is_finite()) => {
                    bail!("--max-seconds must be a positive number of seconds")
                }
                Some(s) => Some(Duration::from_secs_f64(s)),
                None => None,
            };
            let budget = Budget {
                max_nodes,
                max_time,
                max_memory: Some(crate::limits::DEFAULT_MAX_MEMORY),
                cancel: None,
            };
            let start = game.game()?;
            if openings {
                if start.history().len() + start.stones().iter().flatten().count() > 0
                    || start.opening() != Opening::Standard
                {
                    bail!("--all-openings analyses the empty board under the standard opening");
                }
                solve_openings(&start, budget, format, out)
            } else {
                let analysis = Analyser::new(budget).analyse(&start)?;
                let report = SolveReport {
                    board: start.board().spec().to_string(),
                    position: start.board().format_position(start.stones()),
                    to_move: analysis.to_move,
                    winner: analysis.winner,
                    winning_moves: analysis
                        .best_moves
                        .iter()
                        .filter(|_| {
                            analysis.winner.is_some() && analysis.winner == analysis.to_move
                        })
                        .map(|m| start.format_move(m))
                        .collect(),
                    nodes: analysis.nodes,
                    millis: analysis.elapsed.as_secs_f64() * 1000.0,
                };
                out.emit(&report, || {
                    let mut text = match (report.to_move, report.winner) {
                        (None, w) => format!("the game is over: {} won\n", player_text(w)),
                        (Some(m), Some(w)) if m == w => format!(
                            "{m} to move wins; winning moves: {}\n",
                            report.winning_moves.join(" ")
                        ),
                        (Some(m), Some(w)) => format!("{m} to move loses: {w} wins\n"),
                        (Some(m), None) => format!("{m} to move: a draw with perfect play\n"),
                    };
                    text += &format!("{} nodes in {:.1} ms\n", report.nodes, report.millis);
                    text
                })
            }
        }
        ProjectiveHexCommand::Play { game, play } => {
            let game = game.game()?;
            play_in_terminal(
                game,
                play.colour,
                agent(play.level_or(Level::Medium), play.seed),
                &render,
            )
        }
        ProjectiveHexCommand::Arena { game, arena } => {
            let game = game.game()?;
            if game.outcome().is_some() {
                bail!("the game is already over");
            }
            run_arena(&game, &agent, &arena, out).map(|_| ())
        }
    }
}

fn solve_openings(
    start: &ProjectiveHex,
    budget: Budget,
    format: TableFormat,
    out: &Output,
) -> anyhow::Result<()> {
    let clock = std::time::Instant::now();
    let bar = progress_bar(start.stones().len() as u64, "openings");
    let results = all_openings(start, &budget, &|cells| bar.inc(cells as u64))
        .context("the search budget ran out")?;
    bar.finish_and_clear();
    let winning_moves: Vec<String> = results
        .iter()
        .filter(|r| r.winner == Some(Player::X))
        .flat_map(|r| r.cells.iter().cloned())
        .collect();
    let report = OpeningsReport {
        board: start.board().spec().to_string(),
        cells: start.stones().len(),
        winner: Some(if winning_moves.is_empty() {
            Player::O
        } else {
            Player::X
        }),
        winning_moves,
        classes: results.len(),
        nodes: results.iter().map(|r| r.nodes).sum(),
        millis: clock.elapsed().as_secs_f64() * 1000.0,
        openings: results,
    };
    let mut table = Table::new(&["opening", "sides", "cells", "winner", "O's winning replies"]);
    for r in &report.openings {
        table.push(vec![
            r.cells[0].clone(),
            r.sides.to_string(),
            r.cells.len().to_string(),
            player_text(r.winner),
            if r.winning_replies.is_empty() {
                "none".to_string()
            } else {
                r.winning_replies.join(" ")
            },
        ]);
    }
    out.emit(&report, || {
        let mut text = table.render(format);
        if format == TableFormat::Text {
            text += &format!(
                "{}: {} wins; winning first moves: {}\n{} classes of openings, {} nodes in {:.1} ms\n",
                report.board,
                player_text(report.winner),
                if report.winning_moves.is_empty() {
                    "none".to_string()
                } else {
                    report.winning_moves.join(" ")
                },
                report.classes,
                report.nodes,
                report.millis
            );
        }
        text
    })
}

/// The board drawn by the topology crate, then the winner and the loop.
fn render(game: &ProjectiveHex) -> String {
    let mut text = game.board().text_drawing(Some(game.stones()), false);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    if let Some(cells) = game.winning_loop() {
        text += &format!(
            "{} wins with the loop {}\n",
            player_text(game.winner()),
            cell_names(game, &cells).join(" ")
        );
    } else if game.can_swap() {
        text += "O may answer `swap` to take the colour of X's stones\n";
    }
    text
}
