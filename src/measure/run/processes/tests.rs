use super::*;

#[test]
fn criterion_03_refusing_fractional_seconds_is_recognised() {
    // criterion 0.3.6 with clap 2, given --warm-up-time 0.3:
    let old =
        "error: Invalid value for '--warm-up-time <warm-up-time>': invalid digit found in string\n";
    assert!(rejects_fractional_seconds(old));
    let clap2 = "error: Invalid value for '--warm-up-time <SECONDS>': The argument '0.3' isn't a valid value\n";
    assert!(rejects_fractional_seconds(clap2));
    assert!(!rejects_fractional_seconds(
        "thread 'main' panicked at 'boom'\n"
    ));
    assert!(!rejects_fractional_seconds(
        "error: Invalid value for '--sample-size <N>'\n"
    ));
    // What criterion 0.3.6 printed here (httparse 1.10.1's bench `parse`, rustc 1.95, given
    // `--warm-up-time 0.1`): the option is not named, the refused value is.
    let printed = "error: Invalid value: The argument '0.1' isn't a valid value\n";
    assert!(rejects_fractional_seconds(printed));
    assert!(!rejects_fractional_seconds(
        "error: Invalid value: The argument 'fast' isn't a valid value\n"
    ));
    assert!(!rejects_fractional_seconds(
        "error: Invalid value: The argument '10' isn't a valid value\n"
    ));
}

#[test]
fn a_runs_kept_divan_and_libtest_outputs_are_read_as_its_values() {
    let home = tempfile::tempdir().unwrap();
    let divan = include_str!("../../../../fixtures/harness/divan-0.1.21.txt");
    std::fs::write(home.path().join("work.divan.txt"), divan).unwrap();
    std::fs::write(
        home.path().join("old.libtest.txt"),
        "running 1 test\ntest old_one ... bench:   2,500 ns/iter (+/- 10)\n",
    )
    .unwrap();
    let run = read_run(home.path()).unwrap();
    let names: Vec<&str> = run.benchmarks.iter().map(|b| b.name.as_str()).collect();
    // In file-name order: `old.libtest.txt`, then `work.divan.txt`.
    assert_eq!(names.len(), 11, "{names:?}");
    assert_eq!(names[0], "old_one");
    assert_eq!(names[1], "work::changed");
    assert_eq!(run.benchmarks[0].runs.values(), [2500.0]);
    assert_eq!(run.benchmarks[1].runs.values(), [34.61]);
    // A run that kept nothing (its filter selected no benchmark) has no values.
    let empty = tempfile::tempdir().unwrap();
    assert!(
        read_run(&empty.path().join("run-1"))
            .unwrap()
            .benchmarks
            .is_empty()
    );
    // A kept output that is not its harness's is an error naming the file.
    std::fs::write(home.path().join("bad.divan.txt"), "nonsense\n").unwrap();
    let error = read_run(home.path()).unwrap_err().to_string();
    assert!(error.contains("bad.divan.txt"), "{error}");
}
