//! A part for `cargo speedup merge`: the JSON report (`cargo-speedup/1`, `docs/json.md`) of one job of a
//! CI matrix, read back into the paired runs it was computed from (`samples`), with its fingerprint,
//! its looks and the names it could not compare (`docs/sharding.md` §3).
//!
//! A `record` file (one side) is read as a part of a record ([`parse_record`]): parts of one side are
//! joined into one record. Only the fields merging needs are read from a report; the report's own results (verdicts, p-values) are not: the
//! merge analyses the runs again. Must not: accept a report without a fingerprint or without the runs of
//! every benchmark it lists (a part that cannot be analysed again would drop benchmarks silently), or
//! analyse anything.

use serde::Deserialize;
use serde_json::error::Category;

use super::top_level::TopLevel;
use crate::model::fingerprint::Fingerprint;
use crate::model::{Benchmark, Pair, PartReport, REPORT_SCHEMA, Run, Runs, Sample, Unit};

#[derive(Deserialize)]
struct ReportFile {
    fingerprint: Option<Fingerprint>,
    looks: Option<u32>,
    benchmarks: Vec<BenchmarkFile>,
    #[serde(default)]
    identical_executables: Vec<String>,
    #[serde(default)]
    base_only: Vec<String>,
    #[serde(default)]
    head_only: Vec<String>,
    #[serde(default)]
    not_compared: Vec<NotComparedFile>,
}

/// What merging reads of a `not_compared` entry (`docs/json.md` §2).
#[derive(Deserialize)]
struct NotComparedFile {
    name: String,
    #[serde(default)]
    fails_gate: bool,
}

#[derive(Deserialize)]
struct BenchmarkFile {
    name: String,
    samples: Option<SamplesFile>,
}

#[derive(Deserialize)]
struct SamplesFile {
    unit: String,
    base: SideFile,
    head: SideFile,
}

#[derive(Deserialize)]
struct SideFile {
    display_unit: String,
    runs: Vec<Vec<f64>>,
    layouts: Option<Vec<u32>>,
    /// The block of each run and their session (`--paired` pairs by them).
    blocks: Option<Vec<u32>>,
    block_session: Option<String>,
}

/// Why a file is not a part, in words that name what to do (the caller names the file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PartError {
    /// The text ends before its JSON does; the parser's message.
    #[error(
        "is not complete JSON ({0})\nhint: the file may be truncated: download the job's report again, or run the job again"
    )]
    Json(String),
    /// The text is not JSON at some place (not at its end); the parser's message.
    #[error("is not valid JSON ({0})\nhint: give the `--json` report a job wrote, as it wrote it")]
    Syntax(String),
    /// The JSON nests deeper than the parser follows; where.
    #[error(
        "nests arrays and objects {depth} levels deep ({0}), which no report does\nhint: give the `--json` report a job wrote, as it wrote it",
        depth = super::top_level::MAX_NESTING
    )]
    TooDeep(String),
    /// The JSON is a report's, but a member has the wrong type; the parser's message.
    #[error(
        "does not hold a report's members ({0})\nhint: merge the `--json` reports of `cargo speedup BASE..HEAD`, as they were written"
    )]
    Shape(String),
    /// The report's schema is not [`REPORT_SCHEMA`].
    #[error(
        "has schema {found}, not \"{REPORT_SCHEMA}\"\nhint: merge the `--json` reports of `cargo speedup BASE..HEAD --partition count:K/N` written by one version of cargo-speedup"
    )]
    Schema {
        /// The schema the report has.
        found: String,
    },
    /// The report carries no fingerprint, so its runs cannot be shown to match the other parts'.
    #[error(
        "has no fingerprint: it was not measured by this version of cargo-speedup (or is a `compare` of foreign files)\nhint: merge the `--json` reports of `cargo speedup BASE..HEAD`"
    )]
    NoFingerprint,
    /// A benchmark of the report has no runs (`samples`); its name.
    #[error(
        "holds no runs of benchmark `{0}` (`samples`)\nhint: merge the `--json` reports of `cargo speedup BASE..HEAD`, which carry them"
    )]
    NoSamples(String),
    /// The file looked like a record but could not be read as one; the reader's message.
    #[error("is not a record that can be read: {0}")]
    Record(String),
    /// A benchmark's runs are unusable (bad unit, no runs, invalid values).
    #[error("benchmark `{name}`: {problem}")]
    Invalid {
        /// The benchmark's name.
        name: String,
        /// What is wrong with its runs.
        problem: String,
    },
}

/// The `schema` of a part's text, when it is a JSON object that names one (`None` for anything else,
/// truncated text included: [`parse`] then says what is wrong).
pub(crate) fn schema_of(text: &str) -> Option<String> {
    TopLevel::parse(text)
        .ok()?
        .string("schema")
        .map(str::to_string)
}

/// The part's error for a text that serde_json refused: cut short, too deep, not JSON, or not a report's shape.
fn json_error(error: serde_json::Error) -> PartError {
    let message = error.to_string();
    match error.classify() {
        Category::Eof => PartError::Json(message),
        _ if super::top_level::is_too_deep(&error) => PartError::TooDeep(format!(
            "at line {} column {}",
            error.line(),
            error.column()
        )),
        Category::Syntax | Category::Io => PartError::Syntax(message),
        Category::Data => PartError::Shape(message),
    }
}

/// Whether a schema is a record's (`docs/formats.md` §7): such parts are joined into one record.
pub(crate) fn is_record_schema(schema: &str) -> bool {
    schema.starts_with("cargo-speedup-record/")
}

/// Reads one side's part from the text of a record file (`cargo speedup record --partition count:K/N`), read
/// from `origin`.
pub(crate) fn parse_record(text: &str, origin: &str) -> Result<crate::model::Results, PartError> {
    TopLevel::parse(text).map_err(json_error)?;
    super::raw_json::parse(text, origin).map_err(|e| PartError::Record(e.to_string()))
}

/// Reads one part from the text of a JSON report.
pub(crate) fn parse(text: &str) -> Result<PartReport, PartError> {
    let top = TopLevel::parse(text).map_err(json_error)?;
    let schema = top.string("schema").unwrap_or("none");
    if schema != REPORT_SCHEMA {
        return Err(PartError::Schema {
            found: format!("\"{schema}\""),
        });
    }
    let file: ReportFile = serde_json::from_str(text).map_err(json_error)?;
    let fingerprint = file.fingerprint.ok_or(PartError::NoFingerprint)?;
    let pairs = file
        .benchmarks
        .into_iter()
        .map(pair)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PartReport {
        schema: REPORT_SCHEMA.to_string(),
        fingerprint,
        looks: file.looks.unwrap_or(1).max(1),
        pairs,
        identical: file.identical_executables,
        base_only: file.base_only,
        head_only: file.head_only,
        not_compared: file
            .not_compared
            .into_iter()
            .map(|n| (n.name, n.fails_gate))
            .collect(),
    })
}

fn pair(b: BenchmarkFile) -> Result<Pair, PartError> {
    let samples = b
        .samples
        .ok_or_else(|| PartError::NoSamples(b.name.clone()))?;
    let invalid = |problem: String| PartError::Invalid {
        name: b.name.clone(),
        problem,
    };
    let unit = Unit::parse(&samples.unit)
        .ok_or_else(|| invalid(format!("unknown unit {:?}", samples.unit)))?;
    let side = |side: SideFile| -> Result<Benchmark, PartError> {
        // A count's name (`instructions`, `--measure instructions`) or a time unit.
        let display = super::events::by_name(&side.display_unit)
            .map(|event| event.unit())
            .or_else(|| Unit::parse(&side.display_unit))
            .ok_or_else(|| invalid(format!("unknown unit {:?}", side.display_unit)))?;
        if side
            .layouts
            .as_ref()
            .is_some_and(|l| l.len() != side.runs.len())
        {
            return Err(invalid("`layouts` and `runs` differ in length".into()));
        }
        let runs = side
            .runs
            .into_iter()
            .enumerate()
            .map(|(i, values)| {
                let sample = Sample::new(values, unit).map_err(|e| invalid(e.to_string()))?;
                Ok(Run::new(
                    sample,
                    side.layouts.as_ref().and_then(|l| l.get(i).copied()),
                ))
            })
            .collect::<Result<Vec<_>, PartError>>()?;
        let mut runs = Runs::new(runs).map_err(|e| invalid(e.to_string()))?;
        let seed = side
            .block_session
            .as_deref()
            .and_then(|s| s.parse::<u64>().ok());
        if let (Some(seed), Some(blocks)) = (seed, &side.blocks)
            && !runs.set_blocks(seed, blocks)
        {
            return Err(invalid("`blocks` and `runs` differ in length".into()));
        }
        Ok(Benchmark {
            name: b.name.clone(),
            runs,
            unit: display,
            counters: Vec::new(),
        })
    };
    Ok(Pair {
        name: b.name.clone(),
        base: side(samples.base)?,
        head: side(samples.head)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::part_report::measured_report;

    fn fingerprint() -> Fingerprint {
        Fingerprint {
            tool: "cargo-speedup 0.1.0".into(),
            partition: Some("count:2/3".into()),
            ..Fingerprint::default()
        }
    }

    #[test]
    fn a_report_gives_back_the_runs_it_was_computed_from_bit_for_bit() {
        let (suite, text) = measured_report(Some(fingerprint()));
        let part = parse(&text).unwrap();
        assert_eq!(part.pairs, suite.pairs);
        assert_eq!(part.fingerprint, fingerprint());
        assert_eq!(
            (part.identical, part.base_only),
            (suite.identical, suite.base_only)
        );
        assert_eq!((part.schema.as_str(), part.looks), ("cargo-speedup/1", 1));
        assert!(part.not_compared.is_empty());
        // `not_compared` as docs/json.md §2 gives an entry: the names are read, with whether each failed
        // the part's gate.
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["not_compared"] = serde_json::json!([
            {"name": "heavy", "kind": "bench-target", "side": "both", "reason": "needs-features",
             "message": "needs feature heavy", "quoted": null,
             "hint": "`--features heavy` or `--all-features` compares it", "features": ["heavy"],
             "fails_gate": false},
            {"name": "boom", "kind": "bench-target", "side": "head", "reason": "failed",
             "message": "failed 1 of 1 run (exit 101)", "quoted": "boom", "hint": null,
             "fails_gate": true}
        ]);
        let part = parse(&value.to_string()).unwrap();
        assert_eq!(
            part.not_compared,
            [("heavy".to_string(), false), ("boom".to_string(), true)]
        );
    }

    #[test]
    fn a_report_without_fingerprint_carries_no_runs_and_is_no_part() {
        let (_, text) = measured_report(None);
        assert!(!text.contains("\"samples\"") && !text.contains("\"fingerprint\""));
        assert_eq!(parse(&text), Err(PartError::NoFingerprint));
    }

    #[test]
    fn truncated_files_other_schemas_and_missing_runs_are_refused() {
        let (_, text) = measured_report(Some(fingerprint()));
        let cut = parse(&text[..text.len() / 2]).unwrap_err();
        assert!(matches!(cut, PartError::Json(_)), "{cut:?}");
        assert!(cut.to_string().contains("truncated"));
        let other = text.replacen("cargo-speedup/1", "cargo-speedup/2", 1);
        assert_eq!(
            parse(&other),
            Err(PartError::Schema {
                found: "\"cargo-speedup/2\"".into()
            })
        );
        let record = r#"{"schema": "cargo-speedup-record/2", "benchmarks": []}"#;
        assert!(matches!(parse(record), Err(PartError::Schema { .. })));
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["benchmarks"][1]
            .as_object_mut()
            .unwrap()
            .remove("samples");
        assert_eq!(
            parse(&value.to_string()),
            Err(PartError::NoSamples("one".into()))
        );
    }
}
