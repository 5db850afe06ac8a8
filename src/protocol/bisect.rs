//! The decisions of `cargo speedup bisect` (`docs/bisect.md`): the error budget over the steps, what one
//! step's comparisons say about a midpoint, and where the search stands. Pure: it sees verdicts, never
//! runs; the commits are indices into the path, 0 being GOOD and `len` being BAD.
//!
//! Must not: measure, print, or guess. A step that the verdicts do not decide stops the search, which then
//! reports the interval of commits that remains.

use super::{Direction, Verdict};

/// What one comparison showed, as the bisection reads it: the verdict of the later commit against the
/// earlier one (the suite's, or the one selected benchmark's) and the speedup shown with it
/// (earlier's time / later's time), with its interval, if any.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// The verdict of the later commit against the earlier one.
    pub verdict: Verdict,
    /// The speedup of the later commit over the earlier one (above 1: faster).
    pub speedup: Option<f64>,
    /// The interval of `speedup` at the comparison's confidence (one benchmark's Hodges-Lehmann interval
    /// of the ratio); `None` for a suite (HPT states a confidence, not an interval) or when it does not
    /// exist.
    pub interval: Option<(f64, f64)>,
    /// Every benchmark built identical executables on both sides: nothing was run, nothing can differ.
    pub identical: bool,
}

impl Reading {
    /// Whether this comparison shows the change sought: its verdict is `direction`, and, with a threshold
    /// above 0, the speedup shown is beyond it (a slowdown of at least `threshold_pct` percent of the later
    /// commit's speed, 1/speedup − 1; a speed-up of at least that, speedup − 1). Identical executables
    /// never show a change.
    pub fn shows(&self, direction: Direction, threshold_pct: f64) -> bool {
        if self.identical || self.verdict != Verdict::from(direction) {
            return false;
        }
        if threshold_pct <= 0.0 {
            return true;
        }
        let Some(speedup) = self.speedup.filter(|s| s.is_finite() && *s > 0.0) else {
            return false;
        };
        let change = match direction {
            Direction::Slower => 1.0 / speedup - 1.0,
            Direction::Faster => speedup - 1.0,
        };
        change * 100.0 >= threshold_pct
    }

    /// Whether this comparison shows no change: identical executables, or shown unchanged (equivalent
    /// within the margin, `--equivalence`).
    pub fn unchanged(&self) -> bool {
        self.identical || self.verdict == Verdict::Unchanged
    }
}

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

/// The most steps a search of a path of `commits` commits takes when none is skipped: ⌈log2 commits⌉.
pub fn max_steps(commits: usize) -> u32 {
    let mut steps = 0;
    while (1usize << steps) < commits.max(1) {
        steps += 1;
    }
    steps
}

/// The comparisons the error is budgeted over: the check that GOOD against BAD shows the change, then two
/// per step (the midpoint against GOOD, then against BAD): 2 ⌈log2 commits⌉ + 1.
pub fn budgeted_comparisons(commits: usize) -> u32 {
    2 * max_steps(commits) + 1
}

/// The confidence each comparison is made at so that the commit named is right with `confidence`
/// (Bonferroni over [`budgeted_comparisons`]): every comparison is wrong at most alpha / m of the time,
/// so that all the at most m comparisons the search makes are right together with at least 1 − alpha.
pub fn per_comparison_confidence(confidence: f64, commits: usize) -> f64 {
    1.0 - (1.0 - confidence) / f64::from(budgeted_comparisons(commits))
}

/// Where the search stands: the last commit known like GOOD, the first known like BAD, and the commits
/// between them that were skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The last commit known like GOOD (0 is GOOD).
    pub good: usize,
    /// The first commit known like BAD (`len` is BAD).
    pub bad: usize,
    /// The commits that did not build or whose benchmarks failed.
    pub skipped: Vec<usize>,
    /// The comparisons made so far (the initial check included).
    pub comparisons: u32,
}

impl Search {
    /// A search of a path of `commits` commits after GOOD, BAD being the last; GOOD against BAD was
    /// compared once already.
    pub fn new(commits: usize) -> Search {
        Search {
            good: 0,
            bad: commits,
            skipped: vec![],
            comparisons: 1,
        }
    }

    /// The commit to measure next: the one nearest the middle of the interval that was not skipped
    /// (the earlier of two equally near); `None` when no commit is left between the ends.
    pub fn next(&self) -> Option<usize> {
        let middle = (self.good + self.bad) / 2;
        (self.good + 1..self.bad)
            .filter(|i| !self.skipped.contains(i))
            .min_by_key(|i| (i.abs_diff(middle), *i))
    }

    /// Takes a step's conclusion about `commit` into account.
    pub fn record(&mut self, commit: usize, step: Step) {
        match step {
            Step::LikeGood => self.good = commit,
            Step::LikeBad => self.bad = commit,
            Step::Skipped => self.skipped.push(commit),
            Step::Undecided => {}
        }
        self.skipped.retain(|&i| i > self.good && i < self.bad);
    }

    /// The commit named: the first like BAD, when it directly follows the last like GOOD.
    pub fn named(&self) -> Option<usize> {
        (self.bad == self.good + 1).then_some(self.bad)
    }

    /// Whether another comparison stays within the error budget of a path of `commits` commits.
    pub fn within_budget(&self, commits: usize, more: u32) -> bool {
        self.comparisons + more <= budgeted_comparisons(commits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_budget_is_two_comparisons_per_step_and_the_initial_check() {
        assert_eq!(max_steps(1), 0);
        assert_eq!(max_steps(2), 1);
        assert_eq!(max_steps(8), 3);
        assert_eq!(max_steps(9), 4);
        assert_eq!(max_steps(16), 4);
        assert_eq!(budgeted_comparisons(16), 9);
        // 1 - 0.05 / 9
        let c = per_comparison_confidence(0.95, 16);
        assert!((c - 0.994_444_444_444_444_4).abs() < 1e-12, "{c}");
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
    fn a_threshold_keeps_smaller_changes_from_counting() {
        let slower_by_a_quarter = Reading {
            verdict: Verdict::Slower,
            speedup: Some(0.8),
            interval: None,
            identical: false,
        };
        // 1 / 0.8 - 1 = 25 %.
        assert!(slower_by_a_quarter.shows(Direction::Slower, 20.0));
        assert!(slower_by_a_quarter.shows(Direction::Slower, 25.0));
        assert!(!slower_by_a_quarter.shows(Direction::Slower, 30.0));
        assert!(!slower_by_a_quarter.shows(Direction::Faster, 0.0));
    }

    /// Runs a search where every commit from `culprit` on is slower, each step answered by `answer`.
    fn bisect(commits: usize, answer: &dyn Fn(usize) -> Step) -> Search {
        let mut search = Search::new(commits);
        while search.named().is_none() {
            let Some(commit) = search.next() else { break };
            let step = answer(commit);
            search.record(commit, step);
            search.comparisons += 1;
            if step == Step::Undecided {
                break;
            }
        }
        search
    }

    #[test]
    fn a_search_with_decided_steps_names_the_culprit_in_log2_steps() {
        for commits in 2..=17 {
            for culprit in 1..=commits {
                let search = bisect(commits, &|i| {
                    if i >= culprit {
                        Step::LikeBad
                    } else {
                        Step::LikeGood
                    }
                });
                assert_eq!(search.named(), Some(culprit), "{commits} commits");
                assert!(
                    search.comparisons - 1 <= max_steps(commits),
                    "{commits} commits, culprit {culprit}: {} steps",
                    search.comparisons - 1
                );
            }
        }
    }

    #[test]
    fn an_undecided_step_stops_with_the_interval_that_remains() {
        // 16 commits, the change at 11; the first step (commit 8) is like GOOD, the next (12) undecided.
        let search = bisect(16, &|i| match i {
            8 => Step::LikeGood,
            12 => Step::Undecided,
            _ => unreachable!("commit {i} measured"),
        });
        assert_eq!(search.named(), None);
        assert_eq!((search.good, search.bad), (8, 16));
    }

    #[test]
    fn a_skipped_commit_is_passed_over_and_can_leave_an_interval() {
        // 8 commits, the change at 5, which does not build, nor does 4.
        let search = bisect(8, &|i| match i {
            4 | 5 => Step::Skipped,
            i if i >= 5 => Step::LikeBad,
            _ => Step::LikeGood,
        });
        assert_eq!(search.named(), None);
        assert_eq!((search.good, search.bad), (3, 6));
        assert_eq!(search.skipped, vec![4, 5]);
        assert_eq!(search.next(), None);
    }
}
