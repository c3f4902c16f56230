//! `crosscap edge-nim`: its own commands, `value` (the Grundy tables of a position's
//! parts, with no setup limit), P-position and Grundy tables, the tetrahedron theorem.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use crosscap_edge_nim::{
    CheckBox, EdgeNim, GrundyValues, OrbitCounts, PTable, Predicate, TOKENS_HELP, TableBox,
    analyse, check_predicate, check_tetrahedron, count_text, edge_names, orbit_counts, orbit_of,
    parse_assignments, parse_tokens, predicate::symmetries_fixing, read_graph, slice,
    tokens_or_default,
};
use crosscap_engine::Exhausted;
use crosscap_engine::catalog::{Part, Spent, Status};
use crosscap_engine::impartial_notation::ImpartialNotation;
use crosscap_engine::periodic::Periodicity;
use crosscap_graphs::{Graph, read_graph6_lines};
use serde::Serialize;

use crate::host::capitalised;
use crate::limits::{BudgetArgs, MemoryArgs, default_seconds};
use crate::output::{
    Answer, OutOfBudget, Output, Table, TableFormat, grundy_text, latex_text, markdown_text,
    part_text, progress_bar,
};

#[derive(Subcommand, Debug)]
pub enum EdgeNimCommand {
    /// The outcome (P or N), the Grundy value and every winning move of a position.
    #[command(mut_arg("max_seconds", default_seconds("60")))]
    Value {
        #[command(flatten)]
        position: PositionArgs,
        /// Misère play: the player who cannot move wins (the outcome and winning moves, the
        /// position searched whole, within --max-seconds, --max-nodes and --max-memory;
        /// normal play reads only --max-memory).
        #[arg(long)]
        misere: bool,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Every P-position with each edge from 0 to MAX (fixed edges at their value).
    PPositions {
        #[command(flatten)]
        table: TableArgs,
        /// Also count the P-positions up to the graph's automorphisms (those fixing the
        /// --fix edges): the orbits, by size.
        #[arg(long)]
        orbits: bool,
    },
    /// The Grundy value of every position with each edge from 0 to MAX.
    GrundyTable {
        #[command(flatten)]
        table: TableArgs,
    },
    /// Checks a conjecture: whether a predicate over the edges' tokens holds exactly of the
    /// P-positions of a box (every edge from 0 to MAX, fixed edges at their value), with the
    /// first counterexample each way.
    Check {
        /// The graph spec.
        #[arg(long)]
        graph: String,
        #[command(flatten)]
        region: BoxArgs,
        /// A position satisfies the predicate when some automorphism of the graph fixing the
        /// --fix edges maps it to one that does (as in the seed's theorem).
        #[arg(long)]
        up_to_symmetry: bool,
        /// Over the edges' names: + - * xor, == != <= < >= >, and or not, parentheses, e.g.
        /// 'b + C == B + c and b <= c and (A xor b xor B) == 0'.
        #[arg(long)]
        predicate: String,
        #[command(flatten)]
        memory: MemoryArgs,
    },
    /// The Grundy values along one or two free edges, every other edge held: with one free
    /// edge the sequence and the (arithmetic-)periodicity it shows (seen, not proved), with
    /// two a table (rows the first free edge, columns the second).
    #[command(mut_arg("max_seconds", default_seconds("60")))]
    Slice {
        /// The graph spec.
        #[arg(long)]
        graph: String,
        /// The held edges' tokens: EDGE=COUNT items (unnamed edges empty, and every edge
        /// when none is given), *=N first for every edge, or counts in edge order; the free
        /// edges' counts from *=N or the list are ignored, a free edge named here is refused.
        #[arg(long, default_value = "")]
        fix: String,
        /// A free edge, from 0 to --max (give one or two).
        #[arg(long, required = true)]
        free: Vec<String>,
        /// Largest number of tokens on a free edge (at least 1).
        #[arg(long)]
        max: u32,
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Checks the seed's theorem on the tetrahedron with edge a empty: P exactly when, up
    /// to the symmetries fixing a, b + C = B + c, b <= c and A xor b xor B = 0 (the same as
    /// `check --graph tetrahedron --fix a=0 --up-to-symmetry` with that predicate).
    CheckTetrahedron {
        /// Largest number of tokens on each of b, c, A, B, C (at most 63).
        #[arg(long)]
        max: u32,
        #[command(flatten)]
        memory: MemoryArgs,
    },
}

/// A graph and its tokens.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The graph: path:N, cycle:N, complete:N, star:M, bipartite:M,N, grid:RxC, wheel:N,
    /// petersen, tetrahedron, P5, C4, K4, K1,3, edges:0-1,1-2, g6:<graph6>.
    #[arg(long)]
    graph: String,
    /// As the option of `solve`, `play` and `arena`, with its default.
    #[arg(
        long,
        default_value = "",
        hide_default_value = true,
        allow_hyphen_values = true,
        help = capitalised(TOKENS_HELP)
    )]
    tokens: String,
}

/// The box of positions a table or a check covers.
#[derive(Args, Debug)]
pub struct BoxArgs {
    /// Largest number of tokens on each edge.
    #[arg(long)]
    max: u32,
    /// Edges held at a value, e.g. a=0 (a table still covers the positions below).
    #[arg(long)]
    fix: Option<String>,
}

impl BoxArgs {
    fn within(&self, graph: &Graph) -> anyhow::Result<TableBox> {
        TableBox::new(graph, self.max, self.fix.as_deref()).context("--fix")
    }
}

/// What a table covers and how it is printed.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The graph spec, or `-` for graph6 lines on stdin (e.g. from nauty's geng).
    #[arg(long)]
    graph: String,
    #[command(flatten)]
    region: BoxArgs,
    /// Print only counts (for tables too large to list: at most 1000000 rows are listed).
    #[arg(long)]
    count: bool,
    /// Table format for text output.
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    format: TableFormat,
    #[command(flatten)]
    memory: MemoryArgs,
}

/// A position's value from its Grundy tables, or `"status": "unknown"` with the reason
/// when the tables would not fit the memory budget (exit status 3, as `solve` does).
#[derive(Serialize)]
struct ValueReport {
    /// The graph, its edges and their tokens.
    #[serde(flatten)]
    position: serde_json::Map<String, serde_json::Value>,
    #[serde(flatten)]
    answer: Part<ValueFound>,
}

#[derive(Serialize)]
struct ValueFound {
    outcome: &'static str,
    grundy: u32,
    winning_moves: Vec<String>,
}

#[derive(Serialize)]
struct PReport {
    graph: String,
    edges: Vec<String>,
    max: u32,
    fixed: BTreeMap<String, u32>,
    /// Positions in the table (fixed edges at their value).
    positions_checked: u128,
    count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<Vec<Vec<u32>>>,
    /// With `--orbits`: the P-positions' orbits under the automorphisms fixing the fixed
    /// edges.
    #[serde(skip_serializing_if = "Option::is_none")]
    orbits: Option<OrbitCounts>,
    /// With `--orbits` and the positions listed: each position's orbit, numbered from 1
    /// in the order of the list, and its size (the tables' columns).
    #[serde(skip)]
    position_orbits: Option<Vec<[usize; 2]>>,
}

#[derive(Serialize)]
struct GrundyReport {
    graph: String,
    edges: Vec<String>,
    max: u32,
    fixed: BTreeMap<String, u32>,
    count: u64,
    /// How many positions have each value, indexed by value.
    histogram: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<Vec<Vec<u32>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy: Option<Vec<u32>>,
}

/// A predicate checked against a box of positions; counterexamples as EDGE=COUNT lists.
#[derive(Serialize)]
struct PredicateReport {
    graph: String,
    edges: Vec<String>,
    max: u32,
    fixed: BTreeMap<String, u32>,
    up_to_symmetry: bool,
    #[serde(flatten)]
    check: crosscap_edge_nim::PredicateCheck,
}

/// A slice: the held edges, the free ones and the values along them, as far as the budget
/// reached (`status`).
#[derive(Serialize)]
struct SliceReport {
    graph: String,
    edges: Vec<String>,
    /// The held edges by name (every edge but the free ones).
    held: BTreeMap<String, u32>,
    free: Vec<String>,
    max: u32,
    #[serde(flatten)]
    status: Status,
    #[serde(flatten)]
    spent: Option<Spent>,
    /// One free edge: the value at 0, 1, ...; two: a row per count of the first free edge.
    grundy: Lines<u32>,
    /// Where the value is 0: counts of the free edge, or pairs.
    p_positions: Lines<u32>,
    /// One free edge: the periodicity the values show (null when none shows yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    periodicity: Option<Option<Periodicity>>,
}

/// One free edge's sequence, or two free edges' rows.
#[derive(Serialize)]
#[serde(untagged)]
enum Lines<T> {
    One(Vec<T>),
    Two(Vec<Vec<T>>),
}

#[derive(Serialize)]
struct TheoremReport {
    max: u32,
    positions: u64,
    p_positions: u64,
    agrees: bool,
    counterexample: Option<crosscap_edge_nim::analysis::Counterexample>,
}

/// The most rows a table lists (`--count` counts any number).
const MAX_ROWS: u64 = 1_000_000;

pub fn run(cmd: EdgeNimCommand, out: &Output) -> anyhow::Result<Answer> {
    run_command(cmd, out).map_err(|err| {
        match err.downcast_ref::<crosscap_edge_nim::EdgeNimError>() {
            Some(stopped) if stopped.stopped_by() == Exhausted::Memory => OutOfBudget(err).into(),
            _ => err,
        }
    })
}

fn run_command(cmd: EdgeNimCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
        EdgeNimCommand::Value {
            position,
            misere,
            budget,
        } => {
            let (graph, tokens) = read_position(&position)?;
            let pos = EdgeNim::new(graph, tokens)?;
            if misere {
                let named = pos.clone();
                let answer =
                    crosscap_engine::misere_within(pos, budget.budget(), |m| named.format_move(m));
                return super::emit_misere(out, named.facts(), &answer);
            }
            let (answer, why) = match analyse(&pos, budget.memory_bytes()) {
                Ok(analysis) => (
                    Part::of(Ok(ValueFound {
                        outcome: if analysis.grundy == 0 { "P" } else { "N" },
                        grundy: analysis.grundy,
                        winning_moves: analysis
                            .winning_moves
                            .iter()
                            .map(|m| pos.format_move(m))
                            .collect(),
                    })),
                    None,
                ),
                Err(err) if err.stopped_by() == Exhausted::Memory => (
                    Part {
                        status: Status::Unknown {
                            reason: Exhausted::Memory,
                        },
                        spent: None,
                        answer: None,
                    },
                    Some(err.to_string()),
                ),
                Err(err) => return Err(err.into()),
            };
            let report = ValueReport {
                position: pos.facts(),
                answer,
            };
            out.emit_status(&report, report.answer.status, || {
                let text = part_text(&report.answer, "the Grundy value", |found| {
                    grundy_text(found.grundy, &found.winning_moves)
                });
                match &why {
                    Some(why) => format!("{text}: {why}"),
                    None => text,
                }
            })
        }
        EdgeNimCommand::PPositions { table, orbits } => {
            let reports = read_graphs(&table.graph)?
                .iter()
                .map(|g| p_report(g, &table, orbits))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let text = |r: &PReport| {
                let mut text = String::new();
                if let Some(positions) = &r.positions {
                    text += &p_table(r, positions).render(TableFormat::Text);
                }
                text += &format!(
                    "{} P-positions among {} positions\n",
                    r.count, r.positions_checked
                );
                if let Some(orbits) = &r.orbits {
                    text += &orbits_text(orbits);
                }
                text
            };
            // One table in every format (one CSV file is one table): the orbits as columns,
            // of each position listed, or of the counts (a row per orbit size).
            let tables = |r: &PReport| {
                vec![match &r.positions {
                    Some(positions) => p_table(r, positions),
                    None => counts_table(r),
                }]
            };
            emit_all(out, &table.graph, &reports, table.format, text, tables)
        }
        EdgeNimCommand::GrundyTable { table } => {
            let reports = read_graphs(&table.graph)?
                .iter()
                .map(|g| grundy_report(g, &table))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let one_table = |r: &GrundyReport| {
                if let (Some(positions), Some(values)) = (&r.positions, &r.grundy) {
                    return rows_table(&r.edges, positions, Some(values));
                }
                let mut histogram = Table::new(&["grundy", "positions"]);
                for (value, count) in r.histogram.iter().enumerate() {
                    histogram.push(vec![value.to_string(), count.to_string()]);
                }
                histogram
            };
            emit_all(
                out,
                &table.graph,
                &reports,
                table.format,
                |r| one_table(r).render(TableFormat::Text),
                |r| vec![one_table(r)],
            )
        }
        EdgeNimCommand::Check {
            graph,
            region,
            up_to_symmetry,
            predicate,
            memory,
        } => {
            let graph = read_graph(&graph)?;
            let within = region.within(&graph)?;
            let max = region.max;
            let predicate = Predicate::parse(&graph, &predicate).context("--predicate")?;
            let region = CheckBox {
                max,
                fixed: within.fixed.clone(),
                up_to_symmetry,
            };
            // The table is built over every position below the bounds.
            let table_positions = within
                .bounds()
                .iter()
                .fold(1u64, |n, &b| n.saturating_mul(u64::from(b) + 1));
            let bar = progress_bar(table_positions, "positions");
            let check =
                check_predicate(&graph, &predicate, &region, memory.bytes(), &|n| bar.inc(n))?;
            bar.finish_and_clear();
            let report = PredicateReport {
                graph: graph.spec().to_string(),
                edges: edge_names(&graph),
                max,
                fixed: within.fixed_names(&graph),
                up_to_symmetry,
                check,
            };
            out.emit(&report, || predicate_text(&report))
        }
        EdgeNimCommand::Slice {
            graph,
            fix,
            free,
            max,
            format,
            budget,
        } => {
            let graph = read_graph(&graph)?;
            let report = slice_report(&graph, &fix, &free, max, &budget)?;
            out.emit_status(&report, report.status, || slice_text(&report, format))
        }
        EdgeNimCommand::CheckTetrahedron { max, memory } => {
            if max > 63 {
                bail!("--max {max} is too large: the table allows at most 63");
            }
            let total = u64::from(max + 1).pow(5);
            let bar = progress_bar(total, "positions");
            let check = check_tetrahedron(max, memory.bytes(), &|n| bar.inc(n))?;
            bar.finish_and_clear();
            let report = TheoremReport {
                max,
                positions: check.positions,
                p_positions: check.p_positions,
                agrees: check.counterexample.is_none(),
                counterexample: check.counterexample,
            };
            out.emit(&report, || match &report.counterexample {
                None => format!(
                    "The theorem agrees with the table on all {} positions with a = 0 and \
                     b, c, A, B, C from 0 to {max} ({} P-positions).\n",
                    report.positions, report.p_positions
                ),
                Some(c) => format!(
                    "Counterexample: tokens a b c A B C = {:?}: the table says {}, the \
                     theorem says {}.\n",
                    c.tokens,
                    if c.table_p { "P" } else { "N" },
                    if c.theorem_p { "P" } else { "N" }
                ),
            })
        }
    }
}

/// Computes a slice: `fix` read as a token list, `free` as edge names.
fn slice_report(
    graph: &Graph,
    fix: &str,
    free: &[String],
    max: u32,
    budget: &BudgetArgs,
) -> anyhow::Result<SliceReport> {
    if free.len() > 2 {
        bail!(
            "--free: a slice has one or two free edges, not {}",
            free.len()
        );
    }
    let free: Vec<usize> = free
        .iter()
        .map(|name| {
            graph.edge_index(name).with_context(|| {
                format!(
                    "--free: there is no edge `{}` (the edges are {})",
                    name.escape_debug(),
                    edge_names(graph).join(", ")
                )
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let cells = (u64::from(max) + 1).pow(free.len() as u32);
    if cells > MAX_ROWS {
        bail!("--max {max}: the slice has {cells} values, more than the {MAX_ROWS} listed at most");
    }
    let held = if fix.trim().is_empty() {
        vec![0; graph.edge_count()]
    } else {
        parse_tokens(graph, fix).context("--fix")?
    };
    // A free edge named in --fix is both: refused rather than its count dropped (the
    // counts of `*=N` and of a list in edge order name no edge and are ignored).
    if fix.contains('=')
        && let Some(e) = parse_assignments(graph, fix)?
            .into_iter()
            .find_map(|(e, _)| e.filter(|e| free.contains(e)))
    {
        let name = graph.edge_name(e);
        bail!("edge {name} is both free (--free) and held (--fix): give it in one of them");
    }
    let work = held
        .iter()
        .enumerate()
        .map(|(e, &t)| if free.contains(&e) { max } else { t })
        .fold(1u64, |n, b| n.saturating_mul(u64::from(b) + 1));
    let bar = progress_bar(work, "positions");
    let found = slice(graph, &held, &free, max, &budget.budget(), &|n| bar.inc(n))?;
    bar.finish_and_clear();
    let part = Part::of(found.stopped.clone().map_or(Ok(()), Err));
    let (grundy, p_positions) = if free.len() == 1 {
        let values = found.sequence().expect("one free edge");
        let zeros = (0..values.len() as u32)
            .filter(|&x| values[x as usize] == 0)
            .collect();
        (Lines::One(values), Lines::One(zeros))
    } else {
        let zeros = found
            .grundy
            .iter()
            .enumerate()
            .flat_map(|(x, row)| {
                row.iter()
                    .enumerate()
                    .filter(|&(_, &v)| v == 0)
                    .map(move |(y, _)| vec![x as u32, y as u32])
            })
            .collect();
        (Lines::Two(found.grundy.clone()), Lines::Two(zeros))
    };
    Ok(SliceReport {
        graph: graph.spec().to_string(),
        edges: edge_names(graph),
        held: (0..graph.edge_count())
            .filter(|e| !free.contains(e))
            .map(|e| (graph.edge_name(e), found.held[e]))
            .collect(),
        free: free.iter().map(|&e| graph.edge_name(e)).collect(),
        max,
        status: part.status,
        spent: part.spent,
        periodicity: (free.len() == 1).then(|| found.periodicity()),
        grundy,
        p_positions,
    })
}

/// A slice in words (one free edge, text), else as a table.
fn slice_text(report: &SliceReport, format: TableFormat) -> String {
    let held: Vec<String> = report
        .edges
        .iter()
        .filter_map(|edge| Some(format!("{edge}={}", report.held.get(edge)?)))
        .collect();
    let mut text = match (&report.grundy, format) {
        (Lines::One(values), TableFormat::Text) => {
            let free = &report.free[0];
            let values: Vec<String> = values.iter().map(u32::to_string).collect();
            let zeros = match &report.p_positions {
                Lines::One(zeros) if !zeros.is_empty() => zeros
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
                _ => "none".to_string(),
            };
            let period = match report.periodicity.as_ref().and_then(Option::as_ref) {
                Some(p) => format!(
                    "preperiod {}, period {}, saltus {}: {} (seen to {free} = {}, not proved)",
                    p.preperiod,
                    p.period,
                    p.saltus,
                    p.notation(),
                    values.len() - 1
                ),
                None => "none shows yet".to_string(),
            };
            format!(
                "Grundy values along {free} = 0, 1, ... ({}):\n{}\nP-positions at {free} = {zeros}\n\
                 periodicity: {period}\n",
                held.join(", "),
                values.join(" ")
            )
        }
        (Lines::One(values), _) => {
            let mut table = Table::new(&[report.free[0].as_str(), "grundy"]).all_math();
            for (x, value) in values.iter().enumerate() {
                table.push(vec![x.to_string(), value.to_string()]);
            }
            table.render(format)
        }
        (Lines::Two(rows), _) => {
            let corner = format!("{} \\ {}", report.free[0], report.free[1]);
            let columns: Vec<String> = (0..=report.max).map(|y| y.to_string()).collect();
            let headers: Vec<&str> = std::iter::once(corner.as_str())
                .chain(columns.iter().map(String::as_str))
                .collect();
            let mut table = Table::new(&headers).all_math();
            for (x, row) in rows.iter().enumerate() {
                table.push(
                    std::iter::once(x.to_string())
                        .chain(row.iter().map(u32::to_string))
                        .collect(),
                );
            }
            let mut text = table.render(format);
            if format == TableFormat::Text {
                text = format!("Grundy values ({}):\n{text}", held.join(", "));
            }
            text
        }
    };
    if let Status::Unknown { .. } = report.status {
        text += &format!(
            "stopped early: {}\n",
            crate::output::status_text(&report.status)
        );
    }
    text
}

/// A predicate check in words: whether it holds, else the first counterexample each way.
fn predicate_text(report: &PredicateReport) -> String {
    let check = &report.check;
    let position = |tokens: &[u32]| {
        report
            .edges
            .iter()
            .zip(tokens)
            .map(|(edge, t)| format!("{edge}={t}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut text = if check.holds {
        format!(
            "The predicate holds exactly of the P-positions: {} positions with each edge from 0 \
             to {}, {} P-positions.\n",
            check.positions, report.max, check.p_positions
        )
    } else {
        format!(
            "The predicate does not hold: {} positions, {} P-positions.\n",
            check.positions, check.p_positions
        )
    };
    if let Some(tokens) = &check.p_not_predicate {
        text += &format!("A P-position the predicate misses: {}\n", position(tokens));
    }
    if let Some(tokens) = &check.predicate_not_p {
        text += &format!(
            "A position the predicate calls P that is not: {}\n",
            position(tokens)
        );
    }
    text
}

/// The graph and the token counts of `--graph` and `--tokens`.
fn read_position(args: &PositionArgs) -> anyhow::Result<(Arc<Graph>, Vec<u32>)> {
    let graph = Arc::new(read_graph(&args.graph)?);
    let tokens = tokens_or_default(&graph, &args.tokens)?;
    Ok((graph, tokens))
}

/// The graph of a spec, or every graph6 line on stdin for `-`.
fn read_graphs(spec: &str) -> anyhow::Result<Vec<Graph>> {
    if spec.trim() != "-" {
        return Ok(vec![read_graph(spec)?]);
    }
    let graphs = read_graph6_lines(std::io::stdin().lock())
        .collect::<Result<Vec<_>, _>>()
        .context("graph6 on stdin")?;
    if graphs.is_empty() {
        bail!("no graph6 lines on stdin");
    }
    Ok(graphs)
}

/// One report per graph: the report itself for a spec, a list for stdin. In text each
/// report follows a line naming its graph; as CSV the tables of every graph are one table
/// led by a `graph` column (the `n`-th tables of the graphs stacked, for commands that
/// print several); in Markdown and LaTeX each graph's tables follow a heading naming it.
fn emit_all<T: Serialize + HasGraph>(
    out: &Output,
    spec: &str,
    reports: &[T],
    format: TableFormat,
    text: impl Fn(&T) -> String,
    tables: impl Fn(&T) -> Vec<Table>,
) -> anyhow::Result<Answer> {
    let rendered = |tables: &[Table]| -> String {
        let separator = if format == TableFormat::Markdown {
            "\n"
        } else {
            ""
        };
        tables
            .iter()
            .map(|t| t.render(format))
            .collect::<Vec<_>>()
            .join(separator)
    };
    let one = |r: &T| {
        if format == TableFormat::Text {
            text(r)
        } else {
            rendered(&tables(r))
        }
    };
    if spec.trim() != "-" {
        return out.emit(&reports[0], || one(&reports[0]));
    }
    let heading = |graph: &str| match format {
        TableFormat::Text | TableFormat::Csv => format!("graph {graph}\n"),
        TableFormat::Markdown => format!("### graph {}\n\n", markdown_text(graph)),
        TableFormat::Latex => format!("\\subsection*{{Graph {}}}\n", latex_text(graph)),
    };
    out.emit(&reports, || {
        if format != TableFormat::Csv {
            return reports
                .iter()
                .map(|r| heading(r.graph()) + &one(r))
                .collect::<Vec<_>>()
                .join("\n");
        }
        let each: Vec<(String, Vec<Table>)> = reports
            .iter()
            .map(|r| (r.graph().to_string(), tables(r)))
            .collect();
        let kinds = each.iter().map(|(_, t)| t.len()).max().unwrap_or(0);
        let stacked: Vec<Table> = (0..kinds)
            .map(|k| {
                let parts: Vec<(String, &Table)> = each
                    .iter()
                    .filter_map(|(graph, t)| Some((graph.clone(), t.get(k)?)))
                    .collect();
                Table::stacked("graph", &parts)
            })
            .collect();
        rendered(&stacked)
    })
}

trait HasGraph {
    fn graph(&self) -> &str;
}

impl HasGraph for PReport {
    fn graph(&self) -> &str {
        &self.graph
    }
}

impl HasGraph for GrundyReport {
    fn graph(&self) -> &str {
        &self.graph
    }
}

fn p_report(graph: &Graph, args: &TableArgs, orbits: bool) -> anyhow::Result<PReport> {
    let within = args.region.within(graph)?;
    let symmetries = orbits
        .then(|| symmetries_fixing(graph, &within.fixed))
        .transpose()?;
    let bar = progress_bar(within.work(), "positions");
    let table = PTable::compute(graph, &within.bounds(), args.memory.bytes(), &|n| {
        bar.inc(n)
    })?;
    bar.finish_and_clear();
    let count = table.count_in(&within);
    if !args.count && count > MAX_ROWS {
        bail!(
            "the table has {count} P-positions, more than the {MAX_ROWS} rows listed at \
             most; --count counts them"
        );
    }
    let positions: Option<Vec<Vec<u32>>> =
        (!args.count).then(|| table.p_positions_in(&within).collect());
    Ok(PReport {
        graph: graph.spec().to_string(),
        edges: edge_names(graph),
        max: args.region.max,
        fixed: within.fixed_names(graph),
        positions_checked: within.positions(),
        count,
        orbits: (symmetries.as_ref()).map(|maps| orbit_counts(maps, table.p_positions_in(&within))),
        position_orbits: (symmetries.as_ref())
            .zip(positions.as_ref())
            .map(|(maps, positions)| number_orbits(maps, positions)),
        positions,
    })
}

/// The orbit counts in a sentence.
fn orbits_text(orbits: &OrbitCounts) -> String {
    let sizes: Vec<String> = orbits
        .by_size
        .iter()
        .map(|(size, count)| format!("{count} of size {size}"))
        .collect();
    format!(
        "{} orbits under {} automorphisms: {}\n",
        orbits.orbits,
        orbits.symmetries,
        sizes.join(", ")
    )
}

/// The P-positions listed, a row each, with their orbit's number and size when asked.
fn p_table(r: &PReport, positions: &[Vec<u32>]) -> Table {
    let mut table = rows_table(&r.edges, positions, None);
    if let Some(orbits) = &r.position_orbits {
        table = table.with_columns(
            &["orbit", "orbit size"],
            orbits.iter().map(|o| o.map(|n| n.to_string()).to_vec()),
        );
    }
    table
}

/// The counts of a table not listed, with the orbits by size when asked (a row per size,
/// the counts repeated).
fn counts_table(r: &PReport) -> Table {
    let counts = [
        r.graph.clone(),
        r.positions_checked.to_string(),
        r.count.to_string(),
    ];
    let Some(orbits) = &r.orbits else {
        let mut table = Table::new(&["graph", "positions", "P-positions"]);
        table.push(counts.to_vec());
        return table;
    };
    let mut table = Table::new(&["graph", "positions", "P-positions", "orbit size", "orbits"]);
    for (size, count) in &orbits.by_size {
        table.push([&counts[..], &[size.to_string(), count.to_string()]].concat());
    }
    table
}

/// Each position's orbit under `symmetries`: numbered from 1 in the order the positions
/// come, and its size.
fn number_orbits(symmetries: &[Vec<usize>], positions: &[Vec<u32>]) -> Vec<[usize; 2]> {
    let mut numbers: HashMap<Vec<u32>, usize> = HashMap::new();
    positions
        .iter()
        .map(|tokens| {
            let orbit = orbit_of(symmetries, tokens);
            let next = numbers.len() + 1;
            [*numbers.entry(orbit.smallest).or_insert(next), orbit.size]
        })
        .collect()
}

fn grundy_report(graph: &Graph, args: &TableArgs) -> anyhow::Result<GrundyReport> {
    let within = args.region.within(graph)?;
    let rows = within.positions();
    if !args.count && rows > u128::from(MAX_ROWS) {
        // `--count` is only worth suggesting for a table that fits the memory.
        GrundyValues::check(graph, &within.bounds(), args.memory.bytes())?;
        bail!(
            "the table has {} positions, more than the {MAX_ROWS} rows listed at most; \
             --count counts them by value",
            count_text(rows)
        );
    }
    let bar = progress_bar(within.work(), "positions");
    let table = GrundyValues::compute(graph, &within.bounds(), args.memory.bytes(), &|n| {
        bar.inc(n)
    })?;
    bar.finish_and_clear();
    let histogram = table.histogram_in(&within);
    let (positions, values) = if args.count {
        (None, None)
    } else {
        let (positions, values) = table.iter_in(&within).unzip();
        (Some(positions), Some(values))
    };
    Ok(GrundyReport {
        graph: graph.spec().to_string(),
        edges: edge_names(graph),
        max: args.region.max,
        fixed: within.fixed_names(graph),
        count: histogram.iter().sum(),
        histogram,
        positions,
        grundy: values,
    })
}

/// A table with one column per edge (and the Grundy value when given).
fn rows_table(edges: &[String], positions: &[Vec<u32>], values: Option<&Vec<u32>>) -> Table {
    let mut headers: Vec<&str> = edges.iter().map(String::as_str).collect();
    if values.is_some() {
        headers.push("grundy");
    }
    let mut table = Table::new(&headers).all_math();
    for (i, tokens) in positions.iter().enumerate() {
        let mut row: Vec<String> = tokens.iter().map(u32::to_string).collect();
        if let Some(values) = values {
            row.push(values[i].to_string());
        }
        table.push(row);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_have_one_column_per_edge() {
        let table = rows_table(&["a".into(), "b".into()], &[vec![1, 2]], Some(&vec![3]));
        assert_eq!(table.render(TableFormat::Csv), "a,b,grundy\n1,2,3\n");
    }
}
