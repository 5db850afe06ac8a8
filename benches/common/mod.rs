//! What the analysis benchmarks share: the seeded generator of their synthetic suites (the crate's own
//! SplitMix64, so the figures need no random-number crate), a side made of generated benchmarks, and the
//! command line's default analysis options.

#![allow(dead_code)] // each benchmark uses part of it

use cargo_speedup::model::{Benchmark, Environment, Results};
use cargo_speedup::protocol::{FailOn, Options};
pub(crate) use cargo_speedup::stats::random::SplitMix64;

/// One side's results from generated benchmarks.
pub(crate) fn results(benchmarks: Vec<Benchmark>) -> Results {
    Results {
        origin: "generated".into(),
        benchmarks,
        environment: Environment::default(),
        notes: vec![],
        left_out: vec![],
    }
}

/// The command line's defaults (confidence 0.95, ε 2 %, HPT on log speedups) with
/// `--fail-on any`; the confidence curve only where the HTML report is drawn.
pub(crate) fn options(hpt_curve: bool) -> Options {
    Options::defaults(FailOn::Any).with_hpt_curve(hpt_curve)
}
