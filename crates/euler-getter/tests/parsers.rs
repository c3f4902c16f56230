//! Any text given as a move: played or refused cleanly, never a panic.

use crosscap_engine::Notation;
use crosscap_euler_getter::{EulerGetter, Rule, SwapRule, load_board};
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const MOVES: &[&str] = &["1", "swap", "6", "a1", "b2"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_move_text_is_played_or_refused_cleanly(
        first in text_like(MOVES),
        second in text_like(MOVES),
    ) {
        let complex = load_board("goldberg:1").unwrap();
        let swap: SwapRule = "1".parse().unwrap();
        let mut game = EulerGetter::new(complex, Rule::default(), swap);
        for text in [first, second] {
            if let Err(error) = game.play_text(&text) {
                check_message(&text, &error.to_string())?;
            }
        }
    }
}
