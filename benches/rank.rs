//! Benchmarks of the rank tests: the exact rank-sum test at its largest size (49 × 49, building the null
//! distribution each time), the normal approximation at 1000 × 1000, the Hodges–Lehmann interval in both
//! regimes, and the signed-rank test at n = 49 (exact) and 1000 (approximate).
//!
//! The data are deterministic pseudo-random values (a fixed xorshift), untied, so that the exact paths run.

use cargo_speedup::stats::Alternative;
use cargo_speedup::stats::hodges_lehmann::hodges_lehmann;
use cargo_speedup::stats::rank_sum::{ExactRankSum, rank_sum};
use cargo_speedup::stats::signed_rank::signed_rank;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// `len` distinct-with-probability-one values in [shift, shift + 1), from a fixed xorshift64 seed.
fn sample(len: usize, seed: u64, shift: f64) -> Vec<f64> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            shift + (state >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

fn rank_sum_benches(c: &mut Criterion) {
    let (x49, y49) = (sample(49, 1, 0.1), sample(49, 2, 0.0));
    let (x1k, y1k) = (sample(1000, 3, 0.05), sample(1000, 4, 0.0));
    c.bench_function("exact_distribution_49x49", |b| {
        b.iter(|| ExactRankSum::new(black_box(49), black_box(49)))
    });
    c.bench_function("rank_sum_exact_49x49", |b| {
        b.iter(|| rank_sum(black_box(&x49), black_box(&y49), Alternative::Greater))
    });
    c.bench_function("rank_sum_approx_1000x1000", |b| {
        b.iter(|| rank_sum(black_box(&x1k), black_box(&y1k), Alternative::Greater))
    });
    c.bench_function("hodges_lehmann_exact_49x49", |b| {
        b.iter(|| {
            hodges_lehmann(
                black_box(&x49),
                black_box(&y49),
                Alternative::TwoSided,
                0.95,
            )
        })
    });
    c.bench_function("hodges_lehmann_approx_1000x1000", |b| {
        b.iter(|| {
            hodges_lehmann(
                black_box(&x1k),
                black_box(&y1k),
                Alternative::TwoSided,
                0.95,
            )
        })
    });
}

fn signed_rank_benches(c: &mut Criterion) {
    let d49 = sample(49, 5, -0.4);
    let d1k = sample(1000, 6, -0.45);
    c.bench_function("signed_rank_exact_49", |b| {
        b.iter(|| signed_rank(black_box(&d49), Alternative::Greater))
    });
    c.bench_function("signed_rank_approx_1000", |b| {
        b.iter(|| signed_rank(black_box(&d1k), Alternative::Greater))
    });
}

criterion_group!(benches, rank_sum_benches, signed_rank_benches);
criterion_main!(benches);
