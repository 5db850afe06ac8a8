//! Tests of the criterion reader on committed trees: a real criterion run, the old format, broken and
//! duplicate trees.

use super::*;
use crate::sources::SourceError;
use crate::testutil::source_fixtures::fixture;

fn names(results: &Results) -> Vec<&str> {
    results.benchmarks.iter().map(|b| b.name.as_str()).collect()
}

#[test]
fn real_tree_is_matched_by_full_id_not_directory() {
    let results = read_baseline(&fixture("criterion/real"), "new").unwrap();
    assert_eq!(
        names(&results),
        [
            "fib_20",
            "flat/30",
            "sum_squares/vec<u32>/512",
            "sum_squares/vec<u32>/64"
        ]
    );
    for b in &results.benchmarks {
        assert_eq!(b.runs.runs()[0].samples().len(), 10, "{}", b.name);
        assert_eq!(b.runs.len(), 1, "one process");
        assert_eq!(b.unit, Unit::Ns);
    }
}

#[test]
fn observation_is_batch_time_over_iterations() {
    // fixtures/sources/criterion/real/fib_20/before/sample.json: times[0] = 5392781, iters[0] = 2001169.
    let results = read_baseline(&fixture("criterion/real"), "before").unwrap();
    let fib = &results.benchmarks[0];
    assert_eq!(fib.name, "fib_20");
    assert_eq!(fib.runs.runs()[0].samples()[0], 5392781.0 / 2001169.0);
    assert_eq!(fib.runs.runs()[0].samples()[9], 85754892.0 / 20011690.0);
}

#[test]
fn flat_mode_samples_are_read() {
    // flat/30/new/sample.json has equal iteration counts of 7483500.
    let results = read_baseline(&fixture("criterion/real"), "new").unwrap();
    let flat = &results.benchmarks[1];
    assert_eq!(flat.name, "flat/30");
    assert_eq!(flat.runs.runs()[0].samples()[0], 29016276.0 / 7483500.0);
}

#[test]
fn saved_baselines_are_listed() {
    assert_eq!(
        baselines(&fixture("criterion/real")),
        ["after", "before", "new"]
    );
    assert!(baselines(&fixture("does-not-exist")).is_empty());
}

#[test]
fn missing_baseline_error_lists_those_found() {
    let err = read_baseline(&fixture("criterion/real"), "nope").unwrap_err();
    let message = err.to_string();
    assert!(message.contains("`nope`"), "{message}");
    assert!(
        message.contains("hint: baselines found: after, before, new"),
        "{message}"
    );
}

#[test]
fn legacy_format_with_pair_of_arrays_is_read() {
    let results = read_baseline(&fixture("criterion/legacy"), "base").unwrap();
    assert_eq!(names(&results), ["parse/small", "parse: large"]);
    assert_eq!(
        results.benchmarks[0].runs.runs()[0].samples(),
        &[812.0, 799.5, 805.1, 801.0]
    );
    assert_eq!(
        results.benchmarks[1].runs.runs()[0].samples(),
        &[91200.0, 90800.0, 92000.0]
    );
}

#[test]
fn benchmark_without_samples_is_left_out_and_named() {
    // A root whose only benchmark has no sample.json: nothing is left, and the message names it.
    let err = read_baseline(&fixture("criterion/broken"), "new").unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("had no usable value: `alpha` (no sample.json beside its benchmark.json)"),
        "{message}"
    );
    // Given as its own directory, the one benchmark is the error.
    let dir = fixture("criterion/broken/alpha/new");
    let message = load_dir(&dir, None, &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("broken/alpha/new: no samples: benchmark `alpha` has no sample.json"),
        "{message}"
    );
    // Beside a benchmark that has its samples, it is left out and the other is read.
    let root = tempfile::tempdir().unwrap();
    crate::testutil::source_fixtures::copy_tree(&fixture("criterion/broken"), root.path());
    crate::testutil::source_fixtures::copy_tree(
        &fixture("criterion/real/fib_20"),
        &root.path().join("fib_20"),
    );
    let results = read_baseline(root.path(), "new").unwrap();
    assert_eq!(names(&results), ["fib_20"]);
    assert_eq!(
        results.left_out,
        [crate::model::coverage::LeftOut::benchmark(
            "alpha",
            None,
            crate::model::coverage::Reason::NoValue {
                detail: "no sample.json beside its benchmark.json".into()
            }
        )]
    );
}

#[test]
fn two_directories_with_one_full_id_are_a_duplicate() {
    let err = read_baseline(&fixture("criterion/duplicate"), "new").unwrap_err();
    assert!(
        matches!(&err, SourceError::Duplicate { benchmark, .. } if benchmark == "a"),
        "{err:?}"
    );
}

#[test]
fn a_baseline_directory_is_one_benchmark() {
    let dir = fixture("criterion/real/sum_squares/vec_u32_/64/after");
    let results = load_dir(&dir, None, &ReadOptions::default()).unwrap();
    assert_eq!(names(&results), ["sum_squares/vec<u32>/64"]);
    assert_eq!(
        results.benchmarks[0].runs.runs()[0].samples()[0],
        5317169.0 / 514478.0
    );
}

#[test]
fn root_with_selector_reads_that_baseline() {
    let root = fixture("criterion/real");
    let options = ReadOptions::default();
    let after = load_dir(&root, Some("after"), &options).unwrap();
    let new = load_dir(&root, None, &options).unwrap();
    assert_eq!(after.benchmarks.len(), 4);
    assert!(after.origin.contains("`after`"));
    // The last run saved `after`, so `new` holds the same samples.
    assert_eq!(after.benchmarks, new.benchmarks);
}

#[test]
fn unit_override_scales_the_samples() {
    let options = ReadOptions {
        criterion_home: None,
        more_homes: Vec::new(),
        unit_override: Some(Unit::Us),
        max_input_size: None,
    };
    let results = load_dir(&fixture("criterion/legacy"), Some("new"), &options).unwrap();
    assert_eq!(results.benchmarks[0].unit, Unit::Us);
    assert_eq!(
        results.benchmarks[0].runs.runs()[0].samples()[0],
        731.0 * 1000.0
    );
}

#[test]
fn cargo_criterion_directory_hints_at_its_json_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data/main/norm")).unwrap();
    let message = read_baseline(dir.path(), "new").unwrap_err().to_string();
    assert!(message.contains("--message-format=json"), "{message}");
}

#[test]
fn a_sample_json_that_pairs_nothing_leaves_its_benchmark_out() {
    let root = tempfile::tempdir().unwrap();
    crate::testutil::source_fixtures::copy_tree(
        &fixture("criterion/real/fib_20"),
        &root.path().join("fib_20"),
    );
    let bad = root.path().join("bad/new");
    std::fs::create_dir_all(&bad).unwrap();
    // criterion 0.3.3+'s two files, with an iteration count of 0.
    std::fs::write(
        bad.join("benchmark.json"),
        r#"{"group_id":"bad","function_id":null,"value_str":null,"throughput":null,"full_id":"bad","directory_name":"bad","title":"bad"}"#,
    )
    .unwrap();
    std::fs::write(
        bad.join("sample.json"),
        r#"{"sampling_mode":"Linear","iters":[0.0,2.0],"times":[10.0,20.0]}"#,
    )
    .unwrap();
    let results = read_baseline(root.path(), "new").unwrap();
    assert_eq!(names(&results), ["fib_20"]);
    assert_eq!(
        results.left_out,
        [crate::model::coverage::LeftOut::benchmark(
            "bad",
            None,
            crate::model::coverage::Reason::NoValue {
                detail: "sample.json: iteration count 0 is 0, expected > 0".into()
            }
        )]
    );
}
