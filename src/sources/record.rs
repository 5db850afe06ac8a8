//! The record JSON that `cargo speedup record` writes: the raw timing JSON plus provenance, read back by
//! [`super::raw_json::parse`] (any reader of the raw JSON reads a record).
//!
//! ```json
//! { "schema": "cargo-speedup-record/1",
//!   "unit": "ns",
//!   "environment": { "cpu": "AMD EPYC 7B13", "rustc": "rustc 1.85.0", "host": "x86_64-unknown-linux-gnu" },
//!   "benchmarks": [ { "name": "parse/small", "unit": "ns", "display_unit": "us",
//!                     "runs": [[812.0, 799.5], [830.2, 829.9]], "layouts": [0, 1] } ],
//!   "notes": [] }
//! ```
//!
//! Each process run is written separately (`runs`: one array of samples per run, `docs/replication.md`);
//! `layouts`, one per run, appears when the linked layout of each run is known; `counters` (`[{ "kind":
//! "bytes", "per_iteration": 64.0, "exact": true }]`, divan's) when the harness printed any. A record of schema
//! `cargo-speedup-record/1` (flat `samples` with an `observation`) is still read.
//!
//! Samples are always written in nanoseconds (each benchmark's `unit` is `"ns"`), printed as the shortest
//! decimal that reads back to the same `f64`, so writing then loading gives the same samples bit for bit;
//! `display_unit` keeps the unit the benchmark was measured in, for display. `environment` members are
//! `null` when unknown. Why it exists: a `record`ed run can be compared later, by this tool or any reader of
//! the raw JSON. Must not: write NaN or infinities (a [`Sample`](crate::model::Sample) has none).

use std::io::Write;

use serde::Serialize;

use crate::model::{Results, Run};

/// The `schema` of a record file.
pub(crate) const SCHEMA: &str = "cargo-speedup-record/2";

/// The `schema` of records written before runs were kept apart; still read.
pub(crate) const SCHEMA_V1: &str = "cargo-speedup-record/1";

#[derive(Serialize)]
struct RecordFile<'a> {
    schema: &'static str,
    unit: &'static str,
    environment: EnvironmentWire<'a>,
    /// What the measuring command recorded (`crate::model::fingerprint`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    fingerprint: Option<&'a crate::model::fingerprint::Fingerprint>,
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
    runs: Vec<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layouts: Option<Vec<u32>>,
    /// The harness's counters (divan's), absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    counters: Vec<CounterWire>,
}

#[derive(Serialize)]
struct CounterWire {
    kind: &'static str,
    per_iteration: f64,
    exact: bool,
}

/// Writes `results` as record JSON (pretty-printed, newline-terminated).
pub(crate) fn write(results: &Results, out: &mut impl Write) -> std::io::Result<()> {
    let env = &results.environment;
    let file = RecordFile {
        schema: SCHEMA,
        unit: "ns",
        environment: EnvironmentWire {
            cpu: env.cpu.as_deref(),
            rustc: env.rustc.as_deref(),
            host: env.host.as_deref(),
        },
        fingerprint: env.fingerprint.as_ref(),
        benchmarks: results
            .benchmarks
            .iter()
            .map(|b| BenchmarkWire {
                name: &b.name,
                unit: "ns",
                display_unit: b.unit.as_str(),
                runs: b.runs.runs().iter().map(Run::samples).collect(),
                layouts: b.runs.runs().iter().map(Run::layout).collect(),
                counters: b
                    .counters
                    .iter()
                    .map(|c| CounterWire {
                        kind: c.kind.name(),
                        per_iteration: c.per_iteration,
                        exact: c.exact,
                    })
                    .collect(),
            })
            .collect(),
        notes: &results.notes,
    };
    crate::inert::write_json(&mut *out, &file)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Environment, Runs, Sample, Unit};
    use crate::sources::{InputFormat, ReadOptions, detect, load_bytes};

    fn results() -> Results {
        let bench = |name: &str, values: Vec<f64>, unit, one_process: bool| {
            let sample = Sample::new(values, unit).unwrap();
            Benchmark {
                name: name.into(),
                runs: if one_process {
                    Runs::one_process(sample)
                } else {
                    Runs::independent(sample)
                },
                unit,
                counters: Vec::new(),
            }
        };
        let laid_out = Benchmark {
            name: "d".into(),
            runs: Runs::new(vec![
                Run::new(Sample::new(vec![3.0, 4.0], Unit::Ns).unwrap(), Some(0)),
                Run::new(Sample::new(vec![5.0], Unit::Ns).unwrap(), Some(9)),
            ])
            .unwrap(),
            unit: Unit::Ns,
            counters: vec![
                crate::model::Counter {
                    kind: crate::model::CounterKind::Bytes,
                    per_iteration: 64.0,
                    exact: true,
                },
                crate::model::Counter {
                    kind: crate::model::CounterKind::Items,
                    per_iteration: 16380.0,
                    exact: false,
                },
            ],
        };
        Results {
            origin: "measured".into(),
            benchmarks: vec![
                bench("a/1", vec![0.1, 0.2, 1.0 / 3.0], Unit::Us, true),
                bench("b", vec![1e-90, 7.3e12], Unit::S, false),
                bench("c \"quoted\"", vec![5.0], Unit::Ns, false),
                laid_out,
            ],
            environment: Environment {
                cpu: Some("AMD EPYC 7B13".into()),
                rustc: None,
                host: Some("x86_64-unknown-linux-gnu".into()),
                fingerprint: Some(crate::model::fingerprint::Fingerprint {
                    tool: "cargo-speedup 0.1.0".into(),
                    head_commit: Some("0123abcd".into()),
                    partition: Some("hash:2/3".into()),
                    ..Default::default()
                }),
            },
            notes: vec!["dropped 1 run".into()],
            left_out: vec![],
        }
    }

    #[test]
    fn written_record_loads_back_identically() {
        let original = results();
        let mut bytes = Vec::new();
        write(&original, &mut bytes).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert_eq!(detect(text), Some(InputFormat::Record));
        let read = load_bytes(&bytes, "record.json", None, &ReadOptions::default()).unwrap();
        assert_eq!(read.benchmarks, original.benchmarks);
        assert_eq!(read.environment, original.environment);
        assert_eq!(read.notes, original.notes);
    }

    #[test]
    fn record_declares_schema_and_nanoseconds() {
        let mut bytes = Vec::new();
        write(&results(), &mut bytes).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(value["schema"], "cargo-speedup-record/2");
        assert_eq!(value["benchmarks"][0]["unit"], "ns");
        assert_eq!(value["benchmarks"][0]["display_unit"], "us");
        assert_eq!(value["benchmarks"][0]["runs"].as_array().unwrap().len(), 1);
        assert_eq!(value["benchmarks"][1]["runs"].as_array().unwrap().len(), 2);
        assert_eq!(value["benchmarks"][0].get("layouts"), None);
        assert_eq!(value["benchmarks"][3]["layouts"], serde_json::json!([0, 9]));
        // Counters only where the harness printed any.
        assert_eq!(value["benchmarks"][0].get("counters"), None);
        assert_eq!(
            value["benchmarks"][3]["counters"],
            serde_json::json!([
                {"kind": "bytes", "per_iteration": 64.0, "exact": true},
                {"kind": "items", "per_iteration": 16380.0, "exact": false}
            ])
        );
        assert_eq!(value["environment"]["rustc"], serde_json::Value::Null);
    }
}
