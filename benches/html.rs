//! Rendering the HTML report of 1000 benchmarks x 10 process runs of 10 samples per side (the analysis is
//! done once, outside the timing). Targets: under 1 s and under 5 MB; the page's size is printed.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

use cargo_speedup::html_page as page;
use cargo_speedup::model::{Benchmark, Results, Run, Runs, Sample, Suite, Unit};
use cargo_speedup::protocol::analyse;
use common::{SplitMix64, options, results};

fn side(rng: &mut SplitMix64, factor: impl Fn(usize) -> f64) -> Results {
    let benchmarks = (0..1000)
        .map(|i| {
            let centre = 1000.0 * (1.0 + i as f64) * factor(i);
            let runs = (0..10)
                .map(|_| {
                    let level = centre * (1.0 + 0.03 * rng.uniform());
                    let samples = (0..10)
                        .map(|_| level * (1.0 + 0.01 * rng.uniform()))
                        .collect();
                    Run::new(Sample::new(samples, Unit::Ns).expect("positive"), None)
                })
                .collect();
            Benchmark {
                name: format!("group_{}/benchmark_with_a_name_{i}", i / 10),
                runs: Runs::new(runs).expect("runs"),
                unit: Unit::Ns,
                counters: Vec::new(),
            }
        })
        .collect();
    results(benchmarks)
}

fn html_report(c: &mut Criterion) {
    let mut rng = SplitMix64::new(16);
    let base = side(&mut rng, |_| 1.0);
    // A third faster by 3 %, a third slower by 2 %, a third unchanged.
    let head = side(&mut rng, |i| [0.97, 1.02, 1.0][i % 3]);
    let options = options(true);
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
