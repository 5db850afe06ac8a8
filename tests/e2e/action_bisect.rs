//! The Action's `bisect` input, run as `action.rs` runs the action (its steps outside GitHub, a fake `gh`
//! recording the comment), on a pull request of three commits: docs, a five times slower `changed`
//! benchmark whose subject holds Markdown and a mention, docs again. With `bisect: true` the failed gate
//! stays failed (exit 1), the comment and the job summary name the slow commit with its subject made inert,
//! its speedup and the confidence, a notice annotation says it in the log, and the bisection's page is
//! uploaded; with the input left at its default, nothing bisects.

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
