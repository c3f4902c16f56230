//! What every game's `play`, `arena` and `hint` share: the computer's flags, the terminal
//! game loop and the arena runner, for any game of the catalog.

use std::io::{BufRead, Write};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use crosscap_engine::arena::ArenaReport;
use crosscap_engine::catalog::Status;
use crosscap_engine::ladder::{Rating, RoundRobin};
use crosscap_engine::mcts::with_search_threads;
use crosscap_engine::session::{ArenaRun, Computer as MatchComputer, Hint, Match};
use crosscap_engine::{Budget, Cancel, Exhausted, Level, Player, Proven, Rng, Unproven};

use crate::limits::{
    check_threads, move_budget, parse_games, parse_level, parse_max_minutes, parse_player,
    parse_think_ms, parse_threads,
};
use serde::Serialize;

use crate::output::{Answer, Output, Table, TableFormat, ignore_closed_stdout, progress_bar};

/// The computer's flags of `play` and `hint`.
#[derive(Args, Debug, Clone)]
pub struct ComputerArgs {
    /// The computer's level: easy (10 ms a move), medium (60 ms), hard (400 ms), expert
    /// (1500 ms), perfect, random, flatmc:N (N up to 20000), mcts:N (N iterations, up to
    /// 1000000), mcts:Nms (N ms a move) or plain:LEVEL (an MCTS level with the search
    /// switches of the strength work off, e.g. plain:expert) [default: the game's].
    #[arg(long, value_parser = parse_level)]
    pub level: Option<Level>,
    /// Milliseconds the computer thinks per move (1 to 3600000): the time of a timed level
    /// (easy … expert, mcts:Nms), a bound on the others; without --level, MCTS thinks for
    /// all of it.
    #[arg(long, value_parser = parse_think_ms)]
    pub think_ms: Option<Duration>,
    /// Threads the computer's search runs on (1 to 64; root parallelism, a seeded mcts:N
    /// gives the same move on every run with the same count): the MCTS levels and
    /// perfect's fallback; refused above 1 for random and flatmc:N.
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// Seed of the computer's randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A computer player of any game: its level, seed, search threads and budget per move.
#[derive(Clone, Debug)]
pub struct Computer {
    pub level: Level,
    pub seed: u64,
    pub threads: usize,
    pub budget: Budget,
}

impl Computer {
    /// The computer for a whole game of `game`, searching on its threads.
    pub fn player(&self, game: &dyn Match) -> Box<dyn MatchComputer> {
        with_search_threads(self.threads, || game.computer(self.level, self.seed))
    }
}

impl ComputerArgs {
    /// The computer asked for: the level given (its time set by `--think-ms`), else MCTS
    /// for the time given, else the game's `default`; refused when `--threads` asks for
    /// threads the level cannot use.
    pub fn computer(&self, default: Level) -> anyhow::Result<Computer> {
        let level = match (self.level, self.think_ms) {
            (Some(level), think) => with_think_time(level, think),
            (None, Some(think)) => Level::MctsMs(think.as_millis() as u64),
            (None, None) => default,
        };
        check_threads("--threads", self.threads, level)?;
        Ok(Computer {
            level,
            seed: self.seed,
            threads: self.threads,
            budget: move_budget(self.think_ms, 1),
        })
    }
}

/// `level` with its time per move set to `think` when given (see
/// [`Level::with_think_time`]).
fn with_think_time(level: Level, think: Option<Duration>) -> Level {
    think.map_or(level, |think| level.with_think_time(think))
}

/// Options of every `play` command.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The colour you play (X moves first).
    #[arg(long, default_value = "X", value_parser = parse_player)]
    pub colour: Player,
    #[command(flatten)]
    pub computer: ComputerArgs,
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
    /// Milliseconds each computer thinks per move (1 to 3600000): the time of a timed
    /// level (easy … expert, mcts:Nms), a bound on the others.
    #[arg(long, value_parser = parse_think_ms)]
    pub think_ms: Option<Duration>,
    /// Threads agent A's search runs on (1 to 64), as `play --threads`.
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub a_threads: usize,
    /// Threads agent B's search runs on (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub b_threads: usize,
    /// Equal thinking time: A may spend on each move what B has spent so far (plus B's
    /// expected rest) minus what A has, over A's expected remaining moves; games are played
    /// one at a time, and the run counts only when A's time per move is within 5% of B's
    /// (give A a level that thinks until its time is up, e.g. expert). A side on several
    /// threads is charged its wall-clock time times its threads (an upper bound of their
    /// CPU time), and its time per move is reported so.
    #[arg(long)]
    pub equal_time: bool,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Options of every `ladder` command.
#[derive(Args, Debug, Clone)]
pub struct LadderArgs {
    /// The levels, comma-separated; the first is rated 0.
    #[arg(
        long,
        value_delimiter = ',',
        value_parser = parse_level,
        default_value = "random,flatmc:160,easy,medium,hard"
    )]
    pub levels: Vec<Level>,
    /// Games between each two levels, 1 to 1000000, colours alternating.
    #[arg(long, default_value = "20", value_parser = parse_games)]
    pub games: usize,
    /// Milliseconds each computer thinks per move (1 to 3600000), as `arena --think-ms`.
    #[arg(long, value_parser = parse_think_ms)]
    pub think_ms: Option<Duration>,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop starting games after this many minutes (above 0, at most 1440, fractions
    /// allowed) and rate the games played, exit status 3; a game under way then finishes
    /// with instant moves.
    #[arg(long, default_value = "60", value_parser = parse_max_minutes)]
    pub max_minutes: Duration,
    /// Table format for text output.
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    pub format: TableFormat,
}

/// A round robin's answer: each level's Elo and the games of every pair.
#[derive(Serialize)]
struct LadderReport {
    games_per_pair: usize,
    /// Games played; fewer than every pair's `games_per_pair` when time ran out.
    games_played: usize,
    /// `solved` when every game was played, else `unknown` with the time as the reason.
    #[serde(flatten)]
    status: Status,
    seed: u64,
    ratings: Vec<Rating>,
    pairs: Vec<ArenaReport>,
}

/// Raises `cancel` after `limit` unless dropped first: the bound on the wall time of
/// commands that play many games (`ladder`, `projective-hex patterns`).
pub(crate) struct Deadline {
    _done: std::sync::mpsc::Sender<()>,
}

impl Deadline {
    pub(crate) fn after(limit: Duration, cancel: Cancel) -> Deadline {
        let (done, wait) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                cancel.cancel();
            }
        });
        Deadline { _done: done }
    }
}

/// Plays every pair of levels against each other and rates them (Bradley–Terry, Elo
/// scale, the first level at 0).
pub fn run_ladder(game: &dyn Match, args: &LadderArgs, out: &Output) -> anyhow::Result<Answer> {
    let names: Vec<String> = args.levels.iter().map(Level::to_string).collect();
    if names.len() < 2 {
        anyhow::bail!("--levels needs at least two levels");
    }
    let pairs: Vec<(usize, usize)> = (0..names.len())
        .flat_map(|a| (a + 1..names.len()).map(move |b| (a, b)))
        .collect();
    let bar = progress_bar((pairs.len() * args.games) as u64, "games");
    let mut round = RoundRobin::new(names);
    let mut reports = Vec::new();
    let cancel = Cancel::new();
    let _deadline = Deadline::after(args.max_minutes, cancel.clone());
    let budget =
        move_budget(args.think_ms, rayon::current_num_threads()).with_cancel(cancel.clone());
    for (k, &(a, b)) in pairs.iter().enumerate() {
        if cancel.is_cancelled() {
            break;
        }
        let report = game.arena(
            with_think_time(args.levels[a], args.think_ms),
            with_think_time(args.levels[b], args.think_ms),
            args.games,
            Rng::derive(args.seed, k as u64),
            &ArenaRun {
                budget: budget.clone(),
                on_game_done: &|| bar.inc(1),
                equal_time: false,
                a_threads: 1,
                b_threads: 1,
            },
        );
        round.add(
            a,
            b,
            report.games as f64,
            report.a_win_rate * report.games as f64,
        );
        reports.push(report);
    }
    bar.finish_and_clear();
    let games_played: usize = reports.iter().map(|pair| pair.games).sum();
    let status = if games_played < pairs.len() * args.games {
        eprintln!(
            "the ladder's {} minutes ran out after {} of {} games: ratings from those",
            args.max_minutes.as_secs_f64() / 60.0,
            games_played,
            pairs.len() * args.games
        );
        Status::Unknown {
            reason: Exhausted::Time,
        }
    } else {
        Status::Solved
    };
    let report = LadderReport {
        games_per_pair: args.games,
        games_played,
        status,
        seed: args.seed,
        ratings: round.ratings(),
        pairs: reports,
    };
    out.emit_status(&report, status, || {
        let mut table = Table::new(&["level", "Elo", "95% interval", "score", "games"]);
        for rating in &report.ratings {
            // Unrated: the time ran out before the level's games (a full round robin rates
            // every level).
            let (elo, interval) = match (rating.elo, rating.ci95) {
                (Some(elo), Some([low, high])) => {
                    (format!("{elo:.0}"), format!("{low:.0} to {high:.0}"))
                }
                _ => ("unknown".to_string(), "unknown (time ran out)".to_string()),
            };
            table.push(vec![
                rating.player.clone(),
                elo,
                interval,
                format!("{}", rating.score),
                format!("{}", rating.games),
            ]);
        }
        table.render(args.format)
    })
}

/// Plays a game in the terminal: the human types moves in the game's notation (or
/// `moves`, `hint`, `undo`, `quit`), the computer answers. Reads stdin line by line, so it
/// can be driven by a script; a reader that closes stdout early (`| head`) ends the game
/// quietly.
pub fn play_in_terminal(
    game: Box<dyn Match>,
    human: Player,
    computer: &Computer,
    hint_level: Level,
    colour: bool,
) -> anyhow::Result<Answer> {
    let stdin = std::io::stdin();
    let played = play_game(
        game,
        human,
        computer,
        hint_level,
        colour,
        &mut stdin.lock(),
        &mut std::io::stdout(),
    );
    ignore_closed_stdout(played).map(|()| Answer::Complete)
}

/// The game loop of [`play_in_terminal`], reading the human's lines from `input` and
/// writing to `out`; a hint is the computer's move at `hint_level` (the game's hint level,
/// as the web app's hint button) or at the level the player names.
pub fn play_game(
    mut game: Box<dyn Match>,
    human: Player,
    computer: &Computer,
    hint_level: Level,
    colour: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "You play {human}; the computer ({}) plays {}.",
        computer.level,
        human.opponent()
    )?;
    writeln!(
        out,
        "Type a move, `moves` for the legal moves, `hint` (or `hint LEVEL`, e.g. `hint \
         perfect`), `undo` to take back your last move, or `quit`."
    )?;
    let start = game.clone_box();
    // The moves played and who played them, to replay all but the last ones on an undo.
    let mut played: Vec<(Player, String)> = Vec::new();
    let mut player = computer.player(&*game);
    loop {
        writeln!(out, "{}", game.drawing(colour))?;
        let Some(mover) = game.to_move() else {
            let verdict = match game.outcome().and_then(|o| o.winner) {
                Some(w) if w == human => "You win.",
                Some(_) => "The computer wins.",
                None => "Draw.",
            };
            writeln!(out, "{verdict}")?;
            out.flush()?;
            return Ok(());
        };
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
                    writeln!(out, "legal moves: {}", game.legal_moves().join(" "))?;
                }
                text if text == "hint" || text.starts_with("hint ") => {
                    let level = match text["hint".len()..].trim() {
                        "" => Ok(hint_level),
                        level => parse_level(level),
                    };
                    match level {
                        Ok(level) => {
                            let hint = game
                                .hint(level, computer.seed, &computer.budget)
                                .context("the computer found no move")?;
                            let note = proof_note(&hint, level);
                            writeln!(
                                out,
                                "hint: {} (the computer at {level}{note})",
                                hint.notation
                            )?;
                        }
                        Err(err) => writeln!(out, "hint LEVEL: {err}")?,
                    }
                }
                "undo" => {
                    let Some(last) = played.iter().rposition(|(by, _)| *by == human) else {
                        writeln!(out, "nothing to take back: you have not moved yet")?;
                        continue;
                    };
                    played.truncate(last);
                    game = start.clone_box();
                    for (_, mv) in &played {
                        game.play(mv)
                            .context("replaying the moves before the undo")?;
                    }
                    // The computer's kept search was for the line taken back.
                    player = computer.player(&*game);
                    writeln!(out, "took back your last move and the replies to it")?;
                }
                text => match game.play(text) {
                    Ok(mv) => played.push((mover, mv)),
                    Err(err) => writeln!(out, "{err}")?,
                },
            }
        } else {
            let mv = player
                .choose(game.as_any(), &computer.budget)
                .context("the computer found no move")?;
            let mv = game.play(&mv).context("the computer's move")?;
            writeln!(out, "{mover} plays {mv}")?;
            played.push((mover, mv));
        }
    }
}

/// How a hint reads after its move: proven optimal (in a lost position every move loses, or
/// loses by the least, and the player is told so rather than left to think the hint wins),
/// or, from a perfect player, a search's move and why the solver did not prove one, in the
/// web app's words.
pub(crate) fn proof_note(hint: &Hint, level: Level) -> &'static str {
    match (hint.proven, hint.unproven) {
        (Some(Proven::Win), _) => ", proven optimal: it wins",
        (Some(Proven::Draw), _) => ", proven optimal: it draws",
        (Some(Proven::Loss), _) => {
            ", proven optimal, but the position is lost against perfect play"
        }
        (None, Some(Unproven::OutOfReach)) => {
            ", not proven: the position is too large for the exact solver, a search's move"
        }
        (None, Some(Unproven::Stopped(limit))) => match limit {
            Exhausted::Beyond => {
                ", not proven: the position is past the limit of the game's exact analysis, a \
                 search's move"
            }
            Exhausted::Time => ", not proven: the exact solver ran out of time, a search's move",
            Exhausted::Nodes => {
                ", not proven: the exact solver searched as many positions as it may, a \
                 search's move"
            }
            Exhausted::Memory => {
                ", not proven: the exact solver ran out of memory, a search's move"
            }
            Exhausted::Cancelled => ", not proven: the exact solver was stopped, a search's move",
        },
        (None, None) if level == Level::Perfect => {
            ", not proven: the exact solver gave no answer, a search's move"
        }
        (None, None) => "",
    }
}

/// Runs an arena between two levels from a game's position and prints the report.
pub fn run_arena(game: &dyn Match, args: &ArenaArgs, out: &Output) -> anyhow::Result<Answer> {
    check_threads("--a-threads", args.a_threads, args.a)?;
    check_threads("--b-threads", args.b_threads, args.b)?;
    let bar = progress_bar(args.games as u64, "games");
    let report = game.arena(
        with_think_time(args.a, args.think_ms),
        with_think_time(args.b, args.think_ms),
        args.games,
        args.seed,
        &ArenaRun {
            budget: move_budget(args.think_ms, rayon::current_num_threads()),
            on_game_done: &|| bar.inc(1),
            equal_time: args.equal_time,
            a_threads: args.a_threads,
            b_threads: args.b_threads,
        },
    );
    bar.finish_and_clear();
    out.emit(&report, || {
        format!(
            "{} vs {}: {} games, A wins {}, B wins {}, draws {}\n\
             A's win rate {:.3} (95% CI {:.3} to {:.3})\n\
             time per move: A {:.2} ms, B {:.2} ms (seed {}){}\n",
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
            report.seed,
            match (report.valid, report.slower) {
                (Some(true), _) => {
                    "\nequal time: A's and B's times per move within 5% of each other, the run \
                     counts"
                }
                (Some(false), Some("B")) => {
                    "\nequal time: B's time per move exceeds A's by more than 5% (A left time \
                     unused), the run does not count"
                }
                (Some(false), _) => {
                    "\nequal time: A's time per move exceeds B's by more than 5%, the run does \
                     not count"
                }
                (None, _) => "",
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use std::io::ErrorKind;

    use crosscap_engine::NormalPlay;
    use crosscap_engine::nim::{Nim, NimHost};
    use crosscap_engine::session::GameMatch;

    use super::*;

    fn nim() -> Box<dyn Match> {
        GameMatch::<NimHost>::boxed(NormalPlay::new(Nim::new(vec![1, 2])))
    }

    fn random() -> Computer {
        Computer {
            level: Level::Random,
            seed: 1,
            threads: 1,
            budget: move_budget(None, 1),
        }
    }

    fn transcript(script: &str) -> String {
        let mut out = Vec::new();
        play_game(
            nim(),
            Player::X,
            &random(),
            Level::Perfect,
            false,
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
        assert!(text.contains("legal moves: 1:0 2:0 2:1"), "{text}");
        assert_eq!(text.matches("X to move> ").count(), 3, "{text}");
    }

    #[test]
    fn the_computer_answers_until_the_game_ends() {
        let text = transcript("2:1\n1:0\n2:0\n");
        assert!(text.contains("O plays "), "{text}");
        assert!(
            text.ends_with("You win.\n") || text.ends_with("The computer wins.\n"),
            "{text}"
        );
    }

    /// A hint is the hint level's move, said proven where the solver proved it: at 1 2,
    /// leaving 1 1 wins.
    #[test]
    fn a_hint_names_the_move_and_its_proof() {
        let text = transcript("hint\nquit\n");
        assert!(
            text.contains("hint: 2:1 (the computer at perfect, proven optimal: it wins)"),
            "{text}"
        );
    }

    /// Undo takes back the player's last move and the computer's reply, back to the
    /// position before it; with no move of the player's there is nothing to take back.
    #[test]
    fn undo_takes_back_a_move_and_its_reply() {
        let text = transcript("undo\n2:1\nundo\nmoves\nquit\n");
        assert!(text.contains("nothing to take back"), "{text}");
        assert!(text.contains("O plays "), "{text}");
        let after_undo = text
            .split("took back your last move and the replies to it")
            .nth(1)
            .expect("an undo");
        assert!(
            after_undo.contains("legal moves: 1:0 2:0 2:1"),
            "the start's moves again: {text}"
        );
    }

    #[test]
    fn the_end_of_input_ends_the_game() {
        assert!(transcript("").ends_with("X to move> \n"));
    }

    #[test]
    fn thinking_time_without_a_level_is_mcts_for_that_long() {
        let args = ComputerArgs {
            level: None,
            think_ms: Some(Duration::from_millis(20)),
            threads: 1,
            seed: 1,
        };
        let computer = args.computer(Level::Perfect).unwrap();
        assert_eq!(computer.level, Level::MctsMs(20));
        assert_eq!(computer.budget.max_time, Some(Duration::from_millis(20)));
        let chosen = |level| ComputerArgs {
            level: Some(level),
            ..args.clone()
        };
        // A timed level thinks for the time given, an iteration level is bounded by it.
        assert_eq!(
            chosen(Level::Expert)
                .computer(Level::Perfect)
                .unwrap()
                .level,
            Level::MctsMs(20)
        );
        assert_eq!(
            chosen(Level::Mcts(500))
                .computer(Level::Perfect)
                .unwrap()
                .level,
            Level::Mcts(500)
        );
        let untimed = ComputerArgs {
            think_ms: None,
            ..chosen(Level::Easy)
        };
        assert_eq!(untimed.computer(Level::Perfect).unwrap().level, Level::Easy);
        let threaded = |level| ComputerArgs {
            threads: 2,
            ..chosen(level)
        };
        assert_eq!(
            threaded(Level::Expert)
                .computer(Level::Perfect)
                .unwrap()
                .threads,
            2
        );
        let refused = threaded(Level::FlatMc(160))
            .computer(Level::Perfect)
            .unwrap_err();
        assert!(
            refused
                .to_string()
                .starts_with("--threads 2: flatmc:160 plays on one thread")
        );
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
        let played = play_game(
            nim(),
            Player::X,
            &random(),
            Level::Perfect,
            false,
            &mut "quit\n".as_bytes(),
            &mut ClosedPipe,
        );
        assert!(played.is_err());
        assert!(ignore_closed_stdout(played).is_ok());
        let other = anyhow::anyhow!("cannot read stdin");
        assert!(ignore_closed_stdout(Err(other)).is_err());
    }
}
