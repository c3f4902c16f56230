//! Graph automorphisms by backtracking: vertices are mapped in breadth-first order, so each
//! vertex after the first of its component must go to a neighbour of its anchor's image.

use crate::Graph;

const UNMAPPED: usize = usize::MAX;

pub(crate) fn search(graph: &Graph, cap: usize) -> Vec<Vec<usize>> {
    let n = graph.vertex_count();
    if n == 0 {
        return vec![Vec::new()];
    }
    let weak = weak_neighbors(graph);
    let (order, anchor) = breadth_first_order(&weak);
    let mut search = Search {
        graph,
        weak: &weak,
        image: vec![UNMAPPED; n],
        used: vec![false; n],
    };
    let mut found = Vec::new();
    // Per depth: the anchor's image (if any) and how far through the candidates we are.
    let mut anchor_image = vec![None; n];
    let mut tried = vec![0usize; n];
    let mut depth = 0;
    loop {
        let v = order[depth];
        search.unmap(v);
        let mut placed = false;
        while let Some(w) = candidate(v, anchor_image[depth], tried[depth], &weak, n) {
            let first_try = tried[depth] == 0;
            tried[depth] += 1;
            if (first_try || w != v) && search.consistent(v, w) {
                search.map(v, w);
                placed = true;
                break;
            }
        }
        if !placed {
            if depth == 0 {
                break;
            }
            depth -= 1;
            continue;
        }
        if depth + 1 == n {
            found.push(search.image.clone());
            if found.len() >= cap {
                break;
            }
            continue;
        }
        depth += 1;
        anchor_image[depth] = anchor[depth].map(|a| search.image[a]);
        tried[depth] = 0;
    }
    found
}

/// The `k`-th image to try for `v`: `v` itself first (so the identity comes first), then
/// the neighbours of the anchor's image, or every vertex when `v` has no anchor.
fn candidate(
    v: usize,
    anchor_image: Option<usize>,
    k: usize,
    weak: &[Vec<usize>],
    n: usize,
) -> Option<usize> {
    if k == 0 {
        return Some(v);
    }
    let next = match anchor_image {
        Some(a) => *weak[a].get(k - 1)?,
        None => Some(k - 1).filter(|&w| w < n)?,
    };
    Some(next)
}

struct Search<'a> {
    graph: &'a Graph,
    weak: &'a [Vec<usize>],
    image: Vec<usize>,
    used: Vec<bool>,
}

impl Search<'_> {
    fn map(&mut self, v: usize, w: usize) {
        self.image[v] = w;
        self.used[w] = true;
    }

    fn unmap(&mut self, v: usize) {
        if self.image[v] != UNMAPPED {
            self.used[self.image[v]] = false;
            self.image[v] = UNMAPPED;
        }
    }

    /// Whether `v -> w` keeps every adjacency among mapped vertices. Mapped neighbours of
    /// `v` must go to neighbours of `w` with the same directions; as the map is injective,
    /// equal counts of mapped neighbours then rule out extra adjacencies at `w`.
    fn consistent(&self, v: usize, w: usize) -> bool {
        let g = self.graph;
        if self.used[w]
            || g.degree(v) != g.degree(w)
            || g.in_neighbors(v).len() != g.in_neighbors(w).len()
            || self.weak[v].len() != self.weak[w].len()
        {
            return false;
        }
        let mut mapped_neighbors = 0;
        for &u in &self.weak[v] {
            let image = self.image[u];
            if image == UNMAPPED {
                continue;
            }
            mapped_neighbors += 1;
            if g.has_edge(u, v) != g.has_edge(image, w) || g.has_edge(v, u) != g.has_edge(w, image)
            {
                return false;
            }
        }
        let mapped_at_w = self.weak[w].iter().filter(|&&x| self.used[x]).count();
        mapped_at_w == mapped_neighbors
    }
}

/// Neighbours ignoring direction, sorted.
fn weak_neighbors(graph: &Graph) -> Vec<Vec<usize>> {
    (0..graph.vertex_count())
        .map(|v| {
            let mut all: Vec<usize> = graph
                .neighbors(v)
                .iter()
                .chain(graph.in_neighbors(v))
                .copied()
                .collect();
            all.sort_unstable();
            all.dedup();
            all
        })
        .collect()
}

/// Vertices in breadth-first order, each with the earlier vertex it was reached from.
fn breadth_first_order(weak: &[Vec<usize>]) -> (Vec<usize>, Vec<Option<usize>>) {
    let n = weak.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut anchor = Vec::with_capacity(n);
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let start = order.len();
        order.push(root);
        anchor.push(None);
        let mut head = start;
        while head < order.len() {
            let u = order[head];
            head += 1;
            for &v in &weak[u] {
                if !seen[v] {
                    seen[v] = true;
                    order.push(v);
                    anchor.push(Some(u));
                }
            }
        }
    }
    (order, anchor)
}
