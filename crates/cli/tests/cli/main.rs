//! Integration tests: each runs the real `crosscap` binary.

mod bad_inputs;
mod board;
mod catalog;
mod certificates;
mod edge_nim;
mod euler_getter;
mod latex;
mod manifold;
mod nim;
mod projective_hex;
mod readme;
mod sandpile;
mod serve;
mod shards;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the binary printed.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The stdout of a successful `--json` run, parsed.
    pub fn json(&self) -> serde_json::Value {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    /// The stdout of a `--json` run whose search ran out of budget: exit status 3 and a
    /// document saying `"status": "unknown"` and which limit ran out.
    pub fn unknown_json(&self, reason: &str) -> serde_json::Value {
        assert_eq!(
            self.code, 3,
            "stdout: {} stderr: {}",
            self.stdout, self.stderr
        );
        let v: serde_json::Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout));
        assert_eq!(v["status"], "unknown", "{v}");
        assert_eq!(v["reason"], reason, "{v}");
        v
    }

    /// Asserts a usage or input error: exit code 2 and one line on stderr naming `needle`.
    pub fn assert_user_error(&self, needle: &str) {
        assert_eq!(
            self.code, 2,
            "stdout: {} stderr: {}",
            self.stdout, self.stderr
        );
        assert!(
            self.stderr.contains(needle),
            "stderr does not mention {needle:?}: {}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
    }
}

/// Runs `crosscap` with `args`, feeding `stdin`.
pub fn crosscap_with_input(args: &[&str], stdin: &str) -> Run {
    crosscap_in(Path::new("."), args, stdin)
}

/// A scratch file name of this test run.
pub fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("crosscap-{}-{name}", std::process::id()))
}

/// `GAME verify` on `text` written to the scratch file `name` as a plain-text certificate.
pub fn verify_text(game: &str, text: &str, name: &str) -> Run {
    let file = scratch(name);
    std::fs::write(&file, text).unwrap();
    let run = crosscap(&[game, "verify", file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    run
}

/// The text of the certificate `file` (zstd), which is then removed: the tests edit it.
pub fn certificate_text(file: &Path) -> String {
    let text = stored_certificate_text(file);
    std::fs::remove_file(file).unwrap();
    text
}

/// The text of the certificate `file` (zstd), which is kept.
pub fn stored_certificate_text(file: &Path) -> String {
    let certificate = crosscap_certificate::Certificate::load(file).unwrap();
    let mut text = Vec::new();
    certificate.write_text(&mut text).unwrap();
    String::from_utf8(text).unwrap()
}

/// Runs `crosscap` with `args` in the directory `dir`, feeding `stdin`.
pub fn crosscap_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosscap"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that reads no input may end before it is written: a broken pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes());
    let output = child.wait_with_output().expect("the binary finishes");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `crosscap` with `args` and empty stdin.
pub fn crosscap(args: &[&str]) -> Run {
    crosscap_with_input(args, "")
}

#[test]
fn help_lists_the_games() {
    let run = crosscap(&["--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("nim"));
}

/// A game's own help starts by saying how the game is won (the catalog's summary, which
/// the new-game form shows too).
#[test]
fn a_games_help_says_how_it_is_won() {
    let run = crosscap(&["manifold", "--help"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .starts_with("Cut closed surfaces along curves that bound no disk: whoever makes the last cut wins.\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Manifold decomposition: solve, hint"),
        "{}",
        run.stdout
    );
}

/// Every JSON object says which version and command line made it, and how long it took,
/// after the answer's own keys.
#[test]
fn json_documents_carry_their_run() {
    let v = crosscap(&["--json", "nim", "solve", "3", "4", "5"]).json();
    let run = &v["run"];
    assert_eq!(run["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        run["command"],
        serde_json::json!(["crosscap", "--json", "nim", "solve", "3", "4", "5"])
    );
    assert!(run["millis"].as_f64() >= Some(0.0), "{v}");
    let keys: Vec<&String> = v.as_object().expect("an object").keys().collect();
    assert_eq!(keys.first().map(|k| k.as_str()), Some("game"), "{keys:?}");
    assert_eq!(keys.last().map(|k| k.as_str()), Some("run"), "{keys:?}");
}

/// A misère answer names the position it answered by the keys the normal-play answer of
/// the same command names it by (`--json GAME value ... --misere`), first.
#[test]
fn misere_answers_name_their_position_as_normal_play_does() {
    let commands: [(&[&str], &[&str]); 3] = [
        (&["manifold", "value", "n3", "o2"], &["position"]),
        (
            &["edge-nim", "value", "--graph", "C4", "--tokens", "1,2,0,2"],
            &["graph", "edges", "tokens"],
        ),
        (&["nim", "value", "3", "4", "5"], &["heaps"]),
    ];
    for (command, keys) in commands {
        let json = |extra: &[&str]| crosscap(&[&["--json"], command, extra].concat()).json();
        let (normal, misere) = (json(&[]), json(&["--misere"]));
        assert_eq!(misere["rule"], "misere", "{misere}");
        for key in keys {
            assert!(!normal[key].is_null(), "{key}: {normal}");
            assert_eq!(misere[key], normal[key], "{key}: {misere}");
        }
        let first = misere.as_object().and_then(|o| o.keys().next().cloned());
        assert_eq!(first.as_deref(), Some(keys[0]), "{misere}");
    }
}

#[test]
fn unknown_command_is_a_usage_error() {
    crosscap(&["no-such-game"]).assert_user_error("no-such-game");
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // More output than a pipe buffers, and a reader that closes the pipe at once (`| head`).
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosscap"))
        .args(["nim", "p-positions", "--heaps", "3", "--max", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("the binary finishes");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// Runs `crosscap` with `args` under a pseudo-terminal made by `script` (bsdutils), for
/// what is drawn only on a terminal: its stdout and stderr together, and its exit status;
/// `None`, said on stderr, where `script` is missing or makes no terminal.
fn crosscap_on_a_terminal(args: &[&str]) -> Option<(String, i32)> {
    let script = |command: &str| {
        Command::new("script")
            .args(["-qec", command, "/dev/null"])
            .stdin(Stdio::null())
            .output()
    };
    if !script("true").is_ok_and(|output| output.status.success()) {
        eprintln!("skipped: `script` (bsdutils) is missing or makes no pseudo-terminal here");
        return None;
    }
    let command: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_crosscap"))
        .chain(args.iter().copied())
        .map(|word| format!("'{word}'"))
        .collect();
    let output = script(&command.join(" ")).expect("script runs");
    Some((
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code().unwrap_or(-1),
    ))
}

/// On a terminal a long solve shows a spinner with its nodes so far, their rate, the time
/// and the time limit, and clears it before the answer; off a terminal nothing is drawn.
#[test]
fn a_long_solve_shows_its_nodes_on_a_terminal_only() {
    let args = [
        "projective-hex",
        "solve",
        "--board",
        "taylor:4",
        "--max-seconds",
        "1",
    ];
    let piped = crosscap(&args);
    assert_eq!(piped.code, 3, "{}", piped.stderr);
    assert_eq!(piped.stderr, "", "nothing is drawn off a terminal");
    let Some((shown, code)) = crosscap_on_a_terminal(&args) else {
        return;
    };
    assert_eq!(code, 3, "{shown}");
    let most_nodes = shown
        .split("solving: ")
        .skip(1)
        .filter_map(|drawn| {
            let (nodes, rest) = drawn.split_once(" nodes (")?;
            assert!(rest.contains("/s), 00:00:0"), "{drawn}");
            assert!(rest.contains(" of 00:00:01"), "{drawn}");
            nodes.replace(',', "").parse::<u64>().ok()
        })
        .max();
    assert!(most_nodes.is_some_and(|nodes| nodes > 0), "{shown}");
    assert!(
        shown.contains("the winner with perfect play is unknown"),
        "{shown}"
    );
}
