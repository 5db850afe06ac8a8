//! The GitHub Action's own steps, run outside GitHub on a temporary repository with real criterion
//! benchmarks: a pull request that makes one benchmark five times slower must fail under `fail-on: any`,
//! with the Markdown table in the job summary, the verdict in the outputs and an error annotation; and the
//! inputs GitHub cannot compare (a shallow clone, a missing base, an event without a pull request) must fail
//! with one clear annotation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::action_runner::{ActionRun, Contexts, run_action};
use crate::support::{commit, git, repository, serial, shared_target, write_criterion_crate};

/// A home directory whose install root already holds this build of cargo-speedup (the action's cache-hit
/// path), with cargo and rustup still found where they are.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().expect("home");
        let bin = dir.path().join(".cache/cargo-speedup/bin");
        std::fs::create_dir_all(&bin).expect("install root");
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_cargo-speedup"),
            bin.join("cargo-speedup"),
        )
        .expect("link the binary");
        Home { dir }
    }

    fn env(&self) -> Vec<(String, String)> {
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

fn action_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn contexts(
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
fn pull_request_repository() -> (tempfile::TempDir, String, String) {
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

fn run(repo: &Path, contexts: Contexts) -> ActionRun {
    run_action(&action_dir(), repo, contexts)
}

#[test]
fn pull_request_with_a_regression_fails_with_the_table_in_the_summary() {
    let _serial = serial();
    let (repo, base, head) = pull_request_repository();
    let temp = tempfile::tempdir().expect("runner temp");
    let home = Home::new();
    let args = "--warm-up-time 0.1 --measurement-time 0.3 --sample-size 20 --rounds 2";
    let contexts = contexts(
        &home,
        temp.path(),
        &[("fail-on", "any"), ("args", args)],
        &[
            ("event_name", "pull_request"),
            ("base_ref", "main"),
            ("event.pull_request.base.sha", &base),
            ("event.pull_request.number", "7"),
            ("sha", &head),
            ("repository", "example/demo"),
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
            .contains("::error title=cargo-speedup::changed is slower"),
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
    assert_eq!(
        git(repo.path(), &["rev-parse", "HEAD"]).trim(),
        head,
        "HEAD untouched"
    );
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
