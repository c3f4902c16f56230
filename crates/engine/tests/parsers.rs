//! Any text given as a level or a player: a value or a clean error, never a panic.

use crosscap_engine::{Level, Player};
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const LEVELS: &[&str] = &["hard", "perfect", "flatmc:160", "mcts:500"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_level_name_reads_back_or_is_refused_cleanly(text in text_like(LEVELS)) {
        match text.parse::<Level>() {
            Ok(level) => prop_assert_eq!(level.to_string().parse::<Level>(), Ok(level)),
            Err(error) => check_message(&text, &error.to_string())?,
        }
    }

    #[test]
    fn any_player_name_reads_back_or_is_refused_cleanly(text in text_like(&["X", "O", "x"])) {
        match text.parse::<Player>() {
            Ok(player) => prop_assert_eq!(player.to_string().parse::<Player>(), Ok(player)),
            Err(error) => check_message(&text, &error.to_string())?,
        }
    }
}
