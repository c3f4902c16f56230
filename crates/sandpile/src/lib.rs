//! The sandpile toppling game (J. B. Lewis, REGS 2010) on any graph of `crosscap-graphs`.
//!
//! Two players, X first, alternately place a chip on an unclaimed vertex or one of their
//! own. A vertex whose score reaches its degree topples: it loses that many chips and each
//! neighbour gains one, which may topple it in turn. Every vertex the cascade reaches (the
//! one placed on, each that topples, each that receives a chip) is claimed by the mover.
//! The game ends when every vertex has the mover's colour.
//!
//! **The abelian rule.** The seed says a toppling vertex's score "changes to 0"; we
//! subtract the degree instead. The two agree whenever the score equals the degree (a
//! single chip arrives at a time from a stable position), and subtracting conserves chips,
//! which makes the result independent of the order of topplings (the abelian property of
//! chip-firing) and is what the seed's remark about the degree sum assumes.
//!
//! **Cascades that never stop.** A chip total above `2|E| - |V|` cannot be stable, but a
//! cascade can run for ever with fewer chips. We detect it exactly: on a connected graph
//! a cascade in which every vertex has toppled never stops (if it stopped, the vertex whose last
//! toppling came first would have received a chip from each neighbour since). The
//! mover then claims every vertex and wins.
//!
//! **Directed graphs.** A vertex topples at its out-degree and sends one chip along each
//! out-arc; a vertex of out-degree 0 is a sink that never topples. Cascades can only run
//! for ever inside a *closed class*, a strong component with no arc leaving it; one does
//! once each vertex `v` of it has toppled `p(v)` times, `p` being the class's least
//! positive firing vector that returns its chips to where they were (all ones when each
//! vertex has as many arcs in as out).
//!
//! **Disconnected graphs** (and directed ones). Each closed class (a component with an
//! edge) is set toppling for ever on its own: its vertices then belong for good to the
//! player whose placement did it and take no more chips. The game still ends when one
//! colour holds every vertex; it ends in a draw once that is impossible: when classes
//! toppling for ever have both colours, or when the player to move has no vertex to play.
//! Chips can drain into sinks for ever, so play also stops, drawn, after `2|E| + |V|`
//! placements, a limit that a connected undirected graph never reaches.
//!
//! KJumpingCube is this game on an `R x C` grid (its cube values are our scores plus one).

pub mod analysis;
pub mod board;
pub mod game;

use std::sync::Arc;

use crosscap_engine::agents::standard_agent;
use crosscap_engine::mcts::MctsConfig;
use crosscap_engine::session::{GameMatch, Match, SetupLimits, TooLarge};
use crosscap_engine::solver::SolveError;
use crosscap_engine::{Agent, Level, Player};
use crosscap_graphs::{Graph, GraphError};

pub use analysis::{
    Analysis, ClassifyRow, MinTopple, PerfectPlay, Sequences, analyse, classify, classify_all,
    min_topple, min_topple_game, perfect_play, sequences,
};
pub use board::{Board, Cascade, ClosedClass, Scratch};
pub use game::{LastMove, Sandpile};

/// Why a board, position or option was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SandpileError {
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error("graph `{0}` has no vertices")]
    EmptyGraph(String),
    #[error("graph `{0}`: a closed class's firing period overflows; use a smaller digraph")]
    TooComplex(String),
    #[error(
        "graph `{spec}`: a closed class of {vertices} vertices with more arcs in than out at \
         some vertex; the toppling period is found for at most {max}"
    )]
    LargeUnbalancedClass {
        spec: String,
        vertices: usize,
        max: usize,
    },
    #[error("position `{}`: {reason}", .text.escape_debug())]
    BadPosition { text: String, reason: String },
    #[error("option {name}: {reason}")]
    BadOption { name: String, reason: String },
    #[error("unknown option {name:?}: the sandpile game takes {known}")]
    UnknownOption { name: String, known: String },
    #[error("O can only move first from a given position (X moves first on the empty board)")]
    OFirst,
    #[error(transparent)]
    Search(#[from] SolveError),
    #[error(transparent)]
    Limits(#[from] TooLarge),
}

/// The computer player at `level`: MCTS with the MCTS-solver on (small boards are often
/// proven outright), the exact solver for `perfect`.
pub fn agent(level: Level, seed: u64) -> Box<dyn Agent<Sandpile>> {
    let config = MctsConfig {
        prove: true,
        ..MctsConfig::default()
    };
    standard_agent(level, config, seed)
}

/// The options [`new_match`] takes.
pub const OPTIONS: &[&str] = &["position", "to_move"];

/// A new game on the graph of `spec`, from the empty board or from `position` (see
/// [`Sandpile::from_position`]) with `to_move` to move: the one setup that the command
/// line and [`new_match`] go through. A graph with more vertices than `limits` allows
/// moves is refused before the board is built.
pub fn new_game(
    spec: &str,
    position: Option<&str>,
    to_move: Player,
    limits: &SetupLimits,
) -> Result<Sandpile, SandpileError> {
    let graph = Graph::from_spec(spec)?;
    limits.check_moves(graph.vertex_count() as u128)?;
    let board = Arc::new(Board::new(graph)?);
    match position {
        Some(text) => Sandpile::from_position(board, text, to_move),
        None if to_move == Player::X => Ok(Sandpile::new(board)),
        None => Err(SandpileError::OFirst),
    }
}

/// A match for the web server. `board` is a graph spec (`grid:5x5`, `C6`, `arcs:0>1,1>0`,
/// …). Options: `"position"` (a mid-game position such as `"X1,O0,.,X2"`, see
/// [`Sandpile::from_position`]) and `"to_move"` (`"X"` or `"O"`, default X); any other
/// option is refused.
pub fn new_match(
    board: &str,
    options: &serde_json::Value,
    limits: &SetupLimits,
) -> Result<Box<dyn Match>, SandpileError> {
    match options {
        serde_json::Value::Null => {}
        serde_json::Value::Object(map) => {
            if let Some(unknown) = map.keys().find(|k| !OPTIONS.contains(&k.as_str())) {
                return Err(SandpileError::UnknownOption {
                    name: unknown.clone(),
                    known: OPTIONS.join(", "),
                });
            }
        }
        other => {
            return Err(SandpileError::BadOption {
                name: "options".into(),
                reason: format!("expected a JSON object, got {other}"),
            });
        }
    }
    let option = |name: &str| -> Result<Option<&str>, SandpileError> {
        match options.get(name) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(SandpileError::BadOption {
                name: name.to_string(),
                reason: format!("expected a string, got {other}"),
            }),
        }
    };
    let to_move = match option("to_move")? {
        None => Player::X,
        Some(text) => text.parse().map_err(|_| SandpileError::BadOption {
            name: "to_move".into(),
            reason: format!("`{}` is not X or O", text.escape_debug()),
        })?,
    };
    let game = new_game(board, option("position")?, to_move, limits)?;
    Ok(Box::new(GameMatch::new(
        game,
        "sandpile",
        agent,
        Sandpile::view,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_match_plays_on_a_grid() {
        let mut m = new_match(
            "grid:3x3",
            &json!({}),
            &crosscap_engine::session::SetupLimits::default(),
        )
        .unwrap();
        assert_eq!(m.game(), "sandpile");
        assert_eq!(m.legal_moves().len(), 9);
        assert_eq!(m.play("4").unwrap(), "4");
        let reply = m
            .computer_move(Level::Easy, 1, &crosscap_engine::Budget::unlimited())
            .unwrap();
        m.play(&reply).unwrap();
        assert_eq!(m.view()["grid"]["rows"], 3);
    }

    #[test]
    fn a_match_starts_from_a_position() {
        let m = new_match(
            "P4",
            &json!({"position": "X0,O1,.,X0", "to_move": "O"}),
            &crosscap_engine::session::SetupLimits::default(),
        )
        .unwrap();
        assert_eq!(m.to_move(), Some(Player::O));
        assert_eq!(m.legal_moves(), vec!["1", "2"]);
    }

    #[test]
    fn bad_boards_and_options_are_refused() {
        assert!(matches!(
            new_match(
                "grid:0x",
                &json!({}),
                &crosscap_engine::session::SetupLimits::default()
            ),
            Err(SandpileError::Graph(_))
        ));
        assert!(
            new_match(
                "P4",
                &json!({"to_move": 3}),
                &crosscap_engine::session::SetupLimits::default()
            )
            .is_err()
        );
        assert!(
            new_match(
                "P4",
                &json!({"to_move": "O"}),
                &crosscap_engine::session::SetupLimits::default()
            )
            .is_err()
        );
        assert!(
            new_match(
                "P4",
                &json!({"position": "X9"}),
                &crosscap_engine::session::SetupLimits::default()
            )
            .is_err()
        );
        let unknown = new_match("P4", &json!({"to-move": "O"}), &SetupLimits::default())
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            unknown,
            "unknown option \"to-move\": the sandpile game takes position, to_move"
        );
        assert!(new_match("P4", &json!("X0,.,.,."), &SetupLimits::default()).is_err());
    }

    /// Text echoed in a message is escaped: one line, no terminal escapes.
    #[test]
    fn messages_escape_the_text_they_echo() {
        for options in [
            json!({"position": "X0,O1,.,X\u{1b}[31m0"}),
            json!({"position": "X0,O1,.,X0\n1"}),
            json!({"position": ".,.,.,.", "to_move": "\u{1b}[31mX"}),
        ] {
            let error = new_match("P4", &options, &SetupLimits::default())
                .err()
                .unwrap()
                .to_string();
            assert!(!error.contains(char::is_control), "{error:?}");
        }
    }

    #[test]
    fn graphs_over_the_limits_are_refused_before_the_board_is_built() {
        // K65536,2 used to abort the server at about 5.5 GB.
        let error = new_match("K65536,2", &json!({}), &SetupLimits::default())
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("65538 legal moves (at most 5000)"),
            "{error}"
        );
    }
}
