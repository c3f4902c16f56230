//! The README's shell examples run as written: every `crosscap ...` line of its code blocks
//! exits as its comment says (0, or 3 where the comment says "exit 3"), with arenas cut to
//! two games, `play` answered by `moves` and `quit`, and files written in a scratch
//! directory. `serve` runs until stopped (tests/cli/serve.rs starts it) and examples the
//! README says take a minute or more are left out.

use std::path::Path;

use crate::crosscap_in;

/// The examples: the command line's words and the exit status the README promises.
fn examples() -> Vec<(Vec<String>, i32)> {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(readme).expect("the README");
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("crosscap "))
        .filter_map(|line| {
            let (command, comment) = line.split_once(" #").unwrap_or((line, ""));
            let words = shell_words(command);
            let slow = comment.contains("minute");
            (words.first().is_some_and(|w| w != "serve") && !slow).then(|| {
                let status = if comment.contains("exit 3") { 3 } else { 0 };
                (words, status)
            })
        })
        .collect()
}

/// Splits a command line as a shell does for these examples: words apart by blanks,
/// single or double quotes holding blanks.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    words
}

#[test]
fn the_readme_examples_run() {
    let examples = examples();
    assert!(examples.len() >= 30, "{} examples", examples.len());
    let scratch = std::env::temp_dir().join(format!("crosscap-readme-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    for (mut words, status) in examples {
        if let Some(games) = words.iter().position(|w| w == "--games") {
            words[games + 1] = "2".to_string();
        }
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let run = crosscap_in(&scratch, &args, "moves\nquit\n");
        assert_eq!(
            run.code,
            status,
            "crosscap {}\nstdout: {}\nstderr: {}",
            words.join(" "),
            run.stdout,
            run.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn words_are_split_as_a_shell_splits_them() {
    assert_eq!(
        shell_words(r#"board show '.XO/..XO' --tokens "a=0, b=4"  x"#),
        ["board", "show", ".XO/..XO", "--tokens", "a=0, b=4", "x"]
    );
}
