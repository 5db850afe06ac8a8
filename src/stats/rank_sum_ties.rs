//! The exact conditional null distribution of the rank-sum statistic given the pooled sample's ties: the
//! permutation distribution of W over the C(n+m, n) ways to choose which pooled values are x's, with the
//! tied values keeping their midranks.
//!
//! - Why: with process runs as observations n is often 5 to 20 per side, and coarse timings (Go's integer
//!   ns/op, data files with few decimals) tie. R's `wilcox.test` then falls back to the normal
//!   approximation, whose error at these sizes is of the order of the p-values the protocols decide on. The
//!   conditional distribution is the exact one (Lehmann, *Nonparametrics*, 1975, §1.4), and what
//!   `coin::wilcox_test(distribution = "exact")` computes (Hothorn, Hornik, van de Wiel and Zeileis, *J.
//!   Stat. Softw.* 28(8), 2008, by the shift algorithm of Streitberg and Röhmel, *Statistical Software
//!   Newsletter* 12, 1986).
//! - Algorithm: doubled midranks are integers (a group of t values after a others has doubled rank
//!   2a + t + 1). Counting the subsets of k = min(n, m) pooled positions by the sum of their doubled ranks is
//!   a knapsack over the tie groups: a group of t equal values with doubled rank r contributes j of its
//!   members in C(t, j) ways and adds j·r, for j = 0..t (the shift algorithm's recursion, taken group by
//!   group). Counts are f64: the total C(98, 49) ≈ 2.5e28 is far inside its range, and every count is a sum
//!   of positive terms, so the relative error stays near 1e-15.
//! - Cost: Σ_g t_g · (k + 1) · (D + 1) cell updates, D the largest doubled rank sum of k values. It is used
//!   while that is at most [`EXACT_TIES_BUDGET`] (2.5·10^6, about a millisecond): every size up to 25
//!   against 25, and 49 against up to 17; beyond it callers use the normal approximation with the tie
//!   correction, as R does, whose error shrinks as the samples grow. The bound is set by HPT, which re-tests
//!   each benchmark at every gamma of its scan and meets a new tie pattern at many of them.
//! - Checked against the full enumeration of the C(n+m, n) subsets in `rank_sum_tests.rs`, and against coin
//!   1.4 (`fixtures/r/rank_sum_ties.R`).
//!
//! Pure and allocation-bounded by the budget; it never sees the data, only the tie structure.

/// The largest number of cell updates the exact tied distribution may cost (see the module doc).
pub const EXACT_TIES_BUDGET: u64 = 2_500_000;

/// The exact null distribution of W = Σ rank(x) − n(n+1)/2 for a pooled sample with the given tie groups.
#[derive(Debug, Clone, PartialEq)]
pub struct TiedRankSum {
    n: usize,
    m: usize,
    /// P(2W ≤ v) for v = 0..=2nm, from the distribution of the doubled statistic.
    lower: Vec<f64>,
    /// P(2W ≥ v) for v = 0..=2nm.
    upper: Vec<f64>,
}

/// The doubled midrank of each tie group: a group of t values after `before` others spans positions
/// before+1 ..= before+t, whose mean doubled is 2·before + t + 1.
fn doubled_ranks(groups: &[usize]) -> Vec<(usize, u64)> {
    let mut before = 0u64;
    groups
        .iter()
        .map(|&t| {
            let rank = 2 * before + t as u64 + 1;
            before += t as u64;
            (t, rank)
        })
        .collect()
}

/// The cell updates [`TiedRankSum::new`] would cost for these groups with `n` values in x.
pub fn cost(groups: &[usize], n: usize) -> u64 {
    let total: usize = groups.iter().sum();
    let k = n.min(total.saturating_sub(n)) as u64;
    let top = largest_sum(groups, k as usize);
    total as u64 * (k + 1) * (top + 1)
}

/// The largest sum of doubled ranks of `k` pooled values: the k largest.
fn largest_sum(groups: &[usize], k: usize) -> u64 {
    let mut left = k;
    let mut sum = 0u64;
    for &(t, rank) in doubled_ranks(groups).iter().rev() {
        let take = t.min(left);
        sum += take as u64 * rank;
        left -= take;
        if left == 0 {
            break;
        }
    }
    sum
}

impl TiedRankSum {
    /// The distribution for `n` x values in a pooled sample whose equal values form `groups` (sizes in
    /// ascending order of value, summing to n + m); `None` when a side is empty or the cost exceeds
    /// [`EXACT_TIES_BUDGET`].
    pub fn new(groups: &[usize], n: usize) -> Option<TiedRankSum> {
        let total: usize = groups.iter().sum();
        let m = total.checked_sub(n)?;
        if n == 0 || m == 0 || groups.contains(&0) || cost(groups, n) > EXACT_TIES_BUDGET {
            return None;
        }
        // Count subsets of the smaller side's size; the other side's law follows by complement.
        let k = n.min(m);
        let ranks = doubled_ranks(groups);
        let top = largest_sum(groups, k) as usize;
        let width = top + 1;
        let mut counts = vec![0.0f64; (k + 1) * width];
        counts[0] = 1.0;
        let mut reach = 0usize; // the largest doubled sum reachable so far
        let mut seen = 0usize;
        for &(t, rank) in &ranks {
            let rank = rank as usize;
            let binomials = binomial_row(t);
            for chosen in (0..k.min(seen) + 1).rev() {
                let row = chosen * width;
                for sum in 0..=reach.min(top) {
                    let c = counts[row + sum];
                    if c == 0.0 {
                        continue;
                    }
                    for j in 1..=t.min(k - chosen) {
                        let target = sum + j * rank;
                        if target > top {
                            break;
                        }
                        counts[(chosen + j) * width + target] += c * binomials[j];
                    }
                }
            }
            seen += t;
            reach += t * rank;
        }
        let subsets = &counts[k * width..];
        let all: f64 = subsets.iter().sum();
        // Doubled W of the counted side: D − k(k+1); of x: itself when x is the smaller side, else 2nm minus.
        let offset = k * (k + 1);
        let top_w = 2 * n * m;
        let mut pmf = vec![0.0f64; top_w + 1];
        for (d, &c) in subsets.iter().enumerate() {
            if c == 0.0 || d < offset {
                continue;
            }
            let w_counted = d - offset;
            let w_x = if k == n { w_counted } else { top_w - w_counted };
            if w_x <= top_w {
                pmf[w_x] += c;
            }
        }
        let mut lower = Vec::with_capacity(pmf.len());
        let mut below = 0.0;
        for c in &pmf {
            below += c;
            lower.push((below / all).min(1.0));
        }
        let mut upper = vec![0.0; pmf.len()];
        let mut above = 0.0;
        for (v, c) in pmf.iter().enumerate().rev() {
            above += c;
            upper[v] = (above / all).min(1.0);
        }
        Some(TiedRankSum { n, m, lower, upper })
    }

    /// P(W ≥ w). W is a multiple of ½; a w between two attainable values rounds towards the tail.
    pub fn p_upper(&self, w: f64) -> f64 {
        let doubled = 2.0 * w - 1e-9;
        if doubled.is_nan() || doubled <= 0.0 {
            return 1.0;
        }
        let index = doubled.ceil();
        if index >= self.upper.len() as f64 {
            return 0.0;
        }
        self.upper[index as usize]
    }

    /// P(W ≤ w).
    pub fn p_lower(&self, w: f64) -> f64 {
        let doubled = 2.0 * w + 1e-9;
        if doubled.is_nan() || doubled >= (self.lower.len() - 1) as f64 {
            return 1.0;
        }
        if doubled < 0.0 {
            return 0.0;
        }
        self.lower[doubled.floor() as usize]
    }

    /// The p-value of an observed W; the two-sided one doubles the smaller tail, as for the untied table.
    pub fn p_value(&self, w: f64, alternative: super::Alternative) -> f64 {
        let in_upper = w > (self.n * self.m) as f64 / 2.0;
        alternative.p_from_tails(in_upper, || self.p_upper(w), || self.p_lower(w))
    }
}

/// C(t, 0..=t) as f64, exact for the group sizes of interest (t ≤ 98 stays below 2^53 up to t = 56, and
/// within a relative 1e-16 beyond).
fn binomial_row(t: usize) -> Vec<f64> {
    let mut row = vec![1.0f64; t + 1];
    for j in 1..=t {
        row[j] = row[j - 1] * (t + 1 - j) as f64 / j as f64;
    }
    for value in &mut row {
        *value = value.round();
    }
    row
}

/// The sizes of the groups of equal values of a sorted slice, in order.
pub fn tie_groups(sorted: &[f64]) -> Vec<usize> {
    sorted.chunk_by(|a, b| a == b).map(<[f64]>::len).collect()
}
