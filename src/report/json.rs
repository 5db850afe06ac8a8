//! The results JSON (`--format json`), schema `cargo-speedup/1`: the fields others rely on are those of
//! `docs/json.md`, with exactly those names; a few extra fields are added beside them
//! (`median_test.speedup_interval`, `median_test.inconclusive`, per-benchmark `hpt`,
//! `suite.hpt.geometric_mean_speedup` and `warnings`, the proportions' `minimal_benchmarks` and `valid`,
//! `base_only` and `head_only` beside `unmatched`).
//!
//! The wire structs below are private and mirror the contract, so that the internal types can change
//! without changing the wire. The JSON is strict: every missing or non-finite number is `null`, never NaN
//! or Infinity. Times (`base`, `head`, `shift`, `hpt.difference`) are in the benchmark's `unit`, which each
//! benchmark object names; ratios, p-values and confidences are plain numbers. No rounding is done: numbers
//! are written as the shortest text that reads back to the same `f64`. Strings (names, messages, reasons)
//! are exact, escaped by serde only: JSON is data, not a sink that `crate::inert` guards; whoever shows a
//! name from it applies its own sink's rule (`docs/security.md` §4).

use std::io::{self, Write};

use serde::Serialize;

use super::format::{finite, finite_opt};
use super::words::{self, Words};
use super::{Render, Style, headline, ruled_out_pct, warning_kind_name};
use crate::model::fingerprint::Fingerprint;
use crate::model::{
    BaseHead, Basis, Benchmark, Counter, FunctionChange, REPORT_SCHEMA, Run, Unit, Unpairable,
};
use crate::protocol::{
    Analysis, BenchmarkAnalysis, Direction, FailOn, GainSpeedup, HptSummary, MeanTest, MedianTest,
    Pairing, Proportion, Remedy, SideSummary, VarianceComponents, Verdict, Warning,
};

mod shape;

/// The results JSON.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct JsonReport;

impl Render for JsonReport {
    fn render(&self, analysis: &Analysis, _style: Style, out: &mut dyn Write) -> io::Result<()> {
        write_pretty(analysis, out)?;
        writeln!(out)
    }
}

/// Writes the report as `crate::inert::write_json` writes `Report::from(analysis)`, the same bytes, with
/// the benchmarks (nine tenths of a large suite's report) rendered on the machine's cores
/// ([`crate::parallel::map`]) and the parts written in turn, never joined into one text: each benchmark is
/// rendered as the only element of a `benchmarks` array in an object, which puts it two levels deep as in
/// the report, and cut out of that text. `crate::inert::json` reads each part on its own, which gives what
/// it gives on the whole: it escapes single characters, and only serde's strings hold any.
fn write_pretty(analysis: &Analysis, out: &mut dyn Write) -> io::Result<()> {
    /// How a lone benchmark's text starts and ends around it, and the report's empty array.
    const OPEN: &str = "{\n  \"benchmarks\": [\n";
    const CLOSE: &str = "\n  ]\n}";
    const EMPTY: &str = "\n  \"benchmarks\": [],";
    #[derive(Serialize)]
    struct Alone<'a> {
        benchmarks: [BenchmarkJson<'a>; 1],
    }
    let runs = runs_by_name(analysis);
    let parts = crate::parallel::map(&analysis.benchmarks, |b| {
        let alone = Alone {
            benchmarks: [benchmark_with_runs(b, analysis, &runs)],
        };
        let text = serde_json::to_string_pretty(&alone).map_err(io::Error::other)?;
        let inner = text
            .strip_prefix(OPEN)
            .and_then(|t| t.strip_suffix(CLOSE))
            .ok_or_else(|| io::Error::other("a benchmark's JSON in an unexpected layout"))?;
        Ok(crate::inert::json(inner).into_owned())
    })
    .into_iter()
    .collect::<io::Result<Vec<String>>>()?;
    let rest = serde_json::to_string_pretty(&Report::without_benchmarks(analysis))
        .map_err(io::Error::other)?;
    let at = match rest.find(EMPTY) {
        Some(at) if !parts.is_empty() => at,
        _ => return out.write_all(crate::inert::json(&rest).as_bytes()),
    };
    out.write_all(crate::inert::json(&rest[..at]).as_bytes())?;
    out.write_all(b"\n  \"benchmarks\": [\n")?;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.write_all(b",\n")?;
        }
        out.write_all(part.as_bytes())?;
    }
    out.write_all(b"\n  ],")?;
    out.write_all(crate::inert::json(&rest[at + EMPTY.len()..]).as_bytes())
}

/// A number on the wire: `null` when missing or non-finite.
type Num = Option<f64>;

#[derive(Serialize)]
struct Report<'a> {
    schema: &'static str,
    confidence: Num,
    benchmarks: Vec<BenchmarkJson<'a>>,
    suite: SuiteJson,
    unmatched: Vec<&'a str>,
    base_only: &'a [String],
    head_only: &'a [String],
    /// Benchmarks unchanged because BASE and HEAD built identical executables: not run, not in
    /// `benchmarks`.
    identical_executables: &'a [String],
    /// What was not compared besides `unmatched`, with the side and why (`docs/json.md` §2).
    not_compared: Vec<NotComparedJson<'a>>,
    /// The looks at the runs the plan could take (1: a fixed plan); each benchmark's tests are at risk
    /// (1 - confidence) / looks.
    looks: u32,
    verdict: &'static str,
    gate: GateJson<'a>,
    warnings: Vec<WarningJson>,
    /// What the measuring command recorded (`docs/sharding.md` §2); absent for foreign inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    fingerprint: Option<&'a Fingerprint>,
    /// The headline every human report starts with, and its facts (`docs/json.md`, "summary").
    summary: SummaryJson<'a>,
}

/// The headline as data: its sentences as the human reports print them (names raw: a consumer escapes
/// them for its sink), the benchmarks of each verdict, and what was compared.
#[derive(Serialize)]
struct SummaryJson<'a> {
    headline: Vec<String>,
    slower: Vec<&'a str>,
    faster: Vec<&'a str>,
    unchanged: Vec<&'a str>,
    undecided: Vec<&'a str>,
    identical_executables: &'a [String],
    /// For the undecided benchmarks, the largest change in percent either way that their runs do not
    /// rule out (`docs/verdicts.md` §3); `null` when none is undecided or none has an interval.
    undecided_within_pct: Num,
    /// "failed", "passed" or "off".
    gate: &'static str,
    compared: ComparedJson<'a>,
}

#[derive(Serialize)]
struct ComparedJson<'a> {
    base: &'a str,
    head: &'a str,
    toolchain: Option<String>,
    machine: Option<String>,
    date: Option<&'a str>,
}

impl<'a> SummaryJson<'a> {
    fn of(a: &'a Analysis) -> SummaryJson<'a> {
        let with = |v: Verdict| -> Vec<&'a str> {
            a.benchmarks
                .iter()
                .filter(|b| b.verdict == v)
                .map(|b| b.name.as_str())
                .collect()
        };
        let undecided_within_pct = a
            .benchmarks
            .iter()
            .filter(|b| b.verdict == Verdict::Inconclusive)
            .filter_map(ruled_out_pct)
            .reduce(f64::max);
        let c = &a.compared;
        SummaryJson {
            headline: headline(a).iter().map(|s| s.plain()).collect(),
            slower: with(Verdict::Slower),
            faster: with(Verdict::Faster),
            unchanged: with(Verdict::Unchanged),
            undecided: with(Verdict::Inconclusive),
            identical_executables: &a.identical,
            undecided_within_pct,
            gate: match (a.gate.fail_on, a.gate.failed) {
                (FailOn::None, _) => "off",
                (_, true) => "failed",
                (_, false) => "passed",
            },
            compared: ComparedJson {
                base: &c.origins.base,
                head: &c.origins.head,
                toolchain: super::headline::both(&c.toolchain),
                machine: super::headline::both(&c.machine),
                date: c.date.as_deref(),
            },
        }
    }
}

#[derive(Serialize)]
struct BenchmarkJson<'a> {
    name: &'a str,
    unit: &'static str,
    /// `"process-runs"` (one value per process run) or `"one-process"` (each side one process: the
    /// values are the samples inside it).
    observation: &'static str,
    /// Under `--paired` only: the verdict's design (`docs/json.md` §3), absent otherwise (the independent
    /// design).
    #[serde(skip_serializing_if = "Option::is_none")]
    design: Option<DesignJson>,
    base: SideJson,
    head: SideJson,
    variance: VarianceJson,
    speedup: SpeedupJson,
    mean_test: MeanJson,
    median_test: MedianJson,
    hpt: HptBenchmarkJson,
    equivalence: EquivalenceJson,
    /// The change in percent that the test would find with probability 0.8 at this noise.
    minimum_detectable_effect_pct: Num,
    verdict: &'static str,
    warnings: Vec<WarningJson>,
    /// The runs behind the benchmark, in nanoseconds, when the report has a fingerprint: what
    /// `cargo speedup merge` analyses again.
    #[serde(skip_serializing_if = "Option::is_none")]
    samples: Option<SamplesJson<'a>>,
    /// The shape of each side (`docs/mixtures.md`); absent when it was not computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<shape::ShapeJson>,
    /// What one iteration processes per side (divan's counters); absent when neither side has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    counters: Option<CountersJson>,
    /// Where a count measured by `--measure instructions` changed: the functions whose inclusive counts
    /// per iteration moved most (`docs/json.md` §3); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    where_changed: Option<Vec<FunctionChangeJson>>,
    /// On a time whose instruction count (`NAME (instructions)`) tells otherwise: the time called slower or
    /// faster with the count within `--threshold`, or the count beyond it with the time unchanged
    /// (`docs/json.md` §3); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    disagreement: Option<DisagreementJson>,
}

/// A benchmark's `disagreement`: how its time and its count disagree, both figures and the likely reading.
#[derive(Serialize)]
struct DisagreementJson {
    kind: &'static str,
    count: String,
    time_verdict: &'static str,
    time_change_pct: Num,
    count_change_pct: Num,
    reading: &'static str,
}

impl From<&crate::protocol::Disagreement> for DisagreementJson {
    fn from(d: &crate::protocol::Disagreement) -> DisagreementJson {
        DisagreementJson {
            kind: d.kind.name(),
            count: d.count.clone(),
            time_verdict: d.time.as_str(),
            time_change_pct: finite(d.time_change_pct),
            count_change_pct: finite(d.count_change_pct),
            reading: super::disagreement::reading(d.kind),
        }
    }
}

/// One function of `where_changed`.
#[derive(Serialize)]
struct FunctionChangeJson {
    function: String,
    status: &'static str,
    base: Num,
    head: Num,
    change: Num,
    share: Num,
}

impl From<&FunctionChange> for FunctionChangeJson {
    fn from(c: &FunctionChange) -> FunctionChangeJson {
        FunctionChangeJson {
            function: c.function.clone(),
            status: c.status.name(),
            base: finite(c.base),
            head: finite(c.head),
            change: finite(c.change),
            share: c.share.and_then(finite),
        }
    }
}

/// Both sides' counters (`docs/json.md` §3).
#[derive(Serialize)]
struct CountersJson {
    base: Vec<CounterJson>,
    head: Vec<CounterJson>,
}

/// One counter: what is counted, how many per iteration, and whether that is the count itself or an
/// estimate from the harness's rounded figures.
#[derive(Serialize)]
struct CounterJson {
    kind: &'static str,
    per_iteration: Num,
    exact: bool,
}

/// `counters` of a benchmark: `None` when neither side has any, so that reports without counters are
/// unchanged.
fn counters(sides: &BaseHead<Vec<Counter>>) -> Option<CountersJson> {
    if sides.base.is_empty() && sides.head.is_empty() {
        return None;
    }
    let side = |counters: &[Counter]| {
        counters
            .iter()
            .map(|c| CounterJson {
                kind: c.kind.name(),
                per_iteration: finite(c.per_iteration),
                exact: c.exact,
            })
            .collect()
    };
    Some(CountersJson {
        base: side(&sides.base),
        head: side(&sides.head),
    })
}

/// One benchmark's runs on both sides, as a record file writes them (`docs/formats.md` §7).
#[derive(Serialize)]
struct SamplesJson<'a> {
    unit: &'static str,
    base: SideRunsJson<'a>,
    head: SideRunsJson<'a>,
}

#[derive(Serialize)]
struct SideRunsJson<'a> {
    display_unit: &'static str,
    runs: Vec<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layouts: Option<Vec<u32>>,
    /// The block of each run and their session, when every run has one, all of one session.
    #[serde(skip_serializing_if = "Option::is_none")]
    blocks: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    block_session: Option<String>,
}

impl<'a> SideRunsJson<'a> {
    fn from(benchmark: &'a Benchmark) -> SideRunsJson<'a> {
        let blocks = benchmark.runs.blocks();
        SideRunsJson {
            display_unit: benchmark.unit.as_str(),
            runs: benchmark.runs.runs().iter().map(Run::samples).collect(),
            layouts: benchmark.runs.runs().iter().map(Run::layout).collect(),
            block_session: blocks.as_ref().map(|(seed, _)| seed.to_string()),
            blocks: blocks.map(|(_, indices)| indices),
        }
    }
}

/// "unchanged" is shown, not assumed: the 1 − 2 alpha interval of the speedup inside ±margin
/// (`docs/verdicts.md` §2).
#[derive(Serialize)]
struct EquivalenceJson {
    margin_pct: Num,
    /// Speedup bounds (BASE / HEAD) of the two-sided 1 − 2 alpha interval.
    lower: Num,
    upper: Num,
    equivalent: bool,
}

#[derive(Serialize)]
struct VarianceJson {
    base: Option<ComponentsJson>,
    head: Option<ComponentsJson>,
}

/// `docs/replication.md` §5: standard deviations in % of the median, and the design effect.
#[derive(Serialize)]
struct ComponentsJson {
    within_process_pct: Num,
    between_process_pct: Num,
    between_layout_pct: Num,
    /// The number of linked layouts the side's runs ran.
    layouts: usize,
    design_effect: Num,
    samples_per_run: Num,
}

#[derive(Serialize)]
struct SideJson {
    n: usize,
    runs: usize,
    min: Num,
    mean: Num,
    median: Num,
}

#[derive(Serialize)]
struct SpeedupJson {
    min: Num,
    mean: Num,
    median: Num,
}

#[derive(Serialize)]
struct MeanJson {
    significant: bool,
    direction: Option<&'static str>,
    p_value: Num,
    method: Option<&'static str>,
    confidence_level: Num,
    shapiro_p_values: [Num; 2],
    variance_p_value: Num,
    warnings: Vec<WarningJson>,
}

#[derive(Serialize)]
struct MedianJson {
    significant: bool,
    direction: Option<&'static str>,
    p_value: Num,
    ks_p_value: Num,
    confidence_level: Num,
    p_head_faster: Num,
    shift: Option<IntervalJson>,
    speedup_interval: Option<BoundsJson>,
    inconclusive: bool,
    warnings: Vec<WarningJson>,
}

#[derive(Serialize)]
struct IntervalJson {
    estimate: Num,
    lower: Num,
    upper: Num,
}

#[derive(Serialize)]
struct BoundsJson {
    lower: Num,
    upper: Num,
}

#[derive(Serialize)]
struct HptBenchmarkJson {
    /// median(base) − median(head) in the benchmark's unit; 0 for a tie.
    difference: Num,
    /// ln(median(base) / median(head)); 0 for a tie.
    log_ratio: Num,
    /// `"faster"`, `"slower"`, or `null` for a tie.
    winner: Option<&'static str>,
}

#[derive(Serialize)]
struct SuiteJson {
    hpt: HptJson,
    overall: Option<OverallJson>,
    proportion: Option<ProportionsJson>,
}

#[derive(Serialize)]
struct HptJson {
    confidence: Num,
    direction: Option<&'static str>,
    r_speedup: Num,
    gamma: Num,
    gamma_confidence: Num,
    geometric_mean_speedup: Num,
    /// The highest confidence HPT can reach with this many benchmarks, 1 − 1/2^b.
    max_confidence: Num,
    /// What HPT ranked across benchmarks: `"log-ratio"` or `"difference"`.
    ranking: &'static str,
    warnings: Vec<WarningJson>,
}

#[derive(Serialize)]
struct OverallJson {
    min: GainJson,
    mean: GainJson,
    median: GainJson,
}

#[derive(Serialize)]
struct GainJson {
    gain: Num,
    speedup: Num,
}

#[derive(Serialize)]
struct ProportionsJson {
    mean: ProportionJson,
    median: ProportionJson,
}

#[derive(Serialize)]
struct ProportionJson {
    accelerated: usize,
    total: usize,
    lower: Num,
    upper: Num,
    minimal_benchmarks: Option<u64>,
    valid: bool,
}

#[derive(Serialize)]
struct GateJson<'a> {
    fail_on: &'static str,
    threshold: Num,
    failed: bool,
    reasons: Vec<String>,
    /// Why the gate cannot fail whatever the times, or `null`.
    cannot_fail: Option<String>,
    /// The benchmarks too noisy for the gate to see a slowdown of the threshold's size.
    out_of_reach: Vec<OutOfReachJson<'a>>,
}

#[derive(Serialize)]
struct OutOfReachJson<'a> {
    name: &'a str,
    minimum_detectable_effect_pct: Num,
    /// The slowdown in percent the gate would catch there with probability 0.8.
    reach_pct: Num,
}

/// One bench target or benchmark not compared.
#[derive(Serialize)]
struct NotComparedJson<'a> {
    name: &'a str,
    /// `"bench-target"` or `"benchmark"`.
    kind: &'static str,
    /// `"base"`, `"head"` or `"both"`.
    side: &'static str,
    /// The reason's kind: `"needs-features"`, `"build-failed"`, `"failed"`, `"skipped"`, `"errored"`,
    /// `"below-resolution"`, `"no-value"`, `"excluded"`.
    reason: &'static str,
    /// The reason in words, as the headline says it.
    message: String,
    /// The compiler's or harness's message, raw, when there is one.
    quoted: Option<String>,
    /// What to do, when there is a fix.
    hint: Option<String>,
    /// Features the bench target needs (`needs-features`), else empty.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    features: &'a [String],
    /// Whether this fails the gate: measured at BASE, not at HEAD, for a failure (`--allow-broken`
    /// passes it).
    fails_gate: bool,
}

fn not_compared<'a>(a: &'a Analysis) -> Vec<NotComparedJson<'a>> {
    use crate::model::coverage::{Granularity, Reason};
    a.left_out
        .iter()
        .map(|l| {
            let (message, quoted) = words::coverage::reason(l);
            NotComparedJson {
                name: &l.name,
                kind: match l.granularity {
                    Granularity::Target => "bench-target",
                    Granularity::Benchmark => "benchmark",
                },
                side: match l.side {
                    Some(crate::model::Side::Base) => "base",
                    Some(crate::model::Side::Head) => "head",
                    None => "both",
                },
                reason: match &l.reason {
                    Reason::NeedsFeatures { .. } => "needs-features",
                    Reason::BuildFailed { .. } => "build-failed",
                    Reason::Failed { .. } => "failed",
                    Reason::Skipped { .. } => "skipped",
                    Reason::Errored { .. } => "errored",
                    Reason::BelowResolution { .. } => "below-resolution",
                    Reason::NoValue { .. } => "no-value",
                    Reason::Excluded { .. } => "excluded",
                    Reason::OnlyAtThisSide => "only-at-this-side",
                },
                message,
                quoted,
                hint: words::coverage::fix(l),
                features: match &l.reason {
                    Reason::NeedsFeatures { missing } => missing,
                    _ => &[],
                },
                fails_gate: a
                    .gate
                    .reasons
                    .iter()
                    .any(|r| matches!(r, crate::protocol::GateReason::BrokenAtHead { name, .. } if name == &l.name)),
            }
        })
        .collect()
}

#[derive(Serialize)]
pub(super) struct WarningJson {
    kind: &'static str,
    message: String,
    hint: Option<String>,
}

/// Warnings on the wire, `{ kind, message, hint }` (also the race JSON's), worded at rendering
/// ([`words::ours`]) with hints that propose `remedy`.
pub(super) fn warnings(list: &[Warning], remedy: Remedy) -> Vec<WarningJson> {
    list.iter()
        .map(|w| {
            let Words { message, hint } = words::ours(w, remedy);
            WarningJson {
                kind: warning_kind_name(w.kind),
                message,
                hint,
            }
        })
        .collect()
}

fn direction(d: Option<Direction>) -> Option<&'static str> {
    d.map(Direction::as_str)
}

/// A time in nanoseconds, on the wire in `unit`.
fn time(nanos: f64, unit: Unit) -> Num {
    finite(nanos / unit.nanos())
}

/// Each benchmark's runs by name, when the report carries them (a fingerprinted comparison): found once for
/// all, as a search per benchmark was quadratic; with the benchmarks whose time and count disagree, found
/// once too (few: a search among them per benchmark is cheap).
struct RunsByName<'a> {
    pairs: std::collections::HashMap<&'a str, &'a crate::model::Pair>,
    disagreements: Vec<crate::protocol::Disagreement>,
}

impl<'a> RunsByName<'a> {
    fn get(&self, name: &str) -> Option<&&'a crate::model::Pair> {
        self.pairs.get(name)
    }
}

fn runs_by_name(a: &Analysis) -> RunsByName<'_> {
    let mut pairs = std::collections::HashMap::with_capacity(a.pairs.len());
    for p in &a.pairs {
        pairs.entry(p.name.as_str()).or_insert(p);
    }
    RunsByName {
        pairs,
        disagreements: super::disagreement::of(a),
    }
}

/// One benchmark of the report, with its runs when the report carries them.
fn benchmark_with_runs<'a>(
    b: &'a BenchmarkAnalysis,
    a: &'a Analysis,
    runs: &RunsByName<'a>,
) -> BenchmarkJson<'a> {
    let mut json = benchmark(b, a.remedy);
    let pair = runs.get(b.name.as_str());
    json.samples = pair.map(|p| SamplesJson {
        unit: "ns",
        base: SideRunsJson::from(&p.base),
        head: SideRunsJson::from(&p.head),
    });
    json.where_changed = pair
        .and_then(|p| super::where_changed::of_pair(p))
        .map(|changes| changes.iter().map(FunctionChangeJson::from).collect());
    json.disagreement = runs
        .disagreements
        .iter()
        .find(|d| d.benchmark == b.name)
        .map(DisagreementJson::from);
    json
}

impl<'a> From<&'a Analysis> for Report<'a> {
    fn from(a: &'a Analysis) -> Report<'a> {
        let runs = runs_by_name(a);
        Report {
            benchmarks: a
                .benchmarks
                .iter()
                .map(|b| benchmark_with_runs(b, a, &runs))
                .collect(),
            ..Report::without_benchmarks(a)
        }
    }
}

impl<'a> Report<'a> {
    /// The report with an empty `benchmarks` array.
    fn without_benchmarks(a: &'a Analysis) -> Report<'a> {
        Report {
            schema: REPORT_SCHEMA,
            confidence: finite(a.confidence.level()),
            benchmarks: Vec::new(),
            suite: SuiteJson {
                hpt: hpt(&a.suite.hpt, a.remedy),
                overall: a.suite.overall.as_ref().map(|o| OverallJson {
                    min: GainJson::from(&o.min),
                    mean: GainJson::from(&o.mean),
                    median: GainJson::from(&o.median),
                }),
                proportion: a.suite.proportion.as_ref().map(|p| ProportionsJson {
                    mean: ProportionJson::from(&p.mean),
                    median: ProportionJson::from(&p.median),
                }),
            },
            unmatched: a
                .base_only
                .iter()
                .chain(&a.head_only)
                .map(String::as_str)
                .collect(),
            base_only: &a.base_only,
            identical_executables: &a.identical,
            not_compared: not_compared(a),
            looks: a.looks,
            head_only: &a.head_only,
            verdict: a.verdict.as_str(),
            gate: GateJson {
                fail_on: a.gate.fail_on.as_str(),
                threshold: finite(a.gate.threshold.pct()),
                failed: a.gate.failed,
                reasons: a.gate.reasons.iter().map(words::gate_reason).collect(),
                cannot_fail: a.gate.cannot_fail.as_ref().map(words::cannot_fail),
                out_of_reach: a
                    .gate
                    .out_of_reach
                    .iter()
                    .map(|o| OutOfReachJson {
                        name: &o.name,
                        minimum_detectable_effect_pct: finite(o.minimum_detectable_pct),
                        reach_pct: finite(o.reach_pct),
                    })
                    .collect(),
            },
            warnings: warnings(&a.warnings, a.remedy),
            fingerprint: a.fingerprint.as_ref(),
            summary: SummaryJson::of(a),
        }
    }
}

/// The verdict's design under `--paired`: `"paired-blocks"` with the paired test, or `"independent"` with
/// why the runs could not be paired.
#[derive(Serialize)]
struct DesignJson {
    design: &'static str,
    pairs: Option<usize>,
    dropped: Option<BaseHeadJson>,
    p_faster: Num,
    p_slower: Num,
    speedup: Num,
    unpaired_reason: Option<&'static str>,
}

#[derive(Serialize)]
struct BaseHeadJson {
    base: usize,
    head: usize,
}

fn design(pairing: &Pairing) -> DesignJson {
    match pairing {
        Pairing::Paired(test) => DesignJson {
            design: "paired-blocks",
            pairs: Some(test.pairs),
            dropped: Some(BaseHeadJson {
                base: test.dropped.base,
                head: test.dropped.head,
            }),
            p_faster: test.p.faster,
            p_slower: test.p.slower,
            speedup: finite(test.speedup),
            unpaired_reason: None,
        },
        Pairing::Unpaired(reason) => DesignJson {
            design: "independent",
            pairs: None,
            dropped: None,
            p_faster: None,
            p_slower: None,
            speedup: None,
            unpaired_reason: Some(match reason {
                Unpairable::NoBlocks => "no-blocks",
                Unpairable::OtherSessions => "other-sessions",
                Unpairable::NoPartners => "no-partners",
            }),
        },
    }
}

/// One benchmark on the wire; its warnings' hints propose `remedy`.
fn benchmark(b: &BenchmarkAnalysis, remedy: Remedy) -> BenchmarkJson<'_> {
    {
        BenchmarkJson {
            name: &b.name,
            unit: b.unit.as_str(),
            observation: match b.basis {
                Basis::ProcessRuns => "process-runs",
                Basis::OneProcess => "one-process",
                Basis::Deterministic => "deterministic",
            },
            design: b.pairing.as_ref().map(design),
            base: side(&b.base, b.runs.base, b.unit),
            head: side(&b.head, b.runs.head, b.unit),
            variance: VarianceJson {
                base: b.variance.base.as_ref().map(components),
                head: b.variance.head.as_ref().map(components),
            },
            speedup: SpeedupJson {
                min: finite(b.speedup.min),
                mean: finite(b.speedup.mean),
                median: finite(b.speedup.median),
            },
            mean_test: mean(&b.mean_test, remedy),
            median_test: median(&b.median_test, b.unit, remedy),
            hpt: HptBenchmarkJson {
                difference: time(b.hpt.difference, b.unit),
                log_ratio: finite(b.hpt.log_ratio),
                winner: direction(b.hpt.winner),
            },
            equivalence: EquivalenceJson {
                margin_pct: Some(b.equivalence.margin_pct),
                lower: b.equivalence.interval.map(|i| i.0),
                upper: b.equivalence.interval.map(|i| i.1),
                equivalent: b.equivalence.equivalent,
            },
            minimum_detectable_effect_pct: b.equivalence.minimum_detectable_pct,
            verdict: b.verdict.as_str(),
            warnings: warnings(&b.warnings, remedy),
            samples: None,
            shape: b.shape.as_ref().map(|s| shape::shape(s, b.unit)),
            counters: counters(&b.counters),
            where_changed: None,
            disagreement: None,
        }
    }
}

fn components(c: &VarianceComponents) -> ComponentsJson {
    ComponentsJson {
        within_process_pct: finite(c.within_process_pct),
        between_process_pct: finite(c.between_process_pct),
        between_layout_pct: finite_opt(c.between_layout_pct),
        layouts: c.layouts,
        design_effect: finite(c.design_effect),
        samples_per_run: finite(c.samples_per_run),
    }
}

fn side(s: &SideSummary, runs: usize, unit: Unit) -> SideJson {
    SideJson {
        n: s.n,
        runs,
        min: time(s.min, unit),
        mean: time(s.mean, unit),
        median: time(s.median, unit),
    }
}

fn mean(t: &MeanTest, remedy: Remedy) -> MeanJson {
    {
        MeanJson {
            significant: t.significant,
            direction: direction(t.direction),
            p_value: finite_opt(t.p_value),
            method: t.method.map(|m| m.as_str()),
            confidence_level: finite_opt(t.confidence_level),
            // The contract's order: [BASE, HEAD].
            shapiro_p_values: [t.shapiro_p_values.base, t.shapiro_p_values.head].map(finite_opt),
            variance_p_value: finite_opt(t.variance_p_value),
            warnings: warnings(&t.warnings, remedy),
        }
    }
}

fn median(t: &MedianTest, unit: Unit, remedy: Remedy) -> MedianJson {
    MedianJson {
        significant: t.significant,
        direction: direction(t.direction),
        p_value: finite_opt(t.p_value),
        ks_p_value: finite_opt(t.ks_p_value),
        confidence_level: finite_opt(t.confidence_level),
        p_head_faster: finite_opt(t.p_head_faster),
        shift: t.shift.map(|s| IntervalJson {
            estimate: time(s.estimate, unit),
            lower: time(s.lower, unit),
            upper: time(s.upper, unit),
        }),
        speedup_interval: t.speedup_interval.map(|(lower, upper)| BoundsJson {
            lower: finite(lower),
            upper: finite(upper),
        }),
        inconclusive: t.inconclusive,
        warnings: warnings(&t.warnings, remedy),
    }
}

fn hpt(h: &HptSummary, remedy: Remedy) -> HptJson {
    {
        HptJson {
            confidence: finite_opt(h.confidence),
            direction: direction(h.direction),
            r_speedup: finite_opt(h.r_speedup),
            gamma: finite_opt(h.gamma),
            gamma_confidence: finite_opt(h.gamma_confidence),
            geometric_mean_speedup: finite_opt(h.geometric_mean_speedup),
            max_confidence: finite_opt(h.max_confidence),
            ranking: h.ranking.as_str(),
            warnings: warnings(&h.warnings, remedy),
        }
    }
}

impl From<&GainSpeedup> for GainJson {
    fn from(g: &GainSpeedup) -> GainJson {
        GainJson {
            gain: finite(g.gain),
            speedup: finite(g.speedup),
        }
    }
}

impl From<&Proportion> for ProportionJson {
    fn from(p: &Proportion) -> ProportionJson {
        ProportionJson {
            accelerated: p.accelerated,
            total: p.total,
            lower: finite(p.lower),
            upper: finite(p.upper),
            minimal_benchmarks: p.minimal_benchmarks,
            valid: p.valid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Suite;
    use crate::protocol::{FailOn, Options};

    /// A suite of `count` benchmarks whose names need escaping (a quote, a backslash, a line break, ESC, a
    /// right-to-left override), read from raw timing JSON, analysed, with its runs in the report.
    fn large(count: usize) -> Analysis {
        let side = |factor: f64| {
            let benchmarks: Vec<String> = (0..count)
                .map(|i| {
                    let samples: Vec<String> = (0..12)
                        .map(|j| format!("{}", (100.0 + (i * 7 + j * 13) as f64 % 17.0) * factor))
                        .collect();
                    format!(
                        r#"{{"name":"b{i} \"q\" \\ \n \u001b[2J \u202e","samples":[{}]}}"#,
                        samples.join(",")
                    )
                })
                .collect();
            let text = format!(r#"{{"unit":"ns","benchmarks":[{}]}}"#, benchmarks.join(","));
            crate::sources::raw_json::parse(&text, "x.json").expect("raw timing JSON")
        };
        let suite = Suite::pair(side(1.0), side(1.05));
        let mut analysis =
            crate::protocol::analyse::analyse(&suite, &Options::defaults(FailOn::Suite));
        analysis.pairs = suite.pairs.clone();
        analysis
    }

    #[test]
    fn the_report_written_in_parts_is_the_report_written_whole() {
        let mut cases = crate::testutil::analyses::all();
        cases.push(("large", large(4 * crate::parallel::MIN_PER_THREAD)));
        cases.push(("one", large(1)));
        for (label, analysis) in &cases {
            let mut whole = Vec::new();
            crate::inert::write_json(&mut whole, &Report::from(analysis)).expect("JSON");
            let mut parts = Vec::new();
            write_pretty(analysis, &mut parts).expect("JSON");
            assert_eq!(
                String::from_utf8(parts).expect("UTF-8"),
                String::from_utf8(whole).expect("UTF-8"),
                "{label}"
            );
        }
        let (_, large) = &cases[cases.len() - 2];
        assert!(large.benchmarks.len() >= 128 && large.pairs.len() == large.benchmarks.len());
        assert!(large.benchmarks[0].name.contains('\u{202e}'));
    }

    #[test]
    fn under_paired_each_benchmark_states_its_design_and_its_runs_keep_their_blocks() {
        // Raw JSON with blocks: `a` pairs (one session), `b` carries none.
        let side = |factor: f64| {
            // HEAD slower by a factor that grows with the block: no ties among the log ratios.
            let runs: Vec<String> = (0..8)
                .map(|j| {
                    format!(
                        "[{}]",
                        (100.0 + j as f64) * factor.powf(1.0 + j as f64 / 10.0)
                    )
                })
                .collect();
            let text = format!(
                r#"{{"unit":"ns","benchmarks":[{{"name":"a","runs":[{runs}],"blocks":[0,1,2,3,4,5,6,7],
                "block_session":"7"}},{{"name":"b","runs":[{runs}]}}]}}"#,
                runs = runs.join(",")
            );
            crate::sources::raw_json::parse(&text, "x.json").expect("raw timing JSON")
        };
        let suite = Suite::pair(side(1.0), side(1.05));
        let mut analysis = crate::protocol::analyse::analyse(
            &suite,
            &Options::defaults(FailOn::Any).with_paired(true),
        );
        analysis.pairs = suite.pairs.clone();
        let mut bytes = Vec::new();
        write_pretty(&analysis, &mut bytes).expect("JSON");
        let value: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        let a = &value["benchmarks"][0];
        assert_eq!(a["design"]["design"], "paired-blocks");
        assert_eq!(a["design"]["pairs"], 8);
        assert_eq!(
            a["design"]["dropped"],
            serde_json::json!({"base": 0, "head": 0})
        );
        // Every block 5 % slower: V = 0, p = 1/2^8.
        assert_eq!(a["design"]["p_slower"], 1.0 / 256.0);
        assert_eq!(a["verdict"], "slower");
        assert_eq!(
            a["samples"]["head"]["blocks"],
            serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7])
        );
        assert_eq!(a["samples"]["head"]["block_session"], "7");
        let b = &value["benchmarks"][1];
        assert_eq!(b["design"]["design"], "independent");
        assert_eq!(b["design"]["unpaired_reason"], "no-blocks");
        assert_eq!(b["samples"]["head"].get("blocks"), None);
        // Without --paired: no design.
        let plain = crate::protocol::analyse::analyse(&suite, &Options::defaults(FailOn::Any));
        let mut bytes = Vec::new();
        write_pretty(&plain, &mut bytes).expect("JSON");
        let value: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(value["benchmarks"][0].get("design"), None);
    }
}
