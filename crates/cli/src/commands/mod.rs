//! One module per game (and per tool), each a clap subcommand tree and its runner.

pub mod nim;
