//! The Speedup-Test protocols' causes in words: this tool's, for `compare` and the revision comparison, and
//! paper 000's, verbatim, for `speeduptest`; and the one warning of too few runs for any test.

use super::{Words, more_runs};
use crate::model::Side;
use crate::protocol::speedup_test::LARGE_FROM;
use crate::protocol::{Remedy, Subject, TestCause};

/// A Speedup-Test cause for `compare` and the revision comparison.
pub(super) fn test_in_our_words(cause: &TestCause, remedy: Remedy) -> Words {
    let large_rules = || {
        format!(
            "{} for the large-sample rules",
            more_runs(remedy, LARGE_FROM)
        )
    };
    match cause {
        TestCause::TTestTooSmall(side) => Words::new(
            format!(
                "{side} has 30 runs or fewer and is not shown normal: the t-test cannot decide the mean"
            ),
            large_rules(),
        ),
        TestCause::RankSumTooSmall(side) => Words::new(
            format!(
                "{side} has 30 runs or fewer and the sides differ by more than a shift: the rank-sum test \
                 cannot decide the median"
            ),
            large_rules(),
        ),
        TestCause::NotNormal(side) => Words::new(
            format!(
                "{side} is not normally distributed: the confidence of the mean's verdict may be inaccurate"
            ),
            "rely on the median's verdict, which does not assume normality",
        ),
        TestCause::NotLocationShift => Words::new(
            "BASE and HEAD differ by more than a shift of their times: the confidence of the median's verdict \
             may be inaccurate",
            "the spread or shape changed, not only the location: look at both distributions",
        ),
        TestCause::NoLevel(of) => Words::new(
            format!(
                "no confidence level above 50% makes the speedup of the {} significant",
                of.name()
            ),
            format!(
                "either nothing changed, or the runs are too few or too noisy: {}",
                more_runs(remedy, LARGE_FROM)
            ),
        ),
        TestCause::Inapplicable {
            test,
            subject,
            reason,
        } => Words::new(
            format!(
                "{test} cannot apply to {}: {}",
                subject_words(*subject, Side::name, "runs"),
                reason.trim_end_matches('.')
            ),
            "check that the runs hold independent execution times that vary from run to run",
        ),
    }
}

/// A Speedup-Test cause in paper 000's words, with the paper's second line as the hint for W1 and W3.
pub(super) fn test_in_paper_words(cause: &TestCause) -> Words {
    const MORE_RUNS: &str = "Please do more than 30 observations of the executions times.";
    match cause {
        TestCause::TTestTooSmall(side) => Words::new(
            format!(
                "{} too small for applying the Student's t-test (speedup of the mean).",
                sample_name(*side)
            ),
            MORE_RUNS,
        ),
        TestCause::NotNormal(side) => Words::new(
            format!(
                "{} data are not normally distributed. The indicated confidence level for the speedup of the average execution time may not be accurate.",
                sample_name(*side)
            ),
            "Rely on the median protocol, which does not assume normality.",
        ),
        TestCause::RankSumTooSmall(side) => Words::new(
            format!(
                "{} too small for applying the Wilcoxon-Mann-Whitney's test (speedup of the median).",
                sample_name(*side)
            ),
            MORE_RUNS,
        ),
        TestCause::NotLocationShift => Words::new(
            "The two samples do not fit the location shift model. The indicated confidence level for the speedup of the median execution time may not be accurate.",
            "The spread or shape changed, not only the location: look at both distributions.",
        ),
        TestCause::NoLevel(of) => Words::new(
            format!(
                "Unable to find a confidence level greater than 50% to guarantee the statistical significance of {} speedup.",
                of.name()
            ),
            "Either there is no speedup, or the samples are too few or too noisy: do more than 30 observations on each side.",
        ),
        TestCause::Inapplicable {
            test,
            subject,
            reason,
        } => Words::new(
            format!(
                "{test} not applicable to {}: {reason}.",
                subject_words(*subject, sample_name, "samples")
            ),
            "Check that the samples hold independent execution times that vary from run to run.",
        ),
    }
}

/// What a test was applied to: a side by its `side_name`, else "these" or "the median-centred" `runs`
/// (what the wording calls the runs).
fn subject_words(subject: Subject, side_name: fn(Side) -> &'static str, runs: &str) -> String {
    match subject {
        Subject::Side(side) => side_name(side).to_string(),
        Subject::Both => format!("these {runs}"),
        Subject::MedianCentred => format!("the median-centred {runs}"),
    }
}

/// `Sample1` (BASE) or `Sample2` (HEAD), as the paper names them.
fn sample_name(side: Side) -> &'static str {
    match side {
        Side::Base => "Sample1",
        Side::Head => "Sample2",
    }
}

/// The one warning of a benchmark with too few runs for any test to decide.
pub(super) fn too_few_runs(base: usize, head: usize, remedy: Remedy) -> Words {
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
    Words::new(
        format!("{sizes}: no test can apply"),
        format!(
            "{} ({LARGE_FROM} for the large-sample rules)",
            more_runs(remedy, 5)
        ),
    )
}
