//! Any text given as a position or a move: a game or a clean error, never a panic.

use std::sync::Arc;

use crosscap_engine::{Notation, Player};
use crosscap_sandpile::{Board, Sandpile};
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const POSITIONS: &[&str] = &["X0,O1,.,X0", ".,.,.,.", "X*,X*,X*,.", "O1,.,X0,X1"];

const MOVES: &[&str] = &["0", "3", "1", "4294967296"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_position_text_reads_back_or_is_refused_cleanly(
        spec in prop::sample::select(&["P4", "arcs:0>1,1>2,2>0,2>3", "edges:0-1,2-3"][..]),
        to_move in prop::sample::select(&Player::BOTH[..]),
        text in text_like(POSITIONS),
    ) {
        let board = Arc::new(Board::from_spec(spec).unwrap());
        match Sandpile::from_position(Arc::clone(&board), &text, to_move) {
            Ok(game) => {
                let written = game.position_text();
                let again = Sandpile::from_position(board, &written, to_move).unwrap();
                prop_assert_eq!(again.position_text(), written);
            }
            Err(error) => check_message(&text, &error.to_string())?,
        }
    }

    #[test]
    fn any_move_text_is_played_or_refused_cleanly(text in text_like(MOVES)) {
        let mut game = Sandpile::from_spec("P4").unwrap();
        if let Err(error) = game.play_text(&text) {
            check_message(&text, &error.to_string())?;
        }
    }
}
