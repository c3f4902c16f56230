//! `taylor:N`: Bill Taylor's Projective Hex boards (projective-hex.txt).
//!
//! A hexagon of pointy-top hexagons with rows of N, N+1, ..., 2N, 2N-1, ..., N+1 cells
//! (3N^2 cells). Its rim, a closed zigzag of 12N edges, is glued antipodally: rim edge i to
//! rim edge i + 6N, running the same way, which lays each side of the hexagon, flipped end to
//! end, alongside its opposite side. Six rim corners then have only two cells around them;
//! they are removed (their two edges merge), which makes the six corner cells pentagons and
//! leaves every vertex trivalent. Cells are named by row letter (a = top) and 1-based column.

use crosscap_graphs::UnionFind;

use super::hex::{self, SIDE_STEPS};
use super::row_label;
use crate::BoardParts;

/// The number of cells in row `r` of `taylor:n`.
pub fn row_length(n: usize, r: usize) -> usize {
    if r <= n { n + r } else { 3 * n - r }
}

/// The grid centre of cell `(r, c)`.
fn center(n: usize, r: usize, c: usize) -> (i64, i64) {
    let (n, r, c) = (n as i64, r as i64, c as i64);
    let x = if r <= n { 2 * c - r } else { 2 * c - 2 * n + r };
    (x, 3 * r)
}

pub fn build(n: usize) -> BoardParts {
    let rows: Vec<usize> = (0..2 * n).map(|r| row_length(n, r)).collect();
    let mut centers = Vec::new();
    let mut names = Vec::new();
    for (r, &len) in rows.iter().enumerate() {
        for c in 0..len {
            centers.push(center(n, r, c));
            names.push(format!("{}{}", row_label(r), c + 1));
        }
    }
    let region = hex::region(&centers);
    let rim = &region.rim;
    let half = rim.len() / 2;

    let mut glued = UnionFind::new(region.points.len());
    for i in 0..half {
        glued.union(rim[i].0, rim[i + half].0);
    }
    let faces: Vec<Vec<usize>> = region
        .faces
        .iter()
        .map(|face| face.iter().map(|&v| glued.find(v)).collect())
        .collect();
    let mut corners = vec![0usize; region.points.len()];
    for face in &faces {
        for &v in face {
            corners[v] += 1;
        }
    }
    let faces: Vec<Vec<u64>> = faces
        .iter()
        .map(|face| {
            face.iter()
                .filter(|&&v| corners[v] != 2)
                .map(|&v| v as u64)
                .collect()
        })
        .collect();

    // Ghosts: beyond each rim side, the cell glued to it.
    let mut ghosts: Vec<((i64, i64), usize)> = Vec::new();
    for (i, &(_, f, k)) in rim.iter().enumerate() {
        let (_, across, _) = rim[(i + half) % rim.len()];
        let (x, y) = centers[f];
        let slot = (x + SIDE_STEPS[k].0, y + SIDE_STEPS[k].1);
        if !ghosts.iter().any(|&(s, _)| s == slot) {
            ghosts.push((slot, across));
        }
    }
    let (layout, text) = hex::drawing(&centers, &ghosts, &region);
    BoardParts {
        faces,
        names,
        rows,
        text,
        layout: Some(layout),
    }
}
