//! Values and winning moves of single positions, read off the fast tables component by
//! component, and the seed's tetrahedron theorem.

use std::collections::HashMap;

use crosscap_engine::{Impartial, nim_sum};
use crosscap_graphs::Graph;

use crate::EdgeNimError;
use crate::orbits::image_into;
use crate::position::{EdgeNim, EdgeNimMove};
use crate::predicate::{
    CheckBox, Predicate, TETRAHEDRON_THEOREM, check_predicate, symmetries_fixing,
};
use crate::table::{GrundyValues, Progress};

/// Largest box (positions below one component) that `analyse` tabulates.
pub const ANALYSIS_LIMIT: u128 = 1 << 27;
/// Most moves `analyse` lists.
pub const MOVE_LIMIT: u128 = 1 << 22;

/// A position's Grundy value and winning moves.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub grundy: u32,
    pub winning_moves: Vec<EdgeNimMove>,
}

/// The Grundy value and every winning move of `position`: each component (connected part
/// of the edges with tokens) gets a Grundy table of the positions below it, and the values
/// add by nim-sum. The tables together stay within `max_memory` bytes.
pub fn analyse(position: &EdgeNim, max_memory: u64) -> Result<Analysis, EdgeNimError> {
    let moves = position.move_count_bound();
    if moves > MOVE_LIMIT {
        return Err(EdgeNimError::TooManyMoves {
            moves,
            limit: MOVE_LIMIT,
        });
    }
    let components = position.components();
    let mut tables = Vec::new();
    let mut component_of_edge = HashMap::new();
    let mut used = 0;
    for (i, part) in components.iter().enumerate() {
        let positions = part.tokens().iter().fold(1u128, |product, &t| {
            product.saturating_mul(u128::from(t) + 1)
        });
        if positions > ANALYSIS_LIMIT {
            return Err(EdgeNimError::TooLarge {
                positions,
                limit: ANALYSIS_LIMIT,
            });
        }
        let table = GrundyValues::compute(part.graph(), part.tokens(), max_memory - used, &|_| {})?;
        used += table.bytes();
        let value = table
            .value(part.tokens())
            .expect("the position is in its own box");
        for (e, &t) in part.tokens().iter().enumerate() {
            if t > 0 {
                component_of_edge.insert(e, i);
            }
        }
        tables.push((table, value));
    }
    let grundy = nim_sum(tables.iter().map(|(_, v)| *v));
    let winning_moves = position
        .moves()
        .into_iter()
        .filter(|mv| {
            let i = component_of_edge[&mv.changes[0].0];
            let (table, before) = &tables[i];
            let after = components[i].after(mv);
            let value = table.value(after.tokens()).expect("moves go down");
            grundy ^ before ^ value == 0
        })
        .collect();
    Ok(Analysis {
        grundy,
        winning_moves,
    })
}

/// The first position where the tetrahedron theorem and the table disagree.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Counterexample {
    /// Tokens in edge order a b c A B C.
    pub tokens: Vec<u32>,
    /// Whether the table says P.
    pub table_p: bool,
    /// Whether the theorem says P.
    pub theorem_p: bool,
}

/// What `check_tetrahedron` found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TheoremCheck {
    pub max: u32,
    pub positions: u64,
    pub p_positions: u64,
    pub counterexample: Option<Counterexample>,
}

/// The seed's theorem: with `a = 0`, a position is P exactly when, up to the symmetries
/// of the tetrahedron fixing edge `a` (as edge maps), `b + C = B + c`, `b <= c` and
/// `A ^ b ^ B = 0`. Tokens are in the tetrahedron's edge order `a b c A B C`.
pub fn theorem_says_p(symmetries: &[Vec<usize>], tokens: &[u32]) -> bool {
    let mut image = [0u32; 6];
    symmetries.iter().any(|map| {
        image_into(map, tokens, &mut image);
        let [a, b, c, big_a, big_b, big_c] = image;
        a == 0 && b + big_c == big_b + c && b <= c && big_a ^ b ^ big_b == 0
    })
}

/// The symmetries of the tetrahedron that fix edge `a`, as maps of edges.
pub fn symmetries_fixing_a(graph: &Graph) -> Vec<Vec<usize>> {
    let a = graph.edge_index("a").expect("a tetrahedron edge");
    symmetries_fixing(graph, &[(a, 0)]).expect("the tetrahedron has 24 symmetries")
}

/// Checks the theorem on every position with `a = 0` and the other edges from 0 to `max`,
/// with a table of at most `max_memory` bytes: the predicate [`TETRAHEDRON_THEOREM`] checked
/// up to the symmetries fixing `a`.
pub fn check_tetrahedron(
    max: u32,
    max_memory: u64,
    progress: Progress,
) -> Result<TheoremCheck, EdgeNimError> {
    let graph = Graph::from_spec("tetrahedron")?;
    debug_assert_eq!(crate::edge_names(&graph), ["a", "b", "c", "A", "B", "C"]);
    let theorem = Predicate::parse(&graph, TETRAHEDRON_THEOREM).expect("the theorem reads");
    let region = CheckBox {
        max,
        fixed: vec![(graph.edge_index("a").expect("a tetrahedron edge"), 0)],
        up_to_symmetry: true,
    };
    let check = check_predicate(&graph, &theorem, &region, max_memory, progress)?;
    // The first disagreement in the order positions are visited (lexicographic).
    let missed = check.p_not_predicate.map(|tokens| Counterexample {
        tokens,
        table_p: true,
        theorem_p: false,
    });
    let wrong = check.predicate_not_p.map(|tokens| Counterexample {
        tokens,
        table_p: false,
        theorem_p: true,
    });
    let counterexample = match (missed, wrong) {
        (Some(m), Some(w)) => Some(if m.tokens < w.tokens { m } else { w }),
        (m, w) => m.or(w),
    };
    Ok(TheoremCheck {
        max,
        positions: check.positions,
        p_positions: check.p_positions,
        counterexample,
    })
}
