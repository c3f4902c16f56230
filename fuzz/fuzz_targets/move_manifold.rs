//! The manifold game: moves in notation played through `Match::play` (so `Notation::parse_move`) on a
//! few fixed positions, one line per move.
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_engine::session::Match;
use crosscap_fuzz::{play_lines, positions};

static GAMES: LazyLock<Vec<Box<dyn Match>>> = LazyLock::new(|| {
    positions(
        &crosscap_manifold::DESCRIPTOR,
        &[("n5 o2", "{}"), ("o1", "null"), ("S n1 n2 n3 o4", "{}")],
    )
});

fuzz_target!(|data: &[u8]| play_lines(&GAMES, data));
