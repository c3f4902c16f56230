//! The exhaustive search behind the leaves the checker settles itself (Euler Getter's
//! endgames, Projective Hex's carriers): every line of play from a position of at most 12
//! empty cells, each position settled once.

use crosscap_engine::Player;

use crate::{MAX_CARRIER, MAX_ENDGAME};

/// The most empty cells a leaf's search takes.
const MAX_EMPTY: usize = if MAX_CARRIER > MAX_ENDGAME {
    MAX_CARRIER
} else {
    MAX_ENDGAME
};

/// How the lines of play of a leaf end, and whether the claim holds there.
pub(crate) trait Ending {
    /// Whether a move can end the game before the board is full (else the search does not
    /// look for such ends first).
    const ENDS_EARLY: bool;
    /// After `mover` took `cell`: whether that ended the game, and then whether the claim
    /// holds (`None`: play goes on).
    fn after_move(&self, stones: &[Option<Player>], cell: usize, mover: Player) -> Option<bool>;
    /// Whether the claim holds on a board with no empty cell left, where bit `i` of `held` is
    /// set when the claim's player took the leaf's `i`-th empty cell (in the cells' order).
    fn at_full(&self, held: u32) -> bool;
}

/// Whether `player`'s claim holds from `stones` with `mover` to move, whatever the other
/// does: where `player` moves one move must keep it, where the other moves every reply
/// must, down to the ends `ending` tells. Each position is settled once: the memo is
/// indexed by the empty cells' contents, a base-3 digit a cell (3^empty entries, so the
/// callers bound the empty cells by [`MAX_EMPTY`]).
pub(crate) fn holds(
    ending: &impl Ending,
    stones: &mut [Option<Player>],
    player: Player,
    mover: Player,
) -> bool {
    let empty: Vec<usize> = (0..stones.len()).filter(|&c| stones[c].is_none()).collect();
    let mut search = Search {
        ending,
        player,
        powers: (0..empty.len() as u32).map(|i| 3usize.pow(i)).collect(),
        memo: vec![Settled::Unknown; 3usize.pow(empty.len() as u32)],
        decisive: vec![0; empty.len() + 1],
        empty,
    };
    let open = (1u32 << search.empty.len()) - 1;
    search.holds(stones, 0, open, 0, mover)
}

/// The slots of `open`'s set bits, lowest first.
pub(crate) fn slots(open: u32) -> impl Iterator<Item = usize> {
    let mut rest = open;
    std::iter::from_fn(move || {
        let slot = (rest != 0).then(|| rest.trailing_zeros() as usize)?;
        rest &= rest - 1;
        Some(slot)
    })
}

/// What the search knows of a position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Settled {
    Unknown,
    Holds,
    Fails,
}

impl From<bool> for Settled {
    fn from(holds: bool) -> Settled {
        if holds {
            Settled::Holds
        } else {
            Settled::Fails
        }
    }
}

/// One leaf's search: its empty cells, the place value of each in the memo's index.
struct Search<'a, E> {
    ending: &'a E,
    player: Player,
    empty: Vec<usize>,
    powers: Vec<usize>,
    memo: Vec<Settled>,
    /// By the number of empty cells left, the slot of the last move that settled a
    /// position (kept the claim, or broke it), tried first next time: the order of the
    /// moves changes only how soon the search settles, never what.
    decisive: Vec<usize>,
}

impl<E: Ending> Search<'_, E> {
    /// Whether the claim holds from `stones` (`index`: the empty cells' contents, `1` X
    /// and `2` O, in base 3; `open`: a bit for each slot still empty; `held`: a bit for
    /// each slot the claim's player took) with `mover` to move.
    fn holds(
        &mut self,
        stones: &mut [Option<Player>],
        index: usize,
        open: u32,
        held: u32,
        mover: Player,
    ) -> bool {
        match self.memo[index] {
            Settled::Holds => return true,
            Settled::Fails => return false,
            Settled::Unknown => {}
        }
        if open == 0 {
            let holds = self.ending.at_full(held);
            self.memo[index] = holds.into();
            return holds;
        }
        let mut holds = mover != self.player;
        let wanted = mover == self.player;
        // What each move ends in at once, all looked at before any is searched deeper: a
        // move that ends the game as the mover wants settles the position (as a closing
        // cell does in Projective Hex).
        let mut ended = [None; MAX_EMPTY];
        let early = if E::ENDS_EARLY { open } else { 0 };
        for slot in slots(early) {
            let cell = self.empty[slot];
            stones[cell] = Some(mover);
            ended[slot] = self.ending.after_move(stones, cell, mover);
            stones[cell] = None;
            if ended[slot] == Some(wanted) {
                self.memo[index] = wanted.into();
                return wanted;
            }
        }
        let digit = match mover {
            Player::X => 1,
            Player::O => 2,
        };
        // A move to a position already settled as the mover wants settles this one with
        // no search (the same position reached by another order of moves).
        let settles = |slot: usize| self.memo[index + digit * self.powers[slot]] == wanted.into();
        if slots(open).any(settles) {
            self.memo[index] = wanted.into();
            return wanted;
        }
        let left = open.count_ones() as usize;
        let first = self.decisive[left];
        let tried_first = (open >> first & 1 == 1).then_some(first);
        for slot in tried_first.into_iter().chain(slots(open & !(1 << first))) {
            let cell = self.empty[slot];
            stones[cell] = Some(mover);
            let end = if E::ENDS_EARLY {
                ended[slot]
            } else {
                self.ending.after_move(stones, cell, mover)
            };
            let after = match end {
                Some(ended) => ended,
                None => {
                    let next = index + digit * self.powers[slot];
                    let took = if mover == self.player { 1 << slot } else { 0 };
                    let open = open & !(1 << slot);
                    self.holds(stones, next, open, held | took, mover.opponent())
                }
            };
            stones[cell] = None;
            if after == wanted {
                holds = after;
                self.decisive[left] = slot;
                break;
            }
        }
        self.memo[index] = holds.into();
        holds
    }
}
