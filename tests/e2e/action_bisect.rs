//! The Action's `bisect` input, run as `action.rs` runs the action (its steps outside GitHub, a fake `gh`
//! recording the comment), on a pull request of three commits: docs, a five times slower `changed`
//! benchmark whose subject holds Markdown and a mention, docs again. With `bisect: true` the failed gate
//! stays failed (exit 1), the comment and the job summary name the slow commit with its subject made inert,
//! its speedup and the confidence, a notice annotation says it in the log, and the bisection's page is
//! uploaded; with the input left at its default, nothing bisects. The bisection follows the benchmark that
//! slowed most (the five times slower one, whatever noise says of the unchanged one); which benchmark
//! `bisect.sh` follows is also checked on hand-written reports of times and counts, with a `cargo` that
//! only records its arguments.

use crate::action::{Home, contexts, run};
use crate::support::{commit, git, repository, serial, write, write_criterion_crate};

/// The slow commit's subject: emphasis, a table pipe and a mention, which the comment must show inert.
const SUBJECT: &str = "spin five times *longer* | cc @octocat";

/// `main` (the base, also `origin/main`) and `feature`: docs, the slowdown, docs. Returns the repository,
/// the base and the slow commit.
fn three_commit_pull_request() -> (tempfile::TempDir, String, String) {
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 400);
    commit(dir, "base");
    let base = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    git(dir, &["update-ref", "refs/remotes/origin/main", &base]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    write(dir, &[("README.md", "how to use it\n")]);
    commit(dir, "docs: how to use it");
    write_criterion_crate(dir, 2000);
    commit(dir, SUBJECT);
    let slow = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    write(dir, &[("README.md", "how to use it, and why\n")]);
    commit(dir, "docs: why");
    (repo, base, slow)
}

/// Runs the action on the pull request with `bisect` as given (or left at its default).
fn run_with(
    repo: &std::path::Path,
    base: &str,
    home: &Home,
    temp: &std::path::Path,
    bisect: Option<&str>,
) -> crate::action_runner::ActionRun {
    let head = git(repo, &["rev-parse", "HEAD"]).trim().to_string();
    let args =
        "--warm-up-time 0.001 --measurement-time 0.001 --sample-size 10 --runs 6 --layouts fixed";
    let mut inputs = vec![("fail-on", "any"), ("comment", "true"), ("args", args)];
    inputs.extend(bisect.map(|b| ("bisect", b)));
    let contexts = contexts(
        home,
        temp,
        &inputs,
        &[
            ("event_name", "pull_request"),
            ("base_ref", "main"),
            ("event.pull_request.base.sha", base),
            ("event.pull_request.head.sha", &head),
            ("event.pull_request.number", "7"),
            ("sha", &head),
            ("repository", "example/demo"),
            ("run_id", "42"),
        ],
    );
    run(repo, contexts)
}

#[test]
fn bisect_names_the_pull_requests_slow_commit_in_the_comment_only_when_asked() {
    let _serial = serial();
    let (repo, base, slow) = three_commit_pull_request();
    let short = &slow[..10];

    // The input left at its default: the gate fails and nothing bisects.
    let home = Home::new();
    let temp = tempfile::tempdir().expect("runner temp");
    let off = run_with(repo.path(), &base, &home, temp.path(), None);
    assert_eq!(
        off.status, 1,
        "the gate fails under fail-on any\n{}",
        off.log
    );
    assert!(!off.summary.contains("Which commit?"), "{}", off.summary);
    assert!(
        !home.gh_calls().contains("Which commit?"),
        "{}",
        home.gh_calls()
    );
    assert!(!off.log.contains("bisect"), "{}", off.log);
    assert!(!temp.path().join("cargo-speedup-bisect.json").exists());
    assert_eq!(off.uploads.len(), 1, "{:?}", off.uploads);

    // `bisect: true`: the slow commit, its subject inert, its speedup and the confidence.
    let home = Home::new();
    let temp = tempfile::tempdir().expect("runner temp");
    let on = run_with(repo.path(), &base, &home, temp.path(), Some("true"));
    assert_eq!(
        on.status, 1,
        "the gate's status is the comparison's\n{}",
        on.log
    );
    assert!(
        on.log.contains("following the benchmark that slowed most"),
        "{}",
        on.log
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(temp.path().join("cargo-speedup-bisect.json"))
            .unwrap_or_else(|e| panic!("the bisection's JSON: {e}\n{}", on.log)),
    )
    .expect("JSON");
    assert_eq!(report["outcome"], "named", "{report}\n{}", on.log);
    assert_eq!(report["named"], 2, "{report}");
    assert_eq!(report["path"][1]["identical"], true, "{report}");
    let speedup = report["path"][2]["speedup"].as_f64().expect("a speedup");
    // Five times slower reads 0.2x; the bounds leave noise a factor of 2.5 either way.
    assert!((0.08..0.5).contains(&speedup), "{speedup}");
    let culprit = format!(
        "🔎 The slowdown came with `{short}` “spin five times \\*longer\\* \\| cc @\u{2060}octocat” \
         (commit 2 of 3 after the merge-base): speedup {}x against the merge-base, at confidence 0.95.",
        (speedup * 100.0).round() / 100.0
    );
    let comment = home.gh_calls();
    assert!(
        comment.contains("### Which commit? (`cargo speedup bisect`)"),
        "{comment}"
    );
    assert!(comment.contains(&culprit), "{culprit}\n{comment}");
    assert!(on.summary.contains(&culprit), "{}", on.summary);
    assert!(!comment.contains(SUBJECT) && !on.summary.contains(SUBJECT));
    // The bisection's own report is folded under the sentence, before the link to the plots.
    let details = comment.find("<details><summary>The bisection, commit by commit</summary>");
    let link = comment.find("[The HTML report with plots]");
    assert!(details.is_some() && details < link, "{comment}");
    let notice = format!(
        "::notice title=cargo-speedup::bisect: commit 2 of 3, {short} \"{SUBJECT}\", at confidence 0.95"
    );
    assert!(on.log.contains(&notice), "{}", on.log);
    let bisect_page = on
        .uploads
        .iter()
        .find(|(name, _)| name == "cargo-speedup-report-bisect")
        .unwrap_or_else(|| panic!("{:?}", on.uploads));
    let page = std::fs::read_to_string(&bisect_page.1).expect("the bisection's page");
    assert!(page.contains("data-plot=\"bisect\"") && page.contains("◀ the commit named"));
}

/// The arguments `action/bisect.sh` gives `cargo speedup bisect` after a comparison whose JSON report has
/// `benchmarks` (`{ name, unit, verdict, speedup: { median } }`), with `SPEEDUP_ARGS` = `args`: run on a
/// repository of three commits, with a `cargo` on the `PATH` that records its arguments and fails (the
/// script then says that the bisection could not run, and exits 0).
fn bisect_arguments(benchmarks: serde_json::Value, args: &str) -> Vec<String> {
    let repo = repository();
    let dir = repo.path();
    for n in 0..3 {
        write(dir, &[("README.md", &format!("docs {n}\n"))]);
        commit(dir, &format!("docs {n}"));
    }
    let temp = tempfile::tempdir().expect("temp");
    let bin = temp.path().join("bin");
    std::fs::create_dir(&bin).expect("bin");
    let recorded = temp.path().join("arguments");
    let fake = bin.join("cargo");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '{}'\nexit 3\n",
            recorded.display()
        ),
    )
    .expect("the fake cargo");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let report = temp.path().join("report.json");
    std::fs::write(
        &report,
        serde_json::json!({ "benchmarks": benchmarks }).to_string(),
    )
    .expect("report");
    let markdown = temp.path().join("report.md");
    std::fs::write(&markdown, "").expect("markdown");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = crate::environment::command("bash")
        .arg(crate::action::action_dir().join("action/bisect.sh"))
        .current_dir(dir)
        .env("PATH", path)
        .env("SPEEDUP_OUT", temp.path())
        .env("SPEEDUP_MARKDOWN", &markdown)
        .env("SPEEDUP_REPORT", &report)
        .env("SPEEDUP_COMPARED_BASE", "HEAD~2")
        .env("SPEEDUP_HEAD", "HEAD")
        .env("SPEEDUP_ARGS", args)
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .expect("bash runs bisect.sh");
    let log = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(log.contains("could not run (exit status 3)"), "{log}");
    std::fs::read_to_string(&recorded)
        .unwrap_or_else(|e| panic!("cargo was not called: {e}\n{log}"))
        .lines()
        .map(String::from)
        .collect()
}

/// The pattern given to `--filter`, if any.
fn filter(arguments: &[String]) -> Option<&str> {
    let at = arguments.iter().position(|a| a == "--filter")?;
    arguments.get(at + 1).map(String::as_str)
}

#[test]
fn the_action_bisects_the_benchmark_that_slowed_most() {
    let bench = |name: &str, unit: &str, verdict: &str, median: f64| serde_json::json!({ "name": name, "unit": unit, "verdict": verdict, "speedup": { "median": median } });
    // Noise called the unchanged `same` slower by a hair: the planted `changed`, five times slower, is
    // followed all the same, and a faster benchmark is never followed.
    let times = serde_json::json!([
        bench("same", "ns", "slower", 0.99984),
        bench("changed", "us", "slower", 0.2),
        bench("quick", "us", "faster", 0.1),
    ]);
    let arguments = bisect_arguments(times.clone(), "--runs 6");
    assert_eq!(filter(&arguments), Some("^changed$"), "{arguments:?}");
    assert!(arguments.contains(&"--runs".to_string()), "{arguments:?}");
    // A --filter of the user's own is kept, and no other added.
    let arguments = bisect_arguments(times, "--filter same");
    assert_eq!(filter(&arguments), Some("same"), "{arguments:?}");
    assert_eq!(arguments.iter().filter(|a| *a == "--filter").count(), 1);

    // Counts: the largest increase relative to BASE's count (1 / 0.5: +100 %, against `same`'s +0.1 %), the
    // first of two equal; the filter names the benchmark, not the count's row, and escapes the regex
    // characters of its name.
    let counts = serde_json::json!([
        bench(
            "same (instructions)",
            "instructions",
            "slower",
            1_000_000.0 / 1_001_000.0
        ),
        bench("grp/x+y.z|w (instructions)", "instructions", "slower", 0.5),
        bench("tie (instructions)", "instructions", "slower", 0.5),
    ]);
    let arguments = bisect_arguments(counts, "--measure instructions");
    assert_eq!(
        filter(&arguments),
        Some(r"^grp/x\+y\.z\|w$"),
        "{arguments:?}"
    );

    // No benchmark slower (the gate failed on the suite): the suite's verdict, no filter.
    let none = serde_json::json!([bench("same", "ns", "unchanged", 1.0)]);
    assert_eq!(filter(&bisect_arguments(none, "")), None);
}

#[test]
fn the_action_bisects_a_suite_of_counts_on_the_count_that_increased_most() {
    use crate::counted::{cannot_run, write_criterion_counted};
    if let Some(why) = cannot_run() {
        eprintln!("skipped: {why}");
        return;
    }
    let _serial = serial();
    // `other` runs `work()`; the pull request adds one call of `extra()` to `changed` (+0.5 %), then three
    // to `other` (+1.5 %): two counts changed, which `cargo speedup bisect` will not follow as a suite.
    let other = |calls: usize| {
        format!(
            "\n    c.bench_function(\"other\", |b| b.iter(|| black_box({{ {}demo::work() }})));",
            "demo::extra(); ".repeat(calls)
        )
    };
    let repo = repository();
    let dir = repo.path();
    write_criterion_counted(dir, false, &other(0));
    commit(dir, "base");
    let base = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    git(dir, &["update-ref", "refs/remotes/origin/main", &base]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    write_criterion_counted(dir, true, &other(0));
    commit(dir, "one more call in `changed`");
    write_criterion_counted(dir, true, &other(3));
    commit(dir, "three more calls in other");
    let slow = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    write(dir, &[("README.md", "how to use it\n")]);
    commit(dir, "docs");
    let head = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    let home = Home::new();
    let temp = tempfile::tempdir().expect("runner temp");
    let inputs = [
        ("measure", "instructions"),
        ("threshold", "0"),
        ("comment", "true"),
        ("bisect", "true"),
        ("html-artifact", ""),
    ];
    let github = [
        ("event_name", "pull_request"),
        ("base_ref", "main"),
        ("event.pull_request.base.sha", base.as_str()),
        ("event.pull_request.head.sha", head.as_str()),
        ("event.pull_request.number", "7"),
        ("sha", head.as_str()),
        ("repository", "example/demo"),
        ("run_id", "42"),
    ];
    let action = run(dir, contexts(&home, temp.path(), &inputs, &github));
    assert_eq!(
        action.status, 1,
        "the counts that grew fail the gate\n{}",
        action.log
    );
    assert!(
        action
            .log
            .contains("following the benchmark that slowed most"),
        "{}",
        action.log
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(temp.path().join("cargo-speedup-bisect.json"))
            .unwrap_or_else(|e| panic!("the bisection's JSON: {e}\n{}", action.log)),
    )
    .expect("JSON");
    assert_eq!(report["outcome"], "named", "{report}\n{}", action.log);
    assert_eq!(report["named"], 2, "{report}");
    assert_eq!(report["path"][2]["sha"], slow.as_str(), "{report}");
    let comment = home.gh_calls();
    assert!(
        comment.contains(&format!(
            "🔎 The slowdown came with `{}` “three more calls in other” (commit 2 of 3",
            &slow[..10]
        )),
        "{comment}"
    );
}
