//! The board as Euler Getter needs it: the acceptance checks, and per-cell tables that
//! make placing a stone a constant-time update of V, E and F.

use crosscap_topology::Board;

use crate::EulerGetterError;

/// A board accepted for Euler Getter, with the tables the game's hot loops read.
///
/// Cells are indexed as in the [`Board`]. For each cell the tables list its distinct
/// edges (by the cell on the other side) and its distinct vertices (by the two other
/// cell slots around it), so that a stone's new edges and vertices are found by looking
/// at a handful of neighbours only.
#[derive(Debug)]
pub struct Complex {
    board: Board,
    /// `edge_others[edge_start[c]..edge_start[c + 1]]`: per distinct edge of `c`, the
    /// cell on its other side (`c` itself when both sides are `c`).
    edge_start: Vec<u32>,
    edge_others: Vec<u32>,
    /// Per distinct vertex of `c`, the two other cell slots around it (`c` may appear
    /// there on tiny complexes).
    vertex_start: Vec<u32>,
    vertex_others: Vec<[u32; 2]>,
    /// Zobrist keys per cell and colour.
    zobrist: Vec<[u64; 2]>,
    chi: i64,
    /// `ring[ring_start[c]..ring_start[c + 1]]`: the cells across `c`'s sides in cyclic
    /// order, when every cell is a plain polygon (see [`Complex::ring`]).
    ring_start: Vec<u32>,
    ring: Vec<u32>,
    rings_exact: bool,
}

impl Complex {
    /// Accepts `board` if it is trivalent with odd Euler characteristic; the error says
    /// which condition fails.
    pub fn new(board: Board) -> Result<Complex, EulerGetterError> {
        if let Some(vertex) = (0..board.vertex_count()).find(|&v| board.vertex_cells(v).len() != 3)
        {
            return Err(EulerGetterError::NotTrivalent {
                spec: board.spec().to_string(),
                vertex,
                cells: board.vertex_cells(vertex).len(),
            });
        }
        let chi = board.euler_characteristic();
        if chi % 2 == 0 {
            return Err(EulerGetterError::EvenCharacteristic {
                spec: board.spec().to_string(),
                surface: board.surface().to_string(),
                chi,
            });
        }
        if board.cell_count() > u16::MAX as usize {
            return Err(EulerGetterError::TooLarge {
                spec: board.spec().to_string(),
                cells: board.cell_count(),
            });
        }
        let cells = board.cell_count();
        let mut edge_start = vec![0u32];
        let mut edge_others = Vec::new();
        let mut vertex_start = vec![0u32];
        let mut vertex_others = Vec::new();
        for c in 0..cells {
            let mut seen_edges: Vec<usize> = Vec::new();
            for side in board.sides(c) {
                if !seen_edges.contains(&side.edge) {
                    seen_edges.push(side.edge);
                    let [a, b] = board.edge_cells(side.edge);
                    edge_others.push(if a == c { b } else { a } as u32);
                }
            }
            edge_start.push(edge_others.len() as u32);
            let mut seen_vertices: Vec<usize> = Vec::new();
            for &v in board.cell_vertices(c) {
                if !seen_vertices.contains(&v) {
                    seen_vertices.push(v);
                    let mut around = board.vertex_cells(v).to_vec();
                    if let Some(i) = around.iter().position(|&x| x == c) {
                        around.remove(i);
                    }
                    vertex_others.push([around[0] as u32, around[1] as u32]);
                }
            }
            vertex_start.push(vertex_others.len() as u32);
        }
        let mut seed = 0x45_554c_4552u64 ^ cells as u64;
        let mut next = || {
            seed = crosscap_engine::Rng::derive(seed, 1);
            seed
        };
        let zobrist = (0..cells).map(|_| [next(), next()]).collect();
        let mut ring_start = vec![0u32];
        let mut ring = Vec::new();
        for c in 0..cells {
            ring.extend(board.sides(c).iter().map(|side| side.neighbor as u32));
            ring_start.push(ring.len() as u32);
        }
        let rings_exact = (0..cells).all(|c| is_plain_polygon(&board, c));
        Ok(Complex {
            board,
            edge_start,
            edge_others,
            vertex_start,
            vertex_others,
            zobrist,
            chi,
            ring_start,
            ring,
            rings_exact,
        })
    }

    /// The cells across `cell`'s sides in cyclic order, when every cell of the board is a
    /// plain polygon: sides on distinct edges with another cell across each, distinct
    /// vertices, and at the vertex between two consecutive sides exactly `cell` and the
    /// two distinct cells across them. Then the closure of a region meets the cell's boundary in
    /// what its ring says, which [`EulerGetter::margin_bounds`](crate::EulerGetter) reads.
    /// `None` on boards with a cell that is not (tiny complexes).
    pub(crate) fn ring(&self, cell: usize) -> Option<&[u32]> {
        self.rings_exact
            .then(|| &self.ring[self.ring_start[cell] as usize..self.ring_start[cell + 1] as usize])
    }

    /// Whether every cell is a plain polygon (see `Complex::ring`).
    pub fn rings_exact(&self) -> bool {
        self.rings_exact
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn cell_count(&self) -> usize {
        self.board.cell_count()
    }

    /// The Euler characteristic of the whole surface.
    pub fn euler_characteristic(&self) -> i64 {
        self.chi
    }

    /// For each distinct edge of `cell`, the cell on its other side.
    pub(crate) fn edge_others(&self, cell: usize) -> &[u32] {
        &self.edge_others[self.edge_start[cell] as usize..self.edge_start[cell + 1] as usize]
    }

    /// For each distinct vertex of `cell`, the two other cells around it.
    pub(crate) fn vertex_others(&self, cell: usize) -> &[[u32; 2]] {
        &self.vertex_others[self.vertex_start[cell] as usize..self.vertex_start[cell + 1] as usize]
    }

    pub(crate) fn zobrist(&self, cell: usize, colour: usize) -> u64 {
        self.zobrist[cell][colour]
    }
}

/// Whether `cell` is a plain polygon in the sense of [`Complex::ring`], with distinct
/// cells across consecutive sides (so the three cells at each of its vertices differ).
fn is_plain_polygon(board: &Board, cell: usize) -> bool {
    let sides = board.sides(cell);
    let vertices = board.cell_vertices(cell);
    let k = sides.len();
    let distinct = |items: &mut Vec<usize>| {
        items.sort_unstable();
        items.windows(2).all(|w| w[0] != w[1])
    };
    if vertices.len() != k
        || !distinct(&mut sides.iter().map(|s| s.edge).collect())
        || !distinct(&mut vertices.to_vec())
        || (0..k).any(|i| {
            let neighbor = sides[i].neighbor;
            neighbor == cell || neighbor == sides[(i + 1) % k].neighbor
        })
    {
        return false;
    }
    // Side i runs from vertex i to vertex i + 1, which it shares with side i + 1.
    (0..k).all(|i| {
        let mut around = board.vertex_cells(vertices[(i + 1) % k]).to_vec();
        let mut expected = vec![cell, sides[i].neighbor, sides[(i + 1) % k].neighbor];
        around.sort_unstable();
        expected.sort_unstable();
        around == expected
    })
}

#[cfg(test)]
mod tests {
    use crate::load_board;

    #[test]
    fn boards_of_even_characteristic_are_refused() {
        for spec in ["torus:4x4", "klein:4x4"] {
            let err = load_board(spec).unwrap_err().to_string();
            assert!(err.contains("which is even"), "{err}");
        }
    }

    #[test]
    fn boards_that_are_not_trivalent_are_refused() {
        let spec = format!(
            "file:{}/boards/four-valent.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let err = load_board(&spec).unwrap_err().to_string();
        assert!(err.contains("not trivalent: vertex"), "{err}");
    }

    #[test]
    fn odd_characteristic_boards_are_accepted() {
        let n3 = format!("file:{}/boards/n3.json", env!("CARGO_MANIFEST_DIR"));
        for (spec, chi) in [("goldberg:3", 1), ("taylor:4", 1), (n3.as_str(), -1)] {
            assert_eq!(load_board(spec).unwrap().euler_characteristic(), chi);
        }
    }
}
