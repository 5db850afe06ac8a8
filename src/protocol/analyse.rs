//! One comparison from paired samples to an [`Analysis`]: both Speedup-Test protocols per benchmark, HPT across
//! benchmarks, the aggregates of paper 000 §3 and §5, the gate, and the warnings about the inputs themselves.
//!
//! This is the list of protocol calls that `compare` and the revision comparison share; it decides nothing
//! itself beyond combining the protocols' decisions (a benchmark's verdict is the median protocol's, the
//! suite's is HPT's).

use super::benchmark_warnings::benchmark_warnings;
use super::equivalence::{Equivalence, equivalence_sorted, is_futile};
use super::gate::{GateInput, account, gate};
use super::hpt::hpt_ranked_paired;
use super::input_warnings::{note_warnings, suite_warnings};
use super::options::{Options, PerLook};
use super::shape::{BenchmarkShape, ShapeOptions, shape_sorted};
use super::speedup_test::{
    Level, Ties, Weights, mean_test_sorted, median_test_sorted, overall, proportion, speedups,
};
use super::variance::variance_components;
use super::{
    Analysis, BenchmarkAnalysis, Confidence, Direction, FailOn, HptBenchmark, MedianTest, Pairing,
    Proportions, SideSummary, SuiteAnalysis, Verdict,
};
use crate::model::{BaseHead, Basis, Blocked, Observations, Pair, Suite, Unit, Unpairable};
use crate::stats::describe::{Summary, summarize_sorted};
use crate::stats::rank_sum::can_reject;
use crate::stats::sorted::{Sorted, SortedVec};

/// Analyses every paired benchmark of `suite`, on one value per process run ([`Pair::observations`]), at
/// the per-look level of the suite's design (its looks) and with its remedy in the hints; the decisions
/// only, without the shape of the distributions ([`analyse_with_shapes`]).
pub fn analyse(suite: &Suite, options: &Options) -> Analysis {
    analysed(suite, options, None)
}

/// [`analyse`], and each benchmark's shape ([`shape`](super::shape::shape): modes, I1, I3, and their warnings after its
/// others): the analysis a report renders.
pub fn analyse_with_shapes(suite: &Suite, options: &Options, shapes: &ShapeOptions) -> Analysis {
    analysed(suite, options, Some(shapes))
}

/// [`analyse`], with each benchmark's shape when `shapes` says how.
fn analysed(suite: &Suite, options: &Options, shapes: Option<&ShapeOptions>) -> Analysis {
    // Each benchmark's observations and summaries are built together, then its analysis from them and its
    // HPT rank, so that no row can shift onto another benchmark's name.
    // Per-benchmark decisions at the per-look level; the suite's (HPT) at the stated confidence: its
    // sign-flip test needs only that each benchmark's difference is as likely positive as negative under
    // no change, which a stopping rule symmetric in BASE and HEAD keeps.
    let per_look = PerLook::new(options, suite.design);
    let compared: Vec<Observed<'_>> =
        crate::parallel::map(&suite.pairs, |pair| Observed::new(pair, options.paired()));
    // HPT ranks tested benchmarks only: counts compared exactly are no sample of a benchmark population
    // (the counts of one benchmark are not independent of each other), and need no test.
    let tested = |c: &&Observed<'_>| c.observations.basis != Basis::Deterministic;
    let samples: Vec<BaseHead<Sorted<'_>>> = compared
        .iter()
        .filter(tested)
        .map(Observed::sorted)
        .collect();
    // HPT and the gate read the same values as the benchmarks' own tests and need nothing of them: on a
    // large suite they run on a thread of their own beside the benchmarks, and each benchmark gets its
    // HPT rank (and the warning when the rank and the verdict disagree) after both are done.
    let suite_level = || {
        // Under `--paired`, HPT's per-benchmark test of a paired benchmark is the signed-rank test of its
        // log ratios.
        let paired: Vec<Option<&[f64]>> = compared
            .iter()
            .filter(tested)
            .map(Observed::log_ratios)
            .collect();
        let (hpt_summary, per_benchmark) =
            hpt_ranked_paired(&samples, &paired, &options.hpt(), options.hpt_rank());
        let gate_inputs: Vec<GateInput<'_>> = compared
            .iter()
            .map(|c| GateInput {
                name: &c.pair.name,
                base: &c.observations.values.base,
                head: &c.observations.values.head,
                basis: c.observations.basis,
                log_ratios: c.log_ratios(),
            })
            .collect();
        // `--fail-on any` tests each benchmark: at the per-look level, Holm's correction then covers the
        // suite.
        let gate_confidence = match options.fail_on() {
            FailOn::Any => per_look.confidence,
            FailOn::Suite | FailOn::None => options.confidence(),
        };
        let gate = gate(
            options.fail_on(),
            options.threshold(),
            gate_confidence,
            &hpt_summary,
            &gate_inputs,
        );
        (hpt_summary, per_benchmark, gate)
    };
    let each_benchmark = || {
        crate::parallel::map(&compared, |c| {
            let analysis = benchmark(c, &per_look);
            let shape = shapes.map(|options| shape_of(&analysis, c, options));
            (analysis, shape)
        })
    };
    let ((hpt_summary, per_benchmark, gate), analysed) =
        crate::parallel::join(suite_level, each_benchmark, compared.len());
    let summaries: Vec<(Summary, Summary)> = compared.iter().map(|c| c.summaries).collect();
    let overall = (!summaries.is_empty())
        .then(|| overall(&summaries, &Weights::Equal).ok())
        .flatten();
    // HPT's ranks are of the tested benchmarks, in order.
    let mut ranks = per_benchmark.into_iter();
    let benchmarks: Vec<BenchmarkAnalysis> = compared
        .iter()
        .zip(analysed)
        .map(|(c, (analysis, shape))| {
            let rank = if tested(&c) {
                ranks.next().expect("HPT ranks every tested benchmark")
            } else {
                NOT_RANKED
            };
            with_shape(ranked(analysis, rank), shape)
        })
        .collect();
    // Nothing measured because nothing could differ: unchanged, and nothing to warn about.
    let only_identical = benchmarks.is_empty() && !suite.identical.is_empty();
    // Only counts compared exactly: HPT had nothing to rank, and that is no problem of the inputs.
    let only_counts = super::outcome::only_counts(&benchmarks);
    let mut hpt_summary = hpt_summary;
    if only_identical || only_counts {
        hpt_summary.warnings.clear();
    }
    let verdict = if only_identical {
        Verdict::Unchanged
    } else {
        suite_verdict(&hpt_summary, options.confidence(), &benchmarks)
    };
    // "Unchanged" is said of a suite only when everything that exists at either side was compared: a bench
    // target that needed a feature, or a benchmark that failed, may be the one that changed.
    let verdict =
        if verdict == Verdict::Unchanged && suite.left_out.iter().any(|l| l.is_unmeasured()) {
            Verdict::Inconclusive
        } else {
            verdict
        };
    let gate = account(
        gate,
        &benchmarks,
        &suite.left_out,
        options.equivalence_pct(),
        options.allow_broken(),
    );
    let fingerprint = crate::model::fingerprint::Fingerprint::of_comparison(
        suite.base_environment.fingerprint.as_ref(),
        suite.head_environment.fingerprint.as_ref(),
    );
    Analysis {
        confidence: options.confidence(),
        suite: SuiteAnalysis {
            overall,
            proportion: aggregate_proportions(&benchmarks, options),
            hpt: hpt_summary,
        },
        // With nothing measured, only what the inputs said stays (the working tree's uncommitted changes...).
        warnings: if only_identical {
            note_warnings(suite).collect()
        } else {
            suite_warnings(suite, &benchmarks, per_look.confidence.alpha())
        },
        benchmarks,
        base_only: suite.base_only.clone(),
        head_only: suite.head_only.clone(),
        identical: suite.identical.clone(),
        left_out: suite.left_out.clone(),
        looks: suite.design.looks(),
        remedy: suite.design.remedy(),
        verdict,
        gate,
        pairs: if fingerprint.is_some() {
            suite.pairs.clone()
        } else {
            Vec::new()
        },
        fingerprint,
        // The labels and the date are the command's to give (`app`); the environments are the inputs'.
        compared: super::Compared::new(
            BaseHead::default(),
            BaseHead {
                base: &suite.base_environment,
                head: &suite.head_environment,
            },
        ),
    }
}

/// One benchmark's observations with their summaries and each side's one sorted copy, which every test
/// that reads the values in order takes (the median, Shapiro-Wilk, the ranks, the location-shift check,
/// the Hodges-Lehmann intervals, HPT, the shapes), rather than sorting them again.
struct Observed<'a> {
    pair: &'a Pair,
    observations: Observations,
    sorted: BaseHead<SortedVec>,
    summaries: (Summary, Summary),
    /// Under `--paired`, the runs paired by block with their log ratios, or why they cannot be; `None`
    /// when the pairing was not asked, or for counts compared exactly (never tested).
    blocks: Option<Result<(Blocked, Vec<f64>), Unpairable>>,
}

impl<'a> Observed<'a> {
    fn new(pair: &'a Pair, paired: bool) -> Observed<'a> {
        let observations = pair.observations();
        let blocks = match observations.basis {
            _ if !paired => None,
            Basis::Deterministic => None,
            Basis::OneProcess => Some(Err(Unpairable::NoBlocks)),
            Basis::ProcessRuns => Some(pair.blocks().map(|b| {
                let d = b.log_ratios();
                (b, d)
            })),
        };
        let values = &observations.values;
        let sorted = values.as_ref().map(|v| SortedVec::of(v));
        let summaries = (
            summary_of(&values.base, sorted.base.as_sorted()),
            summary_of(&values.head, sorted.head.as_sorted()),
        );
        Observed {
            pair,
            observations,
            sorted,
            summaries,
            blocks,
        }
    }

    /// The within-block log ratios when the runs are paired by block.
    fn log_ratios(&self) -> Option<&[f64]> {
        match &self.blocks {
            Some(Ok((_, d))) => Some(d),
            _ => None,
        }
    }

    /// Each side's values sorted.
    fn sorted(&self) -> BaseHead<Sorted<'_>> {
        self.sorted.as_ref().map(SortedVec::as_sorted)
    }
}

/// HPT's view of a benchmark compared exactly (counts, [`Basis::Deterministic`]): HPT ranks no count, so
/// no difference, no ratio and no winner.
const NOT_RANKED: HptBenchmark = HptBenchmark {
    difference: 0.0,
    log_ratio: 0.0,
    winner: None,
};

/// The summary of valid observations (non-empty, finite: see [`crate::model::Sample`]), given them sorted.
fn summary_of(values: &[f64], sorted: Sorted<'_>) -> Summary {
    summarize_sorted(values, sorted).unwrap_or(Summary {
        n: values.len(),
        min: f64::NAN,
        max: f64::NAN,
        mean: f64::NAN,
        variance: f64::NAN,
        median: f64::NAN,
    })
}

/// Both protocols on one benchmark, before its HPT rank ([`ranked`]) and its shape ([`with_shape`]).
fn benchmark(observed: &Observed<'_>, options: &PerLook) -> BenchmarkAnalysis {
    let (pair, observations) = (observed.pair, &observed.observations);
    let confidence = options.confidence;
    let base = observations.values.base.as_slice();
    let head = observations.values.head.as_slice();
    let sorted = observed.sorted();
    let (base_summary, head_summary) = &observed.summaries;
    let level = Level::Fixed(confidence.level());
    let mut mean_test = mean_test_sorted(base, head, sorted, level);
    let mut median_test = median_test_sorted(sorted, level, Ties::Exact);
    let powerless = !can_reject(base.len(), head.len(), confidence.alpha());
    let deterministic = observations.basis == Basis::Deterministic;
    if deterministic {
        // Counts compared exactly ([`exact`]): the tests conclude nothing on one value per side, and say
        // nothing about it either.
        mean_test.warnings.clear();
        median_test.warnings.clear();
    } else if powerless && base.len().min(head.len()) < 3 {
        // One cause (too few runs), one warning, in place of one per test and side.
        let tiny = super::Warning::of(
            super::WarningKind::TooFewSamples,
            super::Cause::TooFewRuns {
                base: base.len(),
                head: head.len(),
            },
        );
        mean_test.warnings = vec![tiny.clone()];
        median_test.warnings = vec![tiny];
    }
    let equivalence = equivalence_sorted(base, head, sorted, confidence, options.equivalence_pct);
    // Under `--paired` a paired benchmark's verdict, interval and equivalence are the paired test's; the
    // Speedup-Test's protocols above stay, for what paper 000 defines.
    let tested = observed.blocks.as_ref().map(|blocks| {
        blocks
            .as_ref()
            .map(|(blocked, _)| super::paired::paired(blocked, confidence, options.equivalence_pct))
    });
    let paired = tested.and_then(Result::ok);
    let (powerless, equivalence) = match &paired {
        Some((test, paired_equivalence)) => (
            !super::paired::can_reject(test.pairs, confidence.alpha()),
            *paired_equivalence,
        ),
        None => (powerless, equivalence),
    };
    let pairing = tested.map(|tested| match tested {
        Ok((test, _)) => Pairing::Paired(test),
        Err(why) => Pairing::Unpaired(*why),
    });
    let (verdict, warnings) = if deterministic {
        exact(base_summary.median, head_summary.median)
    } else {
        let verdict = match &paired {
            Some((test, equivalence)) => super::paired::verdict(test, equivalence, confidence),
            None => decide(&median_test, powerless, &equivalence),
        };
        let verdict = if one_process_per_side(observations.basis, pair) {
            within_one_process(
                verdict,
                base_summary.median / head_summary.median,
                confidence,
                base.len() == 1 && head.len() == 1,
            )
        } else {
            verdict
        };
        let mut warnings = benchmark_warnings(
            pair,
            BaseHead::new(base.len(), head.len()),
            &mean_test,
            &median_test,
            (verdict, powerless, &equivalence),
            options,
        );
        if let Some((test, _)) = &paired {
            // The verdict's basis, a detail unless runs were left out of the pairs.
            let basis = super::Warning::of(
                super::WarningKind::Input,
                super::Cause::PairedByBlock {
                    pairs: test.pairs,
                    dropped: test.dropped,
                },
            );
            let dropped = test.dropped.base + test.dropped.head > 0;
            warnings.push(if dropped { basis } else { basis.as_detail() });
        }
        (verdict, warnings)
    };
    BenchmarkAnalysis {
        name: pair.name.clone(),
        basis: observations.basis,
        runs: BaseHead::new(pair.base.runs.len(), pair.head.runs.len()),
        variance: BaseHead::new(
            variance_components(&pair.base.runs),
            variance_components(&pair.head.runs),
        ),
        unit: if deterministic {
            pair.base.unit
        } else {
            Unit::readable(base_summary.median)
        },
        speedup: speedups(base_summary, head_summary),
        base: side(base_summary),
        head: side(head_summary),
        mean_test,
        median_test,
        hpt: NOT_RANKED,
        equivalence,
        verdict,
        warnings,
        points: BaseHead::new(
            super::points::run_points(&pair.base.runs, observations.basis),
            super::points::run_points(&pair.head.runs, observations.basis),
        ),
        shape: None,
        counters: BaseHead::new(pair.base.counters.clone(), pair.head.counters.clone()),
        pairing,
    }
}

/// `analysis` with its HPT rank `hpt`, and after its warnings the one when HPT and the verdict disagree
/// (a benchmark compared exactly has no rank and no such warning).
fn ranked(analysis: BenchmarkAnalysis, hpt: HptBenchmark) -> BenchmarkAnalysis {
    let mut warnings = analysis.warnings;
    if analysis.basis != Basis::Deterministic {
        warnings.extend(super::hpt::disagreement(analysis.verdict, &hpt));
    }
    BenchmarkAnalysis {
        warnings,
        hpt,
        ..analysis
    }
}

/// The shape of the `observed` benchmark of `analysis`, from its values and sorted copies.
fn shape_of(
    analysis: &BenchmarkAnalysis,
    observed: &Observed<'_>,
    options: &ShapeOptions,
) -> BenchmarkShape {
    shape_sorted(
        &analysis.name,
        observed.observations.basis,
        analysis.unit,
        &observed.observations.values,
        observed.sorted(),
        options,
    )
}

/// `analysis` with its `shape` when it has one, the shape's warnings after its others.
fn with_shape(analysis: BenchmarkAnalysis, shape: Option<BenchmarkShape>) -> BenchmarkAnalysis {
    let Some(shape) = shape else {
        return analysis;
    };
    let mut warnings = analysis.warnings;
    warnings.extend(shape.warnings.iter().cloned());
    BenchmarkAnalysis {
        warnings,
        shape: Some(shape),
        ..analysis
    }
}

/// The verdict and warning of a benchmark whose sides are counts of a deterministic measurement
/// ([`Basis::Deterministic`]), compared exactly, not tested: the direction of any difference between the
/// sides' medians `base` and `head` (a count that moved by one moved: the tolerance is the gate's
/// `--threshold`), unchanged when they are equal; one warning, the same for every such benchmark, says how it
/// was compared (`docs/verdicts.md` §7).
fn exact(base: f64, head: f64) -> (Verdict, Vec<super::Warning>) {
    let verdict = if head > base {
        Verdict::Slower
    } else if head < base {
        Verdict::Faster
    } else {
        Verdict::Unchanged
    };
    let warning = super::Warning::of(super::WarningKind::Exact, super::Cause::Exact);
    (verdict, vec![warning])
}

/// A benchmark's verdict: the median protocol's direction when significant, else unchanged when equivalent
/// within ±ε, else inconclusive; inconclusive as well when the protocol cannot apply or the sizes cannot
/// reach the level (`docs/verdicts.md`).
/// Whether each side is one process: a criterion baseline's samples ([`Basis::OneProcess`]) or a single
/// value per side (divan's or libtest's printed output, a bencher line).
fn one_process_per_side(basis: Basis, pair: &Pair) -> bool {
    basis == Basis::OneProcess
        || (basis == Basis::ProcessRuns && pair.base.runs.len() == 1 && pair.head.runs.len() == 1)
}

/// The verdict of a benchmark measured in one process per side (`docs/verdicts.md` §9): such sides cannot
/// show how far a level moves from one process to the next, so faster or slower is said only when the
/// change of the medians (`speedup` = BASE / HEAD) is beyond the one-sided 1 − alpha quantile of the
/// difference of two process levels ([`super::gate::noise_floor`] of one benchmark, from
/// [`super::gate::PROCESS_SD_PERCENT`]), and never "unchanged": ±ε is inside what two processes differ by.
/// With samples inside the processes, the test must also have found the direction; with one value per side
/// there is no test, and the floor alone decides.
fn within_one_process(
    verdict: Verdict,
    speedup: f64,
    confidence: Confidence,
    single_value: bool,
) -> Verdict {
    let floor = super::gate::noise_floor(confidence.alpha(), 1);
    let beyond =
        speedup.is_finite() && speedup > 0.0 && 100.0 * (speedup.ln().abs().exp() - 1.0) > floor;
    let direction = if speedup > 1.0 {
        Verdict::Faster
    } else {
        Verdict::Slower
    };
    match verdict {
        Verdict::Faster | Verdict::Slower if beyond => verdict,
        Verdict::Inconclusive if beyond && single_value => direction,
        _ => Verdict::Inconclusive,
    }
}

fn decide(median_test: &MedianTest, powerless: bool, equivalence: &Equivalence) -> Verdict {
    match median_test.direction.filter(|_| median_test.significant) {
        _ if median_test.inconclusive || powerless => Verdict::Inconclusive,
        Some(direction) => Verdict::from(direction),
        None if equivalence.equivalent => Verdict::Unchanged,
        None => Verdict::Inconclusive,
    }
}

/// The verdict [`analyse`] gives a benchmark whose process runs have the values `base` and `head`, at the
/// per-look level of `options` (its looks = K of the plan, `cap` its last look's runs per side), and
/// whether the race stops it there: the decision of one look of a race, without the rest of the analysis
/// (the mean protocol, HPT, the gate), which it does not depend on.
pub fn verdict_at_look(base: &[f64], head: &[f64], options: &PerLook, cap: usize) -> Look {
    let confidence = options.confidence;
    let sorted = BaseHead::new(SortedVec::of(base), SortedVec::of(head));
    let sorted = sorted.as_ref().map(SortedVec::as_sorted);
    let median_test = median_test_sorted(sorted, Level::Fixed(confidence.level()), Ties::Exact);
    let powerless = !can_reject(base.len(), head.len(), confidence.alpha());
    let equivalence = equivalence_sorted(base, head, sorted, confidence, options.equivalence_pct);
    let verdict = decide(&median_test, powerless, &equivalence);
    Look {
        verdict,
        futile: is_futile(verdict, &equivalence, base.len().min(head.len()), cap),
    }
}

/// One benchmark at one look of a race ([`verdict_at_look`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    /// The verdict at the per-look level.
    pub verdict: Verdict,
    /// Inconclusive, and more runs are unlikely to decide it ([`is_futile`]): the race stops it.
    pub futile: bool,
}

impl Look {
    /// The benchmark runs no more: decided, or futile.
    pub fn stops(&self) -> bool {
        self.verdict != Verdict::Inconclusive || self.futile
    }
}

fn side(summary: &Summary) -> SideSummary {
    SideSummary {
        n: summary.n,
        min: summary.min,
        mean: summary.mean,
        median: summary.median,
    }
}

/// The suite's verdict (`docs/verdicts.md` §4): HPT's direction when its confidence reaches the analysis'
/// confidence; else unchanged when every benchmark is shown unchanged within ±ε (an intersection-union
/// test: each equivalence at risk alpha makes their conjunction one at risk alpha, Berger 1982); else
/// inconclusive, which includes every suite too small for HPT to reach the confidence at all.
fn suite_verdict(
    hpt: &super::HptSummary,
    confidence: Confidence,
    benchmarks: &[BenchmarkAnalysis],
) -> Verdict {
    if benchmarks.is_empty() {
        return Verdict::Inconclusive;
    }
    match (hpt.direction, hpt.confidence) {
        (Some(direction), Some(level)) if level >= confidence.level() => direction.into(),
        _ if benchmarks.iter().all(|b| b.verdict == Verdict::Unchanged) => Verdict::Unchanged,
        _ => Verdict::Inconclusive,
    }
}

fn aggregate_proportions(
    benchmarks: &[BenchmarkAnalysis],
    options: &Options,
) -> Option<Proportions> {
    if benchmarks.is_empty() {
        return None;
    }
    let faster = |significant: &dyn Fn(&BenchmarkAnalysis) -> bool| {
        benchmarks.iter().filter(|b| significant(b)).count()
    };
    let by_mean =
        faster(&|b| b.mean_test.significant && b.mean_test.direction == Some(Direction::Faster));
    let by_median = faster(&|b| {
        b.median_test.significant && b.median_test.direction == Some(Direction::Faster)
    });
    let total = benchmarks.len();
    Some(Proportions {
        mean: proportion(
            by_mean,
            total,
            options.confidence().level(),
            options.precision(),
        ),
        median: proportion(
            by_median,
            total,
            options.confidence().level(),
            options.precision(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Runs;
    use crate::model::{Basis, Benchmark, Environment, Results, Sample};
    use crate::protocol::{Warning, WarningKind};

    /// What a side's values are, in these tests.
    #[derive(Clone, Copy)]
    enum Measured {
        ProcessRun,
        OneProcess,
    }

    fn results(name: &str, unit: Unit, values: &[f64], measured: Measured) -> Results {
        let sample = Sample::new(values.to_vec(), unit).expect("valid");
        Results {
            origin: "test".into(),
            benchmarks: vec![Benchmark {
                name: name.into(),
                runs: match measured {
                    Measured::ProcessRun => Runs::independent(sample),
                    Measured::OneProcess => Runs::one_process(sample),
                },
                unit,
                counters: Vec::new(),
            }],
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    fn options() -> Options {
        Options::defaults(FailOn::Suite)
    }

    fn kinds(warnings: &[Warning]) -> Vec<WarningKind> {
        warnings.iter().map(|w| w.kind).collect()
    }

    #[test]
    fn benchmarks_of_identical_executables_are_unchanged_and_pass_every_gate() {
        let empty = |origin: &str| Results {
            origin: origin.into(),
            benchmarks: vec![],
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        };
        let mut suite = Suite::pair(empty("BASE"), empty("HEAD"));
        suite.identical = vec!["a".into(), "b".into()];
        for fail_on in [FailOn::Suite, FailOn::Any] {
            let analysis = analyse(&suite, &options().with_fail_on(fail_on));
            assert_eq!(analysis.verdict, Verdict::Unchanged);
            assert!(!analysis.gate.failed);
            assert!(analysis.warnings.is_empty(), "{:?}", analysis.warnings);
            assert_eq!(analysis.identical, ["a", "b"]);
            // What the inputs said stays.
            let mut noted = suite.clone();
            noted.notes.push("HEAD is the working tree".into());
            let analysis = analyse(&noted, &options().with_fail_on(fail_on));
            assert_eq!(analysis.warnings.len(), 1, "{:?}", analysis.warnings);
        }
        // With a measured benchmark beside them, its warnings stay.
        let mut mixed = Suite::pair(
            results("m", Unit::Ns, &[10.0], Measured::ProcessRun),
            results("m", Unit::Ns, &[9.0], Measured::ProcessRun),
        );
        mixed.identical = vec!["a".into()];
        let analysis = analyse(&mixed, &options());
        assert_eq!(analysis.benchmarks.len(), 1);
        assert!(!analysis.benchmarks[0].median_test.warnings.is_empty());
    }

    static INSTRUCTIONS: crate::model::Counted = crate::model::Counted {
        name: "instructions",
        slug: "instructions",
    };

    #[test]
    fn counts_are_compared_exactly_and_left_out_of_hpt() {
        let count = Unit::Count(&INSTRUCTIONS);
        let mut base = results("c (instructions)", count, &[7468.0], Measured::ProcessRun);
        let mut head = results("c (instructions)", count, &[14396.0], Measured::ProcessRun);
        for (side, value) in [(&mut base, 1802.0), (&mut head, 1802.0)] {
            side.benchmarks.extend(
                results("f (instructions)", count, &[value], Measured::ProcessRun).benchmarks,
            );
        }
        let analysis = analyse(&Suite::pair(base, head), &options());
        let (c, f) = (&analysis.benchmarks[0], &analysis.benchmarks[1]);
        assert_eq!(
            (c.basis, f.basis),
            (Basis::Deterministic, Basis::Deterministic)
        );
        assert_eq!(
            (c.verdict, f.verdict),
            (Verdict::Slower, Verdict::Unchanged)
        );
        assert_eq!(c.unit, count);
        assert_eq!((c.base.median, c.head.median), (7468.0, 14396.0));
        // One warning says how it was compared; the tests' "too few runs" warnings are gone.
        assert_eq!(kinds(&c.warnings), vec![WarningKind::Exact]);
        assert!(c.mean_test.warnings.is_empty() && c.median_test.warnings.is_empty());
        // HPT ranked nothing, so the suite has no HPT direction and no HPT warning.
        assert_eq!(c.hpt.winner, None);
        assert_eq!(analysis.suite.hpt.direction, None);
        assert!(
            analysis.suite.hpt.warnings.is_empty(),
            "{:?}",
            analysis.suite.hpt.warnings
        );
        assert_eq!(analysis.verdict, Verdict::Inconclusive);
        // `--fail-on any` fails on the exact increase.
        let any = analyse(
            &Suite::pair(
                results("c (instructions)", count, &[7468.0], Measured::ProcessRun),
                results("c (instructions)", count, &[14396.0], Measured::ProcessRun),
            ),
            &Options::defaults(FailOn::Any),
        );
        assert!(any.gate.failed);
    }

    #[test]
    fn one_sample_per_side_gives_no_verdict_and_one_warning() {
        let suite = Suite::pair(
            results("a", Unit::Ns, &[10.0], Measured::ProcessRun),
            results("a", Unit::Ns, &[9.0], Measured::ProcessRun),
        );
        let analysis = analyse(&suite, &options());
        let b = &analysis.benchmarks[0];
        assert_eq!(b.verdict, Verdict::Inconclusive);
        // Only the note that explains the HPT column (HPT takes the single values as they are).
        assert_eq!(kinds(&b.warnings), vec![WarningKind::ProtocolsDisagree]);
        for test_warnings in [&b.mean_test.warnings, &b.median_test.warnings] {
            assert_eq!(test_warnings.len(), 1, "{test_warnings:?}");
            assert_eq!(
                crate::report::words::message(&test_warnings[0]),
                "1 run per side: no test can apply"
            );
        }
        assert!(
            !analysis
                .warnings
                .iter()
                .any(|w| crate::report::words::message(w).contains("30 observations")),
            "{:?}",
            analysis.warnings
        );
    }

    #[test]
    fn input_problems_are_warned_about() {
        let base_values: Vec<f64> = (0..10).map(|i| 1.0 + 0.01 * i as f64).collect();
        let head_values: Vec<f64> = (0..12).map(|i| 1000.0 + 10.0 * i as f64).collect();
        let base = results("a", Unit::Ms, &base_values, Measured::OneProcess);
        let head = results("a", Unit::Us, &head_values, Measured::OneProcess);
        let analysis = analyse(&Suite::pair(base, head), &options());
        let benchmark = kinds(&analysis.benchmarks[0].warnings);
        assert!(
            benchmark.contains(&WarningKind::Input),
            "unit mismatch: {benchmark:?}"
        );
        assert!(
            benchmark.contains(&WarningKind::UnequalSizes),
            "{benchmark:?}"
        );
        let suite = kinds(&analysis.warnings);
        assert!(suite.contains(&WarningKind::OneProcess), "{suite:?}");
        assert_eq!(analysis.benchmarks[0].basis, Basis::OneProcess);
        assert_eq!(analysis.benchmarks[0].runs, BaseHead::new(1, 1));
        assert!(suite.contains(&WarningKind::TooFewSamples), "{suite:?}");
    }

    #[test]
    fn a_clearly_slower_benchmark_is_slower_and_the_paper_words_become_base_and_head() {
        // 40 runs per side, HEAD 1.5x slower, BASE skewed (not normal): the warning names BASE.
        let base: Vec<f64> = (0..40)
            .map(|i| 100.0 + (i as f64).powi(3) / 1000.0)
            .collect();
        let head: Vec<f64> = base.iter().map(|v| v * 1.5).collect();
        let suite = Suite::pair(
            results("a", Unit::Ns, &base, Measured::ProcessRun),
            results("a", Unit::Ns, &head, Measured::ProcessRun),
        );
        let analysis = analyse(&suite, &options());
        assert_eq!(analysis.benchmarks[0].verdict, Verdict::Slower);
        let messages: Vec<String> = analysis.benchmarks[0]
            .mean_test
            .warnings
            .iter()
            .map(crate::report::words::message)
            .collect();
        assert!(
            messages
                .iter()
                .all(|m| !m.contains("Sample1") && !m.contains("Sample2")),
            "{messages:?}"
        );
        assert!(
            messages.iter().any(|m| m.starts_with("BASE ")),
            "{messages:?}"
        );
    }

    /// One benchmark of [`suite_of`]: name, BASE's runs, HEAD's runs.
    type Named<'a> = (&'a str, Vec<f64>, Vec<f64>);

    /// A suite of process-run benchmarks, in nanoseconds.
    fn suite_of(benchmarks: &[Named<'_>]) -> Suite {
        let side = |pick: &dyn Fn(&Named<'_>) -> Vec<f64>| Results {
            origin: "test".into(),
            benchmarks: benchmarks
                .iter()
                .map(|b| Benchmark {
                    name: b.0.into(),
                    runs: Runs::independent(Sample::new(pick(b), Unit::Ns).expect("valid")),
                    unit: Unit::Ns,
                    counters: Vec::new(),
                })
                .collect(),
            environment: Environment::default(),
            notes: vec![],
            left_out: vec![],
        };
        Suite::pair(side(&|b| b.1.clone()), side(&|b| b.2.clone()))
    }

    /// Ten runs around `level`, spread by ±1 %.
    fn runs(level: f64) -> Vec<f64> {
        (0..10)
            .map(|i| level * (1.0 + (f64::from(i) - 4.5) / 450.0))
            .collect()
    }

    #[test]
    fn the_reports_analysis_carries_each_shape_and_the_deciding_one_none() {
        let suite = suite_of(&[
            ("a", runs(100.0), runs(120.0)),
            ("b", runs(50.0), runs(50.0)),
        ]);
        let decided = analyse(&suite, &options());
        let reported = super::analyse_with_shapes(
            &suite,
            &options(),
            &crate::protocol::shape::ShapeOptions::default(),
        );
        assert!(decided.benchmarks.iter().all(|b| b.shape.is_none()));
        assert_eq!(reported.benchmarks.len(), 2);
        for (d, r) in decided.benchmarks.iter().zip(&reported.benchmarks) {
            let shape = r.shape.as_ref().expect("a shape");
            assert_eq!((r.verdict, r.hpt), (d.verdict, d.hpt));
            // The shape's warnings come after the benchmark's others.
            assert_eq!(r.warnings[..d.warnings.len()], d.warnings[..]);
            assert_eq!(r.warnings[d.warnings.len()..], shape.warnings[..]);
        }
    }

    #[test]
    fn a_suite_too_small_for_hpt_is_inconclusive_and_its_gate_says_it_cannot_fail() {
        // Three benchmarks, each clearly slower (0.60x, 0.71x, 0.93x): HPT reaches at most 1 - 1/2^3.
        let slower = |name, level: f64, speedup: f64| (name, runs(level), runs(level / speedup));
        let suite = suite_of(&[
            slower("a", 100.0, 0.60),
            slower("b", 2000.0, 0.71),
            slower("c", 50.0, 0.93),
        ]);
        let analysis = analyse(&suite, &options());
        assert!(
            analysis
                .benchmarks
                .iter()
                .all(|b| b.verdict == Verdict::Slower)
        );
        assert_eq!(analysis.suite.hpt.max_confidence, Some(0.875));
        assert_eq!(analysis.verdict, Verdict::Inconclusive);
        assert!(!analysis.gate.failed);
        let note = crate::report::words::cannot_fail(&analysis.gate.cannot_fail.expect("a note"));
        assert!(note.contains("at least 5 benchmarks"), "{note}");
        // `--fail-on any` decides it, and the verdict stays the suite's.
        let any = analyse(&suite, &Options::defaults(FailOn::Any));
        assert!(any.gate.failed);
        assert_eq!(any.gate.cannot_fail, None);
        // Two of two faster: inconclusive too, never "unchanged".
        let faster = |name, level: f64, speedup: f64| (name, runs(level), runs(level / speedup));
        let two = suite_of(&[faster("x", 100.0, 1.3), faster("y", 10.0, 1.2)]);
        assert_eq!(analyse(&two, &options()).verdict, Verdict::Inconclusive);
    }

    #[test]
    fn a_suite_is_unchanged_only_when_every_benchmark_is_shown_unchanged() {
        let same = |name, level: f64| (name, runs(level), runs(level));
        let analysis = analyse(&suite_of(&[same("a", 100.0), same("b", 50.0)]), &options());
        assert!(
            analysis
                .benchmarks
                .iter()
                .all(|b| b.verdict == Verdict::Unchanged)
        );
        assert_eq!(analysis.verdict, Verdict::Unchanged);
        // One benchmark whose runs are too noisy to show equivalence: inconclusive, not unchanged.
        let noisy: Vec<f64> = (0..10)
            .map(|i| 100.0 * (1.0 + f64::from(i % 5) / 10.0))
            .collect();
        let mixed = suite_of(&[same("a", 100.0), ("n", noisy.clone(), noisy)]);
        let analysis = analyse(&mixed, &options());
        assert_eq!(analysis.benchmarks[1].verdict, Verdict::Inconclusive);
        assert_eq!(analysis.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn the_median_protocol_takes_the_exact_p_value_of_tied_runs() {
        // Coarse timings: BASE 10 ns four times and 11 ns eight times, HEAD 10 ns six times and 11 ns twice.
        // coin::wilcox_test(distribution = "exact") gives P(HEAD faster) = 0.0849011669445106, not
        // significant at 0.05, where R's normal approximation gives 0.041 (fixtures/r/rank_sum_ties.R,
        // two_values_12x8).
        let base: Vec<f64> = [10.0; 4].into_iter().chain([11.0; 8]).collect();
        let head: Vec<f64> = [10.0; 6].into_iter().chain([11.0; 2]).collect();
        let suite = suite_of(&[("coarse", base, head)]);
        let analysis = analyse(&suite, &options());
        let median = &analysis.benchmarks[0].median_test;
        let p = median.p_value.expect("a p-value");
        assert!((p - 0.0849011669445106).abs() < 1e-12, "{p}");
        assert!(!median.significant);
        assert_ne!(analysis.benchmarks[0].verdict, Verdict::Faster);
    }

    #[test]
    fn one_run_per_side_has_no_interval_and_hpt_says_why_it_counts_the_benchmark() {
        // One run per side: HPT takes the difference as it is (slower), the median protocol cannot decide,
        // and a one-point interval [0.95, 0.95] would look precise. 5 % is under the floor of one process
        // per side (11.6 %), so the verdict stays inconclusive.
        let suite = suite_of(&[("one", vec![100.0], vec![105.0])]);
        let analysis = analyse(&suite, &options());
        let b = &analysis.benchmarks[0];
        assert_eq!(b.verdict, Verdict::Inconclusive);
        assert_eq!(b.hpt.winner, Some(Direction::Slower));
        assert_eq!(b.median_test.speedup_interval, None);
        assert_eq!(b.median_test.shift, None);
        let note = b
            .warnings
            .iter()
            .find(|w| w.kind == WarningKind::ProtocolsDisagree)
            .expect("the HPT column explained");
        assert!(
            crate::report::words::message(note).starts_with(
                "the suite's test (HPT) counts this benchmark as slower while its verdict is inconclusive"
            ),
            "{}",
            crate::report::words::message(note)
        );
        // 3x slower, far beyond the floor: called, with no test, and no note then.
        let far = analyse(&suite_of(&[("far", vec![100.0], vec![300.0])]), &options());
        assert_eq!(far.benchmarks[0].verdict, Verdict::Slower);
        assert!(
            far.benchmarks[0]
                .warnings
                .iter()
                .all(|w| w.kind != WarningKind::ProtocolsDisagree)
        );
        // Where both agree there is no such note.
        let agreeing = analyse(&suite_of(&[("a", runs(100.0), runs(120.0))]), &options());
        assert!(
            agreeing.benchmarks[0]
                .warnings
                .iter()
                .all(|w| w.kind != WarningKind::ProtocolsDisagree)
        );
    }
}
