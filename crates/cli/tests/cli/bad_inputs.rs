//! Golden tests of bad input across every command: the cases and their exact messages are
//! in `bad_inputs.txt`; each message must also be one line, name its cause once and echo
//! no raw control character.

use std::collections::HashSet;

use crate::crosscap_with_input;

/// One case of `bad_inputs.txt`.
struct Case {
    line: usize,
    args: Vec<String>,
    stdin: String,
    code: i32,
    stderr: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("bad_inputs.txt");
    let mut cases = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((index, line)) = lines.next() {
        let Some(command) = line.strip_prefix("$ ") else {
            continue;
        };
        let unescape = |word: &str| word.replace("\\s", " ").replace("\\e", "\u{1b}");
        let stdin = match lines.next_if(|(_, l)| l.starts_with("< ")) {
            Some((_, l)) => l[2..].replace("\\n", "\n") + "\n",
            None => String::new(),
        };
        let (_, expected) = lines.next().expect("each case has an expected line");
        let (code, stderr) = expected
            .split_once(' ')
            .expect("an exit status, a space and the line");
        cases.push(Case {
            line: index + 1,
            args: command.split(' ').map(unescape).collect(),
            stdin,
            code: code.parse().expect("an exit status"),
            stderr: stderr.to_string(),
        });
    }
    cases
}

/// The first run of `WORDS` words that occurs twice in `message`.
fn repeated_run(message: &str) -> Option<String> {
    const WORDS: usize = 6;
    let words: Vec<&str> = message.split_whitespace().collect();
    let mut seen = HashSet::new();
    words
        .windows(WORDS)
        .map(|run| run.join(" "))
        .find(|run| !seen.insert(run.clone()))
}

#[test]
fn every_bad_input_gets_its_one_line() {
    let cases = cases();
    assert!(cases.len() >= 50, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let run = crosscap_with_input(&args, &case.stdin);
        let message = run.stderr.strip_suffix('\n').unwrap_or(&run.stderr);
        if run.code != case.code || message != case.stderr {
            failures.push(format!(
                "line {}: `{}` exited {} with {:?}, expected {} with {:?}",
                case.line,
                args.join(" "),
                run.code,
                run.stderr,
                case.code,
                case.stderr
            ));
        }
        if message.contains('\n') || message.chars().any(char::is_control) {
            failures.push(format!(
                "line {}: not one clean line: {:?}",
                case.line, run.stderr
            ));
        }
        if let Some(run) = repeated_run(message) {
            failures.push(format!("line {}: repeats {run:?}", case.line));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_repeated_cause_is_caught() {
    let twice = "error: invalid board: the edge between vertices 1 and 2 lies on 1 face \
                 sides; every edge must lie on exactly 2: the edge between vertices 1 and 2 \
                 lies on 1 face sides; every edge must lie on exactly 2";
    assert!(repeated_run(twice).is_some());
    assert_eq!(repeated_run("error: the board is too large"), None);
}

#[test]
fn a_long_input_is_echoed_shortened() {
    let spec = "q".repeat(17_000);
    for args in [
        vec!["sandpile", "solve", "--graph", spec.as_str()],
        vec!["projective-hex", "solve", "--board", spec.as_str()],
        vec!["nim", "value", spec.as_str()],
    ] {
        let run = crosscap_with_input(&args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.len() < 400 && run.stderr.contains(" characters)"),
            "{args:?}: {} bytes: {}",
            run.stderr.len(),
            &run.stderr[..run.stderr.len().min(300)]
        );
    }
}
