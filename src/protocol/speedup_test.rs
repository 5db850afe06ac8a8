//! The Speedup-Test of paper 000 (Touati, Worms, Briais, *The Speedup Test*, inria-00443839v2, 2010) as pure
//! decisions: the mean protocol (§4.1), the median protocol (§4.2), the confidence-level search (§6.2.2), the
//! overall gain and speedup (§3.2, §6), and the proportion of accelerated benchmarks (§5). The pseudo-code,
//! warning texts and errata followed are those of `docs/speedup-test.md`.
//!
//! - [`mean_test`]: H0 μ_base ≤ μ_head against H1 μ_base > μ_head (HEAD faster), and the mirror test for
//!   HEAD slower. Shapiro-Wilk per sample, two-sided F-test, then Student's or Welch's one-sided t-test, all at
//!   the same α. Assumes independent runs; small (≤ 30) non-normal samples make it inapplicable (W1).
//! - [`median_test`]: KS on the median-centred samples checks the location-shift model, then the one-sided
//!   Wilcoxon-Mann-Whitney test (R `wilcox.test` defaults for exact vs. approximate); a rejected model on a
//!   small sample makes it inconclusive (W3).
//! - [`Level::Fixed`] decides at a given confidence in both directions (`compare`); [`Level::Search`] applies
//!   the paper's rule (direction "faster" only, decision at the highest level 0.99..0.51 that passes).
//!
//! Every statistic is computed once per benchmark; the decisions at each level of the search only compare
//! those p-values with α. Statistics that cannot be computed (constant data, too few values) make the test
//! not applicable with a warning; nothing here panics, does I/O or prints.

mod aggregate;
mod mean;
mod median;
#[cfg(test)]
mod oracle_tests;
mod search;
mod suite;

pub use aggregate::{
    Coefficients, OverallError, Weights, coefficients, overall, proportion, speedups,
};
pub use mean::mean_test;
pub(crate) use mean::mean_test_sorted;
pub(crate) use median::median_test_sorted;
pub use median::{Ties, median_test, median_test_with};
pub use suite::{
    AnalysedRow, ConfigAnalysis, ConfigOptions, ConfigRow, RowResult, WeightChoice, analyse_config,
};

/// The confidence level a protocol decides at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Level {
    /// Decide at this confidence (1 − α), in both directions; the searched level is reported as information.
    Fixed(f64),
    /// The paper's rule: the highest level on the grid 0.99, 0.98, …, 0.51 at which HEAD is significantly
    /// faster; not significant (W5/W6) when there is none.
    Search,
}

/// The fewest values per side of a "large" pair: more than 30 (§4.1 and App. C). The hints that ask for
/// more runs say this number.
pub(crate) const LARGE_FROM: usize = 31;

/// Pairs with more than 30 values on both sides are "large" (§4.1 and App. C; erratum 1 of
/// `docs/speedup-test.md` §11: the pair is small unless *both* samples have more than 30 values).
pub(crate) fn is_large(n: usize, m: usize) -> bool {
    !is_small(n) && !is_small(m)
}

/// A sample of 30 values or fewer is "small" (§4.1): the t-test then needs normality, and the rank-sum test
/// the location-shift model.
pub(crate) fn is_small(n: usize) -> bool {
    n < LARGE_FROM
}

#[cfg(test)]
mod property_tests {
    use super::{Level, mean_test, median_test};
    use crate::protocol::Direction;
    use proptest::prelude::*;

    fn sample() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(1.0f64..10.0, 3..40)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn swapping_sides_swaps_directions(x in sample(), y in sample()) {
            let flip = |d: Option<Direction>| d.map(Direction::opposite);
            let level = Level::Fixed(0.95);
            prop_assert_eq!(flip(mean_test(&x, &y, level).direction), mean_test(&y, &x, level).direction);
            prop_assert_eq!(flip(median_test(&x, &y, level).direction), median_test(&y, &x, level).direction);
        }

        #[test]
        fn p_values_are_probabilities_and_levels_on_the_grid(x in sample(), y in sample()) {
            let mean = mean_test(&x, &y, Level::Search);
            let median = median_test(&x, &y, Level::Search);
            for p in [mean.p_value, median.p_value, median.ks_p_value, median.p_head_faster].into_iter().flatten() {
                prop_assert!((0.0..=1.0).contains(&p));
            }
            for level in [mean.confidence_level, median.confidence_level].into_iter().flatten() {
                prop_assert!((0.51..=0.99).contains(&level));
                prop_assert_eq!((level * 100.0).round() / 100.0, level);
            }
            prop_assert_eq!(mean.significant, mean.confidence_level.is_some());
            prop_assert!(!(median.significant && median.inconclusive));
        }

        #[test]
        fn decisions_do_not_depend_on_the_time_unit(x in sample(), y in sample()) {
            // Scaling by a power of two is exact, so every statistic is unchanged.
            let scale = |v: &[f64]| v.iter().map(|t| t * 1024.0).collect::<Vec<f64>>();
            let (sx, sy) = (scale(&x), scale(&y));
            let (a, b) = (mean_test(&x, &y, Level::Search), mean_test(&sx, &sy, Level::Search));
            prop_assert_eq!(a.confidence_level, b.confidence_level);
            let (a, b) = (median_test(&x, &y, Level::Search), median_test(&sx, &sy, Level::Search));
            prop_assert_eq!(a.confidence_level, b.confidence_level);
        }
    }
}
