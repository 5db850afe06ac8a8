//! The running options, validated once: what to build (package, bench targets, features) and how to run
//! it (criterion's filter and per-run times, the number of process runs, the seed of their order).
//!
//! Defaults (`docs/replication.md` §3): many short runs rather than a few long ones, because the level of a
//! benchmark moves more from one process to the next than the samples inside one process vary; only runs
//! average that movement out (Kalibera & Jones, ISMM 2013: repeat at the level where the variance is).
//! 10 runs per revision let the median protocol reach 0.99 and HPT's per-benchmark rank-sum test reject at
//! 0.05; each run warms up 0.3 s and measures 0.5 s in 10 samples (criterion's minimum; the run's value is
//! their median), so a benchmark costs 2 x 10 x 0.8 s = 16 s for both revisions: what two plain
//! `cargo bench` runs spend on it with criterion's 3 s + 5 s.

use std::time::Duration;

use crate::cli::RunArgs;
use crate::protocol::sequential::LookPlan;
use crate::stats::rank_sum::can_reject;

use super::MeasureError;

/// Process runs per revision of a fixed plan (`--fixed`, `record`) when `--runs` is not given.
pub const DEFAULT_RUNS: u32 = 10;
/// The fewest runs before the first look of a race when `--runs` is not given: 5 per side, or more when the
/// per-look risk needs it (the rank-sum test of n against n runs reaches p = 1/C(2n, n) at best).
pub const DEFAULT_FIRST_LOOK: u32 = 5;
/// `--max-runs` is this many times `--runs` when not given: looks at n, 2n and 4n.
pub const DEFAULT_MAX_FACTOR: u32 = 4;
/// criterion `--warm-up-time` per run when not given.
pub const DEFAULT_WARM_UP_SECS: f64 = 0.3;
/// criterion `--measurement-time` per run when not given.
pub const DEFAULT_MEASUREMENT_SECS: f64 = 0.5;
/// criterion `--sample-size` per run when not given: criterion's minimum.
pub const DEFAULT_SAMPLE_SIZE: u32 = 10;
/// The most layouts a bench executable gets by default: one per run up to this many, then the runs go
/// round-robin over them. Each layout is a copy of the executable on disk; linking one costs about 0.1 s
/// (`layout`).
pub const DEFAULT_MAX_LAYOUTS: u32 = 20;
/// criterion `--nresamples` per run: its bootstrap estimates are not used (each run's value is the median of
/// its samples), so it is kept small to save its time.
const NRESAMPLES: u32 = 1000;

/// Validated running options.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    pub package: Option<String>,
    pub benches: Vec<String>,
    pub features: Option<String>,
    pub filter: Option<String>,
    /// Process runs per revision at the first look (all of them for a fixed plan), >= 2.
    pub runs: u32,
    /// When to look at the runs and decide (`protocol::sequential`); one look for a fixed plan.
    pub plan: LookPlan,
    /// `--budget`: the time the whole comparison may take.
    pub budget: Option<Duration>,
    /// The seed of the blocks' order.
    pub seed: u64,
    /// The seed as given by `--seed`, if it was.
    pub given_seed: Option<u64>,
    pub warm_up_secs: f64,
    pub measurement_secs: f64,
    /// `None`: criterion's own (the benchmark's configuration, 100 by default).
    pub sample_size: u32,
    /// Linked layouts per bench executable (`docs/replication.md` §4), in 1..=runs; 1 runs the executable
    /// as built only (`--layouts fixed`).
    pub layouts: u32,
    pub rerun: bool,
    /// Measure even the bench targets whose executables BASE and HEAD share byte for byte.
    pub run_identical: bool,
    pub quiet: bool,
}

impl RunOptions {
    /// `race_confidence`: the confidence of the decisions when the runs race (revisions), `None` for a
    /// fixed plan (`record`).
    pub fn from_args(
        args: &RunArgs,
        quiet: bool,
        race_confidence: Option<f64>,
    ) -> Result<RunOptions, MeasureError> {
        let race_confidence = race_confidence.filter(|_| !args.fixed);
        let runs = match args.runs {
            None => match race_confidence {
                Some(c) => first_look(c),
                None => DEFAULT_RUNS,
            },
            Some(n) if (2..=i64::from(u32::MAX)).contains(&n) => n as u32,
            Some(n) => {
                return Err(invalid(
                    "--runs",
                    &n.to_string(),
                    "at least 2 process runs per revision (one run is one observation; 10 or more \
                     for a verdict at 0.95)",
                ));
            }
        };
        let secs = |flag, value: Option<f64>, default| match value {
            None => Ok(default),
            Some(v) if v.is_finite() && v > 0.0 => Ok(v),
            Some(v) => Err(invalid(
                flag,
                &v.to_string(),
                "a positive number of seconds",
            )),
        };
        let sample_size = match args.sample_size {
            Some(n) if n < 10 => {
                return Err(invalid(
                    "--sample-size",
                    &n.to_string(),
                    "at least 10 (criterion's minimum)",
                ));
            }
            Some(n) => u32::try_from(n)
                .map_err(|_| invalid("--sample-size", &n.to_string(), "at most 4294967295"))?,
            None => DEFAULT_SAMPLE_SIZE,
        };
        let max_runs = match (race_confidence, args.max_runs) {
            (None, _) => runs,
            (Some(_), None) => runs.saturating_mul(DEFAULT_MAX_FACTOR),
            (Some(_), Some(n)) if n >= i64::from(runs) && n <= i64::from(u32::MAX) => n as u32,
            (Some(_), Some(n)) => {
                return Err(invalid(
                    "--max-runs",
                    &n.to_string(),
                    "at least --runs (the runs before the first look); equal to it for a fixed plan, \
                     as --fixed does",
                ));
            }
        };
        let plan = LookPlan::new(runs, max_runs)
            .ok_or_else(|| invalid("--max-runs", &max_runs.to_string(), "at least --runs"))?;
        let budget = args.budget.as_deref().map(parse_budget).transpose()?;
        let layouts = layouts(args.layouts.as_deref(), max_runs)?;
        Ok(RunOptions {
            package: args.package.clone(),
            benches: args.bench.clone(),
            features: args.features.clone(),
            filter: args.filter.clone(),
            runs,
            plan,
            budget,
            seed: args.seed.unwrap_or_else(clock_seed),
            given_seed: args.seed,
            warm_up_secs: secs("--warm-up-time", args.warm_up_time, DEFAULT_WARM_UP_SECS)?,
            measurement_secs: secs(
                "--measurement-time",
                args.measurement_time,
                DEFAULT_MEASUREMENT_SECS,
            )?,
            sample_size,
            layouts,
            rerun: args.rerun,
            run_identical: args.run_identical,
            quiet,
        })
    }

    /// The arguments of one benchmark binary run, after the binary: what `cargo bench -- ...` would pass.
    pub fn criterion_args(&self, baseline: &str) -> Vec<String> {
        self.criterion_args_with(baseline, None)
    }

    /// [`criterion_args`](Self::criterion_args) with `filter` in place of the user's, when given (the
    /// benchmarks still open in a race).
    pub fn criterion_args_with(&self, baseline: &str, filter: Option<String>) -> Vec<String> {
        let mut args = vec!["--bench".to_string()];
        args.extend(filter.or_else(|| self.filter.clone()));
        args.extend([
            "--save-baseline".to_string(),
            baseline.to_string(),
            "--warm-up-time".to_string(),
            self.warm_up_secs.to_string(),
            "--measurement-time".to_string(),
            self.measurement_secs.to_string(),
            "--sample-size".to_string(),
            self.sample_size.to_string(),
            "--nresamples".to_string(),
            NRESAMPLES.to_string(),
            "--noplot".to_string(),
        ]);
        args
    }
}

/// `--layouts N|fixed`: `fixed` is 1; by default one per run up to [`DEFAULT_MAX_LAYOUTS`]; never more than
/// the runs (a layout that never runs is not linked).
fn layouts(value: Option<&str>, runs: u32) -> Result<u32, MeasureError> {
    let asked = match value.map(str::trim) {
        None => runs.min(DEFAULT_MAX_LAYOUTS),
        Some("fixed") => 1,
        Some(text) => match text.parse::<u32>() {
            Ok(n) if (1..=super::layout::MAX_LAYOUTS).contains(&n) => n,
            _ => {
                return Err(invalid(
                    "--layouts",
                    text,
                    "`fixed` or a number of layouts from 1 to 999",
                ));
            }
        },
    };
    Ok(asked.min(runs))
}

/// The runs before a race's first look at `confidence`: `DEFAULT_FIRST_LOOK` (5), or the fewest from there
/// with which the one-sided rank-sum test can reach the per-look risk of the default plan (3 looks).
pub fn first_look(confidence: f64) -> u32 {
    let looks = LookPlan::new(DEFAULT_FIRST_LOOK, DEFAULT_FIRST_LOOK * DEFAULT_MAX_FACTOR)
        .map_or(1, |p| p.count());
    let alpha = (1.0 - confidence) / f64::from(looks);
    (DEFAULT_FIRST_LOOK..64)
        .find(|&n| can_reject(n as usize, n as usize, alpha))
        .unwrap_or(64)
}

/// `--budget`: `90s`, `10m`, `1h30m`, `2h`, or a number of seconds.
fn parse_budget(text: &str) -> Result<Duration, MeasureError> {
    let bad = || {
        invalid(
            "--budget",
            text,
            "a duration such as 90s, 10m or 1h30m (a plain number is seconds)",
        )
    };
    let text = text.trim();
    if let Ok(secs) = text.parse::<f64>() {
        return (secs.is_finite() && secs > 0.0)
            .then(|| Duration::from_secs_f64(secs))
            .ok_or_else(bad);
    }
    let mut total = 0.0;
    let mut number = String::new();
    for c in text.chars() {
        match c {
            '0'..='9' | '.' => number.push(c),
            'h' | 'm' | 's' if !number.is_empty() => {
                let value: f64 = number.parse().map_err(|_| bad())?;
                total += value
                    * match c {
                        'h' => 3600.0,
                        'm' => 60.0,
                        _ => 1.0,
                    };
                number.clear();
            }
            _ => return Err(bad()),
        }
    }
    if !(number.is_empty() && total.is_finite() && total > 0.0) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(total))
}

/// A seed for when none is given: the clock's nanoseconds.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn invalid(flag: &'static str, value: &str, expected: &'static str) -> MeasureError {
    MeasureError::Option {
        flag,
        value: value.to_string(),
        expected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> RunArgs {
        RunArgs {
            manifest_path: None,
            package: None,
            bench: vec![],
            features: None,
            filter: None,
            runs: None,
            max_runs: None,
            fixed: false,
            budget: None,
            seed: None,
            warm_up_time: None,
            measurement_time: None,
            sample_size: None,
            layouts: None,
            rerun: false,
            run_identical: false,
        }
    }

    #[test]
    fn defaults_cost_one_criterion_run_per_revision() {
        let o = RunOptions::from_args(&args(), false, None).unwrap();
        let per_benchmark = f64::from(o.runs) * (o.warm_up_secs + o.measurement_secs);
        assert_eq!(per_benchmark, 3.0 + 5.0);
        assert!(
            o.runs >= 10,
            "the protocols need 10 runs to reach their levels"
        );
    }

    #[test]
    fn a_given_seed_is_kept() {
        let mut a = args();
        a.seed = Some(42);
        assert_eq!(RunOptions::from_args(&a, false, None).unwrap().seed, 42);
    }

    #[test]
    fn criterion_receives_the_filter_before_the_options() {
        let mut a = args();
        a.filter = Some("parse/".into());
        a.sample_size = Some(20);
        let o = RunOptions::from_args(&a, false, None).unwrap();
        let got = o.criterion_args("speedup");
        assert_eq!(
            &got[..4],
            ["--bench", "parse/", "--save-baseline", "speedup"]
        );
        assert!(got.windows(2).any(|w| w == ["--sample-size", "20"]));
    }

    #[test]
    fn layouts_default_to_one_per_run_up_to_a_cap() {
        let mut a = args();
        assert_eq!(RunOptions::from_args(&a, false, None).unwrap().layouts, 10);
        a.runs = Some(50);
        assert_eq!(
            RunOptions::from_args(&a, false, None).unwrap().layouts,
            DEFAULT_MAX_LAYOUTS
        );
    }

    #[test]
    fn layouts_are_fixed_or_a_count_no_larger_than_the_runs() {
        let layouts = |value: &str, runs: i64| {
            let mut a = args();
            a.layouts = Some(value.into());
            a.runs = Some(runs);
            RunOptions::from_args(&a, false, None).map(|o| o.layouts)
        };
        assert_eq!(layouts("fixed", 10).unwrap(), 1);
        assert_eq!(layouts("3", 10).unwrap(), 3);
        assert_eq!(layouts("1", 10).unwrap(), 1);
        assert_eq!(layouts("30", 10).unwrap(), 10);
        for bad in ["0", "-2", "many", "1000", ""] {
            assert!(
                matches!(
                    layouts(bad, 10),
                    Err(MeasureError::Option {
                        flag: "--layouts",
                        ..
                    })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn bad_values_name_the_flag() {
        let mut a = args();
        for runs in [0, 1, -3] {
            a.runs = Some(runs);
            assert!(matches!(
                RunOptions::from_args(&a, false, None),
                Err(MeasureError::Option { flag: "--runs", .. })
            ));
        }
        let mut a = args();
        a.measurement_time = Some(-1.0);
        assert!(matches!(
            RunOptions::from_args(&a, false, None),
            Err(MeasureError::Option {
                flag: "--measurement-time",
                ..
            })
        ));
        let mut a = args();
        a.sample_size = Some(5);
        assert!(RunOptions::from_args(&a, false, None).is_err());
    }

    #[test]
    fn races_look_after_five_runs_at_095_and_six_at_099() {
        let race = |c| RunOptions::from_args(&args(), false, Some(c)).unwrap();
        // 1/C(10, 5) = 0.00397 <= 0.05/3; at 0.99, 0.01/3 = 0.00333 needs 6 v 6 (1/924).
        assert_eq!(race(0.95).plan.looks(), [5, 10, 20]);
        assert_eq!(race(0.99).plan.looks(), [6, 12, 24]);
        let mut fixed = args();
        fixed.fixed = true;
        assert_eq!(
            RunOptions::from_args(&fixed, false, Some(0.95))
                .unwrap()
                .plan
                .looks(),
            [10]
        );
        assert_eq!(
            RunOptions::from_args(&args(), false, None)
                .unwrap()
                .plan
                .looks(),
            [10]
        );
        let mut capped = args();
        capped.runs = Some(8);
        capped.max_runs = Some(8);
        assert_eq!(
            RunOptions::from_args(&capped, false, Some(0.95))
                .unwrap()
                .plan
                .count(),
            1
        );
        capped.max_runs = Some(7);
        let error = RunOptions::from_args(&capped, false, Some(0.95)).unwrap_err();
        assert!(error.to_string().contains("--max-runs"), "{error}");
    }

    #[test]
    fn budgets_read_as_durations() {
        let secs = |t: &str| parse_budget(t).map(|d| d.as_secs_f64());
        assert_eq!(secs("90s").unwrap(), 90.0);
        assert_eq!(secs("10m").unwrap(), 600.0);
        assert_eq!(secs("1h30m").unwrap(), 5400.0);
        assert_eq!(secs("2.5m").unwrap(), 150.0);
        assert_eq!(secs("45").unwrap(), 45.0);
        for bad in ["", "abc", "10x", "m", "-5", "0", "5m3", "nan"] {
            let error = parse_budget(bad).unwrap_err().to_string();
            assert!(error.contains("--budget"), "{bad}: {error}");
        }
    }
}
