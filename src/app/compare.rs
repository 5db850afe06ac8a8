//! `cargo speedup compare BASE HEAD`: read two existing results, analyse, report, gate.

use anyhow::{Result, bail};

use super::Outcome;
use crate::cli::{AnalysisArgs, CompareArgs};
use crate::model::Results;

/// `compare`: load both sides, then [`analyse_and_report`].
pub fn compare(args: &CompareArgs) -> Result<Outcome> {
    let _ = args;
    bail!("`compare` is not available in this build yet")
}

/// The stages after the results of both sides exist: pair, analyse, render, gate. Shared by `compare` and
/// the revision comparison.
pub fn analyse_and_report(base: Results, head: Results, args: &AnalysisArgs) -> Result<Outcome> {
    let _ = (base, head, args);
    bail!("the analysis is not available in this build yet")
}
