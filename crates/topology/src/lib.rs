//! Boards on closed surfaces: one model of the polygonal boards that Euler Getter, Projective
//! Hex and the web app play on.
//!
//! A [`Board`] is a validated cell complex of a closed connected surface (its faces are the
//! playable cells) with cell names, a row structure for position strings and a 2D layout. It
//! is built from a spec string (see [`Board::from_spec`]): `taylor:N`, `goldberg:K`,
//! `torus:RxC`, `klein:RxC`, `sum:A+B+...` (their connected sum) or `file:PATH`.
//!
//! # Example
//!
//! Build a board from its spec and read its surface and Euler characteristic, of the whole
//! surface or of a region of cells:
//!
//! ```
//! use crosscap_topology::{Board, Surface};
//!
//! let board = Board::from_spec("taylor:3").unwrap();
//! assert_eq!(board.surface(), Surface::NonOrientable { crosscaps: 1 }); // projective plane
//! assert_eq!(board.cell_count(), 27); // 3 N^2 hexagons and pentagons
//! assert_eq!(board.vertex_count() as i64 - board.edge_count() as i64 + 27, 1);
//! assert_eq!(board.euler_characteristic(), 1);
//!
//! // A region's χ counts the V, E and F of its closure: one cell's closure is a disc.
//! let mut one_cell = vec![false; board.cell_count()];
//! one_cell[board.cell_index("a1").unwrap()] = true;
//! assert_eq!(board.region_euler_characteristic(&one_cell), 1);
//!
//! assert_eq!(Board::from_spec("torus:4x6").unwrap().euler_characteristic(), 0);
//! assert!(Board::from_spec("taylor:1").is_err());
//! ```

mod complex;
mod error;
mod families;
mod layout;
mod position;
mod svg;
mod symmetry;
mod text;

use std::collections::HashMap;
use std::fmt;

use crosscap_engine::Player;
use crosscap_engine::catalog::SetupError;
use serde::Serialize;

pub use complex::{Complex, Side};
pub use error::{ComplexError, PositionError, TopologyError};
pub use families::file::{BoardFile, MAX_BOARD_FILE_BYTES};
pub use layout::{CellShape, Ghost, Layout, Summand, Tube};
pub use position::Position;
pub use svg::SvgOptions;
pub use symmetry::Symmetries;

/// A closed surface up to homeomorphism, known from orientability and Euler characteristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Surface {
    /// The orientable surface of genus g: g = 0 is the sphere, g = 1 the torus.
    Orientable { genus: u32 },
    /// The connected sum of k projective planes: k = 1 is the projective plane, 2 the Klein bottle.
    NonOrientable { crosscaps: u32 },
}

impl Surface {
    /// The surface with this orientability and Euler characteristic (`None` if no closed
    /// surface has them).
    pub fn classify(orientable: bool, euler_characteristic: i64) -> Option<Surface> {
        let deficit = 2 - euler_characteristic;
        if deficit < 0 {
            return None;
        }
        let deficit = u32::try_from(deficit).ok()?;
        if orientable {
            (deficit % 2 == 0).then_some(Surface::Orientable { genus: deficit / 2 })
        } else {
            (deficit >= 1).then_some(Surface::NonOrientable { crosscaps: deficit })
        }
    }
}

impl fmt::Display for Surface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Surface::Orientable { genus: 0 } => f.write_str("sphere"),
            Surface::Orientable { genus: 1 } => f.write_str("torus"),
            Surface::Orientable { genus } => write!(f, "genus-{genus} surface"),
            Surface::NonOrientable { crosscaps: 1 } => f.write_str("projective plane"),
            Surface::NonOrientable { crosscaps: 2 } => f.write_str("Klein bottle"),
            Surface::NonOrientable { crosscaps } => write!(f, "N{crosscaps}"),
        }
    }
}

impl Serialize for Surface {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// What a board family produces before validation.
pub(crate) struct BoardParts {
    /// Each cell's polygon as a cycle of vertex ids; the cells are in the board's cell order.
    pub faces: Vec<Vec<u64>>,
    pub names: Vec<String>,
    /// Lengths of the rows that position strings separate with `/` (one row when empty).
    pub rows: Vec<usize>,
    /// How `board show` draws the board.
    pub text: text::TextStyle,
    /// The drawing, when the family has geometry; otherwise one is computed from the complex.
    pub layout: Option<Layout>,
}

/// A validated board: a cell complex of a closed surface with cell names and a layout.
#[derive(Clone, Debug)]
pub struct Board {
    spec: String,
    complex: Complex,
    names: Vec<String>,
    index: HashMap<String, usize>,
    rows: Vec<usize>,
    text: text::TextStyle,
    layout: Layout,
}

impl Board {
    /// Builds the board a spec names: `taylor:N` (N >= 2), `goldberg:K` (K >= 1), `torus:RxC`
    /// and `klein:RxC` (R even, R >= 2, C >= 3), `sum:A+B+...` (the connected sum of 2 to 6
    /// of those boards), `file:PATH` (a JSON board file), or a board file's JSON itself
    /// (text starting with `{`), read in memory.
    ///
    /// ```
    /// use crosscap_topology::{Board, Surface};
    ///
    /// // The hemi-cube: three squares glued into the projective plane (V 4, E 6, F 3).
    /// let hemi_cube = r#"{"faces": [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1]]}"#;
    /// let board = Board::from_spec(hemi_cube).unwrap();
    /// assert_eq!((board.vertex_count(), board.edge_count(), board.cell_count()), (4, 6, 3));
    /// assert_eq!(board.surface(), Surface::NonOrientable { crosscaps: 1 });
    ///
    /// assert_eq!(Board::from_spec("klein:4x6").unwrap().euler_characteristic(), 0);
    /// assert!(!Board::from_spec("klein:4x6").unwrap().is_orientable());
    /// // A face whose edge lies on one side only is not a closed surface: refused, not a panic.
    /// assert!(Board::from_spec(r#"{"faces": [[0, 1, 2]]}"#).is_err());
    /// ```
    pub fn from_spec(spec: &str) -> Result<Board, TopologyError> {
        let spec = spec.trim();
        if spec.starts_with('{') {
            return Board::from_parts(spec, families::file::inline(spec)?);
        }
        let parts = families::build(spec)?;
        Board::from_parts(spec, parts)
    }

    /// Builds a board from a parsed board file; `spec` is what the board reports as its spec.
    pub fn from_file(spec: &str, file: &BoardFile) -> Result<Board, TopologyError> {
        Board::from_parts(spec, families::file::parts(spec, file)?)
    }

    fn from_parts(spec: &str, parts: BoardParts) -> Result<Board, TopologyError> {
        let complex = Complex::from_vertex_cycles(&parts.faces)?;
        let mut index = HashMap::with_capacity(parts.names.len());
        for (cell, name) in parts.names.iter().enumerate() {
            if index.insert(name.clone(), cell).is_some() {
                return Err(ComplexError::Names {
                    face: cell,
                    reason: format!("the name {name:?} is used twice"),
                }
                .into());
            }
        }
        let layout = match parts.layout {
            Some(layout) => layout,
            None => layout::from_complex(&complex),
        };
        let rows = if parts.rows.is_empty() {
            vec![complex.face_count()]
        } else {
            parts.rows
        };
        Ok(Board {
            spec: spec.to_string(),
            complex,
            names: parts.names,
            index,
            rows,
            text: parts.text,
            layout,
        })
    }

    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// A short name for tables and headings: the spec of a family board, a board file's
    /// name without its folder and extension, `pasted board` for a board given as JSON.
    pub fn name(&self) -> &str {
        board_name(&self.spec)
    }

    /// The underlying cell complex.
    pub fn complex(&self) -> &Complex {
        &self.complex
    }

    /// Cells are `0..cell_count()`, in the board's cell order.
    pub fn cell_count(&self) -> usize {
        self.complex.face_count()
    }

    pub fn cell_name(&self, cell: usize) -> &str {
        &self.names[cell]
    }

    pub fn cell_index(&self, name: &str) -> Option<usize> {
        self.index.get(name.trim()).copied()
    }

    /// The distinct cells other than `cell` that share an edge with it, sorted.
    pub fn neighbors(&self, cell: usize) -> &[usize] {
        self.complex.neighbors(cell)
    }

    /// One side per edge of the cell's polygon, in cyclic order.
    pub fn sides(&self, cell: usize) -> &[Side] {
        self.complex.sides(cell)
    }

    /// The polygon's vertices in cyclic order; side i runs from vertex i to vertex i + 1.
    /// A vertex may repeat on tiny complexes.
    pub fn cell_vertices(&self, cell: usize) -> &[usize] {
        self.complex.face_vertices(cell)
    }

    pub fn vertex_count(&self) -> usize {
        self.complex.vertex_count()
    }

    pub fn edge_count(&self) -> usize {
        self.complex.edge_count()
    }

    /// The cells on the two sides of an edge (equal when a cell meets itself along it).
    pub fn edge_cells(&self, edge: usize) -> [usize; 2] {
        self.complex.edge_faces(edge)
    }

    /// The cells around a vertex in cyclic order, one entry per corner (3 on trivalent boards).
    pub fn vertex_cells(&self, vertex: usize) -> &[usize] {
        self.complex.vertex_faces(vertex)
    }

    pub fn euler_characteristic(&self) -> i64 {
        self.complex.euler_characteristic()
    }

    pub fn is_orientable(&self) -> bool {
        self.complex.is_orientable()
    }

    /// True when every vertex has exactly three cells around it.
    pub fn is_trivalent(&self) -> bool {
        self.complex.is_trivalent()
    }

    pub fn surface(&self) -> Surface {
        Surface::classify(self.is_orientable(), self.euler_characteristic())
            .expect("a validated closed surface has a name")
    }

    /// The dimension of H1(S; Z2), 2 - chi: the number of bits [`Side::class`] uses.
    pub fn h1_rank(&self) -> usize {
        self.complex.h1_rank()
    }

    /// V - E + F of the closure of the union of the cells marked true (cells past the end of
    /// `in_region` count as unmarked).
    pub fn region_euler_characteristic(&self, in_region: &[bool]) -> i64 {
        self.complex.region_euler_characteristic(in_region)
    }

    /// The board's symmetries: the automorphisms of its cell complex (orientation-reversing
    /// ones included) as permutations of the cells. They keep the Euler characteristic of
    /// every region and map null-homologous loops to null-homologous loops.
    pub fn symmetries(&self) -> Symmetries {
        Symmetries::of(&self.complex)
    }

    /// Lengths of the rows position strings separate with `/`, in cell order.
    pub fn rows(&self) -> &[usize] {
        &self.rows
    }

    /// The 2D drawing (and, for goldberg boards, the cells on the sphere).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The board's drawing as hosts send it to a page: the [`Layout`] (polygons, twin
    /// halves, ghost copies beyond the rim, the sphere view of goldberg boards) with the
    /// cell names as `names`.
    pub fn drawing(&self) -> serde_json::Value {
        let mut drawing = serde_json::to_value(self.layout()).unwrap_or_default();
        drawing["names"] = self.names.iter().map(|n| serde_json::json!(n)).collect();
        drawing
    }

    /// The catalog's [`Layout`](crosscap_engine::catalog::Layout) of every game played on
    /// a board of this model: the drawing of the board `spec` names.
    pub fn drawing_of(spec: &str) -> Result<serde_json::Value, SetupError> {
        Board::from_spec(spec)
            .map(|board| board.drawing())
            .map_err(SetupError::from_error)
    }

    /// Reads a position string (see [`Position`]).
    pub fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        position::parse(self, text)
    }

    /// Writes a position string: one character per cell, rows separated by `/`.
    pub fn format_position(&self, cells: &[Option<Player>]) -> String {
        position::format(self, cells)
    }

    /// The board drawn as text; `ghosts` adds the identified cells beyond the rim where the
    /// family has them (taylor boards).
    pub fn text_drawing(&self, cells: Option<&[Option<Player>]>, ghosts: bool) -> String {
        let marks = text::Marks {
            ghosts,
            ..text::Marks::default()
        };
        text::draw(self, cells, marks)
    }

    /// The stones drawn as text with every empty cell's name in its place, so that a player
    /// at a terminal reads the moves off the board; with `colour`, the stones in the
    /// terminal's red (X) and blue (O).
    pub fn text_drawing_named(&self, cells: &[Option<Player>], colour: bool) -> String {
        let marks = text::Marks {
            names: true,
            colour,
            ..text::Marks::default()
        };
        text::draw(self, Some(cells), marks)
    }

    /// The board as an SVG picture (for a paper or a page), in the web app's colours; `cells`
    /// colours stones.
    pub fn svg(&self, cells: Option<&[Option<Player>]>, options: &SvgOptions) -> String {
        svg::render(self, cells, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surfaces_are_named_from_orientability_and_characteristic() {
        let name = |o: bool, chi: i64| Surface::classify(o, chi).map(|s| s.to_string());
        assert_eq!(name(true, 2).as_deref(), Some("sphere"));
        assert_eq!(name(true, 0).as_deref(), Some("torus"));
        assert_eq!(name(true, -2).as_deref(), Some("genus-2 surface"));
        assert_eq!(name(false, 1).as_deref(), Some("projective plane"));
        assert_eq!(name(false, 0).as_deref(), Some("Klein bottle"));
        assert_eq!(name(false, -1).as_deref(), Some("N3"));
        assert_eq!(name(true, 1), None);
        assert_eq!(name(false, 2), None);
        assert_eq!(name(true, 3), None);
    }
}

/// The name [`Board::name`] gives a spec.
pub fn board_name(spec: &str) -> &str {
    let spec = spec.trim();
    if spec.starts_with('{') {
        return "pasted board";
    }
    match spec.strip_prefix("file:") {
        Some(path) => {
            let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
            file.strip_suffix(".json").unwrap_or(file)
        }
        None => spec,
    }
}

#[cfg(test)]
mod name_tests {
    use super::board_name;

    #[test]
    fn boards_are_named_without_paths() {
        assert_eq!(board_name("taylor:3"), "taylor:3");
        assert_eq!(board_name("file:crates/euler-getter/boards/n3.json"), "n3");
        assert_eq!(board_name("file:C:\\boards\\hemi.json"), "hemi");
        assert_eq!(board_name("file:plain"), "plain");
        assert_eq!(board_name(" {\"faces\": []}"), "pasted board");
    }
}
