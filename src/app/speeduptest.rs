//! `cargo speedup speeduptest CONFIG.csv`: the interface of the Speedup-Test paper's SpeedUpTest.sh (paper
//! 000 §6): read the config and its sample files, run both protocols per row, write PREFIX.status, .out,
//! .warning and .report (each to a temporary file in the same directory, then renamed, so that nothing is
//! left half written), and print the report on stdout.
//!
//! An unreadable config, a wrong header or a bad option value is an error (exit 2); a problem in one row is a
//! warning in `.warning` and the other rows are analysed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Result, bail};

use super::{Outcome, write_atomically};
use crate::cli::{SpeeduptestArgs, Weight};
use crate::protocol::speedup_test::{self as protocol, Input, Options, WeightChoice};
use crate::report::speeduptest as render;
use crate::sources::speeduptest_config::{self as config, Entry};

/// `speeduptest`.
pub fn speeduptest(args: &SpeeduptestArgs) -> Result<Outcome> {
    let start = Instant::now();
    let options = options(args)?;
    let config = config::read(&args.config)?;
    let inputs: Vec<Input> = config.entries.into_iter().map(input).collect();
    let mut analysis = protocol::analyse(&inputs, &options);
    analysis.warnings.splice(
        0..0,
        config
            .notes
            .into_iter()
            .map(|n| crate::protocol::Warning::new(crate::protocol::WarningKind::Input, n)),
    );
    let name = display_name(&args.config);
    let outputs = render::render(&analysis, &name, start.elapsed());
    let prefix = args.output.clone().unwrap_or_else(|| args.config.clone());
    for (extension, text) in [
        ("status", &outputs.status),
        ("out", &outputs.out),
        ("warning", &outputs.warning),
        ("report", &outputs.report),
    ] {
        write_atomically(&with_extension(&prefix, extension), text.as_bytes())?;
    }
    print!("{}", outputs.report);
    let count = analysis
        .rows
        .iter()
        .map(|r| r.warnings.len())
        .sum::<usize>()
        + analysis.warnings.len();
    if count > 0 {
        let file = with_extension(&prefix, "warning");
        eprintln!("{count} warning(s): see {}", file.display());
    }
    Ok(Outcome::Passed)
}

/// Checks the option values (exit 2 on a bad one, naming the flag).
fn options(args: &SpeeduptestArgs) -> Result<Options> {
    if let Some(c) = args.conf_level
        && !(c > 0.0 && c < 1.0)
    {
        bail!("invalid value {c} for --conf-level: a number strictly between 0 and 1, e.g. 0.95");
    }
    let r = args.precision;
    if !(r > 0.0 && r < 1.0) {
        bail!("invalid value {r} for --precision: a number strictly between 0 and 1, e.g. 0.05");
    }
    Ok(Options {
        conf_level: args.conf_level,
        weight: match args.weight {
            Weight::Custom => WeightChoice::Custom,
            Weight::Equal => WeightChoice::Equal,
            Weight::Fraction => WeightChoice::Fraction,
        },
        precision: r,
    })
}

fn input(entry: Entry) -> Input {
    Input {
        name: entry.name,
        samples: entry.samples,
        conf_level: entry.conf_level,
        coef: entry.coef,
        notes: entry.notes,
    }
}

/// The config path as the paper's headers show it: `./bench.cfg` for `bench.cfg`.
fn display_name(path: &Path) -> String {
    let text = path.display().to_string();
    let explicit = path.is_absolute() || text.starts_with("./") || text.starts_with("../");
    if explicit { text } else { format!("./{text}") }
}

/// `PREFIX.extension`, keeping any extension the prefix already has (`bench.cfg` → `bench.cfg.out`).
fn with_extension(prefix: &Path, extension: &str) -> PathBuf {
    let mut name = prefix.as_os_str().to_owned();
    name.push(".");
    name.push(extension);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_config_names_are_shown_from_the_current_directory() {
        assert_eq!(display_name(Path::new("bench.cfg")), "./bench.cfg");
        assert_eq!(display_name(Path::new("./bench.cfg")), "./bench.cfg");
        assert_eq!(display_name(Path::new("/tmp/b.cfg")), "/tmp/b.cfg");
    }

    #[test]
    fn outputs_append_their_extension_to_the_prefix() {
        assert_eq!(
            with_extension(Path::new("dir/bench.cfg"), "out"),
            PathBuf::from("dir/bench.cfg.out")
        );
    }
}
