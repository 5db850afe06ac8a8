//! `cargo speedup clean`: remove what killed runs left under `<target>/speedup/` (`measure::clean`), or
//! with `--all` the whole directory, and say what was removed.

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
    match (&cleaned.all, cleaned.worktrees.is_empty()) {
        (Some(dir), _) => println!("removed {}", dir.display()),
        (None, true) => println!("nothing to clean: no worktree left by a killed run"),
        (None, false) => {}
    }
    Ok(Outcome::Passed)
}
