//! Boards as SVG pictures: the drawing `crosscap board svg` writes (and the Python
//! module's boards show).
//!
//! Cells are drawn in the web app's colours, which colour-blind eyes tell apart (Okabe and
//! Ito's palette): empty cells pale, X's in vermilion and O's in blue. Ghosts (copies of cells
//! beyond the rim) are paler with dashed outlines; the rim is a dashed line. A cell the rim
//! splits has both halves drawn; a twin half big enough for a name repeats it. Marked cells
//! (a winning loop, say) are outlined in black, every copy of them. A connected sum's boards
//! each have their rim, and a numbered ring marks where each tube leaves a board.

use std::fmt::Write;

use crosscap_engine::Player;

use crate::Board;
use crate::layout::{centroid, polygon_area};

/// What to draw besides the cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// Draw the ghost copies of cells beyond the rim.
    pub ghosts: bool,
    /// Write each cell's name in it.
    pub labels: bool,
    /// Cells to outline (every copy drawn of them), by index; an index past the board's
    /// cells outlines nothing.
    pub marked: Vec<usize>,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            ghosts: true,
            labels: true,
            marked: Vec::new(),
        }
    }
}

/// Drawing units per layout unit (cells have radius about 1).
const SCALE: f64 = 24.0;
const MARGIN: f64 = 12.0;

fn fill(stone: Option<Player>) -> &'static str {
    match stone {
        None => "#f4f1ea",
        Some(Player::X) => "#d55e00",
        Some(Player::O) => "#0072b2",
    }
}

fn points(polygon: &[[f64; 2]]) -> String {
    polygon
        .iter()
        .map(|p| format!("{:.2},{:.2}", p[0] * SCALE, p[1] * SCALE))
        .collect::<Vec<_>>()
        .join(" ")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub(crate) fn render(
    board: &Board,
    cells: Option<&[Option<Player>]>,
    options: &SvgOptions,
) -> String {
    let layout = board.layout();
    let stone = |cell: usize| cells.and_then(|c| c.get(cell).copied().flatten());
    let [x0, y0, x1, y1] = layout.bounds;
    let (width, height) = (
        (x1 - x0) * SCALE + 2.0 * MARGIN,
        (y1 - y0) * SCALE + 2.0 * MARGIN,
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{:.2} {:.2} {:.2} {:.2}" width="{:.0}" height="{:.0}">"#,
        x0 * SCALE - MARGIN,
        y0 * SCALE - MARGIN,
        width,
        height,
        width,
        height
    );
    let _ = writeln!(out, "<title>{}</title>", escape(board.spec()));
    let font = 0.55 * SCALE;
    let label = |out: &mut String, at: [f64; 2], text: &str, class: &str| {
        let _ = writeln!(
            out,
            r#"<text class="{class}" x="{:.2}" y="{:.2}" font-size="{font:.1}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif">{}</text>"#,
            at[0] * SCALE,
            at[1] * SCALE,
            escape(text)
        );
    };
    if options.ghosts {
        let _ = writeln!(out, r#"<g class="ghosts" opacity="0.45">"#);
        for ghost in &layout.ghosts {
            let _ = writeln!(
                out,
                r##"<polygon data-cell="{}" points="{}" fill="{}" stroke="#555" stroke-width="1" stroke-dasharray="3 2"/>"##,
                ghost.cell,
                points(&ghost.polygon),
                fill(stone(ghost.cell))
            );
            if options.labels {
                label(
                    &mut out,
                    ghost.center,
                    board.cell_name(ghost.cell),
                    "ghost-label",
                );
            }
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, r#"<g class="cells">"#);
    for (cell, shape) in layout.cells.iter().enumerate() {
        for piece in &shape.pieces {
            let _ = writeln!(
                out,
                r##"<polygon data-cell="{cell}" points="{}" fill="{}" stroke="#333" stroke-width="1.2"/>"##,
                points(piece),
                fill(stone(cell))
            );
        }
    }
    let _ = writeln!(out, "</g>");
    if !options.marked.is_empty() {
        let _ = writeln!(
            out,
            r##"<g class="marked" fill="none" stroke="#000" stroke-width="3.5" stroke-linejoin="round">"##
        );
        let ghosts = layout.ghosts.iter().filter(|_| options.ghosts);
        let copies = options
            .marked
            .iter()
            .filter_map(|&cell| Some((cell, layout.cells.get(cell)?)))
            .flat_map(|(cell, shape)| shape.pieces.iter().map(move |piece| (cell, piece)))
            .chain(
                ghosts
                    .filter(|ghost| options.marked.contains(&ghost.cell))
                    .map(|ghost| (ghost.cell, &ghost.polygon)),
            );
        for (cell, polygon) in copies {
            let _ = writeln!(
                out,
                r#"<polygon data-cell="{cell}" points="{}"/>"#,
                points(polygon)
            );
        }
        let _ = writeln!(out, "</g>");
    }
    for rim in layout.rims() {
        let _ = writeln!(
            out,
            r##"<polygon class="rim" points="{}" fill="none" stroke="#000" stroke-width="2.5" stroke-dasharray="8 4"/>"##,
            points(&rim)
        );
    }
    // Where each tube of a connected sum leaves each of its boards: a ring numbered with
    // the board at its other end.
    for tube in &layout.tubes {
        for (end, at) in tube.at.iter().enumerate() {
            let other = tube.summands[1 - end] + 1;
            let _ = writeln!(
                out,
                r##"<g class="tube-mouth"><title>The tube to board {other}</title><circle cx="{x:.2}" cy="{y:.2}" r="{:.1}" fill="#23303d" stroke="#fff" stroke-width="1.5"/><text x="{x:.2}" y="{y:.2}" font-size="{:.1}" fill="#fff" font-weight="bold" text-anchor="middle" dominant-baseline="central" font-family="sans-serif">{other}</text></g>"##,
                0.3 * SCALE,
                0.4 * SCALE,
                x = at[0] * SCALE,
                y = at[1] * SCALE,
            );
        }
    }
    if options.labels {
        let _ = writeln!(out, r#"<g class="labels">"#);
        for (cell, shape) in layout.cells.iter().enumerate() {
            label(&mut out, shape.center, board.cell_name(cell), "label");
            // Twin halves big enough to hold a name repeat it.
            let whole: f64 = shape.pieces.iter().map(|p| polygon_area(p)).sum();
            for twin in shape.pieces.iter().skip(1) {
                if polygon_area(twin) >= 0.3 * whole {
                    label(&mut out, centroid(twin), board.cell_name(cell), "label");
                }
            }
        }
        let _ = writeln!(out, "</g>");
    }
    out.push_str("</svg>\n");
    out
}
