//! Benchmarks: ks_proportion (being written).

use criterion::{Criterion, criterion_group, criterion_main};

fn placeholder(c: &mut Criterion) {
    c.bench_function("normal_cdf", |b| {
        b.iter(|| cargo_speedup::stats::normal::cdf(std::hint::black_box(-1.5)))
    });
}

criterion_group!(benches, placeholder);
criterion_main!(benches);
