//! The game itself: positions, moves, their notation, and token lists.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crosscap_engine::impartial_notation::ImpartialNotation;
use crosscap_engine::{Impartial, MoveError};
use crosscap_graphs::Graph;
use serde_json::{Map, Value, json};

use crate::EdgeNimError;

/// An Edge-Nim position: a number of tokens on every edge of an undirected graph.
#[derive(Clone, Debug)]
pub struct EdgeNim {
    graph: Arc<Graph>,
    tokens: Vec<u32>,
}

/// A move: at `vertex`, the edges in `changes` (in edge order) get their new counts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EdgeNimMove {
    pub vertex: usize,
    pub changes: Vec<(usize, u32)>,
}

impl PartialEq for EdgeNim {
    fn eq(&self, other: &Self) -> bool {
        self.tokens == other.tokens
            && (Arc::ptr_eq(&self.graph, &other.graph) || self.graph == other.graph)
    }
}

impl Eq for EdgeNim {}

/// Positions of one game share their graph, so the tokens alone are hashed.
impl Hash for EdgeNim {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.tokens.hash(state);
    }
}

impl EdgeNim {
    /// A position with `tokens[e]` tokens on edge `e`.
    pub fn new(graph: Arc<Graph>, tokens: Vec<u32>) -> Result<EdgeNim, EdgeNimError> {
        check_undirected(&graph)?;
        if tokens.len() != graph.edge_count() {
            return Err(EdgeNimError::TokenCount {
                expected: graph.edge_count(),
                found: tokens.len(),
            });
        }
        Ok(EdgeNim { graph, tokens })
    }

    /// A position from a token text (see [`parse_tokens`]).
    pub fn parse(graph: Arc<Graph>, text: &str) -> Result<EdgeNim, EdgeNimError> {
        let tokens = parse_tokens(&graph, text)?;
        EdgeNim::new(graph, tokens)
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    pub fn shared_graph(&self) -> &Arc<Graph> {
        &self.graph
    }

    pub fn tokens(&self) -> &[u32] {
        &self.tokens
    }

    /// The position as every answer names it: the graph's spec, its edges in order (the
    /// order of the tokens) and their tokens.
    pub fn facts(&self) -> Map<String, Value> {
        Map::from_iter([
            ("graph".to_string(), json!(self.graph.spec())),
            ("edges".to_string(), json!(edge_names(&self.graph))),
            ("tokens".to_string(), json!(self.tokens)),
        ])
    }

    /// The moves at `v`, in lexicographic order of the new counts of its non-empty edges.
    /// A move that changes one edge only is listed at that edge's first endpoint, so no
    /// position is reached twice by the same change.
    fn moves_at(&self, v: usize, moves: &mut Vec<EdgeNimMove>) {
        let live: Vec<usize> = self
            .graph
            .incident_edges(v)
            .iter()
            .copied()
            .filter(|&e| self.tokens[e] > 0)
            .collect();
        if live.is_empty() {
            return;
        }
        let mut counts = vec![0u32; live.len()];
        loop {
            let changed: Vec<(usize, u32)> = live
                .iter()
                .zip(&counts)
                .filter(|&(&e, &c)| c != self.tokens[e])
                .map(|(&e, &c)| (e, c))
                .collect();
            let listed_here = match changed[..] {
                [] => false,
                [(e, _)] => self.graph.edge(e).0.min(self.graph.edge(e).1) == v,
                _ => true,
            };
            if listed_here {
                moves.push(EdgeNimMove {
                    vertex: v,
                    changes: changed,
                });
            }
            // Next tuple, the last edge fastest.
            let Some(i) = (0..live.len())
                .rev()
                .find(|&i| counts[i] < self.tokens[live[i]])
            else {
                return;
            };
            counts[i] += 1;
            counts[i + 1..].iter_mut().for_each(|c| *c = 0);
        }
    }

    /// An upper bound on the number of moves (every vertex's lower tuples), cheap to
    /// compute, to refuse positions whose move list would not fit in memory; `u128::MAX`
    /// when the bound itself does not fit.
    pub fn move_count_bound(&self) -> u128 {
        (0..self.graph.vertex_count())
            .map(|v| {
                self.graph
                    .incident_edges(v)
                    .iter()
                    .fold(1u128, |product, &e| {
                        product.saturating_mul(u128::from(self.tokens[e]) + 1)
                    })
                    - 1
            })
            .fold(0, u128::saturating_add)
    }

    /// The number of tokens on the board.
    pub fn total_tokens(&self) -> u64 {
        self.tokens.iter().map(|&t| u64::from(t)).sum()
    }
}

/// The graph of a spec, as Edge-Nim reads it: any undirected spec, and multigraphs (an
/// `edges:` list may repeat an edge: parallel edges are separate heaps, the `k`-th copy
/// named `u-v#k`). Loops are refused: a loop at a vertex would play exactly as an edge to a
/// new leaf there.
pub fn read_graph(spec: &str) -> Result<Graph, EdgeNimError> {
    let graph = Graph::multigraph_from_spec(spec)?;
    check_undirected(&graph)?;
    Ok(graph)
}

pub(crate) fn check_undirected(graph: &Graph) -> Result<(), EdgeNimError> {
    if graph.is_directed() {
        return Err(EdgeNimError::Directed(graph.spec().to_string()));
    }
    Ok(())
}

impl Impartial for EdgeNim {
    type Move = EdgeNimMove;

    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.tokens.len() * std::mem::size_of::<u32>()
    }

    fn moves(&self) -> Vec<EdgeNimMove> {
        let mut moves = Vec::new();
        for v in 0..self.graph.vertex_count() {
            self.moves_at(v, &mut moves);
        }
        moves
    }

    fn after(&self, mv: &EdgeNimMove) -> Self {
        let mut next = self.clone();
        for &(e, count) in &mv.changes {
            next.tokens[e] = count;
        }
        next
    }

    /// The connected components of the graph formed by the edges with tokens.
    fn components(&self) -> Vec<Self> {
        let live: Vec<usize> = (0..self.tokens.len())
            .filter(|&e| self.tokens[e] > 0)
            .collect();
        let groups = self.graph.edge_components(&live);
        if groups.len() <= 1 {
            return vec![self.clone()];
        }
        groups
            .into_iter()
            .map(|group| {
                let mut tokens = vec![0; self.tokens.len()];
                for e in group {
                    tokens[e] = self.tokens[e];
                }
                EdgeNim {
                    graph: Arc::clone(&self.graph),
                    tokens,
                }
            })
            .collect()
    }
}

/// Move notation: the vertex, then the new counts of the edges it changes, e.g. `1:a=0,b=2`.
impl ImpartialNotation for EdgeNim {
    fn parse_move(&self, text: &str) -> Result<EdgeNimMove, MoveError> {
        let g = &self.graph;
        let (vertex, list) = text.trim().split_once(':').ok_or_else(|| {
            MoveError::malformed(text, "expected VERTEX:EDGE=COUNT,…, e.g. 1:a=0,b=2")
        })?;
        let v = g.vertex_index(vertex).ok_or_else(|| {
            MoveError::illegal(
                text,
                format!("there is no vertex `{}`", vertex.trim().escape_debug()),
            )
        })?;
        let mut changes: Vec<(usize, u32)> = Vec::new();
        let mut decreased = false;
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (edge, count) = item.rsplit_once('=').ok_or_else(|| {
                MoveError::malformed(text, format!("`{}` is not EDGE=COUNT", item.escape_debug()))
            })?;
            let e = g.edge_index(edge).ok_or_else(|| {
                MoveError::illegal(
                    text,
                    format!("there is no edge `{}`", edge.trim().escape_debug()),
                )
            })?;
            let count: u32 = count.trim().parse().map_err(|_| {
                MoveError::malformed(
                    text,
                    format!("`{}` is not a token count", count.trim().escape_debug()),
                )
            })?;
            if !g.incident_edges(v).contains(&e) {
                return Err(MoveError::illegal(
                    text,
                    format!(
                        "edge {} is not at vertex {}",
                        g.edge_name(e),
                        g.vertex_name(v)
                    ),
                ));
            }
            if changes.iter().any(|&(seen, _)| seen == e) {
                return Err(MoveError::malformed(
                    text,
                    format!("edge {} is named twice", g.edge_name(e)),
                ));
            }
            if count > self.tokens[e] {
                return Err(MoveError::illegal(
                    text,
                    format!(
                        "edge {} has {} tokens; a move cannot add any",
                        g.edge_name(e),
                        self.tokens[e]
                    ),
                ));
            }
            decreased |= count < self.tokens[e];
            if count < self.tokens[e] {
                changes.push((e, count));
            }
        }
        if !decreased {
            return Err(MoveError::illegal(
                text,
                "a move must remove at least one token",
            ));
        }
        changes.sort_unstable();
        Ok(EdgeNimMove { vertex: v, changes })
    }

    fn format_move(&self, mv: &EdgeNimMove) -> String {
        let changes: Vec<String> = mv
            .changes
            .iter()
            .map(|&(e, count)| format!("{}={count}", self.graph.edge_name(e)))
            .collect();
        format!(
            "{}:{}",
            self.graph.vertex_name(mv.vertex),
            changes.join(",")
        )
    }
}

/// Reads a token list: counts in edge order (`3,1,0,2,0,1`), or `EDGE=COUNT` items
/// (`a=3,b=1`; edges not named have no tokens; `*=2` gives every edge 2 before the named
/// items apply).
pub fn parse_tokens(graph: &Graph, text: &str) -> Result<Vec<u32>, EdgeNimError> {
    let text = text.trim();
    if text.contains('=') {
        let mut tokens = vec![0; graph.edge_count()];
        for (e, count) in parse_assignments(graph, text)? {
            match e {
                Some(e) => tokens[e] = count,
                None => tokens.iter_mut().for_each(|t| *t = count),
            }
        }
        return Ok(tokens);
    }
    // Each count is read before they are counted, so that `-1` is a bad count, not a
    // list one count short.
    let tokens = text
        .split([',', ' '])
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .map(parse_count)
        .collect::<Result<Vec<u32>, _>>()?;
    if tokens.len() != graph.edge_count() {
        return Err(EdgeNimError::TokenCount {
            expected: graph.edge_count(),
            found: tokens.len(),
        });
    }
    Ok(tokens)
}

/// Reads `EDGE=COUNT` items (`*` for every edge, allowed first only); `None` is `*`.
pub fn parse_assignments(
    graph: &Graph,
    text: &str,
) -> Result<Vec<(Option<usize>, u32)>, EdgeNimError> {
    let mut assignments: Vec<(Option<usize>, u32)> = Vec::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (edge, count) = item
            .rsplit_once('=')
            .ok_or_else(|| EdgeNimError::BadItem(item.to_string()))?;
        let edge = edge.trim();
        let count = parse_count(count)?;
        let e = if edge == "*" {
            if !assignments.is_empty() {
                return Err(EdgeNimError::EveryEdgeNotFirst);
            }
            None
        } else {
            let e = graph
                .edge_index(edge)
                .ok_or_else(|| EdgeNimError::UnknownEdge {
                    name: edge.to_string(),
                    edges: edge_names(graph).join(", "),
                })?;
            if assignments.iter().any(|&(seen, _)| seen == Some(e)) {
                return Err(EdgeNimError::DuplicateEdge(edge.to_string()));
            }
            Some(e)
        };
        assignments.push((e, count));
    }
    Ok(assignments)
}

fn parse_count(text: &str) -> Result<u32, EdgeNimError> {
    text.trim()
        .parse()
        .map_err(|_| EdgeNimError::BadCount(text.trim().to_string()))
}

/// The edge names in edge order (the columns of every table).
pub fn edge_names(graph: &Graph) -> Vec<String> {
    (0..graph.edge_count())
        .map(|e| graph.edge_name(e))
        .collect()
}
