//! `cargo speedup BASE..HEAD`, `cargo speedup BASE` and `cargo speedup record`: measure, then compare.

use anyhow::{Result, bail};

use super::Outcome;
use crate::cli::{AnalysisArgs, RecordArgs, RunArgs};

/// `cargo speedup REVISIONS`.
pub fn revisions(
    revisions: Option<&str>,
    run: &RunArgs,
    analysis: &AnalysisArgs,
) -> Result<Outcome> {
    let _ = (revisions, run, analysis);
    bail!("comparing revisions is not available in this build yet")
}

/// `cargo speedup record`.
pub fn record(args: &RecordArgs) -> Result<Outcome> {
    let _ = args;
    bail!("`record` is not available in this build yet")
}
