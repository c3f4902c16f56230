//! Nim, the engine's first game and the theory under every other impartial game.
//!
//! Move notation: `HEAP:SIZE`, heaps numbered from 1, SIZE the number of counters left
//! in that heap (e.g. `3:1` leaves one counter in the third heap).

use crate::game::{MoveError, Notation};
use crate::impartial::{Impartial, NormalPlay};

/// A Nim position: the heap sizes, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    pub heaps: Vec<u32>,
}

/// Reduce heap `heap` (0-based) to `to` counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimMove {
    pub heap: usize,
    pub to: u32,
}

impl Nim {
    pub fn new(heaps: Vec<u32>) -> Self {
        Nim { heaps }
    }
}

impl Impartial for Nim {
    type Move = NimMove;

    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.heaps.len() * std::mem::size_of::<u32>()
    }

    fn moves(&self) -> Vec<NimMove> {
        self.heaps
            .iter()
            .enumerate()
            .flat_map(|(heap, &size)| (0..size).map(move |to| NimMove { heap, to }))
            .collect()
    }

    fn after(&self, mv: &NimMove) -> Self {
        let mut next = self.clone();
        next.heaps[mv.heap] = mv.to;
        next
    }

    /// Each non-empty heap is a game of its own.
    fn components(&self) -> Vec<Self> {
        if self.heaps.len() == 1 {
            return vec![self.clone()];
        }
        self.heaps
            .iter()
            .filter(|&&h| h > 0)
            .map(|&h| Nim::new(vec![h]))
            .collect()
    }
}

/// Formats a Nim move as `HEAP:SIZE`.
pub fn format_move(mv: &NimMove) -> String {
    format!("{}:{}", mv.heap + 1, mv.to)
}

impl Notation for NormalPlay<Nim> {
    fn parse_move(&self, text: &str) -> Result<NimMove, MoveError> {
        let (heap, size) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| MoveError::malformed(text, "expected HEAP:SIZE, e.g. 2:0"))?;
        let heap: usize = heap
            .trim()
            .parse()
            .map_err(|_| MoveError::malformed(text, "the heap must be a number from 1"))?;
        let to: u32 = size
            .trim()
            .parse()
            .map_err(|_| MoveError::malformed(text, "the size left must be a number"))?;
        let heaps = &self.position.heaps;
        if heap == 0 || heap > heaps.len() {
            return Err(MoveError::illegal(
                text,
                format!("there are heaps 1 to {}", heaps.len()),
            ));
        }
        if to >= heaps[heap - 1] {
            return Err(MoveError::illegal(
                text,
                format!(
                    "heap {heap} has {} counters; a move must leave fewer",
                    heaps[heap - 1]
                ),
            ));
        }
        Ok(NimMove { heap: heap - 1, to })
    }

    fn format_move(&self, mv: &NimMove) -> String {
        format_move(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation, Player};
    use crate::impartial::{GrundyTable, nim_sum};
    use crate::solver::{Budget, brute_force_value, solve};
    use proptest::prelude::*;

    fn small_nim() -> impl Strategy<Value = Nim> {
        prop::collection::vec(0u32..6, 1..4).prop_map(Nim::new)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(1), ..ProptestConfig::default() })]

        #[test]
        fn grundy_value_is_the_nim_sum(nim in small_nim()) {
            let mut table = GrundyTable::new();
            prop_assert_eq!(table.grundy(&nim), nim_sum(nim.heaps.iter().copied()));
        }

        #[test]
        fn winning_moves_reach_nim_sum_zero(nim in small_nim()) {
            let mut table = GrundyTable::new();
            let winning = table.winning_moves(&nim);
            let expected: Vec<NimMove> = nim
                .moves()
                .into_iter()
                .filter(|m| nim_sum(nim.after(m).heaps) == 0)
                .collect();
            prop_assert_eq!(winning, expected);
        }

        #[test]
        fn solver_agrees_with_nim_sum_and_brute_force(nim in small_nim()) {
            let game = NormalPlay::new(nim.clone());
            let solution = solve(&game, Budget::unlimited()).unwrap();
            let expected = if nim_sum(nim.heaps.iter().copied()) == 0 { -1 } else { 1 };
            prop_assert_eq!(solution.value, expected);
            prop_assert_eq!(brute_force_value(&game), expected);
            if expected == 1 {
                let mut table = GrundyTable::new();
                let mut best = solution.best_moves.clone();
                let mut winning = table.winning_moves(&nim);
                best.sort_by_key(|m| (m.heap, m.to));
                winning.sort_by_key(|m| (m.heap, m.to));
                prop_assert_eq!(best, winning);
            }
        }
    }

    #[test]
    fn three_four_five() {
        let nim = Nim::new(vec![3, 4, 5]);
        let mut table = GrundyTable::new();
        assert_eq!(table.grundy(&nim), 2);
        let moves: Vec<String> = table.winning_moves(&nim).iter().map(format_move).collect();
        assert_eq!(moves, vec!["1:1"]);
    }

    #[test]
    fn paper_example_has_three_winning_moves() {
        let nim = Nim::new(vec![50, 53, 30, 14]);
        let mut table = GrundyTable::new();
        assert_eq!(table.grundy(&nim), 23);
        let moves: Vec<String> = table.winning_moves(&nim).iter().map(format_move).collect();
        assert_eq!(moves, vec!["1:37", "2:34", "3:9"]);
    }

    #[test]
    fn notation_reads_back_and_refuses_bad_moves() {
        let mut game = NormalPlay::new(Nim::new(vec![3, 4, 5]));
        let mv = game.parse_move("2:1").unwrap();
        assert_eq!(game.format_move(&mv), "2:1");
        for bad in ["", "2", "x:1", "0:1", "4:0", "2:4", "2:9", "1:-1"] {
            assert!(game.parse_move(bad).is_err(), "{bad}");
        }
        game.play_text("1:0").unwrap();
        assert_eq!(game.to_move(), Player::O);
    }
}
