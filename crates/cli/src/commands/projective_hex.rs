//! `crosscap projective-hex`: who has won, exact solving, play and arena.

use anyhow::bail;
use clap::{Args, Subcommand};
use crosscap_engine::solver::Budget;
use crosscap_engine::{Game, Level, Notation, Player};
use crosscap_projective_hex::{
    Analyser, Opening, OpeningResult, ProjectiveHex, agent, all_openings, new_game,
};
use serde::Serialize;

use crate::limits::{BudgetArgs, default_seconds, setup_limits};
use crate::output::{Answer, Output, Part, Status, Table, TableFormat, progress_bar};
use crate::terminal::{ArenaArgs, PlayArgs, play_in_terminal, run_arena};

#[derive(Subcommand, Debug)]
pub enum ProjectiveHexCommand {
    /// Who has a global loop in a position, and the loop's cells in order.
    Winner {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Who wins with perfect play, and every winning move. The budget applies to the
    /// position, or with --all-openings to each reply to a first move.
    #[command(mut_arg("max_seconds", default_seconds("600")))]
    Solve {
        #[command(flatten)]
        game: GameArgs,
        /// Solve every first move of the empty board (one per class of symmetric cells,
        /// the classes in parallel).
        #[arg(long)]
        all_openings: bool,
        #[command(flatten)]
        budget: BudgetArgs,
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
    /// The game, set up as the server sets it up.
    fn game(&self) -> anyhow::Result<ProjectiveHex> {
        let opening: Opening = self.opening.parse()?;
        let moves: Vec<&str> = self
            .moves
            .iter()
            .flat_map(|moves| moves.split([' ', ',']))
            .filter(|t| !t.trim().is_empty())
            .collect();
        Ok(new_game(
            &self.board,
            opening,
            self.position.as_deref(),
            &moves,
            &setup_limits(),
        )?)
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
    #[serde(flatten)]
    solved: Part<Solved>,
}

/// What the analysis found.
#[derive(Serialize)]
struct Solved {
    winner: Option<Player>,
    winning_moves: Vec<String>,
    nodes: u64,
    millis: f64,
}

#[derive(Serialize)]
struct OpeningsReport {
    board: String,
    cells: usize,
    /// `solved` when every class is.
    #[serde(flatten)]
    status: Status,
    /// X when some first move is proved to win, O when every class is solved and none
    /// wins; null otherwise.
    winner: Option<Player>,
    winning_moves: Vec<String>,
    classes: usize,
    openings: Vec<OpeningRow>,
    nodes: u64,
    millis: f64,
}

/// One class of first moves with its own status.
#[derive(Serialize)]
struct OpeningRow {
    #[serde(flatten)]
    status: Status,
    #[serde(flatten)]
    result: OpeningResult,
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

pub fn run(cmd: ProjectiveHexCommand, out: &Output) -> anyhow::Result<Answer> {
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
            budget,
            format,
        } => {
            let start = game.game()?;
            if openings {
                if start.history().len() + start.stones().iter().flatten().count() > 0
                    || start.opening() != Opening::Standard
                {
                    bail!("--all-openings analyses the empty board under the standard opening");
                }
                return solve_openings(&start, &budget.budget(), format, out);
            }
            let analysis = Analyser::new(budget.budget()).analyse(&start);
            let to_move = start.outcome().is_none().then(|| start.to_move());
            let report = SolveReport {
                board: start.board().spec().to_string(),
                position: start.board().format_position(start.stones()),
                to_move,
                solved: Part::of(analysis.map(|analysis| {
                    Solved {
                        winner: analysis.winner,
                        winning_moves: analysis
                            .best_moves
                            .iter()
                            .filter(|_| analysis.winner.is_some() && analysis.winner == to_move)
                            .map(|m| start.format_move(m))
                            .collect(),
                        nodes: analysis.nodes,
                        millis: analysis.elapsed.as_secs_f64() * 1000.0,
                    }
                })),
            };
            out.emit_status(&report, report.solved.status, || {
                report.solved.text("the winner", |s| {
                    let verdict = match (report.to_move, s.winner) {
                        (None, w) => format!("the game is over: {} won", player_text(w)),
                        (Some(m), Some(w)) if m == w => format!(
                            "{m} to move wins; winning moves: {}",
                            s.winning_moves.join(" ")
                        ),
                        (Some(m), Some(w)) => format!("{m} to move loses: {w} wins"),
                        (Some(m), None) => format!("{m} to move: a draw with perfect play"),
                    };
                    format!("{verdict}\n{} nodes in {:.1} ms", s.nodes, s.millis)
                }) + "\n"
            })
        }
        ProjectiveHexCommand::Play { game, play } => play_in_terminal(
            game.game()?,
            play.colour,
            agent(play.level_or(Level::Medium), play.seed),
            &render,
        ),
        ProjectiveHexCommand::Arena { game, arena } => {
            let game = game.game()?;
            if game.outcome().is_some() {
                bail!("the game is already over");
            }
            run_arena(&game, &agent, &arena, out)
        }
    }
}

fn solve_openings(
    start: &ProjectiveHex,
    budget: &Budget,
    format: TableFormat,
    out: &Output,
) -> anyhow::Result<Answer> {
    let clock = std::time::Instant::now();
    let bar = progress_bar(start.stones().len() as u64, "openings");
    let results = all_openings(start, budget, &|cells| bar.inc(cells as u64));
    bar.finish_and_clear();
    let winning_moves: Vec<String> = results
        .iter()
        .filter(|r| r.winner == Some(Player::X))
        .flat_map(|r| r.cells.iter().cloned())
        .collect();
    let rows: Vec<OpeningRow> = results
        .into_iter()
        .map(|result| OpeningRow {
            status: match result.unknown {
                Some(reason) => Status::Unknown { reason },
                None => Status::Solved,
            },
            result,
        })
        .collect();
    let status = Status::of_parts(rows.iter().map(|row| row.status));
    let report = OpeningsReport {
        board: start.board().spec().to_string(),
        cells: start.stones().len(),
        status,
        winner: match (winning_moves.is_empty(), status) {
            (false, _) => Some(Player::X),
            (true, Status::Solved) => Some(Player::O),
            (true, Status::Unknown { .. }) => None,
        },
        winning_moves,
        classes: rows.len(),
        nodes: rows.iter().map(|r| r.result.nodes).sum(),
        millis: clock.elapsed().as_secs_f64() * 1000.0,
        openings: rows,
    };
    let mut table = Table::new(&["opening", "sides", "cells", "winner", "O's winning replies"]);
    for row in &report.openings {
        let r = &row.result;
        let (winner, replies) = match row.status {
            Status::Solved if r.winning_replies.is_empty() => {
                (player_text(r.winner), "none".to_string())
            }
            Status::Solved => (player_text(r.winner), r.winning_replies.join(" ")),
            Status::Unknown { .. } => ("unknown".to_string(), "unknown".to_string()),
        };
        table.push(vec![
            r.cells[0].clone(),
            r.sides.to_string(),
            r.cells.len().to_string(),
            winner,
            replies,
        ]);
    }
    out.emit_status(&report, report.status, || {
        let mut text = table.render(format);
        if format == TableFormat::Text {
            let verdict = match report.winner {
                Some(w) => format!("{w} wins"),
                None => "the winner is unknown".to_string(),
            };
            text += &format!(
                "{}: {verdict}; winning first moves: {}\n{} classes of openings, {} nodes in {:.1} ms\n",
                report.board,
                match (report.winning_moves.is_empty(), report.status) {
                    (false, _) => report.winning_moves.join(" "),
                    (true, Status::Solved) => "none".to_string(),
                    (true, Status::Unknown { .. }) => "none proved".to_string(),
                },
                report.classes,
                report.nodes,
                report.millis
            );
            if let Status::Unknown { .. } = report.status {
                text += &format!(
                    "some classes are {} (per reply)\n",
                    report.status.text()
                );
            }
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
