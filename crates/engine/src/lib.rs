//! The game engine shared by every Crosscap game.
//!
//! Games implement [`Game`] (two players, alternating, perfect information) and, when
//! impartial, [`Impartial`]. Everything that searches — Grundy values, the exact
//! [`solver`], the [`agents`] (random, flat Monte Carlo, MCTS, perfect) and the
//! [`arena`] — is written once here, generically, and reused by every game.
//!
//! # Example
//!
//! Nim's Grundy value with a [`GrundyTable`], then the same position solved as a two-player
//! game by the exact [`solver`] within a [`Budget`]:
//!
//! ```
//! use std::time::Duration;
//! use crosscap_engine::nim::Nim;
//! use crosscap_engine::{Budget, GrundyTable, NormalPlay, Player, solver};
//!
//! // 3 xor 4 xor 5 = 2: an N-position, won by taking heap 1 (0-based 0) down to 1.
//! let position = Nim::new(vec![3, 4, 5]);
//! let mut table = GrundyTable::new();
//! assert_eq!(table.grundy(&position), 2);
//! let winning = table.winning_moves(&position);
//! assert_eq!((winning[0].heap, winning[0].to), (0, 1));
//!
//! // Every search takes a budget (time, nodes, memory); running out is an answer, not a panic.
//! let budget = Budget::time(Duration::from_secs(10)).with_nodes(1_000_000);
//! let solution = solver::solve(&NormalPlay::new(position), budget).unwrap();
//! assert_eq!((solution.to_move, solution.value), (Player::X, 1));
//! ```

pub mod agents;
pub mod arena;
pub mod budget;
pub mod catalog;
pub mod game;
pub mod impartial;
pub mod impartial_notation;
pub mod jobs;
pub mod ladder;
pub mod mcts;
pub mod nim;
pub mod openings;
pub mod periodic;
pub mod rng;
pub mod sequences;
pub mod session;
pub mod solver;
pub mod table;
pub mod text;

pub use agents::{Agent, Level, LevelError, Proven, Unproven};
pub use budget::{Budget, Cancel, CancelOnDrop, Exhausted, Meter, NodeCounter};
pub use game::{Game, MoveError, Notation, Outcome, Player};
pub use impartial::{
    GrundyTable, Impartial, Misere, MisereAnswer, MisereOf, MiserePlay, NormalPlay, mex,
    misere_within, nim_sum,
};
pub use rng::Rng;
pub use solver::{Solution, SolveError};
