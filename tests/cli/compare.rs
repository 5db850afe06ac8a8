//! CLI tests of `compare`: every input format from committed fixtures, the four renderers on the shipped
//! example (snapshots), the gate's exit status in each mode, and the errors for unusable input.

use std::path::Path;

use serde_json::Value;

use crate::support::{copy_tree, root, run, run_in, run_with_env};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// `compare BASE HEAD --format json` parsed, with the exit status.
fn compare_json(base: &str, head: &str, extra: &[&str]) -> (Value, i32) {
    let mut args = vec!["compare", base, head, "--format", "json"];
    args.extend_from_slice(extra);
    let output = run(&args);
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "compare {base} {head}: {e}\nstdout: {}\nstderr: {}",
            stdout(&output),
            stderr(&output)
        )
    });
    (json, output.status.code().expect("exit status"))
}

fn names(json: &Value) -> Vec<String> {
    json["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .map(|b| b["name"].as_str().expect("name").to_string())
        .collect()
}

fn verdict_of<'a>(json: &'a Value, name: &str) -> &'a str {
    json["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in the report"))["verdict"]
        .as_str()
        .expect("verdict")
}

#[test]
fn example_shows_the_changes_it_was_made_with() {
    // fixtures/example/make.py: parse/large made 1.25x faster, render/page 1.10x slower.
    let (json, status) = compare_json(
        "fixtures/example/base.json",
        "fixtures/example/head.json",
        &[],
    );
    assert_eq!(
        status, 1,
        "the default gate fails on render/page, 9.8 % slower"
    );
    assert_eq!(json["schema"], "cargo-speedup/1");
    assert_eq!(verdict_of(&json, "parse/large"), "faster");
    assert_eq!(verdict_of(&json, "render/page"), "slower");
    assert_eq!(verdict_of(&json, "parse/small"), "unchanged");
    let large = &json["benchmarks"][1];
    let speedup = large["speedup"]["median"].as_f64().expect("speedup");
    assert!((1.2..1.3).contains(&speedup), "median speedup {speedup}");
}

#[test]
fn example_renders_in_every_format() {
    for format in ["table", "json", "markdown", "csv"] {
        let output = run(&[
            "compare",
            "fixtures/example/base.json",
            "fixtures/example/head.json",
            "--format",
            format,
        ]);
        // The default gate fails on render/page, 9.8 % slower.
        assert_eq!(
            output.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&output)
        );
        insta::assert_snapshot!(format!("example_{format}"), stdout(&output));
    }
}

#[test]
fn every_input_format_is_read_and_paired() {
    let cases: &[(&str, &str)] = &[
        (
            "fixtures/sources/raw/base.json",
            "fixtures/sources/raw/head.json",
        ),
        (
            "fixtures/sources/hyperfine/base.json",
            "fixtures/sources/hyperfine/head.json",
        ),
        (
            "fixtures/sources/cargo-criterion/base.jsonl",
            "fixtures/sources/cargo-criterion/head.jsonl",
        ),
        (
            "fixtures/sources/go/base.txt",
            "fixtures/sources/go/head.txt",
        ),
        (
            "fixtures/sources/criterion/real#before",
            "fixtures/sources/criterion/real#after",
        ),
        (
            "fixtures/sources/hyperfine/revisions.json#rev=main",
            "fixtures/sources/hyperfine/revisions.json#rev=feature",
        ),
    ];
    for (base, head) in cases {
        let (json, status) = compare_json(base, head, &["--fail-on", "none"]);
        assert_eq!(status, 0, "{base} vs {head}");
        assert!(
            !names(&json).is_empty(),
            "{base} vs {head}: no benchmark paired"
        );
        for benchmark in json["benchmarks"].as_array().expect("benchmarks") {
            assert!(benchmark["base"]["n"].as_u64().expect("n") >= 1);
            assert!(benchmark["speedup"]["median"].as_f64().expect("speedup") > 0.0);
        }
    }
}

#[test]
fn criterion_baselines_are_resolved_by_name_in_criterion_home() {
    let home = root().join("fixtures/sources/criterion/real");
    let output = run_with_env(
        &root(),
        &[
            "compare",
            "before",
            "after",
            "--format",
            "json",
            "--fail-on",
            "none",
        ],
        &[("CRITERION_HOME", &home)],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    // Matched by full_id, not by the sanitised directory name.
    assert!(
        names(&json).iter().any(|n| n.starts_with("sum_squares/")),
        "{:?}",
        names(&json)
    );
    assert!(
        stdout(&output).contains("one process per side"),
        "a criterion baseline is one process"
    );
    assert!(
        json["benchmarks"]
            .as_array()
            .expect("benchmarks")
            .iter()
            .all(|b| b["observation"] == "one-process" && b["base"]["runs"] == 1)
    );
}

/// A cargo workspace with a bench package `crates/app` (bench target `frames`) and a package without
/// benches, `crates/util`, where criterion saved the baselines `before` and `after` of `frames` in
/// `crates/app/HOME`: what `CARGO_TARGET_DIR=target_foo cargo bench --bench frames -- --save-baseline
/// before` at the workspace root writes when HOME is `target_foo/criterion` (cargo runs a bench in its
/// package's directory, and criterion 0.5-0.8 joins the relative path to it). The criterion files are the
/// committed ones of `fixtures/sources/criterion/real`, written by criterion 0.5
/// (`fixtures/criterion-project/make-fixtures.sh`).
fn workspace_with_baselines_in(home: &str) -> tempfile::TempDir {
    let ws = tempfile::tempdir().expect("workspace");
    let write = |path: &str, text: &str| {
        let path = ws.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, text).expect("write");
    };
    write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/app\", \"crates/util\"]\nresolver = \"2\"\n",
    );
    write(
        "crates/app/Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [[bench]]\nname = \"frames\"\nharness = false\n",
    );
    write("crates/app/src/lib.rs", "");
    write("crates/app/benches/frames.rs", "fn main() {}\n");
    write(
        "crates/util/Cargo.toml",
        "[package]\nname = \"util\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write("crates/util/src/lib.rs", "");
    copy_tree(
        &root().join("fixtures/sources/criterion/real"),
        &ws.path().join("crates/app").join(home),
    );
    ws
}

/// `cargo speedup ARGS` at the workspace root with only `env` of the variables that place criterion's home.
fn run_at_root(ws: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    crate::environment::tool()
        .arg("speedup")
        .args(args)
        .current_dir(ws)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

#[test]
fn baselines_saved_in_a_workspace_package_under_a_relative_target_dir_are_found() {
    for (variable, value, home) in [
        ("CARGO_TARGET_DIR", "target_foo", "target_foo/criterion"),
        ("CRITERION_HOME", "bench_home", "bench_home"),
    ] {
        let ws = workspace_with_baselines_in(home);
        let output = run_at_root(
            ws.path(),
            &[
                "compare",
                "before",
                "after",
                "--format",
                "json",
                "--fail-on",
                "none",
            ],
            &[(variable, value)],
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{variable}={value}: {}",
            stderr(&output)
        );
        let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert!(
            names(&json).iter().any(|n| n.starts_with("sum_squares/")),
            "{variable}={value}: {:?}",
            names(&json)
        );
    }
}

#[test]
fn a_baseline_not_found_lists_every_place_looked_at_and_the_baselines_there() {
    let ws = workspace_with_baselines_in("target_foo/criterion");
    let output = run_at_root(
        ws.path(),
        &["compare", "before", "nightly"],
        &[("CARGO_TARGET_DIR", "target_foo")],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("`nightly`"), "{message}");
    // The workspace root's own, as cargo resolves the variable, holds nothing.
    assert!(
        message.contains("target_foo/criterion: no baselines"),
        "{message}"
    );
    // The bench package's, as criterion resolves it, holds the two saved.
    let app = ws.path().join("crates/app/target_foo/criterion");
    let line = message
        .lines()
        .find(|l| l.contains(&app.display().to_string()))
        .unwrap_or_else(|| panic!("the package's home is listed:\n{message}"));
    assert!(line.contains("after") && line.contains("before"), "{line}");
    assert!(
        !message.contains("crates/util"),
        "no benches there: {message}"
    );
    assert!(message.contains("hint:"), "{message}");
}

/// Writes a raw timing JSON file with the given benchmarks.
fn raw(dir: &Path, file: &str, benchmarks: &[(&str, Vec<f64>)]) -> String {
    let doc = serde_json::json!({
        "unit": "ns",
        "benchmarks": benchmarks
            .iter()
            .map(|(name, samples)| serde_json::json!({"name": name, "samples": samples}))
            .collect::<Vec<_>>(),
    });
    let path = dir.join(file);
    std::fs::write(&path, doc.to_string()).expect("write fixture");
    path.display().to_string()
}

/// Deterministic spread: 40 values around `centre` (a fixed permutation of a 2 % range).
fn spread(centre: f64) -> Vec<f64> {
    (0..40)
        .map(|i| centre * (1.0 + 0.02 * (((i * 17) % 40) as f64 / 40.0 - 0.5)))
        .collect()
}

/// A suite of 8 benchmarks: `slowed` of them 1.5x slower in HEAD, the rest unchanged.
fn suite(dir: &Path, slowed: usize) -> (String, String) {
    let base: Vec<(String, Vec<f64>)> = (0..8)
        .map(|i| (format!("b{i}"), spread(1000.0 * (i + 1) as f64)))
        .collect();
    let head: Vec<(String, Vec<f64>)> = base
        .iter()
        .enumerate()
        .map(|(i, (name, s))| {
            let factor = if i < slowed { 1.5 } else { 1.0 };
            // Unchanged benchmarks get a different arrangement of the same spread.
            let values = s.iter().rev().map(|v| v * factor).collect();
            (name.clone(), values)
        })
        .collect();
    (
        raw(dir, "base.json", &borrowed(&base)),
        raw(dir, "head.json", &borrowed(&head)),
    )
}

fn borrowed(v: &[(String, Vec<f64>)]) -> Vec<(&str, Vec<f64>)> {
    v.iter().map(|(n, s)| (n.as_str(), s.clone())).collect()
}

fn gate_status(base: &str, head: &str, args: &[&str]) -> i32 {
    let mut all = vec!["compare", base, head, "--format", "json"];
    all.extend_from_slice(args);
    let output = run(&all);
    output.status.code().expect("exit status")
}

#[test]
fn gate_suite_fails_when_the_whole_suite_is_slower() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (base, head) = suite(dir.path(), 8);
    assert_eq!(gate_status(&base, &head, &[]), 1, "default --fail-on suite");
    assert_eq!(gate_status(&base, &head, &["--fail-on", "none"]), 0);
    // 1.5x slower is a 50 % regression: a 60 % threshold lets it pass, 40 % does not.
    assert_eq!(gate_status(&base, &head, &["--threshold", "60"]), 0);
    assert_eq!(gate_status(&base, &head, &["--threshold", "40"]), 1);
    // The report is printed in full when the gate fails.
    let output = run(&["compare", &base, &head, "--format", "json"]);
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["gate"]["failed"], true);
    assert_eq!(json["verdict"], "slower");
    assert_eq!(json["benchmarks"].as_array().expect("benchmarks").len(), 8);
}

#[test]
fn gate_any_fails_on_one_slower_benchmark_that_suite_lets_pass() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (base, head) = suite(dir.path(), 1);
    assert_eq!(gate_status(&base, &head, &["--fail-on", "any"]), 1);
    assert_eq!(gate_status(&base, &head, &["--fail-on", "suite"]), 0);
    assert_eq!(gate_status(&base, &head, &["--fail-on", "none"]), 0);
}

#[test]
fn gate_passes_an_unchanged_suite_in_every_mode() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (base, head) = suite(dir.path(), 0);
    for mode in ["none", "suite", "any"] {
        assert_eq!(gate_status(&base, &head, &["--fail-on", mode]), 0, "{mode}");
    }
}

#[test]
fn output_file_and_json_copy_are_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("report.md");
    let json = dir.path().join("report.json");
    let output = run(&[
        "compare",
        "fixtures/example/base.json",
        "fixtures/example/head.json",
        "--format",
        "markdown",
        "-o",
        report.to_str().expect("path"),
        "--json",
        json.to_str().expect("path"),
        "-q",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(output.stdout.is_empty(), "the report went to the file");
    assert!(output.stderr.is_empty(), "-q silences warnings");
    let markdown = std::fs::read_to_string(&report).expect("markdown written");
    assert!(markdown.contains("| parse/large"), "{markdown}");
    let parsed: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written"))
            .expect("valid JSON");
    assert_eq!(parsed["schema"], "cargo-speedup/1");
}

#[test]
fn unusable_inputs_exit_2_naming_the_problem() {
    let dir = tempfile::tempdir().expect("tempdir");
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "this is not a benchmark result").expect("write");
    let garbage = garbage.to_str().expect("path");
    let example = "fixtures/example/base.json";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["compare", "missing/file.json", example],
            "missing/file.json",
        ),
        (vec!["compare", garbage, example], "hyperfine"),
        (
            vec!["compare", example, "fixtures/sources/raw/all-zero.json"],
            "all-zero.json: no usable benchmark: every benchmark in fixtures/sources/raw/all-zero.json had no usable value",
        ),
        (
            vec![
                "compare",
                example,
                "fixtures/sources/misc/analysis-report.json",
            ],
            "analysis-report.json",
        ),
        (
            vec!["compare", example, "fixtures/sources/go/base.txt"],
            "no benchmark is present in both",
        ),
        (
            vec!["compare", example, example, "--confidence", "1.5"],
            "--confidence",
        ),
        (
            vec!["compare", example, example, "--threshold", "-3"],
            "--threshold",
        ),
        (
            vec!["compare", example, example, "--equivalence", "0"],
            "--equivalence",
        ),
        (
            vec!["compare", example, example, "--equivalence", "100"],
            "--equivalence",
        ),
        (
            vec!["compare", example, example, "--equivalence", "-2"],
            "--equivalence",
        ),
    ];
    for (args, expected) in cases {
        let output = run_in(&root(), &args);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
        assert!(
            message.contains(expected),
            "{args:?}: expected {expected:?} in {message}"
        );
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}

#[test]
fn times_too_large_to_compute_with_exit_2_instead_of_panicking() {
    // 1e200 ns squared overflows: the F-test used to panic inside statrs on the NaN variance ratio.
    let dir = tempfile::tempdir().expect("tempdir");
    let huge = raw(dir.path(), "huge.json", &[("a", vec![1e200, 2e200, 3e200])]);
    let output = run(&["compare", &huge, &huge]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("huge.json"), "{message}");
    assert!(
        message.contains("`a` (observation 1 is 1e200 ns"),
        "{message}"
    );
    assert!(!message.contains("panicked"), "{message}");
}

/// `compare` of the shipped example with `-o PATH`, quiet.
fn example_to(path: &Path, format: &str) -> std::process::Output {
    run(&[
        "compare",
        "fixtures/example/base.json",
        "fixtures/example/head.json",
        "--format",
        format,
        "-q",
        "-o",
        path.to_str().expect("path"),
    ])
}

#[test]
fn output_to_a_directory_or_a_missing_directory_says_which_and_what_to_do() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = example_to(dir.path(), "table");
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("it is a directory"), "{message}");
    assert!(message.contains("hint: give a file name"), "{message}");

    let missing = dir.path().join("no/such/report.txt");
    let output = example_to(&missing, "table");
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("does not exist"), "{message}");
    assert!(
        !message.contains("at path"),
        "no temporary file name: {message}"
    );
}

#[cfg(unix)]
#[test]
fn output_through_a_link_keeps_the_link_and_the_files_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let real = dir.path().join("real.csv");
    std::fs::write(&real, "old").expect("write");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&real, &link).expect("symlink");
    let output = example_to(&link, "csv");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let meta = std::fs::symlink_metadata(&link).expect("link");
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    let written = std::fs::read_to_string(&real).expect("read");
    assert!(written.starts_with("name,unit,verdict"), "{written}");
    let mode = std::fs::metadata(&real).expect("real").permissions().mode();
    assert_eq!(mode & 0o777, 0o644, "the report file became {mode:o}");
}

#[cfg(unix)]
#[test]
fn output_to_a_named_pipe_writes_into_it_instead_of_replacing_it() {
    // As `-o /dev/stdout` or `-o /dev/null`: renaming a file over them would replace the device.
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(reader_path)
            .and_then(|mut f| f.read_to_string(&mut text))
            .expect("read the pipe");
        text
    });
    let output = example_to(&fifo, "csv");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let kind = std::fs::symlink_metadata(&fifo).expect("pipe").file_type();
    assert!(kind.is_fifo(), "the pipe was replaced by a file");
    let text = reader.join().expect("reader");
    assert!(text.starts_with("name,unit,verdict"), "{text}");
}

#[test]
fn a_confidence_below_one_half_exits_2_instead_of_contradicting_itself() {
    // At 0.3 both one-sided tests could pass: parse/small (median speedup 0.995x) read "faster".
    for (flag, value) in [("--confidence", "0.3"), ("--hpt-alpha", "0.7")] {
        let output = run(&[
            "compare",
            "fixtures/example/base.json",
            "fixtures/example/head.json",
            flag,
            value,
        ]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}: {message}");
        assert!(message.contains(flag), "{message}");
        assert!(message.contains("0.5"), "the accepted range: {message}");
        assert!(output.stdout.is_empty(), "no report on bad usage");
    }
}

#[test]
fn compare_hints_name_no_running_flag_and_one_run_per_side_is_one_warning() {
    // One run per side: HPT's hint used to suggest `--sample-size`, the small-sample hint `--runs`, flags
    // that only `BASE..HEAD` has; and each benchmark got five warnings (Shapiro-Wilk on each side, the
    // t-test on each side, Welch) for one cause.
    let dir = tempfile::tempdir().expect("tempdir");
    let names = ["a", "b", "c", "d", "e"];
    let base: Vec<(&str, Vec<f64>)> = names.iter().map(|n| (*n, vec![10.0])).collect();
    let head: Vec<(&str, Vec<f64>)> = names.iter().map(|n| (*n, vec![9.0])).collect();
    let base = raw(dir.path(), "base.json", &base);
    let head = raw(dir.path(), "head.json", &head);
    let output = run(&["compare", &base, &head]);
    let (report, warnings) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(0), "{report}{warnings}");
    for flag in ["--runs", "--rounds", "--sample-size", "--max-runs"] {
        assert!(!report.contains(flag), "{flag}: {report}");
    }
    assert!(
        report.contains("all 5 benchmarks: 1 run per side: no test can apply\n    hint: measure 5 or more process runs per side"),
        "{report}"
    );
    assert!(warnings.lines().count() <= 3, "{warnings}");
    for paper in ["Shapiro", "Welch", "Please", "30 observations"] {
        assert!(!report.contains(paper), "{paper}: {report}");
    }
}

#[test]
fn warnings_name_the_sides_base_and_head_not_the_papers_sample1_sample2() {
    // Shapiro-Wilk on a constant side used to read "not applicable to Sample1".
    let dir = tempfile::tempdir().expect("tempdir");
    let base = raw(dir.path(), "base.json", &[("a", vec![5.0; 6])]);
    let head = raw(
        dir.path(),
        "head.json",
        &[("a", vec![4.0, 4.1, 4.2, 4.3, 4.4, 4.5])],
    );
    for format in ["table", "json", "markdown", "csv"] {
        // A test of the mean that cannot apply is a detail under a median verdict: `--verbose` shows it.
        let output = run(&["compare", &base, &head, "--format", format, "--verbose"]);
        let text = format!("{}{}", stdout(&output), stderr(&output));
        assert!(
            !text.contains("Sample1") && !text.contains("Sample2"),
            "{format}: {text}"
        );
        assert!(text.contains("cannot apply to BASE"), "{format}: {text}");
    }
}

#[test]
fn names_present_on_one_side_only_are_listed_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = raw(
        dir.path(),
        "base.json",
        &[("kept", spread(100.0)), ("gone/old", spread(50.0))],
    );
    let head = raw(
        dir.path(),
        "head.json",
        &[("kept", spread(100.0)), ("added/new", spread(70.0))],
    );
    for format in ["table", "markdown"] {
        let output = run(&["compare", &base, &head, "--format", format, "-q"]);
        let report = stdout(&output);
        assert_eq!(output.status.code(), Some(0), "{report}");
        assert_eq!(report.matches("gone/old").count(), 1, "{format}: {report}");
        assert_eq!(report.matches("added/new").count(), 1, "{format}: {report}");
        assert!(report.contains("present on one side only"), "{report}");
    }
}

#[test]
fn the_same_results_on_both_sides_are_pointed_out() {
    // `compare target/criterion target/criterion` reads `new` twice: every benchmark "unchanged", silently.
    let output = run(&[
        "compare",
        "fixtures/example/base.json",
        "fixtures/example/base.json",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("the same results were given twice"));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let messages: Vec<&str> = json["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|w| w["message"].as_str())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("very same samples")),
        "{messages:?}"
    );
    // Two different files raise no such warning.
    let output = run(&[
        "compare",
        "fixtures/example/base.json",
        "fixtures/example/head.json",
    ]);
    assert!(!stderr(&output).contains("given twice"));
}

/// Equal instruction counts on both sides are what unchanged code gives (gungraun's summaries read twice
/// here, as two revisions of unchanged code would count): no warning that the results were given twice.
#[test]
fn equal_counts_on_both_sides_are_not_pointed_out_as_the_same_results() {
    let output = run(&[
        "compare",
        "fixtures/sources/gungraun/base.json",
        "fixtures/sources/gungraun/base.json",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["verdict"], "unchanged", "{json}");
    assert!(!stdout(&output).contains("given twice"), "{json}");
}

/// A suite of counts only, in detail: no sentence of the tests that were not made (HPT's ranking, the
/// protocols' proportions, what a tested verdict risks), but the one that says why.
#[test]
fn the_details_of_a_suite_of_counts_speak_of_no_test() {
    let output = run(&[
        "compare",
        "fixtures/sources/gungraun/base.json",
        "fixtures/sources/gungraun/head.json",
        "--format",
        "markdown",
        "--verbose",
    ]);
    let text = stdout(&output);
    assert!(
        text.contains("HPT: no suite test: every benchmark is a count compared exactly"),
        "{text}"
    );
    for absent in [
        "Accelerated benchmarks",
        "claimed at risk",
        "no benchmark differs significantly",
    ] {
        assert!(!text.contains(absent), "{absent}: {text}");
    }
    // The HTML page's figures too: an exact point needs no interval, and HPT drew no curve because it
    // tests no count.
    let output = run(&[
        "compare",
        "fixtures/sources/gungraun/base.json",
        "fixtures/sources/gungraun/head.json",
        "--format",
        "html",
    ]);
    let page = stdout(&output);
    assert!(
        page.contains("exact: counts compared, no interval needed"),
        "{page}"
    );
    assert!(page.contains("which HPT does not test"), "{page}");
    assert!(
        !page.contains("too few runs or the test could not apply"),
        "{page}"
    );
    assert!(!page.contains("usable runs on both sides"), "{page}");
}

#[test]
fn a_mean_protocol_that_did_not_apply_reads_inconclusive_not_unchanged() {
    // 10 runs per side, not normal (one run in ten is slow), HEAD twice as fast: the t-test's p-value is
    // tiny, but the protocol does not apply it to small non-normal samples. It used to read "unchanged".
    let dir = tempfile::tempdir().expect("tempdir");
    let shape = |scale: f64| -> Vec<f64> {
        (0..10)
            .map(|i| scale * if i == 9 { 300.0 } else { 100.0 + i as f64 })
            .collect()
    };
    let base = raw(dir.path(), "base.json", &[("a", shape(2.0))]);
    let head = raw(dir.path(), "head.json", &[("a", shape(1.0))]);
    let (json, status) = compare_json(&base, &head, &[]);
    assert_eq!(status, 0);
    let mean = &json["benchmarks"][0]["mean_test"];
    assert_eq!(mean["significant"], false, "{mean}");
    assert!(
        mean["warnings"]
            .to_string()
            .contains("the t-test cannot decide the mean"),
        "{mean}"
    );
    let output = run(&["compare", &base, &head, "--format", "csv"]);
    let csv = stdout(&output);
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).expect("row").split(',').collect();
    let column = header
        .iter()
        .position(|h| *h == "mean_verdict")
        .expect("mean_verdict column");
    assert_eq!(row[column], "inconclusive", "{csv}");
    let table = stdout(&run(&["compare", &base, &head, "-q"]));
    assert!(!table.contains("unchanged"), "{table}");
}

#[test]
fn below_the_requested_confidence_the_hpt_sentence_agrees_with_the_suite_verdict() {
    // HPT gives the example 0.961 (ranking log speedups): at --confidence 0.99 the suite is inconclusive (not every benchmark is
    // shown unchanged), and the sentence used to read "HEAD is faster than BASE with confidence 0.969"
    // beside it.
    let output = run(&[
        "compare",
        "fixtures/example/base.json",
        "fixtures/example/head.json",
        "--confidence",
        "0.99",
        "--format",
        "markdown",
    ]);
    // The headline's suite sentence: no direction word stands as a finding below the confidence.
    let report = stdout(&output);
    let suite = report
        .lines()
        .find(|l| l.contains("Suite:"))
        .unwrap_or_default()
        .to_string();
    assert!(suite.contains("Suite: no verdict at 0.99"), "{report}");
    assert!(
        suite.contains("HPT leans faster (confidence 0.961)"),
        "{suite}"
    );
    assert!(
        !report.contains("HEAD is faster than BASE with"),
        "{report}"
    );
}

#[test]
fn a_reader_that_stops_early_is_no_error() {
    // `cargo speedup compare ... | head -1` used to end with "error: Broken pipe (os error 32)" and exit 2.
    let mut child = crate::environment::tool()
        .args([
            "speedup",
            "compare",
            "fixtures/example/base.json",
            "fixtures/example/head.json",
            "-q",
        ])
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("waits");
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(!message.contains("Broken pipe"), "{message}");
}

#[test]
fn a_skipped_go_line_is_named_by_its_line_number() {
    // fixtures/sources/go/head.txt line 13 is a truncated result line; the note used to give only a count.
    let output = run(&[
        "compare",
        "fixtures/sources/go/base.txt",
        "fixtures/sources/go/head.txt",
        "--fail-on",
        "none",
    ]);
    // The note is a warning of the report (which goes to stdout here), said once.
    let message = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        message.contains("head.txt: skipped 1 benchmark line that does not parse (line 13)"),
        "{message}"
    );
}

#[test]
fn a_selector_on_a_file_without_choices_says_what_selectors_are_for() {
    let output = run(&[
        "compare",
        "fixtures/example/base.json#x",
        "fixtures/example/head.json",
    ]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("base.json"), "{message}");
    assert!(message.contains("hint:"), "{message}");
    assert!(message.contains("FILE#rev=main"), "{message}");
}

#[test]
fn only_a_significant_verdict_carries_a_confidence_level() {
    // io/read of the example is unchanged; its searched level (0.60, that of "faster") used to print as
    // "unchanged (0.60)", which reads as 60 % confidence in "unchanged".
    for format in ["table", "markdown"] {
        let output = run(&[
            "compare",
            "fixtures/example/base.json",
            "fixtures/example/head.json",
            "--format",
            format,
            "-q",
        ]);
        let report = stdout(&output);
        let row = report
            .lines()
            .find(|l| l.starts_with("io/read") || l.starts_with("| io/read"))
            .expect("io/read row");
        // The mean's t-test finds nothing: "inconclusive", never "unchanged" (only an equivalence is).
        assert!(row.contains("inconclusive"), "{row}");
        assert!(!row.contains("unchanged"), "{format}: {row}");
        let large = report
            .lines()
            .find(|l| l.starts_with("parse/large") || l.starts_with("| parse/large"))
            .expect("parse/large row");
        // p = 1e-38 passes at the search's top level, 0.99, and higher: said as such.
        assert!(large.contains("faster (>= 0.99)"), "{format}: {large}");
    }
}

#[test]
fn a_bad_json_path_fails_before_the_report_is_printed() {
    // The table used to print in full, then "cannot write" and exit 2.
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no/such/report.json");
    let output = run(&[
        "compare",
        "fixtures/example/base.json",
        "fixtures/example/head.json",
        "--json",
        missing.to_str().expect("path"),
    ]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("does not exist"), "{message}");
    assert!(output.stdout.is_empty(), "{}", stdout(&output));
}

#[test]
fn an_empty_side_is_named() {
    // An unset shell variable (`compare "$BASE" head.json`) used to give "cannot read : no such file".
    let output = run(&["compare", "", "fixtures/example/head.json"]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("BASE is empty"), "{message}");
    assert!(message.contains("hint:"), "{message}");
}

#[test]
fn a_directory_is_searched_only_to_criterions_depth() {
    // `real` has baselines 2 and 4 levels down (`fib_20/new`, `sum_squares/vec_u32_/64/new`): found from
    // its root, not from three levels further up, where they are deeper than criterion's layout.
    let dir = tempfile::tempdir().expect("tempdir");
    let root_dir = dir.path().join("a/b/c/d");
    copy_tree(&root().join("fixtures/sources/criterion/real"), &root_dir);
    let output = run_in(
        dir.path(),
        &["compare", "a/b/c/d#before", "a/b/c/d#after", "-q"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("sum_squares/vec<u32>/64"),
        "{}",
        stdout(&output)
    );
    let output = run_in(dir.path(), &["compare", "a#before", "a#after"]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(
        message.contains("a: no samples: no criterion benchmark has a `before` baseline here"),
        "{message}"
    );
    assert!(
        message
            .contains("it holds <group>[/<function>][/<value>]/<baseline>/{benchmark,sample}.json"),
        "{message}"
    );
}

#[test]
fn hpt_ranks_log_speedups_unless_asked_for_differences() {
    let (base, head) = ("fixtures/example/base.json", "fixtures/example/head.json");
    let (log, _) = compare_json(base, head, &[]);
    assert_eq!(log["suite"]["hpt"]["ranking"], "log-ratio");
    assert_eq!(log["suite"]["hpt"]["confidence"], 0.9609375);
    let (difference, _) = compare_json(base, head, &["--hpt-rank", "difference"]);
    assert_eq!(difference["suite"]["hpt"]["ranking"], "difference");
    // parse/large (91 ms, 1.25x faster) then outranks render/page (418 µs, 1.10x slower).
    assert_eq!(difference["suite"]["hpt"]["confidence"], 0.96875);
    let large = &log["benchmarks"][1]["hpt"];
    let ratio = large["log_ratio"].as_f64().expect("log_ratio");
    assert!((ratio - (91.76f64 / 73.11).ln()).abs() < 0.01, "{large}");
}

#[test]
fn a_suite_too_small_for_hpt_reads_inconclusive_with_the_reason() {
    // fixtures/small-suite: three benchmarks, each clearly slower (0.60x, 0.71x, 0.93x), ten runs per side.
    // HPT reaches at most 1 - 1/2^3 = 0.875 < 0.95 with three benchmarks: the suite is inconclusive, not
    // "unchanged", the suite gate says it cannot fail, and the default gate (each benchmark) fails.
    let (base, head) = (
        "fixtures/small-suite/base.json",
        "fixtures/small-suite/head.json",
    );
    for format in ["table", "markdown"] {
        let output = run(&[
            "compare",
            base,
            head,
            "--format",
            format,
            "-q",
            "--fail-on",
            "suite",
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        insta::assert_snapshot!(format!("small_suite_{format}"), stdout(&output));
    }
    let (json, status) = compare_json(base, head, &["--fail-on", "suite"]);
    assert_eq!(status, 0);
    assert_eq!(json["verdict"], "inconclusive");
    assert_eq!(json["suite"]["hpt"]["max_confidence"], 0.875);
    let note = json["gate"]["cannot_fail"].as_str().expect("a note");
    assert!(note.contains("cannot fail with 3 benchmarks"), "{note}");
    let (any, status) = compare_json(base, head, &[]);
    assert_eq!(status, 1);
    assert_eq!(any["gate"]["fail_on"], "any");
    assert_eq!(any["gate"]["threshold"], 2.0);
    assert_eq!(any["verdict"], "inconclusive");
    assert!(any["gate"]["cannot_fail"].is_null());
    // All three are more than 2 % slower (0.60x, 0.71x, 0.93x): each is a reason.
    assert_eq!(any["gate"]["reasons"].as_array().map(Vec::len), Some(3));
}

/// `--color always` wins over `NO_COLOR` in the table's cells too: comfy-table styles them through
/// crossterm, which reads `NO_COLOR` by itself and printed bare resets (`\e[m`) without the colours.
#[test]
fn color_always_colours_the_table_even_with_no_color_set() {
    let output = crate::environment::tool()
        .args([
            "speedup",
            "compare",
            "--color",
            "always",
            "--fail-on",
            "none",
        ])
        .arg(root().join("fixtures/example/base.json"))
        .arg(root().join("fixtures/example/head.json"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "110")
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{stdout}"))
            .to_string()
    };
    // Red and green as crossterm writes them (ANSI 9 and 10), or as 31 and 32.
    let red = |l: &str| l.contains("\x1b[38;5;9m") || l.contains("\x1b[31m");
    let green = |l: &str| l.contains("\x1b[38;5;10m") || l.contains("\x1b[32m");
    let (slower, faster) = (row("render/page"), row("parse/large"));
    assert!(red(&slower), "a slower row is red: {slower:?}");
    assert!(green(&faster), "a faster row is green: {faster:?}");
}
