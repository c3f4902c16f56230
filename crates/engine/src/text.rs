//! Text for terminals and messages. Text from users echoed in messages: control characters
//! (line breaks, terminal escapes) must not reach a terminal, a log line or an answer raw,
//! and a message stays one line. Stones painted in the players' colours, the one escape
//! written on purpose.

/// Writes `text` to stdout and flushes it. A reader that closed the pipe early (`| head`)
/// is not an error: the output just stops, and the program ends as it would have. Every
/// program of the workspace prints its answers through this.
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        written => written,
    }
}

/// `text` in `owner`'s colour on a terminal (ANSI bold red for X and blue for O, as the
/// page's vermilion and blue), or as it is without an owner or with `colour` off.
pub fn painted(text: &str, owner: Option<crate::Player>, colour: bool) -> String {
    match owner.filter(|_| colour) {
        Some(crate::Player::X) => format!("\x1b[1;31m{text}\x1b[0m"),
        Some(crate::Player::O) => format!("\x1b[1;34m{text}\x1b[0m"),
        None => text.to_string(),
    }
}

/// `text` with every control character written as its Rust escape (`\u{1b}`, `\n`), other
/// characters (quotes included) kept.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Longest run of characters without white space that a message echoes whole.
const LONGEST_ECHOED_RUN: usize = 120;

/// `message` with every run of non-space characters longer than 120 characters cut to its
/// first 60 and a count: a 17 KB board spec echoed by an error would otherwise fill a
/// terminal, a log line or an answer, and the message stays one clear line.
pub fn shorten_long_runs(message: &str) -> String {
    let mut shortened = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while !rest.is_empty() {
        let run_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (run, after) = rest.split_at(run_end);
        let run_chars = run.chars().count();
        if run_chars > LONGEST_ECHOED_RUN {
            shortened.extend(run.chars().take(LONGEST_ECHOED_RUN / 2));
            shortened.push_str(&format!("… ({run_chars} characters)"));
        } else {
            shortened.push_str(run);
        }
        let space_end = after
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(after.len());
        shortened.push_str(&after[..space_end]);
        rest = &after[space_end..];
    }
    shortened
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_are_painted_only_when_asked() {
        use crate::Player;
        assert_eq!(
            painted("X2 ", Some(Player::X), true),
            "\x1b[1;31mX2 \x1b[0m"
        );
        assert_eq!(painted("O", Some(Player::O), true), "\x1b[1;34mO\x1b[0m");
        assert_eq!(painted("X", Some(Player::X), false), "X");
        assert_eq!(painted(".", None, true), ".");
    }

    #[test]
    fn long_runs_are_cut_and_short_ones_kept() {
        let spec = "q".repeat(17_000);
        let message = format!("unknown graph `{spec}`: expected a name");
        let shortened = shorten_long_runs(&message);
        assert_eq!(
            shortened,
            format!(
                "unknown graph `{}… (17003 characters) expected a name",
                "q".repeat(59)
            )
        );
        assert_eq!(shorten_long_runs("a  b\tc ≤"), "a  b\tc ≤");
        let exact = "é".repeat(LONGEST_ECHOED_RUN);
        assert_eq!(shorten_long_runs(&exact), exact);
    }

    #[test]
    fn controls_are_escaped_and_the_rest_kept() {
        assert_eq!(escape_controls("C4\u{1b}[31m\t"), "C4\\u{1b}[31m\\t");
        assert_eq!(escape_controls("a \"b\" ≤\nc"), "a \"b\" ≤\\nc");
    }
}
