//! The bench harnesses a bench target may use, behind one seam: how to list a target's benchmarks, how to
//! start one process run with a filter and the requested length, and how to read that run's values. Every
//! harness yields, per run of a bench executable, one [`crate::model::Run`] per benchmark, so that all that
//! follows (layouts, identical executables, looks, race, record, cache, reports) is the same for all:
//!
//! - criterion: the run's samples, read from the baseline it saves under the run's `CRITERION_HOME`;
//! - divan: the median of the run's samples, read from the tree it prints (`crate::sources::divan`, the
//!   one parser of that tree, which `compare` uses too, so that both name a benchmark by divan's own `::`
//!   path), since divan prints no samples and has no machine-readable output; its counters are kept;
//! - libtest `#[bench]` (nightly): its `ns/iter`, read from the lines it prints (`libtest`).
//!
//! What a harness prints on stdout is kept beside the run's criterion home as `<target>.<harness>.txt`, and
//! read back from there, so that a run's directory holds everything read of it.
//!
//! Detection, per bench target (`detect`): the target's source names its harness (`criterion_main!`,
//! `divan::main()`, `#[bench]`); when it names none or several, the package's dependencies decide
//! (criterion only, or divan only); else the target is refused with a message saying what was expected.
//! `--harness` forces one for every target. Decisions the specs leave open, here and in
//! `docs/replication.md`: a divan run's value is its median (the most robust of the four statistics it
//! prints); a libtest run's is its `ns/iter` (libtest's median of its samples).
//!
//! Must not: start processes (that is `run::blocks`), or know how a value is analysed.

mod libtest;

use std::path::Path;

use super::settings::RunOptions;
use crate::model::coverage::{LeftOut, Reason};
use crate::model::{Benchmark, Counter, Results, Run, Runs, Sample, Unit};

/// The bench harness of a bench target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Harness {
    /// criterion (`criterion_main!`): each run saves its samples.
    Criterion,
    /// divan (`divan::main()`): each run prints a tree of statistics; its median is the run's value.
    Divan,
    /// libtest `#[bench]` on nightly: each run prints `ns/iter` per benchmark.
    Libtest,
}

impl Harness {
    /// Its name, as `--harness` takes it and messages give it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Harness::Criterion => "criterion",
            Harness::Divan => "divan",
            Harness::Libtest => "libtest",
        }
    }

    /// The arguments that list the benchmarks `filter` selects (printed one `NAME: benchmark` or
    /// `NAME: bench` line each), and the environment it needs: divan prints that form only for
    /// cargo-nextest (`NEXTEST=1`).
    pub(crate) fn list_args(
        self,
        filter: Option<&str>,
    ) -> (Vec<String>, Option<(&'static str, &'static str)>) {
        let mut args: Vec<String> = match self {
            Harness::Criterion | Harness::Libtest => vec!["--bench".into(), "--list".into()],
            Harness::Divan => vec!["--list".into(), "--format".into(), "terse".into()],
        };
        args.extend(filter.map(str::to_string));
        let env = (self == Harness::Divan).then_some(("NEXTEST", "1"));
        (args, env)
    }

    /// The arguments of one run: `filter` in place of the user's when given (the exact names to narrow to,
    /// as `exact` gives them), with the run length `options` asks for.
    ///
    /// divan: `--sample-count` is `--sample-size` (samples per run), `--min-time` is `--measurement-time`
    /// and `--max-time` is warm-up plus measurement time (divan has no warm-up of its own to set: it
    /// calibrates its iterations per sample itself). libtest takes no run length: it runs each benchmark
    /// until its own convergence rule stops (at most about 3 s).
    pub(crate) fn run_args(
        self,
        options: &RunOptions,
        baseline: &str,
        filter: Option<String>,
    ) -> Vec<String> {
        match self {
            Harness::Criterion => options.criterion_args_with(baseline, filter),
            Harness::Divan => {
                let mut args: Vec<String> = vec![
                    "--bench".into(),
                    "--color".into(),
                    "never".into(),
                    "--sample-count".into(),
                    options.sample_size.to_string(),
                    "--min-time".into(),
                    options.measurement_secs.to_string(),
                    "--max-time".into(),
                    seconds(options.warm_up_secs + options.measurement_secs),
                ];
                args.extend(filter.or_else(|| options.filter.clone()));
                args
            }
            Harness::Libtest => {
                let mut args: Vec<String> = vec!["--bench".into()];
                match filter {
                    // The narrowed filter is the exact names, one argument each.
                    Some(names) => {
                        args.push("--exact".into());
                        args.extend(names.split('\n').map(str::to_string));
                    }
                    None => args.extend(options.filter.clone()),
                }
                args
            }
        }
    }

    /// The filter that selects exactly `names`: a regular expression for criterion and divan (both match
    /// their filter as one), the names one a line for libtest (run with `--exact`).
    pub(crate) fn exact(self, names: &[&String]) -> String {
        match self {
            Harness::Libtest => names
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            Harness::Criterion => exact_regex(names),
            Harness::Divan => {
                // divan's filter matches a benchmark's path without its thread count (`f::t=2` runs as
                // `f`, with all its thread counts).
                let mut paths: Vec<String> = names.iter().map(|n| without_threads(n)).collect();
                paths.dedup();
                exact_regex(&paths.iter().collect::<Vec<_>>())
            }
        }
    }

    /// The name under which this harness's list gives the benchmark a run names `name`: divan lists a
    /// benchmark with thread counts once, by its path, and its runs give one result per thread count
    /// (`f::t=1`, `f::t=2`).
    pub(crate) fn listed_name(self, name: &str) -> String {
        match self {
            Harness::Divan => without_threads(name),
            Harness::Criterion | Harness::Libtest => name.to_string(),
        }
    }

    /// The file under a run's directory that keeps what `target`'s run printed, when this harness is read
    /// from it (criterion saves its own files).
    pub(crate) fn output_file(self, target: &str) -> Option<String> {
        match self {
            Harness::Criterion => None,
            Harness::Divan | Harness::Libtest => Some(format!("{target}.{}.txt", self.name())),
        }
    }
}

/// A divan path without its last component when that is a thread count (`t=2`).
fn without_threads(name: &str) -> String {
    match name.rsplit_once("::") {
        Some((path, last))
            if last
                .strip_prefix("t=")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            path.to_string()
        }
        _ => name.to_string(),
    }
}

/// `secs` to the microsecond, without trailing zeros (0.1 + 0.2 is written `0.3`).
fn seconds(secs: f64) -> String {
    let text = format!("{secs:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A regular expression matching exactly `names`.
fn exact_regex(names: &[&String]) -> String {
    let escaped: Vec<String> = names
        .iter()
        .map(|name| {
            name.chars()
                .flat_map(|c| {
                    let special = "\\.+*?()|[]{}^$#&-~".contains(c);
                    special
                        .then_some('\\')
                        .into_iter()
                        .chain(std::iter::once(c))
                })
                .collect()
        })
        .collect();
    format!("^(?:{})$", escaped.join("|"))
}

/// The harness of one bench target: the one its source names, else the one the package depends on;
/// `Err` says what was found instead, for the message.
pub(crate) fn detect(source: &str, dependencies: &[String]) -> Result<Harness, String> {
    let code: String = source
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let named: Vec<Harness> = [
        (Harness::Criterion, compact.contains("criterion_main!")),
        (Harness::Divan, compact.contains("divan::main(")),
        (Harness::Libtest, compact.contains("#[bench]")),
    ]
    .into_iter()
    .filter_map(|(h, found)| found.then_some(h))
    .collect();
    if let [one] = named[..] {
        return Ok(one);
    }
    let depends = |names: &[&str]| dependencies.iter().any(|d| names.contains(&d.as_str()));
    let criterion = depends(&["criterion", "codspeed-criterion-compat"]);
    let divan = depends(&["divan", "codspeed-divan-compat"]);
    match (criterion, divan) {
        (true, false) => Ok(Harness::Criterion),
        (false, true) => Ok(Harness::Divan),
        _ if named.len() > 1 => Err("its source names several harnesses".to_string()),
        (true, true) => Err(
            "the package depends on both criterion and divan and the source names neither".into(),
        ),
        (false, false) => Err("a plain `main` with neither dependency".to_string()),
    }
}

/// Whether cargo's build errors say that a bench file needs nightly (`#![feature(test)]` on a stable or
/// beta toolchain: E0554); the file it names when so.
pub(crate) fn needs_nightly(stderr: &str) -> Option<String> {
    let at = stderr.find("E0554")?;
    let after = &stderr[at..];
    let file = after
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("--> "))
        .map(|l| l.split(':').next().unwrap_or(l).to_string());
    Some(file.unwrap_or_default())
}

/// The values a divan or libtest run printed (`text`), one run each, as a [`Results`]; `Err` says why the
/// text is not what `harness` prints.
pub(crate) fn read_output(harness: Harness, text: &str, origin: &str) -> Result<Results, String> {
    let rows: Vec<(String, f64, Vec<Counter>)> = match harness {
        Harness::Divan => divan_rows(text)?,
        Harness::Libtest => libtest::parse(text)?
            .into_iter()
            .map(|(name, nanos)| (name, nanos, Vec::new()))
            .collect(),
        Harness::Criterion => {
            return Err("criterion saves its samples, it is not read from its output".into());
        }
    };
    let mut left_out = Vec::new();
    let mut benchmarks = Vec::new();
    for (name, nanos, counters) in rows {
        // Both harnesses print whole nanoseconds at the least: a 0 is a time below their resolution (an
        // optimised-away body), not a time; it is left out of this run, and of the side when no run of it
        // measured a time (`run::blocks::collect`).
        if nanos <= 0.0 {
            let printed = match harness {
                Harness::Divan => "0 ns",
                _ => "0 ns/iter",
            };
            left_out.push(LeftOut::benchmark(
                name,
                None,
                Reason::BelowResolution {
                    printed: printed.to_string(),
                },
            ));
            continue;
        }
        let sample = Sample::new(vec![nanos], Unit::Ns).map_err(|e| format!("`{name}`: {e}"))?;
        let runs = Runs::new(vec![Run::new(sample, None)]).map_err(|e| format!("`{name}`: {e}"))?;
        benchmarks.push(Benchmark {
            name,
            runs,
            unit: Unit::readable(nanos),
            counters,
        });
    }
    Ok(Results {
        origin: origin.to_string(),
        benchmarks,
        environment: Default::default(),
        notes: vec![],
        left_out,
    })
}

/// The benchmarks of one divan run's standard output (one tree; nothing else around it).
fn divan_rows(text: &str) -> Result<Vec<(String, f64, Vec<Counter>)>, String> {
    let trees = crate::sources::divan::trees(text, crate::sources::divan::Around::Nothing)?;
    Ok(trees
        .into_iter()
        .flatten()
        .map(|row| (row.name, row.median, row.counters))
        .collect())
}

/// Reads a kept output file of `harness` (`output_file`).
pub(crate) fn read_file(harness: Harness, path: &Path) -> Result<Results, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_output(harness, &text, &path.display().to_string())
}

#[cfg(test)]
mod tests;
