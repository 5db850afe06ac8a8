//! The step rule (`docs/bisect.md` §3): what one step's comparisons say about its midpoint, like GOOD,
//! like BAD, or undecided ([`classify`]).
//!
//! Must not: guess. A step whose readings do not decide, or contradict each other, is undecided, and the
//! search stops there.

use super::reading::Reading;
use crate::protocol::Direction;

/// What a step concluded about its midpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The midpoint is like GOOD: the change came after it.
    LikeGood,
    /// The midpoint is like BAD: the change came at it or before it.
    LikeBad,
    /// The comparisons did not decide, or contradicted each other: the search stops here.
    Undecided,
    /// The midpoint did not build or its benchmarks failed: left out, as `git bisect skip` does.
    Skipped,
}

impl Step {
    /// The word reports and the JSON print.
    pub fn as_str(self) -> &'static str {
        match self {
            Step::LikeGood => "like-good",
            Step::LikeBad => "like-bad",
            Step::Undecided => "undecided",
            Step::Skipped => "skipped",
        }
    }
}

/// The step rule. A midpoint M is compared with GOOD first (M as the later side); `against_bad` is the
/// comparison of BAD against M, made only when the first did not decide (`None` when not made).
///
/// - **like BAD** when GOOD → M shows the change sought (slower, or faster under `--faster`, beyond the
///   threshold), or when M → BAD is shown unchanged (BAD is equivalent to M within the margin, or built
///   identical executables);
/// - **like GOOD** when GOOD → M is shown unchanged (or identical executables), or when M → BAD shows the
///   change sought;
/// - **undecided** otherwise, and also when the two comparisons contradict each other (M shown like GOOD
///   by one and like BAD by the other): a partial change, or two changes, which one commit cannot name.
pub fn classify(
    against_good: &Reading,
    against_bad: Option<&Reading>,
    direction: Direction,
    threshold_pct: f64,
) -> Step {
    let mut like_bad = against_good.shows(direction, threshold_pct);
    let mut like_good = against_good.unchanged();
    if let Some(bad) = against_bad {
        like_bad |= bad.unchanged();
        like_good |= bad.shows(direction, threshold_pct);
    }
    match (like_good, like_bad) {
        (true, false) => Step::LikeGood,
        (false, true) => Step::LikeBad,
        _ => Step::Undecided,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Verdict;

    fn reading(verdict: Verdict) -> Reading {
        Reading {
            verdict,
            speedup: Some(match verdict {
                Verdict::Slower => 0.5,
                Verdict::Faster => 2.0,
                _ => 1.0,
            }),
            interval: None,
            identical: false,
        }
    }

    #[test]
    fn the_step_rule_reads_both_ends() {
        let slower = reading(Verdict::Slower);
        let unchanged = reading(Verdict::Unchanged);
        let unsure = reading(Verdict::Inconclusive);
        let faster = reading(Verdict::Faster);
        let d = Direction::Slower;
        assert_eq!(classify(&slower, None, d, 0.0), Step::LikeBad);
        assert_eq!(classify(&unchanged, None, d, 0.0), Step::LikeGood);
        assert_eq!(classify(&unsure, None, d, 0.0), Step::Undecided);
        assert_eq!(classify(&unsure, Some(&slower), d, 0.0), Step::LikeGood);
        assert_eq!(classify(&unsure, Some(&unchanged), d, 0.0), Step::LikeBad);
        assert_eq!(classify(&unsure, Some(&unsure), d, 0.0), Step::Undecided);
        // Contradiction: like GOOD against GOOD, like GOOD's opposite against BAD.
        assert_eq!(
            classify(&unchanged, Some(&unchanged), d, 0.0),
            Step::Undecided
        );
        // Faster is not the change sought by default; it is under --faster.
        assert_eq!(classify(&faster, None, d, 0.0), Step::Undecided);
        assert_eq!(
            classify(&faster, None, Direction::Faster, 0.0),
            Step::LikeBad
        );
        let identical = Reading {
            verdict: Verdict::Inconclusive,
            speedup: None,
            interval: None,
            identical: true,
        };
        assert_eq!(classify(&identical, None, d, 0.0), Step::LikeGood);
    }

    #[test]
    fn a_slowdown_below_the_threshold_decides_nothing_by_itself() {
        // 1 / 0.99 − 1 ≈ 1 %: slower, but not beyond 2 %.
        let slightly = Reading {
            speedup: Some(0.99),
            ..reading(Verdict::Slower)
        };
        let d = Direction::Slower;
        assert_eq!(classify(&slightly, None, d, 0.0), Step::LikeBad);
        assert_eq!(classify(&slightly, None, d, 2.0), Step::Undecided);
        // BAD then shown slower than M (0.5x: beyond 2 %) makes M like GOOD.
        let slower = reading(Verdict::Slower);
        assert_eq!(classify(&slightly, Some(&slower), d, 2.0), Step::LikeGood);
    }
}
