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
//! (`schema`, `environment`, `display_unit`, `notes`, `left_out`) are read when present; other fields are
//! ignored with a note naming them and the known field each is closest to (`sampels`: did you mean
//! `samples`?).
//!
//! Must not: accept a sample that is empty, non-finite or not strictly positive, a benchmark without a name,
//! or two benchmarks with one name (errors naming the file and the benchmark).

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde::de::{Deserializer, Error as _, MapAccess, Visitor};

use super::InputFormat;
use super::diagnose::json_problem;
use super::top_level::{Member, Skip, TopLevel, next_member};
use super::{Builder, SourceError, ValuesFrom, invalid, parse_unit};
use crate::model::fingerprint::Fingerprint;
use crate::model::{Counter, CounterKind, Environment, Results, Unit};
use crate::suggest::closest;

const FORMAT: &str = "raw timing JSON";

/// The fields read at the top level and in a benchmark, for the note on the others.
const FILE_FIELDS: [&str; 7] = [
    "schema",
    "unit",
    "environment",
    "benchmarks",
    "notes",
    "fingerprint",
    "left_out",
];
const BENCHMARK_FIELDS: [&str; 10] = [
    "counters",
    "name",
    "unit",
    "display_unit",
    "samples",
    "runs",
    "layouts",
    "blocks",
    "block_session",
    "observation",
];

/// A raw or record JSON file as read, with the top level's members it does not read (see [`Visit`]).
struct File {
    /// The top level's `schema`, to tell a record from other JSON holding `benchmarks`.
    schema: Option<Member>,
    unit: Option<String>,
    environment: Option<EnvironmentFile>,
    /// A record's fingerprint (`crate::model::fingerprint`); `None` also when it does not read as one.
    fingerprint: Option<Fingerprint>,
    benchmarks: Vec<BenchmarkFile>,
    notes: Vec<String>,
    /// A record's `left_out` (`super::record`): what its runs did not measure, and why.
    left_out: Vec<super::record::LeftOutWire>,
    /// The top level's fields that are not read, each with its kind (what [`super::detect`] looks at).
    ignored: BTreeMap<String, Member>,
}

#[derive(Deserialize)]
struct EnvironmentFile {
    cpu: Option<String>,
    rustc: Option<String>,
    host: Option<String>,
}

struct BenchmarkFile {
    name: String,
    unit: Option<String>,
    display_unit: Option<String>,
    samples: Option<Vec<f64>>,
    runs: Option<Vec<Vec<f64>>>,
    layouts: Option<Vec<u32>>,
    /// The block of each run and their session, as this tool's runs record them.
    blocks: Option<Vec<u32>>,
    block_session: Option<String>,
    observation: Option<String>,
    counters: Vec<CounterFile>,
    /// The fields of this benchmark that are not read.
    ignored: BTreeSet<String>,
}

/// A benchmark's counter, as a record writes it.
#[derive(Deserialize)]
struct CounterFile {
    kind: String,
    per_iteration: f64,
    #[serde(default)]
    exact: bool,
}

/// Reads [`File`] and [`BenchmarkFile`] by hand, field by field, as serde's derive would (an error on a
/// missing required or a repeated field, with the derive's words), keeping the names of the fields not read
/// for the note on them: the derive skips such a field without its name, and `#[serde(flatten)]` would
/// buffer each one's value as untyped content. One pass over the text, where reading the names apart took a
/// second one over every value (a fifth of the reading of a large file). A field not read is skipped
/// through `deserialize_any` ([`Skip`], [`next_member`]), so that nesting past serde_json's recursion limit
/// is refused there as everywhere (`docs/formats.md` §11).
struct Visit<T>(std::marker::PhantomData<T>);

/// The next value into `slot`, or the derive's error when the field was already given.
fn once<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    field: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(A::Error::duplicate_field(field));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

impl<'de> Deserialize<'de> for File {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<File, D::Error> {
        deserializer.deserialize_map(Visit::<File>(std::marker::PhantomData))
    }
}

impl<'de> Visitor<'de> for Visit<File> {
    type Value = File;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object holding `benchmarks`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<File, A::Error> {
        let (mut schema, mut unit, mut environment) = (None, None, None);
        let (mut fingerprint, mut benchmarks, mut notes) = (None, None, None);
        let mut left_out = None;
        let mut ignored = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                // Not read but to tell a record, so a repeated one is no error (the last counts, as when the
                // format is told).
                "schema" => schema = Some(next_member(&mut map)?),
                "unit" => once(&mut map, &mut unit, "unit")?,
                "environment" => once(&mut map, &mut environment, "environment")?,
                "fingerprint" => {
                    if fingerprint.is_some() {
                        return Err(A::Error::duplicate_field("fingerprint"));
                    }
                    // Only merging needs a fingerprint: a file whose fingerprint does not read as one can
                    // still be compared.
                    let value: serde_json::Value = map.next_value()?;
                    fingerprint = Some(serde_json::from_value(value).ok());
                }
                "benchmarks" => once(&mut map, &mut benchmarks, "benchmarks")?,
                "notes" => once(&mut map, &mut notes, "notes")?,
                "left_out" => once(&mut map, &mut left_out, "left_out")?,
                _ => {
                    let member = next_member(&mut map)?;
                    ignored.insert(key, member);
                }
            }
        }
        Ok(File {
            schema,
            unit: unit.flatten(),
            environment: environment.flatten(),
            fingerprint: fingerprint.flatten(),
            benchmarks: benchmarks.ok_or_else(|| A::Error::missing_field("benchmarks"))?,
            notes: notes.unwrap_or_default(),
            left_out: left_out.flatten().unwrap_or_default(),
            ignored,
        })
    }
}

impl<'de> Deserialize<'de> for BenchmarkFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<BenchmarkFile, D::Error> {
        deserializer.deserialize_map(Visit::<BenchmarkFile>(std::marker::PhantomData))
    }
}

impl<'de> Visitor<'de> for Visit<BenchmarkFile> {
    type Value = BenchmarkFile;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a benchmark object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<BenchmarkFile, A::Error> {
        let (mut name, mut unit, mut display_unit) = (None, None, None);
        let (mut samples, mut runs, mut layouts) = (None, None, None);
        let (mut observation, mut counters) = (None, None);
        let (mut blocks, mut block_session) = (None, None);
        let mut ignored = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "name" => once(&mut map, &mut name, "name")?,
                "unit" => once(&mut map, &mut unit, "unit")?,
                "display_unit" => once(&mut map, &mut display_unit, "display_unit")?,
                "samples" => once(&mut map, &mut samples, "samples")?,
                "runs" => once(&mut map, &mut runs, "runs")?,
                "layouts" => once(&mut map, &mut layouts, "layouts")?,
                "blocks" => once(&mut map, &mut blocks, "blocks")?,
                "block_session" => once(&mut map, &mut block_session, "block_session")?,
                "observation" => once(&mut map, &mut observation, "observation")?,
                "counters" => once(&mut map, &mut counters, "counters")?,
                _ => {
                    map.next_value::<Skip>()?;
                    ignored.insert(key);
                }
            }
        }
        Ok(BenchmarkFile {
            name: name.ok_or_else(|| A::Error::missing_field("name"))?,
            unit: unit.flatten(),
            display_unit: display_unit.flatten(),
            samples: samples.flatten(),
            runs: runs.flatten(),
            layouts: layouts.flatten(),
            blocks: blocks.flatten(),
            block_session: block_session.flatten(),
            observation: observation.flatten(),
            counters: counters.unwrap_or_default(),
            ignored,
        })
    }
}

/// Parses raw timing JSON or record JSON read from `origin`.
pub(crate) fn parse(text: &str, origin: &str) -> Result<Results, SourceError> {
    let file: File =
        serde_json::from_str(text).map_err(|e| invalid(origin, FORMAT, json_problem(text, &e)))?;
    build(file, origin)
}

/// [`parse`], when `text` is raw timing or record JSON by the rules of [`super::detect`]; `None` when it may
/// be something else, or does not parse (left to `detect` and the reader it picks, for the same result and
/// the same error as without this). The largest inputs are raw timing JSON: reading them this way spares
/// `detect`'s pass over the whole text, a fifth of their reading.
///
/// A text that parses as a [`File`] is JSON with an object at the top level holding an array `benchmarks`,
/// its other members read with their kinds as `detect` reads the top level ([`next_member`]); `detect`'s own
/// rules for an object ([`super::detect_object`]) then say what it is. They look at no member a `File` reads
/// but `schema` and `benchmarks`.
pub(crate) fn parse_if_raw(text: &str, origin: &str) -> Option<Result<Results, SourceError>> {
    let file: File = serde_json::from_str(text).ok()?;
    let mut members = file.ignored.clone();
    members.insert("benchmarks".to_string(), Member::Array);
    if let Some(schema) = &file.schema {
        members.insert("schema".to_string(), schema.clone());
    }
    let told = super::detect::detect_object(&TopLevel::Object(members), text);
    matches!(told, Some(InputFormat::RawJson | InputFormat::Record)).then(|| build(file, origin))
}

/// Checks and converts a parsed file into [`Results`].
fn build(file: File, origin: &str) -> Result<Results, SourceError> {
    let default_unit = match &file.unit {
        Some(u) => parse_unit(u, origin, FORMAT)?,
        None => Unit::Ns,
    };
    let mut builder = Builder::new(origin);
    let mut notes = reading_notes(&file, origin);
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
        // A benchmark left out for its values is not the last one added: it has no counters to keep.
        if let Some(last) = builder.last_mut().filter(|l| l.name == b.name) {
            last.counters = counters;
            // The blocks pair the runs of two sides (`--paired`); without both, or not one per run, the
            // runs are read without them: pairing then says why it cannot pair them.
            let seed = b
                .block_session
                .as_deref()
                .and_then(|s| s.parse::<u64>().ok());
            if let (Some(seed), Some(blocks)) = (seed, &b.blocks)
                && !last.runs.set_blocks(seed, blocks)
            {
                return Err(invalid(
                    origin,
                    FORMAT,
                    format!(
                        "benchmark `{}` has {} runs but {} blocks",
                        b.name,
                        last.runs.len(),
                        blocks.len()
                    ),
                ));
            }
        }
        if let Some(display) = &b.display_unit {
            // A count's name (`instructions`): its values are stored as counted, scale 1, as `ns` is.
            let display = match super::events::by_name(display) {
                Some(event) => event.unit(),
                None => parse_unit(display, origin, FORMAT)?,
            };
            if let Some(last) = builder.last_mut().filter(|l| l.name == b.name) {
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
    builder
        .left_out
        .extend(file.left_out.into_iter().map(|l| l.into_model()));
    builder.finish(FORMAT)
}

/// What was read by default or not read at all: the unit taken as nanoseconds, the fields ignored.
fn reading_notes(file: &File, origin: &str) -> Vec<String> {
    let mut notes = Vec::new();
    let defaulted = file.benchmarks.iter().filter(|b| b.unit.is_none()).count();
    if file.unit.is_none() && defaulted > 0 {
        notes.push(format!(
            "{origin}: no `unit` given, so the times of {defaulted} benchmark(s) are read as nanoseconds; \
             say `\"unit\": \"ns\"` (or us, ms, s) to make it explicit"
        ));
    }
    // Each field not read, with the number of benchmarks that hold it.
    let mut in_benchmarks: BTreeMap<&str, usize> = BTreeMap::new();
    for field in file.benchmarks.iter().flat_map(|b| &b.ignored) {
        *in_benchmarks.entry(field).or_default() += 1;
    }
    let top = file
        .ignored
        .keys()
        .map(|f| (f.as_str(), "the top level".to_string(), &FILE_FIELDS[..]));
    let inner = in_benchmarks.iter().map(|(f, count)| {
        let place = if *count == 1 {
            "1 benchmark".to_string()
        } else {
            format!("{count} benchmarks")
        };
        (*f, place, &BENCHMARK_FIELDS[..])
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
    use crate::sources::load::load_bytes;
    use crate::sources::{InputFormat, ReadOptions, load};
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
        assert!(
            message.contains(
                "x.json: no usable benchmark: every benchmark in x.json had no usable value: `a` (run 2: \
                 observation 2 is -1: times must be finite and greater than zero)"
            ),
            "{message}"
        );
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
    fn a_zero_time_leaves_its_benchmark_out_and_the_rest_is_kept() {
        let results = read("raw/zero.json").unwrap();
        let names: Vec<&str> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["parse/small"]);
        assert_eq!(
            results.left_out,
            [crate::model::coverage::LeftOut::benchmark(
                "parse/large",
                None,
                crate::model::coverage::Reason::NoValue {
                    detail: "observation 2 is 0: times must be finite and greater than zero".into()
                }
            )]
        );
    }

    #[test]
    fn a_file_whose_every_time_is_zero_names_the_file_and_each_benchmark() {
        let message = read("raw/all-zero.json").unwrap_err().to_string();
        assert!(message.contains("all-zero.json: no usable benchmark: every benchmark in "));
        assert!(
            message.contains(
                "had no usable value: `parse/small` (observation 1 is 0: times must be finite and \
                 greater than zero), `parse/large` (observation 2 is 0: times must be finite and greater \
                 than zero)"
            ),
            "{message}"
        );
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
        assert!(message.contains("`a` (no observations)"), "{message}");
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
    fn only_what_detect_tells_as_raw_json_is_read_in_one_pass() {
        let benchmarks = r#""benchmarks":[{"name":"a","samples":[1]}]"#;
        let with = |other: &str| format!("{{{other}{benchmarks}}}");
        let record = format!(r#""schema":"{}","#, crate::sources::record::SCHEMA);
        let v1 = format!(r#""schema":"{}","#, crate::sources::record::SCHEMA_V1);
        // `docs/formats.md` §8: a schema names this tool's files, a string `reason` cargo-criterion's, an
        // array `results` hyperfine's, `context` Google Benchmark's; other members change nothing.
        for (top, one_pass) in [
            (String::new(), true),
            (record, true),
            (v1, true),
            (r#""colour":1,"#.to_string(), true),
            (r#""schema":"cargo-speedup/1","#.to_string(), false),
            (r#""schema":"other","#.to_string(), true),
            (r#""schema":1,"#.to_string(), true),
            (r#""reason":"benchmark-complete","#.to_string(), false),
            (r#""reason":1,"#.to_string(), true),
            (r#""results":[],"#.to_string(), false),
            (r#""results":1,"#.to_string(), true),
            (r#""context":{},"#.to_string(), false),
        ] {
            let text = with(&top);
            let read = parse_if_raw(&text, "x.json");
            assert_eq!(read.is_some(), one_pass, "{text}");
            let told = crate::sources::detect(&text);
            assert_eq!(
                one_pass,
                matches!(told, Some(InputFormat::RawJson | InputFormat::Record)),
                "{text}: {told:?}"
            );
            if let Some(read) = read {
                assert_eq!(read.unwrap(), parse(&text, "x.json").unwrap(), "{text}");
            }
        }
        // Not JSON, or JSON without a `benchmarks` array: left to `detect` and its reader.
        assert!(parse_if_raw(r#"{"benchmarks":[{"name":"a","samples":[1]}"#, "x").is_none());
        assert!(parse_if_raw(r#"{"results":[]}"#, "x").is_none());
        // An error after the text parsed is the reader's own, as `detect` would have led to it.
        let negative = parse_if_raw(r#"{"benchmarks":[{"name":"a","samples":[-1]}]}"#, "x");
        assert!(matches!(negative, Some(Err(_))), "{negative:?}");
    }

    #[test]
    fn a_field_not_read_that_nests_past_the_limit_is_refused_as_everywhere() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for text in [
            format!(r#"{{"unit":"ns","x":{deep},"benchmarks":[{{"name":"a","samples":[1]}}]}}"#),
            format!(r#"{{"unit":"ns","benchmarks":[{{"name":"a","samples":[1],"y":{deep}}}]}}"#),
        ] {
            assert!(parse_if_raw(&text, "x.json").is_none());
            let message = load_bytes(text.as_bytes(), "x.json", None, &ReadOptions::default())
                .unwrap_err()
                .to_string();
            assert!(
                message.contains("nests arrays and objects 128 levels deep"),
                "{message}"
            );
        }
    }

    #[test]
    fn a_field_given_twice_or_a_missing_one_is_named() {
        for (text, expected) in [
            (
                r#"{"benchmarks":[{"name":"a","name":"b","samples":[1]}]}"#,
                "duplicate field `name`",
            ),
            (
                r#"{"benchmarks":[],"benchmarks":[]}"#,
                "duplicate field `benchmarks`",
            ),
            (
                r#"{"fingerprint":1,"fingerprint":2,"benchmarks":[]}"#,
                "duplicate field `fingerprint`",
            ),
            (
                r#"{"benchmarks":[{"samples":[1]}]}"#,
                "missing field `name`",
            ),
            (r#"{"unit":"ns"}"#, "missing field `benchmarks`"),
            (
                r#"{"benchmarks":[["a"]]}"#,
                "invalid type: sequence, expected a benchmark object",
            ),
        ] {
            let message = parse(text, "x.json").unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
        // A null optional field is as good as a missing one; a fingerprint that is not one is ignored.
        let text = r#"{"unit":null,"fingerprint":1,"benchmarks":[{"name":"a","unit":null,"samples":[1]}]}"#;
        let read = parse(text, "x.json").unwrap();
        assert_eq!(read.benchmarks[0].unit, Unit::Ns);
        assert_eq!(read.environment.fingerprint, None);
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
