//! End to end in a real headless browser (Debian's chromium and chromium-driver, which
//! `.ci/run` installs), driven over WebDriver: every game started from the new-game form
//! and played to the end by clicks and keys against the computer (hints, zoom, the last
//! move, score changes, the end card, no console errors), a friend claiming a seat from a
//! second browser, a phone-sized page, a paced computer game and the page's controls doing
//! what they say; a screenshot of each finished game under target/screenshots/.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{call, start};
use crosscap_server::Limits;
use serde_json::{Value, json};

/// How long a wait for one thing on the page lasts before the test fails: long, since the
/// 2 cores may be shared with several builds (10 s flaked at load averages of 35 to 55); a
/// wait ends as soon as its condition holds, so a quiet machine does not pay for it.
const WAIT: Duration = Duration::from_secs(60);
/// How long a whole game may take, on the same terms.
const GAME_WAIT: Duration = Duration::from_secs(300);
/// A Nim board for computer games watched move by move (800 ms a move): ten heaps, so at
/// least ten moves shown over 8 s, in which Pause pressed as the page opens lands before
/// the end even on a loaded machine (three heaps could be shown to their end first).
const PACED_HEAPS: &str = "1 2 3 4 5 6 7 8 9 10";

/// A chromedriver process, ended when dropped, with a temporary directory of its own for
/// the browsers' profiles and sockets, deleted with it.
struct Driver {
    child: Child,
    base: String,
    _temporary: tempfile::TempDir,
}

/// Asked to shut down, the driver quits its sessions' browsers (killed, it leaves them
/// running), also after a failed test; killed only if it does not exit in time.
impl Drop for Driver {
    fn drop(&mut self) {
        let _ = ureq::get(&format!("{}/shutdown", self.base))
            .timeout(Duration::from_secs(10))
            .call();
        let start = Instant::now();
        while matches!(self.child.try_wait(), Ok(None)) && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_program(names: &[&str]) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| {
            panic!(
                "none of {names:?} is installed: `apt-get install chromium chromium-driver` \
                 (as .ci/run does)"
            )
        })
}

fn start_driver() -> Driver {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let temporary = tempfile::tempdir().expect("a temporary directory");
    let child = Command::new(find_program(&["chromedriver"]))
        .arg(format!("--port={port}"))
        .env("TMPDIR", temporary.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver {
        child,
        base: format!("http://127.0.0.1:{port}"),
        _temporary: temporary,
    };
    let start = Instant::now();
    while ureq::get(&format!("{}/status", driver.base))
        .call()
        .is_err()
    {
        assert!(start.elapsed() < WAIT, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    driver
}

/// One WebDriver session.
struct Session<'a> {
    driver: &'a Driver,
    id: String,
}

impl Session<'_> {
    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{path}", self.driver.base, self.id);
        let (status, answer) = call(method, &url, body);
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    /// The elements a CSS selector finds (their WebDriver ids).
    fn find_all(&self, css: &str) -> Vec<String> {
        let found = self.command(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e.as_object()?.values().next()?.as_str().map(String::from))
            .collect()
    }

    fn wait_for(&self, css: &str) -> String {
        let start = Instant::now();
        loop {
            if let Some(first) = self.find_all(css).into_iter().next() {
                return first;
            }
            assert!(start.elapsed() < WAIT, "no {css} on the page");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks an element; false when it went stale (the page redrew meanwhile).
    fn click(&self, element: &str) -> bool {
        let url = format!(
            "{}/session/{}/element/{element}/click",
            self.driver.base, self.id
        );
        call("POST", &url, Some(json!({}))).0 == 200
    }

    fn text(&self, element: &str) -> String {
        self.command("GET", &format!("/element/{element}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// An element's accessible name, as a screen reader says it.
    fn accessible_name(&self, element: &str) -> String {
        self.command("GET", &format!("/element/{element}/computedlabel"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn attribute(&self, element: &str, name: &str) -> Option<String> {
        self.command("GET", &format!("/element/{element}/attribute/{name}"), None)
            .as_str()
            .map(String::from)
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .map(value)
        .collect();
    digits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
            let bytes = n.to_be_bytes();
            bytes[1..chunk.len()].to_vec()
        })
        .collect()
}

fn open_session(driver: &Driver) -> Session<'_> {
    open_session_at(driver, "1200,1000")
}

/// A session whose window is `size` ("WIDTH,HEIGHT"); below 500 px wide (the narrowest
/// window headless Chromium makes) a phone's screen is emulated, e.g. "375,800".
fn open_session_at<'a>(driver: &'a Driver, size: &str) -> Session<'a> {
    new_session(driver, size, &[])
}

/// A session with a window of `size` and more browser flags.
fn new_session<'a>(driver: &'a Driver, size: &str, flags: &[&str]) -> Session<'a> {
    let (width, height) = size.split_once(',').expect("WIDTH,HEIGHT");
    let (width, height): (u32, u32) = (width.parse().unwrap(), height.parse().unwrap());
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let window = format!("--window-size={size}");
    let mut args = vec![
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        // WebGL on the CPU, asked for by name: Chromium's automatic fallback to it is
        // deprecated, and the 3D tests need it.
        "--enable-unsafe-swiftshader",
        "--disable-dev-shm-usage",
        &window,
    ];
    args.extend_from_slice(flags);
    let mut options = json!({ "binary": chromium, "args": args });
    if width < 500 {
        options["mobileEmulation"] =
            json!({ "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2.0 } });
    }
    let (status, created) = call(
        "POST",
        &format!("{}/session", driver.base),
        Some(json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": { "browser": "ALL" },
            "goog:chromeOptions": options
        }}})),
    );
    assert_eq!(status, 200, "{created}");
    Session {
        driver,
        id: created["value"]["sessionId"].as_str().unwrap().to_string(),
    }
}

impl Session<'_> {
    /// The errors in the browser's console since the last call (a refused script or
    /// style, a missing favicon, a failed request, an exception).
    fn console_errors(&self) -> Vec<String> {
        let entries = self.command("POST", "/se/log", Some(json!({ "type": "browser" })));
        entries
            .as_array()
            .expect("a list of log entries")
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| e["message"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Saves a screenshot as target/screenshots/NAME.png.
    fn screenshot(&self, name: &str) {
        let png = base64_decode(self.command("GET", "/screenshot", None).as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

impl Session<'_> {
    /// Runs a script that reads the page (never one that plays) and answers its value.
    fn read(&self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// Types into a text field after clearing it.
    fn type_into(&self, css: &str, text: &str) {
        let field = self.wait_for(css);
        self.command("POST", &format!("/element/{field}/clear"), Some(json!({})));
        self.command(
            "POST",
            &format!("/element/{field}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Pastes `text` into a text field in place of what it held: one input event, as a
    /// paste makes (typing a long text key by key takes minutes).
    fn paste_into(&self, css: &str, text: &str) {
        self.wait_for(css);
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({
                "script": "const field = document.querySelector(arguments[0]);
                           field.value = arguments[1];
                           field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));",
                "args": [css, text],
            })),
        );
    }

    /// Presses the keys of `text` (WebDriver codes such as "\u{E012}", the left arrow,
    /// included) on whatever has the focus, as a person types: the caret stays where it
    /// is, where sending keys to an element may move it.
    fn press_keys(&self, text: &str) {
        let actions: Vec<Value> = text
            .chars()
            .flat_map(|key| {
                let key = key.to_string();
                [
                    json!({ "type": "keyDown", "value": key }),
                    json!({ "type": "keyUp", "value": key }),
                ]
            })
            .collect();
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        );
    }

    /// Waits until an element's text holds `wanted`; answers the text.
    fn wait_for_text(&self, css: &str, wanted: &str) -> String {
        let start = Instant::now();
        loop {
            // The page may redraw between finding the element and reading it: a stale
            // element is read again on the next round.
            let found = self.find_all(css).first().and_then(|e| {
                let url = format!("{}/session/{}/element/{e}/text", self.driver.base, self.id);
                let (status, answer) = call("GET", &url, None);
                (status == 200).then(|| answer["value"].as_str().unwrap_or_default().to_string())
            });
            if let Some(text) = found.filter(|t| t.contains(wanted)) {
                return text;
            }
            assert!(start.elapsed() < WAIT, "{css} never said {wanted:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the first element `css` finds once there is one (retrying a stale one).
    fn click_first(&self, css: &str) {
        let start = Instant::now();
        while !self.click(&self.wait_for(css)) {
            assert!(start.elapsed() < WAIT, "{css} stays stale");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn a_friend_claims_a_seat_from_another_browser() {
    let server = start(Limits::default());
    let driver = start_driver();
    let creator = open_session(&driver);
    let friend = open_session(&driver);

    // Nim on heaps 1 and 2; O is a friend on another device.
    creator.open(&server.url("/#/"));
    creator.click_first("#game option[value='nim']");
    creator.type_into("#board-spec", "1 2");
    creator.click_first("select[name='O-kind'] option[value='friend']");
    creator.click_first("#start");
    let link = creator.wait_for("#claim-link");
    let link = creator.attribute(&link, "value").unwrap();
    let url = creator.command("GET", "/url", None);
    let id = url
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    assert!(link.contains(&format!("#/claim/{id}/")), "{link}");

    // X moves; then the creator's page offers nothing to click for O and holds no O token.
    creator.click_first("#board [data-move]");
    creator.wait_for_text("#status", "O");
    assert!(creator.find_all("#board [data-move]").is_empty());
    let held = creator.read(&format!(
        "return JSON.parse(localStorage.getItem('crosscap-tokens-{id}'))"
    ));
    assert!(held["X"].is_string() && held.get("O").is_none(), "{held}");

    // The friend opens the link, is O, and moves.
    friend.open(&link);
    friend.wait_for_text("#players", "O: you");
    friend.click_first("#board [data-move]");

    // The link works once: opened again (here by the creator) it is refused, and the
    // refused request is the one console error.
    assert_eq!(creator.console_errors(), Vec::<String>::new());
    creator.open(&link);
    creator.wait_for_text("#claim-error", "used");
    let refused = creator.console_errors();
    assert!(
        refused.len() == 1 && refused[0].contains("409"),
        "{refused:?}"
    );
    // The game is there to watch; a link to a game that is not leads to a new game and
    // the saved games instead, as does a game page that is not there.
    creator.wait_for(&format!(".failure-links a[href='#/game/{id}']"));
    let missing = "0123456789abcdef";
    creator.open(&server.url(&format!("/#/claim/{missing}/abc")));
    creator.wait_for_text("#claim-error", "no game");
    creator.wait_for(".failure-links a[href='#/games']");
    assert!(
        creator
            .find_all(".failure-links a[href^='#/game/']")
            .is_empty()
    );
    creator.open(&server.url(&format!("/#/game/{missing}")));
    creator.wait_for_text("#page-error", "no game");
    creator.click_first(".failure-links a[href='#/']");
    creator.wait_for("#start");
    let refused = creator.console_errors();
    assert!(
        refused.len() == 2 && refused.iter().all(|e| e.contains("404")),
        "{refused:?}"
    );
    creator.open(&server.url(&format!("/#/game/{id}")));
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < WAIT, "the game did not end");
        let status = creator.wait_for("#status");
        if creator.attribute(&status, "data-status").as_deref() == Some("over") {
            break;
        }
        for session in [&creator, &friend] {
            if let Some(cell) = session.find_all("#board [data-move]").first() {
                session.click(cell);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(creator.text(&creator.wait_for("#status")).contains("wins"));
    for session in [&creator, &friend] {
        assert_eq!(session.console_errors(), Vec::<String>::new());
    }
}

impl Session<'_> {
    /// An element's live property (a slider's value), not its attribute.
    fn property(&self, element: &str, name: &str) -> Value {
        self.command("GET", &format!("/element/{element}/property/{name}"), None)
    }

    /// Moves the mouse to the window's top left corner, off the board.
    fn pointer_aside(&self) {
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
                "actions": [{ "type": "pointerMove", "origin": "viewport", "x": 0, "y": 0, "duration": 0 }]
            }]})),
        );
    }

    /// Drags the mouse from an element's centre by (dx, dy) pixels.
    fn drag(&self, element: &str, (dx, dy): (i64, i64)) {
        let rect = self.command("GET", &format!("/element/{element}/rect"), None);
        let at = |key: &str, size: &str| {
            (rect[key].as_f64().unwrap() + rect[size].as_f64().unwrap() / 2.0) as i64
        };
        let (x, y) = (at("x", "width"), at("y", "height"));
        let step = |x: i64, y: i64| json!({ "type": "pointerMove", "origin": "viewport", "x": x, "y": y, "duration": 50 });
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
                "actions": [
                    step(x, y),
                    { "type": "pointerDown", "button": 0 },
                    step(x + dx / 2, y + dy / 2),
                    step(x + dx, y + dy),
                    { "type": "pointerUp", "button": 0 }
                ]
            }]})),
        );
    }

    fn moves_played(&self) -> usize {
        self.find_all("#move-list li").len()
    }

    fn is_over(&self) -> bool {
        let status = self.wait_for("#status");
        self.attribute(&status, "data-status").as_deref() == Some("over")
    }

    /// Waits until the page shows more than `before` moves, or the end.
    fn wait_for_move(&self, before: usize) {
        let start = Instant::now();
        while self.moves_played() <= before && !self.is_over() {
            assert!(start.elapsed() < WAIT, "no move was played");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// The document's width in CSS pixels (what a phone would scroll sideways).
    fn document_width(&self) -> u64 {
        self.read("return document.documentElement.scrollWidth")
            .as_u64()
            .unwrap()
    }

    /// Gives this browser the seats of `game` (an answer of the API's create), as the page
    /// keeps them.
    fn hold_seats(&self, game: &Value) {
        self.read(&format!(
            "localStorage.setItem('crosscap-tokens-{}', '{}');",
            game["id"].as_str().unwrap(),
            game["tokens"]
        ));
    }

    /// Opens `game`'s page with its seats held by this browser.
    fn open_seated(&self, server: &common::TestServer, game: &Value) {
        self.hold_seats(game);
        self.open(&server.url(&format!("/#/game/{}", game["id"].as_str().unwrap())));
    }

    /// Sends keys to an element (focusing it), e.g. "\u{E007}" for Enter.
    fn keys(&self, element: &str, text: &str) -> bool {
        let url = format!(
            "{}/session/{}/element/{element}/value",
            self.driver.base, self.id
        );
        call("POST", &url, Some(json!({ "text": text }))).0 == 200
    }
}

/// A game set up on the new-game form: X a person here, O the computer at level random.
struct Setup<'a> {
    game: &'a str,
    board: &'a str,
    /// (option name, value) typed into the form.
    options: &'a [(&'a str, &'a str)],
}

/// Starts a game from the form and plays X with `mover` (clicks and keys only) until the
/// end; checks the end card, the console and saves a screenshot named after the game.
fn play_to_the_end(
    session: &Session,
    server: &common::TestServer,
    setup: &Setup,
    mover: impl Fn(&Session),
) {
    open_form(session, server, setup.game, setup.board);
    for (name, value) in setup.options {
        session.type_into(&format!("#options input[name='{name}']"), value);
    }
    session.click_first("select[name='O-level'] option[value='random']");
    session.click_first("#start");
    session.wait_for("#board");
    // Every game draws the computer's hint on its board.
    session.click_first("#hint");
    session.wait_for_text("#hint-note", "ringed on the board");
    session.wait_for("#board .hint");
    let started = Instant::now();
    while !session.is_over() {
        assert!(
            started.elapsed() < GAME_WAIT,
            "{}: the game did not end",
            setup.game
        );
        let before = session.moves_played();
        mover(session);
        session.wait_for_move(before);
    }
    // The card fades in: its text reads once it shows.
    let said = session.wait_for_text("#end-card:not([hidden])", "You ");
    assert!(
        said.contains("You won") || said.contains("You lost"),
        "{}: {said}",
        setup.game
    );
    assert_eq!(said.matches("You ").count(), 1, "{}: {said}", setup.game);
    assert!(
        !session.find_all("#play-again").is_empty() && !session.find_all("#copy-record").is_empty()
    );
    // The card says how the game was won: the loop made, the loser left without a move,
    // the areas' characteristics, or every vertex held.
    let how = match setup.game {
        "projective-hex" => "By the global loop",
        "edge-nim" | "manifold" | "nim" => "cannot move",
        "euler-getter" => "characteristic wins",
        "sandpile" => "holds all",
        game => panic!("{game}: how is it won?"),
    };
    session.wait_for_text("#end-card .end-how", how);
    // The result is shared in the same words to anyone, with the game's link (the clipboard
    // and the share sheet are caught, as a headless browser has neither to look at).
    session.read(
        "navigator.clipboard.writeText = async (text) => { window.shared = text; };
         if (navigator.share) navigator.share = async (data) => { window.shared = `${data.text} ${data.url}`; };",
    );
    session.click_first("#share-result");
    let started = Instant::now();
    let shared = loop {
        let shared = session.read("return [window.shared || null, location.hash]");
        if let (Some(text), Some(hash)) = (shared[0].as_str(), shared[1].as_str()) {
            break (text.to_string(), hash.to_string());
        }
        assert!(started.elapsed() < WAIT, "nothing was shared");
        std::thread::sleep(Duration::from_millis(50));
    };
    let (text, hash) = shared;
    assert!(
        text.contains(" won")
            && text.contains(" move")
            && text.ends_with(&hash)
            && !text.contains("You"),
        "{}: {text}",
        setup.game
    );
    assert!(
        session.find_all("#undo:disabled").len() == 1,
        "no undo once the game is over"
    );
    assert_eq!(
        session.console_errors(),
        Vec::<String>::new(),
        "{}",
        setup.game
    );
    session.screenshot(setup.game);
}

/// Clicks the first move the board offers.
/// The manifold game's cards picture each surface (a hole a handle, a crosscap symbol a
/// crosscap); the hint's curve is drawn on the surface it cuts, and so is a move's while
/// it has the focus, the surface redrawn where the curve needs it: n3 as a handle and a
/// crosscap for the cut (h) into o1 and n1.
fn surfaces_drawn_with_their_cuts(session: &Session) {
    let count = |css: &str| session.find_all(css).len();
    session.wait_for("#board button.hint");
    assert_eq!(count("[data-surface='o1'] .handle"), 1);
    let hinted = session.read("return document.querySelector('#board button.hint').dataset.move");
    let hinted = hinted.as_str().unwrap().to_string();
    let from = hinted.split([':', '-']).nth(1).unwrap();
    assert!(
        count(&format!("[data-surface='{from}'] .cut")) >= 1,
        "{hinted}: its curve is drawn"
    );
    let crosscaps = count("[data-surface='n3'] .crosscap");
    session.read("document.querySelector(\"[data-move='h:n3->o1+n1']\").focus()");
    assert_eq!(count("[data-surface='n3'] .handle"), 1);
    assert_eq!(count("[data-surface='n3'] .crosscap"), 1);
    assert_eq!(
        count("[data-surface='n3'] .form-note"),
        1,
        "the form is named"
    );
    assert_eq!(
        count("[data-surface='n3'] .cut"),
        2,
        "the separating curve, front and back"
    );
    session.read("document.activeElement.blur()");
    assert_eq!(
        count("[data-surface='n3'] .crosscap"),
        crosscaps,
        "back at rest"
    );
    if from != "n3" {
        assert_eq!(count("[data-surface='n3'] .cut"), 0);
        assert_eq!(crosscaps, 3);
    }
}

/// On n3 o1 (Grundy value 5) the solve lists the two winning moves; the one clicked is
/// ringed on the board.
fn solve_lists_the_winning_moves(session: &Session) {
    session.click_first("#solve");
    let solved = session.wait_for_text("#solve-note", "Winning moves");
    assert!(
        solved.starts_with(
            "Solved: X to move wins with perfect play (Grundy value 5). Winning moves (2 of "
        ),
        "{solved}"
    );
    let listed = session.read(
        "return [...document.querySelectorAll('#solve-note .solve-move')].map(b => b.dataset.move)",
    );
    assert_eq!(listed, json!(["d:n3->o1", "e:n3->n1"]));
    assert_eq!(
        session.find_all("#board .move-list button.solved").len(),
        2,
        "marked among the moves"
    );
    session.read("document.querySelectorAll('#solve-note .solve-move')[1].click()");
    session.wait_for_text(
        "#hint-note",
        "From the solve: e:n3->n1, ringed on the board.",
    );
    session.wait_for("#board button.hint[data-move='e:n3->n1']");
}

/// The manifold game says the last cut in words under the cards, and each move of the list
/// in its title (the notation alone, "e:n3->n1", names the curve by a letter).
fn cuts_played_in_words(session: &Session) {
    let said = session.wait_for_text("#board .last-move", "Last move, ");
    assert!(
        said.contains("cut a ") && said.contains("; leaves "),
        "{said}"
    );
    let first = session.wait_for("#move-list .mv");
    let title = session.attribute(&first, "title").unwrap();
    assert!(
        title.contains(" (on ") && title.contains(", cut a "),
        "{title}"
    );
}

fn click_a_cell(session: &Session) {
    session.click_first("#board [data-move]");
}

/// Edge-Nim: picks a vertex with tokens and leaves none on its first edge. Each move of
/// the list, and the hint, says its vertex and what it leaves in words.
fn take_every_token(session: &Session) {
    if let Some(first) = session.find_all("#move-list .mv").first() {
        let title = session.attribute(first, "title").unwrap();
        assert!(
            title.contains("(at vertex ") && title.contains(", leaving "),
            "{title}"
        );
    }
    for vertex in session.find_all("#board .vertex.pickable") {
        session.click(&vertex);
        if !session.find_all("#take input").is_empty() {
            break;
        }
    }
    session.type_into("#take input", "0");
    session.click_first("#take-button");
}

/// On K4 with two tokens an edge, the solve's four winning moves empty a vertex's edges,
/// one at each vertex: all four are dashed. Then the move as [`take_every_token`].
fn take_every_token_after_a_solve(session: &Session) {
    if session.moves_played() == 0 {
        let hinted = session.wait_for_text("#hint-note", "ringed on the board");
        assert!(hinted.contains(" (at vertex "), "{hinted}");
        session.click_first("#solve");
        session.wait_for_text("#solve-note", "Winning moves (4 of ");
        assert_eq!(session.find_all("#board .vertex.solved").len(), 4);
        edge_labels_clear(session);
    }
    take_every_token(session);
}

/// Edge-Nim's labels stay apart: no two token discs overlap, no token covers a vertex, and
/// no edge name lies under a disc or over another name (K4's inner edges once hid their
/// names under the tokens, and Petersen's star piled its five tokens up in the middle).
fn edge_labels_clear(session: &Session) {
    let crowded = session.read(
        "const box = (e) => e.getBoundingClientRect();
         const disc = (e) => { const b = box(e); return [b.left + b.width / 2, b.top + b.height / 2, b.width / 2]; };
         const under = (t, [x, y, r]) => Math.hypot(Math.max(t.left - x, 0, x - t.right), Math.max(t.top - y, 0, y - t.bottom)) < r;
         const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
         const tokens = [...document.querySelectorAll('#board circle.tokens')].map(disc);
         const discs = [...document.querySelectorAll('#board circle')].map(disc);
         const names = [...document.querySelectorAll('#board text.ename')];
         const found = [];
         discs.forEach(([x, y, r], i) => tokens.forEach(([tx, ty, tr]) => {
           if ((tx !== x || ty !== y) && Math.hypot(tx - x, ty - y) < r + tr - 1) found.push(`disc ${i} under a token`);
         }));
         names.forEach((name, i) => {
           if (discs.some((d) => under(box(name), d))) found.push(`${name.textContent} under a disc`);
           names.slice(i + 1).forEach((other) => {
             if (!apart(box(name), box(other))) found.push(`${name.textContent} over ${other.textContent}`);
           });
         });
         return found;",
    );
    assert_eq!(crowded, json!([]), "Edge-Nim labels crowd each other");
}

/// How a test plays X's move.
type Mover = fn(&Session);

/// The README's pictures: each game played to the end here, the end card closed, and the
/// game's part of the page (scores, board, 3D view) saved as docs/screenshots/GAME.png.
/// Run with `cargo test -p crosscap-server --test browser -- --ignored readme_screenshots`.
#[test]
#[ignore]
fn readme_screenshots() {
    let server = start(Limits::default());
    let driver = start_driver();
    // Stills: moves and winning loops shown as they end, not while they are drawn in.
    let session = new_session(&driver, "1000,1400", &["--force-prefers-reduced-motion"]);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let games: [(Setup, Mover); 6] = [
        (
            Setup {
                game: "projective-hex",
                board: "goldberg:2",
                options: &[],
            },
            click_a_cell,
        ),
        (
            Setup {
                game: "euler-getter",
                board: "goldberg:2",
                options: &[],
            },
            click_a_cell,
        ),
        (
            Setup {
                game: "edge-nim",
                board: "K4",
                options: &[("tokens", "*=2")],
            },
            take_every_token,
        ),
        (
            Setup {
                game: "sandpile",
                board: "C5",
                options: &[],
            },
            click_a_cell,
        ),
        (
            Setup {
                game: "manifold",
                board: "n2 o1",
                options: &[],
            },
            click_a_cell,
        ),
        (
            Setup {
                game: "nim",
                board: "3 4 5",
                options: &[],
            },
            click_a_cell,
        ),
    ];
    for (setup, mover) in &games {
        play_to_the_end(&session, &server, setup, mover);
        session.click_first("#close-card");
        if setup.game == "nim" {
            // Nim ends with every heap empty: the picture shows the game after two moves,
            // replayed, with counters to see.
            session.read(
                "const slider = document.querySelector('#replay');
                 slider.value = 2;
                 slider.dispatchEvent(new Event('input'));
                 return null;",
            );
            session.wait_for_text("label[for=replay]", "2 /");
        }
        if !session.find_all("#view3d").is_empty() {
            session.wait_for("#view3d[data-settled]");
        }
        let part = session.wait_for(".play-main");
        let png = base64_decode(
            session
                .command("GET", &format!("/element/{part}/screenshot"), None)
                .as_str()
                .unwrap(),
        );
        std::fs::write(dir.join(format!("{}.png", setup.game)), png).unwrap();
    }
}

#[test]
fn projective_hex_and_euler_getter_played_by_clicks() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    option_notes_clear_their_fields(&session, &server);
    the_board_is_drawn_before_the_game_starts(&session, &server);
    // The first move: its cell is marked as the last move; a hint is ringed on the board
    // and played; the board zooms.
    let first_move_checks = |session: &Session| {
        if session.moves_played() == 0 {
            session.click_first(".zoom-bar button[title='Zoom in']");
            let svg = session.wait_for("#board svg.surface");
            assert!(session.attribute(&svg, "class").unwrap().contains("zoomed"));
            // A drag pans the board and plays nothing.
            let before = session.attribute(&svg, "viewBox");
            session.drag(&svg, (40, 30));
            assert_ne!(
                session.attribute(&svg, "viewBox"),
                before,
                "the drag panned"
            );
            assert_eq!(session.moves_played(), 0, "a drag is not a move");
            session.click_first(".zoom-bar button[title='Whole board']");
            // Every copy of a cell (twin halves, ghosts beyond the rim) carries its name.
            assert_eq!(
                session.find_all("#board svg.surface text.label").len(),
                session
                    .find_all("#board svg.surface polygon[data-cell]")
                    .len()
            );
            session.click_first("#board .hint[data-move]");
            session.wait_for("#board .last");
            return;
        }
        click_a_cell(session);
    };
    play_to_the_end(
        &session,
        &server,
        &Setup {
            game: "projective-hex",
            board: "taylor:2",
            options: &[],
        },
        first_move_checks,
    );
    assert!(
        !session.find_all("#board .win polyline").is_empty(),
        "the winning loop is drawn"
    );
    session.wait_for_text("#end-card .end-how", "By the global loop");
    // Step by step: step k of the loop starts its drawing 90 ms after step k - 1.
    let steps = session.read(
        "return [...document.querySelectorAll('#board .win polyline')].map((line) => \
         [line.style.getPropertyValue('--step'), getComputedStyle(line).animationDelay])",
    );
    for step in steps.as_array().unwrap() {
        let k: f64 = step[0].as_str().unwrap().trim().parse().unwrap();
        let delay: f64 = step[1]
            .as_str()
            .unwrap()
            .trim_end_matches('s')
            .parse()
            .unwrap();
        assert!((delay - 0.09 * k).abs() < 1e-6, "{steps}");
    }
    // Analysis: the position after the first move, copied into a game where this browser
    // plays both sides and asks for hints.
    session.click_first("#move-list .mv");
    session.wait_for("#status[data-status='replay']");
    session.click_first("#analyse");
    session.wait_for_text("#players", "O: you");
    session.click_first("#hint-level option[value='perfect']");
    session.click_first("#hint");
    let note = session.wait_for_text("#hint-note", "Hint (perfect, proven optimal");
    assert!(
        note.contains("optimal: it wins)") || note.contains("optimal, but the position is lost"),
        "the hint says what the position is worth: {note}"
    );
    session.wait_for("#board .hint[data-move]");
    // The solve says who wins there.
    session.click_first("#solve");
    let solved = session.wait_for_text("#solve-note", "Solved: O to move");
    assert!(solved.contains("with perfect play (value "), "{solved}");

    // Euler Getter: scores change with a visible +1/−1, regions are outlined with their χ.
    let deltas = std::cell::Cell::new(0);
    play_to_the_end(
        &session,
        &server,
        &Setup {
            game: "euler-getter",
            board: "goldberg:1",
            options: &[],
        },
        |session| {
            deltas.set(deltas.get() + session.find_all("#scores .delta").len());
            click_a_cell(session);
        },
    );
    assert!(deltas.get() > 0, "a score change was shown");

    assert!(
        !session.find_all("#board .area .area-label").is_empty(),
        "regions are outlined"
    );
    // Each region's loops are drawn through its cells: as many as the list counts (on the
    // projective plane the two regions' χ add up to 1, so some region has a loop).
    let listed: usize = session
        .find_all(".regions h4")
        .iter()
        .map(|h| {
            let text = session.text(h);
            let loops = text.rsplit(", ").next().unwrap_or_default();
            loops.split(' ').next().unwrap().parse::<usize>().unwrap()
        })
        .sum();
    let drawn = session.find_all("#board .region-loop");
    assert!(listed > 0);
    assert_eq!(drawn.len(), listed, "one drawn loop per loop listed");
    for group in &drawn {
        let cells = session.attribute(group, "data-cells").unwrap();
        assert!(
            cells.split(' ').count() > 1,
            "a loop through cells: {cells}"
        );
    }
    assert!(!session.find_all("#board .region-loop polyline").is_empty());

    // The swap rule between two people on this device: after X's first stone, O is offered
    // the swap with a word on what it does, takes it, and the stone is O's, X to move.
    open_form(&session, &server, "projective-hex", "taylor:2");
    session.click_first("#options select[name='opening'] option[value='swap']");
    session.click_first("select[name='O-kind'] option[value='human']");
    session.click_first("#start");
    // Whose turn it is here shows in the seat's colour.
    session.wait_for("#status[data-turn='X']");
    session.click_first("#board [data-move='a1']");
    // A stone's cell offers no move: it is found by its index (a1 is the first cell).
    session.wait_for("#board polygon.cell.X[data-cell='0']");
    session.wait_for("#status[data-turn='O']");
    session.wait_for_text("#swap-note", "X's stones become yours");
    session.click_first("#swap");
    session.wait_for("#board polygon.cell.O[data-cell='0']");
    session.wait_for_text("#status", "X to move");
    session.wait_for("#status[data-turn='X']");
    assert!(session.find_all("#swap").is_empty(), "one swap only");

    // A move played where the 3D view shows no copy of its cell (here on the disk, by a
    // second player on this device) turns the view until one is seen.
    open_form(&session, &server, "projective-hex", "taylor:3");
    session.click_first("select[name='O-kind'] option[value='human']");
    session.click_first("#start");
    session.click_first("#view3d button[data-surface='crosscap']");
    session.wait_for("#view3d[data-surface='crosscap']");
    session.settled_labels_3d();
    let unseen = session.read(
        "const seen = new Set([...document.querySelectorAll('#view3d .cell3d:not([hidden])')]
           .map((l) => l.dataset.name));
         return [...document.querySelectorAll('#board svg [data-move]')]
           .map((c) => c.dataset.move).find((m) => !seen.has(m)) || null",
    );
    let unseen = unseen
        .as_str()
        .expect("a cell out of sight on the cross-cap");
    session.click_first(&format!("#board svg [data-move='{unseen}']"));
    session.wait_for(&format!(
        "#view3d[data-settled] .cell3d[data-name='{unseen}']:not([hidden])"
    ));

    // A position set up by clicks (one X stone, one O stone), then analysed with the solver.
    open_form(&session, &server, "projective-hex", "taylor:2");
    session.click_first("#setup");
    session.click_first("#board [data-move='a1']");
    session.wait_for("#board .cell.X[data-move='a1']");
    for _ in 0..2 {
        session.click_first("#board [data-move='b2']");
    }
    session.wait_for("#board .cell.O[data-move='b2']");
    session.click_first("#analyse-position");
    session.wait_for_text("#players", "O: you");
    assert_eq!(session.moves_played(), 0);
    session.click_first("#hint-level option[value='perfect']");
    session.click_first("#hint");
    session.wait_for("#board .hint[data-move]");
}

#[test]
fn graph_and_heap_games_played_by_clicks_and_keys() {
    // No creation limit: the saved games' pages below need more games than its burst.
    // The server lists 30 games at once: the pages ask for no more.
    let server = start(Limits {
        create_burst: 0,
        max_listed: 30,
        ..Limits::default()
    });
    let driver = start_driver();
    let session = open_session(&driver);
    // Edge-Nim: pick a vertex with tokens, leave none on its first edge, take.
    play_to_the_end(
        &session,
        &server,
        &Setup {
            game: "edge-nim",
            board: "K4",
            options: &[("tokens", "*=2")],
        },
        take_every_token_after_a_solve,
    );
    play_to_the_end(
        &session,
        &server,
        &Setup {
            game: "sandpile",
            board: "P3",
            options: &[],
        },
        click_a_cell,
    );
    assert!(
        !session.find_all("#board .vname").is_empty(),
        "vertices are named"
    );
    // P3's last placement topples into the other vertices: the note names them apart, in
    // words as well as on screen.
    let cascade = session.read(
        "const c = document.querySelector('#board .cascade');\
         return [c.children.length, c.textContent, [...c.children].map(s => s.textContent).join(', ')]",
    );
    assert!(cascade[0].as_u64().unwrap() >= 2, "{cascade}");
    assert_eq!(cascade[1], cascade[2], "{cascade}");
    // On P2 the first placement wins, wherever it goes: the solve says so, and neither
    // lists nor marks the moves.
    play_to_the_end(
        &session,
        &server,
        &Setup {
            game: "sandpile",
            board: "P2",
            options: &[],
        },
        |session| {
            session.click_first("#solve");
            let solved = session.wait_for_text("#solve-note", "Every move wins.");
            assert!(
                solved.contains("Whatever anyone plays, X wins: the result is predetermined."),
                "the seed's first question, answered: {solved}"
            );
            assert!(session.find_all("#solve-note .solve-move").is_empty());
            assert!(session.find_all("#board .solved").is_empty());
            click_a_cell(session);
        },
    );
    play_to_the_end(
        &session,
        &server,
        &Setup {
            game: "manifold",
            board: "n3 o1",
            options: &[],
        },
        |session| {
            if session.moves_played() == 0 {
                let hinted = session.wait_for_text("#hint-note", "ringed on the board");
                assert!(hinted.contains(", cut a "), "{hinted}");
                surfaces_drawn_with_their_cuts(session);
                solve_lists_the_winning_moves(session);
            } else {
                cuts_played_in_words(session);
            }
            click_a_cell(session);
        },
    );
    // Nim from the keyboard: an arrow key moves between counters, Enter on a counter takes
    // it and those to its right.
    play_to_the_end(
        &session,
        &server,
        &Setup {
            game: "nim",
            board: "1 2",
            options: &[],
        },
        |session| {
            if session.moves_played() == 0 {
                // The solve's winning move is marked on the board: 2:1 leaves 1 1.
                session.click_first("#solve");
                session.wait_for_text("#solve-note", "Winning moves (1 of 3): 2:1");
                session.wait_for("#board .counter.solved[data-move='2:1']");
            }
            let counter = session.wait_for("#board [data-move]");
            assert!(session.keys(&counter, "\u{E015}"), "arrow down");
            let active = session.command("GET", "/element/active", None);
            let active = active.as_object().unwrap().values().next().unwrap();
            let active = active.as_str().unwrap().to_string();
            assert!(
                session.attribute(&active, "data-move").is_some(),
                "a counter has the focus"
            );
            assert!(session.keys(&active, "\u{E007}"), "enter");
        },
    );
    saved_games_a_page_at_a_time(&session, &server);
    // A game left in play is listed under the new-game form, to go back to.
    session.open(&server.url("/#/"));
    session.click_first("#start");
    session.wait_for("#board");
    session.open(&server.url("/#/"));
    let listed = session.wait_for_text("#your-games", "Your games in play");
    assert!(
        listed.contains("Projective Hex on taylor:3 · 0 moves"),
        "{listed}"
    );
    assert_eq!(session.find_all("#your-games li").len(), 1, "{listed}");
    // The saved games shown are only the six this browser played, then every one again.
    session.open(&server.url("/#/games"));
    session.wait_for_text(".pages", "Games 1–30 of 56");
    session.click_first("#only-yours");
    session.wait_for_text(".pages", "Games 1–6 of 6");
    assert_eq!(session.find_all("table.games tr.yours").len(), 6);
    session.click_first("#every-game");
    session.wait_for_text(".pages", "Games 1–30 of 56");
    // One game's games, a choice kept when only the reader's are shown.
    session.click_first("#game-filter option[value='edge-nim']");
    session.wait_for_text(".pages", "Games 1–1 of 1");
    assert_eq!(
        session.read("return document.querySelector('table.games tr[data-id] td').innerText"),
        json!("Edge-Nim")
    );
    session.click_first("#only-yours");
    session.wait_for_text(".pages", "Games 1–1 of 1");
    let hash = session.read("return location.hash");
    let hash = hash.as_str().unwrap();
    assert!(
        hash.contains("yours=1") && hash.contains("game=edge-nim"),
        "{hash}"
    );
    session.click_first("#game-filter option[value='']");
    session.wait_for_text(".pages", "Games 1–6 of 6");
    session.click_first("#every-game");
    session.wait_for_text(".pages", "Games 1–30 of 56");
    start_from_form(&session, &server, "edge-nim", "petersen");
    session.wait_for("#board circle.tokens");
    edge_labels_clear(&session);
    graph_zoom_kept(&session);
    games_in_play_behind_finished_ones(&session, &server);
    the_computer_says_it_solved_the_game(&session, &server);
    a_rematch_swaps_the_colours(&session, &server);
    a_sandpile_draw_says_why(&session, &server);
}

/// A sandpile game whose grains drain into a sink ends drawn at the placement limit, and
/// the end card says so (with the score line, which a draw's reason does not give).
fn a_sandpile_draw_says_why(session: &Session, server: &common::TestServer) {
    start_from_form(session, server, "sandpile", "arcs:0>1,2>1");
    session.wait_for("#board [data-move]");
    let started = Instant::now();
    while !session.is_over() {
        assert!(
            started.elapsed() < GAME_WAIT,
            "the sandpile game did not end"
        );
        let before = session.moves_played();
        click_a_cell(session);
        session.wait_for_move(before);
    }
    session.wait_for_text("#end-card:not([hidden]) h2", "Draw");
    session.wait_for_text(
        "#end-card .end-how",
        "7 grains were placed, the game's limit: a draw.",
    );
    session.wait_for_text("#end-card .end-score", "X ");
}

/// After a game against the computer, the rematch with the colours swapped gives the
/// computer the first move and the reader the other colour; between two people on this
/// device there is nothing to swap.
fn a_rematch_swaps_the_colours(session: &Session, server: &common::TestServer) {
    let game = server.create(
        json!({"game": "nim", "board": "1 2", "players": {"X": "human", "O": "ai:random"}}),
    );
    let id = game["id"].as_str().unwrap();
    let (status, _) = server.post(
        &format!("/api/games/{id}/resign"),
        json!({ "token": game["tokens"]["X"] }),
    );
    assert_eq!(status, 200);
    session.open_seated(server, &game);
    session.wait_for_text("#end-card:not([hidden])", "You lost");
    session.click_first("#play-swapped");
    let start = Instant::now();
    let rematch = loop {
        let hash = session.read("return location.hash");
        let hash = hash.as_str().unwrap_or_default();
        if let Some(new) = hash.strip_prefix("#/game/").filter(|new| *new != id) {
            break new.to_string();
        }
        assert!(start.elapsed() < WAIT, "no rematch opened: {hash}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let (_, swapped) = server.get(&format!("/api/games/{rematch}"));
    assert_eq!(
        swapped["players"],
        json!({"X": "ai:random", "O": "human"}),
        "{swapped}"
    );
    session.wait_for_text("#status", "Your turn: you play O.");
    let both = server
        .create(json!({"game": "nim", "board": "1", "players": {"X": "human", "O": "human"}}));
    server.play(&both, "1:0");
    session.open_seated(server, &both);
    session.wait_for("#end-card:not([hidden]) #play-again");
    assert!(
        session.find_all("#play-swapped:not([hidden])").is_empty(),
        "nothing to swap between two people here"
    );
}

/// Against the perfect computer, once its solver proved its move, the player reads that
/// the game is decided: Nim 1 2 3 is lost for X, whatever X plays first.
fn the_computer_says_it_solved_the_game(session: &Session, server: &common::TestServer) {
    let game = server.create(
        json!({"game": "nim", "board": "1 2 3", "players": {"X": "human", "O": "ai:perfect"}}),
    );
    server.play(&game, "3:0");
    session.open_seated(server, &game);
    session.wait_for_text(
        "#status",
        "Your turn: you play X. The computer has solved the game: it wins whatever you play.",
    );
}

/// The games in play stay listed under the new-game form however many games this browser
/// finished since: here 60 games of Nim, each one move, their seats held by this browser,
/// more than the server lists at once (30).
fn games_in_play_behind_finished_ones(session: &Session, server: &common::TestServer) {
    for _ in 0..60 {
        let game = server
            .create(json!({"game": "nim", "board": "1", "players": {"X": "human", "O": "human"}}));
        server.play(&game, "1:0");
        session.hold_seats(&game);
    }
    session.open(&server.url("/#/"));
    let listed = session.wait_for_text("#your-games", "Your games in play");
    for game in ["Projective Hex on taylor:3", "Edge-Nim on petersen"] {
        assert!(listed.contains(game), "{listed}");
    }
    assert_eq!(session.find_all("#your-games li").len(), 2, "{listed}");
}

/// A graph board zooms, and the board drawn anew (here for a hint) opens where the player
/// left it; "Whole board" brings the whole graph back.
fn graph_zoom_kept(session: &Session) {
    let svg = session.wait_for("#board svg.graph");
    let whole = session.attribute(&svg, "viewBox");
    session.click_first("#board .zoom-bar button[title='Zoom in']");
    let zoomed = session.attribute(&svg, "viewBox");
    assert_ne!(zoomed, whole, "the board zoomed");
    session.read("document.querySelector('#board svg.graph').dataset.before = '';");
    session.click_first("#hint");
    let redrawn = session.wait_for("#board svg.graph:not([data-before])");
    session.wait_for("#board .hint");
    assert_eq!(session.attribute(&redrawn, "viewBox"), zoomed);
    assert!(
        session
            .attribute(&redrawn, "class")
            .unwrap()
            .contains("zoomed")
    );
    session.click_first("#board .zoom-bar button[title='Whole board']");
    let view_box = |text: Option<String>| -> Vec<i64> {
        let text = text.unwrap();
        text.split(' ')
            .map(|v| (v.parse::<f64>().unwrap() * 100.0).round() as i64)
            .collect()
    };
    assert_eq!(
        view_box(session.attribute(&redrawn, "viewBox")),
        view_box(whole)
    );
    assert!(
        !session
            .attribute(&redrawn, "class")
            .unwrap()
            .contains("zoomed")
    );
}

/// The saved games, 50 a page, latest first: games named by their titles, and the ones
/// this browser played (the five above, among 50 more made through the API, most of them
/// newer: timestamps are in seconds) marked as the reader's, with "you" in their seats and
/// the result said to them.
fn saved_games_a_page_at_a_time(session: &Session, server: &common::TestServer) {
    for _ in 0..50 {
        server.create(
            json!({"game": "nim", "board": "1 2", "players": {"X": "human", "O": "human"}}),
        );
    }
    let yours = || {
        let rows = session.read(
            "return [...document.querySelectorAll('table.games tr.yours')]\
             .map(r => [...r.cells].map(c => c.innerText))",
        );
        rows.as_array().unwrap().clone()
    };
    session.open(&server.url("/#/games"));
    let note = session.wait_for_text(".pages", "Games 1–30 of 55");
    assert!(
        note.contains("Older →") && !note.contains("Newer"),
        "{note}"
    );
    assert_eq!(session.find_all("table.games tr[data-id]").len(), 30);
    let mut rows = yours();
    session.click_first(".pages a");
    let note = session.wait_for_text(".pages", "Games 31–55 of 55");
    assert!(
        note.contains("← Newer") && !note.contains("Older"),
        "{note}"
    );
    assert_eq!(session.find_all("table.games tr[data-id]").len(), 25);
    rows.extend(yours());
    assert_eq!(rows.len(), 5, "{rows:?}");
    let titles: Vec<&str> = rows.iter().map(|r| r[0].as_str().unwrap()).collect();
    for title in [
        "Edge-Nim",
        "Sandpile toppling",
        "Manifold decomposition",
        "Nim",
    ] {
        assert!(titles.contains(&title), "{titles:?}");
    }
    for row in &rows {
        let players = row[2].as_str().unwrap();
        let result = row[4].as_str().unwrap();
        assert_eq!(players, "X: you\nO: the computer (random)", "{row:?}");
        assert!(result == "you won" || result == "you lost", "{row:?}");
    }
}

#[test]
fn a_phone_sized_page_and_a_paced_computer_game() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session_at(&driver, "375,800");
    for (page, drawn) in [
        ("/#/", "#start"),
        ("/#/rules", "#rules-euler-getter .rule-picture svg"),
        ("/#/games", "main h1"),
    ] {
        session.open(&server.url(page));
        session.wait_for(drawn);
        assert!(
            session.document_width() <= 375,
            "{page}: {} px wide",
            session.document_width()
        );
    }
    // A link naming no game of the catalog opens the form on the first game.
    session.open(&server.url("/#/?game=chess"));
    session.wait_for_text("#game-summary", "cannot be shrunk to a point");
    // The rules start with each game in a sentence, linked to its own rules.
    session.open(&server.url("/#/rules"));
    let index = session.wait_for_text("#rules-index", "Nim — Take counters");
    assert_eq!(session.find_all("#rules-index li a").len(), 6, "{index}");
    session.click_first("#rules-index a[href='#/rules/sandpile']");
    session.wait_for("#rules-sandpile .rule-picture svg");
    assert!(session.find_all("#rules-index").is_empty());
    assert_eq!(session.find_all(".rules section").len(), 1);
    // The rules' tetrahedron: a triangle round its centre vertex, no two vertices touching.
    session.open(&server.url("/#/rules/edge-nim"));
    session.wait_for("#rules-edge-nim svg .vertex");
    let centres = session.read(
        "return [...document.querySelectorAll('#rules-edge-nim svg circle.vertex')]\
         .map(c => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))])",
    );
    let centres: Vec<(f64, f64)> = centres
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
        .collect();
    assert_eq!(centres.len(), 4);
    for (i, a) in centres.iter().enumerate() {
        for b in &centres[i + 1..] {
            assert!((a.0 - b.0).hypot(a.1 - b.1) > 40.0, "{centres:?}");
        }
    }
    let inside = centres.iter().any(|&(x, y)| {
        let others: Vec<_> = centres.iter().filter(|&&p| p != (x, y)).collect();
        let side =
            |p: &(f64, f64), q: &(f64, f64)| (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0);
        let signs = [
            side(others[0], others[1]),
            side(others[1], others[2]),
            side(others[2], others[0]),
        ];
        signs.iter().all(|&s| s > 0.0) || signs.iter().all(|&s| s < 0.0)
    });
    assert!(
        inside,
        "one vertex inside the triangle of the others: {centres:?}"
    );

    // The computer against itself, shown one move at a time: pause, step, end.
    open_form(&session, &server, "nim", PACED_HEAPS);
    for seat in ["X", "O"] {
        session.click_first(&format!("select[name='{seat}-kind'] option[value='ai']"));
        session.click_first(&format!(
            "select[name='{seat}-level'] option[value='random']"
        ));
    }
    session.click_first("#start");
    session.click_first("#pause");
    session.wait_for_text("#pause", "Play");
    let pause = session.wait_for("#pause");
    let shown = |s: &Session| {
        let value = s.property(&s.wait_for("#replay"), "value");
        value.as_str().unwrap().parse::<usize>().unwrap()
    };
    let before = shown(&session);
    session.click_first("#step");
    let start = Instant::now();
    while shown(&session) != before + 1 {
        assert!(start.elapsed() < WAIT, "step shows the next move");
        std::thread::sleep(Duration::from_millis(30));
    }
    // The buttons stay as moves are shown (made anew with each, one took no click whose
    // press and release straddled a move): Pause is the element it was.
    assert_eq!(session.text(&pause), "Play");
    session.click_first("#to-end");
    session.wait_for("#status[data-status='over']");
    assert!(
        session.document_width() <= 375,
        "a game page: {} px wide",
        session.document_width()
    );

    // A computer that thinks a while shows for how long, beside the word. The page counts
    // from when it first sees the computer thinking, and shows the count from 2 s on: the
    // computer thinks for the longest the server allows, so that a page slow to open on a
    // loaded machine still sees it thinking for 2 s (at 4 s, it had moved before the page
    // had counted to 2). The game is stopped once seen, which stops its search.
    let game = server.create(json!({
        "game": "projective-hex", "board": "taylor:4",
        "players": {"X": format!("ai:mcts:{}ms", Limits::default().max_think.as_millis()), "O": "human"}
    }));
    let id = game["id"].as_str().unwrap();
    session.open(&server.url(&format!("/#/game/{id}")));
    let thinking = session.wait_for_text("#status", " s. You are watching.");
    assert!(
        session.find_all("#status[data-turn]").is_empty(),
        "not the reader's turn"
    );
    let seconds = thinking
        .split("the computer is thinking… ")
        .nth(1)
        .and_then(|rest| rest.split(" s. You are watching.").next())
        .and_then(|n| n.parse::<u32>().ok());
    assert!(seconds.is_some_and(|s| s >= 2), "{thinking}");

    // Sound is off until turned on.
    session.wait_for_text("#sound", "Sound: off");
    session.click_first("#sound");
    session.wait_for_text("#sound", "Sound: on");
    // Music too, off until turned on: it plays while the game goes on, and stops once the
    // reader leaves the game's page.
    session.wait_for_text("#music", "Music: off");
    session.click_first("#music");
    session.wait_for_text("#music", "Music: on");
    session.wait_for("html[data-music='playing']");
    session.click_first("nav a[href='#/games']");
    session.wait_for("html:not([data-music])");
    // The saved games are cards on a phone: every field, the result and the date
    // included, within the screen's width and named.
    session.wait_for("table.games tr[data-id]");
    let outside = session.read(
        "return [...document.querySelectorAll('table.games tr[data-id] td')]\
           .filter((td) => td.getBoundingClientRect().right > innerWidth)\
           .map((td) => td.innerText)",
    );
    assert_eq!(outside, json!([]), "fields past the screen's edge");
    assert_eq!(
        session.read(
            "return getComputedStyle(document.querySelector('table.games tr[data-id] \
             td[data-label]'), '::before').content"
        ),
        json!("\"board: \""),
    );
    let (status, stopped) = server.post(
        &format!("/api/games/{id}/stop"),
        json!({"token": game["tokens"]["owner"]}),
    );
    assert_eq!(status, 200, "{stopped}");
    assert_eq!(stopped["moves"], json!([]), "stopped while thinking");
    assert_eq!(session.console_errors(), Vec::<String>::new());
    session.screenshot("phone-nim");
}

/// The median and the 95th percentile of some times.
fn median_p95(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    (at(0.5), at(0.95))
}

/// The page figures of BENCHMARKS.md (not a test: it asserts no times). Run with
/// `cargo test -p crosscap-server --test browser -- --ignored page_figures --nocapture`;
/// `PAGE_FIGURES_FLAGS` adds browser flags (e.g. `--disable-3d-apis`: the page without WebGL).
/// The page marks `crosscap:clicked`, `crosscap:pending-drawn`, `crosscap:answer` (a new
/// position received, by a move's answer or the live wait), `crosscap:drawn-script` (the
/// drawing's script done) and `crosscap:drawn` (each drawing mark in the frame after the
/// change); the script reads them, and the moves' answers' sizes from the resource timings.
#[test]
#[ignore]
fn page_figures() {
    let server = start(Limits::default());
    let driver = start_driver();
    let flags = std::env::var("PAGE_FIGURES_FLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split_whitespace().collect();
    let session = open_session_with(&driver, &flags);
    let mark = |name: &str| {
        session.read(&format!(
            "const m = performance.getEntriesByName('crosscap:{name}'); \
             return m.length ? m[m.length - 1].startTime : null"
        ))
    };
    let start_game = |board: &str| {
        open_form(&session, &server, "projective-hex", board);
        session.click_first("select[name='O-level'] option[value='random']");
        session.click_first("#start");
        session.wait_for("#board svg.surface");
        session
            .command("GET", "/url", None)
            .as_str()
            .unwrap()
            .to_string()
    };

    // Page ready on goldberg:8: navigation start to the board drawn, fresh loads.
    let url = start_game("goldberg:8");
    let mut ready = Vec::new();
    for _ in 0..7 {
        session.open("about:blank");
        session.open(&url);
        let start = Instant::now();
        loop {
            if let Some(t) = mark("drawn").as_f64() {
                ready.push(t);
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the board was drawn"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    // Click to stone drawn, reply received to drawn, and bytes per move on goldberg:4.
    start_game("goldberg:4");
    let (mut click, mut reply, mut bytes) = (Vec::new(), Vec::new(), Vec::new());
    let (mut script, mut draws_after_answer) = (Vec::new(), 0);
    for _ in 0..30 {
        session.read("performance.clearMarks(); performance.clearResourceTimings()");
        let cells = session.find_all("#board svg.surface polygon[data-move]");
        let Some(cell) = cells.get(cells.len() / 2) else {
            break;
        };
        let before = session.moves_played();
        session.click(cell);
        session.wait_for_move(before);
        let start = Instant::now();
        let marks = loop {
            let m: Vec<Option<f64>> = ["clicked", "pending-drawn", "answer", "drawn"]
                .iter()
                .map(|n| mark(n).as_f64())
                .collect();
            if let [Some(a), Some(b), Some(c), Some(d)] = m[..]
                && d > c
            {
                break [a, b, c, d];
            }
            assert!(start.elapsed() < WAIT, "the marks were set");
            std::thread::sleep(Duration::from_millis(10));
        };
        click.push(marks[1] - marks[0]);
        reply.push(marks[3] - marks[2]);
        let answer = marks[2];
        let drawings = session.read(&format!(
            "return performance.getEntriesByName('crosscap:drawn-script')\
             .filter(m => m.startTime > {answer}).map(m => m.startTime)"
        ));
        let drawings: Vec<f64> = drawings
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_f64)
            .collect();
        if let Some(first) = drawings.first() {
            script.push(first - answer);
        }
        draws_after_answer += drawings.len();
        let sizes = session.read(
            "return performance.getEntriesByType('resource')\
             .filter(e => e.name.includes('/moves')).map(e => e.encodedBodySize)",
        );
        bytes.extend(sizes.as_array().unwrap().iter().filter_map(Value::as_u64));
    }
    let moves = click.len();
    let (ready_median, ready_p95) = median_p95(ready);
    let (click_median, click_p95) = median_p95(click);
    let (reply_median, reply_p95) = median_p95(reply);
    println!("page ready on goldberg:8: median {ready_median:.0} ms, p95 {ready_p95:.0} ms");
    println!(
        "goldberg:4, {moves} moves: click to stone drawn median {click_median:.1} ms, p95 {click_p95:.1} ms"
    );
    println!("reply received to drawn median {reply_median:.1} ms, p95 {reply_p95:.1} ms");
    let (script_median, script_p95) = median_p95(script);
    println!(
        "of which the drawing's script median {script_median:.1} ms, p95 {script_p95:.1} ms; \
         {draws_after_answer} drawings after the {moves} answers"
    );
    println!(
        "bytes per move's answer: mean {}, max {}",
        bytes.iter().sum::<u64>() / bytes.len().max(1) as u64,
        bytes.iter().max().unwrap_or(&0)
    );
}

// ---- The 3D views (view3d.js) ----

/// Starts `game` on `board` from the new-game form, X you and O the computer at level easy.
/// On the new-game form, each game's option notes start below their fields: a note
/// pulled up under its select once hid half of the select's first line.
fn option_notes_clear_their_fields(session: &Session, server: &common::TestServer) {
    session.open(&server.url("/#/"));
    session.wait_for("#start");
    let games =
        session.read("return [...document.querySelectorAll('#game option')].map(o => o.value)");
    let games = games.as_array().expect("the games on the form");
    assert!(games.len() >= 5, "{games:?}");
    for game in games {
        let game = game.as_str().unwrap();
        session.click_first(&format!("#game option[value='{game}']"));
        let covered = session.read(
            "return [...document.querySelectorAll('#options > div')]
               .filter((option) => option.querySelector('.help').getBoundingClientRect().top
                 < option.querySelector('label').getBoundingClientRect().bottom - 0.5)
               .map((option) => option.querySelector('select, input').name)",
        );
        assert_eq!(
            covered,
            json!([]),
            "{game}: option notes under their fields"
        );
    }
}

/// The new-game form draws the board as it will start and redraws it as the board text or
/// an option changes (moves to play first among them); a board that will not do says why
/// at once; each game says how it is won.
fn the_board_is_drawn_before_the_game_starts(session: &Session, server: &common::TestServer) {
    session.open(&server.url("/#/"));
    session.click_first("#game option[value='projective-hex']");
    session.wait_for_text("#game-summary", "cannot be shrunk to a point");
    let cells_drawn = || {
        session.read(
            "return new Set([...document.querySelectorAll('#board-preview [data-cell]')]
               .map((cell) => cell.dataset.cell)).size",
        )
    };
    session.wait_for_text("#board-preview figcaption", "on taylor:3, at the start");
    assert_eq!(cells_drawn(), json!(27), "taylor:3's cells");
    session.type_into("#board-spec", "taylor:4");
    session.wait_for_text("#board-preview figcaption", "on taylor:4, at the start");
    assert_eq!(cells_drawn(), json!(48), "taylor:4's cells");
    session.type_into("#board-spec", "taylor:99");
    session.wait_for_text("#board-error", "between 2 and 40");
    assert_eq!(cells_drawn(), json!(0), "no board beside the error");
    // Moves to play first: the board as they leave it, and a move that cannot be played
    // refused by its place in the list.
    session.type_into("#board-spec", "taylor:3");
    session.type_into("#options input[name='moves']", "a1 b2");
    session.wait_for_text(
        "#board-preview figcaption",
        "on taylor:3, after the moves given",
    );
    let stones = session.read(
        "return new Set([...document.querySelectorAll('#board-preview [data-cell].X, #board-preview [data-cell].O')]
           .map((cell) => `${cell.dataset.cell} ${cell.classList.contains('X') ? 'X' : 'O'}`)).size",
    );
    assert_eq!(stones, json!(2), "a1 X and b2 O");
    session.type_into("#options input[name='moves']", "a1 a1");
    session.wait_for_text("#board-error", "move 2 of 2: illegal move a1");
    // Euler Getter on another surface: a torus summed with a projective plane (N3).
    session.click_first("#game option[value='euler-getter']");
    session.type_into("#board-spec", "sum:taylor:3+torus:4x4");
    session.wait_for_text(
        "#board-preview figcaption",
        "on sum:taylor:3+torus:4x4, at the start",
    );
    assert_eq!(cells_drawn(), json!(40), "27 + 16 - 3 cells");
    session.click_first("#game option[value='sandpile']");
    session.wait_for_text("#game-summary", "whoever holds every vertex wins");
    session.wait_for_text("#board-preview figcaption", "Sandpile toppling on grid:3x3");
    let vertices =
        session.read("return document.querySelectorAll('#board-preview circle.vertex').length");
    assert_eq!(vertices, json!(9), "grid:3x3's vertices");
    // A pasted graph too long for an address (530 vertices, about 23,000 characters of
    // graph6, three times that escaped) is drawn too: the page posts the board.
    session.paste_into(
        "#board-spec",
        &format!("g6:{}", common::graph6_of_cycle(530)),
    );
    let start = Instant::now();
    while session.read("return document.querySelectorAll('#board-preview circle.vertex').length")
        != json!(530)
    {
        assert!(
            start.elapsed() < WAIT,
            "{}",
            session.read("return document.getElementById('board-error')?.textContent")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The options too: Edge-Nim's tokens, and a count that does not fit the graph.
    session.click_first("#game option[value='edge-nim']");
    session.type_into("#board-spec", "C3");
    session.type_into("input[name='tokens']", "1,2,5");
    session.wait_for_text("#board-preview figcaption", "Edge-Nim on C3");
    let tokens = || {
        session.read(
            "return [...document.querySelectorAll('#board-preview .token-label')]
               .map((edge) => `${edge.dataset.edge}=${edge.querySelector('text').textContent}`)",
        )
    };
    let start = Instant::now();
    while tokens() != json!(["0-1=1", "1-2=2", "0-2=5"]) {
        assert!(start.elapsed() < WAIT, "the tokens drawn: {}", tokens());
        std::thread::sleep(Duration::from_millis(50));
    }
    session.type_into("input[name='tokens']", "1,2");
    session.wait_for_text("#board-error", "one token count per edge (3), not 2");
    // The browser logs the refused requests' 400s; nothing else may be logged.
    let errors = session.console_errors();
    assert!(
        errors
            .iter()
            .all(|e| e.contains("/api/board - ") && e.contains("400")),
        "{errors:?}"
    );
    // In a game on a sum, the 3D view shows each board on its surface, joined by a tube
    // that the three cells around its ends run through, and a cell is played there.
    start_from_form(session, server, "euler-getter", "sum:taylor:3+torus:4x4");
    session.wait_for("#view3d[data-surface='sum']");
    session.wait_for_text("#view3d", "run through it, as three strips");
    // A copy for every piece of a cell on the disk, and the tube's strips, which are not
    // labelled (the disk's pieces: 27 + 16 cells, the 3 through the tube on both boards).
    let pieces = session
        .find_all("#board svg polygon[data-cell]:not(.ghost)")
        .len();
    assert_eq!(pieces, 43);
    // Each board's rim, and where the tube leaves each board, numbered with the other one.
    assert_eq!(session.find_all("#board svg .rim").len(), 2);
    let mouths: Vec<(Option<String>, Option<String>)> = session
        .find_all("#board svg .tube-mouth")
        .iter()
        .map(|m| {
            (
                session.attribute(m, "data-board"),
                session.attribute(m, "data-to"),
            )
        })
        .collect();
    let ends = |board: &str, to: &str| (Some(board.to_string()), Some(to.to_string()));
    assert_eq!(mouths, [ends("1", "2"), ends("2", "1")]);
    let labelled = session.settled_labels_3d();
    assert!(!labelled.is_empty());
    assert!(session.find_all("#view3d .cell3d").len() > pieces);
    assert!(session.play_in_3d(true), "a playable cell on the sum");
    // Its projective plane on the cross-cap instead of Boy's surface, played there too.
    session.click_first("#view3d button[data-surface='sum-crosscap']");
    session.wait_for("#view3d[data-surface='sum-crosscap']");
    session.wait_for_text("#view3d", "run through it, as three strips");
    let started = Instant::now();
    while !session.play_in_3d(true) {
        assert!(
            started.elapsed() < WAIT,
            "no playable cell on the cross-cap sum"
        );
    }
    assert_eq!(session.console_errors(), Vec::<String>::new());
}

/// Opens the new-game form with `game` chosen and `board` typed in.
fn open_form(session: &Session, server: &common::TestServer, game: &str, board: &str) {
    session.open(&server.url("/#/"));
    session.click_first(&format!("#game option[value='{game}']"));
    session.type_into("#board-spec", board);
}

fn start_from_form(session: &Session, server: &common::TestServer, game: &str, board: &str) {
    open_form(session, server, game, board);
    session.click_first("select[name='O-level'] option[value='easy']");
    session.click_first("#start");
    // Else the mouse rests where Start was, over the game page's board, pointing at a move.
    session.pointer_aside();
}

/// A cell copy's label in the 3D view: its cell, and where it is on the canvas.
struct Label {
    cell: String,
    name: String,
    x: i64,
    y: i64,
}

impl Session<'_> {
    /// The labels of the 3D view's cell copies on show that `css` selects.
    fn labels_3d(&self, css: &str) -> Vec<Label> {
        self.find_all(&format!("#view3d .cell3d{css}:not([hidden])"))
            .iter()
            .filter_map(|label| {
                let number = |name| self.attribute(label, name)?.parse().ok();
                Some(Label {
                    cell: self.attribute(label, "data-cell")?,
                    name: self.attribute(label, "data-name")?,
                    x: number("data-x")?,
                    y: number("data-y")?,
                })
            })
            .collect()
    }

    /// The 3D view's labels once it has come to rest (it eases to a stop, then finds the
    /// copies hidden behind others) and says so.
    fn settled_labels_3d(&self) -> Vec<Label> {
        self.wait_for("#view3d[data-settled]");
        self.labels_3d("")
    }

    /// Runs pointer actions on the 3D view's canvas: move to (x, y) of the canvas (CSS
    /// pixels from its top left corner), and with a `button`, press it, move by each step
    /// and release it.
    fn pointer_3d(&self, (x, y): (i64, i64), steps: &[(i64, i64)], button: Option<u8>) {
        let canvas = self.wait_for("#view3d canvas");
        let rect = self.command("GET", &format!("/element/{canvas}/rect"), None);
        let half = |key: &str| rect[key].as_f64().unwrap() as i64 / 2;
        let mut actions = vec![json!({ "type": "pointerMove", "duration": 0,
                    "origin": { "element-6066-11e4-a52e-4f735466cecf": canvas },
                    "x": x - half("width"), "y": y - half("height") })];
        if let Some(button) = button {
            actions.push(json!({ "type": "pointerDown", "button": button }));
            for (dx, dy) in steps {
                actions.push(json!({ "type": "pointerMove", "duration": 20,
                                     "origin": "pointer", "x": dx, "y": dy }));
            }
            actions.push(json!({ "type": "pointerUp", "button": button }));
        }
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "pointer", "id": "mouse",
                "parameters": { "pointerType": "mouse" }, "actions": actions }] })),
        );
    }

    /// Plays the playable cell nearest the middle of the 3D view by clicking it there
    /// (with a mouse, after checking that hovering it lights it on the disk too); turns the
    /// view when no playable cell is on show. Answers whether it played.
    fn play_in_3d(&self, mouse: bool) -> bool {
        self.wait_for("#view3d[data-settled]");
        // The whole canvas in the window (a sum's view lies below its wide disk), so that
        // every label on show can be pointed at.
        self.read("document.querySelector('#view3d .stage').scrollIntoView({ block: 'center' }); return null");
        let mut playable = self.labels_3d("[data-move]");
        playable.sort_by_key(|l| (l.x - 150).pow(2) + (l.y - 150).pow(2));
        let Some(label) = playable.first() else {
            self.pointer_3d((150, 150), &[(40, 0), (40, 0), (40, 0)], Some(0));
            return false;
        };
        if mouse {
            self.pointer_3d((label.x, label.y), &[], None);
            self.wait_for(&format!("#board svg [data-cell='{}'].twin-lit", label.cell));
        }
        let before = self.moves_played();
        self.pointer_3d((label.x, label.y), &[], Some(0));
        self.wait_for_move(before);
        assert_eq!(
            self.nth_text("#move-list li", before),
            format!("{}. {}", before + 1, label.name)
        );
        true
    }

    /// The text of the `n`th element `css` selects, waiting for it; an element the page
    /// redraws meanwhile (the computer's reply) is looked for again.
    fn nth_text(&self, css: &str, n: usize) -> String {
        let start = Instant::now();
        loop {
            if let Some(found) = self.find_all(css).get(n) {
                let url = format!(
                    "{}/session/{}/element/{found}/text",
                    self.driver.base, self.id
                );
                let (status, answer) = call("GET", &url, None);
                if status == 200 {
                    return answer["value"].as_str().unwrap_or_default().to_string();
                }
            }
            assert!(start.elapsed() < WAIT, "no {css} number {n}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn euler_getter_played_to_the_end_on_the_3d_sphere() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    start_from_form(&session, &server, "euler-getter", "goldberg:1");

    zoom_pan_and_reset_3d(&session);

    // Every cell is on the sphere twice, both copies labelled with its name.
    session.wait_for("#view3d .cell3d[data-move]:not([hidden])");
    let copies = session.find_all("#view3d .cell3d");
    assert_eq!(copies.len(), 12, "six cells, two copies each");
    for copy in &copies {
        let cell = session.attribute(copy, "data-cell").unwrap();
        let twins = session.find_all(&format!("#view3d .cell3d[data-cell='{cell}']"));
        let names: Vec<Value> = twins
            .iter()
            .map(|t| session.property(t, "textContent"))
            .collect();
        assert_eq!(names.len(), 2);
        assert_eq!(names[0], names[1], "the same label on both copies");
    }

    // Turn the sphere; after the first move the view has not snapped back (a label is where
    // the turn left it).
    let initial = session.settled_labels_3d();
    session.pointer_3d((150, 150), &[(20, 5), (20, 5), (20, 5)], Some(0));
    let before = session.settled_labels_3d();
    let near = |a: &Label, b: &Label, by: i64| {
        a.cell == b.cell && (a.x - b.x).abs() <= by && (a.y - b.y).abs() <= by
    };
    assert!(
        before
            .iter()
            .any(|b| !initial.iter().any(|i| near(i, b, 20))),
        "the drag turned the sphere"
    );
    let started = Instant::now();
    let mut moves = 0;
    while !session.is_over() {
        assert!(started.elapsed() < GAME_WAIT, "the game did not end");
        // The labels of playable cells carry data-move on X's turn only.
        if session.find_all("#view3d .cell3d[data-move]").is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        if session.play_in_3d(true) {
            moves += 1;
            if moves == 1 {
                // The computer's reply turns the view only if no copy of its cell was on
                // show, and then until one is.
                session.wait_for_move(1);
                let reply = session.nth_text("#move-list li", 1);
                let reply = reply.rsplit(' ').next().unwrap();
                let after = session.settled_labels_3d();
                if before.iter().any(|b| b.name == reply) {
                    assert!(
                        before.iter().all(|b| after.iter().any(|a| near(a, b, 2))),
                        "the view kept its orientation"
                    );
                } else {
                    assert!(
                        after.iter().any(|a| a.name == reply),
                        "{reply} turned into view"
                    );
                }
            }
        }
    }
    assert!(moves >= 3, "X played its cells in 3D");
    let said = session.wait_for_text("#end-card:not([hidden])", "You ");
    assert!(
        said.contains("You won") || said.contains("You lost"),
        "{said}"
    );
    assert_eq!(session.console_errors(), Vec::<String>::new());
    session.screenshot("euler-getter-3d");

    // A pasted projective plane (the hemi-cube, with vertex positions for the disk) is cut
    // open into a disk for the 3D view, and played there.
    start_from_form(
        &session,
        &server,
        "euler-getter",
        r#"{"faces": [[0, 1, 2, 3], [0, 1, 3, 2], [1, 2, 0, 3]],
            "positions": {"0": [0, 0], "1": [2, 0], "2": [2, 2], "3": [0, 2]}}"#,
    );
    session.wait_for("#view3d[data-surface='boy']");
    assert_eq!(
        session.find_all("#view3d .cell3d").len(),
        3,
        "one copy a cell"
    );
    assert!(session.play_in_3d(true), "a playable cell in view");
    // Without positions the disk shows the graph of its faces, and the 3D view is the same.
    start_from_form(
        &session,
        &server,
        "euler-getter",
        r#"{"faces": [[0, 1, 2, 3], [0, 1, 3, 2], [1, 2, 0, 3]]}"#,
    );
    session.wait_for_text("#board .note", "no vertex positions");
    session.wait_for("#view3d[data-surface='boy']");
    assert!(session.play_in_3d(false), "a playable cell in view");
    assert_eq!(session.console_errors(), Vec::<String>::new());
}

#[test]
fn a_cell_is_played_on_each_3d_surface_on_a_phone() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session_at(&driver, "375,800");
    for (board, surface) in [
        ("taylor:2", "boy"),
        ("torus:2x3", "torus"),
        ("klein:2x3", "klein"),
    ] {
        start_from_form(&session, &server, "projective-hex", board);
        // On a phone the disk and the 3D view are tabs; the page keeps the one chosen.
        if surface == "boy" {
            session.click_first(".views .tabs [data-tab='3d']");
        }
        session.wait_for(&format!("#view3d[data-surface='{surface}']"));
        // Each model says what it shows; the torus, embedded as it is, needs no word.
        let note = match surface {
            "boy" => "each cell drawn once",
            "klein" => "passes through itself along a circle",
            _ => "",
        };
        let shown = session
            .read("const p = document.querySelector('#surface-note'); return p.hidden ? '' : p.textContent");
        assert!(
            shown
                .as_str()
                .is_some_and(|text| text.contains(note) && (note.is_empty() == text.is_empty())),
            "{board}: {shown}"
        );
        assert!(session.document_width() <= 375, "{board}");
        // Hidden copies are known once the view has settled.
        session.settled_labels_3d();
        assert!(
            session.play_in_3d(false),
            "{board}: a playable cell in view"
        );
        if surface == "boy" {
            // The projective plane is also on the sphere, each cell twice.
            session.click_first("#view3d button[data-surface='sphere']");
            session.wait_for("#view3d[data-surface='sphere']");
            let cells: std::collections::HashSet<String> = session
                .find_all("#board svg polygon[data-cell]")
                .iter()
                .filter_map(|p| session.attribute(p, "data-cell"))
                .collect();
            assert_eq!(session.find_all("#view3d .cell3d").len(), 2 * cells.len());
            session.wait_for_text("#surface-note", "each cell is drawn twice");
            // And on the cross-cap, each cell once, and played there.
            session.click_first("#view3d button[data-surface='crosscap']");
            session.wait_for("#view3d[data-surface='crosscap']");
            assert_eq!(session.find_all("#view3d .cell3d").len(), cells.len());
            session.settled_labels_3d();
            assert!(
                session.play_in_3d(false),
                "{board}: a playable cell on the cross-cap"
            );
        }
    }
    // A sum's boards, side by side on a wide screen, go one above the other on a phone; in
    // 3D they are in a row, and a cell is played there.
    start_from_form(
        &session,
        &server,
        "projective-hex",
        "sum:taylor:2+torus:2x3",
    );
    session.wait_for("#view3d[data-surface='sum']");
    session.settled_labels_3d();
    assert!(session.play_in_3d(false), "a playable cell on the sum");
    session.click_first(".views .tabs [data-tab='disk']");
    let tall = session.read(
        "const box = document.querySelector('#board svg.surface').viewBox.baseVal;
         return box.height > 1.5 * box.width",
    );
    assert_eq!(tall, json!(true), "the boards one above the other");
    assert_eq!(session.console_errors(), Vec::<String>::new());
}

/// The manifold game's surfaces in 3D beside the cards: one a card, each of its kind
/// (labelled over it with its genus and orientability, drawn as its card is: a torus a
/// handle, a cross-cap a crosscap); the curve of a move pointed at drawn on the surface it
/// cuts, that surface in the move's form; the hint's curve at rest; the view turned and
/// reset; after a move the surfaces left, those the last move left lit; the 3D tab on a
/// phone; and without WebGL the cards alone, with nothing logged.
#[test]
fn manifold_surfaces_turned_in_3d() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    start_from_form(&session, &server, "manifold", "n3 o2 S");
    session.wait_for("#view3d.manifold3d[data-settled]");
    // Each label's name, genus, orientability, the form drawn and its curve, if any.
    let labels = || {
        session.read(
            "return [...document.querySelectorAll('#view3d .surface3d:not([hidden])')].map(l =>
               [l.dataset.name, l.dataset.genus, l.dataset.orientable, l.dataset.handles,
                l.dataset.crosscaps, l.dataset.cut || null]).sort()",
        )
    };
    assert_eq!(
        labels(),
        json!([
            ["S", "0", "true", "0", "0", null],
            ["n3", "3", "false", "0", "3", null],
            ["o2", "2", "true", "2", "0", null]
        ])
    );
    let said = session.attribute(&session.wait_for("#view3d canvas"), "aria-label");
    assert!(
        said.as_deref()
            .is_some_and(|s| s.contains("n3 (non-orientable, 3 cross-caps)")),
        "{said:?}"
    );
    // Pointing at a move draws its curve on the surface it cuts, in the move's form: n3 as
    // a handle and a crosscap for the separating cut (h), through two crosscaps for (e).
    let point = |mv: &str| {
        session.read(&format!(
            "document.querySelector(\"#board [data-move='{mv}']\").focus(); return null"
        ));
    };
    let on = |name: &str| {
        let all = labels();
        all.as_array()
            .unwrap()
            .iter()
            .find(|l| l[0] == name)
            .cloned()
            .unwrap()
    };
    // Each move, the surface it cuts, and the handles, crosscaps and cut drawn there.
    for (mv, surface, form) in [
        ("h:n3->o1+n1", "n3", ["1", "1", "after"]),
        ("e:n3->n1", "n3", ["0", "3", "two"]),
        ("c:n3->n2", "n3", ["0", "3", "one"]),
        ("a:o2->o1", "o2", ["2", "0", "ring"]),
    ] {
        point(mv);
        let drawn = on(surface);
        assert_eq!(
            drawn.as_array().unwrap()[3..],
            form.map(Value::from),
            "{mv}"
        );
        let curves = session.attribute(&session.wait_for("#view3d"), "data-curves");
        assert_eq!(curves.as_deref(), Some(mv));
        let said = session.attribute(&session.wait_for("#view3d canvas"), "aria-label");
        assert!(
            said.unwrap()
                .contains(&format!("the curve of {mv} drawn on {surface}"))
        );
    }
    session.read("document.activeElement.blur(); return null");
    assert_eq!(
        on("o2"),
        json!(["o2", "2", "true", "2", "0", null]),
        "back at rest"
    );
    assert!(session.find_all("#view3d[data-curves]").is_empty());
    // The hint's surface is lit and drawn with its curve at rest, as its card is.
    session.click_first("#hint");
    session.wait_for("#board button.hint");
    let hinted = session.read("return document.querySelector('#board button.hint').dataset.move");
    let from = hinted.as_str().unwrap().split([':', '-']).nth(1).unwrap();
    session.wait_for(&format!(
        "#view3d .surface3d[data-hint][data-cut][data-name='{from}']"
    ));

    // A drag turns the surfaces (a label moves), Reset view brings them back.
    let places = || {
        session.read(
            "return [...document.querySelectorAll('#view3d .surface3d')].map(l => [l.dataset.x, l.dataset.y])",
        )
    };
    session.wait_for("#view3d[data-settled]");
    let before = places();
    session.pointer_3d((200, 200), &[(30, 10), (30, 10), (30, 10)], Some(0));
    session.wait_for("#view3d[data-settled]");
    assert_ne!(places(), before, "the drag turned the view");
    session.click_first("#view3d .reset");
    session.wait_for("#view3d[data-settled]");
    assert_eq!(places(), before, "the view reset");

    // A move played: the view shows the surfaces left, one a card, those the last move left
    // lit as their cards are.
    let cards = || {
        session.read(
            "return [...document.querySelectorAll('#board .card')].map(e => e.dataset.surface)",
        )
    };
    let first = cards();
    session.click_first("#board [data-move='b:o2->o1+o1']");
    session.wait_for_move(0);
    let start = Instant::now();
    loop {
        let both = session.read(
            "const names = (css, key) => [...document.querySelectorAll(css)].map(e => e.dataset[key]);
             return [names('#board .card', 'surface'), names('#view3d .surface3d', 'name'),
                     names('#board .card.last', 'surface'), names('#view3d .surface3d[data-last]', 'name')]",
        );
        let settled = !session.find_all("#view3d[data-settled]").is_empty();
        if settled && both[0] == both[1] && both[2] == both[3] && both[0] != first {
            assert!(!both[2].as_array().unwrap().is_empty(), "{both}");
            break;
        }
        assert!(start.elapsed() < WAIT, "the view never followed: {both}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        session.find_all("#view3d .surface3d[hidden]").is_empty(),
        "every surface in view"
    );
    assert_eq!(session.console_errors(), Vec::<String>::new());
    session.screenshot("manifold-3d");

    // On a phone the cards and the surfaces are tabs, and the page no wider than the phone.
    let phone = open_session_at(&driver, "375,800");
    start_from_form(&phone, &server, "manifold", "n2 o1");
    phone.click_first(".views .tabs [data-tab='3d']");
    phone.wait_for("#view3d[data-settled] .surface3d[data-name='n2']:not([hidden])");
    assert!(phone.document_width() <= 375);
    assert_eq!(phone.console_errors(), Vec::<String>::new());

    // Surfaces of over 200 handles and crosscaps in all (o201 alone) would be slow to
    // build and turn: the cards say they have no 3D view.
    start_from_form(&session, &server, "manifold", "o201");
    session.wait_for_text("#board", "too many handles and crosscaps for the 3D view");
    assert!(session.find_all("#view3d").is_empty());
    assert_eq!(session.console_errors(), Vec::<String>::new());

    // Without WebGL the cards are played alone, and nothing is logged.
    let flat = open_session_with(&driver, &["--disable-3d-apis"]);
    start_from_form(&flat, &server, "manifold", "n2 o1");
    flat.wait_for_text("#board", "need WebGL");
    flat.click_first("#board [data-move]");
    flat.wait_for("#move-list li");
    assert!(flat.find_all("#view3d").is_empty());
    assert!(!flat.find_all("#board .card").is_empty());
    assert_eq!(flat.console_errors(), Vec::<String>::new());
}

/// A session as `open_session` opens, with more command line flags for chromium.
fn open_session_with<'a>(driver: &'a Driver, flags: &[&str]) -> Session<'a> {
    new_session(driver, "1200,1000", flags)
}

#[test]
fn without_webgl_the_disk_is_played_alone_and_nothing_is_logged() {
    let server = start(Limits::default());
    let driver = start_driver();
    played_flat_without_webgl(
        &driver,
        &server,
        ("euler-getter", "goldberg:2"),
        "#board svg polygon[data-move]",
    );
}

/// In a browser without WebGL, `game` on `board` is played on its flat drawing alone (a
/// click on the first of `moves`), which says why there is no 3D view; nothing is logged.
fn played_flat_without_webgl(
    driver: &Driver,
    server: &common::TestServer,
    (game, board): (&str, &str),
    moves: &str,
) {
    let session = open_session_with(driver, &["--disable-3d-apis"]);
    start_from_form(&session, server, game, board);
    session.click_first(moves);
    session.wait_for("#move-list li");
    session.wait_for_text("#board", "need WebGL");
    assert!(session.find_all("#view3d").is_empty());
    assert_eq!(session.console_errors(), Vec::<String>::new());
}

/// The graph games in 3D beside their flat drawings: K4 stands as a regular tetrahedron;
/// Edge-Nim on K4 played to the end by picking vertices in 3D (then Take), each edge's
/// label there showing its tokens as the server has them and the edges the last move took
/// from lit; the sandpile game on K4 played to the end by placing grains in 3D, each
/// vertex's label showing its score; a grain placed in the 3D tab on a phone. A graph
/// of over 300 vertices, or a browser without WebGL, has the flat drawing alone.
#[test]
fn graph_games_played_in_3d() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    // The layout: the six edges of K4, from a flat drawing, all of a length in space.
    let lengths = session_layout_lengths(&session, &server);
    let (least, most) = lengths
        .iter()
        .fold((f64::MAX, 0f64), |(a, b), &l| (a.min(l), b.max(l)));
    assert!(most / least < 1.02, "K4 as a tetrahedron: {lengths:?}");

    open_form(&session, &server, "edge-nim", "K4");
    session.type_into("#options input[name='tokens']", "*=2");
    session.click_first("select[name='O-level'] option[value='random']");
    session.click_first("#start");
    session.wait_for("#view3d canvas");
    let said = session.attribute(&session.wait_for("#view3d canvas"), "aria-label");
    assert_eq!(
        said.as_deref(),
        Some("The graph in 3D (vertices: 4, edges: 6)")
    );
    let mut moves = 0;
    let started = Instant::now();
    while !session.is_over() {
        assert!(started.elapsed() < GAME_WAIT, "Edge-Nim did not end");
        if session.find_all("#board .vertex.pickable").is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let before = session.moves_played();
        counts_in_3d_as_served(&session, &server, ".edge3d", "edges", tokens_served);
        // A vertex picked in 3D is picked on the flat drawing; one with tokens left gets
        // the Take box, where its first edge is emptied.
        for vertex in session.settled_labels_3d_of(".vertex3d") {
            session.pointer_3d((vertex.x, vertex.y), &[], Some(0));
            session.wait_for(&format!(
                "#board .vertex.selected[data-vertex='{}']",
                vertex.name
            ));
            session.wait_for(&format!(
                "#view3d .vertex3d.selected[data-vertex='{}']",
                vertex.name
            ));
            if !session.find_all("#take input").is_empty() {
                break;
            }
        }
        let first = session.wait_for("#take input");
        let edge = session.attribute(&first, "name").unwrap();
        session.type_into("#take input", "0");
        session.click_first("#take-button");
        session.wait_for_move(before);
        moves += 1;
        // The edge emptied shows 0 in 3D, lit as the last move's (until the reply).
        let label = format!("#view3d .edge3d[data-edge='{edge}']");
        session.wait_for_text(&format!("{label} .count"), "0");
        let lit = session.read(&format!(
            "return document.querySelector(\"{label}\").classList.contains('last')"
        ));
        assert!(
            lit == json!(true) || session.moves_played() > before + 1,
            "{edge} lit as the last move's (or the reply's since)"
        );
    }
    assert!(moves >= 2, "X played its moves in 3D");
    counts_in_3d_as_served(&session, &server, ".edge3d", "edges", tokens_served);
    session.wait_for_text("#end-card .end-how", "cannot move");
    session.screenshot("edge-nim-3d");

    // The sandpile game: a grain placed in 3D, each vertex's score over its threshold
    // shown there as the server has it.
    open_form(&session, &server, "sandpile", "K4");
    session.click_first("select[name='O-level'] option[value='random']");
    session.click_first("#start");
    let started = Instant::now();
    let mut placed = 0;
    while !session.is_over() {
        assert!(
            started.elapsed() < GAME_WAIT,
            "the sandpile game did not end"
        );
        if session.find_all("#board .vertex[data-move]").is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        counts_in_3d_as_served(&session, &server, ".vertex3d", "vertices", scores_served);
        let playable = session.settled_labels_3d_of(".vertex3d[data-move]");
        let Some(vertex) = playable.first() else {
            continue;
        };
        let before = session.moves_played();
        session.pointer_3d((vertex.x, vertex.y), &[], Some(0));
        session.wait_for_move(before);
        assert_eq!(
            session.nth_text("#move-list li", before),
            format!("{}. {}", before + 1, vertex.name)
        );
        placed += 1;
    }
    assert!(placed >= 1, "X placed grains in 3D");
    counts_in_3d_as_served(&session, &server, ".vertex3d", "vertices", scores_served);
    session.wait_for_text("#end-card .end-how", "holds all");
    assert_eq!(session.console_errors(), Vec::<String>::new());
    session.screenshot("sandpile-3d");

    played_in_3d_on_a_phone(&driver, &server, ("sandpile", "C5"), ".vertex3d");

    // A graph of over 300 vertices is drawn flat alone, and says why.
    start_from_form(&session, &server, "edge-nim", "cycle:301");
    session.wait_for_text("#board", "too many vertices for the 3D view");
    assert!(session.find_all("#view3d").is_empty());

    played_flat_without_webgl(
        &driver,
        &server,
        ("sandpile", "K4"),
        "#board .vertex[data-move]",
    );
}

/// On a phone the 3D view of `game` on `board` is a tab, no wider than the screen, where
/// the first of its `labels` that plays a move is played by a tap.
fn played_in_3d_on_a_phone(
    driver: &Driver,
    server: &common::TestServer,
    (game, board): (&str, &str),
    labels: &str,
) {
    let phone = open_session_at(driver, "375,800");
    start_from_form(&phone, server, game, board);
    phone.click_first(".views .tabs [data-tab='3d']");
    let label = phone
        .settled_labels_3d_of(&format!("{labels}[data-move]"))
        .into_iter()
        .next()
        .expect("a move to play in 3D");
    assert!(phone.document_width() <= 375);
    phone.pointer_3d((label.x, label.y), &[], Some(0));
    phone.wait_for_move(0);
    assert_eq!(
        phone.nth_text("#move-list li", 0),
        format!("1. {}", label.name)
    );
    assert_eq!(phone.console_errors(), Vec::<String>::new());
}

/// The graph games' labels and arrowheads in 3D: at the starting view at most two pairs of
/// labels on show overlap on each of K4, K5, the cube and Petersen (K5 had 5 such pairs,
/// the cube 7, Petersen 10); a label is hidden behind a rod nearer the eye as behind a
/// sphere, but not behind its own; on a directed sandpile board each arc has one
/// arrowhead, pointing along it at its head.
#[test]
fn graph_labels_and_arrows_in_3d() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    session.open(&server.url("/#/"));
    let cube = "edges:0-1,1-2,2-3,3-0,4-5,5-6,6-7,7-4,0-4,1-5,2-6,3-7";
    let mut overlapping = Vec::new();
    for board in ["K4", "K5", cube, "petersen"] {
        let game = server.create(json!({"game": "edge-nim", "board": board,
            "players": {"X": "human", "O": "human"}}));
        session.open_seated(&server, &game);
        session.wait_for("#view3d .edge3d[data-edge]");
        session.settled_labels_3d_of(".vertex3d");
        let overlaps = session.read(
            "const boxes = [...document.querySelectorAll('#view3d .vertex3d:not([hidden]), #view3d .edge3d:not([hidden])')]
               .map((label) => [label.dataset.vertex ?? label.dataset.edge, label.getBoundingClientRect()]);
             return boxes.flatMap(([a, p], i) => boxes.slice(i + 1)
               .filter(([, q]) => p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom)
               .map(([b]) => `${a} over ${b}`))",
        );
        if overlaps.as_array().unwrap().len() > 2 {
            overlapping.push(format!("{board}: {overlaps}"));
        }
    }
    assert_eq!(
        overlapping,
        Vec::<String>::new(),
        "labels overlapping in 3D"
    );
    assert_eq!(
        labels_hidden_by_rods(&session),
        json!([true, false, false, false, true, false, true]),
        "a label at the origin seen from above: behind a rod across the sight line, its own \
         rod, a rod behind it, a rod beside the sight line; a vertex's behind a rod, \
         behind its own rod; an edge's behind a sphere"
    );
    arcs_pointed_in_3d(&session, &server);
    assert_eq!(session.console_errors(), Vec::<String>::new());
}

/// graph3d.js's `hidden` for a label at the origin seen from (0, 0, 10), past rods across
/// the sight line and spheres (in the order `graph_labels_and_arrows_in_3d`
/// says).
fn labels_hidden_by_rods(session: &Session) -> Value {
    session.command(
        "POST",
        "/execute/async",
        Some(json!({ "script": "const done = arguments[0];
            Promise.all([import('/static/graph3d.js'), import('/static/vendor/three.module.js')])
              .then(([{ hidden }, { Vector3 }]) => {
                const eye = new Vector3(0, 0, 10);
                const origin = new Vector3();
                // A rod between vertices 5 and 6 along x, at height z, y off the sight line.
                const across = (z, y = 0) => ({ a: new Vector3(-1, y, z), b: new Vector3(1, y, z),
                  middle: new Vector3(0, y, z), half: 1, radius: 0.05, u: 5, v: 6 });
                const upright = { a: origin, b: new Vector3(0, 0, 3), middle: new Vector3(0, 0, 1.5),
                  half: 1.5, radius: 0.05, u: 0, v: 1 };
                done([
                  hidden(eye, origin, { edge: 1 }, [], [across(2)]),
                  hidden(eye, origin, { edge: 0 }, [], [across(2)]),
                  hidden(eye, origin, { edge: 1 }, [], [across(-2)]),
                  hidden(eye, origin, { edge: 1 }, [], [across(2, 0.5)]),
                  hidden(eye, origin, { vertex: 0 }, [origin], [across(2)]),
                  hidden(eye, origin, { vertex: 0 }, [origin], [upright]),
                  hidden(eye, origin, { edge: 0 }, [new Vector3(0, 0, 2)], []),
                ]);
              });", "args": [] })),
    )
}

/// The sandpile game on the arcs 0>1 and 2>1 in 3D: one arrowhead an arc (as the canvas's
/// data-arrows has them drawn, from base to point), its point nearer the arc's head than
/// its base is and the arrow along the line from the tail.
fn arcs_pointed_in_3d(session: &Session, server: &common::TestServer) {
    start_from_form(session, server, "sandpile", "arcs:0>1,2>1");
    let canvas = session.wait_for("#view3d canvas[data-arrows]");
    let vertices = session.settled_labels_3d_of(".vertex3d");
    assert_eq!(vertices.len(), 3, "every vertex in sight");
    let arrows: Value =
        serde_json::from_str(&session.attribute(&canvas, "data-arrows").unwrap()).unwrap();
    let at = |label: &Label| (label.x as f64, label.y as f64);
    let point = |p: &Value| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
    let apart = |(x, y): (f64, f64), (u, v): (f64, f64)| (x - u).hypot(y - v);
    let mut drawn: Vec<(String, String)> = arrows
        .as_array()
        .unwrap()
        .iter()
        .map(|arrow| {
            let (base, tip) = (point(&arrow[0]), point(&arrow[1]));
            let head = vertices
                .iter()
                .min_by(|a, b| apart(at(a), tip).total_cmp(&apart(at(b), tip)))
                .unwrap();
            assert!(
                apart(at(head), tip) < apart(at(head), base),
                "an arrow pointing away from {}: {arrow}",
                head.name
            );
            // How nearly the line from a vertex to the head runs the way the arrow points.
            let along = |tail: &Label| {
                let (dx, dy) = (at(head).0 - at(tail).0, at(head).1 - at(tail).1);
                (dx * (tip.0 - base.0) + dy * (tip.1 - base.1)) / (dx.hypot(dy) * apart(tip, base))
            };
            let tail = vertices
                .iter()
                .filter(|v| v.name != head.name)
                .max_by(|a, b| along(a).total_cmp(&along(b)))
                .unwrap();
            assert!(along(tail) > 0.95, "an arrow off its arc: {arrow}");
            (tail.name.clone(), head.name.clone())
        })
        .collect();
    drawn.sort();
    let arcs = [("0", "1"), ("2", "1")].map(|(u, v)| (u.to_string(), v.to_string()));
    assert_eq!(drawn, arcs, "the arrowheads drawn, tail to head");
}

/// Nim in 3D beside its flat drawing: each heap's size shown over its stack as the server
/// has it, the hint's counters lit as on the flat drawing, a game against the computer
/// played to the end by clicks on counters in 3D (a counter takes itself and those above
/// it, as on the flat drawing), the heap the last move took from marked with how many it
/// took; a tall heap drawn in part, saying how many counters it leaves out; a counter
/// tapped in the 3D tab on a phone; without WebGL the flat drawing plays alone.
#[test]
fn nim_played_to_the_end_in_3d() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    start_from_form(&session, &server, "nim", "3 4 5");
    let canvas = session.wait_for("#view3d canvas");
    assert_eq!(
        session.attribute(&canvas, "aria-label").as_deref(),
        Some("The heaps in 3D (counters: 3, 4, 5)")
    );
    counts_in_3d_as_served(&session, &server, ".size3d", "heaps", heap_served);
    assert_eq!(session.find_all("#view3d .counter3d").len(), 12);

    // A solve's winning counters are told apart from the hint's in 3D, as the flat drawing
    // dashes their ring: a paler green.
    session.click_first("#solve");
    session.wait_for_text("#solve-note", "Solved");
    let colours = |css: &str| {
        let started = Instant::now();
        loop {
            let found = session.read(&format!(
                "return [...new Set([...document.querySelectorAll('#view3d .counter3d{css}')].map((c) => c.dataset.colour))]"
            ));
            if found != json!([]) {
                return found;
            }
            assert!(started.elapsed() < WAIT, "no {css} counter in 3D");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let solved = colours(".solved");

    // The hint's counters are lit in 3D as on the flat drawing.
    session.click_first("#hint");
    session.wait_for_text("#hint-note", "ringed on the board");
    let hinted = colours(".hint");
    assert_eq!(hinted.as_array().unwrap().len(), 1, "{hinted}");
    assert!(
        solved.as_array().unwrap().iter().all(|c| c != &hinted[0]),
        "a solve's counters {solved} as green as the hint's {hinted}"
    );
    let lit = |css: &str| {
        session.read(&format!(
            "return [...document.querySelectorAll('{css}.hint')].map((c) => c.dataset.move).sort()"
        ))
    };
    let flat = lit("#board .pane-disk .counter");
    assert!(
        !flat.as_array().unwrap().is_empty(),
        "a hint on the flat drawing"
    );
    let started = Instant::now();
    while lit("#view3d .counter3d") != flat {
        assert!(started.elapsed() < WAIT, "the hint {flat} not lit in 3D");
        std::thread::sleep(Duration::from_millis(50));
    }

    let mut moves = 0;
    let started = Instant::now();
    while !session.is_over() {
        assert!(started.elapsed() < GAME_WAIT, "Nim did not end");
        if session.find_all("#view3d .counter3d[data-move]").is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        counts_in_3d_as_served(&session, &server, ".size3d", "heaps", heap_served);
        let playable = session.settled_labels_3d_of(".counter3d[data-move]");
        let Some(counter) = playable.get(moves % playable.len().max(1)) else {
            continue;
        };
        let (heap, left) = counter.name.split_once(':').unwrap();
        let size = session.read(&format!(
            "return document.querySelector(\"#view3d .size3d[data-heap='{heap}']\").textContent"
        ));
        let taken =
            size.as_str().unwrap().parse::<usize>().unwrap() - left.parse::<usize>().unwrap();
        let before = session.moves_played();
        session.pointer_3d((counter.x, counter.y), &[], Some(0));
        session.wait_for_move(before);
        assert_eq!(
            session.nth_text("#move-list li", before),
            format!("{}. {}", before + 1, counter.name)
        );
        moves += 1;
        // The heap taken from says how many went (until the reply).
        let marked = session.read(&format!(
            "return document.querySelector(\"#view3d .heap3d.last[data-heap='{heap}']\")?.dataset.taken ?? null"
        ));
        assert!(
            marked == json!(taken.to_string()) || session.moves_played() > before + 1,
            "heap {heap} marked as {taken} taken: {marked}"
        );
    }
    assert!(moves >= 2, "X played its moves in 3D");
    counts_in_3d_as_served(&session, &server, ".size3d", "heaps", heap_served);
    session.wait_for_text("#end-card .end-how", "cannot move");
    assert_eq!(session.console_errors(), Vec::<String>::new());
    session.screenshot("nim-3d");

    // A tall heap: its lowest 12 and top 12 counters, the 6 between them said; its top
    // counter taken in 3D (by one of two people on this device, so that no reply follows).
    let game = server.create(json!({"game": "nim", "board": "30 2",
        "players": {"X": "human", "O": "human"}}));
    session.open_seated(&server, &game);
    session.wait_for_text("#view3d .more3d[data-heap='1']", "+6");
    session.wait_for_text("#view3d .note", "lowest 12 and its top 12");
    assert_eq!(
        session.find_all("#view3d .counter3d[data-heap='1']").len(),
        24
    );
    let top = session
        .settled_labels_3d_of(".counter3d[data-move='1:29']")
        .into_iter()
        .next()
        .expect("the tall heap's top counter in view");
    session.pointer_3d((top.x, top.y), &[], Some(0));
    session.wait_for_move(0);
    assert_eq!(session.nth_text("#move-list li", 0), "1. 1:29");
    session.wait_for_text("#view3d .more3d[data-heap='1']", "+5");
    session.screenshot("nim-3d-tall");
    assert_eq!(session.console_errors(), Vec::<String>::new());

    played_in_3d_on_a_phone(&driver, &server, ("nim", "3 4 5"), ".counter3d");
    played_flat_without_webgl(
        &driver,
        &server,
        ("nim", "3 4 5"),
        "#board .counter[data-move]",
    );
}

/// A Nim heap as the server has it: its number (from 1) and size.
fn heap_served(index: usize, size: &Value) -> (String, String) {
    ((index + 1).to_string(), size.to_string())
}

/// The lengths of K4's edges in space as graph3d.js lays K4 out from a flat drawing (a
/// triangle round its centre).
fn session_layout_lengths(session: &Session, server: &common::TestServer) -> Vec<f64> {
    session.open(&server.url("/#/"));
    session.wait_for("#board-spec");
    let lengths = session.command(
        "POST",
        "/execute/async",
        Some(json!({ "script": "const done = arguments[0];
            import('/static/graph3d.js').then(({ layout3d }) => {
              const { edges } = layout3d([[0, 0], [100, 0], [50, 86], [50, 29]],
                [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
              done(edges.map(([a, b]) => a.distanceTo(b)));
            });", "args": [] })),
    );
    lengths
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_f64().unwrap())
        .collect()
}

/// An Edge-Nim edge as the server has it: its name and tokens.
fn tokens_served(_: usize, edge: &Value) -> (String, String) {
    (
        edge["name"].as_str().unwrap().into(),
        edge["tokens"].to_string(),
    )
}

/// A sandpile vertex as the server has it: its name and score over its threshold.
fn scores_served(_: usize, vertex: &Value) -> (String, String) {
    let name = vertex["name"].as_str().unwrap().into();
    (name, format!("{}/{}", vertex["score"], vertex["threshold"]))
}

/// Waits until the 3D view's labels `css` show, by their data-vertex, data-edge or
/// data-heap, the counts the server has for the game on show: `field` of its view, each
/// entry read by `count` (given its index) as (name, text).
fn counts_in_3d_as_served(
    session: &Session,
    server: &common::TestServer,
    css: &str,
    field: &str,
    count: fn(usize, &Value) -> (String, String),
) {
    let hash = session.read("return location.hash");
    let id = hash
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    let started = Instant::now();
    loop {
        let (_, state) = server.get(&format!("/api/games/{id}"));
        let mut served: Vec<(String, String)> = state["view"][field]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, entry)| count(i, entry))
            .collect();
        served.sort();
        let shown = session.read(&format!(
            "return [...document.querySelectorAll('#view3d {css}')].map((l) =>
               [l.dataset.vertex ?? l.dataset.edge ?? l.dataset.heap, (l.querySelector('.count') ?? l).textContent])"
        ));
        let mut shown: Vec<(String, String)> = shown
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l[0].as_str().unwrap().into(), l[1].as_str().unwrap().into()))
            .collect();
        shown.sort();
        if shown == served {
            return;
        }
        assert!(
            started.elapsed() < WAIT,
            "3D shows {shown:?}, the server {served:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

impl Session<'_> {
    /// The labels `css` (.vertex3d, .edge3d, .counter3d) of a graph's or Nim's 3D view on
    /// show once the view has come to rest, by their data-vertex, data-edge or data-move.
    fn settled_labels_3d_of(&self, css: &str) -> Vec<Label> {
        self.wait_for("#view3d[data-settled]");
        self.read("document.querySelector('#view3d .stage').scrollIntoView({ block: 'center' }); return null");
        self.find_all(&format!("#view3d {css}:not([hidden])"))
            .iter()
            .filter_map(|label| {
                let number = |name| self.attribute(label, name)?.parse().ok();
                let name = self
                    .attribute(label, "data-vertex")
                    .or_else(|| self.attribute(label, "data-edge"))
                    .or_else(|| self.attribute(label, "data-move"))?;
                Some(Label {
                    cell: name.clone(),
                    name,
                    x: number("data-x")?,
                    y: number("data-y")?,
                })
            })
            .collect()
    }
}

/// Zooms the 3D view with the wheel (its labels spread apart), pans it with a right-button
/// drag (a label moves with the pointer) and brings it back with Reset view.
fn zoom_pan_and_reset_3d(session: &Session) {
    let start = session.settled_labels_3d();
    let canvas = session.wait_for("#view3d canvas");
    let spread = |labels: &[Label]| {
        let xs = labels.iter().map(|l| l.x);
        xs.clone().max().unwrap() - xs.min().unwrap()
    };

    // The wheel zooms in: the labels on show spread apart.
    session.command(
        "POST",
        "/actions",
        Some(
            json!({ "actions": [{ "type": "wheel", "id": "wheel", "actions": [
                { "type": "scroll", "x": 0, "y": 0, "deltaX": 0, "deltaY": -400, "duration": 100,
                  "origin": { "element-6066-11e4-a52e-4f735466cecf": canvas } }
            ]}]}),
        ),
    );
    let zoomed = session.settled_labels_3d();
    assert!(spread(&zoomed) > spread(&start), "zoomed in");

    // A right-button drag pans: a label moves with the pointer.
    session.pointer_3d((150, 150), &[(40, 0)], Some(2));
    let panned = session.settled_labels_3d();
    let moved: Vec<i64> = zoomed
        .iter()
        .filter_map(|z| {
            let p = panned
                .iter()
                .find(|p| p.cell == z.cell && p.name == z.name)?;
            (p.y - z.y).abs().le(&3).then_some(p.x - z.x)
        })
        .collect();
    assert!(
        !moved.is_empty() && moved.iter().all(|dx| (20..=60).contains(dx)),
        "panned right: {moved:?}"
    );

    // Reset view: back where it started.
    session.click_first("#view3d button.reset");
    let again = session.settled_labels_3d();
    assert!(
        start.iter().all(|s| again
            .iter()
            .any(|a| a.cell == s.cell && (a.x - s.x).abs() <= 2 && (a.y - s.y).abs() <= 2)),
        "reset"
    );
}

/// The page in Japanese, chosen from the header's language link: every game started from
/// the form against the computer and played to the end by its legal-move buttons, with a
/// hint and a solve on the way, and the new-game, rules and saved-games pages; the page
/// keeps a list of the texts it had no translation for, which must stay empty.
#[test]
fn the_page_in_japanese() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    session.open(&server.url("/#/"));
    session.wait_for_text("#language", "日本語");
    session.click_first("#language");
    session.wait_for_text("#start", "対局を始める");
    assert_eq!(session.read("return document.documentElement.lang"), "ja");
    session.wait_for_text("header nav", "保存された対局");
    let games = [
        ("projective-hex", "taylor:2"),
        ("euler-getter", "goldberg:1"),
        ("edge-nim", "C3"),
        ("manifold", "o1 o1"),
        ("sandpile", "P3"),
        ("nim", "1 2"),
    ];
    for (game, board) in games {
        session.read("location.hash = '#/'; return null");
        session.wait_for_text("#start", "対局を始める");
        session.click_first(&format!("#game option[value='{game}']"));
        session.type_into("#board-spec", board);
        session.click_first("select[name='O-level'] option[value='random']");
        session.click_first("#start");
        session.wait_for_text("#status", "の番");
        session.click_first("#hint");
        session.wait_for_text("#hint-note", "盤上に丸で表示");
        session.click_first("#solve");
        session.wait_for_text("#solve-note", "解析済み");
        let started = Instant::now();
        while !session.is_over() {
            assert!(
                started.elapsed() < GAME_WAIT,
                "{game}: the game did not end"
            );
            let before = session.moves_played();
            session.click_first("#board ~ .legal summary");
            session.click_first(".legal .move-button");
            session.wait_for_move(before);
        }
        let said = session.wait_for_text("#end-card:not([hidden])", "あなたの");
        assert!(
            said.contains("あなたの勝ち") || said.contains("あなたの負け"),
            "{game}: {said}"
        );
        assert_eq!(said.matches("あなたの").count(), 1, "{game}: {said}");
    }
    // The API's messages are read in Japanese too: a board the form cannot draw says why.
    session.read("location.hash = '#/'; return null");
    session.wait_for_text("#start", "対局を始める");
    for (game, board, said) in [
        (
            "projective-hex",
            "taylor:99",
            "盤面の指定 \"taylor:99\" は使えません：大きさは2から40までです",
        ),
        (
            "euler-getter",
            "torus:4x4",
            "オイラー数 0（偶数）のトーラスです",
        ),
        (
            "sandpile",
            "grid:0x3",
            "グリッドの各辺は1以上でなければなりません",
        ),
        ("manifold", "n3 x2", "曲面 \"x2\" は使えません"),
        // A name that is also a property of every JavaScript object stays a name.
        (
            "edge-nim",
            "constructor",
            "グラフの指定 `constructor` がわかりません",
        ),
    ] {
        session.click_first(&format!("#game option[value='{game}']"));
        session.type_into("#board-spec", board);
        session.wait_for_text("#board-error", said);
    }
    // So is a token list that does not fit the graph.
    session.type_into("#board-spec", "K4");
    session.type_into("input[name='tokens']", "1,2");
    session.wait_for_text(
        "#board-error",
        "トークンの個数は辺ごとに1つ（6個）必要ですが、2個です",
    );
    // A link to set up a position on a board that will not do says why, and leads back to
    // the form with that board to mend.
    session.read("location.hash = '#/setup/euler-getter/torus:4x4'; return null");
    session.wait_for_text("#setup-error", "オイラー数 0（偶数）のトーラスです");
    session.click_first("#setup-back");
    session.wait_for_text("#board-error", "オイラー数 0（偶数）のトーラスです");
    assert_eq!(
        session.read(
            "return [document.getElementById('game').value, \
             document.getElementById('board-spec').value]"
        ),
        json!(["euler-getter", "torus:4x4"])
    );
    // A link that names no board sets up on the game's own.
    session.read("location.hash = '#/setup/projective-hex'; return null");
    session.wait_for_text("main h1", "射影Hex（taylor:3）の局面を作る");
    session.wait_for("#board [data-move='a1']");
    // The browser logs each refused drawing (and the log is read once).
    let refused = session.console_errors();
    assert!(
        !refused.is_empty() && refused.iter().all(|e| e.contains("status of 400")),
        "{refused:?}"
    );
    for page in ["#/rules", "#/games", "#/games?yours=1"] {
        session.read(&format!("location.hash = '{page}'; return null"));
        session.wait_for_text(
            "main h1",
            if page == "#/rules" {
                "ルール"
            } else {
                "保存された対局"
            },
        );
    }
    session.wait_for_text("main", "全6局中");
    edge_nim_in_japanese(&session, &server);
    assert_eq!(
        session.read("return window.crosscapUntranslated()"),
        json!([]),
        "texts with no Japanese"
    );
    assert_eq!(session.console_errors(), Vec::<String>::new());
    // English again, from the same link.
    session.click_first("#language");
    session.wait_for_text("header nav", "Saved games");
    session.screenshot("japanese");
}

/// Edge-Nim in Japanese: the prompt to pick a vertex, the vertices' names for screen
/// readers, and the server's reason for refusing a move that takes nothing.
fn edge_nim_in_japanese(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({
        "game": "edge-nim", "board": "C3", "players": {"X": "human", "O": "human"}
    }));
    session.open_seated(server, &game);
    session.wait_for_text("#take", "頂点を選んでください");
    let vertex = session.wait_for("#board .vertex.pickable");
    assert_eq!(
        session.attribute(&vertex, "aria-label").as_deref(),
        Some("頂点0")
    );
    let (status, refused) = server.post(
        &format!("/api/games/{}/moves", game["id"].as_str().unwrap()),
        json!({ "move": "0:", "token": game["tokens"]["X"] }),
    );
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        translated(session, &refused["error"]),
        "手 0: は打てません：1手で少なくとも1個のトークンを取らなければなりません"
    );
    // A choice outside an option's list: the list in Japanese, its words translated.
    let (status, refused) = server.post(
        "/api/games",
        json!({ "game": "projective-hex", "options": {"opening": "sideways"} }),
    );
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        translated(session, &refused["error"]),
        "オプション opening：`sideways` は 標準、スワップ、カット・アンド・チューズ のいずれでもありません"
    );
}

/// The server's `message` as the page's i18n.js reads it in the reader's language.
fn translated(session: &Session, message: &Value) -> String {
    session.read(&format!(
        "window.said = null; import('/static/i18n.js').then((i18n) => {{ window.said = i18n.translateMessage({message}); }})"
    ));
    let start = Instant::now();
    loop {
        if let Some(said) = session.read("return window.said").as_str() {
            return said.to_string();
        }
        assert!(start.elapsed() < WAIT, "the message was not read");
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// The page's controls do what they say: each defect an audit of the page found, checked
/// where it showed.
#[test]
fn the_page_controls_do_what_they_say() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    session.open(&server.url("/#/"));
    undo_between_two_people(&session, &server);
    let phone = open_session_at(&driver, "375,800");
    edge_nim_takes_checked_on_the_page(&session, &phone, &server);
    big_heaps_stay_tappable(&phone, &server);
    answers_shown_on_a_phone(&phone, &server);
    let filled = area_tags_over_the_loops(&session, &server);
    areas_listed_together_on_a_phone(&phone, &server, &filled);
    one_box_to_copy_from(&session, &server);
    nim_shows_what_was_taken(&session, &server);
    edge_names_beside_their_edges(&session, &server);
    a_file_that_is_no_record(&session, &server);
    a_paced_game_keeps_its_end(&session, &server);
    the_keyboard_stays_on_the_board(&session, &server);
    arrows_go_row_by_row(&session, &server);
    one_tab_stop_a_cell(&session, &server);
    positions_the_tables_refuse(&session, &server);
    a_swap_is_said(&session, &server);
    let tablet = open_session_at(&driver, "1024,768");
    the_disk_wider_than_the_3d_view(&tablet, &server);
    let laptop = open_session_at(&driver, "1280,900");
    the_move_shown_outlined_whole(&laptop, &server);
    for session in [&session, &phone, &tablet, &laptop] {
        assert_eq!(session.console_errors(), Vec::<String>::new());
    }
}

/// A move played with Enter against the computer leaves the keyboard on the board: while
/// the computer thinks no piece can take the focus, and it comes back with the reply
/// (it was left on the page's body, and Tab started from the top).
fn the_keyboard_stays_on_the_board(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({"game": "nim", "board": "3 4 5",
        "players": {"X": "human", "O": "ai:mcts:300ms"}}));
    session.open_seated(server, &game);
    let counter = session.wait_for("#board [data-move]");
    assert!(session.keys(&counter, "\u{E007}"), "enter");
    wait_for_moves(session, 2);
    let start = Instant::now();
    while session
        .read("return document.activeElement.closest('#board [data-move]') !== null")
        .as_bool()
        != Some(true)
    {
        assert!(start.elapsed() < WAIT, "the keyboard left the board");
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// Opens a new game of Projective Hex on taylor:4 between two people on this device.
fn open_hex_for_two(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({"game": "projective-hex", "board": "taylor:4",
        "players": {"X": "human", "O": "human"}}));
    session.open_seated(server, &game);
    session.wait_for("#board [data-move]");
}

/// The down arrow takes the keyboard from each cell of a board of hexagons to the next
/// row, never past a row to a cell straight below (the cells of the next row are half a
/// cell aside, but nearer).
fn arrows_go_row_by_row(session: &Session, server: &common::TestServer) {
    open_hex_for_two(session, server);
    let skipped = session.read(
        "const stops = [...document.querySelectorAll('#board [tabindex]:not([tabindex=\"-1\"])')];
         const centre = (node) => {
           const r = node.getBoundingClientRect();
           return [r.left + r.width / 2, r.top + r.height / 2, r.width];
         };
         const skipped = [];
         for (const from of stops) {
           from.focus();
           from.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
           const to = document.activeElement;
           const [fx, fy, width] = centre(from);
           const ty = centre(to)[1];
           const passed = stops.filter((node) => {
             const [x, y] = centre(node);
             return y > fy + 3 && y < ty - 3 && Math.abs(x - fx) <= width;
           });
           if (passed.length) skipped.push(`${from.dataset.move} to ${to.dataset.move} past ${passed[0].dataset.move}`);
         }
         return skipped;",
    );
    assert_eq!(skipped, json!([]), "the down arrow skipped a row");
}

/// Of the copies of a cell on a surface board (twin halves, ghosts beyond the rim), Tab
/// stops at one and screen readers hear one; a click on any other still plays the cell.
fn one_tab_stop_a_cell(session: &Session, server: &common::TestServer) {
    open_hex_for_two(session, server);
    let copies = session.read(
        "const moves = (css) => [...document.querySelectorAll(css)].map((node) => node.dataset.move);
         const stops = moves('#board [data-move][tabindex=\"0\"]:not([aria-hidden])');
         const hidden = moves('#board [data-move][tabindex=\"-1\"][aria-hidden=\"true\"]');
         return [stops.length, new Set(stops).size, new Set(moves('#board [data-move]')).size, hidden[0] ?? null]",
    );
    assert_eq!(copies[0], copies[1], "one tab stop a cell: {copies}");
    assert_eq!(copies[0], copies[2], "a tab stop for every cell: {copies}");
    let copy = copies[3].as_str().expect("cells drawn more than once");
    session.click_first(&format!("#board [data-move='{copy}'][tabindex='-1']"));
    wait_for_moves(session, 1);
    session.wait_for_text("#move-list", copy);
}

/// The perfect hint on an Edge-Nim position the tables do not answer is a search's move,
/// and its note says why, in English and in Japanese; so does the solve, without a count
/// of the positions it never searched. Past the tables' limit (a Grundy value of 1024)
/// no budget reaches the position; on the Petersen graph with two tokens an edge the
/// tables need more than the server's 256 MiB for one search.
fn positions_the_tables_refuse(session: &Session, server: &common::TestServer) {
    let beyond = (
        ("P2", "1024"),
        (
            "not proven: the position is past the limit of the game's exact analysis",
            "past the limit of the game's exact analysis",
        ),
        (
            "厳密な解析の限界を超えている",
            "厳密な解析の限界を超えています",
        ),
    );
    let over_memory = (
        ("petersen", "*=2"),
        (
            "not proven: the game's exact analysis of this position needs more memory than \
             the server gives one search",
            "needs more memory than the server gives one search",
        ),
        (
            "割り当てるより多くのメモリが必要なため",
            "割り当てるより多くのメモリが必要です",
        ),
    );
    for ((board, tokens), english, japanese) in [beyond, over_memory] {
        let game = server.create(json!({
            "game": "edge-nim", "board": board, "options": {"tokens": tokens},
            "players": {"X": "human", "O": "human"}
        }));
        session.open_seated(server, &game);
        // Each round ends in the other language (Japanese, then English again), which
        // the link then offers back.
        for ((ringed, unknown, (unproven, stopped)), then) in [
            (("ringed on the board", "Unknown", english), "English"),
            (("盤上に丸で表示", "不明", japanese), "日本語"),
        ] {
            session.click_first("#hint-level option[value='perfect']");
            session.click_first("#hint");
            let note = session.wait_for_text("#hint-note", ringed);
            assert!(
                note.contains(unproven) && !note.contains("budget"),
                "{note}"
            );
            session.click_first("#solve");
            let solved = session.wait_for_text("#solve-note", unknown);
            assert!(
                solved.contains(stopped) && !solved.contains("positions") && !solved.contains('0'),
                "{solved}"
            );
            session.click_first("#language");
            session.wait_for_text("#language", then);
        }
    }
}

/// What the page says about a game stays said, and is said once.
#[test]
fn notes_kept_and_said_once() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    session.open(&server.url("/#/"));
    an_edge_nim_error_outlasts_a_hint(&session, &server);
    euler_getter_scores_said_once(&session, &server);
    assert_eq!(session.console_errors(), Vec::<String>::new());
}

/// What Edge-Nim's Take found wrong stays under the count boxes when a hint draws the
/// board again in the same position, as the picked vertex and the counts typed do.
fn an_edge_nim_error_outlasts_a_hint(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({
        "game": "edge-nim", "board": "C3", "options": {"tokens": "*=2"},
        "players": {"X": "human", "O": "human"}
    }));
    session.open_seated(server, &game);
    session.click_first("#board .vertex.pickable");
    session.click_first("#take-button");
    session.wait_for_text("#take-error", "a move takes at least one");
    session.click_first("#hint");
    session.wait_for_text("#hint-note", "ringed on the board");
    // The hint's vertex is ringed once the board is drawn again.
    session.wait_for("#board .vertex.hint");
    assert_eq!(
        session.read(
            "return [document.querySelectorAll('#board .vertex.selected').length, \
             document.querySelector('#take-error')?.textContent ?? null]"
        ),
        json!([
            1,
            "Leave fewer tokens on at least one edge: a move takes at least one."
        ]),
        "after a hint"
    );
}

/// Euler Getter's end card gives each area's χ once, in the sentence that says how the
/// game was won, not in a score line above it as well: taylor:3, every cell filled in
/// turn.
fn euler_getter_scores_said_once(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({
        "game": "euler-getter", "board": "taylor:3", "players": {"X": "human", "O": "human"}
    }));
    play_first_moves_to_the_end(server, &game);
    session.open_seated(server, &game);
    let card = session.wait_for_text("#end-card:not([hidden])", "characteristic wins");
    assert_eq!(card.matches("χ = ").count(), 2, "{card}");
    assert!(
        session.find_all("#end-card .end-score").is_empty(),
        "{card}"
    );
}

/// Plays `game` to its end through the API, each move the first legal one.
fn play_first_moves_to_the_end(server: &common::TestServer, game: &Value) {
    let id = game["id"].as_str().unwrap();
    loop {
        let (_, now) = server.get(&format!("/api/games/{id}"));
        let Some(first) = now["legal_moves"].as_array().and_then(|m| m.first()) else {
            break;
        };
        server.play(game, first.as_str().unwrap());
    }
}

/// When the other seat takes the swap, the status line says so: the reader's stone has
/// turned the other's colour, and nothing else on the board moved.
fn a_swap_is_said(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({"game": "projective-hex", "board": "taylor:2",
        "options": {"opening": "swap"}}));
    let id = game["id"].as_str().unwrap();
    session.open_seated(
        server,
        &json!({"id": id, "tokens": {"X": game["tokens"]["X"]}}),
    );
    session.wait_for_text("#players", "X: you");
    session.click_first("#board [data-move='a1']");
    wait_for_moves(session, 1);
    server.play(&game, "swap");
    session.wait_for_text(
        "#status",
        "O swapped: your stones are now O's. Your turn: you play X.",
    );
}

/// Nim's large heaps (the form's example `50 53 30 14`) wrap over several rows, so that
/// on a phone each counter is still large enough to tap (they were 5 px across).
fn big_heaps_stay_tappable(phone: &Session, server: &common::TestServer) {
    let game = server.create(json!({"game": "nim", "board": "50 53 30 14"}));
    phone.open_seated(server, &game);
    phone.wait_for("#board [data-move='2:52']");
    let across = phone.read(
        "return document.querySelector('#board [data-move=\"2:52\"]').getBoundingClientRect().width",
    );
    assert!(across.as_f64().is_some_and(|w| w >= 18.0), "{across} px");
    assert!(phone.document_width() <= 375);
}

/// Waits until the page lists `count` moves.
fn wait_for_moves(session: &Session, count: usize) {
    let start = Instant::now();
    while session.moves_played() != count {
        assert!(start.elapsed() < WAIT, "{count} moves never listed");
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// Two people on this device take a move back with one press of Undo (the server takes
/// it back once both seats have asked, and the page holds both); against a friend on
/// another device, the friend's request is granted from the status line.
fn undo_between_two_people(session: &Session, server: &common::TestServer) {
    let here = json!({"game": "nim", "board": "3 4 5", "players": {"X": "human", "O": "human"}});
    let game = server.create(here.clone());
    server.play(&game, "1:0");
    server.play(&game, "2:0");
    session.open_seated(server, &game);
    wait_for_moves(session, 2);
    session.click_first("#undo");
    wait_for_moves(session, 1);
    session.wait_for_text("#status", "O to move.");

    let game = server.create(here);
    let id = game["id"].as_str().unwrap();
    session.open_seated(
        server,
        &json!({"id": id, "tokens": {"X": game["tokens"]["X"]}}),
    );
    session.wait_for_text("#players", "X: you");
    server.play(&game, "1:0");
    server.play(&game, "2:0");
    let (status, _) = server.post(
        &format!("/api/games/{id}/undo"),
        json!({ "token": game["tokens"]["O"] }),
    );
    assert_eq!(status, 200);
    session.wait_for_text("#status", "O asks to take back the last move.");
    // The button is beside the live status line, which screen readers would otherwise
    // read out again with it at every change.
    let live = session
        .read("return document.getElementById('accept-undo')?.closest('[aria-live]')?.id ?? null");
    assert_eq!(live, Value::Null, "Accept in the live region {live}");
    session.click_first("#accept-undo");
    wait_for_moves(session, 1);
    assert!(session.find_all("#accept-undo").is_empty(), "granted once");
}

/// Edge-Nim's Take says on the page what is wrong with the counts typed (nothing taken,
/// more than there are, a negative or broken number), with the vertex still picked and
/// the counts as typed, also once a hint has drawn the board again; Enter in a number box
/// takes; on a touch screen the number box waits to be tapped rather than bring the
/// keyboard up over the board, nor when a count typed there is wrong.
fn edge_nim_takes_checked_on_the_page(
    session: &Session,
    phone: &Session,
    server: &common::TestServer,
) {
    let game = server.create(json!({
        "game": "edge-nim", "board": "C3", "options": {"tokens": "*=2"},
        "players": {"X": "human", "O": "human"}
    }));
    session.open_seated(server, &game);
    session.click_first("#board .vertex.pickable");
    let focused = "return document.activeElement.matches('#take input')";
    assert_eq!(session.read(focused), json!(true), "typed into at once");
    session.click_first("#take-button");
    session.wait_for_text("#take-error", "a move takes at least one");
    for typed in ["3", "-2", "1.5"] {
        session.type_into("#take input", typed);
        session.click_first("#take-button");
        session.wait_for_text("#take-error", "leave a whole number from 0 to 2");
        assert_eq!(
            session.read("return document.querySelector('#take input').value"),
            json!(typed)
        );
        assert_eq!(session.find_all("#board .vertex.selected").len(), 1);
    }
    assert_eq!(session.moves_played(), 0);
    // A hint draws the board again in the same position: the vertex stays picked and the
    // count as typed.
    session.type_into("#take input", "1");
    let picked = "return [...document.querySelectorAll('#board .vertex.selected')]\
                  .map((v) => v.dataset.vertex).concat(document.querySelector('#take input')?.value ?? null)";
    let before = session.read(picked);
    session.click_first("#hint");
    session.wait_for_text("#hint-note", "ringed on the board");
    assert_eq!(session.read(picked), before, "after a hint");
    assert!(session.keys(&session.wait_for("#take input"), "\u{E007}"));
    wait_for_moves(session, 1);
    // A live update in the same position (a take-back asked from elsewhere) draws the
    // board again while a count is being typed, the caret between its digits: the focus
    // stays in its box, and the next digit goes where the caret was.
    session.click_first("#board .vertex.pickable");
    session.type_into("#take input", "12");
    session.press_keys("\u{E012}");
    let (status, asked) = server.post(
        &format!("/api/games/{}/undo", game["id"].as_str().unwrap()),
        json!({ "token": game["tokens"]["X"] }),
    );
    assert_eq!(status, 200, "{asked}");
    session.wait_for_text("#status", "X asks to take back the last move.");
    session.press_keys("0");
    assert_eq!(
        session.read(
            "return [document.activeElement.matches('#take input'), \
             document.querySelector('#take input')?.value]"
        ),
        json!([true, "102"]),
        "the focus and the caret stay in the box typed in"
    );

    phone.open(&server.url("/#/"));
    phone.open_seated(server, &game);
    phone.click_first("#board .vertex.pickable");
    phone.wait_for("#take input");
    assert_eq!(
        phone.read(
            "return [matchMedia('(pointer: coarse)').matches, \
             document.activeElement.matches('#take input')]"
        ),
        json!([true, false]),
        "no keyboard before the player asks"
    );
    // Nor when a count is wrong: the error says which, and the box waits to be tapped.
    phone.type_into("#take input", "3");
    phone.read("document.activeElement.blur()");
    phone.click_first("#take-button");
    phone.wait_for_text("#take-error", "leave a whole number from 0 to");
    assert_eq!(
        phone.read("return document.activeElement.matches('#take input')"),
        json!(false),
        "no keyboard for a wrong count"
    );
}

/// At the end of Euler Getter each area's tag ("χ -1, 2 loops") is drawn over the areas'
/// loops, not struck through by them: here on taylor:3, every cell filled in turn (the
/// game, answered).
fn area_tags_over_the_loops(session: &Session, server: &common::TestServer) -> Value {
    let game = server.create(json!({
        "game": "euler-getter", "board": "taylor:3", "players": {"X": "human", "O": "human"}
    }));
    play_first_moves_to_the_end(server, &game);
    session.open_seated(server, &game);
    session.wait_for("#board .area .area-label");
    let under = session.read(
        "const loops = [...document.querySelectorAll('#board .region-loop')];
         const tags = [...document.querySelectorAll('#board .area-tag')];
         return [loops.length, tags.filter((tag) => loops.some((loop) =>
           tag.compareDocumentPosition(loop) & Node.DOCUMENT_POSITION_FOLLOWING)).length];",
    );
    assert!(under[0].as_u64().unwrap() > 0, "loops drawn: {under}");
    assert_eq!(under[1], json!(0), "tags under a loop: {under}");
    // Each tag holds its label, in English and in the wider characters of Japanese (the
    // page ends in English again).
    for (loop_word, then) in [("loop", "English"), ("ループ", "日本語")] {
        session.wait_for_text("#board", loop_word);
        let spilled = session.read(
            "return [...document.querySelectorAll('#board .area-label')]
               .filter((label) => label.getBBox().width > label.previousElementSibling.getBBox().width)
               .map((label) => label.textContent)",
        );
        assert_eq!(spilled, json!([]), "labels wider than their tags");
        session.click_first("#language");
        session.wait_for_text("#language", then);
    }
    game
}

/// On a phone the areas of a finished Euler Getter game are listed one under the other
/// with no more than 3em between the first's list and the second's heading (a gap meant
/// to part them side by side made them look unrelated).
fn areas_listed_together_on_a_phone(phone: &Session, server: &common::TestServer, game: &Value) {
    phone.open_seated(server, game);
    phone.wait_for(".regions h4");
    let gap = phone.read(
        "const [first, second] = document.querySelectorAll('.regions > div');
         const item = first.querySelector('li:last-child').getBoundingClientRect();
         const heading = second.querySelector('h4').getBoundingClientRect();
         return [heading.top - item.bottom, parseFloat(getComputedStyle(document.body).fontSize)]",
    );
    let (space, em) = (gap[0].as_f64().unwrap(), gap[1].as_f64().unwrap());
    assert!(space > 0.0, "one under the other: {gap}");
    assert!(space <= 3.0 * em, "{space} px between the areas: {gap}");
}

/// Nim's last move leaves the counters it took as outlines in their heap, which can be
/// neither played nor heard: after 3:1 on 3 4 5, four in heap 3; after the reply 1:0,
/// three in heap 1 and none in heap 3.
fn nim_shows_what_was_taken(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({"game": "nim", "board": "3 4 5",
        "players": {"X": "human", "O": "human"}}));
    server.play(&game, "3:1");
    session.open_seated(server, &game);
    let taken = "return [...document.querySelectorAll('#board .counter.taken')]
                   .filter((c) => !c.hasAttribute('data-move') && c.getAttribute('aria-hidden') === 'true')
                   .map((c) => c.getAttribute('cy'))";
    session.wait_for("#board .counter");
    let after_first = session.read(taken);
    assert_eq!(
        after_first.as_array().map(Vec::len),
        Some(4),
        "{after_first}"
    );
    server.play(&game, "1:0");
    wait_for_moves(session, 2);
    let after_reply = session.read(taken);
    let outlines = after_reply.as_array().unwrap();
    assert_eq!(outlines.len(), 3, "{after_reply}");
    assert!(
        !outlines.contains(&after_first[0]),
        "heap 3's outlines gone: {after_reply}"
    );
}

/// On a phone, where Hint and Solve lie below the board and their notes above it, each
/// answer is scrolled into view (it was answered out of sight, above the screen).
fn answers_shown_on_a_phone(phone: &Session, server: &common::TestServer) {
    let game = server.create(json!({"game": "edge-nim", "board": "petersen",
        "options": {"tokens": "*=1"}, "players": {"X": "human", "O": "human"}}));
    phone.open_seated(server, &game);
    for (button, note, said) in [
        ("#hint", "#hint-note", "ringed on the board"),
        ("#solve", "#solve-note", "Solved"),
    ] {
        // Scrolled down to the buttons and the moves, as a player reaching for them is.
        phone.read("window.scrollTo(0, document.documentElement.scrollHeight)");
        phone.click_first(button);
        phone.wait_for_text(note, said);
        let place = phone.read(&format!(
            "const box = document.querySelector('{note}').getBoundingClientRect();
             return [box.top, box.bottom, innerHeight]"
        ));
        let [top, bottom, height] = [0, 1, 2].map(|i| place[i].as_f64().unwrap());
        assert!(
            top >= 0.0 && bottom <= height,
            "{note} out of sight: {place}"
        );
    }
}

/// Edge-Nim's edge names, which the Take panel asks by, each sit nearer their own edge
/// than any other, on the tetrahedron and on K4 (beside a label, a name could lie nearer
/// the edge below it, and read as its), and on the crowded drawings of Petersen, K5 and
/// the 3×3 grid (where no spot beside the label was nearer its own edge); and on wheels
/// and grids, drawn round their rim or border, with no vertex on an edge not its own (a
/// wheel's hub went on the outer ring, and on the 2×4 grid 0-4 was drawn over 1-5).
fn edge_names_beside_their_edges(session: &Session, server: &common::TestServer) {
    // The larger boards with a token an edge: their default counts allow too many moves.
    let one = Some("*=1");
    for (board, tokens) in [
        ("tetrahedron", None),
        ("K4", None),
        ("petersen", None),
        ("K5", None),
        ("grid:3x3", None),
        ("grid:2x3", None),
        ("grid:2x4", one),
        ("grid:4x4", one),
        ("wheel:5", None),
        ("wheel:7", one),
    ] {
        let mut body = json!({"game": "edge-nim", "board": board,
            "players": {"X": "human", "O": "human"}});
        if let Some(tokens) = tokens {
            body["options"] = json!({ "tokens": tokens });
        }
        let game = server.create(body);
        session.open_seated(server, &game);
        session.wait_for("#board text.ename");
        let astray = session.read(
            "const edges = [...document.querySelectorAll('#board path.edge')].map((path) => {
               const length = path.getTotalLength();
               return Array.from({ length: 61 }, (_, i) => path.getPointAtLength(length * i / 60));
             });
             const distance = (x, y, points) => Math.min(...points.map((p) => Math.hypot(p.x - x, p.y - y)));
             return [...document.querySelectorAll('#board text.ename')].filter((name, e) => {
               const [x, y] = [Number(name.getAttribute('x')), Number(name.getAttribute('y'))];
               const own = distance(x, y, edges[e]);
               return edges.some((points, f) => f !== e && distance(x, y, points) <= own);
             }).map((name) => name.textContent)",
        );
        assert_eq!(astray, json!([]), "{board}: names nearer another edge");
        let on_edges = session.read(
            "const discs = [...document.querySelectorAll('#board circle.vertex')]
               .map((disc) => [Number(disc.getAttribute('cx')), Number(disc.getAttribute('cy'))]);
             const names = [...document.querySelectorAll('#board text.ename')].map((name) => name.textContent);
             return [...document.querySelectorAll('#board path.edge')].flatMap((path, e) => {
               const length = path.getTotalLength();
               const [a, b] = [path.getPointAtLength(0), path.getPointAtLength(length)];
               const [dx, dy] = [b.x - a.x, b.y - a.y];
               const off = ([x, y]) => {
                 const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)));
                 return Math.hypot(x - a.x - t * dx, y - a.y - t * dy);
               };
               return discs.filter(([x, y]) => Math.hypot(x - a.x, y - a.y) > 1 && Math.hypot(x - b.x, y - b.y) > 1
                 && off([x, y]) < 1).map(([x, y]) => `${names[e]} over ${x},${y}`);
             })",
        );
        assert_eq!(
            on_edges,
            json!([]),
            "{board}: a vertex drawn on an edge not its own"
        );
    }
}

/// Where the page may not write to the clipboard, the record and the result are each put
/// in the one box to copy by hand (named for screen readers), however often they are
/// asked for.
fn one_box_to_copy_from(session: &Session, server: &common::TestServer) {
    let game = server
        .create(json!({"game": "nim", "board": "1", "players": {"X": "human", "O": "human"}}));
    server.play(&game, "1:0");
    session.open_seated(server, &game);
    session.wait_for("#end-card:not([hidden]) #copy-record");
    session.read(
        "navigator.clipboard.writeText = async () => { throw new DOMException('no clipboard'); };
         Object.defineProperty(navigator, 'share', { value: undefined });",
    );
    let boxes =
        "return [...document.querySelectorAll('#end-card textarea')].map((box) => box.value)";
    for _ in 0..2 {
        // Said again for each press.
        session.read("document.getElementById('copied').textContent = '';");
        session.click_first("#copy-record");
        session.wait_for_text("#copied", "Select and copy the record below.");
    }
    let held = session.read(boxes);
    assert!(
        held.as_array().unwrap().len() == 1 && held[0].as_str().unwrap().contains("\"moves\""),
        "{held}"
    );
    session.click_first("#share-result");
    session.wait_for_text("#copied", "Select and copy the result below.");
    let held = session.read(boxes);
    assert!(
        held.as_array().unwrap().len() == 1 && held[0].as_str().unwrap().contains("X won"),
        "{held}"
    );
    let copy_box = session.wait_for("#copy-box");
    assert_eq!(session.accessible_name(&copy_box), "Text to copy");
}

/// A file that is not JSON, imported on the saved games' page (its box named for screen
/// readers), is said to be no game record, not in the words of the browser's JSON parser.
fn a_file_that_is_no_record(session: &Session, server: &common::TestServer) {
    let folder = tempfile::tempdir().expect("a temporary directory");
    let file = folder.path().join("notes.json");
    std::fs::write(&file, "not a record").unwrap();
    session.open(&server.url("/#/games"));
    let input = session.wait_for("main input[type='file']");
    assert_eq!(
        session.accessible_name(&input).trim(),
        "Import a game record:"
    );
    // The browser's own button (worded in the browser's language) is hidden behind one in
    // the page's words.
    let shown = session.read(
        "const input = document.querySelector('main input[type=file]');
         return [input.getBoundingClientRect().width, input.nextElementSibling.textContent]",
    );
    assert!(shown[0].as_f64().unwrap() <= 1.0, "{shown}");
    assert_eq!(shown[1], "Choose a file…");
    assert!(session.keys(&input, file.to_str().unwrap()));
    let said = session.wait_for_text("#import-error", "This file is not a game record (JSON).");
    assert_eq!(said, "This file is not a game record (JSON).");
}

/// A computer game watched move by move lists only the moves shown so far and says
/// nothing of how many there are (the rest would give the result away), until the end.
fn a_paced_game_keeps_its_end(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({
        "game": "nim", "board": PACED_HEAPS, "players": {"X": "ai:random", "O": "ai:random"}
    }));
    let id = game["id"].as_str().unwrap();
    let total = server.until_over(id, WAIT)["moves"]
        .as_array()
        .unwrap()
        .len();
    session.open(&server.url(&format!("/#/game/{id}")));
    session.click_first("#pause");
    session.wait_for_text("#pause", "Play");
    session.click_first("#step");
    session.wait_for_text("#status", "Computer against computer: the position after ");
    let shown = session.read(
        "const slider = document.getElementById('replay');
         return [document.querySelectorAll('#move-list li').length, Number(slider.value),
           Number(slider.max), document.getElementById('status').textContent];",
    );
    let listed = shown[0].as_u64().unwrap() as usize;
    assert!(listed > 0 && listed < total, "{shown} of {total}");
    assert_eq!(shown[1], shown[0], "{shown}");
    assert_eq!(shown[2], shown[0], "{shown}");
    assert!(!shown[3].as_str().unwrap().contains(" of "), "{shown}");
    session.click_first("#to-end");
    session.wait_for("#status[data-status='over']");
    assert_eq!(session.moves_played(), total);
}

/// The move shown is outlined whole in the move list: no chip's outline is cut off by
/// the edges of the list, which scrolls (at 1280x900 the fifth move of an Euler Getter
/// game lost its right side).
fn the_move_shown_outlined_whole(session: &Session, server: &common::TestServer) {
    let game = server.create(json!({
        "game": "euler-getter", "board": "goldberg:2", "players": {"X": "human", "O": "human"}
    }));
    let mut legal = game["legal_moves"].clone();
    for _ in 0..5 {
        legal = server.play(&game, legal[0].as_str().unwrap())["legal_moves"].clone();
    }
    session.open(&server.url("/#/"));
    session.open_seated(server, &game);
    wait_for_moves(session, 5);
    let current = session.wait_for("#move-list .mv.current");
    assert_eq!(session.text(&current).split(". ").next(), Some("5"));
    let cut = session.read(
        "const list = document.getElementById('move-list');
         const box = list.getBoundingClientRect();
         const [left, top] = [box.left + list.clientLeft, box.top + list.clientTop];
         const style = getComputedStyle(list.querySelector('.mv.current'));
         const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
         return [...list.querySelectorAll('.mv')].filter((chip) => {
           const r = chip.getBoundingClientRect();
           return r.left - ring < left || r.right + ring > left + list.clientWidth
             || r.top - ring < top || r.bottom + ring > top + list.clientHeight;
         }).map((chip) => chip.textContent);",
    );
    session.screenshot("move-list");
    assert_eq!(cut, json!([]), "outlines cut off by the list's edges");
}

/// On a tablet's width, beside the 3D view, the disk (where every cell is named and
/// played) gets the larger share: at halves, taylor:6's cells were too small to tap.
fn the_disk_wider_than_the_3d_view(session: &Session, server: &common::TestServer) {
    start_from_form(session, server, "projective-hex", "taylor:6");
    session.wait_for("#board .pane3d canvas");
    let widths = session.read(
        "return ['.pane-disk', '.pane3d'].map((pane) =>
           document.querySelector(`#board ${pane}`).getBoundingClientRect().width)",
    );
    let (disk, view) = (widths[0].as_f64().unwrap(), widths[1].as_f64().unwrap());
    assert!(
        disk >= 1.4 * view,
        "the disk {disk} px, the 3D view {view} px"
    );
}

/// The 3D view's room is kept from the page's first drawing, so that nothing moves as the
/// view comes after it (a click then landed where a button had been): on a desktop's
/// window and a phone's, for a projective plane, a graph and Nim, the layout shifts after
/// the first drawing (Chromium's Layout Instability API) add up to nothing. (Before the
/// room was kept: 0.008, 0.071 and 0.045 on the desktop, 0, 0.012 and 0 on the phone.)
#[test]
fn the_3d_view_comes_without_moving_the_page() {
    let server = start(Limits::default());
    let driver = start_driver();
    let mut moved = Vec::new();
    for size in ["1200,1000", "375,800"] {
        let session = open_session_at(&driver, size);
        session.mark_the_frame_after_the_first_drawing();
        for (game, board) in [
            ("projective-hex", "taylor:4"),
            ("edge-nim", "petersen"),
            ("nim", "3 4 5"),
        ] {
            let created = server.create(json!({"game": game, "board": board,
                "players": {"X": "human", "O": "human"}}));
            session.open(&server.url("/#/"));
            session.hold_seats(&created);
            // A document of its own (a new hash alone keeps the last one and its shifts),
            // opened by no input (the shifts just after one are left out).
            session.open("about:blank");
            let id = created["id"].as_str().unwrap();
            session.open(&server.url(&format!("/#/game/{id}")));
            session.wait_for("#view3d canvas");
            let (shift, entries) = session.layout_shift_after_drawing();
            if shift > 0.001 {
                moved.push(format!("{game} at {size}: {shift:.4} {entries}"));
            }
            assert_eq!(session.console_errors(), Vec::<String>::new());
        }
    }
    assert_eq!(moved, Vec::<String>::new(), "the page moved");
}

/// Marks `test:after-first-drawing` in the frame after the one that shows the game page's
/// first drawing (play.js marks `crosscap:drawn` as that frame starts), so that the
/// layout shifts of that frame, which moves the footer from under "Loading…", come before.
const MARK_AFTER_FIRST_DRAWING: &str = "
    const mark = performance.mark.bind(performance);
    let drawn = false;
    performance.mark = (name, ...rest) => {
      if (name === 'crosscap:drawn' && !drawn) {
        drawn = true;
        requestAnimationFrame(() => mark('test:after-first-drawing'));
      }
      return mark(name, ...rest);
    };";

impl Session<'_> {
    /// Has every document from now on run MARK_AFTER_FIRST_DRAWING before its own scripts.
    fn mark_the_frame_after_the_first_drawing(&self) {
        self.command(
            "POST",
            "/goog/cdp/execute",
            Some(json!({ "cmd": "Page.addScriptToEvaluateOnNewDocument",
                         "params": { "source": MARK_AFTER_FIRST_DRAWING } })),
        );
    }

    /// The layout shifts (without input just before them) after the frame that showed
    /// the page's first drawing until half a second after the call: their sum, and each
    /// one's time after that frame (ms), value and the elements it moved.
    fn layout_shift_after_drawing(&self) -> (f64, Value) {
        let entries = self.command(
            "POST",
            "/execute/async",
            Some(json!({ "script": "const done = arguments[0];
                const entries = [];
                const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
                observer.observe({ type: 'layout-shift', buffered: true });
                setTimeout(() => {
                  entries.push(...observer.takeRecords());
                  observer.disconnect();
                  const drawn = performance.getEntriesByName('test:after-first-drawing')[0].startTime;
                  done(entries.filter((e) => !e.hadRecentInput && e.startTime >= drawn).map((e) => [
                    Math.round(e.startTime - drawn), e.value,
                    e.sources.map((s) => s.node ? `${s.node.nodeName}.${s.node.className?.baseVal ?? s.node.className}` : '')]));
                }, 500);", "args": [] })),
        );
        let sum = entries
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e[1].as_f64().unwrap())
            .sum();
        (sum, entries)
    }
}

/// Full screen on a 3D view's bar: the pane (bar, stage, labels) fills the screen (headless
/// Chromium's, 800 by 600: narrower than the window, where the page's tabs would hide the
/// pane), its canvas and renderer at least twice the width they had beside the flat
/// drawing; a click in 3D at a label's place on the larger canvas plays there (Projective
/// Hex: a cell, the computer's reply drawn in full screen too; Edge-Nim: a vertex picked,
/// whose Take box is on the page behind); the button says how to leave, and leaving (by
/// the button, or as Esc does) brings the canvas back to its first size.
#[test]
fn the_3d_view_in_full_screen() {
    let server = start(Limits::default());
    let driver = start_driver();
    let session = open_session(&driver);
    // The canvas's width and height on the page, and the renderer's width (CSS pixels).
    let canvas_size = || {
        let size = session.read(
            "const canvas = document.querySelector('#view3d canvas');
             const { width, height } = canvas.getBoundingClientRect();
             return [width, height, canvas.width / devicePixelRatio];",
        );
        let at = |i: usize| size[i].as_f64().unwrap();
        (at(0), at(1), at(2))
    };
    // The game's column is in full screen, the 3D view in it.
    let in_full_screen = || {
        session.read(
            "return document.fullscreenElement === document.querySelector('.play-main') \
             && document.fullscreenElement.contains(document.querySelector('#view3d'))",
        ) == json!(true)
    };
    // An element inside the full screen and on show there (not the flat drawing).
    let shown_in_full_screen = |css: &str| {
        session.read(&format!(
            "const e = document.querySelector({css:?});
             const r = e.getBoundingClientRect();
             return document.fullscreenElement.contains(e) && r.height > 0
               && r.top >= 0 && r.bottom <= innerHeight;"
        )) == json!(true)
    };
    let wait_until = |what: &str, done: &dyn Fn() -> bool| {
        let start = Instant::now();
        while !done() {
            assert!(start.elapsed() < WAIT, "{what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let said = || session.text(&session.wait_for("#view3d button.fullscreen"));
    for (game, board, labels, left_by_the_browser) in [
        ("projective-hex", "taylor:3", ".cell3d", false),
        ("edge-nim", "K4", ".vertex3d", true),
    ] {
        start_from_form(&session, &server, game, board);
        session.wait_for("#view3d button.fullscreen:not([disabled])");
        assert_eq!(said(), "Full screen");
        session.wait_for("#view3d[data-settled]");
        let (width, height, _) = canvas_size();

        session.click_first("#view3d button.fullscreen");
        wait_until("the game never went full screen", &in_full_screen);
        wait_until("the canvas did not grow", &|| {
            canvas_size().0 >= 2.0 * width
        });
        let (big, tall, drawn) = canvas_size();
        eprintln!("{game} on {board}: canvas {width}x{height}, in full screen {big}x{tall}");
        assert!(
            (drawn - big).abs() <= 1.0,
            "the renderer drew {drawn} px of {big}"
        );
        assert_eq!(said(), "Exit full screen");
        assert!(shown_in_full_screen("#status"), "the status line in sight");
        assert_eq!(
            session.read("return getComputedStyle(document.querySelector('#view3d').closest('.views').querySelector('.pane-disk')).display"),
            json!("none"),
            "the flat drawing left out"
        );
        // The labels are placed on the larger canvas, where a click on one plays it.
        let shown = session.settled_labels_3d_of(labels);
        assert!(
            shown.iter().any(|l| l.x as f64 > width) && shown.iter().all(|l| l.x as f64 <= big),
            "labels over the whole canvas"
        );
        if game == "projective-hex" {
            let cell = &session.labels_3d("[data-move]")[0];
            session.pointer_3d((cell.x, cell.y), &[], Some(0));
            session.wait_for_move(0);
            // The move list is outside the full screen: read, not seen.
            assert_eq!(
                session.read("return document.querySelector('#move-list li').textContent"),
                json!(format!("1. {}", cell.name))
            );
            session.wait_for_move(1);
        } else {
            let vertex = &shown[0];
            session.pointer_3d((vertex.x, vertex.y), &[], Some(0));
            for view in ["#view3d .vertex3d", "#board .vertex"] {
                session.wait_for(&format!("{view}.selected[data-vertex='{}']", vertex.name));
            }
            // The Take form is in sight in full screen, and takes.
            session.wait_for("#take input");
            assert!(shown_in_full_screen("#take-button"), "Take in sight");
            session.type_into("#take input", "0");
            session.click_first("#take-button");
            session.wait_for_move(0);
        }
        session.wait_for("#view3d[data-settled]");
        assert!(in_full_screen(), "still in full screen after the move");
        session.screenshot(&format!("full-screen-{game}"));

        if left_by_the_browser {
            // As Esc leaves it (headless Chromium's own Esc is not reached by WebDriver's
            // keys): the button follows.
            session.read("document.exitFullscreen(); return null");
        } else {
            session.click_first("#view3d button.fullscreen");
        }
        wait_until("the pane stayed full screen", &|| {
            session.read("return document.fullscreenElement") == Value::Null
        });
        wait_until("the canvas did not come back to its size", &|| {
            let (w, h, _) = canvas_size();
            (w - width).abs() < 1.0 && (h - height).abs() < 1.0
        });
        assert_eq!(said(), "Full screen");
        assert_eq!(session.console_errors(), Vec::<String>::new());
    }
}
