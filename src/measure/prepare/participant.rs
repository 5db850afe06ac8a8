//! One revision ready to run: what the prepare stage hands the run stage (`participants` builds them, the
//! run stage's scheduler and runners take them).
//!
//! Must not: hold anything the runs do not need.

use super::build::BenchBinary;

/// One revision to run: its name for messages, its directory under `runs/`, its executables.
#[derive(Debug, Clone)]
pub(crate) struct Participant {
    /// For progress and errors (`BASE (main, 1a2b3c4d5e)`).
    pub label: String,
    /// The pooled results' origin (`main (1a2b3c4d5e)`).
    pub origin: String,
    /// Its directory name under `runs/` (`base`, `head`, `r001`...).
    pub slug: String,
    pub binaries: Vec<BenchBinary>,
}

#[cfg(test)]
impl Participant {
    /// A participant for tests of the stages that take one: `label` for messages, `slug` as its origin and
    /// directory, one criterion executable per target, named after the target, in no directory.
    pub(crate) fn for_tests(label: &str, slug: &str, targets: &[&str]) -> Participant {
        use super::super::harness::Harness;
        use std::path::PathBuf;
        Participant {
            label: label.into(),
            origin: slug.into(),
            slug: slug.into(),
            binaries: targets
                .iter()
                .map(|t| BenchBinary {
                    target: t.to_string(),
                    layouts: vec![PathBuf::from(t)],
                    package_dir: PathBuf::new(),
                    manifest: PathBuf::new(),
                    cargo_target: PathBuf::new(),
                    harness: Harness::Criterion,
                    whole_seconds: None,
                })
                .collect(),
        }
    }
}
