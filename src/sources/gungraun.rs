//! gungraun / iai-callgrind summaries, `summary.json` as `--save-summary=json` writes one per benchmark
//! (`docs/formats.md` §14).
//!
//! Why it exists: gungraun (formerly iai-callgrind) counts instructions and cache events under Valgrind;
//! these counts are what its users compare, and they are deterministic, so they are compared exactly.
//!
//! A file holds one summary, several summaries one after the other (`cat target/gungraun/**/summary.json`),
//! or a JSON array of them. A benchmark is named by its `module_path` and, when it has one, its `id`
//! (`gungraun_bench::fmt_group::bench_fib short`), as gungraun prints it without the arguments. Each count of
//! the profile totals of Callgrind, Cachegrind and DHAT becomes a benchmark of its own,
//! `NAME (instructions)`, in its own [`Unit::Count`](crate::model::Unit::Count) (`sources::events`): a deterministic measurement,
//! compared exactly ([`crate::model::Basis::Deterministic`]). The value read is the summary's `new` value:
//! the run that wrote it; the `old` value of a run compared against an earlier one is not read (compare the
//! earlier run's summaries instead). Rates (`L1HitRate`, miss rates) are derived from counts and not read;
//! neither are the error counts of Memcheck, Helgrind and DRD. A count of zero cannot be compared as a
//! ratio: it is skipped with a note. Two summaries of the same benchmark are two runs.
//!
//! Summary versions: `7` (gungraun; `profiles[].data.total.metrics.EVENT.values.new`, checked on gungraun
//! 0.20.0's own output) and `6` (iai-callgrind 0.15 and 0.16; `profiles[].summaries.total.summary.TOOL.
//! EVENT.metrics`, `Left` or `Both[0]` holding `{"Int": n}`, read as its published schema describes it).
//! Another version is an error naming it. Must not: read a rate, or an `old` value as this run's.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use super::{Builder, SourceError, ValuesFrom, diagnose, events};
use crate::model::Results;

const FORMAT: &str = "gungraun / iai-callgrind summary JSON";

/// Whether `object` looks like a summary: `module_path`, `profiles` and `version`.
pub(crate) fn is_summary(object: &serde_json::Map<String, Value>) -> bool {
    object.get("module_path").is_some_and(Value::is_string)
        && object.get("profiles").is_some_and(Value::is_array)
        && object.get("version").is_some_and(Value::is_string)
}

/// Whether `value` is a JSON array of summaries (`jq -s`).
pub(crate) fn is_summary_array(value: &Value) -> bool {
    value.as_array().is_some_and(|items| {
        !items.is_empty() && items.iter().all(|i| i.as_object().is_some_and(is_summary))
    })
}

/// Whether `text` is several summaries one after the other.
pub(crate) fn is_summary_stream(text: &str) -> bool {
    super::builder::every_json_object(text, is_summary)
}

/// Parses the summaries read from `origin`.
pub(crate) fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let mut summaries = Vec::new();
    for value in serde_json::Deserializer::from_str(text).into_iter::<Value>() {
        let value = value.map_err(|e| {
            malformed(
                origin,
                format!("{} (read as {FORMAT})", diagnose::json_problem(text, &e)),
            )
        })?;
        match value {
            Value::Array(items) => summaries.extend(items),
            other => summaries.push(other),
        }
    }
    let mut builder = Builder::new(origin);
    // Benchmarks in the file's order, each with the events it counts.
    let mut benchmarks: Vec<(String, BTreeSet<usize>)> = Vec::new();
    let mut values: HashMap<String, Vec<f64>> = HashMap::new();
    let mut zeros: BTreeSet<String> = BTreeSet::new();
    for (index, summary) in summaries.iter().enumerate() {
        let position = index + 1;
        let object = summary
            .as_object()
            .filter(|o| is_summary(o))
            .ok_or_else(|| {
                malformed(
                    origin,
                    format!(
                        "summary {position} is not a summary: an object with `module_path`, `profiles` \
                         and `version`"
                    ),
                )
            })?;
        let name = benchmark_name(object);
        let at = match benchmarks.iter().position(|(b, _)| *b == name) {
            Some(at) => at,
            None => {
                benchmarks.push((name.clone(), BTreeSet::new()));
                benchmarks.len() - 1
            }
        };
        for (key, count) in counts(object, origin, position)? {
            let Some(rank) = events::EVENTS.iter().position(|e| e.key == key) else {
                continue;
            };
            let metric = events::EVENTS[rank].counted.benchmark_name(&name);
            if count == 0.0 {
                zeros.insert(metric);
                continue;
            }
            benchmarks[at].1.insert(rank);
            values.entry(metric).or_default().push(count);
        }
    }
    builder
        .notes
        .extend(events::zero_counts_note(origin, &zeros));
    for (name, ranks) in benchmarks {
        for rank in ranks {
            let event = &events::EVENTS[rank];
            let metric = event.counted.benchmark_name(&name);
            let sample = values.remove(&metric).unwrap_or_default();
            builder.push(&metric, sample, event.unit(), ValuesFrom::ProcessPerValue)?;
        }
    }
    builder.finish(FORMAT).map_err(|error| match error {
        SourceError::NoSamples { path, reason, .. } => SourceError::NoSamples {
            path,
            reason: format!("{reason} (no Callgrind, Cachegrind or DHAT count)"),
            hint: Some(
                "give the `summary.json` files that `--save-summary=json` writes under target/gungraun \
                 (or target/iai), e.g. `cat $(find target/gungraun -name summary.json) > base.json`"
                    .into(),
            ),
        },
        other => other,
    })
}

/// A file that is not summaries, with where they come from.
fn malformed(origin: &str, problem: String) -> SourceError {
    SourceError::Malformed {
        path: origin.into(),
        problem,
        hint:
            "give the `summary.json` files that `--save-summary=json` writes, one after the other \
               (`cat`) or as a JSON array"
                .into(),
    }
}

/// `module_path id`, or `module_path` when the benchmark has no id.
fn benchmark_name(summary: &serde_json::Map<String, Value>) -> String {
    let path = summary
        .get("module_path")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match summary.get("id").and_then(Value::as_str) {
        Some(id) => format!("{path} {id}"),
        None => path.to_string(),
    }
}

/// The counts `(event key, this run's value)` of a summary's Callgrind, Cachegrind and DHAT profiles.
fn counts(
    summary: &serde_json::Map<String, Value>,
    origin: &str,
    position: usize,
) -> Result<Vec<(String, f64)>, SourceError> {
    let version = summary.get("version").and_then(Value::as_str).unwrap_or("");
    let profiles = summary
        .get("profiles")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut out = Vec::new();
    for profile in profiles {
        let tool = profile.get("tool").and_then(Value::as_str).unwrap_or("");
        if !matches!(tool, "Callgrind" | "Cachegrind" | "DHAT") {
            continue;
        }
        let metrics = match version {
            "7" => profile.pointer("/data/total/metrics"),
            "6" => profile
                .pointer("/summaries/total/summary")
                .and_then(Value::as_object)
                .and_then(|s| s.values().next()),
            other => {
                return Err(SourceError::Malformed {
                    path: origin.into(),
                    problem: format!("summary {position} has version \"{other}\""),
                    hint: "this tool reads summary versions 7 (gungraun) and 6 (iai-callgrind 0.15, 0.16): \
                           write the summaries with one of those"
                        .into(),
                });
            }
        };
        let Some(metrics) = metrics.and_then(Value::as_object) else {
            continue;
        };
        for (key, metric) in metrics {
            let value = match version {
                "7" => metric.pointer("/values/new").and_then(Value::as_f64),
                _ => metric
                    .pointer("/metrics/Left/Int")
                    .or_else(|| metric.pointer("/metrics/Both/0/Int"))
                    .and_then(Value::as_f64),
            };
            if let Some(value) = value {
                out.push((key.clone(), value));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 6 summary as the published schema (`summary.v6.schema.json`) describes it.
    const V6: &str = r#"{"version": "6", "module_path": "bench::group::fib", "id": "short",
        "baselines": [null, null], "benchmark_exe": "x", "benchmark_file": "b.rs", "function_name": "fib",
        "kind": "LibraryBenchmark", "package_dir": "", "project_root": "",
        "profiles": [{"tool": "Callgrind", "flamegraphs": [], "log_paths": [], "out_paths": [],
          "summaries": {"parts": [], "total": {"regressions": [], "summary": {"Callgrind": {
            "Ir": {"metrics": {"Both": [{"Int": 1802}, {"Int": 1700}]}, "diffs": null},
            "EstimatedCycles": {"metrics": {"Left": {"Int": 2643}}},
            "L1HitRate": {"metrics": {"Left": {"Float": 99.5}}},
            "LLhits": {"metrics": {"Left": {"Int": 0}}}}}}}}]}"#;

    #[test]
    fn version_6_reads_this_runs_counts_and_skips_rates_and_zeros() {
        let results = parse(V6, "s.json").unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "bench::group::fib short (instructions)",
                "bench::group::fib short (estimated cycles)"
            ]
        );
        assert_eq!(results.benchmarks[0].runs.values(), [1802.0]);
        assert_eq!(results.benchmarks[0].unit.as_str(), "instructions");
        assert_eq!(
            results.notes,
            [
                "s.json: skipped 1 count of zero, which no ratio can compare: bench::group::fib short (LL hits)"
            ]
        );
    }

    fn count(results: &Results, name: &str) -> Vec<f64> {
        let b = results.benchmarks.iter().find(|b| b.name == name).unwrap();
        b.runs.values()
    }

    #[test]
    fn the_fixture_gives_this_runs_counts_per_benchmark_and_event() {
        let results = crate::testutil::source_fixtures::read_fixture("gungraun/base.json").unwrap();
        // Three summaries; each counts 14 events, of which 2 (checksum) and 5 (each fib) are zero.
        assert_eq!(results.benchmarks.len(), 12 + 9 + 9);
        let checksum = "gungraun_bench::fmt_group::bench_checksum kib";
        assert_eq!(
            results.benchmarks[0].name,
            format!("{checksum} (instructions)")
        );
        assert_eq!(
            results.benchmarks[1].name,
            format!("{checksum} (estimated cycles)")
        );
        // `values.new` of `Ir`, not its `old` (14396, the run before).
        assert_eq!(
            count(&results, &format!("{checksum} (instructions)")),
            [7468.0]
        );
        assert_eq!(count(&results, &format!("{checksum} (L1 hits)")), [8693.0]);
        assert_eq!(
            count(
                &results,
                "gungraun_bench::fmt_group::bench_fib short (estimated cycles)"
            ),
            [2643.0]
        );
        assert!(results.benchmarks.iter().all(|b| b.unit.is_count()));
        assert_eq!(results.notes.len(), 1);
        assert!(
            results.notes[0].contains("skipped 12 counts of zero"),
            "{:?}",
            results.notes
        );
    }

    #[test]
    fn an_unknown_version_is_named() {
        let text = V6.replace("\"version\": \"6\"", "\"version\": \"99\"");
        let message = parse(&text, "s.json").unwrap_err().to_string();
        assert_eq!(
            message,
            "s.json: summary 1 has version \"99\"\nhint: this tool reads summary versions 7 (gungraun) and \
             6 (iai-callgrind 0.15, 0.16): write the summaries with one of those"
        );
    }

    #[test]
    fn streams_and_arrays_of_summaries_are_summaries() {
        let stream = format!("{V6}\n{V6}\n");
        assert!(is_summary_stream(&stream));
        let twice = parse(&stream, "s").unwrap();
        assert_eq!(twice.benchmarks[0].runs.values(), [1802.0, 1802.0]);
        let array: Value = serde_json::from_str(&format!("[{V6}, {V6}]")).unwrap();
        assert!(is_summary_array(&array));
        assert!(!is_summary_stream("{\"module_path\": \"x\"}"));
    }
}
