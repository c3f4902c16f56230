//! How results are printed: one JSON document with `--json`, text otherwise; tables as
//! text, CSV, Markdown or LaTeX; progress bars on a terminal only.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// Where a command's results go.
pub struct Output {
    pub json: bool,
}

impl Output {
    pub fn new(json: bool) -> Self {
        Output { json }
    }

    /// Prints `value` as JSON with `--json`, else the text made by `text`.
    pub fn emit<T: Serialize>(
        &self,
        value: &T,
        text: impl FnOnce() -> String,
    ) -> anyhow::Result<()> {
        let mut text = if self.json {
            serde_json::to_string_pretty(value)?
        } else {
            text()
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        write_stdout(&text)
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

/// An error and its causes on one line.
pub fn one_line(err: &anyhow::Error) -> String {
    format!("{err:#}").replace('\n', " ")
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
    fn latex_is_a_tabular() {
        let t = sample().render(TableFormat::Latex);
        assert!(t.starts_with("\\begin{tabular}{ll}"));
        assert!(t.contains("1 & c, d \\\\"));
    }
}
