//! Loading one side: what a spec names (standard input, a file, a criterion directory, a baseline name), and
//! the reader of the format detected in its text. Must not: parse a format itself (each format's file does),
//! tell formats apart (`detect.rs`) or read bytes past the size limit (`bytes.rs`).

use std::path::{Path, PathBuf};

use super::bytes::{read_error, read_file, text_of};
use super::limits;
use super::{
    InputFormat, ReadOptions, SourceError, bmf, cargo_criterion, criterion, detect, diagnose,
    divan, go, google_benchmark, gungraun, hyperfine, libtest, raw_json,
};
use crate::model::Results;

/// What a side names, told from the spec and the file system before anything is read (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Location<'a> {
    /// `-`: standard input.
    Stdin,
    /// A directory, read as criterion's; with the selector after `#`, if any.
    Dir(&'a Path, Option<&'a str>),
    /// An existing path that is not a directory; with the selector after `#`, if any.
    File(&'a Path, Option<&'a str>),
    /// No such path: a criterion baseline name, looked up in the criterion home.
    BaselineName,
}

/// Tells what `spec` names, the way [`load`] reads it.
pub(crate) fn locate(spec: &str) -> Location<'_> {
    if spec == "-" {
        return Location::Stdin;
    }
    let (path, selector) = split_selector(spec);
    if path.is_dir() {
        Location::Dir(path, selector)
    } else if path.exists() {
        Location::File(path, selector)
    } else {
        Location::BaselineName
    }
}

/// Refuses two sides that are both `-`: the first would read standard input whole, and the second would find
/// it empty.
pub(crate) fn check_sides(base: &str, head: &str) -> Result<(), SourceError> {
    match (locate(base), locate(head)) {
        (Location::Stdin, Location::Stdin) => Err(SourceError::StdinTwice),
        _ => Ok(()),
    }
}

/// Loads one side: a file, a criterion directory, or a criterion baseline name (see the module doc).
pub(crate) fn load(spec: &str, options: &ReadOptions) -> Result<Results, SourceError> {
    match locate(spec) {
        Location::Stdin => {
            let origin = "standard input";
            let bytes = limits::read_stdin(options.max_input_size())
                .map_err(|e| read_error(e, origin, options.max_input_size()))?;
            load_bytes(&bytes, origin, None, options)
        }
        Location::Dir(path, selector) => criterion::load_dir(path, selector, options),
        Location::File(path, selector) => {
            let bytes = read_file(path, options.max_input_size())?;
            load_bytes(&bytes, &path.display().to_string(), selector, options)
        }
        Location::BaselineName => load_baseline_name(spec, options),
    }
}

/// Splits `PATH#SELECTOR` when `PATH` exists and the whole spec does not.
fn split_selector(spec: &str) -> (&Path, Option<&str>) {
    let whole = Path::new(spec);
    if whole.exists() {
        return (whole, None);
    }
    match spec.rsplit_once('#') {
        Some((path, selector)) if Path::new(path).exists() => (Path::new(path), Some(selector)),
        _ => (whole, None),
    }
}

fn load_baseline_name(spec: &str, options: &ReadOptions) -> Result<Results, SourceError> {
    let looks_like_name = !spec.is_empty() && !spec.contains(['/', '\\', '#']);
    if !looks_like_name {
        return Err(SourceError::Read {
            path: spec.into(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or directory"),
        });
    }
    let places: Vec<(PathBuf, Vec<String>)> = options
        .criterion_homes()
        .into_iter()
        .map(|home| {
            let baselines = criterion::baselines(&home);
            (home, baselines)
        })
        .collect();
    let holding: Vec<&PathBuf> = places
        .iter()
        .filter(|(_, baselines)| baselines.iter().any(|b| b == spec))
        .map(|(home, _)| home)
        .collect();
    match holding.as_slice() {
        [] => Err(SourceError::NotFound {
            spec: spec.into(),
            places: places
                .into_iter()
                .map(|(home, baselines)| (home.display().to_string(), baselines))
                .collect(),
        }),
        [home] => criterion::read_baseline_with(home, spec, options),
        // Each bench package of a workspace saved its own benchmarks under the name: they are one side.
        homes => {
            let parts = homes
                .iter()
                .map(|home| criterion::read_baseline_with(home, spec, options))
                .collect::<Result<Vec<_>, _>>()?;
            join_baselines(parts)
        }
    }
}

/// The results of one baseline name saved in several criterion homes, as one side: their benchmarks
/// together, a name found twice refused.
fn join_baselines(parts: Vec<Results>) -> Result<Results, SourceError> {
    let origin = parts
        .iter()
        .map(|p| p.origin.as_str())
        .collect::<Vec<_>>()
        .join(" and ");
    let mut joined = Results {
        origin,
        benchmarks: Vec::new(),
        environment: parts
            .first()
            .map(|p| p.environment.clone())
            .unwrap_or_default(),
        notes: Vec::new(),
        left_out: Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    for part in parts {
        for benchmark in part.benchmarks {
            if !seen.insert(benchmark.name.clone()) {
                return Err(SourceError::Duplicate {
                    path: joined.origin.clone(),
                    benchmark: benchmark.name,
                });
            }
            joined.benchmarks.push(benchmark);
        }
        joined.notes.extend(part.notes);
        joined.left_out.extend(part.left_out);
    }
    Ok(joined)
}

/// Reads the content of a file (or standard input) named `origin`: detects its format and parses it. Raw
/// timing JSON, the largest inputs, is parsed as such first and taken when [`detect`] would tell it so
/// (`raw_json::parse_if_raw`), so that the text is read once.
pub(crate) fn load_bytes(
    bytes: &[u8],
    origin: &str,
    selector: Option<&str>,
    options: &ReadOptions,
) -> Result<Results, SourceError> {
    let text = text_of(bytes, origin, options.max_input_size())?;
    if selector.is_none() {
        if let Some(read) = raw_json::parse_if_raw(text, origin) {
            return read;
        }
    }
    let format = detect(text).ok_or_else(|| diagnose::unreadable(text, origin))?;
    if format != InputFormat::Hyperfine && format != InputFormat::GoogleBenchmark {
        if let Some(selector) = selector {
            return Err(SourceError::Selector {
                path: origin.into(),
                message: format!(
                    "`#{selector}` selects nothing in {}\nhint: `#` picks a parameter value of a hyperfine \
                     file (`FILE#rev=main`), the time of a Google Benchmark file (`FILE#cpu_time`) or a \
                     baseline of a criterion directory (`DIR#NAME`); leave it out here",
                    format.name()
                ),
            });
        }
    }
    match format {
        InputFormat::AnalysisReport => Err(SourceError::AnalysisReport {
            path: origin.into(),
        }),
        InputFormat::Record | InputFormat::RawJson => raw_json::parse(text, origin),
        InputFormat::Hyperfine => hyperfine::parse(text, origin, selector),
        InputFormat::GoogleBenchmark => google_benchmark::parse(text, origin, selector),
        InputFormat::CargoCriterion => cargo_criterion::parse(text, origin, options.unit_override),
        InputFormat::Go => go::parse(text, origin),
        InputFormat::Divan => divan::parse(text, origin),
        InputFormat::LibtestText => libtest::parse_text(text, origin),
        InputFormat::LibtestJson => libtest::parse_json(text, origin),
        InputFormat::Gungraun => gungraun::parse(text, origin),
        InputFormat::Bmf => bmf::parse(text, origin),
    }
}
