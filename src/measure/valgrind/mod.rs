//! Instruction counts under Valgrind's callgrind (`--measure instructions`, `docs/instruction-counts.md`):
//! each benchmark runs under callgrind (alone, or divan's with the other benchmarks of its target), which
//! dumps its costs at the harness's own boundaries around each batch of iterations; the difference of two
//! batches of different sizes is the cost of one iteration, the harness cancelling.
//!
//! - `callgrind`: the dump files read (pure): each dump's instruction total, in the order written.
//! - `functions`: the dump files read function by function: each function's inclusive instructions per
//!   iteration, and those of the benchmark's routine alone (pure).
//! - `criterion`: which `Bencher` method criterion's dumps follow, and whether its count holds the setup
//!   (pure).
//! - `divan`: divan's processes of several benchmarks: their arguments, the order divan runs them in, each
//!   one's dumps (pure).
//! - `events`: the counts beside instructions when asked (`--cache-sim`'s cache misses,
//!   `--count-allocations`' calls to the Rust allocator), read from each dump and estimated as instructions
//!   are (pure).
//! - `estimate`: instructions per iteration from those totals, criterion's doublings or divan's two sample
//!   sizes, and whether every estimate agrees (pure).
//! - `runner`: the [`Runner`](crate::measure::run::runner::Runner) that starts each benchmark under
//!   callgrind and gives back its count per run.
//!
//! Must not: decide anything, or schedule runs (the run stage's scheduler does).

mod callgrind;
mod criterion;
mod divan;
mod estimate;
pub(crate) mod events;
mod functions;
pub(crate) mod runner;
