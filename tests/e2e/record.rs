//! `cargo speedup record` on the working tree: each process run kept apart in the record JSON, nothing left
//! behind.

use crate::support::*;

#[test]
fn record_keeps_each_process_run_of_the_working_tree_apart_and_records_again() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    commit(dir, "one");
    write_criterion_crate(dir, 400);
    let before = repository_state(dir);
    let out_file = dir.join("..").join(format!(
        "{}-record.json",
        dir.file_name().unwrap().to_string_lossy()
    ));
    let target = shared_target();
    // RUN's short criterion settings (`--warm-up-time`, `--measurement-time`, `--sample-size`).
    let args: Vec<&str> = [
        &["record"][..],
        &RUN[1..7],
        &[
            "--runs",
            "3",
            "--filter",
            "same",
            "-o",
            out_file.to_str().unwrap(),
        ],
    ]
    .concat();
    let out = speedup(dir, &target, &args);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    // Again, with nothing changed: cargo holds the bench crate fresh, and its layouts are still relinked.
    let again = speedup(dir, &target, &args);
    assert_eq!(again.status.code(), Some(0), "stderr: {}", stderr(&again));
    let text = std::fs::read_to_string(&out_file).unwrap();
    let _ = std::fs::remove_file(&out_file);
    let record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let benchmarks = record["benchmarks"].as_array().unwrap();
    assert_eq!(benchmarks.len(), 1, "{text}");
    assert_eq!(benchmarks[0]["name"], "same");
    let runs = benchmarks[0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3, "one array per process run: {text}");
    assert!(
        runs.iter().all(|r| r.as_array().unwrap().len() == 10),
        "{text}"
    );
    assert_eq!(repository_state(dir), before);
}
