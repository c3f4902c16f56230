//! The G-series at scale (the target: genus 1,000,000 in under 10 s), and the
//! fast computation against the direct quadratic one on the same genus.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_manifold::Series;

fn series_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("manifold series");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("fast to genus 1,000,000", |b| {
        b.iter(|| Series::compute(1_000_000))
    });
    group.bench_function("fast to genus 10,000", |b| {
        b.iter(|| Series::compute(10_000))
    });
    group.bench_function("direct to genus 10,000", |b| {
        b.iter(|| Series::direct(10_000))
    });
    group.finish();
}

criterion_group!(benches, series_benches);
criterion_main!(benches);
