//! The raw timing JSON of `product.md` (and its superset, the record JSON of [`super::record`]).
//!
//! ```json
//! { "unit": "ns",
//!   "benchmarks": [ { "name": "parse/small", "samples": [812.0, 799.5, 805.1] },
//!                   { "name": "parse/large", "unit": "us", "samples": [91.2, 90.8, 92.0] } ] }
//! ```
//!
//! Why it exists: it is the simplest way to feed any harness's timings to `compare`. A benchmark's `unit`
//! overrides the file's, which defaults to `ns` (`ns`, `us`, `ms`, `s`). Each benchmark may declare
//! `"observation": "batch-mean" | "process-run" | "unknown"`; without it the observations are
//! [`Observation::Unknown`]. The record fields (`schema`, `environment`, `display_unit`, `notes`) are read
//! when present; unknown fields are ignored.
//!
//! Must not: accept a sample that is empty, non-finite or not strictly positive, or two benchmarks with one
//! name (errors naming the file and the benchmark).

use serde::Deserialize;

use super::{Builder, SourceError, invalid, parse_unit};
use crate::model::{Environment, Observation, Results, Unit};

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
    samples: Vec<f64>,
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
        let observation = parse_observation(b.observation.as_deref(), origin)?;
        builder.push(&b.name, b.samples, unit, observation)?;
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

fn parse_observation(text: Option<&str>, origin: &str) -> Result<Observation, SourceError> {
    match text {
        None | Some("unknown") => Ok(Observation::Unknown),
        Some("batch-mean") => Ok(Observation::BatchMean),
        Some("process-run") => Ok(Observation::ProcessRun),
        Some(other) => Err(invalid(
            origin,
            FORMAT,
            format!("unknown observation `{other}` (expected batch-mean, process-run or unknown)"),
        )),
    }
}

/// The name [`parse`] accepts for an [`Observation`].
pub(crate) fn observation_name(observation: Observation) -> &'static str {
    match observation {
        Observation::BatchMean => "batch-mean",
        Observation::ProcessRun => "process-run",
        Observation::Unknown => "unknown",
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
        assert_eq!(results.benchmarks[0].sample.nanos(), &[812.0, 799.5, 805.1]);
        assert_eq!(results.benchmarks[1].unit, Unit::Us);
        assert_eq!(
            results.benchmarks[1].sample.nanos(),
            &[91200.0, 90800.0, 92000.0]
        );
        assert_eq!(results.benchmarks[1].observation, Observation::Unknown);
    }

    #[test]
    fn declared_observation_is_kept() {
        let results = read("raw/head.json").unwrap();
        assert_eq!(results.benchmarks[0].observation, Observation::ProcessRun);
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
