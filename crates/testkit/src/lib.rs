//! What the parsers' property tests share ("any text: a result or a clean error, never a
//! panic"): text strategies that mix arbitrary strings with valid inputs mutated the ways
//! careless users and attackers mutate them, and the check that an error message is one
//! line without raw control characters.

use proptest::prelude::*;
use proptest::sample::select;

/// Numbers at and past the edges of the integer types, which replace numbers of valid
/// inputs or are spliced into them.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
];

/// Other pieces spliced into valid inputs: numbers in other forms, control characters (a
/// terminal escape among them, raw and as JSON escapes that decode to one), separators,
/// and non-ASCII text.
const SPLICES: &[&str] = &[
    "1e30",
    "NaN",
    "\u{1b}[31m",
    "\\u001b",
    "\\n",
    "\n",
    "\r\n",
    "\t",
    "\0",
    "\u{7f}",
    "\u{85}",
    "é",
    "∞",
    "\u{202e}",
    "😀",
    ",",
    ":",
    "=",
    "/",
    "->",
    "{",
    "}",
    "\"",
    " ",
];

/// One edit of a text; positions are taken modulo its length in characters.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, &'static str),
    /// Replaces the i-th run of digits (or inserts when there is none).
    Number(usize, &'static str),
    Remove(usize, usize),
    Replace(usize, char),
    Repeat(usize, usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => (any::<usize>(), select(SPLICES)).prop_map(|(at, s)| Edit::Insert(at, s)),
        1 => (any::<usize>(), select(NUMBERS)).prop_map(|(at, s)| Edit::Insert(at, s)),
        2 => (any::<usize>(), select(NUMBERS)).prop_map(|(i, n)| Edit::Number(i, n)),
        1 => (any::<usize>(), 1..8usize).prop_map(|(at, n)| Edit::Remove(at, n)),
        1 => (any::<usize>(), any::<char>()).prop_map(|(at, c)| Edit::Replace(at, c)),
        1 => (any::<usize>(), 1..8usize, 1..64usize).prop_map(|(at, n, k)| Edit::Repeat(at, n, k)),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let at = |i: usize| {
            if chars.is_empty() {
                0
            } else {
                i % (chars.len() + 1)
            }
        };
        match *edit {
            Edit::Insert(i, piece) => {
                let i = at(i);
                chars.splice(i..i, piece.chars());
            }
            Edit::Number(i, number) => {
                let runs = digit_runs(&chars);
                let (start, end) = match runs.len() {
                    0 => (at(i), at(i)),
                    n => runs[i % n],
                };
                chars.splice(start..end, number.chars());
            }
            Edit::Remove(i, n) => {
                let i = at(i);
                let end = (i + n).min(chars.len());
                chars.drain(i.min(end)..end);
            }
            Edit::Replace(i, c) => {
                if !chars.is_empty() {
                    let i = i % chars.len();
                    chars[i] = c;
                }
            }
            Edit::Repeat(i, n, times) => {
                let i = at(i);
                let end = (i + n).min(chars.len());
                let piece: Vec<char> = chars[i.min(end)..end].to_vec();
                for _ in 0..times {
                    chars.splice(end..end, piece.iter().copied());
                }
            }
            Edit::Truncate(i) => chars.truncate(at(i)),
        }
    }
    chars.into_iter().collect()
}

/// Where each run of ASCII digits starts and ends.
fn digit_runs(chars: &[char]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// Text for a parser whose valid inputs include `valid`: arbitrary strings, printable
/// ASCII, the valid inputs themselves, and the valid inputs with one to four edits.
pub fn text_like(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        1 => any::<String>(),
        1 => "[ -~]{0,40}",
        1 => select(valid).prop_map(str::to_string),
        5 => (select(valid), prop::collection::vec(edit(), 1..5))
            .prop_map(|(text, edits)| apply(text, &edits)),
    ]
}

/// Fails unless `message` is one non-empty line without raw C0 control characters (line
/// breaks, tabs, NUL, the escape that starts terminal sequences): a message that echoes
/// input must escape them.
pub fn check_message(input: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "empty message for {input:?}");
    prop_assert!(
        !message.contains(|c: char| c < ' '),
        "the message for {input:?} has a raw control character or line break: {message:?}"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_stay_within_the_text() {
        let edits = [
            Edit::Insert(99, "∞"),
            Edit::Remove(1, 100),
            Edit::Replace(7, 'x'),
            Edit::Repeat(0, 2, 3),
            Edit::Truncate(5),
        ];
        assert_eq!(apply("abc", &edits[..1]), "abc∞");
        assert_eq!(apply("abc", &edits[1..2]), "a");
        assert_eq!(apply("abc", &edits[2..3]), "axc");
        assert_eq!(apply("abc", &edits[3..4]), "abababab".to_string() + "c");
        assert_eq!(apply("abcdefgh", &edits[4..]), "abcde");
        assert_eq!(apply("", &edits), "");
        let number = [Edit::Number(3, "-1")];
        assert_eq!(apply("edges:0-12,3-4", &number), "edges:0-12,3--1");
        assert_eq!(apply("petersen", &number), "pet-1ersen");
    }

    #[test]
    fn messages_with_breaks_or_escapes_are_refused() {
        assert!(check_message("x", "bad spec \"x\"").is_ok());
        for bad in ["", "two\nlines", "raw \u{1b}[31m", "nul \0"] {
            assert!(check_message("x", bad).is_err(), "{bad:?}");
        }
    }
}
