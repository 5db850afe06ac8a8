//! The options of an analysis: what the protocols need to know from the command line (confidence, the
//! gate, ε, HPT's settings), built once by the `plan` layer and never changed afterwards; and
//! [`PerLook`], what each benchmark's decisions need: those options at the per-look level, with the design
//! of the measurement ([`Design`]: its looks and how more runs can be had), which comes with the suite
//! from whoever measured or read it, not from the command line.
//!
//! How they are built: [`Options`] keeps its fields private and has one constructor for the plan,
//! [`Options::new`], which takes every checked value by name in a [`Checked`] (a struct literal reads as
//! the list of what the plan decided, and leaving a value out does not compile, where a builder would fall
//! back to a default unseen). Tests, simulations and benchmarks start from the command line's defaults
//! ([`Options::defaults`]) and change one value at a time with the `with_` methods, each of which returns
//! a modified copy: `Options::defaults(FailOn::Any).with_threshold(t)`. The stages after the plan read the
//! values through accessors, and what they need built from them is built here ([`Options::hpt`],
//! [`PerLook::new`]).
//!
//! Must not: read the command line (the `plan` layer builds these), or decide anything.

use super::hpt::{HptOptions, Ranking};
use super::{Alpha, Confidence, FailOn, Threshold};
pub use crate::model::{Design, Remedy};

/// What the analysis needs to know from the command line: built once by the plan (`plan::AnalysisPlan`)
/// through [`Options::new`] and never changed afterwards. The looks and the remedy are not here: they are
/// the design of the runs, which comes with the suite ([`crate::model::Suite::design`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    checked: Checked,
}

/// Every value of [`Options`], checked by the plan: the one constructor's argument, named field by field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checked {
    /// Confidence level of every decision and r of the r-speedup (`--confidence`).
    pub confidence: Confidence,
    /// Risk of HPT's per-benchmark tests (`--hpt-alpha`); `None` for the paper's default.
    pub hpt_alpha: Option<Alpha>,
    /// What HPT ranks across benchmarks (`--hpt-rank`).
    pub hpt_rank: Ranking,
    /// Whether HPT computes its confidence curve, which only the HTML report draws (`HptOptions::curve`).
    pub hpt_curve: bool,
    /// `--speedup-under-test`: a factor above 0 and at most 1000.
    pub speedup_under_test: Option<f64>,
    /// When the gate fails the comparison (`--fail-on`).
    pub fail_on: FailOn,
    /// `--threshold`: the slowdown the gate tolerates.
    pub threshold: Threshold,
    /// Precision r of the minimal number of benchmarks (paper 000 §5).
    pub precision: f64,
    /// ε of the equivalence check, in percent, in (0, 100) (`--equivalence`).
    pub equivalence_pct: f64,
    /// `--allow-broken`: a bench target or benchmark that BASE measured and HEAD could not does not fail
    /// the gate (it is still reported).
    pub allow_broken: bool,
    /// `--paired`: decide each benchmark on its runs paired by block (`docs/replication.md` §7); the
    /// independent design otherwise.
    pub paired: bool,
}

impl Options {
    /// The options of values the plan checked.
    pub fn new(checked: Checked) -> Options {
        Options { checked }
    }

    /// The command line's defaults (confidence 0.95, HPT's default risk on log speedups without its
    /// curve, no threshold, precision 0.05, ε 2 %) with this gate: what tests, simulations and benchmarks
    /// start from.
    pub fn defaults(fail_on: FailOn) -> Options {
        Options::new(Checked {
            confidence: Confidence(0.95),
            hpt_alpha: None,
            hpt_rank: Ranking::LogRatio,
            hpt_curve: false,
            speedup_under_test: None,
            fail_on,
            threshold: Threshold::NONE,
            precision: 0.05,
            equivalence_pct: 2.0,
            allow_broken: false,
            paired: false,
        })
    }

    /// These options at another confidence level.
    pub fn with_confidence(self, confidence: Confidence) -> Options {
        Options::new(Checked {
            confidence,
            ..self.checked
        })
    }

    /// These options with another risk of HPT's per-benchmark tests (`None` for the paper's default).
    pub fn with_hpt_alpha(self, hpt_alpha: Option<Alpha>) -> Options {
        Options::new(Checked {
            hpt_alpha,
            ..self.checked
        })
    }

    /// These options with another gate.
    pub fn with_fail_on(self, fail_on: FailOn) -> Options {
        Options::new(Checked {
            fail_on,
            ..self.checked
        })
    }

    /// These options with another threshold of the gate.
    pub fn with_threshold(self, threshold: Threshold) -> Options {
        Options::new(Checked {
            threshold,
            ..self.checked
        })
    }

    /// These options with another ε, in percent, in (0, 100).
    pub fn with_equivalence_pct(self, equivalence_pct: f64) -> Options {
        Options::new(Checked {
            equivalence_pct,
            ..self.checked
        })
    }

    /// These options with or without `--allow-broken`.
    pub fn with_allow_broken(self, allow_broken: bool) -> Options {
        Options::new(Checked {
            allow_broken,
            ..self.checked
        })
    }

    /// These options with or without the paired analysis of blocks (`--paired`).
    pub fn with_paired(self, paired: bool) -> Options {
        Options::new(Checked {
            paired,
            ..self.checked
        })
    }

    /// These options with or without HPT's confidence curve.
    pub fn with_hpt_curve(self, hpt_curve: bool) -> Options {
        Options::new(Checked {
            hpt_curve,
            ..self.checked
        })
    }

    /// Confidence level of every decision and r of the r-speedup.
    pub fn confidence(&self) -> Confidence {
        self.checked.confidence
    }

    /// Risk of HPT's per-benchmark tests; `None` for the paper's default.
    pub fn hpt_alpha(&self) -> Option<Alpha> {
        self.checked.hpt_alpha
    }

    /// What HPT ranks across benchmarks.
    pub fn hpt_rank(&self) -> Ranking {
        self.checked.hpt_rank
    }

    /// What HPT is asked for in a comparison: its confidence, risk, speedup under test and curve.
    pub fn hpt(&self) -> HptOptions {
        HptOptions {
            confidence: self.checked.confidence,
            alpha: self.checked.hpt_alpha,
            speedup_under_test: self.checked.speedup_under_test,
            curve: self.checked.hpt_curve,
        }
    }

    /// When the gate fails the comparison.
    pub fn fail_on(&self) -> FailOn {
        self.checked.fail_on
    }

    /// The slowdown the gate tolerates.
    pub fn threshold(&self) -> Threshold {
        self.checked.threshold
    }

    /// Precision r of the minimal number of benchmarks.
    pub fn precision(&self) -> f64 {
        self.checked.precision
    }

    /// ε of the equivalence check, in percent.
    pub fn equivalence_pct(&self) -> f64 {
        self.checked.equivalence_pct
    }

    /// Whether a bench target or benchmark HEAD could not measure leaves the gate as it is
    /// (`--allow-broken`).
    pub fn allow_broken(&self) -> bool {
        self.checked.allow_broken
    }

    /// Whether each benchmark is decided on its runs paired by block (`--paired`, `docs/replication.md` §7).
    pub fn paired(&self) -> bool {
        self.checked.paired
    }

    /// Every option the verdicts between looks depend on, as text: runs measured under one rule are not
    /// reused under another (the cache's key). The design's looks are the plan's, keyed apart.
    pub fn stopping_rule(&self) -> String {
        let Checked {
            confidence,
            hpt_alpha,
            speedup_under_test,
            fail_on,
            threshold,
            precision,
            equivalence_pct,
            hpt_rank,
            hpt_curve: _,
            allow_broken: _,
            paired,
        } = &self.checked;
        let (confidence, hpt_alpha, threshold) = (
            confidence.level(),
            hpt_alpha.map(Alpha::risk),
            threshold.pct(),
        );
        format!(
            "confidence {confidence:?}, hpt-alpha {hpt_alpha:?}, speedup-under-test \
             {speedup_under_test:?}, fail-on {fail_on:?}, threshold {threshold:?}, precision \
             {precision:?}, equivalence {equivalence_pct:?}, hpt-rank {hpt_rank:?}{}",
            // Said only when asked, so that the independent design's rule reads as it always has.
            if *paired { ", paired" } else { "" }
        )
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
            confidence: Confidence(1.0 - options.confidence().alpha() / f64::from(design.looks())),
            equivalence_pct: options.equivalence_pct(),
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
    fn the_stopping_rule_reads_as_it_always_has_and_a_variant_changes_one_value() {
        // The cache keys comparisons by this text: runs measured before keep matching.
        let defaults = Options::defaults(FailOn::Any);
        assert_eq!(
            defaults.stopping_rule(),
            "confidence 0.95, hpt-alpha None, speedup-under-test None, fail-on Any, threshold 0.0, \
             precision 0.05, equivalence 2.0, hpt-rank LogRatio"
        );
        let stricter = defaults.with_threshold(Threshold::percent(5.0).unwrap());
        assert_eq!(stricter.threshold().pct(), 5.0);
        assert_eq!(
            stricter.stopping_rule(),
            defaults
                .stopping_rule()
                .replace("threshold 0.0", "threshold 5.0")
        );
        // The copy is changed, the defaults are not.
        assert_eq!(defaults.threshold(), Threshold::NONE);
    }

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
        assert_eq!(raced.equivalence_pct, options.equivalence_pct());
    }
}
