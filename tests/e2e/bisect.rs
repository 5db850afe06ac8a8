//! `cargo speedup bisect` on a generated history: eight commits after GOOD, one of which makes `changed`
//! twice as slow, the others touching only docs (identical executables, nothing run). The bisection names
//! the slow commit with its subject, runs only the comparisons that can differ, and a second bisection
//! re-measures nothing.

use crate::support::*;

/// Short criterion settings and a fixed plan of 12 runs per side (each comparison is made at confidence
/// 1 - 0.05 / 7, where 6 runs need every run of one side faster than every run of the other), on the one
/// benchmark that changes.
const SHORT: [&str; 13] = [
    "--warm-up-time",
    "0.05",
    "--measurement-time",
    "0.1",
    "--sample-size",
    "10",
    "--runs",
    "12",
    "--fixed",
    "--filter",
    "changed",
    "--format",
    "json",
];

#[test]
fn bisect_names_the_commit_that_made_a_benchmark_twice_as_slow() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 20_000);
    commit(dir, "fast");
    for n in 1..=8 {
        if n == 4 {
            write_criterion_crate(dir, 40_000);
            commit(dir, "twice as slow");
        } else {
            write(dir, &[("README.md", &format!("docs {n}\n"))]);
            commit(dir, &format!("docs {n}"));
        }
    }
    let slow = git(dir, &["rev-parse", "HEAD~4"]).trim().to_string();
    let target = shared_target();
    let before = repository_state(dir);
    let mut args = vec!["bisect", "HEAD~8..HEAD"];
    args.extend_from_slice(&SHORT);

    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["schema"], "cargo-speedup-bisect/1", "{report}");
    assert_eq!(report["outcome"], "named", "{report}");
    assert_eq!(report["named"], 4, "{report}");
    let named = &report["path"][4];
    assert_eq!(named["sha"], slow.as_str(), "{report}");
    assert_eq!(named["subject"], "twice as slow", "{report}");
    assert_eq!(named["verdict"], "slower", "{report}");
    // The steps at the docs commits before it found GOOD's executables: nothing ran for them.
    for docs in [2, 3] {
        assert_eq!(report["path"][docs]["identical"], true, "{report}");
        assert_eq!(report["path"][docs]["step"], "like-good", "{report}");
    }
    // 8 commits: 2 * 3 + 1 comparisons budgeted, each at 1 - 0.05 / 7.
    assert_eq!(report["budgeted_comparisons"], 7, "{report}");
    assert_eq!(report["comparisons"], 4, "{report}");
    assert_eq!(report["confidence"], 0.95, "{report}");
    assert_eq!(repository_state(dir), before);

    // Every measured pair is cached: bisecting again runs nothing.
    let again = speedup(dir, &target, &args);
    let text = stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{text}");
    assert!(!text.contains("running "), "nothing may run again: {text}");
    let second: serde_json::Value = serde_json::from_slice(&again.stdout).expect("JSON report");
    assert_eq!(second["named"], 4, "{second}");
}
