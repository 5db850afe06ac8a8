//! A copy of the user's working tree under `<target>/speedup/worktrees/`, for a measurement that must
//! change a file before building it (a bench file's own settings, `bench_settings`) while the working tree
//! is a side: the user's files are never written, so the change is made in the copy and the copy is built.
//!
//! What is copied is what git sees of the working tree, as a committed side's worktree holds what git has:
//! the tracked files as they are now (uncommitted changes included, deleted ones left out), the tracked
//! files of checked-out submodules, and the untracked files that are not ignored; with their permissions,
//! and symbolic links as links. Ignored files (the target directory among them) are not. The copy is
//! removed when dropped, and, under `worktrees/`, by the next run if this one is killed (`leftovers`).
//!
//! Must not: write outside its directory, or follow a link when writing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::measure::{MeasureError, process};

/// A copy of a working tree, removed when dropped.
#[derive(Debug)]
pub(crate) struct TreeCopy {
    pub path: PathBuf,
}

impl TreeCopy {
    /// Copies the working tree of the repository at `root` to `path` (cleared first).
    pub(crate) fn make(root: &Path, path: PathBuf) -> Result<TreeCopy, MeasureError> {
        if path.exists() {
            std::fs::remove_dir_all(&path)
                .map_err(MeasureError::io("clearing an earlier copy", &path))?;
        }
        std::fs::create_dir_all(&path)
            .map_err(MeasureError::io("copying the working tree", &path))?;
        // From here on the copy goes away on error too.
        let copy = TreeCopy { path };
        let mut files = listed(root, &["--cached", "--recurse-submodules"])?;
        files.extend(listed(root, &["--others", "--exclude-standard"])?);
        files.sort();
        files.dedup();
        for file in files {
            copy_one(&root.join(&file), &copy.path.join(&file))?;
        }
        Ok(copy)
    }
}

impl Drop for TreeCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// `git ls-files -z ARGS` in `root`: paths relative to it.
fn listed(root: &Path, args: &[&str]) -> Result<Vec<String>, MeasureError> {
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .args(args);
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(MeasureError::Git {
            command: process::describe(&command),
            stderr: out.stderr_text(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect())
}

/// Copies `from` to `to`: a file with its permissions, a link as a link, a directory (an uninitialised
/// submodule) as an empty one; nothing when `from` is gone (deleted in the working tree).
fn copy_one(from: &Path, to: &Path) -> Result<(), MeasureError> {
    let Ok(meta) = std::fs::symlink_metadata(from) else {
        return Ok(());
    };
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(MeasureError::io("copying the working tree", parent))?;
    }
    let copied = if meta.file_type().is_symlink() {
        link(from, to)
    } else if meta.is_dir() {
        std::fs::create_dir_all(to)
    } else {
        std::fs::copy(from, to).map(|_| ())
    };
    copied.map_err(MeasureError::io("copying the working tree", from))
}

#[cfg(unix)]
fn link(from: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(std::fs::read_link(from)?, to)
}

#[cfg(not(unix))]
fn link(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::copy(from, to).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let status = Command::new("git")
            .args([
                "-c",
                "user.name=T",
                "-c",
                "user.email=t@e",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
    }

    #[test]
    fn the_copy_holds_what_git_sees_as_it_is_now_and_goes_away() {
        let repo = tempfile::tempdir().unwrap();
        let root = repo.path();
        git(root, &["init", "-q"]);
        let write = |p: &str, text: &str| {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(".gitignore", "target\n*.log\n");
        write("src/lib.rs", "committed");
        write("gone.rs", "deleted later");
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", "one"]);
        write("src/lib.rs", "changed, not committed");
        write("benches/new.rs", "untracked");
        write("target/big", "ignored");
        write("run.log", "ignored");
        std::fs::remove_file(root.join("gone.rs")).unwrap();
        let before = std::fs::read(root.join("src/lib.rs")).unwrap();

        let out = tempfile::tempdir().unwrap();
        let path = out.path().join("worktrees/head-working-tree");
        let copy = TreeCopy::make(root, path.clone()).unwrap();
        let read = |p: &str| std::fs::read_to_string(path.join(p)).ok();
        assert_eq!(
            read("src/lib.rs").as_deref(),
            Some("changed, not committed")
        );
        assert_eq!(read("benches/new.rs").as_deref(), Some("untracked"));
        assert_eq!(read(".gitignore").as_deref(), Some("target\n*.log\n"));
        assert_eq!(read("gone.rs"), None);
        assert_eq!(read("target/big"), None);
        assert_eq!(read("run.log"), None);
        assert!(!path.join(".git").exists());
        assert_eq!(std::fs::read(root.join("src/lib.rs")).unwrap(), before);
        drop(copy);
        assert!(!path.exists());
    }
}
