//! The data every stage agrees on: validated samples of execution times, benchmarks, and BASE/HEAD pairs.
//!
//! Sources produce [`Results`] (one per side); [`Suite::pair`] matches them by name. A benchmark's data on a
//! side is a list of process runs ([`Runs`]), each holding the samples taken inside it ([`Run`]); a
//! [`Sample`] is the only way numbers enter: non-empty, finite, strictly positive and in nanoseconds, so no
//! later stage re-checks. The statistics see one value per run ([`Pair::observations`],
//! `docs/replication.md`). [`merge`] joins the parts of one comparison, measured by several jobs, into
//! one suite (`cargo speedup merge`); [`fingerprint`] is the environment a measuring command records, which
//! merging compares. This module does no I/O.

pub mod coverage;
pub mod fingerprint;
pub mod merge;

use std::fmt;

mod design;
pub use design::{Design, Remedy};

/// A time unit, or the name of a count. Samples are stored in nanoseconds; the unit is kept for display.
///
/// A [`Unit::Count`] is not a time: it counts the events of a deterministic measurement (the instructions
/// or cache hits Valgrind counts for gungraun / iai-callgrind, `docs/formats.md` §14). Its values are
/// stored as counted (scale 1), lower is better like a time, and a benchmark in such a unit is compared
/// exactly ([`Basis::Deterministic`]), never tested. What is counted is one of a fixed list
/// (`sources::events`), so the unit stays `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Nanoseconds.
    Ns,
    /// Microseconds (`us`, printed `µs`).
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
    /// A count of events of a deterministic measurement.
    Count(&'static Counted),
}

/// What a [`Unit::Count`] counts, named as reports print it and as the Bencher Metric Format names it.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Counted {
    /// As reports print it: `instructions`, `L1 hits`, `bytes allocated`.
    pub name: &'static str,
    /// The Bencher Metric Format's measure slug: `instructions`, `l1-hits`, `total-bytes`.
    pub slug: &'static str,
}

impl Counted {
    /// The name of benchmark `benchmark`'s count of this: `benchmark (instructions)`, as the readers of
    /// counts name it.
    pub fn benchmark_name(&self, benchmark: &str) -> String {
        format!("{benchmark} ({})", self.name)
    }

    /// The benchmark a count's `name` was made from by [`Counted::benchmark_name`].
    pub fn benchmark_of<'a>(&self, name: &'a str) -> Option<&'a str> {
        name.strip_suffix(')')?
            .strip_suffix(self.name)?
            .strip_suffix(" (")
    }
}

impl Unit {
    /// Nanoseconds in one of this unit; 1 for a count, whose values are stored as counted.
    pub fn nanos(self) -> f64 {
        match self {
            Unit::Ns | Unit::Count(_) => 1.0,
            Unit::Us => 1e3,
            Unit::Ms => 1e6,
            Unit::S => 1e9,
        }
    }

    /// Whether this is a count of a deterministic measurement rather than a time.
    pub fn is_count(self) -> bool {
        matches!(self, Unit::Count(_))
    }

    /// Parses the unit names of the raw timing JSON and of the common formats (`ns`, `us`, `µs`, `ms`, `s`).
    pub fn parse(text: &str) -> Option<Unit> {
        match text.trim() {
            "ns" => Some(Unit::Ns),
            "us" | "µs" | "μs" => Some(Unit::Us),
            "ms" => Some(Unit::Ms),
            "s" => Some(Unit::S),
            _ => None,
        }
    }

    /// The largest unit in which `nanos` is at least 1, for readable output.
    pub fn readable(nanos: f64) -> Unit {
        [Unit::S, Unit::Ms, Unit::Us]
            .into_iter()
            .find(|u| nanos >= u.nanos())
            .unwrap_or(Unit::Ns)
    }

    /// The unit's name in the JSON contract and the input files: `ns`, `us`, `ms` or `s`; a count's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Ns => "ns",
            Unit::Us => "us",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Count(counted) => counted.name,
        }
    }

    /// The unit's symbol as people read it (`µs`, where the contract and the input files write `us`).
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Us => "µs",
            other => other.as_str(),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The range of times, in nanoseconds, that the statistics compute with. Far outside any execution time
/// (1e-100 ns to 1e100 ns), it keeps sums of squares finite and nonzero, where a value like 1e200 would make
/// a variance infinite.
pub const NANOS_RANGE: (f64, f64) = (1e-100, 1e100);

/// Why a list of numbers is not a valid sample. `index` counts from 0; messages count from 1.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    /// The list holds no value.
    #[error("no observations")]
    Empty,
    /// A value is NaN, infinite, zero or negative.
    #[error(
        "observation {} is {}: times must be finite and greater than zero",
        .index + 1, echoed(*.value)
    )]
    Invalid {
        /// The value's position, from 0.
        index: usize,
        /// The value as read.
        value: f64,
    },
    /// A value is outside [`NANOS_RANGE`] once converted to nanoseconds.
    #[error(
        "observation {} is {} {}: outside the range of times this tool computes with (1e-100 to \
         1e100 ns)\nhint: check the unit and the values of this benchmark",
        .index + 1, echoed(*.value), .unit.symbol()
    )]
    OutOfRange {
        /// The value's position, from 0.
        index: usize,
        /// The value as read, in `unit`.
        value: f64,
        /// The unit it was read in.
        unit: Unit,
    },
}

/// A value read from a file, as its writer would recognise it: as Rust prints it, unless that takes more than
/// 16 characters (`1e308` is not 309 digits, `1e-100` not 101).
fn echoed(value: f64) -> String {
    let plain = value.to_string();
    if plain.len() > 16 {
        format!("{value:e}")
    } else {
        plain
    }
}

/// Observations of one benchmark on one side: execution times in nanoseconds, finite and > 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample(Vec<f64>);

impl Sample {
    /// Validates `values` given in `unit` and converts them to nanoseconds.
    pub fn new(values: Vec<f64>, unit: Unit) -> Result<Sample, SampleError> {
        if values.is_empty() {
            return Err(SampleError::Empty);
        }
        if let Some((index, &value)) = values
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && **v > 0.0))
        {
            return Err(SampleError::Invalid { index, value });
        }
        let scale = unit.nanos();
        let (low, high) = NANOS_RANGE;
        if let Some((index, &value)) = values
            .iter()
            .enumerate()
            .find(|(_, v)| !(low..=high).contains(&(**v * scale)))
        {
            return Err(SampleError::OutOfRange { index, value, unit });
        }
        Ok(Sample(values.into_iter().map(|v| v * scale).collect()))
    }

    /// The observations in nanoseconds.
    pub fn nanos(&self) -> &[f64] {
        &self.0
    }

    /// The number of observations.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: a sample is never empty; kept for the `len` convention.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One process run of one benchmark: the samples the harness took inside that process, in nanoseconds.
///
/// The run's [`value`](Run::value) is its observation: the median of its samples. The median, not the mean,
/// because a batch hit by preemption inside an otherwise quiet run would move a mean and not a median; for a
/// criterion run the samples are the per-iteration times of its batches (`times[k] / iters[k]`), so the
/// value is the median per-iteration time, criterion's own `median` estimate. The samples themselves only
/// estimate that value and the noise inside the process (`docs/replication.md` §2): they are reachable
/// here, one run at a time, and nowhere as one list across runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// `None` for a run of one sample, which is then `value`: a raw input's independent runs (millions of
    /// them in a large file) take no allocation of their own.
    samples: Option<Sample>,
    value: f64,
    /// Which linked layout of the executable ran (`docs/replication.md` §4), when known.
    layout: Option<u32>,
}

impl Run {
    /// A run made of `samples`, run by the executable of `layout` when known.
    pub fn new(samples: Sample, layout: Option<u32>) -> Run {
        // A `Sample` is never empty, so the median exists.
        let value = crate::stats::describe::median(samples.nanos()).unwrap_or(samples.nanos()[0]);
        Run {
            samples: (samples.len() > 1).then_some(samples),
            value,
            layout,
        }
    }

    /// The run's observation, in nanoseconds: the median of its samples.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The samples taken inside this one process, in nanoseconds.
    pub fn samples(&self) -> &[f64] {
        match &self.samples {
            Some(samples) => samples.nanos(),
            None => std::slice::from_ref(&self.value),
        }
    }

    /// Which linked layout of the executable ran this process (`docs/replication.md` §4); `None` when
    /// unknown.
    pub fn layout(&self) -> Option<u32> {
        self.layout
    }

    /// Tags the run with the layout that ran it.
    pub fn set_layout(&mut self, layout: Option<u32>) {
        self.layout = layout;
    }
}

/// The process runs of one benchmark on one side: never empty.
///
/// The statistics see one value per run ([`Runs::values`]); a side that came from a single process has one
/// run holding all of its samples, and only [`Pair::observations`] may decide to compare such samples, and
/// then says so ([`Basis::OneProcess`]). Nothing else turns the samples of several runs into one list.
#[derive(Debug, Clone, PartialEq)]
pub struct Runs(Vec<Run>);

impl Runs {
    /// Runs in the order they ran; an empty list is an error.
    pub fn new(runs: Vec<Run>) -> Result<Runs, SampleError> {
        if runs.is_empty() {
            return Err(SampleError::Empty);
        }
        Ok(Runs(runs))
    }

    /// Each value of `sample` is one independent process run (hyperfine, Go, the raw JSON's `samples`).
    pub fn independent(sample: Sample) -> Runs {
        Runs(
            sample
                .nanos()
                .iter()
                .map(|&value| Run {
                    samples: None,
                    value,
                    layout: None,
                })
                .collect(),
        )
    }

    /// Every value of `sample` was measured in one process (a criterion baseline, a cargo-criterion stream).
    pub fn one_process(sample: Sample) -> Runs {
        Runs(vec![Run::new(sample, None)])
    }

    /// The runs, in the order they ran.
    pub fn runs(&self) -> &[Run] {
        &self.0
    }

    /// One value per process run, in nanoseconds, in the order they ran.
    pub fn values(&self) -> Vec<f64> {
        self.0.iter().map(Run::value).collect()
    }

    /// The number of process runs.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: kept for the `len` convention.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The only run, when the whole side is one process with more than one sample.
    fn single_process(&self) -> Option<&Run> {
        match self.0.as_slice() {
            [run] if run.samples().len() > 1 => Some(run),
            _ => None,
        }
    }
}

/// What the values a comparison works on are ([`Pair::observations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Basis {
    /// One value per process run on each side: the observation of paper 000 and of this tool.
    ProcessRuns,
    /// Each side is one process: the values are the samples inside it, which show the noise within a
    /// process only, so a confidence computed on them covers that one process per side.
    OneProcess,
    /// Both sides are counts of a deterministic measurement ([`Unit::Count`]): one value per run, normally
    /// one run per side, and the sides' medians are compared exactly, not tested (`docs/verdicts.md` §7).
    Deterministic,
}

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// BASE, the reference revision.
    Base,
    /// HEAD, the revision whose speed is judged.
    Head,
}

impl Side {
    /// `BASE` or `HEAD`, as reports name the sides.
    pub fn name(self) -> &'static str {
        match self {
            Side::Base => "BASE",
            Side::Head => "HEAD",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BaseHead<T> {
    /// BASE's value.
    pub base: T,
    /// HEAD's value.
    pub head: T,
}

impl<T> BaseHead<T> {
    /// A pair of `base` and `head`.
    pub fn new(base: T, head: T) -> BaseHead<T> {
        BaseHead { base, head }
    }

    /// The value of `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Base => &self.base,
            Side::Head => &self.head,
        }
    }

    /// Applies `f` to both sides.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BaseHead<U> {
        BaseHead {
            base: f(self.base),
            head: f(self.head),
        }
    }

    /// Both sides by reference.
    pub fn as_ref(&self) -> BaseHead<&T> {
        BaseHead {
            base: &self.base,
            head: &self.head,
        }
    }
}

/// The values a comparison of one benchmark works on, and what they are.
#[derive(Debug, Clone, PartialEq)]
pub struct Observations {
    /// Process runs, or the samples of one process per side.
    pub basis: Basis,
    /// In nanoseconds.
    pub values: BaseHead<Vec<f64>>,
}

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
    /// What a measuring command recorded about the run (`crate::model::fingerprint`); `None` for foreign inputs.
    pub fingerprint: Option<crate::model::fingerprint::Fingerprint>,
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

/// A benchmark present on both sides.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The benchmark's name, the same on both sides.
    pub name: String,
    /// The benchmark's BASE side.
    pub base: Benchmark,
    /// The benchmark's HEAD side.
    pub head: Benchmark,
}

impl Pair {
    /// The values every statistic of this benchmark is computed on (`docs/replication.md` §2 and §5): one per
    /// process run, unless both sides are one process each, when the samples inside those two processes are
    /// all there is ([`Basis::OneProcess`]). A side of one run facing several runs stays one observation.
    /// Counts of a deterministic measurement on both sides are [`Basis::Deterministic`], one value per run.
    pub fn observations(&self) -> Observations {
        if self.base.unit.is_count() && self.head.unit.is_count() {
            return Observations {
                basis: Basis::Deterministic,
                values: BaseHead::new(self.base.runs.values(), self.head.runs.values()),
            };
        }
        match (
            self.base.runs.single_process(),
            self.head.runs.single_process(),
        ) {
            (Some(base), Some(head)) => Observations {
                basis: Basis::OneProcess,
                values: BaseHead::new(base.samples().to_vec(), head.samples().to_vec()),
            },
            _ => Observations {
                basis: Basis::ProcessRuns,
                values: BaseHead::new(self.base.runs.values(), self.head.runs.values()),
            },
        }
    }
}

/// BASE and HEAD matched by benchmark name.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    /// Benchmarks present on both sides, in BASE's order.
    pub pairs: Vec<Pair>,
    /// Names present only in BASE.
    pub base_only: Vec<String>,
    /// Names present only in HEAD.
    pub head_only: Vec<String>,
    /// Where BASE was measured.
    pub base_environment: Environment,
    /// Where HEAD was measured.
    pub head_environment: Environment,
    /// Reading notes of both sides.
    pub notes: Vec<String>,
    /// Benchmarks not run because BASE and HEAD built identical executables for them: unchanged by
    /// construction (`docs/replication.md` §3). Never also in `pairs`.
    pub identical: Vec<String>,
    /// How the runs were had: the looks of the plan that measured them, and how more can be had.
    pub design: Design,
    /// What was not compared besides the names of one side, with the side and why ([`coverage`]).
    pub left_out: Vec<coverage::LeftOut>,
}

impl Suite {
    /// Matches BASE and HEAD benchmarks by exact name. Names on one side only are listed, never dropped
    /// silently. The suite is that of results read as they are ([`Design::READ`], nothing identical); a
    /// command that measured them says so where it builds the suite (`Suite { design, ..Suite::pair(..) }`).
    pub fn pair(base: Results, head: Results) -> Suite {
        let mut head_benchmarks: Vec<Option<Benchmark>> =
            head.benchmarks.into_iter().map(Some).collect();
        let index: std::collections::HashMap<String, usize> = head_benchmarks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.as_ref().map(|b| b.name.clone()).unwrap_or_default(), i))
            .collect();
        let mut pairs = Vec::new();
        let mut base_only = Vec::new();
        for b in base.benchmarks {
            match index.get(&b.name).and_then(|&i| head_benchmarks[i].take()) {
                Some(h) => pairs.push(Pair {
                    name: b.name.clone(),
                    base: b,
                    head: h,
                }),
                None => base_only.push(b.name),
            }
        }
        let head_only: Vec<String> = head_benchmarks
            .into_iter()
            .flatten()
            .map(|b| b.name)
            .collect();
        let mut notes = base.notes;
        notes.extend(head.notes);
        let left_out = coverage::join(base.left_out, head.left_out);
        // A name the other side left out is explained there, not "only in BASE".
        let explained = |name: &String| left_out.iter().any(|l| &l.name == name);
        Suite {
            pairs,
            base_only: base_only.into_iter().filter(|n| !explained(n)).collect(),
            head_only: head_only.into_iter().filter(|n| !explained(n)).collect(),
            base_environment: base.environment,
            head_environment: head.environment,
            notes,
            identical: vec![],
            design: Design::READ,
            left_out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench(name: &str, values: &[f64]) -> Benchmark {
        Benchmark {
            name: name.into(),
            runs: Runs::independent(Sample::new(values.to_vec(), Unit::Us).unwrap()),
            unit: Unit::Us,
            counters: Vec::new(),
        }
    }

    fn one_process(values: &[f64]) -> Benchmark {
        Benchmark {
            name: "x".into(),
            runs: Runs::one_process(Sample::new(values.to_vec(), Unit::Ns).unwrap()),
            unit: Unit::Ns,
            counters: Vec::new(),
        }
    }

    fn runs(samples: &[&[f64]]) -> Benchmark {
        let runs = samples
            .iter()
            .map(|s| Run::new(Sample::new(s.to_vec(), Unit::Ns).unwrap(), None))
            .collect();
        Benchmark {
            name: "x".into(),
            runs: Runs::new(runs).unwrap(),
            unit: Unit::Ns,
            counters: Vec::new(),
        }
    }

    fn pair(base: Benchmark, head: Benchmark) -> Pair {
        Pair {
            name: "x".into(),
            base,
            head,
        }
    }

    #[test]
    fn a_run_is_worth_the_median_of_its_samples() {
        let b = runs(&[&[1.0, 2.0, 9.0], &[4.0, 5.0]]);
        assert_eq!(b.runs.values(), vec![2.0, 4.5]);
        assert_eq!(b.runs.len(), 2);
    }

    #[test]
    fn several_runs_are_compared_one_value_per_run() {
        let p = pair(
            runs(&[&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]]),
            runs(&[&[7.0, 8.0, 9.0], &[1.0, 1.0, 1.0]]),
        );
        let o = p.observations();
        assert_eq!(o.basis, Basis::ProcessRuns);
        assert_eq!(o.values, BaseHead::new(vec![2.0, 5.0], vec![8.0, 1.0]));
    }

    #[test]
    fn two_single_processes_are_compared_on_their_samples_and_say_so() {
        let o = pair(one_process(&[1.0, 2.0, 3.0]), one_process(&[4.0, 5.0])).observations();
        assert_eq!(o.basis, Basis::OneProcess);
        assert_eq!(o.values, BaseHead::new(vec![1.0, 2.0, 3.0], vec![4.0, 5.0]));
    }

    #[test]
    fn one_process_against_several_runs_is_one_observation() {
        let o = pair(
            one_process(&[1.0, 2.0, 3.0]),
            runs(&[&[4.0], &[5.0], &[6.0]]),
        )
        .observations();
        assert_eq!(o.basis, Basis::ProcessRuns);
        assert_eq!(o.values, BaseHead::new(vec![2.0], vec![4.0, 5.0, 6.0]));
    }

    #[test]
    fn independent_values_are_runs_of_one_sample() {
        let o = pair(bench("a", &[1.0, 2.0]), bench("a", &[3.0, 4.0])).observations();
        assert_eq!(o.basis, Basis::ProcessRuns);
        assert_eq!(o.values.base, vec![1000.0, 2000.0]);
    }

    fn results(benchmarks: Vec<Benchmark>) -> Results {
        Results {
            origin: "test".into(),
            benchmarks,
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    #[test]
    fn samples_are_stored_in_nanoseconds() {
        let s = Sample::new(vec![1.5, 2.0], Unit::Ms).unwrap();
        assert_eq!(s.nanos(), &[1.5e6, 2.0e6]);
    }

    #[test]
    fn invalid_observations_are_named() {
        assert_eq!(Sample::new(vec![], Unit::Ns), Err(SampleError::Empty));
        assert_eq!(
            Sample::new(vec![1.0, 0.0], Unit::Ns),
            Err(SampleError::Invalid {
                index: 1,
                value: 0.0
            })
        );
        assert!(Sample::new(vec![f64::NAN], Unit::Ns).is_err());
        assert!(Sample::new(vec![-1.0], Unit::Ns).is_err());
    }

    #[test]
    fn messages_count_observations_from_one() {
        let error = Sample::new(vec![1.0, 2.0, -3.0], Unit::Ns).unwrap_err();
        assert!(
            error.to_string().starts_with("observation 3 is -3"),
            "{error}"
        );
    }

    #[test]
    fn times_too_large_or_small_to_compute_with_are_rejected() {
        // 1e200 ns: its square overflows, which made the F-test's statistic NaN.
        assert_eq!(
            Sample::new(vec![1.0, 1e200], Unit::Ns),
            Err(SampleError::OutOfRange {
                index: 1,
                value: 1e200,
                unit: Unit::Ns
            })
        );
        // In range as written, out of range once converted to nanoseconds.
        assert!(Sample::new(vec![1e95], Unit::S).is_err());
        assert!(Sample::new(vec![1e-300], Unit::Ns).is_err());
        assert!(Sample::new(vec![1e-9, 1e12], Unit::S).is_ok());
    }

    #[test]
    fn pairing_lists_unmatched_names() {
        let base = results(vec![bench("a", &[1.0]), bench("b", &[2.0])]);
        let head = results(vec![bench("c", &[1.0]), bench("a", &[3.0])]);
        let suite = Suite::pair(base, head);
        assert_eq!(suite.pairs.len(), 1);
        assert_eq!(suite.pairs[0].name, "a");
        assert_eq!(suite.pairs[0].head.runs.values(), vec![3000.0]);
        assert_eq!(suite.base_only, vec!["b".to_string()]);
        assert_eq!(suite.head_only, vec!["c".to_string()]);
    }

    #[test]
    fn readable_unit_picks_the_largest_below() {
        assert_eq!(Unit::readable(999.0), Unit::Ns);
        assert_eq!(Unit::readable(1500.0), Unit::Us);
        assert_eq!(Unit::readable(2.5e9), Unit::S);
    }
}

/// The schema name of the comparison's JSON report: `report::json` writes it, `sources::part` reads it
/// back (`docs/json.md`).
pub const REPORT_SCHEMA: &str = "cargo-speedup/1";

/// What one part of a suite split over a CI matrix reported (a comparison's JSON report read back,
/// `sources::part`): the runs it compared and what they were measured with. `model::merge` joins parts.
#[derive(Debug, Clone, PartialEq)]
pub struct PartReport {
    /// The report's `schema`; every part must have the same.
    pub schema: String,
    /// What the part's runs were measured with (commits, settings, tool versions, machine).
    pub fingerprint: crate::model::fingerprint::Fingerprint,
    /// The looks of the plan that measured the part (1 for a fixed plan).
    pub looks: u32,
    /// The paired runs of every benchmark the part compared.
    pub pairs: Vec<Pair>,
    /// Benchmarks left unchanged because BASE and HEAD built identical executables.
    pub identical: Vec<String>,
    /// Benchmarks present in BASE only.
    pub base_only: Vec<String>,
    /// Benchmarks present in HEAD only.
    pub head_only: Vec<String>,
    /// The names the part's report lists as not compared (`not_compared`), and whether each failed the
    /// part's gate: a report words each reason and quotes its first line only, which is not enough to
    /// give back the [`coverage::LeftOut`], so the merge says so in a note instead (`docs/sharding.md` §3).
    pub not_compared: Vec<(String, bool)>,
}
