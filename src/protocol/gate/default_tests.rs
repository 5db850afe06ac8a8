//! The default gate (`--fail-on any` at [`DEFAULT_THRESHOLD_PCT`]) on whole analyses: it fails on one
//! benchmark's large regression where HPT's suite test passes, says which benchmarks it could not see, and
//! fails on a HEAD that could not be measured.

use super::*;
use crate::model::coverage::{Granularity, LeftOut, Reason};
use crate::model::{Runs, Sample, Side, Suite, Unit};
use crate::protocol::{Analysis, Options, analyse};
use crate::testutil::simulated_results;

/// Runs of a benchmark at level `level`, spread ±`spread` (a fraction) evenly over `n` runs in a fixed,
/// shuffled order: a deterministic stand-in for a process's level moving from run to run.
fn runs(level: f64, spread: f64, n: usize) -> Runs {
    let values: Vec<f64> = (0..n)
        .map(|i| {
            // A permutation of 0..n (7 is coprime with the sizes used), centred on 0.
            let k = (i * 7) % n;
            level * (1.0 + spread * (2.0 * k as f64 / (n - 1) as f64 - 1.0))
        })
        .collect();
    Runs::independent(Sample::new(values, Unit::Ns).expect("valid"))
}

/// A suite of `count` benchmarks of 20 runs per side spread ±1 %, the first `slowed` times slower at HEAD.
fn suite(count: usize, slowed: f64, spread: f64) -> Suite {
    let side = |factor: f64| {
        simulated_results(
            (0..count)
                .map(|i| {
                    let level = 1000.0 * (i + 1) as f64;
                    let f = if i == 0 { factor } else { 1.0 };
                    (format!("b{i}"), runs(level * f, spread, 20))
                })
                .collect(),
        )
    };
    Suite::pair(side(1.0), side(slowed))
}

fn default_options() -> Options {
    Options::defaults(FailOn::Any)
        .with_threshold(Threshold::percent(DEFAULT_THRESHOLD_PCT).expect("a threshold"))
}

fn default_gate(suite: &Suite) -> Analysis {
    analyse(suite, &default_options())
}

#[test]
fn one_of_five_benchmarks_40_percent_slower_fails_the_default_gate_and_not_the_suite_gate() {
    let five = suite(5, 1.4, 0.01);
    let any = default_gate(&five);
    assert!(any.gate.failed, "{:?}", any.gate);
    assert_eq!(any.gate.slower, ["b0"]);
    // HPT's suite test passes the same comparison: one benchmark of five does not make the suite slower.
    let suite_gate = analyse(&five, &Options::defaults(FailOn::Suite));
    assert!(!suite_gate.gate.failed, "{:?}", suite_gate.gate);
}

#[test]
fn one_of_three_benchmarks_33_percent_slower_fails_the_default_gate() {
    let three = suite(3, 1.33, 0.01);
    let any = default_gate(&three);
    assert!(any.gate.failed);
    assert_eq!(any.gate.slower, ["b0"]);
    assert_eq!(any.gate.cannot_fail, None);
    // The suite gate cannot fail with three benchmarks at 0.95 (1 - 1/2^3 = 0.875).
    let suite_gate = analyse(&three, &Options::defaults(FailOn::Suite));
    assert!(!suite_gate.gate.failed);
    assert!(suite_gate.gate.cannot_fail.is_some());
}

#[test]
fn a_slowdown_under_the_threshold_passes_the_default_gate_but_not_a_zero_threshold() {
    // 1 % slower on every run, with ±0.1 % spread: certainly slower, and certainly not by more than 2 %.
    let small = suite(4, 1.01, 0.001);
    let analysis = default_gate(&small);
    assert!(!analysis.gate.failed, "{:?}", analysis.gate);
    let zero = analyse(&small, &default_options().with_threshold(Threshold::NONE));
    assert!(zero.gate.failed);
}

#[test]
fn benchmarks_too_noisy_for_the_threshold_are_out_of_reach_with_what_would_pass() {
    // ±30 % spread over 20 runs: the minimum detectable effect is far above 2 %.
    let noisy = suite(3, 1.0, 0.3);
    let analysis = default_gate(&noisy);
    assert!(!analysis.gate.failed);
    let names: Vec<&str> = analysis
        .gate
        .out_of_reach
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    let undecided: Vec<&str> = analysis
        .benchmarks
        .iter()
        .filter(|b| b.verdict == Verdict::Inconclusive)
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(undecided.len(), 3);
    assert_eq!(names.len(), 3, "{names:?}");
    for o in &analysis.gate.out_of_reach {
        // The benchmark's own effect, computed here from its runs.
        let b = analysis
            .benchmarks
            .iter()
            .find(|b| b.name == o.name)
            .unwrap();
        let mde = b.equivalence.minimum_detectable_pct.unwrap();
        assert!(mde > 2.0);
        assert_eq!(
            o.reach_pct, mde,
            "the effect, above the threshold, is what the gate catches"
        );
    }
    // A quiet suite: nothing out of reach.
    assert!(
        default_gate(&suite(3, 1.0, 0.002))
            .gate
            .out_of_reach
            .is_empty()
    );
    // The suite gate does not say it.
    let suite_gate = analyse(&noisy, &Options::defaults(FailOn::Suite));
    assert!(suite_gate.gate.out_of_reach.is_empty());
}

fn with_left_out(mut suite: Suite, left_out: Vec<LeftOut>) -> Suite {
    suite.left_out = left_out;
    suite
}

#[test]
fn a_head_that_could_not_be_measured_fails_the_gate_unless_allowed() {
    let failed_at_head = LeftOut::benchmark(
        "panics",
        Some(Side::Head),
        Reason::Failed {
            failed: 3,
            runs: 3,
            exit_codes: vec![Some(101)],
            message: "panicked".into(),
        },
    );
    let quiet = with_left_out(suite(3, 1.0, 0.002), vec![failed_at_head.clone()]);
    let analysis = default_gate(&quiet);
    assert!(analysis.gate.failed);
    assert_eq!(
        analysis.gate.reasons,
        [GateReason::BrokenAtHead {
            name: "panics".into(),
            granularity: Granularity::Benchmark
        }]
    );
    assert!(
        !analyse(&quiet, &default_options().with_allow_broken(true))
            .gate
            .failed
    );
    assert!(
        !analyse(&quiet, &Options::defaults(FailOn::None))
            .gate
            .failed
    );
    // Broken at both sides, or at BASE only: not a finding about HEAD.
    for side in [None, Some(Side::Base)] {
        let both = with_left_out(
            suite(3, 1.0, 0.002),
            vec![LeftOut {
                side,
                ..failed_at_head.clone()
            }],
        );
        assert!(!default_gate(&both).gate.failed, "{side:?}");
    }
}

#[test]
fn a_target_that_needs_a_feature_keeps_the_suite_from_reading_unchanged_and_passes() {
    let heavy = LeftOut::target(
        "heavy",
        None,
        Reason::NeedsFeatures {
            missing: vec!["heavy".into()],
        },
    );
    let same = suite(3, 1.0, 0.002);
    assert_eq!(default_gate(&same).verdict, Verdict::Unchanged);
    let analysis = default_gate(&with_left_out(same, vec![heavy]));
    assert_eq!(analysis.verdict, Verdict::Inconclusive);
    assert!(!analysis.gate.failed);
    assert_eq!(analysis.left_out.len(), 1);
}

#[test]
fn the_threshold_is_held_by_the_estimate_of_a_benchmark_confirmed_slower() {
    // 20 runs spread ±1 %: a 3 % slowdown is confirmed slower (against no change) and its estimate, 3 %,
    // is beyond 2 %; a test of "more than 2 % slower" would need its whole interval past 2 %.
    let three = suite(4, 1.03, 0.01);
    let analysis = default_gate(&three);
    assert!(analysis.gate.failed, "{:?}", analysis.gate);
    let reason = crate::report::words::gate_reason(&analysis.gate.reasons[0]);
    assert!(
        reason.starts_with("b0 is slower (p = ")
            && reason.ends_with("by 3.0%: more than the threshold 2%"),
        "{reason}"
    );
    // 1.5 % slower, as certain: confirmed slower, but its estimate is within the threshold.
    let small = suite(4, 1.015, 0.001);
    let analysis = default_gate(&small);
    assert!(!analysis.gate.failed, "{:?}", analysis.gate);
    assert_eq!(analysis.benchmarks[0].verdict, Verdict::Slower);
}
