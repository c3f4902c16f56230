//! Every opening of taylor:3, the largest board to solve whole: criterion's ten
//! samples of several seconds each (about a minute and a half), in a bench of its own so
//! that `cargo bench --bench projective_hex` stays short. Before measuring, one solve
//! prints the nodes and thread time of each class of openings (the sum over its replies,
//! solved on their own by the threads of the pool, which share one table).

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_engine::solver::Budget;
use crosscap_projective_hex::{Opening, ProjectiveHex, all_openings};

fn taylor3_all_openings(c: &mut Criterion) {
    let start = ProjectiveHex::on_board("taylor:3", Opening::Standard).expect("a built-in board");
    let clock = Instant::now();
    let results = all_openings(&start, &Budget::unlimited()).expect("the empty board");
    let elapsed = clock.elapsed();
    for r in &results.openings {
        println!(
            "class {:<20} winner {:?}: {:>11} nodes, {:>6.2} s of thread time",
            r.cells.join(" "),
            r.winner,
            r.nodes,
            r.millis / 1000.0
        );
    }
    let nodes = results.nodes;
    println!(
        "taylor:3 all openings: {nodes} nodes, {:.2} s on {} threads",
        elapsed.as_secs_f64(),
        rayon::current_num_threads()
    );
    let mut group = c.benchmark_group("projective-hex solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(80));
    group.bench_function("taylor:3 all openings", |b| {
        b.iter(|| all_openings(&start, &Budget::unlimited()))
    });
    group.finish();
}

criterion_group!(benches, taylor3_all_openings);
criterion_main!(benches);
