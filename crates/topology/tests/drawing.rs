//! Layouts, text drawings and SVG pictures.

use crosscap_topology::{Board, SvgOptions};

fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

#[test]
fn ghosts_sit_next_to_the_cells_they_touch() {
    // Hexagons of radius 1 have neighbouring centres sqrt(3) apart.
    for spec in ["taylor:2", "taylor:3", "taylor:6", "torus:4x5", "klein:6x4"] {
        let board = Board::from_spec(spec).unwrap();
        let layout = board.layout();
        assert!(!layout.ghosts.is_empty(), "{spec}");
        for ghost in &layout.ghosts {
            for (cell, shape) in layout.cells.iter().enumerate() {
                if (distance(shape.center, ghost.center) - 3f64.sqrt()).abs() < 1e-6 {
                    assert!(
                        board.neighbors(cell).contains(&ghost.cell),
                        "{spec}: ghost of {} beside {}",
                        board.cell_name(ghost.cell),
                        board.cell_name(cell)
                    );
                }
            }
        }
        // Drawn neighbours inside the board are neighbours too.
        for (a, sa) in layout.cells.iter().enumerate() {
            for (b, sb) in layout.cells.iter().enumerate() {
                if (distance(sa.center, sb.center) - 3f64.sqrt()).abs() < 1e-6 {
                    assert!(board.neighbors(a).contains(&b), "{spec}");
                }
            }
        }
    }
}

#[test]
fn taylor_ghosts_surround_the_board_as_in_the_seed() {
    // 12N rim sides, the sides at each corner sharing a ghost slot: 6(N+1) + ... slots; every
    // rim cell appears at least once and the seed's z (f4) sits left of a1 and above it.
    let board = Board::from_spec("taylor:3").unwrap();
    let layout = board.layout();
    let a1 = layout.cells[0].center;
    let f4 = board.cell_index("f4").unwrap();
    let beside_a1: Vec<usize> = layout
        .ghosts
        .iter()
        .filter(|g| (distance(g.center, a1) - 3f64.sqrt()).abs() < 1e-6)
        .map(|g| g.cell)
        .collect();
    assert_eq!(beside_a1.iter().filter(|&&c| c == f4).count(), 2);
    assert!(beside_a1.contains(&board.cell_index("f3").unwrap()));
    assert!(layout.cells.iter().all(|c| !c.is_split()));
    assert_eq!(layout.rim.len(), 36);
}

#[test]
fn goldberg_layouts_split_equator_cells_into_twin_halves() {
    for k in 1..=5 {
        let board = Board::from_spec(&format!("goldberg:{k}")).unwrap();
        let layout = board.layout();
        let sphere = layout.sphere.as_ref().unwrap();
        assert_eq!(sphere.len(), board.cell_count());
        for (cell, polygon) in sphere.iter().enumerate() {
            assert_eq!(polygon.len(), board.sides(cell).len());
            for p in polygon {
                let norm = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                assert!((norm - 1.0).abs() < 1e-9);
            }
        }
        let split = layout.cells.iter().filter(|c| c.is_split()).count();
        assert!(split > 0, "goldberg:{k}");
        assert!(
            layout
                .cells
                .iter()
                .all(|c| !c.pieces.is_empty() && c.pieces.len() <= 2)
        );
        assert!(!layout.cells[0].is_split(), "the polar cell is whole");
        // Twin halves lie on opposite sides of the rim: their centroids point opposite ways.
        for shape in layout.cells.iter().filter(|c| c.is_split()) {
            let mean = |piece: &Vec<[f64; 2]>| {
                let n = piece.len() as f64;
                let s = piece
                    .iter()
                    .fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]);
                [s[0] / n, s[1] / n]
            };
            let (a, b) = (mean(&shape.pieces[0]), mean(&shape.pieces[1]));
            assert!(a[0] * b[0] + a[1] * b[1] < 0.0);
        }
    }
}

#[test]
fn taylor_text_follows_the_seeds_keyboard_layout() {
    let board = Board::from_spec("taylor:3").unwrap();
    let position = board
        .parse_position(".XO/..XO/..OO./.XOX../XOX../XO..")
        .unwrap();
    let text = board.text_drawing(Some(&position.cells), false);
    assert_eq!(
        text,
        "   . X O\n  . . X O\n . . O O .\n. X O X . .\n X O X . .\n  X O . .\n"
    );
    let names = board.text_drawing(None, false);
    assert_eq!(
        names,
        "      a1  a2  a3\n    b1  b2  b3  b4\n  c1  c2  c3  c4  c5\nd1  d2  d3  d4  d5  d6\n  \
         e1  e2  e3  e4  e5\n    f1  f2  f3  f4\n"
    );
    // For play at a terminal: stones, and the empty cells by name.
    let named = board.text_drawing_named(&position.cells, false);
    assert_eq!(
        named.lines().take(2).collect::<Vec<_>>(),
        ["      a1  X   O", "    b1  b2  X   O"]
    );
    // In colour the stones are painted and the cells stay where they were.
    let painted = board.text_drawing_named(&position.cells, true);
    assert!(painted.starts_with("      a1  \x1b[1;31mX\x1b[0m   \x1b[1;34mO\x1b[0m\n"));
    let plain = painted
        .replace("\x1b[1;31m", "")
        .replace("\x1b[1;34m", "")
        .replace("\x1b[0m", "");
    assert_eq!(plain, named);
    let ghosts = board.text_drawing(Some(&position.cells), true);
    // The seed's ghost picture: x's at the top right, o's at the bottom left.
    let lines: Vec<&str> = ghosts.lines().collect();
    assert_eq!(lines.len(), 8);
    // Where the seed draws its frame (/, \, <, >, _, ~), the ghosts are empty: `-`.
    assert_eq!(
        lines,
        [
            "    - - o x",
            "   - . X O x",
            "  - . . X O x",
            " - . . O O . -",
            "- . X O X . . -",
            " - X O X . . -",
            "  o X O . . -",
            "   o o x - -",
        ]
    );
}

#[test]
fn goldberg_text_lists_cells_with_neighbours() {
    let board = Board::from_spec("goldberg:2").unwrap();
    let text = board.text_drawing(None, false);
    assert_eq!(text.lines().count(), 21);
    assert!(text.starts_with("1 (5 sides): 2 3 4 5 6\n"), "{text}");
    // A list names every cell already: the stones follow the names.
    let mut stones = vec![None; board.cell_count()];
    stones[0] = Some(crosscap_engine::Player::X);
    let named = board.text_drawing_named(&stones, false);
    assert!(
        named.starts_with("1 X (5 sides): 2 3 4 5 6\n2 . (6 sides)"),
        "{named}"
    );
}

#[test]
fn svg_draws_every_cell_and_colours_stones() {
    let board = Board::from_spec("taylor:3").unwrap();
    let position = board
        .parse_position("X.O/..../...../....../...../....")
        .unwrap();
    let svg = board.svg(Some(&position.cells), &SvgOptions::default());
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<polygon data-cell=").count(),
        27 + board.layout().ghosts.len()
    );
    assert!(
        svg.contains("#d55e00") && svg.contains("#0072b2"),
        "the page's colours"
    );
    let goldberg = Board::from_spec("goldberg:3").unwrap();
    let plain = goldberg.svg(
        None,
        &SvgOptions {
            ghosts: false,
            labels: false,
            ..SvgOptions::default()
        },
    );
    let pieces: usize = goldberg.layout().cells.iter().map(|c| c.pieces.len()).sum();
    assert_eq!(plain.matches("<polygon data-cell=").count(), pieces);
    assert!(!plain.contains("<text"));
}

/// Marked cells are outlined, every copy of them: a cell on taylor:3's rim has a ghost
/// beyond it, an inner one none.
#[test]
fn svg_outlines_the_marked_cells_and_their_ghosts() {
    let board = Board::from_spec("taylor:3").unwrap();
    let (rim, inner) = (
        board.cell_index("a1").unwrap(),
        board.cell_index("c3").unwrap(),
    );
    let copies = |cell: usize| {
        board.layout().cells[cell].pieces.len()
            + board
                .layout()
                .ghosts
                .iter()
                .filter(|g| g.cell == cell)
                .count()
    };
    assert!(copies(rim) > 1 && copies(inner) == 1);
    let svg = board.svg(
        None,
        &SvgOptions {
            marked: vec![rim, inner],
            ..SvgOptions::default()
        },
    );
    let marked = svg
        .split(r#"<g class="marked""#)
        .nth(1)
        .and_then(|rest| rest.split("</g>").next())
        .expect("a group of marked cells");
    assert_eq!(
        marked.matches("<polygon").count(),
        copies(rim) + copies(inner)
    );
    assert!(
        !board
            .svg(None, &SvgOptions::default())
            .contains("class=\"marked\"")
    );
    let beyond = board.svg(
        None,
        &SvgOptions {
            marked: vec![board.cell_count()],
            ..SvgOptions::default()
        },
    );
    assert!(
        beyond.trim_end().ends_with("</svg>"),
        "no such cell: nothing outlined, no panic"
    );
}
