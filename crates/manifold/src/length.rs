//! How long a game lasts: the longest and the shortest play over all legal plays, and the
//! remoteness under optimal play (the winner hurries, the loser delays: Smith's remoteness).
//!
//! Every move cuts one surface, so the moves of a play are those of each surface's own
//! play: the longest and the shortest play of a 2-manifold add up over its surfaces, and
//! each surface's comes from the surfaces its moves leave, by increasing genus. Remoteness
//! does not add up over a sum; it is searched over whole positions, with their outcomes
//! read off the G-series (a position is lost for the mover exactly when its G-value is 0).

use std::collections::HashMap;

use crosscap_engine::budget::{Budget, Meter};
use crosscap_engine::catalog::Part;
use crosscap_engine::{Impartial, SolveError};
use serde::Serialize;

use crate::ManifoldError;
use crate::moves::surface_moves;
use crate::series::Series;
use crate::surface::{Manifold, Surface};

/// The largest genus [`length`] takes: its table of plays is quadratic in the genus.
pub const MAX_LENGTH_GENUS: u32 = 2000;

/// The lengths of the game from a position, as every host reports them: the longest and
/// shortest play always, the remoteness when its search finished within the budget.
#[derive(Clone, Debug, Serialize)]
pub struct Length {
    pub position: Manifold,
    /// The most moves any play lasts.
    pub longest: u64,
    /// The fewest moves any play lasts.
    pub shortest: u64,
    /// The moves a play lasts when the winner wins as fast and the loser loses as slowly
    /// as they can (even exactly when the player to move loses), with the search's status.
    #[serde(flatten)]
    pub remoteness: Part<RemotenessOf>,
}

/// The remoteness under optimal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RemotenessOf {
    pub remoteness: u64,
}

/// The longest and shortest plays of every surface up to genus `max_genus`, by genus: index
/// `g` holds `o_g`'s in `orientable` and `n_g`'s in `non_orientable`.
#[derive(Clone, Debug)]
pub struct PlayLengths {
    orientable: Vec<(u64, u64)>,
    non_orientable: Vec<(u64, u64)>,
}

impl PlayLengths {
    /// Every surface up to `max_genus`: the surfaces a move leaves have smaller genus (or
    /// are orientable of at most half the genus), so increasing genus, orientable first,
    /// meets every piece before the surface it comes from.
    pub fn compute(max_genus: u32) -> PlayLengths {
        let mut lengths = PlayLengths {
            orientable: vec![(0, 0)],
            non_orientable: vec![(0, 0)],
        };
        for g in 1..=max_genus {
            let o = lengths.through_moves(Surface::orientable(g));
            lengths.orientable.push(o);
            let n = lengths.through_moves(Surface::non_orientable(g));
            lengths.non_orientable.push(n);
        }
        lengths
    }

    /// The (longest, shortest) play of `surface`, one move plus its pieces' plays.
    fn through_moves(&self, surface: Surface) -> (u64, u64) {
        let plays = surface_moves(surface).into_iter().map(|mv| {
            mv.into
                .surfaces()
                .iter()
                .map(|&piece| self.of(piece))
                .fold((1, 1), |(l, s), (pl, ps)| (l + pl, s + ps))
        });
        plays.fold((0, u64::MAX), |(l, s), (pl, ps)| (l.max(pl), s.min(ps)))
    }

    /// The (longest, shortest) play of `surface` (its genus at most the computed one).
    pub fn of(&self, surface: Surface) -> (u64, u64) {
        match surface {
            Surface::Sphere => (0, 0),
            Surface::Orientable(g) => self.orientable[g as usize],
            Surface::NonOrientable(g) => self.non_orientable[g as usize],
        }
    }
}

/// The lengths of the game from `position` (genus at most [`MAX_LENGTH_GENUS`]).
/// Remoteness searches positions, each visited once, within `budget`; when it runs out,
/// its part is unknown and the longest and shortest play are still answered.
pub fn length(position: Manifold, budget: &Budget) -> Result<Length, ManifoldError> {
    if position.max_genus() > MAX_LENGTH_GENUS {
        return Err(ManifoldError::TooLarge {
            genus: position.max_genus(),
            purpose: "length",
            max: MAX_LENGTH_GENUS,
        });
    }
    let (longest, shortest) = play_lengths(&position);
    Ok(Length {
        remoteness: Part::of(remoteness(&position, budget))
            .map(|remoteness| RemotenessOf { remoteness }),
        position,
        longest,
        shortest,
    })
}

/// The (longest, shortest) play from `position`: the sum of its surfaces'. Takes time
/// quadratic in the largest genus.
///
/// The seed's Corollary 2.2 says the longest game from `o_g` or `n_g` is 2g moves; it is 2g − 1:
///
/// ```
/// use crosscap_manifold::{Manifold, Surface, play_lengths};
///
/// for genus in 1..=6 {
///     let (longest, _) = play_lengths(&Manifold::single(Surface::orientable(genus)));
///     assert_eq!(longest, 2 * genus as u64 - 1);
///     let (longest, _) = play_lengths(&Manifold::single(Surface::non_orientable(genus)));
///     assert_eq!(longest, 2 * genus as u64 - 1);
/// }
/// ```
pub fn play_lengths(position: &Manifold) -> (u64, u64) {
    let plays = PlayLengths::compute(position.max_genus());
    position
        .playable()
        .map(|s| plays.of(s))
        .fold((0, 0), |(l, s), (pl, ps)| (l + pl, s + ps))
}

/// The remoteness of `position`, searched over positions, each visited once, within
/// `budget`.
pub fn remoteness(position: &Manifold, budget: &Budget) -> Result<u64, SolveError> {
    let series = Series::compute(position.max_genus());
    let mut search = Remoteness {
        series: &series,
        known: HashMap::new(),
        bytes: 0,
        meter: budget.meter(),
    };
    search.of(position)
}

/// The remoteness search: outcomes from the series, values memoised per position.
struct Remoteness<'a> {
    series: &'a Series,
    known: HashMap<Manifold, u64>,
    /// Bytes the known positions hold, against the budget's memory.
    bytes: usize,
    meter: Meter,
}

impl Remoteness<'_> {
    fn of(&mut self, position: &Manifold) -> Result<u64, SolveError> {
        if let Some(&r) = self.known.get(position) {
            return Ok(r);
        }
        if self.meter.tick() {
            return Err(self.meter.unknown());
        }
        let moves = position.moves();
        let remoteness = if moves.is_empty() {
            0
        } else {
            let lost = |p: &Manifold| self.series.value(p) == Some(0);
            let mover_wins = !lost(position);
            let mut best: Option<u64> = None;
            for mv in &moves {
                let child = position.after(mv);
                // A winner only looks at winning moves (to positions lost for the opponent).
                if mover_wins && !lost(&child) {
                    continue;
                }
                let r = self.of(&child)?;
                best = Some(match best {
                    None => r,
                    Some(b) if mover_wins => b.min(r),
                    Some(b) => b.max(r),
                });
            }
            1 + best.expect("a winning position has a winning move")
        };
        // The entry, its key's surfaces and the map's slack.
        self.bytes += 2 * (std::mem::size_of::<(Manifold, u64)>() + 8)
            + std::mem::size_of_val(position.surfaces());
        if self.meter.over_memory(self.bytes) {
            return Err(self.meter.unknown());
        }
        self.known.insert(position.clone(), remoteness);
        Ok(remoteness)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax over whole positions, outcomes included (memoised, nothing else
    /// shared with the code under test): the reference. The mover wins, then the longest,
    /// shortest and optimal plays.
    fn brute_force(position: &Manifold) -> (bool, u64, u64, u64) {
        fn search(
            position: &Manifold,
            seen: &mut HashMap<Manifold, (bool, u64, u64, u64)>,
        ) -> (bool, u64, u64, u64) {
            if let Some(&known) = seen.get(position) {
                return known;
            }
            let found = children_of(position, seen);
            seen.insert(position.clone(), found);
            found
        }
        fn children_of(
            position: &Manifold,
            seen: &mut HashMap<Manifold, (bool, u64, u64, u64)>,
        ) -> (bool, u64, u64, u64) {
            let moves = position.moves();
            if moves.is_empty() {
                return (false, 0, 0, 0);
            }
            let children: Vec<_> = moves
                .iter()
                .map(|m| search(&position.after(m), seen))
                .collect();
            let longest = 1 + children.iter().map(|c| c.1).max().unwrap();
            let shortest = 1 + children.iter().map(|c| c.2).min().unwrap();
            let wins = children.iter().any(|c| !c.0);
            let remoteness = 1 + if wins {
                children.iter().filter(|c| !c.0).map(|c| c.3).min().unwrap()
            } else {
                children.iter().map(|c| c.3).max().unwrap()
            };
            (wins, longest, shortest, remoteness)
        }
        search(position, &mut HashMap::new())
    }

    #[test]
    fn lengths_match_brute_force() {
        for text in ["o1", "o4", "n3", "n6", "o2 n2", "n1 n2 o1", "o3 n4"] {
            let position: Manifold = text.parse().unwrap();
            let (_, longest, shortest, remoteness) = brute_force(&position);
            let found = length(position.clone(), &Budget::unlimited()).unwrap();
            assert_eq!(
                (found.longest, found.shortest, found.remoteness.answer),
                (longest, shortest, Some(RemotenessOf { remoteness })),
                "{text}"
            );
        }
    }

    /// Corollary 2.2 of the seed says at most 2g moves from o_g or n_g; the longest play is
    /// 2g - 1 (one cut per genus, and every split adds one). Its shortest plays: k for
    /// n(2k) and k + 1 for n(2k + 1), as the corollary says.
    #[test]
    fn the_longest_game_from_genus_g_is_2g_minus_1() {
        let plays = PlayLengths::compute(60);
        for g in 1..=60u32 {
            assert_eq!(
                plays.of(Surface::orientable(g)).0,
                2 * u64::from(g) - 1,
                "o{g}"
            );
            assert_eq!(
                plays.of(Surface::non_orientable(g)).0,
                2 * u64::from(g) - 1,
                "n{g}"
            );
            let k = u64::from(g / 2);
            let shortest = if g % 2 == 0 { k } else { k + 1 };
            assert_eq!(plays.of(Surface::non_orientable(g)).1, shortest, "n{g}");
        }
    }

    #[test]
    fn remoteness_matches_brute_force_up_to_genus_12() {
        for g in 1..=12 {
            for surface in [Surface::orientable(g), Surface::non_orientable(g)] {
                let position = Manifold::single(surface);
                let found = length(position.clone(), &Budget::unlimited()).unwrap();
                let remoteness = found.remoteness.answer.unwrap().remoteness;
                assert_eq!(remoteness, brute_force(&position).3, "{surface}");
            }
        }
    }

    #[test]
    fn a_tiny_budget_answers_unknown() {
        let position: Manifold = "o20 n20".parse().unwrap();
        let found = length(position, &Budget::nodes(10)).unwrap();
        assert!(found.remoteness.answer.is_none());
        assert_eq!(found.longest, 2 * 20 - 1 + 2 * 20 - 1);
        let too_large: Manifold = "o2001".parse().unwrap();
        assert!(length(too_large, &Budget::nodes(10)).is_err());
    }
}
