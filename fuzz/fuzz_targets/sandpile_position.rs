//! Sandpile positions (`X1,O0,.,X*`, one entry per vertex) on a few boards, undirected,
//! directed and disconnected (the first byte picks the board and the player to move).
#![no_main]

use libfuzzer_sys::fuzz_target;

use std::sync::{Arc, LazyLock};

use crosscap_engine::session::Hosting;
use crosscap_engine::{Game, Player};
use crosscap_fuzz::text;
use crosscap_sandpile::{Board, Sandpile, SandpileHost};

static BOARDS: LazyLock<Vec<Arc<Board>>> = LazyLock::new(|| {
    [
        "P4",
        "grid:3x3",
        "C5",
        "K1,3",
        "arcs:0>1,1>2,2>0,2>3",
        "edges:0-1,2-3,3-4",
    ]
    .iter()
    .map(|spec| Arc::new(Board::from_spec(spec).expect("a valid board")))
    .collect()
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let board = &BOARDS[usize::from(pick >> 1) % BOARDS.len()];
    let to_move = if pick & 1 == 0 { Player::X } else { Player::O };
    match Sandpile::from_position(Arc::clone(board), &text(rest), to_move) {
        Ok(game) => {
            let _ = (
                game.legal_moves(),
                game.outcome(),
                SandpileHost::view(&game),
            );
            let written = game.position_text();
            let again = Sandpile::from_position(Arc::clone(board), &written, to_move)
                .expect("a written position reads back");
            assert_eq!(again.position_text(), written);
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
});
