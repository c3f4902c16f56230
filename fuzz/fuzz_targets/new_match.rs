//! The server's game creation: `Registry::new_match` with any game name, board text and
//! options, under the default `SetupLimits`, then what a creation answers (the legal
//! moves, the view and, for surface games, the board's drawing). Run with
//! `-rss_limit_mb=2048 -timeout=10`: an answer must come within the limits.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

use std::sync::LazyLock;

use crosscap_engine::session::SetupLimits;
use crosscap_server::Registry;
use crosscap_server::registry::surface_layout;
use serde_json::Value;

static REGISTRY: LazyLock<Registry> = LazyLock::new(Registry::standard);

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
    let names = REGISTRY.names();
    let game = match &request.game {
        GameName::Known(i) => names[usize::from(*i) % names.len()].to_string(),
        GameName::Other(name) => name.clone(),
    };
    // The server refuses `file:` boards before the registry sees them.
    if request.board.trim_start().starts_with("file:") {
        return;
    }
    let options = serde_json::from_str(&request.options)
        .unwrap_or_else(|_| Value::String(request.options.clone()));
    match REGISTRY.new_match(&game, &request.board, &options, &SetupLimits::default()) {
        Ok(game_match) => {
            let _ = (
                game_match.legal_moves(),
                game_match.view(),
                game_match.outcome(),
            );
            if REGISTRY.get(&game).is_some_and(|kind| kind.surface_board) {
                let _ = surface_layout(&request.board);
            }
        }
        Err(error) => {
            let _ = error.len();
        }
    }
});
