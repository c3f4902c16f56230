//! Edge-Nim: moves in notation played through `Match::play` (so `Notation::parse_move`) on a
//! few fixed positions, one line per move.
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_engine::session::Match;
use crosscap_fuzz::{play_lines, positions};

static GAMES: LazyLock<Vec<Box<dyn Match>>> = LazyLock::new(|| {
    positions(
        &crosscap_edge_nim::DESCRIPTOR,
        &[
            ("tetrahedron", "{}"),
            ("C4", r#"{"tokens": "1,2,3,4"}"#),
            ("P3", r#"{"tokens": "0,2"}"#),
            ("petersen", r#"{"tokens": "*=1"}"#),
            ("K4", r#"{"tokens": [1, 0, 2, 0, 1, 1]}"#),
        ],
    )
});

fuzz_target!(|data: &[u8]| play_lines(&GAMES, data));
