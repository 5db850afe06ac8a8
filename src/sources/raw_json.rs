//! The raw timing JSON of `docs/formats.md` §6 (and its superset, the record JSON of [`super::record`]).
//!
//! ```json
//! { "unit": "ns",
//!   "benchmarks": [ { "name": "parse/small", "samples": [812.0, 799.5, 805.1] },
//!                   { "name": "parse/large", "unit": "us", "samples": [91.2, 90.8, 92.0] } ] }
//! ```
//!
//! A benchmark gives either `samples`, each value one independent process run, or `runs`, one array per
//! process run holding the samples taken inside that process (`docs/formats.md`, `docs/replication.md`):
//!
//! ```json
//! { "unit": "ns",
//!   "benchmarks": [ { "name": "parse/small", "runs": [[812.0, 799.5, 805.1], [830.2, 829.9, 828.7]] } ] }
//! ```
//!
//! With `runs`, an optional `layouts` array names the linked layout each run used (one integer per run).
//!
//! Why it exists: it is the simplest way to feed any harness's timings to `compare`. A benchmark's `unit`
//! overrides the file's, which defaults to `ns` (`ns`, `us`, `ms`, `s`). With `samples`, a benchmark may
//! declare `"observation": "batch-mean"` (the values were measured in one process) or `"process-run"` /
//! `"unknown"` (each value its own process, the default). The record fields (`schema`, `environment`,
//! `display_unit`, `notes`) are read when present; unknown fields are ignored.
//!
//! Must not: accept a sample that is empty, non-finite or not strictly positive, or two benchmarks with one
//! name (errors naming the file and the benchmark).

use serde::Deserialize;

use super::{Builder, Measured, SourceError, invalid, parse_unit};
use crate::model::{Environment, Results, Unit};

const FORMAT: &str = "raw timing JSON";

#[derive(Deserialize)]
struct File {
    unit: Option<String>,
    environment: Option<EnvironmentFile>,
    benchmarks: Vec<BenchmarkFile>,
    #[serde(default)]
    notes: Vec<String>,
}

#[derive(Deserialize)]
struct EnvironmentFile {
    cpu: Option<String>,
    rustc: Option<String>,
    host: Option<String>,
}

#[derive(Deserialize)]
struct BenchmarkFile {
    name: String,
    unit: Option<String>,
    display_unit: Option<String>,
    samples: Option<Vec<f64>>,
    runs: Option<Vec<Vec<f64>>>,
    layouts: Option<Vec<u32>>,
    observation: Option<String>,
}

/// Parses raw timing JSON or record JSON read from `origin`.
pub fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let file: File =
        serde_json::from_str(text).map_err(|e| invalid(origin, FORMAT, e.to_string()))?;
    let default_unit = match &file.unit {
        Some(u) => parse_unit(u, origin, FORMAT)?,
        None => Unit::Ns,
    };
    let mut builder = Builder::new(origin);
    for b in file.benchmarks {
        let unit = match &b.unit {
            Some(u) => parse_unit(u, origin, FORMAT)?,
            None => default_unit,
        };
        match (b.samples, b.runs) {
            (Some(samples), None) => {
                let measured = parse_observation(b.observation.as_deref(), origin)?;
                builder.push(&b.name, samples, unit, measured)?;
            }
            (None, Some(runs)) => builder.push_runs(&b.name, runs, unit, b.layouts)?,
            (Some(_), Some(_)) => {
                return Err(invalid(
                    origin,
                    FORMAT,
                    format!(
                        "benchmark `{}` has both `samples` and `runs`: give one (`runs` holds one array of \
                         samples per process run)",
                        b.name
                    ),
                ));
            }
            (None, None) => {
                return Err(invalid(
                    origin,
                    FORMAT,
                    format!("benchmark `{}` has neither `samples` nor `runs`", b.name),
                ));
            }
        }
        if let Some(display) = &b.display_unit {
            let display = parse_unit(display, origin, FORMAT)?;
            if let Some(last) = builder.last_mut() {
                last.unit = display;
            }
        }
    }
    if let Some(env) = file.environment {
        builder.environment = Environment {
            cpu: env.cpu,
            rustc: env.rustc,
            host: env.host,
        };
    }
    builder.notes = file.notes;
    builder.finish(FORMAT)
}

fn parse_observation(text: Option<&str>, origin: &str) -> Result<Measured, SourceError> {
    match text {
        None | Some("unknown") | Some("process-run") => Ok(Measured::ProcessPerValue),
        Some("batch-mean") => Ok(Measured::OneProcess),
        Some(other) => Err(invalid(
            origin,
            FORMAT,
            format!("unknown observation `{other}` (expected batch-mean, process-run or unknown)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::tests::fixture;
    use crate::sources::{Context, load};

    fn read(rel: &str) -> Result<Results, SourceError> {
        load(fixture(rel).to_str().unwrap(), &Context::default())
    }

    #[test]
    fn per_benchmark_unit_overrides_the_file_unit() {
        let results = read("raw/base.json").unwrap();
        assert_eq!(results.benchmarks[0].name, "parse/small");
        assert_eq!(
            results.benchmarks[0].runs.values(),
            vec![812.0, 799.5, 805.1]
        );
        assert_eq!(results.benchmarks[1].unit, Unit::Us);
        assert_eq!(
            results.benchmarks[1].runs.values(),
            vec![91200.0, 90800.0, 92000.0]
        );
    }

    #[test]
    fn samples_are_one_run_each_unless_declared_batch_means() {
        let text = r#"{"benchmarks":[{"name":"a","samples":[1,2,3]},
            {"name":"b","observation":"batch-mean","samples":[1,2,3]}]}"#;
        let results = parse(text, "x.json").unwrap();
        assert_eq!(results.benchmarks[0].runs.len(), 3);
        assert_eq!(results.benchmarks[1].runs.len(), 1);
        assert_eq!(
            results.benchmarks[1].runs.runs()[0].samples(),
            &[1.0, 2.0, 3.0]
        );
    }

    #[test]
    fn the_per_process_form_keeps_each_run_and_its_layout() {
        let text =
            r#"{"unit":"us","benchmarks":[{"name":"a","runs":[[1,2,9],[4,5]],"layouts":[3,7]}]}"#;
        let results = parse(text, "x.json").unwrap();
        let runs = results.benchmarks[0].runs.runs();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].samples(), &[1000.0, 2000.0, 9000.0]);
        assert_eq!(runs[0].value(), 2000.0);
        assert_eq!(runs[1].value(), 4500.0);
        assert_eq!((runs[0].layout(), runs[1].layout()), (Some(3), Some(7)));
    }

    #[test]
    fn a_bad_run_is_named_by_its_number() {
        let text = r#"{"benchmarks":[{"name":"a","runs":[[1,2],[3,-1]]}]}"#;
        let message = parse(text, "x.json").unwrap_err().to_string();
        assert!(message.contains("`a` run `2`"), "{message}");
        assert!(message.contains("observation 2 is -1"), "{message}");
        for (text, expected) in [
            (
                r#"{"benchmarks":[{"name":"a","runs":[]}]}"#,
                "no observations",
            ),
            (
                r#"{"benchmarks":[{"name":"a","runs":[[]]}]}"#,
                "no observations",
            ),
            (
                r#"{"benchmarks":[{"name":"a","runs":[[1]],"samples":[1]}]}"#,
                "both `samples` and `runs`",
            ),
            (
                r#"{"benchmarks":[{"name":"a"}]}"#,
                "neither `samples` nor `runs`",
            ),
            (
                r#"{"benchmarks":[{"name":"a","runs":[[1],[2]],"layouts":[1]}]}"#,
                "2 runs but 1 layouts",
            ),
        ] {
            let message = parse(text, "x.json").unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
    }

    #[test]
    fn zero_time_is_an_error_naming_file_and_benchmark() {
        let message = read("raw/zero.json").unwrap_err().to_string();
        assert!(message.contains("zero.json"), "{message}");
        assert!(message.contains("`parse/large`"), "{message}");
        assert!(message.contains("greater than zero"), "{message}");
    }

    #[test]
    fn duplicate_names_are_an_error() {
        let err = read("raw/duplicate.json").unwrap_err();
        assert!(matches!(err, SourceError::Duplicate { .. }), "{err:?}");
    }

    #[test]
    fn empty_samples_and_unknown_units_are_errors() {
        let empty = r#"{"benchmarks":[{"name":"a","samples":[]}]}"#;
        let message = parse(empty, "x.json").unwrap_err().to_string();
        assert!(message.contains("`a`: no observations"), "{message}");
        let unit = r#"{"unit":"cycles","benchmarks":[{"name":"a","samples":[1]}]}"#;
        let message = parse(unit, "x.json").unwrap_err().to_string();
        assert!(message.contains("unknown unit `cycles`"), "{message}");
    }
}
