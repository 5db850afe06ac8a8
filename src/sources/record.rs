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
//! `cargo-speedup-record/1` (flat `samples` with an `observation`) is still read. `left_out`
//! ([`LeftOutWire`]) lists what the runs did not measure and why, when anything: the result cache keeps it
//! with the runs.
//!
//! Samples are always written in nanoseconds (each benchmark's `unit` is `"ns"`), printed as the shortest
//! decimal that reads back to the same `f64`, so writing then loading gives the same samples bit for bit;
//! `display_unit` keeps the unit the benchmark was measured in, for display. `environment` members are
//! `null` when unknown. Why it exists: a `record`ed run can be compared later, by this tool or any reader of
//! the raw JSON. Must not: write NaN or infinities (a [`Sample`](crate::model::Sample) has none).

use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::model::coverage::{Granularity, LeftOut, Reason};
use crate::model::{Results, Run, Side};

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
    /// What the runs did not measure, and why (`crate::model::coverage`); absent when nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    left_out: Vec<LeftOutWire>,
}

/// One [`LeftOut`] on the wire: `{ "name", "kind": "bench-target" | "benchmark", "side": "base" | "head" |
/// null, "reason": { "kind": ..., its data } }`, read back by [`super::raw_json`] into the same value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LeftOutWire {
    name: String,
    kind: GranularityWire,
    side: Option<SideWire>,
    reason: ReasonWire,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum GranularityWire {
    BenchTarget,
    Benchmark,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum SideWire {
    Base,
    Head,
}

/// A [`Reason`] with its data, tagged by `kind` as the JSON report's `not_compared[].reason` names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum ReasonWire {
    NeedsFeatures {
        missing: Vec<String>,
    },
    BuildFailed {
        message: String,
    },
    Failed {
        failed: usize,
        runs: usize,
        exit_codes: Vec<Option<i32>>,
        message: String,
    },
    Skipped {
        message: Option<String>,
    },
    Errored {
        message: String,
    },
    BelowResolution {
        printed: String,
    },
    NoValue {
        detail: String,
    },
    Excluded {
        option: String,
    },
    OnlyAtThisSide,
}

impl LeftOutWire {
    /// `item` as written.
    pub(crate) fn of(item: &LeftOut) -> LeftOutWire {
        LeftOutWire {
            name: item.name.clone(),
            kind: match item.granularity {
                Granularity::Target => GranularityWire::BenchTarget,
                Granularity::Benchmark => GranularityWire::Benchmark,
            },
            side: item.side.map(|side| match side {
                Side::Base => SideWire::Base,
                Side::Head => SideWire::Head,
            }),
            reason: match item.reason.clone() {
                Reason::NeedsFeatures { missing } => ReasonWire::NeedsFeatures { missing },
                Reason::BuildFailed { message } => ReasonWire::BuildFailed { message },
                Reason::Failed {
                    failed,
                    runs,
                    exit_codes,
                    message,
                } => ReasonWire::Failed {
                    failed,
                    runs,
                    exit_codes,
                    message,
                },
                Reason::Skipped { message } => ReasonWire::Skipped { message },
                Reason::Errored { message } => ReasonWire::Errored { message },
                Reason::BelowResolution { printed } => ReasonWire::BelowResolution { printed },
                Reason::NoValue { detail } => ReasonWire::NoValue { detail },
                Reason::Excluded { option } => ReasonWire::Excluded { option },
                Reason::OnlyAtThisSide => ReasonWire::OnlyAtThisSide,
            },
        }
    }

    /// The [`LeftOut`] read.
    pub(crate) fn into_model(self) -> LeftOut {
        LeftOut {
            name: self.name,
            granularity: match self.kind {
                GranularityWire::BenchTarget => Granularity::Target,
                GranularityWire::Benchmark => Granularity::Benchmark,
            },
            side: self.side.map(|side| match side {
                SideWire::Base => Side::Base,
                SideWire::Head => Side::Head,
            }),
            reason: match self.reason {
                ReasonWire::NeedsFeatures { missing } => Reason::NeedsFeatures { missing },
                ReasonWire::BuildFailed { message } => Reason::BuildFailed { message },
                ReasonWire::Failed {
                    failed,
                    runs,
                    exit_codes,
                    message,
                } => Reason::Failed {
                    failed,
                    runs,
                    exit_codes,
                    message,
                },
                ReasonWire::Skipped { message } => Reason::Skipped { message },
                ReasonWire::Errored { message } => Reason::Errored { message },
                ReasonWire::BelowResolution { printed } => Reason::BelowResolution { printed },
                ReasonWire::NoValue { detail } => Reason::NoValue { detail },
                ReasonWire::Excluded { option } => Reason::Excluded { option },
                ReasonWire::OnlyAtThisSide => Reason::OnlyAtThisSide,
            },
        }
    }
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
    /// The block of each run, and their session as a string (a u64 is beyond a double's integers), when
    /// every run has one, all of one session.
    #[serde(skip_serializing_if = "Option::is_none")]
    blocks: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    block_session: Option<String>,
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
                blocks: b.runs.blocks().map(|(_, indices)| indices),
                block_session: b.runs.blocks().map(|(seed, _)| seed.to_string()),
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
        left_out: results.left_out.iter().map(LeftOutWire::of).collect(),
    };
    crate::inert::write_json(&mut *out, &file)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Environment, Runs, Sample, Unit};
    use crate::sources::load::load_bytes;
    use crate::sources::{InputFormat, ReadOptions, detect};

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
    fn the_blocks_of_the_runs_load_back_with_their_seed() {
        // A seed beyond a double's integers is written as a string and read back exactly.
        let seed = u64::MAX - 1;
        let mut original = results();
        let runs = &mut original.benchmarks[1].runs;
        assert!(runs.set_blocks(seed, &[3, 5]));
        assert!(!runs.clone().set_blocks(seed, &[3]));
        let mut bytes = Vec::new();
        write(&original, &mut bytes).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(value["benchmarks"][1]["blocks"], serde_json::json!([3, 5]));
        assert_eq!(
            value["benchmarks"][1]["block_session"],
            "18446744073709551614"
        );
        assert_eq!(value["benchmarks"][0].get("blocks"), None);
        let read = load_bytes(&bytes, "record.json", None, &ReadOptions::default()).unwrap();
        assert_eq!(read.benchmarks, original.benchmarks);
        assert_eq!(read.benchmarks[1].runs.blocks(), Some((seed, vec![3, 5])));
    }

    #[test]
    fn a_count_loads_back_as_a_count() {
        // `--measure instructions` stores its counts in the cache as a record.
        let unit = crate::sources::events::EVENTS[0].unit();
        let mut original = results();
        original.benchmarks = vec![Benchmark {
            name: "a (instructions)".into(),
            runs: Runs::independent(Sample::new(vec![60110.0], unit).unwrap()),
            unit,
            counters: vec![],
        }];
        let mut bytes = Vec::new();
        write(&original, &mut bytes).unwrap();
        let read = load_bytes(&bytes, "record.json", None, &ReadOptions::default()).unwrap();
        assert_eq!(read.benchmarks, original.benchmarks);
        assert!(read.benchmarks[0].unit.is_count());
    }

    /// Every [`Reason`], at each granularity and side, with the data that is easiest to lose: a signal
    /// among exit codes, a skip without a message, text to escape.
    fn every_reason() -> Vec<LeftOut> {
        vec![
            LeftOut::target(
                "heavy",
                None,
                Reason::NeedsFeatures {
                    missing: vec!["heavy".into(), "simd".into()],
                },
            ),
            LeftOut::target(
                "new_api",
                Some(Side::Head),
                Reason::BuildFailed {
                    message: "error[E0425]: cannot find function `parse2`\n --> benches/p.rs:3:5"
                        .into(),
                },
            ),
            LeftOut::target(
                "boom",
                Some(Side::Base),
                Reason::Failed {
                    failed: 2,
                    runs: 3,
                    exit_codes: vec![Some(101), None],
                    message: "thread 'main' panicked at \"x\"".into(),
                },
            ),
            LeftOut::benchmark("gb/skip", None, Reason::Skipped { message: None }),
            LeftOut::benchmark(
                "gb/skip2",
                Some(Side::Head),
                Reason::Skipped {
                    message: Some("no GPU".into()),
                },
            ),
            LeftOut::benchmark(
                "gb/err",
                Some(Side::Head),
                Reason::Errored {
                    message: "out of memory".into(),
                },
            ),
            LeftOut::benchmark(
                "noop",
                None,
                Reason::BelowResolution {
                    printed: "0 ns/iter".into(),
                },
            ),
            LeftOut::benchmark(
                "alpha",
                Some(Side::Base),
                Reason::NoValue {
                    detail: "no sample.json beside its benchmark.json".into(),
                },
            ),
            LeftOut::target(
                "slow",
                None,
                Reason::Excluded {
                    option: "--bench".into(),
                },
            ),
            LeftOut::target("added", Some(Side::Head), Reason::OnlyAtThisSide),
        ]
    }

    #[test]
    fn every_reason_left_out_is_written_and_read_back_exactly() {
        let mut original = results();
        original.left_out = every_reason();
        let mut bytes = Vec::new();
        write(&original, &mut bytes).unwrap();
        let read = load_bytes(&bytes, "record.json", None, &ReadOptions::default()).unwrap();
        assert_eq!(read.left_out, original.left_out);
        assert_eq!(read.benchmarks, original.benchmarks);
        // Read, not ignored: no note about a field this tool does not read.
        assert_eq!(read.notes, original.notes);
        // The wire form of docs/formats.md §7, written out by hand.
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            value["left_out"][0],
            serde_json::json!({"name": "heavy", "kind": "bench-target", "side": null,
                "reason": {"kind": "needs-features", "missing": ["heavy", "simd"]}})
        );
        assert_eq!(
            value["left_out"][2],
            serde_json::json!({"name": "boom", "kind": "bench-target", "side": "base",
                "reason": {"kind": "failed", "failed": 2, "runs": 3, "exit_codes": [101, null],
                           "message": "thread 'main' panicked at \"x\""}})
        );
        assert_eq!(
            value["left_out"][3],
            serde_json::json!({"name": "gb/skip", "kind": "benchmark", "side": null,
                "reason": {"kind": "skipped", "message": null}})
        );
        assert_eq!(
            value["left_out"][9],
            serde_json::json!({"name": "added", "kind": "bench-target", "side": "head",
                "reason": {"kind": "only-at-this-side"}})
        );
        // Nothing left out: no member at all, as records were written before.
        let mut bytes = Vec::new();
        write(&results(), &mut bytes).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(value.get("left_out"), None);
    }

    #[test]
    fn a_left_out_entry_that_is_not_one_is_refused_naming_the_file() {
        let text = r#"{"schema": "cargo-speedup-record/2", "unit": "ns",
            "benchmarks": [{"name": "a", "unit": "ns", "runs": [[1.0]]}],
            "left_out": [{"name": "x", "kind": "benchmark", "side": null,
                          "reason": {"kind": "vanished"}}]}"#;
        let error = load_bytes(text.as_bytes(), "rec.json", None, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(error.contains("rec.json"), "{error}");
        assert!(error.contains("vanished"), "{error}");
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
