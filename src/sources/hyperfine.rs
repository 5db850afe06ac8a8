//! hyperfine `--export-json` files (`docs/formats.md` §3): each element of `times` is one process run, in seconds
//! (`ValuesFrom::ProcessPerValue`, the observation model of the Speedup-Test, `000` §2.1).
//!
//! Why it exists: hyperfine is how whole programs are benchmarked; its JSON keeps every run.
//!
//! Names: a result is named by its `command`, so two files are matched command by command. One file that
//! holds both revisions (`hyperfine -L rev main,feature './app-{rev} data.txt'`) is split with a selector:
//! `FILE#rev=main` keeps the results whose parameter `rev` is `main` (`FILE#main` matches any parameter with
//! that value, including the single `parameter` of files written before hyperfine 1.10). hyperfine does not
//! export the command template, so the name is the command with the selected value replaced by `{rev}`:
//! `./app-main data.txt` and `./app-feature data.txt` both become `./app-{rev} data.txt` and match. Only the
//! occurrences where the command differs from a result with another value of that parameter (and the same
//! other parameters) are replaced, so `./app-1 -j1` stays `./app-{rev} -j1`; without such a result, every
//! occurrence is. (The contract says "removed"; putting the placeholder back reads better and is the
//! template the user wrote.)
//!
//! Runs whose exit code is non-zero or `null` (killed by a signal) are dropped with a note: `000` §2.2
//! allows discarding only crashed or wrong runs. A command whose every run failed (hyperfine's
//! `--ignore-failure` records them) is left out with how many runs failed and their exit codes; the other
//! commands are compared. Must not: drop any other run (no outlier removal), or accept
//! a file without per-run `times`.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde::Deserialize;

use super::{Builder, SourceError, ValuesFrom, invalid};
use crate::model::coverage::Reason;
use crate::model::{Results, Unit};

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
pub(crate) fn parse(
    text: &str,
    origin: &str,
    selector: Option<&str>,
) -> Result<Results, SourceError> {
    let file: File =
        serde_json::from_str(text).map_err(|e| invalid(origin, FORMAT, e.to_string()))?;
    let mut builder = Builder::new(origin);
    let mut matched = false;
    for result in &file.results {
        let name = match selector {
            None => result.command.clone(),
            Some(selector) => match select(result, &file.results, selector) {
                Some(name) => name,
                None => continue,
            },
        };
        matched = true;
        let times = kept_runs(result, origin, &mut builder.notes)?;
        if times.is_empty() {
            if let Some(reason) = all_failed(result) {
                builder.leave_out(&name, reason)?;
                continue;
            }
        }
        builder.push(&name, times, Unit::S, ValuesFrom::ProcessPerValue)?;
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
fn select(result: &ResultFile, all: &[ResultFile], selector: &str) -> Option<String> {
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
    let placeholder = format!("{{{key}}}");
    let others = |p: &BTreeMap<String, String>| {
        p.iter()
            .filter(|(k, _)| **k != key)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<Vec<_>>()
    };
    let counterpart = all.iter().find_map(|other| {
        let p = other.parameters();
        let w = p
            .get(&key)
            .filter(|w| !w.is_empty() && *w != value)?
            .clone();
        (others(&p) == others(&parameters)).then_some((other.command.as_str(), w))
    });
    counterpart
        .and_then(|(other, w)| template(&result.command, value, other, &w, &placeholder))
        .or_else(|| Some(result.command.replace(value, &placeholder)))
}

/// Commands longer than this are named by plain replacement, without looking for the template.
const MAX_TEMPLATE_LEN: usize = 4096;

/// The template that gives command `a` with `va` and command `b` with `vb` substituted for `placeholder`,
/// so that only the occurrences where the two commands differ become placeholders (`./app-1 -j1` and
/// `./app-2 -j1` give `./app-{rev} -j1`).
fn template(a: &str, va: &str, b: &str, vb: &str, placeholder: &str) -> Option<String> {
    if a.len() + b.len() > MAX_TEMPLATE_LEN {
        return None;
    }
    let mut failed = HashSet::new();
    fill(a, b, (va, vb, placeholder), &mut failed)
}

fn fill(
    a: &str,
    b: &str,
    v: (&str, &str, &str),
    failed: &mut HashSet<(usize, usize)>,
) -> Option<String> {
    if a.is_empty() && b.is_empty() {
        return Some(String::new());
    }
    if failed.contains(&(a.len(), b.len())) {
        return None;
    }
    if let (Some(ra), Some(rb)) = (a.strip_prefix(v.0), b.strip_prefix(v.1)) {
        if let Some(rest) = fill(ra, rb, v, failed) {
            return Some(format!("{}{rest}", v.2));
        }
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    if let (Some(x), Some(y)) = (ca.next(), cb.next()) {
        if x == y {
            if let Some(rest) = fill(ca.as_str(), cb.as_str(), v, failed) {
                return Some(format!("{x}{rest}"));
            }
        }
    }
    failed.insert((a.len(), b.len()));
    None
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
    if kept.len() < times.len() && !kept.is_empty() {
        notes.push(format!(
            "{origin}: `{}`: dropped {} of {} runs that failed (non-zero exit code or killed by a signal)",
            result.command,
            times.len() - kept.len(),
            times.len()
        ));
    }
    Ok(kept)
}

/// Why `result`, whose every run failed, is left out: how many runs, and their distinct exit codes in the
/// order first seen (`None`: killed by a signal). `None` when it ran no run at all.
fn all_failed(result: &ResultFile) -> Option<Reason> {
    let codes = result.exit_codes.as_ref().filter(|c| !c.is_empty())?;
    let mut distinct: Vec<Option<i32>> = Vec::new();
    for code in codes {
        let code =
            code.map(|c| i32::try_from(c).unwrap_or(if c < 0 { i32::MIN } else { i32::MAX }));
        if !distinct.contains(&code) {
            distinct.push(code);
        }
    }
    Some(Reason::Failed {
        failed: codes.len(),
        runs: codes.len(),
        exit_codes: distinct,
        message: String::new(),
    })
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
mod tests;
