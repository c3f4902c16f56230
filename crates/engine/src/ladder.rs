//! Elo ratings from the results of a round robin: the Bradley–Terry model fitted by its
//! minorisation–maximisation iteration (Hunter, 2004), on the Elo scale (400 points for
//! odds of 10 to 1) with the first player at 0. Levels measured this way compare across
//! games and time controls, which iteration counts do not.

use serde::Serialize;

/// The results of a round robin: `score[i][j]` is what player `i` scored against `j` (a
/// win 1, a draw 1/2) over `games[i][j]` games.
#[derive(Clone, Debug)]
pub struct RoundRobin {
    pub players: Vec<String>,
    pub score: Vec<Vec<f64>>,
    pub games: Vec<Vec<f64>>,
}

/// A player's rating and results.
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    pub player: String,
    /// Elo points above the first player.
    pub elo: f64,
    /// Score over all its games (a draw counting half).
    pub score: f64,
    pub games: f64,
}

/// Half a win and half a loss added to every pair that played: a player who won (or lost)
/// every game then has a large finite rating instead of an infinite one.
const PRIOR: f64 = 0.5;

impl RoundRobin {
    pub fn new(players: Vec<String>) -> RoundRobin {
        let n = players.len();
        RoundRobin {
            players,
            score: vec![vec![0.0; n]; n],
            games: vec![vec![0.0; n]; n],
        }
    }

    /// Adds `games` games between `a` and `b` in which `a` scored `a_score`.
    pub fn add(&mut self, a: usize, b: usize, games: f64, a_score: f64) {
        self.games[a][b] += games;
        self.games[b][a] += games;
        self.score[a][b] += a_score;
        self.score[b][a] += games - a_score;
    }

    /// The players' Elo ratings, the first at 0, in the order given.
    pub fn ratings(&self) -> Vec<Rating> {
        let n = self.players.len();
        let played = |i: usize, j: usize| self.games[i][j] > 0.0;
        let wins: Vec<f64> = (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&j| played(i, j))
                    .map(|j| self.score[i][j] + PRIOR)
                    .sum()
            })
            .collect();
        let mut strength = vec![1.0; n];
        for _ in 0..10_000 {
            let next: Vec<f64> = (0..n)
                .map(|i| {
                    let denominator: f64 = (0..n)
                        .filter(|&j| played(i, j))
                        .map(|j| (self.games[i][j] + 2.0 * PRIOR) / (strength[i] + strength[j]))
                        .sum();
                    if denominator > 0.0 {
                        wins[i] / denominator
                    } else {
                        strength[i]
                    }
                })
                .collect();
            let change = next
                .iter()
                .zip(&strength)
                .map(|(a, b)| (a / b).ln().abs())
                .fold(0.0, f64::max);
            strength = next;
            if change < 1e-10 {
                break;
            }
        }
        let anchor = strength.first().copied().unwrap_or(1.0);
        (0..n)
            .map(|i| Rating {
                player: self.players[i].clone(),
                elo: 400.0 * (strength[i] / anchor).log10(),
                score: self.score[i].iter().sum(),
                games: self.games[i].iter().sum(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder(results: &[(usize, usize, f64, f64)], players: usize) -> Vec<f64> {
        let mut round = RoundRobin::new((0..players).map(|i| format!("p{i}")).collect());
        for &(a, b, games, score) in results {
            round.add(a, b, games, score);
        }
        round.ratings().iter().map(|r| r.elo).collect()
    }

    /// Two players: the fitted odds are the observed ones with the prior added, 400 log10 of
    /// (wins + 1/2) / (losses + 1/2).
    #[test]
    fn two_players_get_the_elo_of_their_odds() {
        let elo = ladder(&[(0, 1, 100.0, 24.5)], 2);
        assert_eq!(elo[0], 0.0);
        let expected = 400.0 * (76.0f64 / 25.0).log10();
        assert!((elo[1] - expected).abs() < 1e-6, "{elo:?} {expected}");
    }

    /// Ratings add along a chain when the results fit the model exactly: with the prior, 31
    /// of 41 is odds 3 (31.5 to 10.5) and 13 of 14 odds 9 (13.5 to 1.5), so B is one step
    /// above A, C one above B and two above A.
    #[test]
    fn consistent_results_give_additive_ratings() {
        let elo = ladder(
            &[(1, 0, 41.0, 31.0), (2, 1, 41.0, 31.0), (2, 0, 14.0, 13.0)],
            3,
        );
        let step = 400.0 * 3f64.log10();
        assert!((elo[1] - step).abs() < 1e-6, "{elo:?}");
        assert!((elo[2] - 2.0 * step).abs() < 1e-6, "{elo:?}");
    }

    #[test]
    fn a_player_who_won_everything_stays_finite() {
        let elo = ladder(&[(0, 1, 10.0, 0.0), (1, 2, 10.0, 10.0)], 3);
        assert!(elo.iter().all(|e| e.is_finite()), "{elo:?}");
        assert!(elo[1] > 0.0 && elo[2] < elo[1], "{elo:?}");
    }
}
