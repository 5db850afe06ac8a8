//! One function per command; each reads as a list of stage calls. Only this module sees every stage.

use anyhow::{Result, bail};

use crate::cli::{Command, SpeedupCli};

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
        Some(Command::Compare(_)) => bail!("`compare` is not available in this build yet"),
        Some(Command::Record(_)) => bail!("`record` is not available in this build yet"),
        Some(Command::Speeduptest(_)) => bail!("`speeduptest` is not available in this build yet"),
        None => bail!("comparing revisions is not available in this build yet"),
    }
}
