//! `cargo speedup bisect GOOD BAD`: find the commit of the first-parent path from GOOD to BAD after which
//! the benchmarks are slower (or faster), every step decided by the revision form's sequential verdict
//! (`docs/bisect.md`). This file only strings the stages together: the path comes from `measure`, each
//! comparison is `measure::measure_revisions` (cached, identical executables not run), each step's
//! conclusion and the error budget are `protocol::bisect`'s, the report is `report::bisect`'s.

use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::compare::{check_report_outputs, write_rendered};
use super::{Outcome, is_stdout, manifest};
use crate::cli::BisectArgs;
use crate::measure::{self, FirstParentPath, MeasureError, RunOptions};
use crate::model::{Results, Suite};
use crate::plan::{AnalysisPlan, RacePlan};
use crate::protocol::bisect::{
    Reading, Search, Step, budgeted_comparisons, classify, max_steps, per_comparison_confidence,
};
use crate::protocol::sequential::open_benchmarks;
use crate::protocol::{Direction, Options, Verdict, analyse};
use crate::report::bisect::{Bisection, Ending, Measurement, PathEntry, render};

/// `bisect`: check the options, list the path, check that GOOD against BAD shows the change, search,
/// report. Exits 0 whenever it ran, also with nothing to bisect.
pub fn bisect(args: &BisectArgs) -> Result<Outcome> {
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
    let confidence = asked.options.confidence.level();
    let each = per_comparison_confidence(confidence, commits);
    let mut analysis_args = args.analysis.clone();
    analysis_args.confidence = each;
    let RacePlan {
        analysis: plan,
        run,
    } = RacePlan::from_args(&args.run, &analysis_args)?;
    let mut entries: Vec<PathEntry> = std::iter::once(&path.good)
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
    };
    let threshold = plan.options.threshold.pct();
    let mut search = Search::new(commits);
    let mut skipped = vec![];
    let mut steps = 0;
    bisector.say(&format!(
        "bisect: {commits} commits on the first-parent path; checking GOOD against BAD, each comparison \
         at confidence {each:.4}"
    ));
    let whole = bisector.compare(&path.good.sha, &path.bad.sha)?;
    entries[commits].measured = Some(Measurement {
        speedup: whole.speedup,
        interval: whole.interval,
        against_good: Some(whole.verdict),
        against_bad: None,
        identical: whole.identical,
        step: None,
    });
    let first_check = bisector.started.elapsed();
    let ending = if !whole.shows(direction, threshold) {
        Ending::NothingToBisect
    } else {
        loop {
            if let Some(named) = search.named() {
                break Ending::Named(named);
            }
            let Some(mid) = search.next() else {
                break interval(&search, "every commit left between them was skipped".into());
            };
            if !search.within_budget(commits, 1) {
                break interval(
                    &search,
                    format!(
                        "the error budget of {} comparisons is spent",
                        budgeted_comparisons(commits)
                    ),
                );
            }
            if bisector.budget_spent() {
                break interval(&search, "the --budget is spent".into());
            }
            let left = search.bad - search.good - 1;
            steps += 1;
            bisector.say(&format!(
                "bisect: step {steps}: commit {mid} of {commits} ({}), {left} commit(s) left{}",
                short(&entries[mid].sha),
                projected(first_check, &bisector, left),
            ));
            let (step, measurement) = bisector.step(
                &path,
                &entries[mid].sha,
                direction,
                threshold,
                &mut search,
                commits,
            )?;
            if let Some(why) = &measurement.1 {
                skipped.push((mid, why.clone()));
            }
            entries[mid].measured = Some(measurement.0);
            search.record(mid, step);
            if step == Step::Undecided {
                break interval(
                    &search,
                    format!(
                        "the step at {} stayed undecided after the most runs (--max-runs)",
                        short(&entries[mid].sha)
                    ),
                );
            }
        }
    };
    let bisection = Bisection {
        direction,
        threshold_pct: threshold,
        confidence,
        comparison_confidence: each,
        budgeted: budgeted_comparisons(commits),
        comparisons: search.comparisons,
        path: entries,
        ending,
        skipped,
    };
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

/// What measures the comparisons: the plan at the per-comparison confidence and the time spent.
struct Bisector<'a> {
    plan: &'a AnalysisPlan,
    run: RunOptions,
    started: Instant,
    quiet: bool,
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

    /// Measures `later` against `earlier` (cached by `measure`) and reads the verdict.
    fn compare(&self, earlier: &str, later: &str) -> Result<Reading, MeasureError> {
        let options = self.plan.options;
        let decide = |base: &Results, head: &Results, looks: u32| {
            let options = Options { looks, ..options };
            open_benchmarks(
                &Suite::pair(base.clone(), head.clone()),
                &options,
                self.run.look_plan.max(),
            )
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
        let mut suite = Suite::pair(measured.base, measured.head);
        suite.identical = measured.identical;
        Ok(reading(
            &suite,
            &Options {
                looks: measured.looks,
                ..options
            },
        ))
    }

    /// One step at `mid`: against GOOD, then, when that does not decide, against BAD. A midpoint that
    /// does not build or whose benchmarks fail is skipped, with why.
    fn step(
        &self,
        path: &FirstParentPath,
        mid: &str,
        direction: Direction,
        threshold: f64,
        search: &mut Search,
        commits: usize,
    ) -> Result<(Step, (Measurement, Option<String>))> {
        let skipped = |error: MeasureError| -> Result<(Step, (Measurement, Option<String>))> {
            match error {
                MeasureError::Build { .. }
                | MeasureError::BenchmarkFailed { .. }
                | MeasureError::NoBenchmarks { .. }
                | MeasureError::NoSamples { .. } => {
                    let why = error.to_string();
                    let first = why.lines().next().unwrap_or_default().to_string();
                    self.say(&format!("bisect: skipping {}: {first}", short(mid)));
                    Ok((
                        Step::Skipped,
                        (
                            Measurement {
                                speedup: None,
                                interval: None,
                                against_good: None,
                                against_bad: None,
                                identical: false,
                                step: Some(Step::Skipped),
                            },
                            Some(first),
                        ),
                    ))
                }
                other => Err(other.into()),
            }
        };
        let against_good = match self.compare(&path.good.sha, mid) {
            Ok(reading) => reading,
            Err(error) => return skipped(error),
        };
        search.comparisons += 1;
        let mut step = classify(&against_good, None, direction, threshold);
        let mut against_bad = None;
        if step == Step::Undecided && search.within_budget(commits, 1) && !self.budget_spent() {
            let reading = match self.compare(mid, &path.bad.sha) {
                Ok(reading) => reading,
                Err(error) => return skipped(error),
            };
            search.comparisons += 1;
            step = classify(&against_good, Some(&reading), direction, threshold);
            against_bad = Some(reading);
        }
        Ok((
            step,
            (
                Measurement {
                    speedup: against_good.speedup,
                    interval: against_good.interval,
                    against_good: Some(against_good.verdict),
                    against_bad: against_bad.map(|r| r.verdict),
                    identical: against_good.identical || against_bad.is_some_and(|r| r.identical),
                    step: Some(step),
                },
                None,
            ),
        ))
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
        [one] => Reading {
            verdict: one.verdict,
            speedup: Some(one.speedup.median),
            interval: one.median_test.speedup_interval,
            identical: false,
        },
        _ => Reading {
            verdict: analysis.verdict,
            speedup: analysis.suite.overall.map(|o| o.median.speedup),
            interval: None,
            identical: false,
        },
    }
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
        use crate::protocol::simulation::results;
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
