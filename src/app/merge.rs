//! `cargo speedup merge PART.json...`: read the parts (`sources::part`), join them (`model::merge`),
//! then analyse, report and gate as `compare` does (`docs/sharding.md` §3). Parts that are `record` files
//! (one side each) are joined into one record instead, written to `-o` or standard output, for `compare`
//! later.

use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};

use super::compare::{check_report_outputs, report_suite};
use super::{Input, Outcome, write_to};
use crate::cli::MergeArgs;
use crate::model::merge::{Part, RecordPart, merge as join, merge_records};
use crate::plan::AnalysisPlan;
use crate::sources::{self, part};

/// `merge`: every part read and checked before anything is written.
pub(super) fn merge(args: &MergeArgs) -> Result<Outcome> {
    let plan = AnalysisPlan::from_args(&args.analysis)?;
    let inputs: Vec<Input> = args.parts.iter().cloned().map(Input::File).collect();
    check_report_outputs(&plan.output, &inputs)?;
    let limit = args
        .max_input_size
        .unwrap_or(sources::limits::DEFAULT_MAX_INPUT_SIZE);
    let texts = args
        .parts
        .iter()
        .map(|path| Ok((path.display().to_string(), read(path, limit)?)))
        .collect::<Result<Vec<_>>>()?;
    let records = texts
        .iter()
        .filter(|(_, text)| part::schema_of(text).is_some_and(|s| part::is_record_schema(&s)))
        .count();
    if records > 0 {
        if records < texts.len() {
            bail!(
                "the parts mix `record` files (one side each) with comparison reports\nhint: merge the \
                 records of one side into one record, or the reports of the comparisons, not both"
            );
        }
        return join_records(&texts, args);
    }
    let parts = texts
        .into_iter()
        .map(|(label, text)| {
            let report = part::parse(&text).map_err(|e| anyhow!("part {label} {e}"))?;
            Ok(Part { label, report })
        })
        .collect::<Result<Vec<_>>>()?;
    let merged = join(&parts)?;
    let origins = merged_origins(&merged.suite, parts.len());
    report_suite(&merged.suite, origins, &plan)
}

/// How the headline names the sides of a merged comparison: their commits, and how many parts joined.
fn merged_origins(suite: &crate::model::Suite, parts: usize) -> crate::model::BaseHead<String> {
    let commit = |c: Option<&String>| c.map_or("?", |c| c.get(..10).unwrap_or(c)).to_string();
    let fingerprint = suite.base_environment.fingerprint.as_ref();
    let merged = |c: Option<&String>| match parts {
        1 => format!("{} (from 1 part)", commit(c)),
        _ => format!("{} (merged from {parts} parts)", commit(c)),
    };
    crate::model::BaseHead {
        base: merged(fingerprint.and_then(|f| f.base_commit.as_ref())),
        head: merged(fingerprint.and_then(|f| f.head_commit.as_ref())),
    }
}

/// The text of a part, within the size limit; the cause first, then what to give instead.
fn read(path: &Path, limit: u64) -> Result<String> {
    let shown = path.display();
    let refused = |error| match error {
        sources::SourceError::Read { error, .. } => anyhow!(
            "cannot read part {shown}: {error}\nhint: give the JSON reports (or record files) the matrix's jobs wrote"
        ),
        other => anyhow!("part {other}"),
    };
    let mut bytes = sources::read_file(path, limit).map_err(refused)?;
    let text = sources::text_of(&bytes, &shown.to_string(), limit).map_err(refused)?;
    // Without a byte-order mark, kept as the bytes read (no copy).
    let mark = bytes.len() - text.len();
    bytes.drain(..mark);
    String::from_utf8(bytes).with_context(|| format!("part {shown}: not UTF-8 text"))
}

/// The records of one side's parts joined into one record, written to `-o` or standard output.
fn join_records(texts: &[(String, String)], args: &MergeArgs) -> Result<Outcome> {
    if args.analysis.json.is_some() {
        bail!(
            "`--json` writes a comparison report, and records are one side\nhint: write the merged record \
             with `-o merged.json`, then compare it: `cargo speedup compare base.json merged.json`"
        );
    }
    let parts = texts
        .iter()
        .map(|(label, text)| {
            let results =
                part::parse_record(text, label).map_err(|e| anyhow!("part {label} {e}"))?;
            Ok(RecordPart {
                label: label.clone(),
                schema: part::schema_of(text).unwrap_or_default(),
                results,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let merged = merge_records(&parts)?;
    let mut bytes = Vec::new();
    crate::sources::record::write(&merged, &mut bytes).context("writing the merged record")?;
    write_to(args.analysis.output.as_deref(), &bytes)?;
    Ok(Outcome::Passed)
}
