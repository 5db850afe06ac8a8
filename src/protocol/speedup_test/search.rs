//! The confidence-level search of paper 000 §6.2.2: "the highest confidence level > 50 %" at which the test
//! declares a significant speedup.
//!
//! The grid 0.99, 0.98, …, 0.51 (integer percents) is inferred from the §6.3 example (every printed level has
//! two decimals; `docs/speedup-test.md` §5). Levels are iterated as integers so that α = (100 − k)/100 is exact to
//! the double nearest, never the drifting 1 − 0.84 = 0.16000000000000003. This module only walks the grid, and
//! adds W5/W6 (no level found) to the decision taken when it finds none; the decisions' shared parts are here
//! ([`Decided`], [`computed`]).

use super::Level;
use crate::protocol::{Direction, SpeedupOf, Subject, TestCause, Warning};
use crate::stats::StatsError;

/// Integer percents of the grid, lowest first (walked from the top).
pub(crate) const GRID: std::ops::RangeInclusive<u32> = 51..=99;

/// The risk α of a grid level given in percent.
pub(crate) fn alpha_of(percent: u32) -> f64 {
    f64::from(100 - percent) / 100.0
}

/// The level in (0, 1) of a grid percent.
pub(crate) fn level_of(percent: u32) -> f64 {
    f64::from(percent) / 100.0
}

/// The highest grid percent at which `passes(α)` holds, or `None`.
pub(crate) fn highest(mut passes: impl FnMut(f64) -> bool) -> Option<u32> {
    GRID.rev().find(|&k| passes(alpha_of(k)))
}

/// A protocol's outcome under a [`Level`].
pub(crate) struct Applied<S> {
    /// The decision taken: at the fixed level, at the searched level, or at 0.51 when none passes.
    pub step: S,
    /// The significant direction, if any.
    pub direction: Option<Direction>,
    /// The searched level of `direction` (of "faster" when none): the paper's ConfLevel.
    pub level: Option<f64>,
}

/// A protocol's decision at one risk α in one direction.
pub(crate) struct Decided<T> {
    /// Whether it declares the change significant.
    pub significant: bool,
    /// The p-value of the test that decides, when it could be computed.
    pub p_value: Option<f64>,
    /// What it warns of at this α (the search adds W5/W6).
    pub warnings: Vec<Warning>,
    /// What else the protocol keeps of its decision (the mean's t-test, whether the median's concluded).
    pub detail: T,
}

/// The p-value of `test` on `subject` when it could be computed; else `None`, and the warning that the test
/// is not applicable added to `warnings`.
pub(crate) fn computed(
    p: &Result<f64, StatsError>,
    test: &'static str,
    subject: Subject,
    warnings: &mut Vec<Warning>,
) -> Option<f64> {
    match p {
        Ok(p) => Some(*p),
        Err(e) => {
            let cause = TestCause::inapplicable(test, subject, e);
            warnings.push(Warning::test(cause));
            None
        }
    }
}

/// Applies `level` to a protocol of the speedup `of` whose decision at risk α in a direction is `decide`.
///
/// Fixed c: both directions at α = 1 − c (never both significant: one-sided tests of opposite tails at
/// α < 0.5); the level is searched in the significant direction for information. Search: "faster" only,
/// decided at the highest passing grid level, or at 0.51 when none passes, with W5/W6 (no level for `of`)
/// added to its warnings.
pub(crate) fn apply<T>(
    level: Level,
    of: SpeedupOf,
    decide: impl Fn(f64, Direction) -> Decided<T>,
) -> Applied<Decided<T>> {
    let searched = |d: Direction| highest(|alpha| decide(alpha, d).significant);
    match level {
        Level::Fixed(confidence) => {
            let alpha = 1.0 - confidence;
            let faster = decide(alpha, Direction::Faster);
            let slower = decide(alpha, Direction::Slower);
            let (step, direction) = if faster.significant {
                (faster, Some(Direction::Faster))
            } else if slower.significant {
                (slower, Some(Direction::Slower))
            } else {
                (faster, None)
            };
            let level = searched(direction.unwrap_or(Direction::Faster)).map(level_of);
            Applied {
                step,
                direction,
                level,
            }
        }
        Level::Search => {
            let found = searched(Direction::Faster);
            let percent = found.unwrap_or(*GRID.start());
            let mut step = decide(alpha_of(percent), Direction::Faster);
            if found.is_none() {
                step.warnings.push(Warning::test(TestCause::NoLevel(of)));
            }
            Applied {
                step,
                direction: found.map(|_| Direction::Faster),
                level: found.map(level_of),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphas_are_exact_percents() {
        assert_eq!(alpha_of(84), 0.16);
        assert_ne!(1.0 - 0.84, 0.16);
        assert_eq!(alpha_of(99), 0.01);
        assert_eq!(level_of(76), 0.76);
    }

    #[test]
    fn search_returns_the_highest_passing_level() {
        // A p-value of 0.2316719 (bench 1's WMW p) passes first at alpha 0.24, i.e. level 0.76.
        assert_eq!(highest(|a| 0.2316719 <= a), Some(76));
        assert_eq!(highest(|a| 0.01 <= a), Some(99));
        assert_eq!(highest(|a| 0.5 <= a), None);
        assert_eq!(highest(|a| 0.49 <= a), Some(51));
    }

    #[test]
    fn search_walks_down_from_99() {
        let mut seen = Vec::new();
        assert_eq!(
            highest(|a| {
                seen.push(a);
                false
            }),
            None
        );
        assert_eq!(seen.len(), 49);
        assert_eq!((seen[0], seen[48]), (0.01, 0.49));
    }
}
