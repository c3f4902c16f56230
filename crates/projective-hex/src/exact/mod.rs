//! A fast exact solver for small trivalent projective-plane boards (at most 64 cells),
//! where a full board always has exactly one global loop and loops never disappear, so the
//! game is decided as if the board were filled, extra stones never hurt, and a player
//! who can no longer make a loop has lost (the other one already has one).
//!
//! A position is two bitmasks (the mover's stones and the opponent's), searched by
//! depth-first proof-number search (df-pn, with the 1 + epsilon threshold trick). What
//! makes it fast:
//! - everything a position's groups tell is worked out on bitmasks: each group of a
//!   player's stones keeps the empty cells next to it as two masks, by the homology class
//!   (one bit) of the route from the group's first stone, so an empty cell in both closes
//!   a loop, and two groups' masks meet in the cells that could bridge them. A move that
//!   closes a loop wins at once; an opponent's such cell must be taken, and two lose;
//! - a loop held by bridges (groups joined through either of two empty cells, answered
//!   in turn) decides the game whoever is to move. Bridges are chosen greedily, pairs of
//!   groups with the fewest cells between them first, each taking cells no other pair
//!   could use where it can;
//! - a *key* is an empty cell outside the bridges that joins groups of one tree of
//!   bridges into a loop of non-zero class, touching them or through bridges of its own
//!   (two further cells touching it and the group, answered in turn). Two keys with
//!   disjoint cells are one more bridge, so they hold a loop; the mover wins by taking a
//!   key; the opponent's keys must be answered inside every one of their loops, and with
//!   a cell that must be taken they can leave no answer. The cells with ways of both
//!   classes to one tree are counted for all cells at once, and only they are looked at
//!   one by one;
//! - every result comes with a *proof set*, the cells the winner's argument uses (its
//!   stones and the empty cells it needs). The winner still wins in any position that
//!   agrees on the proof set, whatever happens elsewhere. So once a move has lost, the
//!   mover only tries moves inside the proof that refuted it (the "mustplay" of Hex
//!   solvers), and a lost position's proof is the union of its refutations;
//! - inferior moves are left out while the mover has another: a cell whose neighbours
//!   are the opponent's but for at most two next to each other is dead (no loop needs
//!   it, a move there is a pass), and one the opponent kills with a single reply is
//!   "vulnerable"; the opponent's stones around them and the killing cells join the
//!   proof of a lost position (every opening of taylor:3 in about a third fewer nodes);
//! - near the start (at most three stones), one move per class of moves
//!   that a symmetry keeping the position maps onto each other is searched; a lost
//!   position's proof then takes in the images of its refutations, which refute the
//!   moves left out (goldberg:2, whose pentagon opening has five symmetric answers, got
//!   four times faster);
//! - a transposition table (module `table`) of two-entry buckets (most work and most recent)
//!   keeps proof and disproof numbers and proofs; solvers on several threads can share
//!   one ([`SharedTable`]) without locks, and then find each other's results;
//! - every move not searched yet starts at proof and disproof number 1, so each move of a
//!   position is looked at once, its replies counted, before any is searched deeper: the
//!   number of replies left is the best guide found. Move ordering (cells that won
//!   before, contact with stones, dead cells last) only breaks ties. On that first visit
//!   a position's moves are not looked up in the table: most first visits end there, and
//!   the lookups, cache misses nearly all, cost more than they find.
//!
//! Measured and dropped (figures in BENCHMARKS.md): canonical table keys under the
//! board's symmetries (the lookups cost more than the transpositions saved), looking one
//! move ahead for held loops at every node (fewer nodes, three times the time), bridges
//! from two disjoint ways between groups (the OR rule of H-search: as many nodes gained
//! as lost, and slower nodes), weak proof numbers, starting disproof numbers that grow
//! with the move's rank (df-pn+: 1.8 times the nodes), and a full H-search of virtual
//! connections at every node (2 to 12 times fewer nodes, each 4 to 200 times dearer), and
//! filling in the opponent's captured pairs of cells (a tenth fewer nodes, within the
//! noise, but goldberg:2's certificate twice as large: every loss carried the captures),
//! and, on every opening of taylor:3, a threshold slack of 10%, 50% or 100% instead of
//! 25%, the mover's survey on first visits too, symmetric move classes down to five
//! stones, the winning move with the smallest proof, and a loss's proof without the
//! refutations that an earlier one covers (all within the run-to-run noise of the node
//! count, or worse), and dominated cells (three non-opponent neighbours in a row, the
//! middle one empty: 1.8% more nodes, the losses' proofs larger), and Benzene's proof
//! shrinking (the proof's cells dead once the loser holds every cell outside it dropped:
//! every cell it drops is a winner's stone, not a move, so not one node fewer), and the
//! expected loser's moves searched one after another instead of all counted first (their
//! first visits pick the refutation whose proof covers the most: 1.4% fewer nodes at best),
//! and recent proofs answering any later position that agrees with them (one node in 80
//! answered, the counts within ±10%), and moves that leave closing threats tried first
//! (4% more nodes: the first win found is not the one with the smallest proof). The
//! H-search of module `vc` (virtual connections with Z2 labels) is kept but off by
//! default (`solve --virtual-connections` in the CLI,
//! [`BitSolver::set_virtual_connections`]): gated to positions of at most 10 to 14 empty
//! cells, anchored at groups or not, on second visits only or not, it saved at most a
//! fifth of the nodes of every opening of taylor:3 and cost 1.2 to 14 times the CPU time.
//! Its results are now memoised by stones and empty cells (df-pn visits a position again
//! as its thresholds grow), and it is skipped where a closing threat leaves one move and,
//! for the mover, where the parent ran it: at most 14 empty cells, every opening of
//! taylor:3 in a fifth fewer nodes than without it still takes 7 to 10 times the CPU
//! time (155 s user without memo and cuts, 93 to 123 s with them, 10 to 13 s without the
//! H-search; BENCHMARKS.md, session 31). Run at every node, both players' with carriers of
//! up to 24 cells and loops through empty cells only, it takes 46,000 nodes for the
//! opening c3 against 176,000 without, 3.8 times fewer (BENCHMARKS.md, "Why the H-search
//! saves 3.5 times, not 12"): even free, and if every opening gained as much, it would
//! leave every opening of taylor:3 about 2.2 million nodes. An incremental H-search (a position's connections from its grandparent's, updated
//! by the two moves) is what remains to try for the time, not enough for the nodes.
//!
//! Counted exactly on one thread (BENCHMARKS.md, session 32), every opening of taylor:3
//! spends 73% of its nodes on first visits that only count a position's moves, and the
//! proof DAG's winner's positions have about nine moves each, so under a million nodes
//! needs the winner's move chosen without looking at each. Widening as Benzene does
//! (only the first moves in move order searched: 3 to 11 times the nodes), moves not
//! searched yet starting above (1, 1), first-visit numbers from the opponent's threats,
//! another move order, a larger table and the H-search near the top of the tree all gave
//! more nodes. So did widening by a predictor of the winning move (session 34: closing
//! threats, keys and held loops the move makes, then the opponent's groups it touches):
//! it finds a winning move as often as the first visits do (89% top-1), but not the one
//! with the smallest proof, and it widens the loser's positions too, so the top 3 moves
//! took 67 million nodes and the top 3 where some move is forcing 44 million, against 8.2.
//! Widening the winner's positions alone (the root's mover's, by the move order) took 180
//! million nodes with five moves at a time (2026-11-29): the moves left out never get the
//! first visit that tells a forcing move from a quiet one.
//! Leaving out the mover's cells on no loop of theirs (in no block of their cells and the
//! empty ones that holds a loop: Tarjan's blocks at every node) took 6% more nodes and
//! twice the time (2026-11-29): beyond the dead-cell rule such cells are rare.
//!
//! Why proofs compose (the winner is Z, the loser W, "P' agrees with P on S" meaning
//! Z's stones of S are Z's in P' and its empty cells are not W's): at a leaf, Z's loop is
//! the proof; if Z wins by moving to `c`, the child's proof plus `c`; if W loses, every W
//! move `c` either was searched (its child's proof is in the union) or lies outside the
//! proof `S_m` of a searched move `m`; then P' after `c` agrees with P after `m` on `S_m`
//! (`m` is W's, so not in `S_m`), and Z wins there too.

mod geometry;
mod proof;
mod search;
mod survey;
mod symmetry;
mod table;
#[cfg(test)]
mod tests;
mod vc;

use std::sync::Arc;

use crosscap_engine::Game;
use crosscap_engine::solver::SolveError;
use crosscap_engine::{Budget, Meter};

use crate::rules::{Geometry, ProjectiveHex};
use geometry::Sides;
pub use proof::{CARRIER_CELLS, Certified, CertifyError, certify, certify_openings};
pub use search::{BitSolver, GroupVerdict, SharedTable};
use survey::*;
use symmetry::{image, representatives, symmetric_closure};
use table::Table;

/// The largest board the bitmask solver handles, and the most sides a cell may have.
pub const MAX_CELLS: usize = 64;
const MAX_SIDES: usize = 16;

/// Positions with at most this many stones search one move per class of moves that a
/// symmetry keeping the position maps onto each other (deeper, such symmetries are rare
/// and looking for them costs more than they save).
const SYMMETRIC_STONES: u32 = 3;

/// The most empty cells of a position at which the H-search of virtual connections runs
/// when it is asked for ([`BitSolver::set_virtual_connections`]), the gate measured best
/// in nodes on taylor:3 (BENCHMARKS.md).
pub const VIRTUAL_CONNECTIONS_MAX_EMPTY: u32 = 14;

/// Proof and disproof numbers at or above this are infinite.
const INFINITE: u32 = 1 << 30;

/// The stones of the player to move in `game` and of the other one, as bit masks (the
/// solver's view of a position of at most [`MAX_CELLS`] cells).
pub(crate) fn masks(game: &ProjectiveHex) -> (u64, u64) {
    let mover = game.to_move();
    let (mut mine, mut theirs) = (0u64, 0u64);
    for (cell, stone) in game.stones().iter().enumerate() {
        match stone {
            Some(p) if *p == mover => mine |= 1 << cell,
            Some(_) => theirs |= 1 << cell,
            None => {}
        }
    }
    (mine, theirs)
}

/// A solved position: whether the player to move wins, and the proof set of the winner
/// (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub mover_wins: bool,
    pub proof: u64,
}

/// What the search knows of a position: the proof number (how many positions at least
/// must still be solved to show that the mover wins) and the disproof number (to show
/// that the mover loses); one of them is 0 once it is solved, and then `proof` is the
/// winner's proof set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    pn: u32,
    dn: u32,
    proof: u64,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers {
        pn: 1,
        dn: 1,
        proof: 0,
    };

    fn won(proof: u64) -> Numbers {
        Numbers {
            pn: 0,
            dn: INFINITE,
            proof,
        }
    }

    fn lost(proof: u64) -> Numbers {
        Numbers {
            pn: INFINITE,
            dn: 0,
            proof,
        }
    }

    fn solved(&self) -> Option<Solved> {
        (self.pn == 0 || self.dn == 0).then_some(Solved {
            mover_wins: self.pn == 0,
            proof: self.proof,
        })
    }
}
