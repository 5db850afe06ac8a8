//! Simulators: the decisions of [`crate::protocol`] replayed on values drawn from a known truth, and
//! counted against it, for `cargo speedup simulate` and the tests that check the protocols' error rates.
//!
//! - `harness`: the one harness: a `harness::Simulation` draws a replicate and says what each of its
//!   plans decides; `harness::run` replays N replicates from a seed into one `harness::Tally` per plan;
//! - [`model`]: the truth drawn (the hierarchical model of `docs/replication.md` §2, or recorded runs
//!   resampled) on the stats' generator;
//! - [`two_versions`]: the two-version plans (the project's race, fixed runs, paper 002's);
//! - [`raced_profiles`]: paper 002's two-version race as the paper runs it, set beside the planned looks;
//! - [`several_versions`]: races of several versions on synthetic problems (`--versions R`);
//! - [`bisections`]: bisections replayed on simulated commits (`--bisect N`).
//!
//! Pure like the protocol: no I/O, no clock, no printing (the seed is an argument; `report/simulation.rs`
//! renders the tallies, `app/simulate.rs` runs the command). It decides nothing of its own: every verdict
//! comes from the protocol, so a simulation measures the protocol the tool ships. The protocol never calls
//! it.

pub(crate) mod bisections;
pub(crate) mod harness;
pub(crate) mod model;
pub(crate) mod raced_profiles;
pub(crate) mod several_versions;
pub(crate) mod two_versions;

#[cfg(test)]
mod analysis_tests;
#[cfg(test)]
mod paired_analysis_tests;
#[cfg(test)]
mod paired_tests;
