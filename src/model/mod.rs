//! The data every stage agrees on: validated samples of execution times, benchmarks, and BASE/HEAD pairs.
//!
//! Sources produce [`Results`] (one per side); [`Suite::pair`] matches them by name. A benchmark's data on a
//! side is a list of process runs ([`Runs`]), each holding the samples taken inside it ([`Run`]); a
//! [`Sample`] is the only way numbers enter: non-empty, finite, strictly positive and in nanoseconds, so no
//! later stage re-checks. The statistics see one value per run ([`Pair::observations`],
//! `docs/replication.md`). [`merge`] joins the parts of one comparison, measured by several jobs, into
//! one suite (`cargo speedup merge`); [`fingerprint`] is the environment a measuring command records, which
//! merging compares. This module does no I/O.
//!
//! The files: `unit.rs` (time units and counts), `sample.rs` (samples, runs), `results.rs` (one side's
//! benchmarks), `pair.rs` (BASE beside HEAD, the suite), `design.rs` (how the runs were had),
//! `coverage.rs` (what was not compared), `profile.rs` (where the
//! instructions of a counted run are spent, and where they changed), `fingerprint.rs`, `part_report.rs` and `merge.rs` (the parts of a
//! split comparison). This file is their index: it declares and re-exports them, and holds no code.

pub mod coverage;
mod design;
pub mod fingerprint;
pub mod merge;
mod pair;
mod part_report;
mod profile;
mod results;
mod sample;
mod unit;

pub use design::{Design, Remedy};
pub use pair::{BaseHead, Basis, Blocked, Observations, Pair, Side, Suite, Unpairable};
pub use part_report::{PartReport, REPORT_SCHEMA};
pub use profile::{FunctionChange, FunctionStatus, MAX_CHANGES, Profile, changes};
pub use results::{Benchmark, Counter, CounterKind, Environment, Results};
pub use sample::{Block, NANOS_RANGE, Run, Runs, Sample, SampleError};
pub use unit::{Counted, Unit};
