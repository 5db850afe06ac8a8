//! Benchmarks of the Kolmogorov-Smirnov and proportion kernels: the exact KS test at the largest size R
//! still treats exactly (99 × 100, with and without ties), the asymptotic test at 1000 × 1000, the median
//! protocol's centred check, and the prop.test and Clopper-Pearson intervals.

use std::hint::black_box;

use cargo_speedup::stats::Alternative;
use cargo_speedup::stats::ks::{ks_two_sample, location_shift};
use cargo_speedup::stats::proportion::{clopper_pearson, prop_test_interval};
use criterion::{Criterion, criterion_group, criterion_main};

/// A deterministic spread of `len` values (a Weyl sequence), shifted by `shift`, rounded to `step` if > 0.
fn sample(len: usize, shift: f64, step: f64) -> Vec<f64> {
    (0..len)
        .map(|k| {
            let v = (k as f64 * 0.618_033_988_749_895).fract() * 10.0 + shift;
            if step > 0.0 {
                (v / step).round() * step
            } else {
                v
            }
        })
        .collect()
}

fn ks(c: &mut Criterion) {
    let (x, y) = (sample(99, 0.0, 0.0), sample(100, 0.7, 0.0));
    c.bench_function("ks_exact_99x100", |b| {
        b.iter(|| ks_two_sample(black_box(&x), black_box(&y), Alternative::TwoSided))
    });
    let (xt, yt) = (sample(99, 0.0, 0.5), sample(100, 0.7, 0.5));
    c.bench_function("ks_exact_tied_99x100", |b| {
        b.iter(|| ks_two_sample(black_box(&xt), black_box(&yt), Alternative::TwoSided))
    });
    let (xl, yl) = (sample(1000, 0.0, 0.0), sample(1000, 0.3, 0.0));
    c.bench_function("ks_asymptotic_1000x1000", |b| {
        b.iter(|| ks_two_sample(black_box(&xl), black_box(&yl), Alternative::TwoSided))
    });
    c.bench_function("location_shift_99x100", |b| {
        b.iter(|| location_shift(black_box(&x), black_box(&y)))
    });
}

fn proportion(c: &mut Criterion) {
    c.bench_function("prop_test_interval", |b| {
        b.iter(|| prop_test_interval(black_box(17), black_box(30), black_box(0.95)))
    });
    c.bench_function("clopper_pearson", |b| {
        b.iter(|| clopper_pearson(black_box(17), black_box(30), black_box(0.95)))
    });
}

criterion_group!(benches, ks, proportion);
criterion_main!(benches);
