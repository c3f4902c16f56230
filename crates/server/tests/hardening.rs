//! Regressions of issue 18 on an in-process server: requests that exhausted or wedged the
//! server, searches nobody waited for, games and boards that stayed in memory, owner
//! tokens, rate limits, Host names, headers and error messages. Limits are set small so
//! that each test takes a second or two.

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{TestServer, call, start, start_over};
use crosscap_server::{Limits, Store};
use serde_json::{Value, json};

/// Limits for tests that wait on searches: short waits, no rate limits.
fn quick() -> Limits {
    Limits {
        answer_wait: Duration::from_millis(800),
        computing_at_once: 2,
        create_burst: 0,
        hint_burst: 0,
        ..Limits::default()
    }
}

/// Polls the status until `done` holds of it (or fails after 10 s).
fn status_until(server: &TestServer, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (_, status) = server.get("/api/status");
        if done(&status) {
            return status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{what}: {status}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Reads `stream` until the server closes it (or fails after 5 s): how long that took.
fn closed_by_the_server(mut stream: TcpStream) -> Duration {
    let started = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut buffer = [0u8; 1024];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return started.elapsed(),
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return started.elapsed(),
            Err(e) => panic!("the server kept the connection open: {e}"),
        }
    }
}

/// Connections that send half a request head, or nothing, are closed after
/// `request_wait`; past the limit per address a new one is closed at once; once they are
/// gone, the server answers that address again.
#[test]
fn idle_and_surplus_connections_are_closed() {
    let server = start(Limits {
        max_connections_per_address: 3,
        request_wait: Duration::from_millis(500),
        ..Limits::default()
    });
    let address = server.base.trim_start_matches("http://").to_string();
    let mut stalled: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut stream = TcpStream::connect(&address).unwrap();
            stream
                .write_all(b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n")
                .unwrap();
            stream
        })
        .collect();
    stalled.push(TcpStream::connect(&address).unwrap());
    let surplus = TcpStream::connect(&address).unwrap();
    assert!(closed_by_the_server(surplus) < Duration::from_millis(400));
    for stream in stalled {
        let waited = closed_by_the_server(stream);
        assert!(waited < Duration::from_secs(3), "closed after {waited:?}");
    }
    let (status, _) = server.get("/api/status");
    assert_eq!(status, 200);
}

/// A request whose body comes a byte at a time is answered 408 once `request_wait` has
/// passed since its head, and its connection is closed: it held the connection for as
/// long as it kept sending.
#[test]
fn a_body_sent_a_byte_at_a_time_is_cut_off() {
    let server = start(Limits {
        request_wait: Duration::from_millis(500),
        ..Limits::default()
    });
    let address = server.base.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&address).unwrap();
    stream
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: localhost\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 1024];
    while started.elapsed() < Duration::from_secs(5) {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(_) => {
                // Still waiting: one more byte of the body, if the server still reads.
                let _ = stream.write_all(b" ");
            }
        }
    }
    let waited = started.elapsed();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains(r#"{"error":"the request body did not arrive within 0.5 s"}"#),
        "{answer}"
    );
    assert!(waited < Duration::from_secs(2), "cut off after {waited:?}");
    let (status, _) = server.get("/api/status");
    assert_eq!(status, 200);
}

/// Answers their client does not read are given up once `send_wait` has passed without
/// the client taking more, and the connection is closed: they held their buffers and
/// their connection for as long as the client kept the connection open. (Eight answers
/// of a megabyte are asked for at once, more than the kernel's buffers take in; the client
/// waits ten times the send wait, so that a loaded machine has filled the buffers by then.)
#[test]
fn answers_nobody_reads_are_given_up() {
    let server = start(Limits {
        send_wait: Duration::from_millis(300),
        ..quick()
    });
    let (status, game) = server.post(
        "/api/games",
        json!({"game": "euler-getter", "board": "goldberg:12"}),
    );
    assert_eq!(status, 201, "{game}");
    let (_, view) = server.get(&format!("/api/games/{}", game["id"].as_str().unwrap()));
    let answer_bytes = view.to_string().len();
    let address = server.base.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&address).unwrap();
    let request = format!(
        "GET /api/games/{} HTTP/1.1\r\nHost: localhost\r\n\r\n",
        game["id"].as_str().unwrap()
    );
    let asked = 8;
    stream.write_all(request.repeat(asked).as_bytes()).unwrap();
    std::thread::sleep(Duration::from_secs(3));
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut received = 0;
    let mut buffer = [0u8; 64 * 1024];
    // Until the server closes the connection or (without the limit) has sent every answer.
    while let Ok(n @ 1..) = stream.read(&mut buffer) {
        received += n;
    }
    assert!(
        received < asked * answer_bytes,
        "every answer waited for its reader: {received} bytes"
    );
    let (status, _) = server.get("/api/status");
    assert_eq!(status, 200);
}

/// A page following a game hears when the computer stops thinking, as it hears a move:
/// the end of thinking is a new version. (It was not: a follower of a snapshot taken
/// between the computer's move and the end of its thinking waited out the whole wait,
/// and the page stayed on "the computer is thinking".)
#[test]
fn followers_hear_when_the_computer_stops_thinking() {
    let server = start(Limits {
        answer_wait: Duration::ZERO,
        follow_wait: Duration::from_secs(3),
        ..quick()
    });
    for _ in 0..10 {
        let (_, game) = server.post(
            "/api/games",
            json!({"game": "nim", "board": "3 4 5",
                   "players": {"X": "ai:random", "O": "human"}}),
        );
        let id = game["id"].as_str().unwrap().to_string();
        let mut seen = game;
        while seen["thinking"] == true {
            let started = Instant::now();
            let (_, next) = server.get(&format!("/api/games/{id}?wait={}", seen["version"]));
            assert!(
                started.elapsed() < Duration::from_secs(2),
                "a follower waited the whole wait: {next}"
            );
            seen = next;
        }
        assert_eq!(seen["moves"].as_array().unwrap().len(), 1, "{seen}");
    }
}

/// A game's estimated memory counts the view it keeps for its answers, most of a large
/// board's (the cap on games in memory went by a tenth of their size).
#[test]
fn a_games_kept_view_counts_towards_the_memory_cap() {
    let server = start(quick());
    let (_, game) = server.post(
        "/api/games",
        json!({"game": "sandpile", "board": "grid:40x40"}),
    );
    let view = game["view"].to_string().len();
    let (_, status) = server.get("/api/status");
    let counted = status["games_bytes"].as_u64().unwrap() as usize;
    assert!(
        counted > view,
        "{counted} bytes counted, the view alone {view}"
    );
}

/// A move racing its game's deletion is played before it or refused as the game gone,
/// never answered as a database failure (the move was written to a deleted record).
#[test]
fn a_move_racing_the_deletion_of_its_game_is_refused_cleanly() {
    let server = start(quick());
    for _ in 0..60 {
        let (_, game) = server.post("/api/games", json!({"game": "nim", "board": "3 4 5"}));
        let url = server.url(&format!("/api/games/{}", game["id"].as_str().unwrap()));
        let tokens = &game["tokens"];
        let mover = {
            let url = format!("{url}/moves");
            let body = json!({"move": game["legal_moves"][0], "token": tokens["X"]});
            std::thread::spawn(move || call("POST", &url, Some(body)))
        };
        let (deleted, answer) = call("DELETE", &url, Some(json!({"token": tokens["owner"]})));
        assert_eq!(deleted, 200, "{answer}");
        let (moved, answer) = mover.join().unwrap();
        assert!(matches!(moved, 200 | 404 | 409), "{moved}: {answer}");
    }
}

/// A board too large to draw is refused by the preview as by a new game (the preview
/// answered megabytes on a board whose game was refused).
#[test]
fn the_preview_refuses_a_board_too_large_to_draw() {
    let server = start(Limits {
        max_view_bytes: 20_000,
        ..quick()
    });
    let (status, answer) = server.get("/api/board?game=projective-hex&board=taylor:8");
    assert_eq!(status, 413, "{answer}");
    assert_eq!(answer["error"], "the board is too large to draw");
    let (status, _) = server.post(
        "/api/games",
        json!({"game": "projective-hex", "board": "taylor:8"}),
    );
    assert_eq!(status, 413);
    let (status, answer) = server.get("/api/board?game=projective-hex&board=taylor:2");
    assert_eq!(status, 200, "{answer}");
}

/// Games the computer plays on both sides, which anyone may start and which may think
/// for hours, take at most half the computing places: a person who then starts a game
/// against the computer is answered, and the computer moves. (Two such games held both
/// places of a two-core server, and every other game got "the server is busy".)
#[test]
fn computer_against_computer_games_leave_places_for_people() {
    let server = start(quick());
    let unattended: Vec<Value> = (0..2)
        .map(|_| {
            server.create(json!({"game": "projective-hex", "board": "taylor:4",
                "players": {"X": "ai:mcts:30000ms", "O": "ai:mcts:30000ms"}}))
        })
        .collect();
    let game = server.create(json!({"game": "nim", "board": "3 4 5",
        "players": {"X": "ai:random", "O": "human"}}));
    server.until_moves(game["id"].as_str().unwrap(), 1, Duration::from_secs(5));
    for game in &unattended {
        let id = game["id"].as_str().unwrap();
        let (status, answer) = server.post(
            &format!("/api/games/{id}/stop"),
            json!({"token": game["tokens"]["owner"]}),
        );
        assert_eq!(status, 200, "{answer}");
    }
    status_until(&server, "the searches stop", |s| s["searches_running"] == 0);
}

#[test]
fn oversized_boards_are_refused_before_any_work() {
    let server = start(quick());
    for body in [
        json!({"game": "edge-nim", "board": "star:99999"}),
        json!({"game": "edge-nim", "board": "complete:1414"}),
        json!({"game": "edge-nim", "board": "P2", "options": {"tokens": "4294967295"}}),
        json!({"game": "sandpile", "board": "K65536,2"}),
    ] {
        let (status, answer) = server.post("/api/games", body.clone());
        assert!((400..500).contains(&status), "{body}: {status} {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    let (status, _) = server.get("/api/status");
    assert_eq!(status, 200, "the server is still up");
}

/// Hints that spend their whole time answer before the wait and free their places.
#[test]
fn hints_that_spend_their_time_stop_and_free_their_places() {
    let server = start(quick());
    // Far beyond the perfect solver in 0.6 s, and its fallback's playouts are short
    // enough (its clock binds between two playouts) to stop in time.
    let game = server.create(json!({"game": "sandpile", "board": "path:1000"}));
    let id = game["id"].as_str().unwrap().to_string();
    let hints: Vec<_> = (0..2)
        .map(|_| {
            let url = server.url(&format!("/api/games/{id}/hint?level=perfect"));
            std::thread::spawn(move || call("GET", &url, None))
        })
        .collect();
    for hint in hints {
        let (status, answer) = hint.join().unwrap();
        assert_eq!(
            (status, &answer["proven"]),
            (200, &json!(false)),
            "{answer}"
        );
    }
    // Both places are free again at once: a computer game starts.
    let computer = server.create(json!({
        "game": "nim", "board": "3 4 5", "players": {"X": "ai:random", "O": "human"}
    }));
    server.until_moves(computer["id"].as_str().unwrap(), 1, Duration::from_secs(5));
    status_until(&server, "the searches stop", |s| s["searches_running"] == 0);
}

/// A hint gets three quarters of the answer wait, and a perfect player keeps its
/// fallback's time within it: beyond the solver's reach (taylor:4) the solver level
/// answers the fallback's move, said to be unproven, rather than a timeout (its solver's
/// own 20 s had made every such hint a 408 at the default wait of 20 s).
#[test]
fn a_perfect_hint_beyond_the_solver_answers_within_the_wait() {
    let server = start(Limits {
        answer_wait: Duration::from_secs(4),
        ..quick()
    });
    let game = server.create(json!({"game": "projective-hex", "board": "taylor:4"}));
    let id = game["id"].as_str().unwrap();
    let asked = Instant::now();
    let (status, hint) = server.get(&format!("/api/games/{id}/hint?level=perfect"));
    assert_eq!(status, 200, "{hint}");
    assert!(
        asked.elapsed() < Duration::from_secs(4),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(
        (&hint["proven"], &hint["result"]),
        (&json!(false), &Value::Null)
    );
    let legal = game["legal_moves"].as_array().unwrap();
    assert!(legal.contains(&hint["move"]), "{hint}");
}

/// A solve gets three quarters of the answer wait: beyond it the answer is `unknown`
/// with what was searched, not a timeout, and the search stops.
#[test]
fn a_solve_beyond_the_wait_answers_unknown() {
    let server = start(quick());
    let game = server.create(json!({"game": "euler-getter", "board": "goldberg:3"}));
    let id = game["id"].as_str().unwrap();
    let (status, answer) = server.get(&format!("/api/games/{id}/solve"));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (&answer["status"], &answer["reason"]),
        (&json!("unknown"), &json!("time")),
        "{answer}"
    );
    assert!(answer["nodes"].as_u64().unwrap() > 0, "{answer}");
    status_until(&server, "the solve stops", |s| s["searches_running"] == 0);
}

#[test]
fn a_client_that_hangs_up_stops_its_hint_or_solve() {
    let server = start(Limits {
        answer_wait: Duration::from_secs(60),
        ..quick()
    });
    let game = server.create(json!({"game": "sandpile", "board": "path:1000"}));
    let id = game["id"].as_str().unwrap();
    for asked in ["hint?level=perfect", "solve"] {
        let gone = ureq::get(&server.url(&format!("/api/games/{id}/{asked}")))
            .timeout(Duration::from_millis(300))
            .call();
        assert!(gone.is_err(), "{asked}: the client gives up first");
        status_until(&server, "the search stops with its request", |s| {
            s["searches_running"] == 0
        });
    }
}

#[test]
fn the_owner_stops_and_deletes_a_computer_game() {
    let server = start(Limits {
        max_think: Duration::from_secs(30),
        ..quick()
    });
    let game = server.create(json!({
        "game": "projective-hex", "board": "taylor:8", "seed": 1,
        "players": {"X": "ai:mcts:1000000", "O": "ai:mcts:1000000"}
    }));
    let id = game["id"].as_str().unwrap();
    let owner = game["tokens"]["owner"].as_str().expect("an owner token");
    assert_eq!(owner.len(), 32);
    status_until(&server, "the computer thinks", |s| {
        s["searches_running"] == 1
    });

    let (status, _) = server.post(&format!("/api/games/{id}/stop"), json!({"token": "nope"}));
    assert_eq!(status, 403);
    let (status, stopped) = server.post(&format!("/api/games/{id}/stop"), json!({"token": owner}));
    assert_eq!(status, 200, "{stopped}");
    assert_eq!(stopped["status"], "over");
    assert_eq!(stopped["stopped"], true);
    assert_eq!(stopped["thinking"], false);
    assert_eq!(stopped["winner"], Value::Null);
    status_until(&server, "the search stops", |s| s["searches_running"] == 0);
    let (_, later) = server.get(&format!("/api/games/{id}"));
    assert_eq!(later["moves"], stopped["moves"], "no move after the stop");

    let (status, _) = server.delete(&format!("/api/games/{id}"), json!({"token": "nope"}));
    assert_eq!(status, 403);
    let (status, answer) = server.delete(&format!("/api/games/{id}"), json!({"token": owner}));
    assert_eq!(status, 200, "{answer}");
    let (status, _) = server.get(&format!("/api/games/{id}"));
    assert_eq!(status, 404);
    let (_, list) = server.get("/api/games");
    assert_eq!(list["total"], 0);
}

#[test]
fn deleting_a_thinking_game_stops_its_computer() {
    let server = start(Limits {
        max_think: Duration::from_secs(30),
        ..quick()
    });
    let game = server.create(json!({
        "game": "projective-hex", "board": "taylor:8", "seed": 2,
        "players": {"X": "ai:mcts:1000000", "O": "ai:mcts:1000000"}
    }));
    let id = game["id"].as_str().unwrap();
    status_until(&server, "the computer thinks", |s| {
        s["searches_running"] == 1
    });
    let (status, _) = server.delete(
        &format!("/api/games/{id}"),
        json!({"token": game["tokens"]["owner"]}),
    );
    assert_eq!(status, 200);
    status_until(&server, "the search stops", |s| {
        s["searches_running"] == 0 && s["games_in_memory"] == 0
    });
}

#[test]
fn undo_and_resignation_stop_a_thinking_computer() {
    let server = start(Limits {
        max_think: Duration::from_secs(30),
        ..quick()
    });
    for action in ["undo", "resign"] {
        let game = server.create(json!({
            "game": "projective-hex", "board": "taylor:8", "seed": 3,
            "players": {"X": "human", "O": "ai:mcts:1000000"}
        }));
        let id = game["id"].as_str().unwrap();
        let thinking = server.play(&game, "a1");
        assert_eq!(
            thinking["thinking"], true,
            "{action}: the reply takes longer"
        );
        let (status, after) = server.post(
            &format!("/api/games/{id}/{action}"),
            json!({"token": game["tokens"]["X"]}),
        );
        assert_eq!(status, 200, "{action}: {after}");
        assert_eq!(after["thinking"], false, "{action}");
        if action == "undo" {
            assert_eq!(after["moves"], json!([]), "X's move is taken back");
        }
        status_until(&server, action, |s| s["searches_running"] == 0);
        let (_, later) = server.get(&format!("/api/games/{id}"));
        assert_eq!(
            later["moves"], after["moves"],
            "{action}: no reply after it"
        );
    }
}

#[test]
fn idle_games_leave_memory_and_come_back() {
    let server = start(Limits {
        max_games_bytes: 16 * 1024,
        ..quick()
    });
    let games: Vec<Value> = (0..40)
        .map(|i| {
            let game = server.create(json!({"game": "nim", "board": format!("{} 4 5", i % 9 + 1)}));
            server.play(&game, "3:0");
            game
        })
        .collect();
    let (_, status) = server.get("/api/status");
    let in_memory = status["games_in_memory"].as_u64().unwrap();
    assert!(in_memory < 40, "{status}");
    assert!(
        status["games_bytes"].as_u64().unwrap() <= 64 * 1024,
        "{status}"
    );
    for game in &games {
        let (status, again) = server.get(&format!("/api/games/{}", game["id"].as_str().unwrap()));
        assert_eq!(status, 200);
        assert_eq!(again["moves"], json!(["3:0"]));
    }
    // A game reloaded from the database still takes its seats' moves.
    let reloaded = server.play(&games[0], "2:0");
    assert_eq!(reloaded["moves"], json!(["3:0", "2:0"]));
}

#[test]
fn games_on_one_board_share_its_start() {
    let server = start(quick());
    for _ in 0..5 {
        server.create(json!({"game": "projective-hex", "board": "taylor:6"}));
    }
    server.create(json!({"game": "projective-hex", "board": "taylor:5"}));
    let (_, status) = server.get("/api/status");
    assert_eq!(status["starts_in_memory"], 2, "{status}");
    assert_eq!(status["games_in_memory"], 6, "{status}");
}

#[test]
fn pasted_boards_are_never_written_to_disk() {
    let dir = common::scratch_dir("pasted");
    let server = start_over(Store::open(dir.path()).unwrap(), quick(), &[], false);
    let n3 = include_str!("../../euler-getter/boards/n3.json");
    let game = server.create(json!({"game": "euler-getter", "board": n3}));
    assert!(game["layout"]["cells"].is_array(), "{game}");
    let (status, answer) = server.post(
        "/api/games",
        json!({"game": "euler-getter", "board": "{\"faces\": [[0, 1, 2]]}"}),
    );
    assert_eq!(status, 400, "{answer}");
    let files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        files.iter().all(|f| f.starts_with("crosscap.sqlite3")),
        "only the database: {files:?}"
    );
}

#[test]
fn rate_limits_per_address_answer_429_with_json() {
    let server = start(Limits {
        create_burst: 3,
        create_period: Duration::from_secs(3600),
        hint_burst: 2,
        hint_period: Duration::from_secs(3600),
        ..quick()
    });
    let body = json!({"game": "nim", "board": "1 2"});
    for _ in 0..3 {
        server.create(body.clone());
    }
    let (status, answer) = server.post("/api/games", body.clone());
    assert_eq!(status, 429, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("too many games"),
        "{answer}"
    );
    let (status, _) = server.post("/api/games/import", json!({"game": "nim", "board": "1"}));
    assert_eq!(status, 429, "imports count as creations");

    let (_, list) = server.get("/api/games");
    let id = list["games"][0]["id"].as_str().unwrap();
    for _ in 0..2 {
        let (status, answer) = server.get(&format!("/api/games/{id}/hint"));
        assert_eq!(status, 200, "{answer}");
    }
    let (status, answer) = server.get(&format!("/api/games/{id}/hint"));
    assert_eq!(status, 429, "{answer}");
    let (status, _) = server.get(&format!("/api/games/{id}"));
    assert_eq!(status, 200, "other requests are not limited");
}

/// A GET with this Host header: the status and the body.
fn get_as(server: &TestServer, host: &str, path: &str) -> (u16, Value) {
    let result = ureq::get(&server.url(path)).set("Host", host).call();
    let response = match result {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(err) => panic!("{err}"),
    };
    let status = response.status();
    let text = response.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

#[test]
fn a_loopback_server_answers_loopback_host_names_only() {
    let server = start(quick());
    let port = server.base.rsplit(':').next().unwrap().to_string();
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(get_as(&server, &host, "/api/catalog").0, 200, "{host}");
    }
    for host in [
        format!("evil.example:{port}"),
        "rebound.example".to_string(),
    ] {
        let (status, answer) = get_as(&server, &host, "/api/catalog");
        assert_eq!(status, 421, "{host}");
        assert!(
            answer["error"].as_str().unwrap().contains("host"),
            "{answer}"
        );
        assert_eq!(get_as(&server, &host, "/").0, 421, "the page too");
    }
}

#[test]
fn a_network_server_answers_its_allowed_hosts_or_any() {
    // The README's remote play: `serve --addr 0.0.0.0:8080`, a friend opens the
    // invitation link by the machine's address on the network.
    let open = start_over(Store::in_memory().unwrap(), quick(), &[], true);
    assert_eq!(get_as(&open, "192.168.1.20:8080", "/api/catalog").0, 200);
    let named = start_over(
        Store::in_memory().unwrap(),
        quick(),
        &["games.example.org".to_string()],
        true,
    );
    assert_eq!(get_as(&named, "games.example.org", "/api/catalog").0, 200);
    assert_eq!(get_as(&named, "192.168.1.20:8080", "/api/catalog").0, 421);
}

#[test]
fn every_answer_carries_the_security_headers() {
    let server = start(quick());
    let port = server.base.rsplit(':').next().unwrap().to_string();
    let hosts = [format!("127.0.0.1:{port}"), "evil.example".to_string()];
    for (host, path) in [
        (&hosts[0], "/"),
        (&hosts[0], "/static/app.js"),
        (&hosts[0], "/api/catalog"),
        (&hosts[0], "/api/games/0000000000000000"),
        (&hosts[1], "/api/catalog"),
    ] {
        let response = match ureq::get(&server.url(path)).set("Host", host).call() {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(err) => panic!("{err}"),
        };
        let csp = response
            .header("content-security-policy")
            .unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(response.header("x-frame-options"), Some("DENY"));
        assert_eq!(response.header("referrer-policy"), Some("no-referrer"));
    }
    let icon = ureq::get(&server.url("/favicon.ico")).call().unwrap();
    assert_eq!(icon.content_type(), "image/svg+xml");
    assert!(icon.into_string().unwrap().starts_with("<svg"));
}

/// Pages and files that do not exist, and methods a page does not take, are answered
/// with a JSON error like the API's (they were empty or plain text).
/// Sends `head` (a request head, blank line included) on a fresh connection: the status
/// and the body the server answers before it closes the connection.
fn raw_answer(server: &TestServer, head: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(server.base.trim_start_matches("http://")).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    (status, body.to_string())
}

/// An address, a head or a count of header lines over the limits is answered 414 or 431
/// with a JSON error that names the limit (hyper alone answered with an empty body); a
/// head over hyper's own bound still gets its 431, and the server goes on.
#[test]
fn heads_over_the_limits_are_json_errors() {
    let limits = quick();
    let server = start(limits.clone());
    let get = |path: &str, headers: &str| {
        raw_answer(
            &server,
            &format!(
                "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{headers}\r\n"
            ),
        )
    };
    let long_address = format!("/api/catalog?q={}", "a".repeat(limits.max_address_bytes));
    let big_cookie = format!("Cookie: {}\r\n", "c".repeat(limits.max_head_bytes));
    let many_lines: String = (0..=limits.max_headers)
        .map(|line| format!("X-Line-{line}: {line}\r\n"))
        .collect();
    for (what, (status, body), expected_status, says) in [
        (
            "a long address",
            get(&long_address, ""),
            414,
            "the address is",
        ),
        (
            "a large head",
            get("/api/catalog", &big_cookie),
            431,
            "the request's head is",
        ),
        (
            "many header lines",
            get("/api/catalog", &many_lines),
            431,
            "header lines",
        ),
    ] {
        assert_eq!(status, expected_status, "{what}: {body}");
        let error: Value =
            serde_json::from_str(&body).unwrap_or_else(|_| panic!("{what}: {body:?}"));
        let message = error["error"].as_str().unwrap();
        assert!(message.contains(says), "{what}: {message}");
    }
    let huge_cookie = format!("Cookie: {}\r\n", "c".repeat(8 * limits.max_head_bytes));
    assert_eq!(
        get("/api/catalog", &huge_cookie).0,
        431,
        "past hyper's own bound"
    );
    assert_eq!(server.get("/api/catalog").0, 200);
}

#[test]
fn missing_pages_are_json_errors() {
    let server = start(quick());
    for (method, path, status, error) in [
        ("GET", "/nothing", 404, "no such page"),
        ("GET", "/static/nope.js", 404, "no such file"),
        ("POST", "/", 405, "this page is only read (GET)"),
    ] {
        let (got, answer) = call(method, &server.url(path), None);
        assert_eq!((got, &answer["error"]), (status, &json!(error)), "{path}");
    }
}

#[test]
fn errors_are_plain_sentences_on_one_line() {
    let dir = common::scratch_dir("errors");
    // Games leave memory as soon as they are idle: each request reads the database.
    let limits = Limits {
        max_games_bytes: 1,
        ..quick()
    };
    let server = start_over(Store::open(dir.path()).unwrap(), limits, &[], false);

    // Control characters in echoed input come back escaped.
    let (status, answer) = server.post(
        "/api/games",
        json!({"game": "edge-nim", "board": "C4\u{1b}[31m\nx"}),
    );
    assert_eq!(status, 400);
    let error = answer["error"].as_str().unwrap();
    assert!(!error.chars().any(char::is_control), "{error:?}");
    let game = server.create(json!({"game": "nim", "board": "1 2"}));
    let id = game["id"].as_str().unwrap();
    let (status, answer) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({"move": "\u{1b}[2J1:0\r", "token": game["tokens"]["X"]}),
    );
    assert_eq!(status, 400);
    assert!(
        !answer["error"]
            .as_str()
            .unwrap()
            .chars()
            .any(char::is_control),
        "{answer}"
    );

    // A damaged row answers a plain sentence: no database text, no path.
    let other = server.create(json!({"game": "nim", "board": "2 2"}));
    let damaged = other["id"].as_str().unwrap();
    let conn = rusqlite::Connection::open(dir.path().join("crosscap.sqlite3")).unwrap();
    conn.execute("UPDATE games SET players = 7 WHERE id = ?1", [damaged])
        .unwrap();
    server.create(json!({"game": "nim", "board": "3"})); // the damaged game leaves memory
    let (status, answer) = server.get(&format!("/api/games/{damaged}"));
    assert_eq!(status, 500, "{answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(error.contains("damaged"), "{error}");
    for leak in [
        "Invalid column",
        "database:",
        "sqlite",
        dir.path().to_str().unwrap(),
    ] {
        assert!(!error.contains(leak), "{error}");
    }
}

#[test]
fn no_undo_against_the_computer_once_the_game_is_over() {
    let server = start(quick());
    let game = server.create(json!({
        "game": "nim", "board": "1", "players": {"X": "human", "O": "ai:random"}
    }));
    let over = server.play(&game, "1:0");
    assert_eq!(over["status"], "over");
    let id = game["id"].as_str().unwrap();
    let (status, answer) = server.post(
        &format!("/api/games/{id}/undo"),
        json!({"token": game["tokens"]["X"]}),
    );
    assert_eq!(status, 409, "{answer}");
    let (_, after) = server.get(&format!("/api/games/{id}"));
    assert_eq!(after["moves"], json!(["1:0"]));
}

#[test]
fn the_listing_pages_and_the_status_counts() {
    let server = start(Limits {
        max_listed: 3,
        ..quick()
    });
    let ids: Vec<String> = ["1", "2", "3", "4", "5"]
        .iter()
        .map(|heaps| {
            let game = server.create(json!({"game": "nim", "board": heaps}));
            game["id"].as_str().unwrap().to_string()
        })
        .collect();
    let (_, first) = server.get("/api/games");
    assert_eq!(first["total"], 5);
    assert_eq!(
        first["games"].as_array().unwrap().len(),
        3,
        "max_listed bounds a page"
    );
    let (_, page) = server.get("/api/games?limit=2&offset=3");
    let boards: Vec<&str> = page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["board"].as_str().unwrap())
        .collect();
    assert_eq!(boards.len(), 2);
    let (_, all) = server.get("/api/games?limit=100&offset=0");
    assert_eq!(all["limit"], 3);
    let (status, _) = server.get("/api/games?limit=-1");
    assert_eq!(status, 400);
    // Only the games asked for by id (an unknown id is no error).
    let (status, some) = server.get(&format!(
        "/api/games?ids={},{},ffff0000ffff0000",
        ids[1], ids[3]
    ));
    assert_eq!(status, 200, "{some}");
    assert_eq!(some["total"], 2);
    let mut boards: Vec<&str> = some["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["board"].as_str().unwrap())
        .collect();
    boards.sort();
    assert_eq!(boards, ["2", "4"]);
    let (_, none) = server.get("/api/games?ids=");
    assert_eq!(none["total"], 0);
    // Only one game's games, alone or with ids; an unknown game is refused.
    server.create(json!({"game": "manifold", "board": "o1"}));
    let (_, nim) = server.get("/api/games?game=nim");
    assert_eq!(nim["total"], 5, "{nim}");
    let (_, manifold) = server.get("/api/games?game=manifold");
    assert_eq!(manifold["total"], 1, "{manifold}");
    assert_eq!(manifold["games"][0]["board"], "o1", "{manifold}");
    let (_, both) = server.get(&format!("/api/games?game=manifold&ids={}", ids[1]));
    assert_eq!(both["total"], 0, "{both}");
    let (_, both) = server.get(&format!("/api/games?game=nim&ids={}", ids[1]));
    assert_eq!(both["total"], 1, "{both}");
    for bad in ["chess", "nim'%20OR%201=1"] {
        let (status, answer) = server.get(&format!("/api/games?game={bad}"));
        assert_eq!(status, 400, "{bad}: {answer}");
    }
    for bad in ["a,b,c,d", "x'%20OR%201=1", &"a".repeat(65)] {
        let (status, answer) = server.get(&format!("/api/games?ids={bad}"));
        assert_eq!(status, 400, "{bad}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().starts_with("ids: "),
            "{answer}"
        );
    }
    let (_, status) = server.get("/api/status");
    assert_eq!(status["games_in_memory"], 6);
    assert!(status["games_bytes"].as_u64().unwrap() > 0);
    assert!(status["uptime_seconds"].is_u64());
    if cfg!(target_os = "linux") {
        assert!(
            status["resident_bytes"].as_u64().unwrap() > 1_000_000,
            "{status}"
        );
    }
}

#[test]
fn tokens_and_ids_look_random() {
    let server = start(quick());
    let a = server.create(json!({"game": "nim", "board": "1 2"}));
    let b = server.create(json!({"game": "nim", "board": "1 2"}));
    for game in [&a, &b] {
        assert_eq!(game["id"].as_str().unwrap().len(), 16);
        for seat in ["X", "O", "owner"] {
            let token = game["tokens"][seat].as_str().unwrap();
            assert_eq!(token.len(), 32);
            assert!(token.bytes().all(|c| c.is_ascii_hexdigit()));
        }
    }
    let all: Vec<&str> = [&a, &b]
        .iter()
        .flat_map(|g| ["X", "O", "owner"].map(|s| g["tokens"][s].as_str().unwrap()))
        .collect();
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), all.len());
}
