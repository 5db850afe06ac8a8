//! The whole analysis of `compare` (both Speedup-Test protocols per benchmark, HPT with its r-speedup, the
//! aggregates and the gate) on 1000 benchmarks x 100 process runs per side. Target: under 0.5 s on 2 cores.

use criterion::{Criterion, criterion_group, criterion_main};

use cargo_speedup::model::{Benchmark, Environment, Results, Runs, Sample, Suite, Unit};
use cargo_speedup::protocol::wording::Remedy;
use cargo_speedup::protocol::{FailOn, Options, analyse};

/// A deterministic pseudo-random stream (SplitMix64), so the benchmark needs no random-number crate.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn side(
    rng: &mut SplitMix,
    benchmarks: usize,
    samples: usize,
    factor: impl Fn(usize) -> f64,
) -> Results {
    let benchmarks = (0..benchmarks)
        .map(|i| {
            let centre = 1000.0 * (1.0 + i as f64) * factor(i);
            let values = (0..samples)
                .map(|_| centre * (1.0 + 0.05 * rng.next()))
                .collect();
            Benchmark {
                name: format!("bench/{i}"),
                runs: Runs::independent(Sample::new(values, Unit::Ns).expect("positive")),
                unit: Unit::Ns,
            }
        })
        .collect();
    Results {
        origin: "generated".into(),
        benchmarks,
        environment: Environment::default(),
        notes: vec![],
    }
}

fn whole_analysis(c: &mut Criterion) {
    let mut rng = SplitMix(42);
    let base = side(&mut rng, 1000, 100, |_| 1.0);
    // A third faster by 3 %, a third slower by 2 %, a third unchanged.
    let head = side(&mut rng, 1000, 100, |i| [0.97, 1.02, 1.0][i % 3]);
    let suite = Suite::pair(base, head);
    let options = Options {
        confidence: 0.95,
        hpt_alpha: None,
        hpt_rank: cargo_speedup::protocol::hpt::Ranking::LogRatio,
        hpt_curve: false,
        speedup_under_test: Some(1.01),
        fail_on: FailOn::Any,
        threshold: 0.0,
        precision: 0.05,
        equivalence_pct: 2.0,
        looks: 1,
        remedy: Remedy::MeasureAgain,
    };
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.bench_function("1000x100", |b| b.iter(|| analyse(&suite, &options)));
    group.finish();
}

criterion_group!(benches, whole_analysis);
criterion_main!(benches);
