//! HPT's uni-benchmark level (paper 003 §4.1): the rank-sum test of BASE against a scaled HEAD, both tails,
//! and the d it lets through: the log of the ratio of medians (the default ranking) or their difference.
//!
//! The r-speedup re-runs this test at every gamma of its grid, so each benchmark is prepared once: both sides
//! sorted, the exact rank-sum table of its (n, m) shared with every benchmark of the same sizes. A gamma then
//! costs one merge of the two sorted sides, O(n + m), which counts W = #{x > y} + ½#{x = y} and the pooled
//! tie groups together. p-values are those of [`crate::stats::rank_sum::rank_sum_exact`]: exact when
//! n < 50 and m < 50, from the Gaussian-binomial table without ties and from the exact conditional table
//! given the pooled ties while it is cheap (`rank_sum_ties.rs`; the tied tables are cached by tie pattern,
//! which a scan meets at many gammas); else the normal approximation with continuity and tie corrections. A
//! constant pooled sample is not significant. Nothing here decides the suite: it only yields d and the winner of one benchmark.

use super::Ranking;
use crate::protocol::Direction;
use crate::stats::Alternative;
use crate::stats::rank::tie_correction_sorted;
use crate::stats::rank_sum::{ExactRankSum, normal_p_value, smallest_p_value};
use crate::stats::rank_sum_ties::TiedRankSum;
use crate::stats::sorted::Sorted;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// How a benchmark enters HPT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// The rank-sum test decides whether d counts.
    Tested,
    /// The rank-sum test cannot reject at alpha whatever the data (1 / C(n+m, n) > alpha, e.g. one sample per
    /// side): d is the difference of medians as it is, as paper 003 does with single SPEC results.
    AsIs,
    /// A side is empty or holds a non-finite time: d = 0.
    Unusable,
}

/// One benchmark, sorted once for every gamma.
#[derive(Debug, Clone)]
pub(super) struct Prepared<'a> {
    /// The sides sorted: borrowed from the analysis' one sorted copy of each (owned only in tests).
    base: Cow<'a, [f64]>,
    head: Cow<'a, [f64]>,
    pub(super) alpha: f64,
    pub(super) mode: Mode,
    /// What d is: the log of the ratio of medians, or their difference.
    ranking: Ranking,
    /// Index of this benchmark's (n, m) exact table in [`Tables`], when n < 50 and m < 50.
    exact: Option<usize>,
    /// Σ(t³ − t) over the tie groups inside each side: the pooled term whenever no BASE value equals a HEAD one.
    within_ties: f64,
    /// Two distinct values of a side so close that scaling could make them equal: always take the full merge.
    near_ties: bool,
    /// Under `--paired`, the benchmark's within-block log ratios ln HEAD_b − ln BASE_b: the test is then the
    /// signed-rank test of the log ratios of the scaled sides, both tails (`docs/replication.md` §7).
    log_ratios: Option<&'a [f64]>,
}

/// The exact rank-sum tables of the suite, one per distinct (n, m), and the exact tied tables met so far,
/// one per (n, pooled tie groups): a scan meets the same tie pattern at many gammas.
#[derive(Default)]
pub(super) struct Tables {
    sizes: Vec<(usize, usize)>,
    tables: Vec<Arc<ExactRankSum>>,
    tied: RefCell<HashMap<TieKey, Option<Rc<TiedRankSum>>>>,
}

/// A tied table's key: n, and the sizes of the pooled groups of equal values in ascending order.
type TieKey = (usize, Vec<usize>);

/// The tied tables kept at most: beyond, the cache starts again (each table is at most ~100 kB).
const TIED_CACHE: usize = 4096;

impl Tables {
    fn index(&mut self, n: usize, m: usize) -> Option<usize> {
        if let Some(i) = self.sizes.iter().position(|&s| s == (n, m)) {
            return Some(i);
        }
        let table = ExactRankSum::shared(n, m).ok()?;
        self.sizes.push((n, m));
        self.tables.push(table);
        Some(self.tables.len() - 1)
    }

    /// The exact conditional table for n values of x among pooled tie `groups`; `None` beyond its budget.
    fn tied(&self, n: usize, groups: Vec<usize>) -> Option<Rc<TiedRankSum>> {
        let mut cache = self.tied.borrow_mut();
        if cache.len() >= TIED_CACHE {
            cache.clear();
        }
        cache
            .entry((n, groups))
            .or_insert_with_key(|(n, groups)| TiedRankSum::new(groups, *n).map(Rc::new))
            .clone()
    }
}

/// The rank-sum statistic of x against y with the pooled tie term Σ(t³ − t).
struct Merged {
    w: f64,
    tie_correction: f64,
}

impl Prepared<'static> {
    /// [`Prepared::sorted`] of sides not yet sorted (the tests' entry point), holding its own sorted copies.
    #[cfg(test)]
    pub(super) fn new(
        base: &[f64],
        head: &[f64],
        alpha: Option<f64>,
        ranking: Ranking,
        tables: &mut Tables,
    ) -> Prepared<'static> {
        use crate::stats::sorted::SortedVec;
        let (base, head) = (SortedVec::of(base), SortedVec::of(head));
        let prepared = Prepared::sorted(base.as_sorted(), head.as_sorted(), alpha, ranking, tables);
        Prepared {
            base: Cow::Owned(prepared.base.into_owned()),
            head: Cow::Owned(prepared.head.into_owned()),
            alpha: prepared.alpha,
            mode: prepared.mode,
            ranking: prepared.ranking,
            exact: prepared.exact,
            within_ties: prepared.within_ties,
            near_ties: prepared.near_ties,
            log_ratios: None,
        }
    }
}

impl<'a> Prepared<'a> {
    /// Both sides, given sorted (borrowed, not sorted or copied again), and the risk: `alpha`, else 0.05 when
    /// both sides have at least 5 samples and 0.10 otherwise (paper 003 §4.1). Under [`Ranking::LogRatio`] a
    /// side with a value that is not positive has no logarithm and is unusable.
    pub(super) fn sorted(
        base: Sorted<'a>,
        head: Sorted<'a>,
        alpha: Option<f64>,
        ranking: Ranking,
        tables: &mut Tables,
    ) -> Prepared<'a> {
        let (base, head) = (base.values(), head.values());
        let (n, m) = (base.len(), head.len());
        let alpha = alpha.unwrap_or(if n.min(m) >= 5 { 0.05 } else { 0.10 });
        let finite = base.iter().chain(head).all(|v| v.is_finite());
        let positive = ranking == Ranking::Difference || base.iter().chain(head).all(|v| *v > 0.0);
        let mode = if n == 0 || m == 0 || !finite || !positive {
            Mode::Unusable
        } else if smallest_p_value(n, m) > alpha {
            Mode::AsIs
        } else {
            Mode::Tested
        };
        let exact = if mode == Mode::Tested && n < 50 && m < 50 {
            tables.index(n, m)
        } else {
            None
        };
        let within_ties = tie_correction_sorted(base) + tie_correction_sorted(head);
        let near_ties = has_near_ties(base) || has_near_ties(head);
        Prepared {
            base: Cow::Borrowed(base),
            head: Cow::Borrowed(head),
            alpha,
            mode,
            ranking,
            exact,
            within_ties,
            near_ties,
            log_ratios: None,
        }
    }

    /// This benchmark tested on its within-block log ratios `d` (a benchmark paired by block under
    /// `--paired`), when given: tested when the signed-rank test can reject at alpha with that many pairs
    /// (1/2^n ≤ alpha), else its d is used as it is, as for the rank-sum test's powerless sizes.
    pub(super) fn with_log_ratios(self, d: Option<&'a [f64]>) -> Prepared<'a> {
        let Some(d) = d.filter(|_| self.mode != Mode::Unusable) else {
            return self;
        };
        let mode = if crate::protocol::paired::can_reject(d.len(), self.alpha) {
            Mode::Tested
        } else {
            Mode::AsIs
        };
        Prepared {
            mode,
            exact: None,
            log_ratios: Some(d),
            ..self
        }
    }

    pub(super) fn sizes(&self) -> (usize, usize) {
        (self.base.len(), self.head.len())
    }

    /// median(base), median(head) of the unscaled sides; `None` when unusable.
    pub(super) fn medians(&self) -> Option<(f64, f64)> {
        (self.mode != Mode::Unusable).then(|| (median(&self.base, 1.0), median(&self.head, 1.0)))
    }

    /// d when the test of scale_base·base against scale_head·head is significant in either tail at alpha,
    /// with the tail that won; else (0, None). d is ln median(scale_base·base) − ln median(scale_head·head)
    /// under [`Ranking::LogRatio`], median(scale_base·base) − median(scale_head·head) under
    /// [`Ranking::Difference`]; both have the sign of the winner.
    pub(super) fn difference(
        &self,
        scale_base: f64,
        scale_head: f64,
        tables: &Tables,
    ) -> (f64, Option<Direction>) {
        let d = || {
            let (base, head) = (
                median(&self.base, scale_base),
                median(&self.head, scale_head),
            );
            match self.ranking {
                // Rounded to a multiple of 2^-40 (ratios 1 + 1e-12 apart): benchmarks whose ratios are equal
                // must tie in the ranking across benchmarks, whatever rounding the logarithms and the scale
                // leave (five 1.25x benchmarks in ms and in ns did not, and HPT's confidence moved).
                Ranking::LogRatio => {
                    let quantum = (-40f64).exp2();
                    ((base.ln() - head.ln()) / quantum).round() * quantum
                }
                Ranking::Difference => base - head,
            }
        };
        match self.mode {
            Mode::Unusable => (0.0, None),
            Mode::AsIs => {
                let d = d();
                let winner = (d != 0.0).then_some(if d > 0.0 {
                    Direction::Faster
                } else {
                    Direction::Slower
                });
                (d, winner)
            }
            Mode::Tested => match self.winner(scale_base, scale_head, tables) {
                Some(direction) => (d(), Some(direction)),
                None => (0.0, None),
            },
        }
    }

    /// Which one-sided test rejects at alpha: `Faster` when BASE is stochastically larger (HEAD faster).
    fn winner(&self, scale_base: f64, scale_head: f64, tables: &Tables) -> Option<Direction> {
        if let Some(d) = self.log_ratios {
            return self.paired_winner(d, scale_base, scale_head);
        }
        let merged = self.statistic(scale_base, scale_head);
        let (n, m) = self.sizes();
        let tied = || {
            let groups = pooled_groups(&self.base, scale_base, &self.head, scale_head);
            (groups.len() > 1).then(|| tables.tied(n, groups)).flatten()
        };
        let (greater, less) = match self.exact {
            Some(i) if merged.tie_correction == 0.0 => {
                let table = &tables.tables[i];
                (table.p_upper(merged.w), table.p_lower(merged.w))
            }
            Some(_) if let Some(table) = tied() => {
                (table.p_upper(merged.w), table.p_lower(merged.w))
            }
            _ => {
                let p = |alternative| {
                    normal_p_value(merged.w, n, m, merged.tie_correction, alternative)
                };
                (p(Alternative::Greater).ok()?, p(Alternative::Less).ok()?)
            }
        };
        if at_most(greater, self.alpha) {
            Some(Direction::Faster)
        } else if at_most(less, self.alpha) {
            Some(Direction::Slower)
        } else {
            None
        }
    }
}

impl Prepared<'_> {
    /// [`Prepared::winner`] of a paired benchmark: the signed-rank test of ln(scale_head·HEAD_b) −
    /// ln(scale_base·BASE_b) in both tails; `Faster` when they lie below 0. The sign-flip null of the log
    /// ratios is that of the blocks' drawn order (`protocol::paired`).
    fn paired_winner(&self, d: &[f64], scale_base: f64, scale_head: f64) -> Option<Direction> {
        let shift = scale_head.ln() - scale_base.ln();
        let scaled: Vec<f64> = d.iter().map(|v| v + shift).collect();
        let p = |alternative| {
            crate::stats::signed_rank::signed_rank(&scaled, alternative)
                .ok()
                .map(|t| t.p_value)
        };
        if p(Alternative::Less).is_some_and(|p| at_most(p, self.alpha)) {
            Some(Direction::Faster)
        } else if p(Alternative::Greater).is_some_and(|p| at_most(p, self.alpha)) {
            Some(Direction::Slower)
        } else {
            None
        }
    }

    /// W and the pooled tie term: one pass counting #{y < x} per x, which is the whole answer when no scaled
    /// BASE value equals a scaled HEAD value (the usual case); else the full merge of tie groups.
    fn statistic(&self, scale_base: f64, scale_head: f64) -> Merged {
        if !self.near_ties && !self.base.is_empty() && !self.head.is_empty() {
            let (x, y): (&[f64], &[f64]) = (&self.base, &self.head);
            // Separated sides, the rule when a speedup is large: W is nm or 0 without a pass.
            let (x_low, x_high) = (x[0] * scale_base, x[x.len() - 1] * scale_base);
            let (y_low, y_high) = (y[0] * scale_head, y[y.len() - 1] * scale_head);
            if x_low > y_high || x_high < y_low {
                let w = if x_low > y_high { x.len() * y.len() } else { 0 };
                return Merged {
                    w: w as f64,
                    tie_correction: self.within_ties,
                };
            }
            let (mut below, mut w) = (0usize, 0usize);
            for &value in x {
                let value = value * scale_base;
                while below < y.len() && y[below] * scale_head < value {
                    below += 1;
                }
                if below < y.len() && y[below] * scale_head == value {
                    return merge(x, scale_base, y, scale_head);
                }
                w += below;
            }
            return Merged {
                w: w as f64,
                tie_correction: self.within_ties,
            };
        }
        merge(&self.base, scale_base, &self.head, scale_head)
    }
}

/// Whether two distinct neighbours of a sorted slice are within a few ulps, where scaling may merge them.
fn has_near_ties(sorted: &[f64]) -> bool {
    sorted.windows(2).any(|pair| {
        pair[0] != pair[1] && (pair[1] - pair[0]).abs() <= 4.0 * f64::EPSILON * pair[1].abs()
    })
}

/// p ≤ alpha up to rounding: exact p-values often equal the risk (2/20 = 0.10 with 3 runs per side, 1/32 with
/// 5 benchmarks), and a table's last bit must not decide. The relative fuzz 1e-9 is far above the tables'
/// rounding (about 1e-15) and far below any attainable gap between exact p-values of these sizes.
pub(super) fn at_most(p: f64, alpha: f64) -> bool {
    p <= alpha * (1.0 + 1e-9)
}

/// One pass over sorted x and y scaled on the fly: W = #{x > y} + ½#{x = y} and Σ(t³ − t) over pooled ties.
fn merge(x: &[f64], scale_x: f64, y: &[f64], scale_y: f64) -> Merged {
    let (mut i, mut j) = (0, 0);
    let (mut w, mut tie_correction) = (0.0, 0.0);
    while i < x.len() || j < y.len() {
        let vx = x.get(i).map_or(f64::INFINITY, |v| v * scale_x);
        let vy = y.get(j).map_or(f64::INFINITY, |v| v * scale_y);
        let value = vx.min(vy);
        let below = j as f64;
        let (mut tx, mut ty) = (0usize, 0usize);
        while i < x.len() && x[i] * scale_x == value {
            i += 1;
            tx += 1;
        }
        while j < y.len() && y[j] * scale_y == value {
            j += 1;
            ty += 1;
        }
        w += tx as f64 * (below + 0.5 * ty as f64);
        let t = (tx + ty) as f64;
        tie_correction += t * t * t - t;
    }
    Merged { w, tie_correction }
}

/// The sizes of the groups of equal values of sorted x·scale_x and y·scale_y pooled, in ascending order.
fn pooled_groups(x: &[f64], scale_x: f64, y: &[f64], scale_y: f64) -> Vec<usize> {
    let (mut i, mut j) = (0, 0);
    let mut groups = Vec::new();
    while i < x.len() || j < y.len() {
        let vx = x.get(i).map_or(f64::INFINITY, |v| v * scale_x);
        let vy = y.get(j).map_or(f64::INFINITY, |v| v * scale_y);
        let value = vx.min(vy);
        let start = i + j;
        while i < x.len() && x[i] * scale_x == value {
            i += 1;
        }
        while j < y.len() && y[j] * scale_y == value {
            j += 1;
        }
        groups.push(i + j - start);
    }
    groups
}

/// The median of `scale`·values for sorted values, scaling before averaging as the scaled sample would.
fn median(sorted: &[f64], scale: f64) -> f64 {
    let half = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        scale * sorted[half]
    } else {
        (scale * sorted[half - 1] + scale * sorted[half]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `values` copied and sorted by the total order.
    fn sorted(values: &[f64]) -> Vec<f64> {
        let mut values = values.to_vec();
        values.sort_unstable_by(f64::total_cmp);
        values
    }

    /// W and Σ(t³ − t) by brute force over all pairs and all values.
    fn brute(x: &[f64], y: &[f64]) -> (f64, f64) {
        let mut w = 0.0;
        for a in x {
            for b in y {
                w += if a > b {
                    1.0
                } else if a == b {
                    0.5
                } else {
                    0.0
                };
            }
        }
        let pooled: Vec<f64> = x.iter().chain(y).copied().collect();
        let mut ties = 0.0;
        let mut seen: Vec<f64> = Vec::new();
        for v in &pooled {
            if !seen.contains(v) {
                seen.push(*v);
                let t = pooled.iter().filter(|u| *u == v).count() as f64;
                ties += t * t * t - t;
            }
        }
        (w, ties)
    }

    #[test]
    fn merge_counts_w_and_ties_like_all_pairs() {
        let x = sorted(&[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]);
        let y = sorted(&[2.0, 7.0, 1.0, 8.0, 2.0, 8.0]);
        for (sx, sy) in [(1.0, 1.0), (2.0, 1.0), (1.0, 0.5), (1.0, 3.0)] {
            let xs: Vec<f64> = x.iter().map(|v| v * sx).collect();
            let ys: Vec<f64> = y.iter().map(|v| v * sy).collect();
            let merged = merge(&x, sx, &y, sy);
            assert_eq!(
                (merged.w, merged.tie_correction),
                brute(&xs, &ys),
                "scales {sx}, {sy}"
            );
        }
    }

    #[test]
    fn one_pass_statistic_equals_the_full_merge_with_and_without_cross_ties() {
        let mut tables = Tables::default();
        let base = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let head = [2.5, 7.5, 1.5, 8.5, 2.5, 0.5];
        let prepared = Prepared::new(&base, &head, None, Ranking::Difference, &mut tables);
        // 2.0 scales 2.5 to 5.0 and 1.5 to 3.0 (cross ties); 1.0 and 1.1 leave none.
        for (sb, sh) in [
            (1.0, 1.0),
            (1.0, 1.1),
            (1.0, 2.0),
            (2.0, 1.0),
            (0.7, 1.3),
            (1.0, 0.01),
            (1.0, 100.0),
        ] {
            let fast = prepared.statistic(sb, sh);
            let full = merge(&prepared.base, sb, &prepared.head, sh);
            assert_eq!(
                (fast.w, fast.tie_correction),
                (full.w, full.tie_correction),
                "scales {sb}, {sh}"
            );
        }
    }

    proptest::proptest! {
        /// The one-pass statistic and its p-values decide as the statistics core's `rank_sum_exact` (checked
        /// against R, coin and enumeration) does on the explicitly scaled HEAD sample, ties and large samples
        /// included.
        #[test]
        fn decisions_match_the_rank_sum_test_on_the_scaled_sample(
            base in proptest::collection::vec(1u32..100_000, 3..60),
            head in proptest::collection::vec(1u32..100_000, 3..60),
            hundredths in 50u32..200,
            coarse in proptest::bool::ANY,
        ) {
            use crate::stats::rank_sum::rank_sum_exact;
            // Coarse values tie often (normal approximation); fine ones rarely (exact below 50 per side).
            let value = |v: u32| if coarse { f64::from(v % 60 + 1) / 4.0 } else { f64::from(v) / 64.0 };
            let base: Vec<f64> = base.into_iter().map(value).collect();
            let head: Vec<f64> = head.into_iter().map(value).collect();
            let gamma = f64::from(hundredths) / 100.0;
            let mut tables = Tables::default();
            let prepared = Prepared::new(&base, &head, Some(0.05), Ranking::Difference, &mut tables);
            let scaled: Vec<f64> = head.iter().map(|v| v * gamma).collect();
            let p = |alternative| rank_sum_exact(&base, &scaled, alternative).map(|t| t.p_value);
            let expected = match (p(Alternative::Greater), p(Alternative::Less)) {
                (Ok(g), _) if at_most(g, 0.05) => Some(Direction::Faster),
                (_, Ok(l)) if at_most(l, 0.05) => Some(Direction::Slower),
                _ => None,
            };
            proptest::prop_assert_eq!(prepared.winner(1.0, gamma, &tables), expected);
        }
    }

    #[test]
    fn even_medians_average_the_scaled_middle_values() {
        assert_eq!(median(&[1.0, 2.0, 4.0, 10.0], 3.0), 9.0);
        assert_eq!(median(&[1.0, 2.0, 4.0], 3.0), 6.0);
    }

    #[test]
    fn default_risk_follows_the_smaller_side() {
        let mut tables = Tables::default();
        let five = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(
            Prepared::new(&five, &five, None, Ranking::Difference, &mut tables).alpha,
            0.05
        );
        assert_eq!(
            Prepared::new(&five, &five[..4], None, Ranking::Difference, &mut tables).alpha,
            0.10
        );
        assert_eq!(
            Prepared::new(&five, &five, Some(0.01), Ranking::Difference, &mut tables).alpha,
            0.01
        );
    }
}
