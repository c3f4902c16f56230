//! Projective Hex: moves in notation played through `Match::play` (so `Notation::parse_move`) on a
//! few fixed positions, one line per move.
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_engine::session::Match;
use crosscap_fuzz::{play_lines, positions};

static GAMES: LazyLock<Vec<Box<dyn Match>>> = LazyLock::new(|| {
    positions(
        &crosscap_projective_hex::DESCRIPTOR,
        &[
            ("taylor:2", "{}"),
            ("taylor:3", r#"{"opening": "swap", "moves": ["c3"]}"#),
            ("taylor:3", r#"{"opening": "cut-and-choose"}"#),
            (
                "taylor:3",
                r#"{"position": ".XO/..XO/..OO./.XOX../XOX../X..."}"#,
            ),
            ("goldberg:1", "{}"),
            ("torus:2x3", "{}"),
        ],
    )
});

fuzz_target!(|data: &[u8]| play_lines(&GAMES, data));
