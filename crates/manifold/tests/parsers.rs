//! Any text given as a surface, a 2-manifold or a move: a value or a clean error, never a
//! panic.

use crosscap_engine::Notation;
use crosscap_manifold::{Manifold, ManifoldGame, Surface, playable_position};
use crosscap_testkit::{check_message, text_like};
use proptest::prelude::*;

const MANIFOLDS: &[&str] = &["n5 o2", "S", "sphere", "o10000000", "n3 o2 n5, S+n3", "N3"];

const MOVES: &[&str] = &[
    "g:n5->n2+n3",
    "n5->n2+n3",
    "c:n5->n4",
    "a:o2->o1",
    "o2→o1+o1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_surface_text_reads_back_or_is_refused_cleanly(text in text_like(MANIFOLDS)) {
        match text.parse::<Surface>() {
            Ok(surface) => prop_assert_eq!(surface.to_string().parse::<Surface>(), Ok(surface)),
            Err(error) => check_message(&text, &error.to_string())?,
        }
        match text.parse::<Manifold>() {
            Ok(manifold) => {
                prop_assert_eq!(manifold.to_string().parse::<Manifold>(), Ok(manifold))
            }
            Err(error) => check_message(&text, &error.to_string())?,
        }
        if let Err(error) = playable_position(&text) {
            check_message(&text, &error.to_string())?;
        }
    }

    #[test]
    fn any_move_text_is_played_or_refused_cleanly(text in text_like(MOVES)) {
        let mut game = ManifoldGame::new("n5 o2".parse().unwrap());
        if let Err(error) = game.play_text(&text) {
            check_message(&text, &error.to_string())?;
        }
    }
}
