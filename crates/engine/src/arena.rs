//! Plays one agent against another over many games, colours alternating.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::agents::Agent;
use crate::budget::Budget;
use crate::game::{Game, Player};
use crate::rng::Rng;

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
    pub a_ms_per_move: f64,
    pub b_ms_per_move: f64,
    pub seed: u64,
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
            let tally = play_one(start, make_a, make_b, i, seed, budget);
            on_game_done();
            tally
        })
        .reduce(Tally::default, Tally::add);
    let per_move = |time: Duration, moves: u64| {
        if moves == 0 {
            0.0
        } else {
            time.as_secs_f64() * 1000.0 / moves as f64
        }
    };
    let probe_seed = Rng::derive(seed, u64::MAX);
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
        a_ms_per_move: per_move(tally.a_time, tally.a_moves),
        b_ms_per_move: per_move(tally.b_time, tally.b_moves),
        seed,
    }
}

/// Game `i` of an arena; a game cut short by a cancel counts for nothing.
fn play_one<G: Game>(
    start: &G,
    make_a: AgentFactory<'_, G>,
    make_b: AgentFactory<'_, G>,
    i: usize,
    seed: u64,
    budget: &Budget,
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
        let mv = if a_turn {
            a.choose(&game, budget)
        } else {
            b.choose(&game, budget)
        }
        .expect("an agent always moves while the game is not over");
        if a_turn {
            tally.a_time += clock.elapsed();
            tally.a_moves += 1;
        } else {
            tally.b_time += clock.elapsed();
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

    #[test]
    fn wilson_interval_contains_the_rate() {
        let [lo, hi] = wilson_interval(90.0, 100);
        assert!(lo < 0.9 && 0.9 < hi);
        assert!((lo - 0.8256).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9448).abs() < 1e-3, "{hi}");
    }
}
