//! Any text given as a token list or a move: a value or a clean error, never a panic.

use std::sync::Arc;

use crosscap_edge_nim::{EdgeNim, EdgeNimGame, parse_tokens};
use crosscap_engine::Notation;
use crosscap_graphs::Graph;
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "3,1,0,2,0,1",
    "a=3,b=1",
    "*=2,A=0",
    "3 1 0 2 0 1",
    "*=4294967295",
];

const MOVES: &[&str] = &["1:a=0,b=2", "2:a=1", "4:C=0,A=1,B=0", "1:a=2"];

fn tetrahedron() -> Arc<Graph> {
    Arc::new(Graph::from_spec("tetrahedron").unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_token_text_gives_a_position_or_a_clean_error(text in text_like(TOKENS)) {
        let graph = tetrahedron();
        match parse_tokens(&graph, &text) {
            Ok(tokens) => prop_assert!(EdgeNim::new(graph, tokens).is_ok()),
            Err(error) => check_message(&text, &error.to_string())?,
        }
    }

    #[test]
    fn any_move_text_is_played_or_refused_cleanly(text in text_like(MOVES)) {
        let position = EdgeNim::parse(tetrahedron(), "3,1,0,2,0,1").unwrap();
        let mut game = EdgeNimGame::new(position);
        if let Err(error) = game.play_text(&text) {
            check_message(&text, &error.to_string())?;
        }
    }
}
