//! Position strings on a few boards of every family (the first byte picks the board).
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_fuzz::text;
use crosscap_topology::Board;

static BOARDS: LazyLock<Vec<Board>> = LazyLock::new(|| {
    [
        "taylor:2",
        "taylor:3",
        "goldberg:1",
        "torus:2x3",
        "klein:4x3",
    ]
    .iter()
    .map(|spec| Board::from_spec(spec).expect("a valid board"))
    .collect()
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let board = &BOARDS[usize::from(pick) % BOARDS.len()];
    match board.parse_position(&text(rest)) {
        Ok(position) => {
            assert_eq!(position.cells.len(), board.cell_count());
            let written = board.format_position(&position.cells);
            assert_eq!(board.parse_position(&written).as_ref(), Ok(&position));
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
