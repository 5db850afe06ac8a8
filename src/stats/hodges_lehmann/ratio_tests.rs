//! Tests of the Hodges–Lehmann ratio interval against R 4.2.2 (`fixtures/r/hodges_lehmann_ratio.R`:
//! `wilcox.test(log(x), log(y), conf.int = TRUE)`, exponentiated) and its invariants.

use super::tests::run_with;
use super::*;
use crate::testutil::oracle::cases_of;
use crate::testutil::oracle::{assert_rel, number};
use proptest::prelude::*;
use serde_json::Value;

fn run(case: &Value) -> (String, ShiftInterval) {
    run_with(case, hodges_lehmann_ratio)
}

fn oracle_cases(exact: bool) -> Vec<Value> {
    cases_of("hodges_lehmann_ratio", exact, 60)
}

/// Every ratio x_i / y_j, sorted (quadratic; fine for the test sizes).
fn sorted_ratios(x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut r: Vec<f64> = x
        .iter()
        .flat_map(|a| y.iter().map(move |b| a / b))
        .collect();
    r.sort_by(f64::total_cmp);
    r
}

#[test]
fn exact_case_matches_r_to_rounding() {
    // R returns exp(log x_i − log y_j); this returns x_i / y_j: equal up to a few ulps.
    for case in oracle_cases(true) {
        let (name, r) = run(&case);
        assert_eq!(r.method, Method::Exact, "{name}");
        for (what, ours) in [
            ("estimate", r.estimate),
            ("lower", r.lower),
            ("upper", r.upper),
        ] {
            assert_rel(&name, what, ours, number(&case[what]), 1e-12);
        }
    }
}

#[test]
fn approximate_case_matches_r_root_finder_within_its_tolerance() {
    // R's uniroot(tol = 1e-4) is absolute on the log scale: 1e-4 plus 1e-3 of the log interval's width.
    for case in oracle_cases(false) {
        let (name, r) = run(&case);
        assert_eq!(r.method, Method::Approximate, "{name}");
        let tol = 1e-4 + 1e-3 * number(&case["log_scale"]);
        for (what, ours, theirs) in [
            ("lower", r.lower, number(&case["lower"])),
            ("upper", r.upper, number(&case["upper"])),
        ] {
            let close = ours == theirs || (ours.ln() - theirs.ln()).abs() <= tol;
            assert!(
                close,
                "{name}: {what} = {ours}, R gives {theirs} (log tol {tol:e})"
            );
        }
        // The estimate is the exponential of the median of the log ratios, which R's root finder approaches.
        let median = number(&case["median_of_log_ratios"]);
        assert_rel(&name, "estimate", r.estimate.ln(), median, 1e-9);
    }
}

#[test]
fn one_outlying_run_widens_the_interval_within_the_pairwise_ratios() {
    // Six runs per side around 38 µs, one BASE run at 76 µs (R: [0.98961, 1.97403] at 0.95). The shift
    // interval of the same data, turned into a speedup through median(BASE), has no upper end.
    let x = [38.1, 37.6, 38.4, 76.0, 37.9, 38.2];
    let y = [38.0, 37.7, 38.3, 37.8, 38.5, 37.95];
    let r = hodges_lehmann_ratio(&x, &y, Alternative::TwoSided, 0.95).expect("valid");
    assert_eq!((r.lower, r.upper), (38.1 / 38.5, 76.0 / 38.5));
}

#[test]
fn invalid_inputs_are_errors() {
    let two = Alternative::TwoSided;
    for bad in [&[1.0, 0.0][..], &[1.0, -2.0][..]] {
        assert_eq!(
            hodges_lehmann_ratio(bad, &[2.0, 3.0], two, 0.95),
            Err(StatsError::InvalidArgument("a ratio needs values above 0"))
        );
        assert!(hodges_lehmann_ratio(&[2.0, 3.0], bad, two, 0.95).is_err());
    }
    assert_eq!(
        hodges_lehmann_ratio(&[2.0, 2.0], &[2.0], two, 0.95),
        Err(StatsError::Constant)
    );
    assert_eq!(
        hodges_lehmann_ratio(&[f64::MAX], &[f64::MIN_POSITIVE], two, 0.95),
        Err(StatsError::NonFinite)
    );
    assert_eq!(
        hodges_lehmann_ratio(&[f64::MIN_POSITIVE], &[f64::MAX], two, 0.95),
        Err(StatsError::NonFinite)
    );
}

fn sample(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    let value = prop_oneof![3 => 1e-3f64..1e3, 1 => (1i32..6).prop_map(f64::from)];
    prop::collection::vec(value, 1..max_len)
}

proptest! {
    #[test]
    fn ends_are_pairwise_ratios_around_the_estimate(x in sample(60), y in sample(60), level in 0.5f64..0.999) {
        let reference = sorted_ratios(&x, &y);
        for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
            let Ok(r) = hodges_lehmann_ratio(&x, &y, alt, level) else { continue };
            prop_assert!(r.lower <= r.estimate && r.estimate <= r.upper, "{:?}", r);
            for end in [r.lower, r.upper].into_iter().filter(|e| e.is_finite() && *e > 0.0) {
                prop_assert!(reference.contains(&end));
            }
        }
    }

    #[test]
    fn the_ratio_interval_uses_the_ranks_of_the_shift_of_logs(x in sample(60), y in sample(60)) {
        // Same test, same method, same ranks d_(k): the bounds are those of the log shift, up to rounding.
        let log = |v: &[f64]| v.iter().map(|t| t.ln()).collect::<Vec<f64>>();
        let (Ok(ratio), Ok(shift)) = (
            hodges_lehmann_ratio(&x, &y, Alternative::TwoSided, 0.9),
            hodges_lehmann(&log(&x), &log(&y), Alternative::TwoSided, 0.9),
        ) else {
            return Ok(());
        };
        prop_assert_eq!(ratio.method, shift.method);
        for (r, s) in [(ratio.lower, shift.lower), (ratio.upper, shift.upper), (ratio.estimate, shift.estimate)] {
            prop_assert!((r.ln() - s).abs() <= 1e-12 * (1.0 + s.abs()), "{} vs exp({})", r, s);
        }
    }

    #[test]
    fn scaling_one_side_scales_the_interval(x in sample(50), y in sample(50), power in -4i32..4) {
        // a power-of-two factor keeps every ratio exact, so the equivariance holds bit for bit
        let factor = 2f64.powi(power);
        let scaled: Vec<f64> = x.iter().map(|v| v * factor).collect();
        let (Ok(a), Ok(b)) = (
            hodges_lehmann_ratio(&x, &y, Alternative::TwoSided, 0.95),
            hodges_lehmann_ratio(&scaled, &y, Alternative::TwoSided, 0.95),
        ) else {
            return Ok(());
        };
        // unless scaling created or removed a tie between x and y, which changes the method
        if a.method == b.method {
            prop_assert_eq!(b.lower, a.lower * factor);
            prop_assert_eq!(b.upper, a.upper * factor);
        }
    }
}
