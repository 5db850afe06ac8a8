//! Wilcoxon signed-rank test of one sample of differences, as R's `wilcox.test(d)` with its defaults
//! (`mu = 0`, `correct = TRUE`, `exact = NULL`). HPT (003 §4.1) tests the per-benchmark speedups across a
//! suite with it; HPT's own zero-splitting variant is in `sign_flip.rs`, not here.
//!
//! - H0: the d_i are symmetric about 0. H1 ([`Alternative::Greater`]): located above 0; `Less` below;
//!   `TwoSided` either.
//! - Assumptions: independent d_i from a continuous symmetric distribution.
//! - R's defaults, followed here: exact zeros are dropped and n is reduced accordingly; V = Σ rank(|d_i|) over
//!   d_i > 0, with midranks for ties among the |d_i|.
//! - Method (R's observable rule, `docs/statistics.md` §6): **exact iff n < 50 after dropping zeros, no ties among
//!   the |d_i| and no zero was dropped**; otherwise the normal approximation σ² = n(n+1)(2n+1)/24 −
//!   Σ(t³ − t)/48, z = (V − n(n+1)/4 − CORR)/σ with R's continuity correction (±½, as the rank-sum test).
//! - Exact null distribution (Wilcoxon 1945): P(V = v) is the coefficient of q^v in ∏_{j=1..n} (1 + q^j),
//!   divided by 2ⁿ; built in exact integers (u64: 2⁴⁹ < 2⁶⁴), O(n³).
//! - Limits: a sample of only zeros leaves nothing to rank (R: NaN p-value) → [`StatsError::Constant`]; empty
//!   → [`StatsError::TooFew`]; NaN/∞ → [`StatsError::NonFinite`].
//!
//! Never ported from R: implemented from the algorithms above; R 4.2.2 is the oracle
//! (`fixtures/r/signed_rank.R`).

use super::rank::midranks;
use super::rank_sum::{continuity, lower_tail, normal_tail, upper_tail};
use super::{Alternative, Method, StatsError, StatsResult, TestResult, check_finite, check_len};

/// Largest number of non-zero differences for which R (and this module) uses the exact distribution.
pub const EXACT_MAX: usize = 49;

/// Wilcoxon signed-rank test of `d` against 0, as R's `wilcox.test(d)`; `statistic` is R's V.
pub fn signed_rank(d: &[f64], alternative: Alternative) -> StatsResult<TestResult> {
    check_len(d, 1)?;
    check_finite(d)?;
    let nonzero: Vec<f64> = d.iter().copied().filter(|&v| v != 0.0).collect();
    if nonzero.is_empty() {
        return Err(StatsError::Constant);
    }
    let zeros_dropped = nonzero.len() < d.len();
    let n = nonzero.len();
    let magnitudes: Vec<f64> = nonzero.iter().map(|v| v.abs()).collect();
    let ranks = midranks(&magnitudes);
    let statistic: f64 = nonzero
        .iter()
        .zip(&ranks.ranks)
        .filter(|(v, _)| **v > 0.0)
        .map(|(_, r)| r)
        .sum();
    if n <= EXACT_MAX && !ranks.has_ties && !zeros_dropped {
        let dist = ExactSignedRank::new(n)?;
        return Ok(TestResult {
            statistic,
            p_value: dist.p_value(statistic, alternative),
            method: Method::Exact,
        });
    }
    let nf = n as f64;
    let variance = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ranks.tie_correction / 48.0;
    if variance <= 0.0 {
        return Err(StatsError::Constant);
    }
    let centred = statistic - nf * (nf + 1.0) / 4.0;
    let z = (centred - continuity(centred, alternative)) / variance.sqrt();
    Ok(TestResult {
        statistic,
        p_value: normal_tail(z, alternative),
        method: Method::Approximate,
    })
}

/// Exact null distribution of V for n ≤ 49 untied, non-zero differences, built once and reusable.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactSignedRank {
    n: usize,
    pmf: Vec<f64>,
    /// P(V ≤ v), from exact integer sums.
    lower: Vec<f64>,
    /// P(V ≥ v), from exact integer sums.
    upper: Vec<f64>,
}

impl ExactSignedRank {
    /// Builds the distribution of V for n in 1..=49: O(n³) integer additions.
    pub fn new(n: usize) -> StatsResult<Self> {
        if n == 0 {
            return Err(StatsError::TooFew { needed: 1, got: 0 });
        }
        if n > EXACT_MAX {
            return Err(StatsError::TooMany {
                max: EXACT_MAX,
                got: n,
            });
        }
        let top = n * (n + 1) / 2;
        let mut counts = vec![0u64; top + 1];
        counts[0] = 1;
        for j in 1..=n {
            // multiply by (1 + q^j): descending so that each subset uses j at most once
            for v in (j..=j * (j + 1) / 2).rev() {
                counts[v] += counts[v - j];
            }
        }
        let total = (1u64 << n) as f64;
        let pmf = counts.iter().map(|&c| c as f64 / total).collect();
        let mut lower = Vec::with_capacity(top + 1);
        let mut below = 0u64;
        for &c in &counts {
            below += c;
            lower.push(below as f64 / total);
        }
        let mut upper = vec![0.0; top + 1];
        let mut above = 0u64;
        for (v, &c) in counts.iter().enumerate().rev() {
            above += c;
            upper[v] = above as f64 / total;
        }
        Ok(ExactSignedRank {
            n,
            pmf,
            lower,
            upper,
        })
    }

    /// P(V = v) for v = 0..=n(n+1)/2.
    pub fn pmf(&self) -> &[f64] {
        &self.pmf
    }

    /// P(V ≥ v); a non-integer v is rounded up. A NaN v gives 1 (no evidence).
    pub fn p_upper(&self, v: f64) -> f64 {
        upper_tail(&self.upper, v)
    }

    /// P(V ≤ v); a non-integer v is rounded down. A NaN v gives 1 (no evidence).
    pub fn p_lower(&self, v: f64) -> f64 {
        lower_tail(&self.lower, v)
    }

    /// The p-value of an observed V; two-sided doubles the smaller tail, as R does.
    pub fn p_value(&self, v: f64, alternative: Alternative) -> f64 {
        let in_upper = v > (self.n * (self.n + 1)) as f64 / 4.0;
        alternative.p_from_tails(in_upper, || self.p_upper(v), || self.p_lower(v))
    }
}

#[cfg(test)]
mod tests;
