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

/// Copies the directory tree `from` into `to` (created), for tests that combine committed trees.
pub(crate) fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("the directory") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}
