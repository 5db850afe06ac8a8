//! `cargo speedup HEAD~1..HEAD --measure time,instructions`: the times' runs, then one count per side on the
//! same builds, in one report, each benchmark as `NAME` (times) and `NAME (instructions)` (counts, exact),
//! each part cached under its own measure's key; and the line where they disagree, on a benchmark whose
//! HEAD sleeps 1 ms per iteration in a routine of 100,000 instructions (time far slower, count within
//! the 2 % threshold). `record --measure time,instructions` writes both into one record. Skipped, saying why, where `valgrind` is not on the `PATH` or the machine is not
//! x86_64.

use crate::counted::*;
use crate::support::*;

/// Short runs: 3 per side, one layout, 0.05 s + 0.1 s each.
const SHORT: [&str; 8] = [
    "--runs",
    "3",
    "--max-runs",
    "3",
    "--warm-up-time",
    "0.05",
    "--measurement-time",
    "0.1",
];

fn args<'a>(measure: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["HEAD~1..HEAD", "--measure", measure, "--format", "json"];
    args.extend(SHORT);
    args.extend(["--layouts", "fixed"]);
    args.extend(more);
    args
}

#[test]
fn times_and_counts_in_one_comparison_each_part_reused_by_its_own_measure() {
    let Some((_serial, repo)) =
        planted_repository(|dir, planted| write_criterion_counted(dir, planted, ""))
    else {
        return;
    };
    let dir = repo.path();
    let target = shared_target();
    let out = speedup(dir, &target, &args("time,instructions", &[]));
    let text = stderr(&out);
    // The planted 0.5 % is within the default threshold (2 %): whatever the times say, the gate may pass.
    assert!(matches!(out.status.code(), Some(0 | 1)), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let names: Vec<&str> = report["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "changed",
            "same",
            "changed (instructions)",
            "same (instructions)"
        ],
        "{text}"
    );
    for name in ["changed", "same"] {
        let time = benchmark(&report, name);
        assert_eq!(
            time["unit"].as_str().map(|u| u != "instructions"),
            Some(true)
        );
        assert_eq!(time["base"]["n"], 3, "three runs per side: {time}");
    }
    // Without --keep-runs, the counts' runs go with the times', their folder too.
    let runs = speedup_dir(dir, &target).join("runs");
    assert!(
        !runs.join("instructions").exists(),
        "{:?}",
        std::fs::read_dir(&runs).map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>())
    );
    let changed = benchmark(&report, "changed (instructions)");
    assert_eq!(changed["verdict"], "slower", "{changed}");
    assert_eq!(changed["base"]["n"], 1, "one count per side: {changed}");
    let planted = 1.0 / (1.0 + EXTRA as f64 / WORK as f64);
    let ratio = changed["speedup"]["median"].as_f64().expect("a speedup");
    assert!(
        (ratio - planted).abs() < 0.0005,
        "speedup {ratio}, planted {planted}"
    );
    let same = benchmark(&report, "same (instructions)");
    assert_eq!(same["verdict"], "unchanged", "{same}");
    assert_eq!(same["base"]["median"], same["head"]["median"], "{same}");
    // The fingerprint says both, with what counts depend on.
    let print = &report["fingerprint"];
    assert_eq!(print["settings"]["measure"], "time,instructions", "{print}");
    assert!(
        print["settings"]["valgrind"]
            .as_str()
            .is_some_and(|v| v.starts_with("valgrind")),
        "{print}"
    );
    assert!(print["machine"]["cpu_flags"].is_string(), "{print}");
    assert!(print["machine"]["glibc"].is_string(), "{print}");

    // Each part was stored under its own measure's key: counting alone reuses the counts, with where
    // they changed, and timing alone reuses the times.
    // (The same options but the number of runs, which counts refuse.)
    let mut counts_only = args("instructions", &[]);
    counts_only.retain(|a| !["--runs", "--max-runs", "3"].contains(a));
    let out = speedup(dir, &target, &counts_only);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        2,
        "{text}"
    );
    assert!(
        !text.contains("Compiling"),
        "nothing is built again: {text}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let changed = benchmark(&report, "changed (instructions)");
    assert_eq!(changed["verdict"], "slower", "{changed}");
    let found = changed["where_changed"]
        .as_array()
        .unwrap_or_else(|| panic!("where_changed of counts from the cache: {changed}"));
    assert!(
        found
            .iter()
            .any(|f| f["function"] == "demo::extra" && f["status"] == "added"),
        "{changed}"
    );
    let mut time_only = args("time", &[]);
    time_only.drain(1..3);
    let out = speedup(dir, &target, &time_only);
    let text = stderr(&out);
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        2,
        "{text}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(
        report["benchmarks"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );

    // `record` writes both into one record: the times' runs, then one count per benchmark.
    let records = tempfile::tempdir().unwrap();
    let path = records.path().join("both.json");
    let mut record = vec!["record", "--measure", "time,instructions", "-o"];
    record.push(path.to_str().unwrap());
    record.extend(SHORT);
    record.extend(["--layouts", "fixed"]);
    let out = speedup(dir, &target, &record);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let runs = |name: &str| benchmark(&written, name)["runs"].as_array().map(Vec::len);
    assert_eq!(runs("changed"), Some(3), "{written}");
    assert_eq!(runs("changed (instructions)"), Some(1), "{written}");
    assert_eq!(
        written["fingerprint"]["settings"]["measure"], "time,instructions",
        "{written}"
    );
}

/// The benchmark `slept`: five calls of `work()` (100,000 `nop`s), and at HEAD a sleep of 1 ms first.
fn slept(head: bool) -> String {
    let sleep = match head {
        true => "std::thread::sleep(std::time::Duration::from_millis(1)); ",
        false => "",
    };
    format!(
        r#"
    c.bench_function("slept", |b| b.iter(|| {{ {sleep}black_box((0..5).map(|_| demo::work()).sum::<u64>()) }}));"#
    )
}

#[test]
fn a_sleep_makes_the_time_far_slower_with_the_count_unchanged_and_the_report_says_so() {
    let Some((_serial, repo)) =
        planted_repository(|dir, head| write_criterion_counted(dir, false, &slept(head)))
    else {
        return;
    };
    let dir = repo.path();
    let target = shared_target();
    let reports = tempfile::tempdir().unwrap();
    let html = reports.path().join("report.html");
    let out = speedup(
        dir,
        &target,
        &[
            "HEAD~1..HEAD",
            "--measure",
            "time,instructions",
            "--filter",
            "slept",
            "--format",
            "json",
            "--html",
            html.to_str().unwrap(),
            "--layouts",
            "fixed",
            "--warm-up-time",
            "0.05",
            "--measurement-time",
            "0.1",
        ],
    );
    let text = stderr(&out);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let time = benchmark(&report, "slept");
    assert_eq!(time["verdict"], "slower", "{time}");
    // 1 ms against some 50 µs of `nop`s: far slower, never a small live difference.
    let speedup_ratio = time["speedup"]["median"].as_f64().unwrap();
    assert!(
        speedup_ratio < 0.5,
        "the time's speedup {speedup_ratio}: {text}"
    );
    let count = benchmark(&report, "slept (instructions)");
    let (base, head) = (
        count["base"]["median"].as_f64().unwrap(),
        count["head"]["median"].as_f64().unwrap(),
    );
    assert!(
        (5.0 * WORK as f64..5.2 * WORK as f64).contains(&base),
        "{count}"
    );
    assert!(
        (head / base - 1.0).abs() < 0.02,
        "a sleep is a few hundred instructions: {count}"
    );
    let said = &time["disagreement"];
    assert_eq!(said["kind"], "time-not-count", "{time}");
    assert_eq!(said["time_verdict"], "slower", "{said}");
    assert_eq!(said["count"], "slept (instructions)", "{said}");
    assert!(said["time_change_pct"].as_f64().unwrap() > 100.0, "{said}");
    assert!(
        said["reading"]
            .as_str()
            .unwrap()
            .contains("memory, I/O or scheduling"),
        "{said}"
    );
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(
        html.contains("<li><code>slept</code>: time slower (+"),
        "the HTML report's line"
    );
}
