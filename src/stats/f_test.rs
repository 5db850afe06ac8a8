//! The F-test of equal variances of two normal samples, as R's `var.test` (ratio = 1).
//!
//! The Speedup-Test's mean protocol (paper 000 §4.1, `docs/speedup-test.md` §2) runs it to choose between
//! Student's and Welch's t-test. This module only computes; it never decides.
//!
//! - H0: σx² = σy² (two-sided), σx² ≤ σy² (`Greater`), σx² ≥ σy² (`Less`).
//! - Assumptions: independent samples from normal populations. The test is very sensitive to
//!   non-normality, which is why the protocol runs Shapiro–Wilk first.
//! - F = s_x²/s_y² with df (n − 1, m − 1) (Snedecor's F; `docs/statistics.md` §2). `Greater` uses
//!   P(F_df ≥ F), `Less` P(F_df ≤ F), each from the incomplete beta function at its own argument (`tails`),
//!   two-sided min(1, 2·min of the two tails).
//! - The estimate is the variance ratio F; the confidence interval is [F/q(1 − β/2), F/q(β/2)] with q the
//!   F_df quantile and β = 1 − confidence; one-sided [F/q(confidence), ∞) and [0, F/q(1 − confidence)].
//! - Matches R `var.test(x, y, alternative)`: statistic, df, p-value, estimate and `conf.int`. One
//!   deliberate difference: R's two-sided p takes the upper tail as 1 − `pf`, which is 0 below about 1e-16,
//!   where this module keeps the exact small value of the upper tail.
//! - Needs n, m ≥ 2. Both samples constant: F is 0/0, [`StatsError::Constant`]. One sample constant is not an
//!   error: as in R, F is 0 (or +∞) and the p-value is 0 or 1, which says plainly that the variances differ
//!   (`docs/statistics.md` §2 calls both cases not applicable; the protocol may still treat them so).
//! - statrs' `FisherSnedecor::inverse_cdf` is accurate to only about 2e-9 (`docs/statistics.md` §8), so the
//!   quantiles of the interval are polished with Newton steps on the tail probability.

use statrs::distribution::{Continuous, ContinuousCDF, FisherSnedecor};

use super::describe::{mean_unchecked, sum_sq_dev};
use super::t_test::polish_upper_quantile;
use super::{Alternative, StatsError, StatsResult, check_pair};

/// The result of an F-test of equal variances, as R's `htest` from `var.test`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FTest {
    /// F = s_x²/s_y².
    pub statistic: f64,
    /// (n − 1, m − 1).
    pub df: (f64, f64),
    /// The p-value for `alternative`, in [0, 1].
    pub p_value: f64,
    /// The ratio of variances, equal to the statistic (R's `estimate`).
    pub estimate: f64,
    /// The alternative hypothesis the p-value answers.
    pub alternative: Alternative,
}

/// The F-test of equal variances of `x` and `y` (R `var.test(x, y, alternative = ...)`).
pub fn f_test(x: &[f64], y: &[f64], alternative: Alternative) -> StatsResult<FTest> {
    check_pair(x, y, 2)?;
    let df = ((x.len() - 1) as f64, (y.len() - 1) as f64);
    let vx = sum_sq_dev(x, mean_unchecked(x)) / df.0;
    let vy = sum_sq_dev(y, mean_unchecked(y)) / df.1;
    if vx == 0.0 && vy == 0.0 {
        return Err(StatsError::Constant);
    }
    let statistic = vx / vy;
    f_dist(df)?; // checks the degrees of freedom
    let (lower, upper) = tails(statistic, df);
    let p_value = alternative.p_from_tails(upper < lower, || upper, || lower);
    Ok(FTest {
        statistic,
        df,
        p_value: p_value.clamp(0.0, 1.0),
        estimate: statistic,
        alternative,
    })
}

/// P(F_df ≤ f) and P(F_df ≥ f), each from the regularized incomplete beta function at its own argument:
/// I_x(d1/2, d2/2) with x = d1·f/(d1·f + d2), and I_y(d2/2, d1/2) with y = d2/(d1·f + d2). statrs' `sf`
/// takes y as 1 − x, which keeps only about 1e-16/y of relative precision when F is large (at F = 7·10⁹
/// with df (1, 1) the upper tail came out 1e-6 off in relative terms, and `Greater` on (x, y) then
/// differed from `Less` on (y, x)); here each tail is computed without that subtraction.
fn tails(f: f64, (d1, d2): (f64, f64)) -> (f64, f64) {
    use statrs::function::beta::beta_reg;
    if f.is_infinite() {
        return (1.0, 0.0);
    }
    if f <= 0.0 {
        return (0.0, 1.0);
    }
    let denominator = d1 * f + d2;
    (
        beta_reg(d1 / 2.0, d2 / 2.0, (d1 * f / denominator).min(1.0)),
        beta_reg(d2 / 2.0, d1 / 2.0, (d2 / denominator).min(1.0)),
    )
}

impl FTest {
    /// The confidence interval of the variance ratio σx²/σy² at `confidence`, as `var.test`'s `conf.int`.
    ///
    /// A confidence outside (0, 1) is clamped: 1 or more (or NaN) gives [0, +∞), 0 or less the bare
    /// estimate.
    pub fn conf_int(&self, confidence: f64) -> (f64, f64) {
        if confidence.is_nan() || confidence >= 1.0 {
            return (0.0, f64::INFINITY);
        }
        let alpha = 1.0 - confidence.max(0.0);
        let Ok(dist) = f_dist(self.df) else {
            return (0.0, f64::INFINITY);
        };
        let ratio = |q: f64| self.estimate / f_upper_quantile(&dist, q);
        match self.alternative {
            Alternative::TwoSided => (ratio(alpha / 2.0), ratio(1.0 - alpha / 2.0)),
            Alternative::Greater => (ratio(alpha), f64::INFINITY),
            Alternative::Less => (0.0, ratio(1.0 - alpha)),
        }
    }
}

fn f_dist(df: (f64, f64)) -> StatsResult<FisherSnedecor> {
    FisherSnedecor::new(df.0, df.1).map_err(|_| StatsError::InvalidArgument("F distribution df"))
}

/// The f with P(F ≥ f) = q, polished from statrs' quantile in whichever tail is smaller.
fn f_upper_quantile(dist: &FisherSnedecor, q: f64) -> f64 {
    if q <= 0.0 {
        return f64::INFINITY;
    }
    if q >= 1.0 {
        return 0.0;
    }
    let start = dist.inverse_cdf(1.0 - q);
    let df = (dist.freedom_1(), dist.freedom_2());
    if q <= 0.5 {
        polish_upper_quantile(start, q, |f| tails(f, df).1, |f| dist.pdf(f))
    } else {
        // Lower tail: −cdf is decreasing with derivative −pdf, so the same Newton step applies.
        polish_upper_quantile(start, -(1.0 - q), |f| -tails(f, df).0, |f| dist.pdf(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{alternative, assert_rel, load, number, numbers};
    use proptest::prelude::*;

    #[test]
    fn matches_r_var_test_on_every_oracle_case() {
        let fixture = load("f_test");
        for case in fixture["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().expect("name");
            let (x, y) = (numbers(&case["x"]), numbers(&case["y"]));
            for want in case["tests"].as_array().expect("tests") {
                let alt = want["alternative"].as_str().expect("alternative");
                let label = format!("{name} {alt}");
                let got =
                    f_test(&x, &y, alternative(alt)).unwrap_or_else(|e| panic!("{label}: {e}"));
                assert_rel(
                    &label,
                    "F",
                    got.statistic,
                    number(&want["statistic"]),
                    1e-12,
                );
                assert_rel(
                    &label,
                    "estimate",
                    got.estimate,
                    number(&want["estimate"]),
                    1e-12,
                );
                let df = numbers(&want["df"]);
                assert_eq!((got.df.0, got.df.1), (df[0], df[1]), "{label}: df");
                assert_rel(&label, "p", got.p_value, number(&want["p_value"]), 1e-9);
                let levels = numbers(&want["conf_levels"]);
                for (level, ci) in levels
                    .iter()
                    .zip(want["conf_ints"].as_array().expect("cis"))
                {
                    let (lo, hi) = got.conf_int(*level);
                    let ci = numbers(ci);
                    assert_rel(&label, &format!("ci{level} lower"), lo, ci[0], 1e-9);
                    assert_rel(&label, &format!("ci{level} upper"), hi, ci[1], 1e-9);
                }
            }
        }
    }

    #[test]
    fn five_value_example_reproduces_the_paper() {
        // docs/speedup-test.md §10.1: var.test(X, Y) gives F = 1, df 4/4, p = 1, CI 0.1041175 9.6045299.
        let x = [2.799, 2.046, 1.259, 1.877, 2.244];
        let y = [1.046, 0.259, 0.877, 1.244, 1.799];
        let f = f_test(&x, &y, Alternative::TwoSided).unwrap();
        assert!((f.statistic - 1.0).abs() < 1e-12 && f.df == (4.0, 4.0));
        assert!((f.p_value - 1.0).abs() < 1e-9);
        let (lo, hi) = f.conf_int(0.95);
        assert!((lo - 0.1041175).abs() < 5e-8 && (hi - 9.6045299).abs() < 5e-8);
    }

    #[test]
    fn both_samples_constant_is_an_error_not_a_nan() {
        let c = [2.0, 2.0, 2.0];
        assert_eq!(
            f_test(&c, &[5.0, 5.0], Alternative::TwoSided),
            Err(StatsError::Constant)
        );
    }

    #[test]
    fn one_constant_sample_gives_an_infinite_ratio_and_a_zero_p_value() {
        let f = f_test(&[1.0, 2.0, 4.0], &[3.0, 3.0], Alternative::TwoSided).unwrap();
        assert_eq!((f.statistic, f.p_value), (f64::INFINITY, 0.0));
        let g = f_test(&[1.0, 2.0, 4.0], &[3.0, 3.0], Alternative::Less).unwrap();
        assert_eq!(g.p_value, 1.0);
    }

    #[test]
    fn too_few_and_non_finite_inputs_are_rejected() {
        let two = [1.0, 2.0];
        let err = Err(StatsError::TooFew { needed: 2, got: 1 });
        assert_eq!(f_test(&[1.0], &two, Alternative::Greater), err);
        assert_eq!(
            f_test(&two, &[f64::NAN, 1.0], Alternative::Less),
            Err(StatsError::NonFinite)
        );
    }

    #[test]
    fn confidence_outside_the_unit_interval_never_gives_nan() {
        let f = f_test(&[1.0, 2.0, 4.0], &[0.5, 1.0, 1.7], Alternative::TwoSided).unwrap();
        assert_eq!(f.conf_int(f64::NAN), (0.0, f64::INFINITY));
        assert_eq!(f.conf_int(2.0), (0.0, f64::INFINITY));
        let (lo, hi) = f.conf_int(0.0);
        assert!((lo / f.estimate - 1.0).abs() < 1e-9 && (hi / f.estimate - 1.0).abs() < 1e-9);
    }

    /// F = 6.7e9 on (1, 1) df, where the upper tail taken through 1 − x kept only about six digits. R 4.2.2:
    /// `var.test(c(0, -942.4986676271354), c(-624.8678876735407, -624.8563980168179), alternative =
    /// "greater")$p.value` is 7.7607989256156529e-06, and the same with the samples swapped and "less" is
    /// 7.7607989255884665e-06 (R's two computations differ by 3.5e-12 relative).
    #[test]
    fn a_far_upper_tail_matches_r_both_ways() {
        let (x, y) = (
            [0.0, -942.4986676271354],
            [-624.8678876735407, -624.8563980168179],
        );
        let greater = f_test(&x, &y, Alternative::Greater).unwrap().p_value;
        let less = f_test(&y, &x, Alternative::Less).unwrap().p_value;
        for p in [greater, less] {
            assert!((p / 7.760_798_925_615_653e-6 - 1.0).abs() < 1e-10, "{p:e}");
        }
    }

    fn sample() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(-1e3..1e3f64, 2..40)
    }

    proptest! {
        #[test]
        fn p_values_lie_in_the_unit_interval(x in sample(), y in sample()) {
            for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
                if let Ok(f) = f_test(&x, &y, alt) {
                    prop_assert!((0.0..=1.0).contains(&f.p_value));
                }
            }
        }

        #[test]
        fn swapping_samples_swaps_greater_and_less(x in sample(), y in sample()) {
            if let (Ok(a), Ok(b)) = (f_test(&x, &y, Alternative::Greater), f_test(&y, &x, Alternative::Less)) {
                prop_assert!((a.p_value - b.p_value).abs() <= 1e-9 * a.p_value.max(1e-300));
            }
        }

        #[test]
        fn a_common_shift_leaves_f_unchanged(x in sample(), y in sample(), shift in -1e3..1e3f64) {
            let xs: Vec<f64> = x.iter().map(|v| v + shift).collect();
            let ys: Vec<f64> = y.iter().map(|v| v + shift).collect();
            if let (Ok(a), Ok(b)) = (f_test(&x, &y, Alternative::TwoSided), f_test(&xs, &ys, Alternative::TwoSided)) {
                prop_assert!((a.statistic - b.statistic).abs() <= 1e-8 * a.statistic);
            }
        }
    }
}
