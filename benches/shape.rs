//! The shape step (`protocol::shape`: a Gaussian mixture with K = 1..n/5 under models E and V per side, its
//! modes, I1 and I3) on 1000 benchmarks x 2 sides x 20 process runs, a third of them bimodal, as the
//! difference between the analysis without it and the whole analysis of that size (both protocols, HPT,
//! the gate, and the shape). Target for the whole: 0.1 s.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

use cargo_speedup::model::{Benchmark, Results, Runs, Sample, Suite, Unit};
use cargo_speedup::protocol::analyse;
use cargo_speedup::protocol::analyse::analyse_with_shapes;
use cargo_speedup::protocol::shape::ShapeOptions;
use common::{SplitMix64, options, results};

fn side(rng: &mut SplitMix64, benchmarks: usize, runs: usize, factor: f64) -> Results {
    let benchmarks = (0..benchmarks)
        .map(|i| {
            let centre = 1000.0 * (1.0 + i as f64) * factor;
            let values = (0..runs)
                .map(|_| {
                    // Every third benchmark is bistable: a third of its runs 25 % slower.
                    let slow = i % 3 == 0 && rng.uniform() < 1.0 / 3.0;
                    centre * if slow { 1.25 } else { 1.0 } * (1.0 + 0.05 * rng.uniform())
                })
                .collect();
            Benchmark {
                name: format!("bench/{i}"),
                runs: Runs::independent(Sample::new(values, Unit::Ns).expect("positive")),
                unit: Unit::Ns,
                counters: Vec::new(),
            }
        })
        .collect();
    results(benchmarks)
}

fn shape(c: &mut Criterion) {
    let mut rng = SplitMix64::new(42);
    let base = side(&mut rng, 1000, 20, 1.0);
    let head = side(&mut rng, 1000, 20, 0.98);
    let suite = Suite::pair(base, head);
    let options = options(false);
    let mut group = c.benchmark_group("shape");
    group.sample_size(10);
    group.bench_function("analysis without shape 1000x2x20", |b| {
        b.iter(|| analyse(&suite, &options))
    });
    group.bench_function("whole analysis 1000x2x20", |b| {
        b.iter(|| analyse_with_shapes(&suite, &options, &ShapeOptions::default()))
    });
    group.finish();
}

criterion_group!(benches, shape);
criterion_main!(benches);
