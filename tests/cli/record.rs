//! CLI tests of `record`: options are checked before anything is built or run.

use crate::support::run;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn fewer_than_two_runs_are_refused_naming_the_flag() {
    for (flag, value) in [
        ("--runs", "0"),
        ("--runs", "1"),
        ("--rounds", "1"),
        ("--runs", "-2"),
    ] {
        let out = run(&["record", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(
            stderr(&out).contains(&format!(
                "invalid value {value} for --runs: expected at least 2 process runs"
            )),
            "{}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_seed_that_is_not_a_number_is_refused() {
    let out = run(&["record", "--seed", "abc"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--seed"), "{}", stderr(&out));
}

#[test]
fn a_sample_size_below_criterions_minimum_is_refused() {
    let out = run(&["record", "--sample-size", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--sample-size"), "{}", stderr(&out));
}

#[test]
fn a_negative_measurement_time_is_refused() {
    let out = run(&["record", "--measurement-time=-1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--measurement-time"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_missing_manifest_is_named() {
    let out = run(&["record", "--manifest-path", "no/such/Cargo.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no/such/Cargo.toml"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unusable_output_path_is_refused_before_anything_runs() {
    // A directory or a missing directory as -o used to fail only after building and running everything.
    let dir = tempfile::tempdir().expect("tempdir");
    let as_dir = dir.path().to_str().expect("path").to_string();
    let missing = dir.path().join("no/such/out.json");
    let missing = missing.to_str().expect("path");
    let cases: [(&[&str], &str); 3] = [
        (&["record", "-o", &as_dir], "it is a directory"),
        (&["HEAD", "-o", missing], "does not exist"),
        (&["HEAD", "--json", &as_dir], "it is a directory"),
    ];
    for (args, expected) in cases {
        // In an empty directory: without the early check, the message would be about the missing project.
        let out = crate::support::run_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn help_says_where_the_results_go_without_output() {
    let out = run(&["record", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    let line = help
        .lines()
        .find(|l| l.contains("--output"))
        .expect("an --output line");
    assert!(line.contains("standard output"), "{line}");
}
