//! The record JSON that `cargo speedup record` writes: the raw timing JSON plus provenance, read back by
//! [`super::raw_json::parse`] (any reader of the raw JSON reads a record).
//!
//! ```json
//! { "schema": "cargo-speedup-record/1",
//!   "unit": "ns",
//!   "environment": { "cpu": "AMD EPYC 7B13", "rustc": "rustc 1.85.0", "host": "x86_64-unknown-linux-gnu" },
//!   "benchmarks": [ { "name": "parse/small", "unit": "ns", "display_unit": "us",
//!                     "observation": "batch-mean", "samples": [812.0, 799.5] } ],
//!   "notes": [] }
//! ```
//!
//! Samples are always written in nanoseconds (each benchmark's `unit` is `"ns"`), printed as the shortest
//! decimal that reads back to the same `f64`, so writing then loading gives the same samples bit for bit;
//! `display_unit` keeps the unit the benchmark was measured in, for display. `environment` members are
//! `null` when unknown. Why it exists: a `record`ed run can be compared later, by this tool or any reader of
//! the raw JSON. Must not: write NaN or infinities (a [`Sample`](crate::model::Sample) has none).

use std::io::Write;

use serde::Serialize;

use super::raw_json::observation_name;
use crate::model::Results;

/// The `schema` of a record file.
pub const SCHEMA: &str = "cargo-speedup-record/1";

#[derive(Serialize)]
struct RecordFile<'a> {
    schema: &'static str,
    unit: &'static str,
    environment: EnvironmentWire<'a>,
    benchmarks: Vec<BenchmarkWire<'a>>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct EnvironmentWire<'a> {
    cpu: Option<&'a str>,
    rustc: Option<&'a str>,
    host: Option<&'a str>,
}

#[derive(Serialize)]
struct BenchmarkWire<'a> {
    name: &'a str,
    unit: &'static str,
    display_unit: &'static str,
    observation: &'static str,
    samples: &'a [f64],
}

/// Writes `results` as record JSON (pretty-printed, newline-terminated).
pub fn write(results: &Results, out: &mut impl Write) -> std::io::Result<()> {
    let env = &results.environment;
    let file = RecordFile {
        schema: SCHEMA,
        unit: "ns",
        environment: EnvironmentWire {
            cpu: env.cpu.as_deref(),
            rustc: env.rustc.as_deref(),
            host: env.host.as_deref(),
        },
        benchmarks: results
            .benchmarks
            .iter()
            .map(|b| BenchmarkWire {
                name: &b.name,
                unit: "ns",
                display_unit: b.unit.as_str(),
                observation: observation_name(b.observation),
                samples: b.sample.nanos(),
            })
            .collect(),
        notes: &results.notes,
    };
    serde_json::to_writer_pretty(&mut *out, &file)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Environment, Observation, Sample, Unit};
    use crate::sources::{Context, Format, detect, load_bytes};

    fn results() -> Results {
        let bench = |name: &str, values: Vec<f64>, unit, observation| Benchmark {
            name: name.into(),
            sample: Sample::new(values, unit).unwrap(),
            unit,
            observation,
        };
        Results {
            origin: "measured".into(),
            benchmarks: vec![
                bench(
                    "a/1",
                    vec![0.1, 0.2, 1.0 / 3.0],
                    Unit::Us,
                    Observation::BatchMean,
                ),
                bench("b", vec![1e-90, 7.3e12], Unit::S, Observation::ProcessRun),
                bench("c \"quoted\"", vec![5.0], Unit::Ns, Observation::Unknown),
            ],
            environment: Environment {
                cpu: Some("AMD EPYC 7B13".into()),
                rustc: None,
                host: Some("x86_64-unknown-linux-gnu".into()),
            },
            notes: vec!["dropped 1 run".into()],
        }
    }

    #[test]
    fn written_record_loads_back_identically() {
        let original = results();
        let mut bytes = Vec::new();
        write(&original, &mut bytes).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert_eq!(detect(text), Some(Format::Record));
        let read = load_bytes(&bytes, "record.json", None, &Context::default()).unwrap();
        assert_eq!(read.benchmarks, original.benchmarks);
        assert_eq!(read.environment, original.environment);
        assert_eq!(read.notes, original.notes);
    }

    #[test]
    fn record_declares_schema_and_nanoseconds() {
        let mut bytes = Vec::new();
        write(&results(), &mut bytes).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-record/1");
        assert_eq!(value["benchmarks"][0]["unit"], "ns");
        assert_eq!(value["benchmarks"][0]["display_unit"], "us");
        assert_eq!(value["benchmarks"][0]["observation"], "batch-mean");
        assert_eq!(value["environment"]["rustc"], serde_json::Value::Null);
    }
}
