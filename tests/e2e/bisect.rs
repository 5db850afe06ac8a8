//! `cargo speedup bisect` on a generated history: eight commits after GOOD, one of which makes `changed`
//! twice as slow, one that does not build (and the next that repairs it), the others touching only docs
//! (identical executables, nothing run). The bisection names the slow commit with its subject, skips the
//! broken commit, runs only the comparisons that can differ, and a second bisection re-measures nothing; a
//! range of docs commits alone has nothing to bisect.

use crate::support::*;

/// After [`RUN`]'s short criterion settings: a fixed plan of 12 runs per side (each comparison is made at
/// confidence 1 - 0.05 / 7, where 6 runs need every run of one side faster than every run of the other),
/// on the one benchmark that changes.
const PLAN: [&str; 7] = [
    "--runs", "12", "--fixed", "--filter", "changed", "--format", "json",
];

/// `bisect REVISIONS...` with the short settings and [`PLAN`].
fn bisect_args<'a>(revisions: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["bisect"];
    args.extend_from_slice(revisions);
    args.extend_from_slice(&RUN[1..7]);
    args.extend_from_slice(&PLAN);
    args
}

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
        } else if n == 2 {
            write(
                dir,
                &[(
                    "src/lib.rs",
                    "pub fn spin(n: u64) -> u64 { does not build }\n",
                )],
            );
            commit(dir, "broken");
        } else if n == 3 {
            write_criterion_crate(dir, 20_000);
            commit(dir, "repaired");
        } else {
            write(dir, &[("README.md", &format!("docs {n}\n"))]);
            commit(dir, &format!("docs {n}"));
        }
    }
    let slow = git(dir, &["rev-parse", "HEAD~4"]).trim().to_string();
    let target = shared_target();
    let before = repository_state(dir);
    let args = bisect_args(&["HEAD~8..HEAD"]);

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
    // The commit that does not build is skipped, as `git bisect skip` does, saying why.
    assert_eq!(report["path"][2]["step"], "skipped", "{report}");
    let why = report["path"][2]["skipped"].as_str().unwrap_or_default();
    assert!(why.starts_with("building "), "{report}");
    // The steps at the commits before it that build GOOD's executables ran nothing.
    for docs in [1, 3] {
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

    // Docs commits alone: BAD is not shown slower than GOOD, nothing to bisect, nothing run, exit 0.
    let args = bisect_args(&["HEAD~3", "HEAD"]);
    let nothing = speedup(dir, &target, &args);
    let text = stderr(&nothing);
    assert_eq!(nothing.status.code(), Some(0), "{text}");
    assert!(!text.contains("running "), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&nothing.stdout).expect("JSON report");
    assert_eq!(report["outcome"], "nothing-to-bisect", "{report}");
    let summary = report["summary"].as_str().unwrap_or_default();
    assert!(
        summary.starts_with("Nothing to bisect: BAD (")
            && summary.contains(") is not shown slower than GOOD ("),
        "{report}"
    );
    assert_eq!(repository_state(dir), before);
}
