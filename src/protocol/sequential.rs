//! Run until decided: when to look at the runs, which benchmarks are still open, and why looking
//! repeatedly costs no error (`docs/racing.md`).
//!
//! Paper 002 (raced profiles) runs competing versions alternately and stops each as soon as it is decided;
//! it tests after every run at a fixed nominal alpha and tunes alpha by simulation, so its stated risk is not
//! the real one. Here the looks are planned and alpha is spent over them with Bonferroni's inequality:
//!
//! - the looks come after `min`, `2 min`, `4 min`, ... process runs per side, and at `max` ([`LookPlan`]):
//!   K looks, few because each doubles the runs (the statistics change little between nearby looks, so
//!   looking after every block would spend alpha for nothing);
//! - at every look each open benchmark is decided (faster, slower, unchanged within ±ε) at risk alpha / K
//!   per claim ([`super::options::PerLook`]), and a decided benchmark stops running;
//! - a wrong "faster" needs the one-sided test to reject at alpha / K at one of the K looks: by the union
//!   bound its probability is at most K · alpha / K = alpha, whatever the stopping rule, and likewise for
//!   "slower" and for "unchanged" (each of its two one-sided tests). The final report analyses each
//!   benchmark at the look it stopped at with the same alpha / K, so the verdicts printed are the
//!   decisions taken.
//! - `--fail-on any` runs Holm's step-down on the per-benchmark p-values at alpha / K, i.e. on K · p, which
//!   is a valid p-value at any data-dependent look (P(K p_stop <= t) <= sum over looks of P(p_k <= t / K) =
//!   t); `--fail-on suite` (HPT) uses the sign-flip test, whose validity needs only that each benchmark's
//!   difference is as likely positive as negative when nothing changed: the stopping rule treats BASE and
//!   HEAD alike, so swapping them leaves the law of the stopped data unchanged;
//! - an inconclusive benchmark stops early, still inconclusive, when the remaining looks would seldom
//!   decide it ([`is_futile`]): its interval at the per-look level already rules out changes of 2ε or more
//!   (with ε = 2 %, no change of 4 % or more), and with its estimate where it is, the interval at the cap
//!   would show neither a difference nor ±ε. Stopping (futility) only takes decisions away, so every error
//!   rate above stays as stated; what it can cost is power, and only for a true change the interval wrongly
//!   excludes: a change of 2ε or more is excluded at one of the looks with probability at most alpha (the
//!   union bound again), and in practice far less (the simulation tests). What it saves is the unchanged
//!   benchmark on a noisy machine that would run to the cap and end inconclusive anyway (`docs/calibration.md`
//!   §3). It is a non-binding futility rule in the sense of group-sequential designs (Jennison and
//!   Turnbull, *Group Sequential Methods with Applications to Clinical Trials*, 2000, §10): the rejection
//!   boundaries are those computed without it, so a race that ignored it would keep every stated risk.
//!
//! Bonferroni is conservative (the tests at successive looks are strongly correlated), which costs a
//! little power at each look, not error. The simulation tests show the resulting rates.
//!
//! Pure: the runner asks [`open_benchmarks`] between looks through a callback.

use super::analyse::analyse;
use super::equivalence::is_futile;
use super::options::Options;
use super::{BenchmarkAnalysis, FailOn, Threshold, Verdict};
use crate::model::Suite;

/// When to look: after `min` process runs per side, then each time the runs have doubled, and at `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LookPlan {
    min: u32,
    max: u32,
}

impl LookPlan {
    /// `min` >= 2 runs per side at the first look, `max` >= `min` at the last; `None` otherwise.
    pub fn new(min: u32, max: u32) -> Option<LookPlan> {
        (min >= 2 && max >= min).then_some(LookPlan { min, max })
    }

    /// One look after a single run per side: for exact counts (`--measure instructions`), which a second
    /// run would repeat.
    pub fn single_run() -> LookPlan {
        LookPlan { min: 1, max: 1 }
    }

    /// One look, after `runs`: the fixed plan.
    pub fn fixed(runs: u32) -> Option<LookPlan> {
        LookPlan::new(runs, runs)
    }

    /// The looks as text, `5,10,20`: how caches and fingerprints record the plan.
    pub fn looks_text(&self) -> String {
        let looks: Vec<String> = self.looks().iter().map(u32::to_string).collect();
        looks.join(",")
    }

    /// The runs per side at each look, increasing; the last is `max`.
    pub fn looks(&self) -> Vec<u32> {
        let mut looks = Vec::new();
        let mut n = self.min;
        while n < self.max {
            looks.push(n);
            n = n.saturating_mul(2);
        }
        looks.push(self.max);
        looks
    }

    /// K, the number of looks alpha is spent over.
    pub fn count(&self) -> u32 {
        self.looks().len() as u32
    }

    /// Runs per side at the first look (≥ 2).
    pub fn min(&self) -> u32 {
        self.min
    }

    /// Runs per side at the last look, the cap.
    pub fn max(&self) -> u32 {
        self.max
    }
}

/// The fewest process runs per side, from `at_least`, with which the one-sided rank-sum test of n against
/// n runs can reach `alpha` at all (its smallest p-value is 1/C(2n, n)); 64 if none below does. A plan's
/// first look needs at least this many runs for a benchmark to be decided there (`docs/racing.md` §2).
pub fn fewest_runs_to_reject(alpha: f64, at_least: u32) -> u32 {
    (at_least..64)
        .find(|&n| crate::stats::rank_sum::can_reject(n as usize, n as usize, alpha))
        .unwrap_or(64)
}

/// The benchmarks of `suite` that the runs so far do not decide at the per-look level of `options`
/// (the suite's design has the K looks of the plan, `cap` its runs per side at the last look): the ones
/// whose verdict is inconclusive, and under `--fail-on any` the
/// ones called slower while the gate finds none slower yet. An inconclusive benchmark that more runs are
/// unlikely to decide ([`is_futile`]) is not open.
///
/// Why the second kind. A verdict is one benchmark's claim at alpha / K; the `any` gate corrects over the m
/// benchmarks (Holm), so it needs p <= alpha / (K m) for the first. With 5 runs per side the rank-sum test
/// reaches p = 1/252 at best: six base64 benchmarks slowed 5-6 % were each called slower at the first look
/// (p = 0.004 <= 0.05 / 3) and stopped there, and the gate, needing 0.05 / 18 = 0.0028, passed (2 of 5
/// calibration comparisons). Such a benchmark now runs on until the gate finds it slower or the plan ends,
/// unless a `--threshold` t is given and its runs already show it less than t % slower: the lower end of
/// its speedup interval (one-sided at the per-look risk) is above 1/(1 + t/100). More runs would then only
/// confirm that the gate, which fails only where the estimated slowdown is beyond t, has no case. Stopping there (futility) can
/// only take rejections away, so the gate's risk on unchanged code stays at most alpha; it loses power only
/// when that interval is wrong, at most the per-look risk. Without this a benchmark 1 % slower under
/// `--threshold 5` ran to the cap. Once the gate finds one benchmark slower it fails whatever the others
/// do, so none stays open for the gate's sake.
pub fn open_benchmarks(suite: &Suite, options: &Options, cap: u32) -> Vec<String> {
    decide_look(suite, options, cap).open
}

/// What one look decides: the benchmarks still open ([`open_benchmarks`]), and under `--fail-on any` the
/// open ones whose minimum detectable effect, projected to the cap (it shrinks as 1/sqrt(runs): `docs/verdicts.md`
/// §3), stays above the gate's threshold (ε without one): the benchmarks the gate will not see a slowdown of
/// the threshold's size in, whatever the remaining looks, with the slowdown that would likely pass there.
#[derive(Debug, Clone, PartialEq)]
pub struct LookDecision {
    /// The benchmarks still open.
    pub open: Vec<String>,
    /// The open benchmarks out of the gate's reach even at the cap; largest reach first.
    pub out_of_reach_at_cap: Vec<super::OutOfReach>,
    /// The size they cannot see, in percent: the threshold, or ε without one.
    pub reference_pct: f64,
    /// The benchmarks no longer open with a verdict (faster, slower, unchanged): "decided" as the report
    /// says it.
    pub decided: usize,
    /// The benchmarks no longer open without one: inconclusive, stopped because more runs would seldom
    /// decide them ([`is_futile`]).
    pub stopped: usize,
}

/// The decision of one look of `suite` (its design has the plan's K looks, `cap` the runs per side of the
/// last one): [`LookDecision`].
pub fn decide_look(suite: &Suite, options: &Options, cap: u32) -> LookDecision {
    let analysis = analyse(suite, options);
    let threshold = options.threshold().pct();
    let reference = if threshold > 0.0 {
        threshold
    } else {
        options.equivalence_pct()
    };
    let mut out_of_reach_at_cap: Vec<super::OutOfReach> = analysis
        .benchmarks
        .iter()
        .filter(|b| {
            options.fail_on() == FailOn::Any
                && b.verdict == Verdict::Inconclusive
                && b.basis == crate::model::Basis::ProcessRuns
        })
        .filter_map(|b| {
            let mde = b.equivalence.minimum_detectable_pct?;
            let runs = b.base.n.min(b.head.n).max(1) as f64;
            let at_cap =
                100.0 * ((mde / 100.0).ln_1p() * (runs / f64::from(cap.max(1))).sqrt()).exp_m1();
            (at_cap.is_finite() && at_cap > reference).then(|| super::OutOfReach {
                name: b.name.clone(),
                minimum_detectable_pct: at_cap,
                reach_pct: at_cap.max(threshold),
            })
        })
        .collect();
    out_of_reach_at_cap.sort_by(|a, b| b.reach_pct.total_cmp(&a.reach_pct));
    let verdicts: Vec<(String, Verdict)> = analysis
        .benchmarks
        .iter()
        .map(|b| (b.name.clone(), b.verdict))
        .collect();
    let open = open_of(analysis, options, cap);
    let closed = || verdicts.iter().filter(|(name, _)| !open.contains(name));
    let decided = closed()
        .filter(|(_, v)| *v != Verdict::Inconclusive)
        .count();
    let stopped = closed()
        .filter(|(_, v)| *v == Verdict::Inconclusive)
        .count();
    LookDecision {
        open,
        out_of_reach_at_cap,
        reference_pct: reference,
        decided,
        stopped,
    }
}

fn open_of(analysis: crate::protocol::Analysis, options: &Options, cap: u32) -> Vec<String> {
    let gate_open = options.fail_on() == FailOn::Any && analysis.gate.slower.is_empty();
    let runs = |b: &BenchmarkAnalysis| b.base.n.min(b.head.n);
    let under_threshold = |b: &BenchmarkAnalysis| {
        options.threshold() > Threshold::NONE
            && b.equivalence
                .interval
                .is_some_and(|(low, _)| low > 1.0 / (1.0 + options.threshold().pct() / 100.0))
    };
    analysis
        .benchmarks
        .into_iter()
        .filter(|b| {
            (b.verdict == Verdict::Inconclusive
                && !is_futile(b.verdict, &b.equivalence, runs(b), cap as usize))
                || (gate_open && b.verdict == Verdict::Slower && !under_threshold(b))
        })
        .map(|b| b.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Design, Run, Runs, Sample, Unit};
    use crate::testutil::simulated_results as results;

    /// Six benchmarks, 5 runs per side, every HEAD run slower than every BASE run: each rank-sum p is
    /// 1/C(10, 5) = 1/252.
    fn six_slower_benchmarks() -> Suite {
        let runs = |level: f64| {
            let runs = (0..5)
                .map(|i| {
                    let values = vec![level + i as f64, level + i as f64 + 0.5];
                    Run::new(Sample::new(values, Unit::Ns).unwrap(), None)
                })
                .collect();
            Runs::new(runs).unwrap()
        };
        let side = |level: f64| results((0..6).map(|k| (format!("b{k}"), runs(level))).collect());
        Suite::pair(side(100.0), side(110.0))
    }

    fn options(fail_on: FailOn) -> Options {
        Options::defaults(fail_on)
    }

    #[test]
    fn a_look_names_the_benchmarks_the_gate_cannot_see_even_at_the_cap() {
        // Two benchmarks of 6 runs per side, unchanged: one spread ±0.2 %, one ±20 %.
        let runs = |level: f64, spread: f64| {
            let values: Vec<f64> = (0..6)
                .map(|i| level * (1.0 + spread * (i as f64 / 2.5 - 1.0)))
                .collect();
            Runs::independent(Sample::new(values, Unit::Ns).unwrap())
        };
        let side = || {
            results(vec![
                ("quiet".into(), runs(100.0, 0.002)),
                ("noisy".into(), runs(100.0, 0.2)),
            ])
        };
        let suite = at_looks(Suite::pair(side(), side()), 3);
        let any = options(FailOn::Any).with_threshold(Threshold::percent(2.0).unwrap());
        let decision = decide_look(&suite, &any, 24);
        assert_eq!(decision.reference_pct, 2.0);
        let names: Vec<&str> = decision
            .out_of_reach_at_cap
            .iter()
            .map(|o| o.name.as_str())
            .collect();
        assert_eq!(names, ["noisy"]);
        // The effect at the cap is the one at 6 runs shrunk by sqrt(6 / 24) on the log scale.
        let analysis = analyse(&suite, &any);
        let now = analysis.benchmarks[1]
            .equivalence
            .minimum_detectable_pct
            .unwrap();
        let expected = 100.0 * ((now / 100.0).ln_1p() * 0.5).exp_m1();
        let got = decision.out_of_reach_at_cap[0].minimum_detectable_pct;
        assert!((got - expected).abs() < 1e-9, "{got} vs {expected}");
        assert!(got > 2.0 && got < now);
        // The quiet one is shown unchanged: decided; the noisy one is still open.
        assert_eq!((decision.decided, decision.stopped), (1, 0));
        assert_eq!(decision.open, ["noisy"]);
        // The suite gate does not promise a size: nothing to say.
        assert!(
            decide_look(&suite, &options(FailOn::Suite), 24)
                .out_of_reach_at_cap
                .is_empty()
        );
    }

    /// `suite` as measured by a plan of `looks` looks (each decision at alpha / looks).
    fn at_looks(suite: Suite, looks: u32) -> Suite {
        Suite {
            design: Design::measured(looks),
            ..suite
        }
    }

    #[test]
    fn benchmarks_called_slower_run_on_until_the_any_gate_can_fail_on_them() {
        let suite = at_looks(six_slower_benchmarks(), 3);
        // At alpha / 3 each benchmark is called slower (1/252 <= 0.0167), but Holm over six needs
        // 0.0167 / 6 = 0.0028 < 1/252: under `any` all six stay open, under `suite` none does.
        let analysis = analyse(&suite, &options(FailOn::Any));
        assert!(
            analysis
                .benchmarks
                .iter()
                .all(|b| b.verdict == Verdict::Slower)
        );
        assert!(!analysis.gate.failed);
        assert_eq!(open_benchmarks(&suite, &options(FailOn::Any), 20).len(), 6);
        assert!(open_benchmarks(&suite, &options(FailOn::Suite), 20).is_empty());
        // In one look (alpha / 6 = 0.0083 >= 1/252) the gate finds all six slower: none stays open.
        let one_look = at_looks(suite, 1);
        assert_eq!(
            analyse(&one_look, &options(FailOn::Any)).gate.slower.len(),
            6
        );
        assert!(open_benchmarks(&one_look, &options(FailOn::Any), 5).is_empty());
    }

    #[test]
    fn a_benchmark_shown_slower_by_less_than_the_threshold_stops() {
        // HEAD 1 % slower in every run, 10 runs per side spread by 0.1 %: called slower at alpha / 3, and
        // its interval (about 0.99x) lies above 1/1.05: the `any` gate at 5 % has no case, more runs or not.
        let runs = |level: f64| {
            let runs = (0..10)
                .map(|i| {
                    let v = level * (1.0 + 0.001 * i as f64);
                    Run::new(Sample::new(vec![v, v * 1.0001], Unit::Ns).unwrap(), None)
                })
                .collect();
            Runs::new(runs).unwrap()
        };
        let side = |level: f64| results(vec![("b".to_string(), runs(level))]);
        let suite = at_looks(Suite::pair(side(100.0), side(101.0)), 3);
        let at = |threshold: f64| {
            options(FailOn::Any).with_threshold(Threshold::percent(threshold).unwrap())
        };
        let analysis = analyse(&suite, &at(5.0));
        assert_eq!(analysis.benchmarks[0].verdict, Verdict::Slower);
        assert!(analysis.gate.slower.is_empty());
        let (low, _) = analysis.benchmarks[0].equivalence.interval.unwrap();
        assert!(low > 1.0 / 1.05 && low < 1.0, "{low}");
        // Called slower, not found by the gate: before this rule it stayed open to the cap.
        assert!(open_benchmarks(&suite, &at(5.0), 20).is_empty());
        // Without a threshold the gate itself finds it slower, and it stops for that reason.
        assert_eq!(analyse(&suite, &at(0.0)).gate.slower, ["b"]);
    }

    #[test]
    fn once_the_any_gate_fails_no_benchmark_stays_open_for_its_sake() {
        // b0: 6 v 6, every HEAD run slower (p = 1/924 <= 0.05 / (3 · 6)): the gate fails on it. b1..b5:
        // 5 v 5, every HEAD run slower (p = 1/252): called slower at alpha / 3, but Holm's second step needs
        // 0.05 / (3 · 5) = 0.0033 < 1/252, so the gate does not find them.
        let runs = |level: f64, count: usize| {
            let runs = (0..count)
                .map(|i| {
                    let values = vec![level + i as f64, level + i as f64 + 0.5];
                    Run::new(Sample::new(values, Unit::Ns).unwrap(), None)
                })
                .collect();
            Runs::new(runs).unwrap()
        };
        let side = |level: f64| {
            results(
                (0..6)
                    .map(|k| (format!("b{k}"), runs(level, if k == 0 { 6 } else { 5 })))
                    .collect(),
            )
        };
        let suite = at_looks(Suite::pair(side(100.0), side(110.0)), 3);
        let options = options(FailOn::Any);
        let analysis = analyse(&suite, &options);
        assert_eq!(analysis.gate.slower, ["b0"]);
        assert!(analysis.gate.failed);
        assert!(
            analysis
                .benchmarks
                .iter()
                .all(|b| b.verdict == Verdict::Slower)
        );
        // The gate fails whatever b1..b5 do next: none runs on.
        assert!(open_benchmarks(&suite, &options, 24).is_empty());
    }

    /// One benchmark, 12 runs per side, HEAD's runs BASE's times `factor`; BASE's runs spread evenly over
    /// ±`spread` (a fraction); measured by a plan of three looks.
    fn spread_pair(spread: f64, factor: f64) -> Suite {
        let runs = |scale: f64| {
            let runs = (0..12)
                .map(|i| {
                    let v = 100.0 * scale * (1.0 + spread * (i as f64 / 5.5 - 1.0));
                    Run::new(Sample::new(vec![v, v], Unit::Ns).unwrap(), None)
                })
                .collect();
            Runs::new(runs).unwrap()
        };
        let side = |scale: f64| results(vec![("b".to_string(), runs(scale))]);
        at_looks(Suite::pair(side(1.0), side(factor)), 3)
    }

    #[test]
    fn an_undecided_benchmark_stops_when_the_cap_would_not_decide_it_either() {
        // 12 runs per side of a plan capped at 24: at the cap the interval would be 1/sqrt(2) as wide.
        let options = options(FailOn::Any);
        for (spread, factor, futile, why) in [
            // [0.979, 1.022]: inside ±4 %, and at the cap about ±1.5 % around 1: on track to unchanged.
            (0.03, 1.0, false, "unchanged by the cap"),
            // [0.972, 1.029]: inside ±4 %, but at the cap still about ±2.0 %: neither.
            (0.04, 1.0, true, "neither at the cap"),
            // [0.958, 1.043]: a change of 4 % is not ruled out.
            (0.06, 1.0, false, "4 % not ruled out"),
            // [0.979, 1.001] around 0.99: at the cap about ±0.8 % around 0.99, which excludes 1.
            (0.015, 1.01, false, "slower by the cap"),
            // [0.966, 1.015] around 0.99: at the cap about ±1.8 %, which neither excludes 1 nor fits ±2 %.
            (0.035, 1.01, true, "neither at the cap"),
        ] {
            let suite = spread_pair(spread, factor);
            let b = &analyse(&suite, &options).benchmarks[0];
            assert_eq!(
                b.verdict,
                Verdict::Inconclusive,
                "{why}: {:?}",
                b.equivalence
            );
            assert!(!b.equivalence.rules_out(2.0));
            assert_eq!(
                is_futile(b.verdict, &b.equivalence, 12, 24),
                futile,
                "{why}: {:?}",
                b.equivalence
            );
            assert_eq!(
                open_benchmarks(&suite, &options, 24).is_empty(),
                futile,
                "{why}"
            );
            // At the cap itself nothing is left to save.
            assert!(!is_futile(b.verdict, &b.equivalence, 24, 24));
        }
        // A decided benchmark is never futile: that word is for the undecided.
        let suite = spread_pair(0.001, 1.0);
        let b = &analyse(&suite, &options).benchmarks[0];
        assert_eq!(b.verdict, Verdict::Unchanged);
        assert!(!is_futile(b.verdict, &b.equivalence, 12, 24));
    }

    #[test]
    fn looks_double_from_the_minimum_and_end_at_the_maximum() {
        assert_eq!(LookPlan::new(6, 24).unwrap().looks(), [6, 12, 24]);
        assert_eq!(LookPlan::new(6, 30).unwrap().looks(), [6, 12, 24, 30]);
        assert_eq!(LookPlan::new(10, 10).unwrap().looks(), [10]);
        assert_eq!(LookPlan::fixed(10).unwrap().count(), 1);
        assert_eq!(LookPlan::new(5, 6).unwrap().looks(), [5, 6]);
        assert_eq!(LookPlan::new(1, 6), None);
        assert_eq!(LookPlan::new(8, 6), None);
    }
}
