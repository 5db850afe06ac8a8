//! What the protocol decides, as data: the one [`Analysis`] of a comparison (per benchmark, across the
//! suite, and the gate's outcome), its verdicts and warnings, and the checked newtypes of its options
//! ([`Confidence`], [`Alpha`], [`Threshold`]). Reports see these types only.
//!
//! Must not: decide, compute or word anything (the protocol modules do; `report/` words). The newtypes'
//! fields are visible to the protocol modules (`pub(super)`), as they were when the types lived in
//! `protocol/mod.rs`. [`Ranking`], HPT's option that the analysis reports, is defined here (its path stays
//! `protocol::hpt::Ranking`). The causes of warnings ([`Cause`], in `cause.rs`) and the shape of a benchmark
//! ([`BenchmarkShape`], in `shape.rs`) are defined in the files below this one; nothing here imports the
//! protocol modules that fill these types.

mod cause;
mod shape;

pub use cause::{
    CannotFail, Cause, Differs, GateReason, HptCause, OutOfReach, RaceCause, ShapeCause, SpeedupOf,
    Subject, TestCause, Undecided,
};
pub use shape::{BenchmarkShape, MixtureCheck, SideShape};

use crate::model::{BaseHead, Basis, Unit};

/// One value per direction of a one-sided claim: HEAD faster, HEAD slower.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ByDirection<T> {
    /// For "HEAD is faster than BASE".
    pub faster: T,
    /// For "HEAD is slower than BASE".
    pub slower: T,
}

impl<T> ByDirection<T> {
    /// The value for `direction`.
    pub fn get(&self, direction: Direction) -> &T {
        match direction {
            Direction::Faster => &self.faster,
            Direction::Slower => &self.slower,
        }
    }
}

/// Which way a significant difference goes. `Faster` means HEAD is faster than BASE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// HEAD is faster than BASE.
    Faster,
    /// HEAD is slower than BASE.
    Slower,
}

impl Direction {
    /// The lower-case word reports print: "faster" or "slower".
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Faster => "faster",
            Direction::Slower => "slower",
        }
    }

    /// The other direction: what swapping BASE and HEAD makes of this one.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Faster => Direction::Slower,
            Direction::Slower => Direction::Faster,
        }
    }
}

/// A decision about one benchmark or the suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// HEAD is significantly faster than BASE at the requested confidence.
    Faster,
    /// HEAD is significantly slower than BASE at the requested confidence.
    Slower,
    /// No significant difference, and equivalent within ±ε (`--equivalence`): shown unchanged.
    Unchanged,
    /// Neither faster, slower nor shown unchanged: the test could not apply (too few samples, a rejected
    /// model, ...) or the data cannot tell.
    Inconclusive,
}

impl Verdict {
    /// The lower-case word reports and the JSON print: "faster", "slower", "unchanged" or "inconclusive".
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

impl From<Direction> for Verdict {
    fn from(d: Direction) -> Verdict {
        match d {
            Direction::Faster => Verdict::Faster,
            Direction::Slower => Verdict::Slower,
        }
    }
}

/// What kind of problem a warning reports; reports may group or mark warnings by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WarningKind {
    /// Fewer samples than a test needs (paper 000's "too small").
    TooFewSamples,
    /// Shapiro-Wilk rejects normality.
    NotNormal,
    /// Kolmogorov-Smirnov rejects the location-shift model.
    NotLocationShift,
    /// No confidence level above 50 % makes the result significant.
    NoConfidenceLevel,
    /// The mean and median protocols disagree.
    ProtocolsDisagree,
    /// A test could not be computed (constant data, ...).
    Inapplicable,
    /// Each side is one process: the confidence covers those two processes only.
    OneProcess,
    /// BASE and HEAD have different sample sizes.
    UnequalSizes,
    /// A benchmark is present on one side only.
    Unmatched,
    /// The two sides were measured in different environments.
    EnvironmentDiffers,
    /// A property of the suite as a whole (proportion validity, HPT degenerate cases, ...).
    Suite,
    /// Anything else the input reader noticed.
    Input,
    /// Neither a difference nor equivalence within ±ε was shown.
    Undecided,
    /// The shape of a side's distribution: several modes, a changed number of modes, or no model.
    Shape,
    /// Counts of a deterministic measurement, compared exactly rather than tested.
    Exact,
}

/// A warning as data: what happened, as a [`Cause`] with the numbers its words need, which `report/` words
/// for each command (`report::words`), with what to do about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// What kind of problem this is.
    pub kind: WarningKind,
    /// What happened, and the numbers the report's words need.
    pub cause: Cause,
    /// A detail: true when the warning does not change the conclusion a person draws from the verdicts (a
    /// side's normality under a median verdict, an undecided benchmark that the headline already bounds, the
    /// modes of one side, ...). Human reports show details only with `--verbose`; the JSON and the HTML
    /// page's details carry every warning (`docs/verdicts.md` §5).
    pub detail: bool,
}

impl Warning {
    /// A warning of `kind` that shows `text` as it is, without a hint: what an input's reader noted.
    pub fn new(kind: WarningKind, text: impl Into<String>) -> Warning {
        Warning::of(
            kind,
            Cause::Note {
                text: text.into(),
                hint: None,
            },
        )
    }

    /// A warning of `kind` for `cause`.
    pub fn of(kind: WarningKind, cause: Cause) -> Warning {
        Warning {
            kind,
            cause,
            detail: false,
        }
    }

    /// A Speedup-Test protocol's warning, of the kind its cause gives; a detail when the cause concerns only
    /// the mean protocol or only says that nothing is significant ([`TestCause::is_detail`]).
    pub fn test(cause: TestCause) -> Warning {
        Warning {
            kind: cause.kind(),
            detail: cause.is_detail(),
            cause: Cause::Test(cause),
        }
    }

    /// The same warning marked as a detail: shown by human reports only with `--verbose`.
    pub fn as_detail(mut self) -> Warning {
        self.detail = true;
        self
    }

    /// For a test's fixture: the same note ([`Cause::Note`]) with `hint`, what to do about it; a warning of
    /// another cause words its hint from the cause, and is returned as it is.
    #[cfg(test)]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Warning {
        if let Cause::Note { hint: slot, .. } = &mut self.cause {
            *slot = Some(hint.into());
        }
        self
    }

    /// The Speedup-Test protocols' cause of this warning, when it has one.
    pub fn test_cause(&self) -> Option<&TestCause> {
        match &self.cause {
            Cause::Test(cause) => Some(cause),
            _ => None,
        }
    }
}

/// n, min, mean and median of one side, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SideSummary {
    /// Number of values compared on this side (runs, or samples of one process).
    pub n: usize,
    /// Smallest value, in nanoseconds.
    pub min: f64,
    /// Mean, in nanoseconds.
    pub mean: f64,
    /// Median, in nanoseconds.
    pub median: f64,
}

/// Ratios base / head: above 1 means HEAD is faster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Speedups {
    /// min(base) / min(head) (the paper's spmin).
    pub min: f64,
    /// mean(base) / mean(head) (the paper's spmean).
    pub mean: f64,
    /// median(base) / median(head) (the paper's spmedian).
    pub median: f64,
}

/// The t-test used by the mean protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TMethod {
    /// Student's t-test, chosen when the F-test does not reject equal variances.
    Student,
    /// Welch's t-test, chosen when the F-test rejects equal variances.
    Welch,
}

impl TMethod {
    /// The lower-case name reports and the JSON print: "student" or "welch".
    pub fn as_str(self) -> &'static str {
        match self {
            TMethod::Student => "student",
            TMethod::Welch => "welch",
        }
    }
}

/// The outcome of the mean protocol (paper 000 §4.1) for one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct MeanTest {
    /// Whether the protocol applied and the t-test passed at the requested confidence.
    pub significant: bool,
    /// The direction of the difference when significant; `None` otherwise.
    pub direction: Option<Direction>,
    /// One-sided p-value of `direction` (of "faster" when none is significant); `None` when the t-test could
    /// not be computed.
    pub p_value: Option<f64>,
    /// Student or Welch, as the F-test chose; `None` when the t-test could not be computed.
    pub method: Option<TMethod>,
    /// The highest level 0.51..0.99 at which the test passes in `direction` (the paper's MeanConfLevel).
    pub confidence_level: Option<f64>,
    /// Shapiro-Wilk p-values of each side; `None` where the test does not apply.
    pub shapiro_p_values: BaseHead<Option<f64>>,
    /// Two-sided F-test p-value.
    pub variance_p_value: Option<f64>,
    /// What the protocol noticed (not normal, too few samples, ...), each with its remedy.
    pub warnings: Vec<Warning>,
}

impl MeanTest {
    /// The mean protocol's own verdict: significant in a direction gives that direction; anything else is
    /// inconclusive, since the mean protocol has no equivalence test: a t-test that finds nothing is not a
    /// finding of "unchanged" (`docs/verdicts.md` §1). [`MeanTest::found_no_difference`] tells that case
    /// from a test that did not apply.
    pub fn verdict(&self) -> Verdict {
        match (self.significant, self.direction) {
            (true, Some(direction)) => direction.into(),
            _ => Verdict::Inconclusive,
        }
    }

    /// Whether the t-test applied and found no difference: a p-value and a method, no significant
    /// direction, and none of the conditions under which the protocol does not apply (30 runs or fewer on a
    /// side that is not normal: "too small for applying the Student's t-test"), even when its p-value is tiny.
    pub fn found_no_difference(&self) -> bool {
        let not_applied = self
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::TooFewSamples);
        !self.significant && self.p_value.is_some() && self.method.is_some() && !not_applied
    }
}

/// The Hodges-Lehmann estimate of BASE − HEAD with its confidence interval, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shift {
    /// The Hodges-Lehmann estimate: the median of the pairwise differences BASE − HEAD, in nanoseconds
    /// (positive when HEAD is faster).
    pub estimate: f64,
    /// Lower end of the interval at the requested confidence, in nanoseconds.
    pub lower: f64,
    /// Upper end of the interval at the requested confidence, in nanoseconds.
    pub upper: f64,
}

/// The outcome of the median protocol (paper 000 §4.2) for one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct MedianTest {
    /// Whether the protocol applied and the rank-sum test passed at the requested confidence.
    pub significant: bool,
    /// The direction of the difference when significant; `None` otherwise.
    pub direction: Option<Direction>,
    /// One-sided Wilcoxon-Mann-Whitney p-value of `direction` (of "faster" when none is significant).
    pub p_value: Option<f64>,
    /// Two-sided Kolmogorov-Smirnov p-value on the median-centred samples.
    pub ks_p_value: Option<f64>,
    /// The highest level 0.51..0.99 at which the test passes in `direction` (the paper's MedianConfLevel).
    pub confidence_level: Option<f64>,
    /// Estimate of P[a HEAD run is faster than a BASE run], U / (n m).
    pub p_head_faster: Option<f64>,
    /// The shift BASE − HEAD with its interval; `None` when it cannot be computed (constant samples, ...).
    pub shift: Option<Shift>,
    /// The interval of the speedup BASE / HEAD at the level of `shift`: the Hodges-Lehmann interval of
    /// log(BASE) − log(HEAD), exponentiated (the same rank-sum test inverted for a ratio); its ends are
    /// ratios of two runs. `None` when `shift` is, or when a time is not positive.
    pub speedup_interval: Option<(f64, f64)>,
    /// True when the protocol could not apply (small samples whose location-shift model is rejected, ...).
    pub inconclusive: bool,
    /// What the protocol noticed (KS rejects the location shift, small samples, ...), each with its remedy.
    pub warnings: Vec<Warning>,
}

/// HPT's view of one benchmark (paper 003 Table 3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HptBenchmark {
    /// median(base) − median(head) in nanoseconds when the rank-sum test is significant, else 0.
    pub difference: f64,
    /// ln(median(base) / median(head)) when the rank-sum test is significant, else 0: what HPT ranks under
    /// [`Ranking::LogRatio`].
    pub log_ratio: f64,
    /// `Some(direction)` for a significant difference, `None` for a tie.
    pub winner: Option<Direction>,
}

/// How one side's variance splits between the levels of `docs/replication.md` §2, each as a standard
/// deviation in percent of the median (computed on log times).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VarianceComponents {
    /// The noise between samples inside one process.
    pub within_process_pct: f64,
    /// How far a process's level moves from one run to the next, beyond the noise inside it.
    pub between_process_pct: f64,
    /// How far a linked layout's level moves, when runs of the same layouts repeat; `None` otherwise.
    pub between_layout_pct: Option<f64>,
    /// How many linked layouts the runs ran (1 when they did not say: the executable as built).
    pub layouts: usize,
    /// 1 + (m − 1) ICC: how much a test that took the samples of all runs as independent would
    /// underestimate the variance.
    pub design_effect: f64,
    /// m, the mean number of samples per run.
    pub samples_per_run: f64,
}

/// Everything computed for one benchmark present on both sides.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkAnalysis {
    /// The benchmark's name, as the source reported it (group/function/parameter for criterion).
    pub name: String,
    /// What the compared values are: one per process run, or the samples of one process per side.
    pub basis: Basis,
    /// Per side, the number of process runs (equal to `n` unless the basis is [`Basis::OneProcess`]).
    pub runs: BaseHead<usize>,
    /// Per side, the variance components of its runs; `None` when they cannot be separated.
    pub variance: BaseHead<Option<VarianceComponents>>,
    /// The unit the report prints this benchmark's times in.
    pub unit: Unit,
    /// BASE's n, min, mean and median.
    pub base: SideSummary,
    /// HEAD's n, min, mean and median.
    pub head: SideSummary,
    /// The min, mean and median speedups BASE / HEAD.
    pub speedup: Speedups,
    /// The mean protocol's outcome (paper 000 §4.1).
    pub mean_test: MeanTest,
    /// The median protocol's outcome (paper 000 §4.2).
    pub median_test: MedianTest,
    /// The benchmark as HPT sees it: its difference of medians when significant.
    pub hpt: HptBenchmark,
    /// Whether the runs show the benchmark unchanged within ±ε, and the smallest change they could show.
    pub equivalence: Equivalence,
    /// The median protocol's decision (the robust one).
    pub verdict: Verdict,
    /// Warnings about the benchmark as a whole (batch means, unequal sizes, protocols disagree, ...).
    pub warnings: Vec<Warning>,
    /// The shape of each side (modes, I1, I3), when the analysis was asked for it
    /// ([`super::analyse::analyse_with_shapes`], the reports' analysis); `None` from [`super::analyse()`]
    /// (between looks, simulations).
    pub shape: Option<BenchmarkShape>,
    /// Per side, the observations as points with their within-run spread ([`super::points::run_points`]).
    pub points: BaseHead<Vec<RunPoint>>,
    /// Per side, what one iteration processes, when the harness said (divan's counters); information for
    /// the reports, never part of a decision.
    pub counters: BaseHead<Vec<crate::model::Counter>>,
    /// The verdict's design when the paired analysis was asked (`--paired`, `docs/replication.md` §7):
    /// paired by block, or why not (the independent design then decided); `None` when it was not asked
    /// (the independent design, the default).
    pub pairing: Option<Pairing>,
}

/// What `--paired` did with one benchmark (`docs/replication.md` §7).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pairing {
    /// The verdict, the equivalence check and the gate were decided on the within-block log ratios.
    Paired(PairedTest),
    /// The runs could not be paired: the independent design decided.
    Unpaired(crate::model::Unpairable),
}

/// The paired analysis of one benchmark: the signed-rank test and the Hodges-Lehmann estimate of the
/// Walsh averages of d_b = ln HEAD_b − ln BASE_b over its paired blocks (`docs/statistics.md` §6). Its
/// 1 − 2 alpha interval of the speedup is the benchmark's [`Equivalence::interval`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedTest {
    /// How many blocks ran both sides: the pairs.
    pub pairs: usize,
    /// Per side, the runs left out because their block has no run of the other side.
    pub dropped: BaseHead<usize>,
    /// The one-sided signed-rank p-values of "HEAD faster" (d below 0) and "HEAD slower" (d above 0);
    /// `None` when the test does not apply (every d is 0).
    pub p: ByDirection<Option<f64>>,
    /// The speedup BASE / HEAD as exp(−pseudomedian of d): above 1 HEAD is faster.
    pub speedup: f64,
}

impl BenchmarkAnalysis {
    /// The interval of the speedup that every report a person reads shows (the tables, the headline, the
    /// HTML page's forest plot, CSV, BMF): the equivalence check's two-sided 1 − 2 alpha interval, whose ends
    /// are the one-sided rank-sum tests at alpha in each direction (`docs/verdicts.md` §2). So a benchmark
    /// called slower shows an interval below 1x, one shown unchanged an interval inside ±ε, and an
    /// inconclusive one the interval its words quote: one interval for every verdict. The median protocol's
    /// own interval (`median_test.speedup_interval`, two-sided at 1 − alpha, in the JSON) is wider, and a
    /// benchmark slower at alpha can show it reaching past 1x ([0.74, 1.02] beside "slower (0.98)").
    pub fn interval(&self) -> Option<(f64, f64)> {
        self.equivalence.interval
    }

    /// The speedup every report a person reads shows beside [`interval`](Self::interval): the ratio of
    /// the sides' medians (paper 000's median speedup), or under `--paired` the paired estimate,
    /// exp(−pseudomedian) of the within-block log ratios, whose interval the reports then show
    /// (`docs/replication.md` §7). The JSON's `speedup.median` stays the ratio of medians.
    pub fn shown_speedup(&self) -> f64 {
        match self.pairing {
            Some(Pairing::Paired(test)) => test.speedup,
            _ => self.speedup.median,
        }
    }

    /// The confidence level the reports quote beside the verdict: the median protocol's, or under
    /// `--paired` one minus the paired signed-rank test's p-value in the verdict's direction.
    pub fn shown_level(&self) -> Option<f64> {
        match (self.pairing, self.verdict) {
            (Some(Pairing::Paired(test)), Verdict::Slower) => test.p.slower.map(|p| 1.0 - p),
            (Some(Pairing::Paired(test)), Verdict::Faster) => test.p.faster.map(|p| 1.0 - p),
            (Some(Pairing::Paired(_)), _) => None,
            _ => self.median_test.confidence_level,
        }
    }
}

/// Whether `benchmarks` are all counts compared exactly (`Basis::Deterministic`, `docs/verdicts.md` §7), and
/// at least one: a suite with no suite test, which HPT ranks nothing of and no tested verdict's risk
/// concerns.
pub fn only_counts(benchmarks: &[BenchmarkAnalysis]) -> bool {
    !benchmarks.is_empty() && benchmarks.iter().all(|b| b.basis == Basis::Deterministic)
}

/// One observation of a side as drawn: a process run's value with the interquartile range of its samples,
/// in nanoseconds (a sample of a one-process side has no spread).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunPoint {
    /// The run's value (or the sample itself), in nanoseconds.
    pub value: f64,
    /// The 25 % and 75 % quantiles of the run's samples, when it has more than one.
    pub spread: Option<(f64, f64)>,
}

/// HPT across the suite (paper 003 §4).
#[derive(Debug, Clone, PartialEq)]
pub struct HptSummary {
    /// Confidence of `direction`; `None` when no benchmark differs.
    pub confidence: Option<f64>,
    /// Which way the suite differs when HPT finds a difference; `None` when no benchmark differs.
    pub direction: Option<Direction>,
    /// The r-speedup at r = the analysis' confidence (< 1 when HEAD is slower); `None` when not reached.
    pub r_speedup: Option<f64>,
    /// The `--speedup-under-test` value, when given.
    pub gamma: Option<f64>,
    /// HPT's confidence that HEAD is more than `gamma` times faster.
    pub gamma_confidence: Option<f64>,
    /// The geometric mean of the median speedups, printed beside HPT for comparison only.
    pub geometric_mean_speedup: Option<f64>,
    /// The highest confidence HPT can reach with this many benchmarks whatever the times, 1 − 1/2^b for b
    /// benchmarks (every difference of one sign); `None` without benchmarks. Below the requested
    /// confidence the suite can only be inconclusive (`docs/hpt.md` §8).
    pub max_confidence: Option<f64>,
    /// What was ranked across benchmarks (`--hpt-rank`).
    pub ranking: Ranking,
    /// The confidence curve over a grid of gamma spanning the benchmarks' speedups (`hpt::curve_gammas`);
    /// empty when no benchmark is usable.
    pub curve: Vec<ConfidencePoint>,
    /// Suite-level warnings about HPT (degenerate cases, too few benchmarks for the confidence, ...).
    pub warnings: Vec<Warning>,
}

/// One gamma of HPT's confidence curve (the HTML report draws it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConfidencePoint {
    /// The speedup under test.
    pub gamma: f64,
    /// HPT's confidence that HEAD is more than gamma times faster than BASE.
    pub faster: f64,
    /// HPT's confidence that HEAD is less than gamma times faster (BASE more than 1/gamma times faster).
    pub slower: f64,
}

/// Overall gain G and speedup S of one execution-time statistic (paper 000 §3.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GainSpeedup {
    /// G = 1 − Σ w·ET(head) / Σ w·ET(base): the fraction of time saved, negative for a slowdown.
    pub gain: f64,
    /// S = Σ w·ET(base) / Σ w·ET(head): above 1 when HEAD is faster.
    pub speedup: f64,
}

/// G and S over the suite for each execution-time statistic (paper 000 §3.2, §6).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overall {
    /// G and S of the benchmarks' minimum times.
    pub min: GainSpeedup,
    /// G and S of the benchmarks' mean times.
    pub mean: GainSpeedup,
    /// G and S of the benchmarks' median times.
    pub median: GainSpeedup,
}

/// The proportion of accelerated benchmarks with R `prop.test`'s interval (paper 000 §5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proportion {
    /// a, the number of benchmarks the protocol found significantly faster.
    pub accelerated: usize,
    /// b, the number of benchmarks analysed.
    pub total: usize,
    /// Lower end of the proportion's interval at the requested confidence, in [0, 1].
    pub lower: f64,
    /// Upper end of the proportion's interval at the requested confidence, in [0, 1].
    pub upper: f64,
    /// The minimal number of benchmarks for the requested precision; `None` when the proportion is 0 or 1.
    pub minimal_benchmarks: Option<u64>,
    /// The precision r of `minimal_benchmarks`: the half-width of the proportion's interval (0.05 is ±5 %).
    pub precision: f64,
    /// Whether a(1 − a/b) > 5 holds.
    pub valid: bool,
}

/// The proportion of accelerated benchmarks under each protocol (paper 000 §5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proportions {
    /// Benchmarks the mean protocol found significantly faster.
    pub mean: Proportion,
    /// Benchmarks the median protocol found significantly faster.
    pub median: Proportion,
}

/// The suite-level results.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteAnalysis {
    /// HPT over the benchmarks analysed (paper 003 §4).
    pub hpt: HptSummary,
    /// `None` when no benchmark could be analysed.
    pub overall: Option<Overall>,
    /// The proportions of accelerated benchmarks; `None` when no benchmark could be analysed.
    pub proportion: Option<Proportions>,
}

/// When the gate fails the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailOn {
    /// Never fail (`--fail-on none`).
    None,
    /// Fail when HPT finds the suite slower (`--fail-on suite`).
    Suite,
    /// Fail when any benchmark is slower, Holm-corrected (`--fail-on any`).
    Any,
}

impl FailOn {
    /// The value of `--fail-on`: "none", "suite" or "any".
    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::None => "none",
            FailOn::Suite => "suite",
            FailOn::Any => "any",
        }
    }
}

/// The gate's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct GateOutcome {
    /// The `--fail-on` mode applied.
    pub fail_on: FailOn,
    /// Practical-significance threshold (`--threshold`).
    pub threshold: Threshold,
    /// Whether the comparison fails: the command then exits with code 1.
    pub failed: bool,
    /// Each reason the gate failed, worded by the reports.
    pub reasons: Vec<GateReason>,
    /// Under `--fail-on any`, the benchmarks the gate finds slower (Holm); empty under the other modes. A
    /// race keeps a benchmark called slower running until it is here (`sequential::open_benchmarks`).
    pub slower: Vec<String>,
    /// Why the gate cannot fail whatever the times, when it cannot (`--fail-on suite` with fewer benchmarks
    /// than HPT needs to reach the confidence), with what would let it; `None` otherwise.
    pub cannot_fail: Option<CannotFail>,
    /// Under `--fail-on any`, the benchmarks too noisy for the gate to see a slowdown of the threshold's size
    /// (undecided, minimum detectable effect above it), largest reach first; empty under the other modes.
    pub out_of_reach: Vec<OutOfReach>,
}

/// A confidence level 1 − alpha, strictly between 0 and 1. A type of its own so that a function taking a
/// confidence and a threshold cannot be given them swapped.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Confidence(pub(super) f64);

impl Confidence {
    /// `None` unless `level` is in (0, 1).
    pub fn new(level: f64) -> Option<Confidence> {
        (level > 0.0 && level < 1.0).then_some(Confidence(level))
    }

    /// 1 − alpha.
    pub fn level(self) -> f64 {
        self.0
    }

    /// The risk alpha = 1 − level.
    pub fn alpha(self) -> f64 {
        1.0 - self.0
    }
}

/// A risk level alpha of a test, strictly between 0 and 1 (`--hpt-alpha`). A type of its own so that a
/// function taking a risk and a confidence cannot be given them swapped, nor one for the other.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Alpha(pub(super) f64);

impl Alpha {
    /// `None` unless `risk` is in (0, 1).
    pub fn new(risk: f64) -> Option<Alpha> {
        (risk > 0.0 && risk < 1.0).then_some(Alpha(risk))
    }

    /// The risk, in (0, 1).
    pub fn risk(self) -> f64 {
        self.0
    }
}

/// A practical-significance threshold of the gate, in percent, finite and >= 0 (`--threshold`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Threshold(pub(super) f64);

impl Threshold {
    /// No threshold: any significant slowdown counts.
    pub const NONE: Threshold = Threshold(0.0);

    /// `None` unless `percent` is finite and >= 0.
    pub fn percent(percent: f64) -> Option<Threshold> {
        (percent.is_finite() && percent >= 0.0).then_some(Threshold(percent))
    }

    /// The threshold in percent.
    pub fn pct(self) -> f64 {
        self.0
    }
}

/// The finished analysis of a comparison: what every report renders.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The confidence level 1 − alpha of every decision.
    pub confidence: Confidence,
    /// The benchmarks present on both sides, analysed.
    pub benchmarks: Vec<BenchmarkAnalysis>,
    /// HPT, the overall gains and the proportions over the analysed benchmarks.
    pub suite: SuiteAnalysis,
    /// Benchmarks present in BASE only, not compared.
    pub base_only: Vec<String>,
    /// Benchmarks present in HEAD only, not compared.
    pub head_only: Vec<String>,
    /// Benchmarks unchanged because BASE and HEAD built identical executables (not run).
    pub identical: Vec<String>,
    /// What was not compared besides `base_only` and `head_only`, with why (`docs/verdicts.md` §8).
    pub left_out: Vec<crate::model::coverage::LeftOut>,
    /// The looks the plan that measured the runs could take; each per-benchmark decision is at risk
    /// alpha / looks (`docs/racing.md`).
    pub looks: u32,
    /// How more runs can be had: what the reports' hints propose (`report::words`).
    pub remedy: crate::protocol::Remedy,
    /// The suite's verdict: HPT's direction when it reaches the confidence, unchanged when every benchmark
    /// is shown unchanged, else inconclusive (`docs/verdicts.md` §4).
    pub verdict: Verdict,
    /// Whether the comparison fails under `--fail-on` and `--threshold`, and why.
    pub gate: GateOutcome,
    /// Warnings about the comparison as a whole.
    pub warnings: Vec<Warning>,
    /// What the measuring command recorded about the runs (`crate::model::fingerprint`), when the inputs say.
    pub fingerprint: Option<crate::model::fingerprint::Fingerprint>,
    /// The paired runs analysed, kept when there is a fingerprint: the JSON report then carries them, so
    /// that `cargo speedup merge` can analyse parts again as one suite (`docs/sharding.md`).
    pub pairs: Vec<crate::model::Pair>,
    /// What was compared, for the reports' headline: empty labels when the command did not say.
    pub compared: Compared,
}

/// What a comparison compared, as the reports name it (`docs/verdicts.md` §6): each side as its input is
/// labelled (a revision with its commit, `main (0123456789)`; a file; a baseline name), and where and when
/// it was measured, as far as the inputs say. Nothing here decides anything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Compared {
    /// Each side's label.
    pub origins: BaseHead<String>,
    /// Each side's toolchain (`rustc 1.95.0 (...)`), when its input says.
    pub toolchain: BaseHead<Option<String>>,
    /// Each side's machine (CPU model), when its input says.
    pub machine: BaseHead<Option<String>>,
    /// When the report was made, `2026-11-26 04:55 UTC`; set by the command, `None` in tests.
    pub date: Option<String>,
}

impl Compared {
    /// The labels of `origins`, with the toolchain and machine of each side's environment.
    pub fn new(
        origins: BaseHead<String>,
        environments: BaseHead<&crate::model::Environment>,
    ) -> Compared {
        let both = |f: fn(&crate::model::Environment) -> &Option<String>| {
            BaseHead::new(f(environments.base).clone(), f(environments.head).clone())
        };
        Compared {
            origins,
            toolchain: both(|e| &e.rustc),
            machine: both(|e| &e.cpu),
            date: None,
        }
    }
}

/// What HPT ranks across benchmarks (`--hpt-rank`, `docs/hpt.md` §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ranking {
    /// |ln(median BASE / median HEAD) − ln gamma|: the log speedup, free of the unit and of each
    /// benchmark's length; a 2x speedup and a 2x slowdown weigh alike. The default.
    #[default]
    LogRatio,
    /// |median BASE − median(gamma·HEAD)|: differences of times, as the PARSEC toolkit defines them; the
    /// longest benchmarks carry the largest ranks.
    Difference,
}

impl Ranking {
    /// The name on the command line and in the JSON: `log-ratio`, `difference`.
    pub fn as_str(self) -> &'static str {
        match self {
            Ranking::LogRatio => "log-ratio",
            Ranking::Difference => "difference",
        }
    }
}

/// The equivalence check of one benchmark.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Equivalence {
    /// ε, in percent.
    pub margin_pct: f64,
    /// The two-sided 1 − 2 alpha interval of the speedup (BASE / HEAD), when it can be computed.
    pub interval: Option<(f64, f64)>,
    /// The interval lies inside [1/(1 + ε), 1 + ε].
    pub equivalent: bool,
    /// The change, in percent, that the test would find with probability [`MDE_POWER`](super::equivalence::MDE_POWER) at this noise.
    pub minimum_detectable_pct: Option<f64>,
}

impl Equivalence {
    /// The interval lies inside [1/(1 + pct/100), 1 + pct/100]: at the confidence, HEAD is neither `pct` %
    /// or more slower nor `pct` % or more faster. With `pct` = ε this is [`Equivalence::equivalent`]; a race
    /// also asks it at 2ε, to stop a benchmark that more runs are unlikely to decide
    /// ([`is_futile`](super::equivalence::is_futile)).
    pub fn rules_out(&self, pct: f64) -> bool {
        let bound = 1.0 + pct / 100.0;
        self.interval
            .is_some_and(|(low, high)| low >= 1.0 / bound && high <= bound)
    }
}
