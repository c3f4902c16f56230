//! Text from users echoed in messages: control characters (line breaks, terminal escapes)
//! must not reach a terminal, a log line or an answer raw, and a message stays one line.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_the_rest_kept() {
        assert_eq!(escape_controls("C4\u{1b}[31m\t"), "C4\\u{1b}[31m\\t");
        assert_eq!(escape_controls("a \"b\" ≤\nc"), "a \"b\" ≤\\nc");
    }
}
