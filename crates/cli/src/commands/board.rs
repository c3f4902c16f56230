//! `crosscap board`: boards on closed surfaces (the topology crate), shown as text, summarised
//! and drawn as SVG.

use std::collections::BTreeMap;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use crosscap_engine::Player;
use crosscap_topology::{Board, SvgOptions};
use serde::Serialize;

use crate::output::{Answer, Output, Table, TableFormat};

/// The board spec every `board` command takes.
#[derive(Args, Debug)]
pub struct SpecArg {
    /// taylor:N (N >= 2), goldberg:K (K >= 1), torus:RxC, klein:RxC (R even), sum:A+B (the
    /// connected sum of such boards, e.g. sum:taylor:3+torus:4x4) or file:PATH.
    spec: String,
}

impl SpecArg {
    fn board(&self) -> anyhow::Result<Board> {
        Ok(Board::from_spec(&self.spec)?)
    }
}

#[derive(Subcommand, Debug)]
pub enum BoardCommand {
    /// Draws a board as text: taylor boards in the seed's keyboard layout, torus and Klein
    /// bottle grids as rows, other boards as a list of cells and neighbours.
    Show {
        #[command(flatten)]
        spec: SpecArg,
        /// Draw the stones of this position instead of cell names (`.`, `X`, `O` per cell).
        #[arg(long)]
        position: Option<String>,
        /// Add the ghost cells beyond the rim: the cells glued to the opposite sides.
        #[arg(long)]
        ghosts: bool,
    },
    /// The surface, counts and cell order of a board.
    Info {
        #[command(flatten)]
        spec: SpecArg,
        /// Also list every cell with its neighbours (text output).
        #[arg(long)]
        cells: bool,
        /// Table format for the cell list; csv, markdown and latex print the cell list
        /// alone, so that it can be read or pasted as it is.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
    },
    /// Writes the board as an SVG picture (for a paper or a page): its flat drawing with the
    /// ghost cells beyond the edges, in the web app's colours.
    Svg {
        #[command(flatten)]
        spec: SpecArg,
        /// Colour the stones of this position.
        #[arg(long)]
        position: Option<String>,
        /// Outline these cells, by name, separated by commas or spaces (a winning loop, as
        /// `projective-hex winner` names it).
        #[arg(long)]
        mark: Option<String>,
        /// Write the picture to this file instead of standard output.
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
        /// Leave out the ghost cells beyond the rim.
        #[arg(long)]
        no_ghosts: bool,
        /// Leave out the cell names.
        #[arg(long)]
        no_labels: bool,
    },
}

#[derive(Serialize)]
struct CellInfo {
    name: String,
    sides: usize,
    neighbors: Vec<String>,
}

#[derive(Serialize)]
struct InfoReport {
    spec: String,
    surface: String,
    orientable: bool,
    euler_characteristic: i64,
    h1_rank: usize,
    vertices: usize,
    edges: usize,
    cells: usize,
    trivalent: bool,
    /// How many cells have each number of sides.
    cells_by_sides: BTreeMap<usize, usize>,
    /// Cells the 2D drawing shows in more than one piece: split at the rim (goldberg
    /// boards) or joined through a connected sum's tube (sum boards).
    split_cells: Vec<String>,
    cell_list: Vec<CellInfo>,
    /// The whole cell complex, so that anyone can recompute χ = V − E + F.
    complex: ComplexReport,
}

/// A board's cell complex in the board-file format (`file:` reads it back): each face as
/// the cycle of its vertices, numbered 0 to V − 1 once per point of the surface, so that
/// the vertices the rim of the drawing glues together share a number; and each edge with
/// its two ends and the two cells it separates.
#[derive(Serialize)]
struct ComplexReport {
    faces: Vec<Vec<usize>>,
    names: Vec<String>,
    edges: Vec<EdgeInfo>,
}

#[derive(Serialize)]
struct EdgeInfo {
    ends: [usize; 2],
    cells: [String; 2],
}

#[derive(Serialize)]
struct ShowReport {
    spec: String,
    position: Option<String>,
    to_move: Option<Player>,
    drawing: String,
}

#[derive(Serialize)]
struct SvgReport {
    spec: String,
    output: Option<String>,
    svg: Option<String>,
}

fn stones(
    board: &Board,
    position: Option<&str>,
) -> anyhow::Result<Option<(Vec<Option<Player>>, Player)>> {
    position
        .map(|text| {
            board
                .parse_position(text)
                .map(|p| (p.cells, p.to_move))
                .with_context(|| format!("position for {}", board.spec()))
        })
        .transpose()
}

fn polygon_name(sides: usize) -> String {
    match sides {
        3 => "triangles".to_string(),
        4 => "quadrilaterals".to_string(),
        5 => "pentagons".to_string(),
        6 => "hexagons".to_string(),
        7 => "heptagons".to_string(),
        8 => "octagons".to_string(),
        n => format!("{n}-gons"),
    }
}

fn info(board: &Board) -> InfoReport {
    let mut cells_by_sides = BTreeMap::new();
    let cell_list = (0..board.cell_count())
        .map(|cell| {
            let sides = board.sides(cell).len();
            *cells_by_sides.entry(sides).or_default() += 1;
            CellInfo {
                name: board.cell_name(cell).to_string(),
                sides,
                neighbors: board
                    .neighbors(cell)
                    .iter()
                    .map(|&g| board.cell_name(g).to_string())
                    .collect(),
            }
        })
        .collect();
    InfoReport {
        spec: board.spec().to_string(),
        surface: board.surface().to_string(),
        orientable: board.is_orientable(),
        euler_characteristic: board.euler_characteristic(),
        h1_rank: board.h1_rank(),
        vertices: board.vertex_count(),
        edges: board.edge_count(),
        cells: board.cell_count(),
        trivalent: board.is_trivalent(),
        cells_by_sides,
        split_cells: board
            .layout()
            .cells
            .iter()
            .enumerate()
            .filter(|(_, shape)| shape.is_split())
            .map(|(cell, _)| board.cell_name(cell).to_string())
            .collect(),
        cell_list,
        complex: ComplexReport {
            faces: (0..board.cell_count())
                .map(|cell| board.cell_vertices(cell).to_vec())
                .collect(),
            names: (0..board.cell_count())
                .map(|cell| board.cell_name(cell).to_string())
                .collect(),
            edges: (0..board.edge_count())
                .map(|edge| EdgeInfo {
                    ends: board.complex().edge_ends(edge),
                    cells: board
                        .edge_cells(edge)
                        .map(|cell| board.cell_name(cell).to_string()),
                })
                .collect(),
        },
    }
}

fn info_text(report: &InfoReport, cells: bool, format: TableFormat) -> String {
    if format != TableFormat::Text {
        return cells_table(report).render(format);
    }
    let kinds: Vec<String> = report
        .cells_by_sides
        .iter()
        .map(|(&sides, &count)| format!("{count} {}", polygon_name(sides)))
        .collect();
    let mut text = format!(
        "{}: {} ({}, Euler characteristic {})\n\
         vertices {}, edges {}, cells {} ({}); every vertex trivalent: {}\n",
        report.spec,
        report.surface,
        if report.orientable {
            "orientable"
        } else {
            "non-orientable"
        },
        report.euler_characteristic,
        report.vertices,
        report.edges,
        report.cells,
        kinds.join(", "),
        if report.trivalent { "yes" } else { "no" },
    );
    if !report.split_cells.is_empty() {
        text += &format!(
            "cells drawn in pieces (split by the rim or joined through a tube): {}\n",
            report.split_cells.join(" ")
        );
    }
    if cells {
        text += "\n";
        text += &cells_table(report).render(format);
    }
    text
}

fn cells_table(report: &InfoReport) -> Table {
    let mut table = Table::new(&["cell", "sides", "neighbors"]);
    for cell in &report.cell_list {
        table.push(vec![
            cell.name.clone(),
            cell.sides.to_string(),
            cell.neighbors.join(" "),
        ]);
    }
    table
}

pub fn run(cmd: BoardCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
        BoardCommand::Show {
            spec,
            position,
            ghosts,
        } => {
            let board = spec.board()?;
            let stones = stones(&board, position.as_deref())?;
            let drawing = board.text_drawing(stones.as_ref().map(|(c, _)| c.as_slice()), ghosts);
            let report = ShowReport {
                spec: board.spec().to_string(),
                position: stones.as_ref().map(|(c, _)| board.format_position(c)),
                to_move: stones.as_ref().map(|&(_, p)| p),
                drawing,
            };
            out.emit(&report, || {
                let mut text = report.drawing.clone();
                if let Some(player) = report.to_move {
                    text += &format!("{player} to move\n");
                }
                text
            })
        }
        BoardCommand::Info {
            spec,
            cells,
            format,
        } => {
            let board = spec.board()?;
            let report = info(&board);
            out.emit(&report, || info_text(&report, cells, format))
        }
        BoardCommand::Svg {
            spec,
            position,
            mark,
            output,
            no_ghosts,
            no_labels,
        } => {
            let board = spec.board()?;
            check_drawable(&board)?;
            let stones = stones(&board, position.as_deref())?;
            let marked = mark
                .iter()
                .flat_map(|names| names.split([',', ' ']).filter(|name| !name.is_empty()))
                .map(|name| {
                    board.cell_index(name).ok_or_else(|| {
                        anyhow::anyhow!("--mark: {} has no cell {name:?}", board.spec())
                    })
                })
                .collect::<anyhow::Result<Vec<usize>>>()?;
            let options = SvgOptions {
                ghosts: !no_ghosts,
                labels: !no_labels,
                marked,
            };
            let svg = board.svg(stones.as_ref().map(|(c, _)| c.as_slice()), &options);
            match output {
                Some(path) => {
                    std::fs::write(&path, &svg)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    let report = SvgReport {
                        spec: board.spec().to_string(),
                        output: Some(path.display().to_string()),
                        svg: None,
                    };
                    out.emit(&report, || format!("wrote {}", path.display()))
                }
                None => {
                    let report = SvgReport {
                        spec: board.spec().to_string(),
                        output: None,
                        svg: Some(svg),
                    };
                    out.emit(&report, || report.svg.clone().unwrap_or_default())
                }
            }
        }
    }
}

/// The largest coordinate `board svg` draws, in the layout's units (a cell is about 1
/// across): a board file's `"positions"` beyond it would overflow the SVG's scale.
const MAX_COORDINATE: f64 = 1e6;

/// Refuses a drawing with a coordinate that is not finite or beyond [`MAX_COORDINATE`]
/// (a board file's `"positions"` such as `[1e308, -1e308]`), which would write `inf`.
fn check_drawable(board: &Board) -> anyhow::Result<()> {
    let layout = board.layout();
    let points = layout
        .cells
        .iter()
        .flat_map(|cell| cell.pieces.iter().flatten().chain([&cell.center]));
    let out_of_range = layout
        .bounds
        .iter()
        .chain(points.flatten())
        .any(|c| !c.is_finite() || c.abs() > MAX_COORDINATE);
    if out_of_range {
        bail!(
            "{} cannot be drawn: its positions reach beyond {MAX_COORDINATE:e} from the origin",
            board.spec()
        );
    }
    Ok(())
}
