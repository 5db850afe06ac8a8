//! The GitHub Action's own steps, run outside GitHub on a temporary repository with real criterion
//! benchmarks: with the inputs of the README's workflow, a pull request that makes one benchmark five times
//! slower must fail under `fail-on: any`,
//! with the Markdown table in the job summary, the verdict in the outputs and an error annotation; and the
//! inputs GitHub cannot compare (a shallow clone, a missing base, an event without a pull request) must fail
//! with one clear annotation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use yaml_rust2::{Yaml, YamlLoader};

use crate::action_runner::{ActionRun, Contexts, run_action};
use crate::support::{commit, git, repository, serial, shared_target, write_criterion_crate};

/// A home directory whose install root already holds this build of cargo-speedup (the action's cache-hit
/// path), with cargo and rustup still found where they are.
pub(crate) struct Home {
    pub dir: tempfile::TempDir,
}

impl Home {
    pub(crate) fn new() -> Home {
        let dir = tempfile::tempdir().expect("home");
        let bin = dir.path().join(".cache/cargo-speedup/bin");
        std::fs::create_dir_all(&bin).expect("install root");
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_cargo-speedup"),
            bin.join("cargo-speedup"),
        )
        .expect("link the binary");
        // GitHub's CLI, as the comment step calls it: records its arguments, finds no earlier comment.
        let gh = bin.join("gh");
        std::fs::write(
            &gh,
            "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" >> \"$HOME/gh-calls.txt\"\n",
        )
        .expect("a fake gh");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755))
            .expect("gh is executable");
        Home { dir }
    }

    /// Every argument the fake `gh` was called with, one per line.
    pub(crate) fn gh_calls(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("gh-calls.txt")).unwrap_or_default()
    }

    pub(crate) fn env(&self) -> Vec<(String, String)> {
        let real_home = std::env::var("HOME").unwrap_or_default();
        let keep = |name: &str, default: String| std::env::var(name).unwrap_or(default);
        vec![
            ("HOME".into(), self.dir.path().display().to_string()),
            (
                "CARGO_HOME".into(),
                keep("CARGO_HOME", format!("{real_home}/.cargo")),
            ),
            (
                "RUSTUP_HOME".into(),
                keep("RUSTUP_HOME", format!("{real_home}/.rustup")),
            ),
            (
                "CARGO_TARGET_DIR".into(),
                shared_target().display().to_string(),
            ),
            ("CARGO_NET_OFFLINE".into(), "true".into()),
        ]
    }
}

/// Names and values of inputs or `github.*` fields.
type Pairs<'a> = Vec<(&'a str, &'a str)>;

pub(crate) fn action_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn contexts(
    home: &Home,
    runner_temp: &Path,
    inputs: &[(&str, &str)],
    github: &[(&str, &str)],
) -> Contexts {
    Contexts {
        env: home.env(),
        inputs: inputs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        github: github
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
        runner_temp: runner_temp.to_path_buf(),
    }
}

/// A repository with `main` (the base) and a `feature` commit that makes the `changed` benchmark 5x slower;
/// `origin/main` points at main, as after `actions/checkout` with `fetch-depth: 0`.
pub(crate) fn pull_request_repository() -> (tempfile::TempDir, String, String) {
    let repo = repository();
    write_criterion_crate(repo.path(), 400);
    commit(repo.path(), "base");
    let base = git(repo.path(), &["rev-parse", "HEAD"]).trim().to_string();
    git(
        repo.path(),
        &["update-ref", "refs/remotes/origin/main", &base],
    );
    git(repo.path(), &["checkout", "-q", "-b", "feature"]);
    write_criterion_crate(repo.path(), 2000);
    commit(repo.path(), "slower");
    let head = git(repo.path(), &["rev-parse", "HEAD"]).trim().to_string();
    (repo, base, head)
}

pub(crate) fn run(repo: &Path, contexts: Contexts) -> ActionRun {
    run_action(&action_dir(), repo, contexts)
}

/// The README's workflow block that holds `marker`, parsed.
pub(crate) fn readme_workflow(marker: &str) -> Yaml {
    documented_workflow("README.md", marker)
}

/// The workflow block of the repository's Markdown file `path` that holds `marker`, parsed.
pub(crate) fn documented_workflow(path: &str, marker: &str) -> Yaml {
    let text = std::fs::read_to_string(action_dir().join(path)).expect(path);
    let block = text
        .split("```yaml\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .find(|block| block.contains(marker))
        .unwrap_or_else(|| panic!("{path} shows a workflow with {marker}"));
    YamlLoader::load_from_str(block)
        .unwrap_or_else(|e| panic!("the workflow in {path} is not YAML: {e}"))
        .remove(0)
}

/// The `with:` of the job's cargo-speedup step, as strings.
pub(crate) fn action_inputs(job: &Yaml) -> Vec<(String, String)> {
    let step = job["steps"]
        .as_vec()
        .expect("steps")
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.contains("cargo-speedup"))
        })
        .expect("a cargo-speedup step");
    step["with"]
        .as_hash()
        .expect("with:")
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Yaml::String(s) => s.clone(),
                Yaml::Boolean(b) => b.to_string(),
                Yaml::Integer(i) => i.to_string(),
                Yaml::Real(r) => r.clone(),
                other => panic!("unexpected input value {other:?}"),
            };
            (k.as_str().expect("input name").to_string(), value)
        })
        .collect()
}

/// The inputs of the cargo-speedup step of the README's workflow, after checking that the workflow checks
/// out the full history.
fn readme_workflow_inputs() -> Vec<(String, String)> {
    let workflow = readme_workflow("actions/checkout");
    let job = &workflow["jobs"]["speedup"];
    assert_eq!(
        job["steps"][0]["with"]["fetch-depth"].as_i64(),
        Some(0),
        "checkout must fetch the merge-base"
    );
    action_inputs(job)
}

#[test]
fn readme_workflow_on_a_regression_fails_with_the_table_in_the_summary() {
    let _serial = serial();
    let (repo, base, head) = pull_request_repository();
    let temp = tempfile::tempdir().expect("runner temp");
    let home = Home::new();
    let mut inputs = readme_workflow_inputs();
    assert!(
        inputs.contains(&("fail-on".to_string(), "any".to_string())),
        "{inputs:?}"
    );
    assert!(
        inputs.contains(&("comment".to_string(), "true".to_string())),
        "{inputs:?}"
    );
    // Short criterion settings for the test; the comment goes to the fake `gh` of `Home`.
    let args =
        "--warm-up-time 0.001 --measurement-time 0.001 --sample-size 10 --runs 6 --layouts fixed";
    inputs.retain(|(k, _)| k != "args");
    inputs.push(("args".into(), args.into()));
    let inputs: Vec<(&str, &str)> = inputs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let contexts = contexts(
        &home,
        temp.path(),
        &inputs,
        &[
            ("event_name", "pull_request"),
            ("base_ref", "main"),
            ("event.pull_request.base.sha", &base),
            ("event.pull_request.number", "7"),
            ("sha", &head),
            ("repository", "example/demo"),
            ("run_id", "42"),
        ],
    );
    let run = run(repo.path(), contexts);
    assert_eq!(
        run.status, 1,
        "the gate fails under fail-on any\n{}",
        run.log
    );
    assert!(
        run.summary.contains("| changed |"),
        "summary:\n{}",
        run.summary
    );
    assert!(
        run.summary.contains("| same |"),
        "summary:\n{}",
        run.summary
    );
    assert!(
        run.log
            .contains("::error title=cargo-speedup::changed is slower (p = "),
        "{}",
        run.log
    );
    let report = PathBuf::from(&run.outputs["report"]);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("the JSON report exists"))
            .expect("valid JSON");
    assert_eq!(
        run.outputs["verdict"],
        json["verdict"].as_str().expect("verdict")
    );
    assert!(json["gate"]["failed"].as_bool().expect("gate"));
    assert_html_report_uploaded_and_linked(&run, &home);
    assert_eq!(
        git(repo.path(), &["rev-parse", "HEAD"]).trim(),
        head,
        "HEAD untouched"
    );
}

/// The HTML report is uploaded as the artifact `cargo-speedup-report` even though the gate failed, and both
/// the job summary and the pull-request comment link to it.
fn assert_html_report_uploaded_and_linked(run: &ActionRun, home: &Home) {
    let [(name, path)] = run.uploads.as_slice() else {
        panic!("one upload expected: {:?}\n{}", run.uploads, run.log);
    };
    assert_eq!(name, "cargo-speedup-report");
    assert_eq!(run.outputs["html"], path.display().to_string());
    let page = std::fs::read_to_string(path).expect("the HTML report exists");
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("data-plot=\"forest\""));
    let link =
        "[The HTML report with plots](https://github.com/example/demo/actions/runs/42/artifacts/1)";
    assert!(run.summary.contains(link), "summary:\n{}", run.summary);
    let comment = home.gh_calls();
    assert!(
        comment.contains("<!-- cargo-speedup -->") && comment.contains("| changed |"),
        "gh was called with:\n{comment}"
    );
    assert!(comment.contains(link), "gh was called with:\n{comment}");
}

#[test]
fn inputs_that_cannot_be_compared_fail_with_one_annotation() {
    let _serial = serial();
    let (repo, base, head) = pull_request_repository();
    let home = Home::new();
    let cases: Vec<(Pairs, Pairs, &str)> = vec![
        (
            vec![("base", "no-such-branch")],
            vec![("event_name", "pull_request"), ("sha", &head)],
            "base revision 'no-such-branch' does not exist",
        ),
        (
            vec![],
            vec![("event_name", "workflow_dispatch"), ("sha", &head)],
            "set the action's 'base' input",
        ),
    ];
    for (inputs, github, expected) in cases {
        let temp = tempfile::tempdir().expect("runner temp");
        let run = run(repo.path(), contexts(&home, temp.path(), &inputs, &github));
        assert_eq!(run.status, 2, "{expected}\n{}", run.log);
        let errors: Vec<&str> = run
            .log
            .lines()
            .filter(|l| l.starts_with("::error"))
            .collect();
        assert_eq!(errors.len(), 1, "{}", run.log);
        assert!(errors[0].contains(expected), "{}", errors[0]);
    }

    // A shallow clone of the feature branch lacks the merge-base.
    let shallow = tempfile::tempdir().expect("clone");
    let url = format!("file://{}", repo.path().display());
    git(
        shallow.path(),
        &[
            "clone", "-q", "--depth", "1", "--branch", "feature", &url, ".",
        ],
    );
    let temp = tempfile::tempdir().expect("runner temp");
    let contexts = contexts(
        &home,
        temp.path(),
        &[],
        &[
            ("event_name", "pull_request"),
            ("base_ref", "main"),
            ("event.pull_request.base.sha", &base),
            ("sha", &head),
        ],
    );
    let run = run(shallow.path(), contexts);
    assert_eq!(run.status, 2, "{}", run.log);
    assert!(run.log.contains("fetch-depth: 0"), "{}", run.log);
}

/// A `gh` in `home`'s install root that answers as GitHub's CLI does when the API refuses: listing the
/// comments succeeds with none, every write exits 1 with `gh: MESSAGE` on standard error (gh 2.x prints the
/// API's message and `(HTTP STATUS)` so, e.g. `gh: Resource not accessible by integration (HTTP 403)`).
/// With `list_fails`, the listing fails the same way.
fn refusing_gh(home: &Home, message: &str, list_fails: bool) {
    let gh = home.dir.path().join(".cache/cargo-speedup/bin/gh");
    let list = if list_fails {
        format!("echo 'gh: {message}' >&2; exit 1")
    } else {
        "echo '[]'; exit 0".to_string()
    };
    let script = format!(
        "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" >> \"$HOME/gh-calls.txt\"\n\
         case \"$*\" in\n  *'--paginate'*) {list} ;;\nesac\necho 'gh: {message}' >&2\nexit 1\n"
    );
    std::fs::write(&gh, script).expect("a refusing gh");
}

/// The README's workflow (`comment: true`) on a pull request from a fork, whose token is read-only: GitHub
/// refuses the comment with HTTP 403. The step's status is the gate's (here `fail-on: none`, which cannot
/// fail: 0), and the job summary says why there is no comment and points to the `post` workflow.
#[test]
fn a_comment_refused_on_a_forks_pull_request_leaves_the_checks_colour_to_the_gate() {
    let _serial = serial();
    let (repo, base, head) = pull_request_repository();
    let home = Home::new();
    refusing_gh(
        &home,
        "Resource not accessible by integration (HTTP 403)",
        false,
    );
    let args =
        "--warm-up-time 0.001 --measurement-time 0.001 --sample-size 10 --runs 6 --layouts fixed";
    for (fail_on, gate_status) in [("none", 0), ("any", 1)] {
        let temp = tempfile::tempdir().expect("runner temp");
        let contexts = contexts(
            &home,
            temp.path(),
            &[("comment", "true"), ("fail-on", fail_on), ("args", args)],
            &[
                ("event_name", "pull_request"),
                ("base_ref", "main"),
                ("event.pull_request.base.sha", &base),
                ("event.pull_request.number", "7"),
                ("sha", &head),
                ("repository", "example/demo"),
                ("run_id", "42"),
            ],
        );
        let run = run(repo.path(), contexts);
        assert_eq!(run.status, gate_status, "fail-on {fail_on}\n{}", run.log);
        assert_eq!(run.outputs["notable"], "true", "a comment was due");
        assert!(
            home.gh_calls().contains("POST"),
            "the comment was tried:\n{}",
            home.gh_calls()
        );
        assert!(
            run.summary.contains("| changed |"),
            "summary:\n{}",
            run.summary
        );
        let line = run
            .summary
            .lines()
            .find(|l| l.contains("comment was not posted"))
            .unwrap_or_else(|| panic!("no line about the comment:\n{}", run.summary));
        assert!(line.contains("HTTP 403"), "{line}");
        assert!(line.contains("`post`"), "{line}");
        assert!(line.contains("docs/action.md"), "{line}");
        assert!(
            run.log
                .contains("::warning title=cargo-speedup::the pull-request comment was not posted"),
            "{}",
            run.log
        );
    }
}

/// Runs `action/comment.sh` alone with the refusing `gh` of `refusing_gh` and a job summary, as the
/// comment step does; returns its exit status, its standard output and the summary.
fn comment_step(home: &Home, env: &[(&str, &str)]) -> (i32, String, String) {
    let summary = home.dir.path().join("summary.md");
    std::fs::write(&summary, "").expect("summary");
    let report = home.dir.path().join("report.md");
    std::fs::write(&report, "| bench | verdict |\n").expect("markdown");
    let bin = home.dir.path().join(".cache/cargo-speedup/bin");
    let out = crate::environment::command("bash")
        .arg(action_dir().join("action/comment.sh"))
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("HOME", home.dir.path())
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("SPEEDUP_MARKDOWN", &report)
        .env("SPEEDUP_REPOSITORY", "o/r")
        .env("SPEEDUP_PR", "3")
        .env("SPEEDUP_NOTABLE", "true")
        .envs(env.iter().copied())
        .output()
        .expect("comment.sh runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        std::fs::read_to_string(&summary).expect("summary"),
    )
}

#[test]
fn a_comment_that_cannot_be_posted_is_a_line_in_the_summary_never_a_failure() {
    // (gh's message, whether listing fails too, what the summary line must say)
    let cases = [
        (
            "Resource not accessible by integration (HTTP 403)",
            false,
            "HTTP 403",
        ),
        ("Not Found (HTTP 404)", true, "HTTP 404"),
        ("Server Error (HTTP 502)", false, "HTTP 502"),
        (
            "To get started with GitHub CLI, please run:  gh auth login\nAlternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.",
            true,
            "no token",
        ),
        (
            "error connecting to api.github.com",
            true,
            "could not be reached",
        ),
    ];
    for (message, list_fails, expected) in cases {
        let home = Home::new();
        refusing_gh(&home, message, list_fails);
        let (status, stdout, summary) = comment_step(&home, &[]);
        assert_eq!(status, 0, "{message}: {stdout}");
        let lines: Vec<&str> = summary
            .lines()
            .filter(|l| l.contains("comment was not posted"))
            .collect();
        assert_eq!(lines.len(), 1, "{message}: one line\n{summary}");
        assert!(lines[0].contains(expected), "{message}: {}", lines[0]);
        assert!(
            lines[0].contains("`post`") && lines[0].contains("workflow_run"),
            "{}",
            lines[0]
        );
        assert!(
            stdout.contains("::warning title=cargo-speedup::"),
            "{message}: {stdout}"
        );
    }

    // From the `post` workflow itself, the way to a comment is that workflow's permission.
    let home = Home::new();
    refusing_gh(
        &home,
        "Resource not accessible by integration (HTTP 403)",
        false,
    );
    let (status, _, summary) = comment_step(&home, &[("SPEEDUP_FROM_POST", "true")]);
    assert_eq!(status, 0);
    assert!(summary.contains("pull-requests: write"), "{summary}");
    assert!(!summary.contains("workflow_run"), "{summary}");
}
