//! The two-sample Kolmogorov–Smirnov test, exact with ties, as R ≥ 4.2's `ks.test(x, y)` (`psmirnov`).
//!
//! It exists for the median protocol of the Speedup-Test (paper 000 §4.2, `docs/speedup-test.md` §3): before the
//! Wilcoxon–Mann–Whitney test, [`location_shift`] checks that the two samples differ only by a shift, by a
//! two-sided KS test on the median-centred samples. It returns a result and decides nothing.
//!
//! - H0: x and y come from the same continuous distribution, F_x = F_y. H1 (two-sided): F_x ≠ F_y. The
//!   samples are independent; nothing else is assumed.
//! - **Alternatives keep R's KS meaning, which is the opposite of the crate-wide convention of
//!   [`Alternative`]**: here `Greater` is R's `alternative = "greater"`, "the CDF of x lies above that of y",
//!   D⁺ = max(F_x − F_y), i.e. x is stochastically **smaller** than y; `Less` uses D⁻ = max(F_y − F_x).
//!   This is deliberate so that `ks_two_sample(x, y, a)` is `ks.test(x, y, alternative = a)` in R.
//! - Statistic (`docs/statistics.md` §4): the pooled sample is walked in order and the empirical CDFs are
//!   compared only at *check nodes*, the ends of the groups of equal values. The distance is kept as the
//!   integer v = i·m − j·n (i x-values and j y-values taken), so D = max|v|/(nm) is exact and ties never
//!   depend on rounding.
//! - Exact p-value (used iff n·m < 10000, with or without ties, as R ≥ 4.2): the probability that a uniformly
//!   random lattice path (0,0) → (n,m) reaches the boundary |v| ≥ q (v ≥ q, −v ≥ q one-sided, q the observed
//!   statistic × nm) at a check node (Hodges 1957, *Ark. Mat.* 3:469–486; conditional on the tie pattern,
//!   Schröer & Trenkler 1995, *CSDA* 20:185–202). It is computed as the normalised path probability
//!   w(i,j) = w(i−1,j)·i/(i+j) + w(i,j−1)·j/(i+j), with w = 1 once the boundary is reached, in O(nm) time
//!   and O(m) memory. This is the complement of the `docs/statistics.md` recursion u = 1 − w: summing positive
//!   terms keeps small p-values accurate to the last digits instead of losing them in 1 − u.
//! - Asymptotic p-value (n·m ≥ 10000): Kolmogorov's limit Q(λ) = 2Σ(−1)^{k−1}e^{−2k²λ²} with
//!   λ = √(nm/(n+m))·D, and for λ < 1 its Jacobi-transformed form 1 − (√(2π)/λ)Σe^{−(2k−1)²π²/(8λ²)};
//!   one-sided, Smirnov's exp(−2·nm/(n+m)·D²). Like R, the asymptotic p ignores ties (it is then
//!   conservative). With D = 9/32, n = m = 32 (paper 000's bzip2) it gives 0.1590389, the exact p 0.1600695.
//! - Limits: forcing the exact method is refused beyond n·m = 10⁸ (about a second of work).
//!
//! Departures from R 4.2.2, decided for correctness (the median protocol uses only the two-sided test, where
//! the exact p agrees with R to ~4e-12 relative):
//! - With ties and n ≠ m, R's exact "less" p-value is P(D⁺ ≥ observed D⁻) instead of P(D⁻ ≥ observed D⁻);
//!   enumerating all C(n+m, n) labellings (`fixtures/r/ks.R`) gives e.g. 0.1585 where R gives 0.0210.
//!   Here "less" is the true permutation p. Two-sided and "greater" equal R's and the enumeration.
//! - For λ < 1 R keeps only the first term of the small-λ series (its p is off by up to ~4e-5), and it
//!   computes a tiny asymptotic p as one minus the lower tail (~1e-16 absolute error). Here the series is
//!   summed to convergence and the upper tail is computed directly.
//!
//! The analysis of a benchmark calls `location_shift_sorted` with each side's one sorted copy
//! (`sorted.rs`), the same result as [`location_shift`], which sorts for itself.
//!
//! statrs' `ks_twosample` ignores ties (0.1925 instead of R's 0.1589744 on the tied example of
//! `docs/statistics.md` §4) and is not used. R's sources are not used either; R is only the test oracle.

use super::sorted::Sorted;
use super::{Alternative, Method, StatsError, StatsResult, TestResult, check_pair};

/// R ≥ 4.2 uses the exact distribution iff n·m is below this.
pub const EXACT_BELOW: u64 = 10_000;
/// Largest n·m for which the exact method may be forced.
pub const EXACT_MAX: u64 = 100_000_000;

/// R's `ks.test(x, y, alternative)`: exact iff n·m < 10000 (with or without ties), else asymptotic.
///
/// `statistic` is D (two-sided), D⁺ (`Greater`) or D⁻ (`Less`), in R's KS sense (see the module doc).
pub fn ks_two_sample(x: &[f64], y: &[f64], alternative: Alternative) -> StatsResult<TestResult> {
    ks_two_sample_with(x, y, alternative, None)
}

/// [`ks_two_sample`] with R's `exact =` argument: `None` chooses as R does, `Some(true)` forces the exact
/// method (refused beyond n·m = 10⁸), `Some(false)` the asymptotic one.
pub fn ks_two_sample_with(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
    exact: Option<bool>,
) -> StatsResult<TestResult> {
    check_pair(x, y, 1)?;
    test_walk(&Walk::new(sorted(x), sorted(y)), alternative, exact)
}

/// The test on the walk through the pooled sample; `exact` as in [`ks_two_sample_with`].
fn test_walk(
    walk: &Walk,
    alternative: Alternative,
    exact: Option<bool>,
) -> StatsResult<TestResult> {
    let q = walk.statistic(alternative);
    let product = (walk.n as u64).saturating_mul(walk.m as u64);
    let exact = exact.unwrap_or(product < EXACT_BELOW);
    if exact && product > EXACT_MAX {
        return Err(StatsError::InvalidArgument(
            "the exact Kolmogorov-Smirnov distribution is limited to n*m <= 1e8",
        ));
    }
    let statistic = q as f64 / (walk.n as f64 * walk.m as f64);
    let (p_value, method) = if exact {
        (walk.exact_p(q, alternative), Method::Exact)
    } else {
        (
            asymptotic_p(walk.n, walk.m, statistic, alternative),
            Method::Approximate,
        )
    };
    Ok(TestResult {
        statistic,
        p_value: p_value.clamp(0.0, 1.0),
        method,
    })
}

/// The median protocol's location-shift check (paper 000 §4.2): the two-sided KS test of x − med(x) against
/// y − med(y), with R's median (even n: (a+b)/2), so that ties among the centred values are R's ties.
/// A small p-value means the samples differ by more than a shift.
pub fn location_shift(x: &[f64], y: &[f64]) -> StatsResult<TestResult> {
    check_pair(x, y, 1)?;
    // Each side sorted once: subtracting its median keeps the order (rounding is monotone), so the centred
    // values come out sorted for the walk.
    let centred = |s: &[f64]| {
        let mut sorted = sorted(s);
        let med = median(&sorted);
        sorted.iter_mut().for_each(|v| *v -= med);
        sorted
    };
    test_walk(
        &Walk::new(centred(x), centred(y)),
        Alternative::TwoSided,
        None,
    )
}

/// [`location_shift`] of two sorted samples, without sorting them again. The same result: each side's
/// median is read from values sorted by the total order rather than by `partial_cmp` (which keeps −0.0 and
/// +0.0 in their input order), so it can differ only in the sign of a zero; the centred values then differ
/// at most in the signs of zeros, which the walk compares with `==` and `min` only, so it takes the same
/// steps. Subtracting the median keeps the centred values in increasing order (rounding is monotone).
pub(crate) fn location_shift_sorted(x: Sorted<'_>, y: Sorted<'_>) -> StatsResult<TestResult> {
    check_pair(x.values(), y.values(), 1)?;
    let centred = |s: Sorted<'_>| {
        let med = median(s.values());
        s.values().iter().map(|v| v - med).collect()
    };
    test_walk(
        &Walk::new(centred(x), centred(y)),
        Alternative::TwoSided,
        None,
    )
}

/// R's `median` of values in increasing order: the middle value, or the mean of the two middle values for
/// an even length.
fn median(sorted: &[f64]) -> f64 {
    let half = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[half]
    } else {
        let (a, b) = (sorted[half - 1], sorted[half]);
        let mid = (a + b) / 2.0;
        if mid.is_finite() {
            mid
        } else {
            a / 2.0 + b / 2.0
        }
    }
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v
}

/// The walk through the pooled sample: extreme values of v = i·m − j·n at the check nodes, and which
/// diagonals k = i + j are check nodes.
struct Walk {
    n: usize,
    m: usize,
    max_v: i128,
    min_v: i128,
    checks: Vec<bool>,
}

impl Walk {
    /// The walk through `xs` and `ys`, each in increasing order.
    fn new(xs: Vec<f64>, ys: Vec<f64>) -> Self {
        let (n, m) = (xs.len(), ys.len());
        let mut checks = vec![false; n + m + 1];
        let (mut i, mut j, mut max_v, mut min_v) = (0, 0, 0i128, 0i128);
        while i < n || j < m {
            let next = match (xs.get(i), ys.get(j)) {
                (Some(&a), Some(&b)) => a.min(b),
                (Some(&a), None) => a,
                (None, Some(&b)) => b,
                (None, None) => break,
            };
            while i < n && xs[i] == next {
                i += 1;
            }
            while j < m && ys[j] == next {
                j += 1;
            }
            checks[i + j] = true;
            let v = i as i128 * m as i128 - j as i128 * n as i128;
            max_v = max_v.max(v);
            min_v = min_v.min(v);
        }
        Walk {
            n,
            m,
            max_v,
            min_v,
            checks,
        }
    }

    /// The observed statistic times n·m.
    fn statistic(&self, alternative: Alternative) -> i128 {
        match alternative {
            Alternative::TwoSided => self.max_v.max(-self.min_v),
            Alternative::Greater => self.max_v,
            Alternative::Less => -self.min_v,
        }
    }

    /// P(statistic ≥ q) under H0, given the tie pattern: the normalised lattice-path recursion of the
    /// module doc, row by row over i with one row of m + 1 probabilities. The boundary is v ≥ `high` or
    /// v ≤ `low`, with v = i·m − j·n updated by −n along a row. Called only with n·m ≤ [`EXACT_MAX`], so
    /// every v fits an i64.
    fn exact_p(&self, q: i128, alternative: Alternative) -> f64 {
        let (n, m) = (self.n, self.m);
        let q = q as i64;
        let (low, high) = match alternative {
            Alternative::TwoSided => (-q, q),
            Alternative::Greater => (i64::MIN, q),
            Alternative::Less => (-q, i64::MAX),
        };
        let reached = |k: usize, v: i64| self.checks[k] && (v >= high || v <= low);
        // 1/k once per diagonal keeps the division off the loop-carried dependency on row[j − 1].
        let inverse: Vec<f64> = (0..=n + m).map(|k| 1.0 / k.max(1) as f64).collect();
        let mut row = vec![0.0f64; m + 1];
        for j in 1..=m {
            let v = -(j as i64) * n as i64;
            row[j] = if reached(j, v) { 1.0 } else { row[j - 1] };
        }
        for i in 1..=n {
            let mut v = i as i64 * m as i64;
            if reached(i, v) {
                row[0] = 1.0;
            }
            let mut left = row[0];
            for (j, cell) in row.iter_mut().enumerate().skip(1) {
                v -= n as i64;
                let k = i + j;
                left = if reached(k, v) {
                    1.0
                } else {
                    *cell * (i as f64 * inverse[k]) + left * (j as f64 * inverse[k])
                };
                *cell = left;
            }
        }
        row[m]
    }
}

/// The asymptotic p-value of R's `ks.test` for the statistic `d` (see the module doc).
fn asymptotic_p(n: usize, m: usize, d: f64, alternative: Alternative) -> f64 {
    let (n, m) = (n as f64, m as f64);
    let scale = n * m / (n + m);
    match alternative {
        Alternative::TwoSided => kolmogorov_upper(scale.sqrt() * d),
        Alternative::Greater | Alternative::Less => (-2.0 * scale * d * d).exp(),
    }
}

/// Kolmogorov's limiting upper tail Q(λ) = P(K ≥ λ): the alternating series for λ ≥ 1, and for λ < 1 the
/// complement of the lower tail √(2π)/λ · Σ_{k odd} e^{−k²π²/(8λ²)}, which converges fast there.
fn kolmogorov_upper(lambda: f64) -> f64 {
    if lambda <= 0.0 {
        return 1.0;
    }
    if lambda < 1.0 {
        let a = -std::f64::consts::PI.powi(2) / (8.0 * lambda * lambda);
        let mut lower = 0.0;
        for k in (1..40u32).step_by(2) {
            let term = (f64::from(k * k) * a).exp();
            lower += term;
            if term <= lower * 1e-17 {
                break;
            }
        }
        let lower = lower * (2.0 * std::f64::consts::PI).sqrt() / lambda;
        return (1.0 - lower).clamp(0.0, 1.0);
    }
    let mut sum = 0.0;
    let mut sign = 1.0;
    for k in 1..100u32 {
        let term = (-2.0 * f64::from(k * k) * lambda * lambda).exp();
        sum += sign * term;
        if term <= sum.abs() * 1e-17 {
            break;
        }
        sign = -sign;
    }
    (2.0 * sum).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::oracle::{alternative, assert_rel, load, number, numbers};
    use proptest::prelude::*;
    use serde_json::Value;

    const TOL: f64 = 1e-9;

    /// Checks one R case: statistic to 1e-12 absolute (R's D carries cumulative-sum rounding, e.g. 5.6e-17
    /// for 0), p to 1e-9 relative, and the method. Two documented departures from R (module doc): its exact
    /// "less" p with ties and n != m is checked by enumeration instead, and for λ < 1 its asymptotic p is
    /// replaced by the full series.
    fn check(name: &str, r: &Value, result: TestResult) {
        let statistic = number(&r["statistic"]);
        assert!(
            (result.statistic - statistic).abs() < 1e-12,
            "{name}: D = {}, R gives {statistic}",
            result.statistic
        );
        if let Some(full) = r.get("p_formula") {
            // R truncates the small-λ series and loses tiny p to cancellation; the formula is the reference.
            assert_rel(name, "p (formula)", result.p_value, number(full), 1e-12);
            let tolerance = number(&r["r_tolerance"]);
            assert_rel(
                name,
                "p (R)",
                result.p_value,
                number(&r["p_value"]),
                tolerance,
            );
        } else if r["r_less_ties_defect"] != Value::Bool(true) {
            assert_rel(name, "p", result.p_value, number(&r["p_value"]), TOL);
        }
        let exact = r["exact"].as_bool().expect("exact flag");
        assert_eq!(result.method == Method::Exact, exact, "{name}: method");
    }

    fn case_name(r: &Value) -> String {
        format!("{} ({})", r["name"], r["alternative"])
    }

    #[test]
    fn matches_r_ks_test_with_its_default_method() {
        let oracle = load("ks");
        for r in oracle["ks_test"].as_array().expect("ks_test cases") {
            let (x, y) = (numbers(&r["x"]), numbers(&r["y"]));
            let result = ks_two_sample(
                &x,
                &y,
                alternative(r["alternative"].as_str().expect("alternative")),
            )
            .expect("valid input");
            check(&case_name(r), r, result);
        }
    }

    #[test]
    fn matches_r_ks_test_with_a_forced_method() {
        let oracle = load("ks");
        for r in oracle["forced"].as_array().expect("forced cases") {
            let (x, y) = (numbers(&r["x"]), numbers(&r["y"]));
            let exact = r["exact"].as_bool();
            let result = ks_two_sample_with(
                &x,
                &y,
                alternative(r["alternative"].as_str().expect("alternative")),
                exact,
            )
            .expect("valid");
            check(&case_name(r), r, result);
        }
    }

    #[test]
    fn location_shift_matches_r_on_centred_samples() {
        let oracle = load("ks");
        for r in oracle["location_shift"]
            .as_array()
            .expect("location_shift cases")
        {
            let (x, y) = (numbers(&r["x"]), numbers(&r["y"]));
            check(
                &case_name(r),
                r,
                location_shift(&x, &y).expect("valid input"),
            );
        }
    }

    #[test]
    fn exact_p_is_the_permutation_p_given_the_ties() {
        // fixtures/r/ks.R enumerates all choose(n + m, n) labellings; greater and two-sided also equal R's.
        let oracle = load("ks");
        for r in oracle["enumerated"].as_array().expect("enumerated cases") {
            let (x, y) = (numbers(&r["x"]), numbers(&r["y"]));
            let name = r["name"].to_string();
            for (alt, key) in [
                (Alternative::Greater, "p_greater"),
                (Alternative::Less, "p_less"),
                (Alternative::TwoSided, "p_two_sided"),
            ] {
                let result = ks_two_sample(&x, &y, alt).expect("valid input");
                assert_eq!(result.method, Method::Exact);
                assert_rel(&name, key, result.p_value, number(&r[key]), 1e-12);
            }
            let greater = ks_two_sample(&x, &y, Alternative::Greater).expect("valid input");
            assert_rel(
                &name,
                "R greater",
                greater.p_value,
                number(&r["r_greater"]),
                TOL,
            );
            let two = ks_two_sample(&x, &y, Alternative::TwoSided).expect("valid input");
            assert_rel(
                &name,
                "R two-sided",
                two.p_value,
                number(&r["r_two_sided"]),
                TOL,
            );
        }
    }

    #[test]
    fn ties_are_exact_as_in_r_4_2() {
        // docs/statistics.md §4: R 4.2.2 ks.test(c(1,2,2,3,3,4,5), c(2,3,3,4,6,6,7,8))$p.value = 0.1589744;
        // statrs, which ignores ties, gives 0.1925.
        let x = [1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 5.0];
        let y = [2.0, 3.0, 3.0, 4.0, 6.0, 6.0, 7.0, 8.0];
        let r = ks_two_sample(&x, &y, Alternative::TwoSided).expect("valid");
        assert_eq!(r.statistic, 0.5);
        assert!((r.p_value - 0.1589744).abs() < 5e-8, "p = {}", r.p_value);
    }

    #[test]
    fn bzip2_statistic_gives_paper_and_exact_p_values() {
        // docs/speedup-test.md §10.4: D = 9/32, n = m = 32: asymptotic 0.1590389 (paper 000), exact 0.1600695.
        let x: Vec<f64> = (1..=32).map(f64::from).collect();
        let y: Vec<f64> = (10..=41).map(f64::from).collect();
        let exact = ks_two_sample(&x, &y, Alternative::TwoSided).expect("valid");
        let asymptotic =
            ks_two_sample_with(&x, &y, Alternative::TwoSided, Some(false)).expect("valid");
        assert_eq!(exact.statistic, 9.0 / 32.0);
        assert!(
            (exact.p_value - 0.1600695).abs() < 5e-8,
            "exact p = {}",
            exact.p_value
        );
        assert!(
            (asymptotic.p_value - 0.1590389).abs() < 5e-8,
            "asymptotic p = {}",
            asymptotic.p_value
        );
    }

    #[test]
    fn disjoint_samples_give_one_over_binomial() {
        // Every y below every x: only 2 of the C(9,3) = 84 arrangements reach D = 1, one on each side.
        let x = [10.0, 11.0, 12.0, 13.0, 14.0, 15.0];
        let y = [1.0, 2.0, 3.0];
        let two = ks_two_sample(&x, &y, Alternative::TwoSided).expect("valid");
        assert!((two.p_value - 2.0 / 84.0).abs() < 1e-15);
        let less = ks_two_sample(&x, &y, Alternative::Less).expect("valid");
        assert!((less.p_value - 1.0 / 84.0).abs() < 1e-15);
    }

    #[test]
    fn bad_input_is_rejected() {
        let err = ks_two_sample(&[1.0, f64::NAN], &[2.0], Alternative::TwoSided);
        assert_eq!(err, Err(StatsError::NonFinite));
        let err = location_shift(&[1.0], &[f64::INFINITY]);
        assert_eq!(err, Err(StatsError::NonFinite));
        let err = ks_two_sample(&[], &[2.0], Alternative::TwoSided);
        assert_eq!(err, Err(StatsError::TooFew { needed: 1, got: 0 }));
        let err = location_shift(&[1.0], &[]);
        assert_eq!(err, Err(StatsError::TooFew { needed: 1, got: 0 }));
    }

    #[test]
    /// The location-shift check sorts each side once: the same result as the test of the centred samples,
    /// centred first and sorted after, on values whose centring rounds some of them together.
    fn location_shift_is_the_test_of_the_centred_samples() {
        let mut state = 7u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..200 {
            let (n, m) = (3 + case % 40, 2 + case % 37);
            let scale = [1.0, 1e15, 1e-3][case % 3];
            let x: Vec<f64> = (0..n).map(|_| scale * (1.0 + next())).collect();
            let y: Vec<f64> = (0..m)
                .map(|_| scale * (1.0 + (next() * 8.0).round()))
                .collect();
            let centred = |s: &[f64]| {
                let med = median(&sorted(s));
                s.iter().map(|v| v - med).collect::<Vec<f64>>()
            };
            let want = ks_two_sample(&centred(&x), &centred(&y), Alternative::TwoSided);
            assert_eq!(location_shift(&x, &y), want, "case {case}");
        }
    }

    #[test]
    fn the_check_of_sorted_sides_is_the_check_of_the_samples() {
        use crate::stats::sorted::{SortedVec, tests::awkward_samples, tests::pairs};
        let samples = awkward_samples();
        let bits = |r: StatsResult<TestResult>| {
            r.map(|t| (t.statistic.to_bits(), t.p_value.to_bits(), t.method))
        };
        let mut pairs = pairs(&samples);
        pairs.extend(samples.iter().map(|s| (s.as_slice(), &s[..1])));
        pairs.push((&[], &[1.0]));
        pairs.push((&[1.0, f64::NAN], &[1.0]));
        for (x, y) in pairs {
            let (sx, sy) = (SortedVec::of(x), SortedVec::of(y));
            assert_eq!(
                bits(location_shift_sorted(sx.as_sorted(), sy.as_sorted())),
                bits(location_shift(x, y)),
                "{x:?} {y:?}"
            );
        }
    }

    #[test]
    fn median_is_r_median() {
        assert_eq!(median(&sorted(&[3.0, 1.0, 2.0])), 2.0);
        assert_eq!(median(&sorted(&[4.0, 1.0, 3.0, 2.0])), 2.5);
        assert_eq!(median(&[f64::MAX, f64::MAX]), f64::MAX);
    }

    #[test]
    fn asymptotic_series_forms_agree_at_the_switch() {
        // Both forms of Q(λ) are exact identities (Jacobi), so they must agree where they meet.
        let a = -std::f64::consts::PI.powi(2) / 8.0;
        let lower: f64 = (0..20)
            .map(|k| (f64::from((2 * k + 1) * (2 * k + 1)) * a).exp())
            .sum();
        let small_form = 1.0 - lower * (2.0 * std::f64::consts::PI).sqrt();
        assert!((kolmogorov_upper(1.0) - small_form).abs() < 1e-15);
        // R: 1 - psmirnov at λ = 1 is the classical 0.2699996.
        assert!((kolmogorov_upper(1.0) - 0.2699996).abs() < 1e-7);
    }

    fn sample(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec((0i32..40).prop_map(|v| f64::from(v) / 4.0), len)
    }

    proptest! {
        #[test]
        fn p_values_lie_in_unit_interval(x in sample(1..40), y in sample(1..40)) {
            for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
                let r = ks_two_sample(&x, &y, alt).expect("valid");
                prop_assert!((0.0..=1.0).contains(&r.p_value), "p = {}", r.p_value);
                prop_assert!((0.0..=1.0).contains(&r.statistic));
            }
        }

        #[test]
        fn swapping_samples_swaps_one_sided_alternatives(x in sample(1..30), y in sample(1..30)) {
            let greater = ks_two_sample(&x, &y, Alternative::Greater).expect("valid");
            let less = ks_two_sample(&y, &x, Alternative::Less).expect("valid");
            prop_assert_eq!(greater.statistic, less.statistic);
            prop_assert!((greater.p_value - less.p_value).abs() < 1e-12);
        }

        #[test]
        fn centred_test_is_shift_invariant(
            x in sample(1..30), y in sample(1..30), sx in -1000i32..1000, sy in -1000i32..1000
        ) {
            // Quarter-integers and integer shifts are exact in f64, so centring sees the same values.
            let xs: Vec<f64> = x.iter().map(|v| v + f64::from(sx)).collect();
            let ys: Vec<f64> = y.iter().map(|v| v + f64::from(sy)).collect();
            prop_assert_eq!(location_shift(&x, &y).expect("valid"), location_shift(&xs, &ys).expect("valid"));
        }

        #[test]
        fn exact_and_asymptotic_converge_for_large_samples(
            (n, pooled) in (20usize..100, 20usize..100).prop_flat_map(|(n, m)| {
                (Just(n), Just((0..n + m).map(|r| r as f64).collect::<Vec<f64>>()).prop_shuffle())
            })
        ) {
            // Untied samples drawn under H0; the gap closes like 1/√(nm/(n+m)) (30000 cases: at most 0.41).
            let (x, y) = pooled.split_at(n);
            let exact = ks_two_sample_with(x, y, Alternative::TwoSided, Some(true)).expect("valid");
            let asymptotic = ks_two_sample_with(x, y, Alternative::TwoSided, Some(false)).expect("valid");
            let effective = (x.len() * y.len()) as f64 / (x.len() + y.len()) as f64;
            let gap = (exact.p_value - asymptotic.p_value).abs() * effective.sqrt();
            prop_assert!(gap < 0.6, "exact {} asymptotic {} scaled gap {gap}", exact.p_value, asymptotic.p_value);
        }
    }
}
