//! CLI tests of `record`: options are checked before anything is built or run.

use crate::support::run;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn zero_rounds_is_refused_naming_the_flag() {
    let out = run(&["record", "--rounds", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid value 0 for --rounds: at least 1"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
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
