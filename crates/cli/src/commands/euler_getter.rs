//! `crosscap euler-getter`: scores, exact solutions, the claim survey, play and arena.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};
use crosscap_engine::mcts::SearchLimit;
use crosscap_engine::solver::{Budget, Solver};
use crosscap_engine::{Game, Level, Notation, Player};
use crosscap_euler_getter::{EulerGetter, Rule, SwapRule, load_board, player};
use serde::Serialize;
use serde_json::{Value, json};

use crate::output::{Output, Table, TableFormat, progress_bar};
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
    /// wins whenever the number of cells is even".
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
        /// Give the computer this many milliseconds per move (MCTS), instead of --level.
        #[arg(long)]
        think_ms: Option<u64>,
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

/// How long the exact solver may search.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Give up after this many seconds (0: no limit).
    #[arg(long, default_value_t = 600)]
    max_seconds: u64,
    /// Give up after this many nodes (default: no limit).
    #[arg(long)]
    max_nodes: Option<u64>,
}

impl BudgetArgs {
    fn budget(&self) -> Budget {
        Budget {
            max_nodes: self.max_nodes,
            max_time: (self.max_seconds > 0).then(|| Duration::from_secs(self.max_seconds)),
            max_memory: Some(crate::limits::DEFAULT_MAX_MEMORY),
            cancel: None,
        }
    }
}

impl BoardArgs {
    fn game(&self, position: Option<&str>) -> anyhow::Result<EulerGetter> {
        let rule: Rule = self.rule.parse()?;
        let swap: SwapRule = self.swap.parse()?;
        let complex = load_board(&self.board)?;
        Ok(match position {
            Some(text) => EulerGetter::from_position(complex, text, rule, swap)?,
            None => EulerGetter::new(complex, rule, swap),
        })
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
    winner: Option<String>,
    /// The minimax value of chi X - chi O at the end (X maximises it under the normal
    /// rule, minimises it under the reverse rule).
    margin: i32,
    /// The optimal moves when the player to move wins, else none.
    winning_moves: Vec<String>,
    /// Every move that achieves the minimax margin.
    optimal_moves: Vec<String>,
    symmetries: usize,
    nodes: u64,
    millis: f64,
}

#[derive(Serialize)]
struct SurveyRow {
    board: String,
    cells: usize,
    surface: String,
    winner: String,
    margin: i32,
    claim: &'static str,
}

pub fn run(cmd: EulerGetterCommand, out: &Output) -> anyhow::Result<()> {
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
            let report = solve(&game, budget.budget())?;
            out.emit(&report, || {
                let mover = report.to_move.as_deref().unwrap_or("nobody");
                format!(
                    "{} ({} cells, {} rule, swap {}): {} wins, margin chi X - chi O = {}\n\
                     optimal moves for {}: {}\n{} nodes in {:.1} ms ({} symmetries)\n",
                    report.board,
                    report.cells,
                    report.rule,
                    report.swap,
                    report.winner.as_deref().unwrap_or("nobody"),
                    report.margin,
                    mover,
                    if report.optimal_moves.is_empty() {
                        "none (the game is over)".to_string()
                    } else {
                        report.optimal_moves.join(" ")
                    },
                    report.nodes,
                    report.millis,
                    report.symmetries
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
                let solved = solve(&game, budget.budget())?;
                let first_wins = solved.winner.as_deref() == Some("X");
                rows.push(SurveyRow {
                    board: spec.clone(),
                    cells: solved.cells,
                    surface: game.complex().board().surface().to_string(),
                    winner: if first_wins { "first" } else { "second" }.to_string(),
                    margin: solved.margin,
                    claim: match (solved.cells % 2 == 0, first_wins) {
                        (true, true) => "holds",
                        (true, false) => "fails",
                        (false, _) => "n/a (odd)",
                    },
                });
                bar.inc(1);
            }
            bar.finish_and_clear();
            let mut table = Table::new(&["board", "cells", "surface", "winner", "margin", "claim"]);
            for row in &rows {
                table.push(vec![
                    row.board.clone(),
                    row.cells.to_string(),
                    row.surface.clone(),
                    row.winner.clone(),
                    row.margin.to_string(),
                    row.claim.to_string(),
                ]);
            }
            out.emit(
                &json!({ "rule": rule, "swap": swap, "boards": rows }),
                || table.render(format),
            )
        }
        EulerGetterCommand::Play {
            board,
            play,
            think_ms,
        } => {
            let game = board.game(None)?;
            let computer = match think_ms {
                Some(ms) => player::mcts(SearchLimit::Time(Duration::from_millis(ms)), play.seed),
                None => player::agent(play.level_or(Level::Medium), play.seed),
            };
            play_in_terminal(game, play.colour, computer, &render)
        }
        EulerGetterCommand::Arena { board, arena } => {
            let game = board.game(None)?;
            run_arena(&game, &player::agent, &arena, out).map(|_| ())
        }
    }
}

/// Solves `game` with symmetry-aware hashing.
fn solve(game: &EulerGetter, budget: Budget) -> anyhow::Result<SolveReport> {
    let complex = game.complex().clone();
    let board = complex.board();
    let symmetries = Arc::new(board.symmetries());
    let count = symmetries.len();
    let searched = game.clone().with_symmetries(symmetries);
    let solution = Solver::new(budget)
        .solve(&searched)
        .with_context(|| format!("solving {}", board.spec()))?;
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
    let over = game.outcome().is_some();
    Ok(SolveReport {
        board: board.spec().to_string(),
        cells: board.cell_count(),
        position: board.format_position(&game.owners()),
        rule: game.rule().to_string(),
        swap: game.swap_rule().to_string(),
        to_move: (!over).then(|| game.to_move().to_string()),
        winner: winner.map(|w| w.to_string()),
        margin,
        winning_moves: if solution.value > 0 {
            names.clone()
        } else {
            Vec::new()
        },
        optimal_moves: names,
        symmetries: count,
        nodes: solution.nodes,
        millis: solution.elapsed.as_secs_f64() * 1000.0,
    })
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
