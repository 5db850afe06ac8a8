//! `cargo speedup compare base.json head.json --format json -o report.json` at 1000 benchmarks x 100 process
//! runs per side, the whole command as a user meets it once the process has started: parsing the options,
//! reading and validating both raw JSON files, both Speedup-Test protocols, HPT, the gate, each side's
//! Gaussian mixture and its modes, rendering the JSON report and writing it. The shape step runs mclust's
//! whole search on every side, so that the reported shape is the BIC's choice, and no exact search is
//! faster (`docs/mixtures.md` §7, "Decision: the BIC's choice before speed"): an idle 2-core machine measured
//! the process at 0.71 to 0.72 s of wall on `realistic` and 0.63 to 0.67 s on `uniform` (five runs each);
//! the version whose search stopped early measured 0.078 to 0.084 s and 0.24 to 0.26 s here. The benchmark
//! stays to catch a slower EM or analysis against those figures.
//! `docs/mixtures.md` §7 says where the time goes.
//!
//! Two suites, generated here (nothing large is committed) and left in `target/compare-bench/` so that the
//! binary can be timed on the same files (`/usr/bin/time -v cargo-speedup compare ...`):
//! - `realistic`: log-normal run-to-run noise of 0.5 to 3 % (each benchmark its own), every tenth benchmark
//!   bistable (30 % of its runs in a state 8 % slower, as code layouts make), a third of HEAD 3 % faster and
//!   a third 2 % slower;
//! - `uniform`: `benches/analysis.rs`' suite, noise uniform over 5 %, whose flat tops the mixtures describe
//!   with 2 to 7 modes (no warning: none beats the unimodal reference of `docs/mixtures.md` §4).
//!
//! With `COMPARE_BENCH_LARGE=1` it also writes `large/`: 1000 benchmarks x 5500 runs per side, about 100 MB
//! per file, for measuring peak memory by hand (not benchmarked).

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};

use common::SplitMix64;

/// HEAD's factor for benchmark `i`: a third 3 % faster, a third 2 % slower, a third unchanged.
fn head_factor(i: usize) -> f64 {
    [0.97, 1.02, 1.0][i % 3]
}

/// One run of benchmark `i` in the realistic suite.
fn realistic(rng: &mut SplitMix64, i: usize, factor: f64) -> f64 {
    let sigma = [0.005, 0.01, 0.02, 0.03][i % 4];
    let slow_state = i % 10 == 7 && rng.uniform() < 0.3;
    let centre = 1000.0 * (1.0 + i as f64) * factor * if slow_state { 1.08 } else { 1.0 };
    centre * (sigma * rng.normal()).exp()
}

/// One run of benchmark `i` in the uniform suite (`benches/analysis.rs`).
fn uniform(rng: &mut SplitMix64, i: usize, factor: f64) -> f64 {
    1000.0 * (1.0 + i as f64) * factor * (1.0 + 0.05 * rng.uniform())
}

type Draw = fn(&mut SplitMix64, usize, f64) -> f64;

/// Writes one side as raw timing JSON (`docs/formats.md` §6).
fn write_side(path: &Path, rng: &mut SplitMix64, shape: (usize, usize), head: bool, draw: Draw) {
    let (benchmarks, runs) = shape;
    let mut json = String::with_capacity(benchmarks * runs * 20 + 64);
    json.push_str("{\"unit\":\"ns\",\"benchmarks\":[");
    for i in 0..benchmarks {
        let factor = if head { head_factor(i) } else { 1.0 };
        if i > 0 {
            json.push(',');
        }
        write!(json, "\n{{\"name\":\"bench/{i}\",\"samples\":[").expect("a String");
        for j in 0..runs {
            let separator = if j > 0 { "," } else { "" };
            write!(json, "{separator}{}", draw(rng, i, factor)).expect("a String");
        }
        json.push_str("]}");
    }
    json.push_str("]}\n");
    std::fs::write(path, json).expect("writing a generated input");
}

/// Writes `name/base.json` and `name/head.json` under `target/compare-bench/` and returns the directory.
fn write_suite(name: &str, shape: (usize, usize), draw: Draw) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("compare-bench")
        .join(name);
    std::fs::create_dir_all(&dir).expect("creating target/compare-bench");
    let mut rng = SplitMix64::new(42);
    write_side(&dir.join("base.json"), &mut rng, shape, false, draw);
    write_side(&dir.join("head.json"), &mut rng, shape, true, draw);
    dir
}

/// The command, parsed and run as `main` does.
fn compare(dir: &Path) {
    let path = |file: &str| dir.join(file).into_os_string();
    let args = [
        "cargo-speedup".into(),
        "compare".into(),
        path("base.json"),
        path("head.json"),
        "--format".into(),
        "json".into(),
        "-o".into(),
        path("report.json"),
        "-q".into(),
    ];
    let status = cargo_speedup::run(args);
    assert_ne!(
        status,
        std::process::ExitCode::from(2),
        "the comparison failed"
    );
}

fn whole_command(c: &mut Criterion) {
    if std::env::var_os("COMPARE_BENCH_LARGE").is_some() {
        write_suite("large", (1000, 5500), realistic);
    }
    let suites = [
        (
            "realistic",
            write_suite("realistic", (1000, 100), realistic),
        ),
        ("uniform", write_suite("uniform", (1000, 100), uniform)),
    ];
    let mut group = c.benchmark_group("compare");
    group.sample_size(10);
    for (name, dir) in &suites {
        group.bench_function(format!("1000x100 {name}"), |b| b.iter(|| compare(dir)));
    }
    group.finish();
}

criterion_group!(benches, whole_command);
criterion_main!(benches);
