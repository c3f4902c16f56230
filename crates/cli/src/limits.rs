//! The bounds of the command line: the budget flags every searching command shares, the
//! ranges of its numeric options (checked while the command line is read, before any
//! work), and the setup limits games are built within, the same as the server's.

use std::time::Duration;

use clap::{Arg, ArgMatches, Args, FromArgMatches};
use crosscap_engine::agents::{MAX_FLATMC_PLAYOUTS, MAX_MCTS_ITERATIONS};
use crosscap_engine::mcts::MAX_SEARCH_THREADS;
use crosscap_engine::session::SetupLimits;
use crosscap_engine::{Budget, Level, Player};

/// The default and the ranges of `--max-memory` and `--max-seconds`, shared with the
/// other hosts.
pub use crosscap_engine::budget::{DEFAULT_MAX_MEMORY, MAX_SECONDS, MEMORY_RANGE};
/// The most games an arena plays.
pub const MAX_GAMES: u64 = 1_000_000;
/// The longest `--think-ms`: an hour.
pub const MAX_THINK_MS: u64 = 3_600_000;
/// The longest a computer move of `play` or `arena` may take, whatever its level.
pub const MOVE_TIME: Duration = Duration::from_secs(60);

/// What every game's setup checks before work, here as in the server.
pub fn setup_limits() -> SetupLimits {
    SetupLimits::default()
}

/// The budget of a computer move in `play`, `arena` and `hint`: the level sets the work,
/// this bounds the time (`think`, else [`MOVE_TIME`]) and the memory. `at_once` moves are
/// thought at the same time (an arena plays a game per thread) and share the memory.
pub fn move_budget(think: Option<Duration>, at_once: usize) -> Budget {
    Budget::time(think.unwrap_or(MOVE_TIME)).with_memory(DEFAULT_MAX_MEMORY / at_once.max(1))
}

/// The budget flags of every command that searches. Each command sets the default of
/// `--max-seconds` with [`default_seconds`].
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Give up after this many seconds (a number above 0, at most 1000000).
    #[arg(long, value_parser = parse_seconds)]
    max_seconds: Duration,
    /// Give up after this many nodes, the search's unit of work (no limit unless given).
    #[arg(long, visible_alias = "max-positions")]
    max_nodes: Option<u64>,
    #[command(flatten)]
    memory: MemoryArgs,
}

impl BudgetArgs {
    /// `--max-memory` in bytes.
    pub fn memory_bytes(&self) -> u64 {
        self.memory.bytes()
    }

    pub fn budget(&self) -> Budget {
        let budget = Budget::time(self.max_seconds).with_memory(self.memory.max_memory);
        match self.max_nodes {
            Some(nodes) => budget.with_nodes(nodes),
            None => budget,
        }
    }
}

/// Threads of `solve` by default, where the game's exact solver searches in parallel: the
/// machine's cores, at most this many (more than the cores only slows the threads down).
pub const MOST_DEFAULT_SOLVE_THREADS: usize = 8;

/// `--threads` of a `solve` whose exact solver searches on several threads sharing its
/// table (Euler Getter's).
#[derive(Args, Debug, Clone)]
pub struct SolveThreadsArgs {
    /// Threads the exact solver searches on, sharing its table (1 to 64; default: the
    /// machine's cores, at most 8). Answers are the same on any number; node counts vary
    /// from run to run above one, and --max-nodes is split between the threads.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

/// The budget of a `solve`: its budget flags, and its `--threads` (else the default
/// threads) where the command has [`SolveThreadsArgs`].
pub fn solve_budget(matches: &ArgMatches) -> anyhow::Result<Budget> {
    let budget = BudgetArgs::from_arg_matches(matches)?.budget();
    if matches.try_get_one::<usize>("threads").is_err() {
        return Ok(budget);
    }
    let threads = SolveThreadsArgs::from_arg_matches(matches)?
        .threads
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, usize::from)
                .min(MOST_DEFAULT_SOLVE_THREADS)
        });
    Ok(budget.with_threads(threads))
}

/// The memory flag of commands that build tables without searching.
#[derive(Args, Debug, Clone)]
pub struct MemoryArgs {
    /// Memory for tables, trees and queues: bytes with a suffix B, KiB, MiB or GiB, or a
    /// plain number of MiB (1MiB to 1024GiB).
    #[arg(long, value_parser = parse_memory, default_value = "512MiB")]
    pub max_memory: usize,
}

impl MemoryArgs {
    pub fn bytes(&self) -> u64 {
        self.max_memory as u64
    }
}

/// A command's default `--max-seconds`:
/// `#[command(mut_arg("max_seconds", limits::default_seconds("60")))]`.
pub fn default_seconds(seconds: impl Into<String>) -> impl FnOnce(Arg) -> Arg {
    let seconds = seconds.into();
    move |arg| arg.default_value(seconds).required(false)
}

// The parsers below say only the rule: clap's message already names the flag and value.

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let rule = || format!("expected a number of seconds above 0, at most {MAX_SECONDS}");
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= MAX_SECONDS => {
            Ok(Duration::from_secs_f64(seconds))
        }
        _ => Err(rule()),
    }
}

/// Bytes with a suffix B, KiB, MiB or GiB (any case), or a plain number of MiB.
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let rule = || {
        "expected bytes with a suffix B, KiB, MiB or GiB, or a plain number of MiB, \
         from 1MiB to 1024GiB"
            .to_string()
    };
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "b" => 0,
        "kib" => 10,
        "" | "mib" => 20,
        "gib" => 30,
        _ => return Err(rule()),
    };
    let bytes = number
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(rule)?;
    let (least, most) = MEMORY_RANGE;
    if (least..=most).contains(&bytes) {
        Ok(bytes)
    } else {
        Err(rule())
    }
}

/// The number of games of an arena.
pub fn parse_games(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(games) if (1..=MAX_GAMES).contains(&games) => Ok(games as usize),
        _ => Err(format!("expected a number of games from 1 to {MAX_GAMES}")),
    }
}

/// The threads a computer's search runs on.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(threads) if (1..=MAX_SEARCH_THREADS).contains(&threads) => Ok(threads),
        _ => Err(format!(
            "expected a number of threads from 1 to {MAX_SEARCH_THREADS}"
        )),
    }
}

/// Refuses `threads` above one for a level that does not search with MCTS.
pub fn check_threads(flag: &str, threads: usize, level: Level) -> anyhow::Result<()> {
    if threads > 1 && !level.uses_threads() {
        anyhow::bail!(
            "{flag} {threads}: {level} plays on one thread; threads apply to the MCTS levels \
             (easy, medium, hard, expert, mcts:N, mcts:Nms, plain:LEVEL) and to perfect's expert \
             fallback"
        );
    }
    Ok(())
}

/// Milliseconds a computer player thinks per move.
pub fn parse_think_ms(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<u64>() {
        Ok(ms) if (1..=MAX_THINK_MS).contains(&ms) => Ok(Duration::from_millis(ms)),
        _ => Err(format!(
            "expected a number of milliseconds from 1 to {MAX_THINK_MS}"
        )),
    }
}

/// The longest a ladder may run, in minutes (a day).
const MAX_LADDER_MINUTES: f64 = 1440.0;

/// The wall-time bound of `ladder` and `projective-hex patterns` in minutes, fractions
/// allowed (a short bound is how the cut-off is tested).
pub fn parse_max_minutes(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(minutes) if minutes > 0.0 && minutes <= MAX_LADDER_MINUTES => {
            Ok(Duration::from_secs_f64(minutes * 60.0))
        }
        _ => Err(format!(
            "expected a number of minutes above 0 and at most {MAX_LADDER_MINUTES}"
        )),
    }
}

/// A computer level, its playouts and iterations within the server's limits.
pub fn parse_level(text: &str) -> Result<Level, String> {
    let level = text.parse::<Level>().ok().filter(|level| {
        level
            .mcts_iterations()
            .is_none_or(|n| n <= MAX_MCTS_ITERATIONS)
            && level.think_ms().is_none_or(|ms| ms <= MAX_THINK_MS)
            && !matches!(level, Level::FlatMc(n) if *n > MAX_FLATMC_PLAYOUTS)
    });
    level.ok_or_else(|| {
        format!(
            "expected easy, medium, hard, expert, perfect, random, flatmc:N (N from 1 to \
             {MAX_FLATMC_PLAYOUTS}), mcts:N (N from 1 to {MAX_MCTS_ITERATIONS}), mcts:Nms \
             (N from 1 to {MAX_THINK_MS}) or plain:LEVEL (an MCTS level with the new search \
             switches off)"
        )
    })
}

/// X or O.
pub fn parse_player(text: &str) -> Result<Player, String> {
    text.parse::<Player>()
        .map_err(|_| "expected X or O".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_positive_finite_and_bounded() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_seconds("1000000"), Ok(Duration::from_secs(1_000_000)));
        for bad in ["0", "-1", "1e30", "inf", "NaN", "", "soon"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn memory_takes_units_and_plain_mebibytes() {
        assert_eq!(parse_memory("512"), Ok(512 << 20));
        assert_eq!(parse_memory("2GiB"), Ok(2 << 30));
        assert_eq!(parse_memory("64 mib"), Ok(64 << 20));
        assert_eq!(parse_memory("1048576B"), Ok(1 << 20));
        assert_eq!(parse_memory("2048KiB"), Ok(2 << 20));
        for bad in [
            "0",
            "1KiB",
            "2048GiB",
            "99999999999999999999",
            "5MB",
            "-1",
            "GiB",
        ] {
            assert!(parse_memory(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn games_levels_and_thinking_have_ranges() {
        assert_eq!(parse_games("1000000"), Ok(1_000_000));
        for bad in ["0", "1000001", "4294967296", "9223372036854775808", "x"] {
            assert!(parse_games(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_level("mcts:1000000"), Ok(Level::Mcts(1_000_000)));
        assert!(parse_level("mcts:1000001").is_err());
        assert!(parse_level("flatmc:20001").is_err());
        assert_eq!(parse_level("mcts:250ms"), Ok(Level::MctsMs(250)));
        assert!(parse_level("mcts:3600001ms").is_err());
        assert!(parse_think_ms("0").is_err());
        assert!(parse_think_ms("18446744073709551615").is_err());
        assert_eq!(parse_max_minutes("0.01"), Ok(Duration::from_millis(600)));
        assert_eq!(parse_max_minutes("1440"), Ok(Duration::from_secs(86_400)));
        for bad in ["0", "-1", "1440.5", "NaN", "inf", "x"] {
            assert!(parse_max_minutes(bad).is_err(), "{bad}");
        }
    }
}
