//! Any text given as a board spec (a board file's JSON included), as a board file or as a
//! position: a value or a clean error, never a panic.

use crosscap_testkit::{check_message, text_like};
use crosscap_topology::{Board, BoardFile};
use proptest::prelude::*;

const TETRAHEDRON: &str = r#"{"faces": [[0,1,2],[0,2,3],[0,3,1],[1,3,2]], "names": ["a","b","c","d"], "positions": {"0": [0,0], "1": [1,0], "2": [0,1], "3": [1,1]}}"#;

const SPECS: &[&str] = &[
    "taylor:2",
    "taylor:3",
    "goldberg:1",
    "torus:2x3",
    "klein:4x5",
    "taylor:41",
    "sum:taylor:2+torus:2x3",
    "sum:goldberg:1+klein:2x3+taylor:3",
    TETRAHEDRON,
];

const FILES: &[&str] = &[
    TETRAHEDRON,
    r#"{"faces": [[0,1,2],[0,2,3],[0,3,1],[1,3,2]]}"#,
    r#"{"faces": [[0,1,2,3],[0,3,1,2],[0,2,3,1]]}"#,
    r#"{"faces": []}"#,
    r#"{"faces\u001b[31m": []}"#,
];

const POSITIONS: &[&str] = &[
    "X./O.. / ...\n./...",
    "X./.../..../..O",
    ".XO/..XO/..OO./.XOX../XOX../X...",
    "............",
];

fn board(spec: &str) -> Board {
    Board::from_spec(spec).expect("a valid board")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_spec_gives_a_board_or_a_clean_error(spec in text_like(SPECS)) {
        prop_assume!(!spec.trim_start().starts_with("file:"));
        match Board::from_spec(&spec) {
            Ok(board) => prop_assert!(board.cell_count() > 0),
            Err(error) => check_message(&spec, &error.to_string())?,
        }
    }

    #[test]
    fn any_board_file_gives_a_board_or_a_clean_error(text in text_like(FILES)) {
        if let Ok(file) = serde_json::from_str::<BoardFile>(&text)
            && let Err(error) = Board::from_file("pasted", &file)
        {
            check_message(&text, &error.to_string())?;
        }
    }

    #[test]
    fn any_position_reads_back_or_is_refused_cleanly(
        spec in prop::sample::select(&["taylor:2", "taylor:3", "goldberg:1", "klein:4x3"][..]),
        text in text_like(POSITIONS),
    ) {
        let board = board(spec);
        match board.parse_position(&text) {
            Ok(position) => {
                let written = board.format_position(&position.cells);
                prop_assert_eq!(board.parse_position(&written), Ok(position));
            }
            Err(error) => check_message(&text, &error.to_string())?,
        }
    }
}
