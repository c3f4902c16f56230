//! Slices of the positions: every edge held at a value but one or two free edges, which run
//! from 0 to a bound. The Grundy values along one free edge are a sequence whose ultimate
//! (arithmetic-)periodicity the engine's detector reads; two free edges give a square of
//! values.
//!
//! The values come from one Grundy sweep of the box below the slice with the free edges as
//! its slowest coordinates: each slab (positions with the first free edge at one value) is
//! finished before the next starts, so only two slabs are kept, the slice's values are read
//! off each slab as it is finished, and a budget that runs out leaves the rows found so far.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use crosscap_engine::periodic::{Periodicity, detect_period};
use crosscap_engine::{Budget, SolveError};
use crosscap_graphs::Graph;

use crate::EdgeNimError;
use crate::table::{
    Layout, MAX_VALUE_WORDS, MEMORY_LIMIT, Progress, check_memory, grundy_sweep,
    grundy_window_bytes, value_words,
};

/// The Grundy values of a slice, as far as its budget reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    /// The free edges, one or two, in the order given.
    pub free: Vec<usize>,
    /// The held edges' tokens, in edge order (0 on the free edges).
    pub held: Vec<u32>,
    /// The largest number of tokens on a free edge.
    pub max: u32,
    /// Row `x` has the first free edge at `x`: its one value, or with two free edges the
    /// values with the second from 0 to `max`. Rows stop where the budget ran out.
    pub grundy: Vec<Vec<u32>>,
    /// Why the rows stop before `max`, when they do.
    pub stopped: Option<SolveError>,
}

impl Slice {
    /// The values along the free edge of a one-edge slice.
    pub fn sequence(&self) -> Option<Vec<u32>> {
        (self.free.len() == 1).then(|| self.grundy.iter().map(|row| row[0]).collect())
    }

    /// The ultimate periodicity, plain or arithmetic, that the values along a one-edge
    /// slice show (at least three periods after the preperiod); `None` when none shows yet.
    pub fn periodicity(&self) -> Option<Periodicity> {
        let values: Vec<i64> = self.sequence()?.into_iter().map(i64::from).collect();
        detect_period(&values, true)
    }
}

/// The Grundy values of `graph`'s positions with every edge at its count in `held` but the
/// `free` ones (one or two distinct edges), which run from 0 to `max`. The two slabs kept
/// must fit the budget's memory (else refused before any work); a position is a node of
/// the budget, whose limits are checked after each slab.
///
/// ```
/// use crosscap_edge_nim::slice::slice;
/// use crosscap_engine::Budget;
/// use crosscap_graphs::Graph;
///
/// // On a star every lower position is a move away: the value is the number of tokens.
/// let star = Graph::from_spec("star:3").unwrap();
/// let along = slice(&star, &[2, 3, 0], &[2], 9, &Budget::unlimited(), &|_| {}).unwrap();
/// assert_eq!(along.sequence().unwrap(), (5..=14).collect::<Vec<u32>>());
/// let period = along.periodicity().unwrap();
/// assert_eq!((period.preperiod, period.period, period.saltus), (0, 1, 1));
/// ```
pub fn slice(
    graph: &Graph,
    held: &[u32],
    free: &[usize],
    max: u32,
    budget: &Budget,
    progress: Progress,
) -> Result<Slice, EdgeNimError> {
    if held.len() != graph.edge_count() {
        return Err(EdgeNimError::TokenCount {
            expected: graph.edge_count(),
            found: held.len(),
        });
    }
    match free {
        [e] | [e, _] if *e >= held.len() => {
            return Err(EdgeNimError::BadOption(format!("there is no edge {e}")));
        }
        [_] => {}
        [a, b] if a != b && *b < held.len() => {}
        _ => {
            return Err(EdgeNimError::BadOption(
                "a slice has one or two distinct free edges".to_string(),
            ));
        }
    }
    if max == 0 {
        return Err(EdgeNimError::BadOption(
            "the free edges need a maximum of at least 1".to_string(),
        ));
    }
    // A value is at most the tokens of the position: refused at once when the values
    // could outgrow the tables rather than after the work.
    let held_total: u64 = (0..held.len())
        .filter(|e| !free.contains(e))
        .map(|e| u64::from(held[e]))
        .sum();
    let reach = held_total + free.len() as u64 * u64::from(max);
    let limit = 64 * MAX_VALUE_WORDS;
    if reach >= limit as u64 {
        return Err(EdgeNimError::SliceTooLong {
            max,
            reach,
            limit,
            fits: (limit as u64 - 1).saturating_sub(held_total) / free.len() as u64,
        });
    }
    let mut held = held.to_vec();
    let mut bounds = held.clone();
    for &e in free {
        held[e] = 0;
        bounds[e] = max;
    }
    let layout = Layout::new(graph, &bounds, free)?;
    let words = value_words(&bounds);
    let slab = layout.slab();
    check_memory(
        (2 * slab * std::mem::size_of::<u16>()) as u128 + grundy_window_bytes(&layout, words),
        slab.saturating_mul(max as usize + 1),
        budget.max_memory.map_or(MEMORY_LIMIT, |bytes| bytes as u64),
    )?;
    // Where each value of a row lies in its slab.
    let offsets: Vec<usize> = match free {
        [_] => vec![layout.offset_in_slab(&held).expect("inside the box")],
        _ => (0..=max)
            .map(|y| {
                let mut tokens = held.clone();
                tokens[free[1]] = y;
                layout.offset_in_slab(&tokens).expect("inside the box")
            })
            .collect(),
    };
    let window: Vec<AtomicU16> = (0..2 * slab).map(|_| AtomicU16::new(0)).collect();
    let mut grundy = Vec::new();
    let mut meter = budget.meter();
    grundy_sweep(
        &layout,
        words,
        &|_, slot, value| window[slot].store(value, Relaxed),
        progress,
        &mut |x0| {
            let base = (x0 % 2) * slab;
            grundy.push(
                offsets
                    .iter()
                    .map(|&offset| u32::from(window[base + offset].load(Relaxed)))
                    .collect(),
            );
            (0..slab).any(|_| meter.tick())
        },
    )?;
    let stopped = (grundy.len() <= max as usize).then(|| meter.unknown());
    Ok(Slice {
        free: free.to_vec(),
        held,
        max,
        grundy,
        stopped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GrundyValues;
    use crosscap_engine::{Exhausted, Rng};

    fn graph(spec: &str) -> Graph {
        Graph::from_spec(spec).unwrap()
    }

    fn quiet(_: u64) {}

    #[test]
    fn slices_agree_with_the_whole_table_on_random_graphs() {
        let mut rng = Rng::new(22);
        let specs = [
            "tetrahedron",
            "P4",
            "C4",
            "K1,3",
            "K2,3",
            "edges:0-1,1-2,2-0,2-3",
        ];
        for round in 0..40 {
            let g = graph(specs[round % specs.len()]);
            let m = g.edge_count();
            let held: Vec<u32> = (0..m).map(|_| rng.below(3) as u32).collect();
            let first = rng.below(m);
            let free = if round % 2 == 0 {
                vec![first]
            } else {
                vec![first, (first + 1 + rng.below(m - 1)) % m]
            };
            let max = 1 + rng.below(5) as u32;
            let found = slice(&g, &held, &free, max, &Budget::unlimited(), &quiet).unwrap();
            let mut bounds = held.clone();
            free.iter().for_each(|&e| bounds[e] = max);
            let table = GrundyValues::compute(&g, &bounds, MEMORY_LIMIT, &quiet).unwrap();
            assert_eq!(found.grundy.len(), max as usize + 1);
            for (x, row) in found.grundy.iter().enumerate() {
                for (y, &value) in row.iter().enumerate() {
                    let mut tokens = found.held.clone();
                    tokens[free[0]] = x as u32;
                    if free.len() == 2 {
                        tokens[free[1]] = y as u32;
                    }
                    assert_eq!(Some(value), table.value(&tokens), "{} {tokens:?}", g.spec());
                }
            }
        }
    }

    #[test]
    fn a_single_edge_and_a_path_of_two_are_nim_heaps() {
        // P3: the middle vertex may take from both edges, so every lower position is a move
        // away and the value is the total; P2 alone is one Nim heap.
        let p3 = slice(
            &graph("P3"),
            &[4, 0],
            &[1],
            12,
            &Budget::unlimited(),
            &quiet,
        )
        .unwrap();
        assert_eq!(p3.sequence().unwrap(), (4..=16).collect::<Vec<u32>>());
        let p2 = slice(&graph("P2"), &[0], &[0], 12, &Budget::unlimited(), &quiet).unwrap();
        let period = p2.periodicity().unwrap();
        assert_eq!((period.preperiod, period.period, period.saltus), (0, 1, 1));
    }

    #[test]
    fn a_path_of_three_edges_is_nim_on_its_outer_edges_when_the_middle_is_empty() {
        // With the middle edge empty the two outer edges are separate heaps: x xor 5.
        let along = slice(
            &graph("P4"),
            &[5, 0, 0],
            &[2],
            40,
            &Budget::unlimited(),
            &quiet,
        )
        .unwrap()
        .sequence()
        .unwrap();
        assert_eq!(along, (0..=40).map(|x| x ^ 5).collect::<Vec<u32>>());
    }

    #[test]
    fn two_free_edges_of_the_tetrahedron_with_a_empty_hold_the_seeds_example() {
        // a = 0, c = 9, A = 6, C = 7 held, b and B free: the seed's example has b = 4, B = 2.
        let g = graph("tetrahedron");
        let found = slice(
            &g,
            &[0, 0, 9, 6, 0, 7],
            &[1, 4],
            8,
            &Budget::unlimited(),
            &quiet,
        )
        .unwrap();
        assert_eq!(found.grundy[4][2], 0);
        assert_eq!(found.grundy.len(), 9);
        assert!(found.grundy.iter().all(|row| row.len() == 9));
    }

    #[test]
    fn a_budget_that_runs_out_keeps_the_rows_found() {
        let g = graph("tetrahedron");
        // A slab has the 4^5 positions of the five held edges: 1,000 nodes end the first.
        let found = slice(
            &g,
            &[3, 3, 3, 3, 3, 0],
            &[5],
            50,
            &Budget::nodes(1000),
            &quiet,
        )
        .unwrap();
        assert_eq!(found.grundy.len(), 1);
        assert!(matches!(
            found.stopped,
            Some(SolveError::Unknown {
                reason: Exhausted::Nodes,
                ..
            })
        ));
        let whole = slice(
            &g,
            &[3, 3, 3, 3, 3, 0],
            &[5],
            50,
            &Budget::unlimited(),
            &quiet,
        )
        .unwrap();
        assert_eq!(found.grundy[..], whole.grundy[..found.grundy.len()]);
        assert_eq!(whole.stopped, None);
    }

    #[test]
    fn bad_slices_are_refused() {
        let g = graph("C4");
        let refuse = |held: &[u32], free: &[usize], max: u32| {
            slice(&g, held, free, max, &Budget::unlimited(), &quiet).unwrap_err()
        };
        assert!(matches!(
            refuse(&[0; 4], &[], 3),
            EdgeNimError::BadOption(_)
        ));
        assert!(matches!(
            refuse(&[0; 4], &[1, 1], 3),
            EdgeNimError::BadOption(_)
        ));
        assert!(matches!(
            refuse(&[0; 4], &[0, 1, 2], 3),
            EdgeNimError::BadOption(_)
        ));
        assert!(matches!(
            refuse(&[0; 4], &[7], 3),
            EdgeNimError::BadOption(_)
        ));
        assert!(matches!(
            refuse(&[0; 4], &[1], 0),
            EdgeNimError::BadOption(_)
        ));
        assert!(matches!(
            refuse(&[0; 3], &[1], 3),
            EdgeNimError::TokenCount { .. }
        ));
        assert_eq!(
            refuse(&[5, 5, 5, 0], &[3], 1009),
            EdgeNimError::SliceTooLong {
                max: 1009,
                reach: 1024,
                limit: 1024,
                fits: 1008
            }
        );
        assert!(matches!(
            refuse(&[5, 5, 0, 0], &[2, 3], 507),
            EdgeNimError::SliceTooLong { fits: 506, .. }
        ));
        let huge = Budget::unlimited().with_memory(1 << 20);
        assert!(matches!(
            slice(&g, &[300, 300, 300, 0], &[3], 5, &huge, &quiet),
            Err(EdgeNimError::TooMuchMemory { .. })
        ));
    }
}
