//! The arithmetic of the rules on a position, written once for [`EulerGetter`] and for the
//! exact solver's [`CompactPosition`](crate::compact::CompactPosition): what a stone adds
//! to its colour's V, E and F, the solver's move order, and the margin bounds. Each reads
//! the position only through [`Stones`], so the two representations cannot drift apart.
//!
//! [`EulerGetter`]: crate::EulerGetter

use crosscap_engine::Player;

use crate::complex::Complex;
use crate::game::{Move, Rule};
use crate::region::RegionCounts;

/// Most empty cells of a position whose margin bounds are worked out: with more they span
/// about two per empty cell and decided no sign in 400 random positions each of goldberg:2
/// and taylor:3 with 8 to 14 empty cells (BENCHMARKS.md, "Exact solver, 2026-11-26"), so
/// the search is spared their cost there.
pub(crate) const BOUNDS_MAX_EMPTY: usize = 8;

/// A position as the rules' arithmetic reads it: stones by colour (colour `X` is the
/// first player's), the empty cells and each colour's incremental counts.
pub(crate) trait Stones {
    fn complex(&self) -> &Complex;

    /// The colour of the stone on `cell`, if any.
    fn stone(&self, cell: usize) -> Option<Player>;

    /// The empty cells, in any order.
    fn empty_cells(&self) -> impl Iterator<Item = usize> + '_;

    fn empty_count(&self) -> usize;

    /// V, E and F of `colour`'s region.
    fn colour_counts(&self, colour: Player) -> RegionCounts;

    /// The colour whose turn it is to place a stone.
    fn colour_to_move(&self) -> Player;

    /// Whether the larger or the smaller characteristic wins.
    fn rule(&self) -> Rule;

    /// How much `colour`'s V - E + F would grow if it claimed the empty `cell`.
    fn chi_gain(&self, cell: usize, colour: Player) -> i64 {
        let (new_vertices, new_edges) = self.new_vertices_and_edges(cell, colour);
        1 + new_vertices - new_edges
    }

    /// The vertices and edges the empty `cell` would add to `colour`'s region.
    fn new_vertices_and_edges(&self, cell: usize, colour: Player) -> (i64, i64) {
        counted_new_vertices_and_edges(self, cell, colour)
    }

    /// The most `colour`'s characteristic can grow when it claims the empty `cell`, at
    /// whatever time and whoever holds the cell's empty neighbours by then. `None` on a
    /// board whose cells are not all plain polygons ([`Complex::ring`]).
    ///
    /// Why this bounds the gain: claiming a cell `c` adds its closed disc to the region's
    /// closure `R`, so `chi` grows by `chi(disc) - chi(R ∩ ∂c) = 1 - chi(R ∩ ∂c)`. On a
    /// plain polygon `R ∩ ∂c` is the union of the sides whose neighbour is in the region,
    /// with their ends: the whole circle `∂c` (`chi` 0) when every neighbour is, nothing
    /// when none is, and otherwise one arc per run of such sides round the ring (`chi` =
    /// the number of runs). So the gain is 1 when no neighbour or every neighbour is the
    /// colour's, else 1 minus the runs. Neighbours held by the other colour stay out and
    /// split the ring: if there are some, and some of the colour's own, every run lies in
    /// an arc between two of the other colour's sides, and each arc holding one of the
    /// colour's own sides holds a run, so the gain is at most 1 minus the number of such
    /// arcs (reached when the colour fills the empty sides). Otherwise it is at most 1.
    fn best_gain(&self, cell: usize, colour: Player) -> Option<i64> {
        let ring = self.complex().ring(cell)?;
        let (own, other) = (Some(colour), Some(colour.opponent()));
        let Some(start) = ring.iter().position(|&n| self.stone(n as usize) == other) else {
            return Some(1);
        };
        let (mut arcs, mut arc_has_own) = (0, false);
        // Round the ring once, from just after `start` back to it.
        let (before, after) = ring.split_at(start + 1);
        for &neighbour in after.iter().chain(before) {
            let stone = self.stone(neighbour as usize);
            if stone == other {
                arcs += i64::from(arc_has_own);
                arc_has_own = false;
            } else if stone == own {
                arc_has_own = true;
            }
        }
        Some(1 - arcs)
    }

    /// The largest characteristic each colour's region can end with (indexed by colour):
    /// the smaller of two ceilings, each sound alone. A colour places every other stone of
    /// the empty cells, alternating with the other, so it will claim a known number of them.
    ///
    /// By cells: the final characteristic is today's plus each claimed cell's gain at its
    /// time, each at most its [`best_gain`], so at most today's plus the largest best gains
    /// summed over that many cells.
    ///
    /// By vertices: on a board of plain polygons a region's `chi = F - M / 2`, where `M`
    /// counts the vertices at which it holds two or three of the three cells (`E` and `V`
    /// both count corners, `sum of polygon sizes = E + (edges inside the region) = V +
    /// (vertices held twice) + 2 (vertices held thrice)`, and each edge inside joins two
    /// vertices held at least twice, one such edge at a vertex held twice and three at a
    /// vertex held thrice). `F` at the end is known, and `M` only grows:
    /// [`majority_floors`] bounds it from below.
    ///
    /// Both colours are counted in one pass over the empty cells and one over the vertices.
    ///
    /// [`best_gain`]: Stones::best_gain
    /// [`majority_floors`]: Stones::majority_floors
    fn chi_ceilings(&self) -> Option<[i64; 2]> {
        if !self.complex().rings_exact() {
            return None;
        }
        let empty = self.empty_count();
        let mut claims = [empty / 2; 2];
        claims[self.colour_to_move().index()] = empty.div_ceil(2);
        // Per colour, cells by best gain, 1 - k for k = 0, 1, ... (rarer gains below are
        // counted as the lowest kept, which only loosens the ceiling); and the empty cells
        // by polygon size (sizes above 15 counted as 15: fewer corners, a lower floor).
        let mut by_gain = [[0usize; 8]; 2];
        let mut by_size = [0usize; 16];
        for cell in self.empty_cells() {
            for colour in Player::BOTH {
                let k = 1 - self.best_gain(cell, colour)?;
                by_gain[colour.index()][(k as usize).min(7)] += 1;
            }
            by_size[self.complex().ring(cell)?.len().min(15)] += 1;
        }
        let majorities = self.majority_floors(&by_size, claims);
        Some(Player::BOTH.map(|colour| {
            let i = colour.index();
            let mut left = claims[i];
            let mut gained = 0;
            for (k, &cells) in by_gain[i].iter().enumerate() {
                let take = cells.min(left);
                gained += take as i64 * (1 - k as i64);
                left -= take;
            }
            let by_cells = self.colour_counts(colour).chi() + gained;
            let by_vertices =
                self.colour_counts(colour).faces + claims[i] as i64 - (majorities[i] + 1) / 2;
            by_cells.min(by_vertices)
        }))
    }

    /// Per colour, the least number of vertices at which it will end holding two or three
    /// of the three cells, when it claims `claims` more of the empty cells (`by_size`: the
    /// empty cells counted by polygon size), counted by corners: those cells bring at least
    /// as many corners as the smallest empty polygons have. A vertex the colour holds twice
    /// already takes any number of them, as does one the other colour holds twice; a vertex
    /// still open takes `1 - held` of them (at most its empty corners) and stays out of the
    /// count, and each corner beyond that makes it one of the colour's, which then takes at
    /// most its other empty corners (2 or 1). The corners left over after every free place
    /// must go to such vertices, each taking at most its spare corners: at least that many
    /// new vertices, the most spacious first.
    ///
    /// The vertices held already number `M = 2 (F - chi) = 2 (E - V)` by the identity
    /// above, so only the vertices with an empty corner are visited.
    fn majority_floors(&self, by_size: &[usize], claims: [usize; 2]) -> [i64; 2] {
        let held = Player::BOTH.map(|colour| {
            let c = self.colour_counts(colour);
            2 * (c.edges - c.vertices)
        });
        let (mut free, mut spare_two, mut spare_one) = ([0i64; 2], [0i64; 2], [0i64; 2]);
        for (cell, [a, b]) in self.vertices_with_empty_corners() {
            let mut stones = [0i64; 2];
            for other in [cell, a, b] {
                if let Some(colour) = self.stone(other as usize) {
                    stones[colour.index()] += 1;
                }
            }
            let empty = 3 - stones[0] - stones[1];
            for i in 0..2 {
                let (mine, theirs) = (stones[i], stones[1 - i]);
                if mine >= 2 || theirs >= 2 {
                    free[i] += empty;
                } else {
                    let open = empty.min(1 - mine);
                    free[i] += open;
                    match empty - open {
                        2 => spare_two[i] += 1,
                        1 => spare_one[i] += 1,
                        _ => {}
                    }
                }
            }
        }
        [0, 1].map(|i| {
            let (mut left, mut corners) = (claims[i], 0i64);
            for (size, &cells) in by_size.iter().enumerate() {
                let take = cells.min(left);
                corners += (take * size) as i64;
                left -= take;
            }
            let excess = (corners - free[i]).max(0);
            let new = if excess <= 2 * spare_two[i] {
                (excess + 1) / 2
            } else {
                spare_two[i] + (excess - 2 * spare_two[i]).min(spare_one[i])
            };
            held[i] + new
        })
    }

    /// Each vertex with an empty corner once (as that corner and the other two cells
    /// around it, from its lowest empty corner): a vertex with none changes no floor.
    fn vertices_with_empty_corners(&self) -> impl Iterator<Item = (u32, [u32; 2])> + '_ {
        self.empty_cells().flat_map(move |cell| {
            let cell = cell as u32;
            let lower_empty = move |o: u32| o < cell && self.stone(o as usize).is_none();
            self.complex()
                .vertex_others(cell as usize)
                .iter()
                .filter(move |&&[a, b]| !lower_empty(a) && !lower_empty(b))
                .map(move |&others| (cell, others))
        })
    }

    /// The solver's order of a cell for the colour to move, lowest first: the cells that
    /// most raise the mover's characteristic (add the fewest majorities to it), then the
    /// quietest, which leave the rest of the game most as it was: those touching more of
    /// the mover's stones, with more vertices already settled (their two other cells one
    /// colour's) and fewer still open (their two other cells empty). Under normal play
    /// every stone only adds majorities to its colour, so a quiet move is a tempo
    /// move. On two taylor:3 positions of 7 stones a margin-only solve visits 3.0 M and
    /// 7.0 M nodes instead of 10.3 M and 13.8 M with the gain and the mover's stones
    /// alone (BENCHMARKS.md, session 33); counting the opponent's gain made it worse.
    /// Under the reverse rule, where the mover wants majorities, the order is reversed:
    /// the empty goldberg:2 solved in 10 times fewer nodes, four taylor:3 positions of
    /// 10 stones in 48 to 169 times fewer (BENCHMARKS.md, session 43).
    fn order_key(&self, cell: usize) -> i64 {
        let colour = self.colour_to_move();
        let friends = self.edge_neighbours_of(cell, colour);
        let (settled, open) = self.settled_and_open_vertices(cell);
        -self
            .rule()
            .oriented(64 * self.chi_gain(cell, colour) + 8 * friends + 4 * settled - 4 * open)
    }

    /// How many of `cell`'s edges `colour`'s stones hold the other side of.
    fn edge_neighbours_of(&self, cell: usize, colour: Player) -> i64 {
        self.complex()
            .edge_others(cell)
            .iter()
            .filter(|&&o| self.stone(o as usize) == Some(colour))
            .count() as i64
    }

    /// Of the empty `cell`'s vertices, those whose two other cells hold stones of one
    /// colour (settled) and those whose two other cells are empty (open).
    fn settled_and_open_vertices(&self, cell: usize) -> (i64, i64) {
        counted_settled_and_open_vertices(self, cell)
    }

    /// Sorts moves by [`Stones::order_key`], a swap first.
    fn order_cells(&self, moves: &mut [Move]) {
        moves.sort_by_cached_key(|mv| match *mv {
            Move::Swap => i64::MIN,
            Move::Place(c) => self.order_key(c as usize),
        });
    }

    /// Bounds on X's final margin from each colour's [`chi_ceilings`](Stones::chi_ceilings)
    /// (`x_colour`: the colour player X owns): at the end the two characteristics add up
    /// to the surface's, `s` (the border is a union of circles), so X's colour ends between
    /// `s - ceiling(O's colour)` and `ceiling(X's colour)`, and X's margin
    /// `chi X - chi O = 2 chi X - s` between the images of those (negated under the reverse
    /// rule). None on boards whose cells are not all plain polygons and with more than
    /// [`BOUNDS_MAX_EMPTY`] empty cells.
    fn margin_bounds_for(&self, x_colour: Player, rule: Rule) -> Option<(i32, i32)> {
        if self.empty_count() > BOUNDS_MAX_EMPTY {
            return None;
        }
        let surface = self.complex().euler_characteristic();
        let ceilings = self.chi_ceilings()?;
        let x_most = ceilings[x_colour.index()];
        let o_most = ceilings[x_colour.opponent().index()];
        let (least, most) = ((surface - 2 * o_most) as i32, (2 * x_most - surface) as i32);
        Some(match rule {
            Rule::Normal => (least, most),
            Rule::Reverse => (-most, -least),
        })
    }
}

/// [`Stones::settled_and_open_vertices`] by looking at the cell's neighbours, for any board.
pub(crate) fn counted_settled_and_open_vertices<S: Stones + ?Sized>(
    stones: &S,
    cell: usize,
) -> (i64, i64) {
    let (mut settled, mut open) = (0, 0);
    for &[a, b] in stones.complex().vertex_others(cell) {
        match (stones.stone(a as usize), stones.stone(b as usize)) {
            (None, None) => open += 1,
            (Some(a), Some(b)) if a == b => settled += 1,
            _ => {}
        }
    }
    (settled, open)
}

/// [`Stones::new_vertices_and_edges`] by looking at the cell's neighbours, for any board.
pub(crate) fn counted_new_vertices_and_edges<S: Stones + ?Sized>(
    stones: &S,
    cell: usize,
    colour: Player,
) -> (i64, i64) {
    let own = Some(colour);
    let mut edges = 0;
    for &other in stones.complex().edge_others(cell) {
        if other as usize == cell || stones.stone(other as usize) != own {
            edges += 1;
        }
    }
    let mut vertices = 0;
    for &[a, b] in stones.complex().vertex_others(cell) {
        let owned = |o: u32| o as usize != cell && stones.stone(o as usize) == own;
        if !owned(a) && !owned(b) {
            vertices += 1;
        }
    }
    (vertices, edges)
}
