//! `cargo speedup race`: three commits of one crate, one three times faster than the others, raced
//! interleaved; and the input a race refuses before building anything.

use crate::support::*;

#[test]
fn the_clearly_fastest_of_three_revisions_is_picked() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 600);
    commit(dir, "middle");
    write_criterion_crate(dir, 200);
    commit(dir, "three times faster");
    write_criterion_crate(dir, 1800);
    commit(dir, "three times slower");
    let target = shared_target();
    let before = repository_state(dir);
    // RUN's criterion settings; looks after 5 and 10 runs.
    let mut args = vec!["race", "HEAD~2", "HEAD~1", "HEAD"];
    args.extend(&RUN[1..7]);
    args.extend(["--runs", "5", "--max-runs", "10", "--format", "json"]);
    args.extend(&RUN[14..]);
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["schema"], "cargo-speedup-race/1", "{report}");
    assert_eq!(report["revisions"].as_array().map(Vec::len), Some(3));
    assert_eq!(report["looks"], 2, "{report}");
    let changed = report["benchmarks"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == "changed"))
        .expect("changed is reported");
    // 5 v 5 runs three times apart: p = 1/252 < 0.05 / (2 looks x 2 comparisons) at the first look,
    // against each of the two others.
    assert_eq!(changed["pick"], 1, "{changed}");
    assert_eq!(changed["outcome"], "winner", "{changed}");
    assert_eq!(changed["survivors"], serde_json::json!([1]), "{changed}");
    for entry in changed["revisions"].as_array().expect("entries") {
        assert_eq!(entry["runs"], 5, "decided at the first look: {changed}");
    }
    let fastest = changed["revisions"][1]["speedup"]
        .as_f64()
        .expect("speedup");
    // Three times faster in the spin count; the bounds leave noise and fixed costs a factor of 2.5 either way.
    assert!((1.2..7.5).contains(&fastest), "{changed}");
    assert!(
        !text.contains("ran in"),
        "a benchmark out of the race is not missing: {text}"
    );
    assert_eq!(repository_state(dir), before);

    // The same race again comes from the cache, every revision of it; so does one judged by another
    // stopping rule (the plan's looks unchanged), analysed again.
    let again = speedup(dir, &target, &args);
    let text = stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{text}");
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        3,
        "{text}"
    );
    assert_eq!(again.stdout, out.stdout, "the same runs, the same report");
    // An untracked file (the report a run wrote) plays no part in a race of commits: not spoken of.
    write(dir, &[("report.html", "<!DOCTYPE html>\n")]);
    let before = repository_state(dir);
    let mut stricter = args.clone();
    stricter.extend(["--confidence", "0.99"]);
    let other = speedup(dir, &target, &stricter);
    let text = stderr(&other);
    assert_eq!(other.status.code(), Some(0), "{text}");
    assert_eq!(
        text.matches("reusing the results measured earlier").count(),
        3,
        "{text}"
    );
    // 5 runs per side for a benchmark decided at the first look, up to 10 for one that was not.
    assert!(
        text.contains("reused the runs of an earlier comparison (5")
            && text.contains("runs per side); analysed again\n"),
        "{text}"
    );
    assert!(!text.contains("run 1 of"), "nothing runs again: {text}");
    // Whether 0.99's rule would have run a benchmark on depends on the noise; when it would have, the
    // report says it too.
    let told = "the runs are those of an earlier comparison judged with other options";
    assert_eq!(
        String::from_utf8_lossy(&other.stdout).contains(told),
        text.contains(told),
        "{text}"
    );
    assert!(
        !text.contains("uncommitted") && !text.contains("working tree"),
        "{text}"
    );
    assert_eq!(repository_state(dir), before);
}

#[test]
fn the_working_tree_races_as_dot_and_is_left_as_it_was() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 1800);
    commit(dir, "slow");
    // Uncommitted, nine times faster: only `.` measures it.
    write_criterion_crate(dir, 200);
    let lib = std::fs::read(dir.join("src/lib.rs")).unwrap();
    let lock = std::fs::read(dir.join("Cargo.lock")).ok();
    let target = shared_target();
    let before = repository_state(dir);
    let mut args = vec!["race", "HEAD", "."];
    args.extend(&RUN[1..7]);
    args.extend(["--runs", "5", "--max-runs", "10", "--format", "json"]);
    args.extend(&RUN[14..]);
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("`.` is the working tree as it is now"),
        "{text}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["revisions"][1], "working tree", "{report}");
    let changed = report["benchmarks"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == "changed"))
        .expect("changed is reported");
    assert_eq!(changed["pick"], 1, "{changed}");
    let speedup = changed["revisions"][1]["speedup"]
        .as_f64()
        .expect("speedup");
    assert!((4.0..25.0).contains(&speedup), "{changed}");
    assert_eq!(repository_state(dir), before);
    assert_eq!(std::fs::read(dir.join("src/lib.rs")).unwrap(), lib);
    assert_eq!(std::fs::read(dir.join("Cargo.lock")).ok(), lock);
}

#[test]
fn the_working_tree_named_twice_exits_2_before_building() {
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    commit(dir, "one");
    let target = tempfile::tempdir().unwrap();
    let out = speedup(dir, target.path(), &["race", ".", "main", "."]);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("`.` (the working tree) is named twice"),
        "{text}"
    );
    assert!(!text.contains("building"), "{text}");
}

#[test]
fn a_race_of_one_revision_exits_2_with_the_fix() {
    let repo = repository();
    let dir = repo.path();
    // Refused before anything is locked or built: a target of its own.
    let target = tempfile::tempdir().unwrap();
    let out = speedup(dir, target.path(), &["race", "main"]);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("only `main` was given"), "{text}");
    assert!(
        text.contains("hint: name every competing revision"),
        "{text}"
    );
}

#[test]
fn a_commit_named_twice_exits_2_before_building() {
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    commit(dir, "one");
    let sha = git(dir, &["rev-parse", "HEAD"]);
    let before = repository_state(dir);
    // Refused before anything is built: a target of its own, whose lock no other test holds.
    let target = tempfile::tempdir().unwrap();
    let out = speedup(dir, target.path(), &["race", "main", sha.trim()]);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("name the same commit"), "{text}");
    assert!(text.contains("hint: name each commit once"), "{text}");
    assert!(!text.contains("building"), "{text}");
    assert_eq!(repository_state(dir), before);
}
