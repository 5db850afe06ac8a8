//! Google Benchmark `--benchmark_format=json` / `--benchmark_out=FILE` (`docs/formats.md` §5).
//!
//! Why it exists: C and C++ code benchmarked with Google Benchmark (often beside Rust ports) can be compared
//! with the same protocols.
//!
//! Observations are the rows with `run_type == "iteration"` (or no `run_type` and no `aggregate_name`, in
//! older files), grouped by `run_name` (else `name`), one per repetition (`--benchmark_repetitions=N`):
//! `real_time` per iteration in `time_unit`, or `cpu_time` with the selector `FILE#cpu_time`. They are
//! `ValuesFrom::OneProcess`s: each repetition averages many iterations in one process. Aggregate rows
//! (`_mean`, `_median`, `_stddev`, `_cv`, BigO, RMS) are skipped with a note; rows with `error_occurred` are
//! skipped with a note naming them. A file with aggregates only (`--benchmark_report_aggregates_only`) is an
//! error with a hint. Google Benchmark may print `NaN` and `Infinity`, which JSON forbids: they are read as
//! `null`, so such a time is an error naming the benchmark, never a silent NaN. Must not: use aggregate rows
//! as observations.

use serde::Deserialize;

use super::{Builder, SourceError, ValuesFrom, invalid, parse_unit};
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
    real_time: Option<f64>,
    cpu_time: Option<f64>,
    time_unit: Option<String>,
}

impl Row {
    fn is_iteration(&self) -> bool {
        match self.run_type.as_deref() {
            Some(t) => t == "iteration",
            None => self.aggregate_name.is_none(),
        }
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
    let groups = group_rows(&file.benchmarks, origin, use_cpu, &mut builder.notes)?;
    if groups.is_empty() && file.benchmarks.iter().any(|r| !r.is_iteration()) {
        return Err(SourceError::NoSamples {
            path: origin.into(),
            reason: "the file holds aggregate rows only".into(),
            hint: Some(
                "run without --benchmark_report_aggregates_only, with --benchmark_repetitions=N"
                    .into(),
            ),
        });
    }
    for (name, values, unit) in groups {
        builder.push(&name, values, unit, ValuesFrom::OneProcess)?;
    }
    builder.finish(FORMAT)
}

/// The iteration rows grouped by run name, in first-seen order, each in the unit of its first row.
fn group_rows(
    rows: &[Row],
    origin: &str,
    use_cpu: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<(String, Vec<f64>, Unit)>, SourceError> {
    let mut groups: Vec<(String, Vec<f64>, Unit)> = Vec::new();
    let mut aggregates = 0usize;
    for row in rows {
        if !row.is_iteration() {
            aggregates += 1;
            continue;
        }
        let name = row.run_name.clone().unwrap_or_else(|| row.name.clone());
        if row.error_occurred {
            let why = row.error_message.as_deref().unwrap_or("no message");
            notes.push(format!(
                "{origin}: `{name}`: skipped a run that failed ({why})"
            ));
            continue;
        }
        let unit = parse_unit(row.time_unit.as_deref().unwrap_or("ns"), origin, FORMAT)?;
        let value = time(row, use_cpu, origin, &name)?;
        match groups.iter_mut().find(|g| g.0 == name) {
            Some(group) => group.1.push(value * unit.nanos() / group.2.nanos()),
            None => groups.push((name, vec![value], unit)),
        }
    }
    if aggregates > 0 {
        notes.push(format!(
            "{origin}: skipped {aggregates} aggregate rows (mean, median, stddev, ...)"
        ));
    }
    Ok(groups)
}

fn time(row: &Row, use_cpu: bool, origin: &str, name: &str) -> Result<f64, SourceError> {
    let (value, field) = if use_cpu {
        (row.cpu_time, "cpu_time")
    } else {
        (row.real_time, "real_time")
    };
    value.ok_or_else(|| {
        invalid(
            origin,
            FORMAT,
            format!("`{name}`: `{field}` is missing, NaN or infinite"),
        )
    })
}

#[cfg(test)]
mod tests;
