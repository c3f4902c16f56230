//! A fast exact solver for small trivalent projective-plane boards (at most 64 cells),
//! where a full board always has exactly one global loop and loops never disappear, so the
//! game is decided as if the board were filled.
//!
//! A position is two bitmasks (the mover's stones and the opponent's), searched as a
//! win/loss AND-OR tree with a transposition table of exact values. What makes it fast:
//! - loops are found by one depth-first search over a bitmask, labelling cells with the
//!   homology class of their tree path (a non-tree side whose class disagrees closes a
//!   global loop), about a hundred operations on these boards;
//! - a player who cannot make a loop even with every empty cell has lost (the other one
//!   gets it on the full board), which decides most positions long before the end;
//! - a move that closes a loop wins at once; one opponent threat must be blocked, two lose;
//! - dead cells (see [`crate::search::Focused`]) are never played;
//! - contact moves are tried first.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use crosscap_engine::solver::{Budget, SolveError};

use crate::rules::Geometry;

/// The largest board the bitmask solver handles.
pub const MAX_CELLS: usize = 64;

/// The table is cleared when it holds this many positions (bounded memory).
const TABLE_LIMIT: usize = 1 << 24;

/// A multiply-and-fold hasher for keys that are already well-mixed bitmasks.
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        let mixed = (self.0 ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = mixed ^ (mixed >> 29);
    }
}

type Table = HashMap<(u64, u64), bool, BuildHasherDefault<MixHasher>>;

/// The board as bitmasks: each cell's sides (neighbour, homology class) and its
/// neighbours' mask.
#[derive(Clone, Debug)]
struct Sides {
    cells: usize,
    side_start: Vec<usize>,
    side_neighbor: Vec<u8>,
    side_class: Vec<u64>,
    neighbors: Vec<u64>,
    /// Neighbours of ringed cells (dead-cell rule), in cyclic order; empty otherwise.
    ring: Vec<Vec<u8>>,
}

impl Sides {
    fn new(geometry: &Geometry) -> Sides {
        let cells = geometry.cell_count();
        let mut side_start = vec![0];
        let mut side_neighbor = Vec::new();
        let mut side_class = Vec::new();
        let mut neighbors = Vec::new();
        let mut ring = Vec::new();
        for cell in 0..cells {
            let mut mask = 0;
            for (n, class) in geometry.sides(cell) {
                side_neighbor.push(n as u8);
                side_class.push(class);
                mask |= 1 << n;
            }
            side_start.push(side_neighbor.len());
            neighbors.push(mask);
            ring.push(if geometry.is_ringed(cell) {
                geometry.sides(cell).map(|(n, _)| n as u8).collect()
            } else {
                Vec::new()
            });
        }
        Sides {
            cells,
            side_start,
            side_neighbor,
            side_class,
            neighbors,
            ring,
        }
    }

    fn full(&self) -> u64 {
        if self.cells == 64 {
            u64::MAX
        } else {
            (1 << self.cells) - 1
        }
    }

    /// A global loop among the stones of `stones` reachable from `start`: the cells of the
    /// two tree paths that a closing side joins (a superset of the loop's cells), or 0.
    fn loop_from(&self, stones: u64, start: usize, labels: &mut [u64; MAX_CELLS]) -> u64 {
        let mut parent = [0u8; MAX_CELLS];
        let mut visited = 1u64 << start;
        labels[start] = 0;
        parent[start] = start as u8;
        let mut stack = [0u8; MAX_CELLS];
        stack[0] = start as u8;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let cell = stack[top] as usize;
            let label = labels[cell];
            for side in self.side_start[cell]..self.side_start[cell + 1] {
                let n = self.side_neighbor[side] as usize;
                let bit = 1u64 << n;
                if stones & bit == 0 {
                    continue;
                }
                let through = label ^ self.side_class[side];
                if visited & bit != 0 {
                    if labels[n] != through {
                        let mut path = 0u64;
                        for mut c in [cell, n] {
                            while c != start {
                                path |= 1 << c;
                                c = parent[c] as usize;
                            }
                        }
                        return path | 1 << start;
                    }
                } else {
                    visited |= bit;
                    labels[n] = through;
                    parent[n] = cell as u8;
                    stack[top] = n as u8;
                    top += 1;
                }
            }
        }
        0
    }

    /// A global loop among `stones` (a superset of its cells, see [`Sides::loop_from`]),
    /// or 0 when there is none.
    fn find_loop(&self, stones: u64, labels: &mut [u64; MAX_CELLS]) -> u64 {
        let mut unseen = stones;
        while unseen != 0 {
            let start = unseen.trailing_zeros() as usize;
            let found = self.loop_from(stones, start, labels);
            if found != 0 {
                return found;
            }
            unseen &= !self.component(stones, start);
        }
        0
    }

    fn has_loop(&self, stones: u64, labels: &mut [u64; MAX_CELLS]) -> bool {
        self.find_loop(stones, labels) != 0
    }

    /// The cells of `within` without which `stones` has no global loop (every loop
    /// passes through them); `a_loop` is one loop of `stones` (from [`Sides::find_loop`]).
    fn essential(
        &self,
        stones: u64,
        a_loop: u64,
        within: u64,
        labels: &mut [u64; MAX_CELLS],
    ) -> u64 {
        let mut essential = 0;
        let mut rest = a_loop & within;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if !self.has_loop(stones & !bit, labels) {
                essential |= bit;
            }
        }
        essential
    }

    /// The cells of `stones` connected to `start`.
    fn component(&self, stones: u64, start: usize) -> u64 {
        let mut reached = 1u64 << start;
        let mut frontier = reached;
        while frontier != 0 {
            let mut next = 0;
            let mut rest = frontier;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                next |= self.neighbors[c];
            }
            frontier = next & stones & !reached;
            reached |= frontier;
        }
        reached
    }

    /// Whether an empty cell is dead: ringed, every neighbour filled, each colour one arc.
    fn is_dead(&self, cell: usize, mine: u64, theirs: u64) -> bool {
        let ring = &self.ring[cell];
        if ring.is_empty() || self.neighbors[cell] & !(mine | theirs) != 0 {
            return false;
        }
        let colour = |n: u8| mine >> n & 1;
        let mut changes = 0;
        let mut previous = colour(ring[ring.len() - 1]);
        for &n in ring {
            let c = colour(n);
            changes += usize::from(c != previous);
            previous = c;
        }
        changes <= 2
    }
}

/// The exact solver, its table kept between calls (so solving every opening and every
/// reply shares work).
pub struct BitSolver {
    sides: Sides,
    table: Table,
    budget: Budget,
    nodes: u64,
    start: Instant,
    nodes_at_start: u64,
    aborted: bool,
    /// How often each cell won (move ordering).
    history: [u32; MAX_CELLS],
}

impl BitSolver {
    /// A solver for `geometry`, or `None` when the board is not a trivalent projective
    /// plane of at most [`MAX_CELLS`] cells.
    pub fn new(geometry: &Geometry, budget: Budget) -> Option<BitSolver> {
        (geometry.decides_full_boards() && geometry.cell_count() <= MAX_CELLS).then(|| BitSolver {
            sides: Sides::new(geometry),
            table: Table::default(),
            budget,
            nodes: 0,
            start: Instant::now(),
            nodes_at_start: 0,
            aborted: false,
            history: [0; MAX_CELLS],
        })
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the player to move wins, given the mover's stones and the opponent's (no
    /// loop on the board yet). The budget counts from this call.
    pub fn mover_wins(&mut self, mine: u64, theirs: u64) -> Result<bool, SolveError> {
        self.start = Instant::now();
        self.nodes_at_start = self.nodes;
        self.aborted = false;
        let wins = self.wins(mine, theirs);
        if self.aborted {
            return Err(SolveError::Unknown {
                nodes: self.nodes - self.nodes_at_start,
                elapsed: self.start.elapsed(),
            });
        }
        Ok(wins)
    }

    fn out_of_budget(&mut self) -> bool {
        let used = self.nodes - self.nodes_at_start;
        if self.budget.max_nodes.is_some_and(|max| used >= max)
            || (used.is_multiple_of(4096)
                && self
                    .budget
                    .max_time
                    .is_some_and(|max| self.start.elapsed() >= max))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn wins(&mut self, mine: u64, theirs: u64) -> bool {
        self.nodes += 1;
        if self.aborted || self.out_of_budget() {
            return false;
        }
        if let Some(&known) = self.table.get(&(mine, theirs)) {
            return known;
        }
        match self.settle(mine, theirs) {
            Settled::Decided(wins) => wins,
            Settled::Open(open) => self.expand_and_store(mine, theirs, open),
        }
    }

    fn store(&mut self, mine: u64, theirs: u64, wins: bool) {
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        self.table.insert((mine, theirs), wins);
    }

    fn expand_and_store(&mut self, mine: u64, theirs: u64, open: Open) -> bool {
        let wins = self.expand(mine, theirs, open);
        if !self.aborted {
            self.store(mine, theirs, wins);
        }
        wins
    }

    /// What the position's loops alone tell (see the module documentation).
    fn settle(&self, mine: u64, theirs: u64) -> Settled {
        let sides = &self.sides;
        let empty = sides.full() & !(mine | theirs);
        let mut labels = [0u64; MAX_CELLS];
        // Full boards decide the game: a player with no loop left in own and empty cells
        // has lost.
        let my_loop = sides.find_loop(mine | empty, &mut labels);
        if my_loop == 0 {
            return Settled::Decided(false);
        }
        let their_loop = sides.find_loop(theirs | empty, &mut labels);
        if their_loop == 0 {
            return Settled::Decided(true);
        }
        // A cell on every loop the opponent could still make wins when taken (this
        // includes closing an own loop).
        if sides.essential(theirs | empty, their_loop, empty, &mut labels) != 0 {
            return Settled::Decided(true);
        }
        // A cell on every loop the mover could still make must be taken now; two lose.
        let forced = sides.essential(mine | empty, my_loop, empty, &mut labels);
        if forced.count_ones() >= 2 {
            return Settled::Decided(false);
        }
        Settled::Open(Open {
            my_loop,
            their_loop,
            forced,
        })
    }

    fn expand(&mut self, mine: u64, theirs: u64, open: Open) -> bool {
        let sides = &self.sides;
        let empty = sides.full() & !(mine | theirs);
        let candidates = if open.forced != 0 { open.forced } else { empty };
        let mut moves: Vec<(u32, usize)> = Vec::with_capacity(candidates.count_ones() as usize);
        let mut rest = candidates;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if open.forced == 0 && sides.is_dead(c, mine, theirs) {
                continue;
            }
            let near = sides.neighbors[c];
            let on_loops =
                u32::from(open.my_loop >> c & 1 != 0) + u32::from(open.their_loop >> c & 1 != 0);
            let contact = 2 * (near & mine).count_ones() + (near & theirs).count_ones();
            moves.push((self.history[c] + 4 * on_loops + contact, c));
        }
        if moves.is_empty() {
            // Only dead cells are left: their colours do not matter, so one move shows it.
            moves.push((0, candidates.trailing_zeros() as usize));
        }
        moves.sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
        for (_, c) in moves {
            if !self.wins(theirs, mine | 1 << c) {
                self.history[c] = self.history[c].saturating_add(1);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }
}

/// A position the loops alone do not decide: one possible loop of each player (cell
/// supersets) and the cell the mover must take (or 0).
#[derive(Clone, Copy, Debug)]
struct Open {
    my_loop: u64,
    their_loop: u64,
    forced: u64,
}

enum Settled {
    Decided(bool),
    Open(Open),
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crosscap_engine::{Game, Rng};

    use super::*;
    use crate::rules::{Opening, ProjectiveHex};

    /// Plain minimax on the real game, no pruning at all.
    fn brute_force_wins(game: &ProjectiveHex) -> bool {
        let mover = game.to_move();
        game.legal_moves().into_iter().any(|mv| {
            let mut child = game.clone();
            child.play(&mv);
            match child.winner() {
                Some(w) => w == mover,
                None => !brute_force_wins(&child),
            }
        })
    }

    fn masks(game: &ProjectiveHex) -> (u64, u64) {
        let mover = game.to_move();
        let mut mine = 0;
        let mut theirs = 0;
        for (c, stone) in game.stones().iter().enumerate() {
            match stone {
                Some(p) if *p == mover => mine |= 1 << c,
                Some(_) => theirs |= 1 << c,
                None => {}
            }
        }
        (mine, theirs)
    }

    #[test]
    fn loops_agree_with_the_rules_on_random_positions() {
        let mut rng = Rng::new(11);
        for spec in ["taylor:2", "taylor:3", "goldberg:1", "goldberg:2"] {
            let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            let sides = Sides::new(start.geometry());
            let mut labels = [0; MAX_CELLS];
            for _ in 0..50 {
                let mut game = start.clone();
                while game.outcome().is_none() {
                    let (mine, theirs) = masks(&game);
                    assert!(!sides.has_loop(mine, &mut labels), "{spec}");
                    assert!(!sides.has_loop(theirs, &mut labels), "{spec}");
                    let mv = game.random_move(&mut rng).unwrap();
                    game.play(&mv);
                }
                let winner = game.winner().unwrap();
                let stones = game
                    .stones()
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| **s == Some(winner))
                    .fold(0u64, |m, (c, _)| m | 1 << c);
                assert!(sides.has_loop(stones, &mut labels), "{spec}");
            }
        }
    }

    /// The solver and its pruning (hopeless players, threats, dead cells) against plain
    /// minimax on random positions with up to 9 empty cells.
    #[test]
    fn solver_agrees_with_brute_force_on_small_positions() {
        let mut rng = Rng::new(5);
        for spec in ["taylor:2", "taylor:3", "goldberg:1", "goldberg:2"] {
            let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            let geometry: Arc<Geometry> = start.geometry().clone();
            let mut checked = 0;
            while checked < 40 {
                let mut game = start.clone();
                let keep_empty = 3 + rng.below(7);
                while game.outcome().is_none() && game.empty_count() > keep_empty {
                    let mv = game.random_move(&mut rng).unwrap();
                    game.play(&mv);
                }
                if game.outcome().is_some() {
                    continue;
                }
                checked += 1;
                let mut solver = BitSolver::new(&geometry, Budget::unlimited()).unwrap();
                let (mine, theirs) = masks(&game);
                assert_eq!(
                    solver.mover_wins(mine, theirs).unwrap(),
                    brute_force_wins(&game),
                    "{spec} {:?}",
                    game.stones()
                );
            }
        }
    }

    #[test]
    fn budget_is_respected() {
        let game = ProjectiveHex::on_board("goldberg:2", Opening::Standard).unwrap();
        let mut solver = BitSolver::new(game.geometry(), Budget::nodes(100)).unwrap();
        assert!(solver.mover_wins(0, 0).is_err());
    }
}
