//! `crosscap manifold`: the manifold decomposition game's own commands: `value` (any
//! genus, every move with `--all`), the paper's Table 2.1, the G-series to large genus,
//! and how long a game lasts (`length`).

use std::time::Instant;

use anyhow::bail;
use clap::Subcommand;
use crosscap_engine::Impartial;
use crosscap_manifold::{
    MAX_GENUS, Manifold, Periodicity, Series, Surface, TableRow, detect_period, length,
    prove_periods, table,
};
use serde::Serialize;

use crate::limits::{BudgetArgs, default_seconds};
use crate::output::{Answer, Output, Table, TableFormat, part_text, progress_bar, with_search_bar};

#[derive(Subcommand, Debug)]
pub enum ManifoldCommand {
    /// The G-value of a 2-manifold (the nim-sum of its surfaces') and every winning move.
    #[command(mut_arg("max_seconds", default_seconds("60")))]
    Value {
        /// The surfaces: S (sphere), o<g> (orientable), n<g> (non-orientable), T (torus), P
        /// (projective plane), K (Klein bottle) and connected sums such as T#P, e.g. `n3 o2 n5`.
        #[arg(required = true)]
        surfaces: Vec<String>,
        /// Also list every move with the value of the 2-manifold it leads to.
        #[arg(long)]
        all: bool,
        /// Misère play: the player who cannot move wins (the outcome and winning moves, the
        /// position searched whole, within --max-seconds, --max-nodes and --max-memory;
        /// normal play reads the G-series and needs none of them).
        #[arg(long, conflicts_with = "all")]
        misere: bool,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// The paper's Table 2.1: every move from n_g, the 2-manifold it leads to and its
    /// G-value, and G(n_g), for g = 0 to the maximum genus.
    Table {
        /// The last genus g of the table's rows (at most 2000; the paper's table stops at 14).
        #[arg(long, default_value_t = 14)]
        max_genus: u32,
        /// Table format for text output.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
    },
    /// How long a game lasts: the longest and the shortest play over all plays, and the
    /// remoteness under optimal play (the winner hurries, the loser delays).
    #[command(mut_arg("max_seconds", default_seconds("60")))]
    Length {
        /// The surfaces, e.g. `n5 o2` (genus at most 2000).
        #[arg(required = true)]
        surfaces: Vec<String>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// The G-series of o_g and n_g to a genus, with the preperiod and period they show.
    Series {
        /// The genus to which both series are computed (at most 10,000,000), all of them
        /// searched for a period.
        #[arg(long, default_value_t = 1000)]
        max_genus: u32,
        /// How many leading values of each series to print (the period is found from all).
        #[arg(long, default_value_t = 40)]
        show: usize,
        /// Text prints each series on a line with its period; the others give a table of
        /// g, G(o_g) and G(n_g) for the values shown, to paste into a paper or a plot.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
    },
}

/// The largest genus of the table (each row lists about 3g/4 moves).
const MAX_TABLE_GENUS: u32 = 2000;

#[derive(Serialize)]
struct SurfaceValue {
    surface: Surface,
    grundy: u32,
}

#[derive(Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    notation: String,
    curve: &'static str,
    to: Manifold,
    grundy: u32,
}

#[derive(Serialize)]
struct ValueReport {
    position: Manifold,
    grundy: u32,
    outcome: &'static str,
    surfaces: Vec<SurfaceValue>,
    winning_moves: Vec<String>,
    /// The curve each winning move cuts, in words (text output).
    #[serde(skip)]
    winning_curves: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveValue>>,
}

#[derive(Serialize)]
struct SeriesOf {
    /// G of genus 0, 1, ... up to `--show`.
    values: Vec<u8>,
    periodicity: Option<Periodicity>,
    /// Whether the values computed prove the period for every genus (see
    /// `crosscap_manifold::prove_periods`), not only up to `max_genus`.
    proven: bool,
}

#[derive(Serialize)]
struct SeriesReport {
    max_genus: u32,
    millis: f64,
    orientable: SeriesOf,
    nonorientable: SeriesOf,
}

/// Winning moves printed as text before the list is cut short (JSON has them all).
const TEXT_MOVES: usize = 30;

pub fn run(cmd: ManifoldCommand, out: &Output) -> anyhow::Result<Answer> {
    match cmd {
        ManifoldCommand::Value {
            surfaces,
            all,
            misere,
            budget,
        } => {
            let position: Manifold = surfaces.join(" ").parse()?;
            if misere {
                let named = serde_json::json!({ "position": position });
                let answer =
                    crosscap_engine::misere_within(position, budget.budget(), |m| m.to_string());
                return super::emit_misere(out, named, &answer);
            }
            let series = compute_series(position.max_genus());
            let grundy = series
                .value(&position)
                .expect("the series reaches the position");
            let move_values = series
                .move_values(&position)
                .expect("the series reaches the position");
            let report = ValueReport {
                grundy,
                outcome: if grundy == 0 { "P" } else { "N" },
                surfaces: position
                    .surfaces()
                    .iter()
                    .map(|&s| SurfaceValue {
                        surface: s,
                        grundy: series.grundy(s).expect("the series reaches the position"),
                    })
                    .collect(),
                winning_moves: move_values
                    .iter()
                    .filter(|(_, v)| *v == 0)
                    .map(|(m, _)| m.to_string())
                    .collect(),
                winning_curves: move_values
                    .iter()
                    .filter(|(_, v)| *v == 0)
                    .map(|(m, _)| m.description())
                    .collect(),
                moves: all.then(|| {
                    move_values
                        .iter()
                        .map(|(m, v)| MoveValue {
                            notation: m.to_string(),
                            curve: m.description(),
                            to: position.after(m),
                            grundy: *v,
                        })
                        .collect()
                }),
                position,
            };
            out.emit(&report, || value_text(&report))
        }
        ManifoldCommand::Table { max_genus, format } => {
            if max_genus > MAX_TABLE_GENUS {
                bail!(
                    "--max-genus {max_genus} is too large for the table (at most {MAX_TABLE_GENUS})"
                );
            }
            let rows = table(&Series::compute(max_genus), max_genus);
            out.emit(&rows, || table_text(&rows).render(format))
        }
        ManifoldCommand::Length { surfaces, budget } => {
            let position = surfaces.join(" ").parse()?;
            let report = with_search_bar("searching", &budget.budget(), |budget| {
                length(position, budget)
            })?;
            out.emit_status(&report, report.remoteness.status, || {
                format!(
                    "{}: the longest play lasts {} moves, the shortest {}\n{}",
                    report.position,
                    report.longest,
                    report.shortest,
                    part_text(
                        &report.remoteness,
                        "the remoteness under optimal play",
                        |r| { format!("the remoteness under optimal play is {}", r.remoteness) }
                    )
                )
            })
        }
        ManifoldCommand::Series {
            max_genus,
            show,
            format,
        } => {
            if max_genus > MAX_GENUS {
                bail!("--max-genus {max_genus} is too large (at most {MAX_GENUS})");
            }
            let start = Instant::now();
            let series = compute_series(max_genus);
            let millis = start.elapsed().as_secs_f64() * 1000.0;
            let o = detect_period(series.orientable());
            let n = detect_period(series.nonorientable());
            let proof = prove_periods(&series, o.as_ref(), n.as_ref());
            let of = |values: &[u8], periodicity, proven| SeriesOf {
                values: values[..values.len().min(show)].to_vec(),
                periodicity,
                proven,
            };
            let report = SeriesReport {
                max_genus,
                millis,
                orientable: of(series.orientable(), o, proof.orientable),
                nonorientable: of(series.nonorientable(), n, proof.nonorientable),
            };
            out.emit(&report, || match format {
                TableFormat::Text => series_text(&report),
                _ => series_table(&report).render(format),
            })
        }
    }
}

/// Both series to `max_genus`, with a progress bar on a terminal for long runs.
fn compute_series(max_genus: u32) -> Series {
    let bar = progress_bar(max_genus as u64, "n_g");
    let series = Series::compute_with_progress(max_genus, &mut |g| bar.set_position(g as u64));
    bar.finish_and_clear();
    series
}

fn value_text(report: &ValueReport) -> String {
    let parts: Vec<String> = report
        .surfaces
        .iter()
        .map(|s| format!("G({}) = {}", s.surface, s.grundy))
        .collect();
    let mut text = format!(
        "{}: Grundy value {} ({}-position)\n{}\n",
        report.position,
        report.grundy,
        report.outcome,
        parts.join(", ")
    );
    if report.winning_moves.is_empty() {
        text += "winning moves: none (every move leads to a position of nonzero value)\n";
    } else {
        text += &format!("winning moves ({}):\n", report.winning_moves.len());
        text += &list_cut_short(
            report
                .winning_moves
                .iter()
                .zip(&report.winning_curves)
                .map(|(m, curve)| format!("  {m:<16} {curve}")),
        );
    }
    if let Some(moves) = &report.moves {
        text += &format!("every move ({}):\n", moves.len());
        text += &list_cut_short(moves.iter().map(|m| {
            format!(
                "  {:<16} G = {:<2} leaves {}  ({})",
                m.notation, m.grundy, m.to, m.curve
            )
        }));
    }
    text
}

fn list_cut_short(lines: impl ExactSizeIterator<Item = String>) -> String {
    let total = lines.len();
    let mut text: String = lines.take(TEXT_MOVES).map(|l| l + "\n").collect();
    if total > TEXT_MOVES {
        text += &format!(
            "  ... and {} more (--json lists them all)\n",
            total - TEXT_MOVES
        );
    }
    text
}

fn table_text(rows: &[TableRow]) -> Table {
    let mut t = Table::new(&["g", "G(o_g)", "moves from n_g and G-values", "G(n_g)"]).all_math();
    for row in rows {
        let moves: Vec<String> = row.moves.iter().map(|e| e.paper_style()).collect();
        t.push(vec![
            row.genus.to_string(),
            row.orientable.to_string(),
            if moves.is_empty() {
                "none".to_string()
            } else {
                moves.join("; ")
            },
            row.nonorientable.to_string(),
        ]);
    }
    t
}

/// The values shown, a row per genus.
fn series_table(report: &SeriesReport) -> Table {
    let mut t = Table::new(&["g", "G(o_g)", "G(n_g)"]).all_math();
    let (o, n) = (&report.orientable.values, &report.nonorientable.values);
    for (genus, (o, n)) in o.iter().zip(n).enumerate() {
        t.push(vec![genus.to_string(), o.to_string(), n.to_string()]);
    }
    t
}

fn series_text(report: &SeriesReport) -> String {
    let line = |name: &str, s: &SeriesOf| {
        let values: Vec<String> = s.values.iter().map(u8::to_string).collect();
        let period = match &s.periodicity {
            Some(p) => format!(
                "preperiod {}, period {}: {} ({})",
                p.preperiod,
                p.period,
                p.notation(),
                if s.proven {
                    "proved for every genus".to_string()
                } else {
                    format!("seen to genus {}, not proved", report.max_genus)
                }
            ),
            None => "no period shows yet".to_string(),
        };
        format!("{name}: {} ...\n     {period}\n", values.join(" "))
    };
    format!(
        "G-series to genus {} ({:.0} ms)\n{}{}",
        report.max_genus,
        report.millis,
        line("o_g", &report.orientable),
        line("n_g", &report.nonorientable)
    )
}
