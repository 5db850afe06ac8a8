//! A bisection typed by hand, as the tests of the bisection's renderers take it.

use crate::protocol::bisect::Step;
use crate::protocol::{Direction, Verdict};
use crate::report::bisect::{Bisection, Ending, Measurement, PathEntry};

/// A bisection of 3 commits after GOOD: docs (identical), the slowdown (named), more.
pub(crate) fn bisection() -> Bisection {
    let entry = |n: u32, subject: &str, measured: Option<Measurement>| PathEntry {
        sha: format!("{n:040}"),
        subject: subject.to_string(),
        measured,
    };
    let m = |speedup: f64, verdict: Verdict, step: Option<Step>| Measurement {
        speedup: Some(speedup),
        interval: Some((speedup * 0.95, speedup * 1.05)),
        against_good: Some(verdict),
        against_bad: None,
        identical: false,
        step,
    };
    Bisection {
        direction: Direction::Slower,
        threshold_pct: 0.0,
        confidence: 0.95,
        comparison_confidence: 1.0 - 0.05 / 5.0,
        budgeted: 5,
        comparisons: 3,
        path: vec![
            entry(1, "base", None),
            entry(
                2,
                "docs | <b>",
                Some(Measurement {
                    speedup: None,
                    interval: None,
                    against_good: None,
                    against_bad: None,
                    identical: true,
                    step: Some(Step::LikeGood),
                }),
            ),
            entry(
                3,
                "slow down",
                Some(m(0.5, Verdict::Slower, Some(Step::LikeBad))),
            ),
            entry(4, "more", Some(m(0.5, Verdict::Slower, None))),
        ],
        ending: Ending::Named(2),
        skipped: vec![],
        named_change: None,
        more_steps: None,
    }
}
