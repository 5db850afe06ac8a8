//! hyperfine `--export-json` files (`formats.md` §3): each element of `times` is one process run, in seconds
//! ([`Observation::ProcessRun`], the observation model of the Speedup-Test, `000` §2.1).
//!
//! Why it exists: hyperfine is how whole programs are benchmarked; its JSON keeps every run.
//!
//! Names: a result is named by its `command`, so two files are matched command by command. One file that
//! holds both revisions (`hyperfine -L rev main,feature './app-{rev} data.txt'`) is split with a selector:
//! `FILE#rev=main` keeps the results whose parameter `rev` is `main` (`FILE#main` matches any parameter with
//! that value, including the single `parameter` of files written before hyperfine 1.10). hyperfine does not
//! export the command template, so the name is the command with the selected value replaced by `{rev}`:
//! `./app-main data.txt` and `./app-feature data.txt` both become `./app-{rev} data.txt` and match. (The
//! contract says "removed"; putting the placeholder back reads better and is the template the user wrote.)
//!
//! Runs whose exit code is non-zero or `null` (killed by a signal) are dropped with a note: `000` §2.2
//! allows discarding only crashed or wrong runs. Must not: drop any other run (no outlier removal), or accept
//! a file without per-run `times`.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::{Builder, SourceError, invalid};
use crate::model::{Observation, Results, Unit};

const FORMAT: &str = "hyperfine --export-json";

#[derive(Deserialize)]
struct File {
    results: Vec<ResultFile>,
}

#[derive(Deserialize)]
struct ResultFile {
    command: String,
    times: Option<Vec<f64>>,
    exit_codes: Option<Vec<Option<i64>>>,
    #[serde(default)]
    parameters: BTreeMap<String, serde_json::Value>,
    parameter: Option<serde_json::Value>,
}

impl ResultFile {
    /// Parameter name -> value as text; the pre-1.10 single `parameter` is named `parameter`.
    fn parameters(&self) -> BTreeMap<String, String> {
        let mut all: BTreeMap<String, String> = self
            .parameters
            .iter()
            .map(|(k, v)| (k.clone(), value_text(v)))
            .collect();
        if let Some(v) = &self.parameter {
            all.insert("parameter".into(), value_text(v));
        }
        all
    }
}

fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Parses a hyperfine export read from `origin`, keeping only the results `selector` picks.
pub fn parse(text: &str, origin: &str, selector: Option<&str>) -> Result<Results, SourceError> {
    let file: File =
        serde_json::from_str(text).map_err(|e| invalid(origin, FORMAT, e.to_string()))?;
    let mut builder = Builder::new(origin);
    let mut matched = false;
    for result in &file.results {
        let name = match selector {
            None => result.command.clone(),
            Some(selector) => match select(result, selector) {
                Some(name) => name,
                None => continue,
            },
        };
        matched = true;
        let times = kept_runs(result, origin, &mut builder.notes)?;
        builder.push(&name, times, Unit::S, Observation::ProcessRun)?;
    }
    if let Some(selector) = selector.filter(|_| !matched) {
        return Err(no_match(&file, origin, selector));
    }
    if selector.is_none() {
        note_split_hint(&file, &mut builder.notes);
    }
    builder.finish(FORMAT)
}

/// The name of `result` under `selector` (`key=value` or `value`), or `None` when it is not selected.
fn select(result: &ResultFile, selector: &str) -> Option<String> {
    let parameters = result.parameters();
    let (key, value) = match selector.split_once('=') {
        Some((key, value)) => (key.to_string(), value),
        None => {
            let key = parameters.iter().find(|(_, v)| *v == selector)?.0.clone();
            (key, selector)
        }
    };
    if parameters.get(&key).map(String::as_str) != Some(value) {
        return None;
    }
    if value.is_empty() {
        return Some(result.command.clone());
    }
    Some(result.command.replace(value, &format!("{{{key}}}")))
}

/// The runs of `result` that exited with status 0, noting those dropped.
fn kept_runs(
    result: &ResultFile,
    origin: &str,
    notes: &mut Vec<String>,
) -> Result<Vec<f64>, SourceError> {
    let Some(times) = &result.times else {
        return Err(SourceError::NoSamples {
            path: origin.into(),
            reason: format!("`{}` has no per-run `times`", result.command),
            hint: Some("export with a hyperfine release that writes `times` (1.6 or later)".into()),
        });
    };
    let Some(codes) = &result.exit_codes else {
        return Ok(times.clone());
    };
    if codes.len() != times.len() {
        let message = format!(
            "`{}` has {} times but {} exit codes",
            result.command,
            times.len(),
            codes.len()
        );
        return Err(invalid(origin, FORMAT, message));
    }
    let kept: Vec<f64> = times
        .iter()
        .zip(codes)
        .filter(|(_, c)| **c == Some(0))
        .map(|(t, _)| *t)
        .collect();
    if kept.len() < times.len() {
        notes.push(format!(
            "{origin}: `{}`: dropped {} of {} runs that failed (non-zero exit code or killed by a signal)",
            result.command,
            times.len() - kept.len(),
            times.len()
        ));
    }
    Ok(kept)
}

fn no_match(file: &File, origin: &str, selector: &str) -> SourceError {
    let found: BTreeSet<String> = file
        .results
        .iter()
        .flat_map(|r| r.parameters())
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let found = if found.is_empty() {
        "this file has no parameterised results".to_string()
    } else {
        format!(
            "parameters found: {}",
            found.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    SourceError::Selector {
        path: origin.into(),
        message: format!("no result has the parameter `{selector}`; {found}"),
    }
}

/// A file whose parameter takes several values probably holds both revisions: say how to split it.
fn note_split_hint(file: &File, notes: &mut Vec<String>) {
    let mut values: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (k, v) in file.results.iter().flat_map(|r| r.parameters()) {
        values.entry(k).or_default().insert(v);
    }
    if let Some((key, vs)) = values.iter().find(|(_, vs)| vs.len() > 1) {
        let first = vs.iter().next().map(String::as_str).unwrap_or_default();
        notes.push(format!(
            "hyperfine results vary parameter `{key}`; to compare its values from one file, give FILE#{key}={first} and FILE#{key}=OTHER"
        ));
    }
}

#[cfg(test)]
#[path = "hyperfine_tests.rs"]
mod tests;
