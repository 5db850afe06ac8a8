//! Why a warning was raised, as data: the facts and numbers each report words in its own terms
//! (`report::words`). The protocols fill these; nothing here is worded.
//!
//! Must not: hold a sentence the protocol wrote (the one text is [`Cause::Note`], what an input's reader
//! noted, shown as it is), or import the protocol modules that raise these causes.

use super::{Direction, Verdict, WarningKind};
use crate::model::{Basis, Side, Unit};
use crate::stats::StatsError;
use crate::stats::modes::Mode;

/// Which speedup a protocol tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedupOf {
    /// The mean protocol's.
    Mean,
    /// The median protocol's.
    Median,
}

impl SpeedupOf {
    /// "mean" or "median".
    pub fn name(self) -> &'static str {
        match self {
            SpeedupOf::Mean => "mean",
            SpeedupOf::Median => "median",
        }
    }
}

/// What a statistic that could not be computed was applied to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// One side's sample.
    Side(Side),
    /// BASE and HEAD together (a two-sample test).
    Both,
    /// BASE and HEAD, each minus its median (the location-shift check).
    MedianCentred,
}

/// What a warning of the Speedup-Test protocols is about (paper 000 §6.2.5, `docs/speedup-test.md` §4):
/// which side, which test, which speedup. `speeduptest` words it as the paper does, the other commands in
/// their own words (`report::words`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestCause {
    /// W1: this side has 30 values or fewer and is not shown normal, so the t-test cannot decide the mean.
    TTestTooSmall(Side),
    /// W2: this side is large and not normal; the t-test runs anyway.
    NotNormal(Side),
    /// W3: the sides differ by more than a shift and this side has 30 values or fewer, so the rank-sum
    /// test cannot decide the median.
    RankSumTooSmall(Side),
    /// W4: the sides differ by more than a shift on large samples; the rank-sum test runs anyway.
    NotLocationShift,
    /// W5 (mean) and W6 (median): no confidence level above 50 % makes this speedup significant.
    NoLevel(SpeedupOf),
    /// A statistic that could not be computed (constant data, too few values, ...): the test, what it
    /// was applied to, and the reason.
    Inapplicable {
        /// The test, as the paper names it ("Shapiro-Wilk's test").
        test: &'static str,
        /// What it was applied to.
        subject: Subject,
        /// Why it could not be computed (the statistics' error, in its own words).
        reason: String,
    },
}

/// The tests of the median protocol, as [`TestCause::Inapplicable`] names them: every other test that could
/// not be computed is the mean protocol's.
const MEDIAN_TESTS: [&str; 2] = ["Kolmogorov-Smirnov's test", "Wilcoxon-Mann-Whitney's test"];

impl TestCause {
    /// A test that could not be computed on `subject`, for `error`.
    pub(crate) fn inapplicable(
        test: &'static str,
        subject: Subject,
        error: &StatsError,
    ) -> TestCause {
        TestCause::Inapplicable {
            test,
            subject,
            reason: error.to_string(),
        }
    }

    /// The kind of warning this cause gives.
    pub fn kind(&self) -> WarningKind {
        match self {
            TestCause::TTestTooSmall(_) | TestCause::RankSumTooSmall(_) => {
                WarningKind::TooFewSamples
            }
            TestCause::NotNormal(_) => WarningKind::NotNormal,
            TestCause::NotLocationShift => WarningKind::NotLocationShift,
            TestCause::NoLevel(_) => WarningKind::NoConfidenceLevel,
            TestCause::Inapplicable { .. } => WarningKind::Inapplicable,
        }
    }

    /// Whether this cause leaves the benchmark's verdict (the median protocol's) as it reads: the mean
    /// protocol's own conditions (W1, W2, W5, a test of the mean that could not be computed) and W6 (no
    /// level makes the median significant: the verdict already says it is not). The verdict is at risk under
    /// W3 and W4, and when a test of the median could not be computed.
    pub fn is_detail(&self) -> bool {
        match self {
            TestCause::TTestTooSmall(_) | TestCause::NotNormal(_) | TestCause::NoLevel(_) => true,
            TestCause::RankSumTooSmall(_) | TestCause::NotLocationShift => false,
            TestCause::Inapplicable { test, .. } => !MEDIAN_TESTS.contains(test),
        }
    }
}

/// Why a warning was raised, with the numbers its words need.
#[derive(Debug, Clone, PartialEq)]
pub enum Cause {
    /// A condition of the Speedup-Test protocols.
    Test(TestCause),
    /// Fewer than 3 runs on a side, too few for the rank-sum test: no test can apply (one warning in place
    /// of one per test and side).
    TooFewRuns {
        /// BASE's runs.
        base: usize,
        /// HEAD's runs.
        head: usize,
    },
    /// The verdict's basis under `--paired`: the benchmark was decided on `pairs` blocks that ran both sides,
    /// and `dropped` runs per side were left out because their block has no run of the other side.
    PairedByBlock {
        /// How many blocks ran both sides.
        pairs: usize,
        /// Per side, the runs left out.
        dropped: crate::model::BaseHead<usize>,
    },
    /// `--paired` was asked, and `count` of the `total` tested benchmarks could not be paired by block (the
    /// first one's `reason`): the independent design decided those (`docs/replication.md` §7).
    NotPaired {
        /// How many benchmarks.
        count: usize,
        /// How many benchmarks were tested.
        total: usize,
        /// Why the first of them could not be paired.
        reason: crate::model::Unpairable,
    },
    /// Sizes of 3 or more per side with which the rank-sum test cannot reach the confidence whatever the
    /// times: no verdict.
    CannotReach {
        /// BASE's runs.
        base: usize,
        /// HEAD's runs.
        head: usize,
        /// The confidence of the benchmark's decisions.
        confidence: f64,
    },
    /// Benchmarks with 3 to 30 observations on a side, where the protocols lean on their small-sample
    /// models.
    SmallSamples {
        /// How many benchmarks.
        small: usize,
        /// Of how many compared.
        total: usize,
    },
    /// A benchmark that differs in no direction and is not shown unchanged either (`docs/verdicts.md` §2).
    Undecided(Undecided),
    /// The mean protocol finds a direction the median protocol does not share.
    ProtocolsDisagree {
        /// The mean protocol's significant direction.
        mean: Direction,
        /// The median protocol's, `None` when it finds no significant difference.
        median: Option<Direction>,
    },
    /// BASE and HEAD report the benchmark in different units.
    UnitChanged {
        /// BASE's unit.
        base: Unit,
        /// HEAD's unit.
        head: Unit,
    },
    /// BASE and HEAD have different numbers of samples.
    UnequalSizes {
        /// BASE's.
        base: usize,
        /// HEAD's.
        head: usize,
    },
    /// Counts of a deterministic measurement, compared exactly rather than tested.
    Exact,
    /// BASE and HEAD hold the very same samples for every benchmark: the same results were given twice.
    SameSamples,
    /// Benchmarks measured in one process per side, whose confidence covers those two processes only.
    OneProcess {
        /// How many benchmarks.
        count: usize,
        /// Of how many compared.
        total: usize,
        /// The standard deviation of process effects, in percent, that the gate allows for them.
        process_sd_pct: f64,
        /// The change, in percent, below which no such benchmark is called faster or slower (one
        /// benchmark's noise floor at the confidence).
        floor_pct: f64,
    },
    /// Benchmarks present on one side only, not compared.
    Unmatched {
        /// How many only in BASE.
        base_only: usize,
        /// How many only in HEAD.
        head_only: usize,
    },
    /// The two sides were measured with a different CPU, rustc version or host.
    EnvironmentDiffers(Vec<Differs>),
    /// A condition of HPT across the suite.
    Hpt(HptCause),
    /// A condition of the shape of a benchmark's distributions (paper 001).
    Shape(ShapeCause),
    /// A condition of a race of several revisions.
    Race(RaceCause),
    /// `speeduptest`: the weights cannot be used (the aggregate's error, in its own words); equal weights
    /// are used.
    UnusableWeights(String),
    /// `speeduptest`: `Coef` is given for some benchmarks only; equal weights are used.
    CoefMissing,
    /// What an input's reader noted, shown as it is (the one text a warning holds: the reader wrote it).
    Note {
        /// The note.
        text: String,
        /// What to do about it: `None`, but for a test's fixture (`Warning::with_hint`).
        hint: Option<String>,
    },
}

/// Why a benchmark that differs in no direction is not called unchanged, and the numbers of what would
/// decide it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Undecided {
    /// ε, in percent.
    pub margin_pct: f64,
    /// The risk of each decision at one look: alpha / looks.
    pub alpha: f64,
    /// The looks of the plan that measured the runs (0 or 1 for one).
    pub looks: u32,
    /// The speedup's interval at 1 − 2 alpha / looks, when it can be computed.
    pub interval: Option<(f64, f64)>,
    /// The wider margin (the futility rule's, `FUTILITY_FACTOR` × ε) that the interval rules out, when it
    /// does.
    pub ruled_out_pct: Option<f64>,
    /// The change the test would see at this noise, in percent, when known.
    pub minimum_detectable_pct: Option<f64>,
    /// The fewest runs of a side.
    pub runs: usize,
    /// The process runs per side that would see ±ε, when more runs are a practical remedy
    /// (`Some(None)` when the noise is too high for a practical number); `None` without a hint.
    pub runs_needed: Option<Option<usize>>,
}

/// What of the environment differs between the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Differs {
    /// The CPU model.
    Cpu,
    /// The rustc version.
    Rustc,
    /// The host name.
    Host,
}

/// What HPT noticed about the suite (paper 003), with its numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HptCause {
    /// `--speedup-under-test` not a positive number.
    BadGamma(f64),
    /// No benchmark present on both sides.
    NoBenchmark,
    /// No benchmark differs significantly.
    NoDifference,
    /// The benchmarks that differ balance out.
    Balanced,
    /// The r-speedup search stopped at its bound.
    SearchBounded {
        /// The bound, a speedup.
        max: f64,
        /// The confidence r.
        r: f64,
        /// The direction searched.
        direction: Direction,
    },
    /// Too few benchmarks for HPT to reach confidence r whatever the times.
    TooFewBenchmarks {
        /// The benchmarks.
        n: usize,
        /// The confidence r.
        r: f64,
        /// The highest confidence n benchmarks reach, 1 − 1/2^n.
        max_confidence: f64,
        /// The fewest benchmarks that can reach r.
        needed: u32,
    },
    /// Confidence r is reached in neither direction.
    Unreached(f64),
    /// A benchmark's HPT entry says otherwise than its verdict.
    Disagrees {
        /// HPT's winner, `None` for a tie.
        hpt: Option<Direction>,
        /// The benchmark's verdict.
        verdict: Verdict,
    },
    /// Benchmarks HPT counts as ties because a side is empty, not finite or not positive.
    Unusable(usize),
    /// Benchmarks whose difference of medians HPT uses as it is (too few runs for its test).
    AsIs(usize),
    /// Benchmarks with different sample counts for BASE and HEAD.
    UnequalSizes(usize),
}

/// What the shape of a benchmark's sides calls for (`docs/mixtures.md`), with what the words need.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeCause {
    /// A side has two modes or more.
    Modes {
        /// The benchmark.
        name: String,
        /// The side.
        side: Side,
        /// What was fitted: one value per process run, or the samples of one process.
        basis: Basis,
        /// The modes counted (locations in nanoseconds), two or more.
        modes: Vec<Mode>,
        /// The unit the report prints the benchmark in.
        unit: Unit,
    },
    /// BASE and HEAD have different numbers of modes.
    ModesChanged {
        /// The benchmark.
        name: String,
        /// BASE's modes.
        base: usize,
        /// HEAD's modes.
        head: usize,
    },
    /// A side of 3 values or more, all equal: too few distinct values to model the shape.
    TooFewDistinctValues {
        /// The benchmark.
        name: String,
        /// The side.
        side: Side,
        /// Its values.
        values: usize,
    },
}

/// Why the gate fails the comparison: one reason, with its numbers.
#[derive(Debug, Clone, PartialEq)]
pub enum GateReason {
    /// HPT finds the suite slower at the confidence (`--fail-on suite`).
    SuiteSlower {
        /// The threshold the suite was held to, in percent (0 for none).
        threshold: f64,
        /// The confidence of the gate.
        confidence: f64,
        /// HPT's confidence that HEAD is slower.
        level: f64,
        /// How many times slower HEAD is at the confidence (1 / the r-speedup).
        factor: f64,
    },
    /// A benchmark the Holm-corrected tests find slower (`--fail-on any`).
    BenchmarkSlower {
        /// The benchmark.
        name: String,
        /// The threshold it was held to, in percent (0 for none).
        held_to: f64,
        /// Its one-sided p-value.
        p: f64,
        /// Its Holm-adjusted p-value.
        adjusted: f64,
        /// Its estimated slowdown in percent (HEAD's median against BASE's) when it was held to the
        /// threshold by the estimate (process runs); `None` when the test itself was of "more than the
        /// threshold" (one process per side, held to the floor) or there is no threshold.
        slowdown: Option<f64>,
    },
    /// A count of a deterministic measurement that grew beyond the threshold (`--fail-on any`).
    CountExceeded {
        /// The benchmark.
        name: String,
        /// How much HEAD's count exceeds BASE's, in percent.
        increase: f64,
        /// The threshold, in percent (0 for none).
        threshold: f64,
    },
    /// A bench target or benchmark that BASE measured and HEAD could not (it did not build, its process
    /// failed, its harness reported an error): a finding about HEAD, not a usage error
    /// (`docs/verdicts.md` §8). Not raised under `--allow-broken`.
    BrokenAtHead {
        /// The bench target's or benchmark's name.
        name: String,
        /// A bench target or one benchmark.
        granularity: crate::model::coverage::Granularity,
    },
    /// A reason given as text by a test's fixture.
    #[cfg(test)]
    Text(String),
}

/// A benchmark the gate could not see a slowdown of the threshold's size in: undecided, with a minimum
/// detectable effect above the threshold (`docs/verdicts.md` §6).
#[derive(Debug, Clone, PartialEq)]
pub struct OutOfReach {
    /// The benchmark.
    pub name: String,
    /// Its minimum detectable effect at the runs it had, in percent.
    pub minimum_detectable_pct: f64,
    /// The slowdown, in percent, that the gate would catch there with the power of the minimum detectable
    /// effect: the effect itself, or the threshold where that is larger (the gate fails on a benchmark
    /// confirmed slower whose estimate is beyond the threshold). Slowdowns below it would likely pass.
    pub reach_pct: f64,
}

/// Why the gate cannot fail whatever the times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CannotFail {
    /// `--fail-on suite` over counts of a deterministic measurement only, which HPT does not rank.
    OnlyCounts,
    /// `--fail-on suite` with fewer benchmarks than HPT needs to reach the confidence.
    TooFewBenchmarks {
        /// The benchmarks.
        count: usize,
        /// The highest confidence HPT reaches with them.
        best: f64,
        /// The gate's confidence.
        confidence: f64,
        /// The fewest benchmarks that can reach it.
        needed: u32,
    },
}

/// What a race of several revisions noticed about one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub enum RaceCause {
    /// The benchmark exists in one revision only: nothing to race.
    Alone {
        /// The benchmark.
        name: String,
        /// The label of the revision that has it.
        revision: String,
    },
    /// Revisions neither shown slower than the best nor equivalent to it after the last look.
    Open {
        /// The benchmark.
        name: String,
        /// The most runs of a revision.
        runs: usize,
        /// How many revisions are still undecided.
        survivors: usize,
        /// ε of the equivalence stop, in percent.
        margin_pct: f64,
    },
}
