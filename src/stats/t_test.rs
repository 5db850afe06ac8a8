//! Two-sample t-tests of the difference of means: Student (equal variances) and Welch, as R's `t.test`.
//!
//! The Speedup-Test's mean protocol (paper 000 §4.1, `docs/speedup-test.md` §2) ends with one of these, chosen
//! by the F-test: Student when the variances look equal, Welch otherwise. This module only computes; it
//! never decides.
//!
//! - H0: μx = μy (two-sided), μx ≤ μy (`Greater`), μx ≥ μy (`Less`); x is BASE, y is HEAD, so `Greater`
//!   means HEAD is faster.
//! - Assumptions: independent samples from normal populations (or large samples, by the central limit
//!   theorem); Student also assumes equal variances.
//! - Student (Gosset 1908): s_p² = ((n−1)s_x² + (m−1)s_y²)/(n+m−2), se = s_p·√(1/n + 1/m), df = n+m−2.
//! - Welch (1947), with the Satterthwaite (1946) df: se² = s_x²/n + s_y²/m,
//!   df = se⁴ / [(s_x²/n)²/(n−1) + (s_y²/m)²/(m−1)], real-valued.
//! - t = (x̄ − ȳ)/se. Upper tails come from statrs' `StudentsT::sf`, never `1 − cdf`; the two-sided p is
//!   2·P(T ≥ |t|), from the smaller tail (`docs/statistics.md` §3).
//! - Matches R `t.test(x, y, alternative, var.equal)`: statistic, df, p-value, estimate (x̄ − ȳ), `stderr`
//!   and `conf.int`. Like R, Student accepts a sample of one value when the other has two or more
//!   (n + m ≥ 3; the single value contributes nothing to the pooled variance); Welch needs n, m ≥ 2.
//! - Constant data: R stops with "data are essentially constant" when se < 10·ε·max(|x̄|, |ȳ|); that case,
//!   and se = 0, is [`StatsError::Constant`].
//! - Limits: statrs' t tail is accurate to about 1e-10 relative. For df > 4·10⁵ R's `pt` switches to a
//!   normal approximation of the t tail; this module keeps the exact tail, so p may differ from R there by
//!   about 1e-11 relative (8e-12 at t = 6, df = 400 001).
//! - statrs' `StudentsT::inverse_cdf` is accurate only to about 1e-6 (`docs/statistics.md` §8): confidence bounds
//!   use closed forms for df = 1 and 2 and otherwise polish it with Newton steps on `sf`.

use statrs::distribution::{Continuous, ContinuousCDF, StudentsT};

use super::describe::{mean_unchecked, sum_sq_dev};
use super::{Alternative, StatsError, StatsResult, check_pair};

/// The result of a two-sample t-test, as R's `htest`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TTest {
    /// t = (x̄ − ȳ)/se.
    pub statistic: f64,
    /// Degrees of freedom: n + m − 2 for Student, the real-valued Satterthwaite df for Welch.
    pub df: f64,
    /// The p-value for `alternative`, in [0, 1].
    pub p_value: f64,
    /// x̄ − ȳ (BASE − HEAD).
    pub estimate: f64,
    /// se, the standard error of x̄ − ȳ (R's `stderr`).
    pub std_error: f64,
    /// The alternative hypothesis the p-value answers.
    pub alternative: Alternative,
}

/// Student's two-sample t-test with pooled variance (R `t.test(x, y, var.equal = TRUE)`).
pub fn student(x: &[f64], y: &[f64], alternative: Alternative) -> StatsResult<TTest> {
    check_pair(x, y, 1)?;
    let (n, m) = (x.len() as f64, y.len() as f64);
    if x.len() + y.len() < 3 {
        return Err(StatsError::TooFew {
            needed: 3,
            got: x.len() + y.len(),
        });
    }
    let (mx, my) = (mean_unchecked(x), mean_unchecked(y));
    let df = n + m - 2.0;
    let pooled = (sum_sq_dev(x, mx) + sum_sq_dev(y, my)) / df;
    let std_error = (pooled * (1.0 / n + 1.0 / m)).sqrt();
    finish(mx, my, std_error, df, alternative)
}

/// Welch's two-sample t-test with the Satterthwaite df (R `t.test(x, y)`, the default).
pub fn welch(x: &[f64], y: &[f64], alternative: Alternative) -> StatsResult<TTest> {
    check_pair(x, y, 2)?;
    let (n, m) = (x.len() as f64, y.len() as f64);
    let (mx, my) = (mean_unchecked(x), mean_unchecked(y));
    let sx2 = sum_sq_dev(x, mx) / (n - 1.0) / n;
    let sy2 = sum_sq_dev(y, my) / (m - 1.0) / m;
    let se2 = sx2 + sy2;
    let df = se2 * se2 / (sx2 * sx2 / (n - 1.0) + sy2 * sy2 / (m - 1.0));
    finish(mx, my, se2.sqrt(), df, alternative)
}

/// Statistic and p-value from the means, the standard error and the df.
fn finish(
    mx: f64,
    my: f64,
    std_error: f64,
    df: f64,
    alternative: Alternative,
) -> StatsResult<TTest> {
    if std_error == 0.0
        || std_error < 10.0 * f64::EPSILON * mx.abs().max(my.abs())
        || !df.is_finite()
    {
        return Err(StatsError::Constant);
    }
    let estimate = mx - my;
    let statistic = estimate / std_error;
    let dist = t_dist(df)?;
    let p_value = alternative.p_from_tails(
        statistic > 0.0,
        || dist.sf(statistic),
        || dist.sf(-statistic),
    );
    Ok(TTest {
        statistic,
        df,
        p_value: p_value.clamp(0.0, 1.0),
        estimate,
        std_error,
        alternative,
    })
}

impl TTest {
    /// The confidence interval of μx − μy at `confidence`, as `t.test(..., conf.level)`'s `conf.int`.
    ///
    /// Two-sided: estimate ± t_{1−α/2}·se; `Greater`: [estimate − t_{1−α}·se, +∞); `Less`:
    /// (−∞, estimate + t_{1−α}·se], with α = 1 − confidence. A confidence outside (0, 1) is clamped: 1 or
    /// more (or NaN) gives (−∞, +∞), 0 or less the bare estimate.
    pub fn conf_int(&self, confidence: f64) -> (f64, f64) {
        if confidence.is_nan() || confidence >= 1.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let alpha = 1.0 - confidence.max(0.0);
        let q = match self.alternative {
            Alternative::TwoSided => alpha / 2.0,
            Alternative::Greater | Alternative::Less => alpha,
        };
        let half = t_upper_quantile(self.df, q) * self.std_error;
        match self.alternative {
            Alternative::TwoSided => (self.estimate - half, self.estimate + half),
            Alternative::Greater => (self.estimate - half, f64::INFINITY),
            Alternative::Less => (f64::NEG_INFINITY, self.estimate + half),
        }
    }
}

fn t_dist(df: f64) -> StatsResult<StudentsT> {
    StudentsT::new(0.0, 1.0, df).map_err(|_| StatsError::InvalidArgument("t distribution df"))
}

/// The t with P(T_df ≥ t) = q, for q in [0, 1] (±∞ at the ends).
pub(crate) fn t_upper_quantile(df: f64, q: f64) -> f64 {
    if q <= 0.0 {
        return f64::INFINITY;
    }
    if q >= 1.0 {
        return f64::NEG_INFINITY;
    }
    if q > 0.5 {
        return -t_upper_quantile(df, 1.0 - q);
    }
    if df == 1.0 {
        return 1.0 / (std::f64::consts::PI * q).tan();
    }
    if df == 2.0 {
        return (1.0 - 2.0 * q) / (2.0 * q * (1.0 - q)).sqrt();
    }
    let Ok(dist) = StudentsT::new(0.0, 1.0, df) else {
        return f64::NAN;
    };
    let start = -dist.inverse_cdf(q);
    polish_upper_quantile(start, q, |t| dist.sf(t), |t| dist.pdf(t))
}

/// Newton steps on sf(t) = q from a close start, for a decreasing survival function with density `pdf`.
///
/// Each step is kept only if it reduces the residual, so a poor density or a rough start cannot make the
/// result worse than the start.
pub(crate) fn polish_upper_quantile(
    start: f64,
    q: f64,
    sf: impl Fn(f64) -> f64,
    pdf: impl Fn(f64) -> f64,
) -> f64 {
    let mut t = start;
    let mut residual = sf(t) - q;
    for _ in 0..8 {
        let density = pdf(t);
        if residual == 0.0 || density.is_nan() || density <= 0.0 {
            break;
        }
        let next = t + residual / density;
        let next_residual = sf(next) - q;
        if !next.is_finite() || next_residual.abs() >= residual.abs() {
            break;
        }
        let done = (next - t).abs() <= 1e-15 * t.abs();
        (t, residual) = (next, next_residual);
        if done {
            break;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{alternative, assert_rel, load, number, numbers};
    use proptest::prelude::*;

    fn check_against_r(case: &str, got: &TTest, want: &serde_json::Value) {
        assert_rel(case, "t", got.statistic, number(&want["statistic"]), 1e-12);
        assert_rel(case, "df", got.df, number(&want["df"]), 1e-12);
        assert_rel(
            case,
            "estimate",
            got.estimate,
            number(&want["estimate"]),
            1e-12,
        );
        assert_rel(
            case,
            "stderr",
            got.std_error,
            number(&want["std_error"]),
            1e-12,
        );
        assert_rel(case, "p", got.p_value, number(&want["p_value"]), 1e-9);
        let levels = numbers(&want["conf_levels"]);
        for (level, ci) in levels
            .iter()
            .zip(want["conf_ints"].as_array().expect("cis"))
        {
            let (lo, hi) = got.conf_int(*level);
            let ci = numbers(ci);
            assert_rel(case, &format!("ci{level} lower"), lo, ci[0], 1e-9);
            assert_rel(case, &format!("ci{level} upper"), hi, ci[1], 1e-9);
        }
    }

    #[test]
    fn student_and_welch_match_r_t_test_on_every_oracle_case() {
        let fixture = load("t_test");
        for case in fixture["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().expect("name");
            let (x, y) = (numbers(&case["x"]), numbers(&case["y"]));
            for (kind, test) in [("student", student as fn(&_, &_, _) -> _), ("welch", welch)] {
                for want in case[kind].as_array().expect("alternatives") {
                    let alt = want["alternative"].as_str().expect("alternative");
                    let label = format!("{name} {kind} {alt}");
                    match test(&x, &y, alternative(alt)) {
                        Ok(got) => check_against_r(&label, &got, want),
                        Err(e) => panic!("{label}: {e}"),
                    }
                }
            }
        }
    }

    #[test]
    fn five_value_example_reproduces_the_paper() {
        // docs/speedup-test.md §10.1: t = 2.8238, df = 8, p = 0.01118206; 004's Welch CIs.
        let x = [2.799, 2.046, 1.259, 1.877, 2.244];
        let y = [1.046, 0.259, 0.877, 1.244, 1.799];
        let t = welch(&x, &y, Alternative::Greater).unwrap();
        assert!((t.statistic - 2.8238).abs() < 5e-5 && (t.df - 8.0).abs() < 1e-12);
        assert!((t.p_value - 0.01118206).abs() < 5e-9);
        assert!((t.conf_int(0.99).0 - -0.02574667).abs() < 5e-9);
        assert!((t.conf_int(0.95).0 - 0.3414632).abs() < 5e-8);
        let swapped = welch(&y, &x, Alternative::Greater).unwrap();
        assert!((swapped.conf_int(0.01).0 - 0.02574667).abs() < 5e-9);
    }

    #[test]
    fn quantile_is_exact_where_closed_forms_exist() {
        // R: sprintf("%.17g", qt(0.975, c(1, 2, 1e6, 2e4)))
        assert!((t_upper_quantile(1.0, 0.025) / 12.706204736174694 - 1.0).abs() < 1e-14);
        assert!((t_upper_quantile(2.0, 0.025) / 4.302_652_729_749_462 - 1.0).abs() < 1e-14);
        // Newton polishing where statrs alone is off by 6e-5 (1.959848 at df = 1e6).
        assert!((t_upper_quantile(1e6, 0.025) / 1.9599663568141066 - 1.0).abs() < 1e-10);
        assert!((t_upper_quantile(2e4, 0.025) / 1.9600826051581344 - 1.0).abs() < 1e-10);
    }

    #[test]
    fn constant_data_is_an_error_not_a_nan() {
        let c = [3.0, 3.0, 3.0];
        assert_eq!(
            welch(&c, &c, Alternative::Greater),
            Err(StatsError::Constant)
        );
        assert_eq!(
            student(&c, &[3.0, 3.0], Alternative::Less),
            Err(StatsError::Constant)
        );
        // R: "data are essentially constant" for a relative spread of 1e-16.
        let near = [1e6, 1e6 * (1.0 + f64::EPSILON)];
        assert_eq!(
            student(&near, &near, Alternative::TwoSided),
            Err(StatsError::Constant)
        );
        let zeros = [0.0, 0.0];
        assert_eq!(
            welch(&zeros, &zeros, Alternative::TwoSided),
            Err(StatsError::Constant)
        );
    }

    #[test]
    fn too_few_and_non_finite_inputs_are_rejected() {
        let two = [1.0, 2.0];
        assert_eq!(
            welch(&[1.0], &two, Alternative::Greater),
            Err(StatsError::TooFew { needed: 2, got: 1 })
        );
        assert_eq!(
            student(&[1.0], &[2.0], Alternative::Greater),
            Err(StatsError::TooFew { needed: 3, got: 2 })
        );
        assert_eq!(
            student(&[], &two, Alternative::Greater),
            Err(StatsError::TooFew { needed: 1, got: 0 })
        );
        assert_eq!(
            welch(&[1.0, f64::NAN], &two, Alternative::Less),
            Err(StatsError::NonFinite)
        );
        assert_eq!(
            student(&two, &[f64::INFINITY, 1.0], Alternative::Less),
            Err(StatsError::NonFinite)
        );
    }

    #[test]
    fn student_accepts_one_value_against_several_as_r_does() {
        // R: t.test(5, c(1, 2, 3), var.equal = TRUE): t = 2.598076211353316, p = 0.1216899343463201.
        let t = student(&[5.0], &[1.0, 2.0, 3.0], Alternative::TwoSided).unwrap();
        assert_eq!(t.df, 2.0);
        assert!((t.statistic / 2.598076211353316 - 1.0).abs() < 1e-14);
        assert!((t.p_value / 0.1216899343463201 - 1.0).abs() < 1e-9);
    }

    #[test]
    fn confidence_outside_the_unit_interval_never_gives_nan() {
        let t = welch(&[1.0, 2.0, 4.0], &[0.5, 1.0, 1.5], Alternative::TwoSided).unwrap();
        assert_eq!(t.conf_int(1.0), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(t.conf_int(f64::NAN), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(t.conf_int(0.0), (t.estimate, t.estimate));
    }

    fn sample() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(-1e3..1e3f64, 2..40)
    }

    proptest! {
        #[test]
        fn p_values_lie_in_the_unit_interval(x in sample(), y in sample()) {
            for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
                for r in [student(&x, &y, alt), welch(&x, &y, alt)].into_iter().flatten() {
                    prop_assert!((0.0..=1.0).contains(&r.p_value));
                }
            }
        }

        #[test]
        fn swapping_samples_swaps_greater_and_less(x in sample(), y in sample()) {
            for test in [student as fn(&_, &_, _) -> _, welch] {
                if let (Ok(a), Ok(b)) = (test(&x, &y, Alternative::Greater), test(&y, &x, Alternative::Less)) {
                    prop_assert!((a.p_value - b.p_value).abs() <= 1e-12);
                }
            }
        }

        #[test]
        fn a_common_shift_leaves_t_unchanged(x in sample(), y in sample(), shift in -1e3..1e3f64) {
            let xs: Vec<f64> = x.iter().map(|v| v + shift).collect();
            let ys: Vec<f64> = y.iter().map(|v| v + shift).collect();
            if let (Ok(a), Ok(b)) = (welch(&x, &y, Alternative::TwoSided), welch(&xs, &ys, Alternative::TwoSided)) {
                prop_assert!((a.statistic - b.statistic).abs() <= 1e-8 * a.statistic.abs().max(1.0));
                prop_assert!((a.df - b.df).abs() <= 1e-8 * a.df);
            }
        }
    }
}
