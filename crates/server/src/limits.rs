//! The server's bounds: every request, search and cache is held within one of these.

use std::time::Duration;

use crosscap_engine::agents::{MAX_FLATMC_PLAYOUTS, MAX_MCTS_ITERATIONS};
use serde::Serialize;

/// Limits that keep the server healthy; a request over one gets a 4xx naming it.
#[derive(Clone, Debug, Serialize)]
pub struct Limits {
    /// Largest request body.
    pub max_body_bytes: usize,
    /// Longest address (path and query), largest request head (request line and
    /// headers) and most header lines: past them a request is answered 414 or 431 with a
    /// JSON error. The HTTP layer's own bounds lie above these (an address of 64 KiB, a
    /// head of four times `max_head_bytes`, 100 header lines): past them it answers an
    /// empty 414 or 431 and closes the connection.
    pub max_address_bytes: usize,
    pub max_head_bytes: usize,
    pub max_headers: usize,
    /// Longest board, graph or surface text (a pasted board file included).
    pub max_board_chars: usize,
    /// Most legal moves in a starting position: the measure of board size every game shares.
    pub max_legal_moves: usize,
    /// Largest drawing description of a position.
    pub max_view_bytes: usize,
    /// Most moves in one game.
    pub max_moves: usize,
    /// Games whose computer player (or hint, or solve) may compute at the same time (0: a
    /// server without computer players).
    pub computing_at_once: usize,
    /// How long a request that needs the computer waits for a free place among the games
    /// computing at once before it is refused (429): a search that just stopped frees
    /// its place within this time.
    #[serde(serialize_with = "as_seconds")]
    pub permit_wait: Duration,
    /// How long a request waits for the computer before answering with `thinking: true`
    /// (the page then follows the game until the move arrives); also the deadline of a hint
    /// or solve.
    #[serde(serialize_with = "as_seconds")]
    pub answer_wait: Duration,
    /// How long a follower's request waits for a change before answering unchanged.
    #[serde(serialize_with = "as_seconds")]
    pub follow_wait: Duration,
    /// Longest a computer move may think, whatever its level.
    #[serde(serialize_with = "as_seconds")]
    pub max_think: Duration,
    /// Most memory one search (a computer move, a hint or a solve) may hold in its tables and
    /// trees. The `perfect` computers kept for the next moves and games of their setups (at
    /// most `computing_at_once`) hold up to as much each.
    pub max_search_bytes: usize,
    /// Largest `mcts:N` and `flatmc:N` levels.
    pub max_mcts_iterations: u64,
    pub max_flatmc_playouts: u32,
    /// Most games listed at once.
    pub max_listed: usize,
    /// Estimated bytes of the games kept in memory; the least recently used idle games
    /// beyond it are dropped and reloaded from the database when asked for.
    pub max_games_bytes: usize,
    /// Games one client address may create (or import) at once, then one per
    /// `create_period` (a burst of 0 turns the limit off).
    pub create_burst: u32,
    #[serde(serialize_with = "as_seconds")]
    pub create_period: Duration,
    /// Hints and solves one client address may ask for at once, then one per `hint_period`.
    pub hint_burst: u32,
    #[serde(serialize_with = "as_seconds")]
    pub hint_period: Duration,
    /// Connections open at once, and from one client address: past either, a new
    /// connection is closed at once, so clients that open connections and send nothing
    /// cannot use up the server's open files.
    pub max_connections: usize,
    pub max_connections_per_address: usize,
    /// How long a connection may take to send a request's head, or sit idle between
    /// requests, before it is closed; and again, once the head is in, to send the body
    /// (past that: 408).
    #[serde(serialize_with = "as_seconds")]
    pub request_wait: Duration,
    /// How long an answer may wait for its client to take more of it before the
    /// connection is closed: an answer nobody reads would otherwise hold its buffers and
    /// its connection for as long as the client keeps the connection open.
    #[serde(serialize_with = "as_seconds")]
    pub send_wait: Duration,
}

fn as_seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 256 * 1024,
            max_address_bytes: 16 * 1024,
            max_head_bytes: 32 * 1024,
            max_headers: 64,
            max_board_chars: 64 * 1024,
            max_legal_moves: 5_000,
            max_view_bytes: 4 * 1024 * 1024,
            max_moves: 20_000,
            computing_at_once: std::thread::available_parallelism().map_or(2, |n| n.get()),
            permit_wait: Duration::from_secs(2),
            answer_wait: Duration::from_secs(20),
            follow_wait: Duration::from_secs(25),
            max_think: Duration::from_secs(60),
            max_search_bytes: 256 * 1024 * 1024,
            max_mcts_iterations: MAX_MCTS_ITERATIONS,
            max_flatmc_playouts: MAX_FLATMC_PLAYOUTS,
            max_listed: 500,
            max_games_bytes: 256 * 1024 * 1024,
            create_burst: 30,
            create_period: Duration::from_secs(1),
            hint_burst: 10,
            hint_period: Duration::from_secs(2),
            max_connections: 1_000,
            max_connections_per_address: 64,
            request_wait: Duration::from_secs(10),
            send_wait: Duration::from_secs(30),
        }
    }
}
