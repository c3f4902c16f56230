//! `cargo bench -p crosscap-sandpile`: toppling on a large grid and `classify` over the
//! connected graphs on 6 vertices.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_engine::Rng;
use crosscap_engine::session::SetupLimits;
use crosscap_engine::solver::Budget;
use crosscap_graphs::Graph;
use crosscap_sandpile::{Board, Scratch, Toppling, classify_all};

/// The connected graphs on 6 vertices up to isomorphism, as `geng -c 6` prints them.
const CONNECTED_6: &str = include_str!("connected6.g6");

/// A million random placements on grid:100x100, toppling after each; whenever the grid
/// topples for ever (after about 29 600 chips) it is emptied and play goes on.
fn million_placements(board: &Board) -> u64 {
    let n = board.vertex_count();
    let mut scores = vec![0u32; n];
    let mut scratch = Scratch::default();
    let mut rng = Rng::new(1);
    let mut topplings = 0;
    for _ in 0..1_000_000 {
        let cascade = board.place(&mut scores, &|_| false, rng.below(n), &mut scratch);
        topplings += cascade.topplings;
        if !cascade.erupted.is_empty() {
            scores.iter_mut().for_each(|s| *s = 0);
        }
    }
    topplings
}

fn benches(c: &mut Criterion) {
    let grid = Board::from_spec("grid:100x100").expect("a valid spec");
    let mut group = c.benchmark_group("sandpile");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    group.bench_function("grid100x100_million_placements", |b| {
        b.iter(|| million_placements(&grid))
    });
    let graphs: Vec<Graph> = CONNECTED_6
        .lines()
        .map(|line| Graph::from_graph6(line).expect("geng output"))
        .collect();
    group.bench_function("classify_connected_6", |b| {
        b.iter(|| {
            classify_all(
                graphs.clone(),
                Toppling::Abelian,
                &Budget::unlimited(),
                &SetupLimits::default(),
                &|| {},
            )
        })
    });
    group.finish();
}

criterion_group!(sandpile, benches);
criterion_main!(sandpile);
