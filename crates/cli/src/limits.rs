//! The bounds every search of the command line runs within unless its flags say otherwise.

use crosscap_engine::Budget;

/// Memory a search may hold in its tables and trees by default (`--max-memory`).
pub const DEFAULT_MAX_MEMORY: usize = 512 * 1024 * 1024;

/// The budget of a computer move in `play` and `arena`: the level sets the work, this
/// bounds the memory.
pub fn move_budget() -> Budget {
    Budget::unlimited().with_memory(DEFAULT_MAX_MEMORY)
}
