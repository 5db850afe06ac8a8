//! Every warning in words: what happened (`message`) and what to do about it (`hint`), from its cause
//! ([`Cause`](crate::protocol::Cause)) and the numbers it carries. The protocols raise causes; only this
//! module words them, as hyperfine words its warnings in its output layer.
//!
//! Two wordings of the Speedup-Test protocols' causes: [`ours`], with BASE, HEAD, runs and a remedy that
//! fits the command ([`Remedy`](crate::protocol::Remedy): a flag of the revision form only where the runs are
//! measured here), for every report of `compare`, the revision comparison and the others; and [`papers`],
//! paper 000's text verbatim (`Sample1` being BASE and `Sample2` HEAD, "Please do more than 30 observations
//! of the executions times."), so that the `.warning` file of `speeduptest` reads as SpeedUpTest.sh writes
//! it.
//!
//! Must not: change what a warning is about (its kind), decide, or read back another wording's text.
//!
//! The one match over [`Cause`](crate::protocol::Cause) is in `warning.rs`; the Speedup-Test causes' two
//! wordings are in `test_causes.rs`, HPT's and the gate's in `suite.rs`, the shape's in `shape.rs`, an
//! undecided benchmark's in `undecided.rs`. This file is their index and holds no code: one `mod` line per
//! file, in order.

pub(crate) mod bench_settings;
pub(crate) mod coverage;
pub(crate) mod glossary;
pub(crate) mod measuring;
mod shape;
mod suite;
mod test_causes;
mod undecided;
mod warning;

pub(crate) use suite::{cannot_fail, gate_reason, look_progress, out_of_reach_at_cap};
pub(crate) use warning::{Words, more_runs, ours, papers};
#[cfg(test)]
pub(crate) use warning::{hint, message, paper_message};
