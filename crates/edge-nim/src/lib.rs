//! Edge-Nim on any graph (Dufour, Flesch and Heubach): tokens lie on the edges; a move
//! picks a vertex and removes at least one token in total from one or more of its edges;
//! whoever cannot move loses.
//!
//! - [`EdgeNim`] is the game as an engine [`Impartial`](crosscap_engine::Impartial); its
//!   components are the connected parts of the edges with tokens, so disjoint unions add
//!   by nim-sum in the engine. Move notation: the vertex and the new counts of the edges
//!   it changes, `1:a=0,b=2`.
//! - [`PTable`] and [`GrundyValues`] tabulate every position of a box in one pass over the
//!   componentwise order ([`table`]), read within a [`TableBox`] (edges held at a value),
//!   and [`analyse`] reads values and winning moves off them.
//! - [`slice`](mod@slice) holds every edge but one or two and reads the Grundy values along the free
//!   ones, with the periodicity they show.
//! - [`check_tetrahedron`] checks the seed's theorem for the tetrahedron with an empty edge.
//! - [`DESCRIPTOR`] is the game in the catalog the hosts offer.
//!
//! # Example
//!
//! The value of a tetrahedron position, and the seed's example of a P-position:
//!
//! ```
//! use std::sync::Arc;
//! use crosscap_edge_nim::{EdgeNim, analyse, parse_tokens};
//! use crosscap_graphs::Graph;
//!
//! let tetrahedron = Arc::new(Graph::from_spec("tetrahedron").unwrap());
//! let position = EdgeNim::new(tetrahedron.clone(), vec![1, 2, 3, 4, 5, 6]).unwrap();
//! let analysis = analyse(&position, 64 << 20).unwrap();
//! assert_eq!(analysis.grundy, 7);
//! assert_eq!(analysis.winning_moves.len(), 2); // 1:a=0,b=1,c=2 and 1:b=0
//!
//! let tokens = parse_tokens(&tetrahedron, "a=0,b=4,c=9,A=6,B=2,C=7").unwrap();
//! let seed_example = EdgeNim::new(tetrahedron, tokens).unwrap();
//! assert_eq!(analyse(&seed_example, 64 << 20).unwrap().grundy, 0);
//! ```

pub mod analysis;
pub mod circular_nim;
pub mod orbits;
pub mod play;
pub mod position;
pub mod predicate;
pub mod slice;
pub mod table;

pub use analysis::{Analysis, TheoremCheck, analyse, check_tetrahedron};
pub use orbits::{Orbit, OrbitCounts, orbit_counts, orbit_of};
pub use play::{
    DESCRIPTOR, EdgeNimGame, EdgeNimHost, EdgeNimView, TOKENS_HELP, agent, new_game,
    tokens_or_default,
};
pub use position::{EdgeNim, EdgeNimMove, edge_names, parse_assignments, parse_tokens, read_graph};
pub use predicate::{
    CheckBox, Predicate, PredicateCheck, PredicateError, PredicateOverflow, check_predicate,
};
pub use slice::{Slice, slice};
pub use table::{GrundyValues, PTable, TableBox};

use crosscap_graphs::GraphError;

/// Why a position, table or match could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EdgeNimError {
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error("Edge-Nim is played on undirected graphs; `{0}` is directed")]
    Directed(String),
    #[error("expected one token count per edge ({expected}), not {found}; or EDGE=COUNT pairs")]
    TokenCount { expected: usize, found: usize },
    #[error("`{}` is not a token count (a whole number from 0)", .0.escape_debug())]
    BadCount(String),
    #[error("`{}` is not EDGE=COUNT", .0.escape_debug())]
    BadItem(String),
    #[error("there is no edge `{}` (the edges are {edges})", .name.escape_debug())]
    UnknownEdge { name: String, edges: String },
    #[error("edge `{}` is given twice", .0.escape_debug())]
    DuplicateEdge(String),
    #[error("`*=COUNT` sets every edge, so it comes first, before any EDGE=COUNT")]
    EveryEdgeNotFirst,
    #[error(
        "{} positions are too many to tabulate (at most {limit})",
        count_text(*positions)
    )]
    TooLarge { positions: u128, limit: u128 },
    #[error(
        "the position may have {} moves, more than the {limit} that can be listed",
        count_text(*moves)
    )]
    TooManyMoves { moves: u128, limit: u128 },
    #[error(
        "a table of {positions} positions needs {mebibytes} MiB, over the limit of {limit} MiB"
    )]
    TooMuchMemory {
        positions: u128,
        mebibytes: u64,
        limit: u64,
    },
    #[error("{0} vertices have moves of their own; tables handle at most 63")]
    TooManyVertices(usize),
    #[error("Grundy values reach {0} or more, and the tables track values below {0}")]
    ValueOverflow(usize),
    #[error(
        "a slice to {max} may reach Grundy value {reach}, and the tables track values below \
         {limit}: a maximum of at most {fits} fits"
    )]
    SliceTooLong {
        max: u32,
        reach: u64,
        limit: usize,
        fits: u64,
    },
    #[error(
        "the graph has at least {0} symmetries fixing the held edges, too many to list for \
         orbits or checks up to symmetry"
    )]
    TooManySymmetries(usize),
    #[error("the predicate's arithmetic overflows 64-bit integers at {0}")]
    PredicateOverflow(String),
    #[error("bad option: {0}")]
    BadOption(String),
    #[error("name the edges to fix (`*` is for token lists)")]
    FixEveryEdge,
    #[error(transparent)]
    Limits(#[from] crosscap_engine::session::TooLarge),
}

impl EdgeNimError {
    /// Why tables gave no answer, as a search's budget says it: the budget's memory would
    /// not hold them ([`Exhausted::Memory`], which a larger `--max-memory` lifts), or the
    /// position is past their fixed limits, which no budget reaches.
    ///
    /// [`Exhausted::Memory`]: crosscap_engine::Exhausted::Memory
    pub fn stopped_by(&self) -> crosscap_engine::Exhausted {
        match self {
            EdgeNimError::TooMuchMemory { .. } => crosscap_engine::Exhausted::Memory,
            _ => crosscap_engine::Exhausted::Beyond,
        }
    }
}

/// A count made with saturating arithmetic, `u128::MAX` standing for "more than that".
pub fn count_text(count: u128) -> String {
    if count == u128::MAX {
        "more than 10^38".to_string()
    } else {
        count.to_string()
    }
}

#[cfg(test)]
mod tests;
