//! The running options, validated once: what to build (package, bench targets, features) and how to run
//! it (criterion's filter and times, rounds). The defaults make one `cargo speedup A..B` cost about what
//! two plain `cargo bench` runs cost: criterion's defaults are 3 s warm-up and 5 s measurement per
//! benchmark; we run 2 rounds per revision at 1.5 s and 2.5 s, so each revision still gets 8 s per benchmark.

use crate::cli::RunArgs;

use super::MeasureError;

/// Rounds per revision when `--rounds` is not given.
pub const DEFAULT_ROUNDS: u32 = 2;
/// criterion `--warm-up-time` per round when not given (half criterion's 3 s).
pub const DEFAULT_WARM_UP_SECS: f64 = 1.5;
/// criterion `--measurement-time` per round when not given (half criterion's 5 s).
pub const DEFAULT_MEASUREMENT_SECS: f64 = 2.5;

/// Validated running options.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    pub package: Option<String>,
    pub benches: Vec<String>,
    pub features: Option<String>,
    pub filter: Option<String>,
    pub rounds: u32,
    pub warm_up_secs: f64,
    pub measurement_secs: f64,
    /// `None`: criterion's own (the benchmark's configuration, 100 by default).
    pub sample_size: Option<u32>,
    pub rerun: bool,
    pub quiet: bool,
}

impl RunOptions {
    pub fn from_args(args: &RunArgs, quiet: bool) -> Result<RunOptions, MeasureError> {
        let rounds = args.rounds.unwrap_or(DEFAULT_ROUNDS);
        if rounds == 0 {
            return Err(invalid("--rounds", "0", "at least 1"));
        }
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
            other => other,
        };
        Ok(RunOptions {
            package: args.package.clone(),
            benches: args.bench.clone(),
            features: args.features.clone(),
            filter: args.filter.clone(),
            rounds,
            warm_up_secs: secs("--warm-up-time", args.warm_up_time, DEFAULT_WARM_UP_SECS)?,
            measurement_secs: secs(
                "--measurement-time",
                args.measurement_time,
                DEFAULT_MEASUREMENT_SECS,
            )?,
            sample_size,
            rerun: args.rerun,
            quiet,
        })
    }

    /// The arguments of one benchmark binary run, after the binary: what `cargo bench -- ...` would pass.
    pub fn criterion_args(&self, baseline: &str) -> Vec<String> {
        let mut args = vec!["--bench".to_string()];
        args.extend(self.filter.clone());
        args.extend([
            "--save-baseline".to_string(),
            baseline.to_string(),
            "--warm-up-time".to_string(),
            self.warm_up_secs.to_string(),
            "--measurement-time".to_string(),
            self.measurement_secs.to_string(),
            "--noplot".to_string(),
        ]);
        if let Some(n) = self.sample_size {
            args.extend(["--sample-size".to_string(), n.to_string()]);
        }
        args
    }
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
            rounds: None,
            warm_up_time: None,
            measurement_time: None,
            sample_size: None,
            rerun: false,
        }
    }

    #[test]
    fn defaults_cost_one_criterion_run_per_revision() {
        let o = RunOptions::from_args(&args(), false).unwrap();
        let per_benchmark = f64::from(o.rounds) * (o.warm_up_secs + o.measurement_secs);
        assert_eq!(per_benchmark, 3.0 + 5.0);
    }

    #[test]
    fn criterion_receives_the_filter_before_the_options() {
        let mut a = args();
        a.filter = Some("parse/".into());
        a.sample_size = Some(20);
        let o = RunOptions::from_args(&a, false).unwrap();
        let got = o.criterion_args("speedup");
        assert_eq!(
            &got[..4],
            ["--bench", "parse/", "--save-baseline", "speedup"]
        );
        assert!(got.ends_with(&["--sample-size".to_string(), "20".to_string()]));
    }

    #[test]
    fn bad_values_name_the_flag() {
        let mut a = args();
        a.rounds = Some(0);
        assert!(matches!(
            RunOptions::from_args(&a, false),
            Err(MeasureError::Option {
                flag: "--rounds",
                ..
            })
        ));
        let mut a = args();
        a.measurement_time = Some(-1.0);
        assert!(matches!(
            RunOptions::from_args(&a, false),
            Err(MeasureError::Option {
                flag: "--measurement-time",
                ..
            })
        ));
        let mut a = args();
        a.sample_size = Some(5);
        assert!(RunOptions::from_args(&a, false).is_err());
    }
}
