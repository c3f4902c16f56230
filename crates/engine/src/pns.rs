//! Proof-number search, depth-first (df-pn, Nagai 2002, with the 1+ε threshold trick of
//! Pawlewicz and Lew): proves or disproves that a player wins, generic over [`Game`].
//!
//! Where the exact solver ([`crate::solver`]) looks for a value by alpha-beta, df-pn only
//! asks "does this player win?" and always expands the most-proving node: the one that
//! settles the question with the fewest further leaves. That pays off in games with wide,
//! uneven trees and many forced lines, such as connection games. Proof and disproof
//! numbers live in a transposition table that persists between calls.
//!
//! Draws count as "not a win": for a game with draws, proving that X does not win and
//! proving that O does not win are two different questions.

use crate::budget::{Budget, Meter};
use crate::game::{Game, Player};
use crate::solver::SolveError;
use crate::table::BoundedTable;

/// Proof and disproof number of a position for its player to move: the least number of
/// leaves that must still be proven to show that the mover wins (`proof`) or that it
/// does not (`disproof`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    proof: u32,
    disproof: u32,
}

const INFINITE: u32 = u32::MAX / 4;
const WON: Numbers = Numbers {
    proof: 0,
    disproof: INFINITE,
};
const NOT_WON: Numbers = Numbers {
    proof: INFINITE,
    disproof: 0,
};
const UNKNOWN: Numbers = Numbers {
    proof: 1,
    disproof: 1,
};

/// A reusable prover.
pub struct ProofSearch<G: Game> {
    table: BoundedTable<Numbers>,
    budget: Budget,
    /// Nodes of the calls before the current one.
    nodes: u64,
    meter: Meter,
    /// The player whose win is being proven (draws are failures for it).
    attacker: Player,
    _game: std::marker::PhantomData<fn(G)>,
}

impl<G: Game> ProofSearch<G> {
    pub fn new(budget: Budget) -> Self {
        ProofSearch {
            table: BoundedTable::new(budget.max_memory),
            meter: budget.meter(),
            budget,
            nodes: 0,
            attacker: Player::X,
            _game: std::marker::PhantomData,
        }
    }

    /// Nodes expanded since this prover was made.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.meter.nodes()
    }

    /// Whether `player` wins `game` with perfect play (a draw is not a win).
    pub fn wins(&mut self, game: &G, player: Player) -> Result<bool, SolveError> {
        self.nodes += self.meter.nodes();
        self.meter = self.budget.meter();
        self.attacker = player;
        let numbers = self.search(game, INFINITE, INFINITE);
        if self.meter.exhausted().is_some() || (numbers.proof != 0 && numbers.disproof != 0) {
            return Err(self.meter.unknown());
        }
        let mover_wins = numbers.proof == 0;
        Ok(mover_wins == (game.to_move() == player))
    }

    /// The table key: positions are scored differently for the two attackers.
    fn key(&self, game: &G) -> u64 {
        let salt = match self.attacker {
            Player::X => 0,
            Player::O => 0x6A09_E667_F3BC_C909,
        };
        game.position_hash() ^ salt
    }

    /// The numbers of a finished game for its player to move.
    fn terminal(&self, game: &G) -> Option<Numbers> {
        let outcome = game.outcome()?;
        let mover = game.to_move();
        let mover_wins = match outcome.winner {
            Some(w) => w == mover,
            // A draw fails the attacker: good for the defender.
            None => mover != self.attacker,
        };
        Some(if mover_wins { WON } else { NOT_WON })
    }

    fn lookup(&self, game: &G) -> Numbers {
        if let Some(n) = self.terminal(game) {
            return n;
        }
        self.table.get(self.key(game)).copied().unwrap_or(UNKNOWN)
    }

    /// The multiple-iterative-deepening step: searches `game` until its proof number
    /// reaches `proof_limit` or its disproof number `disproof_limit`.
    fn search(&mut self, game: &G, proof_limit: u32, disproof_limit: u32) -> Numbers {
        if let Some(n) = self.terminal(game) {
            return n;
        }
        let nodes_before = self.meter.nodes();
        let stopped = self.meter.tick();
        let mover = game.to_move();
        let mut moves = game.legal_moves();
        game.order_moves(&mut moves);
        let children: Vec<G> = moves
            .iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                child
            })
            .collect();
        let key = self.key(game);
        loop {
            // Seen from the mover: a child helps its win through the child's proof
            // number when the opponent moves there, its disproof number otherwise.
            let mut proof = INFINITE;
            let mut disproof: u32 = 0;
            let mut best = 0;
            let mut second = INFINITE;
            let mut best_disproof = 0;
            for (i, child) in children.iter().enumerate() {
                let n = self.lookup(child);
                let (win, lose) = if child.to_move() == mover {
                    (n.proof, n.disproof)
                } else {
                    (n.disproof, n.proof)
                };
                disproof = disproof.saturating_add(lose).min(INFINITE);
                if win < proof {
                    second = proof;
                    proof = win;
                    best = i;
                    best_disproof = lose;
                } else if win < second {
                    second = win;
                }
            }
            let numbers = Numbers { proof, disproof };
            if proof >= proof_limit || disproof >= disproof_limit || stopped {
                if !stopped {
                    self.table
                        .insert(key, self.meter.nodes() - nodes_before, numbers);
                }
                return numbers;
            }
            // The most-proving child, with thresholds that return here as soon as
            // another child becomes more promising (1+ε: a little later, to thrash less).
            let win_limit = proof_limit.min(second.saturating_add(second / 4).saturating_add(1));
            let lose_limit = disproof_limit
                .saturating_sub(disproof)
                .saturating_add(best_disproof)
                .min(INFINITE);
            let child = &children[best];
            let (child_proof_limit, child_disproof_limit) = if child.to_move() == mover {
                (win_limit, lose_limit)
            } else {
                (lose_limit, win_limit)
            };
            self.search(child, child_proof_limit, child_disproof_limit);
            if self.meter.exhausted().is_some() {
                return numbers;
            }
        }
    }
}

/// Whether the player to move wins `game`, by df-pn with a fresh table.
pub fn mover_wins<G: Game>(game: &G, budget: Budget) -> Result<bool, SolveError> {
    ProofSearch::new(budget).wins(game, game.to_move())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::NormalPlay;
    use crate::nim::Nim;
    use crate::rng::Rng;
    use crate::solver::brute_force_value;

    #[test]
    fn proves_what_brute_force_finds_on_random_nim() {
        let mut rng = Rng::new(9);
        let mut prover = ProofSearch::new(Budget::unlimited());
        for _ in 0..200 {
            let heaps: Vec<u32> = (0..1 + rng.below(3)).map(|_| rng.below(4) as u32).collect();
            let game = NormalPlay::new(Nim::new(heaps.clone()));
            let expected = brute_force_value(&game) > 0;
            assert_eq!(
                mover_wins(&game, Budget::unlimited()).unwrap(),
                expected,
                "{heaps:?}"
            );
            // The shared table gives the same answers, for both attackers.
            let mover = game.to_move();
            assert_eq!(prover.wins(&game, mover).unwrap(), expected, "{heaps:?}");
            assert_eq!(
                prover.wins(&game, mover.opponent()).unwrap(),
                !expected,
                "{heaps:?}"
            );
        }
    }

    #[test]
    fn an_exhausted_budget_is_unknown() {
        let game = NormalPlay::new(Nim::new(vec![7, 7, 7, 7, 7]));
        assert!(matches!(
            mover_wins(&game, Budget::nodes(50)),
            Err(SolveError::Unknown { .. })
        ));
    }
}
