//! One function per command; each reads as a list of stage calls. Only this module sees every stage.

mod compare;
mod run;
mod speeduptest;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::cli::{Command, SpeedupCli};

pub use compare::analyse_and_report;

/// What a command ended with, mapped to the exit status by `main`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Passed,
    /// Exit 1: the gate failed under `--fail-on`.
    GateFailed,
}

impl Outcome {
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Passed => 0,
            Outcome::GateFailed => 1,
        }
    }
}

/// Runs the command the user asked for.
pub fn run(cli: SpeedupCli) -> Result<Outcome> {
    match cli.command {
        Some(Command::Compare(args)) => compare::compare(&args),
        Some(Command::Record(args)) => run::record(&args),
        Some(Command::Speeduptest(args)) => speeduptest::speeduptest(&args),
        None => run::revisions(cli.revisions.as_deref(), &cli.run, &cli.analysis),
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory, so that nothing is half written.
///
/// A path that already exists and is not a regular file (`/dev/null`, `/dev/stdout`, a named pipe) is written
/// in place: renaming over it would replace the device or pipe with a file. A symbolic link to a file is
/// followed, so the link stays and its target gets the report.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    check_output_path(path)?;
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)
                .and_then(|mut file| file.write_all(bytes))
                .with_context(cannot);
        }
        _ => {}
    }
    // A link to a file: write the file it points to. A dangling link is replaced like any missing path.
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = parent_dir(&target);
    let mut builder = tempfile::Builder::new();
    if let Some(permissions) = new_file_permissions(&target) {
        builder.permissions(permissions);
    }
    let mut file = builder.tempfile_in(dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot write {}: the directory {} is not writable ({})",
            path.display(),
            dir.display(),
            e.raw_os_error().map_or_else(
                || e.kind().to_string(),
                |code| { std::io::Error::from_raw_os_error(code).to_string() }
            )
        )
    })?;
    file.write_all(bytes).with_context(cannot)?;
    file.persist(&target)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error))?;
    Ok(())
}

/// The directory a file at `path` goes into (`.` for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Refuses an output path that cannot become a file: a directory, or a file in a directory that does not
/// exist. Commands that measure call it before minutes of building and running, not after.
pub fn check_output_path(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!(
            "cannot write {}: it is a directory\nhint: give a file name, e.g. {}",
            path.display(),
            path.join("report").display()
        );
    }
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = parent_dir(&target);
    if !dir.is_dir() {
        bail!(
            "cannot write {}: the directory {} does not exist\nhint: create it first, or choose another path",
            path.display(),
            dir.display()
        );
    }
    Ok(())
}

/// The permissions of a report file: those of the file it replaces, else (on Unix) read-write for everyone
/// the umask allows, as for any file a program creates, not the owner-only mode of a temporary file.
fn new_file_permissions(target: &Path) -> Option<std::fs::Permissions> {
    if let Ok(meta) = std::fs::metadata(target) {
        return Some(meta.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o666))
    }
    #[cfg(not(unix))]
    {
        None
    }
}
