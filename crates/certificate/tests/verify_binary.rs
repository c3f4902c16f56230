//! The standalone checker `crosscap-verify`, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::NamedTempFile;

fn verify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crosscap-verify"))
        .args(args)
        .output()
        .unwrap()
}

fn certificate(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../certificates")
        .join(name)
}

/// The stored certificate `name` as text, for a test to change.
fn stored_text(name: &str) -> String {
    let stored = crosscap_certificate::Certificate::load(&certificate(name)).unwrap();
    let mut written = Vec::new();
    stored.write_text(&mut written).unwrap();
    text(&written)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A temporary file holding `content`, its name ending in `name`, removed when dropped.
fn scratch(name: &str, content: &[u8]) -> NamedTempFile {
    let file = tempfile::Builder::new().suffix(name).tempfile().unwrap();
    std::fs::write(file.path(), content).unwrap();
    file
}

#[test]
fn the_stored_taylor_2_certificate_proves_its_claims() {
    let file = certificate("projective-hex-taylor-2.cert.zst");
    let run = verify(&[file.to_str().unwrap()]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = text(&run.stdout);
    assert!(out.starts_with("valid: 36 nodes on taylor:2"), "{out}");
    assert!(out.contains("X wins from X - / O - (X to move)"), "{out}");

    let run = verify(&["--json", file.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["valid"], true, "{report}");
    assert_eq!(
        report["claims"].as_array().map(Vec::len),
        Some(13),
        "{report}"
    );
}

#[test]
fn a_changed_claim_is_refused_with_status_1() {
    let written = stored_text("projective-hex-taylor-2.cert.zst");
    let claim = written.lines().find(|l| l.starts_with("claim ")).unwrap();
    let swapped = claim.replace(" O ", " X ");
    assert_ne!(swapped, claim);
    let file = scratch(
        "swapped.cert",
        written.replacen(claim, &swapped, 1).as_bytes(),
    );
    let run = verify(&["--json", file.path().to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = text(&run.stderr);
    assert!(stderr.starts_with("invalid certificate: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["valid"], false, "{report}");
    assert!(report["reason"].is_string(), "{report}");
}

/// The stored taylor:2 certificate with d3 dropped from every carrier that ends with it,
/// most of which then fail: the same verdict and message (the first failure in the
/// order the check meets them, last node first) on 1 thread and on 4.
#[test]
fn a_damaged_certificate_gets_the_same_message_on_1_and_4_threads() {
    let damaged = stored_text("projective-hex-taylor-2.cert.zst").replace(" d3\n", "\n");
    let file = scratch("carriers-cut.cert", damaged.as_bytes());
    let runs: Vec<Output> = ["1", "4"]
        .iter()
        .map(|threads| verify(&["--threads", threads, file.path().to_str().unwrap()]))
        .collect();
    // Thirteen of the cut carriers fail alone; the check meets node 23 first.
    let stderr = text(&runs[0].stderr);
    assert!(
        stderr.starts_with("invalid certificate: node 23 (line 46): O stops X's loop"),
        "{stderr}"
    );
    for run in &runs {
        assert_eq!(run.status.code(), Some(1));
        assert_eq!(text(&run.stderr), stderr);
    }
    let valid = verify(&[
        "--threads",
        "4",
        certificate("projective-hex-taylor-2.cert.zst")
            .to_str()
            .unwrap(),
    ]);
    assert!(valid.status.success(), "{}", text(&valid.stderr));
}

#[test]
fn what_is_no_certificate_or_no_file_exits_2() {
    let junk = scratch("junk.cert", b"not a certificate\n");
    for args in [
        vec![junk.path().to_str().unwrap()],
        vec!["/no/such/file.cert.zst"],
        vec![],
        vec!["--colour", "x"],
        vec!["--threads", "0", junk.path().to_str().unwrap()],
        vec!["--threads", "65", junk.path().to_str().unwrap()],
        vec!["--threads", "many", junk.path().to_str().unwrap()],
        vec![junk.path().to_str().unwrap(), "--threads"],
    ] {
        let run = verify(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let stderr = text(&run.stderr);
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

/// A zstd file of a few kilobytes that unpacks to one line of 64 MiB (or any size) is
/// refused at the line's first 4 MiB, with one line and status 2.
#[test]
fn a_file_that_unpacks_to_a_huge_line_exits_2() {
    let mut huge = b"crosscap-certificate 4 ".to_vec();
    huge.resize(64 << 20, b' ');
    let bomb = scratch(
        "bomb.cert.zst",
        &zstd::encode_all(huge.as_slice(), 3).unwrap(),
    );
    assert!(std::fs::metadata(bomb.path()).unwrap().len() < 100_000);
    let run = verify(&[bomb.path().to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = text(&run.stderr);
    assert!(
        stderr.ends_with("line 1: longer than 4194368 bytes\n"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// The point of the separate program: the checker shares no code with any solver. Its
/// dependencies are the board geometry, the engine's `Player`, reading and writing, and
/// rayon, which runs the leaf checks on several threads.
#[test]
fn the_checker_depends_on_no_game_crate() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let dependencies = manifest
        .split("[dependencies]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .unwrap();
    let names: Vec<&str> = dependencies
        .lines()
        .filter_map(|line| line.split(['.', '=']).next())
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .collect();
    assert_eq!(
        names,
        [
            "crosscap-engine",
            "crosscap-topology",
            "rayon",
            "serde",
            "serde_json",
            "thiserror",
            "zstd"
        ]
    );
}

#[test]
fn help_says_what_is_checked_and_the_exit_statuses() {
    let run = verify(&["--help"]);
    assert!(run.status.success());
    let help = text(&run.stdout);
    let endgames = format!(
        "endgames of at most {} empty cells",
        crosscap_certificate::MAX_ENDGAME
    );
    let carriers = format!(
        "a carrier of at most {}\n    empty cells",
        crosscap_certificate::MAX_CARRIER
    );
    for said in [
        "usage: crosscap-verify [--json] [--threads N] FILE",
        "--threads N",
        carriers.as_str(),
        "links no solver",
        "projective-hex: winning strategies",
        "euler-getter: two strategies that prove the exact margin",
        endgames.as_str(),
        "V - E + F",
        "0 valid",
        "1 invalid",
        "2 no certificate",
    ] {
        assert!(help.contains(said), "{said:?} missing from:\n{help}");
    }
}

/// Checks that the stored Euler Getter certificate `name` proves that O wins the empty
/// board of `cells` cells by 1.
fn assert_o_wins_the_empty_board_by_1(name: &str, cells: usize) {
    let file = certificate(name);
    let run = verify(&["--json", file.to_str().unwrap()]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let result = &report["results"][0];
    assert_eq!(result["winner"], "O", "{report}");
    assert_eq!(result["margin"], 1, "{report}");
    assert_eq!(result["position"], ".".repeat(cells), "{report}");
}

/// The stored Euler Getter certificate of the empty goldberg:2 (under a second of CPU).
#[test]
fn the_stored_goldberg_2_euler_getter_certificate_proves_o_wins_by_1() {
    assert_o_wins_the_empty_board_by_1("euler-getter-goldberg-2.cert.zst", 21);
}

/// The stored Euler Getter certificate of the empty taylor:3, symmetry nodes and all (5.9
/// million positions). About 85 s of CPU in a release build, 45 to 50 s on two threads, so
/// run on request (`cargo test -p crosscap-certificate --release -- --ignored`).
#[test]
#[ignore = "about 85 s of CPU"]
fn the_stored_taylor_3_euler_getter_certificate_proves_o_wins_by_1() {
    assert_o_wins_the_empty_board_by_1("euler-getter-taylor-3.cert.zst", 27);
}

/// Every stored certificate together stays within the 30 MB the repository gives them.
#[test]
fn the_stored_certificates_take_under_30_mb() {
    let entries = std::fs::read_dir(certificate("")).unwrap();
    let bytes: u64 = entries
        .map(|entry| entry.unwrap().metadata().unwrap().len())
        .sum();
    assert!(bytes < 30_000_000, "{bytes} bytes");
}

/// The stored Projective Hex certificate of taylor:3, carrier leaves and all: every
/// first move wins for X (one per class searched, the others carried onto them by
/// symmetries), and so does the empty board. About 37 s of CPU in a release build (a minute
/// and more on a busy machine), so run on request (`cargo test -p crosscap-certificate
/// --release -- --ignored`).
#[test]
#[ignore = "about 37 s of CPU"]
fn the_stored_taylor_3_certificate_proves_every_opening_wins() {
    let file = certificate("projective-hex-taylor-3.cert.zst");
    let run = verify(&["--json", file.to_str().unwrap()]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let claims = report["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 28, "{report}");
    for (cell, claim) in claims[..27].iter().enumerate() {
        let mut position = ".".repeat(27);
        position.replace_range(cell..=cell, "X");
        assert_eq!(claim["position"], position, "{report}");
    }
    assert!(
        claims.iter().all(|claim| claim["winner"] == "X"),
        "{report}"
    );
    assert_eq!(claims.last().unwrap()["position"], ".".repeat(27));
}

/// A reader that has gone away (`crosscap-verify FILE | head -0`) ends the output quietly:
/// no panic on stderr, and the verdict's exit status. The pipe's reading end is closed
/// before the checker starts, so every write to it fails.
#[test]
fn a_closed_stdout_is_no_panic() {
    let file = certificate("projective-hex-taylor-2.cert.zst");
    for args in [
        vec![file.to_str().unwrap()],
        vec!["--json", file.to_str().unwrap()],
        vec!["--help"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let run = Command::new(env!("CARGO_BIN_EXE_crosscap-verify"))
            .args(&args)
            .stdout(writer)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{args:?}");
        assert_eq!(text(&run.stderr), "", "{args:?}");
    }
}
