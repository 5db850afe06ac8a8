//! Pure statistics: one test per file, each implemented from its published algorithm.
//!
//! Every test returns a result (statistic, p-value, method), never a decision: only `protocol/` decides.
//! Nothing here does I/O, reads a clock or prints. Notation inside this module follows the papers and
//! `docs/statistics.md`: `x` (size n) is BASE, `y` (size m) is HEAD, and [`Alternative::Greater`] means `x`
//! is shifted to the right of `y`, i.e. HEAD is faster.
//!
//! R is the oracle (`fixtures/r/*.R` writes `fixtures/oracle/*.json`, which the tests read); R's sources
//! are never ported.
//!
//! Besides one file per test, `alternative.rs` holds the alternative hypothesis and `test_result.rs` what
//! every test returns and refuses. This file is their index and holds no code.

mod alternative;
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
mod test_result;
pub mod variance_components;
pub mod walsh;

pub use alternative::Alternative;
pub use test_result::{Method, StatsError, StatsResult, TestResult};
pub(crate) use test_result::{check_finite, check_len, check_pair};
