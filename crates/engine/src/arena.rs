//! Plays one agent against another over many games, colours alternating.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::agents::Agent;
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

struct GameResult {
    a_score: f64,
    a_time: Duration,
    a_moves: u32,
    b_time: Duration,
    b_moves: u32,
}

/// Plays `games` games from `start`; A plays X in even-numbered games and O in odd ones.
/// Game `i` uses seeds derived from `seed` and `i`, so a run reproduces exactly.
/// `on_game_done` is called after each game (for a progress bar).
pub fn arena<G: Game>(
    start: &G,
    make_a: AgentFactory<'_, G>,
    make_b: AgentFactory<'_, G>,
    games: usize,
    seed: u64,
    on_game_done: &(dyn Fn() + Sync),
) -> ArenaReport {
    let results: Vec<GameResult> = (0..games)
        .into_par_iter()
        .map(|i| {
            let mut a = make_a(Rng::derive(seed, 2 * i as u64));
            let mut b = make_b(Rng::derive(seed, 2 * i as u64 + 1));
            let a_colour = if i % 2 == 0 { Player::X } else { Player::O };
            let mut game = start.clone();
            let mut result = GameResult {
                a_score: 0.5,
                a_time: Duration::ZERO,
                a_moves: 0,
                b_time: Duration::ZERO,
                b_moves: 0,
            };
            let outcome = loop {
                if let Some(outcome) = game.outcome() {
                    break outcome;
                }
                let a_turn = game.to_move() == a_colour;
                let clock = Instant::now();
                let mv = if a_turn {
                    a.choose(&game)
                } else {
                    b.choose(&game)
                }
                .expect("an agent always moves while the game is not over");
                if a_turn {
                    result.a_time += clock.elapsed();
                    result.a_moves += 1;
                } else {
                    result.b_time += clock.elapsed();
                    result.b_moves += 1;
                }
                game.play(&mv);
            };
            result.a_score = match outcome.winner {
                Some(w) if w == a_colour => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            on_game_done();
            result
        })
        .collect();

    let a_wins = results.iter().filter(|r| r.a_score == 1.0).count();
    let b_wins = results.iter().filter(|r| r.a_score == 0.0).count();
    let score: f64 = results.iter().map(|r| r.a_score).sum();
    let per_move = |time: Duration, moves: u32| {
        if moves == 0 {
            0.0
        } else {
            time.as_secs_f64() * 1000.0 / moves as f64
        }
    };
    let a_time = results.iter().map(|r| r.a_time).sum();
    let a_moves = results.iter().map(|r| r.a_moves).sum();
    let b_time = results.iter().map(|r| r.b_time).sum();
    let b_moves = results.iter().map(|r| r.b_moves).sum();
    let probe_seed = Rng::derive(seed, u64::MAX);
    ArenaReport {
        agent_a: make_a(probe_seed).name(),
        agent_b: make_b(probe_seed).name(),
        games,
        a_wins,
        b_wins,
        draws: games - a_wins - b_wins,
        a_win_rate: if games == 0 {
            0.0
        } else {
            score / games as f64
        },
        ci95: wilson_interval(score, games),
        a_ms_per_move: per_move(a_time, a_moves),
        b_ms_per_move: per_move(b_time, b_moves),
        seed,
    }
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
