//! The one graph model of Crosscap, shared by every game played on a graph.
//!
//! A [`Graph`] is a simple graph (no loops, no multiple edges) or a simple directed graph,
//! or, for games that allow them, an undirected multigraph ([`Graph::multigraph_from_spec`]),
//! built from a textual spec ([`Graph::from_spec`]) or from graph6 ([`Graph::from_graph6`],
//! [`read_graph6_lines`] for `geng` output). Vertices are `0..n` and edges (arcs when
//! directed) are `0..m` in a documented order, which games use for token lists and table
//! columns. The orders of the spec families:
//!
//! | spec | vertices | edge order |
//! |---|---|---|
//! | `path:N`, `PN` | `0..N` along the path | `0-1, 1-2, …` |
//! | `cycle:N`, `CN` | `0..N` around the cycle | `0-1, 1-2, …, (N-2)-(N-1)`, then `0-(N-1)` |
//! | `complete:N`, `KN` | `0..N` | `i-j` for `i < j`, lexicographically |
//! | `star:M`, `K1,M` | hub `0`, leaves `1..=M` | `0-1, 0-2, …` |
//! | `bipartite:M,N`, `KM,N` | parts `0..M` and `M..M+N` | `i-j` lexicographically |
//! | `grid:RxC` | row-major, `r*C + c` | for each vertex in order, its edge to the right, then down |
//! | `wheel:N` | hub `0`, rim `1..=N` | spokes `0-1 … 0-N`, then the rim `1-2, …, (N-1)-N, 1-N` |
//! | `petersen` | outer `0..5`, inner `5..10` | outer cycle, spokes `i-(i+5)`, inner pentagram |
//! | `tetrahedron` | `1 2 3 4` | `a=1-2 b=1-3 c=1-4 A=3-4 B=2-4 C=2-3` |
//! | `edges:0-1,1-2` | `0..=max` | as written |
//! | `arcs:0>1,1>2` | `0..=max` | as written (directed) |
//! | `g6:…` | graph6 order | `i-j` for `i < j`, lexicographically |
//!
//! # Example
//!
//! ```
//! use crosscap_graphs::Graph;
//!
//! let tetrahedron = Graph::from_spec("tetrahedron").unwrap();
//! assert_eq!((tetrahedron.vertex_count(), tetrahedron.edge_count()), (4, 6));
//! assert_eq!(tetrahedron.edge_name(0), "a"); // a = 1-2, b = 1-3, c = 1-4, A = 3-4, ...
//!
//! // graph6, as nauty's geng writes it: "Bw" is the triangle.
//! let triangle = Graph::from_graph6("Bw").unwrap();
//! assert_eq!(triangle.edges(), Graph::from_spec("K3").unwrap().edges()); // same edge order
//! assert!(Graph::from_spec("cycle:2").is_err());
//! ```

mod automorphisms;
mod graph6;
mod spec;
mod union_find;

pub use graph6::read_graph6_lines;
pub use union_find::UnionFind;

/// Specs refuse graphs larger than this, so a typo cannot exhaust memory.
pub const MAX_VERTICES: usize = 100_000;
/// Specs refuse graphs with more edges than this.
pub const MAX_EDGES: usize = 1_000_000;
/// [`Graph::automorphisms`] stops after this many permutations.
pub const MAX_AUTOMORPHISMS: usize = 100_000;

/// Why a graph could not be built. Every message names the offending part of the input,
/// escaped (control characters and line breaks as `\u{1b}`, `\n`), so a message is one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    #[error(
        "unknown graph spec `{}`: expected path:N, cycle:N, complete:N, star:M, bipartite:M,N, \
         grid:RxC, wheel:N, petersen, tetrahedron, P5, C4, K4, K1,3, K2,3, edges:0-1,1-2, \
         arcs:0>1,1>2 or g6:<graph6>",
        .0.escape_debug()
    )]
    UnknownSpec(String),
    #[error("graph spec `{}`: `{}` is not a number", .spec.escape_debug(), .part.escape_debug())]
    BadNumber { spec: String, part: String },
    #[error("graph spec `{}`: {reason}", .spec.escape_debug())]
    BadSize { spec: String, reason: String },
    #[error(
        "graph spec `{}` is too large ({vertices} vertices, {edges} edges; the limits are \
         {MAX_VERTICES} vertices and {MAX_EDGES} edges)",
        .spec.escape_debug()
    )]
    TooLarge {
        spec: String,
        vertices: usize,
        edges: usize,
    },
    #[error("edge `{}`: {reason}", .edge.escape_debug())]
    BadEdge { edge: String, reason: String },
    #[error("graph6 `{}`: {reason}", .text.escape_debug())]
    Graph6 { text: String, reason: String },
    // The cause is part of the message (not a source), so that error chains print it once.
    #[error("line {line}: {error}")]
    AtLine { line: usize, error: Box<GraphError> },
    #[error("reading graph6 input: {0}")]
    Io(String),
}

/// A simple graph or simple directed graph with a fixed vertex and edge order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    spec: String,
    directed: bool,
    vertex_count: usize,
    edges: Vec<(usize, usize)>,
    /// Names that replace the default `"0".."n-1"` (the tetrahedron's `"1".."4"`).
    vertex_names: Option<Vec<String>>,
    /// Names that replace the default `"u-v"` (the tetrahedron's letters).
    edge_names: Option<Vec<String>>,
    incident: Vec<Vec<usize>>,
    neighbors: Vec<Vec<usize>>,
    in_neighbors: Vec<Vec<usize>>,
}

impl Graph {
    /// Builds a graph from a spec (see the crate documentation for the families).
    pub fn from_spec(spec: &str) -> Result<Graph, GraphError> {
        spec::parse(spec, spec::Parallel::Refused)
    }

    /// Builds a graph from a spec whose `edges:` list may repeat an edge: a multigraph with
    /// parallel edges (no loops), for games whose rules allow them. The `k`-th copy of an
    /// edge is named `u-v#k` from `k = 2`; the first is `u-v`. Neighbour lists then repeat
    /// a vertex once per parallel edge, and [`Graph::automorphisms`] are the vertex
    /// permutations of the underlying simple graph that keep degrees (a caller checks
    /// multiplicities).
    ///
    /// ```
    /// use crosscap_graphs::Graph;
    ///
    /// let doubled = Graph::multigraph_from_spec("edges:0-1,0-1,1-2").unwrap();
    /// assert_eq!(doubled.edge_count(), 3);
    /// assert_eq!(doubled.edge_name(1), "0-1#2");
    /// assert_eq!(doubled.edge_index("0-1#2"), Some(1));
    /// assert!(Graph::from_spec("edges:0-1,0-1").is_err());
    /// ```
    pub fn multigraph_from_spec(spec: &str) -> Result<Graph, GraphError> {
        spec::parse(spec, spec::Parallel::Allowed)
    }

    /// The edges joining `u` and `v` (either way), in edge order: more than one in a
    /// multigraph.
    pub fn edges_between(&self, u: usize, v: usize) -> Vec<usize> {
        self.incident[u]
            .iter()
            .copied()
            .filter(|&e| {
                let (a, b) = self.edges[e];
                (a, b) == (u, v) || (a, b) == (v, u)
            })
            .collect()
    }

    /// Builds a graph from one line of graph6 (an optional `>>graph6<<` header is allowed).
    pub fn from_graph6(line: &str) -> Result<Graph, GraphError> {
        graph6::parse(line)
    }

    /// Builds a graph from checked parts; `edges` must be simple and within `vertex_count`.
    fn build(
        spec: String,
        directed: bool,
        vertex_count: usize,
        edges: Vec<(usize, usize)>,
    ) -> Graph {
        let mut incident = vec![Vec::new(); vertex_count];
        let mut neighbors = vec![Vec::new(); vertex_count];
        let mut in_neighbors = vec![Vec::new(); vertex_count];
        for (e, &(u, v)) in edges.iter().enumerate() {
            incident[u].push(e);
            neighbors[u].push(v);
            if directed {
                in_neighbors[v].push(u);
            } else {
                incident[v].push(e);
                neighbors[v].push(u);
            }
        }
        for list in neighbors.iter_mut().chain(in_neighbors.iter_mut()) {
            list.sort_unstable();
        }
        if !directed {
            in_neighbors.clone_from(&neighbors);
        }
        Graph {
            spec,
            directed,
            vertex_count,
            edges,
            vertex_names: None,
            edge_names: None,
            incident,
            neighbors,
            in_neighbors,
        }
    }

    /// The canonical spec text the graph was built from (short forms are expanded, so
    /// `K1,3` gives `star:3`).
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The number of vertices; vertices are `0..vertex_count()`.
    pub fn vertex_count(&self) -> usize {
        self.vertex_count
    }

    /// The name of vertex `v`: `"0".."n-1"`, or `"1".."4"` on the tetrahedron.
    pub fn vertex_name(&self, v: usize) -> String {
        match &self.vertex_names {
            Some(names) => names[v].clone(),
            None => v.to_string(),
        }
    }

    /// The vertex with this name.
    pub fn vertex_index(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        match &self.vertex_names {
            Some(names) => names.iter().position(|n| n == name),
            None => name
                .parse::<usize>()
                .ok()
                .filter(|&v| v < self.vertex_count),
        }
    }

    pub fn is_directed(&self) -> bool {
        self.directed
    }

    /// The number of edges (arcs when directed); edges are `0..edge_count()`.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// The endpoints of edge `e` (tail, head when directed).
    pub fn edge(&self, e: usize) -> (usize, usize) {
        self.edges[e]
    }

    /// All edges in order, as endpoint pairs.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// The name of edge `e`: `"u-v"` (`"u>v"` when directed), or a letter on the tetrahedron.
    pub fn edge_name(&self, e: usize) -> String {
        if let Some(names) = &self.edge_names {
            return names[e].clone();
        }
        let (u, v) = self.edges[e];
        let separator = if self.directed { '>' } else { '-' };
        format!("{}{separator}{}", self.vertex_name(u), self.vertex_name(v))
    }

    /// The edge with this name: its own name, or `"u-v"` / `"v-u"` (`"u>v"` when directed)
    /// in vertex names.
    pub fn edge_index(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        if let Some(e) = self
            .edge_names
            .as_ref()
            .and_then(|names| names.iter().position(|n| n == name))
        {
            return Some(e);
        }
        let separator = if self.directed { '>' } else { '-' };
        let (u, v) = name.split_once(separator)?;
        let (u, v) = (self.vertex_index(u)?, self.vertex_index(v)?);
        self.edge_between(u, v)
    }

    /// The edge joining `u` to `v` (from `u` to `v` when directed), if any.
    pub fn edge_between(&self, u: usize, v: usize) -> Option<usize> {
        if u >= self.vertex_count || v >= self.vertex_count {
            return None;
        }
        self.incident[u].iter().copied().find(|&e| {
            let (a, b) = self.edges[e];
            (a, b) == (u, v) || (!self.directed && (a, b) == (v, u))
        })
    }

    /// The edges at `v` in edge order (the out-arcs when directed).
    pub fn incident_edges(&self, v: usize) -> &[usize] {
        &self.incident[v]
    }

    /// The vertices adjacent to `v`, sorted (the out-neighbours when directed).
    pub fn neighbors(&self, v: usize) -> &[usize] {
        &self.neighbors[v]
    }

    /// `neighbors(v).len()`: the degree, or the out-degree when directed.
    pub fn degree(&self, v: usize) -> usize {
        self.neighbors[v].len()
    }

    /// The in-neighbours of `v`, sorted; equal to [`Graph::neighbors`] when undirected.
    pub fn in_neighbors(&self, v: usize) -> &[usize] {
        &self.in_neighbors[v]
    }

    /// Whether `u -> v` is an edge (either direction when undirected).
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.neighbors[u].binary_search(&v).is_ok()
    }

    /// Whether the graph is connected (weakly, when directed). The empty graph is connected.
    pub fn is_connected(&self) -> bool {
        self.components().len() <= 1
    }

    /// The vertex sets of the (weak) components, each sorted, ordered by least vertex.
    pub fn components(&self) -> Vec<Vec<usize>> {
        let mut parts = UnionFind::new(self.vertex_count);
        for &(u, v) in &self.edges {
            parts.union(u, v);
        }
        parts.groups((0..self.vertex_count).map(|v| (v, v)))
    }

    /// The given edges grouped by the (weak) components of the subgraph they span, each
    /// group in edge order, groups ordered by least edge. Games whose positions live on
    /// edges split into independent parts this way.
    pub fn edge_components(&self, edges: &[usize]) -> Vec<Vec<usize>> {
        let mut parts = UnionFind::new(self.vertex_count);
        for &e in edges {
            let (u, v) = self.edges[e];
            parts.union(u, v);
        }
        let mut sorted = edges.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        parts.groups(sorted.into_iter().map(|e| (e, self.edges[e].0)))
    }

    /// The vertex permutations `p` with `u -> v` an edge exactly when `p[u] -> p[v]` is,
    /// the identity first; by backtracking with pruning, for small graphs, and at most
    /// [`MAX_AUTOMORPHISMS`] of them.
    pub fn automorphisms(&self) -> Vec<Vec<usize>> {
        automorphisms::search(self, MAX_AUTOMORPHISMS)
    }

    /// The graph6 text of an undirected graph (edge order is not kept: graph6 has none).
    pub fn to_graph6(&self) -> Option<String> {
        (!self.directed).then(|| graph6::write(self))
    }
}

#[cfg(test)]
mod tests;
