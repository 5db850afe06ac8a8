//! Pure decisions on top of the statistics core: the Speedup-Test protocols per benchmark, HPT across
//! benchmarks, and the gate. Together they produce one [`Analysis`], the only thing reports see.
//!
//! No I/O, no clock, no printing, no words for people. Decisions are taken at the user's confidence;
//! warnings are data ([`Warning`]: a [`Cause`] with the numbers its words need), as are the gate's reasons
//! ([`GateReason`]): `report/words.rs` words them.
//!
//! This file is the index: `mod` lines and re-exports only. The output types are defined in `outcome.rs`
//! and re-exported here, so that `crate::protocol::Analysis` and the others are their paths.

pub mod analyse;
mod benchmark_warnings;
pub mod bisect;
pub mod equivalence;
pub mod gate;
pub mod hpt;
mod input_warnings;
mod options;
mod outcome;
pub mod points;
pub mod race;
pub mod sequential;
pub mod shape;
pub mod speedup_test;
mod variance;

pub use analyse::analyse;
pub use options::{Checked, Design, Options, PerLook, Remedy};
pub use outcome::{
    Alpha, Analysis, BenchmarkAnalysis, ByDirection, CannotFail, Cause, Compared, Confidence,
    ConfidencePoint, Differs, Direction, FailOn, GainSpeedup, GateOutcome, GateReason,
    HptBenchmark, HptCause, HptSummary, MeanTest, MedianTest, Overall, Proportion, Proportions,
    RaceCause, RunPoint, ShapeCause, Shift, SideSummary, SpeedupOf, Speedups, Subject,
    SuiteAnalysis, TMethod, TestCause, Threshold, Undecided, VarianceComponents, Verdict, Warning,
    WarningKind,
};
