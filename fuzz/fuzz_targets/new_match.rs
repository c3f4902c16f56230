//! Game creation as every host does it: `Catalog::start` with any game name, board text
//! and options, under the default `SetupLimits`, then what a creation answers (the legal
//! moves, the view and, for surface games, the board's drawing). Run with
//! `-rss_limit_mb=2048 -timeout=10`: an answer must come within the limits.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_engine::catalog::{Catalog, Setup};
use crosscap_engine::session::SetupLimits;
use serde_json::Value;

static CATALOG: LazyLock<Catalog> = LazyLock::new(crosscap_catalog::standard);

#[derive(Debug, Arbitrary)]
enum GameName {
    Known(u8),
    Other(String),
}

#[derive(Debug, Arbitrary)]
struct Request {
    game: GameName,
    board: String,
    /// JSON text; text that is not JSON is sent as a JSON string.
    options: String,
}

fuzz_target!(|request: Request| {
    let names = CATALOG.names();
    let game = match &request.game {
        GameName::Known(i) => names[usize::from(*i) % names.len()].to_string(),
        GameName::Other(name) => name.clone(),
    };
    // The server refuses `file:` boards before the game sees them.
    if request.board.trim_start().starts_with("file:") {
        return;
    }
    let options = serde_json::from_str(&request.options)
        .unwrap_or_else(|_| Value::String(request.options.clone()));
    let setup = Setup {
        board: &request.board,
        options: &options,
    };
    match CATALOG.start(&game, &setup, &SetupLimits::default()) {
        Ok(game_match) => {
            let _ = (
                game_match.legal_moves(),
                game_match.view(),
                game_match.outcome(),
            );
            if let Some(layout) = CATALOG.get(&game).and_then(|g| g.layout) {
                let _ = layout(&request.board);
            }
        }
        Err(error) => {
            let _ = error.0.len();
        }
    }
});
