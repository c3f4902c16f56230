//! How results are printed: one JSON document with `--json`, text otherwise; tables as
//! text, CSV, Markdown or LaTeX; progress bars on a terminal only.

use std::cell::RefCell;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use crosscap_engine::catalog::{Part, Status};
use crosscap_engine::text::{escape_controls, shorten_long_runs};
use crosscap_engine::{Budget, Exhausted, NodeCounter};
use indicatif::style::ProgressTracker;
use indicatif::{FormattedDuration, HumanCount, ProgressBar, ProgressState, ProgressStyle};
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

/// A command stopped by its budget before it had anything to print (an Edge-Nim table
/// that would not fit `--max-memory`): one line on stderr like bad input, but exit status
/// 3, since the input is fine and a larger budget answers it.
#[derive(Debug)]
pub struct OutOfBudget(pub anyhow::Error);

impl std::fmt::Display for OutOfBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for OutOfBudget {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// How a command ended, beyond errors: exit status 0, or 3 when a search's budget ran out
/// before the whole answer was known (what was found is still printed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Complete,
    Unknown,
    /// What was checked is false (a certificate that proves nothing): exit status 1.
    Invalid,
}

/// "solved", or "unknown: the time limit ran out (--max-seconds)".
pub fn status_text(status: &Status) -> String {
    match status {
        Status::Solved => "solved".to_string(),
        Status::Unknown { reason } => format!("unknown: {}", ran_out(*reason)),
    }
}

/// "1 node", "2 nodes", "1,298,770 nodes": a search's work in words.
pub fn nodes_text(nodes: u64) -> String {
    format!(
        "{} node{}",
        indicatif::HumanCount(nodes),
        if nodes == 1 { "" } else { "s" }
    )
}

/// A part's answer in words, or "`what` is unknown: " and why.
pub fn part_text<T>(part: &Part<T>, what: &str, answer: impl FnOnce(&T) -> String) -> String {
    match (&part.answer, &part.spent) {
        (Some(found), _) => answer(found),
        (None, Some(spent)) => format!(
            "{what} is {} after {} in {:.1} ms",
            status_text(&part.status),
            nodes_text(spent.nodes),
            spent.millis
        ),
        (None, None) => format!("{what} is {}", status_text(&part.status)),
    }
}

/// The limit that ran out, in words naming the flag that sets it.
pub fn ran_out(reason: Exhausted) -> String {
    match reason {
        Exhausted::Nodes => "the node limit ran out (--max-nodes)".to_string(),
        Exhausted::Time => "the time limit ran out (--max-seconds)".to_string(),
        Exhausted::Memory => "the memory limit ran out (--max-memory)".to_string(),
        Exhausted::Cancelled => "the search was cancelled".to_string(),
        Exhausted::Beyond => "the position is beyond the exact analysis".to_string(),
    }
}

/// Writes to stdout; a reader that closed the pipe early (`| head`) is not an error.
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    Ok(crosscap_engine::text::write_stdout(text)?)
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
/// message must not drive the terminal) and long echoed input shortened. A cause that a
/// message already words (`cannot listen on ADDR: {source}`) is not said again.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain().map(ToString::to_string) {
        if !line.contains(&cause) {
            if !line.is_empty() {
                line += ": ";
            }
            line += &cause;
        }
    }
    shorten_long_runs(&escape_controls(&line.replace('\n', " ")))
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
    /// Columns whose names and values are mathematics (surfaces, values, edge variables),
    /// set in math mode in LaTeX.
    #[serde(skip)]
    math: Vec<bool>,
}

/// In LaTeX, a column wider than this many characters is set as a paragraph that wraps.
const LATEX_WRAP_CHARS: usize = 36;
/// The characters of a LaTeX table's line (about a 10pt article's text width, column
/// gaps counted); wider tables are split into several tables of fewer columns.
const LATEX_LINE_CHARS: usize = 72;
/// The gap between two columns, in characters.
const LATEX_GAP_CHARS: usize = 3;

impl Table {
    pub fn new(headers: &[&str]) -> Self {
        Table {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            math: vec![false; headers.len()],
        }
    }

    /// Marks every column as mathematics, for LaTeX.
    pub fn all_math(mut self) -> Self {
        self.math = vec![true; self.headers.len()];
        self
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// The table with more columns on the right, `values` giving each row's cells in turn.
    pub fn with_columns(
        mut self,
        headers: &[&str],
        values: impl IntoIterator<Item = Vec<String>>,
    ) -> Self {
        self.headers.extend(headers.iter().map(|h| h.to_string()));
        self.math.extend(headers.iter().map(|_| false));
        for (row, cells) in self.rows.iter_mut().zip(values) {
            row.extend(cells);
        }
        self
    }

    /// One table of several, each row led by its table's `label` in a first column named
    /// `key` (unless the table has that column already); the columns are every table's,
    /// in the order first seen, empty in the rows of a table without them.
    pub fn stacked(key: &str, tables: &[(String, &Table)]) -> Table {
        let mut all = Table::new(&[key]);
        for (_, table) in tables {
            for (header, &math) in table.headers.iter().zip(&table.math) {
                if !all.headers.contains(header) {
                    all.headers.push(header.clone());
                    all.math.push(math);
                }
            }
        }
        for (label, table) in tables {
            let own_key = table.headers.iter().position(|h| h == key);
            let columns: Vec<Option<usize>> = all
                .headers
                .iter()
                .map(|h| table.headers.iter().position(|t| t == h))
                .collect();
            for row in &table.rows {
                all.rows.push(
                    columns
                        .iter()
                        .enumerate()
                        .map(|(i, column)| match (i, column, own_key) {
                            (0, _, None) => label.clone(),
                            (_, Some(c), _) => row.get(*c).cloned().unwrap_or_default(),
                            _ => String::new(),
                        })
                        .collect(),
                );
            }
        }
        all
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
        let line = |cells: &[String]| {
            let cells: Vec<String> = cells.iter().map(|c| markdown_text(c)).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut out = line(&self.headers);
        out += &format!("|{}\n", " --- |".repeat(self.headers.len()));
        for row in &self.rows {
            out += &line(row);
        }
        out
    }

    /// A `longtable` (it breaks across pages) with text escaped and mathematics in math
    /// mode; a table too wide for a page is split into tables of consecutive columns, each
    /// led by the row number. Needs `\usepackage{longtable,array}`.
    fn latex(&self) -> String {
        let widths = self.widths();
        let chunks = latex_column_chunks(&widths);
        let numbered = chunks.len() > 1;
        let cell = |column: usize, text: &str| {
            if self.math.get(column) == Some(&true) {
                latex_math_words(text)
            } else {
                latex_text(text)
            }
        };
        let mut out = "% needs \\usepackage{longtable,array}\n".to_string();
        for (k, columns) in chunks.iter().enumerate() {
            if k > 0 {
                out += "\n";
            }
            let mut spec: String = if numbered { "r".into() } else { String::new() };
            for &c in columns {
                spec += &if widths[c] > LATEX_WRAP_CHARS {
                    format!(
                        ">{{\\raggedright\\arraybackslash}}p{{{}em}}",
                        LATEX_WRAP_CHARS / 2
                    )
                } else {
                    "l".to_string()
                };
            }
            let line = |number: Option<String>, cells: &[String]| {
                number
                    .into_iter()
                    .chain(
                        columns
                            .iter()
                            .map(|&c| cell(c, cells.get(c).map_or("", String::as_str))),
                    )
                    .collect::<Vec<_>>()
                    .join(" & ")
                    + " \\\\\n"
            };
            out += &format!("\\begin{{longtable}}{{{spec}}}\n\\hline\n");
            out += &line(numbered.then(|| "row".to_string()), &self.headers);
            out += "\\hline\n\\endhead\n";
            for (i, row) in self.rows.iter().enumerate() {
                out += &line(numbered.then(|| (i + 1).to_string()), row);
            }
            out += "\\hline\n\\end{longtable}\n";
        }
        out
    }
}

/// The columns of each LaTeX table: consecutive columns while they fit on a line (a
/// wrapping column counts as [`LATEX_WRAP_CHARS`]), as few tables as that takes, of
/// about equal widths.
fn latex_column_chunks(widths: &[usize]) -> Vec<Vec<usize>> {
    let widths: Vec<usize> = widths
        .iter()
        .map(|w| w.min(&LATEX_WRAP_CHARS) + LATEX_GAP_CHARS)
        .collect();
    let total: usize = widths.iter().sum();
    if total <= LATEX_LINE_CHARS {
        return vec![(0..widths.len()).collect()];
    }
    // Split tables start with the row number.
    let row_number = 3 + LATEX_GAP_CHARS;
    let fill = |target: usize| {
        let mut chunks: Vec<Vec<usize>> = Vec::new();
        let mut used = 0;
        for (column, &width) in widths.iter().enumerate() {
            match chunks.last_mut() {
                Some(chunk) if used < target && used + width <= LATEX_LINE_CHARS => {
                    chunk.push(column)
                }
                _ => {
                    chunks.push(vec![column]);
                    used = row_number;
                }
            }
            used += width;
        }
        chunks
    };
    let fewest = fill(LATEX_LINE_CHARS);
    let balanced = fill(row_number + total.div_ceil(fewest.len()));
    if balanced.len() <= fewest.len() {
        balanced
    } else {
        fewest
    }
}

/// Text of a Markdown table cell, shown as written: `|` (which would end the cell) and
/// every character Markdown reads as markup (`\\ ` * _ ~ [ ] < > &`) escaped with a
/// backslash; an underscore between two letters or digits stays as it is (it never
/// emphasises), and a line break becomes a space.
pub fn markdown_text(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let intraword = |i: usize| {
            i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|c| c.is_alphanumeric())
        };
        match c {
            '_' if intraword(i) => out.push(c),
            '|' | '\\' | '`' | '*' | '_' | '~' | '[' | ']' | '<' | '>' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Text for LaTeX: every character that LaTeX reads as a command (`\ { } ^ ~ _ & % # $`,
/// and `[ ] < > | `` ` `` that it reads otherwise in a table or in the default fonts) as a
/// command that prints it.
pub fn latex_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out += "\\textbackslash{}",
            '{' | '}' | '_' | '&' | '%' | '#' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out += "\\textasciicircum{}",
            '~' => out += "\\textasciitilde{}",
            '<' => out += "\\textless{}",
            '>' => out += "\\textgreater{}",
            '|' => out += "\\textbar{}",
            // A bare grave is a quote (and `?` followed by it a ligature, an inverted `?`).
            '`' => out += "\\`{}",
            // `\\[` after a row would read the bracket as a length.
            '[' | ']' => {
                out.push('{');
                out.push(c);
                out.push('}');
            }
            '\n' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A cell of a mathematical column: the numbers, single letters and indexed names in it
/// (`3`, `c`, `n1` as `n_{1}`, `G(o_g)`) in math mode, the words and punctuation around
/// them as text.
fn latex_math_words(text: &str) -> String {
    let is_word = |c: char| c.is_ascii_alphanumeric() || "_()".contains(c);
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest.find(|c| !is_word(c)).unwrap_or(rest.len());
        if end == 0 {
            let other = rest.find(is_word).unwrap_or(rest.len());
            out += &latex_text(&rest[..other]);
            rest = &rest[other..];
            continue;
        }
        out += &latex_math_word(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

/// One word of a mathematical column: in math mode when it is mathematics, else text;
/// parentheses that open or close a list around it stay outside.
fn latex_math_word(word: &str) -> String {
    if let Some(math) = math_word(word) {
        return format!("${math}$");
    }
    let open = word.len() - word.trim_start_matches('(').len();
    let inner_end = word.trim_end_matches(')').len().max(open);
    match math_word(&word[open..inner_end]) {
        Some(math) => format!("{}${math}${}", &word[..open], &word[inner_end..]),
        None => latex_text(word),
    }
}

/// The math-mode form of a number, a letter, a letter with a number (`n12` as `n_{12}`)
/// or a name with `_` (`G(o_g)`); `None` for a word.
fn math_word(word: &str) -> Option<String> {
    let mut chars = word.chars();
    let first = chars.next()?;
    let tail = chars.as_str();
    if word.chars().all(|c| c.is_ascii_digit()) {
        return Some(word.to_string());
    }
    if first.is_ascii_alphabetic() && tail.chars().all(|c| c.is_ascii_digit()) {
        return Some(if tail.is_empty() {
            word.to_string()
        } else {
            format!("{first}_{{{tail}}}")
        });
    }
    let balanced = word.matches('(').count() == word.matches(')').count();
    // One index, in braces: `o_g` as `o_{g}`.
    let (base, after) = word.split_once('_')?;
    let index_end = after.find(['(', ')']).unwrap_or(after.len());
    let index = &after[..index_end];
    (balanced && !base.is_empty() && !index.is_empty() && !after.contains('_'))
        .then(|| format!("{base}_{{{index}}}{}", &after[index_end..]))
}

/// A progress bar drawn only when stderr is a terminal; silent otherwise.
pub fn progress_bar(len: u64, message: &str) -> ProgressBar {
    terminal_bar(len, message, || {
        bar_style("{msg} [{bar:40}] {pos}/{len} ({eta})")
    })
}

/// A bar of `len` steps drawn in `style` when stderr is a terminal, hidden otherwise.
fn terminal_bar(len: u64, message: &str, style: impl FnOnce() -> ProgressStyle) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    ProgressBar::new(len)
        .with_style(style())
        .with_message(message.to_string())
}

/// `bar`, redrawn every `tick` by a thread of its own when it is drawn at all.
fn steady(bar: ProgressBar, tick: Duration) -> ProgressBar {
    if !bar.is_hidden() {
        bar.enable_steady_tick(tick);
    }
    bar
}

fn bar_style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("the template is valid")
        .progress_chars("=> ")
}

/// A [`progress_bar`] of steps that may take hours (an all-openings class): redrawn every
/// second with the time since it last moved and the nodes `counter` counted since then,
/// with their rate: when the steps run one after another, the running step's (with
/// several at once, those of them all, the oldest having taken at least that long).
pub fn long_steps_bar(len: u64, message: &str, counter: &NodeCounter) -> ProgressBar {
    let bar = terminal_bar(len, message, || {
        bar_style("{msg} [{bar:20}] {pos}/{len} ({eta}), last finished {since_step}")
            .with_key("since_step", SinceStep::new(counter))
    });
    steady(bar, Duration::from_secs(1))
}

/// How often a search's spinner is redrawn.
const SEARCH_BAR_TICK: Duration = Duration::from_millis(250);

/// Runs `search` under `budget`, with a spinner on a terminal showing its nodes so far,
/// their rate, the time taken and the time limit: the budget `search` gets counts the
/// nodes when the spinner is drawn, and is `budget` otherwise.
pub fn with_search_bar<T>(message: &str, budget: &Budget, search: impl FnOnce(&Budget) -> T) -> T {
    let counter = NodeCounter::new();
    let bar = terminal_bar(0, message, || {
        let limit = budget.max_time.map_or(String::new(), |time| {
            format!(" of {}", FormattedDuration(time))
        });
        bar_style(&format!(
            "{{spinner}} {{msg}}: {{nodes}}, {{elapsed_precise}}{limit}"
        ))
        .with_key("nodes", NodeRate(counter.clone()))
    });
    let bar = steady(bar, SEARCH_BAR_TICK);
    let found = search(&counting(&bar, budget, &counter));
    bar.finish_and_clear();
    found
}

/// `budget`, its searches counting their nodes into `counter` when `bar` is drawn (off a
/// terminal nothing changes).
pub fn counting(bar: &ProgressBar, budget: &Budget, counter: &NodeCounter) -> Budget {
    match bar.is_hidden() {
        true => budget.clone(),
        false => budget.clone().with_counter(counter.clone()),
    }
}

/// `12,345 nodes (6,789/s)`: the nodes counted in `elapsed` and their mean rate.
fn nodes_and_rate(nodes: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    format!("{} nodes ({}/s)", HumanCount(nodes), HumanCount(rate))
}

/// A bar's key showing a counter's nodes and their rate since the bar started.
#[derive(Clone)]
struct NodeRate(NodeCounter);

impl ProgressTracker for NodeRate {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, _: &ProgressState, _: Instant) {}

    fn reset(&mut self, _: &ProgressState, _: Instant) {}

    fn write(&self, state: &ProgressState, w: &mut dyn std::fmt::Write) {
        let _ = w.write_str(&nodes_and_rate(self.0.nodes(), state.elapsed()));
    }
}

/// When a bar's position last changed, as its ticks see it, and the nodes counted then.
#[derive(Clone)]
struct SinceStep {
    counter: NodeCounter,
    /// The position, when the ticks first saw it, and the nodes then.
    last: Option<(u64, Instant, u64)>,
}

impl SinceStep {
    fn new(counter: &NodeCounter) -> SinceStep {
        SinceStep {
            counter: counter.clone(),
            last: None,
        }
    }

    fn seen(&mut self, position: u64, now: Instant) {
        if self.last.is_none_or(|(last, _, _)| last != position) {
            self.last = Some((position, now, self.counter.nodes()));
        }
    }

    fn since(&self, now: Instant) -> Duration {
        self.last.map_or(Duration::ZERO, |(_, at, _)| {
            now.saturating_duration_since(at)
        })
    }

    /// `00:01:05 ago, 1,234 nodes (19/s) since`.
    fn text(&self, now: Instant) -> String {
        let then = self.last.map_or(0, |(_, _, nodes)| nodes);
        let since = self.since(now);
        format!(
            "{} ago, {} since",
            FormattedDuration(since),
            nodes_and_rate(self.counter.nodes().saturating_sub(then), since)
        )
    }
}

impl ProgressTracker for SinceStep {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &ProgressState, now: Instant) {
        self.seen(state.pos(), now);
    }

    fn reset(&mut self, _: &ProgressState, _: Instant) {
        self.last = None;
    }

    fn write(&self, _: &ProgressState, w: &mut dyn std::fmt::Write) {
        let _ = w.write_str(&self.text(Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(&["g", "moves"]);
        t.push(vec!["1".into(), "c, d".into()]);
        t
    }

    /// The time and nodes since a step are counted from the first tick that saw its
    /// position.
    #[test]
    fn the_time_and_nodes_since_a_step_restart_when_the_position_moves() {
        let start = Instant::now();
        let at = |seconds| start + Duration::from_secs(seconds);
        let counter = NodeCounter::new();
        let count = |nodes| {
            let mut meter = Budget::unlimited().with_counter(counter.clone()).meter();
            (0..nodes).for_each(|_| _ = meter.tick());
        };
        let mut since = SinceStep::new(&counter);
        assert_eq!(since.since(at(5)), Duration::ZERO);
        since.seen(0, at(1));
        count(5);
        since.seen(0, at(4));
        assert_eq!(since.since(at(10)), Duration::from_secs(9));
        assert_eq!(since.text(at(10)), "00:00:09 ago, 5 nodes (0/s) since");
        since.seen(1, at(12));
        count(1500);
        assert_eq!(since.since(at(15)), Duration::from_secs(3));
        assert_eq!(
            since.text(at(15)),
            "00:00:03 ago, 1,500 nodes (500/s) since"
        );
    }

    #[test]
    fn nodes_come_with_their_mean_rate() {
        assert_eq!(
            nodes_and_rate(12_345_678, Duration::from_secs(4)),
            "12,345,678 nodes (3,086,419/s)"
        );
        assert_eq!(nodes_and_rate(0, Duration::ZERO), "0 nodes (0/s)");
    }

    #[test]
    fn one_node_is_singular() {
        assert_eq!(nodes_text(1), "1 node");
        assert_eq!(nodes_text(2), "2 nodes");
        assert_eq!(nodes_text(1_298_770), "1,298,770 nodes");
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

    /// A graph6 name holds `|` and other characters Markdown reads: each cell stays one
    /// cell and shows its text as written.
    #[test]
    fn markdown_escapes_bars_and_markup() {
        let mut t = Table::new(&["graph6", "n_g"]);
        t.push(vec!["F?`|\\[]_~*<>&".into(), "G(o_g) _x_".into()]);
        assert_eq!(
            t.render(TableFormat::Markdown),
            "| graph6 | n_g |\n| --- | --- |\n\
             | F?\\`\\|\\\\\\[\\]\\_\\~\\*\\<\\>\\& | G(o_g) \\_x\\_ |\n"
        );
        // Every row has as many unescaped bars as the header.
        let bars = |line: &str| {
            line.replace("\\\\", "")
                .replace("\\|", "")
                .matches('|')
                .count()
        };
        let md = t.render(TableFormat::Markdown);
        assert!(md.lines().all(|l| bars(l) == 3), "{md}");
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
    fn latex_is_a_longtable() {
        let t = sample().render(TableFormat::Latex);
        assert!(t.contains("\\begin{longtable}{ll}"), "{t}");
        assert!(t.contains("1 & c, d \\\\"), "{t}");
    }

    #[test]
    fn latex_escapes_every_special_character() {
        assert_eq!(
            latex_text("F?`{}^~_\\[]<>|&%#$"),
            "F?\\`{}\\{\\}\\textasciicircum{}\\textasciitilde{}\\_\\textbackslash{}{[}{]}\
             \\textless{}\\textgreater{}\\textbar{}\\&\\%\\#\\$"
        );
    }

    #[test]
    fn math_columns_set_surfaces_values_and_indices_in_math_mode() {
        assert_eq!(
            latex_math_words("g: (n1, n12), 0; c,d: S"),
            "$g$: ($n_{1}$, $n_{12}$), $0$; $c$,$d$: $S$"
        );
        assert_eq!(
            latex_math_words("moves from n_g and G-values"),
            "moves from $n_{g}$ and $G$-values"
        );
        assert_eq!(latex_math_words("G(o_g)"), "$G(o_{g})$");
        assert_eq!(latex_math_words("a_b_c"), "a\\_b\\_c");
        assert_eq!(latex_math_words("0-1"), "$0$-$1$");
    }

    #[test]
    fn wide_latex_tables_are_split_with_row_numbers() {
        let headers: Vec<String> = (0..30).map(|i| format!("edge {i}")).collect();
        let mut t = Table::new(&headers.iter().map(String::as_str).collect::<Vec<_>>());
        t.push((0..30).map(|i| i.to_string()).collect());
        let latex = t.render(TableFormat::Latex);
        let tables = latex.matches("\\begin{longtable}").count();
        assert!(tables >= 3, "{latex}");
        assert_eq!(latex.matches("row & edge").count(), tables);
        assert!(latex.contains("edge 0 &") && latex.contains("edge 29 \\\\"));
        // A long column wraps instead.
        let mut t = Table::new(&["g", "moves"]);
        t.push(vec!["1".into(), "c: n1, 1; ".repeat(20)]);
        let latex = t.render(TableFormat::Latex);
        assert!(latex.contains("{l>{\\raggedright"), "{latex}");
        assert_eq!(latex.matches("\\begin{longtable}").count(), 1);
    }
}
