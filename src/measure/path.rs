//! The commits `cargo speedup bisect` searches: the first-parent path from GOOD to BAD, as git lists it
//! (`git rev-list --first-parent --reverse GOOD..BAD`), each with its subject line. Asks git only; must not
//! touch the working tree, build or run anything, or decide whether the range can be bisected (that is the
//! caller's).

use std::path::Path;

use super::MeasureError;
use super::prepare::revision::commit_sha;
use super::project::Project;

/// One commit of the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathCommit {
    /// Its full sha.
    pub sha: String,
    /// Its subject line (the first line of its message).
    pub subject: String,
}

/// GOOD, BAD and the first-parent path between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FirstParentPath {
    /// GOOD, as resolved.
    pub good: PathCommit,
    /// BAD, as resolved.
    pub bad: PathCommit,
    /// Whether GOOD is an ancestor of BAD (`git merge-base --is-ancestor`); when it is not, `commits` is
    /// what `GOOD..BAD` lists anyway, which is not a path from GOOD.
    pub ancestor: bool,
    /// The commits after GOOD up to BAD included, oldest first, following first parents only.
    pub commits: Vec<PathCommit>,
}

/// Resolves GOOD and BAD in the project's repository and lists the first-parent path between them.
pub(crate) fn first_parent_path(
    manifest_path: Option<&Path>,
    good: &str,
    bad: &str,
) -> Result<FirstParentPath, MeasureError> {
    let project = Project::discover(manifest_path, true)?;
    let git = project.git()?;
    let good_sha = commit_sha(git, good)?;
    let bad_sha = commit_sha(git, bad)?;
    let subject = |sha: &str| git.output(&["log", "-1", "--format=%s", sha, "--"]);
    // `--is-ancestor` answers by its exit status only: a failure is "no".
    let ancestor = git
        .output(&["merge-base", "--is-ancestor", &good_sha, &bad_sha])
        .is_ok();
    let listed = git.output(&[
        "log",
        "--first-parent",
        "--reverse",
        "--format=%H %s",
        &format!("{good_sha}..{bad_sha}"),
        "--",
    ])?;
    let commits = listed
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (sha, subject) = line.split_once(' ').unwrap_or((line, ""));
            PathCommit {
                sha: sha.to_string(),
                subject: subject.to_string(),
            }
        })
        .collect();
    Ok(FirstParentPath {
        good: PathCommit {
            subject: subject(&good_sha)?,
            sha: good_sha,
        },
        bad: PathCommit {
            subject: subject(&bad_sha)?,
            sha: bad_sha,
        },
        ancestor,
        commits,
    })
}
