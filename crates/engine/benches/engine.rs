use criterion::{Criterion, criterion_group, criterion_main};
use crosscap_engine::mcts::{Mcts, MctsConfig, SearchLimit};
use crosscap_engine::nim::Nim;
use crosscap_engine::solver::{Budget, solve};
use crosscap_engine::{GrundyTable, NormalPlay};

fn nim_benches(c: &mut Criterion) {
    c.bench_function("solver nim 3 4 5 6", |b| {
        let game = NormalPlay::new(Nim::new(vec![3, 4, 5, 6]));
        b.iter(|| solve(&game, Budget::unlimited()).unwrap())
    });
    c.bench_function("grundy nim heaps to 300", |b| {
        b.iter(|| GrundyTable::new().grundy(&Nim::new(vec![300])))
    });
    c.bench_function("mcts 10k iterations nim 3 4 5 6", |b| {
        let game = NormalPlay::new(Nim::new(vec![3, 4, 5, 6]));
        b.iter(|| {
            Mcts::new(SearchLimit::Iterations(10_000), MctsConfig::default(), 1)
                .search(&game, &Budget::unlimited())
        })
    });
}

criterion_group!(benches, nim_benches);
criterion_main!(benches);
