//! The cell complex of a closed surface, built from faces given as cycles of vertex ids, and
//! everything computed from it: incidences, validation, orientability and the Z2 homology
//! class of every edge (tree-cotree).

use std::collections::{HashMap, VecDeque};

use crosscap_graphs::UnionFind;

use crate::error::ComplexError;

/// One side of a cell: the edge it lies on, the cell across it and the Z2 homology class of
/// the step across it.
///
/// `class` is a bit vector in H1(S; Z2): bit i is the i-th basis element, and only bits
/// below [`crate::Board::h1_rank`] are used. A closed chain of cells, each step through a chosen
/// side, has as class the XOR of its steps' classes. On the projective plane (and the sphere)
/// the chain is a non-contractible loop exactly when that XOR is non-zero; on other surfaces a
/// non-zero XOR proves the loop non-contractible, but some non-contractible loops (commutators)
/// have class zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Side {
    pub edge: usize,
    pub neighbor: usize,
    pub class: u64,
}

/// A validated cell complex of a closed connected surface.
#[derive(Clone, Debug)]
pub struct Complex {
    /// The id each vertex had in the input, for error messages and files.
    vertex_ids: Vec<u64>,
    /// Each face's vertices in cyclic order (compact ids).
    face_vertices: Vec<Vec<usize>>,
    /// Each face's sides in the same cyclic order: side i runs from vertex i to vertex i + 1.
    face_sides: Vec<Vec<Side>>,
    edge_ends: Vec<[usize; 2]>,
    edge_faces: Vec<[usize; 2]>,
    vertex_faces: Vec<Vec<usize>>,
    neighbors: Vec<Vec<usize>>,
    orientable: bool,
    h1_rank: usize,
}

impl Complex {
    /// Builds and validates the complex whose faces are the given cycles of vertex ids. An
    /// edge is a pair of vertices that are consecutive on some face.
    pub fn from_vertex_cycles(cycles: &[Vec<u64>]) -> Result<Complex, ComplexError> {
        if cycles.is_empty() {
            return Err(ComplexError::Empty);
        }
        let mut compact: HashMap<u64, usize> = HashMap::new();
        let mut vertex_ids = Vec::new();
        let mut face_vertices = Vec::with_capacity(cycles.len());
        for (face, cycle) in cycles.iter().enumerate() {
            if cycle.len() < 3 {
                return Err(ComplexError::TooFewSides {
                    face,
                    sides: cycle.len(),
                });
            }
            let mut vertices = Vec::with_capacity(cycle.len());
            for (i, &id) in cycle.iter().enumerate() {
                if id == cycle[(i + 1) % cycle.len()] {
                    return Err(ComplexError::LoopSide { face, vertex: id });
                }
                let next = vertex_ids.len();
                let v = *compact.entry(id).or_insert(next);
                if v == next {
                    vertex_ids.push(id);
                }
                vertices.push(v);
            }
            face_vertices.push(vertices);
        }

        // Edges, numbered in order of first appearance; each must have exactly two sides.
        let mut edge_of: HashMap<(usize, usize), usize> = HashMap::new();
        let mut edge_ends: Vec<[usize; 2]> = Vec::new();
        let mut edge_sides: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut face_edges: Vec<Vec<usize>> = Vec::with_capacity(face_vertices.len());
        for (face, vertices) in face_vertices.iter().enumerate() {
            let mut edges = Vec::with_capacity(vertices.len());
            for i in 0..vertices.len() {
                let (a, b) = (vertices[i], vertices[(i + 1) % vertices.len()]);
                let key = (a.min(b), a.max(b));
                let next = edge_ends.len();
                let e = *edge_of.entry(key).or_insert(next);
                if e == next {
                    edge_ends.push([key.0, key.1]);
                    edge_sides.push(Vec::new());
                }
                edge_sides[e].push((face, i));
                edges.push(e);
            }
            face_edges.push(edges);
        }
        for (e, sides) in edge_sides.iter().enumerate() {
            if sides.len() != 2 {
                let [a, b] = edge_ends[e];
                return Err(ComplexError::EdgeSides {
                    a: vertex_ids[a],
                    b: vertex_ids[b],
                    sides: sides.len(),
                });
            }
        }
        let edge_faces: Vec<[usize; 2]> = edge_sides.iter().map(|s| [s[0].0, s[1].0]).collect();

        let vertex_faces = vertex_cycles(&face_vertices, &face_edges, &edge_sides, &vertex_ids)?;

        let mut faces = UnionFind::new(face_vertices.len());
        for &[f, g] in &edge_faces {
            faces.union(f, g);
        }
        let components = faces.count();
        if components != 1 {
            return Err(ComplexError::Disconnected { components });
        }

        let orientable = is_orientable(&face_vertices, &edge_sides);
        let classes = edge_classes(
            vertex_ids.len(),
            face_vertices.len(),
            &edge_ends,
            &edge_faces,
        )?;
        let h1_rank = edge_ends.len() + 2 - vertex_ids.len() - face_vertices.len();

        let face_sides: Vec<Vec<Side>> = face_edges
            .iter()
            .enumerate()
            .map(|(face, edges)| {
                edges
                    .iter()
                    .map(|&edge| {
                        let [f, g] = edge_faces[edge];
                        Side {
                            edge,
                            neighbor: if f == face { g } else { f },
                            class: classes[edge],
                        }
                    })
                    .collect()
            })
            .collect();
        let neighbors = face_sides
            .iter()
            .enumerate()
            .map(|(face, sides)| {
                let mut n: Vec<usize> = sides
                    .iter()
                    .map(|s| s.neighbor)
                    .filter(|&g| g != face)
                    .collect();
                n.sort_unstable();
                n.dedup();
                n
            })
            .collect();

        Ok(Complex {
            vertex_ids,
            face_vertices,
            face_sides,
            edge_ends,
            edge_faces,
            vertex_faces,
            neighbors,
            orientable,
            h1_rank,
        })
    }

    pub fn face_count(&self) -> usize {
        self.face_vertices.len()
    }

    pub fn edge_count(&self) -> usize {
        self.edge_ends.len()
    }

    pub fn vertex_count(&self) -> usize {
        self.vertex_ids.len()
    }

    /// The id a vertex had in the input.
    pub fn vertex_id(&self, vertex: usize) -> u64 {
        self.vertex_ids[vertex]
    }

    pub fn face_vertices(&self, face: usize) -> &[usize] {
        &self.face_vertices[face]
    }

    pub fn sides(&self, face: usize) -> &[Side] {
        &self.face_sides[face]
    }

    pub fn neighbors(&self, face: usize) -> &[usize] {
        &self.neighbors[face]
    }

    pub fn edge_faces(&self, edge: usize) -> [usize; 2] {
        self.edge_faces[edge]
    }

    pub fn edge_ends(&self, edge: usize) -> [usize; 2] {
        self.edge_ends[edge]
    }

    pub fn vertex_faces(&self, vertex: usize) -> &[usize] {
        &self.vertex_faces[vertex]
    }

    pub fn euler_characteristic(&self) -> i64 {
        self.vertex_count() as i64 - self.edge_count() as i64 + self.face_count() as i64
    }

    pub fn is_orientable(&self) -> bool {
        self.orientable
    }

    pub fn is_trivalent(&self) -> bool {
        self.vertex_faces.iter().all(|f| f.len() == 3)
    }

    pub fn h1_rank(&self) -> usize {
        self.h1_rank
    }

    /// V - E + F of the closure of the union of the faces marked true.
    pub fn region_euler_characteristic(&self, in_region: &[bool]) -> i64 {
        let marked = |f: usize| in_region.get(f).copied().unwrap_or(false);
        let faces = (0..self.face_count()).filter(|&f| marked(f)).count() as i64;
        let edges = self
            .edge_faces
            .iter()
            .filter(|[f, g]| marked(*f) || marked(*g))
            .count() as i64;
        let vertices = self
            .vertex_faces
            .iter()
            .filter(|fs| fs.iter().any(|&f| marked(f)))
            .count() as i64;
        vertices - edges + faces
    }
}

/// The faces around each vertex in cyclic order (one entry per corner), checking that the
/// corners at every vertex form a single cycle.
fn vertex_cycles(
    face_vertices: &[Vec<usize>],
    face_edges: &[Vec<usize>],
    edge_sides: &[Vec<(usize, usize)>],
    vertex_ids: &[u64],
) -> Result<Vec<Vec<usize>>, ComplexError> {
    // A corner (face, i) sits at face_vertices[face][i], between sides i - 1 and i.
    let mut corners: Vec<Vec<(usize, usize)>> = vec![Vec::new(); vertex_ids.len()];
    for (face, vertices) in face_vertices.iter().enumerate() {
        for (i, &v) in vertices.iter().enumerate() {
            corners[v].push((face, i));
        }
    }
    // The corner of side (face, i) at vertex v: i itself if the side starts at v, else i + 1.
    let corner_at = |face: usize, side: usize, v: usize| {
        if face_vertices[face][side] == v {
            (face, side)
        } else {
            (face, (side + 1) % face_vertices[face].len())
        }
    };
    let mut cycles = Vec::with_capacity(vertex_ids.len());
    for (v, at_v) in corners.iter().enumerate() {
        let local: HashMap<(usize, usize), usize> =
            at_v.iter().enumerate().map(|(k, &c)| (c, k)).collect();
        // Walk: enter a corner through one of its sides, leave through the other.
        let mut seen = vec![false; at_v.len()];
        let mut order = Vec::with_capacity(at_v.len());
        let mut cycles_here = 0;
        for start in 0..at_v.len() {
            if seen[start] {
                continue;
            }
            cycles_here += 1;
            // Leave the first corner through the side that starts at it.
            let (mut face, mut exit_side) = at_v[start];
            let mut current = start;
            loop {
                seen[current] = true;
                order.push(face);
                let edge = face_edges[face][exit_side];
                let sides = &edge_sides[edge];
                let other = if sides[0] == (face, exit_side) {
                    sides[1]
                } else {
                    sides[0]
                };
                let (nf, ni) = corner_at(other.0, other.1, v);
                let next = local[&(nf, ni)];
                if seen[next] {
                    break;
                }
                // Leave the new corner through its other side.
                let m = face_vertices[nf].len();
                exit_side = if other.1 == ni { (ni + m - 1) % m } else { ni };
                face = nf;
                current = next;
            }
        }
        if cycles_here != 1 {
            return Err(ComplexError::VertexLink {
                vertex: vertex_ids[v],
                cycles: cycles_here,
            });
        }
        cycles.push(order);
    }
    Ok(cycles)
}

/// Tries to orient every face so that each edge is run in opposite directions by its sides.
fn is_orientable(face_vertices: &[Vec<usize>], edge_sides: &[Vec<(usize, usize)>]) -> bool {
    let start_of = |(f, i): (usize, usize)| face_vertices[f][i];
    // flip[e] is true when the two sides of e run the same way, so their faces must disagree.
    let mut adjacency: Vec<Vec<(usize, bool)>> = vec![Vec::new(); face_vertices.len()];
    for sides in edge_sides {
        let (s, t) = (sides[0], sides[1]);
        let same_direction = start_of(s) == start_of(t);
        if s.0 == t.0 {
            if same_direction {
                return false;
            }
            continue;
        }
        adjacency[s.0].push((t.0, same_direction));
        adjacency[t.0].push((s.0, same_direction));
    }
    let mut sign: Vec<Option<bool>> = vec![None; face_vertices.len()];
    sign[0] = Some(false);
    let mut queue = VecDeque::from([0]);
    while let Some(f) = queue.pop_front() {
        let s = sign[f].expect("queued faces are signed");
        for &(g, flip) in &adjacency[f] {
            let wanted = s ^ flip;
            match sign[g] {
                None => {
                    sign[g] = Some(wanted);
                    queue.push_back(g);
                }
                Some(existing) if existing != wanted => return false,
                Some(_) => {}
            }
        }
    }
    true
}

/// The Z2 homology class of the dual edge across every edge, by tree-cotree decomposition.
///
/// A spanning tree of the dual graph and a spanning tree of the primal graph avoiding it leave
/// `2 - chi` edges; each closes a primal cycle, and these cycles form a basis of H1(S; Z2).
/// Bit k of an edge's class is 1 when the edge lies on the k-th cycle, so the class of a closed
/// chain of cells is its vector of intersection numbers with the basis, which is zero exactly
/// when the chain is null-homologous (the intersection form is non-degenerate).
fn edge_classes(
    vertex_count: usize,
    face_count: usize,
    edge_ends: &[[usize; 2]],
    edge_faces: &[[usize; 2]],
) -> Result<Vec<u64>, ComplexError> {
    let edge_count = edge_ends.len();
    let rank = edge_count + 2 - vertex_count - face_count;
    if rank > 64 {
        return Err(ComplexError::TooManyHandles { rank });
    }
    let mut in_cotree = vec![false; edge_count];
    let mut face_edges: Vec<Vec<usize>> = vec![Vec::new(); face_count];
    for (e, &[f, g]) in edge_faces.iter().enumerate() {
        face_edges[f].push(e);
        if g != f {
            face_edges[g].push(e);
        }
    }
    let mut reached = vec![false; face_count];
    reached[0] = true;
    let mut queue = VecDeque::from([0]);
    while let Some(f) = queue.pop_front() {
        for &e in &face_edges[f] {
            let [a, b] = edge_faces[e];
            let g = if a == f { b } else { a };
            if !reached[g] {
                reached[g] = true;
                in_cotree[e] = true;
                queue.push_back(g);
            }
        }
    }

    let mut vertex_edges: Vec<Vec<usize>> = vec![Vec::new(); vertex_count];
    for (e, &[a, b]) in edge_ends.iter().enumerate() {
        if !in_cotree[e] {
            vertex_edges[a].push(e);
            vertex_edges[b].push(e);
        }
    }
    let mut parent_edge: Vec<Option<usize>> = vec![None; vertex_count];
    let mut in_tree = vec![false; edge_count];
    let mut reached = vec![false; vertex_count];
    reached[0] = true;
    let mut queue = VecDeque::from([0]);
    while let Some(v) = queue.pop_front() {
        for &e in &vertex_edges[v] {
            let [a, b] = edge_ends[e];
            let w = if a == v { b } else { a };
            if !reached[w] {
                reached[w] = true;
                in_tree[e] = true;
                parent_edge[w] = Some(e);
                queue.push_back(w);
            }
        }
    }

    let mut classes = vec![0u64; edge_count];
    let leftovers = (0..edge_count).filter(|&e| !in_tree[e] && !in_cotree[e]);
    for (bit, e) in leftovers.enumerate() {
        let mask = 1u64 << bit;
        classes[e] ^= mask;
        for start in edge_ends[e] {
            let mut v = start;
            while let Some(pe) = parent_edge[v] {
                classes[pe] ^= mask;
                let [a, b] = edge_ends[pe];
                v = if a == v { b } else { a };
            }
        }
    }
    Ok(classes)
}
