//! Any text given as a move or a start position: a game or a clean error, never a panic.

use std::sync::Arc;

use crosscap_engine::Notation;
use crosscap_projective_hex::{Geometry, Opening, ProjectiveHex};
use crosscap_testkit::{check_message, text_like};
use crosscap_topology::Board;
use proptest::prelude::*;

const MOVES: &[&str] = &["a1", "c3", "swap", "f2", "b4"];

const POSITIONS: &[&str] = &[
    ".XO/..XO/..OO./.XOX../XOX../X...",
    "X",
    "........................",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_move_text_is_played_or_refused_cleanly(
        opening in prop::sample::select(&[Opening::Standard, Opening::Swap][..]),
        first in text_like(MOVES),
        second in text_like(MOVES),
    ) {
        let mut game = ProjectiveHex::on_board("taylor:3", opening).unwrap();
        for text in [first, second] {
            if let Err(error) = game.play_text(&text) {
                check_message(&text, &error.to_string())?;
            }
        }
    }

    #[test]
    fn any_position_text_gives_a_game_or_a_clean_error(text in text_like(POSITIONS)) {
        let geometry = Arc::new(Geometry::new(Board::from_spec("taylor:3").unwrap()).unwrap());
        if let Err(error) = ProjectiveHex::from_position_text(geometry, &text) {
            check_message(&text, &error.to_string())?;
        }
    }
}
