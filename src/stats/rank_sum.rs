//! Wilcoxon–Mann–Whitney rank-sum test of two independent samples, as R's `wilcox.test(x, y)` with its
//! defaults (`paired = FALSE`, `correct = TRUE`, `exact = NULL`). It is the test of the median protocol of the
//! Speedup-Test (000 §4.2) and the per-benchmark test of HPT (003 §4.1).
//!
//! - H0: x and y come from the same continuous distribution. H1 ([`Alternative::Greater`]): x is shifted to
//!   the right of y (BASE slower, HEAD faster); `Less` the reverse; `TwoSided` either.
//! - Assumptions: independent observations; the two distributions differ at most by a location shift for the
//!   p-value to speak about medians.
//! - Statistic: R's W = Σ rank(x_i) − n(n+1)/2 = #{x_i > y_j} + ½·#{x_i = y_j} (Mann & Whitney 1947's U for x),
//!   with midranks for ties. W/(nm) estimates P\[x > y\].
//! - Method (R's observable rule, `docs/statistics.md` §5): **exact iff n < 50, m < 50 and the pooled sample has no
//!   ties**; otherwise the normal approximation with continuity correction (±½) and tie correction of the
//!   variance. [`rank_sum_exact`] replaces the approximation for small tied samples by the exact conditional
//!   distribution (`rank_sum_ties.rs`, `docs/statistics.md` §5.1) while it is cheap.
//! - Exact null distribution: the number of arrangements with U = u is the coefficient of q^u in the Gaussian
//!   binomial coefficient [n+m choose n]_q = ∏_{i=1..n} (1 − q^{m+i})/(1 − q^i) (Andrews, *The Theory of
//!   Partitions*, 1976, Th. 3.1; equivalent to Mann & Whitney's recursion c(u; n, m) = c(u − m; n − 1, m) +
//!   c(u; n, m − 1)). Built factor by factor in exact integers (i128: C(98, 49) ≈ 2.5e28), O(n²m) instead of the
//!   recursion's O(n²m²); the tails are divided by C(n+m, n) only at the end, so small p-values keep full
//!   relative precision.
//! - Limits: any n, m ≥ 1 (approximate beyond 49). All values equal gives σ = 0 and R a NaN p-value; here
//!   [`StatsError::Constant`]. NaN/∞ give [`StatsError::NonFinite`], an empty sample [`StatsError::TooFew`].
//!
//! - Sorted samples (`rank_sum_one_sided_sorted`): the pooled ranks are read from one merge of the two
//!   sorted sides (`sorted.rs`) instead of a sort of the pooled sample: the same W, ties and p-values.
//!
//! Never ported from R: implemented from the algorithms above; R 4.2.2 is the oracle (`fixtures/r/rank_sum.R`).
//! The Hodges–Lehmann shift estimate and interval that invert this test live in `hodges_lehmann.rs`.

use super::rank::midranks;
use super::rank_sum_ties::{TiedRankSum, tie_groups};
use super::sorted::Sorted;
use super::{Alternative, Method, StatsError, StatsResult, check_finite, check_len, normal};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Largest sample size for which R (and this module) uses the exact distribution.
pub const EXACT_MAX: usize = 49;

/// The result of [`rank_sum`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankSum {
    /// R's W = #{x > y} + ½·#{x = y}.
    pub statistic: f64,
    /// The p-value for the requested alternative, in [0, 1].
    pub p_value: f64,
    /// Exact (R's rule: n, m ≤ 49 and no ties; with ties, the exact conditional law of [`rank_sum_exact`])
    /// or the normal approximation with continuity and tie corrections.
    pub method: Method,
    /// W/(nm): the estimate of P\[x > y\] (for timings, the probability that HEAD runs faster).
    pub p_x_greater: f64,
}

/// Wilcoxon–Mann–Whitney test of `x` (BASE, size n) against `y` (HEAD, size m), as R's `wilcox.test(x, y)`.
pub fn rank_sum(x: &[f64], y: &[f64], alternative: Alternative) -> StatsResult<RankSum> {
    rank_sum_by(x, y, alternative, Ties::Normal)
}

/// The same test, but with ties the p-value is the exact conditional one ([`TiedRankSum`], as
/// `coin::wilcox_test(distribution = "exact")`) while both sides have at most 49 values and its table costs
/// at most [`EXACT_TIES_BUDGET`](super::rank_sum_ties::EXACT_TIES_BUDGET); beyond, R's rule. Without ties it is [`rank_sum`]. The median protocol of
/// `compare` and HPT's per-benchmark test use it; `speeduptest` keeps R's rule, as `SpeedUpTest.sh` does.
pub fn rank_sum_exact(x: &[f64], y: &[f64], alternative: Alternative) -> StatsResult<RankSum> {
    rank_sum_by(x, y, alternative, Ties::Exact)
}

/// How a tied sample is tested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ties {
    /// The normal approximation with tie correction, as R.
    Normal,
    /// The exact conditional distribution when cheap.
    Exact,
}

impl Ties {
    /// [`Ties::Exact`] if `exact`, else [`Ties::Normal`].
    fn from_exact(exact: bool) -> Ties {
        if exact { Ties::Exact } else { Ties::Normal }
    }
}

fn rank_sum_by(x: &[f64], y: &[f64], alternative: Alternative, ties: Ties) -> StatsResult<RankSum> {
    Ranked::new(x, y, ties)?.test(alternative)
}

/// [`rank_sum`] (or, with `exact_ties`, [`rank_sum_exact`]) for both one-sided alternatives, `Greater` then
/// `Less`, from one ranking of the pooled sample: the median protocol tests both directions of the same
/// runs. The same results as the two calls.
pub fn rank_sum_one_sided(
    x: &[f64],
    y: &[f64],
    exact_ties: bool,
) -> (StatsResult<RankSum>, StatsResult<RankSum>) {
    one_sided(Ranked::new(x, y, Ties::from_exact(exact_ties)))
}

/// [`rank_sum_one_sided`] of two sorted samples: the pooled ranks come from one merge of the sorted sides
/// instead of a sort of the pooled sample. The same results: W sums the same midranks (multiples of ½, so
/// exact in any order), the tie correction adds the same groups in the same ascending order, and the merge
/// by the total order is the pooled sample sorted.
pub(crate) fn rank_sum_one_sided_sorted(
    x: Sorted<'_>,
    y: Sorted<'_>,
    exact_ties: bool,
) -> (StatsResult<RankSum>, StatsResult<RankSum>) {
    one_sided(Ranked::sorted(x, y, Ties::from_exact(exact_ties)))
}

/// Both one-sided tests, `Greater` then `Less`, of one ranking (its error twice).
fn one_sided(ranked: StatsResult<Ranked>) -> (StatsResult<RankSum>, StatsResult<RankSum>) {
    match ranked {
        Ok(ranked) => (
            ranked.test(Alternative::Greater),
            ranked.test(Alternative::Less),
        ),
        Err(e) => (Err(e.clone()), Err(e)),
    }
}

/// What every alternative's p-value needs: the checks, W and the ties, computed once.
struct Ranked {
    n: usize,
    m: usize,
    /// W.
    statistic: f64,
    /// Σ(t³ − t) over the pooled sample's tie groups.
    tie_correction: f64,
    has_ties: bool,
    /// The exact conditional distribution given the ties, when [`Ties::Exact`] asks for it and it is cheap.
    tied: Option<TiedRankSum>,
}

impl Ranked {
    fn new(x: &[f64], y: &[f64], ties: Ties) -> StatsResult<Ranked> {
        check_len(x, 1)?;
        check_len(y, 1)?;
        check_finite(x)?;
        check_finite(y)?;
        let (n, m) = (x.len(), y.len());
        let pooled: Vec<f64> = x.iter().chain(y).copied().collect();
        let ranks = midranks(&pooled);
        let rank_sum_x: f64 = ranks.ranks[..n].iter().sum();
        let statistic = rank_sum_x - (n * (n + 1)) as f64 / 2.0;
        let small = n <= EXACT_MAX && m <= EXACT_MAX;
        let tied = match ties {
            Ties::Exact if small && ranks.has_ties => {
                let mut sorted = pooled;
                sorted.sort_unstable_by(f64::total_cmp);
                let groups = tie_groups(&sorted);
                // A pooled sample of one value has no variation: as R, not testable.
                if groups.len() == 1 {
                    return Err(StatsError::Constant);
                }
                TiedRankSum::new(&groups, n)
            }
            _ => None,
        };
        Ok(Ranked {
            n,
            m,
            statistic,
            tie_correction: ranks.tie_correction,
            has_ties: ranks.has_ties,
            tied,
        })
    }

    /// [`Ranked::new`] from the sides sorted: one merge gives the pooled sample sorted, then each group of
    /// equal values (`==`, so −0.0 and +0.0 together, as [`midranks`]) gives x's values in it their midrank.
    fn sorted(x: Sorted<'_>, y: Sorted<'_>, ties: Ties) -> StatsResult<Ranked> {
        let (x, y) = (x.values(), y.values());
        check_len(x, 1)?;
        check_len(y, 1)?;
        check_finite(x)?;
        check_finite(y)?;
        let (n, m) = (x.len(), y.len());
        let pooled = merge(x, y);
        let (mut rank_sum_x, mut tie_correction, mut groups) = (0.0, 0.0, 0);
        let (mut start, mut in_x) = (0, 0);
        while start < pooled.len() {
            let value = pooled[start];
            let end = start + pooled[start..].iter().take_while(|&&v| v == value).count();
            let x_end = in_x + x[in_x..].iter().take_while(|&&v| v == value).count();
            let rank = (start + 1 + end) as f64 / 2.0;
            rank_sum_x += (x_end - in_x) as f64 * rank;
            let t = (end - start) as f64;
            tie_correction += t * t * t - t;
            groups += 1;
            (start, in_x) = (end, x_end);
        }
        let statistic = rank_sum_x - (n * (n + 1)) as f64 / 2.0;
        let has_ties = tie_correction > 0.0;
        let small = n <= EXACT_MAX && m <= EXACT_MAX;
        let tied = match ties {
            Ties::Exact if small && has_ties => {
                // A pooled sample of one value has no variation: as R, not testable.
                if groups == 1 {
                    return Err(StatsError::Constant);
                }
                TiedRankSum::new(&tie_groups(&pooled), n)
            }
            _ => None,
        };
        Ok(Ranked {
            n,
            m,
            statistic,
            tie_correction,
            has_ties,
            tied,
        })
    }

    fn test(&self, alternative: Alternative) -> StatsResult<RankSum> {
        let (n, m, statistic) = (self.n, self.m, self.statistic);
        let small = n <= EXACT_MAX && m <= EXACT_MAX;
        let (p_value, method) = if let Some(dist) = &self.tied {
            (dist.p_value(statistic, alternative), Method::Exact)
        } else if small && !self.has_ties {
            let dist = ExactRankSum::shared(n, m)?;
            (dist.p_value(statistic, alternative), Method::Exact)
        } else {
            let p = normal_p_value(statistic, n, m, self.tie_correction, alternative)?;
            (p, Method::Approximate)
        };
        Ok(RankSum {
            statistic,
            p_value,
            method,
            p_x_greater: statistic / (n * m) as f64,
        })
    }
}

/// Ascending `x` and `y` merged by the total order: the pooled sample sorted.
fn merge(x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut pooled = Vec::with_capacity(x.len() + y.len());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        if x[i].total_cmp(&y[j]).is_le() {
            pooled.push(x[i]);
            i += 1;
        } else {
            pooled.push(y[j]);
            j += 1;
        }
    }
    pooled.extend_from_slice(&x[i..]);
    pooled.extend_from_slice(&y[j..]);
    pooled
}

/// The smallest one-sided p-value the test can reach with n against m values and no ties: one arrangement
/// out of C(n + m, n) (1/2 with 1 v 1, 1/252 with 5 v 5). C is built as a product of ratios that stay exact
/// integers while they are below 2^53, so the boundary cases compare exactly (3 v 3: 1/20 = 0.05).
pub fn smallest_p_value(n: usize, m: usize) -> f64 {
    let (small, large) = (n.min(m), n.max(m));
    let arrangements = (1..=small).fold(1.0_f64, |c, i| c * (large + i) as f64 / i as f64);
    1.0 / arrangements
}

/// Whether a one-sided test of n against m values can reach `alpha` at all.
pub fn can_reject(n: usize, m: usize, alpha: f64) -> bool {
    smallest_p_value(n, m) <= alpha
}

/// The normal approximation of R with continuity correction and tie correction:
/// σ² = nm/12·[(N+1) − Σ(t³−t)/(N(N−1))], z = (W − nm/2 − CORR)/σ, CORR = +½ (greater), −½ (less),
/// sign(W − nm/2)·½ (two-sided). σ = 0 (every value tied) is [`StatsError::Constant`].
pub fn normal_p_value(
    w: f64,
    n: usize,
    m: usize,
    tie_correction: f64,
    alternative: Alternative,
) -> StatsResult<f64> {
    if n == 0 || m == 0 {
        return Err(StatsError::TooFew {
            needed: 1,
            got: n.min(m),
        });
    }
    if !w.is_finite() || !tie_correction.is_finite() {
        return Err(StatsError::NonFinite);
    }
    let sigma = rank_sum_sigma(n, m, tie_correction)?;
    let centred = w - (n * m) as f64 / 2.0;
    let z = (centred - continuity(centred, alternative)) / sigma;
    Ok(normal_tail(z, alternative))
}

/// σ of W under H0 with the tie correction; zero (all values tied) or negative is [`StatsError::Constant`].
pub(crate) fn rank_sum_sigma(n: usize, m: usize, tie_correction: f64) -> StatsResult<f64> {
    let (nf, mf) = (n as f64, m as f64);
    let big_n = nf + mf;
    let variance = nf * mf / 12.0 * ((big_n + 1.0) - tie_correction / (big_n * (big_n - 1.0)));
    if variance > 0.0 {
        Ok(variance.sqrt())
    } else {
        Err(StatsError::Constant)
    }
}

/// R's continuity correction for a statistic already centred on its null mean.
pub(crate) fn continuity(centred: f64, alternative: Alternative) -> f64 {
    match alternative {
        Alternative::Greater => 0.5,
        Alternative::Less => -0.5,
        Alternative::TwoSided if centred > 0.0 => 0.5,
        Alternative::TwoSided if centred < 0.0 => -0.5,
        Alternative::TwoSided => 0.0,
    }
}

/// P(S ≥ s) of an exact null distribution on 0..=top whose upper tails are `upper` (`upper[u]` = P(S ≥ u));
/// a non-integer s is rounded up. A NaN s gives 1 (no evidence).
pub(crate) fn upper_tail(upper: &[f64], s: f64) -> f64 {
    let top = upper.len() as f64 - 1.0;
    if s.is_nan() || s <= 0.0 {
        return 1.0;
    }
    if s > top {
        return 0.0;
    }
    upper[s.ceil() as usize]
}

/// P(S ≤ s) of an exact null distribution on 0..=top whose lower tails are `lower` (`lower[u]` = P(S ≤ u));
/// a non-integer s is rounded down. A NaN s gives 1 (no evidence).
pub(crate) fn lower_tail(lower: &[f64], s: f64) -> f64 {
    let top = lower.len() as f64 - 1.0;
    if s.is_nan() || s >= top {
        return 1.0;
    }
    if s < 0.0 {
        return 0.0;
    }
    lower[s.floor() as usize]
}

/// The p-value of a standard normal z for the given alternative (upper tail for `Greater`).
pub(crate) fn normal_tail(z: f64, alternative: Alternative) -> f64 {
    let (upper, lower) = (normal::sf(z), normal::cdf(z));
    alternative.p_from_tails(upper < lower, || upper, || lower)
}

/// The tables [`ExactRankSum::shared`] keeps, by sizes (n, m).
type SharedTables = HashMap<(usize, usize), Arc<ExactRankSum>>;

/// The exact tables [`ExactRankSum::shared`] keeps at most.
pub const SHARED_TABLES: usize = 256;

/// Exact null distribution of W for sizes n, m ≤ 49, built once and reused: HPT re-tests a benchmark at
/// hundreds of shifts, computing W itself and asking for p-values here.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactRankSum {
    n: usize,
    m: usize,
    /// P(W = u), u = 0..=nm.
    pmf: Vec<f64>,
    /// P(W ≤ u), from exact integer sums.
    lower: Vec<f64>,
    /// P(W ≥ u), from exact integer sums.
    upper: Vec<f64>,
}

impl ExactRankSum {
    /// Builds the distribution for sizes n, m in 1..=49: O(n²m) integer operations (about 0.1 ms at 49 × 49).
    pub fn new(n: usize, m: usize) -> StatsResult<Self> {
        if n == 0 || m == 0 {
            return Err(StatsError::TooFew {
                needed: 1,
                got: n.min(m),
            });
        }
        if n > EXACT_MAX || m > EXACT_MAX {
            return Err(StatsError::TooMany {
                max: EXACT_MAX,
                got: n.max(m),
            });
        }
        let counts = gaussian_binomial(n, m);
        let total_f = counts.iter().sum::<i128>() as f64;
        let pmf = counts.iter().map(|&c| c as f64 / total_f).collect();
        let mut lower = Vec::with_capacity(counts.len());
        let mut below: i128 = 0;
        for &c in &counts {
            below += c;
            lower.push(below as f64 / total_f);
        }
        // W is symmetric about nm/2: P(W ≥ u) = P(W ≤ nm − u), exactly.
        let upper = lower.iter().rev().copied().collect();
        Ok(ExactRankSum {
            n,
            m,
            pmf,
            lower,
            upper,
        })
    }

    /// The distribution for sizes n, m, built once per process and then shared: an analysis asks for the
    /// same few sizes (the runs per side) for every benchmark, at every level of the search and for every
    /// interval, and building it was a sixth of the analysis of 1000 benchmarks of 20 runs. The tables
    /// depend on (n, m) alone, so sharing them changes no result. At most [`SHARED_TABLES`] are kept (each
    /// at most ~60 kB); beyond, the cache starts again.
    pub fn shared(n: usize, m: usize) -> StatsResult<Arc<Self>> {
        static TABLES: OnceLock<Mutex<SharedTables>> = OnceLock::new();
        let tables = TABLES.get_or_init(Mutex::default);
        // A panic elsewhere while the lock was held leaves whole entries only: the map is still sound.
        let cached = tables
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&(n, m))
            .cloned();
        if let Some(table) = cached {
            return Ok(table);
        }
        // Built outside the lock, so that threads asking for other sizes do not wait.
        let table = Arc::new(ExactRankSum::new(n, m)?);
        let mut tables = tables
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if tables.len() >= SHARED_TABLES {
            tables.clear();
        }
        tables.insert((n, m), Arc::clone(&table));
        Ok(table)
    }

    /// The sizes (n, m) this distribution is for.
    pub fn sizes(&self) -> (usize, usize) {
        (self.n, self.m)
    }

    /// P(W = u) for u = 0..=nm.
    pub fn pmf(&self) -> &[f64] {
        &self.pmf
    }

    /// P(W ≥ w); a non-integer w is rounded up. A NaN w gives 1 (no evidence).
    pub fn p_upper(&self, w: f64) -> f64 {
        upper_tail(&self.upper, w)
    }

    /// P(W ≤ w); a non-integer w is rounded down. A NaN w gives 1 (no evidence).
    pub fn p_lower(&self, w: f64) -> f64 {
        lower_tail(&self.lower, w)
    }

    /// The p-value of an observed W: the two-sided one doubles the smaller tail, as R does.
    pub fn p_value(&self, w: f64, alternative: Alternative) -> f64 {
        let in_upper = w > (self.n * self.m) as f64 / 2.0;
        alternative.p_from_tails(in_upper, || self.p_upper(w), || self.p_lower(w))
    }

    /// The smallest u with P(W ≤ u) ≥ p (R's `qwilcox`), comparing with a relative fuzz of 1e-12 so that a
    /// level equal to a cumulative probability in exact arithmetic is found despite rounding.
    pub fn quantile(&self, p: f64) -> usize {
        let target = p * (1.0 - 1e-12);
        self.lower
            .partition_point(|&c| c < target)
            .min(self.lower.len() - 1)
    }
}

/// Coefficients of [n+m choose n]_q: the number of arrangements of n x's and m y's with U = u.
///
/// The distribution is symmetric (U ↦ nm − U), and the coefficients up to degree K of a product depend only
/// on the factors' coefficients up to K, so only the lower half is computed, then mirrored.
fn gaussian_binomial(n: usize, m: usize) -> Vec<i128> {
    let half = n * m / 2;
    let mut c = vec![0i128; half + 1];
    c[0] = 1;
    for i in 1..=n {
        // Now c holds [m+i−1 choose i−1]_q, of degree (i−1)m. Multiply by (1 − q^{m+i}) ...
        let top = ((i - 1) * m).min(half.saturating_sub(m + i));
        if m + i <= half {
            for u in (0..=top).rev() {
                c[u + m + i] -= c[u];
            }
        }
        // ... then divide by (1 − q^i): c[u] += c[u − i] in ascending order. The result has degree im.
        for u in i..=(i * m).min(half) {
            c[u] += c[u - i];
        }
        // The division is exact: the terms beyond degree im have cancelled.
        for v in c.iter_mut().take(half.min(i * m + i) + 1).skip(i * m + 1) {
            *v = 0;
        }
    }
    let mut full = c.clone();
    full.extend((half + 1..=n * m).map(|u| c[n * m - u]));
    full
}

#[cfg(test)]
mod tests;
