//! `cargo speedup speeduptest CONFIG.csv`: runs the `speeduptest` command, which reproduces SpeedUpTest.sh
//! (paper 000's script, §6); the protocol it runs is `protocol::speedup_test`. It reads the config and its
//! sample files, runs both protocols per row, writes PREFIX.status, .out, .warning and .report (each to a
//! temporary file in the same directory, then renamed, so that nothing is left half written), and prints
//! the report on stdout.
//!
//! An unreadable config, a wrong header or a bad option value is an error (exit 2); a problem in one row is a
//! warning in `.warning` and the other rows are analysed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Result, bail};

use super::{self as app, Outcome, Output, check_outputs, write_atomically};
use crate::cli::SpeeduptestArgs;
use crate::plan::speeduptest_options;
use crate::protocol::speedup_test::{ConfigRow, analyse_config};
use crate::report::speeduptest_sh as render;
use crate::sources::speeduptest_sh::{self as config, LoadedRow, Rows};

/// `speeduptest`.
pub(super) fn speeduptest(args: &SpeeduptestArgs) -> Result<Outcome> {
    let start = Instant::now();
    let options = speeduptest_options(args)?;
    let rows = config::read_rows(&args.config)?;
    if rows.rows.is_empty() && rows.notes.is_empty() {
        bail!(
            "{}: no benchmark to analyse: the config has a header and no row\n\
             hint: add one row per benchmark, e.g. `bench1,base1.data,head1.data,,`",
            args.config.display()
        );
    }
    let prefix = prefix(&args.config, args.output.as_deref());
    let files = EXTENSIONS.map(|extension| with_extension(&prefix, extension));
    check_outputs_clear(args, &files, &rows)?;
    let config = rows.load();
    let inputs: Vec<ConfigRow> = config.entries.into_iter().map(input).collect();
    let mut analysis = analyse_config(&inputs, &options);
    analysis.warnings.splice(
        0..0,
        config
            .notes
            .into_iter()
            .map(|n| crate::protocol::Warning::new(crate::protocol::WarningKind::Input, n)),
    );
    let name = display_name(&args.config);
    let outputs = render::render(&analysis, &name, start.elapsed());
    let texts = [
        &outputs.status,
        &outputs.out,
        &outputs.warning,
        &outputs.report,
    ];
    for (file, text) in files.iter().zip(texts) {
        write_atomically(file, text.as_bytes())?;
    }
    print!("{}", outputs.report);
    let shown = files
        .each_ref()
        .map(|f| crate::inert::terminal(&f.display().to_string()));
    eprintln!("wrote {}", shown.join(", "));
    let count = analysis
        .rows
        .iter()
        .map(|r| r.warnings.len())
        .sum::<usize>()
        + analysis.warnings.len();
    if analysis.overall.is_none() {
        bail!(
            "no benchmark of {} could be analysed: every row has a problem\n\
             hint: fix the {count} problem(s) listed in {}",
            args.config.display(),
            shown[2]
        );
    }
    if count > 0 {
        eprintln!("{count} warning(s): see {}", shown[2]);
    }
    Ok(Outcome::Passed)
}

/// The extensions of the four outputs, in the order [`render::render`] gives them.
const EXTENSIONS: [&str; 4] = ["status", "out", "warning", "report"];

/// Where the outputs go: `-o PREFIX`, else the current directory, named after the config's whole file
/// name as paper 000 §6.2.5 names them ("`inputfilename.out`": `bench.cfg` → `./bench.cfg.out`, which
/// scripts written for SpeedUpTest.sh read), never beside a config elsewhere (`../c/bench.cfg` →
/// `./bench.cfg.out`: the paper runs in the config's directory, where the two agree).
fn prefix(config: &Path, output: Option<&Path>) -> PathBuf {
    output.map_or_else(
        || PathBuf::from(config.file_name().unwrap_or(config.as_os_str())),
        Path::to_path_buf,
    )
}

/// Refuses, before any sample is read, an output file that is the config or a sample file it names.
fn check_outputs_clear(args: &SpeeduptestArgs, files: &[PathBuf], rows: &Rows) -> Result<()> {
    let outputs: Vec<Output> = files
        .iter()
        .map(|path| Output {
            flag: "-o",
            path,
            example: "analysis",
        })
        .collect();
    let inputs: Vec<app::Input> = std::iter::once(args.config.as_path())
        .chain(rows.sample_files())
        .map(|path| app::Input::File(path.to_path_buf()))
        .collect();
    check_outputs(&outputs, &inputs)
}

fn input(entry: LoadedRow) -> ConfigRow {
    ConfigRow {
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
    fn the_default_prefix_is_the_configs_file_name_in_the_current_directory() {
        let default = |config: &str| prefix(Path::new(config), None);
        assert_eq!(default("bench.cfg"), PathBuf::from("bench.cfg"));
        assert_eq!(default("../c/bench.cfg"), PathBuf::from("bench.cfg"));
        assert_eq!(default("config"), PathBuf::from("config"));
        let given = prefix(Path::new("bench.cfg"), Some(Path::new("/tmp/run")));
        assert_eq!(given, PathBuf::from("/tmp/run"));
    }

    #[test]
    fn outputs_append_their_extension_to_the_prefix() {
        assert_eq!(
            with_extension(Path::new("dir/bench.cfg"), "out"),
            PathBuf::from("dir/bench.cfg.out")
        );
    }
}
