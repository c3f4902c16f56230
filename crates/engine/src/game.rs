//! The traits every game implements.

use std::fmt::{self, Debug};
use std::hash::Hash;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::budget::Meter;
use crate::rng::Rng;

/// One of the two players. `X` moves first in every Crosscap game. Its small methods are
/// `#[inline]`: the game crates call them in their solvers' innermost loops, and without
/// the hint they stay calls across the crate boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    X,
    O,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for X, 1 for O: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// +1 for X, -1 for O: turns X's margin into this player's.
    #[inline]
    pub fn sign(self) -> i32 {
        match self {
            Player::X => 1,
            Player::O => -1,
        }
    }

    /// Who wins when this player's value (a margin, or ±1) is `value`: this player above
    /// 0, the opponent below, nobody (a draw) at 0.
    pub fn winner_by(self, value: i32) -> Option<Player> {
        match value.signum() {
            1 => Some(self),
            -1 => Some(self.opponent()),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::X => "X",
            Player::O => "O",
        })
    }
}

/// The text was not `X` or `O`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown player {0:?}: expected X or O")]
pub struct ParsePlayerError(pub String);

impl FromStr for Player {
    type Err = ParsePlayerError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "X" | "x" => Ok(Player::X),
            "O" | "o" => Ok(Player::O),
            other => Err(ParsePlayerError(other.to_string())),
        }
    }
}

/// How a finished game ended.
///
/// `margin` is the final value from X's point of view, the quantity X maximises and O
/// minimises: ±1 for win/loss games, and for scored games the final score difference
/// (win/loss being the special case). The solver works on `margin`; `winner` is what
/// players are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Player>,
    pub margin: i32,
}

impl Outcome {
    /// A win/loss game won by `player`.
    pub fn win(player: Player) -> Outcome {
        Outcome {
            winner: Some(player),
            margin: player.sign(),
        }
    }

    /// A scored game: `margin` from X's point of view, `winner` by the game's rule.
    pub fn scored(margin: i32, winner: Option<Player>) -> Outcome {
        Outcome { winner, margin }
    }

    /// The margin from `player`'s point of view.
    pub fn value_for(&self, player: Player) -> i32 {
        self.margin * player.sign()
    }
}

/// A two-player, alternating, perfect-information game position.
///
/// Positions are cheap to clone; search clones instead of undoing. `play` is only
/// called with a move from `legal_moves` (user input goes through [`Notation`]).
pub trait Game: Clone + Send + Sync {
    type Move: Clone + Eq + Hash + Debug + Send + Sync;

    /// The player to move (meaningful only while the game is not over).
    fn to_move(&self) -> Player;

    /// Every legal move; empty exactly when the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays a legal move for the player to move.
    fn play(&mut self, mv: &Self::Move);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A hash of the position (including whatever decides the future, such as the
    /// player to move) for transposition tables.
    fn position_hash(&self) -> u64;

    /// The moves the exact solver tries: every legal move by default. A game may leave
    /// out moves that a kept one dominates (at least as good for the mover whatever
    /// follows), which keeps every value exact; the optimal moves are still sought among
    /// all of [`Game::legal_moves`].
    fn search_moves(&self) -> Vec<Self::Move> {
        self.legal_moves()
    }

    /// Move-ordering hook for the exact solver: put likely-best moves first.
    fn order_moves(&self, _moves: &mut [Self::Move]) {}

    /// Bounds `(least, most)` on the final margin (X's point of view, as
    /// [`Outcome::margin`]) that every continuation of the position keeps, where the game
    /// knows cheap ones: the exact searches settle a node without searching it when the
    /// bounds already decide their question. `None` (the default): no bounds known.
    fn margin_bounds(&self) -> Option<(i32, i32)> {
        None
    }

    /// [`Game::margin_bounds`] for a search that only asks whether the margin is at most
    /// `low` or at least `high` (X's point of view): a game whose bounds cost a search of
    /// their own may stop it and answer `None` as soon as it knows they answer neither
    /// (least below `high`, most above `low`, least below most). The default works them
    /// out in full.
    fn margin_bounds_deciding(&self, _low: i32, _high: i32) -> Option<(i32, i32)> {
        self.margin_bounds()
    }

    /// Whether the exact solver may play every move of a node and look its child up in the
    /// table before searching any (an enhanced transposition cutoff). It pays where a move
    /// is cheap to play and subtrees are dear; off by default, since a game whose moves
    /// cost much (a sandpile's topplings) would pay a play per move at every node.
    const CHILDREN_LOOKED_UP_FIRST: bool = false;

    /// About how many bytes a copy of the position holds, parts shared between copies
    /// (a board behind an `Arc`) not counted: searches that keep positions count them
    /// against their memory cap, and the server its games in memory. Games whose
    /// positions own heap data override it.
    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
    }

    /// One uniformly random legal move, or `None` when the game is over. Games with a
    /// cheaper way than listing every move override this.
    fn random_move(&self, rng: &mut Rng) -> Option<Self::Move> {
        let moves = self.legal_moves();
        if moves.is_empty() {
            None
        } else {
            Some(moves[rng.below(moves.len())].clone())
        }
    }

    /// Plays random moves to the end and returns the outcome, or `None` when `meter` runs
    /// out first (it is polled at every move, so a cancel binds even when one playout is
    /// long). Games override this with a faster playout where they have one (e.g. fill the
    /// board, then score once).
    fn playout(&mut self, rng: &mut Rng, meter: &mut Meter) -> Option<Outcome> {
        loop {
            if let Some(outcome) = self.outcome() {
                return Some(outcome);
            }
            if meter.poll() {
                return None;
            }
            match self.random_move(rng) {
                Some(mv) => self.play(&mv),
                None => unreachable!("a game that is not over has a legal move"),
            }
        }
    }
}

/// Why a move given as text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("cannot read move {text:?}: {reason}")]
    Malformed { text: String, reason: String },
    #[error("illegal move {}: {reason}", .text.escape_debug())]
    Illegal { text: String, reason: String },
    #[error("the game is over")]
    GameOver,
}

impl MoveError {
    pub fn malformed(text: &str, reason: impl Into<String>) -> MoveError {
        MoveError::Malformed {
            text: text.to_string(),
            reason: reason.into(),
        }
    }

    pub fn illegal(text: &str, reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// The game's one move notation, used alike by the CLI, JSON output, the web API and
/// game records.
pub trait Notation: Game {
    /// Reads a move and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Writes a move so that `parse_move` reads it back.
    fn format_move(&self, mv: &Self::Move) -> String;

    /// Parses and plays a move given as text.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = self.parse_move(text)?;
        self.play(&mv);
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse_and_print() {
        for p in Player::BOTH {
            assert_eq!(p.to_string().parse::<Player>().unwrap(), p);
            assert_eq!(p.opponent().opponent(), p);
        }
        assert!("Z".parse::<Player>().is_err());
    }

    #[test]
    fn move_errors_escape_the_text_they_echo() {
        let error = MoveError::illegal("a1\u{1b}[31m\n", "no such cell").to_string();
        assert_eq!(error, "illegal move a1\\u{1b}[31m\\n: no such cell");
        let error = MoveError::malformed("a1\n", "no such cell").to_string();
        assert_eq!(error, "cannot read move \"a1\\n\": no such cell");
    }

    #[test]
    fn outcome_values() {
        assert_eq!(Outcome::win(Player::O).value_for(Player::O), 1);
        assert_eq!(Outcome::scored(3, Some(Player::X)).value_for(Player::O), -3);
    }
}
