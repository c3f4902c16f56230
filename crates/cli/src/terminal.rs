//! What every game's `play` and `arena` commands share: the terminal game loop and the
//! arena runner, generic over the engine's traits.

use std::io::{BufRead, Write};

use anyhow::Context;
use clap::Args;
use crosscap_engine::arena::{ArenaReport, arena};
use crosscap_engine::{Agent, Level, Notation, Player};

use crate::output::{Output, progress_bar};

/// Options of every `play` command.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The colour you play (X moves first).
    #[arg(long, default_value = "X")]
    pub colour: Player,
    /// The computer's level: easy, medium, hard, expert, perfect, random, flatmc:N, mcts:N
    /// [default: perfect in games solved exactly (Nim, manifold), else medium].
    #[arg(long)]
    pub level: Option<Level>,
    /// Seed of the computer's randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl PlayArgs {
    /// The level asked for, or the game's default.
    pub fn level_or(&self, default: Level) -> Level {
        self.level.unwrap_or(default)
    }
}

/// Options of every `arena` command.
#[derive(Args, Debug, Clone)]
pub struct ArenaArgs {
    /// Agent A's level.
    #[arg(long = "a", default_value = "medium")]
    pub a: Level,
    /// Agent B's level.
    #[arg(long = "b", default_value = "random")]
    pub b: Level,
    /// Number of games; A plays X in even-numbered games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Plays a game in the terminal: the human types moves in the game's notation (or
/// `moves`, `quit`), the computer answers. Reads stdin line by line, so it can be driven
/// by a script.
pub fn play_in_terminal<G: Notation>(
    mut game: G,
    human: Player,
    mut computer: Box<dyn Agent<G>>,
    render: &dyn Fn(&G) -> String,
) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut stdout = std::io::stdout();
    println!(
        "You play {human}; the computer ({}) plays {}.",
        computer.name(),
        human.opponent()
    );
    println!("Type a move, `moves` for the legal moves, or `quit`.");
    loop {
        println!("{}", render(&game));
        if let Some(outcome) = game.outcome() {
            match outcome.winner {
                Some(w) if w == human => println!("You win."),
                Some(_) => println!("The computer wins."),
                None => println!("Draw."),
            }
            return Ok(());
        }
        let mover = game.to_move();
        if mover == human {
            print!("{mover} to move> ");
            stdout.flush()?;
            let Some(line) = lines.next() else {
                println!();
                return Ok(());
            };
            let line = line.context("cannot read stdin")?;
            match line.trim() {
                "" => continue,
                "quit" | "q" => return Ok(()),
                "moves" | "help" | "?" => {
                    let names: Vec<String> = game
                        .legal_moves()
                        .iter()
                        .map(|m| game.format_move(m))
                        .collect();
                    println!("legal moves: {}", names.join(" "));
                }
                text => {
                    if let Err(err) = game.play_text(text) {
                        println!("{err}");
                    }
                }
            }
        } else {
            let mv = computer
                .choose(&game)
                .context("the computer found no move")?;
            println!("{mover} plays {}", game.format_move(&mv));
            game.play(&mv);
        }
    }
}

/// Runs an arena between two levels of one game and prints the report.
pub fn run_arena<G: Notation + 'static>(
    start: &G,
    make_agent: &(dyn Fn(Level, u64) -> Box<dyn Agent<G>> + Sync),
    args: &ArenaArgs,
    out: &Output,
) -> anyhow::Result<ArenaReport> {
    let bar = progress_bar(args.games as u64, "games");
    let a = |seed| make_agent(args.a, seed);
    let b = |seed| make_agent(args.b, seed);
    let report = arena(start, &a, &b, args.games, args.seed, &|| bar.inc(1));
    bar.finish_and_clear();
    out.emit(&report, || {
        format!(
            "{} vs {}: {} games, A wins {}, B wins {}, draws {}\n\
             A's win rate {:.3} (95% CI {:.3} to {:.3})\n\
             time per move: A {:.2} ms, B {:.2} ms (seed {})\n",
            report.agent_a,
            report.agent_b,
            report.games,
            report.a_wins,
            report.b_wins,
            report.draws,
            report.a_win_rate,
            report.ci95[0],
            report.ci95[1],
            report.a_ms_per_move,
            report.b_ms_per_move,
            report.seed
        )
    })?;
    Ok(report)
}
