//! The server is a generic host: it serves the catalog it is given and names no game. A
//! new game touches its crate, one line of the catalog and its drawing module, never the
//! server's code or dependencies.

mod common;

use std::path::Path;

use crosscap_engine::catalog::Catalog;
use crosscap_server::Limits;
use serde_json::json;

/// The crates of the workspace that are games, boards or the list of them: every crate
/// but the engine, the hosts and the test helpers.
fn game_crates() -> Vec<String> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut names: Vec<String> = std::fs::read_dir(&crates)
        .expect("the workspace's crates")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| !["engine", "server", "cli", "testkit"].contains(&name.as_str()))
        .collect();
    names.sort();
    assert!(
        names.len() >= 8,
        "the games, topology, graphs, catalog: {names:?}"
    );
    names
}

fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn the_server_names_no_game_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the manifest");
    let dependencies = manifest
        .split("[dev-dependencies]")
        .next()
        .expect("a manifest");
    let mut sources = Vec::new();
    rust_files(&root.join("src"), &mut sources);
    for game in game_crates() {
        let package = format!("crosscap-{game}");
        assert!(
            !dependencies.contains(&package),
            "the server depends on {package}"
        );
        let identifier = format!("crosscap_{}", game.replace('-', "_"));
        for file in &sources {
            let text = std::fs::read_to_string(file).expect("a source file");
            assert!(
                !text.contains(&identifier),
                "{} names {identifier}",
                file.display()
            );
        }
    }
}

/// Take-away, which no host names, served beside the standard games: created, played by
/// a person and the computer, hinted, listed, and its options checked by the game.
#[test]
fn a_game_the_server_does_not_name_is_served_through_the_catalog() {
    let mut games: Vec<_> = crosscap_catalog::standard().games().collect();
    games.push(&crosscap_take_away::TAKE_AWAY);
    let server = common::start_serving(Catalog::new(games), Limits::default());
    let (status, catalog) = server.get("/api/catalog");
    assert_eq!(status, 200);
    assert!(
        catalog.to_string().contains("\"take-away\""),
        "listed: {catalog}"
    );
    let game = server.create(json!({
        "game": "take-away", "board": "7", "options": { "most": "3" },
        "players": { "X": "human", "O": "ai:perfect" }
    }));
    assert_eq!(game["legal_moves"], json!(["1", "2", "3"]), "{game}");
    let id = game["id"].as_str().unwrap();
    let (status, hint) = server.get(&format!("/api/games/{id}/hint?level=perfect"));
    assert_eq!((status, hint["move"].clone()), (200, json!("3")), "{hint}");
    assert_eq!(
        (&hint["proven"], &hint["result"]),
        (&json!(true), &json!("win")),
        "the engine's solver proved it: {hint}"
    );
    // X takes 3 of 7, leaving 4 = 0 mod 4: the perfect computer cannot answer well, and X
    // takes what is left after its move.
    let after = server.play(&game, "3");
    assert_eq!(after["moves"].as_array().map(Vec::len), Some(2), "{after}");
    let left = after["view"]["pile"].as_u64().expect("the pile");
    let over = server.play(&game, &left.to_string());
    assert_eq!(over["winner"], "X", "{over}");
}

#[test]
fn every_game_refuses_an_unknown_option_through_the_api() {
    let mut games: Vec<_> = crosscap_catalog::standard().games().collect();
    games.push(&crosscap_take_away::TAKE_AWAY);
    let server = common::start_serving(Catalog::new(games.clone()), Limits::default());
    for game in games {
        let (status, answer) = server.post(
            "/api/games",
            json!({
                "game": game.info.name, "board": game.info.default_board,
                "options": { "bogus": 1 },
                "players": { "X": "human", "O": "human" }
            }),
        );
        assert_eq!(status, 400, "{}: {answer}", game.info.name);
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains("bogus"), "{}: {error}", game.info.name);
    }
}
