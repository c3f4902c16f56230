use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_engine::solver::{Budget, solve};
use crosscap_engine::{Game, Player, Rng};
use crosscap_euler_getter::{EulerGetter, Rule, SwapRule, load_board};

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("euler-getter");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let start = EulerGetter::new(
        load_board("goldberg:4").unwrap(),
        Rule::Normal,
        SwapRule(None),
    );
    let mut rng = Rng::new(1);
    let mut meter = Budget::unlimited().meter();
    group.bench_function("random playout goldberg:4", |b| {
        b.iter(|| start.clone().playout(&mut rng, &mut meter))
    });
    let mut full = start.clone();
    full.playout(&mut rng, &mut meter);
    group.bench_function("recount both regions goldberg:4", |b| {
        b.iter(|| {
            full.counts_from_scratch(Player::X).chi() + full.counts_from_scratch(Player::O).chi()
        })
    });
    group.finish();
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("euler-getter");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let complex = load_board("goldberg:2").unwrap();
    let symmetries = Arc::new(complex.board().symmetries());
    let game = EulerGetter::new(complex, Rule::Normal, SwapRule(None)).with_symmetries(symmetries);
    group.bench_function("solve goldberg:2 (swap none)", |b| {
        b.iter(|| solve(&game, Budget::unlimited()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, playouts, solver);
criterion_main!(benches);
