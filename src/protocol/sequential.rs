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
//!   per claim ([`super::analyse::Options::per_look_confidence`]), and a decided benchmark stops running;
//! - a wrong "faster" needs the one-sided test to reject at alpha / K at one of the K looks: by the union
//!   bound its probability is at most K · alpha / K = alpha, whatever the stopping rule, and likewise for
//!   "slower" and for "unchanged" (each of its two one-sided tests). The final report analyses each
//!   benchmark at the look it stopped at with the same alpha / K, so the verdicts printed are the
//!   decisions taken.
//! - `--fail-on any` runs Holm's step-down on the per-benchmark p-values at alpha / K, i.e. on K · p, which
//!   is a valid p-value at any data-dependent look (P(K p_stop <= t) <= sum over looks of P(p_k <= t / K) =
//!   t); `--fail-on suite` (HPT) uses the sign-flip test, whose validity needs only that each benchmark's
//!   difference is as likely positive as negative when nothing changed: the stopping rule treats BASE and
//!   HEAD alike, so swapping them leaves the law of the stopped data unchanged.
//!
//! Bonferroni is conservative (the tests at successive looks are strongly correlated), which costs a
//! little power at each look, not error. The simulation tests show the resulting rates.
//!
//! Pure: the runner asks [`open_benchmarks`] between looks through a callback.

use super::Verdict;
use super::analyse::{Options, analyse};
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

    /// One look, after `runs`: the fixed plan.
    pub fn fixed(runs: u32) -> Option<LookPlan> {
        LookPlan::new(runs, runs)
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

    pub fn min(&self) -> u32 {
        self.min
    }

    pub fn max(&self) -> u32 {
        self.max
    }
}

/// The benchmarks of `suite` that the runs so far do not decide at the per-look level of `options`
/// (`options.looks` = K of the plan): the ones whose verdict is inconclusive.
pub fn open_benchmarks(suite: &Suite, options: &Options) -> Vec<String> {
    analyse(suite, options)
        .benchmarks
        .into_iter()
        .filter(|b| b.verdict == Verdict::Inconclusive)
        .map(|b| b.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
