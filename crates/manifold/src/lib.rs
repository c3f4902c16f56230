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
//! * [`table`]: the paper's Table 2.1 to any genus.
//! * [`play`]: the perfect player and the game's [`DESCRIPTOR`] in the catalog.

pub mod length;
pub mod moves;
pub mod play;
pub mod series;
pub mod surface;
pub mod table;

pub use length::{Length, PlayLengths, length, play_lengths, remoteness};
pub use moves::{Letter, Move, Pieces, parse_move, surface_moves};
pub use play::{
    DESCRIPTOR, ManifoldGame, ManifoldHost, ManifoldView, PerfectPlayer, agent, new_game,
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
