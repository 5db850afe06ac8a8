//! The matrix workflow of `docs/action.md` run through the action's own steps, as `action.rs` runs its single job: two
//! measuring jobs (`partition`) whose uploads a merge job (`merge`) turns into the summary, the comment and
//! the gate; the fork pattern's second stage (`post`); the refusal of `pull_request_target`; and the
//! comment posted only when something was found. GitHub's API is a stub `gh` that logs what it is asked.

use std::path::{Path, PathBuf};

use crate::action::{
    Home, action_inputs, contexts, documented_workflow, pull_request_repository, run,
};
use crate::action_hostile::{MARKER, comment, run_comment};
use crate::action_runner::ActionRun;

/// The shortest criterion settings, 6 runs per side, the executables as built (`support::RUN` says why).
const ARGS: &str =
    "--warm-up-time 0.001 --measurement-time 0.001 --sample-size 10 --runs 6 --layouts fixed";

/// A stub `gh` on the action's PATH (the install root, which the action puts there): it logs its
/// arguments to `gh.log` beside it, lists no earlier comment, and answers a pull request's head with
/// `$STUB_PR_HEAD`.
fn stub_gh(home: &Home) -> PathBuf {
    let bin = home.dir.path().join(".cache/cargo-speedup/bin");
    let log = bin.join("gh.log");
    let script = format!(
        "#!/usr/bin/env bash\necho \"$*\" >> '{}'\ncase \"$*\" in\n  *pulls/*) echo \"${{STUB_PR_HEAD:-}}\" ;;\nesac\n",
        log.display()
    );
    let gh = bin.join("gh");
    std::fs::write(&gh, script).expect("stub gh");
    let mut permissions = std::fs::metadata(&gh).expect("gh").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&gh, permissions).expect("chmod gh");
    log
}

fn pairs(list: &[(String, String)]) -> Vec<(&str, &str)> {
    list.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

fn errors(run: &ActionRun) -> Vec<&str> {
    run.log
        .lines()
        .filter(|l| l.starts_with("::error"))
        .collect()
}

#[test]
fn the_documented_matrix_measures_two_parts_and_the_merge_job_gates_and_comments() {
    let _serial = crate::support::serial();
    let workflow = documented_workflow("docs/action.md", "strategy:");
    let (repo, base, head) = pull_request_repository();
    let home = Home::new();
    let log = stub_gh(&home);
    let shards = workflow["jobs"]["measure"]["strategy"]["matrix"]["shard"]
        .as_vec()
        .expect("matrix.shard")
        .iter()
        .map(|s| s.as_i64().expect("a shard number"))
        .collect::<Vec<_>>();
    assert_eq!(shards, [1, 2]);
    let github = [
        ("event_name", "pull_request"),
        ("base_ref", "main"),
        ("event.pull_request.base.sha", base.as_str()),
        ("event.pull_request.number", "7"),
        ("sha", head.as_str()),
        ("repository", "example/demo"),
    ];
    // The merge job's workspace, where the artifacts are downloaded (`path: parts`, one directory each).
    let merge_dir = tempfile::tempdir().expect("merge workspace");
    for shard in shards {
        let mut inputs: Vec<(String, String)> = action_inputs(&workflow["jobs"]["measure"])
            .into_iter()
            .map(|(k, v)| (k, v.replace("${{ matrix.shard }}", &shard.to_string())))
            .collect();
        assert!(inputs.contains(&("partition".into(), format!("count:{shard}/2"))));
        inputs.push(("args".into(), ARGS.into()));
        let temp = tempfile::tempdir().expect("runner temp");
        let job = run(
            repo.path(),
            contexts(&home, temp.path(), &pairs(&inputs), &github),
        );
        assert_eq!(job.status, 0, "a part does not gate\n{}", job.log);
        assert!(
            job.summary.contains(&format!(
                "measured part count:{shard}/2 of the benchmarks (here: 1)"
            )),
            "{}",
            job.summary
        );
        assert!(errors(&job).is_empty(), "{}", job.log);
        let artifact = merge_dir
            .path()
            .join(format!("parts/cargo-speedup-part-{shard}"));
        std::fs::create_dir_all(&artifact).expect("artifact dir");
        std::fs::copy(&job.outputs["report"], artifact.join("cargo-speedup.json"))
            .expect("the part's report");
    }
    assert!(!log.exists(), "the parts posted nothing");

    let inputs = action_inputs(&workflow["jobs"]["merge"]);
    assert!(
        inputs.contains(&("comment".into(), "true".into())),
        "{inputs:?}"
    );
    let temp = tempfile::tempdir().expect("runner temp");
    let job = run(
        merge_dir.path(),
        contexts(&home, temp.path(), &pairs(&inputs), &github),
    );
    assert_eq!(
        job.status, 1,
        "the merge gates under fail-on any\n{}",
        job.log
    );
    assert!(job.summary.contains("| changed |"), "{}", job.summary);
    assert!(job.summary.contains("| same |"), "{}", job.summary);
    assert!(
        job.log
            .contains("::error title=cargo-speedup::changed is slower")
            || job
                .log
                .contains("::warning title=cargo-speedup::changed is slower"),
        "{}",
        job.log
    );
    assert_eq!(job.outputs["notable"], "true");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&job.outputs["report"]).expect("report"))
            .expect("JSON");
    assert_eq!(json["benchmarks"].as_array().map(Vec::len), Some(2));
    assert_eq!(job.outputs["verdict"], json["verdict"].as_str().unwrap());
    let calls = std::fs::read_to_string(&log).expect("gh was called");
    assert!(
        calls.contains("api --method POST repos/example/demo/issues/7/comments"),
        "{calls}"
    );

    // The fork pattern's second stage: the merge job's files, uploaded and downloaded, posted by `post`.
    std::fs::remove_file(&log).expect("reset the log");
    let report = tempfile::tempdir().expect("downloaded report");
    for file in [
        "cargo-speedup.md",
        "cargo-speedup.json",
        "cargo-speedup-pr.txt",
    ] {
        std::fs::copy(temp.path().join(file), report.path().join(file)).expect(file);
    }
    let stage_two = documented_workflow("docs/action.md", "workflow_run:");
    let inputs = action_inputs(&stage_two["jobs"]["comment"]);
    assert_eq!(inputs, [("post".to_string(), "report".to_string())]);
    let post = |workspace: &Path, pr_head: &str| {
        let temp = tempfile::tempdir().expect("runner temp");
        let mut contexts = contexts(
            &home,
            temp.path(),
            &[("post", report.path().to_str().unwrap())],
            &[
                ("event_name", "workflow_run"),
                ("event.workflow_run.head_sha", head.as_str()),
                ("repository", "example/demo"),
            ],
        );
        contexts.env.push(("STUB_PR_HEAD".into(), pr_head.into()));
        // `post` installs nothing: the runner's own `gh` (here the stub) is on its PATH.
        let path = std::env::var("PATH").unwrap_or_default();
        let bin = log.parent().expect("bin").display().to_string();
        contexts.env.push(("PATH".into(), format!("{bin}:{path}")));
        run(workspace, contexts)
    };
    let empty = tempfile::tempdir().expect("workspace");
    let job = post(empty.path(), &head);
    assert_eq!(job.status, 0, "{}", job.log);
    assert!(job.summary.contains("| changed |"), "{}", job.summary);
    let calls = std::fs::read_to_string(&log).expect("gh was called");
    assert!(
        calls.contains("api repos/example/demo/pulls/7 --jq .head.sha"),
        "{calls}"
    );
    assert!(
        calls.contains("api --method POST repos/example/demo/issues/7/comments"),
        "{calls}"
    );
    // An upload that names another pull request than the one measured is not posted.
    std::fs::remove_file(&log).expect("reset the log");
    let job = post(empty.path(), "0000000000000000000000000000000000000000");
    assert_eq!(job.status, 2, "{}", job.log);
    assert_eq!(errors(&job).len(), 1, "{}", job.log);
    assert!(errors(&job)[0].contains("not posting"), "{}", job.log);
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!calls.contains("POST"), "{calls}");
}

#[test]
fn pull_request_target_is_refused_unless_explicitly_allowed() {
    let (repo, base, head) = pull_request_repository();
    let home = Home::new();
    let github = [
        ("event_name", "pull_request_target"),
        ("base_ref", "main"),
        ("event.pull_request.base.sha", base.as_str()),
        ("sha", head.as_str()),
    ];
    let temp = tempfile::tempdir().expect("runner temp");
    let job = run(repo.path(), contexts(&home, temp.path(), &[], &github));
    assert_eq!(job.status, 2, "{}", job.log);
    assert_eq!(errors(&job).len(), 1, "{}", job.log);
    assert!(
        errors(&job)[0].contains("pull_request_target"),
        "{}",
        job.log
    );
    assert!(errors(&job)[0].contains("workflow_run"), "{}", job.log);
    // Allowed: the step goes on (and here stops at the next check, the base that does not exist).
    let temp = tempfile::tempdir().expect("runner temp");
    let inputs = [
        ("allow-pull-request-target", "true"),
        ("base", "no-such-branch"),
    ];
    let job = run(repo.path(), contexts(&home, temp.path(), &inputs, &github));
    assert_eq!(job.status, 2, "{}", job.log);
    assert_eq!(errors(&job).len(), 1, "{}", job.log);
    assert!(
        errors(&job)[0].contains("'no-such-branch' does not exist"),
        "{}",
        job.log
    );
}

#[test]
fn a_comment_is_new_only_when_something_was_found_and_kept_up_to_date_once_posted() {
    let home = Home::new();
    let report = "| bench | verdict |\n";
    let writes = |notable: &str, listed: &[serde_json::Value]| -> Vec<String> {
        run_comment(&home, listed, report, &[("SPEEDUP_NOTABLE", notable)])
            .into_iter()
            .filter(|call| call.iter().any(|a| a == "--method"))
            .map(|call| call.join(" "))
            .collect()
    };
    // The action's own marker comment, as GitHub's API lists it, is number 42.
    let own = comment(42, "github-actions[bot]", &format!("{MARKER}\nold"));
    assert!(writes("false", &[]).is_empty());
    let posted = writes("true", &[]);
    assert!(
        posted[0].starts_with("api --method POST repos/o/r/issues/3/comments"),
        "{posted:?}"
    );
    let updated = writes("false", &[own]);
    assert!(
        updated[0].starts_with("api --method PATCH repos/o/r/issues/comments/42"),
        "{updated:?}"
    );
}
