//! Move notation for impartial games played as [`NormalPlay`]: a game crate cannot
//! implement the engine's [`Notation`] for `NormalPlay<ItsGame>` itself (both are foreign
//! to it), so it implements [`ImpartialNotation`] on its position type instead and
//! `NormalPlay` gets [`Notation`] from it.

use crate::game::{MoveError, Notation};
use crate::impartial::{Impartial, NormalPlay};

/// The text notation of an impartial game's moves.
pub trait ImpartialNotation: Impartial {
    /// Reads a move and checks that it is legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Writes a move so that `parse_move` reads it back.
    fn format_move(&self, mv: &Self::Move) -> String;
}

impl<G: ImpartialNotation> Notation for NormalPlay<G> {
    fn parse_move(&self, text: &str) -> Result<G::Move, MoveError> {
        self.position.parse_move(text)
    }

    fn format_move(&self, mv: &G::Move) -> String {
        self.position.format_move(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// One heap from which 1 or 2 counters are taken; moves written as the count taken.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Heap(u32);

    impl Impartial for Heap {
        type Move = u32;
        fn moves(&self) -> Vec<u32> {
            [1, 2].into_iter().filter(|&k| k <= self.0).collect()
        }
        fn after(&self, k: &u32) -> Self {
            Heap(self.0 - k)
        }
    }

    impl ImpartialNotation for Heap {
        fn parse_move(&self, text: &str) -> Result<u32, MoveError> {
            let k: u32 = text
                .trim()
                .parse()
                .map_err(|_| MoveError::malformed(text, "expected 1 or 2"))?;
            if self.moves().contains(&k) {
                Ok(k)
            } else {
                Err(MoveError::illegal(text, "take 1 or 2, at most the heap"))
            }
        }
        fn format_move(&self, mv: &u32) -> String {
            mv.to_string()
        }
    }

    #[test]
    fn normal_play_reads_and_writes_moves_through_the_position() {
        let mut game = NormalPlay::new(Heap(3));
        assert!(game.play_text("3").is_err());
        assert_eq!(game.play_text(" 2 ").unwrap(), 2);
        assert_eq!(game.format_move(&1), "1");
        game.play_text("1").unwrap();
        assert!(game.outcome().is_some());
    }
}
