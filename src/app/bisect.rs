//! `cargo speedup bisect GOOD BAD`: find the commit of the first-parent path from GOOD to BAD after which
//! the benchmarks are slower (or faster), every step decided by the revision form's sequential verdict
//! (`docs/bisect.md`). This file only strings the stages together: the path comes from `measure`, each
//! comparison is `measure::measure_revisions` (cached, identical executables not run), what each shows is
//! `protocol::bisect::read`, the search (each step's conclusion, the error budget, when to stop, more than
//! one step) is `protocol::bisect::search`, the report is `report::bisect`'s. With `--measure instructions`
//! each commit runs once and each step is exact; a suite of counts is followed benchmark by benchmark.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::compare::{check_report_outputs, write_rendered};
use super::{Outcome, is_stdout, manifest};
use crate::cli::BisectArgs;
use crate::measure::{self, FirstParentPath, MeasureError, RunOptions};
use crate::model::{Design, Results, Suite};
use crate::plan::{AnalysisPlan, RacePlan, measuring, one_measure};
use crate::protocol::bisect::{
    self, Comparisons, Follow, MoreSteps, Reading, Step, StepReadings, Stopped,
    budgeted_comparisons, changed_benchmarks, max_steps, per_comparison_confidence,
};
use crate::protocol::sequential::decide_look;
use crate::protocol::{Direction, Options};
use crate::report::bisect::each::Each;
use crate::report::bisect::{Bisection, Ending, Measurement, NamedChange, PathEntry, render};

/// `bisect`: check the options, list the path, check that GOOD against BAD shows the change, search,
/// report. Exits 0 whenever it ran, also with nothing to bisect.
pub(super) fn bisect(args: &BisectArgs) -> Result<Outcome> {
    let (good, bad) = endpoints(&args.revisions)?;
    let direction = if args.faster {
        Direction::Faster
    } else {
        Direction::Slower
    };
    // The options and outputs at the confidence asked, before git is asked anything.
    let RacePlan {
        analysis: asked,
        run: asked_run,
    } = RacePlan::from_args(&args.run, &args.analysis)?;
    crate::plan::refuse_paired(&args.analysis, "bisect")?;
    one_measure(
        measuring(asked_run, args.measure.as_deref(), &args.run)?,
        "bisect",
    )?;
    check_report_outputs(&asked.output, &[manifest(&args.run)])?;
    super::race::refuse_dashboard_formats(asked.output.format, "bisect")?;
    let path = measure::first_parent_path(args.run.manifest_path.as_deref(), &good, &bad)?;
    check_path(&path, &good, &bad)?;
    let commits = path.commits.len();
    let confidence = asked.options.confidence().level();
    let each = per_comparison_confidence(confidence, commits);
    let mut analysis_args = args.analysis.clone();
    analysis_args.confidence = each;
    let RacePlan {
        analysis: plan,
        run,
    } = RacePlan::from_args(&args.run, &analysis_args)?;
    // Counts: one run per commit, each step's comparison exact, as the revision form measures them.
    let run = measuring(run, args.measure.as_deref(), &args.run)?;
    let entries: Vec<PathEntry> = std::iter::once(&path.good)
        .chain(&path.commits)
        .map(|c| PathEntry {
            sha: c.sha.clone(),
            subject: c.subject.clone(),
            measured: None,
        })
        .collect();
    let bisector = Bisector {
        plan: &plan,
        run,
        started: Instant::now(),
        quiet: asked.output.quiet,
        memo: RefCell::new(HashMap::new()),
        path: &path,
        direction,
        threshold: plan.options.threshold().pct(),
    };
    bisector.say(&format!(
        "bisect: {commits} commits on the first-parent path; checking GOOD against BAD, each comparison \
         at confidence {}",
        crate::report::bisect::comparison_level(each)
    ));
    let whole = bisector.check()?;
    let first_check = bisector.started.elapsed();
    if bisector.run.measure == measure::Measure::Instructions && !args.each {
        refuse_suite_of_counts(bisector.changed_benchmarks(&whole))?;
    }
    let bisection = |found: Found| Bisection {
        direction,
        threshold_pct: bisector.threshold,
        confidence,
        comparison_confidence: each,
        budgeted: budgeted_comparisons(commits),
        comparisons: found.comparisons,
        path: found.entries,
        ending: found.ending,
        skipped: found.skipped,
        named_change: found.named_change,
        more_steps: found.more_steps,
    };
    if args.each {
        let (compared, changed) = bisector.changed_benchmarks(&whole);
        let mut bisections = vec![];
        for name in changed {
            bisector.say(&format!(
                "bisect: benchmark `{}`",
                crate::inert::terminal(&name)
            ));
            let follow = Follow::Benchmark(name.clone());
            let found = bisector.search(entries.clone(), &follow, &whole, first_check)?;
            bisections.push((name, bisection(found)));
        }
        let report = Each {
            direction,
            threshold_pct: bisector.threshold,
            confidence,
            comparison_confidence: each,
            budgeted: budgeted_comparisons(commits),
            compared,
            ends: (path.good.sha.clone(), path.bad.sha.clone()),
            bisections,
        };
        write_rendered(&plan.output, &|format, style, out| {
            crate::report::bisect::each::render(&report, format, style, out)
        })?;
        if !plan.output.quiet && plan.output.path.as_deref().is_some_and(|p| !is_stdout(p)) {
            eprintln!("{}", crate::inert::terminal(&report.summary()));
        }
        return Ok(Outcome::Passed);
    }
    let found = bisector.search(entries, &Follow::Suite, &whole, first_check)?;
    let bisection = bisection(found);
    write_rendered(&plan.output, &|format, style, out| {
        render(&bisection, format, style, out)
    })?;
    if !plan.output.quiet && plan.output.path.as_deref().is_some_and(|p| !is_stdout(p)) {
        eprintln!("{}", crate::inert::terminal(&bisection.summary()));
    }
    Ok(Outcome::Passed)
}

fn short(sha: &str) -> String {
    sha.chars().take(10).collect()
}

/// The projected time left: the steps still possible times the time the first comparison took.
fn projected(per_comparison: Duration, bisector: &Bisector<'_>, left: usize) -> String {
    let steps = max_steps(left + 1);
    let secs = per_comparison.as_secs() * u64::from(steps);
    if bisector.quiet || secs == 0 {
        return String::new();
    }
    format!(
        ", at most {steps} step(s), about {}m {}s",
        secs / 60,
        secs % 60
    )
}

/// GOOD and BAD from `GOOD BAD` or `GOOD..BAD`.
pub(crate) fn endpoints(revisions: &[String]) -> Result<(String, String)> {
    let hint = "hint: name the last commit known good and the first known bad: `cargo speedup bisect \
                v1.2.0 HEAD` or `cargo speedup bisect v1.2.0..HEAD`";
    match revisions {
        [range] => match range.split_once("..") {
            Some((good, bad)) if !good.is_empty() && !bad.is_empty() && !bad.starts_with('.') => {
                Ok((good.to_string(), bad.to_string()))
            }
            _ => bail!("`{range}` is not GOOD..BAD\n{hint}"),
        },
        [good, bad] => Ok((good.clone(), bad.clone())),
        [] => bail!("bisect needs GOOD and BAD\n{hint}"),
        more => bail!(
            "bisect takes GOOD and BAD, {} revisions were given\n{hint}",
            more.len()
        ),
    }
}

/// Refuses a path that cannot be bisected: GOOD not an ancestor of BAD, or fewer than two commits.
fn check_path(path: &FirstParentPath, good: &str, bad: &str) -> Result<()> {
    if !path.ancestor {
        bail!(
            "GOOD `{good}` ({}) is not an ancestor of BAD `{bad}` ({}): there is no path from one to the \
             other to search\nhint: GOOD must be an earlier commit of BAD's history (`git merge-base \
             --is-ancestor {good} {bad}` tells); swap them if BAD is the older",
            short(&path.good.sha),
            short(&path.bad.sha)
        );
    }
    match path.commits.as_slice() {
        [] => bail!(
            "GOOD `{good}` and BAD `{bad}` are the same commit ({}): nothing to bisect\nhint: name the \
             last commit known good and the first known bad",
            short(&path.bad.sha)
        ),
        [only] => bail!(
            "`{good}..{bad}` holds one commit ({} \"{}\"): it is the only one that can have made the \
             change, nothing to bisect\nhint: compare them directly: `cargo speedup {good}..{bad}`",
            short(&only.sha),
            crate::inert::terminal(&only.subject)
        ),
        _ => Ok(()),
    }
}

/// Counts of several benchmarks, some changed, followed by the suite's verdict: refused (exit 2). HPT ranks
/// no count (`protocol::analyse`), so such a suite reads inconclusive and the bisection would find nothing
/// to follow; each count is its own exact verdict, which `--each` or `--filter` follows. The counts measured
/// are cached: the bisection asked again measures GOOD and BAD no more.
fn refuse_suite_of_counts((compared, changed): (usize, Vec<String>)) -> Result<()> {
    if compared < 2 || changed.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = changed
        .iter()
        .take(3)
        .map(|n| format!("`{}`", crate::inert::terminal(n)))
        .collect();
    let more = match changed.len() > 3 {
        true => format!(" and {} more", changed.len() - 3),
        false => String::new(),
    };
    bail!(
        "GOOD against BAD changed the instruction counts of {}{more} among {compared} benchmarks: a suite of \
         counts has no verdict of its own to follow (each count is compared exactly, none ranked by HPT)\n\
         hint: bisect each changed benchmark with --each, or one with --filter",
        names.join(", ")
    )
}

/// One comparison, measured: the suite as the analysis sees it (with the looks taken), and its options.
struct Compared {
    suite: Suite,
    options: Options,
}

impl Compared {
    /// What the comparison shows of what `follow` follows (`protocol::bisect::read`).
    fn reading(&self, follow: &Follow) -> Reading {
        bisect::read(&self.suite, &self.options, follow)
    }
}

/// A comparison that could not be measured because a commit does not build or its benchmarks fail: the
/// first line of why (the commit is then skipped).
type Unmeasured = String;

/// A comparison as kept for the run: measured, or why not.
type Kept = Rc<Result<Compared, Unmeasured>>;

/// What one search found.
struct Found {
    entries: Vec<PathEntry>,
    ending: Ending,
    skipped: Vec<(usize, String)>,
    comparisons: u32,
    named_change: Option<NamedChange>,
    more_steps: Option<MoreSteps>,
}

/// What measures the comparisons: the plan at the per-comparison confidence and the time spent. Every
/// comparison made is kept for the run (`memo`): a pair asked again, by the named commit's comparison with
/// its parent or by another benchmark's search under `--each`, is read again, not measured again, also
/// when `--budget` cut it short (the cache keys such runs by what was left of the budget, which changes).
struct Bisector<'a> {
    plan: &'a AnalysisPlan,
    run: RunOptions,
    started: Instant,
    quiet: bool,
    memo: RefCell<HashMap<(String, String), Kept>>,
    path: &'a FirstParentPath,
    direction: Direction,
    threshold: f64,
}

impl Bisector<'_> {
    fn say(&self, line: &str) {
        if !self.quiet {
            eprintln!("{line}");
        }
    }

    fn budget_spent(&self) -> bool {
        self.run
            .budget
            .is_some_and(|budget| self.started.elapsed() >= budget)
    }

    /// The benchmarks GOOD against BAD compared, and those of them it shows changed the way sought: the
    /// ones `--each` bisects (`protocol::bisect::changed_benchmarks`).
    fn changed_benchmarks(&self, whole: &Result<Compared, Unmeasured>) -> (usize, Vec<String>) {
        let Ok(compared) = whole else {
            return (0, vec![]);
        };
        changed_benchmarks(
            &compared.suite,
            &compared.options,
            self.direction,
            self.threshold,
        )
    }

    /// GOOD against BAD, the initial check: a commit of them that does not build is the revision form's
    /// error, not a skip.
    fn check(&self) -> Result<Kept> {
        let (good, bad) = (&self.path.good.sha, &self.path.bad.sha);
        let compared = Rc::new(Ok(self.measure(good, bad)?));
        self.memo
            .borrow_mut()
            .insert((good.clone(), bad.clone()), Rc::clone(&compared));
        Ok(compared)
    }

    /// Measures `later` against `earlier` (cached by `measure`, and kept for this run); a commit that does
    /// not build or whose benchmarks fail is the inner `Err`, with the first line of why.
    fn compare(&self, earlier: &str, later: &str) -> Result<Kept> {
        let key = (earlier.to_string(), later.to_string());
        if let Some(known) = self.memo.borrow().get(&key) {
            return Ok(Rc::clone(known));
        }
        let compared = Rc::new(match self.measure(earlier, later) {
            Ok(compared) => Ok(compared),
            Err(
                error @ (MeasureError::Build { .. }
                | MeasureError::BenchmarkFailed { .. }
                | MeasureError::NoBenchmarks { .. }
                | MeasureError::NoSamples { .. }),
            ) => {
                let why = error.to_string();
                Err(why.lines().next().unwrap_or_default().to_string())
            }
            Err(other) => return Err(other.into()),
        });
        self.memo.borrow_mut().insert(key, Rc::clone(&compared));
        Ok(compared)
    }

    fn measure(&self, earlier: &str, later: &str) -> Result<Compared, MeasureError> {
        let options = self.plan.options;
        let decide = |base: &Results, head: &Results, looks: u32| {
            let so_far = Suite {
                design: Design::measured(looks),
                ..Suite::pair(base.clone(), head.clone())
            };
            decide_look(&so_far, &options, self.run.look_plan.max())
        };
        let mut run = self.run.clone();
        run.budget = run
            .budget
            .map(|budget| budget.saturating_sub(self.started.elapsed()));
        let measured = measure::measure_revisions(
            &format!("{earlier}..{later}"),
            &run,
            &decide,
            &options.stopping_rule(),
        )?;
        let suite = Suite {
            identical: measured.identical,
            design: Design::measured(measured.looks),
            ..Suite::pair(measured.base, measured.head)
        };
        Ok(Compared { suite, options })
    }

    /// The search of the path for what `follow` follows, once GOOD against BAD showed `whole`: steps
    /// until a commit is named or the search stops, then the named commit against its parent.
    fn search(
        &self,
        mut entries: Vec<PathEntry>,
        follow: &Follow,
        whole: &Result<Compared, Unmeasured>,
        first_check: Duration,
    ) -> Result<Found> {
        let path = self.path;
        let commits = path.commits.len();
        let (direction, threshold) = (self.direction, self.threshold);
        let label = match follow {
            Follow::Suite => String::new(),
            Follow::Benchmark(name) => format!(" `{}`", crate::inert::terminal(name)),
        };
        let whole = match whole {
            Ok(compared) => compared.reading(follow),
            Err(why) => bail!("{why}"),
        };
        entries[commits].measured = Some(Measurement {
            speedup: whole.speedup,
            interval: whole.interval,
            against_good: Some(whole.verdict),
            against_bad: None,
            identical: whole.identical,
            step: None,
        });
        let mut steps = Steps {
            bisector: self,
            follow,
            entries: &mut entries,
            skipped: vec![],
            label,
            first_check,
        };
        let searched = bisect::search(commits, &whole, direction, threshold, &mut steps)?;
        let Steps { skipped, .. } = steps;
        let search = &searched.search;
        let ending = match searched.stopped {
            Stopped::Nothing => Ending::NothingToBisect,
            Stopped::Named(named) => Ending::Named(named),
            Stopped::Interval(cut) => Ending::Interval {
                good: search.good,
                bad: search.bad,
                cut,
            },
        };
        let named_change = match ending {
            Ending::Named(named) => self.against_parent(follow, &entries, named)?,
            _ => None,
        };
        Ok(Found {
            entries,
            ending,
            skipped,
            comparisons: search.comparisons,
            named_change,
            more_steps: searched.more_steps,
        })
    }

    /// The named commit against its parent on the path (the last commit known like GOOD, never a skipped
    /// one): a description of its own change, outside the error budget (`docs/bisect.md` §4). `None` when
    /// `--budget` is spent or the pair could not be measured.
    fn against_parent(
        &self,
        follow: &Follow,
        entries: &[PathEntry],
        named: usize,
    ) -> Result<Option<NamedChange>> {
        let parent = named - 1;
        if self.budget_spent() {
            return Ok(None);
        }
        if parent > 0 {
            self.say(&format!(
                "bisect: commit {named} ({}) against its parent ({})",
                short(&entries[named].sha),
                short(&entries[parent].sha)
            ));
        }
        let compared = self.compare(&entries[parent].sha, &entries[named].sha)?;
        Ok(compared.as_ref().as_ref().ok().map(|compared| {
            let reading = compared.reading(follow);
            NamedChange {
                parent,
                speedup: reading.speedup,
                interval: reading.interval,
                verdict: reading.verdict,
                identical: reading.identical,
            }
        }))
    }
}

/// One search's comparisons, measured by the bisector, and what its steps showed: each measured commit's
/// entry of the path, the commits skipped with why.
struct Steps<'a, 'b> {
    bisector: &'a Bisector<'b>,
    follow: &'a Follow,
    entries: &'a mut [PathEntry],
    skipped: Vec<(usize, String)>,
    /// ` `name`` when one benchmark is followed, for the progress lines.
    label: String,
    first_check: Duration,
}

impl Steps<'_, '_> {
    /// The commit at `index` of the path (0 GOOD, the last BAD).
    fn sha(&self, index: usize) -> &str {
        let path = self.bisector.path;
        match index {
            0 => &path.good.sha,
            i if i == path.commits.len() => &path.bad.sha,
            i => &self.entries[i].sha,
        }
    }
}

impl Comparisons for Steps<'_, '_> {
    type Error = anyhow::Error;

    fn compare(&mut self, earlier: usize, later: usize) -> Result<Result<Reading, String>> {
        let compared = self.bisector.compare(self.sha(earlier), self.sha(later))?;
        Ok(match compared.as_ref() {
            Ok(compared) => Ok(compared.reading(self.follow)),
            Err(why) => Err(why.clone()),
        })
    }

    fn spent(&self) -> bool {
        self.bisector.budget_spent()
    }

    fn starting(&mut self, step: usize, mid: usize, left: usize) {
        let commits = self.bisector.path.commits.len();
        self.bisector.say(&format!(
            "bisect{}: step {step}: commit {mid} of {commits} ({}), {left} commit(s) left{}",
            self.label,
            short(&self.entries[mid].sha),
            projected(self.first_check, self.bisector, left),
        ));
    }

    fn done(&mut self, mid: usize, step: Step, readings: &StepReadings) {
        self.entries[mid].measured = Some(match readings {
            Err(why) => {
                self.bisector.say(&format!(
                    "bisect: skipping {}: {why}",
                    short(&self.entries[mid].sha)
                ));
                self.skipped.push((mid, why.clone()));
                Measurement::skipped()
            }
            Ok((against_good, against_bad)) => Measurement {
                speedup: against_good.speedup,
                interval: against_good.interval,
                against_good: Some(against_good.verdict),
                against_bad: against_bad.map(|r| r.verdict),
                identical: against_good.identical || against_bad.is_some_and(|r| r.identical),
                step: Some(step),
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_suite_of_counts_is_followed_only_benchmark_by_benchmark() {
        assert!(refuse_suite_of_counts((1, words(&["a"]))).is_ok());
        assert!(refuse_suite_of_counts((5, vec![])).is_ok());
        let error = refuse_suite_of_counts((9, words(&["a", "b", "c", "d", "e"])))
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "GOOD against BAD changed the instruction counts of `a`, `b`, `c` and 2 more among 9 benchmarks: \
             a suite of counts has no verdict of its own to follow (each count is compared exactly, none \
             ranked by HPT)\nhint: bisect each changed benchmark with --each, or one with --filter"
        );
    }

    #[test]
    fn good_and_bad_are_read_from_two_words_or_a_range() {
        assert_eq!(
            endpoints(&words(&["v1", "HEAD"])).unwrap(),
            ("v1".into(), "HEAD".into())
        );
        assert_eq!(
            endpoints(&words(&["v1..main"])).unwrap(),
            ("v1".into(), "main".into())
        );
        let error = endpoints(&words(&["v1...main"])).unwrap_err().to_string();
        assert!(
            error.starts_with("`v1...main` is not GOOD..BAD\nhint: "),
            "{error}"
        );
        let error = endpoints(&words(&["a", "b", "c"])).unwrap_err().to_string();
        assert!(
            error.starts_with("bisect takes GOOD and BAD, 3 revisions were given\n"),
            "{error}"
        );
    }
}
