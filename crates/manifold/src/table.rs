//! Table 2.1 of the paper, extended to any genus: every move from `n_g` with the
//! 2-manifold it leads to and that manifold's G-value, and G(n_g) their mex.

use std::collections::HashMap;

use serde::Serialize;

use crate::moves::{Letter, Pieces, surface_moves};
use crate::series::Series;
use crate::surface::Surface;

/// One row of the table: a genus, the values of `o_g` and `n_g`, and the moves from `n_g`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableRow {
    pub genus: u32,
    /// G(o_g).
    pub orientable: u32,
    /// G(n_g).
    pub nonorientable: u32,
    pub moves: Vec<TableEntry>,
}

/// The moves from `n_g` that give one 2-manifold: as in the paper, moves with the same
/// result are one entry (n1 becomes the sphere by (c) and by (d)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableEntry {
    /// The letters of Theorem 2.1, e.g. `c` or `c,d`.
    #[serde(rename = "move")]
    pub letters: String,
    pub to: Pieces,
    pub grundy: u32,
}

impl TableEntry {
    /// The paper's way, with the letters in front: `g: (n1, n3), 5`.
    pub fn paper_style(&self) -> String {
        let to = match self.to {
            Pieces::One(s) => s.to_string(),
            Pieces::Two(a, b) => format!("({a}, {b})"),
        };
        format!("{}: {to}, {}", self.letters, self.grundy)
    }
}

/// The paper's order of a row: (c), (e), then the cuts to an orientable surface (d), (f),
/// then the splits (g) and (h).
fn paper_rank(letter: Letter) -> usize {
    [
        Letter::C,
        Letter::E,
        Letter::D,
        Letter::F,
        Letter::G,
        Letter::H,
    ]
    .iter()
    .position(|&l| l == letter)
    .unwrap_or(usize::MAX)
}

/// Rows for genus 0 to `max_genus`, values from `series` (which must reach `max_genus`).
pub fn table(series: &Series, max_genus: u32) -> Vec<TableRow> {
    (0..=max_genus)
        .map(|genus| {
            let surface = Surface::non_orientable(genus);
            let mut moves: Vec<(Letter, TableEntry)> = Vec::new();
            let mut entry_of: HashMap<Pieces, usize> = HashMap::new();
            for mv in surface_moves(surface) {
                if let Some(&i) = entry_of.get(&mv.into) {
                    let entry = &mut moves[i].1;
                    entry.letters = format!("{},{}", entry.letters, mv.letter);
                    continue;
                }
                entry_of.insert(mv.into, moves.len());
                let grundy = mv
                    .into
                    .surfaces()
                    .iter()
                    .map(|&s| {
                        series
                            .grundy(s)
                            .expect("the series reaches the table's genus")
                    })
                    .fold(0, |a, b| a ^ b);
                moves.push((
                    mv.letter,
                    TableEntry {
                        letters: mv.letter.to_string(),
                        to: mv.into,
                        grundy,
                    },
                ));
            }
            moves.sort_by_key(|(letter, _)| paper_rank(*letter));
            let value = |s: Surface| {
                series
                    .grundy(s)
                    .expect("the series reaches the table's genus")
            };
            TableRow {
                genus,
                orientable: value(Surface::orientable(genus)),
                nonorientable: value(surface),
                moves: moves.into_iter().map(|(_, e)| e).collect(),
            }
        })
        .collect()
}
