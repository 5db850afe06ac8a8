//! `cargo speedup speeduptest CONFIG.csv`: the interface of the Speedup-Test paper's SpeedUpTest.sh.

use anyhow::{Result, bail};

use super::Outcome;
use crate::cli::SpeeduptestArgs;

/// `speeduptest`.
pub fn speeduptest(args: &SpeeduptestArgs) -> Result<Outcome> {
    let _ = args;
    bail!("`speeduptest` is not available in this build yet")
}
