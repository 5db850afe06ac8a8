//! A bisection as the reports see it ([`Bisection`]: the path, what was measured of each commit, how the
//! search ended) and its sentences: the summary (the commit named, the interval left or nothing to
//! bisect, and more than one step when the measured commits show it) and the named commit's own change.
//!
//! Must not: decide anything (each step's conclusion and the evidence of more than one step are
//! `protocol::bisect`'s) or write anything; the renderers (`text.rs`, `json.rs`, `html.rs`) make the
//! words and subjects inert for their sink.

use crate::protocol::bisect::{Cut, Evidence, MoreSteps, Step};
use crate::protocol::{Direction, Verdict};
use crate::report::format;

/// One commit of the path searched, GOOD first and BAD last.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PathEntry {
    /// Its full sha.
    pub sha: String,
    /// Its subject line.
    pub subject: String,
    /// What was measured of it; `None` for a commit the search did not reach (and for GOOD).
    pub measured: Option<Measurement>,
}

/// What the bisection measured of one commit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Measurement {
    /// Its speedup against GOOD (above 1: faster than GOOD), when one was estimated.
    pub speedup: Option<f64>,
    /// The interval of `speedup` at the comparison's confidence, when there is one.
    pub interval: Option<(f64, f64)>,
    /// Its verdict against GOOD; `None` when it was not compared with GOOD (a skipped commit).
    pub against_good: Option<Verdict>,
    /// BAD's verdict against it, when that comparison was made.
    pub against_bad: Option<Verdict>,
    /// Its executables were identical to GOOD's (or BAD's): nothing was run for it.
    pub identical: bool,
    /// The step's conclusion; `None` for BAD, which the initial check compared with GOOD.
    pub step: Option<Step>,
}

impl Measurement {
    /// A commit skipped (it did not build, or its benchmarks failed): nothing measured.
    pub(crate) fn skipped() -> Measurement {
        Measurement {
            speedup: None,
            interval: None,
            against_good: None,
            against_bad: None,
            identical: false,
            step: Some(Step::Skipped),
        }
    }
}

/// The named commit's own change: it against its parent on the path, one comparison more, made as the
/// others but outside the error budget (a description, `docs/bisect.md` §4).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NamedChange {
    /// The parent's index in the path (the last commit known like GOOD; 0 is GOOD itself).
    pub parent: usize,
    /// The named commit's speedup over its parent (above 1: faster).
    pub speedup: Option<f64>,
    /// The interval of `speedup` at the comparison's confidence, when there is one.
    pub interval: Option<(f64, f64)>,
    /// The named commit's verdict against its parent.
    pub verdict: Verdict,
    /// Their executables were identical: nothing ran.
    pub identical: bool,
}

/// How the bisection ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ending {
    /// GOOD against BAD does not show the change sought: nothing to bisect.
    NothingToBisect,
    /// The commit at this index of the path is the first like BAD after one like GOOD.
    Named(usize),
    /// The search stopped with this interval of the path (last like GOOD, first like BAD), for the reason
    /// given.
    Interval {
        /// The last commit known like GOOD.
        good: usize,
        /// The first commit known like BAD.
        bad: usize,
        /// Why the search stopped there.
        cut: Cut,
    },
}

/// A bisection, ready to render.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bisection {
    /// The change sought.
    pub direction: Direction,
    /// `--threshold`, in percent: the smallest change that counts.
    pub threshold_pct: f64,
    /// The confidence stated for the commit named.
    pub confidence: f64,
    /// The confidence each comparison was made at (Bonferroni over the comparisons budgeted).
    pub comparison_confidence: f64,
    /// The comparisons the error was budgeted over.
    pub budgeted: u32,
    /// The comparisons made.
    pub comparisons: u32,
    /// GOOD, then the first-parent path to BAD.
    pub path: Vec<PathEntry>,
    /// How it ended.
    pub ending: Ending,
    /// Commits left out because they did not build or their benchmarks failed, with why.
    pub skipped: Vec<(usize, String)>,
    /// The named commit against its parent; `None` when none was named, or when `--budget` was spent.
    pub named_change: Option<NamedChange>,
    /// Two measured commits that show more than one step on the path (`protocol::bisect::more_steps`).
    pub more_steps: Option<MoreSteps>,
}

impl Bisection {
    pub(crate) fn short(&self, index: usize) -> String {
        self.path[index].sha.chars().take(10).collect()
    }

    /// The report's first sentence: the commit named, the interval left, or nothing to bisect; then, when
    /// the measured commits show more than one step, what shows it.
    pub(crate) fn summary(&self) -> String {
        match self.steps_sentence() {
            Some(more) => format!("{} {more}", self.ending_sentence()),
            None => self.ending_sentence(),
        }
    }

    /// Where a commit is, in words: `commit 8 (0000000008)`, or `BAD`.
    fn commit_words(&self, index: usize) -> String {
        if index == self.path.len() - 1 {
            format!("BAD ({})", self.short(index))
        } else {
            format!("commit {index} ({})", self.short(index))
        }
    }

    /// A commit's speedup against GOOD with its interval, or its verdict when no speedup was estimated.
    fn level_words(&self, index: usize) -> String {
        let m = self.path[index].measured.as_ref();
        let verdict = m.and_then(|m| m.against_good).map_or("", Verdict::as_str);
        match m.and_then(|m| m.speedup.map(|s| (s, m.interval))) {
            Some((s, interval)) if m.is_some_and(|m| !m.identical) => format!(
                "{} against GOOD, {verdict}",
                format::speedup_with_interval(s, interval)
            ),
            _ if m.is_some_and(|m| m.identical) => "identical to GOOD".into(),
            _ => verdict.to_string(),
        }
    }

    /// The sentence saying that the measured commits show more than one step, and what shows it.
    fn steps_sentence(&self) -> Option<String> {
        let more = self.more_steps?;
        let (earlier, later) = (
            self.commit_words(more.earlier),
            self.commit_words(more.later),
        );
        let evidence = match more.evidence {
            Evidence::Opposite | Evidence::Undone | Evidence::Levels => format!(
                "{earlier} is {} and {later} {}",
                self.level_words(more.earlier),
                self.level_words(more.later)
            ),
            Evidence::Back => format!(
                "BAD is shown {} than {earlier}",
                self.direction.opposite().as_str()
            ),
        };
        let tail = match self.ending {
            Ending::Named(_) => {
                "the commit named is the first step the search found, not the whole change"
            }
            _ => "no one commit explains the whole change",
        };
        Some(format!(
            "The measured commits show more than one step: {evidence}; {tail}."
        ))
    }

    fn ending_sentence(&self) -> String {
        let change = match self.direction {
            Direction::Slower => "slowdown",
            Direction::Faster => "speed-up",
        };
        let last = self.path.len() - 1;
        match &self.ending {
            Ending::NothingToBisect => format!(
                "Nothing to bisect: BAD ({}) is not shown {} than GOOD ({}) at confidence {}.",
                self.short(last),
                self.direction.as_str(),
                self.short(0),
                comparison_level(self.comparison_confidence)
            ),
            Ending::Named(index) => format!(
                "The {change} came with {} \"{}\" (commit {index} of {last} after GOOD), at confidence {}.",
                self.short(*index),
                self.path[*index].subject,
                format::level(self.confidence),
            ),
            Ending::Interval { good, bad, cut } => format!(
                "The {change} came with one of the {} commits after {} up to {} (commits {} to {bad} of \
                 {last}): {}.",
                bad - good,
                self.short(*good),
                self.short(*bad),
                good + 1,
                self.cut_words(*cut),
            ),
        }
    }

    /// Why the search stopped with commits left, in words; `None` unless it did.
    pub(crate) fn reason(&self) -> Option<String> {
        match self.ending {
            Ending::Interval { cut, .. } => Some(self.cut_words(cut)),
            _ => None,
        }
    }

    /// Why the search stopped at `cut`, in words: `the --budget is spent`.
    fn cut_words(&self, cut: Cut) -> String {
        match cut {
            Cut::AllSkipped => "every commit left between them was skipped".into(),
            Cut::ErrorBudget => {
                format!("the error budget of {} comparisons is spent", self.budgeted)
            }
            Cut::TimeBudget => "the --budget is spent".into(),
            Cut::Undecided(mid) => format!(
                "the step at {} stayed undecided after the most runs (--max-runs)",
                self.short(mid)
            ),
        }
    }

    /// The named commit's own change beside its change against GOOD: `Against its parent 0000000001
    /// (commit 1): 0.50x [0.48, 0.52], slower; against GOOD: 0.50x.`; `None` when it was not measured.
    pub(crate) fn named_change_line(&self) -> Option<String> {
        let (Ending::Named(named), Some(change)) = (&self.ending, &self.named_change) else {
            return None;
        };
        let own = match change.speedup {
            _ if change.identical => "identical executables".to_string(),
            Some(s) => format::speedup_with_interval(s, change.interval),
            None => "no estimate".to_string(),
        };
        let against_good = self.path[*named]
            .measured
            .as_ref()
            .and_then(|m| {
                m.speedup
                    .map(|s| format::speedup_with_interval(s, m.interval))
            })
            .unwrap_or_else(|| "no estimate".into());
        let parent = if change.parent == 0 {
            "GOOD".to_string()
        } else {
            format!("commit {}", change.parent)
        };
        Some(format!(
            "Against its parent {} ({parent}): {own}, {}; against GOOD: {against_good}.",
            self.short(change.parent),
            change.verdict.as_str(),
        ))
    }

    pub(super) fn role(&self, index: usize) -> &'static str {
        if index == 0 {
            "GOOD"
        } else if index == self.path.len() - 1 {
            "BAD"
        } else {
            ""
        }
    }
}

/// A per-comparison confidence, cut (never rounded up) to 4 decimals: `0.9928`.
pub(crate) fn comparison_level(c: f64) -> String {
    format!("{:.4}", (c * 1e4).floor() / 1e4)
}
