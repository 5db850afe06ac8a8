//! A bench file that sets its own measurement time (which criterion lets override the command line): the
//! comparison says where, rewrites the call in its own copies of both sides (the working tree's included),
//! so the runs take the requested length, and leaves the user's files as they were.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use crate::support::*;

/// The fixture's two benchmarks in a group that sets its own measurement time, line 7.
fn bench_file(loops: u32) -> String {
    format!(
        r#"use criterion::{{criterion_group, criterion_main, Criterion}};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {{
    let mut group = c.benchmark_group("g");
    group.measurement_time(Duration::from_secs(2));
    group.bench_function("changed", |b| b.iter(|| demo::spin(black_box({loops}))));
    group.bench_function("same", |b| b.iter(|| demo::spin(black_box(200))));
    group.finish();
}}

criterion_group!(benches, bench);
criterion_main!(benches);
"#
    )
}

/// Every file of `dir` but `.git`, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                found.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    found
}

/// The measured length (sum of the sample times, seconds) of every benchmark of every run kept under
/// `runs`, as criterion saved it.
fn run_lengths(runs: &Path) -> Vec<f64> {
    let mut lengths = Vec::new();
    let mut stack = vec![runs.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.ends_with("speedup/sample.json") {
                let sample: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                let times = sample["times"].as_array().unwrap();
                lengths.push(times.iter().map(|t| t.as_f64().unwrap()).sum::<f64>() * 1e-9);
            }
        }
    }
    lengths
}

#[test]
fn a_bench_files_own_measurement_time_is_told_and_rewritten_on_both_sides() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    write(dir, &[("benches/work.rs", &bench_file(200))]);
    commit(dir, "a group that sets its own measurement time");
    // The working tree, one side, has the call too (and an uncommitted change).
    write(dir, &[("benches/work.rs", &bench_file(400))]);
    let target = shared_target();
    let before = (files(dir), repository_state(dir));
    let args = |runs: &str, secs: &str| {
        [
            "HEAD",
            "--warm-up-time",
            secs,
            "--measurement-time",
            secs,
            "--runs",
            runs,
            "--fixed",
            "--layouts",
            "fixed",
            "--fail-on",
            "none",
            "--format",
            "json",
            // What each run's criterion saved is read below.
            "--keep-runs",
        ]
        .map(str::to_string)
    };

    // Builds both sides once, so that the timed comparison below rebuilds the fixture crate only.
    let warm = speedup(
        dir,
        &target,
        &args("2", "0.01").each_ref().map(String::as_str),
    );
    assert_eq!(warm.status.code(), Some(0), "{}", stderr(&warm));

    // The slot's target directory is shared with other tests: only this comparison's runs are counted.
    let _ = std::fs::remove_dir_all(speedup_dir(dir, &target).join("runs"));
    let started = Instant::now();
    let out = speedup(
        dir,
        &target,
        &args("4", "0.05").each_ref().map(String::as_str),
    );
    let elapsed = started.elapsed().as_secs_f64();
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");

    // Told once, with the file and line, on stderr and in the report.
    let told = "benches/work.rs:7 measurement_time(2 s)";
    assert_eq!(text.matches(told).count(), 1, "{text}");
    assert!(text.contains("cargo speedup rewrote these calls"), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let warnings: Vec<&serde_json::Value> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["message"].as_str().is_some_and(|m| m.contains(told)))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", report["warnings"]);
    assert_eq!(warnings[0]["kind"], "input");

    // The runs measured the requested 0.05 s, not the file's 2 s: 2 sides x 4 runs x 2 benchmarks.
    let lengths = run_lengths(&speedup_dir(dir, &target).join("runs"));
    assert_eq!(lengths.len(), 16, "{lengths:?}");
    assert!(lengths.iter().all(|&l| l < 1.0), "{lengths:?}");
    // Kept, the runs alone would take 2 x 4 x 2 x 2.05 s = 32.8 s; the whole comparison, builds included,
    // takes well under that.
    assert!(elapsed < 32.8, "{elapsed} s\n{text}");

    // The user's files, index and worktrees are as they were; the copy is gone.
    assert_eq!((files(dir), repository_state(dir)), before);
    let worktrees = speedup_dir(dir, &target).join("worktrees");
    assert!(
        !worktrees.exists() || std::fs::read_dir(&worktrees).unwrap().next().is_none(),
        "{worktrees:?}"
    );

    // Both sides rewritten alike, one commit against itself builds identical executables: nothing runs.
    let mut same = args("2", "0.1");
    same[0] = "HEAD..HEAD".into();
    let out = speedup(dir, &target, &same.each_ref().map(String::as_str));
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("identical executables of `work`"), "{text}");
    assert!(!text.contains("running "), "nothing may run: {text}");
    assert_eq!((files(dir), repository_state(dir)), before);
}
