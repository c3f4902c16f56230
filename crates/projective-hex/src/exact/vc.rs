//! Virtual connections for loops: an H-search (Anshelevich's AND and OR rules) over one
//! player's groups and the empty cells, each connection labelled with the homology class
//! (one bit) of its route, as Hayward et al. do for Hex with sides instead of loops.
//!
//! A connection joins two nodes (groups, named by their first stone, or empty cells) by
//! routes of one class through a *carrier* of empty cells. It is *full* when the owner
//! joins them whatever the opponent plays in the carrier, *semi* when the owner joins
//! them by moving first. Adjacent nodes are fully connected with nothing in between; two
//! full connections through a common node make a full one when the node is the owner's
//! group and a semi one (the node the key) when it is an empty cell (AND, carriers
//! disjoint and free of the endpoints, classes added); semi connections of one pair and
//! class whose carriers have nothing in common make a full one (OR: the opponent cannot
//! spoil them all with one move). A group's connection to itself of class 1 is a loop: a
//! full one is held whoever moves, a semi one wins for its owner on move, and the
//! opponent must answer inside its carrier.
//!
//! The search is bounded (connections per pair and class, carrier size, total work), so
//! it finds less than it could, never more than is true.

use super::*;

/// The most full and semi connections kept per pair of nodes and class.
const MAX_FULL: usize = 4;
const MAX_SEMI: usize = 6;
/// The most cells in a carrier (a certificate leaf could check such a carrier by brute
/// force).
pub(super) const MAX_CARRIER: u32 = 12;
/// The most full connections whose consequences are drawn (AND) per search.
const MAX_WORK: usize = 4096;
/// The most semi loops reported.
pub(super) const MAX_SEMI_LOOPS: usize = 16;

/// What an H-search found for one player: a held loop (the carrier of a full connection
/// of a group to itself of class 1), else the carriers of the semi ones (each with its
/// key inside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Loops {
    pub(super) held: Option<u64>,
    pub(super) semi: [u64; MAX_SEMI_LOOPS],
    pub(super) semi_count: usize,
}

impl Loops {
    pub(super) const NONE: Loops = Loops {
        held: None,
        semi: [0; MAX_SEMI_LOOPS],
        semi_count: 0,
    };

    pub(super) fn semi(&self) -> &[u64] {
        &self.semi[..self.semi_count]
    }
}

/// Index bits of the memo of H-search results (2^14 entries of under 180 bytes: under
/// 3 MB a solver).
const MEMO_BITS: u32 = 14;

/// The tables of one H-search, kept between searches so that each one only clears the
/// counts it uses, and a memo of results: df-pn visits a position again each time its
/// thresholds grow, and a player's H-search depends only on its stones and the empty
/// cells, so a visit again finds its result there.
#[derive(Clone, Debug, Default)]
pub(super) struct HSearch {
    /// Direct-mapped: (stones, empty cells, what the H-search found), by their hash.
    memo: Vec<Option<(u64, u64, Loops)>>,
    nodes: usize,
    /// The cell of each empty-cell node (groups come first and have none); `u8::MAX` for
    /// groups.
    node_cell: Vec<u8>,
    full: Vec<u64>,
    full_count: Vec<u8>,
    /// The nodes each node has a full connection with, by class.
    linked: Vec<[u64; 2]>,
    semi: Vec<u64>,
    semi_count: Vec<u8>,
    /// Full connections whose consequences are still to be drawn: (x, y, class, carrier).
    queue: Vec<(u8, u8, u8, u64)>,
    loops: Vec<u64>,
    held: Option<u64>,
}

impl HSearch {
    /// The loops that `stones` hold or threaten with the empty cells `empty` (no loop on
    /// the board yet), from the memo when they were searched before.
    pub(super) fn loops(&mut self, sides: &Sides, stones: u64, empty: u64) -> Loops {
        if self.memo.is_empty() {
            self.memo.resize(1 << MEMO_BITS, None);
        }
        let slot = ((stones.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ empty)
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            >> (64 - MEMO_BITS)) as usize;
        if let Some((known_stones, known_empty, loops)) = self.memo[slot]
            && known_stones == stones
            && known_empty == empty
        {
            return loops;
        }
        let loops = self.search(sides, stones, empty);
        self.memo[slot] = Some((stones, empty, loops));
        loops
    }

    /// [`HSearch::loops`] worked out afresh.
    pub(super) fn search(&mut self, sides: &Sides, stones: u64, empty: u64) -> Loops {
        let groups = sides.groups(stones, empty);
        let groups_count = groups.count;
        self.nodes = groups_count + empty.count_ones() as usize;
        let pairs = self.nodes * self.nodes * 2;
        self.full_count.clear();
        self.full_count.resize(pairs, 0);
        self.semi_count.clear();
        self.semi_count.resize(pairs, 0);
        self.full.resize(pairs * MAX_FULL, 0);
        self.linked.clear();
        self.linked.resize(self.nodes, [0; 2]);
        self.semi.resize(pairs * MAX_SEMI, 0);
        self.queue.clear();
        self.loops.clear();
        self.held = None;
        self.node_cell.clear();
        self.node_cell.resize(groups_count, u8::MAX);
        let mut node_of = [u8::MAX; MAX_CELLS];
        let mut rest = empty;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            node_of[cell] = self.node_cell.len() as u8;
            self.node_cell.push(cell as u8);
        }
        // Adjacent nodes: a group and the empty cells it touches, by the class of the
        // route from its first stone; two empty cells across sides of either class.
        for (g, reach) in groups.reach[..groups_count].iter().enumerate() {
            for (class, &cells) in reach.iter().enumerate() {
                let mut rest = cells;
                while rest != 0 {
                    let cell = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    self.add_full(g, node_of[cell] as usize, class as u8, 0);
                }
            }
        }
        let mut rest = empty;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for (class, &near) in sides.class_neighbors[cell].iter().enumerate() {
                let mut others = near & empty & !((1u64 << cell) | ((1u64 << cell) - 1));
                while others != 0 {
                    let other = others.trailing_zeros() as usize;
                    others &= others - 1;
                    self.add_full(
                        node_of[cell] as usize,
                        node_of[other] as usize,
                        class as u8,
                        0,
                    );
                }
            }
        }
        let mut done = 0;
        while let Some((x, y, class, carrier)) = self.queue.pop() {
            if self.held.is_some() || done == MAX_WORK {
                break;
            }
            done += 1;
            self.and(x as usize, y as usize, class, carrier);
            if x != y {
                self.and(y as usize, x as usize, class, carrier);
            }
        }
        let mut found = Loops {
            held: self.held,
            semi: [0; MAX_SEMI_LOOPS],
            semi_count: 0,
        };
        for &carrier in self.loops.iter().take(MAX_SEMI_LOOPS) {
            found.semi[found.semi_count] = carrier;
            found.semi_count += 1;
        }
        found
    }

    /// The bit of node `x`'s cell when it is an empty cell (0 for a group).
    fn cell_bit(&self, x: usize) -> u64 {
        match self.node_cell[x] {
            u8::MAX => 0,
            cell => 1 << cell,
        }
    }

    fn index(&self, x: usize, y: usize, class: u8) -> usize {
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        (a * self.nodes + b) * 2 + class as usize
    }

    /// The AND rule for the new full connection `a`–`b` (`class`, `carrier`) and every
    /// full connection of `b` to a further node `z`: through `b`, a group, a full
    /// connection `a`–`z`; through `b`, an empty cell, a semi one with `b` as its key.
    fn and(&mut self, a: usize, b: usize, class: u8, carrier: u64) {
        let (a_bit, b_bit) = (self.cell_bit(a), self.cell_bit(b));
        for other_class in 0..2u8 {
            let joined_class = class ^ other_class;
            let mut ends = self.linked[b][other_class as usize];
            while ends != 0 {
                let z = ends.trailing_zeros() as usize;
                ends &= ends - 1;
                // A connection of a node to itself is a loop, which only a group makes.
                if (z == a && (a_bit != 0 || joined_class == 0)) || carrier & self.cell_bit(z) != 0
                {
                    continue;
                }
                let at = self.index(b, z, other_class);
                for k in 0..self.full_count[at] as usize {
                    let other = self.full[at * MAX_FULL + k];
                    if other & (carrier | a_bit) != 0 {
                        continue;
                    }
                    let joined = carrier | other | b_bit;
                    if joined.count_ones() > MAX_CARRIER {
                        continue;
                    }
                    if b_bit == 0 {
                        self.add_full(a, z, joined_class, joined);
                    } else {
                        self.add_semi(a, z, joined_class, joined);
                    }
                    if self.held.is_some() {
                        return;
                    }
                }
            }
        }
    }

    /// Records a full connection unless one of its pair and class with a carrier inside
    /// its own is known (or the table is full); a loop is held.
    fn add_full(&mut self, x: usize, y: usize, class: u8, carrier: u64) {
        if x == y {
            self.held = Some(carrier);
            return;
        }
        let at = self.index(x, y, class);
        let count = self.full_count[at] as usize;
        let known = &self.full[at * MAX_FULL..at * MAX_FULL + count];
        if count == MAX_FULL || known.iter().any(|&k| k & !carrier == 0) {
            return;
        }
        self.full[at * MAX_FULL + count] = carrier;
        self.full_count[at] += 1;
        self.linked[x][class as usize] |= 1 << y;
        self.linked[y][class as usize] |= 1 << x;
        self.queue.push((x as u8, y as u8, class, carrier));
    }

    /// Records a semi connection unless a full or semi one of its pair and class with a
    /// carrier inside its own is known, then tries the OR rule: semi connections whose
    /// carriers have nothing in common, taken greedily from the new one, make a full one.
    fn add_semi(&mut self, x: usize, y: usize, class: u8, carrier: u64) {
        let at = self.index(x, y, class);
        let fulls = &self.full[at * MAX_FULL..at * MAX_FULL + self.full_count[at] as usize];
        if fulls.iter().any(|&k| k & !carrier == 0) {
            return;
        }
        let count = self.semi_count[at] as usize;
        let known = &self.semi[at * MAX_SEMI..at * MAX_SEMI + count];
        if known.iter().any(|&k| k & !carrier == 0) {
            return;
        }
        if x == y && self.loops.len() < MAX_SEMI_LOOPS {
            self.loops.push(carrier);
        }
        let (mut union, mut common) = (carrier, carrier);
        for &other in known {
            if common & !other != 0 {
                union |= other;
                common &= other;
                if common == 0 {
                    break;
                }
            }
        }
        if count < MAX_SEMI {
            self.semi[at * MAX_SEMI + count] = carrier;
            self.semi_count[at] += 1;
        }
        if common == 0 && union.count_ones() <= MAX_CARRIER {
            self.add_full(x, y, class, union);
        }
    }
}
