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

/// What one step read: the midpoint against GOOD and BAD against it (when asked), or why the midpoint
/// could not be measured (it is then skipped).
pub type StepReadings = Result<(Reading, Option<Reading>), String>;

/// How a search's comparisons are obtained, and what is told of its steps: [`search`] decides what to
/// compare and when to stop; this measures (`cargo speedup bisect`) or draws (`simulate --bisect`).
pub trait Comparisons {
    /// A failure that stops the whole search (not a commit that cannot be measured: that one is skipped).
    type Error;

    /// Commit `later` against commit `earlier` (indices of the path: 0 GOOD, `commits` BAD): its
    /// reading, or why the two could not be measured.
    fn compare(
        &mut self,
        earlier: usize,
        later: usize,
    ) -> Result<Result<Reading, String>, Self::Error>;

    /// Whether the time budget is spent: no comparison starts after it is. Never, unless overridden.
    fn spent(&self) -> bool {
        false
    }

    /// Step `step` (counted from 1) measures `mid` next, `left` commits being left between the ends.
    fn starting(&mut self, _step: usize, _mid: usize, _left: usize) {}

    /// The step at `mid` concluded `step` from `readings`.
    fn done(&mut self, _mid: usize, _step: Step, _readings: &StepReadings) {}
}

/// Why a search stopped with commits left between the ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Every commit left between the ends was skipped.
    AllSkipped,
    /// Another step would spend more than the error budget.
    ErrorBudget,
    /// The time budget is spent.
    TimeBudget,
    /// The step at this commit stayed undecided.
    Undecided(usize),
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// GOOD against BAD does not show the change sought.
    Nothing,
    /// The commit at this index is the first like BAD after one like GOOD.
    Named(usize),
    /// The search stopped with the interval [`Searched::search`] holds.
    Interval(Cut),
}

/// A search done: how it ended, where it stood then, and the steps (midpoints measured) it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// How it ended.
    pub stopped: Stopped,
    /// Where it stood (the comparisons made included).
    pub search: Search,
    /// Midpoints measured, skipped ones included.
    pub steps: usize,
}

/// The bisection's search of a path of `commits` commits, once GOOD against BAD showed `whole`: the step
/// at the next midpoint compares it against GOOD, then, when that does not decide and the budgets allow,
/// BAD against it; the search stops when a commit is named, a step stays undecided, every commit left was
/// skipped, or a budget is spent.
pub fn search<C: Comparisons>(
    commits: usize,
    whole: &Reading,
    direction: Direction,
    threshold_pct: f64,
    comparisons: &mut C,
) -> Result<Searched, C::Error> {
    let mut search = Search::new(commits);
    let mut steps = 0;
    if !whole.shows(direction, threshold_pct) {
        return Ok(Searched {
            stopped: Stopped::Nothing,
            search,
            steps,
        });
    }
    let stopped = loop {
        if let Some(named) = search.named() {
            break Stopped::Named(named);
        }
        let Some(mid) = search.next() else {
            break Stopped::Interval(Cut::AllSkipped);
        };
        if !search.within_budget(commits, 1) {
            break Stopped::Interval(Cut::ErrorBudget);
        }
        if comparisons.spent() {
            break Stopped::Interval(Cut::TimeBudget);
        }
        steps += 1;
        comparisons.starting(steps, mid, search.bad - search.good - 1);
        let readings = step(
            commits,
            mid,
            direction,
            threshold_pct,
            &mut search,
            comparisons,
        )?;
        let step = match &readings {
            Ok((against_good, against_bad)) => {
                classify(against_good, against_bad.as_ref(), direction, threshold_pct)
            }
            Err(_) => Step::Skipped,
        };
        comparisons.done(mid, step, &readings);
        search.record(mid, step);
        if step == Step::Undecided {
            break Stopped::Interval(Cut::Undecided(mid));
        }
    };
    Ok(Searched {
        stopped,
        search,
        steps,
    })
}

/// One step's comparisons at `mid`: against GOOD, then, when that does not decide and the budgets allow,
/// BAD against it (each counted in `search`).
fn step<C: Comparisons>(
    commits: usize,
    mid: usize,
    direction: Direction,
    threshold_pct: f64,
    search: &mut Search,
    comparisons: &mut C,
) -> Result<StepReadings, C::Error> {
    let against_good = match comparisons.compare(0, mid)? {
        Ok(reading) => reading,
        Err(why) => return Ok(Err(why)),
    };
    search.comparisons += 1;
    let undecided = classify(&against_good, None, direction, threshold_pct) == Step::Undecided;
    if !undecided || !search.within_budget(commits, 1) || comparisons.spent() {
        return Ok(Ok((against_good, None)));
    }
    let against_bad = match comparisons.compare(mid, commits)? {
        Ok(reading) => reading,
        Err(why) => return Ok(Err(why)),
    };
    search.comparisons += 1;
    Ok(Ok((against_good, Some(against_bad))))
}

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

    /// Comparisons of a path whose commits from `culprit` on are slower: `unmeasurable` commits do not
    /// build, `inconclusive` ones show nothing against GOOD; the time budget is spent after `budget`
    /// comparisons. Records what was compared and each step's conclusion.
    struct Fake {
        culprit: usize,
        unmeasurable: Vec<usize>,
        inconclusive: Vec<usize>,
        budget: usize,
        calls: Vec<(usize, usize)>,
        steps: Vec<(usize, Step)>,
    }

    impl Fake {
        fn new(culprit: usize) -> Fake {
            Fake {
                culprit,
                unmeasurable: vec![],
                inconclusive: vec![],
                budget: usize::MAX,
                calls: vec![],
                steps: vec![],
            }
        }
    }

    impl Comparisons for Fake {
        type Error = ();

        fn compare(&mut self, earlier: usize, later: usize) -> Result<Result<Reading, String>, ()> {
            self.calls.push((earlier, later));
            if self.unmeasurable.contains(&earlier) || self.unmeasurable.contains(&later) {
                return Ok(Err("does not build".into()));
            }
            let verdict = if earlier == 0 && self.inconclusive.contains(&later) {
                Verdict::Inconclusive
            } else if earlier < self.culprit && self.culprit <= later {
                Verdict::Slower
            } else {
                Verdict::Unchanged
            };
            Ok(Ok(reading(verdict)))
        }

        fn spent(&self) -> bool {
            self.calls.len() >= self.budget
        }

        fn done(&mut self, mid: usize, step: Step, _: &StepReadings) {
            self.steps.push((mid, step));
        }
    }

    #[test]
    fn the_search_names_the_culprit_from_its_comparisons() {
        let mut fake = Fake::new(3);
        let slower = reading(Verdict::Slower);
        let searched = search(8, &slower, Direction::Slower, 0.0, &mut fake).unwrap();
        assert_eq!(searched.stopped, Stopped::Named(3));
        assert_eq!((searched.steps, searched.search.comparisons), (3, 4));
        assert_eq!(fake.calls, vec![(0, 4), (0, 2), (0, 3)]);
    }

    #[test]
    fn the_search_skips_an_unmeasurable_midpoint_without_counting_it() {
        let mut fake = Fake::new(5);
        fake.unmeasurable = vec![4];
        let slower = reading(Verdict::Slower);
        let searched = search(8, &slower, Direction::Slower, 0.0, &mut fake).unwrap();
        assert_eq!(searched.stopped, Stopped::Interval(Cut::AllSkipped));
        assert_eq!((searched.search.good, searched.search.bad), (3, 5));
        assert_eq!(searched.search.skipped, vec![4]);
        assert_eq!((searched.steps, searched.search.comparisons), (3, 3));
        assert_eq!(fake.calls, vec![(0, 4), (0, 3), (0, 5)]);
        let steps = vec![(4, Step::Skipped), (3, Step::LikeGood), (5, Step::LikeBad)];
        assert_eq!(fake.steps, steps);
    }

    #[test]
    fn an_undecided_comparison_asks_bad_and_a_spent_budget_stops_the_search() {
        let mut fake = Fake::new(5);
        fake.inconclusive = vec![4];
        fake.budget = 2;
        let slower = reading(Verdict::Slower);
        let searched = search(8, &slower, Direction::Slower, 0.0, &mut fake).unwrap();
        assert_eq!(searched.stopped, Stopped::Interval(Cut::TimeBudget));
        assert_eq!((searched.search.good, searched.search.bad), (4, 8));
        assert_eq!((searched.steps, searched.search.comparisons), (1, 3));
        assert_eq!(fake.calls, vec![(0, 4), (4, 8)]);
    }

    #[test]
    fn nothing_shown_by_good_against_bad_compares_nothing_more() {
        let mut fake = Fake::new(5);
        let unchanged = reading(Verdict::Unchanged);
        let searched = search(8, &unchanged, Direction::Slower, 0.0, &mut fake).unwrap();
        assert_eq!(searched.stopped, Stopped::Nothing);
        assert_eq!((searched.steps, searched.search.comparisons), (0, 1));
        assert!(fake.calls.is_empty());
    }
}
