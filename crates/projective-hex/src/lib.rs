//! Projective Hex (Bill Taylor and Dan Hoey): players alternately fill a cell of a board
//! of the projective plane, and whoever makes a global loop (a closed chain of own cells
//! that is not contractible, one that crosses the rim an odd number of times) wins. On a
//! full trivalent board exactly one player has one, so there are no draws and no races.
//!
//! On boards of other surfaces the crate plays a documented variant: a loop wins when its
//! Z2 homology class is non-zero; a full board without one is a draw.
//!
//! - [`rules`]: the game, with loops detected incrementally (union-find whose links carry
//!   Z2 homology classes, near-constant time per move), the swap rule and the seed's
//!   3-move cut-and-choose, and game records.
//! - [`exact`]: the fast bitmask solver of small trivalent projective-plane boards.
//! - [`loops`]: from-scratch loop detection and the extraction of a shortest winning loop.
//! - [`search`]: the focused game the searches use, the computer players, exact analysis.
//!
//! # Example
//!
//! Solve taylor:2 exactly: the first player wins, and every winning first move is listed.
//!
//! ```
//! use std::time::Duration;
//! use crosscap_engine::session::SetupLimits;
//! use crosscap_engine::{Budget, Player};
//! use crosscap_projective_hex::{Analyser, Opening, new_game};
//!
//! let game = new_game("taylor:2", Opening::Standard, None, &SetupLimits::default()).unwrap();
//! let mut analyser = Analyser::new(Budget::time(Duration::from_secs(30)));
//! let analysis = analyser.analyse(&game).unwrap();
//! assert_eq!(analysis.winner, Some(Player::X));
//! assert!(!analysis.best_moves.is_empty());
//! ```

pub mod exact;
pub mod host;
pub mod loops;
pub mod patterns;
pub mod rules;
pub mod search;

use std::sync::Arc;

use crosscap_engine::MoveError;
use crosscap_engine::catalog::not_a_choice;
use crosscap_engine::session::{SetupLimits, TooLarge};
use crosscap_topology::{Board, PositionError, TopologyError};

pub use host::{DESCRIPTOR, HexHost, HexView, LoopWinner, loop_winner, setup_game};
pub use rules::{GameRecord, Geometry, Move, Opening, ProjectiveHex};
pub use search::{
    Analyser, Analysis, Focused, NotAtStart, OpeningJobs, OpeningResult, Openings, Playing,
    Proving, WinningReplies, agent, all_openings,
};

/// What can go wrong with user input.
#[derive(Debug, thiserror::Error)]
pub enum HexError {
    #[error(transparent)]
    Board(#[from] TopologyError),
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("both players have a global loop: no game reaches this position")]
    BothLoops,
    #[error("the position has {found} cells, the board {expected}")]
    PositionSize { expected: usize, found: usize },
    #[error("a board of {cells} cells cannot be played")]
    BoardSize { cells: usize },
    #[error("{}", not_a_choice("opening", .0, Opening::NAMES))]
    UnknownOpening(String),
    #[error(transparent)]
    Limits(#[from] TooLarge),
}

/// A new game on the board of `spec` under `opening`, from the empty board or from
/// `position` (stones in cell order): the one setup that the command line and the
/// catalog's [`DESCRIPTOR`] go through (which then play the `moves` option's moves). A
/// board with more cells than `limits` allows moves is refused before any work on it.
pub fn new_game(
    spec: &str,
    opening: Opening,
    position: Option<&str>,
    limits: &SetupLimits,
) -> Result<ProjectiveHex, HexError> {
    let board = Board::from_spec(spec)?;
    limits.check_moves(board.cell_count() as u128)?;
    let geometry = Arc::new(Geometry::new(board)?);
    Ok(match position {
        Some(text) => ProjectiveHex::from_position_text(geometry, text)?,
        None => ProjectiveHex::new(geometry, opening),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosscap_engine::catalog::{Setup, SetupError};
    use crosscap_engine::session::Match;
    use crosscap_engine::{Level, Notation, Player};
    use serde_json::{Value, json};

    fn new_match(board: &str, options: &Value) -> Result<Box<dyn Match>, SetupError> {
        (DESCRIPTOR.start)(&Setup { board, options }, &SetupLimits::default())
    }

    /// The move of a seeded iteration-budget search on taylor:4, every new switch off.
    fn move_with_switches_off(seed: u64) -> String {
        use crosscap_engine::session::GameMatch;
        use crosscap_engine::{Budget, Level};
        let start = new_match("taylor:4", &Value::Null).unwrap();
        let game = &start
            .as_any()
            .downcast_ref::<GameMatch<HexHost>>()
            .unwrap()
            .game;
        let mut agent = search::agent(Level::PlainMcts(3_000), seed);
        let mv = agent.choose(game, &Budget::unlimited()).unwrap();
        game.format_move(&mv)
    }

    /// With the switches of #21 off (the endgame solver, the kept tree), as the level
    /// `plain:mcts:3000` plays, the search plays the moves it played before they were
    /// added (found then with `hint --board taylor:4 --level mcts:3000 --seed S`).
    #[test]
    fn with_the_new_switches_off_the_search_plays_as_before() {
        assert_eq!(move_with_switches_off(7), "e5");
        assert_eq!(move_with_switches_off(8), "e5");
    }

    #[test]
    fn the_endgame_solver_agrees_with_the_analysis() {
        use crosscap_engine::mcts::PlayoutPolicy;
        use crosscap_engine::session::GameMatch;
        use crosscap_engine::{Budget, Game, Rng};
        let start = new_match("taylor:3", &Value::Null).unwrap();
        let mut game = start
            .as_any()
            .downcast_ref::<GameMatch<HexHost>>()
            .unwrap()
            .game
            .clone();
        let mut leaf = search::EndgameFill::default();
        assert_eq!(
            leaf.solve_leaf(&search::Focused(game.clone())),
            None,
            "27 empty cells"
        );
        let mut rng = Rng::new(5);
        let mut verdicts = 0;
        while game.outcome().is_none() {
            let empty = game.stones().iter().filter(|s| s.is_none()).count();
            if empty <= search::LEAF_SOLVER_MAX_EMPTY
                && let Some(winner) = leaf.solve_leaf(&search::Focused(game.clone()))
            {
                let value = search::Analyser::new(Budget::unlimited())
                    .value(&game)
                    .unwrap();
                let mover = game.to_move();
                assert_eq!(winner, if value > 0 { mover } else { mover.opponent() });
                verdicts += 1;
            }
            let mv = game.random_move(&mut rng).unwrap();
            game.play(&mv);
        }
        assert!(verdicts > 0);
    }

    #[test]
    fn a_match_shows_the_winning_loop() {
        let options = json!({ "position": ".XO/..XO/..OO./.XOX../XOX../X..." });
        let mut game = new_match("taylor:3", &options).unwrap();
        assert_eq!(game.game(), "projective-hex");
        assert_eq!(game.view()["loop"], Value::Null);
        assert_eq!(game.play("f2").unwrap(), "f2");
        assert_eq!(game.outcome().unwrap().winner, Some(Player::O));
        assert_eq!(
            game.view()["loop"],
            json!(["a3", "b4", "c4", "c3", "d3", "e2", "f2"])
        );
        assert!(game.legal_moves().is_empty());
    }

    /// On taylor:2 after a1 only b2 and b3 win for O; the perfect player finds one of
    /// them whatever its seed, says the position is won, and wins the game against a
    /// random player. In the lost position after them it says so.
    #[test]
    fn the_perfect_level_plays_only_winning_moves() {
        use crosscap_engine::{Game, Notation, Proven};
        for seed in 0..8 {
            let mut game = ProjectiveHex::on_board("taylor:2", Opening::Standard).unwrap();
            game.play_text("a1").unwrap();
            let mut perfect = search::agent(Level::Perfect, seed);
            let reply = perfect
                .choose(&game, &crosscap_engine::Budget::unlimited())
                .unwrap();
            let name = game.format_move(&reply);
            assert!(name == "b2" || name == "b3", "seed {seed}: {name}");
            assert_eq!(perfect.proven(), Some(Proven::Win));
            let mut lost = game.clone();
            lost.play(&reply);
            let mut loser = search::agent(Level::Perfect, seed);
            assert!(
                loser
                    .choose(&lost, &crosscap_engine::Budget::unlimited())
                    .is_some()
            );
            assert_eq!(loser.proven(), Some(Proven::Loss), "seed {seed}");
            let mut random = search::agent(Level::Random, seed);
            while game.outcome().is_none() {
                let mover = if game.to_move() == Player::O {
                    &mut perfect
                } else {
                    &mut random
                };
                let mv = mover
                    .choose(&game, &crosscap_engine::Budget::unlimited())
                    .unwrap();
                game.play(&mv);
            }
            assert_eq!(game.winner(), Some(Player::O), "seed {seed}");
        }
    }

    /// After a value is found, the moves the solver proved on the way are winning ones
    /// (the perfect level's answer when checking every move does not fit its budget).
    #[test]
    fn proven_winning_moves_are_winning() {
        use crosscap_engine::Notation;
        use crosscap_engine::solver::Budget;
        for (board, moves) in [("taylor:2", "a1"), ("taylor:3", "c3 d3 b2 e3")] {
            let mut game = ProjectiveHex::on_board(board, Opening::Standard).unwrap();
            for text in moves.split(' ') {
                game.play_text(text).unwrap();
            }
            let mut analyser = search::Analyser::new(Budget::unlimited());
            assert_eq!(analyser.value(&game).unwrap(), 1, "{board} {moves}");
            let proven = analyser.proven_winning_moves(&game);
            assert!(!proven.is_empty(), "{board} {moves}");
            let best = analyser.analyse(&game).unwrap().best_moves;
            for mv in proven {
                assert!(
                    best.contains(&mv),
                    "{board} {moves}: {}",
                    game.format_move(&mv)
                );
            }
        }
    }

    /// An option's name is echoed escaped: one line, no terminal escapes.
    #[test]
    fn unknown_option_names_are_escaped() {
        let error = new_match("taylor:2", &json!({ "x\u{1b}[31m\n": 1 }))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("no option `x\\u{1b}[31m\\n`"), "{error}");
        assert!(
            error.contains("the options are opening, position, moves"),
            "{error}"
        );
    }

    #[test]
    fn match_options_are_checked() {
        let mut game = new_match("", &json!({ "opening": "swap", "moves": ["c3"] })).unwrap();
        assert!(game.legal_moves().contains(&"swap".to_string()));
        assert!(
            game.computer_move(Level::Mcts(200), 1, &crosscap_engine::Budget::unlimited())
                .is_some()
        );
        assert_eq!(game.play("swap").unwrap(), "swap");
        assert_eq!(game.view()["swapped"], true);
        let pie = new_match("taylor:3", &json!({ "opening": "pie" }))
            .err()
            .unwrap();
        assert!(
            pie.0 == "option opening: `pie` is not standard, swap or cut-and-choose",
            "{pie}"
        );
        assert!(new_match("taylor:3", &json!({ "colour": "X" })).is_err());
        assert!(new_match("nowhere:3", &Value::Null).is_err());
        assert!(new_match("taylor:3", &json!({ "moves": ["c3", "c3"] })).is_err());
    }
}
