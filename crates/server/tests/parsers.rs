//! Any game name, board text and options given to the catalog (what a creation request
//! carries): a game within the default setup limits or a clean error, never a panic.

use crosscap_engine::catalog::Setup;
use crosscap_engine::session::SetupLimits;
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;
use serde_json::Value;

/// The catalog's game names, as the `'static` list the text strategies take.
fn games() -> &'static [&'static str] {
    crosscap_catalog::standard().names().leak()
}

const BOARDS: &[&str] = &[
    "taylor:3",
    "goldberg:1",
    "tetrahedron",
    "C4",
    "n5 o2",
    "grid:3x3",
    "P3",
    "3 4 5",
    "K1,3",
    "star:99999",
    "K65536,2",
];

const OPTIONS: &[&str] = &[
    "{}",
    "null",
    r#"{"opening": "swap"}"#,
    r#"{"rule": "reverse", "swap": 1}"#,
    r#"{"tokens": "4294967295"}"#,
    r#"{"position": "X0,O1,."}"#,
    r#"{"moves": ["c3"]}"#,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_creation_gives_a_game_or_a_clean_error(
        game in prop_oneof![
            4 => prop::sample::select(games()).prop_map(str::to_string),
            1 => text_like(games()),
        ],
        board in text_like(BOARDS),
        options in text_like(OPTIONS),
    ) {
        prop_assume!(!board.trim_start().starts_with("file:"));
        let options = serde_json::from_str(&options).unwrap_or(Value::String(options));
        let limits = SetupLimits::default();
        let setup = Setup { board: &board, options: &options };
        match crosscap_catalog::standard().start(&game, &setup, &limits).map_err(|e| e.0) {
            Ok(created) => prop_assert!(created.legal_moves().len() <= limits.max_legal_moves),
            Err(error) => check_message(&format!("{game} {board} {options}"), &error)?,
        }
    }
}
