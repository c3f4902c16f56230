use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_engine::Notation;
use crosscap_engine::mcts::{Mcts, SearchLimit};
use crosscap_engine::solver::Budget;
use crosscap_projective_hex::search::{FillPlayout, Focused, mcts_config};
use crosscap_projective_hex::{Analyser, Opening, ProjectiveHex, all_openings};

fn solve_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("projective-hex solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for board in ["taylor:2", "goldberg:1", "goldberg:2"] {
        let start = ProjectiveHex::on_board(board, Opening::Standard).unwrap();
        group.bench_function(format!("{board} all openings"), |b| {
            b.iter(|| all_openings(&start, &Budget::unlimited()))
        });
    }
    // Every opening of taylor:3 (several seconds a sample) has a bench of its own,
    // `taylor3_all_openings`. Lines of it are measured here, from a cold table.
    for (board, moves) in [("goldberg:2", "1 17 2"), ("taylor:3", "c3 d3 b2")] {
        let mut game = ProjectiveHex::on_board(board, Opening::Standard).unwrap();
        for text in moves.split(' ') {
            game.play_text(text).unwrap();
        }
        group.bench_function(format!("{board} after {moves}"), |b| {
            b.iter(|| Analyser::new(Budget::unlimited()).analyse(&game).unwrap())
        });
    }
    group.finish();
}

/// MCTS (RAVE, MCTS-solver, fill playouts) from the empty board: 10,000 iterations, so
/// playouts per second = 10,000 / time.
fn mcts_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("projective-hex mcts 10k playouts");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for board in ["taylor:5", "goldberg:4"] {
        let game = Focused::<false>(ProjectiveHex::on_board(board, Opening::Standard).unwrap());
        group.bench_function(board, |b| {
            b.iter(|| {
                Mcts::with_policy(
                    SearchLimit::Iterations(10_000),
                    mcts_config(),
                    FillPlayout::default(),
                    1,
                )
                .search(&game, &Budget::unlimited())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve_benches, mcts_benches);
criterion_main!(benches);
