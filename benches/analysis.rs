//! The whole analysis of `compare` (both Speedup-Test protocols per benchmark, HPT with its r-speedup, the
//! aggregates and the gate) on 1000 benchmarks x 100 process runs per side. Target: under 0.5 s on 2 cores.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

use cargo_speedup::model::{Benchmark, Results, Runs, Sample, Suite, Unit};
use cargo_speedup::protocol::analyse;
use common::{SplitMix64, options, results};

fn side(
    rng: &mut SplitMix64,
    benchmarks: usize,
    samples: usize,
    factor: impl Fn(usize) -> f64,
) -> Results {
    let benchmarks = (0..benchmarks)
        .map(|i| {
            let centre = 1000.0 * (1.0 + i as f64) * factor(i);
            let values = (0..samples)
                .map(|_| centre * (1.0 + 0.05 * rng.uniform()))
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

fn whole_analysis(c: &mut Criterion) {
    let mut rng = SplitMix64::new(42);
    let base = side(&mut rng, 1000, 100, |_| 1.0);
    // A third faster by 3 %, a third slower by 2 %, a third unchanged.
    let head = side(&mut rng, 1000, 100, |i| [0.97, 1.02, 1.0][i % 3]);
    let suite = Suite::pair(base, head);
    let options = options(false);
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.bench_function("1000x100", |b| b.iter(|| analyse(&suite, &options)));
    group.finish();
}

criterion_group!(benches, whole_analysis);
criterion_main!(benches);
