//! The targets: the full tetrahedron P-position table with every edge from 0 to 15
//! (16.7 million positions) in under 10 s on 2 cores; Grundy values and the theorem check
//! beside it. `EDGE_NIM_BENCH_MAX=31` measures the 0..31 table (over a billion positions).

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_edge_nim::table::MEMORY_LIMIT;
use crosscap_edge_nim::{EdgeNim, GrundyValues, PTable, check_tetrahedron};
use crosscap_engine::GrundyTable;
use crosscap_graphs::Graph;

fn tetrahedron_tables(c: &mut Criterion) {
    let graph = Graph::from_spec("tetrahedron").unwrap();
    let max: u32 = std::env::var("EDGE_NIM_BENCH_MAX")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(15);
    let mut group = c.benchmark_group("edge-nim tetrahedron");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function(format!("p-positions 0..{max}"), |b| {
        b.iter(|| {
            PTable::compute(&graph, &[max; 6], MEMORY_LIMIT, &|_| {})
                .unwrap()
                .count()
        })
    });
    group.bench_function("grundy values 0..11", |b| {
        b.iter(|| GrundyValues::compute(&graph, &[11; 6], MEMORY_LIMIT, &|_| {}).unwrap())
    });
    group.bench_function("check-tetrahedron 15", |b| {
        b.iter(|| check_tetrahedron(15, MEMORY_LIMIT, &|_| {}).unwrap())
    });
    // The baseline: the engine's memoised brute force on a box small enough for it.
    group.bench_function("p-positions 0..3 (table)", |b| {
        b.iter(|| {
            PTable::compute(&graph, &[3; 6], MEMORY_LIMIT, &|_| {})
                .unwrap()
                .count()
        })
    });
    group.bench_function("p-positions 0..3 (engine GrundyTable)", |b| {
        let shared = Arc::new(graph.clone());
        b.iter(|| {
            let mut table = GrundyTable::new();
            let mut count = 0;
            for index in 0..4u32.pow(6) {
                let tokens: Vec<u32> = (0..6).rev().map(|e| index >> (2 * e) & 3).collect();
                let position = EdgeNim::new(Arc::clone(&shared), tokens).unwrap();
                count += u32::from(table.grundy(&position) == 0);
            }
            count
        })
    });
    group.finish();
}

criterion_group!(benches, tetrahedron_tables);
criterion_main!(benches);
