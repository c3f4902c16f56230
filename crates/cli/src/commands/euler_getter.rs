//! `crosscap euler-getter`: scores, exact solutions, the claim survey, play and arena.

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};
use crosscap_engine::mcts::SearchLimit;
use crosscap_engine::solver::{Budget, Solver};
use crosscap_engine::{Game, Level, Notation, Player};
use crosscap_euler_getter::{EulerGetter, Rule, SwapRule, new_game, player};
use serde::Serialize;
use serde_json::{Value, json};

use crate::limits::{BudgetArgs, default_seconds, parse_think_ms, setup_limits};
use crate::output::{Answer, Output, Part, Status, Table, TableFormat, progress_bar};
use crate::terminal::{ArenaArgs, PlayArgs, play_in_terminal, run_arena};

#[derive(Subcommand, Debug)]
pub enum EulerGetterCommand {
    /// The Euler characteristic of both regions of a position, as V - E + F and as
    /// pieces minus loops; the winner once the board is full.
    Score {
        #[command(flatten)]
        board: BoardArgs,
        /// The position: one character per cell in cell order, `.` empty, `X`, `O`.
        #[arg(long)]
        position: String,
    },
    /// Solves a position exactly: the minimax margin chi X - chi O and the optimal moves.
    #[command(mut_arg("max_seconds", default_seconds("600")))]
    Solve {
        #[command(flatten)]
        board: BoardArgs,
        /// The position to solve (default: the empty board).
        #[arg(long)]
        position: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Solves the empty board of each given board and checks the claim "the first player
    /// wins whenever the number of cells is even" (each board with its own budget).
    #[command(mut_arg("max_seconds", default_seconds("600")))]
    Survey {
        /// Boards to solve, e.g. `--board goldberg:1 --board taylor:2`.
        #[arg(long = "board", required = true)]
        boards: Vec<String>,
        /// normal (larger characteristic wins) or reverse.
        #[arg(long, default_value = "normal")]
        rule: String,
        /// Swap rule: none, 1, 3, 5 or 7 (the claim is about the game without swap).
        #[arg(long, default_value = "none")]
        swap: String,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
    },
    /// Plays a game in the terminal against the computer.
    Play {
        #[command(flatten)]
        board: BoardArgs,
        #[command(flatten)]
        play: PlayArgs,
        /// Give the computer this many milliseconds per move (MCTS, 1 to 3600000), instead
        /// of --level.
        #[arg(long, value_parser = parse_think_ms)]
        think_ms: Option<Duration>,
    },
    /// Plays two computer levels against each other, colours alternating.
    Arena {
        #[command(flatten)]
        board: BoardArgs,
        #[command(flatten)]
        arena: ArenaArgs,
    },
}

/// The board and the rules of a game.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// The board: goldberg:K (goldberg:3 Quick, goldberg:4 Standard), taylor:N, file:PATH.
    #[arg(long, default_value = "goldberg:3")]
    board: String,
    /// normal (larger characteristic wins) or reverse (smaller wins).
    #[arg(long, default_value = "normal")]
    rule: String,
    /// Swap rule: none, or after 1, 3, 5 or 7 moves the second player may swap colours.
    #[arg(long, default_value = "3")]
    swap: String,
}

impl BoardArgs {
    /// The game, set up as the server sets it up.
    fn game(&self, position: Option<&str>) -> anyhow::Result<EulerGetter> {
        let rule: Rule = self.rule.parse()?;
        let swap: SwapRule = self.swap.parse()?;
        Ok(new_game(
            &self.board,
            rule,
            swap,
            position,
            &setup_limits(),
        )?)
    }
}

#[derive(Serialize)]
struct ScoreReport {
    board: String,
    surface: String,
    surface_chi: i64,
    position: String,
    rule: String,
    chi: Value,
    components: Value,
    loops: Value,
    counts: Value,
    regions: Value,
    full: bool,
    winner: Option<String>,
}

#[derive(Serialize)]
struct SolveReport {
    board: String,
    cells: usize,
    position: String,
    rule: String,
    swap: String,
    to_move: Option<String>,
    symmetries: usize,
    #[serde(flatten)]
    solved: Part<Solved>,
}

/// What the solver found.
#[derive(Serialize)]
struct Solved {
    winner: Option<String>,
    /// The minimax value of chi X - chi O at the end (X maximises it under the normal
    /// rule, minimises it under the reverse rule).
    margin: i32,
    /// The optimal moves when the player to move wins, else none.
    winning_moves: Vec<String>,
    /// Every move that achieves the minimax margin.
    optimal_moves: Vec<String>,
    nodes: u64,
    millis: f64,
}

#[derive(Serialize)]
struct SurveyReport {
    rule: String,
    swap: String,
    /// `solved` when every board is.
    #[serde(flatten)]
    status: Status,
    boards: Vec<SurveyRow>,
}

#[derive(Serialize)]
struct SurveyRow {
    board: String,
    cells: usize,
    surface: String,
    #[serde(flatten)]
    solved: Part<SurveyAnswer>,
}

/// A board's answer to the claim.
#[derive(Serialize)]
struct SurveyAnswer {
    winner: &'static str,
    margin: i32,
    claim: &'static str,
}

pub fn run(cmd: EulerGetterCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
        EulerGetterCommand::Score { board, position } => {
            let game = board.game(Some(&position))?;
            let report = score_report(&game);
            out.emit(&report, || score_text(&game))
        }
        EulerGetterCommand::Solve {
            board,
            position,
            budget,
        } => {
            let game = board.game(position.as_deref())?;
            let report = solve(&game, budget.budget());
            out.emit_status(&report, report.solved.status, || {
                let mover = report.to_move.as_deref().unwrap_or("nobody");
                let answer = report.solved.text("the margin", |s| {
                    format!(
                        "{} wins, margin chi X - chi O = {}\noptimal moves for {mover}: {}\n\
                         {} nodes in {:.1} ms",
                        s.winner.as_deref().unwrap_or("nobody"),
                        s.margin,
                        if s.optimal_moves.is_empty() {
                            "none (the game is over)".to_string()
                        } else {
                            s.optimal_moves.join(" ")
                        },
                        s.nodes,
                        s.millis,
                    )
                });
                format!(
                    "{} ({} cells, {} rule, swap {}, {} symmetries): {answer}\n",
                    report.board, report.cells, report.rule, report.swap, report.symmetries
                )
            })
        }
        EulerGetterCommand::Survey {
            boards,
            rule,
            swap,
            budget,
            format,
        } => {
            let bar = progress_bar(boards.len() as u64, "boards");
            let mut rows = Vec::new();
            for spec in &boards {
                let args = BoardArgs {
                    board: spec.clone(),
                    rule: rule.clone(),
                    swap: swap.clone(),
                };
                let game = args.game(None)?;
                let report = solve(&game, budget.budget());
                let even = report.cells.is_multiple_of(2);
                rows.push(SurveyRow {
                    board: spec.clone(),
                    cells: report.cells,
                    surface: game.complex().board().surface().to_string(),
                    solved: report.solved.map(|s| {
                        let first_wins = s.winner.as_deref() == Some("X");
                        SurveyAnswer {
                            winner: if first_wins { "first" } else { "second" },
                            margin: s.margin,
                            claim: match (even, first_wins) {
                                (true, true) => "holds",
                                (true, false) => "fails",
                                (false, _) => "n/a (odd)",
                            },
                        }
                    }),
                });
                bar.inc(1);
            }
            bar.finish_and_clear();
            let mut table = Table::new(&["board", "cells", "surface", "winner", "margin", "claim"]);
            for row in &rows {
                let (winner, margin, claim) = match &row.solved.answer {
                    Some(a) => (a.winner.to_string(), a.margin.to_string(), a.claim),
                    None => ("unknown".to_string(), "unknown".to_string(), "unknown"),
                };
                table.push(vec![
                    row.board.clone(),
                    row.cells.to_string(),
                    row.surface.clone(),
                    winner,
                    margin,
                    claim.to_string(),
                ]);
            }
            let report = SurveyReport {
                rule,
                swap,
                status: Status::of_parts(rows.iter().map(|row| row.solved.status)),
                boards: rows,
            };
            out.emit_status(&report, report.status, || table.render(format))
        }
        EulerGetterCommand::Play {
            board,
            play,
            think_ms,
        } => {
            let game = board.game(None)?;
            let computer = match think_ms {
                Some(time) => player::mcts(SearchLimit::Time(time), play.seed),
                None => player::agent(play.level_or(Level::Medium), play.seed),
            };
            play_in_terminal(game, play.colour, computer, &render)
        }
        EulerGetterCommand::Arena { board, arena } => {
            run_arena(&board.game(None)?, &player::agent, &arena, out)
        }
    }
}

/// Solves `game` with symmetry-aware hashing.
fn solve(game: &EulerGetter, budget: Budget) -> SolveReport {
    let complex = game.complex().clone();
    let board = complex.board();
    let symmetries = Arc::new(board.symmetries());
    let count = symmetries.len();
    let searched = game.clone().with_symmetries(symmetries);
    let over = game.outcome().is_some();
    let solved = Solver::new(budget)
        .solve(&searched)
        .map(|solution| solved(game, &searched, solution));
    SolveReport {
        board: board.spec().to_string(),
        cells: board.cell_count(),
        position: board.format_position(&game.owners()),
        rule: game.rule().to_string(),
        swap: game.swap_rule().to_string(),
        to_move: (!over).then(|| game.to_move().to_string()),
        symmetries: count,
        solved: Part::of(solved),
    }
}

/// The solver's answer in the game's terms.
fn solved(
    game: &EulerGetter,
    searched: &EulerGetter,
    solution: crosscap_engine::Solution<crosscap_euler_getter::Move>,
) -> Solved {
    let (winner, x_value) = match searched.outcome() {
        Some(outcome) => (outcome.winner, outcome.margin),
        None => {
            let winner = match solution.margin.signum() {
                1 => Some(Player::X),
                -1 => Some(Player::O),
                _ => None,
            };
            (winner, solution.margin)
        }
    };
    // The engine's margin is what X maximises; under the reverse rule that is chi O - chi X.
    let margin = match game.rule() {
        Rule::Normal => x_value,
        Rule::Reverse => -x_value,
    };
    let names: Vec<String> = solution
        .best_moves
        .iter()
        .map(|m| game.format_move(m))
        .collect();
    Solved {
        winner: winner.map(|w| w.to_string()),
        margin,
        winning_moves: if solution.value > 0 {
            names.clone()
        } else {
            Vec::new()
        },
        optimal_moves: names,
        nodes: solution.nodes,
        millis: solution.elapsed.as_secs_f64() * 1000.0,
    }
}

fn score_report(game: &EulerGetter) -> ScoreReport {
    let board = game.complex().board();
    let both = |f: &dyn Fn(Player) -> Value| json!({ "X": f(Player::X), "O": f(Player::O) });
    let analyses = [game.analysis(Player::X), game.analysis(Player::O)];
    ScoreReport {
        board: board.spec().to_string(),
        surface: board.surface().to_string(),
        surface_chi: game.complex().euler_characteristic(),
        position: board.format_position(&game.owners()),
        rule: game.rule().to_string(),
        chi: both(&|p| json!(game.chi(p))),
        components: both(&|p| json!(analyses[p.index()].components)),
        loops: both(&|p| json!(analyses[p.index()].loops)),
        counts: both(&|p| serde_json::to_value(game.counts(p)).expect("counts serialise")),
        regions: both(&|p| crosscap_euler_getter::region_json(game, p)),
        full: game.is_full(),
        winner: game.outcome().and_then(|o| o.winner).map(|w| w.to_string()),
    }
}

fn score_text(game: &EulerGetter) -> String {
    let board = game.complex().board();
    let mut text = format!(
        "{}: {} of Euler characteristic {}, {} rule\n",
        board.spec(),
        board.surface(),
        game.complex().euler_characteristic(),
        game.rule()
    );
    for p in Player::BOTH {
        let a = game.analysis(p);
        let c = game.counts(p);
        text += &format!(
            "{p}: chi {} = {} - {}   (V {} - E {} + F {})\n",
            a.chi,
            plural(a.components, "piece"),
            plural(a.loops, "loop"),
            c.vertices,
            c.edges,
            c.faces
        );
    }
    text += &match game.outcome() {
        Some(o) => match o.winner {
            Some(w) => format!("{w} wins ({} rule)\n", game.rule()),
            None => "tie\n".to_string(),
        },
        None => format!(
            "game in progress, {} to move ({} empty cells)\n",
            game.to_move(),
            board.cell_count() - game.placed()
        ),
    };
    text
}

fn render(game: &EulerGetter) -> String {
    let board = game.complex().board();
    let owners = game.owners();
    let row = |p: Player| {
        let a = game.analysis(p);
        let c = game.counts(p);
        format!(
            "{p} ({}): chi {} = {} - {} loops (V {} - E {} + F {})",
            if game.colour_of(p) == Player::X {
                "blue"
            } else {
                "red"
            },
            a.chi,
            plural(a.components, "piece"),
            a.loops,
            c.vertices,
            c.edges,
            c.faces
        )
    };
    let mut text = format!(
        "{}\n{}\n{}",
        board.text_drawing(Some(&owners), false).trim_end(),
        row(Player::X),
        row(Player::O)
    );
    if game.swap_available() {
        text += &format!(
            "\n({} may answer `swap` to take over the other colour)",
            game.to_move()
        );
    }
    text
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
