//! Boards drawn as text for `crosscap board show` and for play at a terminal.

use std::collections::BTreeMap;
use std::fmt::Write;

use crosscap_engine::Player;

use crate::Board;

/// How a family's boards are drawn as text.
#[derive(Clone, Debug)]
pub(crate) enum TextStyle {
    /// Hexagon grids: each cell (and each ghost, a copy of a cell beyond the rim) at an
    /// integer grid centre, row neighbours 2 apart in x and rows 3 apart in y.
    Grid {
        cells: Vec<(i64, i64)>,
        ghosts: Vec<(usize, (i64, i64))>,
    },
    /// No planar grid: one line per cell with its neighbours.
    List,
}

fn stone(cell: Option<Player>, ghost: bool) -> String {
    match (cell, ghost) {
        (None, false) => ".",
        (None, true) => "-",
        (Some(Player::X), false) => "X",
        (Some(Player::X), true) => "x",
        (Some(Player::O), false) => "O",
        (Some(Player::O), true) => "o",
    }
    .to_string()
}

/// Cell names, or stones when `cells` is given (with `names`, the empty cells keep their
/// names, for a player to read moves off); ghosts are names with a prime, or stones in
/// lower case (`-` when empty).
pub(crate) fn draw(
    board: &Board,
    cells: Option<&[Option<Player>]>,
    ghosts: bool,
    names: bool,
) -> String {
    let name = |cell: usize, ghost: bool| {
        if ghost {
            format!("{}'", board.cell_name(cell))
        } else {
            board.cell_name(cell).to_string()
        }
    };
    let label = |cell: usize, ghost: bool| match cells.map(|c| c.get(cell).copied().flatten()) {
        Some(None) if names => name(cell, ghost),
        Some(owner) => stone(owner, ghost),
        None => name(cell, ghost),
    };
    match &board.text {
        TextStyle::Grid {
            cells: centers,
            ghosts: ghost_cells,
        } => {
            let mut items: Vec<((i64, i64), String)> = centers
                .iter()
                .enumerate()
                .map(|(cell, &at)| (at, label(cell, false)))
                .collect();
            if ghosts {
                items.extend(
                    ghost_cells
                        .iter()
                        .map(|&(cell, at)| (at, label(cell, true))),
                );
            }
            grid(&items)
        }
        TextStyle::List => {
            let mut out = String::new();
            for cell in 0..board.cell_count() {
                let neighbors: Vec<&str> = board
                    .neighbors(cell)
                    .iter()
                    .map(|&g| board.cell_name(g))
                    .collect();
                let _ = write!(out, "{}", board.cell_name(cell));
                // The name begins the line already: the stone, or `.`, follows it.
                if let Some(stones) = cells {
                    let _ = write!(
                        out,
                        " {}",
                        stone(stones.get(cell).copied().flatten(), false)
                    );
                }
                let _ = writeln!(
                    out,
                    " ({} sides): {}",
                    board.sides(cell).len(),
                    neighbors.join(" ")
                );
            }
            out
        }
    }
}

/// Labels placed on the hexagon grid, columns wide enough for the widest label.
fn grid(items: &[((i64, i64), String)]) -> String {
    let width = items
        .iter()
        .map(|(_, l)| l.chars().count())
        .max()
        .unwrap_or(1);
    let pitch = (width + 2) & !1;
    let min_x = items.iter().map(|((x, _), _)| *x).min().unwrap_or(0);
    let mut lines: BTreeMap<i64, Vec<(usize, &str)>> = BTreeMap::new();
    for ((x, y), l) in items {
        let column = (x - min_x) as usize * pitch / 2;
        lines.entry(*y).or_default().push((column, l.as_str()));
    }
    let mut out = String::new();
    for (_, mut line) in lines {
        line.sort();
        let mut text = String::new();
        for (column, l) in line {
            while text.chars().count() < column {
                text.push(' ');
            }
            text.push_str(l);
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}
