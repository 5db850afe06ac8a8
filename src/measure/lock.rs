//! One run at a time per project: an OS file lock on `lock` in the project's directory under
//! `<target>/speedup/` (`Project::speedup_dir`: its own even when projects share a target directory),
//! released by the OS even when the process dies, so a crash never leaves a stale lock; taken through
//! `fs4` (flock / LockFileEx) while the crate's minimum Rust predates `File::try_lock`. The file holds
//! the owner's pid, start time and command line, quoted when another run finds the lock held.

use std::fs::{File, OpenOptions};

use fs4::{FileExt, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;

use super::MeasureError;
use crate::report::format::civil_from_days;

/// The held lock; dropping it releases it.
#[derive(Debug)]
pub(super) struct Lock {
    file: File,
}

impl Lock {
    /// Takes the lock in `dir` or says who holds it.
    pub(super) fn acquire(dir: &Path) -> Result<Lock, MeasureError> {
        let path = dir.join("lock");
        let io = |source| MeasureError::Io {
            what: "taking the lock",
            path: path.clone(),
            error: source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io)?;
        match FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(MeasureError::Locked {
                    path,
                    holder: holder.trim().to_string(),
                });
            }
            Err(TryLockError::Error(source)) => return Err(io(source)),
        }
        file.set_len(0).map_err(io)?;
        file.rewind().map_err(io)?;
        write!(file, "{}", owner()).map_err(io)?;
        Ok(Lock { file })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
        let _ = FileExt::unlock(&self.file);
    }
}

/// `pid 123, started 2026-01-02 03:04:05 UTC: cargo-speedup speedup main..HEAD`.
fn owner() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let command: Vec<String> = std::env::args().collect();
    format!(
        "pid {}, started {}: {}",
        std::process::id(),
        utc(secs),
        command.join(" ")
    )
}

/// Seconds since the epoch as `YYYY-MM-DD hh:mm:ss UTC`.
fn utc(secs: u64) -> String {
    let (year, month, day) = civil_from_days((secs / 86_400) as i64);
    let rem = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_taker_is_told_who_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let held = Lock::acquire(dir.path()).unwrap();
        match Lock::acquire(dir.path()) {
            Err(MeasureError::Locked { holder, .. }) => {
                assert!(holder.starts_with(&format!("pid {}, started ", std::process::id())));
            }
            other => panic!("expected Locked, got {other:?}"),
        }
        drop(held);
        assert!(Lock::acquire(dir.path()).is_ok());
    }

    #[test]
    fn utc_dates_match_known_instants() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13:20 UTC");
    }
}
