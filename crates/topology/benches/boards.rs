//! Building boards (validation, tree-cotree classes, layout) and scoring regions, which
//! Euler Getter's reference scorer and tests do from scratch.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_engine::Rng;
use crosscap_topology::Board;

fn board_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("topology");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for spec in ["taylor:8", "goldberg:4", "goldberg:20", "klein:40x40"] {
        group.bench_function(format!("build {spec}"), |b| {
            b.iter(|| Board::from_spec(spec).expect("a valid spec"))
        });
    }
    let board = Board::from_spec("goldberg:4").expect("a valid spec");
    let mut rng = Rng::new(1);
    let regions: Vec<Vec<bool>> = (0..100)
        .map(|_| (0..board.cell_count()).map(|_| rng.below(2) == 0).collect())
        .collect();
    group.bench_function("region chi goldberg:4 x100", |b| {
        b.iter(|| {
            regions
                .iter()
                .map(|r| board.region_euler_characteristic(r))
                .sum::<i64>()
        })
    });
    group.finish();
}

criterion_group!(benches, board_benches);
criterion_main!(benches);
