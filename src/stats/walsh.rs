//! The one-sample Hodges–Lehmann estimate (the pseudomedian: the median of the Walsh averages) of a sample
//! of differences and its confidence interval, as R's `wilcox.test(d, conf.int = TRUE)$estimate` and
//! `$conf.int` (Hodges & Lehmann 1963, *Ann. Math. Stat.* 34:598–611; Tukey's Walsh averages, Walsh 1949;
//! Bauer 1972, *JASA* 67:687–690; Hollander & Wolfe, *Nonparametric Statistical Methods*, §3.2). A paired
//! design's location: d_b = the log ratio of block b's two runs.
//!
//! The interval is the set of locations μ that the signed-rank test of d − μ ([`super::signed_rank`]) does
//! not reject. With the M = n(n+1)/2 Walsh averages W = (d_i + d_j)/2, i ≤ j, the signed-rank statistic of
//! d − μ is V(μ) = #{W > μ} for every μ that is not itself a Walsh average (Tukey's identity; on such a μ
//! no |d_i − μ| is zero, and the only ties among them are between equal d_i, on the same side of μ, whose
//! midranks keep the sum), so the interval's ends are Walsh averages W_(k):
//! - **Exact case** (n ≤ 49, no ties among the |d_i| and no d_i = 0: the signed-rank test's own rule). The
//!   estimate is median(W). With q = the smallest v with P(V ≤ v) ≥ α′ (1 if that is 0), the two-sided
//!   interval (α′ = α/2) is [W_(q), W_(M−q+1)], "greater" (α′ = α) is [W_(q), ∞), "less" is
//!   (−∞, W_(M−q+1)]. P(V ≤ v) is summed in exact integers, so q is exact.
//! - **Approximate case.** R inverts the normal approximation with continuity correction: a bound is the μ
//!   where z(μ) = (V(μ) − M/2 − CORR)/σ crosses ±z_{1−α/2} (±z_{1−α} one-sided), σ tie-corrected for the
//!   equal d_i (the only ties between two Walsh averages). With k = #{W ≤ μ}, V = M − k, so z is a
//!   non-increasing step function of k, and each crossing is at a Walsh average, found by a binary search on
//!   k. R locates the same jump with `uniroot` (tolerance 1e-4): **decision, as for the two-sample interval
//!   (`hodges_lehmann.rs`, `docs/statistics.md` §5): return the exact jump, not R's approximation of it.**
//!   The estimate is median(W), the root of the uncorrected z, which R also only approximates. Where no
//!   jump crosses at the asked level (a few tied values), R lowers the level until one does and warns; this
//!   returns the widest interval, [min d, max d], at the level asked, and says nothing else: the caller asks
//!   for the level it needs and an interval that wide decides nothing.
//! - **Zeros.** R drops the d_i = 0 before it inverts the test, as its test of μ = 0 does; but at any other
//!   μ those values are not zeros of d − μ, and dropping them moves the interval away from 0 (six equal
//!   runs and three slower ones: R's estimate 2, the pseudomedian of all nine 0.5). **Decision: keep
//!   them**: the interval is the inversion of the test at every μ, with the zeros of d − μ dropped at μ
//!   only (`walsh/tests.rs` has that example). Without zeros R's interval and this one agree.
//! - **Selection without forming the M averages** (n blocks can reach 10,000 with `--max-runs`): the count
//!   #{W ≤ t} of the sorted d is one O(n) two-pointer walk ((d_i + d_j)/2 is non-decreasing in d_j, in
//!   floating point as in exact arithmetic), and W_(k) is found by bisecting on values until the averages
//!   between the two pivots are few enough to list (at most 4n) or no double lies between them; each average
//!   is computed as R computes it, `(d_i + d_j) / 2`.
//!
//! Errors: empty → TooFew; NaN/∞ → NonFinite; a confidence outside (0, 1) → InvalidArgument. Written here
//! because no maintained crate gives the one-sample Hodges–Lehmann interval (statrs has the distributions,
//! not the rank procedures). Never ported from R; R 4.2.2 is the oracle (`fixtures/r/walsh.R`).

use super::normal;
use super::rank::midranks;
use super::rank_sum::continuity;
use super::signed_rank::{EXACT_MAX, ExactSignedRank};
use super::{Alternative, Method, StatsError, StatsResult, check_finite, check_len};

/// The pseudomedian of a sample of differences with its confidence interval (an infinite end for a
/// one-sided interval), in the sample's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocationInterval {
    /// The median of the Walsh averages (R's `(pseudo)median`).
    pub estimate: f64,
    /// Lower end; −∞ for [`Alternative::Less`].
    pub lower: f64,
    /// Upper end; +∞ for [`Alternative::Greater`].
    pub upper: f64,
    /// Exact (n ≤ 49, no ties among the |d_i|, no zero) or from the normal approximation.
    pub method: Method,
}

/// The one-sample Hodges–Lehmann estimate of `d`'s location and its `confidence` interval for
/// `alternative`, as `wilcox.test(d, alternative, conf.int = TRUE, conf.level = confidence)` (module doc).
pub fn walsh_interval(
    d: &[f64],
    alternative: Alternative,
    confidence: f64,
) -> StatsResult<LocationInterval> {
    check_len(d, 1)?;
    check_finite(d)?;
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::InvalidArgument("confidence must lie in (0, 1)"));
    }
    let mut sorted = d.to_vec();
    sorted.sort_by(f64::total_cmp);
    let walsh = Walsh { d: &sorted };
    let m = walsh.len();
    let estimate = if m % 2 == 1 {
        walsh.select(m.div_ceil(2))
    } else {
        (walsh.select(m / 2) + walsh.select(m / 2 + 1)) / 2.0
    };
    let alpha = 1.0 - confidence;
    let tail = match alternative {
        Alternative::TwoSided => alpha / 2.0,
        _ => alpha,
    };
    let magnitudes: Vec<f64> = sorted.iter().map(|v| v.abs()).collect();
    let ranks = midranks(&magnitudes);
    let zeros = sorted.contains(&0.0);
    let exact = sorted.len() <= EXACT_MAX && !ranks.has_ties && !zeros;
    let (lower_rank, upper_rank, method) = if exact {
        let dist = ExactSignedRank::new(sorted.len())?;
        let q = (0..=m)
            .find(|&v| dist.p_lower(v as f64) >= tail)
            .unwrap_or(m)
            .max(1);
        (q, m + 1 - q, Method::Exact)
    } else {
        let (lo, hi) = approximate_ranks(&sorted, m, tail, alternative);
        (lo, hi, Method::Approximate)
    };
    let lower = match alternative {
        Alternative::Less => f64::NEG_INFINITY,
        _ => walsh.select(lower_rank),
    };
    let upper = match alternative {
        Alternative::Greater => f64::INFINITY,
        _ => walsh.select(upper_rank),
    };
    Ok(LocationInterval {
        estimate,
        lower,
        upper,
        method,
    })
}

/// The 1-based ranks among the Walsh averages of the approximate interval's ends (module doc): the lower
/// end is the first W_(k) after which z falls strictly below z_{1−tail}, the upper the first after which it
/// falls strictly below −z_{1−tail}; 1 and M where no jump crosses.
fn approximate_ranks(
    sorted: &[f64],
    m: usize,
    tail: f64,
    alternative: Alternative,
) -> (usize, usize) {
    let n = sorted.len() as f64;
    // Ties among the |d − μ| between two Walsh averages: only the runs of equal d_i.
    let mut tie_correction = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let j = sorted[i..].iter().take_while(|&&v| v == sorted[i]).count();
        let t = j as f64;
        tie_correction += t * t * t - t;
        i += j;
    }
    let sigma = (n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - tie_correction / 48.0).sqrt();
    let zq = normal::quantile(1.0 - tail);
    // z after the k-th average: V = M − k.
    let z = |k: usize| {
        let centred = (m - k) as f64 - m as f64 / 2.0;
        (centred - continuity(centred, alternative)) / sigma
    };
    // The smallest k in 1..=m with z(k) < q (z is non-increasing in k); m when none.
    let first_below = |q: f64| {
        let (mut lo, mut hi) = (1usize, m);
        if z(m) >= q {
            return m;
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if z(mid) < q {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    };
    let lower = if z(0) < zq { 1 } else { first_below(zq) };
    let upper = first_below(-zq);
    (lower, upper)
}

/// The Walsh averages of a sorted sample, never formed: counted and selected by value.
struct Walsh<'a> {
    d: &'a [f64],
}

impl Walsh<'_> {
    /// M = n(n+1)/2.
    fn len(&self) -> usize {
        self.d.len() * (self.d.len() + 1) / 2
    }

    fn average(&self, i: usize, j: usize) -> f64 {
        (self.d[i] + self.d[j]) / 2.0
    }

    /// For each i, the end of the j ≥ i with W_ij ≤ t (a prefix of i..n, whose end moves left as i grows):
    /// `ends[i]` is the first such j with W_ij > t (i when there is none).
    fn ends(&self, t: f64) -> Vec<usize> {
        let n = self.d.len();
        let mut ends = Vec::with_capacity(n);
        let mut end = n;
        for i in 0..n {
            end = end.max(i);
            while end > i && self.average(i, end - 1) > t {
                end -= 1;
            }
            ends.push(end);
        }
        ends
    }

    /// #{W ≤ t}, in one O(n) walk.
    fn count_at_most(&self, t: f64) -> usize {
        self.ends(t).iter().enumerate().map(|(i, &e)| e - i).sum()
    }

    /// The Walsh averages in (lo, hi], when there are at most `cap` of them (`None`: more).
    fn between(&self, lo: f64, hi: f64, cap: usize) -> Option<Vec<f64>> {
        let (from, to) = (self.ends(lo), self.ends(hi));
        let count: usize = from.iter().zip(&to).map(|(&f, &t)| t - f).sum();
        if count > cap {
            return None;
        }
        let mut found = Vec::with_capacity(count);
        for (i, (&f, &t)) in from.iter().zip(&to).enumerate() {
            found.extend((f..t).map(|j| self.average(i, j)));
        }
        Some(found)
    }

    /// W_(k), 1-based, k in 1..=M.
    fn select(&self, k: usize) -> f64 {
        let n = self.d.len();
        let cap = 4 * n + 16;
        if self.len() <= cap {
            let mut all = self
                .between(f64::NEG_INFINITY, f64::INFINITY, cap)
                .unwrap_or_default();
            all.sort_by(f64::total_cmp);
            return all[k - 1];
        }
        // Invariant: #{W ≤ lo} < k ≤ #{W ≤ hi}.
        let (mut lo, mut hi) = (self.d[0], self.d[n - 1]);
        let mut below = self.count_at_most(lo);
        if below >= k {
            return lo;
        }
        loop {
            if let Some(mut list) = self.between(lo, hi, cap) {
                list.sort_by(f64::total_cmp);
                return list[k - below - 1];
            }
            let mid = lo + (hi - lo) / 2.0;
            if mid <= lo || mid >= hi {
                // No double between the pivots: every average in (lo, hi] is hi.
                return hi;
            }
            let at = self.count_at_most(mid);
            if at >= k {
                hi = mid;
            } else {
                lo = mid;
                below = at;
            }
        }
    }
}

#[cfg(test)]
mod tests;
