//! Board files: valid surfaces and every validation error.

use crosscap_topology::{Board, BoardFile, ComplexError, TopologyError};

fn board(json: &str) -> Result<Board, TopologyError> {
    let file: BoardFile = serde_json::from_str(json).unwrap();
    Board::from_file("file:test.json", &file)
}

fn invalid(json: &str) -> ComplexError {
    match board(json) {
        Err(TopologyError::Invalid(e)) => e,
        other => panic!("expected a validation error, got {other:?}"),
    }
}

const TETRAHEDRON: &str = r#"{"faces": [[0, 1, 2], [0, 3, 1], [1, 3, 2], [0, 2, 3]]}"#;

/// The hemi-cube: the cube's faces with antipodal points identified (3 squares).
const HEMI_CUBE: &str =
    r#"{"faces": [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1]], "names": ["x", "y", "z"]}"#;

#[test]
fn a_tetrahedron_is_a_sphere() {
    let b = board(TETRAHEDRON).unwrap();
    assert_eq!(
        (b.vertex_count(), b.edge_count(), b.cell_count()),
        (4, 6, 4)
    );
    assert_eq!(b.surface().to_string(), "sphere");
    assert!(b.is_orientable());
    assert!(b.is_trivalent());
    assert_eq!(b.h1_rank(), 0);
    assert_eq!(b.cell_name(2), "3");
}

#[test]
fn the_hemi_cube_is_a_projective_plane() {
    let b = board(HEMI_CUBE).unwrap();
    assert_eq!(b.euler_characteristic(), 1);
    assert_eq!(b.surface().to_string(), "projective plane");
    assert!(!b.is_orientable());
    assert_eq!(b.cell_index("y"), Some(1));
}

#[test]
fn validation_errors_name_the_problem() {
    // A vertex pinch: two tetrahedra sharing vertex 0 only.
    let pinched = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3],[0,5,4],[0,6,5],[5,6,4],[0,4,6]]}"#;
    assert_eq!(
        invalid(pinched),
        ComplexError::VertexLink {
            vertex: 0,
            cycles: 2
        }
    );
    // A disk: boundary edges lie on one face side.
    let disk = r#"{"faces": [[0, 1, 2]]}"#;
    assert!(matches!(
        invalid(disk),
        ComplexError::EdgeSides { sides: 1, .. }
    ));
    // Three triangles on one edge.
    let fin = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3],[0,1,4]]}"#;
    assert!(matches!(invalid(fin), ComplexError::EdgeSides { .. }));
    // Two separate spheres.
    let two = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3],[4,5,6],[4,7,5],[5,7,6],[4,6,7]]}"#;
    assert_eq!(invalid(two), ComplexError::Disconnected { components: 2 });
    assert!(matches!(invalid(r#"{"faces": []}"#), ComplexError::Empty));
    assert!(matches!(
        invalid(r#"{"faces": [[0, 1]]}"#),
        ComplexError::TooFewSides { face: 0, sides: 2 }
    ));
    assert!(matches!(
        invalid(r#"{"faces": [[0, 0, 1]]}"#),
        ComplexError::LoopSide { face: 0, vertex: 0 }
    ));
}

#[test]
fn bad_names_and_positions_are_errors() {
    let short = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3]], "names": ["a"]}"#;
    assert!(
        board(short)
            .unwrap_err()
            .to_string()
            .contains("1 entries but there are 4 faces")
    );
    let twice = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3]], "names": ["a","b","a","c"]}"#;
    assert!(board(twice).unwrap_err().to_string().contains("used twice"));
    let spaced = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3]], "names": ["a","b c","d","e"]}"#;
    assert!(
        board(spaced)
            .unwrap_err()
            .to_string()
            .contains("white space")
    );
    let missing = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3]], "positions": {"0": [0,0]}}"#;
    assert!(
        board(missing)
            .unwrap_err()
            .to_string()
            .contains("no point for vertex 1")
    );
}

#[test]
fn positions_draw_the_cells() {
    let json = r#"{"faces": [[0,1,2],[0,3,1],[1,3,2],[0,2,3]],
        "positions": {"0": [0,0], "1": [2,0], "2": [1,2], "3": [1,0.7]}}"#;
    let b = board(json).unwrap();
    assert_eq!(
        b.layout().cells[0].pieces[0],
        vec![[0.0, 0.0], [2.0, 0.0], [1.0, 2.0]]
    );
}

#[test]
fn unknown_fields_and_bad_json_are_errors() {
    let dir = std::env::temp_dir().join(format!("crosscap-topology-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("typo.json");
    std::fs::write(&path, r#"{"face": [[0,1,2]]}"#).unwrap();
    let message = Board::from_spec(&format!("file:{}", path.display()))
        .unwrap_err()
        .to_string();
    assert!(message.contains("not valid board JSON"), "{message}");
    assert!(message.contains("face"), "{message}");
    let good = dir.join("tetrahedron.json");
    std::fs::write(&good, TETRAHEDRON).unwrap();
    let spec = format!("file:{}", good.display());
    let b = Board::from_spec(&spec).unwrap();
    assert_eq!(b.spec(), spec);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_board_files_json_is_a_spec_read_in_memory() {
    let b = Board::from_spec(TETRAHEDRON).unwrap();
    assert_eq!(b.cell_count(), 4);
    let message = Board::from_spec(r#"{"faces": [[0,1,2]], "extra": 1}"#)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("the pasted board is not valid board JSON"),
        "{message}"
    );
    let huge = format!("{{\"faces\": [{}]}}", "[0,1,2],".repeat(600_000));
    let message = Board::from_spec(&huge).unwrap_err().to_string();
    assert!(message.contains("over 4194304 bytes"), "{message}");
}

#[test]
fn endless_and_huge_files_are_refused_after_the_cap() {
    let message = Board::from_spec("file:/dev/zero").unwrap_err().to_string();
    assert!(message.contains("is over 4194304 bytes"), "{message}");
}
