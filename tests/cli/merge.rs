//! CLI tests of `merge`: the shipped example's suite split in three parts as three machines would measure
//! them (`--partition count:K/3`), each compared alone, then merged, gives the benchmarks, verdicts and gate
//! of the suite compared whole; and the parts that cannot be one comparison are refused (exit 2) by name.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::run_in;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The example's BASE or HEAD as a record of `names`, with the fingerprint a record on machine `cpu` of
/// `commit` in part `partition` has.
fn side(file: &str, names: &[String], commit: &str, partition: Option<&str>, cpu: &str) -> Value {
    let path = crate::support::root().join("fixtures/example").join(file);
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    value["benchmarks"]
        .as_array_mut()
        .unwrap()
        .retain(|b| names.iter().any(|n| b["name"] == n.as_str()));
    value["fingerprint"] = json!({
        "tool": "cargo-speedup 0.1.0",
        "base_commit": null,
        "head_commit": commit,
        "partition": partition,
        "settings": { "sample-size": "10", "looks": "10" },
        "rustc": "rustc 1.85.0",
        "cargo_lock": "0123456789abcdef",
        "machine": { "cpu": cpu, "cores": 2, "governor": null }
    });
    value
}

/// `compare` of the example's `names` as one part; returns the report's path.
fn part(dir: &Path, names: &[String], partition: Option<&str>, cpu: &str, stem: &str) -> PathBuf {
    let write = |file: &str, commit: &str| {
        let path = dir.join(format!("{stem}-{file}"));
        let value = side(file, names, commit, partition, cpu);
        std::fs::write(&path, value.to_string()).unwrap();
        path
    };
    let (base, head) = (write("base.json", "aaaa"), write("head.json", "bbbb"));
    let report = dir.join(format!("{stem}.json"));
    let out = run_in(
        dir,
        &[
            "compare",
            base.to_str().unwrap(),
            head.to_str().unwrap(),
            "--fail-on",
            "any",
            "--format",
            "json",
            "-o",
            report.to_str().unwrap(),
        ],
    );
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    report
}

/// The example's benchmark names.
fn all_names() -> Vec<String> {
    let path = crate::support::root().join("fixtures/example/base.json");
    let value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    value["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect()
}

/// `count:K/3` of the names, dealt by hand: sorted, the i-th (from 0) to part i mod 3 + 1.
fn count_part(k: usize) -> Vec<String> {
    let mut names = all_names();
    names.sort();
    names
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % 3 == k - 1)
        .map(|(_, n)| n)
        .collect()
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
    let mut list: Vec<(String, String)> = report["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap().to_string(),
                b["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    list.sort();
    list
}

fn merge(dir: &Path, parts: &[&Path], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

#[test]
fn three_parts_on_three_machines_merge_into_the_verdicts_of_the_whole_suite() {
    let dir = tempfile::tempdir().unwrap();
    let whole = part(dir.path(), &all_names(), None, "cpu A", "whole");
    let parts: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let spec = format!("count:{k}/3");
            let cpu = format!("cpu {k}");
            part(
                dir.path(),
                &count_part(k),
                Some(&spec),
                &cpu,
                &format!("part{k}"),
            )
        })
        .collect();
    let whole: Value = serde_json::from_str(&std::fs::read_to_string(whole).unwrap()).unwrap();
    // Given in any order.
    let refs = [parts[2].as_path(), parts[0].as_path(), parts[1].as_path()];
    let out = merge(dir.path(), &refs, &["--fail-on", "any", "--format", "json"]);
    let merged: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)));
    assert_eq!(verdicts(&merged).len(), 10);
    assert_eq!(verdicts(&merged), verdicts(&whole));
    assert_eq!(merged["verdict"], whole["verdict"]);
    assert_eq!(merged["gate"], whole["gate"]);
    assert_eq!(merged["suite"]["hpt"], whole["suite"]["hpt"]);
    // fixtures/example/make.py made render/page 1.10x slower: the gate fails (exit 1) as the whole's.
    assert_eq!(whole["gate"]["failed"], true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // The machines are shown; the merged fingerprint has no partition and no common CPU.
    let warnings = merged["warnings"].to_string();
    assert!(warnings.contains("on cpu 1, 2 CPUs"), "{warnings}");
    assert!(warnings.contains("3 different machines"), "{warnings}");
    assert_eq!(merged["fingerprint"]["partition"], Value::Null);
    assert_eq!(merged["fingerprint"]["machine"]["cpu"], Value::Null);
    assert_eq!(merged["fingerprint"]["base_commit"], "aaaa");
    // Every format, and `--json` beside it.
    let json_path = dir.path().join("merged.json");
    let out = merge(
        dir.path(),
        &refs,
        &[
            "--format",
            "markdown",
            "--json",
            json_path.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("render/page"));
    assert!(
        text(&out.stdout).contains("aaaa (merged from 3 parts)"),
        "{}",
        text(&out.stdout)
    );
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(verdicts(&again), verdicts(&whole));
    // One part alone (the whole suite as `count:1/1`) is said in the singular.
    let one = part(dir.path(), &all_names(), Some("count:1/1"), "cpu A", "one");
    let out = merge(dir.path(), &[one.as_path()], &["--format", "markdown"]);
    let one = text(&out.stdout);
    assert!(
        one.contains("aaaa (from 1 part)"),
        "{one}\n{}",
        text(&out.stderr)
    );
    assert!(!one.contains("1 parts"), "{one}");
}

#[test]
fn parts_that_cannot_be_one_comparison_exit_2_naming_the_part() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p1 = part(d, &count_part(1), Some("count:1/3"), "cpu", "p1");
    let p3 = part(d, &count_part(3), Some("count:3/3"), "cpu", "p3");
    let refuse = |parts: &[&Path], expected: &str| {
        let out = merge(d, parts, &[]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(expected), "expected {expected:?} in {err}");
        assert!(err.contains("hint:"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    refuse(&[&p1, &p3], "part count:2/3 is missing");
    // Part 1 given again as part 2's report: the parts overlap.
    let p2 = d.join("p2.json");
    let text1 = std::fs::read_to_string(&p1).unwrap();
    std::fs::write(&p2, text1.replace("count:1/3", "count:2/3")).unwrap();
    refuse(&[&p1, &p2, &p3], "the parts overlap");
    // A part cut short (an interrupted upload).
    let cut = d.join("cut.json");
    std::fs::write(&cut, &text1[..text1.len() / 2]).unwrap();
    refuse(
        &[&cut, &p3],
        &format!("part {} is not complete JSON", cut.display()),
    );
    // Another HEAD commit.
    let other = d.join("other.json");
    std::fs::write(
        &other,
        std::fs::read_to_string(&p3)
            .unwrap()
            .replace("bbbb", "cccc"),
    )
    .unwrap();
    refuse(&[&p1, &other], "differ in HEAD commit (cccc vs bbbb)");
    // A report of foreign inputs holds no runs.
    let foreign = d.join("foreign.json");
    let out = run_in(
        &crate::support::root(),
        &[
            "compare",
            "fixtures/example/base.json",
            "fixtures/example/head.json",
            "--format",
            "json",
            "-o",
            foreign.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    refuse(&[&foreign], "has no fingerprint");
    // The cause first, then the fix.
    let out = merge(d, &[&d.join("absent.json")], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: cannot read part {}: No such file or directory (os error 2)\nhint: give the JSON \
             reports (or record files) the matrix's jobs wrote\n",
            d.join("absent.json").display()
        )
    );
    // A report never replaces a part.
    let out = merge(d, &[&p1], &["-o", p1.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn a_part_given_twice_or_copied_is_refused_naming_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let slow = part(d, &all_names(), None, "cpu", "slow");
    assert_eq!(slow, d.join("slow.json"));
    let hint = "hint: give each job's report once; a copy of a part is not another machine: to add a \
                machine, measure the part again on it";
    let out = merge(d, &[&slow, &slow], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {} is given twice: merging it twice would count its machine's runs twice\n{hint}\n",
            slow.display()
        )
    );
    let copy = d.join("copy.json");
    std::fs::copy(&slow, &copy).unwrap();
    let out = merge(d, &[&slow, &copy], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {copy} is the same measurement as {slow}: the same fingerprint (partition and machine \
             included) and bit-identical runs of all 10 benchmarks: merging both would count one \
             machine's runs twice\n{hint} (drop {copy})\n",
            copy = copy.display(),
            slow = slow.display()
        )
    );
    // Seven copies: refused as well (they once made HPT confident where one part is not).
    let copies: Vec<PathBuf> = (1..=7)
        .map(|i| {
            let path = d.join(format!("copy{i}.json"));
            std::fs::copy(&slow, &path).unwrap();
            path
        })
        .collect();
    let refs: Vec<&Path> = copies.iter().map(PathBuf::as_path).collect();
    let out = merge(d, &refs, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // The same benchmarks measured on another machine are another unit each, and merge.
    let other = part(d, &all_names(), None, "another cpu", "other");
    let out = merge(d, &[&slow, &other], &["--format", "json"]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn records_of_each_side_merge_into_one_record_that_compares_as_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut merged_sides = Vec::new();
    for (file, commit) in [("base.json", "aaaa"), ("head.json", "bbbb")] {
        let mut parts = Vec::new();
        for k in 1..=3 {
            let spec = format!("count:{k}/3");
            let mut value = side(file, &count_part(k), commit, Some(&spec), "cpu");
            value["schema"] = json!("cargo-speedup-record/2");
            let path = d.join(format!("{k}-{file}"));
            std::fs::write(&path, value.to_string()).unwrap();
            parts.push(path);
        }
        let out_path = d.join(format!("merged-{file}"));
        let refs: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
        let out = merge(d, &refs, &["-o", out_path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        merged_sides.push(out_path);
        // One side's records and a comparison report are not merged together.
        if file == "head.json" {
            let report = part(d, &count_part(1), Some("count:1/1"), "cpu", "a-report");
            let out = merge(d, &[&parts[0], &report], &[]);
            assert_eq!(out.status.code(), Some(2));
            assert!(
                text(&out.stderr).contains("mix `record` files"),
                "{}",
                text(&out.stderr)
            );
        }
    }
    let compare = |base: &Path, head: &Path| {
        let out = run_in(
            d,
            &[
                "compare",
                base.to_str().unwrap(),
                head.to_str().unwrap(),
                "--format",
                "json",
            ],
        );
        serde_json::from_slice::<Value>(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)))
    };
    let example = crate::support::root().join("fixtures/example");
    let whole = compare(&example.join("base.json"), &example.join("head.json"));
    let merged = compare(&merged_sides[0], &merged_sides[1]);
    assert_eq!(verdicts(&merged), verdicts(&whole));
    assert_eq!(merged["gate"], whole["gate"]);
    assert_eq!(merged["fingerprint"]["base_commit"], "aaaa");
    assert_eq!(merged["fingerprint"]["head_commit"], "bbbb");
}
