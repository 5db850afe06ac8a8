//! CLI tests of what the revision comparison says about revisions git cannot give it: a repository with no
//! commits, and a shallow clone whose history stops before the revision. Each makes a tiny git repository
//! holding a manifest (nothing is built: the revisions fail to resolve first).

use std::path::Path;

use crate::repos::{commit, git, repository, write};
use crate::support::run_in;

/// The manifest of a one-file library crate.
pub(crate) const MANIFEST: &str =
    "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

/// A git repository holding a one-file library crate, nothing committed.
fn crate_repository() -> tempfile::TempDir {
    let repo = repository();
    write(repo.path(), &[("Cargo.toml", MANIFEST), ("src/lib.rs", "")]);
    repo
}

/// Commits everything in `dir`, after writing `content` to `src/lib.rs`.
fn commit_lib(dir: &Path, content: &str) {
    write(dir, &[("src/lib.rs", content)]);
    commit(dir, content);
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_repository_with_no_commits_says_so_and_leaves_nothing() {
    let dir = crate_repository();
    let root = dir.path().canonicalize().expect("canonical");
    for (args, revision) in [
        (&["HEAD"][..], "HEAD"),
        (&["main..HEAD"], "main"),
        (&["race", "main", "."], "main"),
    ] {
        let output = run_in(dir.path(), args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(
            stderr(&output),
            format!(
                "error: the git repository {} has no commits yet: there is no `{revision}` to compare\n\
                 hint: commit first (`git add -A && git commit`); then `cargo speedup HEAD` compares that \
                 commit with the working tree\n",
                root.display()
            ),
            "{args:?}"
        );
        assert!(
            !dir.path().join("target/speedup").exists(),
            "{args:?} created target/speedup"
        );
    }
}

#[test]
fn a_revision_beyond_a_shallow_clones_history_says_to_fetch_it() {
    let origin = crate_repository();
    commit_lib(origin.path(), "// one");
    git(origin.path(), &["branch", "feature"]);
    commit_lib(origin.path(), "// two");
    git(origin.path(), &["checkout", "-q", "feature"]);
    commit_lib(origin.path(), "// three");
    git(origin.path(), &["checkout", "-q", "main"]);
    let clones = tempfile::tempdir().expect("tempdir");
    let url = format!("file://{}", origin.path().display());
    git(
        clones.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            &url,
            "clone",
        ],
    );
    let clone = clones.path().join("clone");
    let root = clone.canonicalize().expect("canonical");

    let output = run_in(&clone, &["HEAD~1..HEAD"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        format!(
            "error: unknown revision `HEAD~1` in a shallow clone: {} holds only the last commits of its \
             history, so `HEAD~1` may exist but was not fetched\n\
             hint: `git fetch --unshallow` fetches the whole history (a branch of the remote also needs \
             `git fetch origin BRANCH`); in GitHub Actions, give actions/checkout `fetch-depth: 0`\n",
            root.display()
        )
    );

    // Both tips were fetched, their merge-base was not.
    let output = run_in(&clone, &["origin/main...origin/feature"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        format!(
            "error: `origin/main` and `origin/feature` have no common ancestor in the commits fetched: {} \
             is a shallow clone, and their merge-base may be older\n\
             hint: `git fetch --unshallow` fetches the whole history; in GitHub Actions, give \
             actions/checkout `fetch-depth: 0`\n",
            root.display()
        )
    );
    assert!(!clone.join("target/speedup").exists());

    // A full clone's unknown revision is only unknown.
    let output = run_in(origin.path(), &["no-such-branch..HEAD"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).starts_with("error: unknown revision `no-such-branch`\nhint: any commit"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_unknown_harness_is_refused_naming_the_value_and_the_choices() {
    let output = crate::support::run(&["HEAD~1..HEAD", "--harness", "bencher"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(
        text.contains("invalid value 'bencher' for '--harness <HARNESS>'")
            && text.contains("[possible values: criterion, divan, libtest]"),
        "{text}"
    );
}

#[test]
fn a_toolchain_rustup_does_not_have_is_refused_before_anything_is_built() {
    let dir = crate_repository();
    commit_lib(dir.path(), "// one");
    commit_lib(dir.path(), "// two");
    let output = run_in(
        dir.path(),
        &["HEAD~1..HEAD", "--toolchain", "+no-such-toolchain-0.0"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    // The `+` of `cargo +NAME` is the same name; rustup is asked, and the message says what to do.
    assert!(
        text.contains("invalid value no-such-toolchain-0.0 for --toolchain: an installed rustup toolchain")
            || text.contains(
                "invalid value no-such-toolchain-0.0 for --toolchain: a rustup toolchain, and rustup is not on the PATH"
            ),
        "{text}"
    );
    assert!(
        !dir.path().join("target").exists(),
        "nothing may be built or locked: {text}"
    );
}

/// `--all-features` is a running option of every measuring command: accepted by each (the repository with
/// no commits stops them all after their options are read), and refused with `--features`, as cargo refuses
/// the two together, before anything is looked at.
#[test]
fn all_features_is_taken_by_every_running_command_and_not_with_features() {
    let dir = crate_repository();
    for command in [
        &["HEAD", "--all-features"][..],
        &["main..HEAD", "--all-features"],
        &["race", "main", ".", "--all-features"],
        &["bisect", "main", "HEAD", "--all-features"],
    ] {
        let output = run_in(dir.path(), command);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {text}");
        assert!(text.contains("has no commits yet"), "{command:?}: {text}");
    }
    let output = run_in(dir.path(), &["record", "--all-features", "--features", "x"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("'--all-features' cannot be used with '--features <FEATURES>'"),
        "{text}"
    );
    assert!(!dir.path().join("target/speedup").exists());
}
