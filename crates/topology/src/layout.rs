//! Where cells are drawn: polygons in the plane (SVG coordinates, y grows downwards), the
//! copies of rim cells beyond the rim, and for goldberg boards the cells on the sphere.

use serde::Serialize;

use crate::complex::Complex;

/// The drawing of a board, shared by `crosscap board svg` and the web app.
#[derive(Clone, Debug, Serialize)]
pub struct Layout {
    /// `[min_x, min_y, max_x, max_y]` of everything drawn, ghosts included.
    pub bounds: [f64; 4],
    /// One shape per cell, in cell order.
    pub cells: Vec<CellShape>,
    /// Copies of cells drawn beyond the rim next to the cells they are glued to, so that
    /// adjacencies across the rim can be seen (taylor, torus and Klein bottle boards).
    pub ghosts: Vec<Ghost>,
    /// The rim: the closed polyline along which the drawing's sides are glued (empty when the
    /// drawing has no rim).
    pub rim: Vec<[f64; 2]>,
    /// For goldberg boards, each cell's polygon on the unit sphere (the representative in the
    /// northern hemisphere; its antipodal copy is the negation), for a rotatable sphere view.
    pub sphere: Option<Vec<Vec<[f64; 3]>>>,
    /// For a connected sum, its boards as drawn here, so that the web app can put each on
    /// its own surface in 3D (empty for any other board).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub summands: Vec<Summand>,
    /// For a connected sum, its tubes (empty for any other board).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tubes: Vec<Tube>,
}

/// One board of a connected sum in the sum's drawing.
#[derive(Clone, Debug, Serialize)]
pub struct Summand {
    /// The board's spec, e.g. `torus:4x4`.
    pub board: String,
    /// `[min_x, min_y, max_x, max_y]` of its drawing in the sum's: the pieces of cells
    /// drawn there are this board's.
    pub bounds: [f64; 4],
    /// How far its drawing was moved to lie beside the others: a point of the board's own
    /// drawing plus `offset` is where it is drawn in the sum's.
    pub offset: [f64; 2],
    /// The board's rim in its own drawing.
    pub rim: Vec<[f64; 2]>,
}

/// A tube of a connected sum: the two boards (indices into [`Layout::summands`]) whose
/// vertices it joins, the three cells around those vertices that run through it, in
/// order round the vertex, and where each of the two vertices is drawn.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Tube {
    pub summands: [usize; 2],
    pub cells: [usize; 3],
    pub at: [[f64; 2]; 2],
}

/// A cell in the plane: usually one polygon. A cell the rim cuts in two (goldberg boards,
/// where the rim is the equator) has two pieces: the first holds `center`, the second is its
/// twin half on the opposite side of the rim. A cell of a connected sum that runs through
/// the tube has a piece in each summand's drawing (its pieces there after).
#[derive(Clone, Debug, Serialize)]
pub struct CellShape {
    pub pieces: Vec<Vec<[f64; 2]>>,
    /// Where the cell's label and stone go.
    pub center: [f64; 2],
}

impl CellShape {
    /// True when the cell is drawn in more than one piece (see [`CellShape`]).
    pub fn is_split(&self) -> bool {
        self.pieces.len() > 1
    }
}

/// A copy of `cell` drawn beyond the rim.
#[derive(Clone, Debug, Serialize)]
pub struct Ghost {
    pub cell: usize,
    pub polygon: Vec<[f64; 2]>,
    pub center: [f64; 2],
}

impl Layout {
    /// The rims drawn: the layout's, or each board's of a connected sum, where that board
    /// is drawn.
    pub fn rims(&self) -> Vec<Vec<[f64; 2]>> {
        if self.summands.is_empty() {
            return [self.rim.clone()]
                .into_iter()
                .filter(|rim| !rim.is_empty())
                .collect();
        }
        self.summands
            .iter()
            .filter(|board| !board.rim.is_empty())
            .map(|board| {
                let [dx, dy] = board.offset;
                board.rim.iter().map(|p| [p[0] + dx, p[1] + dy]).collect()
            })
            .collect()
    }

    /// A layout with `bounds` computed from everything it draws.
    pub(crate) fn new(
        cells: Vec<CellShape>,
        ghosts: Vec<Ghost>,
        rim: Vec<[f64; 2]>,
        sphere: Option<Vec<Vec<[f64; 3]>>>,
    ) -> Layout {
        let mut bounds = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        let points = cells
            .iter()
            .flat_map(|c| c.pieces.iter().flatten())
            .chain(ghosts.iter().flat_map(|g| g.polygon.iter()))
            .chain(rim.iter());
        for p in points {
            bounds[0] = bounds[0].min(p[0]);
            bounds[1] = bounds[1].min(p[1]);
            bounds[2] = bounds[2].max(p[0]);
            bounds[3] = bounds[3].max(p[1]);
        }
        if !bounds[0].is_finite() {
            bounds = [0.0, 0.0, 1.0, 1.0];
        }
        Layout {
            bounds,
            cells,
            ghosts,
            rim,
            sphere,
            summands: Vec::new(),
            tubes: Vec::new(),
        }
    }
}

/// The centroid of a polygon's vertices.
pub(crate) fn centroid(points: &[[f64; 2]]) -> [f64; 2] {
    let n = points.len().max(1) as f64;
    let (x, y) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
    [x / n, y / n]
}

/// The absolute area of a plane polygon.
pub(crate) fn polygon_area(polygon: &[[f64; 2]]) -> f64 {
    let twice: f64 = (0..polygon.len())
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % polygon.len()]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum();
    twice.abs() / 2.0
}

/// A regular polygon with `sides` corners around `center`.
fn regular_polygon(center: [f64; 2], radius: f64, sides: usize) -> Vec<[f64; 2]> {
    (0..sides)
        .map(|k| {
            let angle =
                std::f64::consts::TAU * k as f64 / sides as f64 - std::f64::consts::FRAC_PI_2;
            [
                center[0] + radius * angle.cos(),
                center[1] + radius * angle.sin(),
            ]
        })
        .collect()
}

/// A drawing for a board without geometry (a board file without vertex positions): cells in
/// rings by distance from the first cell, each a regular polygon with its number of sides.
pub(crate) fn from_complex(complex: &Complex) -> Layout {
    let n = complex.face_count();
    let mut distance = vec![usize::MAX; n];
    distance[0] = 0;
    let mut order = vec![0];
    let mut head = 0;
    while head < order.len() {
        let f = order[head];
        head += 1;
        for &g in complex.neighbors(f) {
            if distance[g] == usize::MAX {
                distance[g] = distance[f] + 1;
                order.push(g);
            }
        }
    }
    let mut rings: Vec<Vec<usize>> = Vec::new();
    for &f in &order {
        let d = distance[f];
        if rings.len() <= d {
            rings.resize(d + 1, Vec::new());
        }
        rings[d].push(f);
    }
    let mut centers = vec![[0.0, 0.0]; n];
    for (d, ring) in rings.iter().enumerate() {
        // Radius grows with the ring's size so neighbouring cells in a ring do not overlap.
        let radius = (2.0 * d as f64).max(ring.len() as f64 * 2.2 / std::f64::consts::TAU);
        for (k, &f) in ring.iter().enumerate() {
            let angle = std::f64::consts::TAU * k as f64 / ring.len() as f64;
            centers[f] = if d == 0 {
                [0.0, 0.0]
            } else {
                [radius * angle.cos(), radius * angle.sin()]
            };
        }
    }
    let cells = (0..n)
        .map(|f| CellShape {
            pieces: vec![regular_polygon(centers[f], 0.9, complex.sides(f).len())],
            center: centers[f],
        })
        .collect();
    Layout::new(cells, Vec::new(), Vec::new(), None)
}
