//! The Shapiro–Wilk test of normality, with Royston's approximations (AS R94), as R's `shapiro.test`.
//!
//! The Speedup-Test's mean protocol (paper 000 §4.1, `docs/speedup-test.md` §2) runs it on each sample: small
//! samples must look normal before a t-test is trusted. This module only computes; it never decides.
//!
//! - H0: the sample comes from a normal distribution (any mean and variance); H1: it does not. Small W
//!   means non-normal, and the p-value is the upper tail of Royston's normalising transform of W.
//! - Defined for 3 ≤ n ≤ 5000 ([`StatsError::TooFew`], [`StatsError::TooMany`]); constant data is
//!   [`StatsError::Constant`].
//! - Algorithm (Shapiro & Wilk 1965, *Biometrika* 52:591–611; Royston 1992, *Stat. Comput.* 2:117–119;
//!   Royston 1995, AS R94, *Appl. Stat.* 44:547–551; `docs/statistics.md` §1):
//!   m_i = Φ⁻¹((i − 3/8)/(n + 1/4)), M = Σm_i², u = 1/√n; the two largest coefficients are m/√M plus
//!   Royston's quintic polynomials in u, the others m_i/√ε; W = (Σa_i x_(i))²/Σ(x_i − x̄)².
//!   p: n = 3 exact (6/π)(asin √W − asin √¾); 4 ≤ n ≤ 11 and n ≥ 12 Royston's normal approximations of
//!   −ln(γ − ln(1 − W)) and ln(1 − W).
//! - Numerics: the data are centred on their mean before W is formed, because timings have a spread tiny
//!   relative to their mean; W is invariant to location and scale, so this changes nothing else. The
//!   coefficients use symmetry (a_{n+1−i} = −a_i), so Φ⁻¹ is evaluated ⌊n/2⌋ times and sorting dominates
//!   the cost. If rounding gives W ≥ 1, p = 1.
//! - Matches R `shapiro.test(x)` (W to about 1e-15, p to about 1e-11 relative). R also refuses a range
//!   below 1e-10 in absolute terms; this module refuses only an exactly zero range, since W does not
//!   depend on the unit.

use super::describe::mean_unchecked;
use super::normal;
use super::sorted::{Sorted, SortedVec};
use super::{Method, StatsError, StatsResult, TestResult, check_finite, check_len};

/// The largest sample for which Royston's approximation is defined.
pub const MAX_N: usize = 5000;

/// The Shapiro–Wilk test of normality: statistic W and p-value (R `shapiro.test(x)`).
pub fn shapiro_wilk(x: &[f64]) -> StatsResult<TestResult> {
    check(x)?;
    shapiro_wilk_sorted(SortedVec::of(x).as_sorted())
}

/// [`shapiro_wilk`] of a sorted sample, without sorting it again: the same checks, and the same
/// computation, which reads the values only in ascending order.
pub(crate) fn shapiro_wilk_sorted(x: Sorted<'_>) -> StatsResult<TestResult> {
    check(x.values())?;
    let mut sorted = x.values().to_vec();
    let n = sorted.len();
    if sorted[0] == sorted[n - 1] {
        return Err(StatsError::Constant);
    }
    let centre = mean_unchecked(&sorted);
    sorted.iter_mut().for_each(|v| *v -= centre);
    let statistic = w_statistic(&sorted, &coefficients(n));
    Ok(TestResult {
        statistic,
        p_value: p_value(n, statistic),
        method: Method::Approximate,
    })
}

/// Finite values, at least 3 and at most [`MAX_N`] of them.
fn check(x: &[f64]) -> StatsResult<()> {
    check_finite(x)?;
    check_len(x, 3)?;
    if x.len() > MAX_N {
        return Err(StatsError::TooMany {
            max: MAX_N,
            got: x.len(),
        });
    }
    Ok(())
}

/// W from centred sorted data and the upper-half coefficients (`a[k]` multiplies x_(n−k) − x_(k+1)).
fn w_statistic(centred: &[f64], a: &[f64]) -> f64 {
    let n = centred.len();
    let numerator: f64 = a
        .iter()
        .enumerate()
        .map(|(k, ak)| ak * (centred[n - 1 - k] - centred[k]))
        .sum();
    let sum_sq: f64 = centred.iter().map(|v| v * v).sum();
    (numerator * numerator / sum_sq).min(1.0)
}

/// The positive coefficients a_n, a_{n−1}, …, a_{n+1−⌊n/2⌋} (Royston 1992).
fn coefficients(n: usize) -> Vec<f64> {
    let half = n / 2;
    if n == 3 {
        return vec![std::f64::consts::FRAC_1_SQRT_2];
    }
    let nf = n as f64;
    // m[k] = m_{n−k} = −Φ⁻¹((k + 1 − 3/8)/(n + 1/4)) > 0.
    let m: Vec<f64> = (0..half)
        .map(|k| -normal::quantile((k as f64 + 1.0 - 0.375) / (nf + 0.25)))
        .collect();
    let big_m = 2.0 * m.iter().map(|v| v * v).sum::<f64>();
    let root_m = big_m.sqrt();
    let u = 1.0 / nf.sqrt();
    let a_n = m[0] / root_m + poly(&[0.221157, -0.147981, -2.071190, 4.434685, -2.706056], u);
    let (fixed, eps) = if n > 5 {
        let a_n1 = m[1] / root_m + poly(&[0.042981, -0.293762, -1.752461, 5.682633, -3.582633], u);
        let eps = (big_m - 2.0 * m[0] * m[0] - 2.0 * m[1] * m[1])
            / (1.0 - 2.0 * a_n * a_n - 2.0 * a_n1 * a_n1);
        (vec![a_n, a_n1], eps)
    } else {
        let eps = (big_m - 2.0 * m[0] * m[0]) / (1.0 - 2.0 * a_n * a_n);
        (vec![a_n], eps)
    };
    let root_eps = eps.sqrt();
    let mut a = fixed;
    a.extend(m[a.len()..].iter().map(|v| v / root_eps));
    a
}

/// c₁u + c₂u² + … (no constant term), by Horner's rule.
fn poly(c: &[f64], u: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, ci| (acc + ci) * u)
}

/// c₀ + c₁v + c₂v² + …, by Horner's rule.
fn poly0(c: &[f64], v: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, ci| acc * v + ci)
}

/// Royston's p-value for W at sample size n (upper tail: small W, small p).
fn p_value(n: usize, w: f64) -> f64 {
    if n == 3 {
        let p = 6.0 / std::f64::consts::PI * (w.sqrt().asin() - std::f64::consts::FRAC_PI_3);
        return p.clamp(0.0, 1.0);
    }
    let one_minus_w = 1.0 - w;
    if one_minus_w <= 0.0 {
        return 1.0;
    }
    let w1 = one_minus_w.ln();
    let nf = n as f64;
    let (y, mu, sigma) = if n <= 11 {
        let gamma = poly0(&[-2.273, 0.459], nf);
        if w1 >= gamma {
            return 0.0;
        }
        let mu = poly0(&[0.5440, -0.39978, 0.025054, -0.0006714], nf);
        let sigma = poly0(&[1.3822, -0.77857, 0.062767, -0.0020322], nf).exp();
        (-(gamma - w1).ln(), mu, sigma)
    } else {
        let v = nf.ln();
        let mu = poly0(&[-1.5861, -0.31082, -0.083751, 0.0038915], v);
        let sigma = poly0(&[-0.4803, -0.082676, 0.0030302], v).exp();
        (w1, mu, sigma)
    };
    normal::sf((y - mu) / sigma).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{assert_rel, load, number, numbers};
    use proptest::prelude::*;

    #[test]
    fn the_test_of_the_sorted_sample_is_the_test_of_the_sample() {
        use crate::stats::sorted::{SortedVec, tests::awkward_samples};
        let bits = |r: StatsResult<TestResult>| {
            r.map(|t| (t.statistic.to_bits(), t.p_value.to_bits(), t.method))
        };
        let mut computed = 0;
        // The computation before the sorted entry point, written out here: check, copy, sort, centre, W.
        let plain = |x: &[f64]| -> StatsResult<TestResult> {
            check_finite(x)?;
            check_len(x, 3)?;
            if x.len() > MAX_N {
                return Err(StatsError::TooMany {
                    max: MAX_N,
                    got: x.len(),
                });
            }
            let mut sorted = x.to_vec();
            sorted.sort_unstable_by(f64::total_cmp);
            let n = sorted.len();
            if sorted[0] == sorted[n - 1] {
                return Err(StatsError::Constant);
            }
            let centre = mean_unchecked(&sorted);
            sorted.iter_mut().for_each(|v| *v -= centre);
            let statistic = w_statistic(&sorted, &coefficients(n));
            Ok(TestResult {
                statistic,
                p_value: p_value(n, statistic),
                method: Method::Approximate,
            })
        };
        for x in awkward_samples() {
            let want = plain(&x);
            computed += usize::from(want.is_ok());
            let got = shapiro_wilk_sorted(SortedVec::of(&x).as_sorted());
            assert_eq!(bits(got), bits(want.clone()), "{x:?}");
            assert_eq!(bits(shapiro_wilk(&x)), bits(want), "{x:?}");
        }
        assert!(computed > 20, "{computed}");
    }

    #[test]
    fn matches_r_shapiro_test_from_n_3_to_5000() {
        let fixture = load("shapiro_wilk");
        for case in fixture["cases"].as_array().expect("cases") {
            let name = case["name"].as_str().expect("name");
            let x = numbers(&case["x"]);
            let got = shapiro_wilk(&x).unwrap_or_else(|e| panic!("{name}: {e}"));
            // shapiro.test(x - mean(x)): W of the same data without R's cancellation on timings.
            assert_rel(name, "W", got.statistic, number(&case["w_centred"]), 1e-12);
            assert_p(name, got.p_value, number(&case["p_value_centred"]), 1e-6);
            // shapiro.test(x) itself, which loses up to 3e-10 in W on a tiny spread around a large mean.
            assert_rel(
                name,
                "W (R uncentred)",
                got.statistic,
                number(&case["w"]),
                1e-9,
            );
            assert_p(name, got.p_value, number(&case["p_value"]), 1e-6);
        }
    }

    fn assert_p(name: &str, got: f64, want: f64, tol: f64) {
        if want == 0.0 {
            assert!(got < 1e-12, "{name}: p = {got} where R gives 0");
        } else {
            assert_rel(name, "p", got, want, tol);
        }
    }

    #[test]
    fn timings_keep_their_digits() {
        // 1e6 + N(0, 1e-3): the exact W of these doubles, computed in rational arithmetic from the same
        // coefficients, is 0.9883966750509; R's uncentred shapiro.test gives 0.98839667538.
        let fixture = load("shapiro_wilk");
        let case = fixture["cases"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["name"] == "n31_timings"))
            .expect("n31_timings case");
        let got = shapiro_wilk(&numbers(&case["x"])).unwrap();
        assert!((got.statistic - 0.9883966750509).abs() < 1e-12);
    }

    #[test]
    fn five_value_example_reproduces_the_paper() {
        // docs/statistics.md §1: W = 0.98619, p = 0.9647342.
        let r = shapiro_wilk(&[2.799, 2.046, 1.259, 1.877, 2.244]).unwrap();
        assert!((r.statistic - 0.98619).abs() < 5e-6);
        assert!((r.p_value - 0.9647342).abs() < 5e-8);
        assert_eq!(r.method, Method::Approximate);
    }

    #[test]
    fn sample_size_outside_3_to_5000_is_rejected() {
        assert_eq!(
            shapiro_wilk(&[1.0, 2.0]),
            Err(StatsError::TooFew { needed: 3, got: 2 })
        );
        let big: Vec<f64> = (0..5001).map(f64::from).collect();
        assert_eq!(
            shapiro_wilk(&big),
            Err(StatsError::TooMany {
                max: 5000,
                got: 5001
            })
        );
        assert!(shapiro_wilk(&big[..5000]).is_ok());
    }

    #[test]
    fn constant_and_non_finite_data_are_errors_not_nans() {
        assert_eq!(shapiro_wilk(&[4.0; 10]), Err(StatsError::Constant));
        assert_eq!(
            shapiro_wilk(&[1.0, f64::NAN, 2.0]),
            Err(StatsError::NonFinite)
        );
        assert_eq!(
            shapiro_wilk(&[1.0, 2.0, f64::NEG_INFINITY]),
            Err(StatsError::NonFinite)
        );
    }

    #[test]
    fn coefficients_have_unit_norm() {
        // Σa_i² = 1 by construction of ε (Royston 1992), counting both halves.
        for n in [4, 5, 6, 11, 12, 100, 5000] {
            let a = coefficients(n);
            let norm: f64 = 2.0 * a.iter().map(|v| v * v).sum::<f64>();
            assert!((norm - 1.0).abs() < 1e-12, "n = {n}: Σa² = {norm}");
        }
    }

    fn sample() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(-1e3..1e3f64, 3..200)
    }

    proptest! {
        #[test]
        fn p_value_lies_in_the_unit_interval(x in sample()) {
            if let Ok(r) = shapiro_wilk(&x) {
                prop_assert!((0.0..=1.0).contains(&r.p_value));
                prop_assert!(r.statistic > 0.0 && r.statistic <= 1.0);
            }
        }

        #[test]
        fn w_is_invariant_to_shift_and_positive_scale(
            x in sample(), shift in -1e4..1e4f64, scale in 1e-3..1e3f64
        ) {
            let moved: Vec<f64> = x.iter().map(|v| v * scale + shift).collect();
            if let (Ok(a), Ok(b)) = (shapiro_wilk(&x), shapiro_wilk(&moved)) {
                prop_assert!((a.statistic - b.statistic).abs() <= 1e-9, "{} vs {}", a.statistic, b.statistic);
            }
        }
    }
}
