//! The options of an analysis: what the protocols need to know from the command line (confidence, the
//! gate, ε, HPT's settings), built once by the `plan` layer and never changed afterwards; and
//! [`PerLook`], what each benchmark's decisions need: those options at the per-look level, with the design
//! of the measurement ([`Design`]: its looks and how more runs can be had), which comes with the suite
//! from whoever measured or read it, not from the command line.
//!
//! Must not: read the command line (the `plan` layer builds these), or decide anything.

use super::hpt::Ranking;
use super::{Alpha, Confidence, FailOn, Threshold};
pub use crate::model::{Design, Remedy};

/// What the analysis needs to know from the command line: built once by the plan (`plan::AnalysisPlan`)
/// and never changed afterwards. The looks and the remedy are not here: they are the design of the runs,
/// which comes with the suite ([`crate::model::Suite::design`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Confidence level of every decision and r of the r-speedup.
    pub confidence: Confidence,
    /// Risk of HPT's per-benchmark tests; `None` for the paper's default.
    pub hpt_alpha: Option<Alpha>,
    /// What HPT ranks across benchmarks (`--hpt-rank`).
    pub hpt_rank: Ranking,
    /// HPT's confidence curve, for the HTML report (`HptOptions::curve`).
    pub hpt_curve: bool,
    /// `--speedup-under-test`.
    pub speedup_under_test: Option<f64>,
    /// When the gate fails the comparison (`--fail-on`).
    pub fail_on: FailOn,
    /// `--threshold`: the slowdown the gate tolerates.
    pub threshold: Threshold,
    /// Precision r of the minimal number of benchmarks (paper 000 §5).
    pub precision: f64,
    /// ε of the equivalence check, in percent, in (0, 100).
    pub equivalence_pct: f64,
}

impl Options {
    /// Every option the verdicts between looks depend on, as text: runs measured under one rule are not
    /// reused under another (the cache's key). The design's looks are the plan's, keyed apart.
    pub fn stopping_rule(&self) -> String {
        let Options {
            confidence,
            hpt_alpha,
            speedup_under_test,
            fail_on,
            threshold,
            precision,
            equivalence_pct,
            hpt_rank,
            hpt_curve: _,
        } = self;
        let (confidence, hpt_alpha, threshold) = (
            confidence.level(),
            hpt_alpha.map(Alpha::risk),
            threshold.pct(),
        );
        format!(
            "confidence {confidence:?}, hpt-alpha {hpt_alpha:?}, speedup-under-test \
             {speedup_under_test:?}, fail-on {fail_on:?}, threshold {threshold:?}, precision \
             {precision:?}, equivalence {equivalence_pct:?}, hpt-rank {hpt_rank:?}"
        )
    }
}

#[cfg(test)]
impl Options {
    /// The command line's defaults (confidence 0.95, no threshold, ε 2 %) with this gate: the
    /// options the protocol's tests start from.
    pub(crate) fn defaults(fail_on: FailOn) -> Options {
        Options {
            confidence: Confidence(0.95),
            hpt_alpha: None,
            hpt_rank: Ranking::LogRatio,
            hpt_curve: false,
            speedup_under_test: None,
            fail_on,
            threshold: Threshold::NONE,
            precision: 0.05,
            equivalence_pct: 2.0,
        }
    }
}

/// What each benchmark's decisions and warnings need: the options' confidence at the per-look level, ε,
/// and the design of the runs (their looks, and how more can be had, for the hints). Built from the
/// options and the suite's design ([`PerLook::new`]), never changed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerLook {
    /// The confidence of each per-benchmark decision: 1 − alpha / looks (Bonferroni over the looks), so
    /// that a benchmark stopped at any one of them is wrong at most alpha of the time (`docs/racing.md` §2).
    pub(crate) confidence: Confidence,
    /// ε of the equivalence check, in percent.
    pub(crate) equivalence_pct: f64,
    /// How many looks at the data the plan that measured it could take, at least 1.
    pub(crate) looks: u32,
    /// How more runs can be had, for the hints.
    pub(crate) remedy: Remedy,
}

impl PerLook {
    /// The per-look view of `options` for runs had as `design` says.
    pub fn new(options: &Options, design: Design) -> PerLook {
        PerLook {
            confidence: Confidence(1.0 - options.confidence.alpha() / f64::from(design.looks())),
            equivalence_pct: options.equivalence_pct,
            looks: design.looks(),
            remedy: design.remedy(),
        }
    }

    /// The confidence of each per-benchmark decision, 1 − alpha / looks.
    pub fn confidence(&self) -> Confidence {
        self.confidence
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_look_decides_at_alpha_over_the_looks_with_the_designs_remedy() {
        let options = Options::defaults(FailOn::Suite);
        let read = PerLook::new(&options, Design::READ);
        assert_eq!(
            (read.confidence().level(), read.looks, read.remedy),
            (0.95, 1, Remedy::MeasureAgain)
        );
        let raced = PerLook::new(&options, Design::measured(3));
        assert!((raced.confidence().level() - (1.0 - 0.05 / 3.0)).abs() < 1e-12);
        assert_eq!((raced.looks, raced.remedy), (3, Remedy::RunHere));
        // What the command line decided is untouched.
        assert_eq!(raced.equivalence_pct, options.equivalence_pct);
    }
}
