//! One side's results as a source reads them or a measuring command records them: its benchmarks (their
//! runs, unit and counters) and where they were measured. Must not: pair the sides (`pair.rs`).

use super::fingerprint::Fingerprint;
use super::{Runs, Unit, coverage};

/// One benchmark of one side.
#[derive(Debug, Clone, PartialEq)]
pub struct Benchmark {
    /// The benchmark's name, the key that pairs BASE with HEAD.
    pub name: String,
    /// Its process runs, in nanoseconds.
    pub runs: Runs,
    /// The unit the input used, kept for display.
    pub unit: Unit,
    /// What one iteration processes, when the harness says (divan's `counters`: bytes, chars, cycles or
    /// items per iteration); empty otherwise. Information only: comparisons stay on times.
    pub counters: Vec<Counter>,
}

/// A harness's counter of one benchmark: how much one iteration processes (divan's `BytesCount`,
/// `CharsCount`, `CyclesCount`, `ItemsCount`), kept beside the times for the reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Counter {
    /// What is counted.
    pub kind: CounterKind,
    /// How many per iteration.
    pub per_iteration: f64,
    /// Whether `per_iteration` is the count itself, or an estimate from rounded figures (divan prints a
    /// rate and a time of 4 digits each: a large count is known to about 0.1 % only).
    pub exact: bool,
}

/// What a [`Counter`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterKind {
    /// Bytes (divan's `BytesCount`, printed as `B/s`, `KB/s`, `KiB/s`, ...).
    Bytes,
    /// Characters (`CharsCount`, `char/s`).
    Chars,
    /// Cycles (`CyclesCount`, `Hz`).
    Cycles,
    /// Items (`ItemsCount`, `item/s`).
    Items,
}

impl CounterKind {
    /// Its name in the JSON report: `bytes`, `chars`, `cycles` or `items`.
    pub fn name(self) -> &'static str {
        match self {
            CounterKind::Bytes => "bytes",
            CounterKind::Chars => "chars",
            CounterKind::Cycles => "cycles",
            CounterKind::Items => "items",
        }
    }

    /// The kind named `name` ([`CounterKind::name`]).
    pub fn from_name(name: &str) -> Option<CounterKind> {
        [
            CounterKind::Bytes,
            CounterKind::Chars,
            CounterKind::Cycles,
            CounterKind::Items,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// Where the results were measured, when the input records it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// The CPU model, as the machine names it.
    pub cpu: Option<String>,
    /// The `rustc --version` line.
    pub rustc: Option<String>,
    /// The machine's host name.
    pub host: Option<String>,
    /// What a measuring command recorded about the run (`crate::model::fingerprint`); `None` for foreign
    /// inputs.
    pub fingerprint: Option<Fingerprint>,
}

/// One side's results, as read from a source or measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// What the results were read from (a path, a baseline name, a revision), for messages.
    pub origin: String,
    /// The benchmarks, in the input's order; names are unique.
    pub benchmarks: Vec<Benchmark>,
    /// Where they were measured, when the input says.
    pub environment: Environment,
    /// Warnings raised while reading (dropped runs, ...), in words for the user.
    pub notes: Vec<String>,
    /// What the input names but this side could not use, with why ([`coverage`]): never in `benchmarks`.
    pub left_out: Vec<coverage::LeftOut>,
}
