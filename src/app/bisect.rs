//! `cargo speedup bisect GOOD BAD`: find the commit of the first-parent path from GOOD to BAD after which
//! the benchmarks are slower (or faster), every step decided by the revision form's sequential verdict
//! (`docs/bisect.md`). This file only strings the stages together: the path comes from `measure`, each
//! comparison is `measure::measure_revisions` (cached, identical executables not run), the search (each
//! step's conclusion, the error budget, when to stop) is `protocol::bisect::search`, the report is
//! `report::bisect`'s.

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
use crate::plan::{AnalysisPlan, RacePlan};
use crate::protocol::bisect::{
    self, Comparisons, Cut, MoreSteps, Reading, Search, Shown, Step, StepReadings, Stopped,
    budgeted_comparisons, max_steps, more_steps, per_comparison_confidence,
};
use crate::protocol::sequential::decide_look;
use crate::protocol::{Direction, Options, Verdict, analyse};
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
        analysis: asked, ..
    } = RacePlan::from_args(&args.run, &args.analysis)?;
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

fn interval(search: &Search, why: String) -> Ending {
    Ending::Interval {
        good: search.good,
        bad: search.bad,
        why,
    }
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

/// What a bisection follows: the suite's verdict (or the one benchmark's, when one is compared), or one
/// named benchmark of the comparisons (`--each`).
enum Follow {
    /// The suite, or its only benchmark.
    Suite,
    /// The benchmark of this name.
    Benchmark(String),
}

/// One comparison, measured: the suite as the analysis sees it (with the looks taken), and its options.
struct Compared {
    suite: Suite,
    options: Options,
}

impl Compared {
    /// What the comparison shows of what `follow` follows.
    fn reading(&self, follow: &Follow) -> Reading {
        match follow {
            Follow::Suite => reading(&self.suite, &self.options),
            Follow::Benchmark(name) => benchmark_reading(&self.suite, &self.options, name),
        }
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

    /// The benchmarks GOOD against BAD compared, and those of them it shows changed the way sought
    /// (beyond the threshold), in the comparison's order: the ones `--each` bisects. A benchmark whose
    /// executables were identical shows no change.
    fn changed_benchmarks(&self, whole: &Result<Compared, Unmeasured>) -> (usize, Vec<String>) {
        let Ok(compared) = whole else {
            return (0, vec![]);
        };
        let analysis = analyse(&compared.suite, &compared.options);
        let changed = analysis
            .benchmarks
            .iter()
            .filter(|b| benchmark(b).shows(self.direction, self.threshold))
            .map(|b| b.name.clone())
            .collect();
        (
            analysis.benchmarks.len() + compared.suite.identical.len(),
            changed,
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
        let shown = vec![Shown {
            index: commits,
            against_good: whole,
            against_bad: None,
        }];
        let mut steps = Steps {
            bisector: self,
            follow,
            entries: &mut entries,
            shown,
            skipped: vec![],
            label,
            first_check,
        };
        let searched = bisect::search(commits, &whole, direction, threshold, &mut steps)?;
        let Steps { shown, skipped, .. } = steps;
        let search = &searched.search;
        let ending = match searched.stopped {
            Stopped::Nothing => Ending::NothingToBisect,
            Stopped::Named(named) => Ending::Named(named),
            Stopped::Interval(cut) => interval(search, self.cut(cut, &entries)),
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
            more_steps: more_steps(&shown, direction),
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

    /// Why the search stopped with commits left, in words.
    fn cut(&self, cut: Cut, entries: &[PathEntry]) -> String {
        match cut {
            Cut::AllSkipped => "every commit left between them was skipped".into(),
            Cut::ErrorBudget => format!(
                "the error budget of {} comparisons is spent",
                budgeted_comparisons(self.path.commits.len())
            ),
            Cut::TimeBudget => "the --budget is spent".into(),
            Cut::Undecided(mid) => format!(
                "the step at {} stayed undecided after the most runs (--max-runs)",
                short(&entries[mid].sha)
            ),
        }
    }
}

/// One search's comparisons, measured by the bisector, and what its steps showed: each measured commit's
/// entry of the path, the readings shown, the commits skipped with why.
struct Steps<'a, 'b> {
    bisector: &'a Bisector<'b>,
    follow: &'a Follow,
    entries: &'a mut [PathEntry],
    shown: Vec<Shown>,
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
            Ok((against_good, against_bad)) => {
                self.shown.push(Shown {
                    index: mid,
                    against_good: *against_good,
                    against_bad: *against_bad,
                });
                Measurement {
                    speedup: against_good.speedup,
                    interval: against_good.interval,
                    against_good: Some(against_good.verdict),
                    against_bad: against_bad.map(|r| r.verdict),
                    identical: against_good.identical || against_bad.is_some_and(|r| r.identical),
                    step: Some(step),
                }
            }
        });
    }
}

/// The verdict a comparison gives the bisection: the one benchmark's when one was compared, else the
/// suite's; every benchmark identical reads as unchanged, nothing run.
fn reading(suite: &Suite, options: &Options) -> Reading {
    if suite.pairs.is_empty() {
        return Reading {
            verdict: if suite.identical.is_empty() {
                Verdict::Inconclusive
            } else {
                Verdict::Unchanged
            },
            speedup: None,
            interval: None,
            identical: !suite.identical.is_empty(),
        };
    }
    let analysis = analyse(suite, options);
    match analysis.benchmarks.as_slice() {
        [one] => benchmark(one),
        _ => Reading {
            verdict: analysis.verdict,
            speedup: analysis.suite.overall.map(|o| o.median.speedup),
            interval: None,
            identical: false,
        },
    }
}

/// One benchmark's reading.
fn benchmark(one: &crate::protocol::BenchmarkAnalysis) -> Reading {
    Reading {
        verdict: one.verdict,
        speedup: Some(one.speedup.median),
        // The median protocol's 1 − alpha interval, not the printed 1 − 2 alpha one: the `levels` evidence
        // (`docs/bisect.md` §3) reads non-overlap at that level as its conservative sign of a difference.
        interval: one.median_test.speedup_interval,
        identical: false,
    }
}

/// The reading of the benchmark `name` in a comparison of several (`--each`): its own verdict (at the
/// comparison's confidence, corrected for the looks; not Holm-corrected across the suite: each benchmark
/// is its own search), unchanged when its executables were identical, inconclusive when the comparison
/// does not hold it.
fn benchmark_reading(suite: &Suite, options: &Options, name: &str) -> Reading {
    if suite.identical.iter().any(|n| n == name) {
        return Reading {
            verdict: Verdict::Unchanged,
            speedup: None,
            interval: None,
            identical: true,
        };
    }
    let analysis = analyse(suite, options);
    analysis.benchmarks.iter().find(|b| b.name == name).map_or(
        Reading {
            verdict: Verdict::Inconclusive,
            speedup: None,
            interval: None,
            identical: false,
        },
        benchmark,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// One benchmark, 5 runs per side, every HEAD run 10 % slower than every BASE run: the rank-sum p is
    /// 1/C(10, 5) = 1/252, shown slower at 0.95.
    fn one_benchmark(base: f64, head: f64) -> Suite {
        use crate::model::{Run, Runs, Sample, Unit};
        use crate::testutil::simulated_results as results;
        let runs = |level: f64| {
            let runs = (0..5)
                .map(|i| {
                    let values = vec![
                        level + f64::from(i) * 0.1,
                        level + f64::from(i) * 0.1 + 0.05,
                    ];
                    Run::new(Sample::new(values, Unit::Ns).unwrap(), None)
                })
                .collect();
            Runs::new(runs).unwrap()
        };
        Suite::pair(
            results(vec![("b".into(), runs(base))]),
            results(vec![("b".into(), runs(head))]),
        )
    }

    #[test]
    fn one_benchmark_reads_its_own_verdict_and_identical_executables_read_as_unchanged() {
        let options = Options::defaults(crate::protocol::FailOn::Suite);
        let slower = reading(&one_benchmark(100.0, 110.0), &options);
        assert_eq!(slower.verdict, Verdict::Slower);
        assert!(!slower.identical);
        let speedup = slower.speedup.unwrap();
        assert!((0.88..0.93).contains(&speedup), "{speedup}");
        let mut identical = one_benchmark(100.0, 100.0);
        identical.identical = vec!["b".into()];
        identical.pairs.clear();
        let read = reading(&identical, &options);
        assert_eq!(read.verdict, Verdict::Unchanged);
        assert!(read.identical);
    }

    #[test]
    fn each_benchmark_reads_its_own_verdict_identical_as_unchanged_and_absent_as_inconclusive() {
        let options = Options::defaults(crate::protocol::FailOn::Suite);
        let mut suite = one_benchmark(100.0, 110.0);
        suite.identical = vec!["same".into()];
        let b = benchmark_reading(&suite, &options, "b");
        assert_eq!(b.verdict, Verdict::Slower);
        let (low, high) = b.interval.expect("one benchmark's interval");
        assert!(low < high && high < 1.0, "{low} {high}");
        let same = benchmark_reading(&suite, &options, "same");
        assert_eq!((same.verdict, same.identical), (Verdict::Unchanged, true));
        let gone = benchmark_reading(&suite, &options, "gone");
        assert_eq!((gone.verdict, gone.speedup), (Verdict::Inconclusive, None));
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
