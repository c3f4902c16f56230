//! `crosscap serve` as a process: games survive a restart and a SIGKILL.

use std::io::{BufRead, BufReader};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;

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
    serve_with(data_dir, &[])
}

/// A server with more flags; its log (stderr) goes to `serve.log` beside the data
/// directory.
fn serve_with(data_dir: &Path, flags: &[&str]) -> Served {
    std::fs::create_dir_all(data_dir).expect("a data directory");
    let log = std::fs::File::create(log_path(data_dir)).expect("a log file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosscap"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(log)
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

fn log_path(data_dir: &Path) -> PathBuf {
    data_dir.with_extension("log")
}

/// A data directory not made yet, inside a temporary directory that is removed with
/// everything in it (the log too) when dropped.
struct Scratch {
    _root: TempDir,
    data: PathBuf,
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.data
    }
}

fn scratch(name: &str) -> Scratch {
    let root = tempfile::Builder::new()
        .prefix(&format!("crosscap-cli-{name}-"))
        .tempdir()
        .expect("a temporary directory");
    let data = root.path().join("data");
    Scratch { _root: root, data }
}

fn call(method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    call_as(method, url, body, None)
}

/// A request with this Host header (or ureq's own).
fn call_as(method: &str, url: &str, body: Option<Value>, host: Option<&str>) -> (u16, Value) {
    let mut request = ureq::request(method, url).timeout(Duration::from_secs(30));
    if let Some(host) = host {
        request = request.set("Host", host);
    }
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

    /// Follows a game until it has more than `moves` moves.
    fn until_moves(&self, id: &str, moves: usize, deadline: Duration) -> Value {
        let started = Instant::now();
        let mut seen = self.get(&format!("/api/games/{id}"));
        while seen["moves"].as_array().unwrap().len() <= moves {
            assert!(started.elapsed() < deadline, "{}", seen["moves"]);
            let version = seen["version"].as_u64().unwrap();
            seen = self.get(&format!("/api/games/{id}?wait={version}"));
        }
        seen
    }
}

const GIB: u64 = 1 << 30;

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
    let seen = server.until_moves(id, 2, Duration::from_secs(20));
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
fn the_largest_board_between_two_computers_survives_kills_within_its_limits() {
    // Projective Hex on taylor:40 (4,800 cells), ai:hard against ai:hard: each search
    // within 1 s and 32 MiB here. The game resumes after a SIGKILL and the server stays
    // small; before, such a game grew without bound and took the server down at every start.
    let dir = scratch("taylor40");
    let flags = ["--max-think", "1", "--max-search-mib", "32"];
    let server = serve_with(&dir, &flags);
    let (status, game) = server.post(
        "/api/games",
        json!({ "game": "projective-hex", "board": "taylor:40", "seed": 3,
                "players": { "X": "ai:hard", "O": "ai:hard" } }),
    );
    assert_eq!(status, 201, "{}", game["error"]);
    let id = game["id"].as_str().unwrap();
    let seen = server.until_moves(id, 1, Duration::from_secs(30));
    let status = server.get("/api/status");
    assert!(status["resident_bytes"].as_u64().unwrap() < GIB, "{status}");
    drop(server); // SIGKILL mid-game

    let server = serve_with(&dir, &flags);
    let status = server.get("/api/status");
    assert!(status["resident_bytes"].as_u64().unwrap() < GIB, "{status}");
    let before = seen["moves"].as_array().unwrap().len();
    let resumed = server.until_moves(id, before, Duration::from_secs(30));
    assert_eq!(resumed["status"], "playing");
    let status = server.get("/api/status");
    assert!(status["resident_bytes"].as_u64().unwrap() < GIB, "{status}");
}

#[test]
fn ctrl_c_stops_the_computers_and_the_waits_at_once() {
    // A computer thinking for up to 60 s and a follower waiting up to 25 s: on Ctrl-C the
    // search is cancelled and the wait ends, so the server exits well before either.
    let dir = scratch("interrupt");
    let mut server = serve(&dir);
    let (status, game) = server.post(
        "/api/games",
        json!({ "game": "projective-hex", "board": "taylor:8", "seed": 4,
                "players": { "X": "ai:mcts:1000000", "O": "ai:mcts:1000000" } }),
    );
    assert_eq!(status, 201, "{game}");
    let follow = format!(
        "{}/api/games/{}?wait=999",
        server.base,
        game["id"].as_str().unwrap()
    );
    let follower = std::thread::spawn(move || call("GET", &follow, None).0);
    std::thread::sleep(Duration::from_millis(300));
    let interrupted = Command::new("kill")
        .args(["-INT", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    let started = Instant::now();
    let exit = loop {
        if let Some(exit) = server.child.try_wait().expect("the server is ours") {
            break exit;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "the server is still running"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit}");
    assert_eq!(follower.join().unwrap(), 200, "the follower is answered");
}

#[test]
fn a_second_server_on_the_same_directory_exits_2_naming_it() {
    let dir = scratch("locked");
    let _first = serve(&dir);
    let second = crate::crosscap(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--data-dir",
        dir.to_str().unwrap(),
    ]);
    second.assert_user_error(dir.to_str().unwrap());
    assert_eq!(second.stderr.lines().count(), 1, "{}", second.stderr);
}

#[test]
fn allowed_hosts_are_answered_and_requests_are_logged_without_tokens() {
    let dir = scratch("hosts");
    let server = serve_with(&dir, &["--allowed-host", "games.example.org"]);
    let catalog = format!("{}/api/catalog", server.base);
    assert_eq!(
        call_as("GET", &catalog, None, Some("games.example.org")).0,
        200
    );
    assert_eq!(
        call_as("GET", &catalog, None, None).0,
        200,
        "loopback names too"
    );
    let (status, answer) = call_as("GET", &catalog, None, Some("evil.example"));
    assert_eq!(status, 421, "{answer}");
    let (status, game) = server.post("/api/games", json!({ "game": "nim", "board": "1 2" }));
    assert_eq!(status, 201);
    let token = game["tokens"]["X"].as_str().unwrap();
    let id = game["id"].as_str().unwrap();
    let (status, _) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": "2:0", "token": token }),
    );
    assert_eq!(status, 200);
    drop(server);
    let log = std::fs::read_to_string(log_path(&dir)).unwrap();
    assert!(log.contains("GET /api/catalog 421"), "{log}");
    assert!(
        log.contains(&format!("POST /api/games/{id}/moves 200")),
        "{log}"
    );
    assert!(!log.contains(token), "{log}");
}

#[test]
fn serve_refuses_a_bad_address() {
    crate::crosscap(&["serve", "--addr", "nowhere"]).assert_user_error("nowhere");
}

/// The system's reason a port cannot be listened on is said once, not again as the cause
/// of the message that already words it.
#[test]
fn serve_on_a_busy_port_says_why_once() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = busy.local_addr().expect("its address").to_string();
    let data_dir = TempDir::new().expect("a temporary directory");
    let data_dir = data_dir.path().to_str().expect("a UTF-8 path");
    let run = crate::crosscap(&["serve", "--addr", &addr, "--data-dir", data_dir]);
    run.assert_user_error(&format!("cannot listen on {addr}"));
    assert_eq!(run.stderr.matches("(os error").count(), 1, "{}", run.stderr);
}
