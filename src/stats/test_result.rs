//! What every test returns and refuses: [`TestResult`] (statistic, p-value, [`Method`]), [`StatsError`]
//! when a test cannot apply to its input, and the input checks every test runs first. Must not: decide
//! anything from a result (`protocol/` does).

/// How a p-value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// From the exact null distribution.
    Exact,
    /// From an asymptotic or approximating distribution.
    Approximate,
}

/// The common part of every test result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestResult {
    /// The test statistic, in the units of the test's own definition (see its module doc).
    pub statistic: f64,
    /// The p-value for the requested alternative, in [0, 1].
    pub p_value: f64,
    /// Whether the p-value comes from the exact null distribution or an approximation.
    pub method: Method,
}

/// Why a test cannot be applied to its input. Callers turn these into "inapplicable" plus a warning.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    /// A sample is shorter than the test needs.
    #[error("needs at least {needed} values, got {got}")]
    TooFew {
        /// The smallest sample size the test accepts.
        needed: usize,
        /// The size of the sample given.
        got: usize,
    },
    /// A sample is longer than the test is defined for (e.g. Shapiro–Wilk above 5000).
    #[error("defined for at most {max} values, got {got}")]
    TooMany {
        /// The largest sample size the test accepts.
        max: usize,
        /// The size of the sample given.
        got: usize,
    },
    /// A value is NaN or infinite.
    #[error("a value is NaN or infinite")]
    NonFinite,
    /// Every value is the same, so the statistic is undefined (zero variance).
    #[error("all values are identical (zero variance)")]
    Constant,
    /// An argument such as a confidence or a tolerance is outside its domain; the text names it.
    #[error("invalid argument: {0}")]
    InvalidArgument(&'static str),
}

/// The result of a statistics function: the value, or why the test cannot apply to the input.
pub type StatsResult<T> = Result<T, StatsError>;

/// Rejects NaN and infinite values; every test calls it first.
pub(crate) fn check_finite(x: &[f64]) -> StatsResult<()> {
    if x.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(StatsError::NonFinite)
    }
}

/// Rejects a pair of samples unless both are finite and each has at least `needed` values, in that order
/// (a non-finite value is named before a size).
pub(crate) fn check_pair(x: &[f64], y: &[f64], needed: usize) -> StatsResult<()> {
    check_finite(x)?;
    check_finite(y)?;
    check_len(x, needed)?;
    check_len(y, needed)
}

/// Rejects samples smaller than `needed`.
pub(crate) fn check_len(x: &[f64], needed: usize) -> StatsResult<()> {
    if x.len() < needed {
        Err(StatsError::TooFew {
            needed,
            got: x.len(),
        })
    } else {
        Ok(())
    }
}
