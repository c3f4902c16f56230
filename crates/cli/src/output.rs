//! How results are printed: one JSON document with `--json`, text otherwise; tables as
//! text, CSV, Markdown or LaTeX; progress bars on a terminal only.

use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::time::Instant;

use crosscap_engine::Exhausted;
use crosscap_engine::catalog::{Part, Status};
use crosscap_engine::text::{escape_controls, shorten_long_runs};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// Where a command's results go.
pub struct Output {
    pub json: bool,
    /// What was printed, when it is kept instead of written to stdout (unit tests).
    captured: Option<RefCell<String>>,
    /// When the command started, for the time a JSON document says it took.
    started: Instant,
}

/// What every JSON object printed says of the run that printed it, so that a result
/// pasted elsewhere can be traced and repeated: the version, the command line (seeds
/// included) and the time taken.
#[derive(Serialize)]
struct Run {
    version: &'static str,
    command: Vec<String>,
    millis: f64,
}

impl Output {
    pub fn new(json: bool) -> Self {
        Output {
            json,
            captured: None,
            started: Instant::now(),
        }
    }

    /// An output that keeps what is printed, for [`Output::captured`].
    #[cfg(test)]
    pub fn capturing(json: bool) -> Self {
        Output {
            json,
            captured: Some(RefCell::default()),
            started: Instant::now(),
        }
    }

    /// What was printed so far.
    #[cfg(test)]
    pub fn captured(&self) -> String {
        self.captured
            .as_ref()
            .map_or(String::new(), |c| c.borrow().clone())
    }

    /// Prints `value` as JSON with `--json`, else the text made by `text`: a complete
    /// answer.
    pub fn emit<T: Serialize>(
        &self,
        value: &T,
        text: impl FnOnce() -> String,
    ) -> anyhow::Result<Answer> {
        self.emit_status(value, Status::Solved, text)
    }

    /// Prints an answer whose `status` says whether every part of it is known.
    pub fn emit_status<T: Serialize>(
        &self,
        value: &T,
        status: Status,
        text: impl FnOnce() -> String,
    ) -> anyhow::Result<Answer> {
        let mut text = if self.json {
            let mut document = serde_json::to_value(value)?;
            // Objects only: a document that is a list (a table's rows) stays as it is.
            if let serde_json::Value::Object(keys) = &mut document {
                let run = Run {
                    version: env!("CARGO_PKG_VERSION"),
                    // The program as `crosscap`, wherever it was run from.
                    command: std::iter::once("crosscap".to_string())
                        .chain(std::env::args().skip(1))
                        .collect(),
                    millis: self.started.elapsed().as_secs_f64() * 1000.0,
                };
                keys.insert("run".to_string(), serde_json::to_value(run)?);
            }
            serde_json::to_string_pretty(&document)?
        } else {
            text()
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        match &self.captured {
            Some(captured) => captured.borrow_mut().push_str(&text),
            None => write_stdout(&text)?,
        }
        Ok(match status {
            Status::Solved => Answer::Complete,
            Status::Unknown { .. } => Answer::Unknown,
        })
    }
}

/// How a command ended, beyond errors: exit status 0, or 3 when a search's budget ran out
/// before the whole answer was known (what was found is still printed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Complete,
    Unknown,
}

/// "solved", or "unknown: the time limit ran out (--max-seconds)".
pub fn status_text(status: &Status) -> String {
    match status {
        Status::Solved => "solved".to_string(),
        Status::Unknown { reason } => format!("unknown: {}", ran_out(*reason)),
    }
}

/// A part's answer in words, or "`what` is unknown: " and why.
pub fn part_text<T>(part: &Part<T>, what: &str, answer: impl FnOnce(&T) -> String) -> String {
    match (&part.answer, &part.spent) {
        (Some(found), _) => answer(found),
        (None, Some(spent)) => format!(
            "{what} is {} after {} nodes in {:.1} ms",
            status_text(&part.status),
            spent.nodes,
            spent.millis
        ),
        (None, None) => format!("{what} is {}", status_text(&part.status)),
    }
}

/// The limit that ran out, in words naming the flag that sets it.
fn ran_out(reason: Exhausted) -> String {
    match reason {
        Exhausted::Nodes => "the node limit ran out (--max-nodes)".to_string(),
        Exhausted::Time => "the time limit ran out (--max-seconds)".to_string(),
        Exhausted::Memory => "the memory limit ran out (--max-memory)".to_string(),
        Exhausted::Cancelled => "the search was cancelled".to_string(),
    }
}

/// Writes to stdout; a reader that closed the pipe early (`| head`) is not an error.
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
    ignore_closed_stdout(written.map_err(Into::into))
}

/// Output that stopped because its reader went away (stdout closed: `| head`) ended
/// normally.
pub fn ignore_closed_stdout(written: anyhow::Result<()>) -> anyhow::Result<()> {
    match written {
        Err(err)
            if err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(())
        }
        other => other,
    }
}

/// The text form of an impartial position's analysis, shared by the impartial games.
pub fn grundy_text(grundy: u32, winning_moves: &[String]) -> String {
    format!(
        "Grundy value {grundy} ({}-position)\nwinning moves: {}\n",
        if grundy == 0 { "P" } else { "N" },
        if winning_moves.is_empty() {
            "none".to_string()
        } else {
            winning_moves.join(" ")
        }
    )
}

/// An error and its causes on one line, control characters escaped (input echoed in a
/// message must not drive the terminal) and long echoed input shortened.
pub fn one_line(err: &anyhow::Error) -> String {
    shorten_long_runs(&escape_controls(&format!("{err:#}").replace('\n', " ")))
}

/// A command-line parsing error as one line: clap's message and tip without the usage
/// lines that follow them.
pub fn usage_error_line(rendered: &str) -> String {
    let kept: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information"))
        .filter(|line| !line.is_empty())
        .collect();
    shorten_long_runs(&escape_controls(&kept.join(" ")))
}

/// Table formats for research output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    Text,
    Csv,
    Markdown,
    Latex,
}

/// A table of strings with a header row.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(headers: &[&str]) -> Self {
        Table {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    pub fn render(&self, format: TableFormat) -> String {
        match format {
            TableFormat::Text => self.text(),
            TableFormat::Csv => self.csv(),
            TableFormat::Markdown => self.markdown(),
            TableFormat::Latex => self.latex(),
        }
    }

    fn widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                if i < widths.len() {
                    widths[i] = widths[i].max(cell.chars().count());
                }
            }
        }
        widths
    }

    fn text(&self) -> String {
        let widths = self.widths();
        let line = |cells: &[String]| {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
                + "\n"
        };
        let mut out = line(&self.headers);
        out += &line(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>());
        for row in &self.rows {
            out += &line(row);
        }
        out
    }

    fn csv(&self) -> String {
        let field = |c: &String| {
            if c.contains([',', '"', '\n']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        };
        std::iter::once(&self.headers)
            .chain(&self.rows)
            .map(|r| r.iter().map(field).collect::<Vec<_>>().join(",") + "\n")
            .collect()
    }

    fn markdown(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | ").replace('\n', " "));
        let mut out = line(&self.headers);
        out += &line(&vec!["---".to_string(); self.headers.len()]);
        for row in &self.rows {
            out += &line(row);
        }
        out
    }

    fn latex(&self) -> String {
        let escape = |c: &String| {
            c.replace('\\', "\\textbackslash{}")
                .replace('&', "\\&")
                .replace('%', "\\%")
                .replace('_', "\\_")
                .replace('#', "\\#")
        };
        let line =
            |cells: &[String]| cells.iter().map(escape).collect::<Vec<_>>().join(" & ") + " \\\\\n";
        let mut out = format!(
            "\\begin{{tabular}}{{{}}}\n\\hline\n",
            "l".repeat(self.headers.len())
        );
        out += &line(&self.headers);
        out += "\\hline\n";
        for row in &self.rows {
            out += &line(row);
        }
        out + "\\hline\n\\end{tabular}\n"
    }
}

/// A progress bar drawn only when stderr is a terminal; silent otherwise.
pub fn progress_bar(len: u64, message: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({eta})")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(message.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(&["g", "moves"]);
        t.push(vec!["1".into(), "c, d".into()]);
        t
    }

    #[test]
    fn csv_quotes_commas() {
        assert_eq!(sample().render(TableFormat::Csv), "g,moves\n1,\"c, d\"\n");
    }

    #[test]
    fn markdown_has_a_rule() {
        assert_eq!(
            sample().render(TableFormat::Markdown),
            "| g | moves |\n| --- | --- |\n| 1 | c, d |\n"
        );
    }

    #[test]
    fn usage_errors_lose_their_usage_lines() {
        let rendered = "error: unexpected argument '--maxx' found\n\n  tip: a similar argument \
                        exists: '--max'\n\nUsage: crosscap nim p-positions --max <MAX>\n\n\
                        For more information, try '--help'.\n";
        assert_eq!(
            usage_error_line(rendered),
            "error: unexpected argument '--maxx' found tip: a similar argument exists: '--max'"
        );
    }

    #[test]
    fn an_unknown_part_says_why_in_words() {
        let part = Part::<u32>::of(Err(crosscap_engine::SolveError::Unknown {
            nodes: 9,
            elapsed: std::time::Duration::from_millis(3),
            reason: Exhausted::Nodes,
        }));
        assert_eq!(
            part_text(&part, "the winner", |n| n.to_string()),
            "the winner is unknown: the node limit ran out (--max-nodes) after 9 nodes in 3.0 ms"
        );
        assert_eq!(
            part_text(&Part::of(Ok(4)), "the winner", |n| n.to_string()),
            "4"
        );
    }

    #[test]
    fn latex_is_a_tabular() {
        let t = sample().render(TableFormat::Latex);
        assert!(t.starts_with("\\begin{tabular}{ll}"));
        assert!(t.contains("1 & c, d \\\\"));
    }
}
