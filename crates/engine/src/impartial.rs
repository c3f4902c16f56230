//! Sprague–Grundy analysis of impartial games, written once for every impartial game.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use serde::Serialize;

use crate::catalog::Part;
use crate::game::{Game, Outcome, Player};
use crate::solver::{Budget, solve};

/// The minimum excludant: the least non-negative integer not among `values`.
///
/// ```
/// use crosscap_engine::{mex, nim_sum};
///
/// assert_eq!(mex([0, 1, 3]), 2);
/// assert_eq!(mex([]), 0);
/// // Nim 3 4 5: each heap is worth its size, the sum their nim-sum.
/// assert_eq!(nim_sum([3, 4, 5]), 2);
/// ```
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<bool> = Vec::new();
    for v in values {
        let v = v as usize;
        if v >= seen.len() {
            seen.resize(v + 1, false);
        }
        seen[v] = true;
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}

/// The nim-sum (XOR) of Grundy values: the value of a disjunctive sum.
pub fn nim_sum(values: impl IntoIterator<Item = u32>) -> u32 {
    values.into_iter().fold(0, |acc, v| acc ^ v)
}

/// An impartial game under normal play: both players have the same moves and whoever
/// cannot move loses.
pub trait Impartial: Clone + Eq + Hash + Send + Sync {
    type Move: Clone + Eq + Hash + Debug + Send + Sync;

    /// Every move from this position.
    fn moves(&self) -> Vec<Self::Move>;

    /// The position after `mv`.
    fn after(&self, mv: &Self::Move) -> Self;

    /// Whether no move is left (the game is over). The default lists the moves; a game
    /// whose positions can have more moves than fit in memory (Nim on large heaps) says
    /// it without listing them.
    fn has_no_moves(&self) -> bool {
        self.moves().is_empty()
    }

    /// The independent summands of this position (a disjunctive sum). Splitting lets the
    /// table memoise small parts and nim-sum them. The default is the position itself;
    /// an override must not return the position itself unless it has one part.
    fn components(&self) -> Vec<Self> {
        vec![self.clone()]
    }

    /// About how many bytes a copy of the position holds (see [`Game::memory_bytes`]).
    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
    }
}

/// Memoised Grundy values of one impartial game.
#[derive(Debug)]
pub struct GrundyTable<G: Impartial> {
    values: HashMap<G, u32>,
}

impl<G: Impartial> Default for GrundyTable<G> {
    fn default() -> Self {
        GrundyTable {
            values: HashMap::new(),
        }
    }
}

impl<G: Impartial> GrundyTable<G> {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many component positions are memoised.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The Grundy value of `pos`: the nim-sum of its components' values.
    pub fn grundy(&mut self, pos: &G) -> u32 {
        let parts = pos.components();
        if parts.len() == 1 {
            return self.component_grundy(&parts[0]);
        }
        nim_sum(parts.iter().map(|p| self.grundy(p)).collect::<Vec<_>>())
    }

    /// The Grundy value of a disjunctive sum of positions.
    pub fn sum_grundy<'a>(&mut self, positions: impl IntoIterator<Item = &'a G>) -> u32
    where
        G: 'a,
    {
        positions.into_iter().fold(0, |acc, p| acc ^ self.grundy(p))
    }

    /// The moves to a position of value 0 (empty exactly for a P-position).
    pub fn winning_moves(&mut self, pos: &G) -> Vec<G::Move> {
        pos.moves()
            .into_iter()
            .filter(|mv| self.grundy(&pos.after(mv)) == 0)
            .collect()
    }

    /// Value of a single component, by an explicit-stack depth-first search so that deep
    /// games cannot overflow the call stack.
    fn component_grundy(&mut self, root: &G) -> u32 {
        if let Some(&v) = self.values.get(root) {
            return v;
        }
        // Each frame: a position and its children, once all children are known.
        let mut stack: Vec<(G, Option<Vec<G>>)> = vec![(root.clone(), None)];
        while let Some((pos, children)) = stack.pop() {
            if self.values.contains_key(&pos) {
                continue;
            }
            match children {
                None => {
                    let kids: Vec<G> = pos.moves().iter().map(|m| pos.after(m)).collect();
                    let mut pending = Vec::new();
                    for kid in &kids {
                        for part in kid.components() {
                            if !self.values.contains_key(&part) {
                                pending.push(part);
                            }
                        }
                    }
                    stack.push((pos, Some(kids)));
                    // Reversed, so that the first child is searched first, as a recursion
                    // would: a game whose later children contain its earlier ones (a Nim
                    // heap's) then finds each child's own children known, and the stack
                    // stays as deep as the game rather than as large as its positions
                    // times their moves (a heap of 20000: 2 minutes and gigabytes before).
                    for part in pending.into_iter().rev() {
                        stack.push((part, None));
                    }
                }
                Some(kids) => {
                    let value = mex(kids.iter().map(|k| {
                        k.components()
                            .iter()
                            .fold(0, |acc, part| acc ^ self.values[part])
                    }));
                    self.values.insert(pos, value);
                }
            }
        }
        self.values[root]
    }
}

/// An impartial position played as a two-player [`Game`], under normal play (`MISERE`
/// false: the player who cannot move loses) or misère play (the player who cannot move
/// wins). This gives impartial games the exact solver, MCTS and the arena for free; misère
/// positions do not add up by nim-sums, so they are searched whole.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImpartialPlay<G, const MISERE: bool> {
    pub position: G,
    pub to_move: Player,
}

/// Normal play: the player who cannot move loses.
pub type NormalPlay<G> = ImpartialPlay<G, false>;

/// Misère play: the player who cannot move wins.
pub type MiserePlay<G> = ImpartialPlay<G, true>;

impl<G: Impartial, const MISERE: bool> ImpartialPlay<G, MISERE> {
    pub fn new(position: G) -> Self {
        ImpartialPlay {
            position,
            to_move: Player::X,
        }
    }
}

impl<G: Impartial, const MISERE: bool> Game for ImpartialPlay<G, MISERE> {
    type Move = G::Move;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<G::Move> {
        self.position.moves()
    }

    fn play(&mut self, mv: &G::Move) {
        self.position = self.position.after(mv);
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.position.has_no_moves() {
            let stuck = self.to_move;
            Some(Outcome::win(if MISERE { stuck } else { stuck.opponent() }))
        } else {
            None
        }
    }

    /// The player to move is left out: negamax values are relative to the mover, and an
    /// impartial position is worth the same to either.
    fn memory_bytes(&self) -> usize {
        self.position.memory_bytes()
    }

    fn position_hash(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.position.hash(&mut h);
        h.finish()
    }
}

/// A position's answer under misère play (the player who cannot move wins): misère
/// positions do not add up by nim-sums, so the engine's solver searches it whole. The
/// command line and the Python module print this one answer.
#[derive(Clone, Debug, Serialize)]
pub struct Misere {
    pub rule: &'static str,
    #[serde(flatten)]
    pub answer: Part<MisereAnswer>,
}

/// A misère answer with the position it answers, first, under the keys the game's
/// normal-play answer names it by (`heaps`; `position`; `graph`, `edges` and `tokens`), so
/// that the command line and the Python module answer alike.
#[derive(Serialize)]
pub struct MisereOf<'a, P> {
    #[serde(flatten)]
    pub position: P,
    #[serde(flatten)]
    pub misere: &'a Misere,
}

#[derive(Clone, Debug, Serialize)]
pub struct MisereAnswer {
    /// P when the player to move loses.
    pub outcome: &'static str,
    pub winning_moves: Vec<String>,
}

/// Solves `position` under misère play within `budget` (the CLI's budget flags), moves
/// written by `name`.
pub fn misere_within<G: Impartial + 'static>(
    position: G,
    budget: Budget,
    name: impl Fn(&G::Move) -> String,
) -> Misere {
    let solved = solve(&MiserePlay::new(position), budget);
    Misere {
        rule: "misere",
        answer: Part::of(solved).map(|solution| MisereAnswer {
            outcome: if solution.value > 0 { "N" } else { "P" },
            winning_moves: if solution.value > 0 {
                solution.best_moves.iter().map(name).collect()
            } else {
                Vec::new()
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_examples_from_the_manifold_paper() {
        assert_eq!(mex([1, 3, 5]), 0);
        assert_eq!(mex([0, 1, 3, 5]), 2);
        assert_eq!(mex([]), 0);
    }

    #[test]
    fn nim_sum_examples_from_the_seeds() {
        assert_eq!(nim_sum([12, 17, 5]), 24);
        assert_eq!(nim_sum([29, 14]), 19);
        assert_eq!(nim_sum([50, 53, 30, 14]), 23);
    }

    /// Subtraction game S(1,2): values cycle 0 1 2.
    #[derive(Clone, PartialEq, Eq, Hash, Debug)]
    struct Subtract(u32);

    impl Impartial for Subtract {
        type Move = u32;
        fn moves(&self) -> Vec<u32> {
            [1, 2].into_iter().filter(|&k| k <= self.0).collect()
        }
        fn after(&self, k: &u32) -> Self {
            Subtract(self.0 - k)
        }
    }

    #[test]
    fn deep_game_does_not_overflow_the_stack() {
        let mut table = GrundyTable::new();
        assert_eq!(table.grundy(&Subtract(200_000)), 200_000 % 3);
        assert_eq!(table.winning_moves(&Subtract(7)), vec![1]);
        assert!(table.winning_moves(&Subtract(9)).is_empty());
    }
}
