//! The game engine shared by every Crosscap game.
//!
//! Games implement [`Game`] (two players, alternating, perfect information) and, when
//! impartial, [`Impartial`]. Everything that searches — Grundy values, the exact
//! [`solver`], the [`agents`] (random, flat Monte Carlo, MCTS, perfect) and the
//! [`arena`] — is written once here, generically, and reused by every game.

pub mod agents;
pub mod arena;
pub mod budget;
pub mod catalog;
pub mod game;
pub mod impartial;
pub mod impartial_notation;
pub mod ladder;
pub mod mcts;
pub mod nim;
pub mod periodic;
pub mod rng;
pub mod sequences;
pub mod session;
pub mod solver;
pub mod table;
pub mod text;

pub use agents::{Agent, Level, LevelError};
pub use budget::{Budget, Cancel, CancelOnDrop, Exhausted, Meter};
pub use game::{Game, MoveError, Notation, Outcome, Player};
pub use impartial::{GrundyTable, Impartial, MiserePlay, NormalPlay, mex, nim_sum};
pub use rng::Rng;
pub use solver::{Solution, SolveError};
