//! Every game Crosscap hosts, in the order the page lists them. This crate and the command
//! line are the only ones that name the game crates: the web server serves whatever
//! catalog it is given, and adding a game is one line here.
//!
//! # Example
//!
//! Any game started by name as the hosts start it, played by moves in its notation, solved in
//! the one answer shape, and put in a seeded arena:
//!
//! ```
//! use std::time::Duration;
//! use crosscap_engine::catalog::{Setup, Status};
//! use crosscap_engine::session::{ArenaRun, SetupLimits};
//! use crosscap_engine::{Budget, Level};
//! use serde_json::json;
//!
//! let catalog = crosscap_catalog::standard();
//! let options = json!({ "tokens": "1,2,0,2" });
//! let setup = Setup { board: "C4", options: &options };
//! let mut game = catalog.start("edge-nim", &setup, &SetupLimits::default()).unwrap();
//! assert_eq!(game.position(), "1,2,0,2");
//!
//! let solved = game.solve(&Budget::time(Duration::from_secs(10)));
//! assert_eq!(solved.status, Status::Solved);
//! let first = solved.moves.winning().unwrap()[0].clone();
//! game.play(&first).unwrap();
//! assert_eq!(game.solve(&Budget::time(Duration::from_secs(10))).outcome, Some("P"));
//!
//! let run = ArenaRun {
//!     budget: Budget::time(Duration::from_secs(1)),
//!     on_game_done: &|| {},
//!     equal_time: false,
//!     a_threads: 1,
//!     b_threads: 1,
//! };
//! let report = game.arena(Level::Perfect, Level::Random, 4, 1, &run);
//! assert_eq!(report.a_wins + report.b_wins + report.draws, 4);
//!
//! let unknown = Setup { board: "C4", options: &json!({ "bogus": 1 }) };
//! assert!(catalog.start("edge-nim", &unknown, &SetupLimits::default()).is_err());
//! ```

use crosscap_engine::catalog::Catalog;

/// The catalog of every game compiled into Crosscap.
pub fn standard() -> Catalog {
    Catalog::new(vec![
        &crosscap_projective_hex::DESCRIPTOR,
        &crosscap_euler_getter::DESCRIPTOR,
        &crosscap_edge_nim::DESCRIPTOR,
        &crosscap_manifold::DESCRIPTOR,
        &crosscap_sandpile::DESCRIPTOR,
        &crosscap_engine::nim::DESCRIPTOR,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosscap_engine::catalog::Setup;
    use crosscap_engine::session::SetupLimits;
    use serde_json::{Value, json};

    #[test]
    fn every_game_refuses_unknown_options_and_starts_from_its_default_board() {
        let catalog = standard();
        assert_eq!(catalog.names().len(), 6);
        for game in catalog.games() {
            let info = &game.info;
            let none = Setup {
                board: info.default_board,
                options: &Value::Null,
            };
            let started = (game.start)(&none, &SetupLimits::default())
                .unwrap_or_else(|e| panic!("{}: {e}", info.name));
            assert_eq!(started.game(), info.name);
            assert!(!started.legal_moves().is_empty(), "{}", info.name);
            let options = json!({"bogus": 1});
            let bogus = Setup {
                board: info.default_board,
                options: &options,
            };
            let bogus = (game.start)(&bogus, &SetupLimits::default());
            let error = bogus.err().expect("an unknown option is refused").0;
            assert!(
                error.contains("has no option `bogus`"),
                "{}: {error}",
                info.name
            );
            for option in info.options {
                assert!(error.contains(option.name), "{}: {error}", info.name);
            }
            for example in info.example_boards {
                let board = Setup {
                    board: example,
                    options: &Value::Null,
                };
                assert!(
                    (game.start)(&board, &SetupLimits::default()).is_ok(),
                    "{} {example}",
                    info.name
                );
            }
            assert_eq!(
                game.layout.is_some(),
                info.board_kind == crosscap_engine::catalog::BoardKind::Surface,
                "{}",
                info.name
            );
        }
    }

    /// Every game takes `moves`, as a text or a list: the game after them is the game
    /// after playing them one by one, and a move that cannot be played is refused with the
    /// game's reason.
    #[test]
    fn every_game_plays_the_moves_it_is_given() {
        let limits = SetupLimits::default();
        for game in standard().games() {
            let info = &game.info;
            let start = |options: Value| {
                (game.start)(
                    &Setup {
                        board: info.default_board,
                        options: &options,
                    },
                    &limits,
                )
            };
            let mut played = start(Value::Null).unwrap();
            let mut moves = Vec::new();
            for _ in 0..2 {
                let first = played.legal_moves()[0].clone();
                moves.push(played.play(&first).unwrap());
            }
            for options in [json!({"moves": moves.join(" ")}), json!({"moves": moves})] {
                let replayed = start(options).unwrap_or_else(|e| panic!("{}: {e}", info.name));
                assert_eq!(replayed.position(), played.position(), "{}", info.name);
                assert_eq!(replayed.to_move(), played.to_move(), "{}", info.name);
            }
            let error = start(json!({"moves": "zz9"})).err().unwrap().0;
            assert!(error.contains("zz9"), "{}: {error}", info.name);
            let error = start(json!({"moves": [moves[0].as_str(), "zz9"]}))
                .err()
                .unwrap()
                .0;
            assert!(error.starts_with("move 2 of 2: "), "{}: {error}", info.name);
            assert!(error.contains("zz9"), "{}: {error}", info.name);
            let error = start(json!({"moves": {"a": 1}})).err().unwrap().0;
            assert!(error.starts_with("option moves:"), "{}: {error}", info.name);
        }
    }
}
