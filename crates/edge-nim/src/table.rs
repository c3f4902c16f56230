//! Fast P-position and Grundy tables over a box of positions (every edge from 0 to a bound),
//! by one pass over the componentwise order.
//!
//! For a vertex `v`, let `D_v(x)` say whether some P-position lies below or at `x` along
//! `v`'s edges (lower on `v`'s edges, equal elsewhere). The positions strictly below `x`
//! along `v` are those below `x - e` along `v` for an edge `e` of `v` with tokens, so
//! `strict_v(x) = OR over such e of D_v(x - e)`, `x` is P exactly when no `strict_v(x)`
//! holds, and `D_v(x) = strict_v(x) or P(x)`: time linear in the positions times the sum
//! of the degrees. Grundy values are the same with sets of values (bitsets) for booleans.
//!
//! Positions are numbered in mixed radix, the first edge slowest, so `x - e` is an earlier
//! number. Only two slabs (positions with equal first coordinate) of `D` are kept. Within a
//! slab, blocks with equal second and third coordinates form a wavefront: the blocks of one
//! anti-diagonal depend only on earlier anti-diagonals, so they run in parallel (rayon).
//! A vertex whose edges (with tokens) all lie at another vertex is left out: its moves are
//! moves of the other vertex.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

use crosscap_graphs::Graph;
use rayon::prelude::*;

use crate::EdgeNimError;
use crate::position::parse_assignments;

/// The memory cap of callers without one of their own (the web server's perfect player).
pub const MEMORY_LIMIT: u64 = 4 << 30;
/// The most positions a table has, whatever the memory allows.
pub const MAX_POSITIONS: u128 = 1 << 40;
/// Grundy tables track values below `64 * MAX_VALUE_WORDS`.
pub(crate) const MAX_VALUE_WORDS: usize = 16;

/// Reports progress: the number of positions just finished.
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// The box of positions and the vertices whose moves matter.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Per graph edge, its largest token count.
    bounds: Vec<u32>,
    /// The edges with a positive bound (the coordinates), in edge order.
    edges: Vec<usize>,
    strides: Vec<usize>,
    total: usize,
    /// Per kept vertex, the coordinates of its edges.
    vertices: Vec<Vec<usize>>,
    /// Per coordinate, the kept vertices at its edge, as a bit mask.
    ends: Vec<u64>,
}

impl Layout {
    /// The layout of the box below `bounds`, the edges of `first` (in that order) as its
    /// slowest coordinates, the other edges after them in edge order.
    pub(crate) fn new(
        graph: &Graph,
        bounds: &[u32],
        first: &[usize],
    ) -> Result<Layout, EdgeNimError> {
        crate::position::check_undirected(graph)?;
        if bounds.len() != graph.edge_count() {
            return Err(EdgeNimError::TokenCount {
                expected: graph.edge_count(),
                found: bounds.len(),
            });
        }
        let edges: Vec<usize> = first
            .iter()
            .copied()
            .chain((0..bounds.len()).filter(|e| !first.contains(e)))
            .filter(|&e| bounds[e] > 0)
            .collect();
        let mut strides = vec![1usize; edges.len()];
        let mut total: u128 = 1;
        for c in (0..edges.len()).rev() {
            strides[c] = total as usize;
            total *= u128::from(bounds[edges[c]]) + 1;
            if total > MAX_POSITIONS {
                return Err(EdgeNimError::TooLarge {
                    positions: total_positions(bounds),
                    limit: MAX_POSITIONS,
                });
            }
        }
        let mut coordinate_of = vec![None; bounds.len()];
        for (c, &e) in edges.iter().enumerate() {
            coordinate_of[e] = Some(c);
        }
        let live_sets: Vec<Vec<usize>> = (0..graph.vertex_count())
            .map(|v| {
                graph
                    .incident_edges(v)
                    .iter()
                    .filter_map(|&e| coordinate_of[e])
                    .collect()
            })
            .collect();
        // Keep a vertex unless its set is empty or inside the set of a neighbour along one
        // of its edges (the earlier vertex is kept when the two sets are equal).
        let kept: Vec<usize> = (0..live_sets.len())
            .filter(|&v| {
                let set = &live_sets[v];
                !set.is_empty()
                    && !set.iter().any(|&c| {
                        let (a, b) = graph.edge(edges[c]);
                        let w = if a == v { b } else { a };
                        set.iter().all(|c| live_sets[w].contains(c))
                            && (live_sets[w].len() > set.len() || w < v)
                    })
            })
            .collect();
        if kept.len() > 63 {
            return Err(EdgeNimError::TooManyVertices(kept.len()));
        }
        let mut ends = vec![0u64; edges.len()];
        for (k, &v) in kept.iter().enumerate() {
            for &c in &live_sets[v] {
                ends[c] |= 1 << k;
            }
        }
        Ok(Layout {
            bounds: bounds.to_vec(),
            vertices: kept.iter().map(|&v| live_sets[v].clone()).collect(),
            edges,
            strides,
            total: total as usize,
            ends,
        })
    }

    /// Positions per slab (equal first coordinate).
    pub(crate) fn slab(&self) -> usize {
        self.strides.first().copied().unwrap_or(1)
    }

    /// The window slot of the position one token lower on coordinate `c`.
    fn back(&self, slot: usize, c: usize) -> usize {
        let slab = self.slab();
        match c {
            0 if slot >= slab => slot - slab,
            0 => slot + slab,
            _ => slot - self.strides[c],
        }
    }

    /// The position number of a token list, if it lies in the box.
    fn index(&self, tokens: &[u32]) -> Option<usize> {
        if tokens.len() != self.bounds.len() || tokens.iter().zip(&self.bounds).any(|(t, b)| t > b)
        {
            return None;
        }
        Some(
            self.edges
                .iter()
                .zip(&self.strides)
                .map(|(&e, &s)| tokens[e] as usize * s)
                .sum(),
        )
    }

    /// The token list of a position number.
    fn tokens(&self, mut index: usize) -> Vec<u32> {
        let mut tokens = vec![0; self.bounds.len()];
        for (&e, &s) in self.edges.iter().zip(&self.strides) {
            tokens[e] = (index / s) as u32;
            index %= s;
        }
        tokens
    }

    /// Calls `kernel(index, slot, coordinates)` on every position, each after every
    /// position below it; `slot` is the position's place in a two-slab window. After the
    /// slab with first coordinate `x0`, `after_slab(x0)` says whether to stop there.
    fn sweep<K>(&self, kernel: &K, progress: Progress, after_slab: &mut dyn FnMut(usize) -> bool)
    where
        K: Fn(usize, usize, &[u32]) + Sync,
    {
        let m = self.edges.len();
        let slab = self.slab();
        let slabs = if m == 0 {
            1
        } else {
            self.bounds[self.edges[0]] as usize + 1
        };
        for x0 in 0..slabs {
            let start = x0 * slab;
            let slot = (x0 % 2) * slab;
            if m < 3 {
                let mut coords = vec![0u32; m];
                if m > 0 {
                    coords[0] = x0 as u32;
                }
                self.run_block(kernel, &mut coords, 1, start, slot, slab);
                progress(slab as u64);
                if after_slab(x0) {
                    return;
                }
                continue;
            }
            let (n1, n2) = (
                self.bounds[self.edges[1]] as usize + 1,
                self.bounds[self.edges[2]] as usize + 1,
            );
            for diagonal in 0..n1 + n2 - 1 {
                let first = diagonal.saturating_sub(n2 - 1);
                let last = diagonal.min(n1 - 1);
                (first..=last).into_par_iter().for_each(|x1| {
                    let x2 = diagonal - x1;
                    let offset = x1 * self.strides[1] + x2 * self.strides[2];
                    let mut coords = vec![0u32; m];
                    coords[..3].copy_from_slice(&[x0 as u32, x1 as u32, x2 as u32]);
                    self.run_block(
                        kernel,
                        &mut coords,
                        3,
                        start + offset,
                        slot + offset,
                        self.strides[2],
                    );
                });
                progress(((last - first + 1) * self.strides[2]) as u64);
            }
            if after_slab(x0) {
                return;
            }
        }
    }

    /// A position's place in its slab.
    pub(crate) fn offset_in_slab(&self, tokens: &[u32]) -> Option<usize> {
        Some(self.index(tokens)? % self.slab())
    }

    /// Visits `len` consecutive positions, counting coordinates `free..` as an odometer.
    fn run_block<K>(
        &self,
        kernel: &K,
        coords: &mut [u32],
        free: usize,
        index: usize,
        slot: usize,
        len: usize,
    ) where
        K: Fn(usize, usize, &[u32]) + Sync,
    {
        for i in 0..len {
            kernel(index + i, slot + i, coords);
            for c in (free..coords.len()).rev() {
                if coords[c] < self.bounds[self.edges[c]] {
                    coords[c] += 1;
                    break;
                }
                coords[c] = 0;
            }
        }
    }
}

/// The positions of a box, `u128::MAX` standing for any number too large to hold.
fn total_positions(bounds: &[u32]) -> u128 {
    bounds
        .iter()
        .fold(1, |product, &b| product.saturating_mul(u128::from(b) + 1))
}

/// Refuses a table of `positions` positions that needs `bytes` bytes, over `max_memory`.
pub(crate) fn check_memory(
    bytes: u128,
    positions: usize,
    max_memory: u64,
) -> Result<(), EdgeNimError> {
    if bytes > u128::from(max_memory) {
        return Err(EdgeNimError::TooMuchMemory {
            positions: positions as u128,
            mebibytes: (bytes >> 20) as u64,
            limit: max_memory >> 20,
        });
    }
    Ok(())
}

/// Shared cells of one width, read and written by the parallel sweep.
trait Cells: Sync {
    fn with_len(len: usize) -> Self;
    fn get(&self, i: usize) -> u64;
    fn set(&self, i: usize, value: u64);
}

macro_rules! atomic_cells {
    ($atomic:ty, $int:ty) => {
        impl Cells for Vec<$atomic> {
            fn with_len(len: usize) -> Self {
                (0..len).map(|_| <$atomic>::new(0)).collect()
            }
            fn get(&self, i: usize) -> u64 {
                u64::from(self[i].load(Relaxed))
            }
            fn set(&self, i: usize, value: u64) {
                self[i].store(value as $int, Relaxed)
            }
        }
    };
}

atomic_cells!(AtomicU8, u8);
atomic_cells!(AtomicU16, u16);
atomic_cells!(AtomicU32, u32);
atomic_cells!(AtomicU64, u64);

/// Which positions of a box are P-positions.
#[derive(Clone, Debug)]
pub struct PTable {
    layout: Layout,
    p_bits: Vec<u64>,
}

impl PTable {
    /// The P-positions among all positions with `tokens[e] <= bounds[e]` for every edge,
    /// refused before any work when the table would need more than `max_memory` bytes.
    ///
    /// ```
    /// use crosscap_edge_nim::{PTable, TableBox};
    /// use crosscap_graphs::Graph;
    ///
    /// // The seed's theorem counts 2,736 P-positions with a = 0 and every other edge up to 15.
    /// let tetrahedron = Graph::from_spec("tetrahedron").unwrap();
    /// let within = TableBox::new(&tetrahedron, 15, Some("a=0")).unwrap();
    /// let table = PTable::compute(&tetrahedron, &within.bounds(), 256 << 20, &|_| {}).unwrap();
    /// assert_eq!(table.count_in(&within), 2_736);
    /// assert_eq!(table.is_p(&[0, 4, 9, 6, 2, 7]), Some(true)); // the seed's example
    /// // A table over the memory cap is refused before any work.
    /// assert!(PTable::compute(&tetrahedron, &[31; 6], 1 << 20, &|_| {}).is_err());
    /// ```
    pub fn compute(
        graph: &Graph,
        bounds: &[u32],
        max_memory: u64,
        progress: Progress,
    ) -> Result<PTable, EdgeNimError> {
        let layout = Layout::new(graph, bounds, &[])?;
        let cell_bytes = (layout.vertices.len() / 8 + 1).next_power_of_two();
        check_memory(
            layout.total as u128 / 8 + 2 * (layout.slab() * cell_bytes) as u128,
            layout.total,
            max_memory,
        )?;
        let bits: Vec<AtomicU64> = (0..layout.total.div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        match cell_bytes {
            1 => p_sweep::<Vec<AtomicU8>>(&layout, &bits, progress),
            2 => p_sweep::<Vec<AtomicU16>>(&layout, &bits, progress),
            4 => p_sweep::<Vec<AtomicU32>>(&layout, &bits, progress),
            _ => p_sweep::<Vec<AtomicU64>>(&layout, &bits, progress),
        }
        Ok(PTable {
            layout,
            p_bits: bits.into_iter().map(AtomicU64::into_inner).collect(),
        })
    }

    /// The number of positions in the box.
    pub fn positions(&self) -> u64 {
        self.layout.total as u64
    }

    /// The number of P-positions in the box.
    pub fn count(&self) -> u64 {
        self.p_bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// Whether `tokens` (inside the box) is a P-position; `None` outside the box.
    pub fn is_p(&self, tokens: &[u32]) -> Option<bool> {
        let i = self.layout.index(tokens)?;
        Some(self.p_bits[i / 64] >> (i % 64) & 1 == 1)
    }

    /// The number of P-positions in `within`, the box the table was built for.
    pub fn count_in(&self, within: &TableBox) -> u64 {
        if within.fixed.is_empty() {
            self.count()
        } else {
            self.p_positions_in(within).count() as u64
        }
    }

    /// The P-positions of `within`, the box the table was built for, in lexicographic
    /// order.
    pub fn p_positions_in<'a>(
        &'a self,
        within: &'a TableBox,
    ) -> impl Iterator<Item = Vec<u32>> + 'a {
        self.p_positions().filter(|t| within.holds(t))
    }

    /// The P-positions in lexicographic order of their token lists.
    pub fn p_positions(&self) -> impl Iterator<Item = Vec<u32>> + '_ {
        self.p_bits.iter().enumerate().flat_map(move |(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    self.layout.tokens(w * 64 + bit)
                })
            })
        })
    }
}

/// The positions a table covers: every edge from 0 to `max`, the fixed edges held at their
/// value. The table is built over the box below the bounds (fixed edges from 0 to their
/// value, which the sweep needs) and read only where the fixed edges hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableBox {
    pub max: u32,
    /// (edge, value), in the order given.
    pub fixed: Vec<(usize, u32)>,
    edges: usize,
}

impl TableBox {
    /// Every edge of `graph` from 0 to `max`, the edges of `fix` (`a=0,b=2`) at their value.
    pub fn new(graph: &Graph, max: u32, fix: Option<&str>) -> Result<TableBox, EdgeNimError> {
        let fixed = match fix {
            None => Vec::new(),
            Some(text) => parse_assignments(graph, text)?
                .into_iter()
                .map(|(edge, value)| edge.map(|e| (e, value)).ok_or(EdgeNimError::FixEveryEdge))
                .collect::<Result<_, _>>()?,
        };
        Ok(TableBox {
            max,
            fixed,
            edges: graph.edge_count(),
        })
    }

    /// The bounds the table is built with: `max`, a fixed edge's value.
    pub fn bounds(&self) -> Vec<u32> {
        let mut bounds = vec![self.max; self.edges];
        for &(e, value) in &self.fixed {
            bounds[e] = value;
        }
        bounds
    }

    /// Whether a position of the table lies in the box: its fixed edges at their value.
    pub fn holds(&self, tokens: &[u32]) -> bool {
        self.fixed.iter().all(|&(e, v)| tokens[e] == v)
    }

    /// Positions in the box, `u128::MAX` standing for any number too large to hold (see
    /// [`count_text`](crate::count_text)); a table too large to build is refused when it is
    /// built.
    pub fn positions(&self) -> u128 {
        (0..self.edges)
            .map(|e| {
                if self.fixed.iter().any(|&(f, _)| f == e) {
                    1
                } else {
                    u128::from(self.max) + 1
                }
            })
            .fold(1, u128::saturating_mul)
    }

    /// Positions the table is built over, the work of building it (saturating).
    pub fn work(&self) -> u64 {
        self.bounds()
            .iter()
            .map(|&b| u64::from(b) + 1)
            .fold(1, u64::saturating_mul)
    }

    /// The fixed edges by name.
    pub fn fixed_names(&self, graph: &Graph) -> BTreeMap<String, u32> {
        self.fixed
            .iter()
            .map(|&(e, v)| (graph.edge_name(e), v))
            .collect()
    }
}

fn p_sweep<C: Cells>(layout: &Layout, p_bits: &[AtomicU64], progress: Progress) {
    let cells = C::with_len(2 * layout.slab());
    let every_vertex = (1u128 << layout.vertices.len()) as u64 - 1;
    layout.sweep(
        &|index, slot, coords| {
            let mut strict = 0;
            for (c, &x) in coords.iter().enumerate() {
                if x > 0 {
                    strict |= cells.get(layout.back(slot, c)) & layout.ends[c];
                }
            }
            if strict == 0 {
                cells.set(slot, every_vertex);
                p_bits[index / 64].fetch_or(1 << (index % 64), Relaxed);
            } else {
                cells.set(slot, strict);
            }
        },
        progress,
        &mut |_| false,
    );
}

/// The value words a Grundy sweep of the box below `bounds` tracks: a Grundy value is at
/// most the length of the longest play, the total of tokens.
pub(crate) fn value_words(bounds: &[u32]) -> usize {
    let most_tokens: u64 = bounds.iter().map(|&b| u64::from(b)).sum();
    (most_tokens as usize + 1).div_ceil(64).min(MAX_VALUE_WORDS)
}

/// Bytes of the two slabs of value sets a Grundy sweep keeps.
pub(crate) fn grundy_window_bytes(layout: &Layout, words: usize) -> u128 {
    (2 * layout.slab() * layout.vertices.len() * words * 8) as u128
}

/// Sweeps `layout` for Grundy values, handing each position's value to
/// `store(index, slot, value)`; `after_slab` as in [`Layout::sweep`]. Per kept vertex, a
/// cell holds the set of values below or at the position along the vertex's edges.
pub(crate) fn grundy_sweep(
    layout: &Layout,
    words: usize,
    store: &(dyn Fn(usize, usize, u16) + Sync),
    progress: Progress,
    after_slab: &mut dyn FnMut(usize) -> bool,
) -> Result<(), EdgeNimError> {
    let kept = layout.vertices.len();
    let cells: Vec<AtomicU64> = Cells::with_len(2 * layout.slab() * kept * words);
    let overflow = std::sync::atomic::AtomicBool::new(false);
    let cell = |slot: usize, k: usize, w: usize| (slot * kept + k) * words + w;
    layout.sweep(
        &|index, slot, coords| {
            let mut options = [0u64; MAX_VALUE_WORDS];
            for (k, vertex) in layout.vertices.iter().enumerate() {
                for (w, option) in options.iter_mut().enumerate().take(words) {
                    let mut below = 0;
                    for &c in vertex {
                        if coords[c] > 0 {
                            below |= cells[cell(layout.back(slot, c), k, w)].load(Relaxed);
                        }
                    }
                    cells[cell(slot, k, w)].store(below, Relaxed);
                    *option |= below;
                }
            }
            let Some(value) = (0..words)
                .find(|&w| options[w] != u64::MAX)
                .map(|w| w * 64 + (!options[w]).trailing_zeros() as usize)
            else {
                overflow.store(true, Relaxed);
                return;
            };
            for k in 0..kept {
                cells[cell(slot, k, value / 64)].fetch_or(1 << (value % 64), Relaxed);
            }
            store(index, slot, value as u16);
        },
        progress,
        &mut |x0| overflow.load(Relaxed) || after_slab(x0),
    );
    if overflow.into_inner() {
        return Err(EdgeNimError::ValueOverflow(64 * MAX_VALUE_WORDS));
    }
    Ok(())
}

/// The Grundy value of every position of a box.
#[derive(Clone, Debug)]
pub struct GrundyValues {
    layout: Layout,
    values: Vec<u16>,
}

impl GrundyValues {
    /// The Grundy values of all positions with `tokens[e] <= bounds[e]` for every edge,
    /// refused before any work when the table would need more than `max_memory` bytes.
    pub fn compute(
        graph: &Graph,
        bounds: &[u32],
        max_memory: u64,
        progress: Progress,
    ) -> Result<GrundyValues, EdgeNimError> {
        let (layout, words) = GrundyValues::fitting(graph, bounds, max_memory)?;
        let values: Vec<AtomicU16> = Cells::with_len(layout.total);
        grundy_sweep(
            &layout,
            words,
            &|index, _, value| values[index].store(value, Relaxed),
            progress,
            &mut |_| false,
        )?;
        Ok(GrundyValues {
            layout,
            values: values.into_iter().map(AtomicU16::into_inner).collect(),
        })
    }

    /// Whether the table of a box fits `max_memory` bytes, refused as [`Self::compute`]
    /// would refuse it, with no work: what a caller checks before it suggests another way
    /// to the same table.
    pub fn check(graph: &Graph, bounds: &[u32], max_memory: u64) -> Result<(), EdgeNimError> {
        GrundyValues::fitting(graph, bounds, max_memory).map(|_| ())
    }

    /// The box's layout and the words of its values, when its table fits `max_memory`.
    fn fitting(
        graph: &Graph,
        bounds: &[u32],
        max_memory: u64,
    ) -> Result<(Layout, usize), EdgeNimError> {
        let layout = Layout::new(graph, bounds, &[])?;
        let words = value_words(bounds);
        check_memory(
            layout.total as u128 * 2 + grundy_window_bytes(&layout, words),
            layout.total,
            max_memory,
        )?;
        Ok((layout, words))
    }

    /// The number of positions in the box.
    pub fn positions(&self) -> u64 {
        self.layout.total as u64
    }

    /// Bytes the values take.
    pub fn bytes(&self) -> u64 {
        (self.values.len() * std::mem::size_of::<u16>()) as u64
    }

    /// The Grundy value of `tokens` (inside the box); `None` outside the box.
    pub fn value(&self, tokens: &[u32]) -> Option<u32> {
        let i = self.layout.index(tokens)?;
        Some(u32::from(self.values[i]))
    }

    /// Every position with its value, in lexicographic order of the token lists.
    pub fn iter(&self) -> impl Iterator<Item = (Vec<u32>, u32)> + '_ {
        self.values
            .iter()
            .enumerate()
            .map(|(i, &v)| (self.layout.tokens(i), u32::from(v)))
    }

    /// The positions of `within`, the box the table was built for, with their values.
    pub fn iter_in<'a>(
        &'a self,
        within: &'a TableBox,
    ) -> impl Iterator<Item = (Vec<u32>, u32)> + 'a {
        self.iter().filter(|(t, _)| within.holds(t))
    }

    /// How many positions of `within` have each value, indexed by value.
    pub fn histogram_in(&self, within: &TableBox) -> Vec<u64> {
        let mut histogram = Vec::new();
        for (_, value) in self.iter_in(within) {
            let value = value as usize;
            if histogram.len() <= value {
                histogram.resize(value + 1, 0);
            }
            histogram[value] += 1;
        }
        histogram
    }
}
