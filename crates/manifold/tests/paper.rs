//! Every fact the paper states, checked against the real code: Table 2.1 row by row, the
//! G-series theorems far beyond the table, Corollary 2.2 on the length of play and the
//! worked examples.

use crosscap_engine::{GrundyTable, Impartial};
use crosscap_manifold::{Manifold, Pieces, Series, Surface, detect_period, table};

/// One row of the transcribed table: the moves as (result, G-value), and G(n_g).
struct PaperRow {
    genus: u32,
    moves: Vec<(Manifold, u32)>,
    value: u32,
}

fn paper_table() -> Vec<PaperRow> {
    include_str!("data/table_2_1.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "{line}");
            let moves = fields[1]
                .split(';')
                .filter(|m| !m.trim().is_empty())
                .map(|entry| {
                    let (result, value) = entry.rsplit_once(',').expect("result, value");
                    let result = result.trim().trim_start_matches('(').trim_end_matches(')');
                    (result.parse().unwrap(), value.trim().parse().unwrap())
                })
                .collect();
            PaperRow {
                genus: fields[0].parse().unwrap(),
                moves,
                value: fields[2].parse().unwrap(),
            }
        })
        .collect()
}

fn pieces_manifold(p: Pieces) -> Manifold {
    Manifold::new(p.surfaces())
}

#[test]
fn table_2_1_is_reproduced_row_by_row_and_move_by_move() {
    let paper = paper_table();
    assert_eq!(paper.len(), 15);
    let ours = table(&Series::compute(14), 14);
    for (row, theirs) in ours.iter().zip(&paper) {
        assert_eq!(row.genus, theirs.genus);
        let moves: Vec<(Manifold, u32)> = row
            .moves
            .iter()
            .map(|e| (pieces_manifold(e.to), e.grundy))
            .collect();
        assert_eq!(moves, theirs.moves, "the moves from n{}", row.genus);
        assert_eq!(row.nonorientable, theirs.value, "G(n{})", row.genus);
    }
}

#[test]
fn moves_with_one_result_are_one_entry_with_all_their_letters() {
    let rows = table(&Series::compute(4), 4);
    let letters =
        |g: usize| -> Vec<&str> { rows[g].moves.iter().map(|e| e.letters.as_str()).collect() };
    assert_eq!(letters(1), ["c,d"]);
    assert_eq!(letters(2), ["c", "e,f", "g"]);
    assert_eq!(letters(3), ["c", "e", "d", "g", "h"]);
    assert_eq!(letters(4), ["c", "e", "f", "g", "g", "h"]);
    assert_eq!(rows[3].moves[4].paper_style(), "h: (o1, n1), 0");
}

/// The table's values, and the series behind them, agree with the engine's own Sprague-
/// Grundy search over positions (components nim-summed by the engine).
#[test]
fn the_engine_agrees_with_the_table_and_the_series() {
    let series = Series::compute(60);
    let mut engine = GrundyTable::new();
    for g in 0..=60 {
        for s in [Surface::orientable(g), Surface::non_orientable(g)] {
            assert_eq!(
                engine.grundy(&Manifold::single(s)),
                series.grundy(s).unwrap(),
                "{s}"
            );
        }
    }
    for row in table(&series, 30) {
        for entry in &row.moves {
            assert_eq!(engine.grundy(&pieces_manifold(entry.to)), entry.grundy);
        }
    }
}

/// Theorem 2.3 (o: 0 1 then 2 0 repeating) and Theorem 2.4 (n: 0 1 2 then 4 6 0 3
/// repeating), checked value by value to genus 1,000,000, and found again by the period
/// detection, which assumes nothing.
#[test]
fn the_g_series_theorems_hold_far_beyond_the_table() {
    let series = Series::compute(1_000_000);
    for (g, &v) in series.orientable().iter().enumerate() {
        let expected = match g {
            0 => 0,
            1 => 1,
            _ if g % 2 == 0 => 2,
            _ => 0,
        };
        assert_eq!(v, expected, "G(o{g})");
    }
    for (g, &v) in series.nonorientable().iter().enumerate() {
        let expected = if g < 3 {
            [0, 1, 2][g]
        } else {
            [4, 6, 0, 3][(g - 3) % 4]
        };
        assert_eq!(v, expected, "G(n{g})");
    }
    let o = detect_period(series.orientable()).unwrap();
    assert_eq!(
        (o.pre.as_slice(), o.repeating.as_slice()),
        (&[0, 1][..], &[2, 0][..])
    );
    let n = detect_period(series.nonorientable()).unwrap();
    assert_eq!(
        (n.pre.as_slice(), n.repeating.as_slice()),
        (&[0, 1, 2][..], &[4, 6, 0, 3][..])
    );
}

/// Theorem 2.3's proof: from o_g the game is the octal game 4.3 of Guy and Smith on a heap
/// of g counters (remove one counter, or split a heap in two). The heap game's values,
/// worked out here by mex from its own rule, are the real code's G(o_g).
#[test]
fn the_orientable_game_is_the_octal_game_4_3() {
    let mut heap = vec![0u32];
    for g in 1..=60usize {
        let options: Vec<u32> = std::iter::once(heap[g - 1])
            .chain((1..g).map(|a| heap[a] ^ heap[g - a]))
            .collect();
        heap.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    let mut engine = GrundyTable::new();
    for (g, &value) in heap.iter().enumerate() {
        let o = Manifold::single(Surface::orientable(g as u32));
        assert_eq!(engine.grundy(&o), value, "G(o{g})");
    }
}

/// The worked values of Theorem 2.3's proof: G(o1) = mex{0} = 1, G(o2) = mex{1, 1⊕1} = 2.
#[test]
fn the_proof_of_theorem_2_3_starts_as_printed() {
    let mut engine = GrundyTable::new();
    let o1 = Manifold::single(Surface::Orientable(1));
    let o2 = Manifold::single(Surface::Orientable(2));
    let after: Vec<u32> = o2
        .moves()
        .iter()
        .map(|m| engine.grundy(&o2.after(m)))
        .collect();
    assert_eq!(after, [1, 0]);
    assert_eq!(engine.grundy(&o1), 1);
    assert_eq!(engine.grundy(&o2), 2);
}

/// Longest and shortest games from a position, by searching every line of play.
fn game_lengths(position: &Manifold) -> (u32, u32) {
    let moves = position.moves();
    if moves.is_empty() {
        return (0, 0);
    }
    moves
        .iter()
        .map(|m| game_lengths(&position.after(m)))
        .fold((0, u32::MAX), |(longest, shortest), (l, s)| {
            (longest.max(l + 1), shortest.min(s + 1))
        })
}

/// Corollary 2.2: a game from o_g or n_g lasts at most 2g moves, and at least k moves
/// from n(2k) and k + 1 from n(2k + 1). The bound 2g is never reached: g surfaces of
/// genus 1 take g - 1 splits, not g (as the proof counts), so the longest game has
/// 2g - 1 moves.
#[test]
fn corollary_2_2_bounds_the_length_of_play() {
    for g in 1..=7 {
        let (longest, _) = game_lengths(&Manifold::single(Surface::Orientable(g)));
        assert!(longest <= 2 * g);
        assert_eq!(longest, 2 * g - 1, "o{g}");
        let (longest, shortest) = game_lengths(&Manifold::single(Surface::NonOrientable(g)));
        assert!(longest <= 2 * g);
        assert_eq!(longest, 2 * g - 1, "n{g}");
        let k = g / 2;
        assert_eq!(shortest, if g % 2 == 0 { k } else { k + 1 }, "n{g}");
    }
}
