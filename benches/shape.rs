//! The shape step (`protocol::shape`: a Gaussian mixture with K = 1..9 under models E and V per side, its
//! modes, I1 and I3) on 1000 benchmarks x 2 sides x 20 process runs, a third of them bimodal; and the whole
//! analysis of that size (both protocols, HPT, the gate, then the shape). Target for the whole: 0.1 s.

use criterion::{Criterion, criterion_group, criterion_main};

use cargo_speedup::model::{Benchmark, Environment, Results, Runs, Sample, Suite, Unit};
use cargo_speedup::protocol::shape::{ShapeOptions, annotate};
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

fn side(rng: &mut SplitMix, benchmarks: usize, runs: usize, factor: f64) -> Results {
    let benchmarks = (0..benchmarks)
        .map(|i| {
            let centre = 1000.0 * (1.0 + i as f64) * factor;
            let values = (0..runs)
                .map(|_| {
                    // Every third benchmark is bistable: a third of its runs 25 % slower.
                    let slow = i % 3 == 0 && rng.next() < 1.0 / 3.0;
                    centre * if slow { 1.25 } else { 1.0 } * (1.0 + 0.05 * rng.next())
                })
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

fn shape(c: &mut Criterion) {
    let mut rng = SplitMix(42);
    let base = side(&mut rng, 1000, 20, 1.0);
    let head = side(&mut rng, 1000, 20, 0.98);
    let suite = Suite::pair(base, head);
    let options = Options {
        confidence: 0.95,
        hpt_alpha: None,
        speedup_under_test: None,
        fail_on: FailOn::Any,
        threshold: 0.0,
        precision: 0.05,
        equivalence_pct: 2.0,
        hpt_rank: cargo_speedup::protocol::hpt::Ranking::LogRatio,
        hpt_curve: false,
        looks: 1,
        remedy: Remedy::MeasureAgain,
    };
    let analysed = analyse(&suite, &options);
    let mut group = c.benchmark_group("shape");
    group.sample_size(10);
    group.bench_function("shape 1000x2x20", |b| {
        b.iter(|| {
            let mut analysis = analysed.clone();
            annotate(&mut analysis, &suite, &ShapeOptions::default());
            analysis
        })
    });
    group.bench_function("whole analysis 1000x2x20", |b| {
        b.iter(|| {
            let mut analysis = analyse(&suite, &options);
            annotate(&mut analysis, &suite, &ShapeOptions::default());
            analysis
        })
    });
    group.finish();
}

criterion_group!(benches, shape);
criterion_main!(benches);
