//! An object-safe view of a game in progress, so that the web server (and anything else
//! that handles "some game") can hold any Crosscap game behind one interface.

use serde::Serialize;
use serde_json::Value;

use crate::agents::{Agent, Level};
use crate::budget::Budget;
use crate::game::{MoveError, Notation, Outcome, Player};

/// What a host allows of the games it builds. Each game checks it in the one constructor
/// that the CLI and the server both call, before any work that grows with the board
/// (listing moves, symmetries, tables), from counts it can estimate without that work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SetupLimits {
    /// Most legal moves in the starting position: the measure of size every game shares.
    pub max_legal_moves: usize,
}

impl Default for SetupLimits {
    /// 5,000 legal moves: Projective Hex and Euler Getter on taylor:40 (4,800 cells) fit.
    fn default() -> Self {
        SetupLimits {
            max_legal_moves: 5_000,
        }
    }
}

/// A game over its host's [`SetupLimits`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the board is too large: {moves} legal moves (at most {max})")]
pub struct TooLarge {
    /// The count or estimate, as text (it may not fit any integer type).
    pub moves: String,
    pub max: usize,
}

impl SetupLimits {
    /// Refuses a game whose starting position has (at least) `moves` legal moves, a count
    /// made with saturating arithmetic (so `u128::MAX` stands for "more than that").
    pub fn check_moves(&self, moves: u128) -> Result<(), TooLarge> {
        if moves > self.max_legal_moves as u128 {
            return Err(TooLarge {
                moves: if moves == u128::MAX {
                    "more than 10^38".to_string()
                } else {
                    moves.to_string()
                },
                max: self.max_legal_moves,
            });
        }
        Ok(())
    }
}

/// A game in progress, driven by moves in the game's text notation.
pub trait Match: Send + Sync {
    /// The game's name, e.g. `projective-hex`.
    fn game(&self) -> &'static str;

    /// The player to move, or `None` once the game is over.
    fn to_move(&self) -> Option<Player>;

    /// Every legal move, in notation.
    fn legal_moves(&self) -> Vec<String>;

    /// Plays a move given in notation; returns it normalised. A refused move changes
    /// nothing.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The position and whatever the page needs to draw it (game-specific JSON).
    fn view(&self) -> Value;

    /// The computer's move at `level`, in notation (`None` when the game is over), found
    /// within `budget` (cut short, the best move found so far).
    fn computer_move(&self, level: Level, seed: u64, budget: &Budget) -> Option<String>;

    /// About how many bytes the game holds, its shared board not counted.
    fn memory_bytes(&self) -> usize;

    fn clone_box(&self) -> Box<dyn Match>;
}

/// Makes an agent for a level and seed.
pub type AgentMaker<G> = fn(Level, u64) -> Box<dyn Agent<G>>;

/// The [`Match`] of any game with a notation: each game supplies its name, its agents and
/// how to describe a position for drawing.
pub struct GameMatch<G: Notation> {
    pub game: G,
    name: &'static str,
    agents: AgentMaker<G>,
    view: fn(&G) -> Value,
}

impl<G: Notation> Clone for GameMatch<G> {
    fn clone(&self) -> Self {
        GameMatch {
            game: self.game.clone(),
            name: self.name,
            agents: self.agents,
            view: self.view,
        }
    }
}

impl<G: Notation> GameMatch<G> {
    pub fn new(game: G, name: &'static str, agents: AgentMaker<G>, view: fn(&G) -> Value) -> Self {
        GameMatch {
            game,
            name,
            agents,
            view,
        }
    }
}

impl<G: Notation + 'static> Match for GameMatch<G> {
    fn game(&self) -> &'static str {
        self.name
    }

    fn to_move(&self) -> Option<Player> {
        self.game.outcome().is_none().then(|| self.game.to_move())
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.game
            .legal_moves()
            .iter()
            .map(|m| self.game.format_move(m))
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.game.play_text(text)?;
        Ok(self.game.format_move(&mv))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn view(&self) -> Value {
        (self.view)(&self.game)
    }

    fn computer_move(&self, level: Level, seed: u64, budget: &Budget) -> Option<String> {
        let mut agent = (self.agents)(level, seed);
        agent
            .choose(&self.game, budget)
            .map(|mv| self.game.format_move(&mv))
    }

    fn memory_bytes(&self) -> usize {
        self.game.memory_bytes()
    }

    fn clone_box(&self) -> Box<dyn Match> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::standard_agent;
    use crate::impartial::NormalPlay;
    use crate::mcts::MctsConfig;
    use crate::nim::Nim;

    fn nim_match() -> Box<dyn Match> {
        Box::new(GameMatch::new(
            NormalPlay::new(Nim::new(vec![1, 2])),
            "nim",
            |level, seed| standard_agent(level, MctsConfig::default(), seed),
            |g| serde_json::json!({ "heaps": g.position.heaps }),
        ))
    }

    #[test]
    fn setup_limits_name_the_count() {
        let limits = SetupLimits::default();
        assert!(limits.check_moves(5_000).is_ok());
        let err = limits.check_moves(5_001).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the board is too large: 5001 legal moves (at most 5000)"
        );
        assert!(
            limits
                .check_moves(u128::MAX)
                .unwrap_err()
                .to_string()
                .contains("more than 10^38")
        );
    }

    #[test]
    fn a_match_plays_through_text() {
        let mut m = nim_match();
        assert_eq!(m.legal_moves(), vec!["1:0", "2:0", "2:1"]);
        assert!(m.play("9:0").is_err());
        assert_eq!(m.legal_moves().len(), 3, "a refused move changes nothing");
        assert_eq!(m.play(" 2:0 ").unwrap(), "2:0");
        assert_eq!(m.to_move(), Some(Player::O));
        let reply = m
            .computer_move(Level::Perfect, 1, &Budget::unlimited())
            .unwrap();
        m.play(&reply).unwrap();
        assert_eq!(m.outcome().unwrap().winner, Some(Player::O));
        assert_eq!(m.to_move(), None);
        assert_eq!(m.view()["heaps"], serde_json::json!([0, 0]));
        assert!(matches!(m.play("1:0"), Err(MoveError::GameOver)));
    }
}
