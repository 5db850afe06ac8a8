//! The warnings of paper 000 §6.2.5 (`docs/speedup-test.md` §4), as data. The message is the paper's text
//! verbatim, `Sample1` being BASE and `Sample2` HEAD; the hint says what to do. For W1 and W3 the hint is the
//! paper's second line, so the `.warning` file of `speeduptest` prints message and hint as the paper does.

use crate::protocol::{Warning, WarningKind};

/// `Sample1` (BASE) or `Sample2` (HEAD), as the paper names them.
pub(crate) fn sample_name(index: usize) -> &'static str {
    if index == 0 { "Sample1" } else { "Sample2" }
}

const MORE_RUNS: &str = "Please do more than 30 observations of the executions times.";

/// W1: a small sample is not normal, so the t-test cannot conclude.
pub(crate) fn t_test_too_small(index: usize) -> Warning {
    Warning::new(
        WarningKind::TooFewSamples,
        format!(
            "{} too small for applying the Student's t-test (speedup of the mean).",
            sample_name(index)
        ),
    )
    .with_hint(MORE_RUNS)
}

/// W2: a large sample is not normal; the t-test runs anyway.
pub(crate) fn not_normal(index: usize) -> Warning {
    Warning::new(
        WarningKind::NotNormal,
        format!(
            "{} data are not normally distributed. The indicated confidence level for the speedup of the average execution time may not be accurate.",
            sample_name(index)
        ),
    )
    .with_hint("Rely on the median protocol, which does not assume normality.")
}

/// W3: the location-shift model is rejected and this sample has 30 values or fewer.
pub(crate) fn rank_sum_too_small(index: usize) -> Warning {
    Warning::new(
        WarningKind::TooFewSamples,
        format!(
            "{} too small for applying the Wilcoxon-Mann-Whitney's test (speedup of the median).",
            sample_name(index)
        ),
    )
    .with_hint(MORE_RUNS)
}

/// W4: the location-shift model is rejected on large samples; the rank-sum test runs anyway.
pub(crate) fn not_location_shift() -> Warning {
    Warning::new(
        WarningKind::NotLocationShift,
        "The two samples do not fit the location shift model. The indicated confidence level for the speedup of the median execution time may not be accurate.",
    )
    .with_hint("The spread or shape changed, not only the location: look at both distributions.")
}

/// W5 (`of mean speedup`) and W6 (`of median speedup`): no level above 50 % is significant.
pub(crate) fn no_level(what: &str) -> Warning {
    Warning::new(
        WarningKind::NoConfidenceLevel,
        format!(
            "Unable to find a confidence level greater than 50% to guarantee the statistical significance of {what} speedup."
        ),
    )
    .with_hint(
        "Either there is no speedup, or the samples are too few or too noisy: do more than 30 observations on each side.",
    )
}

/// A statistic that could not be computed (constant data, too few values, ...).
pub(crate) fn inapplicable(test: &str, subject: &str, error: &crate::stats::StatsError) -> Warning {
    Warning::new(
        WarningKind::Inapplicable,
        format!("{test} not applicable to {subject}: {error}."),
    )
    .with_hint("Check that the samples hold independent execution times that vary from run to run.")
}
