//! A player's region computed from scratch: V, E, F of the closure of its cells, and the
//! human-friendly reading of its Euler characteristic, connected pieces minus loops.

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
