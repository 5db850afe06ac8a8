//! CLI tests of inputs holding benchmarks that cannot be compared (skipped, errored, failed, printed as 0
//! below the harness's resolution, without a value), and of files that hold summaries or another tool's
//! output: the usable benchmarks are compared (exit 0, listed in `--format json`), and a file with none
//! exits 2 naming it and why (`docs/formats.md` §9).

use serde_json::Value;

use crate::support::run;

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// `compare FILE FILE --format json` on `fixtures/sources/FILE`: the names of the compared benchmarks.
fn compared(file: &str) -> Vec<String> {
    let path = format!("fixtures/sources/{file}");
    let output = run(&["compare", &path, &path, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{file}: {}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    json["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .map(|b| b["name"].as_str().expect("a name").to_string())
        .collect()
}

/// `compare FILE FILE` on `fixtures/sources/FILE`: exit 2, its standard error.
fn refused(file: &str) -> String {
    let path = format!("fixtures/sources/{file}");
    let output = run(&["compare", &path, &path]);
    assert_eq!(output.status.code(), Some(2), "{file}: {}", stderr(&output));
    stderr(&output)
}

#[test]
fn the_usable_benchmarks_of_each_format_are_compared() {
    for (file, expected) in [
        // Google Benchmark 1.8+: BM_NoGpu skipped (SkipWithMessage), BM_Alloc errored.
        ("google-benchmark/skipped.json", vec!["BM_Fast"]),
        // Google Benchmark before run_type: the _mean, _median, _stddev, _BigO and _RMS rows are skipped.
        (
            "google-benchmark/no-run-type.json",
            vec!["BM_Copy/64", "BM_Copy/8"],
        ),
        // criterion 0.8.2's bencher lines: `empty` printed as 0 ns/iter.
        (
            "libtest/criterion-bencher-zero.txt",
            vec!["fib_10", "fib_15"],
        ),
        // hyperfine 1.20.0 with --ignore-failure: `sort missing.txt` failed in every run.
        ("hyperfine/failed-command.json", vec!["sort small.txt"]),
        // Raw timing JSON: parse/large has a time of 0.
        ("raw/zero.json", vec!["parse/small"]),
    ] {
        let mut names = compared(file);
        names.sort();
        assert_eq!(names, expected, "{file}");
    }
}

#[test]
fn a_file_with_no_usable_benchmark_exits_2_naming_the_file_and_why() {
    for (file, expected) in [
        (
            "google-benchmark/all-skipped.json",
            "every benchmark in fixtures/sources/google-benchmark/all-skipped.json was skipped by its \
             harness: `BM_NoGpu` (no GPU on this machine), `BM_NoDisk` (no disk)",
        ),
        (
            "hyperfine/all-failed.json",
            "every benchmark in fixtures/sources/hyperfine/all-failed.json failed in every run: \
             `sort missing.txt` (3 of 3 runs failed, exit codes 2)",
        ),
        (
            "raw/all-zero.json",
            "every benchmark in fixtures/sources/raw/all-zero.json had no usable value: `parse/small` \
             (observation 1 is 0",
        ),
    ] {
        let message = refused(file);
        assert!(
            message.starts_with(&format!(
                "error: fixtures/sources/{file}: no usable benchmark: "
            )),
            "{file}: {message}"
        );
        assert!(message.contains(expected), "{file}: {message}");
        assert!(message.contains("\nhint: "), "{file}: {message}");
    }
}

#[test]
fn a_benchmark_listed_without_a_value_is_left_out() {
    // libtest lines of a benchmark that printed no value (FAILED) beside one that did.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bench.txt");
    std::fs::write(
        &path,
        "test slow ... bench:       1,234 ns/iter (+/- 5)\ntest broken ... FAILED\n",
    )
    .expect("write");
    let path = path.to_str().expect("UTF-8 path");
    let output = run(&["compare", path, path, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let names: Vec<&str> = json["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .filter_map(|b| b["name"].as_str())
        .collect();
    assert_eq!(names, ["slow"]);
}

#[test]
fn this_tools_own_gab_and_bmf_output_is_refused_as_summaries() {
    let dir = tempfile::tempdir().expect("tempdir");
    for format in ["gab", "bmf"] {
        let output = run(&[
            "compare",
            "fixtures/sources/divan/base.txt",
            "fixtures/sources/divan/head.txt",
            "--format",
            format,
            "--fail-on",
            "none",
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let path = dir.path().join(format!("{format}.json"));
        std::fs::write(&path, &output.stdout).expect("write");
        let path = path.to_str().expect("UTF-8 path");
        let refused = run(&["compare", path, path]);
        let message = stderr(&refused);
        assert_eq!(refused.status.code(), Some(2), "{message}");
        assert!(
            message.starts_with(&format!(
                "error: {path}: this tool's `--format {format}` output"
            )),
            "{message}"
        );
        assert!(
            message.contains("\nhint: this holds summaries; compare the results it was made from"),
            "{message}"
        );
    }
}

#[test]
fn another_tools_json_is_named_with_what_to_pass_instead() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, content, expected) in [
        (
            "custom.json",
            // github-action-benchmark's README example of `customSmallerIsBetter`.
            r#"[{"name": "My Custom Smaller Is Better Benchmark - CPU Load", "unit": "Percent", "value": 50}]"#,
            "github-action-benchmark's custom JSON list",
        ),
        (
            "estimates.json",
            r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1},"median_abs_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":0.0,"upper_bound":1.0},"point_estimate":0.5,"standard_error":0.1},"slope":null,"std_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":0.0,"upper_bound":1.0},"point_estimate":0.5,"standard_error":0.1}}"#,
            "criterion's `estimates.json`",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, content).expect("write");
        let path = path.to_str().expect("UTF-8 path");
        let output = run(&["compare", path, path]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{message}");
        assert!(
            message.starts_with(&format!("error: {path}: {expected}")),
            "{message}"
        );
        assert!(message.contains("\nhint: "), "{message}");
    }
}
