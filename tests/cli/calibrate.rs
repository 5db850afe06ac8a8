//! The calibration command's argument handling (`calibrate/run.sh`): help and usage errors only, which
//! are decided before anything is fetched or built, so no network is needed.

use std::path::PathBuf;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    let script: PathBuf = [env!("CARGO_MANIFEST_DIR"), "calibrate", "run.sh"]
        .iter()
        .collect();
    crate::environment::command("bash")
        .arg(script)
        .args(args)
        .output()
        .expect("run bash calibrate/run.sh")
}

#[test]
fn help_exits_zero_and_names_the_options() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    for option in [
        "--crate NAME@VERSION[:FILTER]",
        "-n N",
        "--speedup PATH",
        "--out DIR",
        "--bench-settings WHICH",
        "-- EXTRA",
        // The crate prepared as published, whose bench file sets its own times.
        "base64@0.23.1:",
    ] {
        assert!(text.contains(option), "--help lacks {option}:\n{text}");
    }
}

#[test]
fn usage_errors_exit_two_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["--bogus"], "unknown option '--bogus'"),
        (&["-n", "0"], "-n takes a positive integer"),
        (&["-n"], "-n needs a value"),
        (&["--crate", "base64"], "NAME@VERSION[:FILTER]"),
        (&["--crate", "base64@0.22"], "NAME@VERSION[:FILTER]"),
        (&["--cases", "bump,nope"], "unknown case 'nope'"),
        (
            &["--bench-settings", "sometimes"],
            "--bench-settings takes rewrite, keep or both, not 'sometimes'",
        ),
        (&["--bench-settings"], "--bench-settings needs a value"),
        (
            &["--speedup", "/nonexistent/cargo-speedup"],
            "is not an executable",
        ),
    ];
    for (args, message) in cases {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
