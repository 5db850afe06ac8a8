//! Which format a text is, told from its content and never from a file name: [`detect`] asks each format's
//! file whether the text is its own, in the order of [`FILE_FORMATS`]. Must not: parse a whole file (the
//! top level of a JSON document is read without its tree) or word an error (`diagnose.rs`).

use super::top_level::{Member, TopLevel};
use super::{bmf, cargo_criterion, divan, go, google_benchmark, gungraun, libtest, record};

/// The formats [`load`] tries on a file, in order, as named in error messages.
pub(crate) const FILE_FORMATS: [&str; 11] = [
    "cargo-speedup record JSON",
    "raw timing JSON",
    "hyperfine --export-json",
    "Google Benchmark JSON",
    "cargo-criterion --message-format=json lines",
    "Go benchmark text",
    "divan output",
    "libtest bench text",
    "libtest bench JSON",
    "gungraun / iai-callgrind summary JSON",
    "Bencher Metric Format JSON",
];

/// A file format, as told by [`detect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputFormat {
    /// A cargo-speedup JSON analysis report (refused as a side; read by `merge`).
    AnalysisReport,
    /// A `cargo speedup record` JSON file.
    Record,
    /// Raw timing JSON: benchmark names with their samples.
    RawJson,
    /// hyperfine's `--export-json` output.
    Hyperfine,
    /// Google Benchmark's JSON output.
    GoogleBenchmark,
    /// cargo-criterion's `--message-format=json` lines.
    CargoCriterion,
    /// Go's `go test -bench` text output.
    Go,
    /// divan's printed tree (`cargo bench` of a divan target).
    Divan,
    /// libtest `#[bench]` text lines.
    LibtestText,
    /// libtest `#[bench]` JSON lines (`-Z unstable-options --format json`).
    LibtestJson,
    /// A gungraun / iai-callgrind summary (`--save-summary=json`).
    Gungraun,
    /// Bencher Metric Format JSON.
    Bmf,
}

impl InputFormat {
    /// The format's name in messages, as in [`FILE_FORMATS`].
    pub(crate) fn name(self) -> &'static str {
        match self {
            InputFormat::AnalysisReport => "a cargo-speedup analysis report",
            InputFormat::Record => FILE_FORMATS[0],
            InputFormat::RawJson => FILE_FORMATS[1],
            InputFormat::Hyperfine => FILE_FORMATS[2],
            InputFormat::GoogleBenchmark => FILE_FORMATS[3],
            InputFormat::CargoCriterion => FILE_FORMATS[4],
            InputFormat::Go => FILE_FORMATS[5],
            InputFormat::Divan => FILE_FORMATS[6],
            InputFormat::LibtestText => FILE_FORMATS[7],
            InputFormat::LibtestJson => FILE_FORMATS[8],
            InputFormat::Gungraun => FILE_FORMATS[9],
            InputFormat::Bmf => FILE_FORMATS[10],
        }
    }
}

/// Tells the format of a file from its content alone: the shape of its JSON (keys `schema`, `results`,
/// `context` + `benchmarks`, `benchmarks`, `reason`, a summary's, a libtest event's, BMF's nesting), else
/// JSON lines with `reason`, libtest bench events or BMF objects, else Go result lines, libtest bench lines
/// or a divan tree.
pub(crate) fn detect(text: &str) -> Option<InputFormat> {
    let json_like = text.trim_start().starts_with('{');
    // Only whether the text parses matters here, not why not: `parse_ok` reads a text once.
    let top = TopLevel::parse_ok(text).or_else(|| {
        json_like
            .then(|| TopLevel::parse_ok(&google_benchmark::tolerant_json(text)))
            .flatten()
    });
    match &top {
        Some(object @ TopLevel::Object(_)) => return detect_object(object, text),
        // No other format is an array at the top level: only then is the whole tree built, within the
        // size limit the text was read under.
        Some(TopLevel::Array)
            if serde_json::from_str::<serde_json::Value>(text)
                .is_ok_and(|v| gungraun::is_summary_array(&v)) =>
        {
            return Some(InputFormat::Gungraun);
        }
        _ => {}
    }
    if cargo_criterion::has_messages(text) {
        return Some(InputFormat::CargoCriterion);
    }
    if libtest::has_json(text) {
        return Some(InputFormat::LibtestJson);
    }
    if json_like && gungraun::is_summary_stream(text) {
        return Some(InputFormat::Gungraun);
    }
    if json_like && bmf::is_bmf_stream(text) {
        return Some(InputFormat::Bmf);
    }
    if go::has_results(text) {
        return Some(InputFormat::Go);
    }
    if libtest::has_text(text) {
        return Some(InputFormat::LibtestText);
    }
    if divan::has_tree(text) {
        return Some(InputFormat::Divan);
    }
    None
}

pub(super) fn detect_object(object: &TopLevel, text: &str) -> Option<InputFormat> {
    match object.string("schema") {
        Some(s) if s == record::SCHEMA || s == record::SCHEMA_V1 => {
            return Some(InputFormat::Record);
        }
        Some(s) if s.starts_with("cargo-speedup/") => return Some(InputFormat::AnalysisReport),
        _ => {}
    }
    if object.string("reason").is_some() {
        return Some(InputFormat::CargoCriterion);
    }
    if object.is_array("results") {
        return Some(InputFormat::Hyperfine);
    }
    if object.is_array("benchmarks") {
        return Some(if object.has("context") {
            InputFormat::GoogleBenchmark
        } else {
            InputFormat::RawJson
        });
    }
    let members = object.object()?;
    // A gungraun summary and a libtest event tell themselves by their top-level members.
    if object.string("module_path").is_some()
        && object.is_array("profiles")
        && object.string("version").is_some()
    {
        return Some(InputFormat::Gungraun);
    }
    if object.string("type") == Some("bench") && members.get("median") == Some(&Member::Other) {
        return Some(InputFormat::LibtestJson);
    }
    // BMF is an object of objects: only such a text is parsed whole to look one level deeper.
    let all_objects = !members.is_empty() && members.values().all(|m| *m == Member::Object);
    if all_objects
        && serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
            .is_ok_and(|map| bmf::is_bmf(&map))
    {
        return Some(InputFormat::Bmf);
    }
    None
}
