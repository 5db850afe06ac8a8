//! The options of an analysis: what the protocols need to know from the command line (confidence, the
//! gate, ε, HPT's settings), the looks of the plan that measured the data and how more runs can be had.
//!
//! Must not: read the command line (the `plan` layer builds these), or decide anything.

use super::hpt::Ranking;
use super::{Alpha, Confidence, FailOn, Threshold};

/// How a comparison can get more runs: by a flag of this command, or by measuring again elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// The runs are measured by this command (`BASE..HEAD`): hints may name `--runs`.
    RunHere,
    /// The results exist already (`compare`): hints say what to measure, in no command's flags.
    MeasureAgain,
}

/// What the analysis needs to know from the command line.
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
    /// How many looks at the data the plan that measured it could take (1 for a fixed plan, or for results
    /// read from files): every per-benchmark decision is taken at risk alpha / looks, so that a benchmark
    /// stopped at any one of them is wrong at most alpha of the time (`docs/racing.md` §2).
    pub looks: u32,
    /// How more runs can be had, for the hints: a flag of the revision form, or measuring again.
    pub remedy: Remedy,
}

impl Options {
    /// The confidence of each per-benchmark decision: 1 − alpha / looks (Bonferroni over the looks).
    pub fn per_look_confidence(&self) -> Confidence {
        Confidence(1.0 - self.confidence.alpha() / f64::from(self.looks.max(1)))
    }

    /// Every option the verdicts between looks depend on, as text: runs measured under one rule are not
    /// reused under another (the cache's key). The looks and the hints' remedy are left out: the first is
    /// the plan's, keyed apart, the second changes no verdict.
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
            looks: _,
            remedy: _,
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
    /// The command line's defaults (confidence 0.95, no threshold, ε 2 %, one look) with this gate: the
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
            looks: 1,
            remedy: Remedy::MeasureAgain,
        }
    }
}
