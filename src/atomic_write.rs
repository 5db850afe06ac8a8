//! Writing a file whole or not at all: the bytes go to a temporary file in the target's directory, are
//! flushed to the disk (`fsync`), and the temporary file is renamed over the target, so that a reader (or a
//! crash, a full disk, Ctrl-C) sees the old file or the new one, never a part. The one place both the
//! reports (`app::output`) and the cache (`measure::cache`) write through.
//!
//! The directory is not flushed after the rename: after a power loss the rename may be lost (the old file
//! or none is found), never half done. Must not: decide where to write or what a path means (links,
//! devices, checks of outputs against inputs are the caller's).

use std::io::Write;
use std::path::Path;

/// Where writing failed: creating the temporary file (the directory is not writable), or writing,
/// flushing or renaming it.
#[derive(Debug)]
pub(crate) enum AtomicWriteError {
    /// The temporary file could not be created in the directory.
    Create(std::io::Error),
    /// The bytes could not be written, flushed or renamed into place.
    Write(std::io::Error),
}

impl AtomicWriteError {
    /// The operating system's error.
    pub(crate) fn into_io(self) -> std::io::Error {
        match self {
            AtomicWriteError::Create(e) | AtomicWriteError::Write(e) => e,
        }
    }
}

/// Writes `bytes` to `target` through a temporary file in `dir` (the target's directory), flushed before it
/// is renamed; the new file gets `permissions` when given (else the temporary file's, owner-only).
pub(crate) fn write_atomically(
    dir: &Path,
    target: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> Result<(), AtomicWriteError> {
    let mut builder = tempfile::Builder::new();
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let mut file = builder.tempfile_in(dir).map_err(AtomicWriteError::Create)?;
    file.write_all(bytes)
        .and_then(|()| file.as_file().sync_all())
        .map_err(AtomicWriteError::Write)?;
    file.persist(target)
        .map_err(|e| AtomicWriteError::Write(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("entry.json");
        std::fs::write(&target, "old").unwrap();
        write_atomically(dir.path(), &target, b"new", None).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let missing = dir.path().join("absent");
        let error = write_atomically(&missing, &missing.join("x"), b"x", None).unwrap_err();
        assert!(matches!(error, AtomicWriteError::Create(_)), "{error:?}");
    }
}
