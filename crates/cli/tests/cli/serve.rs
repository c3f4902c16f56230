//! `crosscap serve` as a process: games survive a restart and a SIGKILL.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running `crosscap serve`, killed (SIGKILL) when dropped.
struct Served {
    child: Child,
    base: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data_dir: &Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosscap"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut line)
        .expect("the server prints its address");
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    Served { child, base }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crosscap-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn call(method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    let request = ureq::request(method, url).timeout(Duration::from_secs(30));
    let result = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    };
    let response = match result {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(err) => panic!("{method} {url}: {err}"),
    };
    (
        response.status(),
        response.into_json().expect("a JSON body"),
    )
}

impl Served {
    fn get(&self, path: &str) -> Value {
        let (status, value) = call("GET", &format!("{}{path}", self.base), None);
        assert_eq!(status, 200, "{value}");
        value
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        call("POST", &format!("{}{path}", self.base), Some(body))
    }
}

#[test]
fn a_restarted_server_continues_the_game() {
    let dir = scratch("restart");
    let server = serve(&dir);
    let (status, game) = server.post(
        "/api/games",
        json!({ "game": "nim", "board": "3 4 5", "players": { "X": "human", "O": "human" } }),
    );
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap();
    for (mv, seat) in [("1:1", "X"), ("2:0", "O")] {
        let (status, answer) = server.post(
            &format!("/api/games/{id}/moves"),
            json!({ "move": mv, "token": game["tokens"][seat] }),
        );
        assert_eq!(status, 200, "{answer}");
    }
    drop(server);

    let server = serve(&dir);
    let again = server.get(&format!("/api/games/{id}"));
    assert_eq!(again["moves"], json!(["1:1", "2:0"]));
    assert_eq!(again["view"]["heaps"], json!([1, 0, 5]));
    assert_eq!(again["to_move"], "X");
    let (status, answer) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": "3:1", "token": game["tokens"]["X"] }),
    );
    assert_eq!(status, 200, "the seats' tokens survive too: {answer}");
    let listed = server.get("/api/games");
    assert_eq!(listed["games"][0]["id"], id);
    assert!(
        dir.join("crosscap.sqlite3-wal").exists(),
        "the database is in WAL mode"
    );
}

#[test]
fn sigkill_mid_game_loses_no_committed_move() {
    let dir = scratch("sigkill");
    let server = serve(&dir);
    // Two computers play; each move is committed before the next begins.
    let (status, game) = server.post(
        "/api/games",
        json!({ "game": "nim", "board": "20 21 22 23 24", "seed": 5,
                "players": { "X": "ai:mcts:3000", "O": "ai:mcts:3000" } }),
    );
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap();
    let started = Instant::now();
    let mut seen = server.get(&format!("/api/games/{id}"));
    while seen["moves"].as_array().unwrap().len() < 3 {
        assert!(started.elapsed() < Duration::from_secs(20), "{seen}");
        let version = seen["version"].as_u64().unwrap();
        seen = server.get(&format!("/api/games/{id}?wait={version}"));
    }
    assert_eq!(seen["status"], "playing", "killed mid-game");
    drop(server); // SIGKILL, whatever it was doing

    let server = serve(&dir);
    let after = server.get(&format!("/api/games/{id}"));
    let before = seen["moves"].as_array().unwrap();
    let now = after["moves"].as_array().unwrap();
    assert!(now.len() >= before.len(), "{after}");
    assert_eq!(
        &now[..before.len()],
        &before[..],
        "every answered move is kept"
    );

    // The restarted server resumes the computers' game and finishes it.
    let started = Instant::now();
    let mut state = after;
    while state["status"] != "over" {
        assert!(started.elapsed() < Duration::from_secs(30), "{state}");
        let version = state["version"].as_u64().unwrap();
        state = server.get(&format!("/api/games/{id}?wait={version}"));
    }
    assert!(state["winner"].is_string());
}

#[test]
fn serve_refuses_a_bad_address() {
    crate::crosscap(&["serve", "--addr", "nowhere"]).assert_user_error("nowhere");
}
