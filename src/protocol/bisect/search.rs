//! The search of a bisection (`docs/bisect.md` §3 and §4): where it stands ([`Search`]), the steps it takes
//! ([`search`]: the next midpoint, its comparisons, the step rule, the budgets) and how it ended
//! ([`Searched`]). The comparisons come through [`Comparisons`]: `cargo speedup bisect` measures them,
//! `simulate --bisect` draws them. Pure: it sees readings, never runs; the commits are indices into the
//! path, 0 being GOOD and `len` being BAD.
//!
//! Must not: measure, print, or guess. A step that the readings do not decide stops the search, which
//! then reports the interval of commits that remains.

use super::budget::budgeted_comparisons;
use super::more_steps::{MoreSteps, Shown, more_steps};
use super::reading::Reading;
use super::step::{Step, classify};
use crate::protocol::Direction;

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

/// A search done: how it ended, where it stood then, the steps (midpoints measured) it took, and whether
/// the commits it measured show more than one step ([`more_steps`] on GOOD against BAD and every step
/// measured, in that order).
#[derive(Debug, Clone, PartialEq)]
pub struct Searched {
    /// How it ended.
    pub stopped: Stopped,
    /// Where it stood (the comparisons made included).
    pub search: Search,
    /// Midpoints measured, skipped ones included.
    pub steps: usize,
    /// Two measured commits that show more than one step on the path, if any.
    pub more_steps: Option<MoreSteps>,
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
    let mut shown = vec![Shown {
        index: commits,
        against_good: *whole,
        against_bad: None,
    }];
    if !whole.shows(direction, threshold_pct) {
        return Ok(Searched {
            stopped: Stopped::Nothing,
            search,
            steps,
            more_steps: more_steps(&shown, direction),
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
                shown.push(Shown {
                    index: mid,
                    against_good: *against_good,
                    against_bad: *against_bad,
                });
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
        more_steps: more_steps(&shown, direction),
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

#[cfg(test)]
mod tests;
