//! The revisions to compare, as git spells them: `BASE..HEAD` (the two tips), `BASE...HEAD` (the merge-base of
//! both against HEAD, as `git diff A...B` does) and a single `BASE` (against the working tree as it is, with
//! uncommitted changes). Parsing is pure; resolving to commits asks git (`git rev-parse --verify`).
//! This module must not touch the working tree.

use super::MeasureError;
use super::git::Git;

/// What the user wrote, split but not yet resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RevisionSpec {
    /// `BASE..HEAD`: the two tips.
    Range { base: String, head: String },
    /// `BASE...HEAD`: merge-base(BASE, HEAD) against HEAD.
    Symmetric { base: String, head: String },
    /// `BASE`: against the working tree as it is.
    WorkingTree { base: String },
}

impl RevisionSpec {
    /// Splits `text` at `...` or `..`. An empty side means `HEAD`, as in git (`main..` is `main..HEAD`);
    /// both sides empty, or more than one range operator, is an error.
    pub fn parse(text: &str) -> Result<RevisionSpec, MeasureError> {
        let bad = |why: &str| MeasureError::RevisionSyntax {
            text: text.to_string(),
            why: why.to_string(),
        };
        let text_trimmed = text.trim();
        if text_trimmed.is_empty() {
            return Err(bad("it is empty"));
        }
        let (operator, symmetric) = if text_trimmed.contains("...") {
            ("...", true)
        } else if text_trimmed.contains("..") {
            ("..", false)
        } else {
            return Ok(RevisionSpec::WorkingTree {
                base: text_trimmed.to_string(),
            });
        };
        let (left, right) = text_trimmed
            .split_once(operator)
            .ok_or_else(|| bad("no range operator"))?;
        if right.contains("..") || left.contains("..") {
            return Err(bad("it has more than one `..`"));
        }
        if left.ends_with('.') || right.starts_with('.') {
            return Err(bad(
                "it has dots in odd places: write BASE..HEAD or BASE...HEAD",
            ));
        }
        if left.is_empty() && right.is_empty() {
            return Err(bad("both sides of the range are empty"));
        }
        let side = |s: &str| {
            if s.is_empty() {
                "HEAD".to_string()
            } else {
                s.to_string()
            }
        };
        let (base, head) = (side(left), side(right));
        Ok(if symmetric {
            RevisionSpec::Symmetric { base, head }
        } else {
            RevisionSpec::Range { base, head }
        })
    }
}

/// One side to measure: a commit, or the working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Side {
    Commit {
        /// What the user wrote (or `merge-base(A, B)`), for messages.
        name: String,
        sha: String,
    },
    WorkingTree,
}

impl Side {
    /// `main (1a2b3c4d)` or `working tree`.
    pub fn label(&self) -> String {
        match self {
            Side::Commit { name, sha } => format!("{name} ({})", short(sha)),
            Side::WorkingTree => "working tree".to_string(),
        }
    }
}

/// The first 10 hex digits of a sha.
pub fn short(sha: &str) -> &str {
    sha.get(..10).unwrap_or(sha)
}

/// Resolves both sides to commits (the working tree stays as it is).
pub fn resolve(git: &Git, spec: &RevisionSpec) -> Result<(Side, Side), MeasureError> {
    match spec {
        RevisionSpec::Range { base, head } => Ok((commit(git, base)?, commit(git, head)?)),
        RevisionSpec::Symmetric { base, head } => {
            let (b, h) = (commit_sha(git, base)?, commit_sha(git, head)?);
            let merge_base =
                git.output(&["merge-base", &b, &h])
                    .map_err(|_| MeasureError::NoMergeBase {
                        base: base.clone(),
                        head: head.clone(),
                    })?;
            let name = format!("merge-base({base}, {head})");
            Ok((
                Side::Commit {
                    name,
                    sha: merge_base,
                },
                Side::Commit {
                    name: head.clone(),
                    sha: h,
                },
            ))
        }
        RevisionSpec::WorkingTree { base } => Ok((commit(git, base)?, Side::WorkingTree)),
    }
}

fn commit(git: &Git, revision: &str) -> Result<Side, MeasureError> {
    Ok(Side::Commit {
        name: revision.to_string(),
        sha: commit_sha(git, revision)?,
    })
}

fn commit_sha(git: &Git, revision: &str) -> Result<String, MeasureError> {
    let spelled = format!("{revision}^{{commit}}");
    git.output(&[
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        &spelled,
    ])
    .map_err(|_| MeasureError::UnknownRevision {
        revision: revision.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(base: &str, head: &str) -> RevisionSpec {
        RevisionSpec::Range {
            base: base.into(),
            head: head.into(),
        }
    }

    #[test]
    fn two_dots_are_the_two_tips() {
        assert_eq!(
            RevisionSpec::parse("main..feature").unwrap(),
            range("main", "feature")
        );
    }

    #[test]
    fn three_dots_are_the_merge_base_form() {
        assert_eq!(
            RevisionSpec::parse("main...feature").unwrap(),
            RevisionSpec::Symmetric {
                base: "main".into(),
                head: "feature".into()
            }
        );
    }

    #[test]
    fn a_single_revision_is_compared_with_the_working_tree() {
        assert_eq!(
            RevisionSpec::parse("HEAD~1").unwrap(),
            RevisionSpec::WorkingTree {
                base: "HEAD~1".into()
            }
        );
    }

    #[test]
    fn an_empty_side_means_head_as_in_git() {
        assert_eq!(
            RevisionSpec::parse("main..").unwrap(),
            range("main", "HEAD")
        );
        assert_eq!(
            RevisionSpec::parse("..topic").unwrap(),
            range("HEAD", "topic")
        );
    }

    #[test]
    fn odd_dots_are_rejected_with_the_text() {
        for text in ["..", "...", "a..b..c", "a...b..c", "a....b", "", "  "] {
            match RevisionSpec::parse(text) {
                Err(MeasureError::RevisionSyntax { text: t, .. }) => assert_eq!(t, text),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn labels_show_a_short_sha() {
        let side = Side::Commit {
            name: "main".into(),
            sha: "0123456789abcdef0123".into(),
        };
        assert_eq!(side.label(), "main (0123456789)");
        assert_eq!(Side::WorkingTree.label(), "working tree");
    }
}
