//! The board as bitmasks: each cell's sides and neighbours, loops found from scratch on
//! masks, the dead-cell rule.

use super::*;

/// The board as bitmasks: each cell's sides (neighbour, homology class) and its
/// neighbours' mask.
#[derive(Clone, Debug)]
pub(super) struct Sides {
    pub(super) cells: usize,
    side_start: Vec<usize>,
    side_neighbor: Vec<u8>,
    side_class: Vec<u64>,
    pub(super) neighbors: Vec<u64>,
    /// Each cell's neighbours across sides of class 0 and of class 1.
    pub(super) class_neighbors: Vec<[u64; 2]>,
    /// Neighbours of ringed cells (dead-cell rule), in cyclic order; empty otherwise.
    ring: Vec<Vec<u8>>,
}

impl Sides {
    pub(super) fn new(geometry: &Geometry) -> Sides {
        let cells = geometry.cell_count();
        let mut side_start = vec![0];
        let mut side_neighbor = Vec::new();
        let mut side_class = Vec::new();
        let mut neighbors = Vec::new();
        let mut class_neighbors = Vec::new();
        let mut ring = Vec::new();
        for cell in 0..cells {
            let mut by_class = [0u64; 2];
            for (n, class) in geometry.sides(cell) {
                side_neighbor.push(n as u8);
                // The projective plane has one non-zero class, so a class is one bit.
                side_class.push(u64::from(class != 0));
                by_class[usize::from(class != 0)] |= 1 << n;
            }
            side_start.push(side_neighbor.len());
            neighbors.push(by_class[0] | by_class[1]);
            class_neighbors.push(by_class);
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
            class_neighbors,
            ring,
        }
    }

    pub(super) fn full(&self) -> u64 {
        if self.cells == 64 {
            u64::MAX
        } else {
            (1 << self.cells) - 1
        }
    }

    /// A global loop among `stones` in the component of `start`, as its cells, or 0. The
    /// search is breadth first, so the loop is short.
    fn loop_from(&self, stones: u64, start: usize, labels: &mut [u64; MAX_CELLS]) -> u64 {
        let mut parent = [0u8; MAX_CELLS];
        let mut queue = [0u8; MAX_CELLS];
        let mut visited = 1u64 << start;
        labels[start] = 0;
        parent[start] = start as u8;
        queue[0] = start as u8;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let cell = queue[head] as usize;
            head += 1;
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
                        return cycle(&parent, cell, n);
                    }
                } else {
                    visited |= bit;
                    labels[n] = through;
                    parent[n] = cell as u8;
                    queue[tail] = n as u8;
                    tail += 1;
                }
            }
        }
        0
    }

    /// A global loop among `stones`, as its cells, or 0 when there is none.
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

    /// The loop that `cell` closes with `stones` (which have none of their own).
    pub(super) fn loop_through(
        &self,
        stones: u64,
        cell: usize,
        labels: &mut [u64; MAX_CELLS],
    ) -> u64 {
        let with = stones | 1 << cell;
        match self.loop_from(with, cell, labels) {
            0 => with,
            found => found,
        }
    }

    pub(super) fn has_loop(&self, stones: u64, labels: &mut [u64; MAX_CELLS]) -> bool {
        self.find_loop(stones, labels) != 0
    }
}

impl Sides {
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

    /// Whether an empty cell is dead: ringed, every neighbour filled, each colour one arc
    /// (its colour never matters, so it is tried last).
    pub(super) fn is_dead(&self, cell: usize, mine: u64, theirs: u64) -> bool {
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

impl Sides {
    /// The moves of `cells` that the mover may leave out while any other is searched,
    /// the opponent holding `theirs` (`empty` the empty cells), and the opponent's
    /// stones and empty cells that make them inferior: cells dead beside the opponent
    /// (a pass; with `empty` 0 these alone), and cells the opponent kills with one reply, a neighbour after which
    /// the cell is dead beside the opponent ("vulnerable" in Hex). Whoever is to move
    /// loses when every other move loses: the opponent answers such a move by killing it
    /// and then has one more stone, which never hurts, so by induction on the empty
    /// cells every position that the opponent's stones and the killing cells keep is
    /// lost too.
    pub(super) fn inferior(&self, cells: u64, theirs: u64, empty: u64) -> (u64, u64) {
        let (mut inferior, mut proof) = (0, 0);
        let mut rest = cells;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let others = self.neighbors[cell] & !theirs;
            let killer = if self.dead_with(cell, others) {
                0
            } else if others.count_ones() <= 3 {
                let mut killers = others & empty;
                let mut found = None;
                while killers != 0 {
                    let killer = killers & killers.wrapping_neg();
                    killers &= killers - 1;
                    if self.dead_with(cell, others & !killer) {
                        found = Some(killer);
                        break;
                    }
                }
                match found {
                    Some(killer) => killer,
                    None => continue,
                }
            } else {
                continue;
            };
            inferior |= 1 << cell;
            proof |= self.neighbors[cell] & theirs | killer;
        }
        (inferior, proof)
    }

    /// Whether `cell` is dead as long as its neighbours other than `others` are one
    /// player's (the owner's): it is ringed, and `others` are at most two cells next to
    /// each other on the ring. Neither player's loop needs such a cell: a loop through it
    /// enters and leaves by two of the owner's stones, or by the two other neighbours,
    /// which touch each other, and the detour through the cell goes round its corners
    /// only, a contractible change. So its colour never matters, and a move there is a
    /// pass.
    fn dead_with(&self, cell: usize, others: u64) -> bool {
        let ring = &self.ring[cell];
        !ring.is_empty()
            && match others.count_ones() {
                0 | 1 => true,
                2 => (0..ring.len())
                    .any(|i| others == 1 << ring[i] | 1 << ring[(i + 1) % ring.len()]),
                _ => false,
            }
    }
}

/// The cells of the closed chain that the non-tree side `cell`–`n` makes with the tree
/// paths of a search (`parent` of the root is itself): both paths up to where they meet.
pub(super) fn cycle(parent: &[u8; MAX_CELLS], cell: usize, n: usize) -> u64 {
    let mut ancestors = 0u64;
    let mut c = cell;
    loop {
        ancestors |= 1 << c;
        if parent[c] as usize == c {
            break;
        }
        c = parent[c] as usize;
    }
    let mut chain = 0u64;
    let mut c = n;
    while ancestors & 1 << c == 0 {
        chain |= 1 << c;
        c = parent[c] as usize;
    }
    let meet = c;
    let mut c = cell;
    while c != meet {
        chain |= 1 << c;
        c = parent[c] as usize;
    }
    chain | 1 << meet
}
