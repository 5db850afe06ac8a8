//! Tests of the rank-sum test against R 4.2.2 (`fixtures/r/rank_sum.R`) and its invariants.

use super::*;
use crate::stats::rank::midranks;
use crate::stats::rank_sum_ties::EXACT_TIES_BUDGET;
use crate::testutil::oracle::{alternative, assert_rel, load, number, numbers};
use proptest::prelude::*;

#[test]
fn matches_r_wilcox_test_on_every_oracle_case() {
    let oracle = load("rank_sum");
    let cases = oracle["cases"].as_array().expect("cases");
    assert!(cases.len() >= 50);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let x = numbers(&case["x"]);
        let y = numbers(&case["y"]);
        let alt = alternative(case["alternative"].as_str().expect("alternative"));
        let r = rank_sum(&x, &y, alt).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.statistic, number(&case["statistic"]), "{name}: W");
        let exact = case["exact"].as_bool().expect("exact");
        let expected_method = if exact {
            Method::Exact
        } else {
            Method::Approximate
        };
        assert_eq!(r.method, expected_method, "{name}: method");
        assert_rel(name, "p", r.p_value, number(&case["p_value"]), 1e-9);
    }
}

/// Both one-sided tests from one ranking give what the two calls give: small and large, tied and untied,
/// and the errors (an empty side, a constant pooled sample, a NaN).
#[test]
fn one_ranking_for_both_directions_gives_the_two_tests() {
    let untied: Vec<f64> = (0..60).map(|i| f64::from(i * 37 % 61) + 0.5).collect();
    let tied: Vec<f64> = (0..60).map(|i| f64::from(i % 7)).collect();
    let cases: Vec<(&[f64], &[f64])> = vec![
        (&untied[..10], &untied[10..22]),
        (&untied[..55], &untied[5..60]),
        (&tied[..12], &tied[20..35]),
        (&tied[..50], &tied[3..60]),
        (&[], &untied[..3]),
        (&[2.0, 2.0], &[2.0]),
        (&[1.0, f64::NAN], &[2.0]),
    ];
    for (x, y) in cases {
        for exact_ties in [false, true] {
            let test = if exact_ties { rank_sum_exact } else { rank_sum };
            let want = (
                test(x, y, Alternative::Greater),
                test(x, y, Alternative::Less),
            );
            assert_eq!(rank_sum_one_sided(x, y, exact_ties), want, "{x:?} {y:?}");
        }
    }
}

#[test]
fn speedup_test_example_bench1_needs_the_normal_approximation() {
    // docs/speedup-test.md §10.2: W = 16.5, p_greater = 0.2316719 (a tie at 2.30 forces the approximation)
    let x = [2.02, 2.25, 2.30, 2.251, 2.01];
    let y = [1.02, 2.05, 2.30, 2.071, 1.05];
    let r = rank_sum(&x, &y, Alternative::Greater).expect("valid");
    assert_eq!(r.statistic, 16.5);
    assert_eq!(r.method, Method::Approximate);
    assert!((r.p_value - 0.2316719).abs() < 5e-8);
    assert_eq!(r.p_x_greater, 16.5 / 25.0);
}

#[test]
fn speedup_test_example_bench2_is_exact() {
    // docs/speedup-test.md §10.2: W = 24, exact p = 0.0079365 = 2/252
    let x = [2.799, 2.046, 1.259, 1.877, 2.244];
    let y = [1.046, 0.259, 0.877, 1.244, 1.799];
    let r = rank_sum(&x, &y, Alternative::Greater).expect("valid");
    assert_eq!(r.statistic, 24.0);
    assert_eq!(r.method, Method::Exact);
    assert!((r.p_value - 2.0 / 252.0).abs() < 1e-16);
}

#[test]
fn all_values_equal_is_constant() {
    let r = rank_sum(&[3.0, 3.0], &[3.0, 3.0, 3.0], Alternative::Greater);
    assert_eq!(r, Err(StatsError::Constant));
}

#[test]
fn non_finite_and_empty_inputs_are_rejected() {
    let nan = rank_sum(&[1.0, f64::NAN], &[2.0], Alternative::Less);
    assert_eq!(nan, Err(StatsError::NonFinite));
    let inf = rank_sum(&[1.0], &[f64::INFINITY], Alternative::Less);
    assert_eq!(inf, Err(StatsError::NonFinite));
    let empty = rank_sum(&[], &[1.0], Alternative::Less);
    assert_eq!(empty, Err(StatsError::TooFew { needed: 1, got: 0 }));
}

#[test]
fn exact_distribution_is_refused_beyond_49() {
    assert!(matches!(
        ExactRankSum::new(50, 3),
        Err(StatsError::TooMany { max: 49, got: 50 })
    ));
    assert!(matches!(
        ExactRankSum::new(3, 0),
        Err(StatsError::TooFew { .. })
    ));
}

#[test]
fn a_shared_table_is_built_once_and_is_the_table_of_its_sizes() {
    let first = ExactRankSum::shared(7, 9).expect("valid sizes");
    let again = ExactRankSum::shared(7, 9).expect("valid sizes");
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    assert_eq!(*first, ExactRankSum::new(7, 9).expect("valid sizes"));
    assert_eq!(
        ExactRankSum::shared(9, 7).expect("valid sizes").sizes(),
        (9, 7)
    );
    assert!(matches!(
        ExactRankSum::shared(50, 3),
        Err(StatsError::TooMany { max: 49, got: 50 })
    ));
}

#[test]
fn small_exact_distribution_counts_arrangements() {
    // n = m = 2: the 6 arrangements give U = 0, 1, 2, 2, 3, 4.
    let d = ExactRankSum::new(2, 2).expect("valid sizes");
    let expected = [1.0, 1.0, 2.0, 1.0, 1.0].map(|c| c / 6.0);
    assert_eq!(d.pmf(), &expected);
    assert_eq!(d.p_upper(3.0), 2.0 / 6.0);
    assert_eq!(d.p_lower(1.0), 2.0 / 6.0);
    // non-integer W rounds towards the tail, out-of-range W saturates
    assert_eq!(d.p_upper(2.5), 2.0 / 6.0);
    assert_eq!(d.p_lower(1.5), 2.0 / 6.0);
    assert_eq!(d.p_upper(-1.0), 1.0);
    assert_eq!(d.p_upper(4.5), 0.0);
    assert_eq!(d.p_lower(-0.5), 0.0);
}

#[test]
fn exact_quantile_is_r_qwilcox() {
    // R: qwilcox(c(0.025, 0.05, 0.5, 0.975), 5, 5) = 3 5 12 22 ; qwilcox(0.05, 3, 3) = 0 (P(U <= 0) = 1/20)
    let d = ExactRankSum::new(5, 5).expect("valid sizes");
    let q: Vec<usize> = [0.025, 0.05, 0.5, 0.975].map(|p| d.quantile(p)).to_vec();
    assert_eq!(q, vec![3, 5, 12, 22]);
    assert_eq!(
        ExactRankSum::new(3, 3).expect("valid").quantile(0.1 / 2.0),
        0
    );
}

#[test]
fn largest_exact_tail_is_one_over_the_binomial() {
    // P(W >= 2401) at 49 x 49 is 1 / C(98, 49) = 1 / 25477612258980856902730428600
    let d = ExactRankSum::new(49, 49).expect("valid sizes");
    let expected = 1.0 / 25_477_612_258_980_856_902_730_428_600.0;
    assert_rel("49x49", "P(W = nm)", d.p_upper(2401.0), expected, 1e-15);
}

#[test]
fn exact_and_approximate_converge_at_45_by_45() {
    let d = ExactRankSum::new(45, 45).expect("valid sizes");
    for w in [900.0, 1000.0, 1100.0, 1200.0] {
        let exact = d.p_upper(w);
        let approx = normal_p_value(w, 45, 45, 0.0, Alternative::Greater).expect("valid");
        assert!(
            (exact - approx).abs() < 3e-3,
            "W = {w}: {exact} vs {approx}"
        );
    }
}

/// Samples mixing continuous values with a few integers, so that ties occur and both methods are exercised.
fn sample(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    let value = prop_oneof![3 => -1e3f64..1e3, 1 => (-3i32..3).prop_map(f64::from)];
    prop::collection::vec(value, 1..max_len)
}

/// Mann & Whitney's (1947) recursion c(u; n, m) = c(u − m; n − 1, m) + c(u; n, m − 1), as a reference.
fn mann_whitney_counts(n: usize, m: usize) -> Vec<f64> {
    if n == 0 || m == 0 {
        return vec![1.0];
    }
    let mut counts = vec![0.0; n * m + 1];
    for (u, c) in mann_whitney_counts(n - 1, m).iter().enumerate() {
        counts[u + m] += c;
    }
    for (u, c) in mann_whitney_counts(n, m - 1).iter().enumerate() {
        counts[u] += c;
    }
    counts
}

proptest! {
    #[test]
    fn exact_pmf_is_mann_whitney_recursion(n in 1usize..8, m in 1usize..8) {
        let counts = mann_whitney_counts(n, m);
        let total: f64 = counts.iter().sum();
        let pmf = ExactRankSum::new(n, m).expect("valid sizes");
        for (u, c) in counts.iter().enumerate() {
            prop_assert!((pmf.pmf()[u] - c / total).abs() < 1e-15, "u = {}", u);
        }
    }

    #[test]
    fn exact_pmf_sums_to_one_and_is_symmetric(n in 1usize..50, m in 1usize..50) {
        let d = ExactRankSum::new(n, m).expect("valid sizes");
        let pmf = d.pmf();
        let total: f64 = pmf.iter().sum();
        prop_assert!((total - 1.0).abs() < 1e-12);
        for u in 0..pmf.len() {
            prop_assert_eq!(pmf[u], pmf[pmf.len() - 1 - u]);
        }
    }

    #[test]
    fn p_values_lie_in_the_unit_interval(x in sample(60), y in sample(60)) {
        for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
            if let Ok(r) = rank_sum(&x, &y, alt) {
                prop_assert!((0.0..=1.0).contains(&r.p_value), "{:?}: {}", alt, r.p_value);
            }
        }
    }

    #[test]
    fn swapping_samples_swaps_the_alternative(x in sample(60), y in sample(60)) {
        for alt in [Alternative::TwoSided, Alternative::Greater] {
            let (Ok(a), Ok(b)) = (rank_sum(&x, &y, alt), rank_sum(&y, &x, alt.swapped())) else {
                continue;
            };
            prop_assert!((a.p_value - b.p_value).abs() <= 1e-14 * a.p_value.max(1e-300));
        }
    }

    #[test]
    fn increasing_transforms_leave_the_test_unchanged(x in sample(60), y in sample(60)) {
        let scale = |v: &[f64], f: fn(f64) -> f64| v.iter().map(|&t| f(t / 1e3)).collect::<Vec<_>>();
        let base = rank_sum(&x, &y, Alternative::Greater);
        for f in [f64::exp as fn(f64) -> f64, |t: f64| t * t * t] {
            // f(t/1000) is strictly increasing on [-1, 1] and keeps distinct values distinct in f64
            let (fx, fy) = (scale(&x, f), scale(&y, f));
            let mut pooled: Vec<f64> = x.iter().chain(&y).copied().collect();
            let mut fpooled: Vec<f64> = fx.iter().chain(&fy).copied().collect();
            pooled.sort_by(f64::total_cmp);
            fpooled.sort_by(f64::total_cmp);
            pooled.dedup();
            fpooled.dedup();
            prop_assume!(pooled.len() == fpooled.len());
            prop_assert_eq!(&base, &rank_sum(&fx, &fy, Alternative::Greater));
        }
    }
}

#[test]
fn the_smallest_p_value_is_one_over_the_binomial_coefficient() {
    // R: wilcox.test(c(2), c(1), "greater")$p.value = 0.5, wilcox.test(c(3,4), c(1,2), "greater") = 1/6,
    // wilcox.test(4:6, 1:3, "greater") = 0.05.
    assert_eq!(smallest_p_value(1, 1), 0.5);
    assert_eq!(smallest_p_value(3, 3), 1.0 / 20.0);
    assert!((smallest_p_value(5, 4) - 1.0 / 126.0).abs() < 1e-15);
    assert!(!can_reject(1, 1, 0.05));
    assert!(!can_reject(2, 2, 0.05));
    assert!(can_reject(2, 2, 0.2));
    assert!(can_reject(3, 3, 0.05));
    assert!(!can_reject(1, 18, 0.05));
    assert!(can_reject(1, 19, 0.05));
    assert!(can_reject(100, 100, 0.01));
}

#[test]
fn the_smallest_p_value_is_what_the_exact_test_gives_disjoint_samples() {
    for n in 1..=12 {
        for m in 1..=12 {
            let x: Vec<f64> = (0..n).map(|i| 100.0 + i as f64).collect();
            let y: Vec<f64> = (0..m).map(|j| j as f64).collect();
            let exact = rank_sum(&x, &y, Alternative::Greater).unwrap().p_value;
            let case = format!("{n} v {m}");
            assert_rel(&case, "p", smallest_p_value(n, m), exact, 1e-12);
        }
    }
}

/// The exact conditional p-values of x against y by listing every choice of n of the pooled midranks:
/// (P(W ≥ w), P(W ≤ w)), counting in halves so that the comparison is exact.
fn enumerated_tails(x: &[f64], y: &[f64]) -> (f64, f64) {
    let pooled: Vec<f64> = x.iter().chain(y).copied().collect();
    let doubled: Vec<i64> = midranks(&pooled)
        .ranks
        .iter()
        .map(|r| (2.0 * r) as i64)
        .collect();
    let n = x.len();
    let observed: i64 = doubled[..n].iter().sum();
    let (mut upper, mut lower, mut total) = (0u64, 0u64, 0u64);
    for mask in 0u32..(1 << pooled.len()) {
        if mask.count_ones() as usize != n {
            continue;
        }
        let sum: i64 = (0..pooled.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| doubled[i])
            .sum();
        total += 1;
        upper += u64::from(sum >= observed);
        lower += u64::from(sum <= observed);
    }
    (upper as f64 / total as f64, lower as f64 / total as f64)
}

proptest! {
    #[test]
    fn exact_tied_p_values_are_the_full_enumeration(
        x in prop::collection::vec(0u8..5, 1..8),
        y in prop::collection::vec(0u8..5, 1..8),
    ) {
        // Values from five levels: ties are the rule. Up to 14 pooled values, at most 3432 subsets.
        let x: Vec<f64> = x.into_iter().map(f64::from).collect();
        let y: Vec<f64> = y.into_iter().map(f64::from).collect();
        let (Ok(greater), Ok(less)) = (
            rank_sum_exact(&x, &y, Alternative::Greater),
            rank_sum_exact(&x, &y, Alternative::Less),
        ) else {
            // Only a constant pooled sample is refused.
            let pooled: Vec<f64> = x.iter().chain(&y).copied().collect();
            prop_assert!(pooled.iter().all(|v| *v == pooled[0]));
            return Ok(());
        };
        let (upper, lower) = enumerated_tails(&x, &y);
        prop_assert_eq!(greater.method, Method::Exact);
        prop_assert!((greater.p_value - upper).abs() < 1e-12, "{} vs {}", greater.p_value, upper);
        prop_assert!((less.p_value - lower).abs() < 1e-12, "{} vs {}", less.p_value, lower);
        // Two-sided: the tail on the observed side of nm/2, doubled (R's rule for its exact test).
        let two = rank_sum_exact(&x, &y, Alternative::TwoSided).expect("valid").p_value;
        let tail = if greater.statistic > (x.len() * y.len()) as f64 / 2.0 { upper } else { lower };
        prop_assert!((two - (2.0 * tail).min(1.0)).abs() < 1e-12);
    }

    #[test]
    fn without_ties_the_exact_variant_is_r_rule(x in prop::collection::vec(0.0f64..1.0, 1..30), y in prop::collection::vec(0.0f64..1.0, 1..30)) {
        let pooled: Vec<f64> = x.iter().chain(&y).copied().collect();
        prop_assume!(!midranks(&pooled).has_ties);
        for alt in [Alternative::Greater, Alternative::Less, Alternative::TwoSided] {
            prop_assert_eq!(rank_sum_exact(&x, &y, alt), rank_sum(&x, &y, alt));
        }
    }
}

#[test]
fn exact_tied_p_values_match_coin_and_fall_back_to_r_beyond_the_budget() {
    // fixtures/r/rank_sum_ties.R: coin::wilcox_test(distribution = "exact") one-sided p-values, and R's
    // wilcox.test (normal approximation) for the 49 v 49 case beyond the exact budget.
    let oracle = load("rank_sum_ties");
    let cases = oracle["cases"].as_array().expect("cases");
    assert!(cases.len() >= 40);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let x = numbers(&case["x"]);
        let y = numbers(&case["y"]);
        let alt = alternative(case["alternative"].as_str().expect("alternative"));
        let r = rank_sum_exact(&x, &y, alt).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.statistic, number(&case["statistic"]), "{name}: W");
        if case["beyond_budget"].as_bool().expect("flag") {
            assert_eq!(r.method, Method::Approximate, "{name}");
            assert_rel(name, "p", r.p_value, number(&case["p_normal"]), 1e-9);
        } else {
            assert_eq!(r.method, Method::Exact, "{name}");
            assert_rel(name, "p", r.p_value, number(&case["p_exact"]), 1e-9);
        }
        // R's rule is kept by rank_sum.
        let normal = rank_sum(&x, &y, alt).expect("valid").p_value;
        assert_rel(name, "R's p", normal, number(&case["p_normal"]), 1e-9);
    }
}

#[test]
fn the_exact_tied_table_is_refused_beyond_its_budget() {
    use crate::stats::rank_sum_ties::cost;
    // 25 v 25 fits (2.47e6 cell updates), 26 v 26 does not (2.89e6); 49 v 17 fits, 49 v 18 does not.
    assert!(cost(&[1; 50], 25) <= EXACT_TIES_BUDGET);
    assert!(cost(&[1; 52], 26) > EXACT_TIES_BUDGET);
    assert!(cost(&[1; 66], 49) <= EXACT_TIES_BUDGET);
    assert!(cost(&[1; 67], 49) > EXACT_TIES_BUDGET);
    assert!(TiedRankSum::new(&[1; 52], 26).is_none());
    assert!(TiedRankSum::new(&[2, 3], 0).is_none());
    // Without ties the tied table is the Gaussian-binomial one.
    let tied = TiedRankSum::new(&[1; 12], 5).expect("cheap");
    let untied = ExactRankSum::new(5, 7).expect("valid");
    for w in 0..=35 {
        assert_rel(
            "5 v 7",
            "upper",
            tied.p_upper(w as f64),
            untied.p_upper(w as f64),
            1e-13,
        );
        assert_rel(
            "5 v 7",
            "lower",
            tied.p_lower(w as f64),
            untied.p_lower(w as f64),
            1e-13,
        );
    }
}

/// The bits of a result, for equality tests of two paths.
fn result_bits(r: &StatsResult<RankSum>) -> Result<(u64, u64, u64, Method), StatsError> {
    r.clone().map(|r| {
        (
            r.statistic.to_bits(),
            r.p_value.to_bits(),
            r.p_x_greater.to_bits(),
            r.method,
        )
    })
}

#[test]
fn ranking_the_sorted_sides_gives_the_tests_of_the_pooled_ranks() {
    use crate::stats::sorted::{SortedVec, tests::awkward_samples, tests::pairs};
    let samples = awkward_samples();
    let mut pairs = pairs(&samples);
    pairs.push((&[], &[1.0]));
    pairs.push((&[1.0, f64::NAN], &[1.0]));
    let mut tied = 0;
    for (x, y) in pairs {
        let (sx, sy) = (SortedVec::of(x), SortedVec::of(y));
        for exact_ties in [false, true] {
            let (g, l) = rank_sum_one_sided_sorted(sx.as_sorted(), sy.as_sorted(), exact_ties);
            let (wg, wl) = rank_sum_one_sided(x, y, exact_ties);
            assert_eq!(result_bits(&g), result_bits(&wg), "{x:?} {y:?}");
            assert_eq!(result_bits(&l), result_bits(&wl), "{x:?} {y:?}");
        }
        tied += usize::from(!x.is_empty() && midranks(&[x, y].concat()).has_ties);
    }
    assert!(tied > 20, "{tied} tied pairs");
}
