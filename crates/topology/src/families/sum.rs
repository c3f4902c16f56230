//! `sum:A+B+...`: the connected sum of family boards, so that Euler Getter can be played
//! on closed surfaces other than the projective plane (the seed: any trivalent complex of
//! a surface of odd Euler characteristic), e.g. `sum:taylor:3+torus:4x4`, a torus and a
//! projective plane, which is three projective planes (the manifold seed's Theorem 1.2).
//!
//! Two boards are summed at a vertex of each: a small disc around each vertex is cut out
//! and the two circles are joined by a tube. The three edges at one vertex run on through
//! the tube into the three edges at the other, so every vertex stays trivalent, and the
//! three cells around one vertex each join a cell around the other: χ(A # B) = χ(A) + χ(B)
//! − 2 (two vertices and three edges fewer, three cells fewer). Of the ways to pair the
//! edges, the one that keeps two orientable boards orientable is taken.

use std::collections::HashMap;

use crate::BoardParts;
use crate::complex::Complex;
use crate::error::TopologyError;
use crate::families::{self, grid};
use crate::layout::{CellShape, Ghost, Layout, Summand, Tube, centroid};
use crate::text::TextStyle;

/// The most boards in one sum.
pub const MAX_SUMMANDS: usize = 6;

/// The most cells of a sum, counted from the summands' specs before any is built: as many
/// as the largest single board (torus:200x200), so that a sum costs no more to refuse.
pub const MAX_SUM_CELLS: usize = 40_000;

/// The gap between two summands' drawings, in layout units (a cell is about one across).
const GAP: f64 = 1.5;

pub(crate) fn build(spec: &str, argument: &str) -> Result<BoardParts, TopologyError> {
    let bad = |reason: String| TopologyError::BadSpec {
        spec: spec.to_string(),
        reason,
    };
    let summands: Vec<&str> = argument.split('+').map(str::trim).collect();
    if summands.len() < 2 || summands.len() > MAX_SUMMANDS {
        return Err(bad(format!(
            "a sum needs 2 to {MAX_SUMMANDS} boards joined by '+', e.g. sum:taylor:3+torus:4x4"
        )));
    }
    let mut cells = 0;
    for summand in &summands {
        if summand.is_empty() {
            return Err(bad("an empty board between '+' signs".to_string()));
        }
        cells += cell_count(summand).ok_or_else(|| {
            bad(format!(
                "{summand:?}: only taylor, goldberg, torus and klein boards can be summed"
            ))
        })??;
    }
    if cells > MAX_SUM_CELLS {
        return Err(bad(format!(
            "the boards have {cells} cells together, more than {MAX_SUM_CELLS}"
        )));
    }
    let mut sum: Option<BoardParts> = None;
    // Whether the boards so far are all orientable: of the families, only the torus is.
    let mut orientable = true;
    // The first vertex of each board, numbered as in the sum.
    let mut first_vertices = Vec::new();
    for (k, summand) in summands.iter().enumerate() {
        let mut parts = families::build(summand)?;
        parts.names = parts
            .names
            .iter()
            .map(|n| format!("{}.{n}", k + 1))
            .collect();
        orientable &= summand.starts_with("torus:");
        sum = Some(match sum {
            None => {
                first_vertices.push(0);
                if let Some(layout) = &mut parts.layout {
                    layout.summands = vec![summand_drawn(summand, layout, [0.0, 0.0])];
                }
                parts
            }
            Some(left) => join(left, parts, summand, orientable, &mut first_vertices)
                .map_err(|reason| bad(reason.to_string()))?,
        });
    }
    Ok(sum.expect("at least two summands"))
}

/// How board `spec`, drawn as `layout`, lies in the sum's drawing once moved by `offset`.
fn summand_drawn(spec: &str, layout: &Layout, offset: [f64; 2]) -> Summand {
    let [x0, y0, x1, y1] = layout.bounds;
    Summand {
        board: spec.to_string(),
        bounds: [
            x0 + offset[0],
            y0 + offset[1],
            x1 + offset[0],
            y1 + offset[1],
        ],
        offset,
        rim: layout.rim.clone(),
    }
}

/// The cells of the board `summand` names, from its spec alone; `None` for a family that
/// cannot be summed.
fn cell_count(summand: &str) -> Option<Result<usize, TopologyError>> {
    let (family, argument) = summand.split_once(':')?;
    Some(match family {
        "taylor" => {
            families::parse_size(summand, argument, families::TAYLOR_SIZES).map(|n| 3 * n * n)
        }
        "goldberg" => {
            families::parse_size(summand, argument, families::GOLDBERG_SIZES).map(|k| 5 * k * k + 1)
        }
        "torus" | "klein" => grid::parse_dimensions(summand, argument).map(|(r, c)| r * c),
        _ => return None,
    })
}

/// The connected sum of `a` and `b` (the board `b_spec`), joined at the first vertex of
/// each one's first cell; `both_orientable` says whether the sum must come out orientable.
/// `first_vertices` holds the first vertex of each board summed so far, and gains `b`'s.
fn join(
    a: BoardParts,
    b: BoardParts,
    b_spec: &str,
    both_orientable: bool,
    first_vertices: &mut Vec<u64>,
) -> Result<BoardParts, &'static str> {
    let shift = a.faces.iter().flatten().max().map_or(0, |v| v + 1);
    let b_faces: Vec<Vec<u64>> = b
        .faces
        .iter()
        .map(|face| face.iter().map(|v| v + shift).collect())
        .collect();
    let (va, vb) = (a.faces[0][0], b_faces[0][0]);
    let a_around = around(&a.faces, va).ok_or("a summand's vertex is not trivalent")?;
    let mut b_around = around(&b_faces, vb).ok_or("a summand's vertex is not trivalent")?;
    let orientable =
        |faces: &[Vec<u64>]| Complex::from_vertex_cycles(faces).is_ok_and(|c| c.is_orientable());
    let mut faces = glue(&a.faces, &b_faces, &a_around, &b_around);
    if both_orientable && !orientable(&faces) {
        // The other way round the tube: the second vertex's cells in the opposite order.
        let [(c0, f0, l0), (c1, f1, l1), (c2, f2, l2)] = b_around;
        b_around = [(c0, l0, f0), (c2, l2, f2), (c1, l1, f1)];
        faces = glue(&a.faces, &b_faces, &a_around, &b_around);
    }
    // Each of the second board's cells: a merged one is the first board's cell it joined,
    // the others follow the first board's cells in their order.
    let merged: HashMap<usize, usize> = (0..3).map(|i| (b_around[i].0, a_around[i].0)).collect();
    let kept: Vec<usize> = (0..b_faces.len())
        .filter(|c| !merged.contains_key(c))
        .collect();
    let mut index = merged.clone();
    index.extend(
        kept.iter()
            .enumerate()
            .map(|(k, &c)| (c, a.faces.len() + k)),
    );
    let new_index = |cell: usize| index[&cell];
    let mut names = a.names;
    names.extend(kept.iter().map(|&c| b.names[c].clone()));
    // The board of the sum's vertex `va`: the last whose first vertex is not above it.
    let a_summand = first_vertices.iter().rposition(|&v| v <= va).unwrap_or(0);
    first_vertices.push(shift);
    let layout = match (a.layout, b.layout) {
        (Some(left), Some(right)) => Some(side_by_side(
            left,
            right,
            b_spec,
            [a_summand, first_vertices.len() - 1],
            a_around.map(|(cell, _, _)| cell),
            new_index,
        )),
        _ => None,
    };
    Ok(BoardParts {
        faces,
        names,
        rows: Vec::new(),
        text: TextStyle::List,
        layout,
    })
}

/// The three cells around vertex `v`, each with the neighbour of `v` it meets first and
/// the one it meets last going round the cell, in the order the cells' sides meet: the
/// second cell starts where the first ends. `None` unless `v` lies on exactly three
/// cells that way.
fn around(faces: &[Vec<u64>], v: u64) -> Option<[(usize, u64, u64); 3]> {
    let mut cells = Vec::new();
    for (cell, face) in faces.iter().enumerate() {
        let n = face.len();
        for i in 0..n {
            if face[i] == v {
                cells.push((cell, face[(i + 1) % n], face[(i + n - 1) % n]));
            }
        }
    }
    if cells.len() != 3 {
        return None;
    }
    // Order the cells so that each one's last neighbour is the next one's first (a cell
    // written the other way round has them swapped).
    let mut ordered = vec![cells[0]];
    let mut rest: Vec<_> = cells[1..].to_vec();
    while !rest.is_empty() {
        let (_, _, last) = ordered[ordered.len() - 1];
        let next = rest
            .iter()
            .position(|&(_, first, end)| first == last || end == last)?;
        let (cell, first, end) = rest.remove(next);
        ordered.push(if first == last {
            (cell, first, end)
        } else {
            (cell, end, first)
        });
    }
    Some([ordered[0], ordered[1], ordered[2]])
}

/// The faces of the sum: cell `i` around the first vertex joins cell `i` around the
/// second through the tube and keeps the first one's place; the second board's other
/// cells follow the first board's, in their order.
fn glue(
    a: &[Vec<u64>],
    b: &[Vec<u64>],
    a_around: &[(usize, u64, u64); 3],
    b_around: &[(usize, u64, u64); 3],
) -> Vec<Vec<u64>> {
    let mut faces: Vec<Vec<u64>> = a.to_vec();
    // The edge from each first-board neighbour runs on through the tube into the edge to
    // the second-board neighbour in the same place of the order: `last` of cell `i` to
    // `b_last` of cell `i` (which are cell `i + 1`'s `first` and `b_first`).
    for i in 0..3 {
        let (cell, first, last) = a_around[i];
        let (other, b_first, b_last) = b_around[i];
        // The first board's cell from `first` round to `last`, without the vertex, then
        // through the tube the second board's cell from `b_last` round to `b_first`.
        let mut face = path(&a[cell], first, last);
        face.extend(path(&b[other], b_last, b_first));
        faces[cell] = face;
    }
    let merged: Vec<usize> = b_around.iter().map(|&(cell, _, _)| cell).collect();
    faces.extend(
        b.iter()
            .enumerate()
            .filter(|(c, _)| !merged.contains(c))
            .map(|(_, f)| f.clone()),
    );
    faces
}

/// The vertices of `face` from `from` to `to` along the side that does not pass the
/// vertex between them (the summed vertex, next to both).
fn path(face: &[u64], from: u64, to: u64) -> Vec<u64> {
    let n = face.len();
    let start = face
        .iter()
        .position(|&v| v == from)
        .expect("a neighbour on the face");
    let forward: Vec<u64> = (0..n).map(|k| face[(start + k) % n]).collect();
    let end = forward
        .iter()
        .position(|&v| v == to)
        .expect("a neighbour on the face");
    if end == n - 2 {
        // `from`, ..., `to`, vertex: going forward avoids it.
        forward[..=end].to_vec()
    } else {
        // `from`, vertex, `to`, ...: go the other way.
        let mut backward: Vec<u64> = (0..n).map(|k| face[(start + n - k) % n]).collect();
        backward.truncate(n - 1);
        backward
    }
}

/// The two drawings side by side, the second (board `right_spec`) to the right of the
/// first, joined by a tube between the boards `ends` (the second is the new one) through
/// the cells `tube_cells`; a merged cell is drawn in both, its second piece in the second
/// drawing.
fn side_by_side(
    left: Layout,
    right: Layout,
    right_spec: &str,
    ends: [usize; 2],
    tube_cells: [usize; 3],
    new_index: impl Fn(usize) -> usize,
) -> Layout {
    let dx = left.bounds[2] - right.bounds[0] + GAP;
    let dy = (left.bounds[1] + left.bounds[3] - right.bounds[1] - right.bounds[3]) / 2.0;
    let moved = |p: &[f64; 2]| [p[0] + dx, p[1] + dy];
    let mut summands = left.summands;
    summands.push(summand_drawn(right_spec, &right, [dx, dy]));
    let mut tubes = left.tubes;
    let mut cells = left.cells;
    let mut ghosts = left.ghosts;
    for (cell, shape) in right.cells.into_iter().enumerate() {
        let pieces: Vec<Vec<[f64; 2]>> = shape
            .pieces
            .iter()
            .map(|piece| piece.iter().map(moved).collect())
            .collect();
        let target = new_index(cell);
        if target < cells.len() {
            cells[target].pieces.extend(pieces);
        } else {
            cells.push(CellShape {
                pieces,
                center: moved(&shape.center),
            });
        }
    }
    ghosts.extend(right.ghosts.iter().map(|g| Ghost {
        cell: new_index(g.cell),
        polygon: g.polygon.iter().map(moved).collect(),
        center: moved(&g.center),
    }));
    let layout = Layout::new(cells, ghosts, Vec::new(), None);
    let at = ends.map(|board| joined_vertex(&layout, summands[board].bounds, tube_cells));
    tubes.push(Tube {
        summands: ends,
        cells: tube_cells,
        at,
    });
    Layout {
        summands,
        tubes,
        ..layout
    }
}

/// Where the vertex that `cells` surround is drawn within `bounds` (one board's drawing):
/// the corner that a piece or ghost of each of them there shares; the middle of their
/// pieces there should none be shared.
fn joined_vertex(layout: &Layout, bounds: [f64; 4], cells: [usize; 3]) -> [f64; 2] {
    let inside = |polygon: &[[f64; 2]]| {
        polygon.iter().all(|p| {
            p[0] >= bounds[0] - 1e-6
                && p[1] >= bounds[1] - 1e-6
                && p[0] <= bounds[2] + 1e-6
                && p[1] <= bounds[3] + 1e-6
        })
    };
    let corners = |cell: usize| -> Vec<[f64; 2]> {
        let ghosts = layout.ghosts.iter().filter(|g| g.cell == cell);
        layout.cells[cell]
            .pieces
            .iter()
            .chain(ghosts.map(|g| &g.polygon))
            .filter(|polygon| inside(polygon))
            .flatten()
            .copied()
            .collect()
    };
    let [first, second, third] = cells.map(corners);
    let near = |p: &[f64; 2], q: &[f64; 2]| (p[0] - q[0]).hypot(p[1] - q[1]) < 1e-6;
    first
        .iter()
        .find(|p| second.iter().any(|q| near(p, q)) && third.iter().any(|q| near(p, q)))
        .copied()
        .unwrap_or_else(|| centroid(&[first, second, third].concat()))
}
