//! Existing results on disk -> [`crate::model::Results`], one file per input format, detected from content.
//!
//! `cargo speedup compare BASE HEAD` reads each side with [`load`]. A side is one of (`docs/formats.md`,
//! `docs/usage.md` §3):
//!
//! - a file, whose format is detected from its content, never from its extension: our record JSON
//!   ([`record`]), the raw timing JSON ([`raw_json`]), hyperfine `--export-json` ([`hyperfine`]), Google
//!   Benchmark JSON ([`google_benchmark`]), cargo-criterion `--message-format=json` lines
//!   ([`cargo_criterion`]), Go benchmark text ([`go`]), divan's printed tree ([`divan`]), libtest bench
//!   text or JSON ([`libtest`]), a gungraun / iai-callgrind summary ([`gungraun`]) or Bencher Metric
//!   Format JSON ([`bmf`]); `-` reads standard input;
//! - a criterion directory ([`criterion`]): a root such as `target/criterion` (its `new` samples), or one
//!   benchmark's baseline directory such as `target/criterion/fib/before`;
//! - a criterion baseline name (`before`), looked up in the criterion home resolved as criterion does.
//!
//! A *selector* after `#` picks part of a source: `FILE#rev=main` (hyperfine: the runs whose parameter `rev`
//! is `main`, see [`hyperfine`]), `FILE#cpu_time` (Google Benchmark: CPU instead of real time),
//! `DIR#before` (criterion: baseline `before` under the root `DIR`). A path that exists as given is never
//! split at `#`.
//!
//! The files: `options.rs` (how sides are read), `load.rs` (a spec to results), `bytes.rs` (an input's bytes
//! and text), `detect.rs` (which format a text is), `diagnose.rs` (why a text is no format), `error.rs` (the
//! errors), `top_level.rs` (the top level of a JSON document), `builder.rs` (the shared building of results),
//! one file per format, and `limits.rs`, `foreign.rs`, `unusable.rs`, `events.rs` for what several formats
//! share. This file is their index and holds no code.
//!
//! This module must not start benchmarks or analyse anything: it only reads, validates (through
//! [`Sample::new`](crate::model::Sample::new)) and reports non-fatal oddities as
//! [`Results::notes`](crate::model::Results::notes). Foreign serde structs stay private to the format's file.

pub(crate) mod bmf;
pub(crate) mod cargo_criterion;
pub(crate) mod criterion;
pub(crate) mod divan;
pub(crate) mod events;
pub(crate) mod go;
pub(crate) mod google_benchmark;
pub(crate) mod gungraun;
pub(crate) mod hyperfine;
pub(crate) mod libtest;
pub(crate) mod limits;
pub(crate) mod part;
pub(crate) mod raw_json;
pub(crate) mod record;
pub(crate) mod speeduptest_sh;

mod builder;
mod bytes;
mod detect;
mod diagnose;
mod error;
#[cfg(test)]
mod fixture_tests;
mod foreign;
#[cfg(test)]
mod fuzz_tests;
mod load;
mod options;
mod top_level;
mod unusable;

pub(crate) use builder::{Builder, ValuesFrom, invalid, parse_unit};
pub(crate) use bytes::{read_file, text_of};
pub(crate) use detect::{FILE_FORMATS, InputFormat, detect};
pub(crate) use error::SourceError;
pub(crate) use load::{Location, check_sides, load, locate};
pub(crate) use options::ReadOptions;
