//! CLI tests of instruction counts of two machines: `compare` and `merge` given `record` files (and the
//! JSON reports of comparisons) whose benchmarks are counts measured on fingerprints that differ in the CPU
//! model, its flags, glibc or Valgrind exit 2 naming the difference (`docs/json.md` §2, "The fingerprint of
//! counts"); counts of one machine are compared exactly, and times of two machines as before. Every input
//! is written here by hand in the documented record format (`docs/formats.md` §7).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::run_in;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A machine of counts: CPU model, its flags, glibc, Valgrind.
struct Machine {
    cpu: &'static str,
    flags: &'static str,
    glibc: &'static str,
    valgrind: &'static str,
}

const EPYC: Machine = Machine {
    cpu: "AMD EPYC 7B13",
    flags: "fpu sse2 avx2 avx512f",
    glibc: "2.36",
    valgrind: "valgrind-3.19.0",
};

/// A record of one side: `commit`'s counts `values` (one per benchmark `a`, `b`), counted on `machine`
/// (`None`: times, whose fingerprint has no flags nor glibc), in part `partition`.
fn record(
    commit: &str,
    values: [f64; 2],
    machine: Option<&Machine>,
    partition: Option<&str>,
) -> Value {
    let (unit, settings, flags, glibc) = match machine {
        Some(m) => (
            "instructions",
            json!({ "measure": "instructions", "valgrind": m.valgrind, "looks": "1" }),
            Some(m.flags),
            Some(m.glibc),
        ),
        None => ("ns", json!({ "looks": "1" }), None, None),
    };
    let mut print_machine =
        json!({ "cpu": machine.map_or("Intel Xeon", |m| m.cpu), "cores": 2, "governor": null });
    if let (Some(flags), Some(glibc)) = (flags, glibc) {
        print_machine["cpu_flags"] = json!(flags);
        print_machine["glibc"] = json!(glibc);
    }
    let name = |n: &str| match machine {
        Some(_) => format!("{n} (instructions)"),
        None => n.to_string(),
    };
    let runs = |v: f64| match machine {
        Some(_) => json!([[v]]),
        None => json!([[v, v * 1.01, v * 0.99], [v * 1.02, v, v * 0.98]]),
    };
    json!({
        "schema": "cargo-speedup-record/2",
        "unit": "ns",
        "benchmarks": [
            { "name": name("a"), "unit": "ns", "display_unit": unit, "runs": runs(values[0]) },
            { "name": name("b"), "unit": "ns", "display_unit": unit, "runs": runs(values[1]) },
        ],
        "environment": {
            "cpu": machine.map_or("Intel Xeon", |m| m.cpu), "rustc": "rustc 1.85.0", "host": null
        },
        "notes": [],
        "fingerprint": {
            "tool": "cargo-speedup 0.1.0",
            "base_commit": null,
            "head_commit": commit,
            "partition": partition,
            "settings": settings,
            "rustc": "rustc 1.85.0",
            "cargo_lock": "0123456789abcdef",
            "machine": print_machine
        }
    })
}

/// Names the two benchmarks of a record of counts `names` instead of `a` and `b`.
fn rename(record: &mut Value, names: [&str; 2]) {
    for (b, name) in record["benchmarks"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .zip(names)
    {
        b["name"] = json!(format!("{name} (instructions)"));
    }
}

fn write(dir: &Path, name: &str, value: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, value.to_string()).unwrap();
    path
}

fn run(dir: &Path, args: &[&str], paths: &[&Path]) -> std::process::Output {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(paths.iter().map(|p| p.to_str().unwrap()));
    run_in(dir, &all)
}

#[test]
fn compare_refuses_counts_of_two_machines_naming_the_difference() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = write(
        d,
        "base.json",
        &record("aaaa", [60_000.0, 70_000.0], Some(&EPYC), None),
    );
    let cases = [
        (
            Machine {
                cpu: "Intel Xeon Platinum 8370C",
                glibc: "2.39",
                ..EPYC
            },
            "BASE was counted on AMD EPYC 7B13 with glibc 2.36 and valgrind-3.19.0, HEAD on Intel Xeon \
             Platinum 8370C with glibc 2.39 and valgrind-3.19.0: the CPU model differs; counts of two \
             machines are not comparable\nhint: measure both on one machine, or pin the runner image",
        ),
        (
            Machine {
                flags: "fpu sse2 avx2",
                ..EPYC
            },
            "the CPU flags differ (avx512f only at BASE); counts of two machines are not comparable",
        ),
        (
            Machine {
                glibc: "2.39",
                ..EPYC
            },
            "glibc differs; counts of two machines",
        ),
        (
            Machine {
                valgrind: "valgrind-3.22.0",
                ..EPYC
            },
            "Valgrind differs; counts of two machines",
        ),
    ];
    for (machine, expected) in cases {
        let head = write(
            d,
            "head.json",
            &record("bbbb", [60_000.0, 70_100.0], Some(&machine), None),
        );
        let out = run(d, &["compare"], &[&base, &head]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(expected),
            "{}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    }
    // One machine: compared exactly, `b` slower by 100 instructions.
    let head = write(
        d,
        "head.json",
        &record("bbbb", [60_000.0, 70_100.0], Some(&EPYC), None),
    );
    let out = run(d, &["compare", "--format", "json"], &[&base, &head]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdict = |name: &str| {
        let all = report["benchmarks"].as_array().unwrap();
        all.iter()
            .find(|b| b["name"] == name)
            .map(|b| b["verdict"].clone())
    };
    assert_eq!(verdict("b (instructions)"), Some(json!("slower")));
    assert_eq!(verdict("a (instructions)"), Some(json!("unchanged")));
    assert_eq!(report["fingerprint"]["machine"]["glibc"], "2.36");
}

#[test]
fn times_of_two_machines_are_compared_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = write(d, "base.json", &record("aaaa", [100.0, 200.0], None, None));
    let mut other = record("bbbb", [100.0, 200.0], None, None);
    other["fingerprint"]["machine"]["cpu"] = json!("AMD EPYC 7B13");
    let head = write(d, "head.json", &other);
    let out = run(d, &["compare", "--format", "json"], &[&base, &head]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let machine = report["fingerprint"]["machine"].as_object().unwrap();
    assert!(
        !machine.contains_key("cpu_flags") && !machine.contains_key("glibc"),
        "{machine:?}"
    );
}

#[test]
fn merge_refuses_records_and_reports_counted_on_two_machines() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let xeon = Machine {
        cpu: "Intel Xeon Platinum 8370C",
        ..EPYC
    };
    // The records of one side, two shards counted on two machines.
    let one = write(
        d,
        "1.json",
        &record("bbbb", [1.0, 2.0], Some(&EPYC), Some("count:1/2")),
    );
    let mut second = record("bbbb", [1.0, 2.0], Some(&xeon), Some("count:2/2"));
    rename(&mut second, ["c", "d"]);
    let two = write(d, "2.json", &second);
    let out = run(d, &["merge"], &[&one, &two]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("1.json was counted on AMD EPYC 7B13"),
        "{stderr}"
    );
    assert!(
        stderr.contains("2.json on Intel Xeon Platinum 8370C"),
        "{stderr}"
    );
    assert!(stderr.contains("the CPU model differs"), "{stderr}");
    // The reports of two comparisons (two shards), each of one machine, counted on two machines.
    let report = |machine: &Machine, partition: &str, stem: &str| {
        let side = |commit: &str| {
            let mut value = record(commit, [1.0, 2.0], Some(machine), Some(partition));
            if partition == "hash:2/2" {
                rename(&mut value, ["c", "d"]);
            }
            value
        };
        let base = write(d, &format!("{stem}-base.json"), &side("aaaa"));
        let head = write(d, &format!("{stem}-head.json"), &side("bbbb"));
        let path = d.join(format!("{stem}.json"));
        let out = run(
            d,
            &["compare", "--format", "json", "-o", path.to_str().unwrap()],
            &[&base, &head],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        path
    };
    let (first, other) = (
        report(&EPYC, "hash:1/2", "p1"),
        report(&xeon, "hash:2/2", "p2"),
    );
    let out = run(d, &["merge"], &[&first, &other]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("p1.json was counted on AMD EPYC 7B13"),
        "{}",
        text(&out.stderr)
    );
    let same = report(&EPYC, "hash:2/2", "p3");
    let out = run(d, &["merge", "--format", "json"], &[&first, &same]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn record_bisect_and_race_take_the_measure_of_the_revision_form() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: [(&[&str], &str); 8] = [
        (
            &["record", "--measure", "instructions", "--runs", "3"],
            "a count is exact, so each revision runs once",
        ),
        (
            &["record", "--measure", "cycles"],
            "invalid value cycles for --measure",
        ),
        (
            &["bisect", "a", "b", "--measure", "instructions", "--duet"],
            "leave out --duet when counting instructions",
        ),
        (
            &["bisect", "a", "b", "--measure", "time,instructions"],
            "invalid value time,instructions for --measure: expected `time` or `instructions` for \
             `bisect`",
        ),
        (
            &[
                "race",
                "a",
                "b",
                "--measure",
                "instructions",
                "--max-runs",
                "8",
            ],
            "leave out --runs and --max-runs when counting instructions",
        ),
        (
            &["race", "a", "b", "--measure", "instructions", "--duet"],
            "leave out --duet when counting instructions",
        ),
        (
            &["race", "a", "b", "--measure", "time,instructions"],
            "invalid value time,instructions for --measure: expected `time` or `instructions` for `race`",
        ),
        (
            &["record", "--measure", "time,cycles"],
            "invalid value cycles for --measure: expected `time` (the default), `instructions`",
        ),
    ];
    for (args, expected) in cases {
        let out = run_in(d, args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(expected),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}
