//! CLI tests of what `compare` says about inputs it cannot use or reads with a caveat: each message names
//! the file, the place and the fix (fixtures in `fixtures/sources/malformed/`).

use crate::support::run;

/// `compare FILE example` (or `example FILE` when `head`), with its exit status and standard error.
fn compare_with(file: &str, extra: &[&str]) -> (i32, String, String) {
    let path = format!("fixtures/sources/malformed/{file}");
    let mut args = vec!["compare", path.as_str(), "fixtures/example/head.json"];
    args.extend_from_slice(extra);
    let output = run(&args);
    (
        output.status.code().expect("exit status"),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

#[test]
fn a_malformed_file_says_what_is_wrong_and_where() {
    for (file, expected) in [
        ("empty.json", "empty.json: empty\n"),
        (
            "truncated.json",
            "truncated.json: ends early at line 4 column 53 (read as raw timing JSON)",
        ),
        (
            "out-of-range.json",
            "out-of-range.json: a number out of range at line 1 column 81 (read as raw timing JSON)",
        ),
        (
            "array.json",
            "array.json: a JSON array at the top level, where raw timing JSON is an object",
        ),
        ("nan.json", "NaN is not a time (at line 1 column 77)"),
        (
            "empty-name.json",
            "empty-name.json: benchmark 2 (counting from 1) has an empty name",
        ),
        (
            "huge.json",
            "observation 1 is 1e308 ns: outside the range of times",
        ),
    ] {
        let (status, _, stderr) = compare_with(file, &[]);
        assert_eq!(status, 2, "{file}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{file}: expected {expected:?} in {stderr}"
        );
        assert!(!stderr.contains("tried:"), "{file}: {stderr}");
    }
}

#[test]
fn an_ignored_field_and_the_default_unit_are_warned_about() {
    let (status, stdout, stderr) = compare_with("typo.json", &["--fail-on", "none"]);
    assert_eq!(status, 0, "{stderr}");
    // Said once: in the report, and standard error counts it among the report's warnings.
    assert!(stderr.contains("see the report"), "{stderr}");
    assert!(
        stdout.contains("no `unit` given, so the times of 1 benchmark(s) are read as nanoseconds"),
        "{stdout}"
    );
    assert!(
        stdout.contains("field `sampels` (in 1 benchmark) is not one this tool reads and was ignored; did you mean `samples`?"),
        "{stdout}"
    );
}

#[test]
fn no_benchmark_in_common_lists_both_sides_and_the_closest_pairs() {
    let output = run(&[
        "compare",
        "fixtures/sources/malformed/typo.json",
        "fixtures/sources/go/base.txt",
    ]);
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("BASE has 1 benchmark(s): `parse/small`\n"),
        "{stderr}"
    );
    assert!(stderr.contains("HEAD has "), "{stderr}");
    let example = run(&[
        "compare",
        "fixtures/sources/malformed/typo.json",
        "fixtures/sources/raw/misnamed.json",
    ]);
    let stderr = String::from_utf8(example.stderr).expect("UTF-8");
    assert!(
        stderr.contains("closest: `parse/small` ~ `parse/smal`"),
        "{stderr}"
    );
}

#[test]
fn command_line_mistakes_exit_2_with_the_fix() {
    let (base, head) = ("fixtures/example/base.json", "fixtures/example/head.json");
    for (args, expected) in [
        (vec!["compar", base, head], "did you mean `compare`?"),
        (vec!["rcae", "main", "feature"], "did you mean `race`?"),
        (vec!["merg", "a.json", "b.json"], "did you mean `merge`?"),
        (
            vec!["--confidence", "0.99", "compare", base, head],
            "`compare` must come before the options: `cargo speedup compare --confidence 0.99",
        ),
        (
            vec!["compare", base, head, "--confidence", "abc"],
            "expected a confidence level from 0.5 up to (not including) 1",
        ),
        (
            vec!["main", "--sample-size", "-3"],
            "invalid value -3 for --sample-size: expected at least 10",
        ),
        (
            vec!["main", "--warm-up-time", "-1"],
            "invalid value -1 for --warm-up-time",
        ),
        (
            vec!["compare", base, head, "--hpt-rank", "ratio"],
            "[possible values: log-ratio, difference]",
        ),
    ] {
        let output = run(&args);
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{args:?}: expected {expected:?} in {stderr}"
        );
    }
}

/// Values out of range, given outside any repository: each is refused before anything is looked for, with
/// the value as a person would write it, the range and what to do (`docs/options.md`).
#[test]
fn out_of_range_values_exit_2_with_the_range_and_a_hint() {
    let outside = tempfile::tempdir().expect("tempdir");
    let budget = |value: &str| {
        format!(
            "error: invalid value {value} for --budget: expected a duration from 1s to 168h (7 days), \
             such as 90s, 10m or 1h30m (a plain number is seconds)\n\
             hint: leave out --budget to run without a time limit; --max-runs bounds the runs instead\n"
        )
    };
    let run_time = |flag: &str, value: &str| {
        format!(
            "error: invalid value {value} for {flag}: expected a number of seconds from 0.001 to 3600 \
             per run\n\
             hint: a run is one observation: more runs (--runs), not longer ones, narrow a verdict; \
             --budget bounds the whole comparison\n"
        )
    };
    for (args, expected) in [
        (vec!["main..HEAD", "--budget", "1e300"], budget("1e300")),
        (
            vec!["main..HEAD", "--budget", "99999999999999999999h"],
            budget("99999999999999999999h"),
        ),
        (
            vec!["main..HEAD", "--measurement-time", "1e30"],
            run_time("--measurement-time", "1e30"),
        ),
        (
            vec!["main..HEAD", "--warm-up-time", "1e10"],
            run_time("--warm-up-time", "1e10"),
        ),
        (
            vec!["race", "a", "b", "--budget", "1e300"],
            budget("1e300"),
        ),
        (
            vec!["record", "--measurement-time", "1e30"],
            run_time("--measurement-time", "1e30"),
        ),
        (
            vec!["main..HEAD", "--confidence", "1e-320"],
            "error: invalid value 1e-320 for --confidence: expected a confidence level from 0.5 up to \
             (not including) 1, e.g. 0.95\n\
             hint: 0.95 and 0.99 are the usual levels; a level is 1 minus the risk of a wrong verdict\n"
                .to_string(),
        ),
    ] {
        let output = crate::support::run_in(outside.path(), &args);
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr, expected, "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(
        std::fs::read_dir(outside.path())
            .expect("the directory")
            .count(),
        0,
        "nothing is written"
    );
}
