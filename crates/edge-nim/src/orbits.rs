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
        let images: HashSet<Vec<u32>> = symmetries
            .iter()
            .map(|map| {
                let mut moved = vec![0; tokens.len()];
                image_into(map, &tokens, &mut moved);
                moved
            })
            .collect();
        if images.iter().all(|other| tokens <= *other) {
            *by_size.entry(images.len()).or_default() += 1;
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
    }
}
