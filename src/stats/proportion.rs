//! Tests and confidence intervals for one binomial proportion: the proportion C = a/b of accelerated
//! benchmarks of the Speedup-Test (paper 000 §5, `docs/speedup-test.md` §7, `docs/statistics.md` §7).
//!
//! - [`prop_test`] matches R's one-sample `prop.test(x, n, p, alternative, conf.level, correct = TRUE)`:
//!   H0: π = p0 against π ≠ p0, π > p0 or π < p0, where π is the success probability; X² is Pearson's
//!   statistic with Yates' correction yc = min(0.5, |x − n·p0|) and the interval is Wilson's score
//!   interval with continuity correction (Wilson 1927; Newcombe 1998, *Stat. Med.* 17:857–872, method 4).
//!   Assumption: the trials are independent with a common π; the χ² approximation is poor when n·p0 or
//!   n(1 − p0) is below 5 (R warns then; here [`validity_condition`] is the paper's own rule).
//! - [`wilson_interval`] is the same interval without the correction (`prop.test(…, correct = FALSE)`).
//! - [`clopper_pearson`] is the exact interval of R's `binom.test` (Clopper & Pearson 1934, *Biometrika*
//!   26:404–413), from the Beta quantiles with the bounds 0 at x = 0 and 1 at x = n.
//! - [`minimal_benchmarks`] and [`validity_condition`] are paper 000 §5's sample-size formula and rule of
//!   thumb (Saporta 1990 §2.7.2; Brown, Cai & DasGupta 2001 criticise the rule).
//!
//! Paper 000 §5 writes the Wald interval C ∓ z·√(C(1−C)/b), but every number it prints comes from
//! `prop.test`, i.e. the corrected Wilson interval; this module follows the printed numbers (erratum 6 of
//! `docs/speedup-test.md` §11). Note that the correction vanishes when x = n·p0 exactly (15/30 gives the plain
//! Wilson interval) and that it depends on p0, as in R.
//!
//! This module decides nothing and does no I/O; it returns numbers for `protocol/` to judge.

use statrs::distribution::{Beta, Continuous, ContinuousCDF};

use super::{Alternative, Method, StatsError, StatsResult, TestResult, normal};

/// A closed interval [lower, upper] of proportions, within [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end, ≥ 0.
    pub lower: f64,
    /// Upper end, ≤ 1.
    pub upper: f64,
}

/// R's `prop.test(successes, trials, p = p0, alternative, conf.level = confidence)` with `correct = TRUE`.
///
/// `Greater` is H1: π > p0 and `Less` is H1: π < p0, as in R. Returns the test (statistic X², p-value,
/// [`Method::Approximate`]) and the Wilson interval with continuity correction: two-sided, or [0, U] for
/// `Less` and [L, 1] for `Greater`.
pub fn prop_test(
    successes: u64,
    trials: u64,
    p0: f64,
    alternative: Alternative,
    confidence: f64,
) -> StatsResult<(TestResult, Interval)> {
    prop_test_with(successes, trials, p0, alternative, confidence, true)
}

/// [`prop_test`] with R's `correct =` argument: `false` gives Pearson's X² and the plain Wilson interval.
pub fn prop_test_with(
    successes: u64,
    trials: u64,
    p0: f64,
    alternative: Alternative,
    confidence: f64,
    correct: bool,
) -> StatsResult<(TestResult, Interval)> {
    check_counts(successes, trials)?;
    check_confidence(confidence)?;
    if !(p0 > 0.0 && p0 < 1.0) {
        return Err(StatsError::InvalidArgument(
            "null proportion p0 must lie in (0, 1)",
        ));
    }
    let (x, n) = (successes as f64, trials as f64);
    let deviation = (x - n * p0).abs();
    let yc = if correct { deviation.min(0.5) } else { 0.0 };
    let statistic = (deviation - yc).powi(2) * (1.0 / (n * p0) + 1.0 / (n * (1.0 - p0)));
    let z = (x / n - p0).signum() * statistic.sqrt();
    let p_value = match alternative {
        Alternative::TwoSided => 2.0 * normal::sf(statistic.sqrt()),
        Alternative::Greater => normal::sf(z),
        Alternative::Less => normal::cdf(z),
    };
    let interval = score_interval(x, n, yc, confidence, alternative);
    let test = TestResult {
        statistic,
        p_value,
        method: Method::Approximate,
    };
    Ok((test, interval))
}

/// The interval of paper 000 §5 and §6.2.4: R's `prop.test(successes, trials, conf.level = confidence)$conf.int`
/// (two-sided, p0 = 0.5, continuity correction).
pub fn prop_test_interval(successes: u64, trials: u64, confidence: f64) -> StatsResult<Interval> {
    prop_test(successes, trials, 0.5, Alternative::TwoSided, confidence).map(|(_, ci)| ci)
}

/// The two-sided Wilson score interval without continuity correction (`prop.test(…, correct = FALSE)`).
pub fn wilson_interval(successes: u64, trials: u64, confidence: f64) -> StatsResult<Interval> {
    check_counts(successes, trials)?;
    check_confidence(confidence)?;
    let (x, n) = (successes as f64, trials as f64);
    Ok(score_interval(x, n, 0.0, confidence, Alternative::TwoSided))
}

/// The two-sided Clopper–Pearson interval of R's `binom.test(successes, trials, conf.level = confidence)`:
/// [Beta⁻¹(α/2; x, n−x+1), Beta⁻¹(1−α/2; x+1, n−x)], with 0 when x = 0 and 1 when x = n.
pub fn clopper_pearson(successes: u64, trials: u64, confidence: f64) -> StatsResult<Interval> {
    check_counts(successes, trials)?;
    check_confidence(confidence)?;
    let (x, n) = (successes as f64, trials as f64);
    let half_alpha = (1.0 - confidence) / 2.0;
    let lower = if successes == 0 {
        0.0
    } else {
        beta_quantile(half_alpha, x, n - x + 1.0)?
    };
    let upper = if successes == trials {
        1.0
    } else {
        beta_quantile(1.0 - half_alpha, x + 1.0, n - x)?
    };
    Ok(Interval { lower, upper })
}

/// Paper 000 §5: the minimal number of benchmarks b = ⌈z²·C(1−C)/r²⌉ for a proportion `C`, a precision
/// (half-width) `r` and z = Φ⁻¹((1+cl)/2).
///
/// `None` when C ∈ {0, 1} (the paper prints no line then), and for arguments out of range (C outside
/// [0, 1], r ≤ 0, cl outside (0, 1), or a bound too large for a u64).
pub fn minimal_benchmarks(proportion: f64, precision: f64, confidence: f64) -> Option<u64> {
    let in_range = proportion > 0.0 && proportion < 1.0 && precision > 0.0 && precision.is_finite();
    if !(in_range && confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    let z = normal::quantile((1.0 + confidence) / 2.0);
    let b = (z * z * proportion * (1.0 - proportion) / (precision * precision)).ceil();
    (b.is_finite() && b < u64::MAX as f64).then_some(b as u64)
}

/// Paper 000 §5's validity condition of the normal approximation, a(1 − a/b) > 5, evaluated exactly in
/// integers as a(b − a) > 5b. False when b = 0 or a > b.
pub fn validity_condition(successes: u64, trials: u64) -> bool {
    if trials == 0 || successes > trials {
        return false;
    }
    let (a, b) = (u128::from(successes), u128::from(trials));
    a * (b - a) > 5 * b
}

/// Wilson's score interval around x/n with continuity correction `yc` (0 for none):
/// (p_c + z²/2n ∓ z√(p_c(1−p_c)/n + z²/4n²))/(1 + z²/n) with p_c = x/n ∓ yc/n, clamped to 0 and 1.
fn score_interval(x: f64, n: f64, yc: f64, confidence: f64, alternative: Alternative) -> Interval {
    let level = match alternative {
        Alternative::TwoSided => (1.0 + confidence) / 2.0,
        Alternative::Greater | Alternative::Less => confidence,
    };
    let z = normal::quantile(level);
    let estimate = x / n;
    let bound = |pc: f64, sign: f64| {
        let centre = pc + z * z / (2.0 * n);
        let spread = z * (pc * (1.0 - pc) / n + z * z / (4.0 * n * n)).sqrt();
        (centre + sign * spread) / (1.0 + z * z / n)
    };
    let lower_pc = estimate - yc / n;
    let upper_pc = estimate + yc / n;
    let lower = if lower_pc <= 0.0 || alternative == Alternative::Less {
        0.0
    } else {
        bound(lower_pc, -1.0)
    };
    let upper = if upper_pc >= 1.0 || alternative == Alternative::Greater {
        1.0
    } else {
        bound(upper_pc, 1.0)
    };
    Interval { lower, upper }
}

/// The p-quantile of Beta(a, b), a, b ≥ 1; polished by Newton steps on the regularised incomplete beta
/// function because statrs' inverse is accurate only to about 1e-13 absolute, too coarse near 0.
fn beta_quantile(p: f64, a: f64, b: f64) -> StatsResult<f64> {
    let dist = Beta::new(a, b)
        .map_err(|_| StatsError::InvalidArgument("Beta parameters must be positive"))?;
    let mut q = dist.inverse_cdf(p);
    for _ in 0..3 {
        let density = dist.pdf(q);
        if !(density > 0.0 && density.is_finite()) {
            break;
        }
        let step = (dist.cdf(q) - p) / density;
        let next = q - step;
        if !(next > 0.0 && next < 1.0) {
            break;
        }
        q = next;
    }
    Ok(q)
}

fn check_counts(successes: u64, trials: u64) -> StatsResult<()> {
    if trials == 0 {
        return Err(StatsError::InvalidArgument(
            "the number of trials must be positive",
        ));
    }
    if successes > trials {
        return Err(StatsError::InvalidArgument(
            "successes cannot exceed trials",
        ));
    }
    Ok(())
}

fn check_confidence(confidence: f64) -> StatsResult<()> {
    if confidence > 0.0 && confidence < 1.0 {
        Ok(())
    } else {
        Err(StatsError::InvalidArgument(
            "confidence level must lie in (0, 1)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{alternative, assert_rel, load, number};
    use proptest::prelude::*;
    use serde_json::Value;

    const TOL: f64 = 1e-9;

    fn count(v: &Value) -> u64 {
        number(v) as u64
    }

    #[test]
    fn prop_test_matches_r_prop_test() {
        let oracle = load("proportion");
        let cases = oracle["prop_test"].as_array().expect("prop_test cases");
        for c in cases {
            let (x, n) = (count(&c["x"]), count(&c["n"]));
            let alt = alternative(c["alternative"].as_str().expect("alternative"));
            let correct = c["correct"].as_bool().expect("correct flag");
            let (p0, conf) = (number(&c["p0"]), number(&c["conf"]));
            let name =
                format!("prop.test({x}, {n}, p = {p0}, {alt:?}, conf {conf}, correct = {correct})");
            let (test, ci) = prop_test_with(x, n, p0, alt, conf, correct).expect("valid input");
            assert_rel(
                &name,
                "X-squared",
                test.statistic,
                number(&c["statistic"]),
                TOL,
            );
            assert_rel(&name, "p", test.p_value, number(&c["p_value"]), TOL);
            assert_rel(&name, "lower", ci.lower, number(&c["lower"]), TOL);
            assert_rel(&name, "upper", ci.upper, number(&c["upper"]), TOL);
        }
    }

    #[test]
    fn clopper_pearson_matches_r_binom_test() {
        let oracle = load("proportion");
        for c in oracle["binom_test"].as_array().expect("binom_test cases") {
            let (x, n, conf) = (count(&c["x"]), count(&c["n"]), number(&c["conf"]));
            let name = format!("binom.test({x}, {n}, conf.level = {conf})");
            let ci = clopper_pearson(x, n, conf).expect("valid input");
            assert_rel(&name, "lower", ci.lower, number(&c["lower"]), TOL);
            assert_rel(&name, "upper", ci.upper, number(&c["upper"]), TOL);
        }
    }

    #[test]
    fn speedup_test_example_intervals_match_paper() {
        // docs/speedup-test.md §10.3: prop.test(3, 4) = [0.2194265, 0.9868088]; prop.test(4, 4) = [0.3957730, 1];
        // prop.test(17, 30, conf.level = 0.90) = [0.4027157, 0.7184049].
        let three = prop_test_interval(3, 4, 0.95).expect("valid");
        assert!((three.lower - 0.2194265).abs() < 5e-8 && (three.upper - 0.9868088).abs() < 5e-8);
        let four = prop_test_interval(4, 4, 0.95).expect("valid");
        assert!((four.lower - 0.3957730).abs() < 5e-8 && four.upper == 1.0);
        let paper = prop_test_interval(17, 30, 0.90).expect("valid");
        assert!((paper.lower - 0.4027157).abs() < 5e-8 && (paper.upper - 0.7184049).abs() < 5e-8);
    }

    #[test]
    fn correction_vanishes_at_half() {
        // prop.test(15, 30) is the plain Wilson interval [0.3315413, 0.6684587].
        let corrected = prop_test_interval(15, 30, 0.95).expect("valid");
        let plain = wilson_interval(15, 30, 0.95).expect("valid");
        assert_eq!(corrected, plain);
        assert!((plain.lower - 0.3315413).abs() < 5e-8 && (plain.upper - 0.6684587).abs() < 5e-8);
    }

    #[test]
    fn minimal_benchmarks_follows_paper_000() {
        // §6.3: 1.96²·0.1875/0.05² = 288.1 -> 289; §5: C = 17/30 gives 377.32 -> 378.
        assert_eq!(minimal_benchmarks(0.75, 0.05, 0.95), Some(289));
        assert_eq!(minimal_benchmarks(17.0 / 30.0, 0.05, 0.95), Some(378));
        assert_eq!(minimal_benchmarks(1.0, 0.05, 0.95), None);
        assert_eq!(minimal_benchmarks(0.0, 0.05, 0.95), None);
        assert_eq!(minimal_benchmarks(0.5, 0.0, 0.95), None);
        assert_eq!(minimal_benchmarks(0.5, 0.05, 1.0), None);
        assert_eq!(minimal_benchmarks(f64::NAN, 0.05, 0.95), None);
    }

    #[test]
    fn validity_condition_follows_paper_000() {
        // 17 − 17²/30 = 7.37 > 5; 3/4 and 4/4 fail (§6.3 prints the warning for both).
        assert!(validity_condition(17, 30));
        assert!(!validity_condition(3, 4));
        assert!(!validity_condition(4, 4));
        // a(b − a) = 5b exactly is not > 5: 10·(20 − 10) = 100 = 5·20.
        assert!(!validity_condition(10, 20));
        assert!(!validity_condition(0, 0));
        assert!(!validity_condition(5, 4));
    }

    #[test]
    fn bad_counts_and_levels_are_invalid_arguments() {
        let invalid = |r: StatsResult<Interval>| matches!(r, Err(StatsError::InvalidArgument(_)));
        assert!(invalid(prop_test_interval(1, 0, 0.95)));
        assert!(invalid(prop_test_interval(5, 4, 0.95)));
        assert!(invalid(wilson_interval(1, 4, 0.0)));
        assert!(invalid(clopper_pearson(1, 4, 1.0)));
        assert!(invalid(clopper_pearson(1, 4, f64::NAN)));
        let p0 = prop_test(1, 4, 1.0, Alternative::TwoSided, 0.95);
        assert!(matches!(p0, Err(StatsError::InvalidArgument(_))));
    }

    proptest! {
        #[test]
        fn bounds_are_monotone_in_successes(n in 1u64..400, frac in 0.0f64..1.0, conf in 0.5f64..0.999) {
            let x = ((n as f64) * frac).floor() as u64;
            prop_assume!(x < n);
            for f in [prop_test_interval, wilson_interval, clopper_pearson] {
                let (a, b) = (f(x, n, conf).expect("valid"), f(x + 1, n, conf).expect("valid"));
                prop_assert!(a.lower <= b.lower && a.upper <= b.upper, "{a:?} then {b:?}");
                prop_assert!(0.0 <= a.lower && a.lower <= a.upper && a.upper <= 1.0);
            }
        }

        #[test]
        fn p_values_lie_in_unit_interval(n in 1u64..400, frac in 0.0f64..=1.0, p0 in 0.01f64..0.99) {
            let x = ((n as f64) * frac).floor() as u64;
            for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
                let (test, _) = prop_test(x, n, p0, alt, 0.95).expect("valid");
                prop_assert!((0.0..=1.0).contains(&test.p_value), "p = {}", test.p_value);
            }
        }
    }
}
