//! The committed input files of `fixtures/sources/`, found and read as `compare` reads them: the tests of
//! every reader share them.

use std::path::PathBuf;

use crate::sources::{ReadOptions, SourceError, load};

/// `fixtures/sources/<rel>`.
pub(crate) fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sources")
        .join(rel)
}

/// Loads `fixtures/sources/REL[#SELECTOR]` as `compare` would.
pub(crate) fn read_fixture(spec: &str) -> Result<crate::model::Results, SourceError> {
    let (rel, selector) = spec
        .split_once('#')
        .map_or((spec, None), |(r, s)| (r, Some(s)));
    let path = fixture(rel).display().to_string();
    let spec = selector.map_or(path.clone(), |s| format!("{path}#{s}"));
    load(&spec, &ReadOptions::default())
}
