//! The range of every numeric option (`docs/options.md`), and how a refused value is shown.
//!
//! Every numeric flag of every command is checked against its range in `plan/` before anything is read,
//! built or run, so that no value reaches a panic (`Duration::from_secs_f64` of 1e300, criterion's own
//! assertions) or a run that never ends (a measurement time of 1e10 s). Each flag's `--help` ends its text
//! with `[range: ...]`, and `docs/options.md` gives the same range with the reason for its bounds; the tests
//! below hold the three together.
//!
//! The bounds where nothing forces one (the specs are silent) are chosen wide enough for any real use and
//! narrow enough that the worst accepted value still ends: a week for a budget, an hour for one run's
//! criterion times, 10,000 runs or samples per run, 1,000 parts. `docs/options.md` says why each.
//!
//! Must not: read files, or know what the options mean beyond their bounds.

/// The longest `--budget`, in seconds: 7 days (168 h). A comparison is a CI job or an afternoon, not a
/// month; beyond this, leaving the budget out says what is meant.
pub(crate) const MAX_BUDGET_SECS: u64 = 7 * 24 * 3600;

/// The shortest `--budget`, in seconds: below one second not even a build fits.
pub(crate) const MIN_BUDGET_SECS: f64 = 1.0;

/// The shortest criterion `--warm-up-time` / `--measurement-time` per run, in seconds: criterion asserts a
/// positive duration in whole nanoseconds, and a run shorter than a millisecond measures its own start.
pub(crate) const MIN_RUN_SECS: f64 = 0.001;

/// The longest criterion `--warm-up-time` / `--measurement-time` per run, in seconds: one hour. A run is
/// one observation; more runs, not longer ones, narrow a verdict (`docs/replication.md` §3).
pub(crate) const MAX_RUN_SECS: f64 = 3600.0;

/// The most process runs per revision (`--runs`, `--max-runs`, and simulate's): 10,000 runs of the default
/// 0.3 s are 50 minutes per benchmark and revision.
pub(crate) const MAX_RUNS: u32 = 10_000;

/// The largest criterion `--sample-size` per run: criterion keeps every sample and its linear sampling
/// takes n(n+1)/2 iterations, so that 10,000 already needs 50 million iterations per run.
pub(crate) const MAX_SAMPLE_SIZE: u32 = 10_000;

/// The most parts of `--partition` (N): a CI matrix has at most 256 jobs on GitHub Actions.
pub(crate) const MAX_PARTS: u32 = 1_000;

/// The largest `--threshold`, in percent: 1,000 % is eleven times slower.
pub(crate) const MAX_THRESHOLD_PCT: f64 = 1_000.0;

/// The largest `--speedup-under-test` G.
pub(crate) const MAX_SPEEDUP_UNDER_TEST: f64 = 1_000.0;

/// The most settings of `simulate --change`: each replays every plan on `--benchmarks` benchmarks.
pub(crate) const MAX_CHANGES: usize = 100;

/// The longest a refused value is shown, in characters.
const SHOWN_CHARS: usize = 32;

/// A number as a message shows it: as Rust prints it (the shortest text that reads back as the same
/// number) when that has at most 10 characters, else the shorter of that and its scientific notation when
/// one has at most 16, else four significant digits: `1e300`, not 301 digits; `1e-320`, not 322 characters.
pub(crate) fn number(value: f64) -> String {
    let plain = value.to_string();
    if plain.chars().count() <= 10 {
        return plain;
    }
    [plain, format!("{value:e}")]
        .into_iter()
        .filter(|shown| shown.chars().count() <= 16)
        .min_by_key(|shown| shown.chars().count())
        .unwrap_or_else(|| format!("{value:.3e}"))
}

/// A value given as text, as a message shows it: control characters escaped, cut to 32 characters with an
/// ellipsis.
pub(crate) fn text(value: &str) -> String {
    let mut shown = String::new();
    for (i, c) in value.chars().enumerate() {
        if i == SHOWN_CHARS {
            shown.push('…');
            break;
        }
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::CargoCli;
    use clap::CommandFactory;

    #[test]
    fn numbers_are_shown_short() {
        assert_eq!(number(0.95), "0.95");
        assert_eq!(number(-1.0), "-1");
        assert_eq!(number(2000.0), "2000");
        assert_eq!(number(1e10), "1e10");
        assert_eq!(number(123456789.125), "123456789.125");
        assert_eq!(number(1e300), "1e300");
        assert_eq!(number(1e30), "1e30");
        assert_eq!(number(1e-320), "1e-320");
        assert_eq!(number(0.1 + 0.2), "3.000e-1");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::INFINITY), "inf");
    }

    #[test]
    fn texts_are_cut_and_their_control_characters_escaped() {
        assert_eq!(text("90s"), "90s");
        assert_eq!(text("1\n2\u{1b}[2J"), "1\\n2\\u{1b}[2J");
        let long = "9".repeat(40);
        assert_eq!(text(&long), format!("{}…", "9".repeat(32)));
    }

    /// The value names of the flags that take numbers (or, like `--layouts` and `--partition`, hold them).
    const NUMERIC: [&str; 11] = [
        "N",
        "C",
        "PCT",
        "PCT,...",
        "SECS",
        "DURATION",
        "A",
        "G",
        "R",
        "N|fixed",
        "count:K/N",
    ];

    /// Every numeric flag of every command, with its `[range: ...]` as `--help` shows it.
    fn ranges() -> Vec<(String, String, String)> {
        let mut command = CargoCli::command();
        command.build();
        let speedup = command.find_subcommand("speedup").expect("speedup");
        let mut found = Vec::new();
        let commands = std::iter::once(speedup).chain(speedup.get_subcommands());
        for command in commands {
            for arg in command.get_arguments() {
                let numeric = arg
                    .get_value_names()
                    .is_some_and(|names| names.iter().any(|n| NUMERIC.contains(&n.as_str())));
                if !numeric || arg.get_long().is_none() {
                    continue;
                }
                let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
                let range = help
                    .split_once("[range: ")
                    .and_then(|(_, rest)| rest.split_once(']'))
                    .map(|(range, _)| range.to_string())
                    .unwrap_or_else(|| {
                        panic!(
                            "`{}` --{} gives no [range: ...] in its help: {help}",
                            command.get_name(),
                            arg.get_long().unwrap_or_default()
                        )
                    });
                found.push((
                    command.get_name().to_string(),
                    format!("--{}", arg.get_long().unwrap_or_default()),
                    range,
                ));
            }
        }
        found
    }

    #[test]
    fn every_numeric_flag_says_its_range_in_its_help() {
        let found = ranges();
        for flag in [
            "--budget",
            "--warm-up-time",
            "--measurement-time",
            "--confidence",
            "--runs",
            "--max-runs",
            "--sample-size",
            "--layouts",
            "--partition",
            "--seed",
            "--benchmarks",
            "--conf-level",
            "--precision",
            "--change",
        ] {
            assert!(found.iter().any(|(_, f, _)| f == flag), "{flag} not found");
        }
    }

    #[test]
    fn docs_give_every_flag_the_range_its_help_gives() {
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/options.md"),
        )
        .expect("docs/options.md");
        for (command, flag, range) in ranges() {
            let row = format!("| `{flag} ");
            let range_cell = format!("| `{range}` |");
            assert!(
                page.lines()
                    .any(|line| line.contains(&row) && line.contains(&range_cell)),
                "docs/options.md has no row with {row} and {range_cell} (command `{command}`)"
            );
        }
    }
}
