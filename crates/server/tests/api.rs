//! The JSON API end to end, over HTTP, on an in-process server.

mod common;

use std::time::{Duration, Instant};

use common::start;
use crosscap_server::Limits;
use serde_json::{Value, json};

fn nim_between_people(server: &common::TestServer, heaps: &str) -> Value {
    server.create(json!({
        "game": "nim", "board": heaps,
        "players": { "X": "human", "O": "human" }
    }))
}

#[test]
fn create_play_refuse_and_finish() {
    let server = start(Limits::default());
    let game = nim_between_people(&server, "1 2");
    let id = game["id"].as_str().unwrap();
    assert_eq!(game["status"], "playing");
    assert_eq!(game["to_move"], "X");
    assert_eq!(game["legal_moves"], json!(["1:0", "2:0", "2:1"]));
    assert_eq!(game["view"]["heaps"], json!([1, 2]));
    assert!(game["tokens"]["X"].is_string() && game["tokens"]["O"].is_string());

    // An illegal move and a malformed one: 400 with an error, nothing changed.
    for bad in ["2:5", "seven"] {
        let (status, answer) = server.post(
            &format!("/api/games/{id}/moves"),
            json!({ "move": bad, "token": game["tokens"]["X"] }),
        );
        assert_eq!(status, 400, "{answer}");
        assert!(answer["error"].as_str().unwrap().contains(bad), "{answer}");
    }
    let (_, unchanged) = server.get(&format!("/api/games/{id}"));
    assert_eq!(unchanged["moves"], json!([]));
    assert_eq!(unchanged["version"], game["version"]);

    // O's token cannot move for X; a body that is not a move is refused.
    let (status, _) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": "2:1", "token": game["tokens"]["O"] }),
    );
    assert_eq!(status, 403);
    let (status, answer) = server.post(&format!("/api/games/{id}/moves"), json!({ "mv": 1 }));
    assert!((400..500).contains(&status), "{answer}");
    assert!(answer["error"].is_string());

    // A move chosen in the position after `ply` moves is played there only: sent again
    // (a double click, a retry) once the game has moved on, it is refused.
    let chosen = json!({ "move": "2:1", "token": game["tokens"]["X"], "ply": 0 });
    let (status, answer) = server.post(&format!("/api/games/{id}/moves"), chosen.clone());
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = server.post(&format!("/api/games/{id}/moves"), chosen);
    assert_eq!(status, 409, "{answer}");
    assert_eq!(
        answer["error"],
        "the game has moved on since this move was chosen (at ply 0, now 1)"
    );
    let over = server.play(&game, "1:0");
    assert_eq!(over["status"], "playing");
    let over = server.play(&game, "2:0");
    assert_eq!(over["status"], "over");
    assert_eq!(over["winner"], "X", "X took the last counter");
    assert_eq!(over["legal_moves"], json!([]));
    let (status, answer) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": "1:0", "token": game["tokens"]["X"] }),
    );
    assert_eq!(status, 409, "{answer}");

    // Replay: the position after one move.
    let (_, first) = server.get(&format!("/api/games/{id}?ply=1"));
    assert_eq!(first["view"]["heaps"], json!([1, 1]));
    assert_eq!(first["ply"], 1);

    let (_, list) = server.get("/api/games");
    let listed = list["games"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|g| g["id"] == id && g["finished"] == true && g["moves"] == 3)
    );
}

/// A game created with moves to play first starts after them, in any game: they are its
/// setup, not moves of the game, so its record lists none.
#[test]
fn a_game_starts_after_the_moves_it_is_given() {
    let server = start(Limits::default());
    let game = server.create(json!({
        "game": "nim", "board": "3 4 5", "options": { "moves": "1:1 2:0" },
        "players": { "X": "human", "O": "human" }
    }));
    assert_eq!(game["view"]["heaps"], json!([1, 0, 5]), "{game}");
    assert_eq!(
        (&game["to_move"], &game["moves"]),
        (&json!("X"), &json!([]))
    );
    let (status, refused) = server.post(
        "/api/games",
        json!({"game": "euler-getter", "options": { "moves": ["1", "1"] }}),
    );
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("illegal move 1"),
        "{refused}"
    );
}

#[test]
fn the_computer_answers_in_the_same_request() {
    let server = start(Limits::default());
    // 1 2 3 is lost for the player to move: the perfect computer wins whatever X does.
    let game = server.create(json!({
        "game": "nim", "board": "1 2 3",
        "players": { "X": "human", "O": "ai:perfect" }
    }));
    assert!(
        game["tokens"]["O"].is_null(),
        "no token for the computer's seat"
    );
    let mut state = server.play(&game, "3:0");
    assert_eq!(state["moves"].as_array().unwrap().len(), 2, "{state}");
    assert_eq!(state["thinking"], false);
    assert_eq!(state["computer_proven"], "win", "the page says so: {state}");
    while state["status"] == "playing" {
        let mv = state["legal_moves"][0].as_str().unwrap().to_string();
        state = server.play(&game, &mv);
    }
    assert_eq!(state["winner"], "O");
}

/// Where the perfect computer's solve runs out, it plays its fallback's move and says
/// nothing proven; its next move then tries the solver briefly rather than for the whole
/// think time (Projective Hex taylor:4 is unsolved in minutes).
#[test]
fn the_perfect_computer_past_its_solver_tries_it_briefly_next() {
    let max_think = Duration::from_secs(9);
    let server = start(Limits {
        max_think,
        ..Limits::default()
    });
    // Six stones, 42 empty cells: within the cells the perfect player tries to solve
    // (`PERFECT_MAX_EMPTY_CELLS`), but not within its budget.
    let game = server.create(json!({
        "game": "projective-hex", "board": "taylor:4", "seed": 3,
        "options": { "moves": "d5 d3 e4 d4 e5 e3" },
        "players": { "X": "ai:perfect", "O": "human" }
    }));
    let id = game["id"].as_str().unwrap();
    let clock = Instant::now();
    let first = server.until_moves(id, 1, Duration::from_secs(60));
    let full = clock.elapsed();
    assert!(first["computer_proven"].is_null(), "{first}");
    let reply = first["legal_moves"][0].as_str().unwrap();
    // The move's answer waits for the computer's reply.
    let clock = Instant::now();
    let (status, answer) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": reply, "token": game["tokens"]["O"] }),
    );
    assert_eq!(status, 200, "{answer}");
    server.until_moves(id, 3, Duration::from_secs(60));
    let retry = clock.elapsed();
    // The first move searched the whole think time (the solver, then the fallback); the
    // second the retry's 4 s and the fallback's 1.5 s.
    assert!(full >= max_think - Duration::from_millis(500), "{full:?}");
    assert!(retry < Duration::from_millis(7_500), "{retry:?}");
}

/// The perfect computer of a game is kept for the next game of the same board and
/// options: there the empty goldberg:2, which takes its solver about 10 s, is answered
/// within a hint's 1.5 s of solver.
#[test]
fn the_perfect_computer_serves_the_next_game_of_its_board() {
    let server = start(Limits {
        answer_wait: Duration::from_secs(4),
        ..Limits::default()
    });
    let new_game = |players: Value| {
        server.create(json!({
            "game": "euler-getter", "board": "goldberg:2", "seed": 3, "options": {},
            "players": players
        }))
    };
    let hint = |id: &str| server.get(&format!("/api/games/{id}/hint?level=perfect")).1;
    let cold = new_game(json!({ "X": "human", "O": "human" }));
    let answer = hint(cold["id"].as_str().unwrap());
    assert_eq!(
        (&answer["proven"], &answer["reason"]),
        (&json!(false), &json!("time")),
        "the solver tried and its time ran out: {answer}"
    );
    let first = new_game(json!({ "X": "ai:perfect", "O": "human" }));
    let played = server.until_moves(first["id"].as_str().unwrap(), 1, Duration::from_secs(60));
    assert_eq!(played["computer_proven"], "loss", "{played}");
    let later = new_game(json!({ "X": "human", "O": "human" }));
    let answer = hint(later["id"].as_str().unwrap());
    assert_eq!(answer["proven"], true, "{answer}");
}

#[test]
fn every_game_plays_to_the_end_computer_against_computer() {
    let server = start(Limits::default());
    let (_, catalog) = server.get("/api/catalog");
    let games = catalog["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    for wanted in [
        "projective-hex",
        "euler-getter",
        "edge-nim",
        "manifold",
        "sandpile",
        "nim",
    ] {
        assert!(names.contains(&wanted), "{wanted} is not served: {names:?}");
    }
    for kind in games {
        let name = kind["name"].as_str().unwrap();
        let board = match name {
            "euler-getter" => "goldberg:1",
            "projective-hex" => "taylor:2",
            _ => kind["default_board"].as_str().unwrap(),
        };
        let game = server.create(json!({
            "game": name, "board": board, "seed": 7,
            "players": { "X": "ai:random", "O": "ai:random" }
        }));
        assert!(game["view"].is_object(), "{name}: {game}");
        if kind["board_kind"] == "surface" {
            assert!(game["layout"]["cells"].is_array(), "{name} has a drawing");
        }
        let over = server.until_over(game["id"].as_str().unwrap(), Duration::from_secs(20));
        assert!(over["winner"].is_string(), "{name}: {over}");
        assert!(!over["moves"].as_array().unwrap().is_empty(), "{name}");
    }
}

#[test]
fn undo_against_the_computer_and_between_people() {
    let server = start(Limits::default());
    let game = server.create(json!({
        "game": "nim", "board": "3 4 5",
        "players": { "X": "human", "O": "ai:random" }
    }));
    let id = game["id"].as_str().unwrap();
    let after = server.play(&game, "1:1");
    assert_eq!(after["moves"].as_array().unwrap().len(), 2);
    let (status, undone) = server.post(
        &format!("/api/games/{id}/undo"),
        json!({ "token": game["tokens"]["X"] }),
    );
    assert_eq!(status, 200, "{undone}");
    assert_eq!(
        undone["moves"],
        json!([]),
        "X's move and the reply are taken back"
    );
    assert_eq!(undone["view"]["heaps"], json!([3, 4, 5]));

    let game = nim_between_people(&server, "3 4 5");
    let id = game["id"].as_str().unwrap();
    server.play(&game, "1:1");
    let undo = |seat: &str| {
        server.post(
            &format!("/api/games/{id}/undo"),
            json!({ "token": game["tokens"][seat] }),
        )
    };
    let (status, asked) = undo("X");
    assert_eq!(status, 200);
    assert_eq!(asked["undo_request"], "X");
    assert_eq!(
        asked["moves"],
        json!(["1:1"]),
        "one player alone cannot undo"
    );
    let (_, agreed) = undo("O");
    assert_eq!(agreed["moves"], json!([]));
    assert_eq!(agreed["undo_request"], Value::Null);

    let (status, _) = server.post(
        &format!("/api/games/{id}/resign"),
        json!({ "token": "nope" }),
    );
    assert_eq!(status, 403);
    let (status, resigned) = server.post(
        &format!("/api/games/{id}/resign"),
        json!({ "token": game["tokens"]["O"] }),
    );
    assert_eq!(status, 200);
    assert_eq!(resigned["status"], "over");
    assert_eq!(resigned["winner"], "X");
    assert_eq!(resigned["resigned"], "O");
}

#[test]
fn records_export_and_import() {
    let server = start(Limits::default());
    let game = nim_between_people(&server, "2 3");
    let id = game["id"].as_str().unwrap();
    server.play(&game, "1:0");
    server.play(&game, "2:2");
    let (status, record) = server.get(&format!("/api/games/{id}/record"));
    assert_eq!(status, 200);
    assert_eq!(record["game"], "nim");
    assert_eq!(record["board"], "2 3");
    assert_eq!(record["moves"], json!(["1:0", "2:2"]));
    assert!(record.get("tokens").is_none(), "secrets stay on the server");

    let (status, copy) = server.post("/api/games/import", record.clone());
    assert_eq!(status, 201, "{copy}");
    assert_ne!(copy["id"], game["id"]);
    assert_eq!(copy["moves"], record["moves"]);
    assert_eq!(copy["view"]["heaps"], json!([0, 2]));
    // A record with no options is a game with none, as a created one.
    let (status, bare) = server.post(
        "/api/games/import",
        json!({"game": "nim", "board": "3 4 5", "moves": []}),
    );
    assert_eq!((status, &bare["options"]), (201, &json!({})), "{bare}");

    let mut bad = record.clone();
    bad["moves"] = json!(["1:0", "1:0"]);
    let (status, answer) = server.post("/api/games/import", bad);
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("move 2"),
        "{answer}"
    );
    // A field the record does not have is refused, not dropped.
    let mut misspelt = record.clone();
    misspelt["resinged"] = json!("X");
    let (status, answer) = server.post("/api/games/import", misspelt);
    assert_eq!(status, 422);
    assert!(
        answer["error"].as_str().unwrap().contains("resinged"),
        "{answer}"
    );

    // A game its owner stopped comes back stopped, not playable.
    let owner = game["tokens"]["owner"].as_str().unwrap();
    let (status, _) = server.post(&format!("/api/games/{id}/stop"), json!({"token": owner}));
    assert_eq!(status, 200);
    let (_, record) = server.get(&format!("/api/games/{id}/record"));
    assert_eq!(record["stopped"], true, "{record}");
    let (status, copy) = server.post("/api/games/import", record);
    assert_eq!(status, 201, "{copy}");
    assert_eq!(
        (&copy["status"], &copy["stopped"], &copy["legal_moves"]),
        (&json!("over"), &json!(true), &json!([])),
        "{copy}"
    );
    let (_, again) = server.get(&format!("/api/games/{}", copy["id"].as_str().unwrap()));
    assert_eq!(again["stopped"], true, "kept stopped: {again}");
}

#[test]
fn limits_answer_clear_client_errors() {
    let server = start(Limits {
        max_body_bytes: 2_000,
        computing_at_once: 0,
        ..Limits::default()
    });
    let refused = |body: Value, status: u16, needle: &str| {
        let (got, answer) = server.post("/api/games", body);
        assert_eq!(got, status, "{answer}");
        let error = answer["error"].as_str().expect("a JSON error");
        assert!(
            error.contains(needle),
            "{error:?} should mention {needle:?}"
        );
    };
    refused(json!({ "game": "chess" }), 400, "unknown game");
    refused(json!({ "game": "nim", "board": "5001" }), 400, "too large");
    refused(
        json!({ "game": "nim", "board": "x".repeat(3_000) }),
        413,
        "too large",
    );
    refused(
        json!({ "game": "nim", "players": { "X": "ai:mcts:99999999" } }),
        400,
        "limit",
    );
    refused(
        json!({ "game": "nim", "players": { "X": "ai:godlike" } }),
        422,
        "the request body's fields do not fit this request: players.X: unknown level \"godlike\"",
    );
    refused(
        json!({ "game": "nim", "players": { "X": "ai:easy" } }),
        429,
        "busy",
    );
    refused(
        json!({ "game": "projective-hex", "board": "file:/etc/passwd" }),
        400,
        "paste",
    );
    refused(
        json!({ "game": "projective-hex", "board": "taylor:99" }),
        400,
        "taylor",
    );
    refused(
        json!({ "game": "projective-hex", "board": "q".repeat(1_500) }),
        400,
        "characters) expected taylor",
    );
    let (status, answer) = server.get("/api/games/0123456789abcdef");
    assert_eq!(status, 404);
    assert!(answer["error"].is_string());
    let (status, answer) = server.get("/api/nothing-here");
    assert_eq!(status, 404);
    assert!(answer["error"].is_string());
}

#[test]
fn the_page_is_served() {
    let server = start(Limits::default());
    let page = ureq::get(&server.url("/")).call().unwrap();
    assert!(page.content_type().contains("html"));
    assert!(page.into_string().unwrap().contains("/static/app.js"));
    let script = ureq::get(&server.url("/static/games/projective-hex.js"))
        .call()
        .unwrap();
    assert!(script.content_type().contains("javascript"));
    let (status, _) = server.get("/static/missing.js");
    assert_eq!(status, 404);
}

#[test]
fn an_unchanged_file_is_not_sent_again() {
    let server = start(Limits::default());
    let three = server.url("/static/vendor/three.core.js");
    let first = ureq::get(&three).call().unwrap();
    let etag = first.header("etag").expect("an entity tag").to_string();
    assert!(
        etag.starts_with('"') && etag.ends_with('"'),
        "a strong tag: {etag}"
    );
    assert_eq!(first.header("cache-control"), Some("no-cache"));
    assert!(first.into_string().unwrap().len() > 100_000);

    // Asked again with its tag (alone, in a list, or weak), the file is not sent.
    for tags in [
        etag.clone(),
        format!("\"0\", {etag}"),
        format!("W/{etag}"),
        "*".into(),
    ] {
        let again = ureq::get(&three)
            .set("If-None-Match", &tags)
            .call()
            .unwrap();
        assert_eq!(again.status(), 304, "{tags}");
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        // The security headers come with every answer, this one too.
        assert!(again.header("content-security-policy").is_some());
        assert_eq!(again.header("x-content-type-options"), Some("nosniff"));
        assert!(again.into_string().unwrap().is_empty());
    }

    // Another tag, or another file with this one's tag, is sent whole with its own tag.
    let stale = ureq::get(&three)
        .set("If-None-Match", "\"0123456789abcdef\"")
        .call()
        .unwrap();
    assert_eq!(stale.status(), 200);
    let other = ureq::get(&server.url("/static/app.js"))
        .set("If-None-Match", &etag)
        .call()
        .unwrap();
    assert_eq!(other.status(), 200);
    assert_ne!(other.header("etag"), Some(etag.as_str()));
    assert!(other.into_string().unwrap().contains("import"));
}

/// The body of a request's answer, as sent (for its size).
fn raw(method: &str, url: &str, body: Option<Value>) -> String {
    let request = ureq::request(method, url);
    let result = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    };
    common::answered(method, url, result)
        .into_string()
        .expect("a body")
}

#[test]
fn the_board_drawing_is_sent_once_per_game() {
    let server = start(Limits::default());
    let game = server.create(json!({
        "game": "projective-hex", "board": "goldberg:4", "seed": 5,
        "players": { "X": "human", "O": "ai:random" }
    }));
    let id = game["id"].as_str().unwrap();
    assert!(
        game["layout"]["cells"].is_array(),
        "the creation answer draws the board"
    );
    let (_, opened) = server.get(&format!("/api/games/{id}"));
    assert!(
        opened["layout"]["cells"].is_array(),
        "so does opening the game"
    );

    // Each move's answer (with the computer's reply) is small and has no drawing.
    let mut legal = game["legal_moves"].clone();
    let mut answers = Vec::new();
    while let Some(mv) = legal.as_array().and_then(|l| l.first()).cloned() {
        let text = raw(
            "POST",
            &server.url(&format!("/api/games/{id}/moves")),
            Some(json!({ "move": mv, "token": game["tokens"]["X"] })),
        );
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert!(answer.get("layout").is_none(), "{answer}");
        legal = answer["legal_moves"].clone();
        answers.push(text.len());
    }
    let largest = answers.iter().max().unwrap();
    let mean = answers.iter().sum::<usize>() / answers.len();
    println!(
        "goldberg:4, {} moves: {mean} bytes per answer on average, {largest} at most",
        answers.len()
    );
    assert!(*largest < 5 * 1024, "{largest} bytes in a move's answer");

    let followed = raw("GET", &server.url(&format!("/api/games/{id}?wait=0")), None);
    assert!(!followed.contains("\"layout\""), "{followed}");
    let (_, replayed) = server.get(&format!("/api/games/{id}?ply=1"));
    assert!(replayed.get("layout").is_none(), "{replayed}");
}

#[test]
fn a_friend_claims_a_seat_once_with_a_code() {
    let server = start(Limits::default());
    let game = server.create(json!({
        "game": "nim", "board": "3 4", "friend": "O",
        "players": { "X": "human", "O": "human" }
    }));
    let id = game["id"].as_str().unwrap();
    assert!(game["tokens"]["X"].is_string(), "{game}");
    assert!(
        game["tokens"]["O"].is_null(),
        "the creator never holds O's token"
    );
    assert_eq!(game["tokens"]["claim"]["seat"], "O");
    assert_eq!(game["unclaimed"], "O");
    let code = game["tokens"]["claim"]["code"].as_str().unwrap();
    let claim = format!("/api/games/{id}/claim");

    server.play(&game, "1:0");
    let (status, answer) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": "2:0", "token": "" }),
    );
    assert_eq!(status, 403, "nobody moves for O before the claim: {answer}");
    let (status, answer) = server.post(&claim, json!({ "code": "ABCDEFGHJK" }));
    assert_eq!(status, 403, "{answer}");

    // Codes are read out and typed: case and spaces around do not matter.
    let (status, claimed) = server.post(
        &claim,
        json!({ "code": format!(" {} ", code.to_lowercase()) }),
    );
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["seat"], "O");
    let (status, moved) = server.post(
        &format!("/api/games/{id}/moves"),
        json!({ "move": "2:0", "token": claimed["token"] }),
    );
    assert_eq!(status, 200, "{moved}");
    assert!(moved["unclaimed"].is_null(), "{moved}");
    assert_eq!(moved["movers"], "XO", "who made each move");
    let (status, again) = server.post(&claim, json!({ "code": code }));
    assert_eq!(status, 409, "a code is claimed once: {again}");

    let (status, refused) = server.post(
        "/api/games",
        json!({ "game": "nim", "friend": "O", "players": { "X": "human", "O": "ai:easy" } }),
    );
    assert_eq!(status, 400, "{refused}");
}

#[test]
fn a_board_is_drawn_without_starting_a_game() {
    let server = start(Limits::default());
    let (status, start) = server.get("/api/board?game=projective-hex&board=taylor:2");
    assert_eq!(status, 200, "{start}");
    assert!(start["layout"]["cells"].is_array(), "{start}");
    assert_eq!(start["view"]["stones"].as_array().unwrap().len(), 12);
    let (_, nim) = server.get("/api/board?game=nim");
    assert_eq!(nim["view"]["heaps"], json!([3, 4, 5]), "the default board");
    // The options as a new game takes them (the new-game form's board drawn as it starts).
    let (status, tokens) = server
        .get("/api/board?game=edge-nim&board=C3&options=%7B%22tokens%22%3A%221%2C2%2C5%22%7D");
    assert_eq!(status, 200, "{tokens}");
    assert_eq!(tokens["view"]["tokens"], json!([1, 2, 5]), "{tokens}");
    let (_, listed) = server.get("/api/games");
    assert_eq!(listed["total"], 0, "no game was started");
    for bad in [
        "/api/board",
        "/api/board?game=chess",
        "/api/board?game=nim&board=x",
        "/api/board?game=nim&options=%5B1%5D",
        "/api/board?game=nim&options=%7B",
        "/api/board?game=edge-nim&board=C3&options=%7B%22tokens%22%3A%229%2C9%22%7D",
        "/api/board?game=nim&options=%7B%22nope%22%3A1%7D",
    ] {
        let (status, answer) = server.get(bad);
        assert_eq!(status, 400, "{bad}: {answer}");
    }
}

/// A board too long for an address (a pasted graph of 700 vertices, about 40,000
/// characters of graph6) is previewed by `POST /api/board`, which takes the query of
/// `GET /api/board` as a JSON body and answers as it does: the `GET` of such a board is
/// refused (414).
#[test]
fn a_board_too_long_for_an_address_is_previewed_by_post() {
    let server = start(Limits::default());
    let (status, posted) = server.post(
        "/api/board",
        json!({"game": "edge-nim", "board": "C3", "options": {"tokens": "1,2,5"}}),
    );
    assert_eq!(status, 200, "{posted}");
    let (_, got) = server
        .get("/api/board?game=edge-nim&board=C3&options=%7B%22tokens%22%3A%221%2C2%2C5%22%7D");
    assert_eq!(posted, got);
    let vertices = 700;
    let cycle = common::graph6_of_cycle(vertices);
    let (status, drawn) = server.post(
        "/api/board",
        json!({"game": "sandpile", "board": format!("g6:{cycle}")}),
    );
    assert_eq!(status, 200, "{drawn}");
    assert_eq!(drawn["legal_moves"].as_array().unwrap().len(), vertices);
    // Escaped, 300 vertices make an address of 22,000 bytes, refused with a word of why;
    // 700 make one past the HTTP layer's own bound (64 KiB), refused with an empty body.
    let escaped = |text: String| -> String { text.bytes().map(|b| format!("%{b:02X}")).collect() };
    let (status, refused) = server.get(&format!(
        "/api/board?game=sandpile&board=g6%3A{}",
        escaped(common::graph6_of_cycle(300))
    ));
    assert_eq!(status, 414, "too long for an address");
    let why = refused["error"].as_str().unwrap();
    assert!(why.contains("POST /api/board"), "{why}");
    let (status, _) = server.get(&format!(
        "/api/board?game=sandpile&board=g6%3A{}",
        escaped(cycle)
    ));
    assert_eq!(status, 414, "too long for the HTTP layer");
    for (bad, why) in [
        (json!({"board": "C3"}), "missing field `game`"),
        (
            json!({"game": "nim", "options": [1]}),
            "options must be a JSON object",
        ),
        (
            json!({"game": "nim", "bord": "3 4"}),
            "unknown field `bord`",
        ),
    ] {
        let (status, answer) = server.post("/api/board", bad.clone());
        assert!(matches!(status, 400 | 422), "{bad}: {status} {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(why), "{bad}: {error}");
    }
}

/// Euler Getter on a surface other than the projective plane: a torus summed with a
/// projective plane is N3 (χ = -1), played to the end through the API; the areas'
/// characteristics add up to the surface's, so the game has a winner.
#[test]
fn euler_getter_is_played_on_a_connected_sum() {
    let server = start(Limits::default());
    let spec = "sum:goldberg:1+torus:2x3";
    let (status, drawn) = server.get(&format!(
        "/api/board?game=euler-getter&board={}",
        spec.replace('+', "%2B")
    ));
    assert_eq!(status, 200, "{drawn}");
    assert_eq!(
        drawn["layout"]["cells"].as_array().unwrap().len(),
        9,
        "6 + 6 - 3 cells"
    );
    assert_eq!(drawn["view"]["surface"], "N3");
    let game = server.create(json!({
        "game": "euler-getter",
        "board": spec,
        "players": { "X": "human", "O": "human" },
    }));
    let mut now = game.clone();
    while now["status"] == "playing" {
        let first = now["legal_moves"][0].as_str().unwrap().to_string();
        now = server.play(&game, &first);
    }
    let score = &now["view"]["score"];
    let (x, o) = (
        score["X"]["chi"].as_i64().unwrap(),
        score["O"]["chi"].as_i64().unwrap(),
    );
    assert_eq!(x + o, -1, "{score}");
    assert!(now["winner"].is_string(), "{now}");
}

/// A hint says whether an exact solve proved it, and then what the position is worth to
/// its mover: the solver level does on boards within its reach (the empty goldberg:1 and
/// Nim's 1 2 3 are lost, the rest won); otherwise it answers a search's move, said to be
/// unproven and why: the empty goldberg:3 is out of the perfect player's reach, and
/// Edge-Nim with 1024 tokens on an edge beyond its tables (the limit of the exact
/// analysis); search levels never claim a proof, nor say why.
#[test]
fn a_hint_says_whether_the_solver_proved_it() {
    let server = start(Limits::default());
    // What the hint says: the result when it is proven, else why not ("": nothing).
    for (game, board, level, said) in [
        ("projective-hex", "taylor:2", "perfect", "win"),
        ("euler-getter", "goldberg:1", "perfect", "loss"),
        ("euler-getter", "goldberg:3", "perfect", "out of reach"),
        ("edge-nim", "P2", "perfect", "beyond"),
        ("nim", "3 4 5", "perfect", "win"),
        ("nim", "1 2 3", "perfect", "loss"),
        ("manifold", "n3 o1", "perfect", "win"),
        ("euler-getter", "goldberg:1", "easy", ""),
    ] {
        let options = match game {
            "edge-nim" => json!({"tokens": "1024"}),
            _ => json!({}),
        };
        let created = server.create(json!({
            "game": game, "board": board, "options": options,
            "players": { "X": "human", "O": "human" }
        }));
        let id = created["id"].as_str().unwrap();
        let (status, hint) = server.get(&format!("/api/games/{id}/hint?level={level}"));
        assert_eq!(status, 200, "{game} {board}: {hint}");
        let legal = created["legal_moves"].as_array().unwrap();
        assert!(legal.contains(&hint["move"]), "{game} {board}: {hint}");
        let proven = ["win", "draw", "loss"].contains(&said);
        let [result, reason] = match said {
            "" => [Value::Null, Value::Null],
            _ if proven => [json!(said), Value::Null],
            _ => [Value::Null, json!(said)],
        };
        assert_eq!(
            (
                &hint["level"],
                &hint["proven"],
                &hint["result"],
                &hint["reason"]
            ),
            (&json!(level), &json!(proven), &result, &reason),
            "{game} {board}"
        );
    }
}

/// A solve answers the live position's winner with perfect play, its value and the best
/// moves, in the CLI's JSON: on taylor:2 X wins and every winning move is legal; at Nim's
/// 1 2 3 every move loses alike; a game that does not exist is a 404.
#[test]
fn a_solve_answers_who_wins_and_the_winning_moves() {
    let server = start(Limits::default());
    for (game, board, winner) in [("projective-hex", "taylor:2", "X"), ("nim", "1 2 3", "O")] {
        let created = server.create(json!({
            "game": game, "board": board, "options": {},
            "players": { "X": "human", "O": "human" }
        }));
        let id = created["id"].as_str().unwrap();
        let (status, solved) = server.get(&format!("/api/games/{id}/solve"));
        assert_eq!(status, 200, "{game}: {solved}");
        assert_eq!(
            (&solved["status"], &solved["to_move"], &solved["winner"]),
            (&json!("solved"), &json!("X"), &json!(winner)),
            "{game}: {solved}"
        );
        let legal = created["legal_moves"].as_array().unwrap();
        let optimal = solved["optimal_moves"].as_array().unwrap();
        assert!(optimal.iter().all(|m| legal.contains(m)), "{solved}");
        let winning = solved["winning_moves"].as_array().unwrap();
        if winner == "X" {
            assert!(
                !winning.is_empty() && winning.len() < legal.len(),
                "{solved}"
            );
        } else {
            assert_eq!((winning.len(), optimal.len()), (0, legal.len()), "{solved}");
        }
    }
    let (status, answer) = server.get("/api/games/0123456789abcdef/solve");
    assert_eq!(status, 404, "{answer}");
    assert!(answer["error"].is_string(), "{answer}");
}
