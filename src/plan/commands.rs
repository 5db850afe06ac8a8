//! One validated plan per comparing command, built once before anything is read, built or run: the
//! revision comparison, `race` and `compare` each take theirs and never look at the command line again.

use super::{AnalysisPlan, PlanError, UsageError, run_options};
use crate::cli::{AnalysisArgs, CompareArgs, RunArgs};
use crate::measure::RunOptions;
use crate::model::{Side, Unit};

/// `cargo speedup REVISIONS`: what to measure, how, and how to analyse and report it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RevisionsPlan {
    /// `BASE..HEAD`, `BASE...HEAD` or `BASE`, as given (`measure` parses it against git).
    pub revisions: String,
    /// How the measured results are analysed and reported.
    pub analysis: AnalysisPlan,
    /// How the revisions are built and run.
    pub run: RunOptions,
}

impl RevisionsPlan {
    /// Refuses the form without revisions, then checks the flags as [`RacePlan::from_args`] does.
    pub(crate) fn from_args(
        revisions: Option<&str>,
        run: &RunArgs,
        analysis: &AnalysisArgs,
    ) -> Result<RevisionsPlan, UsageError> {
        let revisions = revisions.ok_or(UsageError::NothingToCompare)?;
        let RacePlan { analysis, run } = RacePlan::from_args(run, analysis)?;
        Ok(RevisionsPlan {
            revisions: revisions.to_string(),
            analysis,
            run,
        })
    }
}

/// `race`, and the revision comparison: the analysis's options, and the runs racing at its confidence.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RacePlan {
    /// How the measured results are analysed and reported.
    pub analysis: AnalysisPlan,
    /// How the revisions are built and run; their looks at the analysis's confidence.
    pub run: RunOptions,
}

/// Refuses `--paired` for `command` (a race or a bisection), whose decisions are its own: the paired
/// analysis compares two sides block by block (`docs/replication.md` §7).
pub(crate) fn refuse_paired(
    analysis: &AnalysisArgs,
    command: &'static str,
) -> Result<(), UsageError> {
    if analysis.paired {
        return Err(UsageError::NotPaired { command });
    }
    Ok(())
}

impl RacePlan {
    /// Checks the analysis flags, then the running flags.
    pub(crate) fn from_args(run: &RunArgs, analysis: &AnalysisArgs) -> Result<RacePlan, PlanError> {
        let plan = AnalysisPlan::from_args(analysis)?;
        let run = run_options(run, analysis.quiet, Some(plan.options.confidence()))?;
        Ok(RacePlan {
            analysis: plan,
            run,
        })
    }
}

/// `compare BASE HEAD`: the two results to read, their unit when criterion did not record it, and the
/// analysis.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ComparePlan {
    /// BASE's results: a file, a criterion directory or a baseline name (`-` for standard input).
    pub base: String,
    /// HEAD's results, as BASE's.
    pub head: String,
    /// `--unit`: the unit of criterion samples of a custom measurement.
    pub unit: Option<Unit>,
    /// How the results are analysed and reported.
    pub analysis: AnalysisPlan,
}

impl ComparePlan {
    /// Checks `--unit`, that neither side is empty, then the analysis flags.
    pub(crate) fn from_args(args: &CompareArgs) -> Result<ComparePlan, UsageError> {
        let unit = args
            .unit
            .as_deref()
            .map(|text| {
                Unit::parse(text).ok_or_else(|| UsageError::Unit {
                    value: text.to_string(),
                })
            })
            .transpose()?;
        for (side, spec) in [(Side::Base, &args.base), (Side::Head, &args.head)] {
            if spec.trim().is_empty() {
                return Err(UsageError::EmptySide { side });
            }
        }
        Ok(ComparePlan {
            base: args.base.clone(),
            head: args.head.clone(),
            unit,
            analysis: AnalysisPlan::from_args(&args.analysis)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Command, parse_from};

    fn compare(args: &[&str]) -> Result<ComparePlan, UsageError> {
        let mut all = vec!["cargo-speedup", "compare"];
        all.extend_from_slice(args);
        match parse_from(all).command {
            Some(Command::Compare(c)) => ComparePlan::from_args(&c),
            other => panic!("expected compare, got {other:?}"),
        }
    }

    #[test]
    fn a_unit_is_parsed_and_a_bad_one_is_refused_with_the_units_known() {
        let plan = compare(&["a", "b", "--unit", "ms"]).unwrap();
        assert_eq!(plan.unit, Some(Unit::Ms));
        let error = compare(&["a", "b", "--unit", "min"]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid value \"min\" for --unit\nhint: use one of ns, us, ms, s"
        );
    }

    #[test]
    fn an_empty_side_is_refused_naming_it() {
        let error = compare(&["a", " "]).unwrap_err();
        assert_eq!(error, UsageError::EmptySide { side: Side::Head });
    }

    #[test]
    fn revisions_are_required() {
        let cli = parse_from(["cargo-speedup"]);
        let error = RevisionsPlan::from_args(None, &cli.run, &cli.analysis).unwrap_err();
        assert_eq!(error, UsageError::NothingToCompare);
        let cli = parse_from(["cargo-speedup", "main..HEAD", "--confidence", "0.99"]);
        let plan =
            RevisionsPlan::from_args(cli.revisions.as_deref(), &cli.run, &cli.analysis).unwrap();
        assert_eq!(plan.revisions, "main..HEAD");
        assert_eq!(plan.run.look_plan.looks(), [7, 14, 28]);
    }
}
