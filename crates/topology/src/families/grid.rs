//! `torus:RxC` and `klein:RxC`: R rows of C hexagons (odd rows shifted half a cell right)
//! whose left and right sides are glued, and whose top and bottom are glued straight (torus)
//! or mirrored (Klein bottle: above the top row lies the bottom row reflected left to right
//! about the centre of column 1, so a1 touches d1 and d5 on klein:4x5, a2 touches d4 and d5).
//! R must be even so that the shifted rows match across the gluing.
//! Cells are named by row letter (a = top) and 1-based column.

use std::collections::HashMap;

use super::hex::{self, CORNERS, SIDE_STEPS};
use super::row_label;
use crate::BoardParts;
use crate::error::TopologyError;

/// The largest number of rows or columns accepted.
const MAX_SIDE: usize = 200;

/// Reads `RxC`: R even and at least 2, C at least 3.
pub fn parse_dimensions(spec: &str, argument: &str) -> Result<(usize, usize), TopologyError> {
    let bad = |reason: String| TopologyError::BadSpec {
        spec: spec.to_string(),
        reason,
    };
    let (r, c) = argument
        .split_once(['x', 'X'])
        .ok_or_else(|| bad(format!("{argument:?} is not of the form RxC, e.g. 4x6")))?;
    let number = |text: &str| {
        text.trim()
            .parse::<usize>()
            .map_err(|_| bad(format!("{text:?} is not a whole number")))
    };
    let (rows, columns) = (number(r)?, number(c)?);
    if rows < 2 || rows % 2 == 1 || rows > MAX_SIDE {
        return Err(bad(format!(
            "the number of rows must be even and between 2 and {MAX_SIDE}, not {rows}"
        )));
    }
    if !(3..=MAX_SIDE).contains(&columns) {
        return Err(bad(format!(
            "the number of columns must be between 3 and {MAX_SIDE}, not {columns}"
        )));
    }
    Ok((rows, columns))
}

pub fn build(rows: usize, columns: usize, klein: bool) -> BoardParts {
    let (height, width) = (3 * rows as i64, 2 * columns as i64);
    // A grid point in the fundamental domain: y in [0, height), x in [0, width).
    let canonical = |(x, y): (i64, i64)| {
        let turns = y.div_euclid(height);
        let x = if klein && turns % 2 != 0 { -x } else { x };
        (x.rem_euclid(width), y.rem_euclid(height))
    };
    let mut centers = Vec::with_capacity(rows * columns);
    let mut names = Vec::with_capacity(rows * columns);
    let mut cell_at: HashMap<(i64, i64), usize> = HashMap::new();
    for r in 0..rows {
        for c in 0..columns {
            let at = (2 * c as i64 + (r % 2) as i64, 3 * r as i64);
            cell_at.insert(canonical(at), centers.len());
            centers.push(at);
            names.push(format!("{}{}", row_label(r), c + 1));
        }
    }
    let mut vertex_of: HashMap<(i64, i64), u64> = HashMap::new();
    let faces: Vec<Vec<u64>> = centers
        .iter()
        .map(|&(x, y)| {
            CORNERS
                .iter()
                .map(|&(dx, dy)| {
                    let next = vertex_of.len() as u64;
                    *vertex_of.entry(canonical((x + dx, y + dy))).or_insert(next)
                })
                .collect()
        })
        .collect();

    let region = hex::region(&centers);
    let mut ghosts: Vec<((i64, i64), usize)> = Vec::new();
    for &(_, f, k) in &region.rim {
        let (x, y) = centers[f];
        let slot = (x + SIDE_STEPS[k].0, y + SIDE_STEPS[k].1);
        if !ghosts.iter().any(|&(s, _)| s == slot) {
            ghosts.push((slot, cell_at[&canonical(slot)]));
        }
    }
    let (layout, text) = hex::drawing(&centers, &ghosts, &region);
    BoardParts {
        faces,
        names,
        rows: vec![columns; rows],
        text,
        layout: Some(layout),
    }
}
