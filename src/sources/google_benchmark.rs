//! Google Benchmark `--benchmark_format=json` / `--benchmark_out=FILE` (`docs/formats.md` §5).
//!
//! Why it exists: C and C++ code benchmarked with Google Benchmark (often beside Rust ports) can be compared
//! with the same protocols.
//!
//! Observations are the iteration rows, grouped by `run_name` (else `name`), one per repetition
//! (`--benchmark_repetitions=N`): `real_time` per iteration in `time_unit`, or `cpu_time` with the selector
//! `FILE#cpu_time`. They are `ValuesFrom::OneProcess`s: each repetition averages many iterations in one
//! process. Aggregate and complexity rows (`_mean`, `_median`, `_stddev`, `_cv`, `_BigO`, `_RMS`) are
//! statistics of the repetitions, not benchmarks: skipped with a note, told by `run_type`, or in files older
//! than `run_type` by `aggregate_name`, the complexity fields or the name's suffix ([`Aggregates`]). A file
//! with aggregates only (`--benchmark_report_aggregates_only`) is an error with a hint. A benchmark whose
//! every repetition was skipped (`"skipped": true`, `SkipWithMessage`) or errored (`error_occurred`) is left
//! out with that reason, as is one with a time that is not one; some repetitions of a benchmark skipped or
//! errored beside others are noted. Google Benchmark may print `NaN` and `Infinity`, which JSON forbids:
//! they are read as `null`, so such a time leaves its benchmark out, never a silent NaN. Must not: use
//! aggregate rows as observations.

use std::collections::HashSet;

use serde::Deserialize;

use super::{Builder, SourceError, ValuesFrom, invalid, parse_unit};
use crate::model::coverage::Reason;
use crate::model::{Results, Unit};

const FORMAT: &str = "Google Benchmark JSON";

#[derive(Deserialize)]
struct File {
    context: Option<ContextFile>,
    benchmarks: Vec<Row>,
}

#[derive(Deserialize)]
struct ContextFile {
    host_name: Option<String>,
    num_cpus: Option<f64>,
    mhz_per_cpu: Option<f64>,
}

#[derive(Deserialize)]
struct Row {
    name: String,
    run_name: Option<String>,
    run_type: Option<String>,
    aggregate_name: Option<String>,
    #[serde(default)]
    error_occurred: bool,
    error_message: Option<String>,
    #[serde(default)]
    skipped: bool,
    skip_message: Option<String>,
    real_time: Option<f64>,
    cpu_time: Option<f64>,
    time_unit: Option<String>,
    /// Present on a complexity row (`_BigO`), which has coefficients in place of times.
    big_o: Option<serde::de::IgnoredAny>,
    /// Present on a complexity row (`_RMS`).
    rms: Option<serde::de::IgnoredAny>,
}

/// The suffixes Google Benchmark gives the names of its aggregate and complexity rows.
const AGGREGATE_SUFFIXES: [&str; 6] = ["_mean", "_median", "_stddev", "_cv", "_BigO", "_RMS"];

/// Tells the rows that are aggregates (statistics of a benchmark's repetitions, complexity fits) from
/// the repetitions themselves, in files with and without `run_type`.
struct Aggregates {
    names: HashSet<String>,
}

impl Aggregates {
    fn of(rows: &[Row]) -> Aggregates {
        Aggregates {
            names: rows.iter().map(|r| r.name.clone()).collect(),
        }
    }

    /// Whether `row` is an aggregate: its `run_type` says so; without one (files before `run_type`,
    /// google/benchmark #379), it has an `aggregate_name`, a complexity field (`big_o`, `rms`), or its name
    /// is another row's name (or another aggregate's stem) with an aggregate suffix (`BM_X_mean` beside
    /// `BM_X` or beside `BM_X_stddev`).
    fn is_aggregate(&self, row: &Row) -> bool {
        if let Some(t) = row.run_type.as_deref() {
            return t != "iteration";
        }
        if row.aggregate_name.is_some() || row.big_o.is_some() || row.rms.is_some() {
            return true;
        }
        AGGREGATE_SUFFIXES.iter().any(|suffix| {
            row.name.strip_suffix(suffix).is_some_and(|stem| {
                self.names.contains(stem)
                    || AGGREGATE_SUFFIXES.iter().any(|other| {
                        other != suffix && self.names.contains(&format!("{stem}{other}"))
                    })
            })
        })
    }
}

/// Replaces the bare `NaN`, `Infinity` and `inf` tokens that Google Benchmark may print outside strings by
/// `null`, so that the text parses as JSON.
pub(crate) fn tolerant_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let (mut in_string, mut escaped) = (false, false);
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            (in_string, escaped) = (escaped || c != '"', !escaped && c == '\\');
            continue;
        }
        let starts_word = c.is_ascii_alphabetic()
            || (c == '-' && chars.peek().is_some_and(|n| n.is_ascii_alphabetic()));
        if !starts_word {
            in_string = c == '"';
            out.push(c);
            continue;
        }
        let mut word = String::from(c);
        while let Some(&n) = chars.peek().filter(|n| n.is_ascii_alphanumeric()) {
            word.push(n);
            chars.next();
        }
        let bare = word.trim_start_matches('-').to_ascii_lowercase();
        let non_finite = matches!(bare.as_str(), "nan" | "infinity" | "inf");
        out.push_str(if non_finite { "null" } else { &word });
    }
    out
}

/// Parses a Google Benchmark file read from `origin`; `selector` may be `cpu_time` or `real_time`.
pub(crate) fn parse(
    text: &str,
    origin: &str,
    selector: Option<&str>,
) -> Result<Results, SourceError> {
    let use_cpu = match selector {
        None | Some("real_time") => false,
        Some("cpu_time") => true,
        Some(other) => {
            return Err(SourceError::Selector {
                path: origin.into(),
                message: format!(
                    "`#{other}` is not a Google Benchmark time (use #real_time or #cpu_time)"
                ),
            });
        }
    };
    let file: File = serde_json::from_str(&tolerant_json(text))
        .map_err(|e| invalid(origin, FORMAT, e.to_string()))?;
    let mut builder = Builder::new(origin);
    if let Some(context) = &file.context {
        builder.environment.host = context.host_name.clone();
        builder.environment.cpu = match (context.num_cpus, context.mhz_per_cpu) {
            (Some(n), Some(mhz)) => Some(format!("{n} CPUs at {mhz} MHz")),
            _ => None,
        };
    }
    let aggregates = Aggregates::of(&file.benchmarks);
    let mut groups: Vec<Group> = Vec::new();
    let mut skipped_aggregates = 0usize;
    for row in &file.benchmarks {
        if aggregates.is_aggregate(row) {
            skipped_aggregates += 1;
            continue;
        }
        let name = row.run_name.clone().unwrap_or_else(|| row.name.clone());
        let at = match groups.iter().position(|g| g.name == name) {
            Some(at) => at,
            None => {
                groups.push(Group::new(name));
                groups.len() - 1
            }
        };
        groups[at].add(row, use_cpu, origin)?;
    }
    if skipped_aggregates > 0 {
        builder.notes.push(format!(
            "{origin}: skipped {skipped_aggregates} aggregate rows (mean, median, stddev, ...)"
        ));
    }
    if groups.is_empty() && skipped_aggregates > 0 {
        return Err(SourceError::NoSamples {
            path: origin.into(),
            reason: "the file holds aggregate rows only".into(),
            hint: Some(
                "run without --benchmark_report_aggregates_only, with --benchmark_repetitions=N"
                    .into(),
            ),
        });
    }
    for group in groups {
        group.into_builder(&mut builder, origin)?;
    }
    builder.finish(FORMAT)
}

/// One benchmark's repetitions: its values, in the unit of its first, and the rows it cannot use.
struct Group {
    name: String,
    values: Vec<f64>,
    unit: Option<Unit>,
    /// The messages of repetitions that errored (`error_occurred`).
    errored: Vec<String>,
    /// The messages of repetitions skipped (`SkipWithMessage`: `skipped`), `None` when empty.
    skipped: Vec<Option<String>>,
    /// A repetition whose time is missing or not finite: what is wrong.
    no_value: Option<String>,
}

impl Group {
    fn new(name: String) -> Group {
        Group {
            name,
            values: Vec::new(),
            unit: None,
            errored: Vec::new(),
            skipped: Vec::new(),
            no_value: None,
        }
    }

    fn add(&mut self, row: &Row, use_cpu: bool, origin: &str) -> Result<(), SourceError> {
        if row.error_occurred {
            let message = row.error_message.as_deref().unwrap_or("no message");
            self.errored.push(message.to_string());
            return Ok(());
        }
        if row.skipped {
            let message = row.skip_message.clone().filter(|m| !m.trim().is_empty());
            self.skipped.push(message);
            return Ok(());
        }
        let unit = parse_unit(row.time_unit.as_deref().unwrap_or("ns"), origin, FORMAT)?;
        let field = if use_cpu { "cpu_time" } else { "real_time" };
        let Some(value) = (if use_cpu { row.cpu_time } else { row.real_time }) else {
            self.no_value
                .get_or_insert_with(|| format!("`{field}` is missing, NaN or infinite"));
            return Ok(());
        };
        let first = *self.unit.get_or_insert(unit);
        self.values.push(value * unit.nanos() / first.nanos());
        Ok(())
    }

    /// Adds the benchmark, or leaves it out: for a time that is not one, or when no repetition ran.
    /// Some repetitions skipped or errored beside others that ran are noted.
    fn into_builder(self, builder: &mut Builder, origin: &str) -> Result<(), SourceError> {
        let name = self.name;
        if let Some(detail) = self.no_value {
            return builder.leave_out(&name, Reason::NoValue { detail });
        }
        if let Some(unit) = self.unit {
            let dropped = self.errored.len() + self.skipped.len();
            if dropped > 0 {
                let why = self
                    .errored
                    .first()
                    .cloned()
                    .or_else(|| self.skipped.iter().flatten().next().cloned())
                    .unwrap_or_else(|| "skipped".into());
                builder.notes.push(format!(
                    "{origin}: `{name}`: left out {dropped} of its {} repetitions, which the harness \
                     skipped or reported as errors ({why})",
                    dropped + self.values.len()
                ));
            }
            return builder.push(&name, self.values, unit, ValuesFrom::OneProcess);
        }
        let reason = match self.errored.into_iter().next() {
            Some(message) => Reason::Errored { message },
            None => Reason::Skipped {
                message: self.skipped.into_iter().flatten().next(),
            },
        };
        builder.leave_out(&name, reason)
    }
}

#[cfg(test)]
mod tests;
