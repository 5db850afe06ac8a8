//! Validated, typed options built from the command line: every value a user can get wrong is checked here
//! once, with a message that names the flag and the accepted range. Each command builds its plan once,
//! before it reads, builds or runs anything, and the stages after it never see the command line.
//! [`AnalysisPlan::from_args`] is the only place that builds an [`AnalysisPlan`]; nothing changes it
//! afterwards, and its analysis options are built by `Options::new` from every checked value
//! (`protocol::options` says why a struct of named values rather than a builder).

mod commands;
mod ranges;
mod run;
mod simulate;
mod speeduptest_sh;

use std::path::PathBuf;

use crate::cli::{AnalysisArgs, ColorChoice, FailOnArg, Format, HptRankArg};
use crate::protocol::hpt::Ranking;
use crate::protocol::shape::ShapeOptions;
use crate::protocol::{Alpha, Checked, Confidence, FailOn, Options, Threshold};

pub(crate) use commands::{ComparePlan, RacePlan, RevisionsPlan, refuse_paired};
pub(crate) use run::{measuring, one_measure, run_options};
pub(crate) use simulate::{BisectReplay, SimulatePlan};
pub(crate) use speeduptest_sh::speeduptest_options;

/// A bad option value: exit status 2.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid value {value} for {flag}: expected {expected}\nhint: {hint}")]
pub(crate) struct PlanError {
    /// The flag, e.g. `--confidence`.
    pub flag: &'static str,
    /// The value given, as messages show it (`ranges::number`, `ranges::text`).
    pub value: String,
    /// What the flag accepts: its range (`docs/options.md`).
    pub expected: &'static str,
    /// What to do instead.
    pub hint: &'static str,
}

/// A command line that cannot be carried out as given, with what to do instead: exit status 2.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum UsageError {
    /// A flag's value out of its range.
    #[error(transparent)]
    Invalid(#[from] PlanError),
    /// The revision form without revisions.
    #[error(
        "nothing to compare\nhint: `cargo speedup main..HEAD` compares two revisions, `cargo speedup HEAD` \
         the last commit with the working tree, `cargo speedup compare A B` two existing results"
    )]
    NothingToCompare,
    /// `compare` with an empty BASE or HEAD.
    #[error(
        "{side} is empty\nhint: give a results file, a criterion directory or a criterion baseline name"
    )]
    EmptySide {
        /// The side left empty.
        side: crate::model::Side,
    },
    /// `--paired` given to a command whose decisions are its own (`race`, `bisect`).
    #[error(
        "`{command}` does not take --paired: the paired analysis compares two sides block by block\nhint: \
         leave out --paired; `cargo speedup A..B --paired` compares two of these revisions so"
    )]
    NotPaired {
        /// The command, `race` or `bisect`.
        command: &'static str,
    },
    /// `--unit` that is none of ns, us, ms, s.
    #[error("invalid value {value:?} for --unit\nhint: use one of ns, us, ms, s")]
    Unit {
        /// The value as given.
        value: String,
    },
    /// The paper's levels and precisions (`speeduptest`).
    #[error(
        "invalid value {} for {flag}: a number strictly between 0 and 1, e.g. {example}\nhint: {hint}",
        ranges::number(*value)
    )]
    Fraction {
        /// The flag, e.g. `--conf-level`.
        flag: &'static str,
        /// The value as given.
        value: f64,
        /// A value the flag accepts.
        example: &'static str,
        /// What to do instead.
        hint: &'static str,
    },
}

/// Precision r of the minimal number of benchmarks when none is given (paper 000 §6.2.4).
pub(crate) const DEFAULT_PRECISION: f64 = 0.05;

/// Where and how the report goes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OutputPlan {
    /// What the main report is rendered as (`--format`).
    pub format: Format,
    /// `None` for stdout.
    pub path: Option<PathBuf>,
    /// `--json FILE`: the JSON report as well.
    pub json: Option<PathBuf>,
    /// `--html FILE`: the HTML report as well.
    pub html: Option<PathBuf>,
    /// Whether the table is coloured (`--color`).
    pub color: ColorChoice,
    /// `--quiet`: print nothing on standard error but errors.
    pub quiet: bool,
    /// `--verbose`: every warning and the suite's secondary figures in the human reports.
    pub verbose: bool,
}

/// Everything a comparing command needs besides its inputs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AnalysisPlan {
    /// How the analysis decides: confidence, HPT, gate, equivalence.
    pub options: Options,
    /// Where and how the reports go.
    pub output: OutputPlan,
    /// How the reports' analysis fits the shape of each side: `--mixture-fit` (the parametric figures
    /// and the KSfit check as well), modes closer than ε taken as one level.
    pub shapes: ShapeOptions,
}

impl AnalysisPlan {
    /// Checks every analysis flag and builds the plan; the first bad value is the error.
    pub(crate) fn from_args(args: &AnalysisArgs) -> Result<AnalysisPlan, PlanError> {
        let confidence = at_least_even("--confidence", args.confidence)?;
        let hpt_alpha = args
            .hpt_alpha
            .map(|a| at_most_even("--hpt-alpha", a))
            .transpose()?;
        if let Some(g) = args
            .speedup_under_test
            .filter(|g| !(g.is_finite() && *g > 0.0 && *g <= ranges::MAX_SPEEDUP_UNDER_TEST))
        {
            return Err(PlanError {
                flag: "--speedup-under-test",
                value: ranges::number(g),
                expected: "a speedup factor above 0 and at most 1000, e.g. 1.1",
                hint: "G = 1.1 asks HPT how sure it is that HEAD is more than 10 % faster",
            });
        }
        let threshold = Threshold::percent(args.threshold)
            .filter(|t| t.pct() <= ranges::MAX_THRESHOLD_PCT)
            .ok_or_else(|| PlanError {
                flag: "--threshold",
                value: ranges::number(args.threshold),
                expected: "a percentage from 0 to 1000, e.g. 5",
                hint: "regressions smaller than the threshold do not fail the gate (2 by default); 0 \
                       fails on any confirmed regression",
            })?;
        if !(args.equivalence.is_finite() && args.equivalence > 0.0 && args.equivalence < 100.0) {
            return Err(PlanError {
                flag: "--equivalence",
                value: ranges::number(args.equivalence),
                expected: "a percentage above 0 and below 100, e.g. 2",
                hint: EQUIVALENCE_HINT,
            });
        }
        Ok(AnalysisPlan {
            options: Options::new(Checked {
                confidence,
                hpt_alpha,
                hpt_rank: match args.hpt_rank {
                    HptRankArg::LogRatio => Ranking::LogRatio,
                    HptRankArg::Difference => Ranking::Difference,
                },
                speedup_under_test: args.speedup_under_test,
                fail_on: match args.fail_on {
                    FailOnArg::None => FailOn::None,
                    FailOnArg::Suite => FailOn::Suite,
                    FailOnArg::Any => FailOn::Any,
                },
                threshold,
                precision: DEFAULT_PRECISION,
                equivalence_pct: args.equivalence,
                allow_broken: args.allow_broken,
                paired: args.paired,
                // Only the HTML report draws HPT's confidence curve.
                hpt_curve: args.format == Format::Html || args.html.is_some(),
            }),
            shapes: ShapeOptions {
                mixture_fit: args.mixture_fit,
                distinct_pct: args.equivalence,
                ..ShapeOptions::default()
            },
            output: OutputPlan {
                format: args.format,
                path: args.output.clone(),
                json: args.json.clone(),
                html: args.html.clone(),
                color: args.color,
                quiet: args.quiet,
                verbose: args.verbose,
            },
        })
    }
}

/// What `--equivalence` asks for, said when it is out of range.
const EQUIVALENCE_HINT: &str =
    "ε is the change too small to matter: a benchmark within ±ε is reported unchanged";

/// A confidence level: below 0.5 a one-sided test can pass in both directions at once, so that one benchmark
/// would read "faster" with a speedup below 1; 1 would be no test at all.
fn at_least_even(flag: &'static str, value: f64) -> Result<Confidence, PlanError> {
    Confidence::new(value)
        .filter(|c| c.level() >= 0.5)
        .ok_or_else(|| PlanError {
            flag,
            value: ranges::number(value),
            expected: "a confidence level from 0.5 up to (not including) 1, e.g. 0.95",
            hint: "0.95 and 0.99 are the usual levels; a level is 1 minus the risk of a wrong verdict",
        })
}

/// A risk level: above 0.5 both tails of a test can reject at once.
fn at_most_even(flag: &'static str, value: f64) -> Result<Alpha, PlanError> {
    Alpha::new(value)
        .filter(|a| a.risk() <= 0.5)
        .ok_or_else(|| PlanError {
            flag,
            value: ranges::number(value),
            expected: "a risk level above 0 and at most 0.5, e.g. 0.05",
            hint: "leave it out for the default: 0.05 with 5 or more runs per side, else 0.10",
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Command, parse_from};

    fn analysis_args(extra: &[&str]) -> AnalysisArgs {
        let mut args = vec!["cargo-speedup", "compare", "a", "b"];
        args.extend_from_slice(extra);
        match parse_from(args).command {
            Some(Command::Compare(c)) => c.analysis,
            other => panic!("expected compare, got {other:?}"),
        }
    }

    #[test]
    fn confidence_outside_the_open_unit_interval_is_rejected() {
        for bad in ["1", "0", "1.5", "-0.1", "NaN"] {
            let flag = format!("--confidence={bad}");
            let error = AnalysisPlan::from_args(&analysis_args(&[&flag])).unwrap_err();
            assert_eq!(error.flag, "--confidence", "{bad}");
        }
        let plan = AnalysisPlan::from_args(&analysis_args(&["--confidence", "0.99"])).unwrap();
        assert_eq!(plan.options.confidence().level(), 0.99);
    }

    #[test]
    fn levels_that_let_a_test_pass_in_both_directions_are_rejected() {
        // At confidence 0.3 the example's parse/small (median speedup 0.995x) was reported "faster".
        let error = AnalysisPlan::from_args(&analysis_args(&["--confidence", "0.3"])).unwrap_err();
        assert_eq!(error.flag, "--confidence");
        let plan = AnalysisPlan::from_args(&analysis_args(&["--confidence", "0.5"])).unwrap();
        assert_eq!(plan.options.confidence().level(), 0.5);
        let error = AnalysisPlan::from_args(&analysis_args(&["--hpt-alpha", "0.7"])).unwrap_err();
        assert_eq!(error.flag, "--hpt-alpha");
        let plan = AnalysisPlan::from_args(&analysis_args(&["--hpt-alpha", "0.5"])).unwrap();
        assert_eq!(plan.options.hpt_alpha().map(Alpha::risk), Some(0.5));
    }

    #[test]
    fn only_the_html_report_asks_for_hpts_confidence_curve() {
        let curve = |extra: &[&str]| {
            AnalysisPlan::from_args(&analysis_args(extra))
                .unwrap()
                .options
                .hpt()
                .curve
        };
        assert!(!curve(&[]));
        assert!(!curve(&["--format", "json"]));
        assert!(curve(&["--format", "html"]));
        assert!(curve(&["--html", "report.html"]));
    }

    #[test]
    fn negative_threshold_and_speedup_are_rejected() {
        let error = AnalysisPlan::from_args(&analysis_args(&["--threshold=-1"])).unwrap_err();
        assert_eq!(error.flag, "--threshold");
        let error =
            AnalysisPlan::from_args(&analysis_args(&["--speedup-under-test", "0"])).unwrap_err();
        assert_eq!(error.flag, "--speedup-under-test");
        let error = AnalysisPlan::from_args(&analysis_args(&["--hpt-alpha", "1"])).unwrap_err();
        assert_eq!(error.flag, "--hpt-alpha");
    }
}
