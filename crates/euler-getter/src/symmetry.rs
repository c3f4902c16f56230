//! Symmetries of a board: permutations of the cells that carry every edge and every vertex
//! to an edge and a vertex. They preserve every region's V, E and F, hence every game
//! value, so the exact solver may treat a position and its images as one.

use std::collections::HashMap;

use crosscap_topology::Board;

/// The symmetries found, each a map from cell to image cell; the identity comes first.
#[derive(Clone, Debug)]
pub struct Symmetries {
    maps: Vec<Vec<u16>>,
}

/// Most symmetries kept: enough for every built-in board (the Goldberg boards have 60).
const MAX_SYMMETRIES: usize = 240;
/// Search steps before giving up on finding more symmetries (the identity always holds).
const MAX_STEPS: u64 = 2_000_000;

impl Symmetries {
    /// Only the identity.
    pub fn trivial(cells: usize) -> Symmetries {
        Symmetries {
            maps: vec![(0..cells as u16).collect()],
        }
    }

    /// Searches the automorphisms of the cell adjacency multigraph, keeping those that map
    /// edges to edges and vertices to vertices.
    pub fn of(board: &Board) -> Symmetries {
        let cells = board.cell_count();
        let mut found = Symmetries::trivial(cells);
        if cells == 0 {
            return found;
        }
        let search = Search::new(board);
        let edges =
            incidence_multisets((0..board.edge_count()).map(|e| board.edge_cells(e).to_vec()));
        let vertices =
            incidence_multisets((0..board.vertex_count()).map(|v| board.vertex_cells(v).to_vec()));
        let mut steps = 0u64;
        let mut image = vec![u32::MAX; cells];
        let mut used = vec![false; cells];
        for start in 0..cells {
            if found.maps.len() >= MAX_SYMMETRIES || steps > MAX_STEPS {
                break;
            }
            if search.degree[start] != search.degree[search.order[0]] {
                continue;
            }
            image[search.order[0]] = start as u32;
            used[start] = true;
            search.extend(1, &mut image, &mut used, &mut steps, &mut |map| {
                if map.iter().enumerate().all(|(c, &d)| c == d as usize) {
                    return true;
                }
                let keeps = |sets: &HashMap<Vec<u32>, usize>| {
                    sets.iter().all(|(set, &n)| {
                        let mut mapped: Vec<u32> = set.iter().map(|&c| map[c as usize]).collect();
                        mapped.sort_unstable();
                        sets.get(&mapped) == Some(&n)
                    })
                };
                if keeps(&edges) && keeps(&vertices) {
                    found.maps.push(map.iter().map(|&c| c as u16).collect());
                }
                found.maps.len() < MAX_SYMMETRIES
            });
            used[start] = false;
            image[search.order[0]] = u32::MAX;
        }
        found
    }

    pub fn maps(&self) -> &[Vec<u16>] {
        &self.maps
    }

    pub fn len(&self) -> usize {
        self.maps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }
}

/// Each edge's (or vertex's) cells as a sorted multiset, with how many edges share it.
fn incidence_multisets(sets: impl Iterator<Item = Vec<usize>>) -> HashMap<Vec<u32>, usize> {
    let mut counts = HashMap::new();
    for set in sets {
        let mut key: Vec<u32> = set.into_iter().map(|c| c as u32).collect();
        key.sort_unstable();
        *counts.entry(key).or_insert(0) += 1;
    }
    counts
}

/// Backtracking over cells in breadth-first order, each mapped next to its parent's image.
struct Search {
    order: Vec<usize>,
    parent: Vec<usize>,
    degree: Vec<usize>,
    /// Edge multiplicities between cells, row-major.
    multiplicity: Vec<u8>,
    neighbors: Vec<Vec<usize>>,
    cells: usize,
}

impl Search {
    fn new(board: &Board) -> Search {
        let cells = board.cell_count();
        let mut multiplicity = vec![0u8; cells * cells];
        for e in 0..board.edge_count() {
            let [a, b] = board.edge_cells(e);
            multiplicity[a * cells + b] = multiplicity[a * cells + b].saturating_add(1);
            if a != b {
                multiplicity[b * cells + a] = multiplicity[b * cells + a].saturating_add(1);
            }
        }
        let neighbors: Vec<Vec<usize>> = (0..cells)
            .map(|c| {
                (0..cells)
                    .filter(|&d| multiplicity[c * cells + d] > 0)
                    .collect()
            })
            .collect();
        let degree = (0..cells)
            .map(|c| {
                (0..cells)
                    .map(|d| multiplicity[c * cells + d] as usize)
                    .sum()
            })
            .collect();
        let mut order = Vec::with_capacity(cells);
        let mut parent = vec![usize::MAX; cells];
        let mut seen = vec![false; cells];
        for root in 0..cells {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            order.push(root);
            let mut head = order.len() - 1;
            while head < order.len() {
                let c = order[head];
                head += 1;
                for &d in &neighbors[c] {
                    if !seen[d] {
                        seen[d] = true;
                        parent[d] = c;
                        order.push(d);
                    }
                }
            }
        }
        Search {
            order,
            parent,
            degree,
            multiplicity,
            neighbors,
            cells,
        }
    }

    /// Extends the partial map from position `depth` of the order; calls `found` with each
    /// complete map, stopping when it returns false. Returns false to stop.
    fn extend(
        &self,
        depth: usize,
        image: &mut [u32],
        used: &mut [bool],
        steps: &mut u64,
        found: &mut dyn FnMut(&[u32]) -> bool,
    ) -> bool {
        *steps += 1;
        if *steps > MAX_STEPS {
            return false;
        }
        if depth == self.cells {
            return found(image);
        }
        let cell = self.order[depth];
        let candidates: Vec<usize> = match self.parent[cell] {
            usize::MAX => (0..self.cells).collect(),
            p => self.neighbors[image[p] as usize].clone(),
        };
        for candidate in candidates {
            if used[candidate] || self.degree[candidate] != self.degree[cell] {
                continue;
            }
            let consistent = self.order[..depth].iter().all(|&placed| {
                self.multiplicity[cell * self.cells + placed]
                    == self.multiplicity[candidate * self.cells + image[placed] as usize]
            }) && self.multiplicity[cell * self.cells + cell]
                == self.multiplicity[candidate * self.cells + candidate];
            if !consistent {
                continue;
            }
            image[cell] = candidate as u32;
            used[candidate] = true;
            let go_on = self.extend(depth + 1, image, used, steps, found);
            used[candidate] = false;
            image[cell] = u32::MAX;
            if !go_on {
                return false;
            }
        }
        true
    }
}
