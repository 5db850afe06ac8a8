//! Tests of the signed-rank test against R 4.2.2 (`fixtures/r/signed_rank.R`) and its invariants.

use super::*;
use crate::testutil::oracle::{alternative, assert_rel, load, number, numbers};
use proptest::prelude::*;

#[test]
fn matches_r_wilcox_test_on_every_oracle_case() {
    let oracle = load("signed_rank");
    let cases = oracle["cases"].as_array().expect("cases");
    assert!(cases.len() >= 48);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let d = numbers(&case["d"]);
        let alt = alternative(case["alternative"].as_str().expect("alternative"));
        let r = signed_rank(&d, alt).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.statistic, number(&case["statistic"]), "{name}: V");
        let exact = case["exact"].as_bool().expect("exact");
        let expected = if exact {
            Method::Exact
        } else {
            Method::Approximate
        };
        assert_eq!(r.method, expected, "{name}: method");
        assert_rel(name, "p", r.p_value, number(&case["p_value"]), 1e-9);
    }
}

#[test]
fn small_exact_distribution_counts_sign_patterns() {
    // n = 3: the 8 sign patterns give V = 0, 1, 2, 3, 3, 4, 5, 6.
    let d = ExactSignedRank::new(3).expect("valid size");
    let expected = [1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0].map(|c| c / 8.0);
    assert_eq!(d.pmf(), &expected);
    // R: psignrank(c(3, 10, 20), 10) * 1024 = 5 43 252
    let ten = ExactSignedRank::new(10).expect("valid size");
    assert_eq!(ten.p_lower(3.0), 5.0 / 1024.0);
    assert_eq!(ten.p_lower(10.0), 43.0 / 1024.0);
    assert_eq!(ten.p_lower(20.0), 252.0 / 1024.0);
}

#[test]
fn only_zeros_is_constant_and_bad_input_is_rejected() {
    let two = Alternative::TwoSided;
    assert_eq!(signed_rank(&[0.0, -0.0], two), Err(StatsError::Constant));
    assert_eq!(
        signed_rank(&[], two),
        Err(StatsError::TooFew { needed: 1, got: 0 })
    );
    assert_eq!(
        signed_rank(&[1.0, f64::NAN], two),
        Err(StatsError::NonFinite)
    );
    assert!(matches!(
        ExactSignedRank::new(50),
        Err(StatsError::TooMany { max: 49, got: 50 })
    ));
}

#[test]
fn a_dropped_zero_forces_the_approximation() {
    let with_zero = signed_rank(&[0.0, 1.0, 2.5, -0.5], Alternative::Greater).expect("valid");
    assert_eq!(with_zero.method, Method::Approximate);
    assert_eq!(with_zero.statistic, 5.0);
}

#[test]
fn exact_and_approximate_converge_at_49() {
    let d = ExactSignedRank::new(49).expect("valid size");
    let n = 49.0f64;
    let sigma = (n * (n + 1.0) * (2.0 * n + 1.0) / 24.0).sqrt();
    for v in [600.0, 700.0, 800.0, 900.0] {
        let z = (v - n * (n + 1.0) / 4.0 - 0.5) / sigma;
        let approx = crate::stats::normal::sf(z);
        assert!((d.p_upper(v) - approx).abs() < 3e-3, "V = {v}");
    }
}

fn sample() -> impl Strategy<Value = Vec<f64>> {
    let value = prop_oneof![3 => -1e3f64..1e3, 1 => (-3i32..4).prop_map(f64::from)];
    prop::collection::vec(value, 1..70)
}

proptest! {
    #[test]
    fn exact_pmf_sums_to_one_and_is_symmetric(n in 1usize..50) {
        let d = ExactSignedRank::new(n).expect("valid size");
        let pmf = d.pmf();
        prop_assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for v in 0..pmf.len() {
            prop_assert_eq!(pmf[v], pmf[pmf.len() - 1 - v]);
        }
    }

    #[test]
    fn p_values_lie_in_the_unit_interval(d in sample()) {
        for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
            if let Ok(r) = signed_rank(&d, alt) {
                prop_assert!((0.0..=1.0).contains(&r.p_value));
            }
        }
    }

    #[test]
    fn negating_the_sample_swaps_the_alternative(d in sample()) {
        let negated: Vec<f64> = d.iter().map(|v| -v).collect();
        if let (Ok(a), Ok(b)) = (
            signed_rank(&d, Alternative::Greater),
            signed_rank(&negated, Alternative::Less),
        ) {
            prop_assert!((a.p_value - b.p_value).abs() <= 1e-14 * a.p_value.max(1e-300));
        }
    }

    #[test]
    fn odd_increasing_transforms_leave_the_test_unchanged(d in sample()) {
        // t ↦ t³ keeps signs and the order of |t|; scaled so that distinct values stay distinct in f64
        let cubed: Vec<f64> = d.iter().map(|v| (v / 1e3).powi(3)).collect();
        let mut a: Vec<f64> = d.iter().map(|v| v.abs()).collect();
        let mut b: Vec<f64> = cubed.iter().map(|v| v.abs()).collect();
        a.sort_by(f64::total_cmp);
        b.sort_by(f64::total_cmp);
        a.dedup();
        b.dedup();
        prop_assume!(a.len() == b.len() && cubed.iter().filter(|v| **v == 0.0).count()
            == d.iter().filter(|v| **v == 0.0).count());
        prop_assert_eq!(signed_rank(&d, Alternative::TwoSided), signed_rank(&cubed, Alternative::TwoSided));
    }
}
