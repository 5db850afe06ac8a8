//! `cargo speedup BASE..HEAD` and `cargo speedup BASE`: measure two revisions, then compare them as `compare`
//! compares two results.

use anyhow::Result;

use super::compare::check_report_outputs;
use super::{Outcome, Sides, analyse_and_report, manifest};
use crate::cli::{AnalysisArgs, RunArgs};
use crate::measure;
use crate::model::{Design, Results, Suite};
use crate::plan::{RevisionsPlan, measuring};
use crate::protocol::sequential::decide_look;

/// `cargo speedup REVISIONS`, measuring what `measure` (`--measure`) asks.
pub(super) fn compare_revisions(
    revisions: Option<&str>,
    measure: Option<&str>,
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
    let run_plan = measuring(run_plan, measure, run)?;
    check_report_outputs(&plan.output, &[manifest(run)])?;
    // Between looks, the analysis itself says which benchmarks are still undecided.
    let decide = |base: &Results, head: &Results, looks: u32| {
        let so_far = Suite {
            design: Design::measured(looks),
            ..Suite::pair(base.clone(), head.clone())
        };
        decide_look(&so_far, &plan.options, run_plan.look_plan.max())
    };
    let measured = measure::measure_revisions(
        &revisions,
        &run_plan,
        &decide,
        &plan.options.stopping_rule(),
    )?;
    let sides = Sides {
        base: measured.base,
        head: measured.head,
        identical: measured.identical,
        design: Design::measured(measured.looks),
    };
    analyse_and_report(sides, plan)
}
