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
    /// Elo points above the first player; `None` (null) when no games tie the player to
    /// the first (a round robin cut short before the player's games).
    pub elo: Option<f64>,
    /// The 95% interval of `elo`, from the curvature of the likelihood at its maximum
    /// (the observed Fisher information, the first player's rating held at 0, so its own
    /// interval is `[0, 0]` and the others' widths include its uncertainty); `None` (null)
    /// when `elo` is.
    pub ci95: Option<[f64; 2]>,
    /// Score over all its games (a draw counting half).
    pub score: f64,
    pub games: f64,
}

/// Elo points per unit of the model's log-strength.
const ELO_PER_LOG: f64 = 400.0 / std::f64::consts::LN_10;

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
        let deviations = self.deviations(&strength);
        (0..n)
            .map(|i| {
                let elo = 400.0 * (strength[i] / anchor).log10();
                let half_width = 1.96 * ELO_PER_LOG * deviations[i];
                let rated = half_width.is_finite();
                Rating {
                    player: self.players[i].clone(),
                    elo: rated.then_some(elo),
                    ci95: rated.then_some([elo - half_width, elo + half_width]),
                    score: self.score[i].iter().sum(),
                    games: self.games[i].iter().sum(),
                }
            })
            .collect()
    }

    /// Standard deviations of the log-strengths at the fitted `strength`, the first held
    /// at 0: square roots of the diagonal of the inverse of the observed information,
    /// whose entries are n p q summed over a player's opponents on the diagonal and
    /// -n p q between two players (n games with the prior, p and q the fitted chances).
    /// Infinite for a player who played nobody, or whose games do not reach the first
    /// player's.
    fn deviations(&self, strength: &[f64]) -> Vec<f64> {
        let n = strength.len();
        let mut information = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i && self.games[i][j] > 0.0) {
                let p = strength[i] / (strength[i] + strength[j]);
                let weight = (self.games[i][j] + 2.0 * PRIOR) * p * (1.0 - p);
                information[i][i] += weight;
                information[i][j] -= weight;
            }
        }
        // The players tied to the first by games (a chain of opponents), the first (held
        // at 0) left out: the others' ratings have no anchor, and would make the matrix
        // singular.
        let mut tied = vec![false; n];
        let mut reached = vec![0];
        while let Some(i) = reached.pop() {
            for (j, tie) in tied.iter_mut().enumerate().skip(1) {
                if !*tie && self.games[i][j] > 0.0 {
                    *tie = true;
                    reached.push(j);
                }
            }
        }
        let rated: Vec<usize> = (1..n).filter(|&i| tied[i]).collect();
        let free = rated
            .iter()
            .map(|&i| rated.iter().map(|&j| information[i][j]).collect())
            .collect();
        let mut deviations = vec![f64::INFINITY; n];
        if let Some(first) = deviations.first_mut() {
            *first = 0.0;
        }
        for (&i, variance) in rated.iter().zip(inverse_diagonal(free)) {
            if let Some(variance) = variance.filter(|v| *v >= 0.0) {
                deviations[i] = variance.sqrt();
            }
        }
        deviations
    }
}

/// The diagonal of the inverse of a symmetric matrix, by Gauss–Jordan elimination with
/// partial pivoting (ladders have a handful of players); `None` where the matrix is
/// singular.
fn inverse_diagonal(mut matrix: Vec<Vec<f64>>) -> Vec<Option<f64>> {
    let n = matrix.len();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for column in 0..n {
        let Some(pivot) = (column..n)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))
        else {
            break;
        };
        if matrix[pivot][column].abs() < 1e-12 {
            return vec![None; n];
        }
        matrix.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = matrix[column][column];
        for k in 0..n {
            matrix[column][k] /= scale;
            inverse[column][k] /= scale;
        }
        for row in (0..n).filter(|&row| row != column) {
            let factor = matrix[row][column];
            for k in 0..n {
                matrix[row][k] -= factor * matrix[column][k];
                inverse[row][k] -= factor * inverse[column][k];
            }
        }
    }
    (0..n).map(|i| Some(inverse[i][i])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder(results: &[(usize, usize, f64, f64)], players: usize) -> Vec<f64> {
        let mut round = RoundRobin::new((0..players).map(|i| format!("p{i}")).collect());
        for &(a, b, games, score) in results {
            round.add(a, b, games, score);
        }
        round.ratings().iter().map(|r| r.elo.unwrap()).collect()
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

    /// Two players: the interval is the usual one of a log-odds, 1.96 / sqrt(n p q) on the
    /// log scale, with n and p taken with the prior.
    #[test]
    fn two_players_get_the_interval_of_their_log_odds() {
        let mut round = RoundRobin::new(vec!["a".into(), "b".into()]);
        round.add(0, 1, 100.0, 24.5);
        let ratings = round.ratings();
        assert_eq!(ratings[0].ci95, Some([0.0, 0.0]));
        let p: f64 = 76.0 / 101.0;
        let half = 1.96 * ELO_PER_LOG / (101.0 * p * (1.0 - p)).sqrt();
        let [low, high] = ratings[1].ci95.unwrap();
        assert!(
            (high - low - 2.0 * half).abs() < 1e-6,
            "{low} {high} {half}"
        );
        assert!((low + high - 2.0 * ratings[1].elo.unwrap()).abs() < 1e-6);
    }

    /// More games narrow every interval; a chain's far end is the least certain.
    #[test]
    fn intervals_narrow_with_games_and_widen_along_a_chain() {
        let width = |games: f64| {
            let mut round = RoundRobin::new((0..3).map(|i| format!("p{i}")).collect());
            round.add(1, 0, games, 0.75 * games);
            round.add(2, 1, games, 0.75 * games);
            round
                .ratings()
                .iter()
                .map(|r| r.ci95.map_or(f64::INFINITY, |[low, high]| high - low))
                .collect::<Vec<f64>>()
        };
        let (few, many) = (width(20.0), width(200.0));
        assert!(few[1] > many[1] && few[2] > many[2], "{few:?} {many:?}");
        assert!(few[2] > few[1], "{few:?}");
    }

    /// A player who met nobody connected to the first has no rating (no Elo, no interval),
    /// whoever else it met.
    #[test]
    fn an_unconnected_player_has_no_rating() {
        let mut round = RoundRobin::new((0..4).map(|i| format!("p{i}")).collect());
        round.add(0, 1, 10.0, 5.0);
        round.add(2, 3, 10.0, 8.0);
        let ratings = round.ratings();
        let [low, high] = ratings[1].ci95.unwrap();
        assert!(low.is_finite() && high.is_finite(), "{ratings:?}");
        for unrated in &ratings[2..] {
            assert_eq!((unrated.elo, unrated.ci95), (None, None), "{ratings:?}");
        }
    }

    #[test]
    fn a_player_who_won_everything_stays_finite() {
        let elo = ladder(&[(0, 1, 10.0, 0.0), (1, 2, 10.0, 10.0)], 3);
        assert!(elo.iter().all(|e| e.is_finite()), "{elo:?}");
        assert!(elo[1] > 0.0 && elo[2] < elo[1], "{elo:?}");
    }
}
