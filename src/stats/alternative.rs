//! The alternative hypothesis of a test ([`Alternative`], as R's `alternative =`) and the one rule that turns
//! a statistic's two tails into the p-value under it. Must not: compute a statistic or a tail.

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
