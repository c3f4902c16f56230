//! A database written by Crosscap 0.1.0 (tests/fixtures/crosscap-0.1.0.sqlite3, its games
//! described in crosscap-0.1.0.json) opens under this build: every game loads with its
//! moves, status and winner, and an unfinished one takes its next move.

mod common;

use common::start_over;
use crosscap_server::{Limits, Store};
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

#[test]
fn a_database_from_0_1_0_opens_and_its_games_continue() {
    let dir = common::scratch_dir("upgrade");
    std::fs::copy(
        format!("{FIXTURES}/crosscap-0.1.0.sqlite3"),
        dir.path().join("crosscap.sqlite3"),
    )
    .expect("a copy of the fixture");
    let expected: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(format!("{FIXTURES}/crosscap-0.1.0.json")).unwrap(),
    )
    .unwrap();
    let server = start_over(
        Store::open(dir.path()).unwrap(),
        Limits::default(),
        &[],
        false,
    );

    for game in &expected {
        let id = game["id"].as_str().unwrap();
        let (status, loaded) = server.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200, "{id}: {loaded}");
        for field in [
            "game", "board", "options", "players", "moves", "status", "winner",
        ] {
            assert_eq!(loaded[field], game[field], "{id}: {field}");
        }
        assert_eq!(loaded["resigned"], game["resigned"], "{id}");
        assert_eq!(loaded["stopped"], false, "{id}");
    }

    // Nim 3 4 5 after 1:1 and 2:0: X moves with the token the old server gave.
    let game = &expected[0];
    assert_eq!(game["id"], "bc5a41ef46555d1c");
    let (status, moved) = server.post(
        "/api/games/bc5a41ef46555d1c/moves",
        json!({"move": "3:1", "token": game["tokens"]["X"]}),
    );
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["moves"], json!(["1:1", "2:0", "3:1"]));
    let committed = Store::open(dir.path())
        .unwrap()
        .load("bc5a41ef46555d1c")
        .unwrap()
        .expect("the game is saved");
    assert_eq!(committed.record.moves, ["1:1", "2:0", "3:1"]);

    // Games saved before owner tokens have none: nobody can stop or delete them.
    for token in ["", "anything"] {
        let (status, _) = server.post(
            "/api/games/bc5a41ef46555d1c/stop",
            json!({ "token": token }),
        );
        assert_eq!(status, 403);
    }
    let (_, list) = server.get("/api/games");
    assert_eq!(
        list["total"],
        expected.len() + 1,
        "one more game with no moves"
    );
}
