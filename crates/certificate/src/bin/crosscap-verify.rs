//! `crosscap-verify [--json] [--threads N] FILE`: checks a certificate in a program built from the
//! checker alone, with no solver in it, so that trusting a proof needs no trust in the
//! solver that wrote it. `crosscap GAME verify FILE` runs the same check. Exit statuses as
//! `crosscap`'s: 0 valid, 1 invalid (one line on stderr naming the node and the reason),
//! 2 no certificate or bad usage. A reader that stops early (`| head`) ends the output
//! quietly, as with `crosscap`.

use std::path::PathBuf;
use std::process::ExitCode;

use crosscap_certificate::{MAX_CARRIER, MAX_ENDGAME, Report, check_file, default_threads};
use crosscap_engine::text::write_stdout;

const USAGE: &str = "usage: crosscap-verify [--json] [--threads N] FILE";
/// The most threads `--threads` takes.
const MAX_THREADS: usize = 64;

/// What `--help` prints: what is checked, and the exit statuses.
fn help() -> String {
    format!(
        "\
Checks a certificate written by `crosscap GAME solve --certificate FILE`, with a checker
that links no solver: it re-derives the board from its spec, replays every position from
the claims, and checks every move and turn itself.
  projective-hex: winning strategies; every reply of the loser's is answered, down to a
    move that closes a loop, a loop held by bridges, or a carrier of at most {MAX_CARRIER}
    empty cells inside which it searches every line of play, loops found by its own
    search.
  euler-getter: two strategies that prove the exact margin; every reply is answered, down
    to endgames of at most {MAX_ENDGAME} empty cells that it searches line by line, scoring full
    boards by its own V - E + F.

usage: crosscap-verify [--json] [--threads N] FILE
  FILE         the certificate, zstd-compressed (.cert.zst) or plain text
  --json       the verdict as JSON
  --threads N  threads the leaves are checked on, 1 to {MAX_THREADS} (default: the machine's
               cores); the verdict and the node it names are the same on any number

Exit status: 0 valid (prints what it proves), 1 invalid (one line on stderr: the node
that failed and why), 2 no certificate, unreadable, or bad usage."
    )
}

fn main() -> ExitCode {
    let mut json = false;
    let mut threads = None;
    let mut files = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--json") => json = true,
            Some("--threads") => match args.next().as_ref().and_then(|n| n.to_str()) {
                Some(number) => match parse_threads(number) {
                    Some(number) => threads = Some(number),
                    None => {
                        eprintln!(
                            "error: --threads {number:?}: expected a number of threads from 1 \
                             to {MAX_THREADS}; {USAGE}"
                        );
                        return ExitCode::from(2);
                    }
                },
                None => {
                    eprintln!("error: --threads needs a number; {USAGE}");
                    return ExitCode::from(2);
                }
            },
            Some("-h" | "--help") => {
                return print(&format!("{}\n", help()), ExitCode::SUCCESS);
            }
            Some(flag) if flag.starts_with('-') => {
                eprintln!("error: unknown flag {flag:?}; {USAGE}");
                return ExitCode::from(2);
            }
            _ => files.push(PathBuf::from(arg)),
        }
    }
    let [file] = files.as_slice() else {
        eprintln!("error: expected one FILE; {USAGE}");
        return ExitCode::from(2);
    };
    let threads = threads.unwrap_or_else(default_threads);
    let checked = match check_file(file, None, threads) {
        Ok(checked) => checked,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(2);
        }
    };
    if let Err(invalid) = &checked {
        eprintln!("invalid certificate: {invalid}");
    }
    let text = if json {
        match serde_json::to_string_pretty(&Report::from(&checked)) {
            Ok(text) => text + "\n",
            Err(why) => {
                eprintln!("error: {why}");
                return ExitCode::from(2);
            }
        }
    } else {
        checked
            .as_ref()
            .map_or_else(|_| String::new(), ToString::to_string)
    };
    let status = match checked {
        Ok(_) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    };
    print(&text, status)
}

/// The number of threads `text` asks for, when it is one from 1 to [`MAX_THREADS`].
fn parse_threads(text: &str) -> Option<usize> {
    (text.parse().ok()).filter(|threads| (1..=MAX_THREADS).contains(threads))
}

/// Prints `text` and ends with `status`, or with 2 when stdout fails (a closed pipe is
/// no failure).
fn print(text: &str, status: ExitCode) -> ExitCode {
    match write_stdout(text) {
        Ok(()) => status,
        Err(why) => {
            eprintln!("error: cannot write the output: {why}");
            ExitCode::from(2)
        }
    }
}
