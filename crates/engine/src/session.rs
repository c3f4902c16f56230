//! An object-safe view of a game in progress, so that the web server (and anything else
//! that handles "some game") can hold any Crosscap game behind one interface.

use serde_json::Value;

use crate::agents::{Agent, Level};
use crate::budget::Budget;
use crate::game::{MoveError, Notation, Outcome, Player};

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
