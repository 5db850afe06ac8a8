//! What one part of a suite split over a CI matrix reported, as `sources::part` reads it back from a
//! comparison's JSON report, and the schema name that report carries. Must not: join parts (`merge.rs`).

use super::Pair;
use super::fingerprint::Fingerprint;

/// The schema name of the comparison's JSON report: `report::json` writes it, `sources::part` reads it
/// back (`docs/json.md`).
pub const REPORT_SCHEMA: &str = "cargo-speedup/1";

/// What one part of a suite split over a CI matrix reported (a comparison's JSON report read back,
/// `sources::part`): the runs it compared and what they were measured with. `model::merge` joins parts.
#[derive(Debug, Clone, PartialEq)]
pub struct PartReport {
    /// The report's `schema`; every part must have the same.
    pub schema: String,
    /// What the part's runs were measured with (commits, settings, tool versions, machine).
    pub fingerprint: Fingerprint,
    /// The looks of the plan that measured the part (1 for a fixed plan).
    pub looks: u32,
    /// The paired runs of every benchmark the part compared.
    pub pairs: Vec<Pair>,
    /// Benchmarks left unchanged because BASE and HEAD built identical executables.
    pub identical: Vec<String>,
    /// Benchmarks present in BASE only.
    pub base_only: Vec<String>,
    /// Benchmarks present in HEAD only.
    pub head_only: Vec<String>,
    /// The names the part's report lists as not compared (`not_compared`), and whether each failed the
    /// part's gate: a report words each reason and quotes its first line only, which is not enough to
    /// give back the [`coverage::LeftOut`](super::coverage::LeftOut), so the merge says so in a note instead
    /// (`docs/sharding.md` §3).
    pub not_compared: Vec<(String, bool)>,
}
