//! The protocols' warnings in this tool's words. Paper 000's warnings are kept verbatim by the protocols
//! (`Sample1`, `Sample2`, "Please do more than 30 observations of the executions times."), because
//! `speeduptest` must write them as SpeedUpTest.sh does; `compare` and the revision comparison say the same
//! in their own words: BASE and HEAD, runs, and a remedy that fits the command (a flag of the revision form
//! only where the runs are measured here). Must not: change what a warning is about (its kind), only how it
//! reads.

use super::speedup_test::LARGE_FROM;
use super::speedup_test::warnings::{Cause, Subject};
use super::{Remedy, Warning, WarningKind};

impl Remedy {
    /// "measure N or more process runs per side", with the flag that does it when the runs are measured here.
    pub fn more_runs(self, runs: usize) -> String {
        match self {
            // `--runs N` alone moves every look (N, 2N, 4N): `--fixed` runs N once, and the hint says it costs.
            Remedy::RunHere => format!(
                "measure {runs} or more process runs per side: `--fixed --runs {runs}` (every benchmark \
                 then takes {runs} runs per side: a longer comparison)"
            ),
            Remedy::MeasureAgain => format!("measure {runs} or more process runs per side"),
        }
    }
}

/// `warning` of a Speedup-Test protocol, worded for `compare` and the revision comparison from its cause
/// ([`Cause`]); any other warning is returned as it is.
pub fn in_our_words(warning: &Warning, remedy: Remedy) -> Warning {
    let Some(cause) = &warning.cause else {
        return warning.clone();
    };
    let large_rules = || {
        format!(
            "{} for the large-sample rules",
            remedy.more_runs(LARGE_FROM)
        )
    };
    let (message, hint) = match cause {
        Cause::TTestTooSmall(side) => (
            format!("{side} has 30 runs or fewer and is not shown normal: the t-test cannot decide the mean"),
            large_rules(),
        ),
        Cause::RankSumTooSmall(side) => (
            format!(
                "{side} has 30 runs or fewer and the sides differ by more than a shift: the rank-sum test \
                 cannot decide the median"
            ),
            large_rules(),
        ),
        Cause::NotNormal(side) => (
            format!("{side} is not normally distributed: the confidence of the mean's verdict may be inaccurate"),
            "rely on the median's verdict, which does not assume normality".to_string(),
        ),
        Cause::NotLocationShift => (
            "BASE and HEAD differ by more than a shift of their times: the confidence of the median's verdict \
             may be inaccurate"
                .to_string(),
            "the spread or shape changed, not only the location: look at both distributions".to_string(),
        ),
        Cause::NoLevel(of) => (
            format!(
                "no confidence level above 50% makes the speedup of the {} significant",
                of.name()
            ),
            format!(
                "either nothing changed, or the runs are too few or too noisy: {}",
                remedy.more_runs(LARGE_FROM)
            ),
        ),
        Cause::Inapplicable {
            test,
            subject,
            reason,
        } => (
            format!(
                "{test} cannot apply to {}: {}",
                match subject {
                    Subject::Side(side) => side.name(),
                    Subject::Both => "these runs",
                    Subject::MedianCentred => "the median-centred runs",
                },
                reason.trim_end_matches('.')
            ),
            "check that the runs hold independent execution times that vary from run to run".to_string(),
        ),
    };
    Warning::caused(cause.clone(), message).with_hint(hint)
}

/// The one warning of a benchmark with too few runs for any test to decide (fewer than 3 on a side, and
/// too few for the rank-sum test), in place of one per test and side.
pub fn too_few_runs(base: usize, head: usize, remedy: Remedy) -> Warning {
    let runs = |n: usize| {
        if n == 1 {
            "1 run".to_string()
        } else {
            format!("{n} runs")
        }
    };
    let sizes = if base == head {
        format!("{} per side", runs(base))
    } else {
        format!("{} on BASE and {} on HEAD", runs(base), runs(head))
    };
    Warning::new(
        WarningKind::TooFewSamples,
        format!("{sizes}: no test can apply"),
    )
    .with_hint(format!(
        "{} ({LARGE_FROM} for the large-sample rules)",
        remedy.more_runs(5)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Side;
    use crate::protocol::speedup_test::warnings::SpeedupOf;

    /// Every warning the protocols word as the paper does.
    fn paper_warnings() -> Vec<Warning> {
        let error = crate::stats::StatsError::TooFew { needed: 3, got: 1 };
        [
            Cause::TTestTooSmall(Side::Base),
            Cause::TTestTooSmall(Side::Head),
            Cause::NotNormal(Side::Base),
            Cause::RankSumTooSmall(Side::Head),
            Cause::NotLocationShift,
            Cause::NoLevel(SpeedupOf::Mean),
            Cause::NoLevel(SpeedupOf::Median),
            Cause::inapplicable("Shapiro-Wilk's test", Subject::Side(Side::Base), &error),
            Cause::inapplicable("Welch's t-test", Subject::Both, &error),
            Cause::inapplicable("Kolmogorov-Smirnov's test", Subject::MedianCentred, &error),
        ]
        .iter()
        .map(Cause::in_paper_words)
        .collect()
    }

    #[test]
    fn no_paper_wording_is_left_and_compare_names_no_running_flag() {
        for warning in paper_warnings() {
            for remedy in [Remedy::RunHere, Remedy::MeasureAgain] {
                let ours = in_our_words(&warning, remedy);
                let text = format!("{} {}", ours.message, ours.hint.clone().unwrap_or_default());
                assert_eq!(ours.kind, warning.kind);
                for paper_word in ["Sample1", "Sample2", "Please", "executions times", "Unable"] {
                    assert!(!text.contains(paper_word), "{text}");
                }
                assert!(!ours.message.ends_with('.'), "{text}");
                if remedy == Remedy::MeasureAgain {
                    assert!(!text.contains("--"), "{text}");
                }
            }
        }
    }

    #[test]
    fn each_wording_names_the_side_and_the_test_of_the_cause() {
        let ours = |cause: Cause| in_our_words(&cause.in_paper_words(), Remedy::MeasureAgain);
        let head_small = ours(Cause::TTestTooSmall(Side::Head));
        assert!(
            head_small.message.starts_with("HEAD has 30 runs"),
            "{}",
            head_small.message
        );
        assert!(head_small.message.contains("t-test"));
        let base_small = ours(Cause::RankSumTooSmall(Side::Base));
        assert!(base_small.message.starts_with("BASE has 30 runs"));
        assert!(base_small.message.contains("rank-sum test"));
        assert!(
            ours(Cause::NoLevel(SpeedupOf::Median))
                .message
                .contains("of the median")
        );
        let error = crate::stats::StatsError::Constant;
        let shapiro = ours(Cause::inapplicable(
            "Shapiro-Wilk's test",
            Subject::Side(Side::Head),
            &error,
        ));
        assert!(
            shapiro
                .message
                .starts_with("Shapiro-Wilk's test cannot apply to HEAD: ")
        );
        // The paper's words name the sides Sample1 and Sample2, and the cause stays with both wordings.
        let paper = Cause::NotNormal(Side::Head).in_paper_words();
        assert!(
            paper
                .message
                .starts_with("Sample2 data are not normally distributed.")
        );
        assert_eq!(in_our_words(&paper, Remedy::RunHere).cause, paper.cause);
    }

    #[test]
    fn one_run_per_side_is_one_warning_with_a_remedy_for_the_command() {
        let compare = too_few_runs(1, 1, Remedy::MeasureAgain);
        assert_eq!(compare.message, "1 run per side: no test can apply");
        assert_eq!(
            compare.hint.as_deref(),
            Some("measure 5 or more process runs per side (31 for the large-sample rules)")
        );
        let here = too_few_runs(1, 2, Remedy::RunHere);
        assert_eq!(
            here.message,
            "1 run on BASE and 2 runs on HEAD: no test can apply"
        );
        // The flag that measures more, and that it costs: `--runs` alone would move every look.
        let hint = here.hint.unwrap();
        assert!(hint.contains("`--fixed --runs 5`"), "{hint}");
        assert!(hint.contains("a longer comparison"), "{hint}");
    }
}
