//! Tests of the Google Benchmark reader on committed files.

use super::*;
use crate::sources::{InputFormat, detect};
use crate::testutil::source_fixtures::read_fixture as read;

#[test]
fn iteration_rows_grouped_by_run_name_are_the_observations() {
    let results = read("google-benchmark/base.json").unwrap();
    let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["BM_Parse/64", "BM_Parse/4096"]);
    assert_eq!(
        results.benchmarks[0].runs.runs()[0].samples(),
        &[428.72, 431.05, 427.9]
    );
    assert_eq!(results.benchmarks[0].runs.len(), 1, "one process");
    // BM_Parse/4096 is in microseconds.
    assert_eq!(results.benchmarks[1].unit, Unit::Us);
    assert_eq!(
        results.benchmarks[1].runs.runs()[0].samples()[0],
        27.51 * 1e3
    );
}

#[test]
fn aggregates_and_errors_are_skipped_with_notes() {
    let results = read("google-benchmark/base.json").unwrap();
    assert_eq!(results.benchmarks[1].runs.runs()[0].samples().len(), 2);
    assert!(
        results
            .notes
            .iter()
            .any(|n| n.contains("skipped 4 aggregate rows")),
        "{:?}",
        results.notes
    );
    assert!(
        results
            .notes
            .iter()
            .any(|n| n.contains("allocation failed")),
        "{:?}",
        results.notes
    );
}

#[test]
fn cpu_time_is_selectable() {
    let results = read("google-benchmark/base.json#cpu_time").unwrap();
    assert_eq!(
        results.benchmarks[0].runs.runs()[0].samples(),
        &[428.0, 430.1, 427.2]
    );
    let err = read("google-benchmark/base.json#wall").unwrap_err();
    assert!(matches!(err, SourceError::Selector { .. }), "{err:?}");
}

#[test]
fn context_fills_the_environment() {
    let env = read("google-benchmark/base.json").unwrap().environment;
    assert_eq!(env.host.as_deref(), Some("bench-host"));
    assert_eq!(env.cpu.as_deref(), Some("16 CPUs at 3000 MHz"));
}

#[test]
fn aggregates_only_is_an_error_with_a_hint() {
    let message = read("google-benchmark/aggregates-only.json")
        .unwrap_err()
        .to_string();
    assert!(message.contains("aggregate rows only"), "{message}");
    assert!(
        message.contains("hint: run without --benchmark_report_aggregates_only"),
        "{message}"
    );
}

#[test]
fn nan_and_infinity_parse_and_a_nan_time_is_named() {
    let text = r#"{"context":{},"benchmarks":[{"name":"BM_X","run_type":"iteration","real_time":NaN,"cpu_time":-Infinity,"time_unit":"ns","user":"NaN inf"}]}"#;
    assert_eq!(detect(text), Some(InputFormat::GoogleBenchmark));
    let message = parse(text, "g.json", None).unwrap_err().to_string();
    assert!(
        message.contains("`BM_X`: `real_time` is missing, NaN or infinite"),
        "{message}"
    );
}

#[test]
fn tolerant_json_leaves_strings_and_keywords_alone() {
    let text = r#"{"a":"NaN \"inf\"","b":[true,false,null,Infinity,-inf,1e5]}"#;
    assert_eq!(
        tolerant_json(text),
        r#"{"a":"NaN \"inf\"","b":[true,false,null,null,null,1e5]}"#
    );
}
