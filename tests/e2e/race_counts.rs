//! `race --measure instructions` on the counted criterion crate (`counted.rs`), three commits: the original,
//! a comment-only commit and the planted call of 100 more `nop`s in `changed`. Each revision is counted
//! once under Valgrind and each benchmark's race is decided exactly at `--threshold 0`: the planted
//! revision is eliminated in `changed`, the two others are equivalent there, and all three are equivalent
//! in `same`. Without Valgrind the race stops before anything is built (exit 2).
//!
//! Skipped, saying why, where `valgrind` is not on the `PATH` or the machine is not x86_64.

use crate::counted::*;
use crate::support::*;

#[test]
fn a_race_of_counts_eliminates_the_planted_revision_exactly() {
    if let Some(why) = cannot_run() {
        eprintln!("skipped: {why}");
        return;
    }
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_counted(dir, false, "");
    commit(dir, "original");
    write_criterion_counted(dir, false, "\n    // the same code, with a comment");
    commit(dir, "a comment only");
    write_criterion_counted(dir, true, "\n    // the same code, with a comment");
    commit(dir, "one more call in `changed`");
    let target = shared_target();
    let reports = tempfile::tempdir().unwrap();
    let (page, json) = (
        reports.path().join("race.md"),
        reports.path().join("race.json"),
    );
    let args = [
        "race",
        "HEAD~2",
        "HEAD~1",
        "HEAD",
        "--measure",
        "instructions",
        "--threshold",
        "0",
        "--format",
        "markdown",
        "-o",
        page.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("run 1 of 1"), "one run per revision: {text}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON report"))
            .expect("JSON");
    assert_eq!(report["threshold_pct"], 0.0, "{report}");
    assert_eq!(
        report["suite"]["fastest"],
        serde_json::Value::Null,
        "{report}"
    );

    let changed = benchmark(&report, "changed (instructions)");
    assert_eq!(changed["basis"], "exact", "{changed}");
    assert_eq!(changed["unit"], "instructions", "{changed}");
    assert_eq!(changed["outcome"], "equivalent", "{changed}");
    assert_eq!(changed["survivors"], serde_json::json!([0, 1]), "{changed}");
    assert_eq!(changed["pick"], 0, "{changed}");
    assert_eq!(
        changed["comparison_alpha"],
        serde_json::Value::Null,
        "{changed}"
    );
    let count = |b: &serde_json::Value, i: usize| b["revisions"][i]["median"].as_f64().unwrap();
    for i in 0..3 {
        assert_eq!(changed["revisions"][i]["runs"], 1, "{changed}");
    }
    assert_eq!(count(changed, 0), count(changed, 1), "{changed}");
    // The planted `nop`s, a call and a return (and at most a few instructions of moved code).
    let added = count(changed, 2) - count(changed, 0);
    assert!(
        (EXTRA as f64 + 2.0..=EXTRA as f64 + 8.0).contains(&added),
        "{changed}"
    );

    let same = benchmark(&report, "same (instructions)");
    assert_eq!(same["outcome"], "equivalent", "{same}");
    assert_eq!(same["survivors"], serde_json::json!([0, 1, 2]), "{same}");
    assert_eq!(count(same, 0), count(same, 2), "{same}");

    // The Markdown says what the basis is and gives each revision's count.
    let markdown = std::fs::read_to_string(&page).expect("the Markdown report");
    assert!(
        markdown.contains("on exact counts, one run per revision, no test"),
        "{markdown}"
    );
    let row = markdown
        .lines()
        .find(|l| l.starts_with("| changed (instructions) |"))
        .unwrap_or_else(|| panic!("{markdown}"));
    assert!(
        row.contains(&format!("| {} |", count(changed, 0)))
            && row.contains(&format!("{} ", count(changed, 2))),
        "{row}"
    );
    assert!(row.contains("over the lowest"), "{row}");
}

#[test]
fn a_race_of_counts_without_valgrind_stops_before_anything_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let out = tool()
        .arg("speedup")
        .args(["race", "main", "HEAD", "--measure", "instructions"])
        .current_dir(dir.path())
        .env("PATH", "/nonexistent")
        .output()
        .expect("the binary runs");
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("valgrind --version") && text.contains("apt-get install valgrind"),
        "{text}"
    );
    // Nothing was looked up: the directory is no repository, and Valgrind's absence came first.
    assert!(!text.contains("not a git repository"), "{text}");
}
