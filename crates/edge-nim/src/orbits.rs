//! P-positions up to symmetry: the orbits of a set of positions under a group of edge maps
//! (the graph's automorphisms, those fixing the held edges when some are held).

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

/// How the positions fall into orbits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrbitCounts {
    /// The number of edge maps in the group.
    pub symmetries: usize,
    pub orbits: u64,
    /// How many orbits have each size.
    pub by_size: BTreeMap<usize, u64>,
}

/// Writes into `moved` the image of `tokens` under the edge map `map`: edge `e`'s tokens
/// go to `map[e]`.
pub fn image_into(map: &[usize], tokens: &[u32], moved: &mut [u32]) {
    for (e, &t) in tokens.iter().enumerate() {
        moved[map[e]] = t;
    }
}

/// A position's orbit under a group of edge maps: its smallest position (ordered as token
/// lists), which names it, and its size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbit {
    pub smallest: Vec<u32>,
    pub size: usize,
}

/// The orbit of `tokens` under `symmetries` (a group of edge maps, the identity among
/// them): its distinct images.
pub fn orbit_of(symmetries: &[Vec<usize>], tokens: &[u32]) -> Orbit {
    let images: HashSet<Vec<u32>> = symmetries
        .iter()
        .map(|map| {
            let mut moved = vec![0; tokens.len()];
            image_into(map, tokens, &mut moved);
            moved
        })
        .collect();
    Orbit {
        size: images.len(),
        smallest: images.into_iter().min().unwrap_or_else(|| tokens.to_vec()),
    }
}

/// The orbits of `positions` under `symmetries` (a group of edge maps, the identity among
/// them), which must map the set to itself (a box of P-positions with the held edges fixed
/// does). Each orbit is counted once, at its smallest position, with its size as the
/// number of distinct images: no set of all positions is kept.
pub fn orbit_counts(
    symmetries: &[Vec<usize>],
    positions: impl Iterator<Item = Vec<u32>>,
) -> OrbitCounts {
    let mut by_size: BTreeMap<usize, u64> = BTreeMap::new();
    for tokens in positions {
        let orbit = orbit_of(symmetries, &tokens);
        if orbit.smallest == tokens {
            *by_size.entry(orbit.size).or_default() += 1;
        }
    }
    OrbitCounts {
        symmetries: symmetries.len(),
        orbits: by_size.values().sum(),
        by_size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_of_two_heaps_under_the_swap() {
        let swap = vec![vec![0, 1], vec![1, 0]];
        let positions = (0..3u32).flat_map(|a| (0..3u32).map(move |b| vec![a, b]));
        let counts = orbit_counts(&swap, positions);
        // 3 positions (a, a) alone, 3 pairs {(a, b), (b, a)}.
        assert_eq!(counts.orbits, 6);
        assert_eq!(counts.by_size, BTreeMap::from([(1, 3), (2, 3)]));
        let orbit = orbit_of(&swap, &[2, 1]);
        assert_eq!((orbit.smallest, orbit.size), (vec![1, 2], 2));
        assert_eq!(orbit_of(&swap, &[1, 1]).size, 1);
    }
}
