//! What the fuzz targets share: reading bytes as text, building the fixed positions that
//! move notations are tried on, and playing lines of text as moves.

use std::borrow::Cow;

use crosscap_engine::catalog::{GameDescriptor, Setup};
use crosscap_engine::session::{Match, SetupLimits};
use serde_json::Value;

/// The input as text: invalid UTF-8 becomes U+FFFD, so that no input is wasted.
pub fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The games `game` starts from `(board, options JSON)` pairs, as every host starts them;
/// each must start.
pub fn positions(game: &GameDescriptor, setups: &[(&str, &str)]) -> Vec<Box<dyn Match>> {
    setups
        .iter()
        .map(|(board, options)| {
            let options: Value = serde_json::from_str(options).expect("fixed options are JSON");
            let setup = Setup {
                board,
                options: &options,
            };
            match (game.start)(&setup, &SetupLimits::default()) {
                Ok(game) => game,
                Err(error) => panic!("fixed position {board} {options}: {}", error.0),
            }
        })
        .collect()
}

/// The first byte picks one of `games`; each line of the rest is a move played in turn
/// (at most 64). An accepted move must reach the position of a listed legal move (a list
/// names each position reached once, so `2:a=1` on Edge-Nim may stand for the listed
/// `1:a=1`); a refused move must leave the game as it was.
pub fn play_lines(games: &[Box<dyn Match>], data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let mut game = games[usize::from(pick) % games.len()].clone_box();
    for line in text(rest).split('\n').take(64) {
        let before = game.clone_box();
        let legal = game.legal_moves();
        match game.play(line) {
            Ok(normalised) => {
                let after = game.view();
                let listed = legal.contains(&normalised)
                    || legal.iter().any(|mv| {
                        let mut other = before.clone_box();
                        other.play(mv).is_ok() && other.view() == after
                    });
                assert!(
                    listed,
                    "{line:?} played as {normalised:?} reaches no listed move's position"
                );
                let _ = (game.outcome(), game.to_move());
            }
            Err(error) => {
                let _ = error.to_string();
                assert_eq!(
                    game.view(),
                    before.view(),
                    "a refused move changed the game"
                );
            }
        }
    }
}
