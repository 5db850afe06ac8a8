//! Rendering the HTML report of 1000 benchmarks x 10 process runs of 10 samples per side (the analysis is
//! done once, outside the timing). Targets: under 1 s and under 5 MB; the page's size is printed.

use criterion::{Criterion, criterion_group, criterion_main};

use cargo_speedup::model::{Benchmark, Environment, Results, Run, Runs, Sample, Suite, Unit};
use cargo_speedup::protocol::wording::Remedy;
use cargo_speedup::protocol::{FailOn, Options, analyse};
use cargo_speedup::report::html::page;

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

fn side(rng: &mut SplitMix, factor: impl Fn(usize) -> f64) -> Results {
    let benchmarks = (0..1000)
        .map(|i| {
            let centre = 1000.0 * (1.0 + i as f64) * factor(i);
            let runs = (0..10)
                .map(|_| {
                    let level = centre * (1.0 + 0.03 * rng.next());
                    let samples = (0..10).map(|_| level * (1.0 + 0.01 * rng.next())).collect();
                    Run::new(Sample::new(samples, Unit::Ns).expect("positive"), None)
                })
                .collect();
            Benchmark {
                name: format!("group_{}/benchmark_with_a_name_{i}", i / 10),
                runs: Runs::new(runs).expect("runs"),
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

fn html_report(c: &mut Criterion) {
    let mut rng = SplitMix(16);
    let base = side(&mut rng, |_| 1.0);
    // A third faster by 3 %, a third slower by 2 %, a third unchanged.
    let head = side(&mut rng, |i| [0.97, 1.02, 1.0][i % 3]);
    let options = Options {
        confidence: 0.95,
        hpt_alpha: None,
        speedup_under_test: None,
        fail_on: FailOn::Any,
        threshold: 0.0,
        precision: 0.05,
        equivalence_pct: 2.0,
        hpt_rank: cargo_speedup::protocol::hpt::Ranking::LogRatio,
        hpt_curve: true,
        looks: 1,
        remedy: Remedy::MeasureAgain,
    };
    let analysis = analyse(&Suite::pair(base, head), &options);
    let bytes = page(&analysis).len();
    eprintln!(
        "html/1000x10x10: {bytes} bytes ({:.2} MB)",
        bytes as f64 / 1e6
    );
    let mut group = c.benchmark_group("html");
    group.sample_size(10);
    group.bench_function("1000x10x10", |b| b.iter(|| page(&analysis)));
    group.finish();
}

criterion_group!(benches, html_report);
criterion_main!(benches);
