//! Plays one agent against another over many games, colours alternating.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::agents::Agent;
use crate::budget::Budget;
use crate::game::{Game, Player};
use crate::rng::Rng;
use crate::session::ArenaRun;

/// Makes a fresh agent from a seed.
pub type AgentFactory<'a, G> = &'a (dyn Fn(u64) -> Box<dyn Agent<G>> + Sync);

/// The result of an arena run, from agent A's point of view.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaReport {
    pub agent_a: String,
    pub agent_b: String,
    pub games: usize,
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    /// A's score rate, a draw counting half.
    pub a_win_rate: f64,
    /// Wilson 95% confidence interval of A's win rate.
    pub ci95: [f64; 2],
    /// Milliseconds per move, wall-clock; in an equal-time arena, times the side's threads
    /// (what it was charged).
    pub a_ms_per_move: f64,
    pub b_ms_per_move: f64,
    pub seed: u64,
    /// Whether A thought on a time bank matched to B's time ([`arena_equal_time`]).
    pub equal_time: bool,
    /// For an equal-time run: whether A's and B's times per move stayed within 5% of
    /// each other (each at most 1.05 times the other, or within 0.01 ms), the
    /// condition for the run to count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid: Option<bool>,
    /// For an equal-time run that does not count: the side whose time per move was more
    /// than 5% above the other's, `"A"` or `"B"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slower: Option<&'static str>,
}

/// Times per move this close are equal whatever their ratio: players that answer in
/// microseconds (`random`, a table's lookup) differ by timer and bookkeeping noise.
const EQUAL_MS: f64 = 0.01;

/// The side whose time per move is more than 5% above the other's (and more than
/// 0.01 ms above it), if one is: `None` when the two are within 5% of each other (an
/// equal-time run then counts).
pub fn slower_side(a_ms: f64, b_ms: f64) -> Option<&'static str> {
    if (a_ms - b_ms).abs() <= EQUAL_MS {
        None
    } else if a_ms > 1.05 * b_ms {
        Some("A")
    } else if b_ms > 1.05 * a_ms {
        Some("B")
    } else {
        None
    }
}

/// What the games played so far add up to.
#[derive(Clone, Copy, Default)]
struct Tally {
    games: usize,
    a_wins: usize,
    b_wins: usize,
    a_score: f64,
    a_time: Duration,
    a_moves: u64,
    b_time: Duration,
    b_moves: u64,
}

impl Tally {
    fn add(self, other: Tally) -> Tally {
        Tally {
            games: self.games + other.games,
            a_wins: self.a_wins + other.a_wins,
            b_wins: self.b_wins + other.b_wins,
            a_score: self.a_score + other.a_score,
            a_time: self.a_time + other.a_time,
            a_moves: self.a_moves + other.a_moves,
            b_time: self.b_time + other.b_time,
            b_moves: self.b_moves + other.b_moves,
        }
    }
}

/// Plays `games` games from `start`; A plays X in even-numbered games and O in odd ones.
/// Game `i` uses seeds derived from `seed` and `i`, so a run reproduces exactly. Every
/// move is chosen within `budget`; once its cancel flag is raised no further game starts
/// and the report counts the games finished. `on_game_done` is called after each game
/// (for a progress bar).
pub fn arena<G: Game>(
    start: &G,
    make_a: AgentFactory<'_, G>,
    make_b: AgentFactory<'_, G>,
    games: usize,
    seed: u64,
    budget: &Budget,
    on_game_done: &(dyn Fn() + Sync),
) -> ArenaReport {
    let tally = (0..games)
        .into_par_iter()
        .map(|i| {
            if budget.is_cancelled() {
                return Tally::default();
            }
            let tally = play_one(start, make_a, make_b, i, seed, budget, None);
            on_game_done();
            tally
        })
        .reduce(Tally::default, Tally::add);
    report(make_a, make_b, &tally, seed, false)
}

/// Plays `games` games like [`arena`], one at a time, with A's thinking time matched to
/// B's: before each of A's moves, A may spend B's total time so far plus B's expected time
/// for the rest of the game (at B's rate so far) minus A's total so far, spread over A's
/// expected remaining moves (half the legal moves, rounded up, at least one). Before B has
/// moved, B's rate comes from one timed, uncounted move of B on the start position. B
/// thinks within `run`'s budget; A within its time bank and the budget's other limits. A
/// side searching on several threads (`run.a_threads`, `run.b_threads`) is charged its
/// wall-clock time times its threads, an upper bound of the CPU time its threads spent,
/// and so are the times per move reported. Times are measured, so runs do not reproduce
/// exactly.
pub fn arena_equal_time<G: Game>(
    start: &G,
    make_a: AgentFactory<'_, G>,
    make_b: AgentFactory<'_, G>,
    games: usize,
    seed: u64,
    run: &ArenaRun,
) -> ArenaReport {
    let budget = &run.budget;
    let clock = Instant::now();
    make_b(Rng::derive(seed, u64::MAX - 1)).choose(start, budget);
    let mut bank = TimeBank {
        a_total: Duration::ZERO,
        b_total: Duration::ZERO,
        b_moves: 0,
        b_dry_run: clock.elapsed() * run.b_threads as u32,
        threads: [run.a_threads, run.b_threads],
    };
    let mut tally = Tally::default();
    for i in 0..games {
        if budget.is_cancelled() {
            break;
        }
        tally = tally.add(play_one(
            start,
            make_a,
            make_b,
            i,
            seed,
            budget,
            Some(&mut bank),
        ));
        (run.on_game_done)();
    }
    report(make_a, make_b, &tally, seed, true)
}

/// The time A and B have spent over an equal-time arena.
struct TimeBank {
    a_total: Duration,
    b_total: Duration,
    b_moves: u64,
    /// One of B's moves timed before the arena, B's rate until it has moved.
    b_dry_run: Duration,
    /// A's and B's search threads: a side is charged its wall-clock time times these.
    threads: [usize; 2],
}

impl TimeBank {
    /// A's wall-clock time for its next move in `game`.
    fn a_budget<G: Game>(&self, game: &G, budget: &Budget) -> Budget {
        let b_rate = if self.b_moves == 0 {
            self.b_dry_run
        } else {
            self.b_total / self.b_moves as u32
        };
        // Each side makes about half the moves left (a board filled one cell at a time).
        let left = game.legal_moves().len() as u32;
        let a_left = left.div_ceil(2).max(1);
        let b_left = left / 2;
        let allowed = (self.b_total + b_rate * b_left).saturating_sub(self.a_total);
        budget.within(&Budget::time(allowed / (a_left * self.threads[0] as u32)))
    }

    /// The time charged for a move that took `wall` (see [`arena_equal_time`]).
    fn charged(&self, a_turn: bool, wall: Duration) -> Duration {
        wall * self.threads[usize::from(!a_turn)] as u32
    }

    fn record(&mut self, a_turn: bool, spent: Duration) {
        if a_turn {
            self.a_total += spent;
        } else {
            self.b_total += spent;
            self.b_moves += 1;
        }
    }
}

/// The report of an arena from its tally.
fn report<G: Game>(
    make_a: AgentFactory<'_, G>,
    make_b: AgentFactory<'_, G>,
    tally: &Tally,
    seed: u64,
    equal_time: bool,
) -> ArenaReport {
    let per_move = |time: Duration, moves: u64| {
        if moves == 0 {
            0.0
        } else {
            time.as_secs_f64() * 1000.0 / moves as f64
        }
    };
    let (a_ms, b_ms) = (
        per_move(tally.a_time, tally.a_moves),
        per_move(tally.b_time, tally.b_moves),
    );
    let probe_seed = Rng::derive(seed, u64::MAX);
    let slower = equal_time.then(|| slower_side(a_ms, b_ms)).flatten();
    ArenaReport {
        agent_a: make_a(probe_seed).name(),
        agent_b: make_b(probe_seed).name(),
        games: tally.games,
        a_wins: tally.a_wins,
        b_wins: tally.b_wins,
        draws: tally.games - tally.a_wins - tally.b_wins,
        a_win_rate: if tally.games == 0 {
            0.0
        } else {
            tally.a_score / tally.games as f64
        },
        ci95: wilson_interval(tally.a_score, tally.games),
        a_ms_per_move: a_ms,
        b_ms_per_move: b_ms,
        seed,
        equal_time,
        valid: equal_time.then_some(slower.is_none()),
        slower,
    }
}

/// Game `i` of an arena; a game cut short by a cancel counts for nothing. With a time
/// bank, A thinks within it and both sides' times go into it.
fn play_one<G: Game>(
    start: &G,
    make_a: AgentFactory<'_, G>,
    make_b: AgentFactory<'_, G>,
    i: usize,
    seed: u64,
    budget: &Budget,
    mut bank: Option<&mut TimeBank>,
) -> Tally {
    let mut a = make_a(Rng::derive(seed, 2 * i as u64));
    let mut b = make_b(Rng::derive(seed, 2 * i as u64 + 1));
    let a_colour = if i.is_multiple_of(2) {
        Player::X
    } else {
        Player::O
    };
    let mut game = start.clone();
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        if budget.is_cancelled() {
            return Tally::default();
        }
        let a_turn = game.to_move() == a_colour;
        let clock = Instant::now();
        let mv = match (a_turn, bank.as_deref()) {
            (true, Some(bank)) => a.choose(&game, &bank.a_budget(&game, budget)),
            (true, None) => a.choose(&game, budget),
            (false, _) => b.choose(&game, budget),
        }
        .expect("an agent always moves while the game is not over");
        let mut spent = clock.elapsed();
        if let Some(bank) = bank.as_deref_mut() {
            spent = bank.charged(a_turn, spent);
            bank.record(a_turn, spent);
        }
        if a_turn {
            tally.a_time += spent;
            tally.a_moves += 1;
        } else {
            tally.b_time += spent;
            tally.b_moves += 1;
        }
        game.play(&mv);
    };
    match outcome.winner {
        Some(w) if w == a_colour => {
            tally.a_wins = 1;
            tally.a_score = 1.0;
        }
        Some(_) => tally.b_wins = 1,
        None => tally.a_score = 0.5,
    }
    tally
}

/// Wilson score interval at 95% for `successes` out of `n`.
pub fn wilson_interval(successes: f64, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let z = 1.959_963_984_540_054_f64;
    let p = successes / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;
    use crate::impartial::NormalPlay;
    use crate::nim::Nim;

    #[test]
    fn times_within_five_percent_or_a_hundredth_of_a_millisecond_are_equal() {
        assert_eq!(slower_side(105.0, 100.0), None);
        assert_eq!(slower_side(106.0, 100.0), Some("A"));
        assert_eq!(slower_side(100.0, 106.0), Some("B"));
        // Microsecond moves: a ratio of 2 is noise.
        assert_eq!(slower_side(0.004, 0.002), None);
        assert_eq!(slower_side(0.02, 0.002), Some("A"));
    }

    #[test]
    fn the_bank_gives_a_what_b_spent_and_will_spend_spread_over_its_moves() {
        let game = NormalPlay::new(Nim::new(vec![6])); // 6 moves: A 3 of them, B 3.
        let ms = Duration::from_millis;
        let bank = TimeBank {
            a_total: ms(8),
            b_total: ms(10),
            b_moves: 5,
            b_dry_run: ms(100),
            threads: [1, 1],
        };
        // B: 10 ms so far, 2 ms a move for 3 more; A: 8 ms so far, 3 moves to go.
        let budget = bank.a_budget(&game, &Budget::unlimited());
        assert_eq!(budget.max_time, Some(ms(8) / 3));
        let fresh = TimeBank {
            a_total: Duration::ZERO,
            b_total: Duration::ZERO,
            b_moves: 0,
            b_dry_run: ms(30),
            threads: [1, 1],
        };
        // Before B has moved, its dry run is its rate: 3 moves of 30 ms over A's 3.
        assert_eq!(
            fresh.a_budget(&game, &Budget::nodes(5)).max_time,
            Some(ms(30))
        );
        let ahead = TimeBank {
            a_total: ms(50),
            ..fresh
        };
        assert_eq!(
            ahead.a_budget(&game, &Budget::unlimited()).max_time,
            Some(ms(40) / 3)
        );
        // A on two threads is charged twice its wall time, so it gets half of it to think.
        let threaded = TimeBank {
            threads: [2, 1],
            ..fresh
        };
        assert_eq!(
            threaded.a_budget(&game, &Budget::unlimited()).max_time,
            Some(ms(15))
        );
        assert_eq!(threaded.charged(true, ms(7)), ms(14));
        assert_eq!(threaded.charged(false, ms(7)), ms(7));
    }

    #[test]
    fn an_equal_time_arena_plays_its_games_and_says_whether_it_counts() {
        let start = NormalPlay::new(Nim::new(vec![3, 4, 5]));
        let random = |seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<_>>;
        let run = ArenaRun {
            budget: Budget::unlimited(),
            on_game_done: &|| {},
            equal_time: true,
            a_threads: 1,
            b_threads: 1,
        };
        let report = arena_equal_time(&start, &random, &random, 6, 3, &run);
        assert_eq!(report.games, 6);
        assert_eq!(report.a_wins + report.b_wins, 6);
        assert!(report.equal_time);
        assert!(report.valid.is_some());
        let fixed = arena(&start, &random, &random, 6, 3, &Budget::unlimited(), &|| {});
        assert_eq!(fixed.valid, None);
        assert_eq!(
            (fixed.a_wins, fixed.b_wins),
            (report.a_wins, report.b_wins),
            "random agents ignore time: the same games"
        );
    }

    /// An equal-time run counts only when each side's time per move is within 5% of the
    /// other's: A far below B (A did not use its bank) fails as A far above B does.
    #[test]
    fn equal_time_counts_only_within_five_percent_both_ways() {
        let random = |seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<NormalPlay<Nim>>>;
        let ms = Duration::from_millis;
        let tally = |a: u64, b: u64| Tally {
            games: 1,
            a_time: ms(a),
            a_moves: 1,
            b_time: ms(b),
            b_moves: 1,
            ..Tally::default()
        };
        for (a, b, valid, slower) in [
            (100, 100, true, None),
            (104, 100, true, None),
            (100, 104, true, None),
            (110, 100, false, Some("A")),
            (50, 100, false, Some("B")),
            (100, 106, false, Some("B")),
        ] {
            let report = report(&random, &random, &tally(a, b), 1, true);
            assert_eq!(
                (report.valid, report.slower),
                (Some(valid), slower),
                "A {a} ms, B {b} ms"
            );
        }
        let fixed = report(&random, &random, &tally(50, 100), 1, false);
        assert_eq!((fixed.valid, fixed.slower), (None, None));
    }

    #[test]
    fn wilson_interval_contains_the_rate() {
        let [lo, hi] = wilson_interval(90.0, 100);
        assert!(lo < 0.9 && 0.9 < hi);
        assert!((lo - 0.8256).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9448).abs() < 1e-3, "{hi}");
    }
}
