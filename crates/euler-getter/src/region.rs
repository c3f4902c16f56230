//! A player's region computed from scratch: V, E, F of the closure of its cells, and the
//! human-friendly reading of its Euler characteristic, connected pieces minus loops.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use crosscap_graphs::UnionFind;
use crosscap_topology::Board;
use serde::Serialize;

/// Vertices, edges and faces of a region's closure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RegionCounts {
    pub vertices: i64,
    pub edges: i64,
    pub faces: i64,
}

impl RegionCounts {
    /// V - E + F.
    pub fn chi(&self) -> i64 {
        self.vertices - self.edges + self.faces
    }

    /// Counts the closure of the cells marked true by walking the whole board: the
    /// reference the incremental counts are tested against.
    pub fn from_scratch(board: &Board, in_region: &[bool]) -> RegionCounts {
        let vertices = (0..board.vertex_count())
            .filter(|&v| board.vertex_cells(v).iter().any(|&c| in_region[c]))
            .count();
        let edges = (0..board.edge_count())
            .filter(|&e| board.edge_cells(e).iter().any(|&c| in_region[c]))
            .count();
        let faces = in_region.iter().filter(|&&b| b).count();
        RegionCounts {
            vertices: vertices as i64,
            edges: edges as i64,
            faces: faces as i64,
        }
    }
}

/// One connected piece of a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The piece's cells, ascending.
    pub cells: Vec<usize>,
    pub chi: i64,
    /// Independent loops: the rank of H1(piece; Z2).
    pub loops: usize,
}

/// A region read the human way: `chi = components - loops` (plus one when the region is
/// the whole closed surface, whose H2 then counts too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionAnalysis {
    pub chi: i64,
    pub components: usize,
    /// The rank of H1 of the region with Z2 coefficients.
    pub loops: usize,
    pub pieces: Vec<Piece>,
}

impl RegionAnalysis {
    /// Splits the region into connected pieces (cells meeting at a vertex or an edge are
    /// connected) and counts each piece's loops from its Euler characteristic.
    pub fn of(board: &Board, in_region: &[bool]) -> RegionAnalysis {
        let cells = board.cell_count();
        let mut joined = UnionFind::new(cells);
        for v in 0..board.vertex_count() {
            let mut at_vertex = board.vertex_cells(v).iter().filter(|&&c| in_region[c]);
            if let Some(&first) = at_vertex.next() {
                for &c in at_vertex {
                    joined.union(first, c);
                }
            }
        }
        let pieces = joined.groups((0..cells).filter(|&c| in_region[c]).map(|c| (c, c)));
        let mut piece_of = vec![usize::MAX; cells];
        for (piece, members) in pieces.iter().enumerate() {
            for &c in members {
                piece_of[c] = piece;
            }
        }
        let mut counts = vec![RegionCounts::default(); pieces.len()];
        for v in 0..board.vertex_count() {
            if let Some(&c) = board.vertex_cells(v).iter().find(|&&c| in_region[c]) {
                counts[piece_of[c]].vertices += 1;
            }
        }
        for e in 0..board.edge_count() {
            if let Some(&c) = board.edge_cells(e).iter().find(|&&c| in_region[c]) {
                counts[piece_of[c]].edges += 1;
            }
        }
        let whole = pieces.iter().map(Vec::len).sum::<usize>() == cells;
        let pieces: Vec<Piece> = pieces
            .into_iter()
            .zip(&mut counts)
            .map(|(cells, count)| {
                count.faces = cells.len() as i64;
                let chi = count.chi();
                // b0 - b1 + b2 = chi with b0 = 1, and b2 = 1 only for the whole surface.
                let loops = (1 + i64::from(whole) - chi) as usize;
                Piece { cells, chi, loops }
            })
            .collect();
        RegionAnalysis {
            chi: pieces.iter().map(|p| p.chi).sum(),
            components: pieces.len(),
            loops: pieces.iter().map(|p| p.loops).sum(),
            pieces,
        }
    }
}

/// A piece's independent loops drawn as closed paths of its cells, as many as it has
/// loops: a basis of H1 of the piece's closure (Z2 coefficients), each loop a cycle of
/// cells in which consecutive cells meet (at an edge or a vertex).
///
/// The candidates are the fundamental cycles of a breadth-first spanning tree of the
/// closure's edges; those kept are independent of each other and of the cells' boundaries
/// (which bound, so are no loops), found by a spanning forest of the dual graph (a whole
/// taylor:40 board, 4,800 cells: 53 ms, where Gaussian elimination took 190 ms). Each kept cycle of
/// edges becomes the cells that carry its edges, so a path through their centres runs the
/// same way round the surface.
pub fn loop_cycles(board: &Board, piece: &Piece) -> Vec<Vec<usize>> {
    let mut in_piece = vec![false; board.cell_count()];
    for &c in &piece.cells {
        in_piece[c] = true;
    }
    // The closure's edges, numbered locally, and for each vertex the edges at it.
    let mut local = HashMap::new();
    let mut edges = Vec::new();
    for &c in &piece.cells {
        for side in board.sides(c) {
            local.entry(side.edge).or_insert_with(|| {
                edges.push(side.edge);
                edges.len() - 1
            });
        }
    }
    let ends = |e: usize| board.complex().edge_ends(edges[e]);
    let mut at_vertex: HashMap<usize, Vec<usize>> = HashMap::new();
    for e in 0..edges.len() {
        let [u, v] = ends(e);
        at_vertex.entry(u).or_default().push(e);
        if v != u {
            at_vertex.entry(v).or_default().push(e);
        }
    }
    // A breadth-first tree: each vertex's edge towards the root and its depth.
    let root = ends(0)[0];
    let mut parent: HashMap<usize, (Option<usize>, usize)> = HashMap::from([(root, (None, 0))]);
    let mut queue = VecDeque::from([root]);
    let mut tree = vec![false; edges.len()];
    while let Some(u) = queue.pop_front() {
        let depth = parent[&u].1;
        for &e in &at_vertex[&u] {
            let [a, b] = ends(e);
            let v = if a == u { b } else { a };
            if let Entry::Vacant(slot) = parent.entry(v) {
                slot.insert((Some(e), depth + 1));
                tree[e] = true;
                queue.push_back(v);
            }
        }
    }
    let up = |v: usize| {
        let e = parent[&v].0.expect("not the root");
        let [a, b] = ends(e);
        (e, if a == v { b } else { a })
    };
    // Each edge off the tree closes a cycle: the edge, then the tree paths from its ends
    // to where they meet, as a closed walk of edges.
    let mut candidates: Vec<Vec<usize>> = (0..edges.len())
        .filter(|&e| !tree[e])
        .map(|e| {
            let [mut a, mut b] = ends(e);
            let (mut from_a, mut from_b) = (vec![e], Vec::new());
            while a != b {
                if parent[&a].1 >= parent[&b].1 {
                    let (edge, next) = up(a);
                    from_a.push(edge);
                    a = next;
                } else {
                    let (edge, next) = up(b);
                    from_b.push(edge);
                    b = next;
                }
            }
            from_a.extend(from_b.into_iter().rev());
            from_a
        })
        .collect();
    // Tree-cotree: over Z2 a cycle of edges counts modulo the cells' boundaries only
    // through its edges off the tree, on which each cell's boundary is a step of the dual
    // graph (cell to cell across an edge, or to the outside across the piece's border). The
    // edges whose dual steps join no new part of a spanning forest of that graph give a
    // basis of the loops; the forest takes the longest cycles first, so the loops left are
    // short. Each cycle starts with its edge off the tree.
    let face: HashMap<usize, usize> = piece
        .cells
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i))
        .collect();
    let outside = piece.cells.len();
    let mut dual = UnionFind::new(outside + 1);
    candidates.sort_by_key(|cycle| Reverse(cycle.len()));
    let mut loops: Vec<Vec<usize>> = candidates
        .into_iter()
        .filter(|cycle| {
            let [a, b] = board
                .edge_cells(edges[cycle[0]])
                .map(|c| face.get(&c).copied().unwrap_or(outside));
            !dual.union(a, b)
        })
        .collect();
    loops.reverse();
    loops
        .into_iter()
        .map(|cycle| {
            cells_along(
                board,
                &in_piece,
                &cycle.iter().map(|&e| edges[e]).collect::<Vec<_>>(),
            )
        })
        .collect()
}

/// The cells of a piece carrying a closed walk of edges, one per edge (the previous one
/// again while it carries the next edge), without repeats in a row.
fn cells_along(board: &Board, in_piece: &[bool], walk: &[usize]) -> Vec<usize> {
    let mut cells: Vec<usize> = Vec::new();
    for &edge in walk {
        let carriers = board.edge_cells(edge);
        let mut carriers = carriers.iter().copied().filter(|&c| in_piece[c]);
        let first = carriers
            .next()
            .expect("a closure edge lies on a cell of the piece");
        let keep = cells
            .last()
            .copied()
            .filter(|&last| last == first || carriers.any(|c| c == last));
        if keep.is_none() {
            cells.push(first);
        }
    }
    while cells.len() > 1 && cells.first() == cells.last() {
        cells.pop();
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boards of every family, with the surfaces of characteristic 1 and -1.
    fn boards() -> Vec<Board> {
        let file = |name: &str| format!("file:{}/boards/{name}", env!("CARGO_MANIFEST_DIR"));
        ["goldberg:1", "goldberg:3", "taylor:3", &file("n3.json")]
            .iter()
            .map(|spec| Board::from_spec(spec).unwrap())
            .collect()
    }

    /// Regions of about half the cells, varied by `seed` (a fixed multiplicative hash).
    fn region(cells: usize, seed: u64) -> Vec<bool> {
        (0..cells as u64)
            .map(|c| c.wrapping_add(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1)
            .collect()
    }

    /// Checks that each piece has one cycle per loop, each a closed path of the piece's
    /// cells in which consecutive cells meet, and answers how many loops there were.
    fn check(board: &Board, in_region: &[bool]) -> usize {
        let analysis = RegionAnalysis::of(board, in_region);
        for piece in &analysis.pieces {
            let cycles = loop_cycles(board, piece);
            assert_eq!(
                cycles.len(),
                piece.loops,
                "{}: {:?}",
                board.spec(),
                piece.cells
            );
            for cycle in &cycles {
                assert!(cycle.iter().all(|c| piece.cells.contains(c)));
                for (i, &a) in cycle.iter().enumerate() {
                    let b = cycle[(i + 1) % cycle.len()];
                    let meet = board
                        .cell_vertices(a)
                        .iter()
                        .any(|v| board.cell_vertices(b).contains(v));
                    assert!(meet, "{}: cells {a} and {b} do not meet", board.spec());
                }
            }
        }
        analysis.loops
    }

    #[test]
    fn a_piece_with_k_loops_yields_k_closed_paths_of_its_cells() {
        let mut loops = 0;
        for board in boards() {
            for seed in 0..12 {
                loops += check(&board, &region(board.cell_count(), seed));
            }
            // The whole surface: its loops are the surface's own (H1 of the projective
            // plane has rank 1).
            let all = vec![true; board.cell_count()];
            assert_eq!(check(&board, &all), board.h1_rank());
        }
        assert!(loops > 20, "the regions had loops to draw: {loops}");
    }

    #[test]
    fn a_band_round_the_projective_plane_is_one_loop_through_its_cells() {
        let board = Board::from_spec("goldberg:1").unwrap();
        // Every cell but one: a Möbius band (the projective plane less a disc).
        let mut in_region = vec![true; board.cell_count()];
        in_region[0] = false;
        let analysis = RegionAnalysis::of(&board, &in_region);
        assert_eq!((analysis.components, analysis.loops), (1, 1));
        let cycles = loop_cycles(&board, &analysis.pieces[0]);
        assert_eq!(cycles.len(), 1);
        assert!(cycles[0].len() >= 3, "{cycles:?}");
    }
}
