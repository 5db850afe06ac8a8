//! `cargo speedup clean`: remove what killed runs left in the project's directory under
//! `<target>/speedup/` (`measure::clean`), or with `--all` the whole directory, and say what was removed
//! and where the project's files are.

use anyhow::Result;

use super::Outcome;
use crate::cli::CleanArgs;
use crate::measure;

/// `cargo speedup clean [--all]`.
pub(super) fn clean(args: &CleanArgs) -> Result<Outcome> {
    let cleaned = measure::clean(args.manifest_path.as_deref(), args.all)?;
    for path in &cleaned.worktrees {
        println!(
            "removed the worktree {} (left by a run that was killed)",
            path.display()
        );
    }
    for path in &cleaned.shared {
        println!(
            "removed {} (kept by an earlier version for every project of this target directory)",
            path.display()
        );
    }
    match (&cleaned.all, cleaned.worktrees.is_empty()) {
        (Some(dir), _) => println!("removed {}", dir.display()),
        (None, true) => println!(
            "nothing to clean: no worktree left by a killed run (this project's files are in {})",
            cleaned.dir.display()
        ),
        (None, false) => println!("this project's files are in {}", cleaned.dir.display()),
    }
    Ok(Outcome::Passed)
}
