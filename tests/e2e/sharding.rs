//! The CI-matrix workflow of `docs/usage.md` §4 on a real criterion crate: the suite measured in three parts
//! (`--partition count:K/3`), as three jobs would, merged, against the suite measured whole.

use serde_json::Value;

use crate::readme::usage_commands;
use crate::support::*;

/// RUN's short criterion settings, its fixed plan of 6 runs per side and its executables as built.
const SHORT: [&str; 11] = [
    "--warm-up-time",
    "0.001",
    "--measurement-time",
    "0.001",
    "--sample-size",
    "10",
    "--runs",
    "6",
    "--fixed",
    "--layouts",
    "fixed",
];

/// The fixture crate with four benchmarks: `changed` and `changed_too` spin `loops` times, `same` and
/// `same_too` always 200 times.
fn write_four_benchmarks(dir: &std::path::Path, loops: u32) {
    write_criterion_crate(dir, loops);
    let bench = criterion_crate(loops)
        .into_iter()
        .find(|(path, _)| *path == "benches/work.rs")
        .expect("the bench file")
        .1
        .replace(
            "    c.bench_function(\"same\"",
            &format!(
                "    c.bench_function(\"changed_too\", |b| b.iter(|| demo::spin(black_box({loops}))));\n    \
                 c.bench_function(\"same_too\", |b| b.iter(|| demo::spin(black_box(200))));\n    \
                 c.bench_function(\"same\""
            ),
        );
    write(dir, &[("benches/work.rs", &bench)]);
}

fn report(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the report")).expect("JSON")
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
    let mut list: Vec<(String, String)> = report["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .map(|b| {
            let name = b["name"].as_str().expect("name").to_string();
            (name, b["verdict"].as_str().expect("verdict").to_string())
        })
        .collect();
    list.sort();
    list
}

#[test]
fn the_documented_three_parts_merge_into_the_verdicts_of_one_unsharded_run() {
    let _serial = serial();
    let commands = usage_commands("## 4. A suite split over a CI matrix, merged");
    let [part1, part2, part3, merge] = &commands[..] else {
        panic!("expected three parts and a merge: {commands:?}")
    };
    let repo = repository();
    let dir = repo.path();
    write_four_benchmarks(dir, 200);
    commit(dir, "fast");
    git(dir, &["checkout", "-q", "-b", "feature"]);
    write_four_benchmarks(dir, 1000);
    commit(dir, "changed and changed_too five times slower");
    let target = shared_target();
    let (base, head) = (
        git(dir, &["rev-parse", "main"]),
        git(dir, &["rev-parse", "HEAD"]),
    );
    for command in [part1, part2, part3] {
        assert_eq!(
            command[..3],
            ["cargo", "speedup", "main..HEAD"],
            "{command:?}"
        );
        let args: Vec<&str> = command[2..]
            .iter()
            .map(String::as_str)
            .chain(SHORT)
            .collect();
        let out = speedup(dir, &target, &args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{command:?}: {}",
            stderr(&out)
        );
    }
    let parts: Vec<Value> = (1..=3)
        .map(|k| report(&dir.join(format!("part-{k}.json"))))
        .collect();
    // Each part ran its own benchmarks, sorted names dealt round-robin: changed, changed_too, same,
    // same_too -> 1: changed, same_too; 2: changed_too; 3: same.
    let names = |r: &Value| verdicts(r).into_iter().map(|(n, _)| n).collect::<Vec<_>>();
    assert_eq!(names(&parts[0]), ["changed", "same_too"]);
    assert_eq!(names(&parts[1]), ["changed_too"]);
    assert_eq!(names(&parts[2]), ["same"]);
    let print = &parts[1]["fingerprint"];
    assert_eq!(print["partition"], "count:2/3");
    assert_eq!(print["base_commit"].as_str(), Some(base.trim()));
    assert_eq!(print["head_commit"].as_str(), Some(head.trim()));
    assert_eq!(print["settings"]["sample-size"], "10");
    assert!(
        print["cargo_lock"].as_str().is_some_and(|h| h.len() == 16),
        "{print}"
    );
    assert!(
        print["rustc"]
            .as_str()
            .is_some_and(|r| r.starts_with("rustc ")),
        "{print}"
    );
    assert_eq!(
        parts[0]["benchmarks"][0]["samples"]["base"]["runs"]
            .as_array()
            .map(Vec::len),
        Some(6)
    );

    // The merge, as docs/usage.md writes it (the shell expands `part-*.json`).
    assert_eq!(merge[..3], ["cargo", "speedup", "merge"], "{merge:?}");
    let mut args: Vec<String> = vec!["merge".into()];
    for word in &merge[3..] {
        match word.as_str() {
            "part-*.json" => args.extend((1..=3).map(|k| format!("part-{k}.json"))),
            other => args.push(other.to_string()),
        }
    }
    args.extend([
        "--format".into(),
        "json".into(),
        "-o".into(),
        "merged.json".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let merged_out = speedup(dir, &target, &args);
    assert!(
        matches!(merged_out.status.code(), Some(0 | 1)),
        "{}",
        stderr(&merged_out)
    );
    let merged = report(&dir.join("merged.json"));

    // The same suite measured whole, with the merge's gate.
    let whole_out = speedup(
        dir,
        &target,
        &[
            &["main..HEAD", "--fail-on", "any", "--json", "whole.json"][..],
            &SHORT[..],
        ]
        .concat(),
    );
    let whole = report(&dir.join("whole.json"));
    assert_eq!(names(&merged), names(&whole));
    assert_eq!(names(&merged).len(), 4);
    let verdict_of = |r: &Value, name: &str| {
        verdicts(r)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    };
    // The five-fold slowdowns are found by both, and fail both gates. The unchanged code's verdict and
    // ratio are the machine's noise between two measurements (a ratio of 2.1x has been seen on a busy
    // machine), so they are only required to be reported.
    for name in ["changed", "changed_too"] {
        assert_eq!(
            verdict_of(&merged, name).as_deref(),
            Some("slower"),
            "{merged}"
        );
        assert_eq!(
            verdict_of(&whole, name).as_deref(),
            Some("slower"),
            "{whole}"
        );
    }
    assert_eq!(merged["gate"]["failed"], true);
    assert_eq!(whole["gate"]["failed"], true);
    assert_eq!(merged_out.status.code(), Some(1));
    assert_eq!(whole_out.status.code(), Some(1));
    assert_eq!(merged["verdict"], whole["verdict"]);
    assert_eq!(merged["fingerprint"]["partition"], Value::Null);
    for name in ["same", "same_too"] {
        let benchmark = merged["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == name)
            .unwrap();
        let speedup = benchmark["speedup"]["median"].as_f64().unwrap();
        assert!(speedup > 0.0, "{benchmark}");
    }

    // `record` takes the partition too: `hash:1/2` holds the names whose FNV-1a-64 is even (computed
    // apart: changed 0xdf38879af614707b, changed_too 0xdde27f848c54b19e, same 0x097b5e18bf93ef5b,
    // same_too 0x5dbfdfc0985f2cbe).
    let out = speedup(
        dir,
        &target,
        &[
            &["record", "--partition", "hash:1/2", "-o", "record-1.json"][..],
            &SHORT[..],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let record = report(&dir.join("record-1.json"));
    let mut recorded: Vec<&str> = record["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .map(|b| b["name"].as_str().expect("name"))
        .collect();
    recorded.sort();
    assert_eq!(recorded, ["changed_too", "same_too"]);
    assert_eq!(record["fingerprint"]["partition"], "hash:1/2");
    assert_eq!(
        record["fingerprint"]["head_commit"].as_str(),
        Some(head.trim())
    );
}
