//! Every board family at several sizes: counts, surface, trivalence, the seed's facts.

use crosscap_topology::{Board, Surface};

fn names(board: &Board, cells: &[usize]) -> Vec<String> {
    let mut n: Vec<String> = cells
        .iter()
        .map(|&c| board.cell_name(c).to_string())
        .collect();
    n.sort();
    n
}

fn neighbors_of(board: &Board, name: &str) -> Vec<String> {
    let cell = board.cell_index(name).unwrap();
    names(board, board.neighbors(cell))
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn taylor_boards_are_projective_planes_with_six_pentagons() {
    for n in 2..=8 {
        let board = Board::from_spec(&format!("taylor:{n}")).unwrap();
        assert_eq!(board.cell_count(), 3 * n * n, "taylor:{n}");
        assert_eq!(board.euler_characteristic(), 1, "taylor:{n}");
        assert!(!board.is_orientable());
        assert!(board.is_trivalent(), "taylor:{n}");
        assert_eq!(board.surface().to_string(), "projective plane");
        assert_eq!(board.h1_rank(), 1);
        let pentagons = (0..board.cell_count())
            .filter(|&c| board.sides(c).len() == 5)
            .count();
        assert_eq!(pentagons, 6, "taylor:{n}");
        for c in 0..board.cell_count() {
            let sides = board.sides(c).len();
            assert!(sides == 5 || sides == 6);
            assert_eq!(
                board.neighbors(c).len(),
                sides,
                "taylor:{n} {}",
                board.cell_name(c)
            );
        }
    }
}

#[test]
fn taylor_three_has_the_seeds_adjacencies() {
    let board = Board::from_spec("taylor:3").unwrap();
    assert_eq!(board.cell_count(), 27);
    // H touches D I N M Q V; M touches N R L Q H.
    assert_eq!(
        neighbors_of(&board, "c1"),
        sorted(&["b1", "c2", "d2", "d1", "d6", "e5"])
    );
    assert_eq!(
        neighbors_of(&board, "d1"),
        sorted(&["d2", "e1", "c5", "d6", "c1"])
    );
    assert_eq!(board.cell_name(0), "a1");
    assert_eq!(board.cell_index("d4"), Some(15));
    // "In order": the seed's lists go round the cell, as its sides do (from some side, one
    // way or the other).
    for (cell, seed) in [
        ("c1", ["b1", "c2", "d2", "d1", "d6", "e5"].as_slice()),
        ("d1", ["d2", "e1", "c5", "d6", "c1"].as_slice()),
    ] {
        let round: Vec<&str> = board
            .sides(board.cell_index(cell).unwrap())
            .iter()
            .map(|side| board.cell_name(side.neighbor))
            .collect();
        let n = round.len();
        let found = (0..n).any(|start| {
            let forward = (0..n).map(|i| round[(start + i) % n]);
            let backward = (0..n).map(|i| round[(start + n - i) % n]);
            forward.eq(seed.iter().copied()) || backward.eq(seed.iter().copied())
        });
        assert!(found, "{cell}: {round:?} is not {seed:?} round the cell");
    }
}

/// A taylor board's cells by (row, column) and the pairs of cells Hex's interior rule
/// makes neighbours, then those the rim rules glue across the rim.
type TaylorAdjacency = (
    Vec<(usize, usize)>,
    std::collections::BTreeSet<((usize, usize), (usize, usize))>,
    std::collections::BTreeSet<((usize, usize), (usize, usize))>,
);

fn taylor_adjacency(n: usize) -> TaylorAdjacency {
    use std::collections::BTreeSet;
    let len = |r: usize| if r <= n { n + r } else { 3 * n - r };
    let rows = 2 * n;
    let mut cells = Vec::new();
    for r in 0..rows {
        for c in 0..len(r) {
            cells.push((r, c));
        }
    }
    let pair = |a: (usize, usize), b: (usize, usize)| (a.min(b), a.max(b));
    let mut interior = BTreeSet::new();
    for r in 0..rows {
        for c in 0..len(r) {
            if c + 1 < len(r) {
                interior.insert(pair((r, c), (r, c + 1)));
            }
            if r + 1 < rows {
                let below: Vec<isize> = if r < n { vec![0, 1] } else { vec![-1, 0] };
                for d in below {
                    let cc = c as isize + d;
                    if cc >= 0 && (cc as usize) < len(r + 1) {
                        interior.insert(pair((r, c), (r + 1, cc as usize)));
                    }
                }
            }
        }
    }
    let mut rim = BTreeSet::new();
    for i in 0..n {
        rim.insert(pair((0, i), (rows - 1, n - i)));
        rim.insert(pair((0, i), (rows - 1, n - 1 - i)));
    }
    let partner_row = |r: usize| {
        if r <= n {
            rows - 1 - r.min(n - 1)
        } else {
            2 * n - r
        }
    };
    let last = |r: usize| (partner_row(r), len(partner_row(r)) - 1);
    let first = |r: usize| (partner_row(r), 0);
    for r in 0..rows {
        let (first_cell, last_cell) = ((r, 0), (r, len(r) - 1));
        rim.insert(pair(first_cell, last(r)));
        rim.insert(pair(last_cell, first(r)));
        if (1..=n).contains(&r) {
            rim.insert(pair(first_cell, last(r - 1)));
            rim.insert(pair(last_cell, first(r - 1)));
        }
        if (n..=rows - 2).contains(&r) {
            rim.insert(pair(first_cell, last(r + 1)));
            rim.insert(pair(last_cell, first(r + 1)));
        }
    }
    (cells, interior, rim)
}

/// The neighbours the rim rules and Hex's interior rule give to cell (r, c).
fn taylor_expected_neighbors(n: usize) -> Vec<std::collections::BTreeSet<(usize, usize)>> {
    let (cells, interior, rim) = taylor_adjacency(n);
    let index = |cell: (usize, usize)| cells.iter().position(|&x| x == cell).unwrap();
    let mut expected = vec![std::collections::BTreeSet::new(); cells.len()];
    for &(a, b) in interior.iter().chain(&rim) {
        expected[index(a)].insert(b);
        expected[index(b)].insert(a);
    }
    expected
}

/// The (row, column) of a taylor board's cell from its name (`c4`: row 2, column 3).
fn taylor_coordinates(board: &Board, cell: usize) -> (usize, usize) {
    let name = board.cell_name(cell);
    let row = name.as_bytes()[0] - b'a';
    let column: usize = name[1..].parse().unwrap();
    (row as usize, column - 1)
}

/// The seed's global loop: "a closed path that crossed the boundary an odd number of
/// times". On random closed walks from cell to neighbouring cell, the homology class the
/// board gives the walk (its sides' classes added up) is non-zero exactly when the walk
/// crosses the rim an odd number of times.
#[test]
fn taylor_loops_are_global_when_they_cross_the_rim_an_odd_number_of_times() {
    let mut rng = crosscap_engine::Rng::new(31);
    for n in 3..=6 {
        let board = Board::from_spec(&format!("taylor:{n}")).unwrap();
        let (_, interior, rim) = taylor_adjacency(n);
        assert!(
            interior.is_disjoint(&rim),
            "taylor:{n}: each pair glued one way"
        );
        let crosses = |a: usize, b: usize| {
            let (a, b) = (taylor_coordinates(&board, a), taylor_coordinates(&board, b));
            rim.contains(&(a.min(b), a.max(b)))
        };
        let mut odd = 0;
        for _ in 0..400 {
            let start = rng.below(board.cell_count());
            let (mut at, mut class, mut crossings) = (start, 0u64, 0);
            // A random walk, kept if it comes home within 200 steps.
            for _ in 0..200 {
                let sides = board.sides(at);
                let side = &sides[rng.below(sides.len())];
                class ^= side.class;
                crossings += crosses(at, side.neighbor) as u32;
                at = side.neighbor;
                if at == start {
                    break;
                }
            }
            if at != start {
                continue;
            }
            assert_eq!(
                class != 0,
                crossings % 2 == 1,
                "taylor:{n}: a walk from {} crossing the rim {crossings} times",
                board.cell_name(start)
            );
            odd += (crossings % 2) as usize;
        }
        assert!(odd > 10, "taylor:{n}: global loops among the walks ({odd})");
    }
}

#[test]
fn taylor_boards_follow_the_rim_rules() {
    for n in 2..=8 {
        let board = Board::from_spec(&format!("taylor:{n}")).unwrap();
        let expected = taylor_expected_neighbors(n);
        let coordinates = |cell: usize| taylor_coordinates(&board, cell);
        assert_eq!(expected.len(), board.cell_count());
        for (cell, wanted) in expected.iter().enumerate() {
            let actual: std::collections::BTreeSet<(usize, usize)> = board
                .neighbors(cell)
                .iter()
                .map(|&g| coordinates(g))
                .collect();
            assert_eq!(&actual, wanted, "taylor:{n} cell {}", board.cell_name(cell));
        }
    }
}

#[test]
fn goldberg_boards_have_five_k_squared_plus_one_cells() {
    for k in 1..=7 {
        let board = Board::from_spec(&format!("goldberg:{k}")).unwrap();
        assert_eq!(board.cell_count(), 5 * k * k + 1, "goldberg:{k}");
        assert_eq!(board.vertex_count(), 10 * k * k);
        assert_eq!(board.edge_count(), 15 * k * k);
        assert_eq!(board.euler_characteristic(), 1);
        assert!(!board.is_orientable());
        assert!(board.is_trivalent());
        assert_eq!(board.surface().to_string(), "projective plane");
        let pentagons: Vec<usize> = (0..board.cell_count())
            .filter(|&c| board.sides(c).len() == 5)
            .collect();
        assert_eq!(pentagons.len(), 6, "goldberg:{k}");
        assert_eq!(pentagons[0], 0, "cell 1 is the polar pentagon");
        assert!((0..board.cell_count()).all(|c| {
            let s = board.sides(c).len();
            s == 5 || s == 6
        }));
        assert_eq!(board.cell_name(0), "1");
        assert_eq!(
            board.cell_index(&format!("{}", 5 * k * k + 1)),
            Some(5 * k * k)
        );
    }
}

#[test]
fn goldberg_one_is_the_hemi_dodecahedron() {
    // Six pentagons, each touching the five others.
    let board = Board::from_spec("goldberg:1").unwrap();
    for c in 0..6 {
        assert_eq!(board.neighbors(c).len(), 5);
    }
}

#[test]
fn goldberg_cell_order_is_stable() {
    // The Quick board (K = 3): cell 1 is the polar pentagon, cells 2..6 its ring.
    let board = Board::from_spec("goldberg:3").unwrap();
    assert_eq!(
        neighbors_of(&board, "1"),
        sorted(&["2", "3", "4", "5", "6"])
    );
}

#[test]
fn torus_and_klein_grids_have_euler_characteristic_zero() {
    for (rows, columns) in [(2, 3), (2, 4), (4, 3), (4, 6), (6, 5), (8, 8), (10, 7)] {
        for (family, orientable, surface) in
            [("torus", true, "torus"), ("klein", false, "Klein bottle")]
        {
            let spec = format!("{family}:{rows}x{columns}");
            let board = Board::from_spec(&spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(board.cell_count(), rows * columns, "{spec}");
            assert_eq!(board.euler_characteristic(), 0, "{spec}");
            assert_eq!(board.is_orientable(), orientable, "{spec}");
            assert_eq!(board.surface().to_string(), surface, "{spec}");
            assert!(board.is_trivalent(), "{spec}");
            assert_eq!(board.h1_rank(), 2);
            assert!((0..board.cell_count()).all(|c| board.sides(c).len() == 6));
        }
    }
}

#[test]
fn klein_bottle_rows_wrap_mirrored() {
    // Top row a touches the bottom row d reflected left to right (about a1); columns wrap
    // plainly.
    let torus = Board::from_spec("torus:4x5").unwrap();
    let klein = Board::from_spec("klein:4x5").unwrap();
    assert_eq!(
        neighbors_of(&torus, "a1"),
        sorted(&["a2", "a5", "b1", "b5", "d1", "d5"])
    );
    assert_eq!(
        neighbors_of(&klein, "a1"),
        sorted(&["a2", "a5", "b1", "b5", "d1", "d5"])
    );
    assert_eq!(
        neighbors_of(&torus, "a2"),
        sorted(&["a1", "a3", "b1", "b2", "d1", "d2"])
    );
    assert_eq!(
        neighbors_of(&klein, "a2"),
        sorted(&["a1", "a3", "b1", "b2", "d4", "d5"])
    );
    assert_eq!(
        neighbors_of(&klein, "a4"),
        sorted(&["a3", "a5", "b3", "b4", "d2", "d3"])
    );
}

#[test]
fn malformed_specs_are_errors_that_say_why() {
    for (spec, needle) in [
        ("taylor", "unknown board spec"),
        ("hex:3", "unknown board spec"),
        ("taylor:1", "between 2 and 40"),
        ("taylor:x", "not a whole number"),
        ("goldberg:0", "between 1 and 40"),
        ("goldberg:-3", "not a whole number"),
        ("torus:3x4", "even"),
        ("klein:4", "RxC"),
        ("torus:4x2", "columns"),
        ("torus:4xq", "not a whole number"),
        ("file:/no/such/board.json", "cannot read board file"),
    ] {
        let message = Board::from_spec(spec).unwrap_err().to_string();
        assert!(message.contains(needle), "{spec}: {message}");
    }
}

/// Small boards of every family, to be summed.
const SUMMANDS: &[&str] = &[
    "taylor:2",
    "taylor:3",
    "goldberg:1",
    "goldberg:2",
    "torus:2x3",
    "torus:4x5",
    "klein:2x3",
    "klein:4x4",
];

/// A connected sum cuts a disc out of each board and joins them by a tube: two vertices
/// and three edges fewer, three pairs of cells made one, so χ(A # B) = χ(A) + χ(B) − 2;
/// every vertex stays trivalent, and the sum is orientable exactly when both boards are.
#[test]
fn every_two_boards_sum_to_a_trivalent_board_of_the_summed_characteristic() {
    for a in SUMMANDS {
        for b in SUMMANDS {
            let (first, second) = (Board::from_spec(a).unwrap(), Board::from_spec(b).unwrap());
            let spec = format!("sum:{a}+{b}");
            let sum = Board::from_spec(&spec).unwrap();
            assert_eq!(
                (sum.vertex_count(), sum.edge_count(), sum.cell_count()),
                (
                    first.vertex_count() + second.vertex_count() - 2,
                    first.edge_count() + second.edge_count() - 3,
                    first.cell_count() + second.cell_count() - 3
                ),
                "{spec}"
            );
            assert_eq!(
                sum.euler_characteristic(),
                first.euler_characteristic() + second.euler_characteristic() - 2,
                "{spec}"
            );
            assert!(sum.is_trivalent(), "{spec}");
            assert_eq!(
                sum.is_orientable(),
                first.is_orientable() && second.is_orientable(),
                "{spec}"
            );
            // Each summand's cells keep their names behind its number; the three cells
            // through the tube are drawn in both summands' drawings.
            assert_eq!(sum.cell_name(0), format!("1.{}", first.cell_name(0)));
            assert_eq!(sum.layout().cells.len(), sum.cell_count());
            let pieces = |board: &Board| -> usize {
                board.layout().cells.iter().map(|c| c.pieces.len()).sum()
            };
            assert_eq!(pieces(&sum), pieces(&first) + pieces(&second), "{spec}");
            assert_summands_drawn(&sum, &[a, b]);
        }
    }
}

/// What a sum's layout tells the web app for its 3D view: each board's place in the
/// drawing (its own drawing moved by its offset) and rim, and each tube's boards and the
/// three cells through it, each drawn in both boards and each next to the other two.
fn assert_summands_drawn(sum: &Board, specs: &[&str]) {
    let layout = sum.layout();
    let boards: Vec<&str> = layout.summands.iter().map(|s| s.board.as_str()).collect();
    assert_eq!(boards, specs);
    let inside = |piece: &[[f64; 2]], bounds: [f64; 4]| {
        piece.iter().all(|p| {
            p[0] >= bounds[0] - 1e-9
                && p[1] >= bounds[1] - 1e-9
                && p[0] <= bounds[2] + 1e-9
                && p[1] <= bounds[3] + 1e-9
        })
    };
    let all_pieces: Vec<&Vec<[f64; 2]>> = layout.cells.iter().flat_map(|c| &c.pieces).collect();
    for summand in &layout.summands {
        let own = Board::from_spec(&summand.board).unwrap();
        assert_eq!(summand.rim, own.layout().rim, "{}", summand.board);
        let moved = |p: &[f64; 2]| [p[0] + summand.offset[0], p[1] + summand.offset[1]];
        let here = all_pieces
            .iter()
            .filter(|piece| inside(piece, summand.bounds))
            .count();
        let own_pieces: usize = own.layout().cells.iter().map(|c| c.pieces.len()).sum();
        assert_eq!(
            here, own_pieces,
            "{}: the pieces in its bounds",
            summand.board
        );
        let first = moved(&own.layout().cells[1].pieces[0][0]);
        assert!(
            all_pieces.iter().any(|piece| piece[0] == first),
            "{}: its drawing moved by its offset",
            summand.board
        );
    }
    assert_eq!(layout.tubes.len(), specs.len() - 1);
    for (k, tube) in layout.tubes.iter().enumerate() {
        assert_eq!(
            tube.summands,
            [0, k + 1],
            "every tube starts on the first board"
        );
        for (i, &cell) in tube.cells.iter().enumerate() {
            for &summand in &tube.summands {
                let bounds = layout.summands[summand].bounds;
                assert!(
                    layout.cells[cell]
                        .pieces
                        .iter()
                        .any(|piece| inside(piece, bounds)),
                    "{}: tube cell drawn in board {summand}",
                    sum.cell_name(cell)
                );
            }
            let next = tube.cells[(i + 1) % 3];
            assert!(sum.neighbors(cell).contains(&next));
            // Each end is drawn at a corner of this cell's drawing (a piece or a ghost) in
            // that board's.
            for (end, &summand) in tube.summands.iter().enumerate() {
                let bounds = layout.summands[summand].bounds;
                let ghosts = layout.ghosts.iter().filter(|g| g.cell == cell);
                let drawn = layout.cells[cell]
                    .pieces
                    .iter()
                    .chain(ghosts.map(|g| &g.polygon))
                    .filter(|piece| inside(piece, bounds));
                let at = tube.at[end];
                assert!(
                    drawn
                        .flatten()
                        .any(|p| (p[0] - at[0]).hypot(p[1] - at[1]) < 1e-6),
                    "{}: tube {k} end {end} at a corner of {}",
                    boards.join("+"),
                    sum.cell_name(cell)
                );
            }
        }
    }
    // Every board's rim, where the board is drawn.
    assert_eq!(layout.rims().len(), specs.len());
}

#[test]
fn a_sum_of_three_boards_has_two_tubes_from_the_first() {
    let specs = ["taylor:2", "torus:2x3", "klein:2x3"];
    let sum = Board::from_spec(&format!("sum:{}", specs.join("+"))).unwrap();
    assert_summands_drawn(&sum, &specs);
    let other = Board::from_spec("sum:goldberg:2+taylor:3+torus:4x5+klein:4x4").unwrap();
    assert_summands_drawn(
        &other,
        &["goldberg:2", "taylor:3", "torus:4x5", "klein:4x4"],
    );
}

/// The manifold seed's Theorem 1.2 (a torus and a projective plane make three projective
/// planes) and Corollary 1.3 (a/2 tori and b projective planes, a even and b > 0, make
/// a + b projective planes), on boards built as those sums and classified from their cells.
#[test]
fn connected_sums_are_the_surfaces_the_manifold_seed_names() {
    let surface = |spec: &str| Board::from_spec(spec).unwrap().surface();
    assert_eq!(
        surface("sum:torus:4x4+taylor:3"),
        Surface::NonOrientable { crosscaps: 3 }
    );
    assert_eq!(
        surface("sum:taylor:3+taylor:2+taylor:2"),
        Surface::NonOrientable { crosscaps: 3 }
    );
    for tori in 1..=2 {
        for planes in 1..=3 {
            let summands: Vec<&str> = std::iter::repeat_n("torus:2x3", tori)
                .chain(std::iter::repeat_n("taylor:2", planes))
                .collect();
            let spec = format!("sum:{}", summands.join("+"));
            assert_eq!(
                surface(&spec),
                Surface::NonOrientable {
                    crosscaps: (2 * tori + planes) as u32
                },
                "{spec}"
            );
        }
    }
    // Tori alone stay orientable: the genus adds up.
    assert_eq!(
        surface("sum:torus:2x3+torus:4x4+torus:2x4"),
        Surface::Orientable { genus: 3 }
    );
}

#[test]
fn a_sum_names_what_it_cannot_sum() {
    for (spec, said) in [
        ("sum:taylor:3", "2 to 6 boards"),
        (
            "sum:taylor:2+taylor:2+taylor:2+taylor:2+taylor:2+taylor:2+taylor:2",
            "2 to 6 boards",
        ),
        (
            "sum:file:board.json+taylor:3",
            "only taylor, goldberg, torus and klein",
        ),
        (
            "sum:sum:taylor:2+taylor:2",
            "only taylor, goldberg, torus and klein",
        ),
        ("sum:taylor:2+", "an empty board"),
        ("sum:taylor:99+torus:2x3", "between 2 and 40"),
        // Counted from the specs, before any board is built.
        (
            "sum:torus:200x200+taylor:2",
            "40012 cells together, more than 40000",
        ),
    ] {
        let error = Board::from_spec(spec).unwrap_err().to_string();
        assert!(error.contains(said), "{spec}: {error}");
    }
}
