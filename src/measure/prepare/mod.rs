//! The prepare stage: what happens to a side before its first run. `participants` runs the steps in
//! order; each file is one step.
//!
//! - `participant`: one revision built and ready to run, what this stage hands the run stage.
//! - `revision`: what BASE, HEAD or a race's revisions name (a commit, or the working tree `.`), resolved
//!   before anything is created; the notes about the working tree.
//! - `versions`: the other trees take the reference tree's package versions (`Cargo.lock`), so that only
//!   the code differs.
//! - `bench_settings`: the bench files' own `measurement_time`, `warm_up_time` and `sample_size`, found,
//!   rewritten to the per-run settings unless kept, and their cost told (`tree_copy`: the copy of a
//!   working tree so rewritten).
//! - `targets`: the tree's bench targets from `cargo metadata`, and the ones the build leaves out and why
//!   (`required-features` not enabled, `--bench`, a target of one revision only).
//! - `build`: `cargo bench --no-run` of a tree, its bench executables kept under `bin/<role>/`; when one
//!   target does not build, the others alone.
//! - `listing`: the benchmarks of a built executable, as its harness lists them (`--list`).
//! - `identical`: the targets BASE and HEAD built alike (`elf`: the loaded code compared), not run.
//! - `layout`: each executable linked again in several section orders (lld `--shuffle-sections`).
//!
//! Must not: run a benchmark (only `--list`, to name them), or decide anything.

pub(crate) mod bench_settings;
pub(crate) mod build;
pub(crate) mod criterion_version;
mod elf;
mod identical;
pub(crate) mod layout;
pub(crate) mod listing;
pub(crate) mod participant;
pub(crate) mod participants;
pub(crate) mod revision;
pub(crate) mod targets;
mod tree_copy;
mod versions;
