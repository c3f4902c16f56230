//! Sandpile: moves in notation played through `Match::play` (so `Notation::parse_move`) on a
//! few fixed positions, one line per move.
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_engine::session::Match;
use crosscap_fuzz::{play_lines, positions};

static GAMES: LazyLock<Vec<Box<dyn Match>>> = LazyLock::new(|| {
    positions(
        &crosscap_sandpile::DESCRIPTOR,
        &[
            ("grid:3x3", "{}"),
            ("P4", r#"{"position": "X0,O1,.,X0", "to_move": "O"}"#),
            ("C5", "{}"),
            ("arcs:0>1,1>2,2>0,2>3", "{}"),
            ("edges:0-1,2-3", "{}"),
        ],
    )
});

fuzz_target!(|data: &[u8]| play_lines(&GAMES, data));
