//! Reading what a run left and writing what we keep, through the shared readers: criterion's saved baseline
//! under a run's `CRITERION_HOME` ([`crate::sources::criterion::read_baseline`], matched by `full_id`), and
//! the record JSON of the cache ([`crate::sources::record`], read back by
//! [`crate::sources::raw_json::parse`]). This module adds no format of its own.

use std::path::Path;

use super::MeasureError;
use crate::model::Results;
use crate::sources;

/// Every benchmark saved as `baseline` under the criterion root `root`, and the ones it saved without a
/// usable value in `left_out` (a run that saved nothing usable at all has only those: the other runs of
/// the side may have measured them, `run::collect` decides).
pub(super) fn criterion_baseline(root: &Path, baseline: &str) -> Result<Results, MeasureError> {
    match sources::criterion::read_baseline(root, baseline) {
        Ok(results) => Ok(results),
        Err(sources::SourceError::NothingUsable { path, left_out }) => Ok(Results {
            origin: path,
            benchmarks: vec![],
            environment: Default::default(),
            notes: vec![],
            left_out,
        }),
        Err(e) => Err(MeasureError::Read {
            path: root.to_path_buf(),
            detail: e.to_string(),
        }),
    }
}

/// One side's pooled results as record JSON.
pub(super) fn write_results(
    results: &Results,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    sources::record::write(results, out)
}

/// The bytes [`write_results`] wrote, read back with `origin` restored; `None` when they do not read as
/// such (the cache then measures again).
pub(super) fn parse_results(bytes: &[u8], origin: &str) -> Option<Results> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut results = sources::raw_json::parse(text, origin).ok()?;
    results.origin = origin.to_string();
    Some(results)
}
