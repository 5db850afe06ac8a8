//! Benchmarks of the moment-based kernels: Shapiro–Wilk at n = 50, 500 and 5000 (target: under 1 ms at
//! 5000), and the Student, Welch and F tests at n = m = 100.
//!
//! Inputs are deterministic (a fixed linear congruential generator turned normal by the Box–Muller
//! transform), so runs compare like with like.

use std::hint::black_box;

use cargo_speedup::stats::{Alternative, f_test, shapiro_wilk, t_test};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// n pseudo-normal timings around `mean` with standard deviation `sd`, from a fixed seed.
fn timings(n: usize, seed: u64, mean: f64, sd: f64) -> Vec<f64> {
    let mut state = seed;
    let mut uniform = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (u, v) = (uniform(), uniform());
            mean + sd * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        })
        .collect()
}

fn bench_shapiro_wilk(c: &mut Criterion) {
    let mut group = c.benchmark_group("shapiro_wilk");
    for n in [50, 500, 5000] {
        let x = timings(n, 1, 1.0e-3, 2.0e-5);
        group.bench_with_input(BenchmarkId::from_parameter(n), &x, |b, x| {
            b.iter(|| shapiro_wilk::shapiro_wilk(black_box(x)))
        });
    }
    group.finish();
}

fn bench_two_sample(c: &mut Criterion) {
    let x = timings(100, 2, 1.00e-3, 2.0e-5);
    let y = timings(100, 3, 0.99e-3, 3.0e-5);
    let alt = Alternative::Greater;
    c.bench_function("student/100", |b| {
        b.iter(|| t_test::student(black_box(&x), black_box(&y), alt))
    });
    c.bench_function("welch/100", |b| {
        b.iter(|| t_test::welch(black_box(&x), black_box(&y), alt))
    });
    c.bench_function("welch_conf_int/100", |b| {
        let t = t_test::welch(&x, &y, alt).expect("non-constant samples");
        b.iter(|| black_box(&t).conf_int(0.95))
    });
    c.bench_function("f_test/100", |b| {
        b.iter(|| f_test::f_test(black_box(&x), black_box(&y), Alternative::TwoSided))
    });
    c.bench_function("f_test_conf_int/100", |b| {
        let f = f_test::f_test(&x, &y, Alternative::TwoSided).expect("non-constant samples");
        b.iter(|| black_box(&f).conf_int(0.95))
    });
}

criterion_group!(benches, bench_shapiro_wilk, bench_two_sample);
criterion_main!(benches);
