//! `cargo speedup merge PART.json...`: read the parts (`sources::part`), join them (`protocol::merge`),
//! then analyse, report and gate as `compare` does (`docs/sharding.md` §3).

use anyhow::{Context as _, Result, anyhow};

use super::compare::{check_report_outputs, report_suite};
use super::{Input, Outcome};
use crate::cli::MergeArgs;
use crate::plan::AnalysisPlan;
use crate::protocol::merge::{Part, merge as join};
use crate::protocol::wording::Remedy;
use crate::sources::part;

/// `merge`: every part read and checked before anything is written.
pub fn merge(args: &MergeArgs) -> Result<Outcome> {
    let mut plan = AnalysisPlan::from_args(&args.analysis)?;
    let inputs: Vec<Input> = args.parts.iter().cloned().map(Input::File).collect();
    check_report_outputs(&plan.output, &inputs)?;
    let parts = args
        .parts
        .iter()
        .map(|path| {
            let label = path.display().to_string();
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("reading part {label}\nhint: give the JSON reports the matrix's jobs wrote")
            })?;
            let file = part::parse(&text).map_err(|e| anyhow!("part {label} {e}"))?;
            Ok(Part {
                label,
                schema: file.schema,
                fingerprint: file.fingerprint,
                looks: file.looks,
                pairs: file.pairs,
                identical: file.identical,
                base_only: file.base_only,
                head_only: file.head_only,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let merged = join(&parts)?;
    plan.options.looks = merged.looks;
    plan.options.remedy = Remedy::RunHere;
    report_suite(&merged.suite, &plan)
}
