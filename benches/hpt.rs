//! Benchmarks: HPT with its r-speedup on a large suite (1000 benchmarks x 100 samples per side), the case
//! the 0.01 gamma grid makes expensive, on the small PARSEC-sized suite, and on suites of coarse (tied)
//! timings, where each benchmark's test is exact given its ties.

use cargo_speedup::protocol::hpt::{HptOptions, hpt};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A fixed xorshift stream in [0, 1): the data must not change between runs.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `benchmarks` benchmarks of `samples` times per side; HEAD about `speedup` times faster, 3 % noise.
fn suite(benchmarks: usize, samples: usize, speedup: f64) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut stream = Stream(0x9E37_79B9_7F4A_7C15);
    (0..benchmarks)
        .map(|i| {
            let scale = 1e3 * (1.0 + (i % 97) as f64);
            let mut side = |factor: f64| -> Vec<f64> {
                (0..samples)
                    .map(|_| scale * factor * (1.0 + 0.03 * stream.next()))
                    .collect()
            };
            let base = side(1.0);
            let head = side(1.0 / speedup);
            (base, head)
        })
        .collect()
}

fn bench_hpt(c: &mut Criterion) {
    let options = HptOptions {
        confidence: cargo_speedup::protocol::Confidence::new(0.95).expect("a level"),
        alpha: None,
        speedup_under_test: Some(1.02),
        curve: false,
    };
    for (name, benchmarks, samples, speedup) in [
        ("hpt_1000x100_speedup_1.05", 1000, 100, 1.05),
        ("hpt_1000x100_speedup_1.30", 1000, 100, 1.30),
        ("hpt_1000x100_speedup_10", 1000, 100, 10.0),
        ("hpt_100x30_speedup_1.05", 100, 30, 1.05),
        ("hpt_8x3_speedup_1.90", 8, 3, 1.90),
    ] {
        let data = suite(benchmarks, samples, speedup);
        bench_one(c, name, &data, &options);
    }
    // Coarse timings (integer ns/op, as Go prints them): ties everywhere, so every rank-sum test takes the
    // exact conditional distribution given the ties.
    for (name, benchmarks, samples, speedup) in [
        ("hpt_tied_100x10_speedup_1.05", 100, 10, 1.05),
        ("hpt_tied_100x20_speedup_1.05", 100, 20, 1.05),
    ] {
        let data: Vec<(Vec<f64>, Vec<f64>)> = suite(benchmarks, samples, speedup)
            .into_iter()
            .map(|(b, h)| {
                let coarse = |v: Vec<f64>| v.into_iter().map(|t| (t / 100.0).round()).collect();
                (coarse(b), coarse(h))
            })
            .collect();
        bench_one(c, name, &data, &options);
    }
}

fn bench_one(c: &mut Criterion, name: &str, data: &[(Vec<f64>, Vec<f64>)], options: &HptOptions) {
    let pairs: Vec<(&[f64], &[f64])> = data.iter().map(|(b, h)| (&b[..], &h[..])).collect();
    c.bench_function(name, |b| {
        b.iter(|| hpt(black_box(&pairs), black_box(options)))
    });
}

criterion_group!(benches, bench_hpt);
criterion_main!(benches);
