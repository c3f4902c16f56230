//! `crosscap-verify [--json] FILE`: checks a certificate in a program built from the
//! checker alone, with no solver in it, so that trusting a proof needs no trust in the
//! solver that wrote it. `crosscap GAME verify FILE` runs the same check. Exit statuses as
//! `crosscap`'s: 0 valid, 1 invalid (one line on stderr naming the node and the reason),
//! 2 no certificate or bad usage.

use std::path::PathBuf;
use std::process::ExitCode;

use crosscap_certificate::{Report, check_file};

const USAGE: &str = "usage: crosscap-verify [--json] FILE";

fn main() -> ExitCode {
    let mut json = false;
    let mut files = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.to_str() {
            Some("--json") => json = true,
            Some("-h" | "--help") => {
                println!(
                    "Checks a Crosscap certificate (a solved game's winning strategy)\n\n{USAGE}"
                );
                return ExitCode::SUCCESS;
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
    let checked = match check_file(file) {
        Ok(checked) => checked,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(2);
        }
    };
    if let Err(invalid) = &checked {
        eprintln!("invalid certificate: {invalid}");
    }
    if json {
        match serde_json::to_string_pretty(&Report::from(&checked)) {
            Ok(text) => println!("{text}"),
            Err(why) => {
                eprintln!("error: {why}");
                return ExitCode::from(2);
            }
        }
    } else if let Ok(verified) = &checked {
        print!("{verified}");
    }
    match checked {
        Ok(_) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}
