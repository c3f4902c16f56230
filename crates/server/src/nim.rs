//! Nim for the web app: the engine's reference game, small enough to test the server with.

use crosscap_engine::NormalPlay;
use crosscap_engine::agents::standard_agent;
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::nim::Nim;
use crosscap_engine::session::{GameMatch, Match, SetupLimits};
use serde_json::{Value, json};

/// Most heaps and most counters per heap a web game of Nim accepts.
pub const MAX_HEAPS: usize = 12;
pub const MAX_HEAP: u32 = 99;

/// A Nim game from heap sizes such as `3 4 5` (spaces or commas). Nim has no options.
pub fn new_match(
    board: &str,
    options: &Value,
    limits: &SetupLimits,
) -> Result<Box<dyn Match>, String> {
    if !(options.is_null() || options.as_object().is_some_and(|o| o.is_empty())) {
        return Err("Nim has no options".into());
    }
    let heaps = board
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u32>()
                .map_err(|_| format!("bad heap {s:?}: expected a number of counters"))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    if heaps.is_empty() || heaps.len() > MAX_HEAPS {
        return Err(format!("Nim takes 1 to {MAX_HEAPS} heaps, e.g. `3 4 5`"));
    }
    if let Some(&big) = heaps.iter().find(|&&h| h > MAX_HEAP) {
        return Err(format!("heap {big} is too large (at most {MAX_HEAP})"));
    }
    let moves = heaps.iter().map(|&h| u128::from(h)).sum();
    limits.check_moves(moves).map_err(|e| e.to_string())?;
    Ok(Box::new(GameMatch::new(
        NormalPlay::new(Nim::new(heaps)),
        "nim",
        |level, seed| standard_agent(level, MctsConfig::default(), seed),
        |g| json!({ "heaps": g.position.heaps }),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heaps_parse_and_limits_hold() {
        let m = new_match("3, 4 5", &Value::Null, &SetupLimits::default()).unwrap();
        assert_eq!(m.view()["heaps"], json!([3, 4, 5]));
        assert!(new_match("", &Value::Null, &SetupLimits::default()).is_err());
        assert!(new_match("3 x", &Value::Null, &SetupLimits::default()).is_err());
        assert!(new_match("100", &Value::Null, &SetupLimits::default()).is_err());
        assert!(new_match("3", &json!({"swap": true}), &SetupLimits::default()).is_err());
    }
}
