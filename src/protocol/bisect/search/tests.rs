//! The search on scripted steps and fake comparisons.

use super::*;
use crate::protocol::Verdict;
use crate::protocol::bisect::max_steps;

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
