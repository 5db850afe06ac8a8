//! `cargo speedup BASE..HEAD`, `cargo speedup BASE` and `cargo speedup record`: measure, then compare.

use std::io::Write;

use anyhow::{Context, Result, bail};

use super::{Outcome, analyse_and_report, check_output_path, write_atomically};
use crate::cli::{AnalysisArgs, RecordArgs, RunArgs};
use crate::measure;
use crate::plan::AnalysisPlan;

/// `cargo speedup REVISIONS`.
pub fn revisions(
    revisions: Option<&str>,
    run: &RunArgs,
    analysis: &AnalysisArgs,
) -> Result<Outcome> {
    let Some(revisions) = revisions else {
        bail!(
            "nothing to compare\nhint: `cargo speedup main..HEAD` compares two revisions, `cargo speedup HEAD` \
             the last commit with the working tree, `cargo speedup compare A B` two existing results"
        );
    };
    // Options of the analysis and where the reports go are checked before minutes of building and running,
    // not after.
    AnalysisPlan::from_args(analysis)?;
    for path in analysis.output.iter().chain(&analysis.json) {
        check_output_path(path)?;
    }
    let measured = measure::measure_revisions(revisions, run, analysis.quiet)?;
    analyse_and_report(measured.base, measured.head, measured.identical, analysis)
}

/// `cargo speedup record`.
pub fn record(args: &RecordArgs) -> Result<Outcome> {
    if let Some(path) = &args.output {
        check_output_path(path)?;
    }
    let results = measure::record(&args.run, args.quiet)?;
    let mut bytes = Vec::new();
    crate::sources::record::write(&results, &mut bytes).context("writing the results")?;
    match &args.output {
        Some(path) => write_atomically(path, &bytes)?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes).context("writing to stdout")?;
            out.flush().context("writing to stdout")?;
        }
    }
    Ok(Outcome::Passed)
}
