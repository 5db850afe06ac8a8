//! What a killed run left behind. Ctrl-C and errors let the guards remove a run's worktrees
//! (`git::Worktree`'s `Drop`), but SIGKILL, a power loss or a crashed CI runner do not: the worktrees stay
//! under `<target>/speedup/worktrees/`, registered with git (`git worktree list` shows them), until they
//! are removed here.
//!
//! Only a run that holds the lock of `<target>/speedup/` ([`Lock`]) removes them, so the worktrees of a
//! live run are never touched: every measuring run holds that lock from before its first worktree is
//! added until after its last is removed, and the operating system releases a dead process's lock. The lock
//! is the test of liveness, not the process id written in the lock file, which the system may have given
//! to another process since. Every measuring command (a revision comparison, `race`, `record`) cleans
//! when it starts, and `cargo speedup clean` on demand (`--all` removes the whole `<target>/speedup/`).
//!
//! The directory is the project's own (`Project::speedup_dir`): `<target>/speedup/`, or
//! `<target>/speedup/<name>-<hash>/` when the target directory lies outside the project and others may
//! share it. Earlier versions kept every project's files in `<target>/speedup/` itself: there, only the
//! worktrees this project's repository registered are removed (another project's are not its to judge),
//! under that directory's lock; `clean --all` also removes what those versions kept there
//! ([`SHARED_ENTRIES`]).
//!
//! Must not: remove anything outside `<target>/speedup/` (target/criterion, the user's worktrees and
//! branches stay), or anything while another run holds the lock.

use std::path::{Path, PathBuf};

use super::MeasureError;
use super::git::{Git, remove_worktree};
use super::lock::Lock;
use super::project::Project;

/// The worktrees directory under `<target>/speedup/`.
pub(crate) const WORKTREES: &str = "worktrees";

/// Removes the worktrees under `<target>/speedup/worktrees/` (the directories, and git's registration of
/// them, including registrations whose directory is already gone) and returns the paths removed. `_held`
/// proves that this process holds the lock, so that no live run owns them.
pub(crate) fn remove_leftovers(
    project: &Project,
    _held: &Lock,
) -> Result<Vec<PathBuf>, MeasureError> {
    let dir = project.speedup_dir().join(WORKTREES);
    let mut found = directories(&dir)?;
    let git = project.git().ok();
    if let Some(git) = git {
        for path in registered_under(git, &dir) {
            if !found.contains(&path) {
                found.push(path);
            }
        }
    }
    found.sort();
    remove_worktrees(git, &found)?;
    found.extend(remove_shared_leftovers(project));
    Ok(found)
}

/// Removes the worktrees `found` (their directories and git's registrations); an error when one stays.
fn remove_worktrees(git: Option<&Git>, found: &[PathBuf]) -> Result<(), MeasureError> {
    for path in found {
        match git {
            Some(git) => remove_worktree(git, path),
            None => {
                let _ = std::fs::remove_dir_all(path);
            }
        }
        if path.exists() {
            return Err(MeasureError::Io {
                what: "removing a worktree left by a run that was killed",
                path: path.clone(),
                error: std::io::Error::other("it is still there after `git worktree remove`"),
            });
        }
    }
    Ok(())
}

/// The worktrees of this project that earlier versions left in the shared `<target>/speedup/worktrees/`
/// (the ones its repository registered), removed while holding that directory's lock; none when the lock
/// is held (a run of an earlier version is going) or anything fails: best effort, said by the paths
/// returned.
fn remove_shared_leftovers(project: &Project) -> Vec<PathBuf> {
    let (Some(shared), Ok(git)) = (project.shared_speedup_dir(), project.git()) else {
        return vec![];
    };
    let dir = shared.join(WORKTREES);
    if !dir.is_dir() {
        return vec![];
    }
    let mut found = registered_under(git, &dir);
    if found.is_empty() {
        return vec![];
    }
    found.sort();
    let Ok(_lock) = Lock::acquire(&shared) else {
        return vec![];
    };
    for path in &found {
        remove_worktree(git, path);
    }
    found.retain(|path| !path.exists());
    found
}

/// What earlier versions kept in a shared `<target>/speedup/` for every project of the target directory
/// (worktrees, the builds, the kept executables, the runs, the cache, a retired build directory, the lock):
/// nothing reads them now that each project has a directory of its own.
pub(crate) const SHARED_ENTRIES: [&str; 7] = [
    WORKTREES,
    "target",
    "bin",
    "runs",
    "cache",
    RETIRED_TARGET,
    "lock",
];

/// The cargo target directory in which earlier versions built the working tree apart from the
/// revisions; the working tree now builds in the shared one (`build::forget_local_builds`).
const RETIRED_TARGET: &str = "target-working-tree";

/// Removes, best effort, what earlier versions kept under `<target>/speedup/` and nothing reads now (a
/// second cargo target directory, as large as the first); returns the path when it was removed. `_held`:
/// as for [`remove_leftovers`].
pub(crate) fn remove_retired(project: &Project, _held: &Lock) -> Option<PathBuf> {
    let path = project.speedup_dir().join(RETIRED_TARGET);
    (path.is_dir() && std::fs::remove_dir_all(&path).is_ok()).then_some(path)
}

/// The entries of `dir` (none when it does not exist).
fn directories(dir: &Path) -> Result<Vec<PathBuf>, MeasureError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(error) => {
            return Err(MeasureError::Io {
                what: "listing the worktrees of earlier runs",
                path: dir.to_path_buf(),
                error,
            });
        }
    };
    Ok(entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
}

/// The worktrees git has registered under `dir` (`git worktree list --porcelain`), whether or not their
/// directory still exists; paths compared as given and with `dir` made canonical.
fn registered_under(git: &Git, dir: &Path) -> Vec<PathBuf> {
    let Ok(listing) = git.output(&["worktree", "list", "--porcelain"]) else {
        return vec![];
    };
    let canonical = dir.canonicalize().ok();
    listing
        .lines()
        .filter_map(|line| line.strip_prefix("worktree "))
        .map(PathBuf::from)
        .filter_map(|path| {
            if path.starts_with(dir) {
                return Some(path);
            }
            let inside = path.strip_prefix(canonical.as_deref()?).ok()?;
            Some(dir.join(inside))
        })
        .collect()
}

/// What `cargo speedup clean` removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cleaned {
    /// Where this project's files are ([`Project::speedup_dir`]).
    pub dir: PathBuf,
    /// The worktrees of runs that were killed.
    pub worktrees: Vec<PathBuf>,
    /// `<target>/speedup/` itself, with `--all`, when it existed.
    pub all: Option<PathBuf>,
    /// With `--all`, what earlier versions kept for every project in a shared `<target>/speedup/`.
    pub shared: Vec<PathBuf>,
}

/// `cargo speedup clean`: the worktrees killed runs left, and with `all` everything else under
/// `<target>/speedup/` (builds, executables, runs, cache), while holding the lock; refused while another
/// run holds it. The lock file goes last, unlinked while still held, so that a run starting meanwhile
/// takes a lock of its own and keeps its directory (`<target>/speedup/` is removed only when empty).
pub(crate) fn clean(manifest_path: Option<&Path>, all: bool) -> Result<Cleaned, MeasureError> {
    let project = Project::discover(manifest_path, false)?;
    let dir = project.speedup_dir();
    let worktrees = remove_shared_leftovers(&project);
    let shared = match all {
        true => remove_shared(&project)?,
        false => vec![],
    };
    let nothing = Cleaned {
        dir: dir.clone(),
        worktrees,
        all: None,
        shared,
    };
    if !dir.exists() {
        return Ok(nothing);
    }
    let lock = Lock::acquire(&dir)?;
    let mut worktrees = nothing.worktrees;
    worktrees.extend(remove_leftovers(&project, &lock)?);
    if !all {
        return Ok(Cleaned {
            worktrees,
            ..nothing
        });
    }
    for entry in directories(&dir)? {
        if entry.file_name().is_some_and(|name| name == "lock") {
            continue;
        }
        let removed = if entry.is_dir() {
            std::fs::remove_dir_all(&entry)
        } else {
            std::fs::remove_file(&entry)
        };
        removed.map_err(|error| MeasureError::Io {
            what: "removing cargo speedup's files",
            path: entry.clone(),
            error,
        })?;
    }
    // Where a held file cannot be unlinked (Windows), the empty lock file stays.
    let _ = std::fs::remove_file(dir.join("lock"));
    drop(lock);
    let _ = std::fs::remove_dir(&dir);
    Ok(Cleaned {
        worktrees,
        all: Some(dir),
        ..nothing
    })
}

/// `clean --all` in a shared `<target>/speedup/`: what earlier versions kept there for every project
/// ([`SHARED_ENTRIES`]; this project's worktrees among them are removed first), under that directory's
/// lock (refused while a run of an earlier version holds it); the lock file last, as in [`clean`]. The
/// directories of other projects stay.
fn remove_shared(project: &Project) -> Result<Vec<PathBuf>, MeasureError> {
    let Some(shared) = project.shared_speedup_dir() else {
        return Ok(vec![]);
    };
    let present: Vec<PathBuf> = SHARED_ENTRIES
        .iter()
        .map(|name| shared.join(name))
        .filter(|path| path.exists())
        .collect();
    if present.is_empty() {
        return Ok(vec![]);
    }
    let mut removed = Vec::new();
    let lock = Lock::acquire(&shared)?;
    for entry in present.iter().filter(|p| !p.ends_with("lock")) {
        let gone = if entry.is_dir() {
            std::fs::remove_dir_all(entry)
        } else {
            std::fs::remove_file(entry)
        };
        gone.map_err(|error| MeasureError::Io {
            what: "removing the files earlier versions of cargo speedup kept",
            path: entry.clone(),
            error,
        })?;
        removed.push(entry.clone());
    }
    let _ = std::fs::remove_file(shared.join("lock"));
    drop(lock);
    Ok(removed)
}
