//! Symmetries of a board as a game board: permutations of the cells that map sides to
//! sides and keep the class of every closed chain of cells (so that global loops map to
//! global loops). Used to analyse one first move per class of equivalent cells.

use std::collections::HashMap;

use crate::rules::Geometry;

/// Boards larger than this are not searched for symmetries (every cell is its own
/// class): only small boards are solved exactly anyway.
const MAX_CELLS: usize = 400;

/// Steps one search for a symmetry may take before it gives up (and the two cells are
/// treated as different, which is always safe).
const MAX_STEPS: usize = 200_000;

/// The cells in classes of cells that some symmetry maps onto each other, each class
/// sorted, classes in order of their first cell.
pub fn cell_orbits(geometry: &Geometry) -> Vec<Vec<usize>> {
    let n = geometry.cell_count();
    if n > MAX_CELLS {
        return (0..n).map(|c| vec![c]).collect();
    }
    let finder = Finder::new(geometry);
    let mut orbit_of: Vec<Option<usize>> = vec![None; n];
    let mut orbits: Vec<Vec<usize>> = Vec::new();
    for a in 0..n {
        if orbit_of[a].is_some() {
            continue;
        }
        let id = orbits.len();
        orbit_of[a] = Some(id);
        let mut orbit = vec![a];
        for b in a + 1..n {
            if orbit_of[b].is_none()
                && finder.colour[a] == finder.colour[b]
                && let Some(map) = finder.symmetry(a, b)
            {
                // Every cell the symmetry's powers reach from `a` is in the class too.
                let mut c = map[a];
                while c != a {
                    if orbit_of[c].is_none() {
                        orbit_of[c] = Some(id);
                        orbit.push(c);
                    }
                    c = map[c];
                }
            }
        }
        orbit.sort_unstable();
        orbits.push(orbit);
    }
    orbits
}

struct Finder<'a> {
    geometry: &'a Geometry,
    /// Side counts between cells (parallel sides counted).
    adjacency: Vec<HashMap<usize, u32>>,
    neighbors: Vec<Vec<usize>>,
    /// Colour refinement classes: cells of different colours are never equivalent.
    colour: Vec<u64>,
}

impl<'a> Finder<'a> {
    fn new(geometry: &'a Geometry) -> Self {
        let n = geometry.cell_count();
        let mut adjacency = vec![HashMap::new(); n];
        for (u, counts) in adjacency.iter_mut().enumerate() {
            for (v, _) in geometry.sides(u) {
                *counts.entry(v).or_insert(0) += 1;
            }
        }
        let neighbors: Vec<Vec<usize>> = adjacency
            .iter()
            .map(|m| {
                let mut v: Vec<usize> = m.keys().copied().collect();
                v.sort_unstable();
                v
            })
            .collect();
        // Colour refinement: start from the number of sides, refine by the multiset of
        // neighbour colours until stable.
        let mut colour: Vec<u64> = (0..n).map(|u| geometry.sides(u).count() as u64).collect();
        loop {
            let mut next: Vec<u64> = (0..n)
                .map(|u| {
                    let mut around: Vec<(u64, u32)> =
                        adjacency[u].iter().map(|(&v, &k)| (colour[v], k)).collect();
                    around.sort_unstable();
                    let mut h = colour[u].wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    for (c, k) in around {
                        h = (h ^ c.wrapping_add(k as u64)).wrapping_mul(0x1000_0000_01B3);
                    }
                    h
                })
                .collect();
            let classes = |c: &[u64]| {
                let mut s = c.to_vec();
                s.sort_unstable();
                s.dedup();
                s.len()
            };
            if classes(&next) == classes(&colour) {
                break;
            }
            std::mem::swap(&mut colour, &mut next);
        }
        Finder {
            geometry,
            adjacency,
            neighbors,
            colour,
        }
    }

    /// A symmetry mapping `a` to `b`, if the bounded search finds one.
    fn symmetry(&self, a: usize, b: usize) -> Option<Vec<usize>> {
        let n = self.geometry.cell_count();
        // Cells in breadth-first order from `a`, each with an earlier neighbour.
        let mut order = vec![a];
        let mut anchor = vec![usize::MAX; n];
        let mut seen = vec![false; n];
        seen[a] = true;
        let mut i = 0;
        while i < order.len() {
            let u = order[i];
            for &v in &self.neighbors[u] {
                if !seen[v] {
                    seen[v] = true;
                    anchor[v] = u;
                    order.push(v);
                }
            }
            i += 1;
        }
        if order.len() != n {
            return None;
        }
        let mut map = vec![usize::MAX; n];
        let mut used = vec![false; n];
        map[a] = b;
        used[b] = true;
        let mut steps = 0;
        if self.extend(&order, 1, &anchor, &mut map, &mut used, &mut steps) {
            Some(map)
        } else {
            None
        }
    }

    fn extend(
        &self,
        order: &[usize],
        depth: usize,
        anchor: &[usize],
        map: &mut Vec<usize>,
        used: &mut Vec<bool>,
        steps: &mut usize,
    ) -> bool {
        if depth == order.len() {
            return self.keeps_classes(map);
        }
        let u = order[depth];
        let image_of_anchor = map[anchor[u]];
        for &candidate in &self.neighbors[image_of_anchor] {
            *steps += 1;
            if *steps > MAX_STEPS {
                return false;
            }
            if used[candidate] || self.colour[candidate] != self.colour[u] {
                continue;
            }
            // Adjacency (with multiplicity) to every cell mapped so far must match.
            let consistent = order[..depth].iter().all(|&w| {
                self.adjacency[u].get(&w).copied().unwrap_or(0)
                    == self.adjacency[candidate].get(&map[w]).copied().unwrap_or(0)
            });
            if !consistent {
                continue;
            }
            map[u] = candidate;
            used[candidate] = true;
            if self.extend(order, depth + 1, anchor, map, used, steps) {
                return true;
            }
            used[candidate] = false;
            map[u] = usize::MAX;
        }
        false
    }

    /// Whether the sides' classes after the map differ from the original ones by a
    /// coboundary (a class per cell, XORed onto each side from both ends), which keeps
    /// the class of every closed chain.
    fn keeps_classes(&self, map: &[usize]) -> bool {
        let n = map.len();
        let classes = |u: usize, v: usize| {
            let mut k: Vec<u64> = self
                .geometry
                .sides(u)
                .filter(|&(w, _)| w == v)
                .map(|(_, k)| k)
                .collect();
            k.sort_unstable();
            k
        };
        let mut shift: Vec<Option<u64>> = vec![None; n];
        shift[0] = Some(0);
        let mut stack = vec![0];
        while let Some(u) = stack.pop() {
            let su = shift[u].expect("cells on the stack have a shift");
            for &v in &self.neighbors[u] {
                let original = classes(u, v);
                let image = classes(map[u], map[v]);
                let fits = |d: u64| {
                    let mut moved: Vec<u64> = original.iter().map(|k| k ^ d).collect();
                    moved.sort_unstable();
                    moved == image
                };
                match shift[v] {
                    Some(sv) => {
                        if !fits(su ^ sv) {
                            return false;
                        }
                    }
                    None => {
                        let Some(d) = image.iter().map(|k| original[0] ^ k).find(|&d| fits(d))
                        else {
                            return false;
                        };
                        shift[v] = Some(su ^ d);
                        stack.push(v);
                    }
                }
            }
        }
        true
    }
}

/// Most symmetries a group may have before [`symmetries`] stops closing it.
const MAX_GROUP: usize = 5_000;

/// A group of symmetries of the board (each a cell permutation, the identity first): the
/// one generated by the symmetries [`cell_orbits`]' search finds between pairs of cells. It
/// may be a subgroup of the full group, which is always safe for its uses.
pub fn symmetries(geometry: &Geometry) -> Vec<Vec<usize>> {
    let n = geometry.cell_count();
    let identity: Vec<usize> = (0..n).collect();
    if n > MAX_CELLS {
        return vec![identity];
    }
    let finder = Finder::new(geometry);
    let generators: Vec<Vec<usize>> = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .filter(|&(a, b)| a != b && finder.colour[a] == finder.colour[b])
        .filter_map(|(a, b)| finder.symmetry(a, b))
        .collect();
    let mut group = vec![identity.clone()];
    let mut seen = std::collections::HashSet::from([identity]);
    let mut next = 0;
    while next < group.len() && group.len() < MAX_GROUP {
        for generator in &generators {
            let product: Vec<usize> = group[next].iter().map(|&c| generator[c]).collect();
            if seen.insert(product.clone()) {
                group.push(product);
            }
        }
        next += 1;
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Opening, ProjectiveHex};

    /// The group is closed, starts with the identity, and every element maps neighbours
    /// to neighbours; goldberg:2 has the 60 rotations of the icosahedron.
    #[test]
    fn symmetries_form_a_group_of_neighbourhood_maps() {
        for (spec, order) in [
            ("goldberg:1", Some(60)),
            ("goldberg:2", Some(60)),
            ("taylor:2", None),
        ] {
            let game = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            let geometry = game.geometry();
            let group = symmetries(geometry);
            let n = geometry.cell_count();
            assert_eq!(group[0], (0..n).collect::<Vec<_>>());
            if let Some(order) = order {
                assert_eq!(group.len(), order, "{spec}");
            }
            let set: std::collections::HashSet<&Vec<usize>> = group.iter().collect();
            for g in &group {
                for h in &group {
                    let product: Vec<usize> = g.iter().map(|&c| h[c]).collect();
                    assert!(set.contains(&product), "{spec}");
                }
                for cell in 0..n {
                    let mut image: Vec<usize> = geometry.sides(cell).map(|(nb, _)| g[nb]).collect();
                    let mut expected: Vec<usize> =
                        geometry.sides(g[cell]).map(|(nb, _)| nb).collect();
                    image.sort_unstable();
                    expected.sort_unstable();
                    assert_eq!(image, expected, "{spec}");
                }
            }
        }
    }
}
