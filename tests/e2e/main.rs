//! End-to-end tests that create git repositories with real criterion benchmarks and run the binary on them.
//! They build and run real benchmarks, so they share one cargo target directory (criterion compiles once)
//! and run one at a time.

mod action;
mod action_hostile;
mod action_matrix;
mod action_runner;
mod bench_settings;
mod bisect;
mod faults;
mod harness;
mod identical;
mod layouts;
mod race;
mod race_several;
mod readme;
mod record;
mod revisions;
mod sharding;
mod submodules;
mod support;
