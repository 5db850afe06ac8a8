//! Hodges–Lehmann estimate of the shift x − y and its confidence interval, as R's
//! `wilcox.test(x, y, conf.int = TRUE)$estimate` and `$conf.int` (Hodges & Lehmann 1963, *Ann. Math. Stat.*
//! 34:598–611; Bauer 1972, *JASA* 67:687–690; Hollander & Wolfe, *Nonparametric Statistical Methods*, §4.3).
//!
//! The interval is the set of shifts μ that the rank-sum test of (x − μ, y) does not reject. Its ends are
//! order statistics d_(k) of the nm differences d = x_i − y_j, so everything reduces to selecting d_(k):
//! - **Exact case** (n, m ≤ 49, no ties in the pooled sample: the rank-sum test's own rule). The estimate is
//!   median(d). With q = the smallest u with P(W ≤ u) ≥ α′ (1 if that is 0), the two-sided interval
//!   (α′ = α/2) is [d_(q), d_(nm−q+1)], "greater" (α′ = α) is [d_(q), ∞), "less" is (−∞, d_(nm−q+1)].
//!   This reproduces R bit for bit, except when α′ equals a cumulative probability exactly (e.g. a one-sided
//!   50 % interval with nm odd, where P(W ≤ (nm−1)/2) = ½): q is then decided in exact integer arithmetic,
//!   whereas R's running floating sum of the probabilities lands on either side of the tie, so R may return
//!   the neighbouring difference.
//! - **Approximate case.** R inverts the normal approximation with continuity correction: a bound is the μ
//!   where z(μ) = (W(μ) − nm/2 − CORR)/σ(μ) crosses ±z_{1−α/2} (±z_{1−α} one-sided), with σ(μ) tie-corrected
//!   for the pooled (x − μ, y). Between two consecutive differences W(μ) = nm − k is constant and the only
//!   ties are those within x and within y, so z is a non-increasing step function of k and each crossing is
//!   exactly at a difference d_(k), found by a binary search on k. R locates the same jump with `uniroot`
//!   (tolerance 1e-4), so its bounds differ from these by up to about 1e-4 in absolute terms: **decision:
//!   return the exact jump, not R's root-finder approximation of it** (`docs/statistics.md` §5). Where no jump
//!   crosses, R returns min(d) or max(d), and so does this. A bound is the first jump where z falls strictly
//!   below its quantile; when z equals the quantile on a whole stretch (only for one-sided 50 % intervals,
//!   where the quantile is 0, with nm odd) R may stop anywhere on that stretch. The estimate is median(d),
//!   the root of the uncorrected z, which R also only approximates (anywhere between the two middle
//!   differences when nm is even).
//! - d_(k) is selected without forming the nm differences: with x ascending and y descending, the matrix
//!   x_i − y_j is sorted along rows and columns; each round counts the elements below and at a pivot in one
//!   O(n + m) walk (four columns at a time without a branch, two pivots per walk: `walk_two`) and keeps, per
//!   row, the candidates on the sought side (Johnson & Mizoguchi 1978, *SIAM J. Comput.* 7:147–153; Monahan
//!   1984, ACM TOMS 10:265). The first pivots are the quantiles just below and above the sought rank in a
//!   sorted grid of up to 12 × 12 differences (`GRID`; evenly spaced rows and columns), the next ones two
//!   values around the rank interpolated within the remaining range, and whenever a round keeps more than a
//!   quarter of the candidates the next pivot is Johnson and Mizoguchi's weighted median of the row medians,
//!   which discards at least a quarter: O((n log n + m) log(nm)) at worst, three rounds in the usual case.
//!   Any pivot gives the same answer; the selected value is a difference computed exactly as R computes
//!   `outer(x, y, "-")`. The grid is sorted by merging its rows, each already ascending.
//! - **Shared work** ([`hodges_lehmann_both`]): the shift and the ratio of the same samples at the same level
//!   have the same checks, sorted samples, pooled ties, method and ranks of the ends; these are computed
//!   once, and only the differences and the ratios (not in the same order) are selected apart.
//! - **Sorted samples** (`hodges_lehmann_ends_sorted`, `hodges_lehmann_both_sorted`): the analysis of a
//!   benchmark hands over each side's one sorted copy (`sorted.rs`); x ascending is that copy and y
//!   descending that copy read backwards, which is what sorting y by the reversed total order gives, so the
//!   intervals are the same bits as those of the public functions, which sort for themselves.
//! - **Ratios** ([`hodges_lehmann_ratio`]): for positive x and y, the same interval on the log scale, the
//!   set of ratios γ that the rank-sum test of (x / γ, y) does not reject (R: `wilcox.test(log(x), log(y),
//!   conf.int = TRUE)`, exponentiated). The log is increasing, so the ranks, the ties and therefore the test,
//!   its method and its ranks d_(k) are those of the shift; only the contrast changes, x_i / y_j in place of
//!   x_i − y_j (sorted the same way), and the ends are pairwise ratios computed by one division.
//!
//! Errors: empty samples → TooFew; NaN/∞ or a difference overflowing to ∞ (a ratio to ∞ or 0) → NonFinite;
//! all values equal → Constant (R stops); a confidence outside (0, 1), or a value ≤ 0 for a ratio →
//! InvalidArgument. Never ported from R; R 4.2.2 is the oracle (`fixtures/r/hodges_lehmann.R`,
//! `fixtures/r/hodges_lehmann_ratio.R`).

use super::rank::{has_ties_sorted, tie_correction_sorted};
use super::rank_sum::{EXACT_MAX, ExactRankSum, continuity, rank_sum_sigma};
use super::sorted::{Sorted, SortedVec};
use super::{Alternative, Method, StatsError, StatsResult, check_finite, check_len, normal};

/// The Hodges–Lehmann shift x − y with its confidence interval (an infinite end for one-sided intervals),
/// or from [`hodges_lehmann_ratio`] the ratio x / y with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShiftInterval {
    /// The Hodges–Lehmann estimate of x − y (BASE − HEAD): the median of the pairwise differences (of the
    /// pairwise ratios for [`hodges_lehmann_ratio`]).
    pub estimate: f64,
    /// Lower end of the interval; −∞ for the `Less` alternative (0 for a ratio).
    pub lower: f64,
    /// Upper end of the interval; +∞ for the `Greater` alternative.
    pub upper: f64,
    /// Exact (no ties, n, m ≤ 49) or from the normal approximation, as the rank-sum test chooses.
    pub method: Method,
}

/// Hodges–Lehmann estimate of the shift x − y and its `confidence` interval for `alternative`, as
/// `wilcox.test(x, y, alternative, conf.int = TRUE, conf.level = confidence)`.
pub fn hodges_lehmann(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
    confidence: f64,
) -> StatsResult<ShiftInterval> {
    interval(x, y, alternative, confidence, Contrast::Difference)
}

/// The same estimate and interval for the ratio x / y of positive values: the shift of log x − log y,
/// exponentiated, as `exp(wilcox.test(log(x), log(y), alternative, conf.int = TRUE, conf.level =
/// confidence)$conf.int)` (and `$estimate`). The interval is the set of ratios γ for which the rank-sum
/// test of x against γ·y does not reject; the test is invariant under the log, so it is the same test, with
/// the same exact or approximate method and the same ties, as that of x against y.
///
/// Its finite ends are ratios x_i / y_j themselves, computed as one division (not as the exponential of a
/// difference of logs, which can miss the ratio by an ulp or two), so an interval always lies within
/// [min x / max y, max x / min y]: one outlying value widens it, never makes it unbounded. The estimate is
/// the median of the nm ratios (the geometric mean of the two middle ones when nm is even: the exponential
/// of the median of the log ratios). Errors as [`hodges_lehmann`], and a value that is not positive is an
/// [`StatsError::InvalidArgument`] (a ratio of times needs times above 0).
pub fn hodges_lehmann_ratio(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
    confidence: f64,
) -> StatsResult<ShiftInterval> {
    interval(x, y, alternative, confidence, Contrast::Ratio)
}

/// The shift's and the ratio's intervals of the same `x` and `y` at the same `confidence`, as
/// ([`hodges_lehmann`], [`hodges_lehmann_ratio`]) return them, each result bit for bit the same: what the two
/// have in common (the checks, x and y sorted, the pooled sample's ties, the method and the ranks of the
/// ends) is computed once, and only the contrasts are selected twice (the differences and the ratios are not
/// in the same order, so their order statistics are selected apart).
pub fn hodges_lehmann_both(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
    confidence: f64,
) -> (StatsResult<ShiftInterval>, StatsResult<ShiftInterval>) {
    let (x, y) = (SortedVec::of(x), SortedVec::of(y));
    hodges_lehmann_both_sorted(x.as_sorted(), y.as_sorted(), alternative, confidence)
}

/// The ends alone of [`hodges_lehmann`]'s interval (an infinite end as there) of two sorted samples, the
/// same bits, without sorting them again (see [`Ranked::sorted`]) and without selecting the estimate: for
/// a check that reads only the ends (the equivalence check).
pub(crate) fn hodges_lehmann_ends_sorted(
    x: Sorted<'_>,
    y: Sorted<'_>,
    alternative: Alternative,
    confidence: f64,
) -> StatsResult<(f64, f64)> {
    Ranked::sorted(x, y, alternative, confidence)?
        .ends(Contrast::Difference)
        .map(|(ends, _)| ends)
}

/// [`hodges_lehmann_both`] of two sorted samples, without sorting them again (the same results: see
/// [`Ranked::sorted`]).
pub(crate) fn hodges_lehmann_both_sorted(
    x: Sorted<'_>,
    y: Sorted<'_>,
    alternative: Alternative,
    confidence: f64,
) -> (StatsResult<ShiftInterval>, StatsResult<ShiftInterval>) {
    match Ranked::sorted(x, y, alternative, confidence) {
        Ok(ranked) => (
            ranked.interval(Contrast::Difference),
            ranked.interval(Contrast::Ratio),
        ),
        Err(e) => (Err(e.clone()), Err(e)),
    }
}

/// [`hodges_lehmann`] or [`hodges_lehmann_ratio`], as `contrast` says.
fn interval(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
    confidence: f64,
    contrast: Contrast,
) -> StatsResult<ShiftInterval> {
    Ranked::new(x, y, alternative, confidence)?.interval(contrast)
}

/// The 1-based ranks of an interval's lower and upper ends among the sorted contrasts (`None`: an infinite
/// end).
type EndRanks = (Option<usize>, Option<usize>);

/// What an interval needs whatever its contrast: x ascending, y descending, and the method with the 1-based
/// ranks of the ends (`None`: an infinite end), or the error that the contrast's own checks do not come
/// before (constant samples, a level the exact distribution cannot give).
struct Ranked {
    x: Vec<f64>,
    y_desc: Vec<f64>,
    ranks: StatsResult<(Method, EndRanks)>,
}

impl Ranked {
    /// [`Ranked::sorted`] of samples not yet sorted: sorts them.
    fn new(x: &[f64], y: &[f64], alternative: Alternative, confidence: f64) -> StatsResult<Self> {
        let (x, y) = (SortedVec::of(x), SortedVec::of(y));
        Ranked::sorted(x.as_sorted(), y.as_sorted(), alternative, confidence)
    }

    /// The checks common to both contrasts (sizes, finite values, the level) and the ranks, of sorted
    /// samples: x ascending and y descending, the latter read backwards from y ascending (under the total
    /// order equal values have equal bits, so that is what sorting y by the reversed order gives).
    fn sorted(
        x: Sorted<'_>,
        y: Sorted<'_>,
        alternative: Alternative,
        confidence: f64,
    ) -> StatsResult<Self> {
        check_len(x.values(), 1)?;
        check_len(y.values(), 1)?;
        check_finite(x.values())?;
        check_finite(y.values())?;
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(StatsError::InvalidArgument("confidence must lie in (0, 1)"));
        }
        let sorted_x = x.values().to_vec();
        let y_desc = y.descending();
        let ranks = ranks(&sorted_x, &y_desc, alternative, 1.0 - confidence);
        Ok(Ranked {
            x: sorted_x,
            y_desc,
            ranks,
        })
    }

    /// The interval of `contrast`: its own checks (positive values for a ratio, contrasts that stay
    /// finite), then the shared ranks, then the selection of the estimate and the ends.
    fn interval(&self, contrast: Contrast) -> StatsResult<ShiftInterval> {
        let ((lower, upper), (method, diffs)) = self.ends(contrast)?;
        Ok(ShiftInterval {
            estimate: diffs.median(),
            lower,
            upper,
            method,
        })
    }

    /// The ends of the interval of `contrast` after its checks, with the method and the contrasts for
    /// the estimate.
    fn ends(&self, contrast: Contrast) -> StatsResult<((f64, f64), (Method, Differences<'_>))> {
        if contrast == Contrast::Ratio && !self.x.iter().chain(&self.y_desc).all(|v| *v > 0.0) {
            return Err(StatsError::InvalidArgument("a ratio needs values above 0"));
        }
        let diffs = Differences::new(&self.x, &self.y_desc, contrast)?;
        let (method, (low_rank, high_rank)) = self.ranks.clone()?;
        let lower = low_rank.map_or(contrast.lowest(), |k| diffs.select(k));
        let upper = high_rank.map_or(f64::INFINITY, |k| diffs.select(k));
        Ok(((lower, upper), (method, diffs)))
    }
}

/// The method and the ranks of the ends for x ascending and y descending: Constant when every value is the
/// same, exact when the rank-sum test would be (no pooled ties, n, m ≤ 49), else from the normal
/// approximation with the within-sample ties.
fn ranks(
    x: &[f64],
    y_desc: &[f64],
    alternative: Alternative,
    alpha: f64,
) -> StatsResult<(Method, EndRanks)> {
    let (n, m) = (x.len(), y_desc.len());
    // The pooled sample sorted: x ascending merged with y ascending (y_desc read backwards).
    let mut pooled = Vec::with_capacity(n + m);
    let (mut i, mut ys) = (0, y_desc.iter().rev().peekable());
    while let Some(&b) = ys.peek() {
        if i < n && x[i].total_cmp(b).is_le() {
            pooled.push(x[i]);
            i += 1;
        } else {
            pooled.push(*b);
            ys.next();
        }
    }
    pooled.extend_from_slice(&x[i..]);
    if pooled[0] == pooled[pooled.len() - 1] {
        return Err(StatsError::Constant);
    }
    let pooled_ties = has_ties_sorted(&pooled);
    Ok(if n <= EXACT_MAX && m <= EXACT_MAX && !pooled_ties {
        (Method::Exact, exact_ranks(n, m, alpha, alternative)?)
    } else {
        let within = tie_correction_sorted(x) + tie_correction_sorted(y_desc);
        let sigma = rank_sum_sigma(n, m, within)?;
        (
            Method::Approximate,
            approximate_ranks(n * m, sigma, alpha, alternative),
        )
    })
}

/// The 1-based ranks of the interval's ends among the sorted differences (None: infinite end), exact case.
fn exact_ranks(
    n: usize,
    m: usize,
    alpha: f64,
    alternative: Alternative,
) -> StatsResult<(Option<usize>, Option<usize>)> {
    let dist = ExactRankSum::shared(n, m)?;
    let nm = n * m;
    let side = |a: f64| dist.quantile(a).max(1);
    Ok(match alternative {
        Alternative::TwoSided => {
            let q = side(alpha / 2.0);
            (Some(q), Some(nm + 1 - q))
        }
        Alternative::Greater => (Some(side(alpha)), None),
        Alternative::Less => (None, Some(nm + 1 - side(alpha))),
    })
}

/// The 1-based ranks of the interval's ends, approximate case: the jumps where z crosses its quantiles.
fn approximate_ranks(
    nm: usize,
    sigma: f64,
    alpha: f64,
    alternative: Alternative,
) -> (Option<usize>, Option<usize>) {
    let crossing = |zq: f64| Some(first_below(nm, sigma, zq, alternative).clamp(1, nm));
    match alternative {
        Alternative::TwoSided => (
            crossing(normal::quantile(1.0 - alpha / 2.0)),
            crossing(normal::quantile(alpha / 2.0)),
        ),
        Alternative::Greater => (crossing(normal::quantile(1.0 - alpha)), None),
        Alternative::Less => (None, crossing(normal::quantile(alpha))),
    }
}

/// The smallest k in 0..=nm such that z is below `zq` once k differences lie below μ (W = nm − k, only
/// within-sample ties); nm if there is none. z is non-increasing in k, so a binary search finds it.
fn first_below(nm: usize, sigma: f64, zq: f64, alternative: Alternative) -> usize {
    let half = nm as f64 / 2.0;
    let below = |k: usize| {
        let centred = half - k as f64;
        (centred - continuity(centred, alternative)) / sigma < zq
    };
    let (mut lo, mut hi) = (0, nm);
    if !below(hi) {
        return nm;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// How a pair (x_i, y_j) is compared: the shift's difference x_i − y_j, or the ratio x_i / y_j of positive
/// values (the shift of their logs, without taking logs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Contrast {
    Difference,
    Ratio,
}

impl Contrast {
    fn of(self, a: f64, b: f64) -> f64 {
        match self {
            Contrast::Difference => a - b,
            Contrast::Ratio => a / b,
        }
    }

    /// The open lower end of a one-sided interval: −∞ for a shift, 0 for a ratio (exp(−∞)).
    fn lowest(self) -> f64 {
        match self {
            Contrast::Difference => f64::NEG_INFINITY,
            Contrast::Ratio => 0.0,
        }
    }

    /// The centre of two neighbouring contrasts a ≤ b: their mean (R's mean of the two middle differences;
    /// halves first on overflow), or for ratios their geometric mean (the mean of the two middle logs).
    fn centre(self, a: f64, b: f64) -> f64 {
        match self {
            Contrast::Difference => {
                let mid = (a + b) / 2.0;
                if mid.is_finite() {
                    mid
                } else {
                    a / 2.0 + b / 2.0
                }
            }
            Contrast::Ratio if a == b => a,
            Contrast::Ratio => {
                let mid = (a * b).sqrt();
                if mid.is_finite() && mid > 0.0 {
                    mid
                } else {
                    a.sqrt() * b.sqrt()
                }
            }
        }
    }
}

/// The rows and columns of the grid of contrasts the first pivots are taken from. Any grid gives the same
/// intervals; its size only trades the cost of sorting it against the candidates its pivots leave. For
/// 1000 benchmarks of 100 runs per side (`benches/compare.rs`), the whole comparison took 1.331, 1.334,
/// 1.346, 1.370 and 1.460 · 10⁹ instructions with grids of 10, 12, 14, 16 and 8 (24: 1.540).
const GRID: usize = 12;

/// The implicit matrix of contrasts D(i, j) = x_i − y_j (or x_i / y_j, all positive), x ascending and y
/// descending, so that D is non-decreasing along rows and columns (floating subtraction, and division of
/// positive values, are monotone in each argument).
struct Differences<'a> {
    x: &'a [f64],
    y_desc: &'a [f64],
    contrast: Contrast,
    /// A sorted grid of up to [`GRID`] × [`GRID`] contrasts, at evenly spaced rows and columns: where the
    /// first pivots of [`Differences::select`] are taken. Empty when there are too few contrasts to need
    /// pivots.
    sample: Vec<f64>,
}

impl<'a> Differences<'a> {
    /// The contrasts of `x` ascending and `y_desc` descending; NonFinite when one overflows (a ratio also
    /// when one underflows to 0).
    fn new(x: &'a [f64], y_desc: &'a [f64], contrast: Contrast) -> StatsResult<Self> {
        let mut d = Differences {
            x,
            y_desc,
            contrast,
            sample: Vec::new(),
        };
        let (n, m) = (d.x.len(), d.y_desc.len());
        // A ratio that underflows to 0 has no logarithm: as an overflow, not finite.
        let lowest_ok = contrast == Contrast::Difference || d.at(0, 0) > 0.0;
        if !(d.at(0, 0).is_finite() && d.at(n - 1, m - 1).is_finite() && lowest_ok) {
            return Err(StatsError::NonFinite);
        }
        if n * m > n + m {
            let (rows, columns) = (n.min(GRID), m.min(GRID));
            let at_columns: Vec<usize> = (0..columns)
                .map(|b| (2 * b + 1) * m / (2 * columns))
                .collect();
            let mut grid = Vec::with_capacity(rows * columns);
            for a in 0..rows {
                let i = (2 * a + 1) * n / (2 * rows);
                grid.extend(at_columns.iter().map(|&j| d.at(i, j)));
            }
            d.sample = sorted_rows(grid, columns);
        }
        Ok(d)
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        self.contrast.of(self.x[i], self.y_desc[j])
    }

    fn len(&self) -> usize {
        self.x.len() * self.y_desc.len()
    }

    /// median(d), the centre of the two middle order statistics when nm is even.
    fn median(&self) -> f64 {
        let len = self.len();
        if len % 2 == 1 {
            self.select(len / 2 + 1)
        } else {
            let a = self.select(len / 2);
            let b = self.successor(a, len / 2);
            self.contrast.centre(a, b)
        }
    }

    /// d_(k+1), given a = d_(k): a itself if it is repeated past rank k, else the smallest difference above
    /// a (the first one past a in some row). One O(n + m) count instead of a second selection.
    fn successor(&self, a: f64, k: usize) -> f64 {
        let (mut below, mut at_most) = (vec![0; self.x.len()], vec![0; self.x.len()]);
        if self.count(a, &mut below, &mut at_most).1 > k {
            return a;
        }
        let m = self.y_desc.len();
        (0..self.x.len())
            .filter(|&i| at_most[i] < m)
            .map(|i| self.at(i, at_most[i]))
            .fold(f64::INFINITY, f64::min)
    }

    /// Per row i, how many D(i, ·) are below `pivot` (`below`) and at most `pivot` (`at_most`); returns the
    /// two sums. Rows are walked bottom-up so that one column pointer serves them all: O(n + m), plus the
    /// contrasts equal to the pivot.
    fn count(&self, pivot: f64, below: &mut [usize], at_most: &mut [usize]) -> (usize, usize) {
        let (x, y) = (self.x, self.y_desc);
        match self.contrast {
            Contrast::Difference => walk(x, y, pivot, below, at_most, |a, b| a - b),
            Contrast::Ratio => walk(x, y, pivot, below, at_most, |a, b| a / b),
        }
    }

    /// [`Differences::count`] of each of `pivots` into the matching `counts`, with the totals: two pivots in
    /// one walk ([`walk_two`]), whose two counts the processor carries on side by side, where a walk waits on
    /// each row's contrasts (a division's latency, for ratios) before the next row.
    fn count_each(
        &self,
        pivots: &[f64],
        counts: &mut [(Vec<usize>, Vec<usize>); 2],
    ) -> Vec<(usize, usize)> {
        let (x, y) = (self.x, self.y_desc);
        let [(lt0, le0), (lt1, le1)] = counts;
        match (pivots, self.contrast) {
            (&[p0, p1], Contrast::Difference) => {
                walk_two(x, y, [p0, p1], [(lt0, le0), (lt1, le1)], |a, b| a - b).to_vec()
            }
            (&[p0, p1], Contrast::Ratio) => {
                walk_two(x, y, [p0, p1], [(lt0, le0), (lt1, le1)], |a, b| a / b).to_vec()
            }
            _ => pivots
                .iter()
                .zip([(lt0, le0), (lt1, le1)])
                .map(|(&pivot, (lt, le))| self.count(pivot, lt, le))
                .collect(),
        }
    }

    /// d_(k), the k-th smallest difference (1 ≤ k ≤ nm).
    fn select(&self, k: usize) -> f64 {
        let (n, m) = (self.x.len(), self.y_desc.len());
        // Candidates: D(i, j) for lo[i] ≤ j < hi[i], all within [low, high].
        let (mut lo, mut hi) = (vec![0; n], vec![m; n]);
        // Per pivot of a round (at most two), each row's counts below and at most the pivot.
        let mut counts = [(vec![0; n], vec![0; n]), (vec![0; n], vec![0; n])];
        let (mut low, mut high) = (self.at(0, 0), self.at(n - 1, m - 1));
        let (mut before, mut remaining) = (0, n * m);
        let mut pivots = self.sample_pivots(k);
        let mut interpolate = true;
        loop {
            if remaining <= n + m {
                return self.select_among(k.saturating_sub(before), &lo, &hi);
            }
            if pivots.is_empty() {
                pivots = if interpolate {
                    interpolated_pivots(low, high, k - before, remaining)
                } else {
                    vec![self.pivot(&lo, &hi, remaining)]
                };
            }
            // A round's pivots within the bounds are counted before any is used, two in one walk: a count
            // depends on its pivot alone, and the bounds only narrow, so each is then taken in turn as if
            // counted in its turn.
            let counted: Vec<f64> = pivots
                .drain(..)
                .filter(|pivot| (low..=high).contains(pivot))
                .collect();
            let totals = self.count_each(&counted, &mut counts);
            for ((&pivot, (below, at_most)), (lt, le)) in counted.iter().zip(totals).zip(&counts) {
                if !(low..=high).contains(&pivot) {
                    continue;
                }
                if below < k && k <= at_most {
                    return pivot;
                }
                if k <= below {
                    hi.iter_mut().zip(lt).for_each(|(h, &c)| *h = (*h).min(c));
                    high = pivot;
                } else {
                    lo.iter_mut().zip(le).for_each(|(l, &c)| *l = (*l).max(c));
                    low = pivot;
                }
            }
            let kept: usize = lo.iter().zip(&hi).map(|(l, h)| h - l).sum();
            before = lo.iter().sum();
            // Interpolation again after a round that kept a quarter or less, and after a fallback round.
            interpolate = !interpolate || 4 * kept <= remaining;
            remaining = kept;
        }
    }

    /// The sample's quantiles about two standard errors below and above rank k of nm: the first pivots.
    fn sample_pivots(&self, k: usize) -> Vec<f64> {
        let len = self.sample.len();
        if len == 0 {
            return Vec::new();
        }
        let q = (k as f64 - 0.5) / self.len() as f64;
        let centre = q * len as f64;
        let margin = 2.0 * (len as f64 * q * (1.0 - q)).sqrt() + 1.0;
        let at = |p: f64| self.sample[(p.max(0.0) as usize).min(len - 1)];
        vec![at(centre - margin), at(centre + margin)]
    }

    /// The weighted median of the middle candidates of each row, weighted by the row's candidate count.
    fn pivot(&self, lo: &[usize], hi: &[usize], remaining: usize) -> f64 {
        let mut mids: Vec<(f64, usize)> = (0..lo.len())
            .filter(|&i| hi[i] > lo[i])
            .map(|i| (self.at(i, lo[i] + (hi[i] - lo[i]) / 2), hi[i] - lo[i]))
            .collect();
        mids.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut cumulative = 0;
        for &(value, weight) in &mids {
            cumulative += weight;
            if 2 * cumulative >= remaining {
                return value;
            }
        }
        mids.last().map_or(f64::NAN, |last| last.0)
    }

    /// The `rank`-th smallest (1-based) of the remaining candidates.
    fn select_among(&self, rank: usize, lo: &[usize], hi: &[usize]) -> f64 {
        let total = lo.iter().zip(hi).map(|(l, h)| h - l).sum();
        let mut candidates = Vec::with_capacity(total);
        for (i, (&l, &h)) in lo.iter().zip(hi).enumerate() {
            let x = self.x[i];
            match self.contrast {
                Contrast::Difference => candidates.extend(self.y_desc[l..h].iter().map(|y| x - y)),
                Contrast::Ratio => candidates.extend(self.y_desc[l..h].iter().map(|y| x / y)),
            }
        }
        let index = rank
            .saturating_sub(1)
            .min(candidates.len().saturating_sub(1));
        if candidates.is_empty() {
            return f64::NAN; // unreachable: the sought difference is always among the candidates
        }
        candidates.select_nth_unstable_by(index, f64::total_cmp);
        candidates[index]
    }
}

/// `values`, rows of `width` values each ascending (a grid row of the contrasts, non-decreasing along j),
/// sorted by merging the rows pairwise: the sorted vector that `sort_unstable_by(f64::total_cmp)` gives (the
/// total order leaves one sorted sequence), in about a third of its instructions. Sorted in full if a row
/// was not ascending after all, so the result never depends on that.
fn sorted_rows(mut values: Vec<f64>, width: usize) -> Vec<f64> {
    let len = values.len();
    let mut scratch = vec![0.0; len];
    let mut run = width.max(1);
    while run < len {
        for start in (0..len).step_by(2 * run) {
            let middle = (start + run).min(len);
            let end = (start + 2 * run).min(len);
            merge(
                &values[start..middle],
                &values[middle..end],
                &mut scratch[start..end],
            );
        }
        std::mem::swap(&mut values, &mut scratch);
        run *= 2;
    }
    if !values.windows(2).all(|w| w[0].total_cmp(&w[1]).is_le()) {
        values.sort_unstable_by(f64::total_cmp);
    }
    values
}

/// `a` and `b`, each ascending in the total order, merged into `out` (of their joint length).
fn merge(a: &[f64], b: &[f64], out: &mut [f64]) {
    let (mut i, mut j) = (0, 0);
    for slot in out.iter_mut() {
        if j == b.len() || (i < a.len() && a[i].total_cmp(&b[j]).is_le()) {
            *slot = a[i];
            i += 1;
        } else {
            *slot = b[j];
            j += 1;
        }
    }
}

/// Two pivots around the `rank`-th of `remaining` candidates spread evenly over [low, high]: the
/// interpolated value ± √remaining candidates' worth, so that the next round likely keeps about 2√remaining.
fn interpolated_pivots(low: f64, high: f64, rank: usize, remaining: usize) -> Vec<f64> {
    let r = remaining as f64;
    let guess = low + (high - low) * ((rank as f64 - 0.5) / r);
    let margin = (high - low) / r.sqrt();
    vec![guess - margin, guess + margin]
}

/// The first column from `j` on whose contrast with `xi` is not below `pivot` (`y_desc.len()` if none),
/// given that those before `j` are below it, with that contrast when there is one (computed on the way, so
/// that the caller's test for contrasts equal to the pivot needs no other). A row's contrasts are
/// non-decreasing, so the ones below the pivot come first: of four in a row, the number below is how far
/// to move, counted without a branch, and the loop goes on only while all four are below. The last columns,
/// fewer than four, one at a time.
#[inline(always)]
fn first_not_below(
    xi: f64,
    y_desc: &[f64],
    mut j: usize,
    pivot: f64,
    of: &impl Fn(f64, f64) -> f64,
) -> (usize, Option<f64>) {
    while let Some(four) = y_desc.get(j..j + 4) {
        let contrasts: [f64; 4] = std::array::from_fn(|l| of(xi, four[l]));
        let below: usize = contrasts.iter().map(|&d| usize::from(d < pivot)).sum();
        if below < 4 {
            return (j + below, Some(contrasts[below]));
        }
        j += 4;
    }
    while let Some(&y) = y_desc.get(j) {
        let d = of(xi, y);
        if d < pivot {
            j += 1;
        } else {
            return (j, Some(d));
        }
    }
    (j, None)
}

/// One row's counts below and at most `pivot`, its column pointer starting at `j` (the counts of the row
/// below it, or 0): [`first_not_below`], then the contrasts equal to the pivot, the first of them already
/// computed on the way.
#[inline(always)]
fn row_counts(
    xi: f64,
    y_desc: &[f64],
    j: usize,
    pivot: f64,
    of: &impl Fn(f64, f64) -> f64,
) -> (usize, usize) {
    let (below, first) = first_not_below(xi, y_desc, j, pivot, of);
    let mut equal = below;
    if first == Some(pivot) {
        equal += 1;
        while equal < y_desc.len() && of(xi, y_desc[equal]) == pivot {
            equal += 1;
        }
    }
    (below, equal)
}

/// [`walk`] of two pivots at once, each with its own column pointer and counts: the same counts as two
/// walks.
#[inline(always)]
fn walk_two(
    x: &[f64],
    y_desc: &[f64],
    pivots: [f64; 2],
    counts: [(&mut Vec<usize>, &mut Vec<usize>); 2],
    of: impl Fn(f64, f64) -> f64,
) -> [(usize, usize); 2] {
    let [(below0, at_most0), (below1, at_most1)] = counts;
    let (mut j, mut totals) = ([0; 2], [(0, 0); 2]);
    for i in (0..x.len()).rev() {
        for (p, (below, at_most)) in [
            (0, (&mut *below0, &mut *at_most0)),
            (1, (&mut *below1, &mut *at_most1)),
        ] {
            let (next, equal) = row_counts(x[i], y_desc, j[p], pivots[p], &of);
            j[p] = next;
            below[i] = next;
            at_most[i] = equal;
            totals[p].0 += next;
            totals[p].1 += equal;
        }
    }
    totals
}

/// [`Differences::count`] for one contrast `of`, inlined so that the walk has no branch on the contrast.
///
/// Each row moves the column pointer on by [`first_not_below`], four contrasts at a time: a walk one
/// contrast at a time ends each row on a branch the processor mispredicts about one time in two, and those
/// walks took a fifth of a large comparison's time (`docs/mixtures.md` §7).
#[inline(always)]
fn walk(
    x: &[f64],
    y_desc: &[f64],
    pivot: f64,
    below: &mut [usize],
    at_most: &mut [usize],
    of: impl Fn(f64, f64) -> f64,
) -> (usize, usize) {
    let (mut j, mut total_below, mut total_at_most) = (0, 0, 0);
    for i in (0..x.len()).rev() {
        let (next, equal) = row_counts(x[i], y_desc, j, pivot, &of);
        j = next;
        below[i] = j;
        at_most[i] = equal;
        total_below += j;
        total_at_most += equal;
    }
    (total_below, total_at_most)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod ratio_tests;
