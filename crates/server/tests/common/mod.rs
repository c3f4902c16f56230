//! Helpers shared by the server's integration tests: an in-process server on a free port
//! and a small JSON client.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use crosscap_engine::catalog::Catalog;
use crosscap_server::{App, HostPolicy, Limits, Store, api};
use serde_json::{Value, json};
use tempfile::TempDir;

/// A server running on its own runtime thread for the rest of the test process.
pub struct TestServer {
    pub base: String,
    pub app: Arc<App>,
}

/// Starts a server over a fresh in-memory database, answering loopback host names.
pub fn start(limits: Limits) -> TestServer {
    start_serving(crosscap_catalog::standard(), limits)
}

/// Starts a server of `catalog` over a fresh in-memory database.
pub fn start_serving(catalog: Catalog, limits: Limits) -> TestServer {
    start_with(
        catalog,
        Store::in_memory().expect("an in-memory database"),
        limits,
        &[],
        false,
    )
}

/// Starts a server over `store`; `as_if_remote` makes it answer Host names as a server
/// bound to a network address would (it still listens on loopback only).
pub fn start_over(
    store: Store,
    limits: Limits,
    allowed_hosts: &[String],
    as_if_remote: bool,
) -> TestServer {
    start_with(
        crosscap_catalog::standard(),
        store,
        limits,
        allowed_hosts,
        as_if_remote,
    )
}

fn start_with(
    catalog: Catalog,
    store: Store,
    limits: Limits,
    allowed_hosts: &[String],
    as_if_remote: bool,
) -> TestServer {
    let (tx, rx) = std::sync::mpsc::channel();
    let allowed_hosts = allowed_hosts.to_vec();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let app = App::new(catalog, store, limits);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a free port");
            let addr = listener.local_addr().expect("an address");
            tx.send((format!("http://{addr}"), Arc::clone(&app)))
                .expect("the test waits");
            let policy_addr = if as_if_remote {
                std::net::SocketAddr::from(([0, 0, 0, 0], addr.port()))
            } else {
                addr
            };
            let hosts = HostPolicy::for_addr(policy_addr, &allowed_hosts);
            api::serve(listener, app, hosts, std::future::pending()).await;
        });
    });
    let (base, app) = rx.recv().expect("the server starts");
    TestServer { base, app }
}

/// A fresh directory under the system's temporary directory, removed when dropped.
pub fn scratch_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("crosscap-server-{name}-"))
        .tempdir()
        .expect("a scratch directory")
}

/// The response, error statuses included; panics when there is none.
pub fn answered(
    method: &str,
    url: &str,
    result: Result<ureq::Response, ureq::Error>,
) -> ureq::Response {
    match result {
        Ok(response) => response,
        Err(ureq::Error::Status(_, response)) => response,
        Err(err) => panic!("{method} {url}: {err}"),
    }
}

/// Sends a request; answers the status and the JSON body.
pub fn call(method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    let request = ureq::request(method, url).timeout(Duration::from_secs(60));
    let result = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    };
    let response = answered(method, url, result);
    let status = response.status();
    let text = response.into_string().expect("a body");
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        call("GET", &self.url(path), None)
    }

    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        call("POST", &self.url(path), Some(body))
    }

    pub fn delete(&self, path: &str, body: Value) -> (u16, Value) {
        call("DELETE", &self.url(path), Some(body))
    }

    /// Creates a game and asserts 201.
    pub fn create(&self, body: Value) -> Value {
        let (status, game) = self.post("/api/games", body);
        assert_eq!(status, 201, "{game}");
        game
    }

    /// Plays a move with the mover's token and asserts 200.
    pub fn play(&self, game: &Value, mv: &str) -> Value {
        let id = game["id"].as_str().unwrap();
        let (_, now) = self.get(&format!("/api/games/{id}"));
        let mover = now["to_move"].as_str().expect("someone is to move");
        let token = &game["tokens"][mover];
        let (status, answer) = self.post(
            &format!("/api/games/{id}/moves"),
            json!({ "move": mv, "token": token }),
        );
        assert_eq!(status, 200, "{answer}");
        answer
    }

    /// Follows a game until it has `moves` moves (or the deadline passes).
    pub fn until_moves(&self, id: &str, moves: usize, deadline: Duration) -> Value {
        let start = Instant::now();
        let (_, mut game) = self.get(&format!("/api/games/{id}"));
        while game["moves"].as_array().map_or(0, Vec::len) < moves {
            assert!(start.elapsed() < deadline, "no move {moves}: {game}");
            let version = game["version"].as_u64().unwrap();
            game = self.get(&format!("/api/games/{id}?wait={version}")).1;
        }
        game
    }

    /// Follows a game until it is over (or the deadline passes).
    pub fn until_over(&self, id: &str, deadline: Duration) -> Value {
        let start = Instant::now();
        let (_, mut game) = self.get(&format!("/api/games/{id}"));
        while game["status"] != "over" {
            assert!(start.elapsed() < deadline, "the game did not end: {game}");
            let version = game["version"].as_u64().unwrap();
            game = self.get(&format!("/api/games/{id}?wait={version}")).1;
        }
        game
    }
}

/// The graph6 text of the cycle on `n` vertices (62 < n < 258,048).
pub fn graph6_of_cycle(n: usize) -> String {
    let edge = |i: usize, j: usize| j == i + 1 || (i == 0 && j == n - 1);
    let bits: Vec<bool> = (1..n)
        .flat_map(|j| (0..j).map(move |i| edge(i, j)))
        .collect();
    let size = [126, n >> 12 & 63, n >> 6 & 63, n & 63];
    let size = size
        .iter()
        .enumerate()
        .map(|(k, &v)| if k == 0 { v } else { v + 63 });
    let body = bits.chunks(6).map(|six| {
        63 + (0..6).fold(0, |acc, k| {
            acc << 1 | usize::from(six.get(k) == Some(&true))
        })
    });
    size.chain(body).map(|b| char::from(b as u8)).collect()
}
