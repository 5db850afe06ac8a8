//! "Unchanged" as a finding: equivalence within ±ε, and the smallest change this noise lets the test see.
//!
//! A rank-sum test that does not reject says nothing about whether the times are equal: with few runs or
//! much noise, a real 10 % slowdown goes unnoticed. So a benchmark is called *unchanged* only when the data
//! show it, with the two one-sided tests of Schuirmann (J. Pharmacokinet. Biopharm. 15, 1987): HEAD is
//! neither more than ε slower nor more than ε faster, each at risk alpha = 1 − confidence. The two tests
//! together are the check that the two-sided 1 − 2 alpha interval of the speedup lies inside
//! [1/(1 + ε), 1 + ε]. The interval is the Hodges-Lehmann interval of the shift of log times (log BASE −
//! log HEAD, the log of the speedup), the interval that inverts the rank-sum test the median protocol
//! decides with ([`crate::stats::hodges_lehmann`], R's `wilcox.test(log(base), log(head), conf.int = TRUE,
//! conf.level = 1 - 2 * alpha)`): distribution-free under the location-shift model on the log scale, which
//! is a scale model of the times. Sizes too small for either one-sided test to reach alpha (1/C(n + m, n) >
//! alpha: 2 v 2, 1 v 18 at 0.95, where R warns "requested conf.level not achievable"), and data constant
//! on both sides, are never equivalent.
//!
//! Neither faster, slower nor equivalent is *inconclusive*, and then the reader wants to know how far the
//! noise hides changes: the minimum detectable effect, the true change that the one-sided test at alpha
//! would find with probability 80 %, (z(1 − alpha) + z(0.8)) · s · sqrt(1/n + 1/m) · sqrt(π/3) on the log
//! scale, with s the pooled standard deviation of the log run values (the normal-theory power of the
//! two-sample test; sqrt(π/3) converts it to the rank-sum test, whose asymptotic relative efficiency
//! against the t-test on normal data is 3/π, Hodges & Lehmann 1956). It is an approximation meant for the
//! message "this machine cannot see changes under 3.2 % with 10 runs", not a test.
//!
//! Pure: no I/O. `docs/verdicts.md` says how the verdicts combine.

pub use super::outcome::Equivalence;
use super::{Confidence, Verdict};
use crate::model::BaseHead;
use crate::stats::describe::variance;
use crate::stats::hodges_lehmann::hodges_lehmann_ends_sorted;
use crate::stats::normal;
use crate::stats::rank_sum::can_reject;
use crate::stats::sorted::{Sorted, SortedVec};
use crate::stats::{Alternative, StatsResult};

/// ε when `--equivalence` is not given, in percent. With a between-process standard deviation of 0.5 % to
/// 2 % (a quiet machine) and 10 to 20 runs per side, the interval of the speedup is about ±0.3 % to ±1.6 %
/// wide, so ±2 % can be shown for unchanged code, and a change of 2 % or more is called unchanged at most
/// alpha of the time. On a loaded machine (the calibration command measured 4 % to 11 % between processes,
/// `docs/calibration.md` §2) most unchanged benchmarks stay inconclusive with their minimum detectable
/// effect: the honest answer there.
pub const DEFAULT_MARGIN_PCT: f64 = 2.0;

/// The power at which the minimum detectable effect is stated.
pub const MDE_POWER: f64 = 0.8;

/// Checks whether `base` and `head` (times, one value per observation) are equivalent within `margin_pct`
/// percent at `confidence`.
pub fn equivalence(
    base: &[f64],
    head: &[f64],
    confidence: Confidence,
    margin_pct: f64,
) -> Equivalence {
    let sorted = BaseHead::new(SortedVec::of(base), SortedVec::of(head));
    equivalence_sorted(
        base,
        head,
        sorted.as_ref().map(SortedVec::as_sorted),
        confidence,
        margin_pct,
    )
}

/// [`equivalence`] given also each side's values `sorted`: the interval's log times are taken of the
/// sorted values and come out sorted (the logarithm is increasing; where rounding makes two logs equal they
/// are adjacent anyway, and [`Sorted::map_increasing`] checks the order in one pass), so they are not sorted
/// again; the minimum detectable effect sums the log times in the runs' order, as before. The same result,
/// bit for bit.
pub(crate) fn equivalence_sorted(
    base: &[f64],
    head: &[f64],
    sorted: BaseHead<Sorted<'_>>,
    confidence: Confidence,
    margin_pct: f64,
) -> Equivalence {
    let logs = sorted.map(|s| s.map_increasing(f64::ln));
    let (sorted_base, sorted_head) = (logs.base.as_sorted(), logs.head.as_sorted());
    let level = 1.0 - 2.0 * confidence.alpha();
    let ends = hodges_lehmann_ends_sorted(sorted_base, sorted_head, Alternative::TwoSided, level);
    of_interval(base, head, ends, confidence, margin_pct)
}

/// The check of the runs `base` and `head` given the ends of the Hodges-Lehmann interval of their log times
/// at level 1 − 2 alpha.
fn of_interval(
    base: &[f64],
    head: &[f64],
    interval: StatsResult<(f64, f64)>,
    confidence: Confidence,
    margin_pct: f64,
) -> Equivalence {
    let alpha = confidence.alpha();
    let log = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<f64>>();
    let (base, head) = (log(base), log(head));
    // Below the sizes where each one-sided test can reach alpha, the rank interval cannot reach its level.
    let reachable = can_reject(base.len(), head.len(), alpha);
    let interval = interval
        .ok()
        .filter(|_| reachable)
        .filter(|(lower, upper)| lower.is_finite() && upper.is_finite())
        .map(|(lower, upper)| (lower.exp(), upper.exp()));
    let mut e = Equivalence {
        margin_pct,
        interval,
        equivalent: false,
        minimum_detectable_pct: minimum_detectable_log(&base, &head, alpha)
            .map(|d| 100.0 * d.exp_m1()),
    };
    e.equivalent = e.rules_out(margin_pct);
    e
}

/// The minimum detectable shift of log times (see the module doc); `None` with fewer than two values on a
/// side.
fn minimum_detectable_log(base: &[f64], head: &[f64], alpha: f64) -> Option<f64> {
    let (n, m) = (base.len() as f64, head.len() as f64);
    if base.len() < 2 || head.len() < 2 {
        return None;
    }
    let squares = |v: &[f64]| Some(variance(v).ok()? * (v.len() as f64 - 1.0));
    let pooled = ((squares(base)? + squares(head)?) / (n + m - 2.0)).sqrt();
    let z = normal::quantile(1.0 - alpha) + normal::quantile(MDE_POWER);
    Some(z * pooled * (1.0 / n + 1.0 / m).sqrt() * (std::f64::consts::PI / 3.0).sqrt())
}

/// Process runs per side that would bring the minimum detectable effect down to `target_pct`, from the
/// current one (`mde_pct` with `n` runs per side): the effect shrinks as 1/sqrt(n).
pub fn runs_for(mde_pct: f64, n: usize, target_pct: f64) -> usize {
    let ratio = (mde_pct / 100.0).ln_1p() / (target_pct / 100.0).ln_1p();
    (n as f64 * ratio * ratio).ceil() as usize
}

/// How many times ε the interval of an inconclusive benchmark must rule out for [`is_futile`].
pub const FUTILITY_FACTOR: f64 = 2.0;

/// An inconclusive benchmark, with `runs` per side of a plan capped at `cap`, that the remaining looks
/// would seldom decide: its interval (at the per-look level, as `equivalence` was computed) rules out a
/// change of 2ε or more, and were its estimate to stay where it is, the interval at the cap (narrowed as
/// 1/sqrt(runs)) would still decide nothing: it would neither exclude no change (a difference) nor fit
/// inside ±ε (unchanged). The race stops it there (futility, `sequential.rs`'s module doc). A benchmark on track to
/// be decided is not futile: on a machine whose noise lets ±ε be shown by the cap it runs on, and so does a
/// change between ε and 2ε that more runs would show. A wrong exclusion of 2ε (a true change of 2ε or more
/// whose interval misses it) happens at most at the per-look risk at each look.
pub fn is_futile(verdict: Verdict, equivalence: &Equivalence, runs: usize, cap: usize) -> bool {
    let Some((low, high)) = equivalence.interval else {
        return false;
    };
    if verdict != Verdict::Inconclusive
        || runs == 0
        || runs >= cap
        || !equivalence.rules_out(FUTILITY_FACTOR * equivalence.margin_pct)
    {
        return false;
    }
    let (low, high) = (low.ln(), high.ln());
    let estimate = ((low + high) / 2.0).abs();
    let half_at_cap = (high - low) / 2.0 * (runs as f64 / cap as f64).sqrt();
    let margin = (equivalence.margin_pct / 100.0).ln_1p();
    estimate <= half_at_cap && estimate + half_at_cap > margin
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scaled(values: &[f64], factor: f64) -> Vec<f64> {
        values.iter().map(|v| v * factor).collect()
    }

    /// Ten run values spread by about ±0.5 % around 100.
    const RUNS: [f64; 10] = [
        99.5, 100.4, 99.8, 100.1, 100.3, 99.6, 100.0, 99.9, 100.2, 99.7,
    ];

    /// The computation [`equivalence_sorted`] replaces: the log times in the runs' order, sorted by the
    /// Hodges-Lehmann interval itself.
    fn plain(base: &[f64], head: &[f64], confidence: Confidence, margin_pct: f64) -> Equivalence {
        let log = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<f64>>();
        let level = 1.0 - 2.0 * confidence.alpha();
        let interval = crate::stats::hodges_lehmann::hodges_lehmann(
            &log(base),
            &log(head),
            Alternative::TwoSided,
            level,
        );
        let ends = interval.map(|i| (i.lower, i.upper));
        of_interval(base, head, ends, confidence, margin_pct)
    }

    #[test]
    fn the_check_of_sorted_sides_is_the_check_of_the_runs() {
        use crate::stats::sorted::tests::{awkward_and_positive_samples, pairs};
        let bits = |e: &Equivalence| {
            (
                e.interval.map(|(l, h)| (l.to_bits(), h.to_bits())),
                e.minimum_detectable_pct.map(f64::to_bits),
                e.equivalent,
            )
        };
        // Times, and values a time cannot be (zeros of both signs, negative): no log, no interval.
        let samples = awkward_and_positive_samples();
        let mut intervals = 0;
        for (base, head) in pairs(&samples) {
            let (sb, sh) = (SortedVec::of(base), SortedVec::of(head));
            for confidence in [Confidence(0.95), Confidence(0.5)] {
                let want = plain(base, head, confidence, 2.0);
                intervals += usize::from(want.interval.is_some());
                let sorted = BaseHead::new(sb.as_sorted(), sh.as_sorted());
                let got = equivalence_sorted(base, head, sorted, confidence, 2.0);
                assert_eq!(bits(&got), bits(&want), "{base:?} {head:?}");
                let public = equivalence(base, head, confidence, 2.0);
                assert_eq!(bits(&public), bits(&want));
            }
        }
        assert!(intervals > 50, "{intervals}");
    }

    #[test]
    fn equal_runs_are_equivalent_within_two_percent_and_not_within_a_tenth() {
        let e = equivalence(&RUNS, &scaled(&RUNS, 1.0005), Confidence(0.95), 2.0);
        assert!(e.equivalent, "{e:?}");
        let (low, high) = e.interval.unwrap();
        assert!(low < 1.0 && high > 0.99, "{e:?}");
        assert!(!equivalence(&RUNS, &scaled(&RUNS, 1.0005), Confidence(0.95), 0.1).equivalent);
    }

    #[test]
    fn a_change_beyond_the_margin_is_never_equivalent() {
        // HEAD 3 % slower on every run: the interval is about [0.966, 0.975], outside ±2 %.
        let e = equivalence(&RUNS, &scaled(&RUNS, 1.03), Confidence(0.95), 2.0);
        assert!(!e.equivalent, "{e:?}");
        let (low, high) = e.interval.unwrap();
        assert!(high < 1.0 / 1.02 && low > 1.0 / 1.04, "{e:?}");
    }

    #[test]
    fn too_few_runs_are_never_equivalent() {
        // 2 v 2: no 0.90 rank interval exists (the smallest one-sided p is 1/6).
        let e = equivalence(&[100.0, 100.1], &[100.0, 100.1], Confidence(0.95), 50.0);
        assert!(!e.equivalent, "{e:?}");
    }

    #[test]
    fn the_minimum_detectable_effect_follows_the_power_formula() {
        // Logs of RUNS: pooled sd s, n = m = 10: (qnorm(0.95) + qnorm(0.8)) * s * sqrt(0.2) * sqrt(pi/3).
        let logs: Vec<f64> = RUNS.iter().map(|v| v.ln()).collect();
        let s = variance(&logs).unwrap().sqrt();
        let want = (1.6448536269514722 + 0.8416212335729143)
            * s
            * 0.2f64.sqrt()
            * (std::f64::consts::PI / 3.0).sqrt();
        let got = equivalence(&RUNS, &RUNS, Confidence(0.95), 2.0)
            .minimum_detectable_pct
            .unwrap();
        assert!((got - 100.0 * want.exp_m1()).abs() < 1e-9, "{got}");
        // About 0.34 %: s is about 0.30 % of the level.
        assert!((0.3..0.4).contains(&got), "{got}");
        assert_eq!(
            equivalence(&[1.0], &RUNS, Confidence(0.95), 2.0).minimum_detectable_pct,
            None
        );
    }

    #[test]
    fn runs_needed_grow_with_the_square_of_the_ratio() {
        assert_eq!(runs_for(4.0, 10, 4.0), 10);
        // Half the effect (on the log scale) needs four times the runs.
        let half = 100.0 * ((1.04f64).ln() / 2.0).exp_m1();
        assert_eq!(runs_for(4.0, 10, half), 40);
    }
}

/// The interval the reports print (`BenchmarkAnalysis::interval`, this module's 1 − 2α interval) against
/// the median protocol's one-sided decisions at α, on seeded random pairs: slower shows it below 1x,
/// faster above, and an interval that excludes 1x goes with a rank-sum test that rejects in that direction.
#[cfg(test)]
mod printed_interval_tests {
    use super::*;
    use crate::protocol::Direction;
    use crate::protocol::speedup_test::{Level, Ties, median_test_with};
    use crate::stats::random::SplitMix64;

    #[test]
    fn the_printed_interval_lies_on_the_side_of_one_the_verdict_names() {
        let mut rng = SplitMix64::new(20261126);
        let (mut slower, mut faster, mut neither) = (0, 0, 0);
        for case in 0..600 {
            let n = 5 + case % 36;
            let m = 5 + (case / 7) % 36;
            // Shifts from none to a few noise widths, both ways: many pairs sit near the decision's edge.
            let factor = 1.0 + 0.004 * ((case % 11) as f64 - 5.0);
            let base: Vec<f64> = (0..n)
                .map(|_| 1000.0 * (0.01 * rng.normal()).exp())
                .collect();
            let head: Vec<f64> = (0..m)
                .map(|_| 1000.0 * factor * (0.01 * rng.normal()).exp())
                .collect();
            for level in [0.95, 0.98] {
                let test = median_test_with(&base, &head, Level::Fixed(level), Ties::Exact);
                let shown = equivalence(&base, &head, Confidence(level), 2.0);
                let Some((low, high)) = shown.interval else {
                    continue;
                };
                // The one-sided rank-sum test at α in each direction, whatever the KS check concluded.
                let alpha = 1.0 - level;
                let p = test.p_value.unwrap_or(1.0);
                match test.direction {
                    Some(Direction::Slower) => {
                        assert!(high < 1.0, "{level} slower, [{low}, {high}]");
                        slower += 1;
                    }
                    Some(Direction::Faster) => {
                        assert!(low > 1.0, "{level} faster, [{low}, {high}]");
                        faster += 1;
                    }
                    None => {
                        // Undecided or inconclusive: the interval excludes 1x only where a one-sided test
                        // rejected and the location-shift check made the protocol stop short of a verdict.
                        if high < 1.0 || low > 1.0 {
                            assert!(
                                test.inconclusive || p <= alpha,
                                "{level} [{low}, {high}] p {p}"
                            );
                        }
                        neither += 1;
                    }
                }
            }
        }
        assert!(
            slower > 50 && faster > 50 && neither > 50,
            "{slower} {faster} {neither}"
        );
    }
}
