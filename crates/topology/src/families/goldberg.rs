//! `goldberg:K`: the Euler Getter boards, Goldberg polyhedra on the projective plane.
//!
//! The icosahedron, with one vertex at the north pole, has each face cut into K^2 triangles
//! (the class I geodesic subdivision), pushed to the unit sphere. The dual has a cell around
//! every geodesic point, hexagons and twelve pentagons; identifying antipodal cells leaves
//! 5K^2 + 1 cells (six pentagons), 15K^2 edges and 10K^2 trivalent vertices on the projective
//! plane.
//!
//! Cell order (stable, documented): each antipodal pair is represented by the cell whose
//! centre lies in the northern hemisphere (on the equator: y > 0, or y = 0 and x > 0); cells
//! are sorted by the polar angle of that centre, ties (cells of one ring) by azimuth measured
//! counterclockwise from the x axis seen from above. Cell 1 is the pentagon at the pole. Cells
//! are named 1 to 5K^2 + 1 in that order.

use std::collections::HashMap;
use std::f64::consts::{FRAC_PI_2, TAU};

use crate::BoardParts;
use crate::layout::{CellShape, Layout, polygon_area};
use crate::text::TextStyle;

type Vec3 = [f64; 3];

fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: Vec3, s: f64) -> Vec3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: Vec3) -> Vec3 {
    scale(a, 1.0 / dot(a, a).sqrt())
}

/// The icosahedron's vertices, rotated so that the first is the north pole, and its faces
/// oriented outwards.
fn icosahedron() -> (Vec<Vec3>, Vec<[usize; 3]>) {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut vertices = Vec::with_capacity(12);
    for s1 in [1.0, -1.0] {
        for s2 in [1.0, -1.0] {
            vertices.push([0.0, s1, s2 * phi]);
            vertices.push([s1, s2 * phi, 0.0]);
            vertices.push([s2 * phi, 0.0, s1]);
        }
    }
    // Rotate about the x axis so that (0, 1, phi) goes to the pole.
    let angle = 1f64.atan2(phi);
    let (sin, cos) = angle.sin_cos();
    let vertices: Vec<Vec3> = vertices
        .iter()
        .map(|&[x, y, z]| normalize([x, y * cos - z * sin, y * sin + z * cos]))
        .collect();
    let adjacent = |a: usize, b: usize| {
        let d = sub(vertices[a], vertices[b]);
        dot(d, d) < 1.2 // edges have squared chord 1.106; non-edges 2.894 or 4
    };
    let mut faces = Vec::with_capacity(20);
    for a in 0..12 {
        for b in a + 1..12 {
            for c in b + 1..12 {
                if adjacent(a, b) && adjacent(b, c) && adjacent(a, c) {
                    let normal =
                        cross(sub(vertices[b], vertices[a]), sub(vertices[c], vertices[a]));
                    let outward =
                        dot(normal, add(add(vertices[a], vertices[b]), vertices[c])) > 0.0;
                    faces.push(if outward { [a, b, c] } else { [a, c, b] });
                }
            }
        }
    }
    (vertices, faces)
}

/// The antipode of each icosahedron vertex.
fn antipodes(vertices: &[Vec3]) -> Vec<usize> {
    vertices
        .iter()
        .map(|&v| {
            (0..vertices.len())
                .min_by(|&a, &b| {
                    let da = dot(add(vertices[a], v), add(vertices[a], v));
                    let db = dot(add(vertices[b], v), add(vertices[b], v));
                    da.total_cmp(&db)
                })
                .expect("the icosahedron has vertices")
        })
        .collect()
}

/// A geodesic point: icosahedron vertices with positive integer weights summing to K,
/// sorted by vertex, so that points shared by faces get one exact key.
type PointKey = Vec<(usize, usize)>;

fn is_north(p: Vec3) -> bool {
    const EPS: f64 = 1e-9;
    p[2] > EPS || (p[2].abs() <= EPS && (p[1] > EPS || (p[1].abs() <= EPS && p[0] > 0.0)))
}

/// Polar angle and azimuth in millionths of a radian, so that a ring's cells tie exactly.
fn order_key(p: Vec3) -> (i64, i64) {
    let polar = p[2].clamp(-1.0, 1.0).acos();
    let azimuth = p[1].atan2(p[0]).rem_euclid(TAU);
    let micro = |a: f64| (a * 1e6).round() as i64;
    (micro(polar), micro(azimuth) % micro(TAU))
}

pub fn build(k: usize) -> BoardParts {
    let (ico, ico_faces) = icosahedron();
    let ico_antipode = antipodes(&ico);

    let mut point_of: HashMap<PointKey, usize> = HashMap::new();
    let mut keys: Vec<PointKey> = Vec::new();
    let mut point_id = |weights: [(usize, usize); 3]| {
        let mut key: PointKey = weights.into_iter().filter(|&(_, w)| w > 0).collect();
        key.sort_unstable();
        let next = keys.len();
        let id = *point_of.entry(key.clone()).or_insert(next);
        if id == next {
            keys.push(key);
        }
        id
    };
    let mut triangles: Vec<[usize; 3]> = Vec::with_capacity(20 * k * k);
    for &[a, b, c] in &ico_faces {
        let mut p = |i: usize, j: usize| point_id([(a, k - i - j), (b, i), (c, j)]);
        for i in 0..k {
            for j in 0..k - i {
                triangles.push([p(i, j), p(i + 1, j), p(i, j + 1)]);
                if i + j + 2 <= k {
                    triangles.push([p(i + 1, j), p(i + 1, j + 1), p(i, j + 1)]);
                }
            }
        }
    }
    let positions: Vec<Vec3> = keys
        .iter()
        .map(|key| {
            normalize(
                key.iter()
                    .fold([0.0; 3], |acc, &(v, w)| add(acc, scale(ico[v], w as f64))),
            )
        })
        .collect();
    let antipode_point: Vec<usize> = keys
        .iter()
        .map(|key| {
            let mut image: PointKey = key.iter().map(|&(v, w)| (ico_antipode[v], w)).collect();
            image.sort_unstable();
            point_of[&image]
        })
        .collect();

    let triangle_of: HashMap<[usize; 3], usize> = triangles
        .iter()
        .enumerate()
        .map(|(t, tri)| {
            let mut sorted = *tri;
            sorted.sort_unstable();
            (sorted, t)
        })
        .collect();
    let antipode_triangle = |t: usize| {
        let mut image = triangles[t].map(|p| antipode_point[p]);
        image.sort_unstable();
        triangle_of[&image]
    };
    // Dual vertices: antipodal pairs of triangles, numbered by first appearance.
    let mut dual_vertex = vec![usize::MAX; triangles.len()];
    let mut dual_count = 0;
    for t in 0..triangles.len() {
        if dual_vertex[t] == usize::MAX {
            dual_vertex[t] = dual_count;
            dual_vertex[antipode_triangle(t)] = dual_count;
            dual_count += 1;
        }
    }
    let centroid = |t: usize| {
        let [a, b, c] = triangles[t];
        normalize(add(add(positions[a], positions[b]), positions[c]))
    };

    let mut around: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
    for (t, tri) in triangles.iter().enumerate() {
        for &p in tri {
            around[p].push(t);
        }
    }
    // Counterclockwise seen from outside the sphere.
    for (p, ts) in around.iter_mut().enumerate() {
        let normal = positions[p];
        let helper = if normal[0].abs() < 0.9 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        let e1 = normalize(cross(normal, helper));
        let e2 = cross(normal, e1);
        let angle = |t: usize| {
            let c = centroid(t);
            dot(c, e2).atan2(dot(c, e1))
        };
        ts.sort_by(|&s, &t| angle(s).total_cmp(&angle(t)));
    }

    let mut cells: Vec<usize> = (0..keys.len())
        .filter(|&p| is_north(positions[p]))
        .collect();
    cells.sort_by_key(|&p| order_key(positions[p]));

    let faces: Vec<Vec<u64>> = cells
        .iter()
        .map(|&p| around[p].iter().map(|&t| dual_vertex[t] as u64).collect())
        .collect();
    let names = (1..=cells.len()).map(|i| i.to_string()).collect();
    let sphere: Vec<Vec<Vec3>> = cells
        .iter()
        .map(|&p| around[p].iter().map(|&t| centroid(t)).collect())
        .collect();
    let layout = plane_layout(
        k,
        &cells.iter().map(|&p| positions[p]).collect::<Vec<_>>(),
        sphere,
    );
    BoardParts {
        faces,
        names,
        rows: Vec::new(),
        text: TextStyle::List,
        layout: Some(layout),
    }
}

/// The northern hemisphere in azimuthal equidistant projection, seen from above; the rim is
/// the equator, and a cell the equator cuts shows its southern half at the antipodal place.
fn plane_layout(k: usize, centers: &[Vec3], sphere: Vec<Vec<Vec3>>) -> Layout {
    // Geodesic edges subtend about 1.107 / K radians: this makes cells about 1 in radius.
    let radians_to_units = 3f64.sqrt() * k as f64 / 1.1071;
    let project = |p: Vec3| {
        let polar = p[2].clamp(-1.0, 1.0).acos();
        let azimuth = p[1].atan2(p[0]);
        let r = polar * radians_to_units;
        [r * azimuth.cos(), -r * azimuth.sin()]
    };
    let cells = sphere
        .iter()
        .zip(centers)
        .map(|(polygon, &center)| {
            let dense = densify(polygon);
            let north = clip_to_north(&dense);
            let south: Vec<Vec3> =
                clip_to_north(&dense.iter().map(|&p| scale(p, -1.0)).collect::<Vec<_>>());
            let pieces = [north, south]
                .into_iter()
                .filter(|piece| piece.len() >= 3)
                .map(|piece| piece.into_iter().map(project).collect::<Vec<_>>())
                .filter(|piece| polygon_area(piece) > 1e-6)
                .collect();
            CellShape {
                pieces,
                center: project(center),
            }
        })
        .collect();
    let rim_radius = FRAC_PI_2 * radians_to_units;
    let rim = (0..360)
        .map(|d| {
            let a = (d as f64).to_radians();
            [rim_radius * a.cos(), rim_radius * a.sin()]
        })
        .collect();
    Layout::new(cells, Vec::new(), rim, Some(sphere))
}

/// Points along each side of a spherical polygon, so that projected sides look curved.
fn densify(polygon: &[Vec3]) -> Vec<Vec3> {
    const STEPS: usize = 4;
    let mut out = Vec::with_capacity(polygon.len() * STEPS);
    for (i, &a) in polygon.iter().enumerate() {
        let b = polygon[(i + 1) % polygon.len()];
        for s in 0..STEPS {
            let t = s as f64 / STEPS as f64;
            out.push(normalize(add(a, scale(sub(b, a), t))));
        }
    }
    out
}

/// The part of a spherical polygon with z >= 0 (Sutherland-Hodgman against the equator).
fn clip_to_north(polygon: &[Vec3]) -> Vec<Vec3> {
    let mut out = Vec::new();
    for (i, &a) in polygon.iter().enumerate() {
        let b = polygon[(i + 1) % polygon.len()];
        let (a_in, b_in) = (a[2] >= 0.0, b[2] >= 0.0);
        if a_in {
            out.push(a);
        }
        if a_in != b_in {
            let t = a[2] / (a[2] - b[2]);
            let mut p = add(a, scale(sub(b, a), t));
            p[2] = 0.0;
            out.push(normalize(p));
        }
    }
    out
}
