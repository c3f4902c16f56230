//! The symmetries of a board: the combinatorial automorphisms of its cell complex (the
//! permutations of vertices, edges and faces that keep incidence), as permutations of the
//! cells.
//!
//! On a cell complex of a closed surface such an automorphism is a homeomorphism, so it
//! keeps everything both surface games look at: the V, E and F of every region's closure
//! (hence its Euler characteristic) and the homology of loops (it acts on H1(S; Z2) by a
//! linear automorphism, so a closed chain of cells has class zero exactly when its image
//! does). Orientation-reversing automorphisms are included.
//!
//! The automorphisms are found on flags: a flag is a face, one of its sides and one end of
//! that side. Three involutions step from a flag to the flag that differs only in the vertex
//! (the side's other end), the edge (the face's other side at that corner) or the face (the
//! other side of the edge, at the same vertex). An automorphism is a permutation of the flags
//! commuting with the three steps; as the flags are connected by steps, it is fixed by the
//! image of one flag, and the group acts freely on flags. So fixing a base flag and trying
//! every image by propagation along the steps finds every automorphism, in O(flags) per
//! candidate image, with no cap on the group. Colour refinement of the flags limits the
//! candidates to flags that look alike, and a candidate that the generators found so far
//! reach from the base flag (an image) or from a refused candidate (not one) is not tried:
//! a torus of 40,000 cells and 160,000 symmetries takes a fraction of a second.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

use crosscap_graphs::UnionFind;

use crate::complex::Complex;

/// Marks a flag without an image yet.
const NONE: u32 = u32::MAX;

/// The group of symmetries of a board, as permutations of its cells (the identity first).
///
/// The group is held by generators and the images of one base flag (the group acts freely
/// on flags, so these name its elements); the cell permutations are built on first use of
/// [`Symmetries::maps`], so that [`Symmetries::len`], [`Symmetries::cell_orbits`] and
/// [`Symmetries::stabiliser`] stay cheap on large boards with large groups.
#[derive(Clone)]
pub struct Symmetries {
    flags: Flags,
    /// The base flag's image under each automorphism, the base itself (the identity) first.
    elements: Vec<u32>,
    /// How many automorphisms fix every face: each cell permutation comes from this many.
    kernel: usize,
    /// Generators of the group, as cell permutations.
    generators: Vec<Vec<usize>>,
    maps: OnceLock<Vec<Vec<usize>>>,
}

impl Symmetries {
    /// Every symmetry of the complex.
    pub fn of(complex: &Complex) -> Symmetries {
        let flags = Flags::new(complex);
        let base = flags.base();
        let mut scratch = Scratch::new(flags.len());
        // Which flags are known to be images of the base flag, or known not to be.
        let mut known = vec![Known::Unknown; flags.len()];
        known[base as usize] = Known::Image;
        let mut elements = vec![base];
        let mut generators: Vec<Vec<u32>> = Vec::new();
        for target in 0..flags.len() as u32 {
            if known[target as usize] != Known::Unknown
                || flags.colour[target as usize] != flags.colour[base as usize]
            {
                continue;
            }
            if scratch.extend(&flags, base, target, |_, _| true) {
                generators.push(scratch.image.clone());
                // The base flag's orbit under the generators found so far.
                close(&mut elements, &generators, &mut known, Known::Image);
            } else {
                // No automorphism sends the base flag to `target`, hence none to any image
                // of `target` under the group found so far.
                known[target as usize] = Known::NotImage;
                close(&mut vec![target], &generators, &mut known, Known::NotImage);
            }
        }
        elements[1..].sort_unstable();
        let kernel = elements
            .iter()
            .filter(|&&target| {
                scratch.extend(&flags, base, target, |a, b| flags.face[a] == flags.face[b])
            })
            .count();
        let generators = generators.iter().map(|g| flags.cell_map(g)).collect();
        Symmetries {
            flags,
            elements,
            kernel,
            generators,
            maps: OnceLock::new(),
        }
    }

    /// The number of cells the symmetries permute.
    pub fn cell_count(&self) -> usize {
        self.flags.first.len()
    }

    /// The order of the group (distinct cell permutations).
    pub fn len(&self) -> usize {
        self.elements.len() / self.kernel
    }

    /// Never true: the identity is always a symmetry.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Every symmetry as a map from cell to image cell, each once, the identity first.
    pub fn maps(&self) -> &[Vec<usize>] {
        self.maps.get_or_init(|| self.collect(|_, _| true))
    }

    /// The classes of cells that symmetries map onto each other (the orbits), each sorted,
    /// in order of their first cell.
    pub fn cell_orbits(&self) -> Vec<Vec<usize>> {
        let cells = self.cell_count();
        let mut orbits = UnionFind::new(cells);
        for generator in &self.generators {
            for (cell, &image) in generator.iter().enumerate() {
                orbits.union(cell, image);
            }
        }
        orbits.groups((0..cells).map(|cell| (cell, cell)))
    }

    /// The symmetries that keep a colouring of the cells (`colouring[cell]`, one entry per
    /// cell), each once, the identity first. A symmetry is dropped as soon as it carries a
    /// cell to one of another colour, so this is cheap even when the group is large.
    pub fn stabiliser<T: PartialEq>(&self, colouring: &[T]) -> Vec<Vec<usize>> {
        assert_eq!(colouring.len(), self.cell_count(), "one colour per cell");
        let face = &self.flags.face;
        self.collect(|a, b| colouring[face[a] as usize] == colouring[face[b] as usize])
    }

    /// The colouring `colouring` carried by `map` (one of [`Symmetries::maps`]): the image
    /// cell `map[c]` gets the colour of cell `c`.
    pub fn image<T: Clone>(map: &[usize], colouring: &[T]) -> Vec<T> {
        let mut image = colouring.to_vec();
        for (cell, colour) in colouring.iter().enumerate() {
            image[map[cell]] = colour.clone();
        }
        image
    }

    /// The distinct cell permutations of the automorphisms whose flag map satisfies `fits`
    /// on every pair (flag, image), the identity first.
    fn collect(&self, fits: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
        let base = self.elements[0];
        let mut scratch = Scratch::new(self.flags.len());
        let mut seen = HashSet::new();
        let mut maps = Vec::new();
        for &target in &self.elements {
            if scratch.extend(&self.flags, base, target, &fits) {
                let map = self.flags.cell_map(&scratch.image);
                if self.kernel == 1 || seen.insert(map.clone()) {
                    maps.push(map);
                }
            }
        }
        maps
    }
}

impl fmt::Debug for Symmetries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Symmetries")
            .field("cells", &self.cell_count())
            .field("order", &self.len())
            .field("generators", &self.generators)
            .finish()
    }
}

/// The flags of a complex. The flag at end `t` (0 or 1) of side `j` of face `f` is number
/// `first[f] + 2 j + t`; side `j` runs from vertex `j` to vertex `j + 1` of the face.
#[derive(Clone)]
struct Flags {
    /// The three involutions: `step[0]` changes the vertex, `step[1]` the edge, `step[2]`
    /// the face.
    step: [Vec<u32>; 3],
    face: Vec<u32>,
    /// The first flag of each face.
    first: Vec<u32>,
    /// Classes of colour refinement: an automorphism keeps every flag's colour.
    colour: Vec<u64>,
}

impl Flags {
    fn new(complex: &Complex) -> Flags {
        let faces = complex.face_count();
        let mut first = Vec::with_capacity(faces);
        let mut total = 0usize;
        for f in 0..faces {
            first.push(u32::try_from(total).expect("fewer than 2^32 flags"));
            total += 2 * complex.sides(f).len();
        }
        assert!(total < NONE as usize, "fewer than 2^32 flags");
        let mut edge_sides: Vec<Vec<(usize, usize)>> = vec![Vec::new(); complex.edge_count()];
        for f in 0..faces {
            for (j, side) in complex.sides(f).iter().enumerate() {
                edge_sides[side.edge].push((f, j));
            }
        }
        let mut step = [vec![0u32; total], vec![0u32; total], vec![0u32; total]];
        let mut face = vec![0u32; total];
        let mut colour = vec![0u64; total];
        let id = |f: usize, j: usize, t: usize| first[f] + (2 * j + t) as u32;
        for f in 0..faces {
            let vertices = complex.face_vertices(f);
            let n = vertices.len();
            for (j, side) in complex.sides(f).iter().enumerate() {
                let sides = &edge_sides[side.edge];
                let (g, m) = if sides[0] == (f, j) {
                    sides[1]
                } else {
                    sides[0]
                };
                for t in 0..2 {
                    let flag = id(f, j, t) as usize;
                    let vertex = vertices[(j + t) % n];
                    face[flag] = f as u32;
                    step[0][flag] = id(f, j, 1 - t);
                    step[1][flag] = if t == 0 {
                        id(f, (j + n - 1) % n, 1)
                    } else {
                        id(f, (j + 1) % n, 0)
                    };
                    // An edge's ends are distinct vertices, so the vertex names the end.
                    let end = usize::from(complex.face_vertices(g)[m] != vertex);
                    step[2][flag] = id(g, m, end);
                    colour[flag] = mix(n as u64, complex.vertex_faces(vertex).len() as u64);
                }
            }
        }
        let mut flags = Flags {
            step,
            face,
            first,
            colour,
        };
        flags.refine();
        flags
    }

    fn len(&self) -> usize {
        self.face.len()
    }

    /// Colour refinement: a flag's next colour combines its own with those of the three
    /// flags one step away, until the number of colours stops growing.
    fn refine(&mut self) {
        let count = |colour: &[u64]| {
            let mut distinct = colour.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            distinct.len()
        };
        let mut classes = count(&self.colour);
        loop {
            let next: Vec<u64> = (0..self.len())
                .map(|flag| {
                    self.step.iter().fold(self.colour[flag], |h, step| {
                        mix(h, self.colour[step[flag] as usize])
                    })
                })
                .collect();
            let next_classes = count(&next);
            if next_classes == classes {
                break;
            }
            self.colour = next;
            classes = next_classes;
        }
    }

    /// The base flag: the first flag of the smallest colour class, the fewest candidates.
    fn base(&self) -> u32 {
        let mut classes: HashMap<u64, (usize, u32)> = HashMap::new();
        for (flag, &colour) in self.colour.iter().enumerate() {
            classes.entry(colour).or_insert((0, flag as u32)).0 += 1;
        }
        classes
            .into_values()
            .min()
            .map(|(_, flag)| flag)
            .expect("a complex has flags")
    }

    /// The cell permutation of an automorphism given as a flag permutation.
    fn cell_map(&self, image: &[u32]) -> Vec<usize> {
        self.first
            .iter()
            .map(|&flag| self.face[image[flag as usize] as usize] as usize)
            .collect()
    }
}

/// Work space for extending a flag's image to an automorphism.
struct Scratch {
    /// Each flag's image ([`NONE`] where not yet known).
    image: Vec<u32>,
    /// The flags given an image, in the order they were reached.
    reached: Vec<u32>,
}

impl Scratch {
    fn new(flags: usize) -> Scratch {
        Scratch {
            image: vec![NONE; flags],
            reached: Vec::with_capacity(flags),
        }
    }

    /// Extends `base -> target` along the steps; true when that gives an automorphism whose
    /// flag map satisfies `fits` on every pair, which is then left in `image`. Stops at the
    /// first contradiction.
    fn extend(
        &mut self,
        flags: &Flags,
        base: u32,
        target: u32,
        fits: impl Fn(usize, usize) -> bool,
    ) -> bool {
        for &flag in &self.reached {
            self.image[flag as usize] = NONE;
        }
        self.reached.clear();
        let admissible = |a: usize, b: usize| flags.colour[a] == flags.colour[b] && fits(a, b);
        if !admissible(base as usize, target as usize) {
            return false;
        }
        self.image[base as usize] = target;
        self.reached.push(base);
        let mut head = 0;
        while head < self.reached.len() {
            let flag = self.reached[head] as usize;
            let image = self.image[flag] as usize;
            head += 1;
            for step in &flags.step {
                let (next, next_image) = (step[flag], step[image]);
                match self.image[next as usize] {
                    NONE => {
                        if !admissible(next as usize, next_image as usize) {
                            return false;
                        }
                        self.image[next as usize] = next_image;
                        self.reached.push(next);
                    }
                    known if known != next_image => return false,
                    _ => {}
                }
            }
        }
        true
    }
}

/// What the search knows of a flag: whether an automorphism sends the base flag to it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    Unknown,
    Image,
    NotImage,
}

/// Extends `orbit` (flags marked `mark`) to its closure under the generators, marking the
/// flags it adds.
fn close(orbit: &mut Vec<u32>, generators: &[Vec<u32>], known: &mut [Known], mark: Known) {
    let mut head = 0;
    while head < orbit.len() {
        let flag = orbit[head] as usize;
        head += 1;
        for generator in generators {
            let image = generator[flag];
            if known[image as usize] != mark {
                known[image as usize] = mark;
                orbit.push(image);
            }
        }
    }
}

/// Combines two values into a well-spread 64-bit hash.
fn mix(a: u64, b: u64) -> u64 {
    let mut h = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(31)
        .wrapping_add(b)
        .wrapping_add(0x632B_E59B_D9B4_E019);
    h ^= h >> 30;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crosscap_engine::Rng;

    /// An automorphism with its maps of faces, edges and vertices.
    struct Automorphism {
        faces: Vec<usize>,
        edges: Vec<usize>,
        vertices: Vec<usize>,
    }

    /// Every automorphism of the complex (those fixing every face included), checking that
    /// its flag map sends the flags of one edge (vertex) to the flags of one edge (vertex).
    fn automorphisms(complex: &Complex, symmetries: &Symmetries) -> Vec<Automorphism> {
        let flags = &symmetries.flags;
        let (mut edge, mut vertex) = (vec![0; flags.len()], vec![0; flags.len()]);
        for f in 0..complex.face_count() {
            let vertices = complex.face_vertices(f);
            for (j, side) in complex.sides(f).iter().enumerate() {
                for t in 0..2 {
                    let flag = flags.first[f] as usize + 2 * j + t;
                    edge[flag] = side.edge;
                    vertex[flag] = vertices[(j + t) % vertices.len()];
                }
            }
        }
        let induced = |image: &[u32], of: &[usize], count: usize| {
            let mut map = vec![usize::MAX; count];
            for (flag, &to) in image.iter().enumerate() {
                let target = of[to as usize];
                assert!(map[of[flag]] == usize::MAX || map[of[flag]] == target);
                map[of[flag]] = target;
            }
            map
        };
        let mut scratch = Scratch::new(flags.len());
        let base = symmetries.elements[0];
        symmetries
            .elements
            .iter()
            .map(|&target| {
                assert!(scratch.extend(flags, base, target, |_, _| true));
                Automorphism {
                    faces: flags.cell_map(&scratch.image),
                    edges: induced(&scratch.image, &edge, complex.edge_count()),
                    vertices: induced(&scratch.image, &vertex, complex.vertex_count()),
                }
            })
            .collect()
    }

    /// Whether two cyclic sequences are equal up to rotation and reflection.
    fn same_cycle(a: &[usize], b: &[usize]) -> bool {
        let n = a.len();
        let reversed: Vec<usize> = b.iter().rev().copied().collect();
        n == b.len()
            && (0..n).any(|r| {
                let rotated = |c: &[usize]| (0..n).all(|i| a[i] == c[(i + r) % n]);
                rotated(b) || rotated(&reversed)
            })
    }

    const BOARDS: [&str; 9] = [
        "taylor:2",
        "taylor:3",
        "goldberg:1",
        "goldberg:2",
        "goldberg:3",
        "torus:2x3",
        "torus:4x4",
        "klein:2x3",
        "klein:6x4",
    ];

    fn complexes() -> Vec<(String, Complex)> {
        let mut complexes: Vec<(String, Complex)> = BOARDS
            .iter()
            .map(|spec| (spec.to_string(), Board::from_spec(spec).unwrap().complex))
            .collect();
        complexes.push(("hemi-prism".into(), hemi_prism()));
        complexes
    }

    /// A projective plane of a hexagon and three quadrilaterals, each meeting the hexagon
    /// along two sides; its group is S3 on the quadrilaterals.
    fn hemi_prism() -> Complex {
        Complex::from_vertex_cycles(&[
            vec![0, 1, 2, 3, 4, 5],
            vec![0, 1, 4, 3],
            vec![1, 2, 5, 4],
            vec![2, 3, 0, 5],
        ])
        .unwrap()
    }

    #[test]
    fn groups_have_the_orders_of_the_boards() {
        for (spec, order) in [
            ("taylor:2", 6),
            ("taylor:3", 6),
            ("taylor:5", 6),
            // The rotations of the icosahedron: its full group modulo the antipodal map.
            ("goldberg:1", 60),
            ("goldberg:2", 60),
            ("goldberg:4", 60),
            ("torus:2x3", 12),
            ("torus:4x3", 48),
            ("torus:6x6", 144),
            ("klein:2x3", 8),
            ("klein:4x4", 16),
            ("klein:6x6", 24),
        ] {
            let symmetries = Board::from_spec(spec).unwrap().symmetries();
            assert_eq!(symmetries.len(), order, "{spec}");
            assert_eq!(symmetries.maps().len(), order, "{spec}");
        }
        assert_eq!(Symmetries::of(&hemi_prism()).len(), 6);
    }

    #[test]
    fn automorphisms_fixing_every_face_are_counted_once() {
        // Two triangles glued into a sphere: the six symmetries of a triangle fix both faces,
        // and six more swap them.
        let complex = Complex::from_vertex_cycles(&[vec![1, 2, 3], vec![1, 2, 3]]).unwrap();
        let symmetries = Symmetries::of(&complex);
        assert_eq!(symmetries.elements.len(), 12);
        assert_eq!(symmetries.len(), 2);
        assert_eq!(symmetries.maps(), [vec![0, 1], vec![1, 0]]);
        assert_eq!(symmetries.stabiliser(&[true, false]), [vec![0, 1]]);
        assert_eq!(symmetries.cell_orbits(), [vec![0, 1]]);
    }

    #[test]
    fn automorphisms_keep_the_incidences_of_edges_and_vertices() {
        let sorted = |mut pair: [usize; 2]| {
            pair.sort_unstable();
            pair
        };
        for (spec, complex) in complexes() {
            for a in automorphisms(&complex, &Symmetries::of(&complex)) {
                for e in 0..complex.edge_count() {
                    let [f, g] = complex.edge_faces(e);
                    let [u, v] = complex.edge_ends(e);
                    let image = a.edges[e];
                    assert_eq!(
                        sorted([a.faces[f], a.faces[g]]),
                        sorted(complex.edge_faces(image)),
                        "{spec}"
                    );
                    assert_eq!(
                        sorted([a.vertices[u], a.vertices[v]]),
                        sorted(complex.edge_ends(image)),
                        "{spec}"
                    );
                }
                for v in 0..complex.vertex_count() {
                    let around: Vec<usize> = complex
                        .vertex_faces(v)
                        .iter()
                        .map(|&f| a.faces[f])
                        .collect();
                    let image = complex.vertex_faces(a.vertices[v]);
                    assert!(same_cycle(&around, image), "{spec}");
                }
            }
        }
    }

    /// Reduces `x` by a basis kept sorted in decreasing order (distinct leading bits) and
    /// adds what is left; returns whether the rank grew.
    fn insert(basis: &mut Vec<u128>, x: u128) -> bool {
        let x = basis.iter().fold(x, |x, &b| x.min(x ^ b));
        if x != 0 {
            basis.push(x);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
        x != 0
    }

    /// The rank of the span of the classes of closed chains of cells inside the region.
    fn loop_rank(complex: &Complex, in_region: &[bool]) -> usize {
        let mut potential: Vec<Option<u64>> = vec![None; complex.face_count()];
        let mut basis = Vec::new();
        for start in (0..complex.face_count()).filter(|&c| in_region[c]) {
            if potential[start].is_some() {
                continue;
            }
            potential[start] = Some(0);
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                let p = potential[c].expect("cells on the stack have a potential");
                for side in complex.sides(c).iter().filter(|s| in_region[s.neighbor]) {
                    match potential[side.neighbor] {
                        None => {
                            potential[side.neighbor] = Some(p ^ side.class);
                            stack.push(side.neighbor);
                        }
                        Some(q) => {
                            insert(&mut basis, u128::from(p ^ side.class ^ q));
                        }
                    }
                }
            }
        }
        basis.len()
    }

    /// The edges crossed by a closed walk of cells: a random walk of at least `steps` steps,
    /// stopped on coming back to a cell it has visited, from that cell's first visit on.
    fn closed_walk(complex: &Complex, steps: usize, rng: &mut Rng) -> Vec<usize> {
        let mut cell = rng.below(complex.face_count());
        let mut first_visit = HashMap::from([(cell, 0)]);
        let mut edges = Vec::new();
        loop {
            let sides = complex.sides(cell);
            let side = sides[rng.below(sides.len())];
            edges.push(side.edge);
            cell = side.neighbor;
            match first_visit.get(&cell) {
                Some(&i) if edges.len() >= steps => return edges.split_off(i),
                Some(_) => {}
                None => {
                    first_visit.insert(cell, edges.len());
                }
            }
        }
    }

    /// The class of a closed chain crossing these edges.
    fn class_of(complex: &Complex, edges: impl Iterator<Item = usize>) -> u64 {
        edges.fold(0, |k, e| {
            let [f, _] = complex.edge_faces(e);
            let side = complex.sides(f).iter().find(|s| s.edge == e).unwrap();
            k ^ side.class
        })
    }

    #[test]
    fn automorphisms_keep_homology() {
        let mut rng = Rng::new(11);
        for (spec, complex) in complexes() {
            for a in automorphisms(&complex, &Symmetries::of(&complex)) {
                // The classes of closed chains and of their images correspond by a linear
                // bijection of H1(S; Z2): the pairs (class, image class) span a space of the
                // rank of either side, the whole of H1; on the projective plane it is the
                // identity.
                let (mut before, mut after, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
                for steps in 1..120 {
                    let walk = closed_walk(&complex, steps, &mut rng);
                    let k = class_of(&complex, walk.iter().copied());
                    let image = class_of(&complex, walk.iter().map(|&e| a.edges[e]));
                    insert(&mut before, u128::from(k));
                    insert(&mut after, u128::from(image));
                    insert(&mut pairs, u128::from(k) | u128::from(image) << 64);
                    if complex.h1_rank() == 1 {
                        assert_eq!(k, image, "{spec}");
                    }
                }
                assert_eq!(before.len(), complex.h1_rank(), "{spec}");
                assert_eq!(after.len(), complex.h1_rank(), "{spec}");
                assert_eq!(pairs.len(), complex.h1_rank(), "{spec}");
                // So a region holds a loop of each class exactly when its image holds one
                // of the image class: the ranks of the regions' loop classes agree.
                for _ in 0..10 {
                    let region: Vec<bool> = (0..complex.face_count())
                        .map(|_| rng.below(2) == 0)
                        .collect();
                    let image = Symmetries::image(&a.faces, &region);
                    let other = |r: &[bool]| r.iter().map(|c| !c).collect::<Vec<_>>();
                    assert_eq!(loop_rank(&complex, &region), loop_rank(&complex, &image));
                    assert_eq!(
                        loop_rank(&complex, &other(&region)),
                        loop_rank(&complex, &other(&image))
                    );
                }
            }
        }
    }
}
