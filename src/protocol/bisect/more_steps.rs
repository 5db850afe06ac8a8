//! Whether the measured commits of a bisection show more than one step (`docs/bisect.md` §3, "Two
//! changes"): [`more_steps`] reads the verdicts and the intervals the comparisons already gave (the
//! `levels` evidence is two intervals that do not overlap), and names the closest pair that a single step
//! cannot explain.
//!
//! Must not: decide anything, move the search, or spend any of the error budget.

use super::reading::Reading;
use crate::protocol::{Direction, Verdict};

/// What one measured commit of the path showed: against GOOD, and BAD against it when that was asked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown {
    /// The commit's index in the path (BAD is the last).
    pub index: usize,
    /// The commit against GOOD.
    pub against_good: Reading,
    /// BAD against the commit, when that comparison was made.
    pub against_bad: Option<Reading>,
}

/// Why the measured commits show more than one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// One commit is shown faster than GOOD, the other slower.
    Opposite,
    /// The earlier commit is shown changed against GOOD, the later unchanged: the change was undone.
    Undone,
    /// Both are shown changed the same way, but their speedups' intervals against GOOD do not overlap:
    /// two levels.
    Levels,
    /// BAD is shown changed against the earlier commit the other way than the change sought.
    Back,
}

impl Evidence {
    /// The word the JSON prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::Opposite => "opposite",
            Evidence::Undone => "undone",
            Evidence::Levels => "levels",
            Evidence::Back => "back",
        }
    }
}

/// Two measured commits between which a change lies that a single step from GOOD's level to BAD's cannot
/// explain: at least two changes happened on the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoreSteps {
    /// The earlier commit's index.
    pub earlier: usize,
    /// The later commit's index (BAD for [`Evidence::Back`]).
    pub later: usize,
    /// What shows it.
    pub evidence: Evidence,
}

/// Whether the measured commits show more than one step (`docs/bisect.md` §3, "Two changes"). One step
/// means: every measured commit is at GOOD's level or at BAD's, the ones at GOOD's first. The rule looks at
/// every pair of measured commits, earlier and later, and finds more than one step when
///
/// - one is shown faster than GOOD and the other slower ([`Evidence::Opposite`]);
/// - the earlier is shown changed (faster or slower) against GOOD and the later unchanged
///   ([`Evidence::Undone`]);
/// - both are shown changed the same way and their speedups' intervals against GOOD do not overlap
///   ([`Evidence::Levels`]; a suite has no interval, so only its verdicts count);
///
/// or when BAD was compared with a commit and shown changed against it the other way than the change
/// sought ([`Evidence::Back`]: BAD changed back after it). It reads only verdicts the comparisons already
/// made at their confidence, and adds no decision: nothing moves the search. Of several pairs it returns
/// the closest (fewest commits between them), the earliest of equally close ones.
pub fn more_steps(shown: &[Shown], direction: Direction) -> Option<MoreSteps> {
    let changed =
        |r: &Reading| !r.identical && matches!(r.verdict, Verdict::Faster | Verdict::Slower);
    let mut found: Vec<MoreSteps> = vec![];
    let last = shown.iter().map(|s| s.index).max()?;
    for a in shown {
        if let Some(bad) = &a.against_bad
            && !bad.identical
            && bad.verdict == Verdict::from(direction.opposite())
        {
            found.push(MoreSteps {
                earlier: a.index,
                later: last,
                evidence: Evidence::Back,
            });
        }
        for b in shown.iter().filter(|b| b.index > a.index) {
            let (x, y) = (&a.against_good, &b.against_good);
            let evidence = if changed(x) && changed(y) && x.verdict != y.verdict {
                Some(Evidence::Opposite)
            } else if changed(x) && y.unchanged() {
                Some(Evidence::Undone)
            } else if changed(x)
                && changed(y)
                && let (Some((xl, xh)), Some((yl, yh))) = (x.interval, y.interval)
                && (xh < yl || yh < xl)
            {
                Some(Evidence::Levels)
            } else {
                None
            };
            if let Some(evidence) = evidence {
                found.push(MoreSteps {
                    earlier: a.index,
                    later: b.index,
                    evidence,
                });
            }
        }
    }
    found
        .into_iter()
        .min_by_key(|m| (m.later - m.earlier, m.earlier))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reading at `speedup` with the interval ±`half` around it.
    fn at(verdict: Verdict, speedup: f64, half: f64) -> Reading {
        Reading {
            verdict,
            speedup: Some(speedup),
            interval: Some((speedup - half, speedup + half)),
            identical: false,
        }
    }

    fn shown(index: usize, against_good: Reading) -> Shown {
        Shown {
            index,
            against_good,
            against_bad: None,
        }
    }

    #[test]
    fn one_step_shows_no_second() {
        // 16 commits, 2x slower from 5 on: the measured commits are at GOOD's level or at BAD's.
        let slow = at(Verdict::Slower, 0.5, 0.02);
        let same = at(Verdict::Unchanged, 1.0, 0.02);
        let path = [
            shown(16, slow),
            shown(8, at(Verdict::Slower, 0.51, 0.02)),
            shown(4, same),
            shown(6, slow),
            shown(5, slow),
        ];
        assert_eq!(more_steps(&path, Direction::Slower), None);
        // An undecided commit between them is no evidence either way.
        let mut path = path.to_vec();
        path.push(shown(3, at(Verdict::Inconclusive, 0.8, 0.3)));
        assert_eq!(more_steps(&path, Direction::Slower), None);
    }

    #[test]
    fn a_regression_and_a_later_partial_fix_show_two_levels() {
        // 2x slower at 3, a partial fix at 12 (0.7x of GOOD at BAD): the search names 3, and commit 8
        // (0.5x) and BAD (0.7x) are two levels.
        let path = [
            shown(16, at(Verdict::Slower, 0.7, 0.02)),
            shown(8, at(Verdict::Slower, 0.5, 0.02)),
            shown(4, at(Verdict::Slower, 0.5, 0.02)),
            shown(2, at(Verdict::Unchanged, 1.0, 0.02)),
            shown(3, at(Verdict::Slower, 0.5, 0.02)),
        ];
        assert_eq!(
            more_steps(&path, Direction::Slower),
            Some(MoreSteps {
                earlier: 8,
                later: 16,
                evidence: Evidence::Levels
            })
        );
        // Overlapping intervals are not two levels.
        let mut close = path;
        close[0] = shown(16, at(Verdict::Slower, 0.55, 0.04));
        close[1] = shown(8, at(Verdict::Slower, 0.5, 0.04));
        assert_eq!(more_steps(&close, Direction::Slower), None);
    }

    #[test]
    fn a_change_undone_or_reversed_shows_two_steps() {
        // Slower at 4, then fixed again before 8 and slower again by BAD: 4 slower, 8 unchanged.
        let path = [
            shown(16, at(Verdict::Slower, 0.5, 0.02)),
            shown(8, at(Verdict::Unchanged, 1.0, 0.02)),
            shown(4, at(Verdict::Slower, 0.5, 0.02)),
        ];
        assert_eq!(
            more_steps(&path, Direction::Slower),
            Some(MoreSteps {
                earlier: 4,
                later: 8,
                evidence: Evidence::Undone
            })
        );
        // A suite: no intervals, only verdicts. Faster at 8, slower at BAD.
        let suite = |verdict| Reading {
            verdict,
            speedup: Some(1.0),
            interval: None,
            identical: false,
        };
        let path = [
            shown(16, suite(Verdict::Slower)),
            shown(8, suite(Verdict::Faster)),
            shown(12, suite(Verdict::Slower)),
        ];
        assert_eq!(
            more_steps(&path, Direction::Slower),
            Some(MoreSteps {
                earlier: 8,
                later: 12,
                evidence: Evidence::Opposite
            })
        );
        // Two suite verdicts "slower" are one level as far as verdicts tell.
        let path = [
            shown(16, suite(Verdict::Slower)),
            shown(8, suite(Verdict::Slower)),
        ];
        assert_eq!(more_steps(&path, Direction::Slower), None);
        // Identical executables are GOOD's level, never a change.
        let identical = Reading {
            verdict: Verdict::Unchanged,
            speedup: None,
            interval: None,
            identical: true,
        };
        let path = [shown(16, suite(Verdict::Slower)), shown(8, identical)];
        assert_eq!(more_steps(&path, Direction::Slower), None);
    }

    #[test]
    fn bad_changed_back_against_a_commit_shows_two_steps() {
        // Commit 8 undecided against GOOD; BAD is shown faster than it while a slowdown is sought.
        let mut eight = shown(8, at(Verdict::Inconclusive, 0.6, 0.5));
        eight.against_bad = Some(at(Verdict::Faster, 1.2, 0.05));
        let path = [shown(16, at(Verdict::Slower, 0.8, 0.05)), eight];
        assert_eq!(
            more_steps(&path, Direction::Slower),
            Some(MoreSteps {
                earlier: 8,
                later: 16,
                evidence: Evidence::Back
            })
        );
        // Under --faster the same reading is the change sought: no evidence.
        assert_eq!(more_steps(&path, Direction::Faster), None);
    }
}
