//! Reading what a run left and writing what we keep, through the shared readers: criterion's saved baseline
//! under a run's `CRITERION_HOME` ([`crate::sources::criterion::read_baseline`], matched by `full_id`), and
//! the record JSON of the cache ([`crate::sources::record`], read back by
//! [`crate::sources::raw_json::parse`]). This module adds no format of its own.

use std::path::Path;

use super::MeasureError;
use crate::model::Results;
use crate::sources;

/// Every benchmark saved as `baseline` under the criterion root `root`.
pub fn criterion_baseline(root: &Path, baseline: &str) -> Result<Results, MeasureError> {
    sources::criterion::read_baseline(root, baseline).map_err(|e| MeasureError::Read {
        path: root.to_path_buf(),
        detail: e.to_string(),
    })
}

/// One side's pooled results as record JSON.
pub fn write_results(results: &Results, out: &mut impl std::io::Write) -> std::io::Result<()> {
    sources::record::write(results, out)
}

/// What [`write_results`] wrote, with `origin` restored; `None` when the file is missing or unreadable
/// (a cache miss, measured again).
pub fn read_results(path: &Path, origin: &str) -> Option<Results> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut results = sources::raw_json::parse(&text, origin).ok()?;
    results.origin = origin.to_string();
    Some(results)
}
