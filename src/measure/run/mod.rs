//! The run stage: the built sides' executables run in randomized interleaved blocks, look by look.
//!
//! - `looks`: the loop of looks ([`looks::run_until_decided`]): blocks up to each look of the plan, then
//!   the analysis asked which benchmarks are still open; the end when none is, at the last look, or at
//!   `--budget`.
//! - `blocks`: the order of the runs drawn from the seed, one process per run with its own
//!   `CRITERION_HOME`, and what each run saved read back, each run kept apart.
//! - `affinity`: `--pin`, each run on one CPU core.
//!
//! Must not: build anything, or decide anything (the analysis is asked through [`looks::Decide`]).

mod affinity;
pub(crate) mod blocks;
pub(crate) mod looks;
