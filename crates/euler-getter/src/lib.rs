//! Euler Getter (introduced in 2010 by its author as a cousin of Hex): two players claim the cells of a
//! closed surface; at the end each scores the Euler characteristic V - E + F of the
//! closure of their cells, and the larger (or, under the reverse rule, the smaller) wins.
//!
//! Boards must be trivalent cell complexes of closed surfaces of odd Euler characteristic:
//! then the border between the two regions is a union of circles, so
//! `chi X + chi O = chi(surface)`, which is odd, and no game is tied. [`Complex`] checks
//! this and precomputes the tables that make scoring incremental and constant-time per
//! stone. [`EulerGetter`] implements the engine's `Game` and `Notation` as a scored game
//! (X's margin `chi X - chi O`, negated under the reverse rule), so the engine's solver
//! gives the minimax margin. [`player`] holds the computer player, [`host`] the game's
//! entry in the catalog and its exact [`solve`], [`analysis`] the score of a position and
//! the survey of the even-cells claim, [`proof`] certificates of solved positions.
//!
//! # Example
//!
//! A game on goldberg:1 (the projective plane, χ = 1) played out by two seeded random
//! players and scored: the two regions' characteristics add up to the surface's, which is odd,
//! so the game has a winner.
//!
//! ```
//! use std::time::Duration;
//! use crosscap_engine::agents::RandomAgent;
//! use crosscap_engine::session::SetupLimits;
//! use crosscap_engine::{Agent, Budget, Game, Player};
//! use crosscap_euler_getter::{Rule, SwapRule, new_game, score};
//!
//! let mut game = new_game("goldberg:1", Rule::Normal, SwapRule(None), None, &SetupLimits::default())
//!     .unwrap();
//! let mut player = RandomAgent::new(7);
//! let budget = Budget::time(Duration::from_secs(1));
//! while game.outcome().is_none() {
//!     let mv = player.choose(&game, &budget).unwrap();
//!     game.play(&mv);
//! }
//! let score = score(&game);
//! assert_eq!(score.chi.x + score.chi.o, 1);
//! let winner = if score.chi.x > score.chi.o { Player::X } else { Player::O };
//! assert_eq!(score.winner, Some(winner));
//! ```

pub mod analysis;
pub mod compact;
pub mod complex;
pub mod game;
pub mod host;
pub mod openings;
pub mod player;
mod position;
pub mod proof;
pub mod region;

use std::sync::Arc;

use crosscap_engine::catalog::not_a_choice;
use crosscap_engine::session::{SetupLimits, TooLarge};
use crosscap_topology::{Board, PositionError, TopologyError};

pub use analysis::{Claim, ClaimCheck, PerPlayer, Score, Survey, SurveyRow, score, survey};
pub use complex::Complex;
pub use game::{EulerGetter, Move, Rule, SwapRule};
pub use host::{
    DESCRIPTOR, EulerHost, EulerView, RegionView, Solution, region_json, setup_game, solve,
};
pub use region::{Piece, RegionAnalysis, RegionCounts, loop_cycles};

/// Why a board, position or option was refused.
#[derive(Debug, thiserror::Error)]
pub enum EulerGetterError {
    #[error(transparent)]
    Topology(#[from] TopologyError),
    #[error(
        "board {} is not trivalent: vertex {vertex} meets {cells} cells, but Euler Getter \
         needs exactly three at every vertex (so that borders are circles and no game is tied)",
        board_name(spec)
    )]
    NotTrivalent {
        spec: String,
        vertex: usize,
        cells: usize,
    },
    #[error(
        "board {} is a {surface} of Euler characteristic {chi}, which is even: Euler \
         Getter needs an odd characteristic (e.g. the projective plane), so that no game is tied",
        board_name(spec)
    )]
    EvenCharacteristic {
        spec: String,
        surface: String,
        chi: i64,
    },
    #[error(
        "board {} has {cells} cells, more than Euler Getter handles (65535)",
        board_name(spec)
    )]
    TooLarge { spec: String, cells: usize },
    #[error(transparent)]
    Limits(#[from] TooLarge),
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("{}", not_a_choice("rule", .0, Rule::NAMES))]
    UnknownRule(String),
    #[error("{}", not_a_choice("swap", .0, SwapRule::NAMES))]
    UnknownSwap(String),
}

/// A board as messages name it: its spec, escaped, or for a pasted board file (the spec is
/// the file's JSON, often many lines) those words.
fn board_name(spec: &str) -> String {
    if spec.trim_start().starts_with('{') {
        "(pasted board file)".to_string()
    } else {
        spec.escape_debug().to_string()
    }
}

/// Reads and checks a board spec (`goldberg:K`, `taylor:N`, `file:PATH`, ...).
pub fn load_board(spec: &str) -> Result<Arc<Complex>, EulerGetterError> {
    Ok(Arc::new(Complex::new(Board::from_spec(spec)?)?))
}

/// A new game on the board of `spec`, from the empty board or from `position` (stones
/// in cell order): the one setup that the command line and the catalog's [`DESCRIPTOR`] go through. A
/// board with more cells than `limits` allows moves is refused before any work on it.
pub fn new_game(
    spec: &str,
    rule: Rule,
    swap: SwapRule,
    position: Option<&str>,
    limits: &SetupLimits,
) -> Result<EulerGetter, EulerGetterError> {
    let board = Board::from_spec(spec)?;
    limits.check_moves(board.cell_count() as u128)?;
    let complex = Arc::new(Complex::new(board)?);
    Ok(match position {
        Some(text) => EulerGetter::from_position(complex, text, rule, swap)?,
        None => EulerGetter::new(complex, rule, swap),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosscap_engine::catalog::{Setup, SetupError};
    use crosscap_engine::session::Match;
    use crosscap_engine::{Level, Player};
    use serde_json::{Value, json};

    fn new_match(board: &str, options: &Value) -> Result<Box<dyn Match>, SetupError> {
        (DESCRIPTOR.start)(&Setup { board, options }, &SetupLimits::default())
    }

    /// The move of a seeded iteration-budget search on goldberg:2, every new switch off.
    fn move_with_switches_off(seed: u64) -> String {
        use crosscap_engine::session::GameMatch;
        use crosscap_engine::{Budget, Level, Notation};
        let start = new_match("goldberg:2", &Value::Null).unwrap();
        let game = &start
            .as_any()
            .downcast_ref::<GameMatch<EulerHost>>()
            .unwrap()
            .game;
        let mut agent = player::agent(Level::PlainMcts(3_000), seed);
        let mv = agent.choose(game, &Budget::unlimited()).unwrap();
        game.format_move(&mv)
    }

    /// With every switch of #21 off (RAVE, tree reuse, the win/loss reward, the
    /// MCTS-solver and the endgame solver), as the level `plain:mcts:3000` plays, the
    /// search plays the moves it played before they were added (found then with `hint
    /// --board goldberg:2 --level mcts:3000 --seed S`).
    #[test]
    fn with_the_new_switches_off_the_search_plays_as_before() {
        assert_eq!(move_with_switches_off(7), "13");
        assert_eq!(move_with_switches_off(8), "15");
    }

    #[test]
    fn a_match_plays_to_the_end_and_shows_the_regions() {
        let mut m = new_match("goldberg:1", &json!({ "rule": "reverse", "swap": 1 })).unwrap();
        assert_eq!(m.game(), "euler-getter");
        let view = m.view();
        assert_eq!(view["rule"], "reverse");
        assert_eq!(view["swap"]["after"], 1);
        assert_eq!(view["regions"], Value::Null);
        let first = m.legal_moves()[0].clone();
        m.play(&first).unwrap();
        assert!(m.legal_moves().contains(&"swap".to_string()));
        m.play("swap").unwrap();
        let view = m.view();
        assert_eq!(view["swap"]["swapped"], true);
        assert_eq!(view["score"]["O"]["chi"], 1, "O owns the first stone now");
        assert_eq!(m.to_move(), Some(Player::X));
        while let Some(mv) =
            m.computer_move(Level::Mcts(200), 3, &crosscap_engine::Budget::unlimited())
        {
            m.play(&mv).unwrap();
        }
        let view = m.view();
        assert_eq!(m.to_move(), None);
        let (x, o) = (&view["regions"]["X"], &view["regions"]["O"]);
        assert_eq!(x["chi"].as_i64().unwrap() + o["chi"].as_i64().unwrap(), 1);
        let cells: usize = [x, o]
            .iter()
            .flat_map(|r| r["pieces"].as_array().unwrap())
            .map(|p| p["cells"].as_array().unwrap().len())
            .sum();
        assert_eq!(cells, 6);
        let smaller = if x["chi"].as_i64() < o["chi"].as_i64() {
            Player::X
        } else {
            Player::O
        };
        assert_eq!(m.outcome().unwrap().winner, Some(smaller), "reverse rule");
    }

    #[test]
    fn the_perfect_level_answers_at_once_on_a_large_board() {
        let m = new_match("goldberg:4", &json!({})).unwrap();
        let clock = std::time::Instant::now();
        let mv = m
            .computer_move(Level::Perfect, 1, &crosscap_engine::Budget::unlimited())
            .unwrap();
        assert!(m.legal_moves().contains(&mv));
        assert!(
            clock.elapsed() < std::time::Duration::from_secs(20),
            "{:?}",
            clock.elapsed()
        );
    }

    /// A pasted board file is named in words, not by its JSON (many lines, maybe megabytes).
    #[test]
    fn a_refused_pasted_board_is_named_in_one_line() {
        let tetrahedron = "{\n\"faces\": [[0,1,2],[0,2,3],[0,3,1],[1,3,2]]\n}";
        let error = new_match(tetrahedron, &json!({}))
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.starts_with("board (pasted board file) is a sphere of Euler characteristic 2"),
            "{error}"
        );
    }

    #[test]
    fn bad_options_are_refused() {
        for (options, needle) in [
            (json!({ "rule": "sideways" }), "sideways"),
            (json!({ "swap": 2 }), "swap"),
            (json!({ "colour": "X" }), "colour"),
            (json!(["rule"]), "must be a JSON object"),
        ] {
            let err = new_match("goldberg:1", &options).err().unwrap().to_string();
            assert!(err.contains(needle), "{err}");
        }
        assert!(new_match("nowhere:1", &json!({})).is_err());
    }
}
