//! One module per game (and per tool), each a clap subcommand tree and its runner.

pub mod board;
pub mod edge_nim;
pub mod euler_getter;
pub mod manifold;
pub mod nim;
pub mod projective_hex;
pub mod sandpile;
pub mod serve;
