//! Where things are: the user's manifest (relative to the repository root, so that it can be found again
//! inside a worktree), cargo's target directory, and our own directory `<target>/speedup/` that holds every
//! file we write (worktrees, the shared build directory, criterion homes, cache, lock). Nothing is written
//! anywhere else.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::git::Git;
use super::{MeasureError, process};

/// The project being measured.
#[derive(Debug, Clone)]
pub(super) struct Project {
    /// The repository, when there is one (`record` does not need it).
    git: Option<Git>,
    /// The repository's top-level directory, or the manifest's directory outside git.
    pub root: PathBuf,
    /// The manifest, relative to `root`.
    pub manifest: PathBuf,
    /// cargo's target directory for the user's tree (`cargo metadata`'s `target_directory`).
    pub target_dir: PathBuf,
}

impl Project {
    /// Finds the manifest (`--manifest-path`, else the nearest Cargo.toml, as cargo does), its repository and
    /// its target directory. Without a repository it fails only when `needs_git`.
    pub(super) fn discover(
        manifest_path: Option<&Path>,
        needs_git: bool,
    ) -> Result<Project, MeasureError> {
        let cwd = std::env::current_dir().map_err(|source| MeasureError::Io {
            what: "reading the current directory",
            path: PathBuf::from("."),
            error: source,
        })?;
        let manifest = match manifest_path {
            Some(p) => cwd.join(p),
            None => locate_manifest(&cwd)?,
        };
        let manifest = manifest
            .canonicalize()
            .map_err(|_| MeasureError::NoManifest {
                revision: "the working tree".into(),
                path: manifest.clone(),
            })?;
        let manifest_dir = manifest.parent().unwrap_or(&cwd).to_path_buf();
        // The repository of the manifest, which --manifest-path may place outside the current directory's.
        let git = match Git::discover(&manifest_dir) {
            Ok(git) => Some(git),
            Err(MeasureError::NotGitRepository { .. }) if !needs_git => None,
            Err(e) => return Err(e),
        };
        let root = match &git {
            Some(git) => git.root.canonicalize().unwrap_or_else(|_| git.root.clone()),
            None => manifest_dir,
        };
        let relative = manifest
            .strip_prefix(&root)
            .map_err(|_| MeasureError::ManifestOutsideRepository {
                manifest: manifest.clone(),
                root: root.clone(),
            })?
            .to_path_buf();
        let target_dir = target_directory(&manifest)?;
        Ok(Project {
            git: git.map(|_| Git { root: root.clone() }),
            root,
            manifest: relative,
            target_dir,
        })
    }

    /// The repository, or the error saying there is none.
    pub(super) fn git(&self) -> Result<&Git, MeasureError> {
        self.git
            .as_ref()
            .ok_or_else(|| MeasureError::NotGitRepository {
                path: self.root.clone(),
            })
    }

    /// `<target>/speedup`: every file this tool writes.
    pub(super) fn speedup_dir(&self) -> PathBuf {
        self.target_dir.join("speedup")
    }
}

/// The cargo the revisions are built with ([`super::toolchain`]).
pub(super) fn cargo() -> Command {
    super::toolchain::cargo()
}

fn locate_manifest(cwd: &Path) -> Result<PathBuf, MeasureError> {
    let mut command = cargo();
    command
        .args(["locate-project", "--message-format", "plain"])
        .current_dir(cwd);
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(MeasureError::NoManifest {
            revision: "the working tree".into(),
            path: cwd.join("Cargo.toml"),
        });
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// `cargo metadata --no-deps --format-version 1 --manifest-path MANIFEST`: the workspace's own packages,
/// without resolving dependencies.
pub(super) fn metadata_command(manifest: &Path) -> Command {
    let mut command = cargo();
    command
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .arg("--manifest-path")
        .arg(manifest);
    command
}

fn target_directory(manifest: &Path) -> Result<PathBuf, MeasureError> {
    let mut command = metadata_command(manifest);
    let out = process::capture(&mut command)?;
    let failed = |detail: String| MeasureError::Cargo {
        command: process::describe(&command),
        stderr: detail,
    };
    if !out.status.success() {
        return Err(failed(out.stderr_text()));
    }
    let metadata: cargo_metadata::Metadata =
        serde_json::from_slice(&out.stdout).map_err(|e| failed(e.to_string()))?;
    Ok(metadata.target_directory.into_std_path_buf())
}

/// The criterion home of the package in the current directory when neither `CRITERION_HOME` nor
/// `CARGO_TARGET_DIR` says it: `cargo metadata`'s `target_directory/criterion`; `None` when cargo cannot
/// tell (no manifest here, cargo missing).
pub(crate) fn criterion_home() -> Option<PathBuf> {
    super::toolchain::metadata()
        .no_deps()
        .exec()
        .ok()
        .map(|m| m.target_directory.join("criterion").into_std_path_buf())
}

/// The directories of the workspace's packages that have a bench target (every package's when none has
/// one), for `cargo metadata` run here: cargo runs a bench in its package's directory, so a relative
/// `CRITERION_HOME` or `CARGO_TARGET_DIR` is resolved there by criterion (`docs/formats.md` §1.1). Empty
/// when cargo cannot tell (no manifest here, cargo missing).
pub(crate) fn bench_package_dirs() -> Vec<PathBuf> {
    let Ok(metadata) = super::toolchain::metadata().no_deps().exec() else {
        return Vec::new();
    };
    let dir = |p: &cargo_metadata::Package| {
        p.manifest_path
            .parent()
            .map(|d| d.to_path_buf().into_std_path_buf())
    };
    let members = metadata.workspace_packages();
    let benches: Vec<PathBuf> = members
        .iter()
        .filter(|p| {
            p.targets
                .iter()
                .any(|t| t.is_kind(cargo_metadata::TargetKind::Bench))
        })
        .filter_map(|p| dir(p))
        .collect();
    if benches.is_empty() {
        members.iter().filter_map(|p| dir(p)).collect()
    } else {
        benches
    }
}
