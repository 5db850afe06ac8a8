//! Pure decisions on top of the statistics core: the Speedup-Test protocols per benchmark, HPT across
//! benchmarks, and the gate. Together they produce one [`Analysis`], the only thing reports see.
//!
//! No I/O, no clock, no printing, no words for people. Decisions are taken at the user's confidence;
//! warnings are data ([`Warning`]: a [`Cause`] with the numbers its words need), as are the gate's reasons
//! ([`GateReason`]): `report/words/` words them.
//!
//! This file is the index: `mod` lines and re-exports only. The output types are defined in `outcome.rs`
//! (with `outcome/cause.rs` and `outcome/shape.rs`) and re-exported here, so that
//! `crate::protocol::Analysis` and the others are their paths.
//!
//! | file | decides |
//! |---|---|
//! | `analyse` | one comparison: each benchmark's protocols and verdict, HPT, the aggregates, the gate |
//! | `speedup_test/` | paper 000 per benchmark: the mean protocol, the median protocol, G, S and the proportion |
//! | `hpt`, `hpt/` | paper 003 across benchmarks: HPT's confidence and the r-speedup |
//! | `equivalence` | "unchanged" within ±ε, the smallest change the noise lets the test see, futility |
//! | `paired` | `--paired`: a benchmark's verdict, equivalence and gate test on the within-block log ratios |
//! | `sequential` | run until decided: the looks, the benchmarks still open |
//! | `gate` | whether `--fail-on` and `--threshold` fail the comparison, and why |
//! | `race` | races of several revisions |
//! | `bisect/` | a bisection, for the command and its simulator: what a comparison shows, the step rule, the error budget, the search, more than one step |
//! | `shape` | each side's Gaussian mixture and modes (paper 001) |
//! | `disagreement` | where a benchmark's time and its instruction count disagree (read from the verdicts) |
//! | `benchmark_warnings`, `input_warnings` | the causes of the warnings about one benchmark and about the inputs |
//! | `options` | the options of an analysis ([`Options`]) and the per-look view of them ([`PerLook`]) |
//! | `points`, `variance` | what the HTML page draws: one point per run, the variance components |

pub mod analyse;
mod benchmark_warnings;
pub mod bisect;
mod disagreement;
pub mod equivalence;
pub mod gate;
pub mod hpt;
mod input_warnings;
mod options;
mod outcome;
pub mod paired;
pub mod points;
pub mod race;
pub mod sequential;
pub mod shape;
pub mod speedup_test;
mod variance;

pub use analyse::analyse;
pub use benchmark_warnings::PRACTICAL_RUNS;
pub use disagreement::{Disagreement, DisagreementKind, disagreement, disagreements};
pub use options::{Checked, Design, Options, PerLook, Remedy};
pub use outcome::{
    Alpha, Analysis, BenchmarkAnalysis, ByDirection, CannotFail, Cause, Compared, Confidence,
    ConfidencePoint, Differs, Direction, FailOn, GainSpeedup, GateOutcome, GateReason,
    HptBenchmark, HptCause, HptSummary, MeanTest, MedianTest, OutOfReach, Overall, PairedTest,
    Pairing, Proportion, Proportions, RaceCause, RunPoint, ShapeCause, Shift, SideSummary,
    SpeedupOf, Speedups, Subject, SuiteAnalysis, TMethod, TestCause, Threshold, Undecided,
    VarianceComponents, Verdict, Warning, WarningKind, only_counts,
};
