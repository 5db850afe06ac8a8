//! Tests of the Hodges–Lehmann shift against R 4.2.2 (`fixtures/r/hodges_lehmann.R`) and its invariants.

use super::*;
use crate::testutil::oracle::{alternative, assert_rel, cases_of, number, numbers};
use proptest::prelude::*;
use serde_json::Value;

/// An interval function: [`hodges_lehmann`] or [`hodges_lehmann_ratio`].
pub(super) type Interval = fn(&[f64], &[f64], Alternative, f64) -> StatsResult<ShiftInterval>;

/// The oracle case's samples, alternative and level through `interval`, with the case's name.
pub(super) fn run_with(case: &Value, interval: Interval) -> (String, ShiftInterval) {
    let name = case["name"].as_str().expect("name").to_string();
    let x = numbers(&case["x"]);
    let y = numbers(&case["y"]);
    let alt = alternative(case["alternative"].as_str().expect("alternative"));
    let confidence = number(&case["confidence"]);
    let r = interval(&x, &y, alt, confidence).unwrap_or_else(|e| panic!("{name}: {e}"));
    (name, r)
}

fn run(case: &Value) -> (String, ShiftInterval) {
    run_with(case, hodges_lehmann)
}

fn oracle_cases(exact: bool) -> Vec<Value> {
    cases_of("hodges_lehmann", exact, 48)
}

/// A one-sided 50 % interval with nm odd: α = 1/2 is exactly a cumulative probability of the symmetric W.
fn exact_level_tie(case: &Value) -> bool {
    let nm = numbers(&case["x"]).len() * numbers(&case["y"]).len();
    number(&case["confidence"]) == 0.5 && case["alternative"] != "two.sided" && nm % 2 == 1
}

/// A one-sided 50 % interval in the approximate case: z = 0 exactly on the flat stretch where
/// W − nm/2 = ∓½, and R's root finder stops anywhere on it. Its ends are the neighbouring differences.
fn flat_stretch(case: &Value, ours: f64) -> Option<(f64, f64)> {
    if number(&case["confidence"]) != 0.5 || case["alternative"] == "two.sided" {
        return None;
    }
    let reference = sorted_differences(&numbers(&case["x"]), &numbers(&case["y"]));
    let before = reference.iter().rev().find(|&&d| d < ours).copied();
    let after = reference.iter().find(|&&d| d > ours).copied();
    Some((before.unwrap_or(ours), after.unwrap_or(ours)))
}

#[test]
fn exact_case_matches_r_to_the_last_bit() {
    for case in oracle_cases(true) {
        let (name, r) = run(&case);
        assert_eq!(r.method, Method::Exact, "{name}");
        assert_rel(
            &name,
            "estimate",
            r.estimate,
            number(&case["estimate"]),
            1e-12,
        );
        let (lower, upper) = (number(&case["lower"]), number(&case["upper"]));
        if exact_level_tie(&case) && (r.lower != lower || r.upper != upper) {
            // P(W <= (nm-1)/2) = 1/2 exactly: R's running float sum decides which side of the tie it
            // lands on; its bound is then the median itself
            let median = number(&case["median_of_differences"]);
            assert!(lower == median || upper == median, "{name}");
            continue;
        }
        assert_rel(&name, "lower", r.lower, lower, 1e-12);
        assert_rel(&name, "upper", r.upper, upper, 1e-12);
    }
}

/// R's `uniroot(tol = 1e-4)` is absolute: allow 1e-4 plus 1e-3 of the width of the two-sided 95 % interval.
fn r_tolerance(case: &Value) -> f64 {
    1e-4 + 1e-3 * number(&case["scale"])
}

#[test]
fn approximate_case_matches_r_root_finder_within_its_tolerance() {
    for case in oracle_cases(false) {
        let (name, r) = run(&case);
        assert_eq!(r.method, Method::Approximate, "{name}");
        let tol = r_tolerance(&case);
        for (what, ours, theirs) in [
            ("lower", r.lower, number(&case["lower"])),
            ("upper", r.upper, number(&case["upper"])),
        ] {
            let close = ours == theirs || (ours - theirs).abs() <= tol;
            let on_flat = flat_stretch(&case, ours)
                .is_some_and(|(before, after)| theirs >= before - tol && theirs <= after + tol);
            assert!(
                close || on_flat,
                "{name}: {what} = {ours}, R gives {theirs} (tol {tol:e})"
            );
        }
    }
}

#[test]
fn approximate_estimate_is_the_median_of_differences_where_r_finds_its_root() {
    for case in oracle_cases(false) {
        let (name, r) = run(&case);
        assert_rel(
            &name,
            "estimate",
            r.estimate,
            number(&case["median_of_differences"]),
            1e-12,
        );
        // R's uniroot stops anywhere on the flat stretch between the two middle differences
        let middle = numbers(&case["middle_differences"]);
        let tol = r_tolerance(&case);
        let theirs = number(&case["estimate"]);
        assert!(
            theirs >= middle[0] - tol && theirs <= middle[1] + tol,
            "{name}"
        );
    }
}

#[test]
fn bench2_interval_is_r_output() {
    // R: wilcox.test(X, Y, conf.int = TRUE)$conf.int = 0.078 1.922; estimate 1 (docs/speedup-test.md §10.1 data)
    let x = [2.799, 2.046, 1.259, 1.877, 2.244];
    let y = [1.046, 0.259, 0.877, 1.244, 1.799];
    let r = hodges_lehmann(&x, &y, Alternative::TwoSided, 0.95).expect("valid");
    assert_eq!(r.method, Method::Exact);
    assert!((r.estimate - 1.0).abs() < 1e-15);
    assert!((r.lower - 0.078).abs() < 1e-12 && (r.upper - 1.922).abs() < 1e-12);
}

#[test]
fn invalid_inputs_are_errors() {
    let two = Alternative::TwoSided;
    assert_eq!(
        hodges_lehmann(&[2.0, 2.0], &[2.0], two, 0.95),
        Err(StatsError::Constant)
    );
    assert_eq!(
        hodges_lehmann(&[], &[2.0], two, 0.95),
        Err(StatsError::TooFew { needed: 1, got: 0 })
    );
    assert_eq!(
        hodges_lehmann(&[1.0, f64::NAN], &[2.0], two, 0.95),
        Err(StatsError::NonFinite)
    );
    assert_eq!(
        hodges_lehmann(&[f64::MAX], &[-f64::MAX], two, 0.95),
        Err(StatsError::NonFinite)
    );
    for bad in [0.0, 1.0, f64::NAN, -0.5] {
        assert!(matches!(
            hodges_lehmann(&[1.0], &[2.0], two, bad),
            Err(StatsError::InvalidArgument(_))
        ));
    }
}

/// Reference order statistics by sorting every difference (quadratic; fine for the small test sizes).
fn sorted_differences(x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut d: Vec<f64> = x
        .iter()
        .flat_map(|a| y.iter().map(move |b| a - b))
        .collect();
    d.sort_by(f64::total_cmp);
    d
}

/// x ascending and y descending, as [`Differences::new`] takes them.
fn sorted_pair(x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let (mut x, mut y) = (x.to_vec(), y.to_vec());
    x.sort_by(f64::total_cmp);
    y.sort_by(|a, b| b.total_cmp(a));
    (x, y)
}

fn sample(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    let value = prop_oneof![3 => -1e3f64..1e3, 1 => (-4i32..4).prop_map(f64::from)];
    prop::collection::vec(value, 1..max_len)
}

proptest! {
    #[test]
    fn each_rows_counts_are_those_of_every_contrast_compared(
        x in sample(40),
        y in sample(40),
        at in 0usize..10_000,
        between in any::<bool>(),
        ratio in any::<bool>(),
    ) {
        // Ratios need positive values: the same samples moved above 0.
        let positive = |v: &[f64]| v.iter().map(|a| a.abs() + 0.5).collect::<Vec<f64>>();
        let (x, y, contrast) = if ratio {
            (positive(&x), positive(&y), Contrast::Ratio)
        } else {
            (x, y, Contrast::Difference)
        };
        let (xs, yd) = sorted_pair(&x, &y);
        let diffs = Differences::new(&xs, &yd, contrast).expect("finite");
        let mut all: Vec<f64> = xs.iter().flat_map(|&a| yd.iter().map(move |&b| contrast.of(a, b))).collect();
        all.sort_by(f64::total_cmp);
        // A contrast itself (ties on the pivot), or a value between two of them.
        let k = at % all.len();
        let pivot = if between && k + 1 < all.len() { (all[k] + all[k + 1]) / 2.0 } else { all[k] };
        let (mut below, mut at_most) = (vec![0; xs.len()], vec![0; xs.len()]);
        let totals = diffs.count(pivot, &mut below, &mut at_most);
        for (i, &a) in xs.iter().enumerate() {
            let row: Vec<f64> = yd.iter().map(|&b| contrast.of(a, b)).collect();
            prop_assert_eq!(below[i], row.iter().filter(|&&d| d < pivot).count(), "row {}", i);
            prop_assert_eq!(at_most[i], row.iter().filter(|&&d| d <= pivot).count(), "row {}", i);
        }
        prop_assert_eq!(totals, (below.iter().sum::<usize>(), at_most.iter().sum::<usize>()));
        // Two pivots in one walk: each one's counts as alone, whichever comes first.
        let other = all[(k * 7 + 3) % all.len()];
        let n = xs.len();
        let (mut other_below, mut other_at_most) = (vec![0; n], vec![0; n]);
        let other_totals = diffs.count(other, &mut other_below, &mut other_at_most);
        for (pair, alone) in [
            ([pivot, other], [(&below, &at_most, totals), (&other_below, &other_at_most, other_totals)]),
            ([other, pivot], [(&other_below, &other_at_most, other_totals), (&below, &at_most, totals)]),
        ] {
            let mut counts = [(vec![0; n], vec![0; n]), (vec![0; n], vec![0; n])];
            let together = diffs.count_each(&pair, &mut counts);
            for (p, (b, a, t)) in alone.into_iter().enumerate() {
                prop_assert_eq!(&counts[p].0, b);
                prop_assert_eq!(&counts[p].1, a);
                prop_assert_eq!(together[p], t);
            }
        }
    }

    #[test]
    fn selection_agrees_with_sorting_every_difference(x in sample(70), y in sample(70)) {
        let (xs, yd) = sorted_pair(&x, &y);
        let diffs = Differences::new(&xs, &yd, Contrast::Difference).expect("finite");
        let reference = sorted_differences(&x, &y);
        let step = (reference.len() / 17).max(1);
        for k in (1..=reference.len()).step_by(step).chain([reference.len()]) {
            prop_assert_eq!(diffs.select(k), reference[k - 1], "k = {}", k);
        }
        let len = reference.len();
        let median = if len % 2 == 1 {
            reference[len / 2]
        } else {
            (reference[len / 2 - 1] + reference[len / 2]) / 2.0
        };
        prop_assert_eq!(diffs.median(), median);
    }

    #[test]
    fn interval_ends_are_ordered_differences(x in sample(70), y in sample(70), level in 0.5f64..0.999) {
        for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
            let Ok(r) = hodges_lehmann(&x, &y, alt, level) else { continue };
            let reference = sorted_differences(&x, &y);
            prop_assert!(r.lower <= r.estimate && r.estimate <= r.upper, "{:?}", r);
            for end in [r.lower, r.upper].into_iter().filter(|e| e.is_finite()) {
                prop_assert!(reference.contains(&end));
            }
        }
    }

    #[test]
    fn estimate_is_shift_equivariant(x in sample(60), y in sample(60), shift in -8i32..8) {
        // a power-of-two shift keeps every difference exact, so the equivariance holds bit for bit
        let shift = f64::from(shift) * 0.25;
        let moved: Vec<f64> = x.iter().map(|v| v + shift).collect();
        let (Ok(a), Ok(b)) = (
            hodges_lehmann(&x, &y, Alternative::TwoSided, 0.95),
            hodges_lehmann(&moved, &y, Alternative::TwoSided, 0.95),
        ) else {
            return Ok(());
        };
        prop_assert!((b.estimate - (a.estimate + shift)).abs() <= 1e-9 * (1.0 + a.estimate.abs()));
        // the interval moves too, unless rounding x + shift created or removed a tie with y
        if a.method == Method::Exact && b.method == Method::Exact {
            prop_assert!((b.lower - (a.lower + shift)).abs() <= 1e-9 * (1.0 + a.lower.abs()));
            prop_assert!((b.upper - (a.upper + shift)).abs() <= 1e-9 * (1.0 + a.upper.abs()));
        }
    }

    #[test]
    fn both_intervals_at_once_are_each_alone(x in sample(70), y in sample(70), level in 0.5f64..0.999) {
        // positive samples for the ratio too, and the sign-mixed ones for its error
        let positive: Vec<f64> = x.iter().map(|v| v.abs() + 0.5).collect();
        for (a, b) in [(&x, &y), (&positive, &y), (&positive, &positive)] {
            for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
                let (shift, ratio) = hodges_lehmann_both(a, b, alt, level);
                prop_assert_eq!(shift, hodges_lehmann(a, b, alt, level));
                prop_assert_eq!(ratio, hodges_lehmann_ratio(a, b, alt, level));
            }
        }
    }

    #[test]
    fn swapping_samples_negates_the_interval(x in sample(60), y in sample(60)) {
        let (Ok(a), Ok(b)) = (
            hodges_lehmann(&x, &y, Alternative::Greater, 0.9),
            hodges_lehmann(&y, &x, Alternative::Less, 0.9),
        ) else {
            return Ok(());
        };
        prop_assert_eq!(a.estimate, -b.estimate);
        prop_assert_eq!(a.lower, -b.upper);
    }
}

/// The pivots (a sample's quantiles, interpolation, the weighted median of row medians as a fallback) find
/// the same order statistics as sorting, on samples larger than the property tests', with many ties, with
/// a range that overflows when interpolated, and for ratios.
#[test]
fn selection_agrees_with_sorting_on_large_tied_and_extreme_samples() {
    let mut rng = crate::stats::random::SplitMix64::new(17);
    let normal = |rng: &mut crate::stats::random::SplitMix64, n: usize| -> Vec<f64> {
        (0..n).map(|_| 1e3 * (0.02 * rng.normal()).exp()).collect()
    };
    let tied: Vec<f64> = (0..300).map(|i| f64::from(i % 7)).collect();
    let cases: Vec<(Vec<f64>, Vec<f64>)> = vec![
        (normal(&mut rng, 200), normal(&mut rng, 150)),
        (tied.clone(), tied.iter().map(|v| v * 2.0).collect()),
        (
            vec![-8e307, -1.0, 0.0, 1.0, 2.0, 3.0, 8e307],
            vec![-8e307, 0.5, 1.5, 8e307, 4.0, 5.0],
        ),
    ];
    for (x, y) in &cases {
        let (xs, yd) = sorted_pair(x, y);
        let diffs = Differences::new(&xs, &yd, Contrast::Difference).expect("finite");
        let reference = sorted_differences(x, y);
        for k in (1..=reference.len()).step_by(reference.len() / 50 + 1) {
            assert_eq!(diffs.select(k), reference[k - 1], "k = {k}");
        }
    }
    let (x, y) = (normal(&mut rng, 120), normal(&mut rng, 90));
    let (xs, yd) = sorted_pair(&x, &y);
    let ratios = Differences::new(&xs, &yd, Contrast::Ratio).expect("positive");
    let mut reference: Vec<f64> = x
        .iter()
        .flat_map(|a| y.iter().map(move |b| a / b))
        .collect();
    reference.sort_by(f64::total_cmp);
    for k in (1..=reference.len()).step_by(97) {
        assert_eq!(ratios.select(k), reference[k - 1], "k = {k}");
    }
}

/// [`hodges_lehmann_both`] keeps each interval's own errors, checked in the same order as alone: a constant
/// negative sample is Constant for the shift and not positive for the ratio.
#[test]
fn both_intervals_keep_each_ones_errors() {
    let two = Alternative::TwoSided;
    let cases: [(&[f64], &[f64], f64); 6] = [
        (&[2.0, 2.0], &[2.0], 0.95),
        (&[-1.0, -1.0], &[-1.0], 0.95),
        (&[f64::MAX], &[-f64::MAX], 0.95),
        (&[f64::MAX], &[f64::MIN_POSITIVE], 0.95),
        (&[], &[1.0], 0.95),
        (&[1.0], &[2.0], 1.5),
    ];
    for (x, y, level) in cases {
        let (shift, ratio) = hodges_lehmann_both(x, y, two, level);
        assert_eq!(shift, hodges_lehmann(x, y, two, level), "{x:?} {y:?}");
        assert_eq!(ratio, hodges_lehmann_ratio(x, y, two, level), "{x:?} {y:?}");
    }
    let (shift, ratio) = hodges_lehmann_both(&[-1.0, -1.0], &[-1.0], two, 0.95);
    assert_eq!(shift, Err(StatsError::Constant));
    assert!(matches!(ratio, Err(StatsError::InvalidArgument(_))));
    let (_, ratio) = hodges_lehmann_both(&[f64::MAX], &[f64::MIN_POSITIVE], two, 0.95);
    assert_eq!(ratio, Err(StatsError::NonFinite));
}

/// Merging the grid's rows gives the vector that a sort gives: on ascending rows of every width, with ties
/// and signed zeros, and on rows that are not ascending (where it falls back to the sort).
#[test]
fn sorted_rows_is_the_sort() {
    let mut rng = crate::stats::random::SplitMix64::new(5);
    for width in 1..=16 {
        for rows in 1..=16 {
            let mut values = Vec::with_capacity(width * rows);
            for _ in 0..width * rows {
                let (u, v) = (rng.uniform(), 4.0 * rng.uniform() - 2.0);
                values.push(match (u * 4.0) as usize {
                    0 => -0.0,
                    1 => 0.0,
                    2 => v.floor(),
                    _ => v,
                });
            }
            let shuffled = values.clone();
            for row in values.chunks_mut(width) {
                row.sort_by(f64::total_cmp);
            }
            let mut reference = values.clone();
            reference.sort_by(f64::total_cmp);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
            assert_eq!(bits(&sorted_rows(values, width)), bits(&reference));
            assert_eq!(bits(&sorted_rows(shuffled, width)), bits(&reference));
        }
    }
}

/// The construction the sorted entry points replace: each sample copied and sorted on its own, x ascending,
/// y by the reversed total order.
fn ranked_by_sorting(x: &[f64], y: &[f64], alternative: Alternative, confidence: f64) -> Ranked {
    let mut sorted_x = x.to_vec();
    let mut y_desc = y.to_vec();
    sorted_x.sort_unstable_by(f64::total_cmp);
    y_desc.sort_unstable_by(|a, b| b.total_cmp(a));
    let ranks = ranks(&sorted_x, &y_desc, alternative, 1.0 - confidence);
    Ranked {
        x: sorted_x,
        y_desc,
        ranks,
    }
}

#[test]
fn intervals_of_sorted_sides_are_those_of_sorting_each_side() {
    use crate::stats::sorted::SortedVec;
    use crate::stats::sorted::tests::{awkward_and_positive_samples, pairs};
    let bits = |r: StatsResult<ShiftInterval>| {
        r.map(|i| {
            (
                i.estimate.to_bits(),
                i.lower.to_bits(),
                i.upper.to_bits(),
                i.method,
            )
        })
    };
    let samples = awkward_and_positive_samples();
    let mut finite = 0;
    for (x, y) in pairs(&samples) {
        let (sx, sy) = (SortedVec::of(x), SortedVec::of(y));
        for (alternative, confidence) in [
            (Alternative::TwoSided, 0.95),
            (Alternative::Greater, 0.9),
            (Alternative::Less, 0.5),
        ] {
            let want = ranked_by_sorting(x, y, alternative, confidence);
            let (x_s, y_s) = (sx.as_sorted(), sy.as_sorted());
            let (shift, ratio) = hodges_lehmann_both_sorted(x_s, y_s, alternative, confidence);
            let want_shift = want.interval(Contrast::Difference);
            finite += usize::from(want_shift.is_ok());
            assert_eq!(bits(shift), bits(want_shift.clone()), "{x:?} {y:?}");
            assert_eq!(
                bits(ratio),
                bits(want.interval(Contrast::Ratio)),
                "{x:?} {y:?}"
            );
            let ends = hodges_lehmann_ends_sorted(x_s, y_s, alternative, confidence);
            let want_ends = want_shift.map(|i| (i.lower, i.upper));
            assert_eq!(
                ends.map(|(l, u)| (l.to_bits(), u.to_bits())),
                want_ends.map(|(l, u)| (l.to_bits(), u.to_bits())),
                "{x:?} {y:?}"
            );
            let public = hodges_lehmann(x, y, alternative, confidence);
            assert_eq!(bits(public), bits(want.interval(Contrast::Difference)));
        }
    }
    assert!(finite > 100, "{finite} intervals computed");
}
