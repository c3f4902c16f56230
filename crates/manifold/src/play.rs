//! Playing the game: the perfect player (which reads the G-series) and the
//! [`Match`](crosscap_engine::session::Match) the web server holds.

use crosscap_engine::agents::standard_agent;
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::session::{GameMatch, Match, SetupLimits};
use crosscap_engine::{Agent, Budget, Game, Impartial, Level, NormalPlay, Rng};
use serde_json::{Value, json};

use crate::ManifoldError;
use crate::moves::Move;
use crate::series::Series;
use crate::surface::Manifold;

/// The game as the engine plays it.
pub type ManifoldGame = NormalPlay<Manifold>;

/// The largest genus of a surface in a game that is played move by move (each move list
/// is as long as the genus).
pub const MAX_PLAY_GENUS: u32 = 1000;

/// Plays a random move to a position of G-value 0 when there is one (a perfect player),
/// else a random move.
pub struct PerfectPlayer {
    rng: Rng,
    series: Series,
}

impl PerfectPlayer {
    pub fn new(seed: u64) -> Self {
        PerfectPlayer {
            rng: Rng::new(seed),
            series: Series::compute(0),
        }
    }
}

impl Agent<ManifoldGame> for PerfectPlayer {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &ManifoldGame, _budget: &Budget) -> Option<Move> {
        let position = &game.position;
        if position.max_genus() > self.series.max_genus() {
            self.series = Series::compute(position.max_genus());
        }
        let winning = self
            .series
            .winning_moves(position)
            .expect("the series reaches the position's genus");
        let pool = if winning.is_empty() {
            position.moves()
        } else {
            winning
        };
        (!pool.is_empty()).then(|| pool[self.rng.below(pool.len())])
    }
}

/// The agent for a level: `perfect` is [`PerfectPlayer`]; the others are the engine's.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<ManifoldGame>> {
    match level {
        Level::Perfect => Box::new(PerfectPlayer::new(seed)),
        other => standard_agent(other, MctsConfig::default(), seed),
    }
}

/// Reads a position to be played, refusing surfaces beyond [`MAX_PLAY_GENUS`].
pub fn playable_position(board: &str) -> Result<Manifold, ManifoldError> {
    let position: Manifold = board.parse()?;
    let genus = position.max_genus();
    if genus > MAX_PLAY_GENUS {
        return Err(ManifoldError::TooLarge {
            genus,
            purpose: "a game played move by move",
            max: MAX_PLAY_GENUS,
        });
    }
    Ok(position)
}

/// A game for the web server. `board` is the starting 2-manifold, e.g. `n5 o2`. The game
/// has no options: `options` must be `null` or `{}` (anything else is refused, so that a
/// misspelt option does not pass unnoticed).
pub fn new_match(
    board: &str,
    options: &Value,
    limits: &SetupLimits,
) -> Result<Box<dyn Match>, ManifoldError> {
    match options {
        Value::Null => {}
        Value::Object(map) if map.is_empty() => {}
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().map(|k| k.escape_debug().to_string()).collect();
            return Err(ManifoldError::BadOptions(format!(
                "the manifold game has no options (got {})",
                keys.join(", ")
            )));
        }
        other => {
            return Err(ManifoldError::BadOptions(format!(
                "expected an object, got {other}"
            )));
        }
    }
    Ok(Box::new(GameMatch::new(
        new_game(board, limits)?,
        "manifold",
        agent,
        view,
    )))
}

/// A new game from the 2-manifold `board` (e.g. `n5 o2`): the one setup that the command
/// line and [`new_match`] go through. A position with more moves than `limits` allows is
/// refused (its genus is bounded by [`MAX_PLAY_GENUS`] first, so counting its moves is
/// cheap).
pub fn new_game(board: &str, limits: &SetupLimits) -> Result<ManifoldGame, ManifoldError> {
    let position = playable_position(board)?;
    limits.check_moves(position.moves().len() as u128)?;
    Ok(NormalPlay::new(position))
}

/// What a page needs to draw a position: each surface with its orientability, genus and
/// Euler characteristic, and every legal move with the curve it cuts in words.
pub fn view(game: &ManifoldGame) -> Value {
    let surfaces: Vec<Value> = game
        .position
        .surfaces()
        .iter()
        .map(|s| {
            json!({
                "name": s.to_string(),
                "orientable": s.is_orientable(),
                "genus": s.genus(),
                "euler_characteristic": s.euler_characteristic(),
            })
        })
        .collect();
    let moves: Vec<Value> = game
        .legal_moves()
        .iter()
        .map(|m| {
            json!({
                "move": m.to_string(),
                "letter": m.letter,
                "from": m.from,
                "into": m.into.surfaces(),
                "curve": m.letter.description(),
            })
        })
        .collect();
    json!({
        "position": game.position.to_string(),
        "to_move": game.to_move(),
        "surfaces": surfaces,
        "moves": moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Option names are echoed escaped: one line, no terminal escapes.
    #[test]
    fn option_names_are_escaped() {
        let options = json!({ "swap": 1, "x\u{1b}[31m\n": 2 });
        let error = new_match("n2", &options, &SetupLimits::default())
            .err()
            .unwrap()
            .to_string();
        assert!(error.ends_with("(got swap, x\\u{1b}[31m\\n)"), "{error}");
    }
}
