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

    /// Every file this tool writes for this project: `<target>/speedup` when the target directory is the
    /// project's own (inside its root, as `target/` is); `<target>/speedup/<name>-<hash>` when it lies
    /// outside, where other projects may share it (a global `CARGO_TARGET_DIR`): each project then has its
    /// own worktrees, builds, cache and lock ([`project_dir_name`], `docs/usage.md` §1).
    pub(super) fn speedup_dir(&self) -> PathBuf {
        let shared = self.target_dir.join("speedup");
        match self.owns_target_dir() {
            true => shared,
            false => shared.join(project_dir_name(&self.root)),
        }
    }

    /// `<target>/speedup`, where earlier versions wrote every project's files, when this project's are now
    /// in a directory of their own ([`Project::speedup_dir`]): `clean` still finds what they left there.
    pub(super) fn shared_speedup_dir(&self) -> Option<PathBuf> {
        (!self.owns_target_dir()).then(|| self.target_dir.join("speedup"))
    }

    /// Whether the target directory lies inside the project's root (symbolic links resolved).
    fn owns_target_dir(&self) -> bool {
        let target = self
            .target_dir
            .canonicalize()
            .unwrap_or_else(|_| self.target_dir.clone());
        target.starts_with(&self.root) || self.target_dir.starts_with(&self.root)
    }
}

/// The directory of one project under a shared `<target>/speedup/`: the last component of its root (letters,
/// digits, `.`, `_` and `-` kept, anything else `_`, at most 40 characters) for the reader, and the FNV-1a-64
/// of the root's full path for uniqueness, as cargo keeps builds apart by a hash: `myproj-0123456789abcdef`.
pub(super) fn project_dir_name(root: &Path) -> String {
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                true => c,
                false => '_',
            },
        )
        .take(40)
        .collect();
    let name = match name.trim_start_matches('.') {
        "" => "project",
        name => name,
    };
    let hash = crate::partition::fnv1a64(root.as_os_str().as_encoded_bytes());
    format!("{name}-{hash:016x}")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_dir_names_the_root_and_hashes_its_path() {
        // FNV-1a-64 of the 14 bytes "/home/u/my app", computed by hand from the published algorithm
        // (offset basis 0xcbf29ce484222325, prime 0x100000001b3) in the test below.
        let root = Path::new("/home/u/my app");
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in b"/home/u/my app" {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        assert_eq!(project_dir_name(root), format!("my_app-{hash:016x}"));
        assert_ne!(
            project_dir_name(Path::new("/home/v/my app")),
            project_dir_name(root)
        );
        assert!(project_dir_name(Path::new("/")).starts_with("project-"));
        assert!(project_dir_name(Path::new("/x/..hidden/../../etc")).starts_with("etc-"));
        assert!(project_dir_name(Path::new("/x/.git")).starts_with("git-"));
    }

    fn project(root: &str, target: &str) -> Project {
        Project {
            git: None,
            root: PathBuf::from(root),
            manifest: PathBuf::from("Cargo.toml"),
            target_dir: PathBuf::from(target),
        }
    }

    #[test]
    fn a_target_directory_of_its_own_keeps_target_speedup_and_a_shared_one_a_directory_per_project()
    {
        let own = project("/nonexistent/a", "/nonexistent/a/target");
        assert_eq!(
            own.speedup_dir(),
            Path::new("/nonexistent/a/target/speedup")
        );
        assert_eq!(own.shared_speedup_dir(), None);
        let (a, b) = (
            project("/nonexistent/a", "/nonexistent/shared"),
            project("/nonexistent/b", "/nonexistent/shared"),
        );
        assert_ne!(a.speedup_dir(), b.speedup_dir());
        assert_eq!(
            a.speedup_dir(),
            Path::new("/nonexistent/shared/speedup")
                .join(project_dir_name(Path::new("/nonexistent/a")))
        );
        assert_eq!(
            a.shared_speedup_dir().as_deref(),
            Some(Path::new("/nonexistent/shared/speedup"))
        );
    }
}
