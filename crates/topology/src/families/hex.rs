//! Pointy-top hexagons on an integer grid, shared by the taylor, torus and Klein bottle
//! boards.
//!
//! A cell's centre is at integer `(x, y)` with neighbours in a row 2 apart in x and rows 3
//! apart in y; its corners are at the offsets below, clockwise on screen (y grows down),
//! starting at the top. Side k runs from corner k to corner k + 1: upper-right, right,
//! lower-right, lower-left, left, upper-left.

use std::collections::HashMap;

use crate::layout::{CellShape, Ghost, Layout};
use crate::text::TextStyle;

/// Corner offsets of a cell, clockwise from the top.
pub const CORNERS: [(i64, i64); 6] = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)];

/// Where each side of a cell leads: the centre of the cell across it.
pub const SIDE_STEPS: [(i64, i64); 6] = [(1, -3), (2, 0), (1, 3), (-1, 3), (-2, 0), (-1, -3)];

/// Grid units to drawing units: hexagons of circumradius 1.
pub fn to_plane((x, y): (i64, i64)) -> [f64; 2] {
    [x as f64 * 3f64.sqrt() / 2.0, y as f64 / 2.0]
}

/// The hexagon around a grid centre, in drawing units.
pub fn polygon((x, y): (i64, i64)) -> Vec<[f64; 2]> {
    CORNERS
        .iter()
        .map(|&(dx, dy)| to_plane((x + dx, y + dy)))
        .collect()
}

/// A set of hexagons in the plane, before any gluing.
pub struct Region {
    /// Each cell's corners as indices into `points`, clockwise from the top.
    pub faces: Vec<Vec<usize>>,
    pub points: Vec<(i64, i64)>,
    /// The rim, clockwise: each rim side as (start point, cell, side index).
    pub rim: Vec<(usize, usize, usize)>,
}

/// The hexagons around `centers`; their union must be a disk, so its rim is one cycle.
pub fn region(centers: &[(i64, i64)]) -> Region {
    let mut point_of: HashMap<(i64, i64), usize> = HashMap::new();
    let mut points = Vec::new();
    let faces: Vec<Vec<usize>> = centers
        .iter()
        .map(|&(x, y)| {
            CORNERS
                .iter()
                .map(|&(dx, dy)| {
                    let p = (x + dx, y + dy);
                    *point_of.entry(p).or_insert_with(|| {
                        points.push(p);
                        points.len() - 1
                    })
                })
                .collect()
        })
        .collect();
    let mut side_count: HashMap<(usize, usize), usize> = HashMap::new();
    for face in &faces {
        for k in 0..6 {
            let (a, b) = (face[k], face[(k + 1) % 6]);
            *side_count.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    let mut rim_from: HashMap<usize, (usize, usize, usize)> = HashMap::new();
    for (f, face) in faces.iter().enumerate() {
        for k in 0..6 {
            let (a, b) = (face[k], face[(k + 1) % 6]);
            if side_count[&(a.min(b), a.max(b))] == 1 {
                rim_from.insert(a, (b, f, k));
            }
        }
    }
    let mut rim = Vec::new();
    if let Some(&start) = rim_from.keys().min() {
        let mut v = start;
        loop {
            let (next, f, k) = rim_from[&v];
            rim.push((v, f, k));
            v = next;
            if v == start {
                break;
            }
        }
    }
    Region { faces, points, rim }
}

/// The drawing and the text grid of hexagon cells at `centers`, with ghosts (copies of
/// cells beyond the rim, as (grid centre, cell)) and the rim.
pub fn drawing(
    centers: &[(i64, i64)],
    ghosts: &[((i64, i64), usize)],
    region: &Region,
) -> (Layout, TextStyle) {
    let layout = Layout::new(
        centers
            .iter()
            .map(|&at| CellShape {
                pieces: vec![polygon(at)],
                center: to_plane(at),
            })
            .collect(),
        ghosts
            .iter()
            .map(|&(at, cell)| Ghost {
                cell,
                polygon: polygon(at),
                center: to_plane(at),
            })
            .collect(),
        region
            .rim
            .iter()
            .map(|&(v, _, _)| to_plane(region.points[v]))
            .collect(),
        None,
    );
    let text = TextStyle::Grid {
        cells: centers.to_vec(),
        ghosts: ghosts.iter().map(|&(at, cell)| (cell, at)).collect(),
    };
    (layout, text)
}
