//! The options of the `speeduptest` command, which reproduces SpeedUpTest.sh (paper 000's script), checked as
//! the script takes them: levels and precisions strictly between 0 and 1 (`docs/options.md`).

use super::UsageError;
use crate::cli::{SpeeduptestArgs, Weight};
use crate::protocol::Confidence;
use crate::protocol::speedup_test::{ConfigOptions, WeightChoice};

/// The options of `speeduptest` (exit 2 on a bad one, naming the flag).
pub(crate) fn speeduptest_options(args: &SpeeduptestArgs) -> Result<ConfigOptions, UsageError> {
    let conf_level = args
        .conf_level
        .map(|c| {
            Confidence::new(c).ok_or(UsageError::Fraction {
                flag: "--conf-level",
                value: c,
                example: "0.95",
                hint: "leave out --conf-level to search the level per benchmark, from 0.99 down to 0.51",
            })
        })
        .transpose()?;
    let r = args.precision;
    if !(r > 0.0 && r < 1.0) {
        return Err(UsageError::Fraction {
            flag: "--precision",
            value: r,
            example: "0.05",
            hint: "leave out --precision for the paper's 0.05",
        });
    }
    Ok(ConfigOptions {
        conf_level,
        weight: match args.weight {
            Weight::Custom => WeightChoice::Custom,
            Weight::Equal => WeightChoice::Equal,
            Weight::Fraction => WeightChoice::Fraction,
        },
        precision: r,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Command, parse_from};

    fn options(extra: &[&str]) -> Result<ConfigOptions, UsageError> {
        let mut args = vec!["cargo-speedup", "speeduptest", "bench.cfg"];
        args.extend_from_slice(extra);
        match parse_from(args).command {
            Some(Command::Speeduptest(s)) => speeduptest_options(&s),
            other => panic!("expected speeduptest, got {other:?}"),
        }
    }

    #[test]
    fn levels_and_precisions_outside_the_open_unit_interval_are_refused() {
        let error = options(&["--conf-level", "1.5"]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid value 1.5 for --conf-level: a number strictly between 0 and 1, e.g. 0.95\n\
             hint: leave out --conf-level to search the level per benchmark, from 0.99 down to 0.51"
        );
        let error = options(&["--precision", "0"]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid value 0 for --precision: a number strictly between 0 and 1, e.g. 0.05\n\
             hint: leave out --precision for the paper's 0.05"
        );
        assert_eq!(
            options(&["--conf-level", "0.9"])
                .unwrap()
                .conf_level
                .map(Confidence::level),
            Some(0.9)
        );
    }
}
