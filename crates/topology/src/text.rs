//! Boards drawn as text for `crosscap board show` and for play at a terminal.

use std::collections::BTreeMap;
use std::fmt::Write;

use crosscap_engine::Player;
use crosscap_engine::text::painted;

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

/// What a text drawing shows besides the cells' places.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Marks {
    /// Ghosts: the identified cells beyond the rim, where the family has them.
    pub ghosts: bool,
    /// With stones, the empty cells keep their names, for a player to read moves off.
    pub names: bool,
    /// Stones in the terminal's colours (ANSI), X red and O blue as on the page.
    pub colour: bool,
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

/// Cell names, or stones when `cells` is given (see [`Marks`]); ghosts are names with a
/// prime, or stones in lower case (`-` when empty).
pub(crate) fn draw(board: &Board, cells: Option<&[Option<Player>]>, marks: Marks) -> String {
    let owner = |cell: usize| cells.and_then(|c| c.get(cell).copied().flatten());
    let name = |cell: usize, ghost: bool| {
        if ghost {
            format!("{}'", board.cell_name(cell))
        } else {
            board.cell_name(cell).to_string()
        }
    };
    let label = |cell: usize, ghost: bool| match cells.map(|_| owner(cell)) {
        Some(None) if marks.names => name(cell, ghost),
        Some(owner) => stone(owner, ghost),
        None => name(cell, ghost),
    };
    match &board.text {
        TextStyle::Grid {
            cells: centers,
            ghosts: ghost_cells,
        } => {
            let mut items: Vec<Item> = centers
                .iter()
                .enumerate()
                .map(|(cell, &at)| (at, label(cell, false), owner(cell)))
                .collect();
            if marks.ghosts {
                items.extend(
                    ghost_cells
                        .iter()
                        .map(|&(cell, at)| (at, label(cell, true), owner(cell))),
                );
            }
            grid(&items, marks.colour)
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
                if cells.is_some() {
                    let mark = stone(owner(cell), false);
                    let _ = write!(out, " {}", painted(&mark, owner(cell), marks.colour));
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

/// A label at its grid centre, with the owner of its cell (for its colour).
type Item = ((i64, i64), String, Option<Player>);

/// Labels placed on the hexagon grid, columns wide enough for the widest label (measured
/// before any colour is added).
fn grid(items: &[Item], colour: bool) -> String {
    let width = items
        .iter()
        .map(|(_, l, _)| l.chars().count())
        .max()
        .unwrap_or(1);
    let pitch = (width + 2) & !1;
    let min_x = items.iter().map(|((x, _), _, _)| *x).min().unwrap_or(0);
    let mut lines: BTreeMap<i64, Vec<(usize, &Item)>> = BTreeMap::new();
    for item in items {
        let ((x, y), _, _) = item;
        let column = (x - min_x) as usize * pitch / 2;
        lines.entry(*y).or_default().push((column, item));
    }
    let mut out = String::new();
    for (_, mut line) in lines {
        line.sort_by_key(|&(column, _)| column);
        let mut text = String::new();
        let mut shown = 0;
        for (column, (_, label, owner)) in line {
            while shown < column {
                text.push(' ');
                shown += 1;
            }
            text.push_str(&painted(label, *owner, colour));
            shown += label.chars().count();
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}
