//! The paired analysis of blocks (`--paired`, `docs/replication.md` §7): a benchmark's verdict, its
//! equivalence check and the `--fail-on any` gate's test on the within-block log ratios
//! d_b = ln HEAD_b − ln BASE_b of its runs paired by block ([`crate::model::Pair::blocks`]), in place of the
//! rank-sum tests of the two sides as independent samples.
//!
//! - Direction: the Wilcoxon signed-rank test of d against 0 ([`crate::stats::signed_rank`]), one-sided each
//!   way at the per-look alpha (`protocol::sequential`): "slower" when d lies above 0, "faster" below.
//!   Because the order of a block's two runs is drawn at random, under no change each d_b is as likely
//!   positive as negative whatever the machine does to both runs, and the test keeps its level.
//! - The speedup: exp(−m̂), m̂ the Hodges-Lehmann estimate of d (the median of its Walsh averages,
//!   [`crate::stats::walsh`]); a speedup is BASE / HEAD, as the independent design's, so above 1 HEAD is
//!   faster.
//! - "Unchanged": the two one-sided tests of Schuirmann, as the independent design's
//!   (`protocol::equivalence`): the two-sided 1 − 2 alpha Walsh interval of d, turned into one of the
//!   speedup, inside [1/(1 + ε), 1 + ε]. Its minimum detectable effect is the same normal-theory power as
//!   the independent design's, on the n differences: (z(1 − alpha) + z(0.8)) · sd(d) / sqrt(n) · sqrt(π/3)
//!   (the signed-rank test's efficiency against the t-test is also 3/π).
//! - Sizes: the signed-rank test cannot reject at alpha with fewer than log2(1/alpha) pairs (its smallest
//!   p-value is 1/2^n); below that no verdict and no interval, as for the independent design.
//!
//! Pure: no I/O; the test's numbers only (`report/` words them). Must not: pair runs (`model::Pair::blocks`
//! does) or compute a statistic itself (`stats` does).

use super::equivalence::Equivalence;
use super::equivalence::MDE_POWER;
use super::{ByDirection, Confidence, PairedTest, Verdict};
use crate::model::Blocked;
use crate::stats::Alternative;
use crate::stats::normal;
use crate::stats::signed_rank::signed_rank;
use crate::stats::walsh::walsh_interval;

/// The paired test of one benchmark's `blocked` runs at `confidence` (the per-look level), and its
/// equivalence check within ±`margin_pct` %: what [`verdict`] decides from.
pub fn paired(
    blocked: &Blocked,
    confidence: Confidence,
    margin_pct: f64,
) -> (PairedTest, Equivalence) {
    let d = blocked.log_ratios();
    let alpha = confidence.alpha();
    let p = |alternative| signed_rank(&d, alternative).ok().map(|t| t.p_value);
    let walsh = walsh_interval(&d, Alternative::TwoSided, 1.0 - 2.0 * alpha).ok();
    let interval = walsh
        .filter(|_| can_reject(d.len(), alpha))
        .filter(|w| w.lower.is_finite() && w.upper.is_finite())
        .map(|w| ((-w.upper).exp(), (-w.lower).exp()));
    let mut equivalence = Equivalence {
        margin_pct,
        interval,
        equivalent: false,
        minimum_detectable_pct: minimum_detectable_log(&d, alpha).map(|m| 100.0 * m.exp_m1()),
    };
    equivalence.equivalent = equivalence.rules_out(margin_pct);
    let test = PairedTest {
        pairs: d.len(),
        dropped: blocked.dropped,
        p: ByDirection {
            faster: p(Alternative::Less),
            slower: p(Alternative::Greater),
        },
        speedup: walsh.map_or(f64::NAN, |w| (-w.estimate).exp()),
    };
    (test, equivalence)
}

/// A paired benchmark's verdict at `confidence`: its direction when the one-sided signed-rank test rejects
/// that way, else unchanged when `equivalence` shows it within ±ε, else inconclusive; inconclusive too when
/// the pairs are too few for the test to ever reject (`docs/verdicts.md` §10).
pub fn verdict(test: &PairedTest, equivalence: &Equivalence, confidence: Confidence) -> Verdict {
    let alpha = confidence.alpha();
    let rejects = |p: Option<f64>| p.is_some_and(|p| p <= alpha * (1.0 + 1e-9));
    if !can_reject(test.pairs, alpha) {
        Verdict::Inconclusive
    } else if rejects(test.p.slower) {
        Verdict::Slower
    } else if rejects(test.p.faster) {
        Verdict::Faster
    } else if equivalence.equivalent {
        Verdict::Unchanged
    } else {
        Verdict::Inconclusive
    }
}

/// Whether `pairs` differences can ever reject at `alpha` one-sided: the smallest signed-rank p-value is
/// 1/2^pairs.
pub fn can_reject(pairs: usize, alpha: f64) -> bool {
    pairs > 0 && 0.5f64.powi(pairs.min(1100) as i32) <= alpha * (1.0 + 1e-9)
}

/// The one-sided signed-rank p-value of "HEAD slower" on the log ratios `d` (what `--fail-on any` tests);
/// `None` when every d is 0.
pub fn slower_p(d: &[f64]) -> Option<f64> {
    signed_rank(d, Alternative::Greater).ok().map(|t| t.p_value)
}

/// The slowdown in percent that the Hodges-Lehmann estimate of the log ratios `d` gives,
/// 100 · (exp(m̂) − 1); NaN when `d` is empty.
pub fn slowdown_pct(d: &[f64]) -> f64 {
    walsh_interval(d, Alternative::TwoSided, 0.95).map_or(f64::NAN, |w| 100.0 * w.estimate.exp_m1())
}

/// The minimum detectable shift of log ratios (module doc); `None` with fewer than two differences.
fn minimum_detectable_log(d: &[f64], alpha: f64) -> Option<f64> {
    let n = d.len();
    if n < 2 {
        return None;
    }
    let sd = crate::stats::describe::variance(d).ok()?.sqrt();
    let z = normal::quantile(1.0 - alpha) + normal::quantile(MDE_POWER);
    Some(z * sd / (n as f64).sqrt() * (std::f64::consts::PI / 3.0).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::BaseHead;

    fn blocked(base: &[f64], head: &[f64]) -> Blocked {
        Blocked {
            base: base.to_vec(),
            head: head.to_vec(),
            dropped: BaseHead::new(0, 0),
        }
    }

    #[test]
    fn head_slower_in_every_block_is_slower_whatever_the_blocks_share() {
        // Block levels from 100 to 200 (what the blocks share), HEAD 3 % slower in each, ±0.1 %.
        let base: Vec<f64> = (0..12).map(|b| 100.0 + 9.0 * b as f64).collect();
        let head: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(b, v)| v * (1.03 + 0.0001 * b as f64))
            .collect();
        let (test, equivalence) = paired(&blocked(&base, &head), Confidence(0.95), 2.0);
        // Every d is positive: V = 78 of 78, p = 1/2^12 exactly.
        assert_eq!(test.p.slower, Some(1.0 / 4096.0));
        assert_eq!(test.pairs, 12);
        assert_eq!(
            verdict(&test, &equivalence, Confidence(0.95)),
            Verdict::Slower
        );
        // exp(−pseudomedian) of ratios 1.03 to 1.0311: a speedup near 1/1.03055.
        assert!(
            (test.speedup - 1.0 / 1.03055).abs() < 1e-4,
            "{}",
            test.speedup
        );
        let (low, high) = equivalence.interval.unwrap();
        assert!(low < test.speedup && test.speedup < high && high < 1.0 / 1.029);
    }

    #[test]
    fn the_same_level_in_each_block_is_unchanged_and_too_few_pairs_decide_nothing() {
        let base: Vec<f64> = (0..12).map(|b| 100.0 + 9.0 * b as f64).collect();
        let jitter = [1.001, 0.999, 1.002, 0.998, 1.0005, 0.9995];
        let head: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(b, v)| v * jitter[b % 6])
            .collect();
        let (test, equivalence) = paired(&blocked(&base, &head), Confidence(0.95), 2.0);
        assert!(equivalence.equivalent);
        assert_eq!(
            verdict(&test, &equivalence, Confidence(0.95)),
            Verdict::Unchanged
        );
        // Four pairs: the smallest p-value is 1/16 > 0.05.
        let (test, equivalence) = paired(&blocked(&base[..4], &head[..4]), Confidence(0.95), 2.0);
        assert_eq!(
            (equivalence.interval, equivalence.equivalent),
            (None, false)
        );
        assert_eq!(
            verdict(&test, &equivalence, Confidence(0.95)),
            Verdict::Inconclusive
        );
        assert!(!can_reject(4, 0.05) && can_reject(5, 0.05) && can_reject(6, 0.05 / 3.0));
    }

    #[test]
    fn the_gate_tests_head_slower_and_estimates_its_size() {
        let d = [0.05, 0.04, 0.06, 0.03, 0.055, 0.07];
        assert_eq!(slower_p(&d), Some(1.0 / 64.0));
        // The Walsh averages' median of these six: 0.05.
        assert!((slowdown_pct(&d) - 100.0 * 0.05f64.exp_m1()).abs() < 1e-9);
        assert_eq!(slower_p(&[0.0, 0.0]), None);
    }

    /// A suite of one benchmark whose runs carry blocks of `seed` (`None`: no blocks), HEAD's run of each
    /// block `factor` times BASE's, the blocks' shared levels 100 to 210 ns.
    fn suite(
        blocks: usize,
        factor: f64,
        seed: Option<u64>,
        drop_head: Option<u32>,
    ) -> crate::model::Suite {
        use crate::model::{Block, Run, Runs, Sample, Unit};
        let side = |factor: f64, skip: Option<u32>| {
            let runs: Vec<Run> = (0..blocks as u32)
                .filter(|b| Some(*b) != skip)
                .map(|b| {
                    let level =
                        (100.0 + 10.0 * f64::from(b)) * factor * (1.0 + 1e-4 * f64::from(b % 7));
                    let mut run = Run::new(Sample::new(vec![level], Unit::Ns).unwrap(), None);
                    run.set_block(seed.map(|session| Block { session, index: b }));
                    run
                })
                .collect();
            crate::testutil::simulated_results(vec![("x".to_string(), Runs::new(runs).unwrap())])
        };
        crate::model::Suite::pair(side(1.0, None), side(factor, drop_head))
    }

    #[test]
    fn the_analysis_decides_paired_benchmarks_on_their_pairs_and_states_the_basis() {
        use crate::protocol::{Cause, FailOn, Options, Pairing, analyse};
        let options = Options::defaults(FailOn::Any).with_paired(true);
        // HEAD 3 % slower in every block, whose levels spread over ±40 %: the rank-sum test of the two
        // sides sees nothing, the pairs see it in every block.
        let paired = analyse(&suite(12, 1.03, Some(9), Some(4)), &options);
        let b = &paired.benchmarks[0];
        assert_eq!(b.verdict, Verdict::Slower);
        assert!(!b.median_test.significant);
        let Some(Pairing::Paired(test)) = b.pairing else {
            panic!("{:?}", b.pairing)
        };
        assert_eq!((test.pairs, test.dropped), (11, BaseHead::new(1, 0)));
        assert!(paired.gate.failed, "{:?}", paired.gate.reasons);
        let basis = b
            .warnings
            .iter()
            .find(|w| matches!(w.cause, Cause::PairedByBlock { .. }))
            .expect("the basis");
        assert_eq!(
            crate::report::words::message(basis),
            "paired by block: 11 pairs; 1 run of BASE without its block's other run left out"
        );
        assert!(!basis.detail, "runs left out are said");
        // HPT's per-benchmark step tested the pairs too: HEAD slower.
        assert_eq!(b.hpt.winner, Some(crate::protocol::Direction::Slower));
        // The same runs without --paired: the independent design, no basis stated.
        let independent = analyse(
            &suite(12, 1.03, Some(9), Some(4)),
            &Options::defaults(FailOn::Any),
        );
        assert_eq!(independent.benchmarks[0].verdict, Verdict::Inconclusive);
        assert_eq!(independent.benchmarks[0].pairing, None);
        assert!(!independent.gate.failed);
    }

    #[test]
    fn runs_without_blocks_are_decided_independently_and_said_once() {
        use crate::model::Unpairable;
        use crate::protocol::{Cause, FailOn, Options, Pairing, analyse};
        let options = Options::defaults(FailOn::Any).with_paired(true);
        let analysis = analyse(&suite(12, 1.03, None, None), &options);
        let b = &analysis.benchmarks[0];
        assert_eq!(b.pairing, Some(Pairing::Unpaired(Unpairable::NoBlocks)));
        assert_eq!(b.verdict, Verdict::Inconclusive);
        let said: Vec<_> = analysis
            .warnings
            .iter()
            .filter(|w| matches!(w.cause, Cause::NotPaired { .. }))
            .collect();
        assert_eq!(said.len(), 1);
        assert!(crate::report::words::message(said[0]).starts_with(
            "--paired: 1 of 1 benchmarks could not be paired by block (their runs do not say"
        ));
    }
}
