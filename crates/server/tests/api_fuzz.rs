//! Random and mutated requests to every route of an in-process server (seeded, so a failure
//! repeats): every answer is a 2xx, or a 4xx whose body is `{"error": "..."}` on one line
//! without raw control characters, and no answer shows a server path or SQL; the server
//! still plays a normal game at the end.

mod common;

use std::time::Duration;

use common::start;
use crosscap_engine::Rng;
use crosscap_server::Limits;
use serde_json::{Value, json};

const SEED: u64 = 18;
const REQUESTS: usize = 400;

/// What no answer may show: where the server keeps its files, its database's words, or
/// its web framework's.
const LEAKS: &[&str] = &[
    "/tmp",
    "/root",
    "/home",
    "/work",
    "/var",
    "sqlite",
    "SQL",
    "SELECT ",
    "INSERT ",
    "Invalid column",
    "no such table",
    // The web framework's own words for a body it could not read.
    "target type",
    "Failed to",
];

/// Small limits, so that the computer moves and hints the requests start end quickly.
fn limits() -> Limits {
    Limits {
        computing_at_once: 1,
        answer_wait: Duration::from_millis(100),
        follow_wait: Duration::from_millis(50),
        max_think: Duration::from_millis(100),
        max_search_bytes: 16 << 20,
        max_mcts_iterations: 2_000,
        max_flatmc_playouts: 50,
        // No rate limits: this test is about what each request gets, not how many.
        create_burst: 0,
        hint_burst: 0,
        ..Limits::default()
    }
}

/// Valid creation requests, the start of every mutated one.
fn creations() -> Vec<Value> {
    let humans = json!({ "X": "human", "O": "human" });
    vec![
        json!({ "game": "nim", "board": "3 4 5", "players": humans }),
        json!({ "game": "projective-hex", "board": "taylor:2", "options": { "opening": "swap" }, "players": humans }),
        json!({ "game": "euler-getter", "board": "goldberg:1", "options": { "rule": "reverse", "swap": 1 }, "players": { "X": "human", "O": "ai:random" } }),
        json!({ "game": "edge-nim", "board": "tetrahedron", "options": { "tokens": "1,2,0,1,0,1" }, "players": humans, "seed": 7 }),
        json!({ "game": "manifold", "board": "n5 o2", "players": humans }),
        json!({ "game": "sandpile", "board": "P4", "options": { "position": "X0,O1,.,X0", "to_move": "O" }, "players": humans }),
        // A pasted board file: built in memory, its text never a path on the server.
        json!({ "game": "euler-getter", "board": include_str!("../../euler-getter/boards/hemi-prism-6.json"), "players": humans }),
    ]
}

/// The status and the body as text.
fn read(response: ureq::Response) -> (u16, String) {
    let status = response.status();
    (status, response.into_string().expect("a UTF-8 body"))
}

fn get(url: &str) -> (u16, String) {
    let result = ureq::get(url).timeout(Duration::from_secs(30)).call();
    read(common::answered("GET", url, result))
}

/// Bodies longer than this may not have been written whole when the server answers.
const SOCKET_BUFFER_BYTES: usize = 64 * 1024;

/// Posts a body; `None` when the server closed the connection on a long body before the
/// client had written it all: it answers as soon as it knows (a body over the size limit,
/// a path that names no game), without reading the rest. The last request of the test
/// shows the server still serving.
fn post(url: &str, body: &[u8]) -> Option<(u16, String)> {
    let result = ureq::post(url)
        .timeout(Duration::from_secs(30))
        .set("Content-Type", "application/json")
        .send_bytes(body);
    if body.len() > SOCKET_BUFFER_BYTES && matches!(result, Err(ureq::Error::Transport(_))) {
        return None;
    }
    Some(read(common::answered("POST", url, result)))
}

fn check_answer(what: &str, status: u16, body: &str) {
    assert!(
        (200..300).contains(&status) || (400..500).contains(&status),
        "{what}: status {status}: {body}"
    );
    for leak in LEAKS {
        assert!(
            !body.contains(leak),
            "{what}: the answer shows {leak:?}: {body}"
        );
    }
    // A rate limiter may answer 429 before any route runs, in its own words.
    if status >= 400 && status != 429 {
        let answer: Value = serde_json::from_str(body)
            .unwrap_or_else(|_| panic!("{what}: {status} without a JSON body: {body:?}"));
        let error = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: {status} without an error: {body}"));
        assert!(
            !error.trim().is_empty() && !error.contains(|c: char| c < ' '),
            "{what}: {status}: the error is not one clean line: {error:?}"
        );
    }
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// Text for a URL: every byte outside the unreserved set percent-encoded, so that any
/// bytes (NUL, line breaks, invalid UTF-8) reach the server.
fn encode(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Odd bytes for ids and query values: numbers past every integer type, controls, invalid
/// UTF-8, traversal, length.
fn odd_bytes(rng: &mut Rng) -> Vec<u8> {
    let pieces: [&[u8]; 12] = [
        b"18446744073709551616",
        b"-1",
        b"1e30",
        b"\x00",
        b"\n\r",
        b"\x1b[31m",
        b"\xff\xfe",
        b"\xc3",
        b"../../etc/passwd",
        "∞é".as_bytes(),
        b"0",
        b"perfect",
    ];
    let mut bytes = Vec::new();
    for _ in 0..1 + rng.below(3) {
        bytes.extend_from_slice(pieces[rng.below(pieces.len())]);
    }
    if rng.below(10) == 0 {
        bytes.extend(std::iter::repeat_n(b'7', 5_000));
    }
    bytes
}

/// A value that breaks a field: another type, a number past every integer type, a long or
/// control-laden string, deep nesting.
fn odd_value(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(1e308),
        3 => serde_json::from_str("18446744073709551616").expect("a JSON number"),
        4 => json!(-1),
        5 => Value::String("x".repeat(1 + rng.below(300_000))),
        6 => json!("\u{1b}[31m\n\u{0}\u{7f}é"),
        7 => json!({ "unknown": [1, {}] }),
        _ => {
            let mut deep = json!(0);
            for _ in 0..rng.below(200) {
                deep = json!([deep]);
            }
            deep
        }
    }
}

/// Replaces a random part of `value`, or adds or removes a field of an object on the way.
fn mutate_value(rng: &mut Rng, value: &mut Value) {
    let descend = rng.below(3) != 0;
    match value {
        Value::Object(map) if descend && !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = pick(rng, &keys).clone();
            match rng.below(6) {
                0 => {
                    map.remove(&key);
                }
                1 => {
                    let key = String::from_utf8_lossy(&odd_bytes(rng)).into_owned();
                    map.insert(key, odd_value(rng));
                }
                _ => mutate_value(rng, map.get_mut(&key).expect("a key of the map")),
            }
        }
        Value::Array(items) if descend && !items.is_empty() => {
            let i = rng.below(items.len());
            mutate_value(rng, &mut items[i]);
        }
        _ => *value = odd_value(rng),
    }
}

/// The body of a request: a valid one with a few parts replaced, sometimes then cut short
/// or with stray bytes (invalid UTF-8, raw controls), and now and then bytes alone.
fn mutated_body(rng: &mut Rng, valid: &Value) -> Vec<u8> {
    if rng.below(20) == 0 {
        return odd_bytes(rng);
    }
    let mut value = valid.clone();
    for _ in 0..rng.below(3) {
        mutate_value(rng, &mut value);
    }
    let mut bytes = serde_json::to_vec(&value).expect("a value serialises");
    match rng.below(6) {
        0 if !bytes.is_empty() => bytes.truncate(rng.below(bytes.len())),
        1 => {
            let at = rng.below(bytes.len() + 1);
            let stray = odd_bytes(rng);
            bytes.splice(at..at, stray);
        }
        _ => {}
    }
    bytes
}

/// A query string of a few keys the routes read (and one they do not) with odd values.
fn query(rng: &mut Rng) -> String {
    let keys = [
        "ply", "wait", "level", "limit", "offset", "page", "ids", "game", "options", "x",
    ];
    let values: Vec<String> = (0..rng.below(4))
        .map(|_| {
            let value = match rng.below(3) {
                0 => rng.below(40).to_string(),
                1 => pick(
                    rng,
                    &[
                        "easy",
                        "perfect",
                        "random",
                        "mcts:3",
                        "flatmc:2",
                        "nim",
                        "{}",
                        "{\"tokens\":\"1\"}",
                    ],
                )
                .to_string(),
                _ => encode(&odd_bytes(rng)),
            };
            format!("{}={value}", pick(rng, &keys))
        })
        .collect();
    values.join("&")
}

/// A game the requests can aim at: its id, seat tokens and a legal move.
struct Target {
    id: String,
    tokens: Value,
    legal: Option<String>,
}

impl Target {
    fn from_answer(game: &Value) -> Option<Target> {
        Some(Target {
            id: game["id"].as_str()?.to_string(),
            tokens: game["tokens"].clone(),
            legal: game["legal_moves"][0].as_str().map(str::to_string),
        })
    }
}

#[test]
fn random_and_mutated_requests_get_clean_answers() {
    let server = start(limits());
    let mut rng = Rng::new(SEED);
    let creations = creations();
    let mut targets: Vec<Target> = Vec::new();
    for body in &creations {
        let (status, game) = server.post("/api/games", body.clone());
        assert_eq!(status, 201, "{body}: {game}");
        targets.extend(Target::from_answer(&game));
    }
    let (_, record) = server.get(&format!("/api/games/{}/record", targets[0].id));

    for n in 0..REQUESTS {
        let target = pick(&mut rng, &targets);
        let id = if rng.below(5) == 0 {
            encode(&odd_bytes(&mut rng))
        } else {
            target.id.clone()
        };
        let token = target.tokens[*pick(&mut rng, &["X", "O"])].clone();
        let (path, valid) = match rng.below(11) {
            0 | 1 => ("/api/games".to_string(), pick(&mut rng, &creations).clone()),
            2 => ("/api/games/import".to_string(), record.clone()),
            3 => (
                format!("/api/games/{id}/moves"),
                json!({ "move": target.legal, "token": token }),
            ),
            4 => (
                format!("/api/games/{id}/{}", pick(&mut rng, &["undo", "resign"])),
                json!({ "token": token }),
            ),
            9 => (
                format!("/api/games/{id}/claim"),
                json!({ "code": "ABCDEFGHJK" }),
            ),
            route => {
                let path = match route {
                    5 => "/api/games".to_string(),
                    6 => format!("/api/games/{id}"),
                    7 => format!(
                        "/api/games/{id}/{}",
                        pick(&mut rng, &["hint", "record", "solve"])
                    ),
                    8 => format!(
                        "/api/board?game={}&board={}&options={}",
                        pick(&mut rng, &["nim", "projective-hex", "sandpile"]),
                        encode(&odd_bytes(&mut rng)),
                        encode(&odd_bytes(&mut rng))
                    ),
                    _ => format!("/api/{}", encode(&odd_bytes(&mut rng))),
                };
                let url = server.url(&format!("{path}?{}", query(&mut rng)));
                let (status, body) = get(&url);
                check_answer(&format!("request {n}: GET {url}"), status, &body);
                continue;
            }
        };
        let body = mutated_body(&mut rng, &valid);
        let Some((status, answer)) = post(&server.url(&path), &body) else {
            continue;
        };
        let what = format!(
            "request {n}: POST {path} {:?}",
            String::from_utf8_lossy(&body[..body.len().min(300)])
        );
        check_answer(&what, status, &answer);
        if status == 201 {
            let game: Value = serde_json::from_str(&answer).expect("a created game is JSON");
            targets.extend(Target::from_answer(&game));
        }
    }

    // Still serving: a normal game starts and takes a move.
    let game = server.create(json!({
        "game": "nim", "board": "1 2", "players": { "X": "human", "O": "human" }
    }));
    let after = server.play(&game, "2:1");
    assert_eq!(after["view"]["heaps"], json!([1, 1]));
}
