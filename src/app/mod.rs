//! One function per command; each reads as a list of stage calls. Only this module sees every stage.

mod compare;
mod run;
mod speeduptest;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

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
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir).with_context(|| {
        format!(
            "cannot write {}: its directory is not writable",
            path.display()
        )
    })?;
    file.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
