//! `cargo speedup HEAD~1..HEAD --measure instructions` on a criterion crate whose benchmarks run a known
//! number of instructions (`nop`s written with `asm!`, x86_64): HEAD calls one more `#[inline(never)]`
//! function of 100 `nop`s in one benchmark's routine. One run per side finds that benchmark slower by the
//! planted share and the others equal, exactly, and says where: the JSON report's `where_changed` names
//! the added function with its share of the change, and so does the HTML report, also when the counts come
//! back from the cache; `--keep-profiles` leaves
//! callgrind's files, which `callgrind_annotate` reads. Skipped, saying why, where `valgrind` is not on the `PATH`
//! (CI installs it, `.ci/run`) or the machine is not x86_64.

use crate::counted::*;
use crate::support::*;

/// The benchmark `other`, and with `faulty` two more: `jitter`, whose work depends on the clock, and
/// `boom`, which panics.
fn more(faulty: bool) -> String {
    let other = r#"
    c.bench_function("other", |b| b.iter(|| black_box(demo::work() + 1)));"#;
    let faults = match faulty {
        true => {
            r#"
    c.bench_function("jitter", |b| {
        b.iter(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
            (0..now.subsec_nanos() % 64).map(black_box).sum::<u32>()
        })
    });
    c.bench_function("boom", |b| b.iter(|| -> u64 { panic!("boom") }));"#
        }
        false => "",
    };
    format!("{other}{faults}")
}

/// The crate of [`write_criterion_counted`] with `other` and, with `faulty`, `jitter` and `boom`.
fn write_counted_crate(dir: &std::path::Path, planted: bool, faulty: bool) {
    write_criterion_counted(dir, planted, &more(faulty));
}

#[test]
fn a_planted_half_percent_of_instructions_is_found_exactly_and_the_rest_is_equal() {
    let Some((_serial, repo)) =
        planted_repository(|dir, planted| write_counted_crate(dir, planted, false))
    else {
        return;
    };
    let dir = repo.path();
    let target = shared_target();
    let before = repository_state(dir);

    let reports = tempfile::tempdir().unwrap();
    let html = reports.path().join("report.html");
    let profiles = reports.path().join("profiles");
    let mut args: Vec<&str> = ARGS.to_vec();
    args.extend(["--html", html.to_str().unwrap()]);
    args.extend(["--keep-profiles", profiles.to_str().unwrap()]);
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    // `--threshold 0`: any increase of a count fails the gate.
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("run 1 of 1"), "one run per side: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");

    let changed = benchmark(&report, "changed (instructions)");
    assert_eq!(changed["verdict"], "slower", "{changed}");
    // The warning says where the counts came from: this tool measured them.
    assert!(
        changed["warnings"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("(measured under Valgrind's callgrind by this tool)")),
        "{changed}"
    );
    let (base, head) = (
        changed["base"]["median"].as_f64().expect("BASE's count"),
        changed["head"]["median"].as_f64().expect("HEAD's count"),
    );
    // Each iteration runs the planted `nop`s and little else: criterion's loop, the closure, the calls and
    // their returns, unoptimised (64 instructions with Rust 1.95 here). Twice the planted work would be two
    // iterations' count.
    assert!(
        (WORK as f64..WORK as f64 + 200.0).contains(&base),
        "BASE counts {base} per iteration, the routine {WORK}"
    );
    // HEAD adds the extra `nop`s, a call and a return (and at most a few instructions of moved code).
    let added = head - base;
    assert!(
        (EXTRA as f64 + 2.0..=EXTRA as f64 + 8.0).contains(&added),
        "HEAD adds {added} instructions per iteration, {EXTRA} planted"
    );
    // The speedup the tool reports is the planted one, 1 / (1 + 100 / 20,000) = 0.995 (-0.5 %), to within
    // what the loop and the calls add (at most 208 instructions of 20,200: 0.0001).
    let planted = 1.0 / (1.0 + EXTRA as f64 / WORK as f64);
    let ratio = changed["speedup"]["median"].as_f64().expect("a speedup");
    assert!(
        (ratio - planted).abs() < 0.0005,
        "speedup {ratio}, planted {planted}"
    );
    assert_eq!(ratio, base / head, "the counts' own ratio");

    // Where the count changed: the routine's closure holds the whole change, and `extra`, in HEAD's
    // routine only, its planted `nop`s with the call's return (and at most a few instructions of frame).
    let found = changed["where_changed"]
        .as_array()
        .unwrap_or_else(|| panic!("where_changed: {changed}"));
    let function = |name: &str| {
        found
            .iter()
            .find(|f| f["function"] == name)
            .unwrap_or_else(|| panic!("{name} in {changed}"))
    };
    let closure = function("work::bench::{{closure}}::{{closure}}");
    assert_eq!(
        (closure["change"].as_f64(), closure["share"].as_f64()),
        (Some(added), Some(1.0)),
        "{closure}"
    );
    let extra = function("demo::extra");
    assert_eq!(extra["status"], "added", "{extra}");
    assert_eq!(extra["base"], 0.0, "{extra}");
    let extra_change = extra["change"].as_f64().expect("a change");
    assert!(
        (EXTRA as f64 + 1.0..=EXTRA as f64 + 4.0).contains(&extra_change),
        "extra counts {extra_change}, {EXTRA} planted"
    );
    // Its share of the change is its count over the benchmark's: the planted work over what HEAD adds,
    // 100 / 102 to 104 / 102 here.
    let share = extra["share"].as_f64().expect("a share");
    assert_eq!(share, extra_change / added, "{extra}");
    assert!(
        (EXTRA as f64 / added..=(EXTRA as f64 + 4.0) / added).contains(&share),
        "share {share}"
    );
    for name in ["same (instructions)", "other (instructions)"] {
        assert!(benchmark(&report, name).get("where_changed").is_none());
    }
    let page = std::fs::read_to_string(&html).expect("the HTML report");
    assert!(
        page.contains("<li><code>demo::extra</code>: added, +"),
        "the HTML report names the added function"
    );
    kept_profiles_are_read_by_callgrind_annotate(&profiles, &text);

    for name in ["same (instructions)", "other (instructions)"] {
        let b = benchmark(&report, name);
        assert_eq!(b["verdict"], "unchanged", "{b}");
        assert_eq!(b["base"]["median"], b["head"]["median"], "{b}");
    }
    assert_eq!(report["fingerprint"]["settings"]["measure"], "instructions");
    assert!(
        report["not_compared"]
            .as_array()
            .is_none_or(|items| items.is_empty()),
        "{report}"
    );
    assert_eq!(repository_state(dir), before);

    // Counts come back from the cache as counts: the same report, nothing run.
    let again = speedup(dir, &target, &ARGS);
    let text = stderr(&again);
    assert_eq!(again.status.code(), Some(1), "{text}");
    assert!(
        text.contains("reusing the results measured earlier"),
        "{text}"
    );
    assert!(!text.contains("running "), "{text}");
    let cached: serde_json::Value = serde_json::from_slice(&again.stdout).expect("JSON report");
    // The cache keeps the counts and where they are spent: the same benchmarks, `where_changed` included.
    assert!(
        benchmark(&cached, "changed (instructions)")["where_changed"].is_array(),
        "{cached}"
    );
    assert_eq!(cached["benchmarks"], report["benchmarks"]);
}

/// `--keep-profiles DIR` left each revision's and benchmark's callgrind files under DIR, said so, and
/// `callgrind_annotate` reads them: HEAD's `changed` names `demo::extra`, BASE's does not.
fn kept_profiles_are_read_by_callgrind_annotate(profiles: &std::path::Path, text: &str) {
    assert!(
        text.contains("callgrind's files of each benchmark are in"),
        "{text}"
    );
    let mut files = Vec::new();
    let mut dirs = vec![profiles.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("a directory of profiles")
            .flatten()
        {
            match entry.path() {
                p if p.is_dir() => dirs.push(p),
                p => files.push(p),
            }
        }
    }
    for side in ["base-", "head-"] {
        for name in ["changed", "same", "other"] {
            let of_it: Vec<&std::path::PathBuf> = files
                .iter()
                .filter(|p| {
                    let p = p
                        .strip_prefix(profiles)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    p.starts_with(side) && p.contains(&format!("/work/{name}/callgrind.out."))
                })
                .collect();
            // A dump per call of `Bencher::iter` and one at the end.
            assert!(of_it.len() > 4, "{side}{name}: {files:?}");
        }
    }
    // The last call's dump of `changed` at each side, as callgrind_annotate reads it.
    for (side, has_extra) in [("base-", false), ("head-", true)] {
        let dump = files
            .iter()
            .filter(|p| {
                let p = p
                    .strip_prefix(profiles)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                p.starts_with(side) && p.contains("/work/changed/")
            })
            .max_by_key(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                // `callgrind.out.PID.PART`; the end of the program (no part) is not a call's.
                let part = name.rsplit('.').next().and_then(|n| n.parse::<u64>().ok());
                part.filter(|_| name.matches('.').count() == 3).unwrap_or(0)
            })
            .expect("a dump of `changed`");
        let out = command("callgrind_annotate")
            .arg("--inclusive=yes")
            .arg(dump)
            .output()
            .expect("callgrind_annotate runs");
        let annotated = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(annotated.contains("demo::work"), "{annotated}");
        assert_eq!(annotated.contains("demo::extra"), has_extra, "{annotated}");
    }
}

/// `HEAD~1..HEAD`, counting instructions, failing on any increase, as JSON.
const ARGS: [&str; 7] = [
    "HEAD~1..HEAD",
    "--measure",
    "instructions",
    "--format",
    "json",
    "--threshold",
    "0",
];

/// The entry of `name` in the report's `not_compared` list.
fn not_compared<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["not_compared"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == name))
        .unwrap_or_else(|| panic!("{name} is not in not_compared: {report}"))
}

#[test]
fn a_benchmark_that_is_not_exact_or_panics_is_left_out_and_the_rest_compared() {
    let Some((_serial, repo)) =
        planted_repository(|dir, planted| write_counted_crate(dir, planted, true))
    else {
        return;
    };
    let dir = repo.path();
    let target = shared_target();

    let report = json_report(dir, &target, &ARGS, 1);
    assert_eq!(
        benchmark(&report, "changed (instructions)")["verdict"],
        "slower"
    );
    for name in ["same (instructions)", "other (instructions)"] {
        assert_eq!(benchmark(&report, name)["verdict"], "unchanged");
    }
    let jitter = not_compared(&report, "jitter (instructions)");
    assert_eq!(jitter["reason"], "no-value", "{jitter}");
    let message = jitter["message"].as_str().unwrap_or("");
    assert!(
        message.contains("not exact") && message.contains("depends on time, a seed or the heap"),
        "{jitter}"
    );
    let boom = not_compared(&report, "boom (instructions)");
    assert_eq!(boom["reason"], "failed", "{boom}");
    assert!(
        boom["quoted"].as_str().unwrap_or("").contains("panicked"),
        "{boom}"
    );
}

#[test]
fn an_unknown_measure_and_a_missing_valgrind_stop_before_anything_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str], path: Option<&str>| {
        let mut command = tool();
        command.arg("speedup").args(args).current_dir(dir.path());
        if let Some(path) = path {
            command.env("PATH", path);
        }
        command.output().expect("the binary runs")
    };
    let out = run(&["HEAD~1..HEAD", "--measure", "time,cycles"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "invalid value cycles for --measure: expected `time` (the default), `instructions` (exact \
             counts under Valgrind's callgrind) or both, `time,instructions`"
        ),
        "{}",
        stderr(&out)
    );
    for measure in ["instructions", "time,instructions"] {
        let out = run(
            &["HEAD~1..HEAD", "--measure", measure],
            Some("/nonexistent"),
        );
        assert_eq!(out.status.code(), Some(2), "{measure}");
        let text = stderr(&out);
        assert!(
            text.contains("valgrind --version") && text.contains("apt-get install valgrind"),
            "{measure}: {text}"
        );
    }
    // `--runs` means nothing for an exact count.
    let out = run(
        &["HEAD~1..HEAD", "--measure", "instructions", "--runs", "5"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a count is exact"),
        "{}",
        stderr(&out)
    );
}
