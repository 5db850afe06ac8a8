//! End-to-end tests that create git repositories with real criterion benchmarks and run the binary on them.
//! They build and run real benchmarks: criterion and its dependencies compile once, into a seed target
//! directory kept between test runs, and each test that builds holds a target directory planted from it
//! (`support::serial`, `tests/e2e/shared.rs`), so that it compiles only its own small crate; such tests run
//! side by side, one per slot. Every process they start runs in a known environment
//! (`environment.rs`).

mod action;
mod action_bisect;
mod action_hostile;
mod action_matrix;
mod action_runner;
mod bench_settings;
mod bisect;
mod counted;
mod coverage;
mod environment;
mod faults;
mod harness;
mod identical;
mod instructions;
mod instructions_batched;
mod instructions_beside;
mod instructions_commands;
mod instructions_divan;
mod layouts;
mod race;
mod race_counts;
mod race_several;
mod readme;
mod record;
mod revisions;
mod sharding;
mod submodules;
mod support;
mod time_and_instructions;
