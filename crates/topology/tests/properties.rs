//! Property tests: the validator on random gluings of polygons, the sum rule
//! chi(region) + chi(complement) = chi(surface) on random 2-colourings of trivalent boards
//! (their border a union of circles),
//! and the board symmetries on the families and on random gluings.

use std::collections::{HashMap, HashSet};

use crosscap_graphs::UnionFind;
use crosscap_topology::{Board, Complex, ComplexError, Surface, Symmetries};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::RngSeed;

/// Side `i` of polygon `f`, as `(f, i)`.
type SideRef = (usize, usize);

/// Polygons with sides glued in pairs, some pairs with a twist.
#[derive(Clone, Debug)]
struct Gluing {
    sizes: Vec<usize>,
    /// Pairs of (face, side) glued together, and whether the second runs the same way as
    /// the first (a twist) rather than the opposite way.
    pairs: Vec<(SideRef, SideRef, bool)>,
}

fn gluing() -> impl Strategy<Value = Gluing> {
    (prop::collection::vec(3usize..=6, 1..=7), any::<u64>()).prop_map(|(mut sizes, seed)| {
        let total: usize = sizes.iter().sum();
        if total % 2 == 1 {
            *sizes.last_mut().unwrap() += 1;
        }
        let mut sides: Vec<SideRef> = sizes
            .iter()
            .enumerate()
            .flat_map(|(f, &s)| (0..s).map(move |i| (f, i)))
            .collect();
        let mut rng = crosscap_engine::Rng::new(seed);
        rng.shuffle(&mut sides);
        let pairs = sides
            .chunks(2)
            .map(|p| (p[0], p[1], rng.below(4) == 0))
            .collect();
        Gluing { sizes, pairs }
    })
}

impl Gluing {
    /// The number of corners of the faces before each face (corners numbered face by face).
    fn corner_offsets(&self) -> Vec<usize> {
        self.sizes
            .iter()
            .scan(0, |acc, &s| {
                let o = *acc;
                *acc += s;
                Some(o)
            })
            .collect()
    }

    /// Cuts every polygon into quadrilaterals (corner, side midpoint, centre, midpoint):
    /// the same surface, with fewer loops and multiple edges after each round.
    fn subdivided(&self) -> Gluing {
        let offset = self.corner_offsets();
        // Quad of corner i of face f; its sides: 0 first half of side i, 1 midpoint of side i
        // to the centre, 2 centre to midpoint of side i - 1, 3 second half of side i - 1.
        let quad = |f: usize, i: usize| offset[f] + i % self.sizes[f];
        let mut pairs = Vec::new();
        for (f, &s) in self.sizes.iter().enumerate() {
            for i in 0..s {
                pairs.push(((quad(f, i), 1), (quad(f, i + 1), 2), false));
            }
        }
        for &((f, i), (h, j), twisted) in &self.pairs {
            if twisted {
                pairs.push(((quad(f, i), 0), (quad(h, j), 0), true));
                pairs.push(((quad(f, i + 1), 3), (quad(h, j + 1), 3), true));
            } else {
                pairs.push(((quad(f, i), 0), (quad(h, j + 1), 3), false));
                pairs.push(((quad(f, i + 1), 3), (quad(h, j), 0), false));
            }
        }
        Gluing {
            sizes: vec![4; self.sizes.iter().sum()],
            pairs,
        }
    }
}

struct Expected {
    cycles: Vec<Vec<u64>>,
    vertices: usize,
    edges: usize,
    orientable: bool,
    connected: bool,
    /// Some side joins a vertex to itself, or two edges join the same two vertices: faces
    /// given as vertex cycles cannot express such a complex.
    not_simple: bool,
}

/// Everything about a gluing, computed directly from the gluing.
fn analyse(g: &Gluing) -> Expected {
    let offset = g.corner_offsets();
    let corners: usize = g.sizes.iter().sum();
    let corner = |f: usize, i: usize| offset[f] + i % g.sizes[f];
    let mut glued = UnionFind::new(corners);
    for &((f, i), (h, j), twisted) in &g.pairs {
        if twisted {
            glued.union(corner(f, i), corner(h, j));
            glued.union(corner(f, i + 1), corner(h, j + 1));
        } else {
            glued.union(corner(f, i), corner(h, j + 1));
            glued.union(corner(f, i + 1), corner(h, j));
        }
    }
    let vertex: Vec<usize> = (0..corners).map(|c| glued.find(c)).collect();
    let cycles: Vec<Vec<u64>> = (0..g.sizes.len())
        .map(|f| {
            (0..g.sizes[f])
                .map(|i| vertex[corner(f, i)] as u64)
                .collect()
        })
        .collect();
    let vertices = vertex.iter().collect::<HashSet<_>>().len();

    let mut not_simple = false;
    let mut ends = HashSet::new();
    for &((f, i), _, _) in &g.pairs {
        let (a, b) = (vertex[corner(f, i)], vertex[corner(f, i + 1)]);
        if a == b || !ends.insert((a.min(b), a.max(b))) {
            not_simple = true;
        }
    }

    // Orient faces: an untwisted gluing keeps orientations equal, a twisted one flips.
    let mut sign: Vec<Option<bool>> = vec![None; g.sizes.len()];
    let mut orientable = true;
    sign[0] = Some(false);
    let mut changed = true;
    while changed {
        changed = false;
        for &((f, _), (h, _), twisted) in &g.pairs {
            for (a, b) in [(f, h), (h, f)] {
                if let Some(s) = sign[a] {
                    match sign[b] {
                        None => {
                            sign[b] = Some(s ^ twisted);
                            changed = true;
                        }
                        Some(t) if t != s ^ twisted => orientable = false,
                        Some(_) => {}
                    }
                }
            }
        }
    }
    let connected = sign.iter().all(|s| s.is_some());
    Expected {
        cycles,
        vertices,
        edges: g.pairs.len(),
        orientable,
        connected,
        not_simple,
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        max_global_rejects: 10_000,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(3),
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_validator_recognises_random_gluings(raw in gluing(), rounds in 0usize..=2) {
        let mut g = raw.clone();
        for _ in 0..rounds {
            g = g.subdivided();
        }
        let expected = analyse(&g);
        let before = analyse(&raw);
        // Subdividing keeps the surface.
        prop_assert_eq!(
            expected.vertices as i64 - expected.edges as i64 + g.sizes.len() as i64,
            before.vertices as i64 - before.edges as i64 + raw.sizes.len() as i64
        );
        prop_assert_eq!(expected.orientable, before.orientable);
        let result = Complex::from_vertex_cycles(&expected.cycles);
        if expected.not_simple {
            prop_assert!(matches!(
                result,
                Err(ComplexError::LoopSide { .. }) | Err(ComplexError::EdgeSides { .. })
            ), "{:?}", result.map(|c| c.euler_characteristic()));
            return Ok(());
        }
        if !expected.connected {
            prop_assert!(matches!(result, Err(ComplexError::Disconnected { .. })), "{:?}", result.err());
            return Ok(());
        }
        let complex = result.unwrap();
        let faces = g.sizes.len();
        prop_assert_eq!(complex.vertex_count(), expected.vertices);
        prop_assert_eq!(complex.edge_count(), expected.edges);
        prop_assert_eq!(complex.face_count(), faces);
        let chi = expected.vertices as i64 - expected.edges as i64 + faces as i64;
        prop_assert_eq!(complex.euler_characteristic(), chi);
        prop_assert_eq!(complex.is_orientable(), expected.orientable);
        prop_assert!(Surface::classify(expected.orientable, chi).is_some());
        prop_assert_eq!(complex.h1_rank() as i64, 2 - chi);
        let corners: usize = (0..complex.vertex_count()).map(|v| complex.vertex_faces(v).len()).sum();
        prop_assert_eq!(corners, g.sizes.iter().sum::<usize>());
    }

    #[test]
    fn the_validator_rejects_a_missing_face(raw in gluing()) {
        let g = raw.subdivided().subdivided();
        let expected = analyse(&g);
        prop_assume!(!expected.not_simple && expected.connected && g.sizes.len() > 1);
        let mut cycles = expected.cycles.clone();
        cycles.pop();
        let result = Complex::from_vertex_cycles(&cycles);
        prop_assert!(matches!(result, Err(ComplexError::EdgeSides { sides: 1, .. })), "{:?}", result.err());
    }

    #[test]
    fn the_validator_rejects_pinched_vertices(spec_index in 0usize..4, a in 0usize..1000, b in 0usize..1000) {
        let spec = ["taylor:2", "goldberg:2", "torus:4x4", "klein:4x5"][spec_index];
        let board = Board::from_spec(spec).unwrap();
        let mut cycles: Vec<Vec<u64>> = (0..board.cell_count())
            .map(|c| board.cell_vertices(c).iter().map(|&v| v as u64).collect())
            .collect();
        let (a, b) = (a % board.vertex_count(), b % board.vertex_count());
        prop_assume!(a != b);
        for cycle in &mut cycles {
            for v in cycle.iter_mut() {
                if *v == b as u64 {
                    *v = a as u64;
                }
            }
        }
        prop_assert!(Complex::from_vertex_cycles(&cycles).is_err());
    }
}

#[test]
fn most_twice_subdivided_gluings_are_valid_boards() {
    // So that the property above exercises the accepting branch, not only the rejections.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let valid = (0..500)
        .filter(|_| {
            let g = gluing()
                .new_tree(&mut runner)
                .unwrap()
                .current()
                .subdivided()
                .subdivided();
            Complex::from_vertex_cycles(&analyse(&g).cycles).is_ok()
        })
        .count();
    assert!(valid >= 150, "{valid} of 500");
}

fn trivalent_boards() -> Vec<Board> {
    [
        "taylor:2",
        "taylor:3",
        "taylor:5",
        "goldberg:1",
        "goldberg:2",
        "goldberg:4",
        "torus:4x5",
        "klein:6x4",
    ]
    .iter()
    .map(|s| Board::from_spec(s).unwrap())
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(5),
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_region_and_its_complement_add_up_to_the_surface(seed in any::<u64>(), density in 1u64..10) {
        thread_local!(static BOARDS: Vec<Board> = trivalent_boards());
        BOARDS.with(|boards| {
            let mut rng = crosscap_engine::Rng::new(seed);
            for board in boards {
                let region: Vec<bool> =
                    (0..board.cell_count()).map(|_| rng.below(10) < density as usize).collect();
                let complement: Vec<bool> = region.iter().map(|&r| !r).collect();
                assert_eq!(
                    board.region_euler_characteristic(&region)
                        + board.region_euler_characteristic(&complement),
                    board.euler_characteristic(),
                    "{}",
                    board.spec()
                );
                // Why (the Euler Getter seed): the border between the two is a disjoint
                // union of circles, every vertex on it on exactly two of its edges, so its
                // characteristic V - E is 0.
                let mut border_edges_at = HashMap::new();
                let mut border_edges = HashSet::new();
                for cell in 0..board.cell_count() {
                    let corners = board.cell_vertices(cell);
                    for (i, side) in board.sides(cell).iter().enumerate() {
                        if region[cell] != region[side.neighbor] && border_edges.insert(side.edge) {
                            for v in [corners[i], corners[(i + 1) % corners.len()]] {
                                *border_edges_at.entry(v).or_insert(0) += 1;
                            }
                        }
                    }
                }
                assert!(border_edges_at.values().all(|&n| n == 2), "{}", board.spec());
                assert_eq!(border_edges_at.len(), border_edges.len(), "{}", board.spec());
            }
        });
    }
}

#[test]
fn region_characteristic_matches_a_direct_count() {
    // V - E + F of the closure counted from the incidences the board exposes.
    let mut rng = crosscap_engine::Rng::new(17);
    for board in trivalent_boards() {
        for _ in 0..50 {
            let region: Vec<bool> = (0..board.cell_count()).map(|_| rng.below(2) == 0).collect();
            let mut vertices = HashSet::new();
            let mut edges = HashMap::new();
            let mut faces = 0;
            for cell in (0..board.cell_count()).filter(|&c| region[c]) {
                faces += 1;
                vertices.extend(board.cell_vertices(cell).iter().copied());
                for side in board.sides(cell) {
                    edges.insert(side.edge, ());
                }
            }
            let direct = vertices.len() as i64 - edges.len() as i64 + faces;
            assert_eq!(
                board.region_euler_characteristic(&region),
                direct,
                "{}",
                board.spec()
            );
        }
    }
}

/// Whether `set` (a bit set of edges) is a sum of vertex stars over Z2, by elimination: the
/// dual chains that bound.
fn is_sum_of_stars(complex: &Complex, set: &[u64]) -> bool {
    let words = set.len();
    let mut basis: Vec<Vec<u64>> = Vec::new();
    let mut stars = vec![vec![0u64; words]; complex.vertex_count()];
    for e in 0..complex.edge_count() {
        for v in complex.edge_ends(e) {
            stars[v][e / 64] ^= 1 << (e % 64);
        }
    }
    let leading = |row: &[u64]| {
        row.iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    };
    let reduce = |basis: &[Vec<u64>], mut row: Vec<u64>| {
        for b in basis {
            let lead = leading(b).unwrap();
            if row[lead / 64] >> (lead % 64) & 1 == 1 {
                for (r, x) in row.iter_mut().zip(b) {
                    *r ^= x;
                }
            }
        }
        row
    };
    for star in stars {
        let row = reduce(&basis, star);
        if leading(&row).is_some() {
            let lead = leading(&row).unwrap();
            // Keep the basis fully reduced on leading bits.
            for b in basis.iter_mut() {
                if b[lead / 64] >> (lead % 64) & 1 == 1 {
                    for (x, r) in b.iter_mut().zip(&row) {
                        *x ^= r;
                    }
                }
            }
            basis.push(row);
        }
    }
    leading(&reduce(&basis, set.to_vec())).is_none()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 10_000,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(9),
        ..ProptestConfig::default()
    })]

    /// Differential test of the tree-cotree classes: a closed chain of cells has class zero
    /// exactly when the edges it crosses are a sum of vertex stars (it bounds in the dual).
    #[test]
    fn classes_agree_with_linear_algebra(raw in gluing(), walk_seed in any::<u64>()) {
        let g = raw.subdivided().subdivided();
        let expected = analyse(&g);
        prop_assume!(!expected.not_simple && expected.connected);
        let complex = Complex::from_vertex_cycles(&expected.cycles).unwrap();
        let mut rng = crosscap_engine::Rng::new(walk_seed);
        let words = complex.edge_count().div_ceil(64);
        for _ in 0..8 {
            // A random walk away from a cell, then back to it along a breadth-first tree.
            let start = rng.below(complex.face_count());
            let mut set = vec![0u64; words];
            let mut class = 0u64;
            let mut cross = |side: crosscap_topology::Side| {
                set[side.edge / 64] ^= 1 << (side.edge % 64);
                class ^= side.class;
            };
            let mut at = start;
            for _ in 0..rng.below(60) {
                let sides = complex.sides(at);
                let side = sides[rng.below(sides.len())];
                cross(side);
                at = side.neighbor;
            }
            let mut parent: Vec<Option<(usize, crosscap_topology::Side)>> =
                vec![None; complex.face_count()];
            let mut queue = std::collections::VecDeque::from([start]);
            let mut seen = vec![false; complex.face_count()];
            seen[start] = true;
            while let Some(f) = queue.pop_front() {
                for &side in complex.sides(f) {
                    if !seen[side.neighbor] {
                        seen[side.neighbor] = true;
                        parent[side.neighbor] = Some((f, side));
                        queue.push_back(side.neighbor);
                    }
                }
            }
            while at != start {
                let (up, side) = parent[at].unwrap();
                cross(side);
                at = up;
            }
            prop_assert_eq!(class == 0, is_sum_of_stars(&complex, &set));
        }
    }
}

/// What every symmetry group must satisfy, through the public interface: the identity
/// first, each map once, permutations closed under composition that map the sides between
/// cells to sides and keep the Euler characteristic of a region; the orbits and a
/// stabiliser agree with the maps.
fn check_symmetries(name: &str, complex: &Complex, rng: &mut crosscap_engine::Rng) {
    let symmetries = Symmetries::of(complex);
    let maps = symmetries.maps();
    let faces = complex.face_count();
    assert_eq!(maps.len(), symmetries.len(), "{name}");
    assert_eq!(maps[0], (0..faces).collect::<Vec<_>>(), "{name}");
    let set: HashSet<&Vec<usize>> = maps.iter().collect();
    assert_eq!(set.len(), maps.len(), "{name}: each map once");
    let region: Vec<bool> = (0..faces).map(|_| rng.below(2) == 0).collect();
    let chi = complex.region_euler_characteristic(&region);
    let neighbours = |cell: usize, map: &dyn Fn(usize) -> usize| {
        let mut around: Vec<usize> = complex
            .sides(cell)
            .iter()
            .map(|s| map(s.neighbor))
            .collect();
        around.sort_unstable();
        around
    };
    for g in maps {
        assert_eq!(
            g.iter().collect::<HashSet<_>>().len(),
            faces,
            "{name}: a permutation"
        );
        for h in maps {
            let product: Vec<usize> = g.iter().map(|&c| h[c]).collect();
            assert!(set.contains(&product), "{name}: closed under composition");
        }
        for cell in 0..faces {
            assert_eq!(
                neighbours(cell, &|c| g[c]),
                neighbours(g[cell], &|c| c),
                "{name}"
            );
        }
        let image = Symmetries::image(g, &region);
        assert_eq!(complex.region_euler_characteristic(&image), chi, "{name}");
    }
    let mut orbits: Vec<Vec<usize>> = Vec::new();
    for cell in 0..faces {
        if orbits.iter().all(|o| !o.contains(&cell)) {
            let mut orbit: Vec<usize> = maps.iter().map(|g| g[cell]).collect();
            orbit.sort_unstable();
            orbit.dedup();
            orbits.push(orbit);
        }
    }
    assert_eq!(symmetries.cell_orbits(), orbits, "{name}");
    let sparse: Vec<bool> = (0..faces).map(|_| rng.below(6) == 0).collect();
    let keeping: Vec<Vec<usize>> = maps
        .iter()
        .filter(|g| Symmetries::image(g, &sparse) == sparse)
        .cloned()
        .collect();
    assert_eq!(symmetries.stabiliser(&sparse), keeping, "{name}");
    assert_eq!(symmetries.stabiliser(&vec![0; faces]), maps, "{name}");
}

#[test]
fn symmetries_of_the_families_are_automorphisms() {
    let mut rng = crosscap_engine::Rng::new(21);
    for spec in [
        "taylor:2",
        "taylor:4",
        "goldberg:1",
        "goldberg:4",
        "torus:2x4",
        "torus:6x6",
        "klein:2x4",
        "klein:4x6",
    ] {
        check_symmetries(spec, Board::from_spec(spec).unwrap().complex(), &mut rng);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 10_000,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(13),
        ..ProptestConfig::default()
    })]

    /// Random gluings give complexes with faces meeting themselves, vertices repeated on a
    /// face and parallel sides.
    #[test]
    fn symmetries_of_random_gluings_are_automorphisms(raw in gluing(), rounds in 1usize..=2, seed in any::<u64>()) {
        let mut g = raw;
        for _ in 0..rounds {
            g = g.subdivided();
        }
        let expected = analyse(&g);
        prop_assume!(!expected.not_simple && expected.connected);
        let complex = Complex::from_vertex_cycles(&expected.cycles).unwrap();
        check_symmetries("a random gluing", &complex, &mut crosscap_engine::Rng::new(seed));
    }
}
