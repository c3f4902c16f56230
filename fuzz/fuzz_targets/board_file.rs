//! A board file: its JSON read into `BoardFile`, then `Board::from_file`.
#![no_main]

use libfuzzer_sys::fuzz_target;

use crosscap_topology::{Board, BoardFile};

fuzz_target!(|data: &[u8]| {
    let Ok(file) = serde_json::from_slice::<BoardFile>(data) else {
        return;
    };
    match Board::from_file("fuzz", &file) {
        Ok(board) => {
            let _ = serde_json::to_string(board.layout());
            let _ = (board.surface(), board.is_orientable(), board.h1_rank());
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
