//! What every game's `play` and `arena` commands share: the terminal game loop and the
//! arena runner, generic over the engine's traits.

use std::io::{BufRead, Write};

use anyhow::Context;
use clap::Args;
use crosscap_engine::arena::arena;
use crosscap_engine::{Agent, Level, Notation, Player};

use crate::limits::{move_budget, parse_games, parse_level, parse_player};
use crate::output::{Answer, Output, ignore_closed_stdout, progress_bar};

/// Options of every `play` command.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The colour you play (X moves first).
    #[arg(long, default_value = "X", value_parser = parse_player)]
    pub colour: Player,
    /// The computer's level: easy, medium, hard, expert, perfect, random, flatmc:N (N up to
    /// 20000), mcts:N (N up to 1000000) [default: perfect in games solved exactly (Nim,
    /// manifold), else medium].
    #[arg(long, value_parser = parse_level)]
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
    /// Agent A's level (as `play --level`).
    #[arg(long = "a", default_value = "medium", value_parser = parse_level)]
    pub a: Level,
    /// Agent B's level.
    #[arg(long = "b", default_value = "random", value_parser = parse_level)]
    pub b: Level,
    /// Number of games, 1 to 1000000; A plays X in even-numbered games.
    #[arg(long, default_value = "100", value_parser = parse_games)]
    pub games: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Plays a game in the terminal: the human types moves in the game's notation (or
/// `moves`, `quit`), the computer answers. Reads stdin line by line, so it can be driven
/// by a script; a reader that closes stdout early (`| head`) ends the game quietly.
pub fn play_in_terminal<G: Notation>(
    game: G,
    human: Player,
    computer: Box<dyn Agent<G>>,
    render: &dyn Fn(&G) -> String,
) -> anyhow::Result<Answer> {
    let stdin = std::io::stdin();
    let played = play_game(
        game,
        human,
        computer,
        render,
        &mut stdin.lock(),
        &mut std::io::stdout(),
    );
    ignore_closed_stdout(played).map(|()| Answer::Complete)
}

/// The game loop of [`play_in_terminal`], reading the human's lines from `input` and
/// writing to `out`.
fn play_game<G: Notation>(
    mut game: G,
    human: Player,
    mut computer: Box<dyn Agent<G>>,
    render: &dyn Fn(&G) -> String,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "You play {human}; the computer ({}) plays {}.",
        computer.name(),
        human.opponent()
    )?;
    writeln!(out, "Type a move, `moves` for the legal moves, or `quit`.")?;
    loop {
        writeln!(out, "{}", render(&game))?;
        if let Some(outcome) = game.outcome() {
            let verdict = match outcome.winner {
                Some(w) if w == human => "You win.",
                Some(_) => "The computer wins.",
                None => "Draw.",
            };
            writeln!(out, "{verdict}")?;
            out.flush()?;
            return Ok(());
        }
        let mover = game.to_move();
        if mover == human {
            write!(out, "{mover} to move> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line).context("cannot read stdin")? == 0 {
                writeln!(out)?;
                out.flush()?;
                return Ok(());
            }
            match line.trim() {
                "" => continue,
                "quit" | "q" => return Ok(()),
                "moves" | "help" | "?" => {
                    let names: Vec<String> = game
                        .legal_moves()
                        .iter()
                        .map(|m| game.format_move(m))
                        .collect();
                    writeln!(out, "legal moves: {}", names.join(" "))?;
                }
                text => {
                    if let Err(err) = game.play_text(text) {
                        writeln!(out, "{err}")?;
                    }
                }
            }
        } else {
            let mv = computer
                .choose(&game, &move_budget(1))
                .context("the computer found no move")?;
            writeln!(out, "{mover} plays {}", game.format_move(&mv))?;
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
) -> anyhow::Result<Answer> {
    let bar = progress_bar(args.games as u64, "games");
    let a = |seed| make_agent(args.a, seed);
    let b = |seed| make_agent(args.b, seed);
    let report = arena(
        start,
        &a,
        &b,
        args.games,
        args.seed,
        &move_budget(rayon::current_num_threads()),
        &|| bar.inc(1),
    );
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
    })
}

#[cfg(test)]
mod tests {
    use std::io::ErrorKind;

    use crosscap_engine::agents::RandomAgent;
    use crosscap_engine::nim::Nim;
    use crosscap_engine::{Game, NormalPlay};

    use super::*;

    fn nim() -> NormalPlay<Nim> {
        NormalPlay::new(Nim::new(vec![1, 2]))
    }

    fn transcript(script: &str) -> String {
        let mut out = Vec::new();
        let render = |g: &NormalPlay<Nim>| format!("{} moves", g.legal_moves().len());
        play_game(
            nim(),
            Player::X,
            Box::new(RandomAgent::new(1)),
            &render,
            &mut script.as_bytes(),
            &mut out,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_script_plays_and_quits() {
        let text = transcript("moves\nnonsense\nquit\n");
        assert!(text.starts_with("You play X; the computer (random) plays O."));
        assert!(text.contains("legal moves: "), "{text}");
        assert_eq!(text.matches("X to move> ").count(), 3, "{text}");
    }

    #[test]
    fn the_end_of_input_ends_the_game() {
        assert!(transcript("").ends_with("X to move> \n"));
    }

    /// A writer whose reader has gone, like stdout piped into `head`.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_stdout_ends_the_game_without_an_error() {
        let render = |_: &NormalPlay<Nim>| String::new();
        let played = play_game(
            nim(),
            Player::X,
            Box::new(RandomAgent::new(1)),
            &render,
            &mut "quit\n".as_bytes(),
            &mut ClosedPipe,
        );
        assert!(played.is_err());
        assert!(ignore_closed_stdout(played).is_ok());
        let other = anyhow::anyhow!("cannot read stdin");
        assert!(ignore_closed_stdout(Err(other)).is_err());
    }
}
