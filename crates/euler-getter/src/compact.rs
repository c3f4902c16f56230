//! The exact solver's position: [`CompactPosition`], a `Copy` value of two bitsets of cells
//! and the incremental counts, so that the search copies a position without allocating
//! (an [`EulerGetter`] holds four vectors). It plays by the same rules through the shared
//! arithmetic of `Stones`, and the tests below check it against [`EulerGetter`] move by
//! move: the same legal moves, counts, hashes, outcomes, order and bounds.

use std::sync::Arc;

use crosscap_engine::{Game, Outcome, Player, Rng};
use crosscap_topology::Symmetries;
use thread_local::ThreadLocal;

use crate::complex::Complex;
use crate::game::{EulerGetter, Move, Rule, SwapRule};
use crate::position::{Stones, counted_new_vertices_and_edges, counted_settled_and_open_vertices};
use crate::region::RegionCounts;

/// Most cells of a board a [`CompactPosition`] holds (one bit each).
pub const COMPACT_MAX_CELLS: usize = 128;

/// Most empty cells of a position whose exact margin range ([`CompactPosition::margin_range`])
/// is worked out: it enumerates the ways to share the empty cells out, at most 70 with 8.
/// With 10 or 12 the goldberg:2 solve visits as many nodes (3.48 M) in more time.
const RANGE_MAX_EMPTY: usize = 8;

/// Most empty cells of a position whose greedy pairing ([`CompactPosition::pairing`]) is
/// tried for the pairing bound ([`CompactPosition::pairing_bound`]; it checks the ways to
/// split the pairs, at most 2^7): with 16 to 27 it cut 0.1% more nodes of taylor:3
/// positions, with 10 or 12 it cut fewer (BENCHMARKS.md).
const PAIRING_MAX_EMPTY: usize = 14;

/// Fewest empty cells of a position whose pairing is repaired when it loses the window
/// ([`CompactPosition::repair`]), at most [`PAIRING_REPAIRS`] times, and only while the
/// split that lost it missed by at most [`REPAIR_MAX_MISS`]: on taylor:3 and goldberg:2,
/// 11–14% fewer nodes and no more CPU time (from 11 empty cells, or with 2 or 16 repairs,
/// fewer nodes cut; with any miss, as many nodes in more time; BENCHMARKS.md).
const REPAIR_MIN_EMPTY: usize = 9;
const PAIRING_REPAIRS: usize = 8;
const REPAIR_MAX_MISS: i32 = 2;

/// Most empty cells of a position where pairings that answered windows at earlier positions
/// with as many or two fewer empty cells are tried ([`CompactPosition::remembered_pairs`]):
/// from 15 to 20 they cut about 4% more nodes of a taylor:3 position than up to 14.
/// A certificate's pairing leaf holds at most 10 pairs, so no more than 21.
pub(crate) const REMEMBERED_MAX_EMPTY: usize = 20;

/// The pairs of a pairing strategy ([`CompactPosition::pairing_bound`]), as cell numbers,
/// the first ones used.
type Pairs = [(usize, usize); REMEMBERED_MAX_EMPTY / 2];

/// Per number of empty cells, the last pairing (pairs and their number) that answered a
/// window at a position with that many.
type Remembered = std::cell::RefCell<[Option<(Pairs, usize)>; REMEMBERED_MAX_EMPTY + 1]>;

/// A side of the margin no bound limits (far from any margin, and safe to negate).
const OPEN: i32 = i32::MAX / 2;

/// Most symmetries whose images' hashes a [`CompactPosition`] keeps; a board with a larger
/// group is searched with plain hashes (goldberg:2 and goldberg:3 have 60).
const MAX_SYMMETRIES: usize = 64;

/// What every [`CompactPosition`] of one board shares: the board and, per cell and
/// colour, the Zobrist key of the cell's image under each symmetry (the identity first).
pub struct CompactBoard {
    complex: Arc<Complex>,
    all_cells: u128,
    /// `image_keys[cell * symmetries + map][colour]`.
    image_keys: Vec<[u64; 2]>,
    symmetries: usize,
    /// Per cell, its vertices as bits, on boards of plain polygons with at most 128
    /// vertices (where [`CompactPosition::margin_range`] applies), and their number.
    vertex_masks: Option<Vec<u128>>,
    /// Per cell, the other cells sharing a vertex with it (empty without vertex masks):
    /// only they can make a pair of the greedy pairing ([`CompactPosition::pairing`]).
    vertex_sharers: Vec<u128>,
    vertices: i64,
    /// Per cell, the cells on the other side of its edges as bits: the first mask those
    /// across at least one edge, the next those across at least two, and so on (a cell
    /// may meet another along several edges), for the move order's count of them.
    edge_layers: Vec<Vec<u128>>,
    /// Per thread, the pairings that last answered windows ([`CompactPosition::pairing_bound`]):
    /// neighbouring positions of a search often share a strategy, and any pairing tried is
    /// checked over every split, so this memory changes how many positions are cut, never
    /// what a bound says. A board of its own for each solve makes its nodes the same
    /// every run.
    remembered: ThreadLocal<Remembered>,
}

impl CompactBoard {
    /// The tables for `complex` with positions hashed up to `symmetries` (none: plainly);
    /// `None` on boards of more than [`COMPACT_MAX_CELLS`] cells.
    pub fn new(complex: Arc<Complex>, symmetries: Option<&Symmetries>) -> Option<CompactBoard> {
        let cells = complex.cell_count();
        if cells > COMPACT_MAX_CELLS {
            return None;
        }
        let identity: Vec<usize> = (0..cells).collect();
        let maps: Vec<&[usize]> = match symmetries {
            Some(group) if group.len() <= MAX_SYMMETRIES => {
                group.maps().iter().map(Vec::as_slice).collect()
            }
            _ => vec![&identity],
        };
        let zobrist = |cell: usize, colour: usize| complex.zobrist(cell, colour);
        let image_keys = (0..cells)
            .flat_map(|cell| {
                maps.iter()
                    .map(move |map| [0, 1].map(|colour| zobrist(map[cell], colour)))
            })
            .collect();
        let board = complex.board();
        let vertex_masks = (complex.rings_exact() && board.vertex_count() <= 128).then(|| {
            (0..cells)
                .map(|cell| {
                    let vertices = board.cell_vertices(cell).iter();
                    vertices.fold(0u128, |mask, &v| mask | 1 << v)
                })
                .collect()
        });
        let vertex_sharers = vertex_masks
            .as_deref()
            .map_or(Vec::new(), |masks: &[u128]| {
                (0..cells)
                    .map(|cell| {
                        let sharers = (0..cells)
                            .filter(|&other| other != cell && masks[cell] & masks[other] != 0);
                        sharers.fold(0u128, |bits, other| bits | 1 << other)
                    })
                    .collect()
            });
        let edge_layers = (0..cells)
            .map(|cell| {
                let mut layers: Vec<u128> = Vec::new();
                for &other in complex.edge_others(cell) {
                    let bit = 1u128 << other;
                    match layers.iter_mut().find(|layer| **layer & bit == 0) {
                        Some(layer) => *layer |= bit,
                        None => layers.push(bit),
                    }
                }
                layers
            })
            .collect();
        Some(CompactBoard {
            remembered: ThreadLocal::new(),
            vertex_masks,
            vertex_sharers,
            edge_layers,
            vertices: board.vertex_count() as i64,
            all_cells: u128::MAX
                .checked_shr((COMPACT_MAX_CELLS - cells) as u32)
                .unwrap_or(0),
            image_keys,
            symmetries: maps.len(),
            complex: complex.clone(),
        })
    }

    /// `game` as a compact position on this board (which must be `game`'s).
    pub fn position(&self, game: &EulerGetter) -> CompactPosition<'_> {
        let mut stones = [0u128; 2];
        for (cell, stone) in game.stones().iter().enumerate() {
            if let Some(colour) = stone {
                stones[colour.index()] |= 1 << cell;
            }
        }
        let mut hashes = [0u64; MAX_SYMMETRIES];
        for (colour, &bits) in stones.iter().enumerate() {
            for cell in cells_of(bits) {
                self.toggle(&mut hashes, cell, colour);
            }
        }
        let majorities = stones.map(|bits| match &self.vertex_masks {
            Some(masks) => cells_of(bits).fold(Majorities::default(), |m, cell| m.add(masks[cell])),
            None => Majorities::default(),
        });
        CompactPosition {
            board: self,
            stones,
            majorities,
            counts: Player::BOTH.map(|colour| game.counts(game.owner_of(colour))),
            rule: game.rule(),
            swap_rule: game.swap_rule(),
            swapped: game.swapped(),
            hashes,
        }
    }

    /// Adds or removes a `colour` stone on `cell` in the hashes of every image.
    fn toggle(&self, hashes: &mut [u64; MAX_SYMMETRIES], cell: usize, colour: usize) {
        let keys = &self.image_keys[cell * self.symmetries..(cell + 1) * self.symmetries];
        for (hash, key) in hashes.iter_mut().zip(keys) {
            *hash ^= key[colour];
        }
    }
}

/// The cells of a bitset, lowest first.
fn cells_of(mut bits: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cell
        })
    })
}

/// The vertices that the cells of `empty` touch, and those that two of them touch.
fn touched_and_shared(masks: &[u128], empty: u128) -> (u128, u128) {
    cells_of(empty).fold((0, 0), |(touched, shared), cell| {
        (touched | masks[cell], shared | (touched & masks[cell]))
    })
}

/// An Euler Getter position for the exact solver, on a board of at most
/// [`COMPACT_MAX_CELLS`] cells: stones by colour as bitsets, each colour's V, E and F, and
/// the Zobrist hash of each symmetric image. Same moves, hash and outcome as the
/// [`EulerGetter`] it was made from (see [`CompactBoard::position`]).
#[derive(Clone, Copy)]
pub struct CompactPosition<'a> {
    board: &'a CompactBoard,
    /// By colour (colour `X` is the first player's).
    stones: [u128; 2],
    counts: [RegionCounts; 2],
    /// Per colour, its majorities (none on boards without vertex masks).
    majorities: [Majorities; 2],
    rule: Rule,
    swap_rule: SwapRule,
    swapped: bool,
    /// Per symmetry of the board, the hash of the position's image (the identity first).
    hashes: [u64; MAX_SYMMETRIES],
}

impl CompactPosition<'_> {
    fn empty_bits(&self) -> u128 {
        self.board.all_cells & !(self.stones[0] | self.stones[1])
    }

    fn placed(&self) -> usize {
        (self.stones[0] | self.stones[1]).count_ones() as usize
    }

    fn owner_of(&self, colour: Player) -> Player {
        if self.swapped {
            colour.opponent()
        } else {
            colour
        }
    }

    fn swap_available(&self) -> bool {
        !self.swapped && self.swap_rule.0 == Some(self.placed() as u8) && self.empty_bits() != 0
    }

    /// The least and the most final margin of X's player over every continuation, exactly
    /// (the best bounds that ignore the order of play), on boards with vertex masks and with
    /// at most [`RANGE_MAX_EMPTY`] empty cells; `None` otherwise.
    ///
    /// Why: without a swap to come, the continuations end in every way of sharing the empty
    /// cells out, the colour to move taking the larger half. On a board of plain polygons a
    /// colour's `chi = F - M / 2`, where `M` counts its majorities, the vertices where it
    /// holds two or three of the three cells (see [`Stones::chi_ceilings`]); on a full
    /// board each vertex is the majority of exactly one colour, so `M_X + M_O = V` and
    /// colour X's margin is `F_X - F_O + V / 2 - M_X`, with `F_X` and `F_O` fixed by the
    /// share. So the range is that of `M_X` over the shares, which
    /// [`majority_range`] enumerates. A vertex can still become X's majority only if X
    /// holds one of its cells and an empty cell touches it, or two empty cells touch it.
    ///
    /// With a `window` `(low, high)` the enumeration stops, and the answer is `None`, as
    /// soon as the range is known to reach below `high` and above `low` (a search asking
    /// only whether the margin is at most `low` or at least `high`): at 8 empty cells the
    /// range nearly never decides, and two shares usually show it.
    fn margin_range(&self, window: Option<(i32, i32)>) -> Option<(i32, i32)> {
        let masks = self.board.vertex_masks.as_deref()?;
        let empty = self.empty_bits();
        let left = empty.count_ones();
        if left as usize > RANGE_MAX_EMPTY {
            return None;
        }
        let held = self.majorities[0];
        let (touched, shared) = touched_and_shared(masks, empty);
        let reachable = shared | (held.ones & touched);
        // Colour X's margin is `fixed - M`, X's player's that or its opposite by the rule.
        let FinalMargin {
            fixed,
            colour_x_is_x,
            claims,
            ..
        } = self.final_margin();
        // The window in majorities: a range of `M` reaching below `below` and above `above`
        // has margins below `high` and above `low`.
        let undecided = window.map_or(Undecided::NEVER, |(low, high)| {
            let (low, high) = (i64::from(low), i64::from(high));
            match colour_x_is_x {
                true => Undecided {
                    below: fixed - low,
                    above: fixed - high,
                },
                false => Undecided {
                    below: fixed + high,
                    above: fixed + low,
                },
            }
        });
        let mut range = (u32::MAX, 0);
        majority_range(masks, empty, claims, held, reachable, undecided, &mut range);
        if undecided.reached(range) {
            return None;
        }
        let (least, most) = (
            (fixed - i64::from(range.1)) as i32,
            (fixed - i64::from(range.0)) as i32,
        );
        Some(match colour_x_is_x {
            true => (least, most),
            false => (-most, -least),
        })
    }

    /// The empty cells worth searching: all but the lone ones (sharing no vertex with
    /// another empty cell), of which only the cheapest (under the reverse rule, the
    /// dearest). `None` without vertex masks or with a swap to come.
    ///
    /// Why the others are dominated: a lone cell's vertices have their two other cells
    /// filled, so it changes no other empty cell's future and gives whoever takes it the
    /// same majorities (see [`CompactPosition::margin_range`]), those at its vertices
    /// between an X and an O stone, whenever it is taken: a token of fixed cost, which
    /// each player wants to leave to the other (under the normal rule). Taking a dearer
    /// token `t` instead of the cheapest `c` costs `d` more now and leaves a game that
    /// differs only in holding `c` instead of `t`, a token `d` cheaper, whose value for the
    /// opponent is at most `d` better (a strategy for one is one for the other, paying at
    /// most `d` more or less). So `c` is at least as good.
    fn unlone_and_cheapest_cells(&self) -> Option<u128> {
        let masks = self.board.vertex_masks.as_deref()?;
        if self.swap_pending() {
            return None;
        }
        let empty = self.empty_bits();
        let (_, shared) = touched_and_shared(masks, empty);
        let mixed = self.majorities[0].ones & self.majorities[1].ones;
        let mut kept = 0u128;
        let mut cheapest: Option<(i32, usize)> = None;
        for cell in cells_of(empty) {
            if masks[cell] & shared != 0 {
                kept |= 1 << cell;
                continue;
            }
            let majorities = (masks[cell] & mixed).count_ones();
            let cost = self.rule.oriented(majorities as i32);
            if cheapest.is_none_or(|(least, _)| cost < least) {
                cheapest = Some((cost, cell));
            }
        }
        Some(kept | cheapest.map_or(0, |(_, cell)| 1 << cell))
    }

    /// How colour X's majorities at the end of every continuation map to the margin of
    /// X's player (see [`CompactPosition::margin_range`]): `fixed - M_X` for colour X,
    /// with `fixed` set by how many cells each colour will hold.
    fn final_margin(&self) -> FinalMargin {
        let left = self.empty_bits().count_ones();
        let mut claims = [left / 2; 2];
        claims[self.colour_to_move().index()] = left.div_ceil(2);
        let faces = |colour: usize| self.counts[colour].faces + i64::from(claims[colour]);
        FinalMargin {
            fixed: faces(0) - faces(1) + self.board.vertices / 2,
            claims: claims[0],
            vertices: self.board.vertices,
            colour_x_is_x: matches!(
                (self.rule, self.swapped),
                (Rule::Normal, false) | (Rule::Reverse, true)
            ),
        }
    }

    /// A bound on X's player's margin that the colour not to move (the responder) can
    /// guarantee by a pairing strategy, if it answers the window `(low, high)`: a lower
    /// bound of at least `high` when the responder is X's player, an upper bound of at
    /// most `low` when it is O's, the other side open. `None` when it answers neither, on
    /// boards without vertex masks and with more than [`REMEMBERED_MAX_EMPTY`] empty cells.
    ///
    /// Why it holds: the empty cells are split into pairs (and one single cell when their
    /// number is odd). Whenever the mover takes a cell of a pair the responder takes the
    /// other; when the mover takes the single cell, the responder takes a cell of any pair,
    /// whose partner becomes the single one. The mover always finds a cell, moves last when
    /// the number is odd, and so every game played this way ends with each pair split one
    /// and one, the single cell (or the partner left of a pair broken) the mover's. The
    /// responder's majorities depend only on its own cells, so its worst over every way of
    /// choosing one cell of each pair is a bound it guarantees whatever the mover does:
    /// the order of play is used, not only the number of cells each colour gets (which
    /// [`CompactPosition::margin_range`] uses), so it can be tighter than that range, and
    /// never looser on the responder's side. Which pairs are chosen only affects how good
    /// the bound is. Tried in turn: the pairings that last answered a window on this board
    /// and thread at as many and at two fewer empty cells, made this position's
    /// ([`CompactPosition::remembered_pairs`]), then, up to [`PAIRING_MAX_EMPTY`] empty
    /// cells, the greedy pairing ([`CompactPosition::pairing`]); each, from
    /// [`REPAIR_MIN_EMPTY`] empty cells on, repaired where a split loses the window by
    /// little ([`CompactPosition::repair`]). So a window can be answered with a bound that
    /// the greedy pairing, asked about no window, does not give.
    fn pairing_bound(&self, low: i32, high: i32) -> Option<(i32, i32)> {
        if self.empty_bits().count_ones() < 2 {
            return None;
        }
        self.answering_pairs(low, high).map(|(_, _, bound)| bound)
    }

    /// The pairs of [`CompactPosition::pairing_bound`]'s strategy when that bound answers
    /// the window `(low, high)`, for a certificate's pairing leaf (which the checker
    /// verifies by its own count).
    pub(crate) fn pairs_deciding(&self, low: i32, high: i32) -> Option<Vec<(usize, usize)>> {
        self.answering_pairs(low, high)
            .map(|(pairs, count, _)| pairs[..count].to_vec())
    }

    /// The responder's pairs (and their count) and the bound of
    /// [`CompactPosition::pairing_bound`], when it answers the window `(low, high)`.
    fn answering_pairs(&self, low: i32, high: i32) -> Option<(Pairs, usize, (i32, i32))> {
        let masks = self.board.vertex_masks.as_deref()?;
        let empty = self.empty_bits();
        let left = empty.count_ones() as usize;
        if left > REMEMBERED_MAX_EMPTY {
            return None;
        }
        let responder = self.colour_to_move().opponent();
        // Seeded by the position, so that a search visits the same nodes every run.
        let mut rng = Rng::new(self.hashes[0]);
        // The remembered pairings first: they answer more windows than the greedy one.
        let remembered = [Some(left), left.checked_sub(2)]
            .into_iter()
            .flatten()
            .filter_map(|earlier| self.remembered_pairs(masks, earlier, responder));
        let greedy = (left <= PAIRING_MAX_EMPTY)
            .then_some(empty)
            .into_iter()
            .map(|empty| self.pairing(masks, empty, responder));
        for (mut pairs, count) in remembered.chain(greedy) {
            if let Some(bound) = self.repaired(masks, &mut pairs[..count], low, high, &mut rng) {
                self.remembered().borrow_mut()[left] = Some((pairs, count));
                return Some((pairs, count, bound));
            }
        }
        None
    }

    /// The bound of `pairs` ([`CompactPosition::bound_of_pairs`]) when it answers the
    /// window `(low, high)`, the pairs repaired ([`CompactPosition::repair`]) from
    /// [`REPAIR_MIN_EMPTY`] empty cells on.
    fn repaired(
        &self,
        masks: &[u128],
        pairs: &mut [(usize, usize)],
        low: i32,
        high: i32,
        rng: &mut Rng,
    ) -> Option<(i32, i32)> {
        let repairs = if self.empty_bits().count_ones() as usize >= REPAIR_MIN_EMPTY {
            PAIRING_REPAIRS
        } else {
            0
        };
        for _ in 0..repairs {
            match self.bound_of_pairs(masks, pairs, low, high) {
                Ok(bound) => return Some(bound),
                Err((_, miss)) if miss > REPAIR_MAX_MISS => return None,
                Err((split, _)) => self.repair(masks, pairs, split, rng),
            }
        }
        self.bound_of_pairs(masks, pairs, low, high).ok()
    }

    /// This thread's memory of pairings on this board.
    fn remembered(&self) -> &Remembered {
        let empty = || std::cell::RefCell::new([None; REMEMBERED_MAX_EMPTY + 1]);
        self.board.remembered.get_or(empty)
    }

    /// The pairing remembered from positions with `earlier` empty cells, made this
    /// position's: its pairs of two empty cells kept, the other empty cells paired greedily
    /// ([`CompactPosition::pairing`]). `None` when none is remembered, or none of its
    /// pairs is kept.
    fn remembered_pairs(
        &self,
        masks: &[u128],
        earlier: usize,
        responder: Player,
    ) -> Option<(Pairs, usize)> {
        let (old, old_count) = (*self.remembered().borrow().get(earlier)?)?;
        let empty = self.empty_bits();
        let mut pairs = [(0, 0); REMEMBERED_MAX_EMPTY / 2];
        let mut count = 0;
        let mut covered = 0u128;
        for &(a, b) in &old[..old_count] {
            let both = 1u128 << a | 1u128 << b;
            if empty & both == both {
                pairs[count] = (a, b);
                count += 1;
                covered |= both;
            }
        }
        if count == 0 {
            return None;
        }
        let (rest, rest_count) = self.pairing(masks, empty & !covered, responder);
        pairs[count..count + rest_count].copy_from_slice(&rest[..rest_count]);
        Some((pairs, count + rest_count))
    }

    /// Changes `pairs` after the responder's strategy lost the window in `split` (bit `i`
    /// set where the responder took the second cell of pair `i`), as a counterexample
    /// suggests: two cells of different pairs that the colour whose majorities hurt the
    /// responder (itself under the normal rule, the mover under the reverse rule) held in
    /// that split, meeting at the most vertices still open to a majority, become partners,
    /// and so do their partners. One time in four, or when no two such cells meet, two
    /// pairs chosen at random are crossed the same way, so that repairs do not cycle.
    fn repair(&self, masks: &[u128], pairs: &mut [(usize, usize)], split: u32, rng: &mut Rng) {
        let responder = self.colour_to_move().opponent();
        let (harmed_by, harmed_by_second) = match self.rule {
            Rule::Normal => (responder, true),
            Rule::Reverse => (responder.opponent(), false),
        };
        let held = |i: usize| {
            let (a, b) = pairs[i];
            match (split >> i & 1 == 1) == harmed_by_second {
                true => (b, a),
                false => (a, b),
            }
        };
        let open = !(self.majorities[harmed_by.index()].ones
            | self.majorities[0].twos
            | self.majorities[1].twos);
        // The open vertices of each pair's harmful cell, worked out once for the pairs'
        // every meeting.
        let mut harmful = [0u128; REMEMBERED_MAX_EMPTY / 2];
        for (i, vertices) in harmful.iter_mut().enumerate().take(pairs.len()) {
            *vertices = masks[held(i).0] & open;
        }
        let harmful = &harmful[..pairs.len()];
        let mut best = None;
        let mut ties = 0;
        for (i, &first) in harmful.iter().enumerate() {
            for (j, &second) in harmful.iter().enumerate().skip(i + 1) {
                let weight = (first & second).count_ones();
                if weight == 0 {
                    continue;
                }
                match best {
                    Some((w, _, _)) if weight < w => {}
                    Some((w, _, _)) if weight == w => {
                        ties += 1;
                        if rng.below(ties + 1) == 0 {
                            best = Some((weight, i, j));
                        }
                    }
                    _ => {
                        ties = 0;
                        best = Some((weight, i, j));
                    }
                }
            }
        }
        let n = pairs.len();
        let (i, j) = match best {
            Some((_, i, j)) if rng.below(4) != 0 => (i, j),
            _ if n >= 2 => {
                let i = rng.below(n);
                (i, (i + 1 + rng.below(n - 1)) % n)
            }
            _ => return,
        };
        let ((hi, oi), (hj, oj)) = (held(i), held(j));
        pairs[i] = (hi, hj);
        pairs[j] = (oi, oj);
    }

    /// [`CompactPosition::pairing_bound`] of the responder's strategy with `pairs`, or a
    /// split that loses the window and by how much its margin misses it.
    fn bound_of_pairs(
        &self,
        masks: &[u128],
        pairs: &[(usize, usize)],
        low: i32,
        high: i32,
    ) -> Result<(i32, i32), (u32, i32)> {
        let responder = self.colour_to_move().opponent();
        let count = pairs.len();
        let final_margin = self.final_margin();
        let x_margin = |majorities: u32| final_margin.of(responder, majorities);
        let responder_is_x = self.owner_of(responder) == Player::X;
        // The responder's worst end: the most majorities under the normal rule, the fewest
        // under the reverse rule; it answers the window while the margin stays on its side.
        let most = self.rule == Rule::Normal;
        let decides = |majorities: u32| match responder_is_x {
            true => x_margin(majorities) >= high,
            false => x_margin(majorities) <= low,
        };
        let mut rest = [(0u128, 0u128); REMEMBERED_MAX_EMPTY / 2 + 1];
        for i in (0..count).rev() {
            let (a, b) = pairs[i];
            let (touched, shared) = rest[i + 1];
            let both = masks[a] | masks[b];
            rest[i] = (touched | both, shared | (touched & both));
        }
        let search = PairSplits {
            masks,
            pairs,
            rest: &rest[..=count],
            most,
            decides: &decides,
            failed: std::cell::Cell::new((0, 0)),
        };
        let mut worst = None;
        if !search.worst(0, self.majorities[responder.index()], 0, &mut worst) {
            let (split, count) = search.failed.get();
            let miss = match responder_is_x {
                true => high.saturating_sub(x_margin(count)),
                false => x_margin(count).saturating_sub(low),
            };
            return Err((split, miss));
        }
        let bound = x_margin(worst.expect("every search reaches a split"));
        Ok(match responder_is_x {
            true => (bound, OPEN),
            false => (-OPEN, bound),
        })
    }

    /// The pairs of the responder's strategy in [`CompactPosition::pairing_bound`] (as
    /// cell numbers, with their count), leaving out one cell, the mover's, when the empty
    /// cells are odd. First, greedily, pairs of cells sharing the vertices where pairing
    /// helps the responder most: such a vertex then goes to whoever holds its third cell,
    /// good when that is the colour the rule wants to hold the majority (the mover under
    /// the normal rule) and possibly when it is empty (weights 2 and 1; 1 and 0, 1 and 1,
    /// 1 and 2 gave a little more nodes, BENCHMARKS.md). The rest are sorted by how much
    /// the responder wants them (under the normal rule, by fewest majorities they would
    /// add to it) and paired in that order, the least wanted left to the mover.
    fn pairing(&self, masks: &[u128], empty: u128, responder: Player) -> (Pairs, usize) {
        let mover = responder.opponent();
        let (given, kept) = match self.rule {
            Rule::Normal => (mover, responder),
            Rule::Reverse => (responder, mover),
        };
        let good = self.majorities[given.index()].ones & !self.majorities[kept.index()].ones;
        let open = !(self.majorities[0].ones | self.majorities[1].ones);
        let mut cells = [0usize; REMEMBERED_MAX_EMPTY];
        let mut n = 0;
        for cell in cells_of(empty) {
            cells[n] = cell;
            n += 1;
        }
        let cells = &cells[..n];
        // Each candidate pair as one sortable word: the weight's complement, then `i`, `j`
        // (the cells' ranks in `cells`). Only cells sharing a vertex can weigh anything.
        let mut candidates = [0u32; REMEMBERED_MAX_EMPTY * (REMEMBERED_MAX_EMPTY - 1) / 2];
        let mut found = 0;
        for (i, &first) in cells.iter().enumerate() {
            let below_first = (1u128 << first) - 1;
            let later = self.board.vertex_sharers[first] & empty & !(below_first | 1 << first);
            for second in cells_of(later) {
                let shared = masks[first] & masks[second];
                let weight = 2 * (shared & good).count_ones() + (shared & open).count_ones();
                if weight > 0 {
                    let j = (empty & ((1u128 << second) - 1)).count_ones();
                    candidates[found] = (u16::MAX as u32 - weight) << 16 | (i as u32) << 8 | j;
                    found += 1;
                }
            }
        }
        let candidates = &mut candidates[..found];
        candidates.sort_unstable();
        let mut pairs = [(0, 0); REMEMBERED_MAX_EMPTY / 2];
        let mut count = 0;
        let mut paired = 0u32;
        for &candidate in candidates.iter() {
            let (i, j) = (
                (candidate >> 8 & 0xff) as usize,
                (candidate & 0xff) as usize,
            );
            if paired & (1 << i | 1 << j) == 0 {
                paired |= 1 << i | 1 << j;
                pairs[count] = (cells[i], cells[j]);
                count += 1;
            }
        }
        let held = self.majorities[responder.index()];
        let added = |cell: usize| (masks[cell] & held.ones & !held.twos).count_ones() as i32;
        let want = |cell: usize| -self.rule.oriented(added(cell));
        let mut rest = [(0i32, 0usize); REMEMBERED_MAX_EMPTY];
        let mut r = 0;
        for (i, &cell) in cells.iter().enumerate() {
            if paired & (1 << i) == 0 {
                rest[r] = (want(cell), cell);
                r += 1;
            }
        }
        let rest = &mut rest[..r];
        rest.sort_unstable();
        // An odd count leaves the least wanted, the first, to the mover.
        for pair in rest[r % 2..].chunks_exact(2) {
            pairs[count] = (pair[0].1, pair[1].1);
            count += 1;
        }
        (pairs, count)
    }

    fn swap_pending(&self) -> bool {
        self.swap_rule
            .0
            .is_some_and(|after| !self.swapped && self.placed() <= after as usize)
    }
}

/// Vertices as bits, counted up to two: `ones` where a colour holds at least one of the
/// three cells, `twos` where it holds at least two (its majorities).
#[derive(Clone, Copy, Default)]
struct Majorities {
    ones: u128,
    twos: u128,
}

impl Majorities {
    fn add(self, cell_vertices: u128) -> Majorities {
        Majorities {
            ones: self.ones | cell_vertices,
            twos: self.twos | (self.ones & cell_vertices),
        }
    }

    fn count(&self) -> u32 {
        self.twos.count_ones()
    }
}

/// How a colour's majorities at the end map to X's player's margin
/// ([`CompactPosition::final_margin`]).
struct FinalMargin {
    fixed: i64,
    /// The empty cells colour X will claim.
    claims: u32,
    vertices: i64,
    colour_x_is_x: bool,
}

impl FinalMargin {
    /// X's player's margin when `colour` ends with `majorities` (the other colour with
    /// the rest of the vertices).
    fn of(&self, colour: Player, majorities: u32) -> i32 {
        let colour_x = match colour {
            Player::X => i64::from(majorities),
            Player::O => self.vertices - i64::from(majorities),
        };
        let margin = (self.fixed - colour_x) as i32;
        if self.colour_x_is_x { margin } else { -margin }
    }
}

/// The responder's worst end over every split of its pairs ([`CompactPosition::pairing_bound`]).
struct PairSplits<'a, D: Fn(u32) -> bool> {
    masks: &'a [u128],
    pairs: &'a [(usize, usize)],
    /// From each pair on, the vertices the cells of the pairs left touch, and those two
    /// of them touch.
    rest: &'a [(u128, u128)],
    /// Whether the worst is the most majorities (else the fewest).
    most: bool,
    decides: &'a D,
    /// The split that lost the window, as `taken` in [`PairSplits::worst`].
    failed: std::cell::Cell<(u32, u32)>,
}

impl<D: Fn(u32) -> bool> PairSplits<'_, D> {
    /// Widens `worst` with the splits of the pairs from `next` on, the responder holding
    /// `held`; false as soon as one split shows the bound cannot answer the window. A
    /// branch that cannot beat `worst` is skipped: the responder's majorities only grow,
    /// and only at vertices it holds once or two cells left touch.
    /// `taken` has bit `i` set where the responder took the second cell of pair `i`; the
    /// split that showed it is left in `failed`.
    fn worst(&self, next: usize, held: Majorities, taken: u32, worst: &mut Option<u32>) -> bool {
        let Some(&(a, b)) = self.pairs.get(next) else {
            let count = held.count();
            if !(self.decides)(count) {
                self.failed.set((taken, count));
                return false;
            }
            *worst = Some(match (*worst, self.most) {
                (None, _) => count,
                (Some(w), true) => w.max(count),
                (Some(w), false) => w.min(count),
            });
            return true;
        };
        if let Some(w) = *worst {
            let beyond = match self.most {
                true => {
                    let (touched, shared) = self.rest[next];
                    (held.twos | (held.ones & touched) | shared).count_ones() > w
                }
                false => held.count() < w,
            };
            if !beyond {
                return true;
            }
        }
        // The cell that gives the responder more majorities (fewer under the reverse rule)
        // first: that raises `worst` sooner, so more branches are skipped, and reaches a
        // split that loses the window sooner.
        let (first, second) = (held.add(self.masks[a]), held.add(self.masks[b]));
        let second_is_worse = match self.most {
            true => second.count() > first.count(),
            false => second.count() < first.count(),
        };
        let mut splits = [(first, taken), (second, taken | 1 << next)];
        if second_is_worse {
            splits.swap(0, 1);
        }
        splits
            .into_iter()
            .all(|(held, taken)| self.worst(next + 1, held, taken, worst))
    }
}

/// When [`majority_range`] may stop: once its range of majorities reaches below `below`
/// and above `above` (and is more than one value), the bounds it gives answer nothing.
#[derive(Clone, Copy)]
struct Undecided {
    below: i64,
    above: i64,
}

impl Undecided {
    /// The whole range is wanted.
    const NEVER: Undecided = Undecided {
        below: i64::MIN,
        above: i64::MAX,
    };

    fn reached(&self, range: (u32, u32)) -> bool {
        range.0 < range.1 && i64::from(range.0) < self.below && i64::from(range.1) > self.above
    }
}

/// The fewest and the most majorities over every way to give `claims` of the cells in
/// `empty` to the colour counted in `held` (the rest to the other colour), widening
/// `range`. A branch stops when it can neither lower the least (its count only grows) nor
/// raise the most (it cannot gain more than `reachable`: the vertices that the colour
/// holds once or that two empty cells touch, see [`CompactPosition::margin_range`]). It
/// stops when `undecided` is reached.
fn majority_range(
    masks: &[u128],
    empty: u128,
    claims: u32,
    held: Majorities,
    reachable: u128,
    undecided: Undecided,
    range: &mut (u32, u32),
) {
    if undecided.reached(*range) {
        return;
    }
    let left = empty.count_ones();
    if claims == 0 || claims == left {
        let filled = match claims {
            0 => held,
            _ => cells_of(empty).fold(held, |m, cell| m.add(masks[cell])),
        };
        range.0 = range.0.min(filled.count());
        range.1 = range.1.max(filled.count());
        return;
    }
    let most_here = (held.twos | reachable).count_ones();
    if held.count() >= range.0 && most_here <= range.1 {
        return;
    }
    let cell = empty.trailing_zeros() as usize;
    let rest = empty & (empty - 1);
    majority_range(
        masks,
        rest,
        claims - 1,
        held.add(masks[cell]),
        reachable,
        undecided,
        range,
    );
    majority_range(masks, rest, claims, held, reachable, undecided, range);
}

impl Stones for CompactPosition<'_> {
    fn rule(&self) -> Rule {
        self.rule
    }

    fn complex(&self) -> &Complex {
        &self.board.complex
    }

    fn stone(&self, cell: usize) -> Option<Player> {
        let bit = 1u128 << cell;
        if self.stones[0] & bit != 0 {
            Some(Player::X)
        } else if self.stones[1] & bit != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        cells_of(self.empty_bits())
    }

    fn empty_count(&self) -> usize {
        self.empty_bits().count_ones() as usize
    }

    fn colour_counts(&self, colour: Player) -> RegionCounts {
        self.counts[colour.index()]
    }

    fn colour_to_move(&self) -> Player {
        if self.placed().is_multiple_of(2) {
            Player::X
        } else {
            Player::O
        }
    }

    /// With vertex masks, from the colour's majorities: the cell's vertices that none of the
    /// colour's cells touches yet are new, and so are the majorities at those it touches
    /// once; on a board of plain polygons `V - E = -M / 2` ([`CompactPosition::margin_range`]),
    /// so the new edges are the new vertices plus half the new majorities.
    /// With vertex masks, from the majorities: the cell being empty, a vertex is settled
    /// where a colour holds two cells, and open where neither holds one.
    fn settled_and_open_vertices(&self, cell: usize) -> (i64, i64) {
        let Some(masks) = &self.board.vertex_masks else {
            return counted_settled_and_open_vertices(self, cell);
        };
        let [x, o] = self.majorities;
        let settled = (masks[cell] & (x.twos | o.twos)).count_ones();
        let open = (masks[cell] & !(x.ones | o.ones)).count_ones();
        (i64::from(settled), i64::from(open))
    }

    fn edge_neighbours_of(&self, cell: usize, colour: Player) -> i64 {
        let stones = self.stones[colour.index()];
        let layers = &self.board.edge_layers[cell];
        layers
            .iter()
            .map(|layer| i64::from((layer & stones).count_ones()))
            .sum()
    }

    fn new_vertices_and_edges(&self, cell: usize, colour: Player) -> (i64, i64) {
        let Some(masks) = &self.board.vertex_masks else {
            return counted_new_vertices_and_edges(self, cell, colour);
        };
        let held = self.majorities[colour.index()];
        let vertices = i64::from((masks[cell] & !held.ones).count_ones());
        let majorities = i64::from((masks[cell] & held.ones & !held.twos).count_ones());
        (vertices, vertices + majorities / 2)
    }
}

impl Game for CompactPosition<'_> {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.owner_of(self.colour_to_move())
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = self
            .empty_cells()
            .map(|cell| Move::Place(cell as u16))
            .collect();
        if self.swap_available() {
            moves.push(Move::Swap);
        }
        moves
    }

    fn play(&mut self, mv: &Move) {
        let cell = match *mv {
            Move::Place(cell) => cell as usize,
            Move::Swap => {
                self.swapped = true;
                return;
            }
        };
        let colour = self.colour_to_move();
        let (vertices, edges) = self.new_vertices_and_edges(cell, colour);
        let counts = &mut self.counts[colour.index()];
        counts.vertices += vertices;
        counts.edges += edges;
        counts.faces += 1;
        self.stones[colour.index()] |= 1 << cell;
        if let Some(masks) = &self.board.vertex_masks {
            self.majorities[colour.index()] = self.majorities[colour.index()].add(masks[cell]);
        }
        self.board.toggle(&mut self.hashes, cell, colour.index());
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.empty_bits() == 0).then(|| {
            let [x, o] = self.counts.map(|c| c.chi());
            let x_colour_margin = (x - o) as i32;
            let margin = match (self.rule, self.swapped) {
                (Rule::Normal, false) | (Rule::Reverse, true) => x_colour_margin,
                (Rule::Normal, true) | (Rule::Reverse, false) => -x_colour_margin,
            };
            Outcome::scored(margin, Player::X.winner_by(margin))
        })
    }

    fn position_hash(&self) -> u64 {
        let canonical = self.hashes[..self.board.symmetries]
            .iter()
            .copied()
            .min()
            .expect("the identity is a symmetry");
        crate::game::with_swap_key(canonical, self.swapped)
    }

    /// Every legal move but the lone cells dearer than the cheapest
    /// (`CompactPosition::unlone_and_cheapest_cells`).
    fn search_moves(&self) -> Vec<Move> {
        match self.unlone_and_cheapest_cells() {
            Some(cells) => cells_of(cells)
                .map(|cell| Move::Place(cell as u16))
                .collect(),
            None => self.legal_moves(),
        }
    }

    fn order_moves(&self, moves: &mut [Move]) {
        self.order_cells(moves);
    }

    const CHILDREN_LOOKED_UP_FIRST: bool = EulerGetter::CHILDREN_LOOKED_UP_FIRST;

    fn margin_bounds(&self) -> Option<(i32, i32)> {
        if self.swap_pending() {
            return None;
        }
        match self.board.vertex_masks {
            Some(_) => self.margin_range(None),
            None => self.margin_bounds_for(self.owner_of(Player::X), self.rule),
        }
    }

    /// The exact range at few empty cells, then the pairing bound where the range does
    /// not answer the window.
    fn margin_bounds_deciding(&self, low: i32, high: i32) -> Option<(i32, i32)> {
        if self.board.vertex_masks.is_none() || self.swap_pending() {
            return self.margin_bounds();
        }
        let range = self.margin_range(Some((low, high)));
        let answers = |(least, most): (i32, i32)| least >= high || most <= low || least == most;
        if range.is_some_and(answers) {
            return range;
        }
        let (least, most) = self.pairing_bound(low, high)?;
        let (range_least, range_most) = range.unwrap_or((-OPEN, OPEN));
        Some((least.max(range_least), most.min(range_most)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tests::reachable_margins;
    use crate::load_board;
    use crosscap_engine::solver::{Budget, Solver};

    /// Boards of every family with at most 128 cells (n3.json: a surface of
    /// characteristic -1; hemi-prism-8.json: cells that are not plain polygons).
    fn boards() -> Vec<String> {
        let file = |name: &str| format!("file:{}/boards/{name}", env!("CARGO_MANIFEST_DIR"));
        let mut boards: Vec<String> = ["goldberg:1", "goldberg:2", "taylor:2", "taylor:3"]
            .map(String::from)
            .to_vec();
        boards.extend([file("n3.json"), file("hemi-prism-8.json")]);
        boards
    }

    fn assert_same(game: &EulerGetter, compact: &CompactPosition, context: &str) {
        assert_eq!(compact.legal_moves(), game.legal_moves(), "{context}");
        assert_eq!(compact.to_move(), game.to_move(), "{context}");
        assert_eq!(compact.outcome(), game.outcome(), "{context}");
        assert_eq!(compact.position_hash(), game.position_hash(), "{context}");
        // The exact range lies within the game's bounds.
        match (compact.margin_bounds(), game.margin_bounds()) {
            (Some(exact), Some(bounds)) => {
                assert!(bounds.0 <= exact.0 && exact.1 <= bounds.1, "{context}");
            }
            (exact, bounds) => assert_eq!(exact, bounds, "{context}"),
        }
        for colour in Player::BOTH {
            assert_eq!(
                compact.colour_counts(colour),
                game.colour_counts(colour),
                "{context}"
            );
            for cell in game.empty_cells() {
                assert_eq!(
                    compact.edge_neighbours_of(cell, colour),
                    game.edge_neighbours_of(cell, colour),
                    "{context}, cell {cell}"
                );
            }
        }
        let (mut fast, mut plain) = (compact.legal_moves(), game.legal_moves());
        compact.order_moves(&mut fast);
        game.order_moves(&mut plain);
        assert_eq!(fast, plain, "{context}");
    }

    #[test]
    fn compact_positions_play_like_the_game_move_by_move() {
        for spec in &boards() {
            let complex = load_board(spec).unwrap();
            let symmetries = complex.board().symmetries();
            for seed in 0..12u64 {
                let swap = SwapRule([None, Some(1), Some(3)][seed as usize % 3]);
                let rule = [Rule::Normal, Rule::Reverse][seed as usize / 3 % 2];
                let hashed = seed % 4 < 2;
                let mut game = EulerGetter::new(complex.clone(), rule, swap);
                if hashed {
                    game = game.with_symmetries(Arc::new(symmetries.clone()));
                }
                let board = CompactBoard::new(complex.clone(), hashed.then_some(&symmetries))
                    .expect("a small board");
                let mut compact = board.position(&game);
                let mut rng = Rng::new(seed);
                loop {
                    let context = format!("{spec} seed {seed} after {}", game.placed());
                    assert_same(&game, &compact, &context);
                    assert_same(&game, &board.position(&game), &context);
                    let Some(mv) = game.random_move(&mut rng) else {
                        break;
                    };
                    game.play(&mv);
                    compact.play(&mv);
                }
            }
        }
    }

    #[test]
    fn the_margin_range_is_exactly_that_of_every_continuation() {
        let mut decided = 0;
        for spec in &boards()[..5] {
            let complex = load_board(spec).unwrap();
            let board = CompactBoard::new(complex.clone(), None).unwrap();
            for seed in 0..24u64 {
                let empties = 1 + seed as usize % RANGE_MAX_EMPTY.min(complex.cell_count());
                let rule = [Rule::Normal, Rule::Reverse][seed as usize % 3 / 2];
                let swap = SwapRule([None, Some(1)][seed as usize % 2]);
                let mut game = EulerGetter::new(complex.clone(), rule, swap);
                let mut rng = Rng::new(seed);
                while game.placed() + empties < complex.cell_count() {
                    let mv = game.random_move(&mut rng).unwrap();
                    game.play(&mv);
                }
                let compact = board.position(&game);
                let Some(range) = compact.margin_bounds() else {
                    assert!(compact.swap_pending(), "{spec} seed {seed}");
                    continue;
                };
                assert_eq!(range, reachable_margins(&compact), "{spec} seed {seed}");
                decided += usize::from(range.0 > 0 || range.1 < 0);
            }
        }
        assert!(decided > 10, "the range decides some endgames: {decided}");
    }

    /// The range asked about a window is the full range, or `None` only where the full
    /// range decides neither side of the window and is not exact.
    #[test]
    fn a_range_asked_about_a_window_stops_only_where_it_decides_nothing() {
        let (mut stopped, mut kept) = (0, 0);
        for spec in ["goldberg:2", "taylor:3"] {
            let complex = load_board(spec).unwrap();
            let board = CompactBoard::new(complex.clone(), None).unwrap();
            for seed in 0..40u64 {
                let empties = 3 + seed as usize % (RANGE_MAX_EMPTY - 2);
                let rule = [Rule::Normal, Rule::Reverse][seed as usize % 2];
                let mut game = EulerGetter::new(complex.clone(), rule, SwapRule(None));
                if seed % 3 == 0 {
                    game = EulerGetter::new(complex.clone(), rule, SwapRule(Some(1)));
                    game.play(&game.random_move(&mut Rng::new(seed)).unwrap());
                    game.play(&Move::Swap);
                }
                let mut rng = Rng::new(seed);
                while game.placed() + empties < complex.cell_count() {
                    game.play(&game.random_move(&mut rng).unwrap());
                }
                let compact = board.position(&game);
                let (least, most) = compact.margin_bounds().unwrap();
                for low in least - 3..=most + 1 {
                    let high = low + 1 + (seed % 3) as i32;
                    match compact.margin_range(Some((low, high))) {
                        Some(range) => {
                            assert_eq!(range, (least, most), "{spec} seed {seed}");
                            kept += 1;
                        }
                        None => {
                            assert!(least < high && most > low && least < most);
                            stopped += 1;
                        }
                    }
                }
            }
        }
        assert!(
            stopped > 50 && kept > 50,
            "both happen: {stopped} and {kept}"
        );
    }

    /// The pairing bound is one the responder guarantees: against the exact value (plain
    /// minimax up to 8 empty cells, above that the solver on the [`EulerGetter`] itself,
    /// which never uses this bound) on random endgames of 2 to 12 empty cells under both
    /// rules, some after a swap. Asked about a window, it answers whenever the greedy
    /// pairing's whole bound (asked about no window: every split checked) does, sometimes
    /// also after repairs, and what it answers is true.
    #[test]
    fn the_pairing_bound_holds_against_the_exact_value() {
        let (mut tight, mut answered, mut repaired) = (0, 0, 0);
        for spec in ["goldberg:1", "goldberg:2", "taylor:3"] {
            let complex = load_board(spec).unwrap();
            for seed in 0..30u64 {
                // A board of its own: nothing remembered from other positions.
                let board = CompactBoard::new(complex.clone(), None).unwrap();
                let empties = (2 + seed as usize % 11).min(complex.cell_count());
                let rule = [Rule::Normal, Rule::Reverse][seed as usize % 2];
                let mut game = EulerGetter::new(complex.clone(), rule, SwapRule(None));
                let mut rng = Rng::new(seed);
                if seed % 5 == 0 {
                    game = EulerGetter::new(complex.clone(), rule, SwapRule(Some(1)));
                    game.play(&game.random_move(&mut rng).unwrap());
                    game.play(&Move::Swap);
                }
                while game.placed() + empties < complex.cell_count() {
                    game.play(&game.random_move(&mut rng).unwrap());
                }
                let compact = board.position(&game);
                let mover_value = match empties {
                    0..=8 => crosscap_engine::solver::brute_force_value(&compact),
                    _ => Solver::new(Budget::unlimited()).value(&game).unwrap(),
                };
                let value = mover_value * game.to_move().sign();
                let context = format!("{spec} seed {seed}");
                // No window: every split is checked.
                let (least, most) = compact.pairing_bound(OPEN, -OPEN).expect(&context);
                let responder_is_x = compact.to_move() == Player::O;
                match responder_is_x {
                    true => assert!(least <= value && most == OPEN, "{context}"),
                    false => assert!(most >= value && least == -OPEN, "{context}"),
                }
                tight += usize::from(least == value || most == value);
                for low in value - 4..=value + 4 {
                    let high = low + 1 + (seed % 2) as i32;
                    let answers = match responder_is_x {
                        true => least >= high,
                        false => most <= low,
                    };
                    // Asked about a window, a repaired pairing (or one remembered from an
                    // earlier window) may answer it where the greedy one does not; what it
                    // answers is true and on the responder's side.
                    let context = format!("{context} window ({low}, {high})");
                    match compact.pairing_bound(low, high) {
                        Some((l, m)) => {
                            match responder_is_x {
                                true => assert!(l >= high && l <= value && m == OPEN, "{context}"),
                                false => assert!(m <= low && m >= value && l == -OPEN, "{context}"),
                            }
                            answered += 1;
                            repaired += usize::from(!answers);
                        }
                        None => assert!(!answers, "{context}"),
                    }
                }
            }
        }
        assert!(
            tight > 20 && answered > 50 && repaired > 0,
            "{tight} tight, {answered} answered, {repaired} only after a repair"
        );
    }

    /// Pairings remembered from earlier positions answer windows that the greedy pairing
    /// (with its repairs) does not, and what they answer is true: along random games of
    /// goldberg:2 and taylor:3 from 12 empty cells down to 6, each position is asked about
    /// windows around its exact value on one board, which remembers, and on a board of
    /// its own, which has nothing to remember.
    #[test]
    fn remembered_pairings_answer_more_windows_truly() {
        let (mut answered, mut only_remembered) = (0, 0);
        for spec in ["goldberg:2", "taylor:3"] {
            let complex = load_board(spec).unwrap();
            let board = CompactBoard::new(complex.clone(), None).unwrap();
            for seed in 0..8u64 {
                let mut game = EulerGetter::new(complex.clone(), Rule::Normal, SwapRule(None));
                let mut rng = Rng::new(seed);
                while game.placed() + 12 < complex.cell_count() {
                    game.play(&game.random_move(&mut rng).unwrap());
                }
                while game.placed() + 6 <= complex.cell_count() {
                    let value = Solver::new(Budget::unlimited()).value(&game).unwrap();
                    let value = value * game.to_move().sign();
                    let responder_is_x = game.to_move() == Player::O;
                    for low in value - 4..=value + 3 {
                        let high = low + 2;
                        let context =
                            format!("{spec} seed {seed} at {} ({low}, {high})", game.placed());
                        let alone = CompactBoard::new(complex.clone(), None).unwrap();
                        let greedy = alone.position(&game).pairing_bound(low, high);
                        let Some((l, m)) = board.position(&game).pairing_bound(low, high) else {
                            continue;
                        };
                        match responder_is_x {
                            true => assert!(l >= high && l <= value && m == OPEN, "{context}"),
                            false => assert!(m <= low && m >= value && l == -OPEN, "{context}"),
                        }
                        answered += 1;
                        only_remembered += usize::from(greedy.is_none());
                    }
                    game.play(&game.random_move(&mut rng).unwrap());
                }
            }
        }
        assert!(
            answered > 50 && only_remembered > 0,
            "{answered} answered, {only_remembered} only with a remembered pairing"
        );
    }

    /// Searching only the cheapest lone cell keeps every value: the solver against plain
    /// minimax over every legal move, on random endgames under both rules.
    #[test]
    fn leaving_out_the_dearer_lone_cells_keeps_the_value() {
        let mut pruned = 0;
        for spec in ["goldberg:2", "taylor:3"] {
            let complex = load_board(spec).unwrap();
            let board = CompactBoard::new(complex.clone(), None).unwrap();
            for seed in 0..30u64 {
                let empties = 5 + seed as usize % 4;
                let rule = [Rule::Normal, Rule::Reverse][seed as usize % 2];
                let mut game = EulerGetter::new(complex.clone(), rule, SwapRule(None));
                let mut rng = Rng::new(seed);
                while game.placed() + empties < complex.cell_count() {
                    game.play(&game.random_move(&mut rng).unwrap());
                }
                let compact = board.position(&game);
                pruned += usize::from(compact.search_moves().len() < compact.legal_moves().len());
                let value = Solver::new(Budget::unlimited()).value(&compact).unwrap();
                let plain = crosscap_engine::solver::brute_force_value(&compact);
                assert_eq!(value, plain, "{spec} seed {seed}");
            }
        }
        assert!(pruned > 5, "lone cells were left out at {pruned} roots");
    }

    #[test]
    fn compact_solves_agree_with_the_game_and_large_boards_have_none() {
        for spec in ["goldberg:2", "taylor:3"] {
            let complex = load_board(spec).unwrap();
            let symmetries = Arc::new(complex.board().symmetries());
            let board = CompactBoard::new(complex.clone(), Some(&symmetries)).unwrap();
            for seed in 0..4 {
                let mut game = EulerGetter::new(complex.clone(), Rule::Normal, SwapRule(None))
                    .with_symmetries(symmetries.clone());
                let mut rng = Rng::new(seed);
                while game.placed() + 9 < complex.cell_count() {
                    let mv = game.random_move(&mut rng).unwrap();
                    game.play(&mv);
                }
                let plain = Solver::new(Budget::unlimited()).solve(&game).unwrap();
                let fast = Solver::new(Budget::unlimited())
                    .solve(&board.position(&game))
                    .unwrap();
                assert_eq!(
                    (fast.value, fast.best_moves),
                    (plain.value, plain.best_moves),
                    "{spec} seed {seed}"
                );
            }
        }
        let large = load_board("goldberg:6").unwrap();
        assert!(large.cell_count() > COMPACT_MAX_CELLS);
        assert!(CompactBoard::new(large, None).is_none());
    }
}
