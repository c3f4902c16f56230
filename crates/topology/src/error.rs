//! Typed errors: every way a spec, a board file or a position string can be wrong.

use crosscap_engine::text::escape_controls;
use thiserror::Error;

/// Why a board could not be built.
#[derive(Debug, Error)]
pub enum TopologyError {
    #[error(
        "unknown board spec {spec:?}: expected taylor:N, goldberg:K, torus:RxC, klein:RxC, sum:A+B, file:PATH or a board file's JSON"
    )]
    UnknownFamily { spec: String },
    #[error("bad board spec {spec:?}: {reason}")]
    BadSpec { spec: String, reason: String },
    // The causes are part of the message (not `#[source]`), so that error chains print them once.
    #[error("cannot read board file {path}: {cause}")]
    Io { path: String, cause: std::io::Error },
    #[error(
        "board file {path} is not valid board JSON: {}",
        escape_controls(&cause.to_string())
    )]
    Json {
        path: String,
        cause: serde_json::Error,
    },
    #[error("board file {path} is over {max} bytes")]
    FileTooLarge { path: String, max: u64 },
    #[error("the pasted board is not valid board JSON: {}", escape_controls(&cause.to_string()))]
    InlineJson { cause: serde_json::Error },
    #[error("the pasted board is over {max} bytes")]
    InlineTooLarge { max: u64 },
    // The cause is part of the message (not a source), so that error chains print it once.
    #[error("invalid board: {0}")]
    Invalid(ComplexError),
}

impl From<ComplexError> for TopologyError {
    fn from(cause: ComplexError) -> Self {
        TopologyError::Invalid(cause)
    }
}

/// Why a list of faces is not a cell complex of a closed surface.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ComplexError {
    #[error("the board has no faces")]
    Empty,
    #[error("face {face} has {sides} sides; a face needs at least 3")]
    TooFewSides { face: usize, sides: usize },
    #[error("face {face} has a side from vertex {vertex} to itself")]
    LoopSide { face: usize, vertex: u64 },
    #[error(
        "the edge between vertices {a} and {b} lies on {sides} face sides; every edge must lie on exactly 2"
    )]
    EdgeSides { a: u64, b: u64, sides: usize },
    #[error(
        "the faces around vertex {vertex} form {cycles} separate cycles; they must form a single cycle"
    )]
    VertexLink { vertex: u64, cycles: usize },
    #[error("the board is not connected: it falls into {components} pieces")]
    Disconnected { components: usize },
    #[error("face {face}: {reason}")]
    Names { face: usize, reason: String },
    #[error("H1(S; Z2) has rank {rank}; at most 64 is supported")]
    TooManyHandles { rank: usize },
}

/// Why a position string does not fit a board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error(
        "unexpected character {found:?} at character {offset} of the position (cell {cell}): expected '.', 'X' or 'O'"
    )]
    BadCharacter {
        found: char,
        offset: usize,
        cell: String,
    },
    #[error(
        "the position has more than {expected} cells (the extra one starts at character {offset})"
    )]
    TooLong { expected: usize, offset: usize },
    #[error(
        "the position has {found} cells but the board has {expected} (cell {missing} is missing)"
    )]
    TooShort {
        found: usize,
        expected: usize,
        missing: String,
    },
    #[error("the position has {x} X stones and {o} O stones: X must have as many as O or one more")]
    BadCounts { x: usize, o: usize },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_board_prints_its_cause_once() {
        // Once in the message, not a source too (chains printed the cause twice).
        let error = TopologyError::from(ComplexError::Disconnected { components: 2 });
        assert_eq!(
            error.to_string(),
            "invalid board: the board is not connected: it falls into 2 pieces"
        );
        assert!(std::error::Error::source(&error).is_none());
    }

    #[test]
    fn json_causes_escape_the_field_names_they_echo() {
        let error = crate::Board::from_spec("{\"faces\\u001b[31m\\n\": []}")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("unknown field `faces\\u{1b}[31m\\n`"),
            "{error}"
        );
    }
}
