//! Descriptive statistics with R's definitions: mean, variance (n − 1), median, type-7 quantile, min.
//!
//! The protocols report speedups as ratios of these values (`docs/speedup-test.md` §1: spmean, spmedian, spmin)
//! and centre samples on the median before Kolmogorov–Smirnov (`docs/statistics.md` §4), so they must agree with
//! R's `mean`, `var`, `median`, `quantile` and `min` to the last digits. Nothing here decides or tests.
//!
//! Definitions:
//! - mean: x̄ = Σx/n, refined by one correction pass x̄ + Σ(x − x̄)/n, as R's `mean` does, so that samples
//!   with a large mean and a tiny spread lose no digits.
//! - variance: Σ(x − x̄)²/(n − 1) with the refined mean (two-pass; never the one-pass Σx² − n·x̄²).
//! - median: the middle order statistic for odd n and (x_(n/2) + x_(n/2+1))/2 for even n
//!   (`docs/speedup-test.md` §1, R `median`).
//! - quantile: Hyndman & Fan (1996, *Am. Stat.* 50:361–365) type 7, R's default: with h = (n − 1)p,
//!   lo = ⌊h⌋, the value (1 − f)·x_(lo+1) + f·x_(lo+2) where f = h − lo (1-based order statistics).
//!
//! Every function rejects NaN/infinite input ([`StatsError::NonFinite`]) and too-short input
//! ([`StatsError::TooFew`]); none panics.

use super::sorted::Sorted;
use super::{StatsError, StatsResult, check_finite, check_len};

/// Summary of one sample, with R's definitions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean, refined by R's correction pass.
    pub mean: f64,
    /// Sample variance with the n − 1 denominator; 0.0 when n == 1.
    pub variance: f64,
    /// Median: the middle value, or the mean of the two middle values for even n.
    pub median: f64,
}

/// Summary statistics of a sample of at least one finite value.
pub fn summarize(x: &[f64]) -> StatsResult<Summary> {
    check_finite(x)?;
    check_len(x, 1)?;
    Ok(summary(x, median(x)?))
}

/// [`summarize`] of `x` given `sorted`, the same values sorted: the median is read from the sorted copy
/// rather than selected from another. The same summary, bit for bit: selection by the total order puts at
/// n/2 the value the sorted copy has there, and for even n the largest of the lower half (by `f64::max`) can
/// differ from the sorted copy's x_(n/2) only in the sign of a zero, when x_(n/2+1) is at least +0.0, where
/// the sum of the two is the same +0.0 or positive value.
pub(crate) fn summarize_sorted(x: &[f64], sorted: Sorted<'_>) -> StatsResult<Summary> {
    check_finite(x)?;
    check_len(x, 1)?;
    debug_assert_eq!(x.len(), sorted.len());
    Ok(summary(x, median_sorted(sorted)))
}

/// The summary of non-empty finite `x` with its median.
fn summary(x: &[f64], median: f64) -> Summary {
    let mean = mean_unchecked(x);
    let variance = if x.len() > 1 {
        sum_sq_dev(x, mean) / (x.len() - 1) as f64
    } else {
        0.0
    };
    let (min, max) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    Summary {
        n: x.len(),
        min,
        max,
        mean,
        variance,
        median,
    }
}

/// The arithmetic mean (R `mean`), n >= 1.
pub fn mean(x: &[f64]) -> StatsResult<f64> {
    check_finite(x)?;
    check_len(x, 1)?;
    Ok(mean_unchecked(x))
}

/// The sample variance with the n − 1 denominator (R `var`), n >= 2.
pub fn variance(x: &[f64]) -> StatsResult<f64> {
    check_finite(x)?;
    check_len(x, 2)?;
    let m = mean_unchecked(x);
    Ok(sum_sq_dev(x, m) / (x.len() - 1) as f64)
}

/// The sample median (R `median`): even n gives the average of the two middle values.
pub fn median(x: &[f64]) -> StatsResult<f64> {
    check_finite(x)?;
    check_len(x, 1)?;
    let mut v = x.to_vec();
    let n = v.len();
    let (_, &mut hi, _) = v.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        return Ok(hi);
    }
    // The lower middle value is the largest of the lower half, which selection left before index n/2.
    let lo = v[..n / 2].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Ok((lo + hi) / 2.0)
}

/// The median of sorted non-empty values, as [`median`]: the middle value, or the mean of the two middle
/// values for even n.
pub(crate) fn median_sorted(sorted: Sorted<'_>) -> f64 {
    let v = sorted.values();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The type-7 sample quantile (R `quantile(x, p)`, the default type) for p in [0, 1].
pub fn quantile(x: &[f64], p: f64) -> StatsResult<f64> {
    check_finite(x)?;
    check_len(x, 1)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(StatsError::InvalidArgument(
            "quantile probability outside [0, 1]",
        ));
    }
    let mut v = x.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    let h = (v.len() - 1) as f64 * p;
    let lo = h.floor();
    let i = lo as usize;
    let f = h - lo;
    if f == 0.0 || i + 1 >= v.len() || v[i + 1] == v[i] {
        return Ok(v[i]);
    }
    Ok((1.0 - f) * v[i] + f * v[i + 1])
}

/// The smallest value (R `min`), n >= 1.
pub fn min(x: &[f64]) -> StatsResult<f64> {
    check_finite(x)?;
    check_len(x, 1)?;
    Ok(x.iter().copied().fold(f64::INFINITY, f64::min))
}

/// Mean with one correction pass; `x` is non-empty and finite.
pub(crate) fn mean_unchecked(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let correction = x.iter().map(|v| v - m).sum::<f64>() / n;
    m + correction
}

/// Σ(x − m)².
pub(crate) fn sum_sq_dev(x: &[f64], m: f64) -> f64 {
    x.iter().map(|v| (v - m) * (v - m)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{assert_rel, load, number, numbers};
    use proptest::prelude::*;

    #[test]
    fn matches_r_on_every_oracle_case() {
        let fixture = load("describe");
        for case in fixture["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().expect("name");
            let x = numbers(&case["x"]);
            let s = summarize(&x).expect("valid sample");
            assert_eq!(s.n, x.len(), "{name}: n");
            assert_rel(name, "mean", s.mean, number(&case["mean"]), 1e-14);
            assert_rel(name, "median", s.median, number(&case["median"]), 0.0);
            assert_rel(name, "min", s.min, number(&case["min"]), 0.0);
            assert_rel(name, "max", s.max, number(&case["max"]), 0.0);
            if x.len() > 1 {
                assert_rel(name, "var", s.variance, number(&case["var"]), 1e-12);
            }
            let probs = numbers(&case["probs"]);
            let quantiles = numbers(&case["quantiles"]);
            for (p, q) in probs.iter().zip(&quantiles) {
                let what = format!("quantile({p})");
                assert_rel(name, &what, quantile(&x, *p).expect("p"), *q, 1e-14);
            }
        }
    }

    #[test]
    fn speedup_test_five_value_ratios_match_paper() {
        // docs/speedup-test.md §10.1: spmean 1.956938, spmedian 1.956023, spmin 4.861004 (R, rounded to 7 digits).
        let x = [2.799, 2.046, 1.259, 1.877, 2.244];
        let y = [1.046, 0.259, 0.877, 1.244, 1.799];
        let r = |a: f64, b: f64| a / b;
        assert!((r(mean(&x).unwrap(), mean(&y).unwrap()) - 1.956938).abs() < 5e-7);
        assert!((r(median(&x).unwrap(), median(&y).unwrap()) - 1.956023).abs() < 5e-7);
        assert!((r(min(&x).unwrap(), min(&y).unwrap()) - 4.861004).abs() < 5e-7);
    }

    #[test]
    fn even_length_median_averages_the_middle_pair() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]).unwrap(), 2.5);
        assert_eq!(median(&[7.0]).unwrap(), 7.0);
    }

    #[test]
    fn single_value_has_zero_summary_variance_but_no_sample_variance() {
        let s = summarize(&[3.5]).unwrap();
        assert_eq!((s.variance, s.median, s.min, s.max), (0.0, 3.5, 3.5, 3.5));
        assert_eq!(
            variance(&[3.5]),
            Err(StatsError::TooFew { needed: 2, got: 1 })
        );
    }

    #[test]
    fn bad_input_is_an_error_not_a_nan() {
        assert_eq!(mean(&[]), Err(StatsError::TooFew { needed: 1, got: 0 }));
        assert_eq!(median(&[1.0, f64::NAN]), Err(StatsError::NonFinite));
        assert_eq!(summarize(&[f64::INFINITY]), Err(StatsError::NonFinite));
        assert!(matches!(
            quantile(&[1.0, 2.0], 1.5),
            Err(StatsError::InvalidArgument(_))
        ));
        assert!(matches!(
            quantile(&[1.0, 2.0], f64::NAN),
            Err(StatsError::InvalidArgument(_))
        ));
    }

    #[test]
    fn mean_keeps_digits_of_a_tiny_spread_around_a_large_mean() {
        // 1e9 + {1, 2, 3}: exact mean 1e9 + 2, exact variance 1.
        let x = [1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0];
        assert_eq!(mean(&x).unwrap(), 1e9 + 2.0);
        assert_eq!(variance(&x).unwrap(), 1.0);
    }

    #[test]
    fn the_summary_from_the_sorted_copy_is_the_summary() {
        use crate::stats::sorted::{SortedVec, tests::awkward_samples};
        let bits = |s: &Summary| [s.min, s.max, s.mean, s.variance, s.median].map(f64::to_bits);
        let mut even_zeros = 0;
        for x in awkward_samples() {
            let sorted = SortedVec::of(&x);
            let got = summarize_sorted(&x, sorted.as_sorted());
            let want = summarize(&x);
            match (&got, &want) {
                (Ok(g), Ok(w)) => {
                    assert_eq!((g.n, bits(g)), (w.n, bits(w)), "{x:?}");
                    even_zeros += usize::from(x.len() % 2 == 0 && g.median == 0.0);
                }
                _ => assert_eq!(got, want, "{x:?}"),
            }
        }
        // The case the doc's argument is about: an even sample whose middle values are zeros.
        assert!(even_zeros > 0);
        let x = [0.0, -0.0, 1.0, -0.0];
        let s = summarize_sorted(&x, SortedVec::of(&x).as_sorted()).unwrap();
        assert_eq!(s.median.to_bits(), summarize(&x).unwrap().median.to_bits());
        assert_eq!(
            summarize_sorted(&[], SortedVec::of(&[]).as_sorted()),
            summarize(&[])
        );
    }

    proptest! {
        #[test]
        fn median_is_the_type_7_half_quantile(x in prop::collection::vec(-1e6..1e6f64, 1..60)) {
            prop_assert_eq!(median(&x).unwrap(), quantile(&x, 0.5).unwrap());
        }

        #[test]
        fn quantiles_rise_from_min_to_max(
            x in prop::collection::vec(-1e6..1e6f64, 1..60), p in 0.0..1.0f64, q in 0.0..1.0f64
        ) {
            let s = summarize(&x).unwrap();
            let (lo, hi) = (quantile(&x, p.min(q)).unwrap(), quantile(&x, p.max(q)).unwrap());
            prop_assert!(s.min <= lo && lo <= hi && hi <= s.max);
            prop_assert_eq!((quantile(&x, 0.0).unwrap(), quantile(&x, 1.0).unwrap()), (s.min, s.max));
        }
    }
}
