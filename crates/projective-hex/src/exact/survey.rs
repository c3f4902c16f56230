//! The survey of a player's groups on masks: closing cells, bridges chosen most
//! constrained first in a union-find of groups with Z2 labels, and keys.

use super::*;

impl Sides {
    /// A player's groups: each group's stones and the empty cells next to it, by the class
    /// of the route from the group's first stone (`stones` have no global loop, so every
    /// stone's class is well defined).
    pub(super) fn groups(&self, stones: u64, empty: u64) -> Groups {
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
    pub(super) fn survey(&self, stones: u64, empty: u64, every_key: bool) -> Survey {
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
pub(super) struct Groups {
    pub(super) count: usize,
    pub(super) stones: [u64; MAX_CELLS],
    /// The empty cells next to each group, by the class of the route from its first stone.
    pub(super) reach: [[u64; 2]; MAX_CELLS],
}

/// Groups joined by bridges into trees: a union-find with each group's class relative to
/// its parent, and the bridges that joined two trees.
struct Forest {
    pub(super) parent: [u8; MAX_CELLS],
    class: [u8; MAX_CELLS],
    /// (group, group, the bridge's two cells).
    bridges: [(u8, u8, u64); MAX_CELLS],
    pub(super) count: usize,
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
    pub(super) fn new(groups: usize) -> Forest {
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
    pub(super) fn find(&self, g: usize) -> (u8, u8) {
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
    pub(super) fn route(&self, a: usize, b: usize, groups: &Groups) -> u64 {
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
    pub(super) root: u8,
    class: u8,
    group: u8,
    pub(super) cells: u64,
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

/// What one player's stones can do with the empty cells (see [`Sides::survey`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Survey {
    pub(super) closing: u64,
    pub(super) held: u64,
    /// A key, and the loop it makes (0 when there is none).
    pub(super) key: u64,
    pub(super) key_proof: u64,
    /// The empty cells on the loop of every key (where the other player must answer),
    /// and all those loops.
    pub(super) answers: u64,
    pub(super) keys_proof: u64,
}

impl Survey {
    /// A survey with no key: the closing cells and the held loop (or 0).
    pub(super) fn nothing_but(closing: u64, held: u64, empty: u64) -> Survey {
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
