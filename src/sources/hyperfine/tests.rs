//! Tests of the hyperfine reader on committed exports: by command, by parameter value, failed runs.

use super::*;
use crate::model::coverage::LeftOut;
use crate::testutil::source_fixtures::read_fixture as read;

#[test]
fn times_are_process_runs_in_seconds() {
    let results = read("hyperfine/base.json").unwrap();
    let small = &results.benchmarks[0];
    assert_eq!(small.name, "sort-bench small.txt");
    assert_eq!(small.unit, Unit::S);
    assert!(
        small.runs.runs().iter().all(|r| r.samples().len() == 1),
        "one run per value"
    );
    assert_eq!(small.runs.len(), 5);
    assert_eq!(small.runs.values()[1], 0.010221 * 1e9);
    assert!(results.notes.is_empty(), "{:?}", results.notes);
}

#[test]
fn single_run_with_null_stddev_is_read() {
    let results = read("hyperfine/head.json").unwrap();
    assert_eq!(results.benchmarks[1].name, "sort-bench small.txt");
    assert_eq!(results.benchmarks[1].runs.len(), 1);
}

#[test]
fn one_file_is_split_by_parameter_value() {
    let main = read("hyperfine/revisions.json#rev=main").unwrap();
    let feature = read("hyperfine/revisions.json#rev=feature").unwrap();
    assert_eq!(main.benchmarks.len(), 1);
    assert_eq!(main.benchmarks[0].name, "./app-{rev} data.txt");
    assert_eq!(feature.benchmarks[0].name, "./app-{rev} data.txt");
    assert_eq!(main.benchmarks[0].runs.len(), 4);
}

#[test]
fn failed_and_killed_runs_are_dropped_with_a_note() {
    let feature = read("hyperfine/revisions.json#feature").unwrap();
    // 6 runs; exit codes [0, 0, 0, 0, 1, null]: the 0.31002 s run and the 0.09911 s run go.
    assert_eq!(
        feature.benchmarks[0].runs.values(),
        &[0.09810e9, 0.09655e9, 0.10190e9, 0.09797e9]
    );
    assert_eq!(feature.notes.len(), 1);
    assert!(
        feature.notes[0].contains("dropped 2 of 6 runs"),
        "{:?}",
        feature.notes
    );
}

#[test]
fn unselected_parameterised_file_hints_at_the_selector() {
    let results = read("hyperfine/revisions.json").unwrap();
    assert_eq!(results.benchmarks.len(), 2);
    assert!(
        results.notes.iter().any(|n| n.contains("FILE#rev=feature")),
        "{:?}",
        results.notes
    );
}

#[test]
fn unknown_selector_lists_the_parameters_found() {
    let message = read("hyperfine/revisions.json#rev=nope")
        .unwrap_err()
        .to_string();
    assert!(message.contains("rev=feature, rev=main"), "{message}");
}

#[test]
fn legacy_single_parameter_is_selectable() {
    let results = read("hyperfine/legacy-parameter.json#0.2").unwrap();
    assert_eq!(results.benchmarks[0].name, "sleep {parameter}");
    assert_eq!(results.benchmarks[0].runs.values()[0], 0.2015e9);
}

#[test]
fn a_command_whose_runs_all_failed_is_left_out_with_its_exit_codes() {
    // hyperfine 1.18's `--export-json` with `--ignore-failure`: `exit_codes` beside `times`.
    let text = r#"{"results":[
        {"command":"crash","times":[0.1,0.2,0.3],"exit_codes":[null,3,3]},
        {"command":"ok","times":[0.1,0.2],"exit_codes":[0,0]}]}"#;
    let results = parse(text, "h.json", None).unwrap();
    let names: Vec<&str> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["ok"]);
    assert_eq!(
        results.left_out,
        [LeftOut::benchmark(
            "crash",
            None,
            Reason::Failed {
                failed: 3,
                runs: 3,
                exit_codes: vec![None, Some(3)],
                message: String::new()
            }
        )]
    );
    assert!(results.notes.is_empty(), "{:?}", results.notes);
}

#[test]
fn a_file_whose_every_command_failed_names_the_file_and_the_exit_codes() {
    let text = r#"{"results":[{"command":"crash","times":[0.1,0.2],"exit_codes":[1,1]}]}"#;
    let message = parse(text, "h.json", None).unwrap_err().to_string();
    assert!(
        message.starts_with(
            "h.json: no usable benchmark: every benchmark in h.json failed in every run: `crash` (2 of \
             2 runs failed, exit codes 1)\nhint: "
        ),
        "{message}"
    );
}

#[test]
fn missing_times_is_an_error_with_a_hint() {
    let text = r#"{"results":[{"command":"old","mean":0.1}]}"#;
    let message = parse(text, "h.json", None).unwrap_err().to_string();
    assert!(
        message.contains("no per-run `times`") && message.contains("hint:"),
        "{message}"
    );
}

#[test]
fn only_the_differing_occurrences_become_the_placeholder() {
    let text = r#"{"results":[
        {"command":"./app-1 -j1 --tag 1","times":[0.1],"parameters":{"rev":"1","size":"8"}},
        {"command":"./app-2 -j1 --tag 2","times":[0.2],"parameters":{"rev":"2","size":"8"}}]}"#;
    let one = parse(text, "h.json", Some("rev=1")).unwrap();
    let two = parse(text, "h.json", Some("rev=2")).unwrap();
    assert_eq!(one.benchmarks[0].name, "./app-{rev} -j1 --tag {rev}");
    assert_eq!(two.benchmarks[0].name, one.benchmarks[0].name);
}

#[test]
fn values_sharing_a_prefix_give_one_template() {
    let text = r#"{"results":[
        {"command":"run main","times":[0.1],"parameters":{"rev":"main"}},
        {"command":"run master","times":[0.2],"parameters":{"rev":"master"}}]}"#;
    let main = parse(text, "h.json", Some("rev=main")).unwrap();
    let master = parse(text, "h.json", Some("master")).unwrap();
    assert_eq!(main.benchmarks[0].name, "run {rev}");
    assert_eq!(master.benchmarks[0].name, "run {rev}");
}

#[test]
fn template_is_none_when_the_commands_differ_elsewhere() {
    assert_eq!(template("a-1 x", "1", "a-2 y", "2", "{v}"), None);
    assert_eq!(
        template("a-1 x", "1", "a-2 x", "2", "{v}").as_deref(),
        Some("a-{v} x")
    );
}

#[test]
fn hyperfines_own_export_of_a_failing_command_leaves_it_out() {
    // hyperfine 1.20.0, `--ignore-failure` (fixtures/sources/hyperfine/README.md).
    let results = read("hyperfine/failed-command.json").unwrap();
    let names: Vec<&str> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["sort small.txt"]);
    assert_eq!(results.benchmarks[0].runs.len(), 5);
    assert_eq!(
        results.left_out,
        [LeftOut::benchmark(
            "sort missing.txt",
            None,
            Reason::Failed {
                failed: 5,
                runs: 5,
                exit_codes: vec![Some(2)],
                message: String::new()
            }
        )]
    );
}
