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
