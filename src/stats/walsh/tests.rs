//! Tests of the one-sample Hodges–Lehmann interval against R 4.2.2 (`fixtures/r/walsh.R`) and against the
//! Walsh averages formed and sorted by brute force.

use super::*;
use crate::testutil::oracle::{alternative, assert_rel, cases_of, number, numbers};
use proptest::prelude::*;
use serde_json::Value;

fn cases(exact: bool) -> Vec<Value> {
    cases_of("walsh", exact, 60)
}

fn run(case: &Value) -> (String, LocationInterval) {
    let name = case["name"].as_str().expect("name").to_string();
    let d = numbers(&case["d"]);
    let alt = alternative(case["alternative"].as_str().expect("alternative"));
    let r = walsh_interval(&d, alt, number(&case["confidence"]))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    (name, r)
}

/// The Walsh averages formed and sorted, as R's `outer(d, d, "+")` upper triangle / 2.
fn brute(d: &[f64]) -> Vec<f64> {
    let mut w = Vec::new();
    for i in 0..d.len() {
        for j in i..d.len() {
            w.push((d[i] + d[j]) / 2.0);
        }
    }
    w.sort_by(f64::total_cmp);
    w
}

#[test]
fn exact_case_matches_r_to_the_last_bit() {
    for case in cases(true) {
        let (name, r) = run(&case);
        assert_eq!(r.method, Method::Exact, "{name}");
        assert_rel(
            &name,
            "estimate",
            r.estimate,
            number(&case["estimate"]),
            1e-12,
        );
        assert_rel(&name, "lower", r.lower, number(&case["lower"]), 1e-12);
        assert_rel(&name, "upper", r.upper, number(&case["upper"]), 1e-12);
    }
}

/// R's `uniroot(tol = 1e-4)` is absolute: allow 1e-4 plus 1e-3 of the width of the two-sided 95 % interval.
fn r_tolerance(case: &Value) -> f64 {
    1e-4 + 1e-3 * number(&case["scale"])
}

#[test]
fn approximate_case_matches_r_root_finder_within_its_tolerance() {
    let mut compared = 0;
    for case in cases(false) {
        // Where R lowered the level (a few tied values) its interval is another one (module doc).
        if number(&case["achieved"]) < number(&case["confidence"]) - 1e-9 {
            continue;
        }
        let (mut name, mut r) = run(&case);
        let mut middle = numbers(&case["middle_walsh"]);
        let mut median = number(&case["median_of_walsh"]);
        if case["zeros"].as_bool() == Some(true) {
            // R drops the zeros before inverting the test (module doc): compare on the sample without them.
            let d: Vec<f64> = numbers(&case["d"])
                .into_iter()
                .filter(|&v| v != 0.0)
                .collect();
            let alt = alternative(case["alternative"].as_str().expect("alternative"));
            r = walsh_interval(&d, alt, number(&case["confidence"])).expect("valid");
            name.push_str(" (zeros dropped)");
            let w = brute(&d);
            let m = w.len();
            middle = vec![w[m.div_ceil(2) - 1], w[m / 2]];
            median = (middle[0] + middle[1]) / 2.0;
            if r.method == Method::Exact {
                continue;
            }
        }
        assert_eq!(r.method, Method::Approximate, "{name}");
        let tol = r_tolerance(&case);
        for (what, ours, theirs) in [
            ("lower", r.lower, number(&case["lower"])),
            ("upper", r.upper, number(&case["upper"])),
        ] {
            assert!(
                ours == theirs || (ours - theirs).abs() <= tol,
                "{name}: {what} = {ours}, R gives {theirs} (tol {tol:e})"
            );
        }
        assert_rel(&name, "estimate", r.estimate, median, 1e-12);
        let theirs = number(&case["estimate"]);
        assert!(
            theirs >= middle[0] - tol && theirs <= middle[1] + tol,
            "{name}"
        );
        compared += 1;
    }
    assert!(
        compared >= 100,
        "only {compared} approximate cases compared"
    );
}

#[test]
fn where_no_jump_crosses_the_interval_is_the_whole_range() {
    // Five values, three of them tied: at 0.99 the normal approximation's z never reaches 2.576 (R lowers the
    // level and warns); the interval asked for is then every Walsh average.
    let d = [0.1, 0.2, 0.2, 0.2, 0.3];
    let r = walsh_interval(&d, Alternative::TwoSided, 0.99).expect("valid");
    assert_eq!(r.method, Method::Approximate);
    assert_eq!((r.lower, r.upper), (0.1, 0.3));
    assert!((r.estimate - 0.2).abs() < 1e-15);
}

#[test]
fn zeros_count_as_observations_at_every_other_location() {
    // Walsh averages of six zeros and 1, 2, 3: 21 × 0, 6 × 0.5, 7 × 1, 7 × 1.5, 2 × 2, 2.5, 3. The 23rd of 45
    // is 0.5; σ² = 9·10·19/24 − (6³ − 6)/48 = 66.875, so z = (22.5 − k ∓ ½)/σ crosses 1.96 after k = 6 (a
    // zero) and −1.96 after k = 40 (1.5). R, dropping the zeros first, gives 2 and an interval above 0.
    let d = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0];
    let r = walsh_interval(&d, Alternative::TwoSided, 0.95).expect("valid");
    assert_eq!(r.method, Method::Approximate);
    assert_eq!((r.estimate, r.lower, r.upper), (0.5, 0.0, 1.5));
}

#[test]
fn bad_input_is_an_error() {
    assert!(matches!(
        walsh_interval(&[], Alternative::TwoSided, 0.95),
        Err(StatsError::TooFew { .. })
    ));
    assert!(matches!(
        walsh_interval(&[1.0, f64::NAN], Alternative::TwoSided, 0.95),
        Err(StatsError::NonFinite)
    ));
    assert!(matches!(
        walsh_interval(&[1.0, 2.0], Alternative::TwoSided, 1.0),
        Err(StatsError::InvalidArgument(_))
    ));
}

proptest! {
    /// Selection by value gives the same order statistics as forming and sorting every average, including
    /// samples large enough for the bisection (M > 4n + 16) and with many equal values.
    #[test]
    fn selection_is_the_sorted_walsh_averages(
        d in prop::collection::vec(prop_oneof![-1000i32..1000, -3i32..3], 1..160),
        scale in prop_oneof![Just(1.0), Just(0.001), Just(1e6)],
        pick in 0.0f64..1.0,
    ) {
        let d: Vec<f64> = d.iter().map(|&v| v as f64 * scale).collect();
        let mut sorted = d.clone();
        sorted.sort_by(f64::total_cmp);
        let walsh = Walsh { d: &sorted };
        let reference = brute(&d);
        prop_assert_eq!(walsh.len(), reference.len());
        let k = 1 + ((reference.len() - 1) as f64 * pick) as usize;
        prop_assert_eq!(walsh.select(k), reference[k - 1]);
        prop_assert_eq!(walsh.select(1), reference[0]);
        prop_assert_eq!(walsh.select(reference.len()), reference[reference.len() - 1]);
        let t = reference[k - 1];
        prop_assert_eq!(walsh.count_at_most(t), reference.iter().filter(|&&w| w <= t).count());
    }
}
