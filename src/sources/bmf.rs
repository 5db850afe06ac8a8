//! The Bencher Metric Format, BMF JSON (`docs/formats.md` §15): what Bencher's adapters produce and what
//! `--format bmf` writes.
//!
//! ```json
//! { "parse/small": { "latency": { "value": 812.5, "lower_value": 799.0, "upper_value": 830.1 } },
//!   "g::bench_fib short:10": { "instructions": { "value": 1734 } } }
//! ```
//!
//! Why it exists: BMF is the common format of the dashboards people already run; reading it lets results
//! kept there be compared with the Speedup-Test protocols.
//!
//! One BMF object is one measurement per benchmark and measure: one process run's value. Several objects
//! one after the other in one file (each run's output appended) are several runs. Measures read:
//! `latency`, in nanoseconds (BMF's unit for it), as a time of one run (`ValuesFrom::ProcessPerValue`); the
//! counts of deterministic measurements by their Bencher slugs (`instructions`, `l1-hits`,
//! `estimated-cycles`, ..., `sources::events`), each as a benchmark of its own, `NAME (instructions)`, in
//! its own unit, compared exactly. `lower_value` and `upper_value` are summaries of one run and are not
//! read. Other measures (`throughput`, which is higher-is-better, `file-size`, `build-time`, custom ones)
//! are skipped with a note naming them, as are counts of zero (no ratio compares them). This tool's own
//! `--format bmf` output, told by its `speedup` measure, is refused: its `latency` is HEAD's median of
//! several runs, a summary, not one run's time. Must not: read a measure whose unit it does not know.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::{Builder, SourceError, ValuesFrom, diagnose, events};
use crate::model::coverage::Reason;
use crate::model::{Results, Unit};

const FORMAT: &str = "Bencher Metric Format JSON";

/// Whether `object` has BMF's shape: every value an object of measures, each an object with a `value`
/// (whether that is a number the reader checks, and says so); at least one benchmark.
pub(crate) fn is_bmf(object: &serde_json::Map<String, Value>) -> bool {
    !object.is_empty()
        && object.values().all(|measures| {
            measures.as_object().is_some_and(|m| {
                !m.is_empty()
                    && m.values()
                        .all(|metric| metric.as_object().is_some_and(|o| o.contains_key("value")))
            })
        })
}

/// Whether `text` is a sequence of several BMF objects (the outputs of several runs appended).
pub(crate) fn is_bmf_stream(text: &str) -> bool {
    super::builder::every_json_object(text, is_bmf)
}

/// Parses BMF JSON (one object, or several one after the other) read from `origin`.
pub(crate) fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let mut builder = Builder::new(origin);
    // (benchmark name, unit) in the order first met, and the values of each run.
    let mut order: Vec<(String, Unit)> = Vec::new();
    let mut values: HashMap<String, Vec<f64>> = HashMap::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let mut zeros: BTreeSet<String> = BTreeSet::new();
    // A benchmark with a value that is not a number in any run: what is wrong, the first time.
    let mut no_value: HashMap<String, String> = HashMap::new();
    for (run, value) in serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .enumerate()
    {
        let value = value.map_err(|e| {
            malformed(
                origin,
                format!("{} (read as {FORMAT})", diagnose::json_problem(text, &e)),
            )
        })?;
        let Value::Object(object) = value else {
            return Err(malformed(
                origin,
                format!("object {} is not a JSON object of benchmarks", run + 1),
            ));
        };
        for (benchmark, measures) in &object {
            let Some(measures) = measures.as_object() else {
                return Err(not_measures(origin, benchmark));
            };
            if measures.contains_key("speedup") {
                return Err(SourceError::Malformed {
                    path: origin.into(),
                    problem: format!(
                        "this tool's `--format bmf` output (benchmark `{benchmark}` has its `speedup` \
                         measure): one summary value per benchmark, HEAD's median, not the runs a \
                         comparison tests"
                    ),
                    hint: format!(
                        "{} (the BASE and HEAD given to the `compare` that wrote it, or the files \
                         `cargo speedup record` wrote)",
                        super::foreign::SUMMARIES
                    ),
                });
            }
            for (measure, metric) in measures {
                let (name, unit) = match measure.as_str() {
                    "latency" => (benchmark.clone(), Unit::Ns),
                    slug => match events::by_slug(slug) {
                        Some(event) => (event.counted.benchmark_name(benchmark), event.unit()),
                        None => {
                            *skipped.entry(measure.clone()).or_default() += 1;
                            continue;
                        }
                    },
                };
                if !values.contains_key(&name) && !no_value.contains_key(&name) {
                    order.push((name.clone(), unit));
                }
                let Some(value) = metric.get("value").and_then(Value::as_f64) else {
                    no_value.entry(name).or_insert_with(|| {
                        format!(
                            "measure `{measure}` has no numeric `value` (object {})",
                            run + 1
                        )
                    });
                    continue;
                };
                if unit.is_count() && value == 0.0 {
                    zeros.insert(name);
                    continue;
                }
                values.entry(name).or_default().push(value);
            }
        }
    }
    if !skipped.is_empty() {
        let list: Vec<String> = skipped
            .iter()
            .map(|(measure, n)| format!("`{measure}` ({n})"))
            .collect();
        builder.notes.push(format!(
            "{origin}: skipped the measures this tool does not compare: {} (it reads `latency` and the \
             counts of deterministic measurements such as `instructions`)",
            list.join(", ")
        ));
    }
    builder
        .notes
        .extend(events::zero_counts_note(origin, &zeros));
    for (name, unit) in order {
        if let Some(detail) = no_value.remove(&name) {
            builder.leave_out(&name, Reason::NoValue { detail })?;
            continue;
        }
        // Only counts of zero: noted above, not a benchmark.
        let Some(sample) = values.remove(&name) else {
            continue;
        };
        builder.push(&name, sample, unit, ValuesFrom::ProcessPerValue)?;
    }
    builder.finish(FORMAT).map_err(|error| match error {
        SourceError::NoSamples { path, reason, .. } => SourceError::NoSamples {
            path,
            reason,
            hint: Some(
                "BMF is read for its `latency` measure (nanoseconds) and for counts such as \
                 `instructions`: {\"NAME\": {\"latency\": {\"value\": 88.0}}}"
                    .into(),
            ),
        },
        other => other,
    })
}

fn not_measures(origin: &str, benchmark: &str) -> SourceError {
    malformed(
        origin,
        format!("benchmark `{benchmark}` is not an object of measures"),
    )
}

/// A file that is not BMF as its reference describes it, with the shape it should have.
fn malformed(origin: &str, problem: String) -> SourceError {
    SourceError::Malformed {
        path: origin.into(),
        problem,
        hint: "BMF is {\"BENCHMARK\": {\"MEASURE\": {\"value\": 88.0, \"lower_value\": 87.4, \
               \"upper_value\": 88.9}}}, one object per run"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_is_told_from_nested_values() {
        let bmf = |text: &str| match serde_json::from_str::<Value>(text).unwrap() {
            Value::Object(o) => is_bmf(&o),
            _ => false,
        };
        assert!(bmf(r#"{"a": {"latency": {"value": 1.0}}}"#));
        assert!(!bmf(r#"{"a": {"latency": {"lower_value": 1.0}}}"#));
        assert!(bmf(r#"{"a": {"latency": {"value": "fast"}}}"#));
        assert!(!bmf(r#"{"a": 1}"#));
        assert!(!bmf(r#"{}"#));
        assert!(is_bmf_stream(
            "{\"a\": {\"latency\": {\"value\": 1}}}\n{\"a\": {\"latency\": {\"value\": 2}}}\n"
        ));
        assert!(!is_bmf_stream(
            "{\"a\": {\"latency\": {\"value\": 1}}}\n{\"b\": 2}\n"
        ));
    }

    #[test]
    fn appended_objects_are_runs_and_counts_are_benchmarks_of_their_own() {
        let text = r#"{"f": {"latency": {"value": 88.0, "lower_value": 87.42, "upper_value": 88.88},
                             "throughput": {"value": 5.55}}}
                      {"f": {"latency": {"value": 90.5}, "instructions": {"value": 1734}}}"#;
        let results = parse(text, "b.json").unwrap();
        assert_eq!(results.benchmarks.len(), 2);
        assert_eq!(results.benchmarks[0].name, "f");
        assert_eq!(results.benchmarks[0].runs.values(), [88.0, 90.5]);
        assert_eq!(results.benchmarks[1].name, "f (instructions)");
        assert_eq!(results.benchmarks[1].unit.as_str(), "instructions");
        assert!(results.benchmarks[1].unit.is_count());
        assert_eq!(results.benchmarks[1].runs.values(), [1734.0]);
        assert_eq!(
            results.notes,
            [
                "b.json: skipped the measures this tool does not compare: `throughput` (1) (it reads \
                 `latency` and the counts of deterministic measurements such as `instructions`)"
            ]
        );
    }

    #[test]
    fn a_measure_without_a_numeric_value_leaves_its_benchmark_out() {
        // BMF as Bencher's reference describes it: two runs, `g`'s latency not a number in the second.
        let text = "{\"f\": {\"latency\": {\"value\": 88.0}}, \"g\": {\"latency\": {\"value\": 5.0}}}\n\
                    {\"f\": {\"latency\": {\"value\": 89.0}}, \"g\": {\"latency\": {\"value\": \"fast\"}}}\n";
        let results = parse(text, "b.json").unwrap();
        let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["f"]);
        assert_eq!(
            results.left_out,
            [crate::model::coverage::LeftOut::benchmark(
                "g",
                None,
                Reason::NoValue {
                    detail: "measure `latency` has no numeric `value` (object 2)".into()
                }
            )]
        );
        let message = parse(r#"{"f": {"latency": {"value": "fast"}}}"#, "b.json")
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with(
                "b.json: no usable benchmark: every benchmark in b.json had no usable value: `f` \
                 (measure `latency` has no numeric `value` (object 1))"
            ),
            "{message}"
        );
    }

    #[test]
    fn only_unknown_measures_is_no_samples_with_a_hint() {
        let message = parse(r#"{"f": {"file-size": {"value": 42.0}}}"#, "b.json")
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("b.json: no samples: no benchmark found in this Bencher Metric Format JSON input\nhint: BMF is read for its `latency` measure"),
            "{message}"
        );
    }
}
