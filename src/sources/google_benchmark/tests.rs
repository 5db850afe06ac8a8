//! Tests of the Google Benchmark reader on committed files.

use super::*;
use crate::model::coverage::Reason;
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
        message.contains("`BM_X` (`real_time` is missing, NaN or infinite)"),
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

fn names(results: &Results) -> Vec<&str> {
    results.benchmarks.iter().map(|b| b.name.as_str()).collect()
}

fn left_out(results: &Results) -> Vec<(&str, &Reason)> {
    results
        .left_out
        .iter()
        .map(|l| (l.name.as_str(), &l.reason))
        .collect()
}

#[test]
fn a_skipped_and_an_errored_benchmark_are_left_out_and_the_rest_kept() {
    let results = read("google-benchmark/skipped.json").unwrap();
    assert_eq!(names(&results), ["BM_Fast"]);
    assert_eq!(
        results.benchmarks[0].runs.runs()[0].samples(),
        &[12.5, 12.75, 12.375]
    );
    assert_eq!(
        left_out(&results),
        [
            (
                "BM_NoGpu",
                &Reason::Skipped {
                    message: Some("no GPU on this machine".into())
                }
            ),
            (
                "BM_Alloc",
                &Reason::Errored {
                    message: "allocation failed".into()
                }
            ),
        ]
    );
}

#[test]
fn a_file_whose_every_benchmark_was_skipped_names_the_file_and_why() {
    let message = read("google-benchmark/all-skipped.json")
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("all-skipped.json: no usable benchmark: every benchmark in "),
        "{message}"
    );
    assert!(
        message.contains(
            "was skipped by its harness: `BM_NoGpu` (no GPU on this machine), `BM_NoDisk` (no disk)"
        ),
        "{message}"
    );
    assert!(message.contains("\nhint: "), "{message}");
}

#[test]
fn a_file_without_run_type_skips_its_aggregates_and_complexity_rows() {
    let results = read("google-benchmark/no-run-type.json").unwrap();
    assert_eq!(names(&results), ["BM_Copy/8", "BM_Copy/64"]);
    assert_eq!(
        results.benchmarks[0].runs.runs()[0].samples(),
        &[41.25, 41.5, 41.0]
    );
    assert_eq!(
        results.benchmarks[1].runs.runs()[0].samples(),
        &[330.5, 331.0, 329.5]
    );
    assert!(results.left_out.is_empty(), "{:?}", results.left_out);
    assert!(
        results
            .notes
            .iter()
            .any(|n| n.contains("skipped 8 aggregate rows")),
        "{:?}",
        results.notes
    );
}

#[test]
fn an_old_file_with_aggregates_only_is_an_error_with_a_hint() {
    let message = read("google-benchmark/no-run-type-aggregates-only.json")
        .unwrap_err()
        .to_string();
    assert!(message.contains("aggregate rows only"), "{message}");
}

#[test]
fn a_row_named_like_an_aggregate_is_a_benchmark_when_nothing_else_is_its_stem() {
    let text = r#"{"context":{},"benchmarks":[
        {"name":"BM_mean","real_time":5,"time_unit":"ns"},
        {"name":"BM_Sort_median","real_time":7,"time_unit":"ns"}]}"#;
    let results = parse(text, "g.json", None).unwrap();
    assert_eq!(names(&results), ["BM_mean", "BM_Sort_median"]);
}

#[test]
fn a_time_that_is_not_one_leaves_its_benchmark_out() {
    let text = r#"{"context":{},"benchmarks":[
        {"name":"BM_A","run_type":"iteration","real_time":3,"time_unit":"ns"},
        {"name":"BM_B","run_type":"iteration","real_time":NaN,"time_unit":"ns"},
        {"name":"BM_C","run_type":"iteration","real_time":0,"time_unit":"ns"}]}"#;
    let results = parse(text, "g.json", None).unwrap();
    assert_eq!(names(&results), ["BM_A"]);
    assert_eq!(
        left_out(&results),
        [
            (
                "BM_B",
                &Reason::NoValue {
                    detail: "`real_time` is missing, NaN or infinite".into()
                }
            ),
            (
                "BM_C",
                &Reason::NoValue {
                    detail: "observation 1 is 0: times must be finite and greater than zero".into()
                }
            ),
        ]
    );
}
