//! What the bench files' settings cost: the warning of a rewrite (before the first look), the
//! warning of runs measured longer than requested (after it), and the projection of the plan's duration.
//!
//! The projection is the runs' time only, builds aside: revisions x runs x benchmarks x the length of one
//! run of one benchmark (warm-up + measurement). That length is the request, or, when the settings are
//! kept, the bench files' literal settings (the longest of a target's, for every benchmark of the target),
//! or, after the first look, what the runs measured. Plain `cargo bench` runs are estimated from
//! criterion's defaults, 3 s + 5 s per benchmark, or from the bench files' literal settings (those of a
//! `criterion_group!` config too, which plain runs honour), one run per revision.
//!
//! The causes and their numbers are computed here and worded in `report/words/bench_settings.rs`; the
//! texts returned are what the user reads, on stderr and in the report.
//!
//! Must not: decide anything, or word a cause itself.

use super::BenchSettings;
use super::calls::CriterionSetting;
use super::length::{Classified, RunLength, median, summarise};
use super::scan::Found;
use crate::measure::settings::RunOptions;
use crate::report::words::bench_settings::{
    Kept, LongCause, LongRuns, Projection, Rewrite, SetTo, SettingCall, long_runs_warning,
    projection_note, rewrite_warning,
};

/// criterion's own warm-up and measurement times, what a plain `cargo bench` run takes per benchmark.
const CRITERION_WARM_UP_SECS: f64 = 3.0;
const CRITERION_MEASUREMENT_SECS: f64 = 5.0;

/// What the runs of a comparison will be.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunPlan {
    /// The revisions measured (2 for a comparison).
    pub revisions: usize,
    /// Runs per revision before the first look.
    pub first_look: u32,
    /// Runs per revision at most.
    pub max_runs: u32,
    /// The benchmarks of each bench target, as many as are known.
    pub benchmarks: Vec<(String, usize)>,
    /// `--budget`, in seconds.
    pub budget_secs: Option<f64>,
    /// Bench targets whose runs' length is set elsewhere and said apart (criterion before 0.4 takes whole
    /// seconds: `run::looks`): their calls are not said to cost, nor their runs to be long.
    pub told_apart: Vec<String>,
}

impl RunPlan {
    fn count(&self) -> usize {
        self.benchmarks.iter().map(|(_, n)| n).sum()
    }
}

impl BenchSettings {
    /// The length of one run of one benchmark of `target`, in seconds: the request, or the bench files'
    /// literal settings when they are kept (the request where they are not literal).
    pub(crate) fn run_secs(&self, target: &str) -> f64 {
        let requested = self.requested.warm_up_secs + self.requested.measurement_secs;
        match self.keeps() {
            true => self.kept_secs(target).unwrap_or(requested),
            false => requested,
        }
    }

    /// Whether [`before_runs`](Self::before_runs) may have something to say given the benchmarks' number:
    /// a setting was found, a budget is set, or a run of the requested length, repeated up to the cap, may
    /// outlast criterion's default run (without a setting, the benchmarks' number does not matter then).
    pub(crate) fn may_tell(&self, options: &RunOptions) -> bool {
        let requested = self.requested.warm_up_secs + self.requested.measurement_secs;
        !self.found.is_empty()
            || options.budget.is_some()
            || f64::from(options.look_plan.max()) * requested
                > CRITERION_WARM_UP_SECS + CRITERION_MEASUREMENT_SECS
    }

    /// Whether the runs keep the bench files' settings.
    fn keeps(&self) -> bool {
        self.keep || self.kept_because.is_some()
    }

    /// One run of one benchmark of `target` as the bench files' overriding calls set it; `None` when one of
    /// them is not a literal.
    fn kept_secs(&self, target: &str) -> Option<f64> {
        let longest = |method: CriterionSetting, requested: f64| -> Option<f64> {
            self.overriding(target)
                .filter(|f| f.method == method)
                .try_fold(requested, |most, f| Some(most.max(f.value?)))
        };
        Some(
            longest(CriterionSetting::WarmUpTime, self.requested.warm_up_secs)?
                + longest(
                    CriterionSetting::MeasurementTime,
                    self.requested.measurement_secs,
                )?,
        )
    }

    /// One benchmark of `target` in a plain `cargo bench` run: criterion's defaults, or the bench files'
    /// literal times (configs included).
    fn plain_secs(&self, target: &str) -> f64 {
        let longest = |method: CriterionSetting, default: f64| {
            let set: Vec<f64> = self
                .found
                .iter()
                .filter(|f| f.target == target && f.method == method)
                .filter_map(|f| f.value)
                .collect();
            set.into_iter().reduce(f64::max).unwrap_or(default)
        };
        longest(CriterionSetting::WarmUpTime, CRITERION_WARM_UP_SECS)
            + longest(
                CriterionSetting::MeasurementTime,
                CRITERION_MEASUREMENT_SECS,
            )
    }

    fn overriding<'a>(&'a self, target: &'a str) -> impl Iterator<Item = &'a Found> + 'a {
        self.found
            .iter()
            .filter(move |f| !f.in_config && f.target == target)
    }

    /// The overriding calls of the plan's targets (of every target when the plan knows none), but for
    /// those told apart.
    fn overriding_in(&self, plan: &RunPlan) -> Vec<&Found> {
        self.found
            .iter()
            .filter(|f| !f.in_config && !plan.told_apart.contains(&f.target))
            .filter(|f| {
                plan.benchmarks.is_empty() || plan.benchmarks.iter().any(|(t, _)| *t == f.target)
            })
            .collect()
    }

    /// The runs' time at `runs` runs per revision, each benchmark's run taking `secs(target)`.
    fn projected(&self, plan: &RunPlan, runs: u32, secs: &dyn Fn(&str) -> f64) -> f64 {
        plan.benchmarks
            .iter()
            .map(|(target, n)| *n as f64 * secs(target))
            .sum::<f64>()
            * plan.revisions as f64
            * f64::from(runs)
    }

    fn plain(&self, plan: &RunPlan) -> f64 {
        self.projected(plan, 1, &|t| self.plain_secs(t))
    }

    /// Before the first look: notes for stderr only (the projection, when it exceeds the budget or the
    /// plain runs), and the warning of the rewrite, for stderr and the report.
    pub(crate) fn before_runs(&self, plan: &RunPlan) -> (Vec<String>, Vec<String>) {
        let notes = self.projection(plan).iter().map(projection_note).collect();
        let warnings = self.rewrite(plan).iter().map(rewrite_warning).collect();
        (notes, warnings)
    }

    /// The plan's runs projected at the cap, when they may outlast the plain runs or the budget.
    fn projection(&self, plan: &RunPlan) -> Option<Projection> {
        let at_most = self.projected(plan, plan.max_runs, &|t| self.run_secs(t));
        let plain = self.plain(plan);
        let over_budget = plan.budget_secs.filter(|&b| at_most > b);
        (plan.count() > 0 && (at_most > plain || over_budget.is_some())).then(|| Projection {
            at_most_secs: at_most,
            revisions: plan.revisions,
            max_runs: plan.max_runs,
            benchmarks: plan.count(),
            per_run_secs: at_most
                / (plan.revisions as f64 * f64::from(plan.max_runs) * plan.count() as f64),
            plain_secs: plain,
            over_budget_secs: over_budget,
            first_look_secs: self.projected(plan, plan.first_look, &|t| self.run_secs(t)),
        })
    }

    /// The rewrite of the plan's overriding calls, when some side's were rewritten.
    fn rewrite(&self, plan: &RunPlan) -> Option<Rewrite> {
        let calls = self.overriding_in(plan);
        if !self.rewritten || calls.is_empty() {
            return None;
        }
        let r = &self.requested;
        let at_most = self.projected(plan, plan.max_runs, &|t| self.run_secs(t));
        let kept: Option<f64> = plan
            .benchmarks
            .iter()
            .map(|(t, _)| self.kept_secs(t))
            .collect::<Option<Vec<f64>>>()
            .map(|_| self.projected(plan, plan.max_runs, &|t| self.kept_secs(t).unwrap_or(0.0)));
        Some(Rewrite {
            calls: setting_calls(&calls),
            warm_up_secs: r.warm_up_secs,
            measurement_secs: r.measurement_secs,
            sample_size: r.sample_size,
            kept_cost: kept
                .filter(|_| plan.count() > 0)
                .map(|kept| (kept, at_most)),
        })
    }

    /// After the first look, given every run's lengths so far: the warning when the runs measured more
    /// than twice the requested time because a bench file set it (`length`).
    pub(crate) fn after_first_look(
        &self,
        lengths: &[Vec<RunLength>],
        plan: &RunPlan,
    ) -> Option<String> {
        self.long_runs(lengths, plan).map(|l| long_runs_warning(&l))
    }

    /// The runs measured more than twice the requested time, what set their length and what they cost.
    fn long_runs(&self, lengths: &[Vec<RunLength>], plan: &RunPlan) -> Option<LongRuns> {
        let r = &self.requested;
        let summaries = summarise(lengths, r.measurement_secs, r.sample_size);
        let long: Vec<f64> = summaries
            .iter()
            .filter(|s| s.classified == Classified::Overridden)
            .map(|s| s.median_secs)
            .collect();
        if long.is_empty() {
            return None;
        }
        let warm = match self.keeps() {
            true => plan
                .benchmarks
                .iter()
                .flat_map(|(t, _)| self.overriding(t))
                .filter(|f| f.method == CriterionSetting::WarmUpTime)
                .filter_map(|f| f.value)
                .fold(r.warm_up_secs, f64::max),
            false => r.warm_up_secs,
        };
        let per_revision_run: f64 = summaries.iter().map(|s| s.median_secs + warm).sum();
        let calls = self.overriding_in(plan);
        // Long runs of the targets told apart are explained where they are said.
        if calls.is_empty() && !plan.told_apart.is_empty() {
            return None;
        }
        let cause = match (calls.is_empty(), self.keeps()) {
            (false, true) => LongCause::Kept {
                why: self.kept_because.unwrap_or(Kept::ByFlag),
                calls: setting_calls(&calls),
            },
            (false, false) => LongCause::NotReached {
                calls: setting_calls(&calls),
            },
            (true, _) => LongCause::NotFound,
        };
        Some(LongRuns {
            long: long.len(),
            measured: summaries.len(),
            median_secs: median(long),
            requested_secs: r.measurement_secs,
            cause,
            at_most_secs: per_revision_run * plan.revisions as f64 * f64::from(plan.max_runs),
            revisions: plan.revisions,
            max_runs: plan.max_runs,
            per_run_secs: per_revision_run / summaries.len() as f64,
            plain_secs: self.plain(plan),
            keep_flag: self.keep,
        })
    }
}

/// `calls` as the words list them: sorted by file, line and method, without repeats.
fn setting_calls(calls: &[&Found]) -> Vec<SettingCall> {
    let mut sorted: Vec<&&Found> = calls.iter().collect();
    sorted.sort_by(|a, b| (&a.file, a.line, a.method).cmp(&(&b.file, b.line, b.method)));
    sorted.dedup_by(|a, b| (&a.file, a.line, a.method) == (&b.file, b.line, b.method));
    sorted
        .into_iter()
        .map(|f| SettingCall {
            file: f.file.clone(),
            line: f.line,
            method: f.method.name(),
            value: match (f.method, f.value) {
                (_, None) => SetTo::Expression,
                (CriterionSetting::SampleSize, Some(n)) => SetTo::Count(n),
                (_, Some(secs)) => SetTo::Seconds(secs),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::calls::REQUESTED;
    use super::*;
    use std::path::PathBuf;

    fn found(
        target: &str,
        line: usize,
        method: CriterionSetting,
        value: Option<f64>,
        in_config: bool,
    ) -> Found {
        Found {
            target: target.into(),
            file: PathBuf::from("benches/benchmarks.rs"),
            method,
            line,
            in_config,
            value,
        }
    }

    /// base64 0.23.1's four calls, as `calls` finds them.
    fn base64(keep: bool, rewritten: bool) -> BenchSettings {
        BenchSettings {
            keep,
            package: None,
            benches: vec![],
            requested: REQUESTED,
            found: vec![
                found(
                    "benchmarks",
                    192,
                    CriterionSetting::WarmUpTime,
                    Some(0.5),
                    false,
                ),
                found(
                    "benchmarks",
                    193,
                    CriterionSetting::MeasurementTime,
                    Some(3.0),
                    false,
                ),
                found(
                    "benchmarks",
                    250,
                    CriterionSetting::WarmUpTime,
                    Some(0.5),
                    false,
                ),
                found(
                    "benchmarks",
                    251,
                    CriterionSetting::MeasurementTime,
                    Some(3.0),
                    false,
                ),
            ],
            rewritten,
            kept_because: None,
        }
    }

    fn plan() -> RunPlan {
        RunPlan {
            revisions: 2,
            first_look: 6,
            max_runs: 24,
            benchmarks: vec![("benchmarks".into(), 8)],
            budget_secs: None,
            told_apart: vec![],
        }
    }

    #[test]
    fn a_rewrite_is_told_with_its_lines_and_what_keeping_would_cost() {
        let (notes, warnings) = base64(false, true).before_runs(&plan());
        // At the cap 2 x 24 x 8 x 0.3 s = 115 s: more than two plain runs at the file's own 0.5 s + 3 s
        // (2 x 8 x 3.5 s = 56 s), so the projection is shown.
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(
            notes[0],
            "note: this plan's runs may take up to 115 s (2 revisions x 24 runs x 8 benchmarks x 0.3 s per \
             run), more than 2 plain `cargo bench` runs (about 56 s); the first look comes after 29 s"
        );
        assert_eq!(
            warnings,
            [
                "the bench files set criterion's run length themselves, which criterion lets override the \
              command line: benches/benchmarks.rs:192 warm_up_time(0.5 s), benches/benchmarks.rs:193 \
              measurement_time(3 s), benches/benchmarks.rs:250 warm_up_time(0.5 s), \
              benches/benchmarks.rs:251 measurement_time(3 s); cargo speedup rewrote these calls to the \
              requested 0.1 s warm-up, 0.2 s measurement and 10 samples in its own copies of the \
              revisions, identically on every side (your files are untouched), so that a run takes about \
              0.3 s per benchmark; kept, they would make this plan's runs take up to 22 min \
              instead of 115 s; `--keep-bench-settings` keeps them"
            ]
        );
    }

    #[test]
    fn kept_settings_are_projected_at_their_length_before_the_first_look() {
        let (notes, warnings) = base64(true, false).before_runs(&plan());
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(
            notes[0].starts_with(
                "note: this plan's runs may take up to 22 min (2 revisions x 24 runs x 8 \
                 benchmarks x 3.5 s per run)"
            ),
            "{notes:?}"
        );
        let mut budget = plan();
        budget.budget_secs = Some(600.0);
        let (notes, _) = base64(true, false).before_runs(&budget);
        assert!(
            notes[0].contains("and more than --budget (10 min)"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_plan_within_plain_runs_and_budget_shows_no_projection() {
        let mut settings = base64(false, false);
        settings.found.clear();
        let mut short = plan();
        short.max_runs = 12;
        // 2 x 12 x 8 x 0.3 s = 58 s against 2 x 8 x 8 s = 128 s.
        let (notes, warnings) = settings.before_runs(&short);
        assert!(
            notes.is_empty() && warnings.is_empty(),
            "{notes:?} {warnings:?}"
        );
    }

    fn run(name: &str, first: f64, secs: f64) -> RunLength {
        RunLength {
            name: name.into(),
            samples: 10,
            first_iterations: first,
            measured_secs: secs,
        }
    }

    #[test]
    fn runs_measured_at_the_files_length_are_told_with_the_cost_and_choices() {
        let runs: Vec<Vec<RunLength>> = (0..6)
            .map(|_| {
                (0..8)
                    .map(|i| run(&format!("encode/{i}"), 40_000.0, 3.0))
                    .collect()
            })
            .collect();
        let told = base64(true, false)
            .after_first_look(&runs, &plan())
            .unwrap();
        assert_eq!(
            told,
            "8 of 8 benchmarks measured 3 s per run (median), more than twice the requested 0.2 s: the \
             bench files set their own run length, kept with --keep-bench-settings \
             (benches/benchmarks.rs:192 warm_up_time(0.5 s), benches/benchmarks.rs:193 \
             measurement_time(3 s), benches/benchmarks.rs:250 warm_up_time(0.5 s), \
             benches/benchmarks.rs:251 measurement_time(3 s)); at this length the plan's runs take up \
             to 22 min (2 revisions x 24 runs x 8 benchmarks x 3.5 s per run, warm-up included), \
             where 2 plain `cargo bench` runs take about 56 s; leave out --keep-bench-settings and \
             cargo speedup rewrites them to the requested length in its own copies of the revisions; or \
             bound the comparison with --fixed --runs N or --budget"
        );
        // Runs of the requested length, or long only because their iterations are slow, are not told.
        let short: Vec<Vec<RunLength>> = vec![vec![run("a", 2000.0, 0.2), run("slow", 1.0, 0.9)]];
        assert_eq!(base64(true, false).after_first_look(&short, &plan()), None);
    }

    #[test]
    fn a_target_told_apart_is_neither_said_rewritten_nor_said_to_run_long() {
        // criterion 0.3 (httparse 1.10.1): its runs take whole seconds, said apart; its file's calls were
        // still rewritten, but neither the rewrite's cost nor its long runs are put on them.
        let apart = RunPlan {
            told_apart: vec!["benchmarks".into()],
            ..plan()
        };
        let long: Vec<Vec<RunLength>> = vec![vec![run("encode/0", 40_000.0, 1.0)]];
        let settings = base64(false, true);
        assert!(!settings.before_runs(&plan()).1.is_empty());
        assert_eq!(settings.before_runs(&apart).1, Vec::<String>::new());
        assert!(settings.after_first_look(&long, &plan()).is_some());
        assert_eq!(settings.after_first_look(&long, &apart), None);
    }

    #[test]
    fn long_runs_of_a_plan_that_listed_no_benchmark_give_no_plain_estimate() {
        // A fixed plan lists no benchmark before its runs: the plain runs cannot be estimated, and an
        // empty sum of seconds is -0.
        let unlisted = RunPlan {
            benchmarks: vec![],
            ..plan()
        };
        let long: Vec<Vec<RunLength>> = vec![vec![run("encode/0", 40_000.0, 3.0)]];
        let told = base64(true, false)
            .after_first_look(&long, &unlisted)
            .unwrap();
        assert!(!told.contains("plain `cargo bench`"), "{told}");
        assert!(!told.contains("-0"), "{told}");
        let listed = base64(true, false)
            .after_first_look(&long, &plan())
            .unwrap();
        assert!(
            listed.contains("where 2 plain `cargo bench` runs take about"),
            "{listed}"
        );
    }

    #[test]
    fn long_runs_without_a_call_found_say_where_cargo_speedup_looks() {
        let mut settings = base64(false, false);
        settings.found.clear();
        let runs = vec![vec![run("a", 500.0, 1.0)]];
        let told = settings.after_first_look(&runs, &plan()).unwrap();
        assert!(
            told.contains(
                "where cargo speedup does not find it (it rewrites the `measurement_time(`"
            ),
            "{told}"
        );
        assert!(
            told.contains("remove the settings from the bench files"),
            "{told}"
        );
    }

    #[test]
    fn the_benchmarks_are_counted_only_when_the_projection_may_say_something() {
        let options = |runs: i64, budget: Option<&str>| {
            let args = crate::cli::RunArgs {
                runs: Some(runs),
                fixed: true,
                budget: budget.map(str::to_string),
                ..Default::default()
            };
            crate::plan::run_options(&args, false, None).unwrap()
        };
        let mut plain = base64(false, false);
        assert!(plain.may_tell(&options(10, None)));
        plain.found.clear();
        // 10 runs of 0.3 s stay under criterion's 8 s per benchmark, whatever the number of benchmarks.
        assert!(!plain.may_tell(&options(10, None)));
        assert!(plain.may_tell(&options(30, None)));
        assert!(plain.may_tell(&options(10, Some("10m"))));
    }
}
