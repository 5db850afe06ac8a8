//! criterion.rs output trees on disk (`docs/formats.md` §1): `<root>/<dir>/<baseline>/{benchmark,sample}.json`.
//!
//! Why it exists: criterion is how Rust projects benchmark, and both `compare` (baselines saved with
//! `--save-baseline`) and the measuring code (the `new` samples of a run) read its files.
//!
//! Benchmarks are matched by `full_id` from `benchmark.json`, never by directory name: criterion's
//! directory names are lossy (`make_filename_safe`, 64-byte truncation) and order-dependent (`_2` suffixes).
//! Observation k is `times[k] / iters[k]`, the mean time of batch k (`ValuesFrom::OneProcess`), in
//! nanoseconds for criterion's WallTime (a custom measurement needs [`ReadOptions::unit_override`]). Both the
//! 0.3.3+ `sample.json` (`{"sampling_mode", "iters", "times"}`, `sampling_mode` optional, Linear or Flat)
//! and the older pair of arrays `[[iters…], [times…]]` are read; unknown fields are ignored. `estimates.json`
//! and `change/` are not read: the statistics use the samples only.
//!
//! Must not: guess a benchmark's name from its path, or skip a benchmark whose files are broken (that is an
//! error naming the file).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::diagnose::json_problem;
use super::{Builder, ReadOptions, SourceError, ValuesFrom, invalid};
use crate::model::coverage::Reason;
use crate::model::{Results, Unit};

const FORMAT: &str = "criterion data";
/// The deepest a baseline directory lies under a criterion root: `<group>[/<function>][/<value>]/<baseline>`
/// (`formats.md` §1.2). Nothing deeper is criterion's, so nothing deeper is looked at.
const MAX_DEPTH: usize = 4;

/// What a criterion directory holds, for messages when nothing of it is found.
const LAYOUT: &str = "<group>[/<function>][/<value>]/<baseline>/{benchmark,sample}.json";

#[derive(Deserialize)]
struct BenchmarkFile {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
    full_id: Option<String>,
}

impl BenchmarkFile {
    fn full_id(self) -> String {
        self.full_id.unwrap_or_else(|| {
            [Some(self.group_id), self.function_id, self.value_str]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("/")
        })
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum SampleFile {
    /// criterion 0.3.3 and later.
    Current {
        #[allow(dead_code)]
        sampling_mode: Option<String>,
        iters: Vec<f64>,
        times: Vec<f64>,
    },
    /// Before 0.3.3: `[iters, times]`.
    Legacy((Vec<f64>, Vec<f64>)),
}

/// Reads baseline `baseline` ("new" for the latest run) of every benchmark under the criterion root `root`,
/// in nanoseconds, sorted by `full_id`.
pub(crate) fn read_baseline(root: &Path, baseline: &str) -> Result<Results, SourceError> {
    read_baseline_with(root, baseline, &ReadOptions::default())
}

/// [`read_baseline`] with the samples in `options.unit_override` (default nanoseconds), each file read
/// within `options`' size limit.
pub(crate) fn read_baseline_with(
    root: &Path,
    baseline: &str,
    options: &ReadOptions,
) -> Result<Results, SourceError> {
    let unit = options.unit_override;
    let origin = format!("{} (baseline `{baseline}`)", root.display());
    if !root.is_dir() {
        return Err(SourceError::Read {
            path: root.display().to_string(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"),
        });
    }
    let mut dirs = Vec::new();
    collect_benchmark_dirs(root, 0, &mut |dir| {
        if dir.file_name().is_some_and(|n| n == baseline) {
            dirs.push(dir.to_path_buf());
        }
    });
    let mut benchmarks = Vec::new();
    for dir in &dirs {
        benchmarks.push(read_samples(dir, options.max_input_size())?);
    }
    benchmarks.sort_by(|a, b| a.0.cmp(&b.0));
    let mut builder = Builder::new(&origin);
    for (name, values) in benchmarks {
        let unit = unit.unwrap_or(Unit::Ns);
        match values {
            Ok(values) => builder.push(&name, values, unit, ValuesFrom::OneProcess)?,
            // A run stopped between the two files, or a sample.json that pairs nothing: this benchmark is
            // left out, the others compared.
            Err(unusable) => builder.leave_out(
                &name,
                Reason::NoValue {
                    detail: unusable.detail(),
                },
            )?,
        }
    }
    if dirs.is_empty() {
        return Err(no_baseline(root, baseline));
    }
    builder.finish(FORMAT)
}

fn no_baseline(root: &Path, baseline: &str) -> SourceError {
    let found = baselines(root);
    let hint = if found.is_empty() && root.join("data").is_dir() {
        "this looks like cargo-criterion's directory, which keeps no readable baselines: compare its \
         `--message-format=json` output instead"
            .to_string()
    } else if found.is_empty() {
        format!(
            "run `cargo bench` first, or give the directory that holds criterion's output (e.g. \
             target/criterion): it holds {LAYOUT}, at most {MAX_DEPTH} levels down"
        )
    } else {
        format!("baselines found: {}", found.join(", "))
    };
    SourceError::NoSamples {
        path: root.display().to_string(),
        reason: format!("no criterion benchmark has a `{baseline}` baseline here"),
        hint: Some(hint),
    }
}

/// The baseline names present under a criterion root (`new`, `base`, and every `--save-baseline` name),
/// sorted; empty when `root` is not a criterion tree.
pub(crate) fn baselines(root: &Path) -> Vec<String> {
    let mut names = Vec::new();
    collect_benchmark_dirs(root, 0, &mut |dir| {
        if let Some(name) = dir.file_name().and_then(|n| n.to_str()) {
            names.push(name.to_string());
        }
    });
    names.sort();
    names.dedup();
    names
}

/// Calls `found` with every baseline directory under the criterion root `dir`: one that holds a
/// `benchmark.json`, from 1 to [`MAX_DEPTH`] levels down; a baseline directory is not looked into. Symbolic
/// links are not followed, so a link loop cannot hang the walk, and nothing deeper than criterion's layout is
/// read, so that a directory that is no criterion root (`/`) is listed to that depth, never walked whole.
fn collect_benchmark_dirs(dir: &Path, depth: usize, found: &mut dyn FnMut(&Path)) {
    if depth > 0 && dir.join("benchmark.json").is_file() {
        found(dir);
        return;
    }
    if depth == MAX_DEPTH {
        return;
    }
    for child in subdirectories(dir) {
        collect_benchmark_dirs(&child, depth + 1, found);
    }
}

/// The directories directly under `dir`, sorted; a symbolic link is not one (it is not followed). None when
/// `dir` cannot be read.
pub(crate) fn subdirectories(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let mut children: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    children.sort();
    children
}

/// Reads one baseline directory (`<root>/<dir>/<baseline>`): its `full_id` and its batch means; each file
/// of at most `limit` bytes (`docs/formats.md` §11).
pub(crate) fn read_benchmark(dir: &Path, limit: u64) -> Result<(String, Vec<f64>), SourceError> {
    match read_samples(dir, limit)? {
        (name, Ok(values)) => Ok((name, values)),
        (name, Err(Unusable::NoSamples)) => Err(SourceError::NoSamples {
            path: dir.display().to_string(),
            reason: format!("benchmark `{name}` has no sample.json beside its benchmark.json"),
            hint: Some("rerun the benchmark: criterion writes sample.json with every run".into()),
        }),
        (_, Err(Unusable::Invalid(message))) => {
            let path = dir.join("sample.json").display().to_string();
            Err(invalid(&path, FORMAT, message))
        }
    }
}

/// Why one benchmark's `sample.json` gives no batch means, though the files read.
enum Unusable {
    /// There is no `sample.json`.
    NoSamples,
    /// Its arrays do not pair iteration counts with times.
    Invalid(String),
}

impl Unusable {
    fn detail(self) -> String {
        match self {
            Unusable::NoSamples => "no sample.json beside its benchmark.json".into(),
            Unusable::Invalid(message) => format!("sample.json: {message}"),
        }
    }
}

/// [`read_benchmark`], with why the benchmark has no batch means when its files read but give none.
fn read_samples(
    dir: &Path,
    limit: u64,
) -> Result<(String, Result<Vec<f64>, Unusable>), SourceError> {
    let id_path = dir.join("benchmark.json");
    let name = read_json::<BenchmarkFile>(&id_path, limit)?.full_id();
    let sample_path = dir.join("sample.json");
    if !sample_path.is_file() {
        return Ok((name, Err(Unusable::NoSamples)));
    }
    let (iters, times) = match read_json::<SampleFile>(&sample_path, limit)? {
        SampleFile::Current { iters, times, .. } => (iters, times),
        SampleFile::Legacy((iters, times)) => (iters, times),
    };
    if iters.len() != times.len() {
        let message = format!("{} iteration counts but {} times", iters.len(), times.len());
        return Ok((name, Err(Unusable::Invalid(message))));
    }
    if let Some(k) = iters.iter().position(|&n| !(n.is_finite() && n > 0.0)) {
        let message = format!("iteration count {k} is {}, expected > 0", iters[k]);
        return Ok((name, Err(Unusable::Invalid(message))));
    }
    let means = times.iter().zip(&iters).map(|(t, n)| t / n).collect();
    Ok((name, Ok(means)))
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path, limit: u64) -> Result<T, SourceError> {
    let shown = path.display().to_string();
    let bytes = super::bytes::read_file(path, limit)?;
    let text = super::bytes::text_of(&bytes, &shown, limit)?;
    serde_json::from_str(text).map_err(|e| invalid(&shown, FORMAT, json_problem(text, &e)))
}

/// Loads a directory given on the command line: one benchmark's baseline directory (it holds
/// `benchmark.json`), else a criterion root read at baseline `selector` (default `new`).
pub(crate) fn load_dir(
    dir: &Path,
    selector: Option<&str>,
    options: &ReadOptions,
) -> Result<Results, SourceError> {
    if dir.join("benchmark.json").is_file() && selector.is_none() {
        let (name, values) = read_benchmark(dir, options.max_input_size())?;
        let mut builder = Builder::new(&dir.display().to_string());
        let unit = options.unit_override.unwrap_or(Unit::Ns);
        builder.push(&name, values, unit, ValuesFrom::OneProcess)?;
        return builder.finish(FORMAT);
    }
    read_baseline_with(dir, selector.unwrap_or("new"), options)
}

#[cfg(test)]
mod tests;
