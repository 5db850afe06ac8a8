//! git, as a child process: finding the repository, and temporary worktrees for committed revisions.
//! The user's working tree, index, branches and stash are never written: only `git worktree add --detach`
//! under our own directory, removed again by [`Worktree`]'s `Drop` (also on error and Ctrl-C).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{MeasureError, process};

/// A git repository, addressed by its top-level directory.
#[derive(Debug, Clone)]
pub struct Git {
    pub root: PathBuf,
}

impl Git {
    /// The repository containing `dir`.
    pub fn discover(dir: &Path) -> Result<Git, MeasureError> {
        let mut command = Command::new("git");
        command
            .arg("-C")
            .arg(dir)
            .args(["rev-parse", "--show-toplevel"]);
        let out = process::run(&mut command)?;
        if !out.status.success() {
            return Err(MeasureError::NotGitRepository {
                path: dir.to_path_buf(),
            });
        }
        let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Ok(Git {
            root: PathBuf::from(root),
        })
    }

    /// Runs `git ARGS` in the repository and returns its trimmed stdout, or an error quoting its stderr.
    pub fn output(&self, args: &[&str]) -> Result<String, MeasureError> {
        self.output_with(args, true)
    }

    fn output_with(&self, args: &[&str], stoppable: bool) -> Result<String, MeasureError> {
        let mut command = Command::new("git");
        command.arg("-C").arg(&self.root).args(args);
        let out = if stoppable {
            process::run(&mut command)?
        } else {
            process::run_to_end(&mut command)?
        };
        if !out.status.success() {
            return Err(MeasureError::Git {
                command: process::describe(&command),
                stderr: out.stderr_text(),
            });
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// `git status --porcelain` is not empty (untracked files count, ignored ones do not).
    pub fn is_dirty(&self) -> Result<bool, MeasureError> {
        Ok(!self.output(&["status", "--porcelain"])?.is_empty())
    }
}

/// A detached worktree of one commit, removed (with `git worktree prune`) when dropped.
#[derive(Debug)]
pub struct Worktree {
    git: Git,
    pub path: PathBuf,
}

impl Worktree {
    /// `git worktree add --detach PATH SHA`, after clearing what an earlier, killed run may have left at
    /// PATH; submodules are initialised when the revision has `.gitmodules`.
    pub fn add(git: &Git, sha: &str, path: PathBuf) -> Result<Worktree, MeasureError> {
        if path.exists() {
            remove(git, &path);
        }
        let text = path.to_string_lossy().into_owned();
        if let Err(error) = git.output(&["worktree", "add", "--detach", "--quiet", &text, sha]) {
            // Interrupted or failed half-way: leave neither a directory nor a registered worktree.
            remove(git, &path);
            return Err(error);
        }
        let worktree = Worktree {
            git: git.clone(),
            path,
        };
        if worktree.path.join(".gitmodules").exists() {
            let inner = Git {
                root: worktree.path.clone(),
            };
            inner.output(&["submodule", "update", "--init", "--recursive", "--quiet"])?;
        }
        Ok(worktree)
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        remove(&self.git, &self.path);
    }
}

/// Best effort: a failure here must not hide the error that caused the unwinding.
fn remove(git: &Git, path: &Path) {
    let text = path.to_string_lossy().into_owned();
    let _ = git.output_with(&["worktree", "remove", "--force", "--force", &text], false);
    if path.exists() {
        let _ = std::fs::remove_dir_all(path);
    }
    let _ = git.output_with(&["worktree", "prune"], false);
}
