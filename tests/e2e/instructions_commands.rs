//! `--measure instructions` in the measuring commands besides `BASE..HEAD`, on a criterion crate whose
//! benchmarks run a known number of instructions (`nop`s written with `asm!`, x86_64): the planted commit
//! calls one more `#[inline(never)]` function of 100 `nop`s in `changed`'s routine.
//!
//! - `record --measure instructions` at two commits writes one count per benchmark with the fingerprint of
//!   counts (CPU flags, glibc, Valgrind); `compare` of the two records finds `changed` slower exactly and
//!   `same` equal, and refuses the HEAD record made to claim another glibc (exit 2).
//! - `bisect --measure instructions` names the planted commit among commits that touch only docs; a suite
//!   of counts, which has no verdict of its own, is refused with the changed benchmark named.
//! - `race --measure instructions`: `race_counts.rs`.
//! - The Action with `measure: instructions` on a pull request counts: Valgrind found (or installed), the
//!   comparison given `--measure instructions`, and the gate fails on the planted count.
//!
//! Skipped, saying why, where `valgrind` is not on the `PATH` or the machine is not x86_64.

use crate::counted::*;
use crate::support::*;

/// The crate of [`write_criterion_counted`], the benchmarks `changed` and `same` only.
fn write_counted_crate(dir: &std::path::Path, planted: bool) {
    write_criterion_counted(dir, planted, "");
}

#[test]
fn records_of_counts_compare_exactly_and_not_across_two_glibcs() {
    if let Some(why) = cannot_run() {
        eprintln!("skipped: {why}");
        return;
    }
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    let records = tempfile::tempdir().unwrap();
    let (base, head) = (
        records.path().join("base.json"),
        records.path().join("head.json"),
    );
    write_counted_crate(dir, false);
    commit(dir, "base");
    let target = shared_target();
    let record = |path: &std::path::Path| {
        let args = [
            "record",
            "--measure",
            "instructions",
            "-o",
            path.to_str().unwrap(),
        ];
        let out = speedup(dir, &target, &args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("run 1 of 1"),
            "one run: {}",
            stderr(&out)
        );
        let text = std::fs::read_to_string(path).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    let base_record = record(&base);
    write_counted_crate(dir, true);
    commit(dir, "one more call in `changed`");
    let head_record = record(&head);

    // One count per benchmark, and the machine that counted it.
    let runs = &benchmark(&base_record, "changed (instructions)")["runs"];
    assert_eq!(runs.as_array().map(Vec::len), Some(1), "{base_record}");
    assert_eq!(runs[0].as_array().map(Vec::len), Some(1), "{base_record}");
    let print = &head_record["fingerprint"];
    assert_eq!(print["settings"]["measure"], "instructions", "{print}");
    assert!(
        print["settings"]["valgrind"]
            .as_str()
            .is_some_and(|v| v.starts_with("valgrind-")),
        "{print}"
    );
    let machine = &print["machine"];
    assert!(
        machine["cpu_flags"]
            .as_str()
            .is_some_and(|f| f.contains("sse2")),
        "{machine}"
    );
    assert!(
        machine["glibc"]
            .as_str()
            .is_some_and(|g| g.starts_with("2.") || g == "unknown"),
        "{machine}"
    );

    let compare = |head: &std::path::Path| {
        let args = [
            "compare",
            base.to_str().unwrap(),
            head.to_str().unwrap(),
            "--format",
            "json",
        ];
        speedup(dir, &target, &args)
    };
    let out = compare(&head);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let changed = benchmark(&report, "changed (instructions)");
    assert_eq!(changed["verdict"], "slower", "{changed}");
    let added =
        changed["head"]["median"].as_f64().unwrap() - changed["base"]["median"].as_f64().unwrap();
    // The planted `nop`s, a call and a return (and at most a few instructions of moved code).
    assert!(
        (EXTRA as f64 + 2.0..=EXTRA as f64 + 8.0).contains(&added),
        "{changed}"
    );
    let same = benchmark(&report, "same (instructions)");
    assert_eq!(same["verdict"], "unchanged", "{same}");
    assert_eq!(same["base"]["median"], same["head"]["median"], "{same}");

    // The same record made to claim another glibc: two machines' counts, refused, naming both.
    let mut elsewhere = head_record.clone();
    elsewhere["fingerprint"]["machine"]["glibc"] = serde_json::json!("1.0-elsewhere");
    let moved = records.path().join("elsewhere.json");
    std::fs::write(&moved, elsewhere.to_string()).unwrap();
    let out = compare(&moved);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("HEAD on ") && text.contains("with glibc 1.0-elsewhere"),
        "{text}"
    );
    assert!(
        text.contains("glibc differs; counts of two machines are not comparable"),
        "{text}"
    );
    assert!(text.contains("pin the runner image"), "{text}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bisect_counting_instructions_names_the_commit_that_added_them() {
    if let Some(why) = cannot_run() {
        eprintln!("skipped: {why}");
        return;
    }
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_counted_crate(dir, false);
    commit(dir, "good");
    for n in 1..=4 {
        if n == 3 {
            write_counted_crate(dir, true);
            commit(dir, "one more call in `changed`");
        } else {
            write(dir, &[("README.md", &format!("docs {n}\n"))]);
            commit(dir, &format!("docs {n}"));
        }
    }
    let planted = git(dir, &["rev-parse", "HEAD~1"]).trim().to_string();
    let target = shared_target();
    // `--threshold 0`: the planted 0.5 % is a change; `--filter changed`: the step reads its one count.
    let args = [
        "bisect",
        "HEAD~4..HEAD",
        "--measure",
        "instructions",
        "--threshold",
        "0",
        "--filter",
        "changed",
        "--format",
        "json",
    ];
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("run 1 of 1"), "one run per commit: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["outcome"], "named", "{report}");
    assert_eq!(report["named"], 3, "{report}");
    assert_eq!(report["path"][3]["sha"], planted.as_str(), "{report}");
    assert_eq!(report["named_change"]["verdict"], "slower", "{report}");

    // Both benchmarks, following the suite: counts have no suite verdict to follow, and GOOD against BAD
    // (from the cache, nothing run) names the changed one.
    let suite: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| *a != "--filter" && *a != "changed")
        .collect();
    let out = speedup(dir, &target, &suite);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains(
            "changed the instruction counts of `changed (instructions)` among 2 benchmarks"
        ),
        "{text}"
    );
    assert!(
        text.contains("hint: bisect each changed benchmark with --each"),
        "{text}"
    );
}

#[test]
fn the_action_counts_instructions_when_its_measure_input_asks() {
    use crate::action::{Home, contexts, run};
    if let Some(why) = cannot_run() {
        eprintln!("skipped: {why}");
        return;
    }
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_counted_crate(dir, false);
    commit(dir, "base");
    let base = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    git(dir, &["update-ref", "refs/remotes/origin/main", &base]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    write_counted_crate(dir, true);
    commit(dir, "one more call in `changed`");
    let head = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    let home = Home::new();
    let temp = tempfile::tempdir().expect("runner temp");
    let inputs = [
        ("measure", "instructions"),
        ("threshold", "0"),
        ("html-artifact", ""),
    ];
    let github = [
        ("event_name", "pull_request"),
        ("base_ref", "main"),
        ("event.pull_request.base.sha", base.as_str()),
        ("sha", head.as_str()),
    ];
    let action = run(dir, contexts(&home, temp.path(), &inputs, &github));
    // `threshold: 0` under the default `fail-on: any`: the count that grew fails the check.
    assert_eq!(action.status, 1, "{}", action.log);
    assert!(
        action
            .log
            .contains("cargo-speedup: counting with valgrind-"),
        "{}",
        action.log
    );
    let text = std::fs::read_to_string(&action.outputs["report"]).expect("the JSON report");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(report["fingerprint"]["settings"]["measure"], "instructions");
    assert_eq!(
        benchmark(&report, "changed (instructions)")["verdict"],
        "slower"
    );
    assert_eq!(
        benchmark(&report, "same (instructions)")["verdict"],
        "unchanged"
    );
    assert!(
        action.summary.contains("changed (instructions)"),
        "{}",
        action.summary
    );
}
