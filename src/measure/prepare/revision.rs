//! The revisions to compare, as git spells them: `BASE..HEAD` (the two tips), `BASE...HEAD` (the merge-base of
//! both against HEAD, as `git diff A...B` does) and a single `BASE` (against the working tree as it is, with
//! uncommitted changes). Parsing is pure; resolving to commits asks git (`git rev-parse --verify`), and
//! a revision git does not know is told apart from a repository with no commits and from a shallow clone
//! whose history stops before it.
//! This module must not touch the working tree.

use crate::measure::MeasureError;
use crate::measure::git::Git;
use crate::measure::project::Project;

/// What the user wrote, split but not yet resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RevisionSpec {
    /// `BASE..HEAD`: the two tips.
    Range {
        /// BASE as written (`HEAD` when empty).
        base: String,
        /// HEAD as written (`HEAD` when empty).
        head: String,
    },
    /// `BASE...HEAD`: merge-base(BASE, HEAD) against HEAD.
    Symmetric {
        /// BASE as written (`HEAD` when empty).
        base: String,
        /// HEAD as written (`HEAD` when empty).
        head: String,
    },
    /// `BASE`: against the working tree as it is.
    WorkingTree {
        /// The revision measured against the working tree.
        base: String,
    },
}

impl RevisionSpec {
    /// Splits `text` at `...` or `..`. An empty side means `HEAD`, as in git (`main..` is `main..HEAD`);
    /// both sides empty, or more than one range operator, is an error.
    pub(crate) fn parse(text: &str) -> Result<RevisionSpec, MeasureError> {
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

/// What one side is built from: a commit, or the working tree as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Checkout {
    Commit {
        /// What the user wrote (or `merge-base(A, B)`), for messages.
        name: String,
        sha: String,
    },
    WorkingTree,
}

impl Checkout {
    /// `main (1a2b3c4d)` or `working tree`.
    pub(crate) fn label(&self) -> String {
        match self {
            Checkout::Commit { name, sha } => format!("{name} ({})", short(sha)),
            Checkout::WorkingTree => "working tree".to_string(),
        }
    }
}

/// The first 10 hex digits of a sha.
pub(crate) fn short(sha: &str) -> &str {
    sha.get(..10).unwrap_or(sha)
}

/// Resolves both sides to commits (the working tree stays as it is).
pub(crate) fn resolve(
    git: &Git,
    spec: &RevisionSpec,
) -> Result<(Checkout, Checkout), MeasureError> {
    match spec {
        RevisionSpec::Range { base, head } => Ok((commit(git, base)?, commit(git, head)?)),
        RevisionSpec::Symmetric { base, head } => {
            let (b, h) = (commit_sha(git, base)?, commit_sha(git, head)?);
            let merge_base = git.output(&["merge-base", &b, &h]).map_err(|_| {
                if git.is_shallow() {
                    MeasureError::ShallowMergeBase {
                        base: base.clone(),
                        head: head.clone(),
                        root: git.root.clone(),
                    }
                } else {
                    MeasureError::NoMergeBase {
                        base: base.clone(),
                        head: head.clone(),
                    }
                }
            })?;
            let name = format!("merge-base({base}, {head})");
            Ok((
                Checkout::Commit {
                    name,
                    sha: merge_base,
                },
                Checkout::Commit {
                    name: head.clone(),
                    sha: h,
                },
            ))
        }
        RevisionSpec::WorkingTree { base } => Ok((commit(git, base)?, Checkout::WorkingTree)),
    }
}

/// Checks the revisions of `cargo speedup race` before anything is resolved: at least two, at most
/// `max`.
pub(crate) fn check_race_names(names: &[String], max: usize) -> Result<(), MeasureError> {
    match names {
        [] => Err(MeasureError::RaceTooFew {
            given: "none was given".into(),
        }),
        [only] => Err(MeasureError::RaceTooFew {
            given: format!("only `{only}` was given"),
        }),
        _ if names.len() > max => Err(MeasureError::RaceTooMany {
            count: names.len(),
            max,
        }),
        _ => Ok(()),
    }
}

/// Checks that no commit is named twice in a race (`main` and its sha, a tag and its branch).
pub(crate) fn check_race_distinct(sides: &[Checkout]) -> Result<(), MeasureError> {
    for (i, side) in sides.iter().enumerate() {
        let Checkout::Commit { name, sha } = side else {
            if sides[..i].contains(&Checkout::WorkingTree) {
                return Err(MeasureError::RaceWorkingTreeTwice);
            }
            continue;
        };
        if let Some(Checkout::Commit { name: first, .. }) = sides[..i]
            .iter()
            .find(|s| matches!(s, Checkout::Commit { sha: other, .. } if other == sha))
        {
            return Err(MeasureError::RaceRepeated {
                first: first.clone(),
                second: name.clone(),
                sha: short(sha).to_string(),
            });
        }
    }
    Ok(())
}

/// How a race names the working tree as it is, uncommitted changes included: no git revision is spelt so.
pub(crate) const WORKING_TREE: &str = ".";

/// Resolves every revision of a race to a commit, or to the working tree for [`WORKING_TREE`], and checks
/// that none is named twice.
pub(crate) fn resolve_race(git: &Git, names: &[String]) -> Result<Vec<Checkout>, MeasureError> {
    let sides = names
        .iter()
        .map(|name| match name.trim() {
            WORKING_TREE => Ok(Checkout::WorkingTree),
            _ => commit(git, name),
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_race_distinct(&sides)?;
    Ok(sides)
}

fn commit(git: &Git, revision: &str) -> Result<Checkout, MeasureError> {
    Ok(Checkout::Commit {
        name: revision.to_string(),
        sha: commit_sha(git, revision)?,
    })
}

pub(crate) fn commit_sha(git: &Git, revision: &str) -> Result<String, MeasureError> {
    let spelled = format!("{revision}^{{commit}}");
    git.output(&[
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        &spelled,
    ])
    .map_err(|_| unknown(git, revision))
}

/// Why git does not know `revision`: the repository has no commits at all, or is a shallow clone whose
/// history may not reach it, or neither.
fn unknown(git: &Git, revision: &str) -> MeasureError {
    let revision = revision.to_string();
    let root = git.root.clone();
    if git.has_no_commits() {
        MeasureError::NoCommits { root, revision }
    } else if git.is_shallow() {
        MeasureError::ShallowRevision { revision, root }
    } else {
        MeasureError::UnknownRevision { revision }
    }
}

/// What HEAD is when it is the working tree with uncommitted changes: the working tree's state is said only
/// when the working tree is compared (`main..feature` leaves it out and says nothing of it). Said once, in
/// the report (HEAD's notes).
pub(crate) fn tell_about_the_tree(
    project: &Project,
    head: &Checkout,
) -> Result<Vec<String>, MeasureError> {
    let mut notes = Vec::new();
    if *head == Checkout::WorkingTree && project.git()?.is_dirty()? {
        notes.push("HEAD is the working tree as it is now, uncommitted changes included".into());
    }
    Ok(notes)
}

/// The note of a comparison of one commit with itself that ran its benchmarks (an A/A test: what differs is
/// the machine's noise); `None` for two commits, or when nothing ran (identical executables are reported
/// unchanged without running, and there is no noise to speak of).
pub(crate) fn same_commit_note(base: &Checkout, head: &Checkout, ran: bool) -> Option<String> {
    match (base, head) {
        (Checkout::Commit { sha: b, .. }, Checkout::Commit { sha: h, .. }) if b == h && ran => {
            Some(format!(
                "BASE and HEAD are the same commit ({}): any difference found is the machine's noise",
                short(b)
            ))
        }
        _ => None,
    }
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
    fn noise_is_spoken_of_only_where_one_commit_ran_against_itself() {
        let commit = |name: &str, sha: &str| Checkout::Commit {
            name: name.into(),
            sha: sha.into(),
        };
        let sha = "0123456789abcdef0123456789abcdef01234567";
        let main = commit("main", sha);
        let note = same_commit_note(&main, &commit("HEAD", sha), true).expect("an A/A test");
        assert!(
            note.starts_with("BASE and HEAD are the same commit (0123456789)"),
            "{note}"
        );
        assert!(note.contains("noise"), "{note}");
        // Nothing ran (identical executables): no word of noise.
        assert_eq!(same_commit_note(&main, &main, false), None);
        let other = commit("feature", "fedcba9876543210fedcba9876543210fedcba98");
        assert_eq!(same_commit_note(&main, &other, true), None);
        assert_eq!(same_commit_note(&main, &Checkout::WorkingTree, true), None);
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
    fn a_race_of_fewer_than_two_revisions_says_how_to_name_them() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for given in [names(&[]), names(&["main"])] {
            let error = check_race_names(&given, 999).unwrap_err().to_string();
            assert!(error.contains("at least two revisions"), "{error}");
            assert!(
                error.contains("hint: name every competing revision: `cargo speedup race main"),
                "{error}"
            );
        }
        assert!(
            check_race_names(&names(&["main"]), 999)
                .unwrap_err()
                .to_string()
                .contains("only `main` was given")
        );
        assert!(check_race_names(&names(&["a", "b"]), 999).is_ok());
        assert!(matches!(
            check_race_names(&names(&["a", "b", "c"]), 2),
            Err(MeasureError::RaceTooMany { count: 3, max: 2 })
        ));
    }

    #[test]
    fn a_commit_named_twice_in_a_race_is_refused_with_both_names() {
        let side = |name: &str, sha: &str| Checkout::Commit {
            name: name.into(),
            sha: sha.into(),
        };
        let sha = "0123456789abcdef0123";
        let sides = [
            side("main", sha),
            side("feature", "fedcba9876543210fedc"),
            side("0123456", sha),
        ];
        let error = check_race_distinct(&sides).unwrap_err().to_string();
        assert!(
            error.starts_with("`main` and `0123456` name the same commit (0123456789)"),
            "{error}"
        );
        assert!(error.contains("hint: name each commit once"), "{error}");
        assert!(check_race_distinct(&sides[..2]).is_ok());
    }

    #[test]
    fn the_working_tree_races_once() {
        let main = Checkout::Commit {
            name: "main".into(),
            sha: "0123456789abcdef0123".into(),
        };
        assert!(check_race_distinct(&[main.clone(), Checkout::WorkingTree]).is_ok());
        let error =
            check_race_distinct(&[Checkout::WorkingTree, main, Checkout::WorkingTree]).unwrap_err();
        assert!(
            matches!(error, MeasureError::RaceWorkingTreeTwice),
            "{error}"
        );
        assert!(
            error
                .to_string()
                .contains("`.` (the working tree) is named twice")
        );
    }

    #[test]
    fn labels_show_a_short_sha() {
        let side = Checkout::Commit {
            name: "main".into(),
            sha: "0123456789abcdef0123".into(),
        };
        assert_eq!(side.label(), "main (0123456789)");
        assert_eq!(Checkout::WorkingTree.label(), "working tree");
    }
}
