//! The warnings of paper 000 §6.2.5 (`docs/speedup-test.md` §4), as data. A protocol records what happened
//! as a [`Cause`] (which side, which test, which speedup), and each command words it from that:
//! [`Cause::in_paper_words`] gives the paper's text verbatim, `Sample1` being BASE and `Sample2` HEAD, with
//! the paper's second line as the hint for W1 and W3, so that the `.warning` file of `speeduptest` reads as
//! SpeedUpTest.sh writes it; `protocol::wording` words the same cause with BASE, HEAD and runs for `compare`
//! and the revision comparison. No wording is ever read back from another's text.

use crate::model::Side;
use crate::protocol::{Warning, WarningKind};
use crate::stats::StatsError;

/// Which speedup a protocol tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedupOf {
    /// The mean protocol's.
    Mean,
    /// The median protocol's.
    Median,
}

impl SpeedupOf {
    /// "mean" or "median".
    pub fn name(self) -> &'static str {
        match self {
            SpeedupOf::Mean => "mean",
            SpeedupOf::Median => "median",
        }
    }
}

/// What a statistic that could not be computed was applied to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// One side's sample.
    Side(Side),
    /// BASE and HEAD together (a two-sample test).
    Both,
    /// BASE and HEAD, each minus its median (the location-shift check).
    MedianCentred,
}

/// What a warning of the Speedup-Test protocols is about: the facts each command words in its own terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// W1: this side has 30 values or fewer and is not shown normal, so the t-test cannot decide the mean.
    TTestTooSmall(Side),
    /// W2: this side is large and not normal; the t-test runs anyway.
    NotNormal(Side),
    /// W3: the sides differ by more than a shift and this side has 30 values or fewer, so the rank-sum
    /// test cannot decide the median.
    RankSumTooSmall(Side),
    /// W4: the sides differ by more than a shift on large samples; the rank-sum test runs anyway.
    NotLocationShift,
    /// W5 (mean) and W6 (median): no confidence level above 50 % makes this speedup significant.
    NoLevel(SpeedupOf),
    /// A statistic that could not be computed (constant data, too few values, ...): the test, what it
    /// was applied to, and the reason.
    Inapplicable {
        /// The test, as the paper names it ("Shapiro-Wilk's test").
        test: &'static str,
        /// What it was applied to.
        subject: Subject,
        /// Why it could not be computed (the statistics' error, in words).
        reason: String,
    },
}

impl Cause {
    /// A test that could not be computed on `subject`, for `error`.
    pub(crate) fn inapplicable(test: &'static str, subject: Subject, error: &StatsError) -> Cause {
        Cause::Inapplicable {
            test,
            subject,
            reason: error.to_string(),
        }
    }

    /// The kind of warning this cause gives.
    pub fn kind(&self) -> WarningKind {
        match self {
            Cause::TTestTooSmall(_) | Cause::RankSumTooSmall(_) => WarningKind::TooFewSamples,
            Cause::NotNormal(_) => WarningKind::NotNormal,
            Cause::NotLocationShift => WarningKind::NotLocationShift,
            Cause::NoLevel(_) => WarningKind::NoConfidenceLevel,
            Cause::Inapplicable { .. } => WarningKind::Inapplicable,
        }
    }

    /// Whether this cause leaves the benchmark's verdict (the median protocol's) as it reads: the mean
    /// protocol's own conditions (W1, W2, W5, a test of the mean that could not be computed) and W6 (no
    /// level makes the median significant: the verdict already says it is not). The verdict is at risk under
    /// W3 and W4, and when a test of the median could not be computed.
    pub fn is_detail(&self) -> bool {
        match self {
            Cause::TTestTooSmall(_) | Cause::NotNormal(_) | Cause::NoLevel(_) => true,
            Cause::RankSumTooSmall(_) | Cause::NotLocationShift => false,
            Cause::Inapplicable { test, .. } => !MEDIAN_TESTS.contains(test),
        }
    }

    /// The warning in paper 000's words, carrying this cause.
    pub fn in_paper_words(&self) -> Warning {
        const MORE_RUNS: &str = "Please do more than 30 observations of the executions times.";
        let (message, hint) = match self {
            Cause::TTestTooSmall(side) => (
                format!(
                    "{} too small for applying the Student's t-test (speedup of the mean).",
                    sample_name(*side)
                ),
                MORE_RUNS.to_string(),
            ),
            Cause::NotNormal(side) => (
                format!(
                    "{} data are not normally distributed. The indicated confidence level for the speedup of the average execution time may not be accurate.",
                    sample_name(*side)
                ),
                "Rely on the median protocol, which does not assume normality.".to_string(),
            ),
            Cause::RankSumTooSmall(side) => (
                format!(
                    "{} too small for applying the Wilcoxon-Mann-Whitney's test (speedup of the median).",
                    sample_name(*side)
                ),
                MORE_RUNS.to_string(),
            ),
            Cause::NotLocationShift => (
                "The two samples do not fit the location shift model. The indicated confidence level for the speedup of the median execution time may not be accurate.".to_string(),
                "The spread or shape changed, not only the location: look at both distributions."
                    .to_string(),
            ),
            Cause::NoLevel(of) => (
                format!(
                    "Unable to find a confidence level greater than 50% to guarantee the statistical significance of {} speedup.",
                    of.name()
                ),
                "Either there is no speedup, or the samples are too few or too noisy: do more than 30 observations on each side.".to_string(),
            ),
            Cause::Inapplicable {
                test,
                subject,
                reason,
            } => (
                format!(
                    "{test} not applicable to {}: {reason}.",
                    match subject {
                        Subject::Side(side) => sample_name(*side),
                        Subject::Both => "these samples",
                        Subject::MedianCentred => "the median-centred samples",
                    }
                ),
                "Check that the samples hold independent execution times that vary from run to run."
                    .to_string(),
            ),
        };
        Warning::caused(self.clone(), message).with_hint(hint)
    }
}

/// The tests of the median protocol, as [`Cause::Inapplicable`] names them: every other test that could not
/// be computed is the mean protocol's.
const MEDIAN_TESTS: [&str; 2] = ["Kolmogorov-Smirnov's test", "Wilcoxon-Mann-Whitney's test"];

/// `Sample1` (BASE) or `Sample2` (HEAD), as the paper names them.
fn sample_name(side: Side) -> &'static str {
    match side {
        Side::Base => "Sample1",
        Side::Head => "Sample2",
    }
}
