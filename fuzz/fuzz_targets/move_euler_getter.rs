//! Euler Getter: moves in notation played through `Match::play` (so `Notation::parse_move`) on a
//! few fixed positions, one line per move.
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_engine::session::Match;
use crosscap_fuzz::{play_lines, positions};

static GAMES: LazyLock<Vec<Box<dyn Match>>> = LazyLock::new(|| {
    positions(
        &crosscap_euler_getter::DESCRIPTOR,
        &[
            ("goldberg:1", r#"{"swap": 1}"#),
            ("goldberg:2", r#"{"rule": "reverse", "swap": "none"}"#),
            ("taylor:2", "{}"),
        ],
    )
});

fuzz_target!(|data: &[u8]| play_lines(&GAMES, data));
