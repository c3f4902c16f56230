//! The manifold decomposition game of Berman and Leonard ("A 2-person game decomposing
//! 2-manifolds"): players alternately cut a surface of a compact 2-manifold along an
//! essential simple closed curve and cap the boundary off; whoever cannot move loses.
//!
//! * [`surface`]: surfaces `S`, `o<g>`, `n<g>` and 2-manifolds as multisets of them.
//! * [`moves`]: the moves (a) to (h) of Theorem 2.1, the game as an engine
//!   [`Impartial`](crosscap_engine::Impartial) whose components are the surfaces, and the
//!   move notation `g:n5->n2+n3`.
//! * [`series`]: the G-series of `o_g` and `n_g` to genus in the millions, and their
//!   detected periods.
//! * [`table`](fn@table): the paper's Table 2.1 to any genus.
//! * [`play`]: the perfect player and the game's [`DESCRIPTOR`] in the catalog.
//!
//! # Example
//!
//! The G-series of `o_g` and `n_g`, its periods, and rows of the paper's Table 2.1:
//!
//! ```
//! use crosscap_manifold::{Manifold, Series, Surface, detect_period, table};
//!
//! let series = Series::compute(60);
//! assert_eq!(&series.orientable()[..6], &[0, 1, 2, 0, 2, 0]);
//! assert_eq!(&series.nonorientable()[..9], &[0, 1, 2, 4, 6, 0, 3, 4, 6]);
//! assert_eq!(detect_period(series.orientable()).unwrap().notation(), "01[20]");
//! assert_eq!(detect_period(series.nonorientable()).unwrap().notation(), "012[4603]");
//!
//! // A 2-manifold's value is the nim-sum of its surfaces': G(n5 + o2) = 0 xor 2.
//! let n5_o2 = Manifold::new(vec![Surface::non_orientable(5), Surface::orientable(2)]);
//! assert_eq!(series.value(&n5_o2), Some(2));
//!
//! // Table 2.1: from n2 the moves reach n1 (value 1), the sphere, and n1 + n1.
//! let rows = table(&series, 2);
//! let moves: Vec<String> = rows[2].moves.iter().map(|m| m.paper_style()).collect();
//! assert_eq!(moves, ["c: n1, 1", "e,f: S, 0", "g: (n1, n1), 0"]);
//! ```

pub mod length;
pub mod moves;
pub mod play;
pub mod series;
pub mod surface;
pub mod table;

pub use length::{
    Length, MAX_LENGTH_GENUS, PlayLengths, RemotenessOf, length, play_lengths, remoteness,
};
pub use moves::{Letter, Move, Pieces, parse_move, surface_moves};
pub use play::{
    DESCRIPTOR, ManifoldGame, ManifoldHost, ManifoldView, agent, new_game, perfect_player,
    playable_position,
};
pub use series::{PeriodProof, Periodicity, Series, detect_period, prove_periods};
pub use surface::{MAX_GENUS, Manifold, Surface};
pub use table::{TableEntry, TableRow, table};

/// What was wrong with a surface, a position or the options of a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifoldError {
    #[error("bad surface {text:?}: {reason}")]
    BadSurface { text: String, reason: String },
    #[error("empty position: name at least one surface, e.g. `n3 o2`")]
    Empty,
    #[error("genus {genus} is too large for {purpose} (at most {max})")]
    TooLarge {
        genus: u32,
        purpose: &'static str,
        max: u32,
    },
    #[error(transparent)]
    Limits(#[from] crosscap_engine::session::TooLarge),
}
