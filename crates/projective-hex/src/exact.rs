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
//! connections at every node (2 to 12 times fewer nodes, each 4 to 200 times dearer).
//!
//! Why proofs compose (the winner is Z, the loser W, "P' agrees with P on S" meaning
//! Z's stones of S are Z's in P' and its empty cells are not W's): at a leaf, Z's loop is
//! the proof; if Z wins by moving to `c`, the child's proof plus `c`; if W loses, every W
//! move `c` either was searched (its child's proof is in the union) or lies outside the
//! proof `S_m` of a searched move `m`; then P' after `c` agrees with P after `m` on `S_m`
//! (`m` is W's, so not in `S_m`), and Z wins there too.

mod table;

use std::sync::Arc;

use crosscap_engine::Game;
use crosscap_engine::solver::SolveError;
use crosscap_engine::{Budget, Meter};

use crate::rules::{Geometry, ProjectiveHex};
use table::Table;

/// The largest board the bitmask solver handles, and the most sides a cell may have.
pub const MAX_CELLS: usize = 64;
const MAX_SIDES: usize = 16;

/// Positions with at most this many stones search one move per class of moves that a
/// symmetry keeping the position maps onto each other (deeper, such symmetries are rare
/// and looking for them costs more than they save).
const SYMMETRIC_STONES: u32 = 3;

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

/// The board as bitmasks: each cell's sides (neighbour, homology class) and its
/// neighbours' mask.
#[derive(Clone, Debug)]
struct Sides {
    cells: usize,
    side_start: Vec<usize>,
    side_neighbor: Vec<u8>,
    side_class: Vec<u64>,
    neighbors: Vec<u64>,
    /// Each cell's neighbours across sides of class 0 and of class 1.
    class_neighbors: Vec<[u64; 2]>,
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

    fn full(&self) -> u64 {
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

    #[cfg(test)]
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
    fn loop_through(&self, stones: u64, cell: usize, labels: &mut [u64; MAX_CELLS]) -> u64 {
        let with = stones | 1 << cell;
        match self.loop_from(with, cell, labels) {
            0 => with,
            found => found,
        }
    }

    #[cfg(test)]
    fn has_loop(&self, stones: u64, labels: &mut [u64; MAX_CELLS]) -> bool {
        self.find_loop(stones, labels) != 0
    }

    /// A player's groups: each group's stones and the empty cells next to it, by the class
    /// of the route from the group's first stone (`stones` have no global loop, so every
    /// stone's class is well defined).
    fn groups(&self, stones: u64, empty: u64) -> Groups {
        let mut groups = Groups {
            count: 0,
            stones: [0; MAX_CELLS],
            reach: [[0; 2]; MAX_CELLS],
        };
        let mut unseen = stones;
        while unseen != 0 {
            let start = unseen.trailing_zeros() as usize;
            let mut members = 1u64 << start;
            // The members whose route from the start has class 1, and those not visited.
            let mut odd = 0u64;
            let mut pending = members;
            let mut reach = [0u64; 2];
            while pending != 0 {
                let cell = pending.trailing_zeros() as usize;
                pending &= pending - 1;
                let parity = (odd >> cell & 1) as usize;
                let [same, flip] = self.class_neighbors[cell];
                reach[parity] |= same;
                reach[parity ^ 1] |= flip;
                let found_same = same & stones & !members;
                let found_flip = flip & stones & !members & !found_same;
                odd |= if parity == 0 { found_flip } else { found_same };
                members |= found_same | found_flip;
                pending |= found_same | found_flip;
            }
            unseen &= !members;
            groups.stones[groups.count] = members;
            groups.reach[groups.count] = [reach[0] & empty, reach[1] & empty];
            groups.count += 1;
        }
        groups
    }

    /// What `stones` can do with the empty cells: the cells that close a loop (they touch
    /// one group by routes of two classes); a global loop that no opponent can stop, if
    /// one is found: groups of stones joined by bridges (two empty cells touching both
    /// groups, through which the routes have the same class; the owner takes one when the
    /// opponent takes the other), no cell in two of the bridges used, as the groups'
    /// stones and the bridges' cells; else the keys (cells that make such a loop when
    /// taken) and their loops. Sound but not complete: bridges are chosen greedily, and a
    /// key's own bridges reach one step. The mover's survey (`every_key` false) stops at
    /// a closing cell or at a first key, all that the mover needs.
    fn survey(&self, stones: u64, empty: u64, every_key: bool) -> Survey {
        let groups = self.groups(stones, empty);
        let reach = &groups.reach[..groups.count];
        let closing = reach.iter().fold(0, |acc, r| acc | r[0] & r[1]);
        if closing != 0 && !every_key {
            return Survey::nothing_but(closing, 0, empty);
        }
        // Bridges, greedily, one per pair of groups and class, and only those that join
        // two trees or close a loop (a bridge inside a tree that closes nothing would only
        // take cells from the others). Pairs with fewest cells go first, and each takes
        // cells no other pair could use where it can.
        let mut pairs = [(0u8, 0u8, 0u8, 0u64); MAX_PAIRS];
        let mut count_pairs = 0;
        let (mut wanted, mut contested) = (0u64, 0u64);
        for g in 0..groups.count {
            for h in g + 1..groups.count {
                for class in 0..2 {
                    let cells = (reach[g][0] & reach[h][class] | reach[g][1] & reach[h][class ^ 1])
                        & !closing;
                    if cells.count_ones() >= 2 && count_pairs < MAX_PAIRS {
                        pairs[count_pairs] = (g as u8, h as u8, class as u8, cells);
                        count_pairs += 1;
                        contested |= wanted & cells;
                        wanted |= cells;
                    }
                }
            }
        }
        let pairs = &mut pairs[..count_pairs];
        pairs.sort_by_key(|p| p.3.count_ones());
        let mut forest = Forest::new(groups.count);
        // Closing cells are threats of their own: neither bridges nor keys use them.
        let mut used = closing;
        for &(g, h, class, cells) in pairs.iter() {
            let cells = cells & !used;
            if cells.count_ones() < 2 {
                continue;
            }
            let (uncontested, shared) = (cells & !contested, cells & contested);
            let carrier = match uncontested.count_ones() {
                0 => lowest_two(shared),
                1 => uncontested | lowest(shared),
                _ => lowest_two(uncontested),
            };
            let (g, h) = (g as usize, h as usize);
            match forest.join(g, h, class) {
                Join::Redundant => {}
                Join::Merged => {
                    used |= carrier;
                    forest.add_bridge(g, h, carrier);
                }
                Join::Loop => {
                    let held = carrier | forest.route(g, h, &groups);
                    return Survey::nothing_but(closing, held, empty);
                }
            }
        }
        // A key: a cell outside the bridges that joins groups of one tree into a loop of
        // non-zero class, touching them or through bridges of its own (two further cells
        // touching it and the group). Two keys with disjoint cells are one more bridge, so
        // they hold a loop. Only cells with ways of both classes to one tree (counted for
        // all cells at once) are looked at one by one.
        let open = empty & !used;
        let mut trees = [(0u8, 0u8); MAX_CELLS];
        let mut ways_to_tree = [[0u64; 2]; MAX_CELLS];
        for (g, reach) in reach.iter().enumerate() {
            let (root, parity) = forest.find(g);
            trees[g] = (root, parity);
            let ways = &mut ways_to_tree[root as usize];
            for class in 0..2 {
                ways[class ^ parity as usize] |= reach[class];
            }
            // The cells next to two cells of `open` touching g, by the route's class.
            let (mut once, mut twice) = ([0u64; 2], [0u64; 2]);
            let mut rest = (reach[0] | reach[1]) & open;
            while rest != 0 {
                let x = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let [same, flip] = self.class_neighbors[x];
                let mut through = [0u64; 2];
                for class in 0..2 {
                    if reach[class] >> x & 1 != 0 {
                        through[class] |= same;
                        through[class ^ 1] |= flip;
                    }
                }
                for class in 0..2 {
                    twice[class] |= once[class] & through[class];
                    once[class] |= through[class];
                }
            }
            for class in 0..2 {
                ways[class ^ parity as usize] |= twice[class];
            }
        }
        let candidates = ways_to_tree[..groups.count]
            .iter()
            .fold(0, |acc, w| acc | w[0] & w[1])
            & open;
        let mut keys = [(0u64, 0u64); MAX_KEYS];
        let mut count_keys = 0;
        let mut survey = Survey {
            closing,
            held: 0,
            key: 0,
            key_proof: 0,
            answers: empty,
            keys_proof: 0,
        };
        let mut rest = candidates;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let Some((carrier, a, b)) = self.key_at(e, open & !(1 << e), &groups, &trees) else {
                continue;
            };
            let cycle = carrier | forest.route(a, b, &groups);
            if let Some(&(_, other)) = keys[..count_keys].iter().find(|k| k.0 & carrier == 0) {
                survey.held = other | cycle;
                return survey;
            }
            if survey.key == 0 {
                survey.key = 1 << e;
                survey.key_proof = cycle;
                if !every_key {
                    return survey;
                }
            }
            survey.answers &= cycle;
            survey.keys_proof |= cycle;
            if count_keys < MAX_KEYS {
                keys[count_keys] = (carrier, cycle);
                count_keys += 1;
            }
        }
        survey
    }

    /// Whether the empty cell `e` is a key: two ways from `e` to groups of one tree, of
    /// different classes relative to the tree's root and with disjoint cells, each a group
    /// it touches or a bridge of its own (two cells of `open` touching `e` and the group,
    /// the route through either of one class). Returns the key's cells (`e` and its
    /// bridges) and the two groups; `trees` holds each group's root and class relative
    /// to it.
    fn key_at(
        &self,
        e: usize,
        open: u64,
        groups: &Groups,
        trees: &[(u8, u8); MAX_CELLS],
    ) -> Option<(u64, usize, usize)> {
        let [near_same, near_flip] = self.class_neighbors[e];
        let (near_same, near_flip) = (near_same & open, near_flip & open);
        let near = 1 << e | near_same | near_flip;
        let mut ways = [Way::default(); MAX_WAYS];
        let mut count = 0;
        for (g, reach) in groups.reach[..groups.count].iter().enumerate() {
            if (reach[0] | reach[1]) & near == 0 {
                continue;
            }
            let (root, parity) = trees[g];
            // The cells through which a bridge of e's own reaches g, by the route's class.
            let through = [
                near_same & reach[0] | near_flip & reach[1],
                near_same & reach[1] | near_flip & reach[0],
            ];
            for class in 0..2 {
                let cells = if reach[class] >> e & 1 != 0 {
                    0
                } else if through[class].count_ones() >= 2 {
                    through[class]
                } else {
                    continue;
                };
                let way = Way {
                    root,
                    class: class as u8 ^ parity,
                    group: g as u8,
                    cells,
                };
                let closed = ways[..count]
                    .iter()
                    .find_map(|w| Some((w.closes_with(&way)?, w.group as usize)));
                if let Some((carrier, other)) = closed {
                    return Some((carrier | 1 << e, other, g));
                }
                if count < MAX_WAYS {
                    ways[count] = way;
                    count += 1;
                }
            }
        }
        None
    }
    #[cfg(test)]
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

/// The cells of the closed chain that the non-tree side `cell`–`n` makes with the tree
/// paths of a search (`parent` of the root is itself): both paths up to where they meet.
fn cycle(parent: &[u8; MAX_CELLS], cell: usize, n: usize) -> u64 {
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

/// Bounds on the keys kept to pair and on the ways from a cell to groups looked at (more
/// are ignored, which only makes the survey find less).
const MAX_KEYS: usize = 8;
const MAX_PAIRS: usize = 128;
const MAX_WAYS: usize = 16;

/// The lowest cell of `cells` (0 when there is none).
fn lowest(cells: u64) -> u64 {
    cells & cells.wrapping_neg()
}

/// The two lowest cells of `cells`.
fn lowest_two(cells: u64) -> u64 {
    let first = lowest(cells);
    first | lowest(cells ^ first)
}

/// A player's groups of stones (see [`Sides::groups`]).
struct Groups {
    count: usize,
    stones: [u64; MAX_CELLS],
    /// The empty cells next to each group, by the class of the route from its first stone.
    reach: [[u64; 2]; MAX_CELLS],
}

/// Groups joined by bridges into trees: a union-find with each group's class relative to
/// its parent, and the bridges that joined two trees.
struct Forest {
    parent: [u8; MAX_CELLS],
    class: [u8; MAX_CELLS],
    /// (group, group, the bridge's two cells).
    bridges: [(u8, u8, u64); MAX_CELLS],
    count: usize,
}

/// What a bridge does to the forest.
enum Join {
    /// It joins two trees.
    Merged,
    /// Its groups are in one tree already, by a route of its class.
    Redundant,
    /// Its groups are in one tree by a route of the other class: a held loop.
    Loop,
}

impl Forest {
    fn new(groups: usize) -> Forest {
        let mut parent = [0u8; MAX_CELLS];
        for (g, p) in parent.iter_mut().enumerate().take(groups) {
            *p = g as u8;
        }
        Forest {
            parent,
            class: [0; MAX_CELLS],
            bridges: [(0, 0, 0); MAX_CELLS],
            count: 0,
        }
    }

    /// The root of `g`'s tree and the class of the route from the root to `g`.
    fn find(&self, g: usize) -> (u8, u8) {
        let (mut at, mut class) = (g, 0);
        while self.parent[at] as usize != at {
            class ^= self.class[at];
            at = self.parent[at] as usize;
        }
        (at as u8, class)
    }

    /// Joins `g` and `h` by a bridge whose route has `class`.
    fn join(&mut self, g: usize, h: usize, class: u8) -> Join {
        let ((root_g, class_g), (root_h, class_h)) = (self.find(g), self.find(h));
        if root_g != root_h {
            self.parent[root_h as usize] = root_g;
            self.class[root_h as usize] = class_g ^ class_h ^ class;
            Join::Merged
        } else if class_g ^ class_h == class {
            Join::Redundant
        } else {
            Join::Loop
        }
    }

    fn add_bridge(&mut self, g: usize, h: usize, carrier: u64) {
        self.bridges[self.count] = (g as u8, h as u8, carrier);
        self.count += 1;
    }

    /// The stones and bridge cells of the route between groups `a` and `b` of one tree.
    fn route(&self, a: usize, b: usize, groups: &Groups) -> u64 {
        let bridges = &self.bridges[..self.count];
        // Breadth first from `a`, with the bridge that first reached each group.
        let mut via = [u8::MAX; MAX_CELLS];
        let mut queue = [0u8; MAX_CELLS];
        let mut seen = 1u64 << a;
        queue[0] = a as u8;
        let (mut head, mut tail) = (0, 1);
        while head < tail && seen >> b & 1 == 0 {
            let g = queue[head];
            head += 1;
            for (index, &(x, y, _)) in bridges.iter().enumerate() {
                let other = if x == g {
                    y
                } else if y == g {
                    x
                } else {
                    continue;
                };
                if seen >> other & 1 == 0 {
                    seen |= 1 << other;
                    via[other as usize] = index as u8;
                    queue[tail] = other;
                    tail += 1;
                }
            }
        }
        let mut cells = groups.stones[b];
        let mut at = b;
        while at != a {
            let (x, y, carrier) = bridges[via[at] as usize];
            at = if x as usize == at { y } else { x } as usize;
            cells |= carrier | groups.stones[at];
        }
        cells
    }
}

/// A way from an empty cell to a group, once the cell is taken: the group's tree (its
/// root), the route's class relative to the root, and the cells of the way's bridge (0
/// when the cell touches the group; else at least two cells, of which any two serve).
#[derive(Clone, Copy, Debug, Default)]
struct Way {
    root: u8,
    class: u8,
    group: u8,
    cells: u64,
}

impl Way {
    /// The cells two ways need to make a loop of non-zero class together: two disjoint
    /// pairs from their bridges' cells, or `None` when they cannot.
    fn closes_with(&self, other: &Way) -> Option<u64> {
        if self.root != other.root || self.class == other.class {
            return None;
        }
        match (self.cells, other.cells) {
            (0, 0) => Some(0),
            (0, cells) | (cells, 0) => Some(lowest_two(cells)),
            (a, b) => {
                // Two cells of `a`, those outside `b` first, then two more of `b`: Hall's
                // condition (each has two, together four) makes this always succeed.
                if (a | b).count_ones() < 4 {
                    return None;
                }
                let only_a = a & !b;
                let from_a = match only_a.count_ones() {
                    0 => lowest_two(a),
                    1 => only_a | lowest(a & b),
                    _ => lowest_two(only_a),
                };
                Some(from_a | lowest_two(b & !from_a))
            }
        }
    }
}

/// A transposition table that the solvers of one board on several threads share (see
/// [`BitSolver::sharing`]); it keeps the size it was made with.
#[derive(Clone)]
pub struct SharedTable(Arc<Table>);

impl SharedTable {
    /// A table sized for solving on `geometry`, 2^(cells − 6) buckets of 80 bytes, from
    /// 2^17 (10 MiB) to 2^22 (320 MiB), and within `max_memory`: taylor:3, 27 cells, gets
    /// 160 MiB, as fast as twice or half that. `None` where the bitmask solver does not
    /// apply.
    pub fn for_board(geometry: &Geometry, max_memory: Option<usize>) -> Option<SharedTable> {
        let cells = geometry.cell_count();
        let bits = (cells.saturating_sub(6) as u32)
            .clamp(table::FIRST_BITS, table::MAX_BITS)
            .min(table::bits_within(max_memory));
        BitSolver::applies(geometry).then(|| SharedTable(Arc::new(Table::with_bits(bits))))
    }
}

/// The exact solver, its table kept between calls (so solving every opening and every
/// reply shares work).
pub struct BitSolver {
    sides: Sides,
    table: Arc<Table>,
    /// Positions stored since the table was made, and whether it is the solver's own (a
    /// shared table does not grow).
    stored: usize,
    own_table: bool,
    /// The most index bits the solver's own table may grow to (its memory cap).
    max_bits: u32,
    budget: Budget,
    /// Nodes of the solves before the current one.
    nodes: u64,
    meter: Meter,
    aborted: bool,
    /// How often each cell won (move ordering).
    history: [u32; MAX_CELLS],
    /// The board's symmetries other than the identity, as cell permutations.
    symmetries: Vec<[u8; MAX_CELLS]>,
}

/// A move being searched, with what is known of the position it leads to (from the
/// opponent's side).
#[derive(Clone, Copy, Debug)]
struct Child {
    cell: usize,
    numbers: Numbers,
}

impl Child {
    const NONE: Child = Child {
        cell: 0,
        numbers: Numbers::UNKNOWN,
    };
}

impl BitSolver {
    /// A solver for `geometry`, or `None` when the board is not a trivalent projective
    /// plane of at most [`MAX_CELLS`] cells, each with at most 16 sides.
    pub fn new(geometry: &Geometry, budget: Budget) -> Option<BitSolver> {
        let bits = table::FIRST_BITS.min(table::bits_within(budget.max_memory));
        let table = Arc::new(Table::with_bits(bits));
        BitSolver::with_table(geometry, budget, table, true)
    }

    /// A solver for `geometry` that stores its positions in `table`, shared with other
    /// solvers of the same board (on other threads: they find each other's results).
    pub fn sharing(geometry: &Geometry, budget: Budget, table: &SharedTable) -> Option<BitSolver> {
        BitSolver::with_table(geometry, budget, table.0.clone(), false)
    }

    /// Whether the board is a trivalent projective plane of at most [`MAX_CELLS`] cells,
    /// each with at most 16 sides.
    fn applies(geometry: &Geometry) -> bool {
        geometry.decides_full_boards()
            && geometry.cell_count() <= MAX_CELLS
            && (0..geometry.cell_count()).all(|c| geometry.sides(c).count() <= MAX_SIDES)
    }

    fn with_table(
        geometry: &Geometry,
        budget: Budget,
        table: Arc<Table>,
        own_table: bool,
    ) -> Option<BitSolver> {
        BitSolver::applies(geometry).then(|| BitSolver {
            symmetries: geometry.symmetries().maps()[1..]
                .iter()
                .map(|map| {
                    let mut cells = [0u8; MAX_CELLS];
                    for (cell, &image) in map.iter().enumerate() {
                        cells[cell] = image as u8;
                    }
                    cells
                })
                .collect(),
            sides: Sides::new(geometry),
            table,
            stored: 0,
            own_table,
            max_bits: table::bits_within(budget.max_memory),
            meter: budget.meter(),
            budget,
            nodes: 0,
            aborted: false,
            history: [0; MAX_CELLS],
        })
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.meter.nodes()
    }

    /// The budget of the next calls.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Whether the player to move wins, given the mover's stones and the opponent's (no
    /// loop on the board yet). The budget counts from this call.
    pub fn mover_wins(&mut self, mine: u64, theirs: u64) -> Result<bool, SolveError> {
        self.solve(mine, theirs).map(|solved| solved.mover_wins)
    }

    /// The mover's moves that the table already shows to win (the position after each is
    /// lost for the opponent), as cells; a solve that found the mover winning leaves at
    /// least the move it proved there, unless the table dropped it.
    pub fn proven_wins(&self, mine: u64, theirs: u64) -> u64 {
        let mut wins = 0;
        let mut rest = self.sides.full() & !(mine | theirs);
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if self
                .table
                .get(theirs, mine | bit)
                .is_some_and(|n| n.dn == 0)
            {
                wins |= bit;
            }
        }
        wins
    }

    /// Who wins, with the winner's proof set (see the module documentation).
    pub fn solve(&mut self, mine: u64, theirs: u64) -> Result<Solved, SolveError> {
        self.nodes += self.meter.nodes();
        self.meter = self.budget.meter();
        self.aborted = false;
        loop {
            let numbers = self.search(mine, theirs, INFINITE - 1, INFINITE - 1, true);
            if self.aborted {
                return Err(self.meter.unknown());
            }
            if let Some(solved) = numbers.solved() {
                return Ok(solved);
            }
        }
    }

    /// Depth-first proof-number search below the thresholds: searches until the position
    /// is solved or its proof number reaches `max_pn` or its disproof number `max_dn`.
    /// `root` is set for the position a solve starts from, the only one whose mover may
    /// be able to close a loop at once (everywhere else the parent had to stop it).
    fn search(&mut self, mine: u64, theirs: u64, max_pn: u32, max_dn: u32, root: bool) -> Numbers {
        self.aborted |= self.meter.tick();
        let nodes_before = self.meter.nodes();
        let known = self.table.get(mine, theirs);
        if let Some(known) = known
            && (known.pn >= max_pn || known.dn >= max_dn)
        {
            return known;
        }
        // On a first visit the mover's own survey is skipped: it rarely finds anything
        // (the parent answered the mover's closing cells and keys), and most positions
        // are visited once, only to count their moves (18% less time on taylor:3). For
        // the same reason the moves are looked up in the table only from the second visit
        // on: on a first visit those lookups, cache misses nearly all, cost more than the
        // transpositions they find (every opening of taylor:3 9.5 s → 6 s, BENCHMARKS.md).
        let first_visit = known.is_none() && !root;
        let open = match self.settle(mine, theirs, !first_visit) {
            Settled::Decided(numbers) => {
                self.store(mine, theirs, numbers, 1);
                return numbers;
            }
            Settled::Open(open) => open,
        };
        let stabiliser = self.stabiliser(mine, theirs);
        let mut mustplay = representatives(open.forced, &stabiliser);
        if first_visit {
            // Every move starts at (1, 1), so the position's numbers are its count of moves.
            let numbers = Numbers {
                pn: 1,
                dn: mustplay.count_ones(),
                proof: 0,
            };
            if numbers.pn >= max_pn || numbers.dn >= max_dn {
                self.store(mine, theirs, numbers, 1);
                return numbers;
            }
        }
        let mut refutations = open.forced_proof;
        // The moves, on the stack. Moves not searched yet all start at (1, 1), so that each
        // is looked at once (its replies counted) before any is searched deeper; starting
        // disproof numbers that grow with the rank (df-pn+) took 1.8 times the nodes
        // (BENCHMARKS.md).
        let mut all_children = [Child::NONE; MAX_CELLS];
        let mut count = 0;
        if !first_visit {
            let mut touched = 0;
            let mut rest = mustplay;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                touched ^= self.table.touch(theirs, mine | 1 << cell);
            }
            std::hint::black_box(touched);
        }
        let mut rest = mustplay;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let numbers = if first_visit {
                Numbers::UNKNOWN
            } else {
                self.table
                    .get(theirs, mine | 1 << cell)
                    .unwrap_or(Numbers::UNKNOWN)
            };
            all_children[count] = Child { cell, numbers };
            count += 1;
        }
        // The move order only breaks ties, so it is worked out when the search first goes
        // deeper, not on the many visits that only count the moves.
        let mut ordered = false;
        loop {
            // Moves refuted by a proof leave the list, and so do moves outside it.
            for child in &all_children[..count] {
                if child.numbers.pn == 0 {
                    refutations |= child.numbers.proof;
                    mustplay &= child.numbers.proof;
                }
            }
            let mut kept = 0;
            for index in 0..count {
                let child = all_children[index];
                if mustplay >> child.cell & 1 != 0 && child.numbers.pn != 0 {
                    all_children[kept] = child;
                    kept += 1;
                }
            }
            count = kept;
            let children = &all_children[..count];
            let mut pn = INFINITE;
            let mut dn = 0u32;
            let mut best = None;
            let mut second = INFINITE;
            for (index, child) in children.iter().enumerate() {
                dn = dn.saturating_add(child.numbers.pn).min(INFINITE);
                if child.numbers.dn < pn {
                    second = pn;
                    pn = child.numbers.dn;
                    best = Some(index);
                } else if child.numbers.dn < second {
                    second = child.numbers.dn;
                }
            }
            let numbers = match best {
                None => Numbers::lost(symmetric_closure(refutations, &stabiliser)),
                Some(index) if pn == 0 => {
                    // The winning move first in the move order (worked out here for the
                    // winning moves alone when the order is not known yet).
                    let winner = if ordered {
                        children[index]
                    } else {
                        let score = |c: &Child| self.order(c.cell, mine, theirs);
                        children.iter().filter(|c| c.numbers.dn == 0).fold(
                            children[index],
                            |best, c| {
                                if score(c) > score(&best) { *c } else { best }
                            },
                        )
                    };
                    let cell = winner.cell;
                    self.history[cell] = self.history[cell].saturating_add(1);
                    Numbers::won(winner.numbers.proof | 1 << cell)
                }
                Some(_) => Numbers { pn, dn, proof: 0 },
            };
            if numbers.solved().is_some() || pn >= max_pn || dn >= max_dn || self.aborted {
                if !self.aborted {
                    self.store(mine, theirs, numbers, self.meter.nodes() - nodes_before + 1);
                }
                return numbers;
            }
            if !ordered {
                ordered = true;
                let mut ranked = [(0u32, Child::NONE); MAX_CELLS];
                for (slot, &child) in ranked.iter_mut().zip(children) {
                    *slot = (self.order(child.cell, mine, theirs), child);
                }
                ranked[..count].sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                for (slot, &(_, child)) in all_children.iter_mut().zip(&ranked[..count]) {
                    *slot = child;
                }
                continue;
            }
            let index = best.unwrap_or(0);
            let child = children[index];
            // The child's thresholds: its disproof number may grow until this position's
            // proof number would pass the second-best move's (with 25% slack, which
            // saves re-searching), its proof number until this disproof number would
            // pass its threshold.
            let child_max_pn = (max_dn - dn).saturating_add(child.numbers.pn).min(INFINITE);
            let child_max_dn = max_pn.min(second.saturating_add(second / 4 + 1).min(INFINITE));
            let bit = 1u64 << child.cell;
            all_children[index].numbers =
                self.search(theirs, mine | bit, child_max_pn, child_max_dn, false);
        }
    }

    /// Stores a position's numbers, growing the solver's own table as it fills.
    fn store(&mut self, mine: u64, theirs: u64, numbers: Numbers, work: u64) {
        self.table.put(mine, theirs, numbers, work);
        self.stored += 1;
        if self.own_table && self.stored > 2 * self.table.len() && self.table.bits() < self.max_bits
        {
            let (grown, entries) = self.table.grown();
            self.table = Arc::new(grown);
            self.stored = entries;
        }
    }

    /// The symmetries (other than the identity) that keep a position with at most
    /// [`SYMMETRIC_STONES`] stones; none for a deeper one.
    fn stabiliser(&self, mine: u64, theirs: u64) -> Vec<[u8; MAX_CELLS]> {
        if (mine | theirs).count_ones() > SYMMETRIC_STONES {
            return Vec::new();
        }
        self.symmetries
            .iter()
            .filter(|map| image(mine, map) == mine && image(theirs, map) == theirs)
            .copied()
            .collect()
    }

    /// The move-ordering score of `cell`: cells that won before, in contact with stones;
    /// dead cells last.
    fn order(&self, cell: usize, mine: u64, theirs: u64) -> u32 {
        let sides = &self.sides;
        if sides.is_dead(cell, mine, theirs) {
            return 0;
        }
        let near = sides.neighbors[cell];
        let contact = 2 * (near & mine).count_ones() + (near & theirs).count_ones();
        1 + self.history[cell] + contact
    }

    /// What the position's groups alone tell (see the module documentation).
    ///
    /// Without `mover_survey` the mover's closing cells, held loop and keys are not
    /// looked for. That is sound away from the root: the mover has no closing cell there
    /// (the parent had to take the only one), and a move that wins at once lies in every
    /// opponent's loop that the forced moves come from (on a full board exactly one
    /// player has a loop), so the search still finds it.
    fn settle(&self, mine: u64, theirs: u64, mover_survey: bool) -> Settled {
        let sides = &self.sides;
        let empty = sides.full() & !(mine | theirs);
        let mut labels = [0u64; MAX_CELLS];
        // No loop is on the board, so the mover can still make one (a player who cannot
        // has lost already: the other one has a loop).
        let me = if mover_survey {
            sides.survey(mine, empty, false)
        } else {
            Survey::nothing_but(0, 0, empty)
        };
        if me.closing != 0 {
            let cell = me.closing.trailing_zeros() as usize;
            return Settled::Decided(Numbers::won(sides.loop_through(mine, cell, &mut labels)));
        }
        let them = sides.survey(theirs, empty, true);
        // A loop held by bridges decides the game whoever moves.
        if them.held != 0 {
            return Settled::Decided(Numbers::lost(them.held));
        }
        if me.held != 0 {
            return Settled::Decided(Numbers::won(me.held));
        }
        // A cell that closes an opponent's loop must be taken now, and two lose.
        let threats = them.closing;
        let mut threat_loops = 0;
        let mut rest = threats;
        for _ in 0..2 {
            if rest == 0 {
                break;
            }
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            threat_loops |= sides.loop_through(theirs, cell, &mut labels);
        }
        if threats.count_ones() >= 2 {
            return Settled::Decided(Numbers::lost(threat_loops));
        }
        // A key makes a held loop: the mover's wins, the opponent's must be answered in
        // its loop.
        if me.key != 0 {
            return Settled::Decided(Numbers::won(me.key_proof));
        }
        // `answers` is every empty cell when the opponent has no key.
        let forced = if threats != 0 {
            threats & them.answers
        } else {
            them.answers
        };
        let forced_proof = threat_loops | them.keys_proof;
        if forced == 0 {
            return Settled::Decided(Numbers::lost(forced_proof));
        }
        Settled::Open(Open {
            forced,
            forced_proof,
        })
    }
}

/// The cells `map` carries `cells` to.
fn image(cells: u64, map: &[u8; MAX_CELLS]) -> u64 {
    let mut image = 0;
    let mut rest = cells;
    while rest != 0 {
        image |= 1 << map[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    image
}

/// One move of each class of `moves` that the symmetries of `stabiliser` (which keep the
/// position) map onto each other: such moves have one value, and the refutation of one
/// carried by a symmetry refutes its image.
fn representatives(moves: u64, stabiliser: &[[u8; MAX_CELLS]]) -> u64 {
    if stabiliser.is_empty() {
        return moves;
    }
    let mut kept = moves;
    let mut rest = moves;
    while rest != 0 {
        let cell = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if stabiliser
            .iter()
            .any(|map| (map[cell] as usize) < cell && moves >> map[cell] & 1 != 0)
        {
            kept &= !(1 << cell);
        }
    }
    kept
}

/// A lost position's proof when only [`representatives`] were searched: the refutations
/// with their images, which refute the moves left out.
fn symmetric_closure(proof: u64, stabiliser: &[[u8; MAX_CELLS]]) -> u64 {
    stabiliser
        .iter()
        .fold(proof, |closure, map| closure | image(proof, map))
}

/// What one player's stones can do with the empty cells (see [`Sides::survey`]).
#[derive(Clone, Copy, Debug)]
struct Survey {
    closing: u64,
    held: u64,
    /// A key, and the loop it makes (0 when there is none).
    key: u64,
    key_proof: u64,
    /// The empty cells on the loop of every key (where the other player must answer),
    /// and all those loops.
    answers: u64,
    keys_proof: u64,
}

impl Survey {
    /// A survey with no key: the closing cells and the held loop (or 0).
    fn nothing_but(closing: u64, held: u64, empty: u64) -> Survey {
        Survey {
            closing,
            held,
            key: 0,
            key_proof: 0,
            answers: empty,
            keys_proof: 0,
        }
    }
}

/// A position the groups alone do not decide: the moves left to the mover (every empty
/// cell, unless a cell that closes an opponent's loop or the opponent's keys narrow them)
/// and the opponent's loops that narrowed them.
#[derive(Clone, Copy, Debug)]
struct Open {
    forced: u64,
    forced_proof: u64,
}
enum Settled {
    Decided(Numbers),
    Open(Open),
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use crosscap_engine::{Game, Rng};

    use super::*;
    use crate::rules::Opening;

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

    /// A random position of a game not over yet with `empty` empty cells.
    fn unfinished_position(start: &ProjectiveHex, empty: usize, rng: &mut Rng) -> ProjectiveHex {
        loop {
            let mut game = start.clone();
            while game.outcome().is_none() && game.empty_count() > empty {
                let mv = game.random_move(rng).unwrap();
                game.play(&mv);
            }
            if game.outcome().is_none() {
                return game;
            }
        }
    }

    /// The solver and its pruning (closing cells, threats, bridges, mustplay) against
    /// plain minimax on random positions with up to 9 empty cells.
    #[test]
    fn solver_agrees_with_brute_force_on_small_positions() {
        let mut rng = Rng::new(5);
        for spec in ["taylor:2", "taylor:3", "goldberg:1", "goldberg:2"] {
            let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            let geometry: Arc<Geometry> = start.geometry().clone();
            for _ in 0..40 {
                let game = unfinished_position(&start, 3 + rng.below(7), &mut rng);
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

    /// Positions that keep `solved`'s proof of the position (`mine`, `theirs`): the
    /// winner's stones of the proof stay, its empty cells stay empty or go to the winner,
    /// every other cell is drawn at random. Each comes as (mover's stones, opponent's);
    /// those where the winner already has a loop are left out, and the loser never has one.
    fn positions_keeping_proof(
        sides: &Sides,
        (mine, theirs): (u64, u64),
        solved: Solved,
        count: usize,
        rng: &mut Rng,
    ) -> Vec<(u64, u64)> {
        let mut labels = [0; MAX_CELLS];
        let (winner, loser) = if solved.mover_wins {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        let mut positions = Vec::new();
        for _ in 0..count {
            let (mut w, mut l) = (winner & solved.proof, 0u64);
            for c in 0..sides.cells {
                let bit = 1u64 << c;
                if winner & solved.proof & bit != 0 {
                    continue;
                }
                let in_proof = solved.proof & bit != 0 && loser & bit == 0;
                match rng.below(3) {
                    0 => w |= bit,
                    1 if !in_proof => l |= bit,
                    _ => {}
                }
            }
            assert!(
                !sides.has_loop(l, &mut labels),
                "the loser has a loop in a position keeping the proof {:#x} of {mine:#x} {theirs:#x}",
                solved.proof
            );
            if !sides.has_loop(w, &mut labels) {
                positions.push(if solved.mover_wins { (w, l) } else { (l, w) });
            }
        }
        positions
    }

    /// Proof sets are what mustplay relies on: the winner must still win in positions
    /// that keep the proof's stones and leave its empty cells to the winner, whatever
    /// happens elsewhere.
    #[test]
    fn proof_sets_hold_in_every_position_that_keeps_them() {
        let mut rng = Rng::new(17);
        for spec in ["taylor:2", "taylor:3", "goldberg:1", "goldberg:2"] {
            let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            let sides = Sides::new(start.geometry());
            let mut memo = HashMap::new();
            for _ in 0..100 {
                let game = unfinished_position(&start, 4 + rng.below(6), &mut rng);
                let (mine, theirs) = masks(&game);
                let mut solver = BitSolver::new(start.geometry(), Budget::unlimited()).unwrap();
                let solved = solver.solve(mine, theirs).unwrap();
                for (m, t) in positions_keeping_proof(&sides, (mine, theirs), solved, 10, &mut rng)
                {
                    assert_eq!(
                        memo_brute_force(&sides, m, t, &mut memo),
                        solved.mover_wins,
                        "{spec}: position {:?}, proof {:#x}",
                        game.stones(),
                        solved.proof
                    );
                }
            }
        }
    }

    /// Plain minimax on masks (the mover wins by closing a loop or by a move after which
    /// the opponent loses), remembering every position it solved.
    fn memo_brute_force(
        sides: &Sides,
        mine: u64,
        theirs: u64,
        memo: &mut HashMap<(u64, u64), bool>,
    ) -> bool {
        if let Some(&wins) = memo.get(&(mine, theirs)) {
            return wins;
        }
        let mut labels = [0; MAX_CELLS];
        let mut wins = false;
        let mut rest = sides.full() & !(mine | theirs);
        while rest != 0 && !wins {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            wins = sides.has_loop(mine | bit, &mut labels)
                || !memo_brute_force(sides, theirs, mine | bit, memo);
        }
        memo.insert((mine, theirs), wins);
        wins
    }

    /// What a survey claims, checked by brute force on random positions, for each player:
    /// its closing cells are exactly the cells that close a loop; a held loop wins with the
    /// other player to move; so does a key, once taken; and any move of the other player
    /// outside the answers (that does not close a loop of its own) leaves the owner to
    /// move and win.
    #[test]
    fn survey_claims_hold_against_brute_force() {
        let mut rng = Rng::new(29);
        // How often each claim was checked: held loops, keys, narrowed answers.
        let mut seen = Vec::new();
        for spec in ["taylor:2", "taylor:3", "goldberg:1", "goldberg:2"] {
            let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            let sides = Sides::new(start.geometry());
            let mut labels = [0; MAX_CELLS];
            let mut memo = HashMap::new();
            let (mut held, mut keys, mut narrowed) = (0, 0, 0);
            for _ in 0..300 {
                let game = unfinished_position(&start, 5 + rng.below(7), &mut rng);
                let (a, b) = masks(&game);
                for (owner, other) in [(a, b), (b, a)] {
                    let empty = sides.full() & !(owner | other);
                    let closing_cells = |stones: u64| {
                        (0..sides.cells)
                            .filter(|&c| empty >> c & 1 != 0)
                            .filter(|&c| sides.has_loop(stones | 1 << c, &mut [0; MAX_CELLS]))
                            .fold(0u64, |m, c| m | 1 << c)
                    };
                    let survey = sides.survey(owner, empty, true);
                    assert_eq!(survey.closing, closing_cells(owner), "{spec}: {owner:#x}");
                    let position = format!("{spec}: owner {owner:#x}, other {other:#x}");
                    if survey.held != 0 {
                        held += 1;
                        assert!(
                            !memo_brute_force(&sides, other, owner, &mut memo),
                            "{position}"
                        );
                        continue;
                    }
                    if survey.key != 0 {
                        keys += 1;
                        let taken = owner | survey.key;
                        assert!(!sides.has_loop(taken, &mut labels), "{position}");
                        assert!(
                            !memo_brute_force(&sides, other, taken, &mut memo),
                            "{position}, key {:#x}",
                            survey.key
                        );
                    }
                    let mut outside = empty & !survey.answers & !closing_cells(other);
                    narrowed += usize::from(outside != 0);
                    while outside != 0 {
                        let cell = outside & outside.wrapping_neg();
                        outside &= outside - 1;
                        assert!(
                            memo_brute_force(&sides, owner, other | cell, &mut memo),
                            "{position}, answers {:#x}, move {cell:#x}",
                            survey.answers
                        );
                    }
                }
            }
            seen.push((spec, held, keys, narrowed));
        }
        for (spec, held, keys, narrowed) in &seen {
            let small = *spec == "goldberg:1";
            assert!(
                (*held > 10 || small) && *keys > 10 && *narrowed > 10,
                "too few checks: {seen:?}"
            );
        }
    }

    /// Searching one move per class of symmetric moves near the start, with the lost
    /// positions' proofs closed under those symmetries: every position of up to
    /// [`SYMMETRIC_STONES`] stones on two small boards gets the right answer, and its
    /// proof holds in positions that keep it.
    #[test]
    fn symmetric_moves_keep_answers_and_proofs() {
        let mut rng = Rng::new(23);
        for spec in ["taylor:2", "goldberg:1"] {
            let start = ProjectiveHex::on_board(spec, Opening::Standard).unwrap();
            let sides = Sides::new(start.geometry());
            let full = sides.full();
            let mut labels = [0; MAX_CELLS];
            let mut memo = HashMap::new();
            let mut symmetric = 0;
            let mut positions = vec![(0u64, 0u64)];
            for _ in 0..SYMMETRIC_STONES {
                // One more stone, for the player who has fewer (X moves first).
                let mut next = Vec::new();
                for &(x, o) in &positions {
                    let mut rest = full & !(x | o);
                    while rest != 0 {
                        let bit = rest & rest.wrapping_neg();
                        rest &= rest - 1;
                        let grown = if x.count_ones() == o.count_ones() {
                            (x | bit, o)
                        } else {
                            (x, o | bit)
                        };
                        if !next.contains(&grown) {
                            next.push(grown);
                        }
                    }
                }
                positions.extend(next);
            }
            let mut solver = BitSolver::new(start.geometry(), Budget::unlimited()).unwrap();
            for (x, o) in positions {
                if sides.has_loop(x, &mut labels) || sides.has_loop(o, &mut labels) {
                    continue;
                }
                let (mine, theirs) = if x.count_ones() == o.count_ones() {
                    (x, o)
                } else {
                    (o, x)
                };
                let stabiliser = solver.stabiliser(mine, theirs);
                symmetric += usize::from(!stabiliser.is_empty());
                let solved = solver.solve(mine, theirs).unwrap();
                if !solved.mover_wins {
                    for map in &stabiliser {
                        assert_eq!(image(solved.proof, map), solved.proof, "{spec}: {mine:#x}");
                    }
                }
                assert_eq!(
                    solved.mover_wins,
                    memo_brute_force(&sides, mine, theirs, &mut memo),
                    "{spec}: {mine:#x} {theirs:#x}"
                );
                for (m, t) in positions_keeping_proof(&sides, (mine, theirs), solved, 5, &mut rng) {
                    assert_eq!(
                        memo_brute_force(&sides, m, t, &mut memo),
                        solved.mover_wins,
                        "{spec}: {mine:#x} {theirs:#x}, proof {:#x}",
                        solved.proof
                    );
                }
            }
            assert!(symmetric > 10, "{spec}: {symmetric} symmetric positions");
        }
    }

    /// A move is left out only for a symmetric image among the moves to search.
    #[test]
    fn representatives_keep_one_move_of_each_class() {
        let mut swap = [0u8; MAX_CELLS];
        for (cell, image) in swap.iter_mut().enumerate() {
            *image = cell as u8;
        }
        swap.swap(0, 1);
        assert_eq!(representatives(0b11, &[swap]), 0b01);
        assert_eq!(representatives(0b10, &[swap]), 0b10);
        assert_eq!(representatives(0b110, &[]), 0b110);
        assert_eq!(symmetric_closure(0b100, &[swap]), 0b100);
        assert_eq!(symmetric_closure(0b10, &[swap]), 0b11);
    }

    #[test]
    fn budget_is_respected() {
        let game = ProjectiveHex::on_board("goldberg:2", Opening::Standard).unwrap();
        let mut solver = BitSolver::new(game.geometry(), Budget::nodes(100)).unwrap();
        assert!(solver.mover_wins(0, 0).is_err());
    }
}
