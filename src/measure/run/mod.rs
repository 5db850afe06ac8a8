//! The run stage: the built sides' executables run in randomized interleaved blocks, look by look. The
//! scheduler (which run comes next) is apart from the way runs start (the [`runner::Runner`] seam).
//!
//! - `looks`: the loop of looks ([`looks::run_until_decided`]): blocks up to each look of the plan, then
//!   the analysis asked which benchmarks are still open; the end when none is, at the last look, or at
//!   `--budget`.
//! - `blocks`: the blocks of one look, handed to the runner one turn (a target in a block) at a time, and
//!   every participant's runs read back, each run kept apart.
//! - `schedule`: the order of the runs drawn from the seed; `selection`: the benchmarks still open, as
//!   each harness's filter; `failures`: a target that fails at one side, stopped and left out there;
//!   `collect`: one revision's runs joined into its results.
//! - `runner`: the seam between scheduling and starting runs; a new way to run is a new [`runner::Runner`].
//! - `processes`: the real runner, one process per run with its own `CRITERION_HOME`; `affinity`:
//!   `--pin`, each run on one CPU core; `duet`: `--duet`, the runs of a block started together on two
//!   cores.
//!
//! Must not: build anything, or decide anything (the analysis is asked through [`looks::Decide`]).

mod affinity;
mod blocks;
mod collect;
pub(crate) mod duet;
mod failures;
pub(crate) mod looks;
pub(crate) mod processes;
pub(crate) mod runner;
mod schedule;
mod selection;
