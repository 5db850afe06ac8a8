//! Pure statistics: one test per file, each implemented from its published algorithm.
//!
//! Every test returns a result (statistic, p-value, method), never a decision: only `protocol/` decides.
//! Nothing here does I/O, reads a clock or prints. Notation inside this module follows the papers and
//! `docs/statistics.md`: `x` (size n) is BASE, `y` (size m) is HEAD, and [`Alternative::Greater`] means `x` is
//! shifted to the right of `y`, i.e. HEAD is faster.
//!
//! R is the oracle (`fixtures/r/*.R` writes `fixtures/oracle/*.json`, which the tests read); R's sources
//! are never ported.

pub mod comparison;
pub mod describe;
pub mod f_test;
pub mod hodges_lehmann;
pub mod ks;
pub mod ks_fit;
pub mod mixture;
pub mod mixture_density;
mod mixture_em;
pub mod modes;
pub mod normal;
pub mod proportion;
pub mod random;
pub mod rank;
pub mod rank_sum;
pub mod rank_sum_ties;
pub mod shapiro_wilk;
pub mod sign_flip;
pub mod signed_rank;
pub(crate) mod sorted;
pub mod t_test;
pub mod variance_components;

/// The R oracle fixtures, shared by the tests of several modules (in `testutil`), under the path the tests
/// of `stats` and `protocol` name.
#[cfg(test)]
pub(crate) use crate::testutil::oracle;

/// The alternative hypothesis of a test, as R's `alternative =` argument.
///
/// For two-sample tests, `Greater` means "x (BASE) is larger than y (HEAD)": HEAD is faster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Alternative {
    /// H1: the two sides differ, in either direction.
    TwoSided,
    /// H1: x (BASE) is larger than y (HEAD), i.e. HEAD is faster.
    Greater,
    /// H1: x (BASE) is smaller than y (HEAD), i.e. HEAD is slower.
    Less,
}

impl Alternative {
    /// The alternative seen from the other side: swapping the samples swaps `Greater` and `Less`.
    pub fn swapped(self) -> Self {
        match self {
            Alternative::TwoSided => Alternative::TwoSided,
            Alternative::Greater => Alternative::Less,
            Alternative::Less => Alternative::Greater,
        }
    }

    /// The p-value under this alternative from the statistic's two one-sided tails, `upper` (P of a value
    /// at least as large, for `Greater`) and `lower` (at most as small, for `Less`). The two-sided p-value
    /// doubles the tail the statistic lies in, which is the smaller one, and is capped at 1, as R's tests
    /// do. `in_upper` says the statistic lies above its null centre. The one rule every test here uses.
    pub(crate) fn p_from_tails(
        self,
        in_upper: bool,
        upper: impl FnOnce() -> f64,
        lower: impl FnOnce() -> f64,
    ) -> f64 {
        match self {
            Alternative::Greater => upper(),
            Alternative::Less => lower(),
            Alternative::TwoSided => {
                let tail = if in_upper { upper() } else { lower() };
                (2.0 * tail).min(1.0)
            }
        }
    }
}

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
