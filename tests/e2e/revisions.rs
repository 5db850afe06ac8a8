//! `cargo speedup HEAD~1..HEAD` on a repository whose second commit makes one benchmark five times slower,
//! and whose working tree has uncommitted changes that undo it: they must be left out, and not spoken of (the
//! working tree plays no part in `BASE..HEAD`).

use std::time::Instant;

use crate::support::*;

fn verdict_of(report: &serde_json::Value, name: &str) -> String {
    report["benchmarks"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == name))
        .map(|b| b["verdict"].as_str().unwrap_or("").to_string())
        .unwrap_or_else(|| panic!("no benchmark {name} in {report}"))
}

#[test]
fn a_five_times_slower_benchmark_fails_the_gate_and_the_repository_is_left_alone() {
    let _serial = serial();
    let repo = slowed_repository();
    let dir = repo.path();
    write(dir, &[("notes.txt", "uncommitted and untracked\n")]);
    // Uncommitted and tracked: back to the fast benchmark. Measured, it would hide the slowdown.
    write_criterion_crate(dir, 200);
    assert!(git(dir, &["status", "--porcelain"]).contains(" M benches/work.rs"));
    let target = shared_target();
    let _ = std::fs::remove_dir_all(speedup_dir(dir, &target).join("cache"));
    let user_baseline = target.join("criterion/user/base/sample.json");
    write(
        &target,
        &[(
            "criterion/user/base/sample.json",
            r#"{"iters":[1.0],"times":[5.0]}"#,
        )],
    );
    let before = repository_state(dir);

    let started = Instant::now();
    let first = speedup(dir, &target, &RUN);
    let first_time = started.elapsed();
    assert_eq!(first.status.code(), Some(1), "stderr: {}", stderr(&first));
    let report: serde_json::Value = serde_json::from_slice(&first.stdout).expect("JSON report");
    assert_eq!(verdict_of(&report, "changed"), "slower");
    // The working tree is not compared: neither the report nor standard error speaks of it.
    for text in [report.to_string(), stderr(&first)] {
        assert!(
            !text.contains("uncommitted") && !text.contains("working tree"),
            "{text}"
        );
    }

    // stderr is not a terminal here, as in a CI log: progress comes as plain lines instead of a bar.
    assert!(stderr(&first).contains("building "), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("running ") && stderr(&first).contains("run 1 of"),
        "{}",
        stderr(&first)
    );

    assert_eq!(repository_state(dir), before);
    assert_eq!(
        std::fs::read_to_string(&user_baseline).unwrap(),
        r#"{"iters":[1.0],"times":[5.0]}"#
    );
    let worktrees = speedup_dir(dir, &target).join("worktrees");
    assert_eq!(
        std::fs::read_dir(&worktrees)
            .map(|d| d.count())
            .unwrap_or(0),
        0
    );
    assert_eq!(
        std::fs::read_to_string(speedup_dir(dir, &target).join("lock")).unwrap(),
        ""
    );

    let started = Instant::now();
    let second = speedup(dir, &target, &RUN);
    let second_time = started.elapsed();
    assert_eq!(second.status.code(), Some(1), "stderr: {}", stderr(&second));
    assert_eq!(
        stderr(&second)
            .matches("reusing the results measured earlier")
            .count(),
        2
    );
    let again: serde_json::Value = serde_json::from_slice(&second.stdout).expect("JSON report");
    assert_eq!(verdict_of(&again, "changed"), "slower");
    assert!(
        second_time * 5 < first_time,
        "cached run {second_time:?} vs first {first_time:?}"
    );
    assert_eq!(repository_state(dir), before);

    // Other gates judge the same runs: nothing is built or run, the runs are analysed again, and the exit
    // code is the other gate's (a five-fold slowdown is 400 % slower: under a 1000 % threshold, or with no
    // gate, it passes).
    let mut other_gate = RUN;
    other_gate[10] = "none";
    let mut threshold = RUN.to_vec();
    threshold.extend(["--threshold", "1000"]);
    for args in [&other_gate[..], &threshold] {
        let judged = speedup(dir, &target, args);
        let text = stderr(&judged);
        assert_eq!(judged.status.code(), Some(0), "{args:?}: {text}");
        assert!(
            text.contains(
                "reused the runs of an earlier comparison (6 runs per side); analysed again\n"
            ),
            "{text}"
        );
        assert!(
            !text.contains("building ") && !text.contains("run 1 of"),
            "{text}"
        );
        let report: serde_json::Value = serde_json::from_slice(&judged.stdout).expect("JSON");
        assert_eq!(verdict_of(&report, "changed"), "slower");
    }
    // And back to the first gate, from the same entries: it fails again.
    let third = speedup(dir, &target, &RUN);
    assert_eq!(third.status.code(), Some(1), "stderr: {}", stderr(&third));

    // The merge-base form: the same two commits, from the cache, and no word of the working tree.
    let mut symmetric = RUN;
    symmetric[0] = "HEAD~1...HEAD";
    let merge_base = speedup(dir, &target, &symmetric);
    let text = stderr(&merge_base);
    assert_eq!(merge_base.status.code(), Some(1), "stderr: {text}");
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        2,
        "{text}"
    );
    assert!(!text.contains("uncommitted"), "{text}");
    assert_eq!(repository_state(dir), before);

    // HEAD's cached samples multiplied by 100 (still valid JSON): the entry fails its check, is not
    // reused, and both sides are measured again, with the note; the verdict is the measured one.
    let head_sha = git(dir, &["rev-parse", "HEAD"]);
    let cache = speedup_dir(dir, &target).join("cache");
    let head_key = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.extension().is_some_and(|e| e == "key")
                && std::fs::read_to_string(p)
                    .unwrap()
                    .contains(&format!("commit={}\n", head_sha.trim()))
        })
        .expect("HEAD's cache entry");
    let head_entry = head_key.with_extension("json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&head_entry).unwrap()).unwrap();
    for benchmark in value["benchmarks"].as_array_mut().unwrap() {
        for run in benchmark["runs"].as_array_mut().unwrap() {
            for sample in run.as_array_mut().unwrap() {
                *sample = serde_json::json!(sample.as_f64().unwrap() * 100.0);
            }
        }
    }
    std::fs::write(&head_entry, value.to_string()).unwrap();
    let edited = speedup(dir, &target, &RUN);
    let text = stderr(&edited);
    assert_eq!(edited.status.code(), Some(1), "stderr: {text}");
    assert!(
        text.contains(&format!(
            "cached results for HEAD (HEAD, {}) in {} failed their check (edited or corrupt): measuring again",
            &head_sha.trim()[..10],
            head_entry.display()
        )),
        "{text}"
    );
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        0,
        "{text}"
    );
    let report: serde_json::Value = serde_json::from_slice(&edited.stdout).expect("JSON report");
    // Measured again: `same` is as fast as BASE, not the hundred times slower the edit made it (the bound
    // is 10x from both: noise alone has read 2x on a busy machine).
    let same = report["benchmarks"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == "same"))
        .expect("the benchmark `same`");
    let ratio = same["speedup"]["median"]
        .as_f64()
        .expect("a median speedup");
    assert!(ratio > 0.1, "speedup of `same`: {ratio}");

    // A single revision against the working tree: this time the uncommitted changes are what is measured.
    // They undo the slowdown: the working tree builds the very executable HEAD~1 builds, so nothing runs and
    // both benchmarks are unchanged (against 0.2 committed).
    let mut single = RUN;
    single[0] = "HEAD~1";
    let working = speedup(dir, &target, &single);
    let text = stderr(&working);
    // Said once, in the report, not on standard error as well.
    assert!(!text.contains("uncommitted changes"), "{text}");
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        0,
        "{text}"
    );
    let report: serde_json::Value = serde_json::from_slice(&working.stdout).expect("JSON report");
    assert!(
        report["warnings"]
            .to_string()
            .contains("uncommitted changes included"),
        "the report says it: {}",
        report["warnings"]
    );
    assert_eq!(
        report["warnings"]
            .to_string()
            .matches("uncommitted changes")
            .count(),
        1,
        "once: {}",
        report["warnings"]
    );
    let median_speedup = |report: &serde_json::Value| {
        report["benchmarks"]
            .as_array()
            .and_then(|all| all.iter().find(|b| b["name"] == "changed"))
            .and_then(|b| b["speedup"]["median"].as_f64())
            .unwrap_or_else(|| panic!("no speed-up of `changed` in {report}"))
    };
    assert_eq!(
        report["identical_executables"],
        serde_json::json!(["changed", "same"]),
        "{report}"
    );
    assert_eq!(report["verdict"], "unchanged", "{report}");
    assert!(median_speedup(&again) < 0.4, "{again}");
    assert_eq!(repository_state(dir), before);

    // The slow commit against the working tree, whose files are older than every build above: the working
    // tree is built from what it holds (five times faster), never passed the last build off as its own.
    // HEAD is built first and BASE last: reversed, the comparison leaves the slow commit's build last in
    // the target directory, newer than the working tree's files, which builds first next.
    let mut reversed = RUN.to_vec();
    reversed[0] = "HEAD..HEAD~1";
    reversed.push("--rerun");
    // Only the build order matters here: no gate, so that noise calling `same` slower cannot fail it.
    let gate = reversed
        .iter()
        .position(|a| *a == "any")
        .expect("RUN's gate");
    reversed[gate] = "none";
    let out = speedup(dir, &target, &reversed);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // With layouts: each is relinked after both sides were built, the slow commit last, so the working
    // tree's layouts must be linked from its own library too.
    let mut slow_against_working = RUN;
    slow_against_working[0] = "HEAD";
    let layouts = slow_against_working.len() - 1;
    assert_eq!(slow_against_working[layouts - 1], "--layouts");
    slow_against_working[layouts] = "3";
    let undone = speedup(dir, &target, &slow_against_working);
    let report: serde_json::Value = serde_json::from_slice(&undone.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", stderr(&undone)));
    assert_eq!(
        report["identical_executables"],
        serde_json::json!([]),
        "{report}"
    );
    assert!(median_speedup(&report) > 2.0, "{report}");
    assert_eq!(repository_state(dir), before);

    // A new HEAD: BASE is the same commit as before, but its cached runs were interleaved with another HEAD,
    // so both sides run again, in blocks of their own.
    write(dir, &[("README", "a new commit\n")]);
    git(dir, &["add", "README"]);
    git(dir, &["commit", "-q", "-m", "another commit"]);
    let mut range = RUN;
    range[0] = "HEAD~2..HEAD";
    let started = Instant::now();
    let third = speedup(dir, &target, &range);
    let third_time = started.elapsed();
    assert_eq!(third.status.code(), Some(1), "stderr: {}", stderr(&third));
    let text = stderr(&third);
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        0,
        "{text}"
    );
    assert!(text.contains("running BASE (HEAD~2, "), "{text}");
    eprintln!("first run {first_time:?}, cached run {second_time:?}, new HEAD {third_time:?}");
}
