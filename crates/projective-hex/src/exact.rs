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

    /// Whether the stones of `stones` reachable from `start` contain a global loop.
    fn loop_from(&self, stones: u64, start: usize, labels: &mut [u64; MAX_CELLS]) -> bool {
        let mut visited = 1u64 << start;
        labels[start] = 0;
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
                        return true;
                    }
                } else {
                    visited |= bit;
                    labels[n] = through;
                    stack[top] = n as u8;
                    top += 1;
                }
            }
        }
        false
    }

    /// Whether `stones` contain a global loop.
    fn has_loop(&self, stones: u64, labels: &mut [u64; MAX_CELLS]) -> bool {
        let mut unseen = stones;
        while unseen != 0 {
            let start = unseen.trailing_zeros() as usize;
            if self.loop_from(stones, start, labels) {
                return true;
            }
            unseen &= !self.component(stones, start);
        }
        false
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
}

impl BitSolver {
    /// A solver for `geometry`, or `None` when the board is not a trivalent projective
    /// plane of at most [`MAX_CELLS`] cells.
    pub fn new(geometry: &Geometry, budget: Budget) -> Option<BitSolver> {
        (geometry.decides_full_boards() && geometry.cell_count() <= MAX_CELLS).then(|| {
            BitSolver {
                sides: Sides::new(geometry),
                table: Table::default(),
                budget,
                nodes: 0,
                start: Instant::now(),
                nodes_at_start: 0,
                aborted: false,
            }
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
            || (used % 4096 == 0
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
        let wins = self.search(mine, theirs);
        if !self.aborted {
            if self.table.len() >= TABLE_LIMIT {
                self.table.clear();
            }
            self.table.insert((mine, theirs), wins);
        }
        wins
    }

    fn search(&mut self, mine: u64, theirs: u64) -> bool {
        let sides = &self.sides;
        let empty = sides.full() & !(mine | theirs);
        let mut labels = [0u64; MAX_CELLS];
        if !sides.has_loop(mine | empty, &mut labels) {
            return false;
        }
        if !sides.has_loop(theirs | empty, &mut labels) {
            return true;
        }
        // Threats: cells that close a loop, for either player (only next to own stones).
        let mut my_threat = false;
        let mut their_threats = 0u64;
        let mut rest = empty;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let bit = 1u64 << c;
            let near = sides.neighbors[c];
            if near & mine != 0 && sides.loop_from(mine | bit, c, &mut labels) {
                my_threat = true;
                break;
            }
            if near & theirs != 0 && sides.loop_from(theirs | bit, c, &mut labels) {
                their_threats |= bit;
            }
        }
        if my_threat {
            return true;
        }
        let candidates = match their_threats.count_ones() {
            0 => empty,
            1 => their_threats,
            _ => return false,
        };
        let mut moves: Vec<(u32, usize)> = Vec::with_capacity(candidates.count_ones() as usize);
        let mut rest = candidates;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if candidates != their_threats && sides.is_dead(c, mine, theirs) {
                continue;
            }
            let near = sides.neighbors[c];
            let contact = 2 * (near & mine).count_ones() + (near & theirs).count_ones();
            moves.push((contact, c));
        }
        if moves.is_empty() {
            // Only dead cells are left: their colours do not matter, so one move shows it.
            moves.push((0, candidates.trailing_zeros() as usize));
        }
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        for (_, c) in moves {
            if !self.wins(theirs, mine | 1 << c) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        false
    }
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
