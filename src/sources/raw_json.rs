//! The raw timing JSON of `docs/formats.md` §6 (and its superset, the record JSON that `record.rs` writes).
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
//! overrides the file's, which defaults to `ns` (`ns`, `us`, `ms`, `s`; the default is taken with a note).
//! With `samples`, a benchmark may declare `"observation": "batch-mean"` (the values were measured in one
//! process) or `"process-run"` / `"unknown"` (each value its own process, the default). The record fields
//! (`schema`, `environment`, `display_unit`, `notes`) are read when present; other fields are ignored with a
//! note naming them and the known field each is closest to (`sampels`: did you mean `samples`?).
//!
//! Must not: accept a sample that is empty, non-finite or not strictly positive, a benchmark without a name,
//! or two benchmarks with one name (errors naming the file and the benchmark).

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::diagnose::json_problem;
use super::{Builder, SourceError, ValuesFrom, invalid, parse_unit};
use crate::model::fingerprint::Fingerprint;
use crate::model::{Counter, CounterKind, Environment, Results, Unit};
use crate::suggest::closest;

const FORMAT: &str = "raw timing JSON";

/// The fields read at the top level and in a benchmark, for the note on the others.
const FILE_FIELDS: [&str; 6] = [
    "schema",
    "unit",
    "environment",
    "benchmarks",
    "notes",
    "fingerprint",
];
const BENCHMARK_FIELDS: [&str; 8] = [
    "counters",
    "name",
    "unit",
    "display_unit",
    "samples",
    "runs",
    "layouts",
    "observation",
];

#[derive(Deserialize)]
struct File {
    unit: Option<String>,
    environment: Option<EnvironmentFile>,
    /// A record's fingerprint (`crate::model::fingerprint`); ignored when it does not read as one.
    #[serde(default, deserialize_with = "lenient_fingerprint")]
    fingerprint: Option<Fingerprint>,
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
    #[serde(default)]
    counters: Vec<CounterFile>,
}

/// A benchmark's counter, as a record writes it.
#[derive(Deserialize)]
struct CounterFile {
    kind: String,
    per_iteration: f64,
    #[serde(default)]
    exact: bool,
}

/// The names of the fields at the top level and, for those not read, in how many benchmarks each is, read
/// in one pass of their own for the note on those ignored (every value skipped): `#[serde(flatten)]` on
/// [`File`] would have serde buffer the whole file as untyped content first, at several times its size.
#[derive(Default)]
struct Fields {
    top: BTreeSet<String>,
    in_benchmarks: BTreeMap<String, usize>,
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Fields, D::Error> {
        deserializer.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> serde::de::Visitor<'de> for FieldsVisitor {
    type Value = Fields;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut fields = Fields::default();
        while let Some(key) = map.next_key::<String>()? {
            if key == "benchmarks" {
                for benchmark in map.next_value::<Vec<BTreeMap<String, IgnoredAny>>>()? {
                    for field in benchmark.into_keys() {
                        if !BENCHMARK_FIELDS.contains(&field.as_str()) {
                            *fields.in_benchmarks.entry(field).or_default() += 1;
                        }
                    }
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
            fields.top.insert(key);
        }
        Ok(fields)
    }
}

/// A fingerprint, or `None` when the value is not one (a fingerprint only serves merging: a file that
/// cannot be merged can still be compared).
fn lenient_fingerprint<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Fingerprint>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}

/// Parses raw timing JSON or record JSON read from `origin`.
pub(crate) fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let file: File =
        serde_json::from_str(text).map_err(|e| invalid(origin, FORMAT, json_problem(text, &e)))?;
    let default_unit = match &file.unit {
        Some(u) => parse_unit(u, origin, FORMAT)?,
        None => Unit::Ns,
    };
    let mut builder = Builder::new(origin);
    let mut notes = reading_notes(&file, text, origin);
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
        let counters = b
            .counters
            .iter()
            .map(|c| match CounterKind::from_name(&c.kind) {
                Some(kind) if c.per_iteration.is_finite() && c.per_iteration >= 0.0 => Ok(Counter {
                    kind,
                    per_iteration: c.per_iteration,
                    exact: c.exact,
                }),
                _ => Err(invalid(
                    origin,
                    FORMAT,
                    format!(
                        "benchmark `{}` has a counter `{}` of {}: expected a kind bytes, chars, cycles or \
                         items and a count of 0 or more",
                        b.name, c.kind, c.per_iteration
                    ),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(last) = builder.last_mut() {
            last.counters = counters;
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
            fingerprint: None,
        };
    }
    builder.environment.fingerprint = file.fingerprint;
    notes.extend(file.notes);
    builder.notes = notes;
    builder.finish(FORMAT)
}

/// What was read by default or not read at all: the unit taken as nanoseconds, the fields ignored (their
/// names read again from `text`).
fn reading_notes(file: &File, text: &str, origin: &str) -> Vec<String> {
    let mut notes = Vec::new();
    let defaulted = file.benchmarks.iter().filter(|b| b.unit.is_none()).count();
    if file.unit.is_none() && defaulted > 0 {
        notes.push(format!(
            "{origin}: no `unit` given, so the times of {defaulted} benchmark(s) are read as nanoseconds; \
             say `\"unit\": \"ns\"` (or us, ms, s) to make it explicit"
        ));
    }
    // The text parsed as a `File`: its top level is an object, read here without its values.
    let Fields {
        top: top_fields,
        in_benchmarks,
    } = serde_json::from_str::<Fields>(text).unwrap_or_default();
    let top = top_fields
        .iter()
        .filter(|f| !FILE_FIELDS.contains(&f.as_str()))
        .map(|f| (f.as_str(), "the top level".to_string(), &FILE_FIELDS[..]));
    let inner = in_benchmarks.iter().map(|(f, count)| {
        let place = if *count == 1 {
            "1 benchmark".to_string()
        } else {
            format!("{count} benchmarks")
        };
        (f.as_str(), place, &BENCHMARK_FIELDS[..])
    });
    for (field, place, known) in top.chain(inner) {
        let guess = closest(field, known.iter().copied())
            .map_or_else(String::new, |k| format!("; did you mean `{k}`?"));
        notes.push(format!(
            "{origin}: field `{field}` (in {place}) is not one this tool reads and was ignored{guess}"
        ));
    }
    notes
}

fn parse_observation(text: Option<&str>, origin: &str) -> Result<ValuesFrom, SourceError> {
    match text {
        None | Some("unknown") | Some("process-run") => Ok(ValuesFrom::ProcessPerValue),
        Some("batch-mean") => Ok(ValuesFrom::OneProcess),
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
    use crate::sources::{ReadOptions, load, load_bytes};
    use crate::testutil::source_fixtures::fixture;

    fn read(rel: &str) -> Result<Results, SourceError> {
        load(fixture(rel).to_str().unwrap(), &ReadOptions::default())
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

    #[test]
    fn nan_is_not_a_time() {
        let text = r#"{"unit":"ns","benchmarks":[{"name":"a","samples":[1, NaN]}]}"#;
        let message = load_bytes(text.as_bytes(), "x.json", None, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("NaN is not a time (at line 1 column 54)"),
            "{message}"
        );
    }

    #[test]
    fn the_default_unit_and_ignored_fields_are_noted() {
        let text = r#"{"benchmarks":[{"name":"a","sampels":[9],"samples":[1]},
            {"name":"b","sampels":[9],"samples":[1],"unit":"us"}],"colour":1}"#;
        let notes = parse(text, "x.json").unwrap().notes;
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(
            notes[0].contains(
                "no `unit` given, so the times of 1 benchmark(s) are read as nanoseconds"
            )
        );
        assert!(notes[1].contains("field `colour` (in the top level) is not one this tool reads"));
        assert!(notes[2].ends_with("field `sampels` (in 2 benchmarks) is not one this tool reads and was ignored; did you mean `samples`?"), "{}", notes[2]);
        let explicit = r#"{"unit":"ns","benchmarks":[{"name":"a","samples":[1]}]}"#;
        assert!(parse(explicit, "x.json").unwrap().notes.is_empty());
    }

    #[test]
    fn an_empty_name_is_an_error_naming_its_position() {
        let text =
            r#"{"unit":"ns","benchmarks":[{"name":"a","samples":[1]},{"name":" ","samples":[1]}]}"#;
        let message = parse(text, "x.json").unwrap_err().to_string();
        assert!(
            message.starts_with("x.json: benchmark 2 (counting from 1) has an empty name"),
            "{message}"
        );
    }

    #[test]
    fn counters_are_read_and_a_bad_one_is_an_error_naming_it() {
        let text = r#"{"unit":"ns","benchmarks":[{"name":"a","runs":[[1]],"counters":[{"kind":"bytes","per_iteration":64,"exact":true}]}]}"#;
        let results = parse(text, "x.json").unwrap();
        assert_eq!(results.benchmarks[0].counters[0].kind, CounterKind::Bytes);
        assert_eq!(results.benchmarks[0].counters[0].per_iteration, 64.0);
        assert!(results.notes.is_empty(), "{:?}", results.notes);
        let bad = r#"{"benchmarks":[{"name":"a","runs":[[1]],"counters":[{"kind":"bits","per_iteration":8}]}]}"#;
        assert_eq!(
            parse(bad, "x.json").unwrap_err().to_string(),
            "x.json: not valid raw timing JSON: benchmark `a` has a counter `bits` of 8: expected a kind bytes, \
             chars, cycles or items and a count of 0 or more"
        );
    }
}
