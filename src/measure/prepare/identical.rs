//! The bench targets BASE and HEAD built alike, set aside before the runs: their executables load the
//! same code and data at the same addresses (`elf`; debug information and build-ids aside), so only the
//! machine's noise could tell them apart (`docs/replication.md` §3). `--run-identical` runs them anyway;
//! a race runs every executable.
//!
//! Must not: run a benchmark (it only lists them, `--list`), or compare anything but the executables.

use std::path::Path;

use super::elf;
use super::listing;
use super::participant::Participant;
use crate::measure::MeasureError;
use crate::measure::progress::Progress;

/// Takes out of both sides the bench targets whose executables BASE and HEAD built alike (the same loaded
/// code and data at the same addresses; debug information aside: `elf`), and returns the names of their
/// benchmarks (criterion's `--list`, with the user's `filter`): only the machine's noise could tell them apart, so
/// they are reported unchanged without running (`--run-identical` runs them anyway).
pub(crate) fn set_identical_aside(
    base: &mut Participant,
    head: &mut Participant,
    filter: Option<&str>,
    progress: &Progress,
    part: Option<&[String]>,
) -> Result<Vec<String>, MeasureError> {
    let mut same_targets = Vec::new();
    for b in &base.binaries {
        if let Some(h) = head.binaries.iter().find(|h| h.target == b.target) {
            if same_code(&b.layouts[0], &h.layouts[0])? {
                same_targets.push(b.target.clone());
            }
        }
    }
    let mut names = Vec::new();
    for target in &same_targets {
        if let Some(binary) = base.binaries.iter().find(|b| &b.target == target) {
            let listed = listing::list(binary, filter, &base.label)?;
            names.extend(
                listed
                    .into_iter()
                    .filter(|name| part.is_none_or(|part| part.contains(name))),
            );
        }
    }
    base.binaries.retain(|b| !same_targets.contains(&b.target));
    head.binaries.retain(|b| !same_targets.contains(&b.target));
    if !same_targets.is_empty() {
        progress.note(&format!(
            "BASE and HEAD built identical executables of {}: {} not run, unchanged \
             (`--run-identical` runs them)",
            same_targets
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", "),
            match names.len() {
                1 => "its benchmark is".to_string(),
                n => format!("their {n} benchmarks are"),
            }
        ));
    }
    Ok(names)
}

/// Whether two executables run the same code (`elf`: debug information and build-ids aside).
fn same_code(a: &Path, b: &Path) -> Result<bool, MeasureError> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|source| MeasureError::Io {
            what: "comparing the executables of BASE and HEAD",
            path: path.to_path_buf(),
            error: source,
        })
    };
    Ok(elf::same_code(&read(a)?, &read(b)?))
}
