//! The running options of the measuring commands, checked once from the command line (`cli::RunArgs`)
//! before anything is built: every value a user can get wrong is refused here with the flag and the
//! accepted range (`ranges`, `docs/options.md`); `measure` takes the result, [`RunOptions`], and never
//! sees the command line.

use std::time::Duration;

use super::PlanError;
use super::ranges::{
    self, MAX_BUDGET_SECS, MAX_PARTS, MAX_RUN_SECS, MAX_RUNS, MAX_SAMPLE_SIZE, MIN_BUDGET_SECS,
    MIN_RUN_SECS, number,
};
use crate::cli::RunArgs;
use crate::measure::{
    DEFAULT_MAX_FACTOR, DEFAULT_MAX_LAYOUTS, DEFAULT_MEASUREMENT_SECS, DEFAULT_RUNS,
    DEFAULT_SAMPLE_SIZE, DEFAULT_WARM_UP_SECS, DIVAN_MEASUREMENT_SECS, DIVAN_WARM_UP_SECS,
    RunOptions,
};
use crate::partition::Partition;
use crate::protocol::Confidence;
use crate::protocol::sequential::{LookPlan, fewest_runs_to_reject};

/// The running options of `args`. `race_confidence`: the confidence of the decisions when the runs race
/// (revisions), `None` for a fixed plan (`record`).
pub(crate) fn run_options(
    args: &RunArgs,
    quiet: bool,
    race_confidence: Option<Confidence>,
) -> Result<RunOptions, PlanError> {
    let race_confidence = race_confidence.filter(|_| !args.fixed);
    let runs = match args.runs {
        None => match race_confidence {
            Some(c) => first_look(c),
            None => DEFAULT_RUNS,
        },
        Some(n) if (2..=i64::from(MAX_RUNS)).contains(&n) => n as u32,
        Some(n) => {
            return Err(invalid(
                "--runs",
                &n.to_string(),
                "at least 2 process runs per revision and at most 10000 (one run is one observation; \
                 10 or more for a verdict at 0.95)",
                "leave out --runs for the default: a race looks first after 6 runs at 0.95 and stops \
                 each benchmark once it is decided",
            ));
        }
    };
    let warm_up_secs = run_secs("--warm-up-time", args.warm_up_time, DEFAULT_WARM_UP_SECS)?;
    let measurement_secs = run_secs(
        "--measurement-time",
        args.measurement_time,
        DEFAULT_MEASUREMENT_SECS,
    )?;
    let sample_size = match args.sample_size {
        None => DEFAULT_SAMPLE_SIZE,
        Some(n) if (10..=i64::from(MAX_SAMPLE_SIZE)).contains(&n) => n as u32,
        Some(n) => {
            return Err(invalid(
                "--sample-size",
                &n.to_string(),
                "at least 10 (criterion's minimum) and at most 10000 samples per run",
                "each run's value is the median of its samples; more runs (--runs), not more samples, \
                 narrow a verdict",
            ));
        }
    };
    let max_runs = match (race_confidence, args.max_runs) {
        (None, _) => runs,
        (Some(_), None) => runs.saturating_mul(DEFAULT_MAX_FACTOR).min(MAX_RUNS),
        (Some(_), Some(n)) if n >= i64::from(runs) && n <= i64::from(MAX_RUNS) => n as u32,
        (Some(_), Some(n)) => {
            return Err(invalid(
                "--max-runs",
                &n.to_string(),
                "at least --runs (the runs before the first look) and at most 10000; equal to --runs \
                 for a fixed plan, as --fixed does",
                "leave out --max-runs for the default cap, 4 x --runs; --budget bounds the time instead",
            ));
        }
    };
    let look_plan = LookPlan::new(runs, max_runs).ok_or_else(|| {
        invalid(
            "--max-runs",
            &max_runs.to_string(),
            "at least --runs",
            "give --max-runs at least the runs before the first look",
        )
    })?;
    let budget = args.budget.as_deref().map(parse_budget).transpose()?;
    let layouts = layouts(args.layouts.as_deref(), max_runs)?;
    let partition = args
        .partition
        .as_deref()
        .map(|text| {
            Partition::parse(text)
                .ok()
                .filter(|p| p.total <= MAX_PARTS)
                .ok_or_else(|| {
                    invalid(
                        "--partition",
                        text,
                        "`count:K/N` or `hash:K/N` with 1 <= K <= N <= 1000, e.g. `count:1/3` (the \
                         first of three parts)",
                        "give each job of a CI matrix of N jobs its own K, from 1 to N",
                    )
                })
        })
        .transpose()?;
    Ok(RunOptions {
        manifest_path: args.manifest_path.clone(),
        package: args.package.clone(),
        benches: args.bench.clone(),
        features: args.features.clone(),
        all_features: args.all_features,
        filter: args.filter.clone(),
        partition,
        runs,
        look_plan,
        budget,
        seed: args.seed.unwrap_or_else(clock_seed),
        given_seed: args.seed,
        warm_up_secs,
        measurement_secs,
        divan_secs: (
            args.warm_up_time
                .map_or(DIVAN_WARM_UP_SECS, |_| warm_up_secs),
            args.measurement_time
                .map_or(DIVAN_MEASUREMENT_SECS, |_| measurement_secs),
        ),
        sample_size,
        layouts,
        rerun: args.rerun,
        run_identical: args.run_identical,
        keep_bench_settings: args.keep_bench_settings,
        keep_runs: args.keep_runs,
        keep_profiles: None,
        cache_sim: false,
        count_allocations: false,
        pin: args.pin && !args.no_pin,
        duet: args.duet,
        harness: args.harness.map(|h| match h {
            crate::cli::HarnessArg::Criterion => crate::measure::Harness::Criterion,
            crate::cli::HarnessArg::Divan => crate::measure::Harness::Divan,
            crate::cli::HarnessArg::Libtest => crate::measure::Harness::Libtest,
        }),
        // `cargo +nightly` style: a leading `+` is the same name.
        toolchain: args
            .toolchain
            .as_deref()
            .map(|t| t.trim().trim_start_matches('+').to_string()),
        quiet,
        measure: Default::default(),
    })
}

/// The values `--measure` takes, in a list or alone.
const MEASURES: &str = "`time` (the default), `instructions` (exact counts under Valgrind's callgrind) or both, \
                        `time,instructions`";

/// `run` measuring what `--measure` asks (`measure`, as given; `None`: times): `instructions` runs each
/// side once, in one layout, since a count is exact (`docs/instruction-counts.md` §5), and refuses `--runs`,
/// `--max-runs` and `--duet`; `time,instructions` (in either order, a word given twice taken once) runs the
/// times as asked and the counts once per side, `--runs`, `--max-runs`, `--duet` and `--budget` applying to
/// the times only ([`RunOptions::part`]). A word of the list that is neither is refused, named.
pub(crate) fn measuring(
    mut run: RunOptions,
    measure: Option<&str>,
    args: &RunArgs,
) -> Result<RunOptions, PlanError> {
    let (mut time, mut instructions) = (measure.is_none(), false);
    for word in measure
        .iter()
        .flat_map(|text| text.split(','))
        .map(str::trim)
    {
        match word {
            "time" => time = true,
            "instructions" => instructions = true,
            _ => {
                return Err(invalid(
                    "--measure",
                    word,
                    MEASURES,
                    "leave out --measure to compare times",
                ));
            }
        }
    }
    let counting = instructions && !time;
    if let Some(dir) = args.keep_profiles.as_deref().filter(|_| !counting) {
        return Err(invalid(
            "--keep-profiles",
            &dir.display().to_string(),
            "callgrind's files, which only --measure instructions writes",
            "add --measure instructions, or leave out --keep-profiles",
        ));
    }
    // Counts beside instructions (`docs/instruction-counts.md` §8): callgrind takes them in the same runs.
    let beside = [
        (
            args.cache_sim,
            "`instructions` with --cache-sim: callgrind's cache simulation counts the misses beside the \
             instructions",
            "add --measure instructions, or leave out --cache-sim",
        ),
        (
            args.count_allocations,
            "`instructions` with --count-allocations: callgrind counts the calls to the allocator beside \
             the instructions",
            "add --measure instructions, or leave out --count-allocations",
        ),
    ];
    if let Some((_, expected, hint)) = beside.iter().find(|(given, ..)| *given && !instructions) {
        return Err(invalid(
            "--measure",
            measure.unwrap_or("time"),
            expected,
            hint,
        ));
    }
    run.cache_sim = args.cache_sim && instructions;
    run.count_allocations = args.count_allocations && instructions;
    match (time, instructions) {
        (true, true) => {
            run.measure = crate::measure::Measure::TimeAndInstructions;
            Ok(run)
        }
        (false, true) => {
            if let Some(dir) = &args.keep_profiles {
                let taken = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some());
                if taken || dir.is_file() {
                    return Err(invalid(
                        "--keep-profiles",
                        &dir.display().to_string(),
                        "a directory that does not exist yet or is empty: the profiles never overwrite \
                         a file of yours",
                        "name a new directory, or empty this one",
                    ));
                }
                run.keep_profiles = Some(dir.clone());
                // Cached counts have no files to copy: the revisions are measured again.
                run.rerun = true;
            }
            for (flag, given) in [("--runs", args.runs), ("--max-runs", args.max_runs)] {
                if let Some(n) = given {
                    return Err(invalid(
                        flag,
                        &n.to_string(),
                        "no number of runs with --measure instructions: a count is exact, so each \
                         revision runs once",
                        "leave out --runs and --max-runs when counting instructions, or measure \
                         time,instructions, whose times take them",
                    ));
                }
            }
            if args.duet {
                return Err(invalid(
                    "--measure",
                    measure.unwrap_or_default(),
                    "no --duet beside it: a count does not depend on what runs beside it, and each \
                     benchmark runs alone under Valgrind",
                    "leave out --duet when counting instructions",
                ));
            }
            run.measure = crate::measure::Measure::Instructions;
            run.runs = 1;
            run.look_plan = LookPlan::single_run();
            run.layouts = 1;
            Ok(run)
        }
        // `time` alone (or twice): as without `--measure`.
        _ => Ok(run),
    }
}

/// `run`, refused when it measures times and counts together: a `command` (`bisect`) whose every step
/// follows one measurement.
pub(crate) fn one_measure(run: RunOptions, command: &'static str) -> Result<RunOptions, PlanError> {
    match run.measure {
        crate::measure::Measure::TimeAndInstructions => Err(PlanError {
            flag: "--measure",
            value: ranges::text(run.measure.name()),
            expected: match command {
                "bisect" => {
                    "`time` or `instructions` for `bisect`: each step follows one measurement"
                }
                _ => "`time` or `instructions` for this command",
            },
            hint: "bisect the times, or the counts with --measure instructions",
        }),
        _ => Ok(run),
    }
}

/// `--layouts N|fixed`: `fixed` is 1; by default one per run up to [`DEFAULT_MAX_LAYOUTS`]; never more than
/// the runs (a layout that never runs is not linked).
fn layouts(value: Option<&str>, runs: u32) -> Result<u32, PlanError> {
    let asked = match value.map(str::trim) {
        None => runs.min(DEFAULT_MAX_LAYOUTS),
        Some("fixed") => 1,
        Some(text) => match text.parse::<u32>() {
            Ok(n) if (1..=crate::measure::MAX_LAYOUTS).contains(&n) => n,
            _ => {
                return Err(invalid(
                    "--layouts",
                    text,
                    "`fixed` or a number of layouts from 1 to 999",
                    "leave out --layouts for one layout per run up to 20; `--layouts fixed` runs the \
                     executables as built",
                ));
            }
        },
    };
    Ok(asked.min(runs))
}

/// criterion's `--warm-up-time` or `--measurement-time` of each run, in seconds: `default` when not given,
/// else from [`MIN_RUN_SECS`] to [`MAX_RUN_SECS`].
fn run_secs(flag: &'static str, value: Option<f64>, default: f64) -> Result<f64, PlanError> {
    match value {
        None => Ok(default),
        Some(v) if (MIN_RUN_SECS..=MAX_RUN_SECS).contains(&v) => Ok(v),
        Some(v) => Err(invalid(
            flag,
            &number(v),
            "a number of seconds from 0.001 to 3600 per run",
            "a run is one observation: more runs (--runs), not longer ones, narrow a verdict; \
             --budget bounds the whole comparison",
        )),
    }
}

/// `--budget`: `90s`, `10m`, `1h30m`, `2h`, or a number of seconds; from [`MIN_BUDGET_SECS`] to
/// [`MAX_BUDGET_SECS`], checked before the duration is made (`Duration::from_secs_f64` panics on values
/// too large for it).
fn parse_budget(text: &str) -> Result<Duration, PlanError> {
    let bad = || PlanError {
        flag: "--budget",
        value: ranges::text(text),
        expected: "a duration from 1s to 168h (7 days), such as 90s, 10m or 1h30m (a plain number \
                       is seconds)",
        hint: "leave out --budget to run without a time limit; --max-runs bounds the runs instead",
    };
    let trimmed = text.trim();
    let total = match trimmed.parse::<f64>() {
        Ok(secs) => secs,
        Err(_) => {
            let mut total = 0.0;
            let mut number = String::new();
            for c in trimmed.chars() {
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
            if !number.is_empty() {
                return Err(bad());
            }
            total
        }
    };
    if !(MIN_BUDGET_SECS..=MAX_BUDGET_SECS as f64).contains(&total) {
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

/// A refused value of `flag`, shown as [`ranges::text`] shows it.
fn invalid(
    flag: &'static str,
    value: &str,
    expected: &'static str,
    hint: &'static str,
) -> PlanError {
    PlanError {
        flag,
        value: ranges::text(value),
        expected,
        hint,
    }
}

/// The fewest runs before the first look of a race when `--runs` is not given: 5 per side, or more when the
/// per-look risk needs it (the rank-sum test of n against n runs reaches p = 1/C(2n, n) at best).
pub(crate) const DEFAULT_FIRST_LOOK: u32 = 5;
/// The suite size for which the default first look lets the `--fail-on any` gate fail ([`first_look`]).
pub(crate) const GATE_BENCHMARKS: u32 = 10;

/// The runs before a race's first look at `confidence`, handed to `measure` as [`RunOptions::runs`]: the fewest from `DEFAULT_FIRST_LOOK` (5) with which
/// the one-sided rank-sum test can reach the risk of the `--fail-on any` gate's first Holm step on a suite
/// of `GATE_BENCHMARKS` (10) at the first look of the default plan (3 looks): alpha / (3 × 10). At 0.95 that
/// is 6 runs (1/C(12, 6) = 0.0011 <= 0.0017), at 0.99 it is 7. With 5 runs (1/252 = 0.004) a slowed
/// benchmark could be called slower at the first look but the gate could not fail on a suite of 5 or more
/// benchmarks until the second: the calibration's base64 slowdown (6 benchmarks) ran 10 runs per side
/// where 6 can decide it.
pub(super) fn first_look(confidence: Confidence) -> u32 {
    let looks = LookPlan::new(DEFAULT_FIRST_LOOK, DEFAULT_FIRST_LOOK * DEFAULT_MAX_FACTOR)
        .map_or(1, |p| p.count());
    let alpha = confidence.alpha() / f64::from(looks * GATE_BENCHMARKS);
    fewest_runs_to_reject(alpha, DEFAULT_FIRST_LOOK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> RunArgs {
        RunArgs::default()
    }

    #[test]
    fn a_partition_is_parsed_and_a_bad_one_names_the_flag() {
        let mut a = args();
        a.partition = Some("hash:2/4".into());
        let o = run_options(&a, false, None).unwrap();
        assert_eq!(
            o.partition.map(|p| p.to_string()).as_deref(),
            Some("hash:2/4")
        );
        a.partition = Some("count:5/4".into());
        let error = run_options(&a, false, None).unwrap_err().to_string();
        assert!(
            error.starts_with("invalid value count:5/4 for --partition: expected `count:K/N`"),
            "{error}"
        );
    }

    #[test]
    fn instructions_run_each_side_once_in_one_layout_and_refuse_a_number_of_runs() {
        let race = run_options(&args(), false, Confidence::new(0.95)).unwrap();
        assert_eq!(measuring(race.clone(), None, &args()).unwrap(), race);
        assert_eq!(
            measuring(race.clone(), Some("time"), &args()).unwrap(),
            race
        );
        let counted = measuring(race.clone(), Some("instructions"), &args()).unwrap();
        assert_eq!(counted.measure, crate::measure::Measure::Instructions);
        assert_eq!(
            (counted.runs, counted.look_plan.looks(), counted.layouts),
            (1, vec![1], 1)
        );
        let mut a = args();
        a.runs = Some(10);
        let error = measuring(race.clone(), Some("instructions"), &a).unwrap_err();
        assert_eq!(error.flag, "--runs");
        assert!(error.to_string().contains("a count is exact"), "{error}");
        let mut a = args();
        a.duet = true;
        let error = measuring(race.clone(), Some("instructions"), &a).unwrap_err();
        assert!(error.to_string().contains("no --duet beside it"), "{error}");
    }

    #[test]
    fn keep_profiles_needs_instructions_and_a_new_or_empty_directory_and_measures_again() {
        let race = run_options(&args(), false, Confidence::new(0.95)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut a = args();
        a.keep_profiles = Some(dir.path().join("new"));
        let error = measuring(race.clone(), None, &a).unwrap_err();
        assert_eq!(error.flag, "--keep-profiles");
        assert!(
            error.to_string().contains("only --measure instructions"),
            "{error}"
        );
        let counted = measuring(race.clone(), Some("instructions"), &a).unwrap();
        assert_eq!(counted.keep_profiles, a.keep_profiles);
        assert!(counted.rerun);
        // Empty: taken as it is.
        a.keep_profiles = Some(dir.path().to_path_buf());
        assert!(measuring(race.clone(), Some("instructions"), &a).is_ok());
        // Holding a file of the user's: refused, the file untouched.
        std::fs::write(dir.path().join("mine"), "x").unwrap();
        let error = measuring(race.clone(), Some("instructions"), &a).unwrap_err();
        assert!(
            error.to_string().contains("does not exist yet or is empty"),
            "{error}"
        );
        a.keep_profiles = Some(dir.path().join("mine"));
        assert!(measuring(race, Some("instructions"), &a).is_err());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("mine")).unwrap(),
            "x"
        );
    }

    #[test]
    fn cache_misses_and_allocations_need_instructions_and_are_off_by_default() {
        let race = run_options(&args(), false, Confidence::new(0.95)).unwrap();
        let counted = measuring(race.clone(), Some("instructions"), &args()).unwrap();
        assert!(!counted.cache_sim && !counted.count_allocations);
        let mut a = args();
        a.cache_sim = true;
        let error = measuring(race.clone(), None, &a).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid value time for --measure: expected `instructions` with --cache-sim: callgrind's cache \
             simulation counts the misses beside the instructions\nhint: add --measure instructions, or \
             leave out --cache-sim"
        );
        let counted = measuring(race.clone(), Some("instructions"), &a).unwrap();
        assert!(counted.cache_sim && !counted.count_allocations);
        let mut a = args();
        a.count_allocations = true;
        let error = measuring(race.clone(), Some("time"), &a).unwrap_err();
        assert!(
            error.to_string().contains("leave out --count-allocations"),
            "{error}"
        );
        let counted = measuring(race, Some("instructions"), &a).unwrap();
        assert!(!counted.cache_sim && counted.count_allocations);
    }

    #[test]
    fn times_and_counts_together_keep_the_times_plan_and_count_once_per_side() {
        use crate::measure::{Measure, Part};
        let race = run_options(&args(), false, Confidence::new(0.95)).unwrap();
        let mut a = args();
        a.runs = Some(8);
        a.max_runs = Some(16);
        a.duet = true;
        a.budget = Some("10m".into());
        let timed = run_options(&a, false, Confidence::new(0.95)).unwrap();
        for text in [
            "time,instructions",
            "instructions,time",
            " time , instructions ",
            "time,time,instructions",
        ] {
            let both = measuring(timed.clone(), Some(text), &a).unwrap();
            assert_eq!(both.measure, Measure::TimeAndInstructions, "{text}");
            assert_eq!(
                both.part(Part::Time),
                RunOptions {
                    measure: Measure::Time,
                    ..timed.clone()
                }
            );
        }
        let both = measuring(timed.clone(), Some("time,instructions"), &a).unwrap();
        assert_eq!(both.parts(), [Part::Time, Part::Instructions]);
        // The counts' part is what `--measure instructions` plans, so that each part is cached under the
        // key of its own measure: one run, one layout, alone, no budget of its own.
        let counted = measuring(race.clone(), Some("instructions"), &args()).unwrap();
        let part = both.part(Part::Instructions);
        assert_eq!(
            (
                part.measure,
                part.runs,
                part.look_plan.looks(),
                part.layouts,
                part.duet,
                part.budget
            ),
            (Measure::Instructions, 1, vec![1], 1, false, None)
        );
        assert_eq!(
            RunOptions {
                seed: counted.seed,
                given_seed: counted.given_seed,
                ..part
            },
            counted.clone()
        );
        // A word given twice is taken once.
        assert_eq!(
            measuring(race.clone(), Some("time,time"), &args()).unwrap(),
            race
        );
        assert_eq!(
            measuring(race.clone(), Some("instructions,instructions"), &args()).unwrap(),
            counted
        );
        assert_eq!(counted.parts(), [Part::Instructions]);
        assert_eq!(counted.part(Part::Instructions), counted);
    }

    #[test]
    fn an_unknown_word_of_the_list_is_named_with_the_valid_ones() {
        let race = run_options(&args(), false, Confidence::new(0.95)).unwrap();
        let expected = |word: &str| {
            format!(
                "invalid value {word} for --measure: expected `time` (the default), `instructions` (exact \
                 counts under Valgrind's callgrind) or both, `time,instructions`\nhint: leave out --measure \
                 to compare times"
            )
        };
        for (text, word) in [
            ("cycles", "cycles"),
            ("time,cycles", "cycles"),
            ("time,Time", "Time"),
        ] {
            let error = measuring(race.clone(), Some(text), &args()).unwrap_err();
            assert_eq!(error.to_string(), expected(word), "{text}");
        }
        let error = measuring(race.clone(), Some("time,"), &args()).unwrap_err();
        assert_eq!(error.flag, "--measure");
        // `--keep-profiles` copies the files of a count alone.
        let mut a = args();
        a.keep_profiles = Some(std::path::PathBuf::from("/nonexistent/profiles"));
        let error = measuring(race.clone(), Some("time,instructions"), &a).unwrap_err();
        assert_eq!(error.flag, "--keep-profiles");
        // A command that follows one measurement refuses both.
        let both = measuring(race.clone(), Some("time,instructions"), &args()).unwrap();
        let error = one_measure(both, "bisect").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("invalid value time,instructions for --measure"),
            "{error}"
        );
        assert!(one_measure(race.clone(), "bisect").is_ok());
    }

    #[test]
    fn a_benchmark_raced_to_the_cap_costs_less_than_a_plain_criterion_run() {
        // criterion's own 3 s warm-up + 5 s measurement per benchmark and revision.
        let plain = 3.0 + 5.0;
        let per_run = |o: &RunOptions| o.warm_up_secs + o.measurement_secs;
        let fixed = run_options(&args(), false, None).unwrap();
        assert!(
            fixed.runs >= 10,
            "the protocols need 10 runs to reach their levels"
        );
        assert!(f64::from(fixed.runs) * per_run(&fixed) < plain);
        let race = run_options(&args(), false, Confidence::new(0.95)).unwrap();
        let cap = f64::from(race.look_plan.max()) * per_run(&race);
        assert!(cap < plain, "{cap} s at the cap");
    }

    #[test]
    fn runs_are_pinned_only_when_asked_and_the_last_of_pin_and_no_pin_wins() {
        use clap::Parser;
        #[derive(Parser)]
        struct Line {
            #[command(flatten)]
            run: RunArgs,
        }
        let pin = |line: &[&str]| {
            let parsed = Line::try_parse_from(std::iter::once("x").chain(line.iter().copied()))
                .expect("parses");
            run_options(&parsed.run, false, None).unwrap().pin
        };
        assert!(!pin(&[]), "not pinned by default");
        assert!(pin(&["--pin"]));
        assert!(!pin(&["--no-pin"]));
        assert!(!pin(&["--pin", "--no-pin"]));
        assert!(pin(&["--no-pin", "--pin"]));
    }

    #[test]
    fn a_given_seed_is_kept() {
        let mut a = args();
        a.seed = Some(42);
        assert_eq!(run_options(&a, false, None).unwrap().seed, 42);
    }

    #[test]
    fn criterion_receives_the_filter_before_the_options() {
        let mut a = args();
        a.filter = Some("parse/".into());
        a.sample_size = Some(20);
        let o = run_options(&a, false, None).unwrap();
        let got = o.per_run().criterion_args("speedup");
        assert_eq!(
            &got[..4],
            ["--bench", "parse/", "--save-baseline", "speedup"]
        );
        assert!(got.windows(2).any(|w| w == ["--sample-size", "20"]));
    }

    #[test]
    fn layouts_default_to_one_per_run_up_to_a_cap() {
        let mut a = args();
        assert_eq!(run_options(&a, false, None).unwrap().layouts, 10);
        a.runs = Some(50);
        assert_eq!(
            run_options(&a, false, None).unwrap().layouts,
            DEFAULT_MAX_LAYOUTS
        );
    }

    #[test]
    fn layouts_are_fixed_or_a_count_no_larger_than_the_runs() {
        let layouts = |value: &str, runs: i64| {
            let mut a = args();
            a.layouts = Some(value.into());
            a.runs = Some(runs);
            run_options(&a, false, None).map(|o| o.layouts)
        };
        assert_eq!(layouts("fixed", 10).unwrap(), 1);
        assert_eq!(layouts("3", 10).unwrap(), 3);
        assert_eq!(layouts("1", 10).unwrap(), 1);
        assert_eq!(layouts("30", 10).unwrap(), 10);
        for bad in ["0", "-2", "many", "1000", ""] {
            assert!(
                matches!(
                    layouts(bad, 10),
                    Err(PlanError {
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
                run_options(&a, false, None),
                Err(PlanError { flag: "--runs", .. })
            ));
        }
        let mut a = args();
        a.measurement_time = Some(-1.0);
        assert!(matches!(
            run_options(&a, false, None),
            Err(PlanError {
                flag: "--measurement-time",
                ..
            })
        ));
        let mut a = args();
        a.sample_size = Some(5);
        assert!(run_options(&a, false, None).is_err());
    }

    #[test]
    fn races_look_after_six_runs_at_095_and_seven_at_099() {
        let race = |c| run_options(&args(), false, Confidence::new(c)).unwrap();
        // The any gate's first Holm step on 10 benchmarks at the first of 3 looks: 0.05 / 30 = 0.00167
        // needs 6 v 6 (1/924 = 0.00108; 5 v 5 gives 1/252 = 0.00397); 0.01 / 30 = 0.00033 needs 7 v 7
        // (1/3432 = 0.00029).
        assert_eq!(race(0.95).look_plan.looks(), [6, 12, 24]);
        assert_eq!(race(0.99).look_plan.looks(), [7, 14, 28]);
        let mut fixed = args();
        fixed.fixed = true;
        assert_eq!(
            run_options(&fixed, false, Confidence::new(0.95))
                .unwrap()
                .look_plan
                .looks(),
            [10]
        );
        assert_eq!(
            run_options(&args(), false, None).unwrap().look_plan.looks(),
            [10]
        );
        let mut capped = args();
        capped.runs = Some(8);
        capped.max_runs = Some(8);
        assert_eq!(
            run_options(&capped, false, Confidence::new(0.95))
                .unwrap()
                .look_plan
                .count(),
            1
        );
        capped.max_runs = Some(7);
        let error = run_options(&capped, false, Confidence::new(0.95)).unwrap_err();
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
        // From a second to a week.
        assert_eq!(secs("1").unwrap(), 1.0);
        assert_eq!(secs("168h").unwrap(), 604_800.0);
        assert_eq!(secs("604800").unwrap(), 604_800.0);
        for bad in [
            "0.5",
            "168h1s",
            "604801",
            "1e300",
            "99999999999999999999h",
            "inf",
        ] {
            let error = parse_budget(bad).unwrap_err();
            assert_eq!(error.value, bad, "{bad}");
            assert!(error.expected.starts_with("a duration from 1s to 168h"));
        }
        // A value of hundreds of characters is cut in the message.
        let long = "9".repeat(300) + "h";
        let error = parse_budget(&long).unwrap_err();
        assert_eq!(error.value, format!("{}…", "9".repeat(32)));
    }

    #[test]
    fn criterion_times_run_from_a_millisecond_to_an_hour() {
        let time = |warm_up: f64, measurement: f64| {
            let mut a = args();
            a.warm_up_time = Some(warm_up);
            a.measurement_time = Some(measurement);
            run_options(&a, false, None)
        };
        let o = time(0.001, 3600.0).unwrap();
        assert_eq!((o.warm_up_secs, o.measurement_secs), (0.001, 3600.0));
        for (warm_up, measurement, flag, value) in [
            (1e10, 0.2, "--warm-up-time", "1e10"),
            (0.1, 1e30, "--measurement-time", "1e30"),
            (0.0009, 0.2, "--warm-up-time", "0.0009"),
            (0.1, 3600.5, "--measurement-time", "3600.5"),
            (0.1, f64::NAN, "--measurement-time", "NaN"),
        ] {
            let error = time(warm_up, measurement).unwrap_err();
            assert_eq!((error.flag, error.value.as_str()), (flag, value));
        }
    }

    #[test]
    fn counts_have_upper_bounds() {
        let mut a = args();
        a.runs = Some(10_000);
        assert_eq!(run_options(&a, false, None).unwrap().runs, 10_000);
        // The default cap, 4 x --runs, is held to the most runs too.
        let race = run_options(&a, false, Confidence::new(0.95)).unwrap();
        assert_eq!(race.look_plan.max(), 10_000);
        a.runs = Some(10_001);
        assert_eq!(run_options(&a, false, None).unwrap_err().flag, "--runs");
        let mut a = args();
        a.max_runs = Some(10_001);
        let error = run_options(&a, false, Confidence::new(0.95)).unwrap_err();
        assert_eq!(error.flag, "--max-runs");
        let mut a = args();
        a.sample_size = Some(10_000);
        assert_eq!(run_options(&a, false, None).unwrap().sample_size, 10_000);
        a.sample_size = Some(10_001);
        assert_eq!(
            run_options(&a, false, None).unwrap_err().flag,
            "--sample-size"
        );
        let mut a = args();
        a.partition = Some("count:1000/1000".into());
        assert!(run_options(&a, false, None).is_ok());
        a.partition = Some("count:1/1001".into());
        assert_eq!(
            run_options(&a, false, None).unwrap_err().flag,
            "--partition"
        );
    }
}
