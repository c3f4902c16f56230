//! `Board::from_spec` on any text but `file:` paths (read from disk, not parsed here),
//! inline board JSON included.
#![no_main]

use libfuzzer_sys::fuzz_target;

use crosscap_fuzz::text;
use crosscap_topology::Board;

fuzz_target!(|data: &[u8]| {
    let spec = text(data);
    if spec.trim_start().starts_with("file:") {
        return;
    }
    match Board::from_spec(&spec) {
        Ok(board) => {
            let empty = vec![None; board.cell_count()];
            let _ = board.format_position(&empty);
            let _ = serde_json::to_string(board.layout());
            let _ = (board.surface(), board.is_trivalent(), board.h1_rank());
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
