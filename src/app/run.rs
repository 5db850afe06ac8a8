//! `cargo speedup BASE..HEAD`, `cargo speedup BASE` and `cargo speedup record`: measure, then compare.

use anyhow::{Context, Result};

use super::compare::check_report_outputs;
use super::{Input, Outcome, Output, analyse_and_report, check_outputs, write_to};
use crate::cli::{AnalysisArgs, RecordArgs, RunArgs};
use crate::measure;
use crate::model::{Results, Suite};
use crate::plan::{RevisionsPlan, run_options};
use crate::protocol::analyse::Options;
use crate::protocol::sequential::open_benchmarks;
use crate::protocol::wording::Remedy;

/// `cargo speedup REVISIONS`.
pub fn revisions(
    revisions: Option<&str>,
    run: &RunArgs,
    analysis: &AnalysisArgs,
) -> Result<Outcome> {
    // Options of the analysis and where the reports go are checked before minutes of building and running,
    // not after.
    let RevisionsPlan {
        revisions,
        analysis: plan,
        run: run_plan,
    } = RevisionsPlan::from_args(revisions, run, analysis)?;
    check_report_outputs(&plan.output, &[manifest(run)])?;
    // Between looks, the analysis itself says which benchmarks are still undecided.
    let decide = |base: &Results, head: &Results, looks: u32| {
        let options = Options {
            looks,
            ..plan.options
        };
        open_benchmarks(&Suite::pair(base.clone(), head.clone()), &options)
    };
    let measured = measure::measure_revisions(
        &revisions,
        &run_plan,
        &decide,
        &plan.options.stopping_rule(),
    )?;
    analyse_and_report(
        measured.base,
        measured.head,
        measured.identical,
        measured.looks,
        Remedy::RunHere,
        plan,
    )
}

/// `cargo speedup record`.
pub fn record(args: &RecordArgs) -> Result<Outcome> {
    if let Some(path) = &args.output {
        let output = Output {
            flag: "-o",
            path,
            example: "results.json",
        };
        check_outputs(&[output], &[manifest(&args.run)])?;
    }
    let run = run_options(&args.run, args.quiet, None)?;
    let results = measure::record(&run)?;
    let mut bytes = Vec::new();
    crate::sources::record::write(&results, &mut bytes).context("writing the results")?;
    write_to(args.output.as_deref(), &bytes)?;
    Ok(Outcome::Passed)
}

/// The manifest the benchmarks are found through, which no report may replace.
fn manifest(run: &RunArgs) -> Input {
    Input::File(
        run.manifest_path
            .clone()
            .unwrap_or_else(|| "Cargo.toml".into()),
    )
}
