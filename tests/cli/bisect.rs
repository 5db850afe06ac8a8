//! CLI tests of what `cargo speedup bisect` says about ranges it cannot search: GOOD not an ancestor of
//! BAD, GOOD and BAD the same commit, a range of one commit, a range that is not GOOD..BAD, an unknown
//! revision. Each makes a tiny git repository (nothing is built: the range is refused first, and
//! `target/speedup` is not created).

use std::path::Path;

use crate::repos::{commit, git, repository, write};
use crate::revisions::MANIFEST;
use crate::support::run_in;

/// A repository of three commits on the main line (`one`, `two`, `three`) and one on a side branch
/// (`side`, from `one`).
fn history() -> tempfile::TempDir {
    let repo = repository();
    let dir = repo.path();
    for (n, subject) in ["one", "two", "three"].iter().enumerate() {
        write(
            dir,
            &[
                ("Cargo.toml", MANIFEST),
                ("src/lib.rs", &format!("// {n}\n")),
            ],
        );
        commit(dir, subject);
        git(dir, &["tag", subject]);
    }
    git(dir, &["checkout", "-q", "-b", "side", "one"]);
    write(dir, &[("src/lib.rs", "// side\n")]);
    commit(dir, "side");
    git(dir, &["checkout", "-q", "-"]);
    repo
}

fn sha(dir: &Path, revision: &str) -> String {
    git(dir, &["rev-parse", "--short=10", revision])
        .trim()
        .to_string()
}

fn refused(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["bisect"];
    all.extend_from_slice(args);
    let output = run_in(dir, &all);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        !dir.join("target/speedup").exists(),
        "{args:?} created target/speedup"
    );
    stderr
}

#[test]
fn good_not_an_ancestor_of_bad_is_refused_with_how_to_tell() {
    let repo = history();
    let dir = repo.path();
    assert_eq!(
        refused(dir, &["side", "three"]),
        format!(
            "error: GOOD `side` ({}) is not an ancestor of BAD `three` ({}): there is no path from one to \
             the other to search\nhint: GOOD must be an earlier commit of BAD's history (`git merge-base \
             --is-ancestor side three` tells); swap them if BAD is the older\n",
            sha(dir, "side"),
            sha(dir, "three")
        )
    );
}

#[test]
fn a_range_of_one_commit_or_none_is_refused() {
    let repo = history();
    let dir = repo.path();
    assert_eq!(
        refused(dir, &["two..three"]),
        format!(
            "error: `two..three` holds one commit ({} \"three\"): it is the only one that can have made \
             the change, nothing to bisect\nhint: compare them directly: `cargo speedup two..three`\n",
            sha(dir, "three")
        )
    );
    assert_eq!(
        refused(dir, &["three", "three"]),
        format!(
            "error: GOOD `three` and BAD `three` are the same commit ({}): nothing to bisect\nhint: name \
             the last commit known good and the first known bad\n",
            sha(dir, "three")
        )
    );
}

#[test]
fn a_range_that_is_not_good_bad_is_refused() {
    let repo = history();
    let dir = repo.path();
    let hint = "hint: name the last commit known good and the first known bad: `cargo speedup bisect \
                v1.2.0 HEAD` or `cargo speedup bisect v1.2.0..HEAD`\n";
    assert_eq!(
        refused(dir, &["one...three"]),
        format!("error: `one...three` is not GOOD..BAD\n{hint}")
    );
    assert_eq!(
        refused(dir, &[]),
        format!("error: bisect needs GOOD and BAD\n{hint}")
    );
    assert_eq!(
        refused(dir, &["nope", "three"]),
        "error: unknown revision `nope`\nhint: any commit git knows works: a branch, a tag, a sha, HEAD~1 \
         (`git log --oneline` lists them)\n"
    );
}
