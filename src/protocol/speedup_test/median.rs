//! The median protocol of paper 000 §4.2 (Figure 2, rebuilt in `docs/speedup-test.md` §3).
//!
//! At risk α: the two-sided Kolmogorov-Smirnov test on the median-centred samples (R ≥ 4.2 `ks.test`) checks
//! the location-shift model F_head(t) = F_base(t + Δ). If it rejects (p ≤ α) and the pair is small, the
//! protocol cannot conclude (W3 for each sample of 30 values or fewer: "inconclusive"); on a large pair it
//! goes on with W4. Then the one-sided Wilcoxon-Mann-Whitney rank-sum test (R `wilcox.test` defaults: exact
//! iff both n < 50 and no ties; with [`Ties::Exact`], exact given the ties while cheap) with H0 F_base ≥ F_head, H1 F_base < F_head (BASE stochastically larger, i.e.
//! HEAD faster, and P[head < base] > 1/2, App. D); the mirror test for HEAD slower. Significant ⇔ p ≤ α.
//!
//! Reported besides the decision: W/(nm), the estimate of P[a HEAD run is faster than a BASE run]; the
//! Hodges-Lehmann shift of BASE − HEAD with its two-sided interval at the decision level (0.95 when the level
//! is searched), in time units; and at the same level the interval of the speedup, the Hodges-Lehmann
//! interval of the ratio BASE / HEAD that inverts the same rank-sum test on the log scale
//! ([`speedup_interval`]).
//! A KS test that cannot be computed counts as a rejected model (the model cannot be checked), with a warning.

use super::search::{self, Decided};
use super::{Level, is_large, is_small};
use crate::model::{BaseHead, Side};
use crate::protocol::{
    ByDirection, Direction, MedianTest, Shift, SpeedupOf, Subject, TestCause, Warning,
};
use crate::stats::hodges_lehmann::{ShiftInterval, hodges_lehmann_both_sorted};
use crate::stats::sorted::{Sorted, SortedVec};
use crate::stats::{Alternative, StatsError, ks, rank_sum};

/// Every statistic of the protocol, computed once.
struct Statistics {
    /// Sizes of BASE and HEAD.
    sizes: BaseHead<usize>,
    ks_p: Result<f64, StatsError>,
    /// One-sided rank-sum p-values: HEAD faster (BASE's times greater), HEAD slower.
    rank_sum_p: ByDirection<Result<f64, StatsError>>,
    p_head_faster: Option<f64>,
}

/// The protocol's decision at one α in one direction, and whether it could not conclude.
type Step = Decided<bool>;

fn statistics(sorted: BaseHead<Sorted<'_>>, ties: Ties) -> Statistics {
    let (base, head) = (sorted.base, sorted.head);
    let (greater, less) = rank_sum::rank_sum_one_sided_sorted(base, head, ties == Ties::Exact);
    let p_head_faster = greater.as_ref().ok().map(|r| r.p_x_greater);
    Statistics {
        sizes: sorted.map(Sorted::len),
        ks_p: ks::location_shift_sorted(base, head).map(|r| r.p_value),
        rank_sum_p: ByDirection {
            faster: greater.map(|r| r.p_value),
            slower: less.map(|r| r.p_value),
        },
        p_head_faster,
    }
}

/// The protocol at risk `alpha` for `direction` (`docs/speedup-test.md` §3, MEDIAN_TEST).
fn decide(s: &Statistics, alpha: f64, direction: Direction) -> Step {
    let mut warnings = Vec::new();
    let ks = "Kolmogorov-Smirnov's test";
    let ks_p = search::computed(&s.ks_p, ks, Subject::MedianCentred, &mut warnings);
    let rejected = ks_p.is_none_or(|p| p <= alpha);
    let large = is_large(s.sizes.base, s.sizes.head);
    if rejected && !large {
        let small = [Side::Base, Side::Head]
            .into_iter()
            .filter(|&side| is_small(*s.sizes.get(side)));
        warnings.extend(small.map(|side| Warning::test(TestCause::RankSumTooSmall(side))));
    } else if rejected {
        warnings.push(Warning::test(TestCause::NotLocationShift));
    }
    let rank_sum = "Wilcoxon-Mann-Whitney's test";
    let p = s.rank_sum_p.get(direction);
    let p_value = search::computed(p, rank_sum, Subject::Both, &mut warnings);
    let inconclusive = (rejected && !large) || p_value.is_none();
    Step {
        significant: !inconclusive && p_value.is_some_and(|p| p <= alpha),
        p_value,
        warnings,
        detail: inconclusive,
    }
}

/// How the rank-sum test of the protocol treats a tied sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// R's `wilcox.test`: the normal approximation with tie correction (`speeduptest`, as `SpeedUpTest.sh`).
    AsR,
    /// The exact conditional p-value while cheap ([`rank_sum::rank_sum_exact`]): `compare` and the revision
    /// comparison.
    Exact,
}

/// The median protocol on BASE and HEAD execution times at `level`; see [`super::mean_test`] for how the
/// level is used. `inconclusive` is that of the decision (the last level evaluated when searching). Ties
/// are tested as R does; [`median_test_with`] chooses.
pub fn median_test(base: &[f64], head: &[f64], level: Level) -> MedianTest {
    median_test_with(base, head, level, Ties::AsR)
}

/// [`median_test`] with the treatment of ties chosen.
pub fn median_test_with(base: &[f64], head: &[f64], level: Level, ties: Ties) -> MedianTest {
    let sorted = BaseHead::new(SortedVec::of(base), SortedVec::of(head));
    median_test_sorted(sorted.as_ref().map(SortedVec::as_sorted), level, ties)
}

/// [`median_test_with`] of each side's values sorted, without sorting them again: every statistic of the
/// protocol (ranks, the location-shift check, the Hodges-Lehmann intervals) depends on the values and not
/// on their order, and each one's sorted entry point gives its unsorted one's result bit for bit.
pub(crate) fn median_test_sorted(
    sorted: BaseHead<Sorted<'_>>,
    level: Level,
    ties: Ties,
) -> MedianTest {
    let s = statistics(sorted, ties);
    let applied = search::apply(level, SpeedupOf::Median, |alpha, d| decide(&s, alpha, d));
    let step = applied.step;
    let interval_level = match level {
        Level::Fixed(confidence) => confidence,
        Level::Search => 0.95,
    };
    let (shift, speedup_interval) = intervals(sorted, interval_level);
    MedianTest {
        significant: applied.direction.is_some(),
        direction: applied.direction,
        p_value: step.p_value,
        ks_p_value: s.ks_p.ok(),
        confidence_level: applied.level,
        p_head_faster: s.p_head_faster,
        shift,
        speedup_interval,
        inconclusive: step.detail,
        warnings: step.warnings,
    }
}

/// The shift ([`shift`]) and the speedup's interval ([`speedup_interval`]) at `confidence`, from one
/// `hodges_lehmann_both_sorted` of the sides' sorted copies: the same runs at the same level, so the ties
/// and the ranks of the ends are computed once.
fn intervals(sorted: BaseHead<Sorted<'_>>, confidence: f64) -> (Option<Shift>, Option<(f64, f64)>) {
    let (base, head) = (sorted.base, sorted.head);
    if !rank_sum::can_reject(base.len(), head.len(), (1.0 - confidence) / 2.0) {
        return (None, None);
    }
    let (hl, ratio) = hodges_lehmann_both_sorted(base, head, Alternative::TwoSided, confidence);
    (
        hl.ok().and_then(shift),
        ratio.ok().and_then(speedup_interval),
    )
}

/// The Hodges-Lehmann estimate of BASE − HEAD with its two-sided interval (`hl`, at the level of
/// [`intervals`]); `None` when the sizes cannot give an interval at that level (1/C(n+m, n) >
/// (1 − confidence)/2: one value per side, 3 against 3 at 0.95; R: "requested conf.level not achievable"),
/// where the order statistics would print a one-point interval such as `0.83x [0.83, 0.83]` that looks
/// precise and is not ([`intervals`] checks the level), or when an end is not finite.
fn shift(hl: ShiftInterval) -> Option<Shift> {
    [hl.estimate, hl.lower, hl.upper]
        .iter()
        .all(|v| v.is_finite())
        .then_some(Shift {
            estimate: hl.estimate,
            lower: hl.lower,
            upper: hl.upper,
        })
}

/// The two-sided interval of the speedup BASE / HEAD from `r`, the ratio's interval at the level of
/// [`intervals`]: the ratios γ for which the rank-sum test of BASE against γ·HEAD does not reject, i.e. the
/// Hodges-Lehmann interval of log(BASE) − log(HEAD), exponentiated (R: `exp(wilcox.test(log(base),
/// log(head), conf.int = TRUE, conf.level = confidence)$conf.int)`);
/// [`crate::stats::hodges_lehmann::hodges_lehmann_ratio`]. Exact or approximate, and tie-corrected, exactly
/// as the shift's interval of the same runs (the test is invariant under the log), and `None` where the
/// shift's is (the level out of reach of the sizes, constant runs), or when a time is not positive.
///
/// **Decision:** paper 000 and `docs/speedup-test.md` give the interval in time units only; an earlier
/// version turned it into a speedup through the median, med(BASE) / (med(BASE) − bound), which has no upper
/// end once a bound nears med(BASE): one BASE run at 70 µs among six at 38 µs printed `1.19x [1.01, 118]`.
/// The ends here are ratios base_i / head_j of two runs, so a single outlying run can widen the interval up
/// to its own ratios but never make it unbounded. The point printed with it stays the ratio of the medians
/// (`speedup.median`), which, unlike the Hodges-Lehmann estimate, can lie outside the interval on samples of
/// two modes; the reports draw both where they are and say so (`docs/statistics.md` §5.2).
fn speedup_interval(r: ShiftInterval) -> Option<(f64, f64)> {
    (r.lower > 0.0 && r.upper.is_finite()).then_some((r.lower, r.upper))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::WarningKind;
    use crate::testutil::oracle::{assert_rel, load, number, numbers};
    use crate::testutil::protocol_cases::PAPER;
    use crate::testutil::protocol_cases::cases;

    #[test]
    fn paper_example_levels() {
        // §6.3 MedianConfLevel: 0.76, 0.99, 0.99, 0.81. Bench 1 needs the normal approximation with
        // continuity correction (a tie: p = 0.2316719); bench 2 the exact p (0.0079365).
        let levels: Vec<Option<f64>> = PAPER
            .iter()
            .map(|(x, y)| median_test(x, y, Level::Search).confidence_level)
            .collect();
        assert_eq!(levels, vec![Some(0.76), Some(0.99), Some(0.99), Some(0.81)]);
        let t = median_test(PAPER[0].0, PAPER[0].1, Level::Search);
        assert_rel("bench1", "WMW p", t.p_value.unwrap(), 0.2316719, 1e-6);
        assert_rel("bench1", "KS p", t.ks_p_value.unwrap(), 0.8730, 1e-3);
        assert!(t.warnings.is_empty() && !t.inconclusive);
        // W = 16.5 of 25 pairs: P[head faster] estimated as 0.66.
        assert_rel(
            "bench1",
            "P[head faster]",
            t.p_head_faster.unwrap(),
            0.66,
            1e-12,
        );
    }

    #[test]
    fn decisions_and_p_values_match_r_in_both_directions() {
        for case in cases() {
            let c = &case.name;
            let fixed = median_test(&case.x, &case.y, Level::Fixed(0.95));
            assert_eq!(
                fixed.direction,
                case.direction("median_direction_95"),
                "{c}"
            );
            let search = median_test(&case.x, &case.y, Level::Search);
            assert_eq!(search.confidence_level, case.level("median_level"), "{c}");
            assert_rel(
                c,
                "KS p",
                fixed.ks_p_value.unwrap(),
                case.number("ks_p"),
                1e-9,
            );
            let side = usize::from(fixed.direction == Some(Direction::Slower));
            let p = case.numbers("rank_sum_p")[side];
            assert_rel(c, "WMW p", fixed.p_value.unwrap(), p, 1e-9);
            let w = case.number("p_head_faster");
            assert_rel(c, "W/nm", fixed.p_head_faster.unwrap(), w, 1e-12);
        }
    }

    #[test]
    fn small_samples_with_a_rejected_model_are_inconclusive() {
        let case = cases()
            .into_iter()
            .find(|c| c.name == "small_shift_rejected")
            .unwrap();
        let t = median_test(&case.x, &case.y, Level::Fixed(0.95));
        assert!(t.inconclusive && !t.significant);
        assert!(t.p_value.is_some(), "p is reported even when inconclusive");
        let messages: Vec<String> = t
            .warnings
            .iter()
            .map(crate::report::words::paper_message)
            .collect();
        assert_eq!(
            messages,
            vec![
                "Sample1 too small for applying the Wilcoxon-Mann-Whitney's test (speedup of the median).",
                "Sample2 too small for applying the Wilcoxon-Mann-Whitney's test (speedup of the median).",
            ]
        );
        let s = median_test(&case.x, &case.y, Level::Search);
        assert!(s.inconclusive && s.confidence_level.is_none());
        assert_eq!(
            crate::report::words::paper_message(s.warnings.last().unwrap()),
            "Unable to find a confidence level greater than 50% to guarantee the statistical significance of median speedup."
        );
    }

    #[test]
    fn large_samples_with_a_rejected_model_go_on_with_w4() {
        let case = cases()
            .into_iter()
            .find(|c| c.name == "large_shift_rejected")
            .unwrap();
        let t = median_test(&case.x, &case.y, Level::Search);
        assert_eq!(t.confidence_level, Some(0.90));
        let kinds: Vec<WarningKind> = t.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, vec![WarningKind::NotLocationShift]);
        assert!(!t.inconclusive);
    }

    #[test]
    fn head_slower_is_significant_only_with_a_fixed_level() {
        let case = cases()
            .into_iter()
            .find(|c| c.name == "slower_large")
            .unwrap();
        let t = median_test(&case.x, &case.y, Level::Fixed(0.99));
        assert_eq!(t.direction, Some(Direction::Slower));
        assert!(t.p_head_faster.unwrap() < 0.5);
        let s = median_test(&case.x, &case.y, Level::Search);
        assert_eq!(s.direction, None);
    }

    #[test]
    fn constant_samples_are_not_applicable_never_a_panic() {
        let t = median_test(&[1.0; 5], &[1.0; 5], Level::Search);
        assert!(!t.significant && t.inconclusive);
        assert!(
            t.warnings
                .iter()
                .any(|w| w.kind == WarningKind::Inapplicable)
        );
        let t = median_test(&[1.0], &[2.0], Level::Fixed(0.95));
        assert!(!t.significant);
    }

    #[test]
    fn swapping_sides_swaps_the_direction() {
        for case in cases() {
            let ab = median_test(&case.x, &case.y, Level::Fixed(0.95)).direction;
            let ba = median_test(&case.y, &case.x, Level::Fixed(0.95)).direction;
            assert_eq!(ab.map(Direction::opposite), ba, "{}", case.name);
        }
    }

    #[test]
    fn shift_matches_rs_hodges_lehmann() {
        // wilcox.test(x, y, conf.int = TRUE, conf.level = 0.95): estimate and two-sided interval.
        for case in cases() {
            let c = &case.name;
            let t = median_test(&case.x, &case.y, Level::Fixed(0.95));
            let shift = t.shift.unwrap();
            let r = case.numbers("shift");
            let scale = r[2] - r[1];
            for (what, actual, expected) in [
                ("estimate", shift.estimate, r[0]),
                ("lower", shift.lower, r[1]),
                ("upper", shift.upper, r[2]),
            ] {
                assert!(
                    (actual - expected).abs() <= 1e-4 * scale,
                    "{c}: {what} {actual} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn speedup_interval_is_rs_interval_of_the_log_ratio() {
        // fixtures/r/hodges_lehmann_ratio.R: exp(wilcox.test(log(x), log(y), conf.int = TRUE,
        // conf.level)$conf.int), two-sided, at the level the protocol is run at.
        let oracle = load("hodges_lehmann_ratio");
        let two_sided = oracle["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["alternative"] == "two.sided");
        let mut checked = 0;
        for case in two_sided {
            let c = case["name"].as_str().unwrap();
            let (x, y) = (numbers(&case["x"]), numbers(&case["y"]));
            let level = number(&case["confidence"]);
            let t = median_test_with(&x, &y, Level::Fixed(level), Ties::Exact);
            if !rank_sum::can_reject(x.len(), y.len(), (1.0 - level) / 2.0) {
                assert_eq!(t.speedup_interval, None, "{c}");
                continue;
            }
            let (low, high) = t.speedup_interval.unwrap();
            // Exact: R's exp(log x_i − log y_j) against x_i / y_j. Approximate: R's root finder, 1e-4 on
            // the log scale.
            let tol = if case["exact"] == true { 1e-12 } else { 2e-4 };
            assert_rel(c, "lower", low, number(&case["lower"]), tol);
            assert_rel(c, "upper", high, number(&case["upper"]), tol);
            checked += 1;
        }
        assert!(checked >= 150, "{checked} cases");
    }

    #[test]
    fn searched_levels_report_the_interval_at_95() {
        // R: exp(wilcox.test(log(x), log(y), conf.int = TRUE)$conf.int) = 1.0433574, 7.8996139
        let (x, y) = PAPER[1];
        let t = median_test(x, y, Level::Search);
        let (low, high) = t.speedup_interval.unwrap();
        assert_rel("bench2", "lower", low, 1.0433574207893275, 1e-12);
        assert_rel("bench2", "upper", high, 7.8996138996139, 1e-12);
        assert!(low < 1.956 && 1.956 < high, "around spmedian 1.956");
    }

    #[test]
    fn one_outlying_run_cannot_blow_the_interval_up() {
        // Six runs per side around 38 µs, one BASE run at twice the others. The earlier interval,
        // med(BASE) / (med(BASE) − bound) of the shift, read [0.99, 58.7] here (R's shift interval reaches
        // 37.5 µs, med(BASE) is 38.15 µs).
        let base = [38.1, 37.6, 38.4, 76.0, 37.9, 38.2];
        let head = [38.0, 37.7, 38.3, 37.8, 38.5, 37.95];
        let ratios: Vec<f64> = base
            .iter()
            .flat_map(|b| head.iter().map(move |h| b / h))
            .collect();
        let smallest = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let largest = ratios.iter().copied().fold(0.0, f64::max);
        for ties in [Ties::AsR, Ties::Exact] {
            let t = median_test_with(&base, &head, Level::Fixed(0.95), ties);
            let (low, high) = t.speedup_interval.unwrap();
            assert!(low.is_finite() && high.is_finite());
            assert!(
                smallest <= low && low <= high && high <= largest,
                "[{low}, {high}]"
            );
            assert!(high < 2.5, "[{low}, {high}]");
            assert!(
                t.shift.is_some(),
                "the shift in time units is still reported"
            );
        }
    }

    #[test]
    fn times_that_are_not_positive_have_no_speedup_interval() {
        let t = median_test(
            &[-1.0, 2.0, 3.0, 4.0, 5.0],
            &[1.0, 2.5, 3.5, 4.5, 5.5],
            Level::Search,
        );
        assert!(t.shift.is_some());
        assert_eq!(t.speedup_interval, None);
    }
}
