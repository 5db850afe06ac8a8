//! Every warning in words: what happened (`message`) and what to do about it (`hint`), from its cause
//! ([`Cause`]) and the numbers it carries. The protocols raise causes; only this module words them, as
//! hyperfine words its warnings in its output layer.
//!
//! Two wordings of the Speedup-Test protocols' causes: [`ours`], with BASE, HEAD, runs and a remedy that
//! fits the command ([`Remedy`]: a flag of the revision form only where the runs are measured here), for
//! every report of `compare`, the revision comparison and the others; and [`papers`], paper 000's text
//! verbatim (`Sample1` being BASE and `Sample2` HEAD, "Please do more than 30 observations of the
//! executions times."), so that the `.warning` file of `speeduptest` reads as SpeedUpTest.sh writes it.
//!
//! Must not: change what a warning is about (its kind), decide, or read back another wording's text.

use crate::model::{Basis, Side, Unit};
use crate::protocol::speedup_test::LARGE_FROM;
use crate::protocol::{
    CannotFail, Cause, Differs, Direction, GateReason, HptCause, RaceCause, Remedy, ShapeCause,
    Subject, TestCause, Undecided, Warning,
};
use crate::stats::modes::Mode;

/// A warning in words.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Words {
    /// What happened, in one sentence.
    pub message: String,
    /// What to do about it, when there is a remedy.
    pub hint: Option<String>,
}

impl Words {
    fn new(message: impl Into<String>, hint: impl Into<String>) -> Words {
        Words {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }
}

/// "measure N or more process runs per side", with the flag that does it when the runs are measured here.
pub(crate) fn more_runs(remedy: Remedy, runs: usize) -> String {
    match remedy {
        // `--runs N` alone moves every look (N, 2N, 4N): `--fixed` runs N once, and the hint says it costs.
        Remedy::RunHere => format!(
            "measure {runs} or more process runs per side: `--fixed --runs {runs}` (every benchmark \
             then takes {runs} runs per side: a longer comparison)"
        ),
        Remedy::MeasureAgain => format!("measure {runs} or more process runs per side"),
    }
}

/// `warning` in this tool's words, for a comparison whose runs can be had as `remedy` says.
pub(crate) fn ours(warning: &Warning, remedy: Remedy) -> Words {
    match &warning.cause {
        Cause::Test(cause) => test_in_our_words(cause, remedy),
        Cause::TooFewRuns { base, head } => too_few_runs(*base, *head, remedy),
        Cause::CannotReach {
            base,
            head,
            confidence,
        } => Words::new(
            format!(
                "with {base} and {head} runs the rank-sum test cannot reach confidence {confidence}, \
                 whatever the times: no verdict"
            ),
            format!(
                "{} ({LARGE_FROM} for the large-sample rules)",
                more_runs(remedy, 5)
            ),
        ),
        Cause::SmallSamples { small, total } => Words::new(
            format!(
                "{small} of {total} benchmarks have 30 observations or fewer on a side: the t-test then needs \
                 normal samples and the median test a location-shift model"
            ),
            format!(
                "{} for the large-sample rules",
                more_runs(remedy, LARGE_FROM)
            ),
        ),
        Cause::Undecided(undecided) => undecided_words(undecided),
        Cause::ProtocolsDisagree { mean, median } => Words::new(
            format!(
                "the mean protocol says {} but the median protocol says {}",
                mean.as_str(),
                median.map_or("no significant difference", Direction::as_str)
            ),
            "outliers or a skewed distribution pull the mean; the median verdict is the robust one",
        ),
        Cause::UnitChanged { base, head } => Words::new(
            format!(
                "BASE reports this benchmark in {} and HEAD in {}: both were converted, but a changed unit \
                 often means a changed measurement",
                base.symbol(),
                head.symbol()
            ),
            "check that both sides measure the same thing",
        ),
        Cause::UnequalSizes { base, head } => Words {
            message: format!(
                "BASE has {base} samples and HEAD {head}: the tests allow it, but equal sizes give the most power"
            ),
            hint: None,
        },
        Cause::Exact => Words::new(
            "counts of a deterministic measurement (Valgrind's, through gungraun or iai-callgrind): \
             compared exactly, one value per side, no test; the verdict is the sign of any difference",
            "a count differs only when the executed code did: `--threshold` sets the increase that \
             `--fail-on any` tolerates",
        ),
        Cause::SameSamples => Words::new(
            "BASE and HEAD hold the very same samples for every benchmark: the same results were \
             given twice",
            "for criterion, save two baselines (`cargo bench --bench NAME -- --save-baseline before`, \
             then `after`) and compare them: `cargo speedup compare before after`",
        ),
        Cause::OneProcess {
            count,
            total,
            process_sd_pct,
        } => Words::new(
            format!(
                "{count} of {total} benchmarks come from one process per side (a criterion baseline or \
                 stream): their samples show the noise inside that process, not how much a level moves \
                 from one process to the next, so their confidence covers those two processes only; the \
                 gate fails them only beyond the slowdown that process effects of {process_sd_pct} % \
                 could make"
            ),
            "measure several process runs per side: `cargo speedup BASE..HEAD` does, and so do \
             `record` files and the raw JSON's `runs`",
        ),
        Cause::Unmatched {
            base_only,
            head_only,
        } => Words::new(
            // The reports list the names themselves ("Only in BASE, not compared: ..."; JSON
            // `unmatched`): the warning counts them, so that a long list is not printed twice.
            format!(
                "{} benchmark(s) are present on one side only and are not compared ({base_only} only in \
                 BASE, {head_only} only in HEAD)",
                base_only + head_only
            ),
            "benchmarks are matched by exact name: rename consistently or compare the same set",
        ),
        Cause::EnvironmentDiffers(what) => Words::new(
            format!(
                "BASE and HEAD were measured with a different {}: the difference may come from the machine, \
                 not the change",
                what.iter()
                    .map(|d| match d {
                        Differs::Cpu => "CPU",
                        Differs::Rustc => "rustc version",
                        Differs::Host => "host",
                    })
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            "measure both sides on one machine, e.g. `cargo speedup BASE..HEAD`",
        ),
        Cause::Hpt(cause) => hpt_words(cause),
        Cause::Shape(cause) => shape_words(cause),
        Cause::Race(RaceCause::Alone { name, revision }) => Words {
            message: format!("`{name}` exists in {revision} only: nothing to race"),
            hint: None,
        },
        Cause::Race(RaceCause::Open {
            name,
            runs,
            survivors,
            margin_pct,
        }) => Words::new(
            format!(
                "`{name}`: after {runs} runs, {survivors} revisions are neither shown slower than the best \
                 nor equivalent to it within ±{margin_pct} %"
            ),
            format!(
                "more runs decide more: `--max-runs {}`; or a wider margin: `--equivalence {}`",
                2 * (*runs).max(1),
                2.0 * margin_pct
            ),
        ),
        Cause::UnusableWeights(reason) => Words::new(
            format!("The weights cannot be used ({reason}); equal weights are used."),
            "Give every benchmark a Coef > 0.",
        ),
        Cause::CoefMissing => Words::new(
            "Coef is missing for some benchmarks; equal weights are used.",
            "Give a Coef to every benchmark, or none.",
        ),
        Cause::Note { text, hint } => Words {
            message: text.clone(),
            hint: hint.clone(),
        },
    }
}

/// `warning` in paper 000's words when it is one of the Speedup-Test protocols' ([`Cause::Test`]); any
/// other in this tool's words, measuring again being the remedy (`speeduptest` reads results only).
pub(crate) fn papers(warning: &Warning) -> Words {
    match &warning.cause {
        Cause::Test(cause) => test_in_paper_words(cause),
        _ => ours(warning, Remedy::MeasureAgain),
    }
}

/// For tests of the protocols: what `compare` says of `warning` (measuring again being the remedy).
#[cfg(test)]
pub(crate) fn message(warning: &Warning) -> String {
    ours(warning, Remedy::MeasureAgain).message
}

/// For tests of the protocols: the hint `compare` gives for `warning`.
#[cfg(test)]
pub(crate) fn hint(warning: &Warning) -> Option<String> {
    ours(warning, Remedy::MeasureAgain).hint
}

/// For tests of the protocols: what `speeduptest` says of `warning` (the paper's words).
#[cfg(test)]
pub(crate) fn paper_message(warning: &Warning) -> String {
    papers(warning).message
}

/// A Speedup-Test cause for `compare` and the revision comparison.
fn test_in_our_words(cause: &TestCause, remedy: Remedy) -> Words {
    let large_rules = || {
        format!(
            "{} for the large-sample rules",
            more_runs(remedy, LARGE_FROM)
        )
    };
    match cause {
        TestCause::TTestTooSmall(side) => Words::new(
            format!(
                "{side} has 30 runs or fewer and is not shown normal: the t-test cannot decide the mean"
            ),
            large_rules(),
        ),
        TestCause::RankSumTooSmall(side) => Words::new(
            format!(
                "{side} has 30 runs or fewer and the sides differ by more than a shift: the rank-sum test \
                 cannot decide the median"
            ),
            large_rules(),
        ),
        TestCause::NotNormal(side) => Words::new(
            format!(
                "{side} is not normally distributed: the confidence of the mean's verdict may be inaccurate"
            ),
            "rely on the median's verdict, which does not assume normality",
        ),
        TestCause::NotLocationShift => Words::new(
            "BASE and HEAD differ by more than a shift of their times: the confidence of the median's verdict \
             may be inaccurate",
            "the spread or shape changed, not only the location: look at both distributions",
        ),
        TestCause::NoLevel(of) => Words::new(
            format!(
                "no confidence level above 50% makes the speedup of the {} significant",
                of.name()
            ),
            format!(
                "either nothing changed, or the runs are too few or too noisy: {}",
                more_runs(remedy, LARGE_FROM)
            ),
        ),
        TestCause::Inapplicable {
            test,
            subject,
            reason,
        } => Words::new(
            format!(
                "{test} cannot apply to {}: {}",
                match subject {
                    Subject::Side(side) => side.name(),
                    Subject::Both => "these runs",
                    Subject::MedianCentred => "the median-centred runs",
                },
                reason.trim_end_matches('.')
            ),
            "check that the runs hold independent execution times that vary from run to run",
        ),
    }
}

/// A Speedup-Test cause in paper 000's words, with the paper's second line as the hint for W1 and W3.
fn test_in_paper_words(cause: &TestCause) -> Words {
    const MORE_RUNS: &str = "Please do more than 30 observations of the executions times.";
    match cause {
        TestCause::TTestTooSmall(side) => Words::new(
            format!(
                "{} too small for applying the Student's t-test (speedup of the mean).",
                sample_name(*side)
            ),
            MORE_RUNS,
        ),
        TestCause::NotNormal(side) => Words::new(
            format!(
                "{} data are not normally distributed. The indicated confidence level for the speedup of the average execution time may not be accurate.",
                sample_name(*side)
            ),
            "Rely on the median protocol, which does not assume normality.",
        ),
        TestCause::RankSumTooSmall(side) => Words::new(
            format!(
                "{} too small for applying the Wilcoxon-Mann-Whitney's test (speedup of the median).",
                sample_name(*side)
            ),
            MORE_RUNS,
        ),
        TestCause::NotLocationShift => Words::new(
            "The two samples do not fit the location shift model. The indicated confidence level for the speedup of the median execution time may not be accurate.",
            "The spread or shape changed, not only the location: look at both distributions.",
        ),
        TestCause::NoLevel(of) => Words::new(
            format!(
                "Unable to find a confidence level greater than 50% to guarantee the statistical significance of {} speedup.",
                of.name()
            ),
            "Either there is no speedup, or the samples are too few or too noisy: do more than 30 observations on each side.",
        ),
        TestCause::Inapplicable {
            test,
            subject,
            reason,
        } => Words::new(
            format!(
                "{test} not applicable to {}: {reason}.",
                match subject {
                    Subject::Side(side) => sample_name(*side),
                    Subject::Both => "these samples",
                    Subject::MedianCentred => "the median-centred samples",
                }
            ),
            "Check that the samples hold independent execution times that vary from run to run.",
        ),
    }
}

/// Why a benchmark is undecided, and what would decide it.
fn undecided_words(u: &Undecided) -> Words {
    let (alpha, margin, runs) = (u.alpha, u.margin_pct, u.runs);
    let level = 1.0 - 2.0 * alpha;
    // A level that is not --confidence says where it comes from.
    let why = match u.looks {
        0 | 1 => format!("1 − 2 × {alpha:.3}: the two one-sided tests of equivalence"),
        looks => format!(
            "1 − 2 × {:.2}/{looks}: the two one-sided tests of equivalence, over {looks} looks",
            alpha * f64::from(looks)
        ),
    };
    let interval = match u.interval {
        Some((low, high)) => format!(
            "its {level:.2} interval of the speedup ({why}), [{low:.4}, {high:.4}], reaches beyond"
        ),
        None => "no interval of the speedup can be computed within".to_string(),
    };
    let excluded = u
        .ruled_out_pct
        .map(|wide| format!(", but it rules out changes of {wide}% or more"))
        .unwrap_or_default();
    let message = match u.minimum_detectable_pct {
        Some(mde) => format!(
            "neither a difference nor equivalence within ±{margin}% is shown: {interval} \
             ±{margin}%{excluded}; at this noise the test sees changes of about {mde:.1}% or more \
             with {runs} runs per side"
        ),
        None => format!(
            "neither a difference nor equivalence within ±{margin}% is shown: {interval} \
             ±{margin}%{excluded}"
        ),
    };
    let hint = u.runs_needed.map(|needed| match needed {
        Some(needed) => format!(
            "about {needed} process runs per side would see ±{margin}% (a longer comparison); or accept \
             a wider margin with --equivalence"
        ),
        None => format!(
            "the noise here is too high to see ±{margin}% in a practical number of runs: a quieter \
             machine (nothing else running, a fixed CPU frequency) lowers it; or accept a wider margin \
             with --equivalence"
        ),
    });
    Words { message, hint }
}

/// What HPT noticed about the suite.
fn hpt_words(cause: &HptCause) -> Words {
    let without_hint = |message: String| Words {
        message,
        hint: None,
    };
    match *cause {
        HptCause::IgnoredAlpha(a) => without_hint(format!(
            "HPT ignores the per-benchmark risk {a}: it must lie in (0, 1); the default applies"
        )),
        HptCause::BadGamma(gamma) => without_hint(format!(
            "HPT cannot test the speedup {gamma}: it must be a positive number"
        )),
        HptCause::NoBenchmark => Words::new(
            "HPT has no benchmark present on both sides",
            "compare results that share benchmark names",
        ),
        HptCause::NoDifference => Words::new(
            "HPT: no benchmark differs significantly, so there is no evidence either way",
            "take more samples per benchmark if a small change is expected",
        ),
        HptCause::Balanced => without_hint(
            "HPT: the benchmarks that differ balance out, neither direction is favoured"
                .to_string(),
        ),
        HptCause::BadConfidence(r) => without_hint(format!(
            "HPT has no r-speedup at confidence {r}: it must lie in (0, 1)"
        )),
        HptCause::SearchBounded { max, r, direction } => without_hint(format!(
            "the r-speedup search stopped at {max}x: the speedup at confidence {r} is at least that (HEAD \
             {} than BASE)",
            direction.as_str()
        )),
        HptCause::TooFewBenchmarks {
            n,
            r,
            max_confidence,
            needed,
        } => Words::new(
            format!(
                "HPT cannot reach confidence {r} with {n} benchmark{}: even when all differ in the same \
                 direction the confidence is at most 1 - 1/2^{n} = {max_confidence}",
                if n == 1 { "" } else { "s" },
            ),
            format!("HPT needs at least {needed} benchmarks for confidence {r}"),
        ),
        HptCause::Unreached(r) => Words::new(
            format!("HPT does not reach confidence {r} in either direction: no r-speedup"),
            "more benchmarks or more samples per benchmark may show a difference",
        ),
        HptCause::Disagrees { hpt, verdict } => Words::new(
            format!(
                "HPT counts this benchmark as {} while its verdict is {}: HPT's own rank-sum test runs at \
                 its per-benchmark risk (`--hpt-alpha`; 0.10 below 5 runs per side) without the median \
                 protocol's checks, and takes a single run per side as it is",
                hpt.map_or("a tie", Direction::as_str),
                verdict.as_str()
            ),
            "the benchmark's verdict is the median protocol's; the HPT column only says how the benchmark \
             enters the suite's test",
        ),
        HptCause::Unusable(count) => without_hint(format!(
            "HPT counts {count} benchmark(s) as ties: a side is empty, not finite, or (ranking log \
             speedups) not positive"
        )),
        HptCause::AsIs(count) => Words::new(
            format!(
                "HPT uses the difference of medians as it is for {count} benchmark(s): with so few runs \
                 (e.g. one per side) the rank-sum test cannot be significant"
            ),
            "measure at least 3 process runs per side (5 for the 0.05 risk)",
        ),
        HptCause::UnequalSizes(count) => without_hint(format!(
            "HPT: {count} benchmark(s) have different sample counts for BASE and HEAD; the rank-sum test \
             allows it, and the default risk follows the smaller side"
        )),
    }
}

/// What the shape of a benchmark's sides calls for.
fn shape_words(cause: &ShapeCause) -> Words {
    match cause {
        ShapeCause::Modes {
            name,
            side,
            basis,
            modes,
            unit,
        } => {
            let list = mode_list(modes, *unit);
            let count = count(modes.len());
            match basis {
                Basis::ProcessRuns | Basis::Deterministic => Words::new(
                    format!(
                        "{side} of `{name}` has {count}: {list}; the mean protocol is misleading here, trust \
                         the median protocol"
                    ),
                    "the runs settle in different states: code layouts (each run links its own, \
                     `--layouts`), CPU frequency, memory placement; the median's verdict covers them all",
                ),
                Basis::OneProcess => Words::new(
                    format!(
                        "{side} of `{name}` has {count} among the samples inside its one process: {list}; the \
                         mean protocol is misleading here, trust the median protocol"
                    ),
                    "modes inside one process say nothing of the next: measure several process runs",
                ),
            }
        }
        ShapeCause::ModesChanged { name, base, head } => Words::new(
            format!(
                "BASE of `{name}` has {} and HEAD {}: the change altered the shape of the distribution, not \
                 only its level",
                count(*base),
                count(*head)
            ),
            "one speedup figure summarises one level only: look at the modes of both sides",
        ),
        ShapeCause::TooFewDistinctValues { name, side, values } => Words::new(
            format!(
                "{side} of `{name}`: too few distinct values to model the shape (its {values} values are all \
                 equal)"
            ),
            "a coarse timer rounds the times: run more iterations per sample",
        ),
    }
}

/// "1 mode", "2 modes".
fn count(modes: usize) -> String {
    if modes == 1 {
        "1 mode".to_string()
    } else {
        format!("{modes} modes")
    }
}

/// "1.02 ms (70 %) and 1.31 ms (30 %)": 3 significant digits, more until the locations differ in print.
fn mode_list(modes: &[Mode], unit: Unit) -> String {
    let texts = (3..=8)
        .map(|digits| {
            modes
                .iter()
                .map(|m| significant(m.location / unit.nanos(), digits))
                .collect::<Vec<_>>()
        })
        .find(|t| t.windows(2).all(|w| w[0] != w[1]))
        .unwrap_or_else(|| {
            modes
                .iter()
                .map(|m| format!("{}", m.location / unit.nanos()))
                .collect()
        });
    let items: Vec<String> = texts
        .iter()
        .zip(modes)
        .map(|(t, m)| format!("{t} {} ({:.0} %)", unit.symbol(), 100.0 * m.weight))
        .collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

/// `value` with `digits` significant digits in fixed notation.
fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 12) as usize;
    format!("{value:.decimals$}")
}

/// One reason the gate failed, in one line.
pub(crate) fn gate_reason(reason: &GateReason) -> String {
    match reason {
        GateReason::SuiteSlower {
            threshold,
            confidence,
            level,
            factor,
        } => {
            if *threshold > 0.0 {
                format!(
                    "the suite is more than {threshold}% slower with confidence {confidence} (HEAD is \
                     {factor:.2}x slower)"
                )
            } else {
                format!("HEAD is slower than BASE with confidence {level:.3} (HPT)")
            }
        }
        GateReason::BenchmarkSlower {
            name,
            held_to,
            p,
            adjusted,
        } => {
            let what = if *held_to > 0.0 {
                format!("more than {held_to:.3}% slower")
            } else {
                "slower".to_string()
            };
            format!("{name} is {what} (p = {p:.3e}, Holm-adjusted {adjusted:.3e})")
        }
        GateReason::CountExceeded {
            name,
            increase,
            threshold,
        } => {
            let limit = if *threshold > 0.0 {
                format!(", more than the threshold {threshold}%")
            } else {
                String::new()
            };
            format!("{name} counts {increase:.3}% more (exact{limit})")
        }
        #[cfg(test)]
        GateReason::Text(text) => text.clone(),
    }
}

/// Why the gate cannot fail whatever the times, with what would let it.
pub(crate) fn cannot_fail(why: &CannotFail) -> String {
    match *why {
        CannotFail::OnlyCounts => {
            "the suite gate tests with HPT, which ranks no count of a deterministic \
                                   measurement; `--fail-on any` gates each count exactly"
                .to_string()
        }
        CannotFail::TooFewBenchmarks {
            count,
            best,
            confidence,
            needed,
        } => format!(
            "the suite gate cannot fail with {count} benchmark{}: HPT reaches at most confidence {best} \
             (1 - 1/2^{count}) whatever the times, short of {confidence}; it needs at least {needed} \
             benchmarks, or `--fail-on any` gates each benchmark",
            if count == 1 { "" } else { "s" }
        ),
    }
}

/// `Sample1` (BASE) or `Sample2` (HEAD), as the paper names them.
fn sample_name(side: Side) -> &'static str {
    match side {
        Side::Base => "Sample1",
        Side::Head => "Sample2",
    }
}

/// The one warning of a benchmark with too few runs for any test to decide.
fn too_few_runs(base: usize, head: usize, remedy: Remedy) -> Words {
    let runs = |n: usize| {
        if n == 1 {
            "1 run".to_string()
        } else {
            format!("{n} runs")
        }
    };
    let sizes = if base == head {
        format!("{} per side", runs(base))
    } else {
        format!("{} on BASE and {} on HEAD", runs(base), runs(head))
    };
    Words::new(
        format!("{sizes}: no test can apply"),
        format!(
            "{} ({LARGE_FROM} for the large-sample rules)",
            more_runs(remedy, 5)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{SpeedupOf, WarningKind};

    fn inapplicable(
        test: &'static str,
        subject: Subject,
        error: &crate::stats::StatsError,
    ) -> TestCause {
        TestCause::Inapplicable {
            test,
            subject,
            reason: error.to_string(),
        }
    }

    /// Every cause the Speedup-Test protocols raise.
    fn test_warnings() -> Vec<Warning> {
        let error = crate::stats::StatsError::TooFew { needed: 3, got: 1 };
        [
            TestCause::TTestTooSmall(Side::Base),
            TestCause::TTestTooSmall(Side::Head),
            TestCause::NotNormal(Side::Base),
            TestCause::RankSumTooSmall(Side::Head),
            TestCause::NotLocationShift,
            TestCause::NoLevel(SpeedupOf::Mean),
            TestCause::NoLevel(SpeedupOf::Median),
            inapplicable("Shapiro-Wilk's test", Subject::Side(Side::Base), &error),
            inapplicable("Welch's t-test", Subject::Both, &error),
            inapplicable("Kolmogorov-Smirnov's test", Subject::MedianCentred, &error),
        ]
        .into_iter()
        .map(Warning::test)
        .collect()
    }

    #[test]
    fn no_paper_wording_is_left_and_compare_names_no_running_flag() {
        for warning in test_warnings() {
            for remedy in [Remedy::RunHere, Remedy::MeasureAgain] {
                let ours = ours(&warning, remedy);
                let text = format!("{} {}", ours.message, ours.hint.clone().unwrap_or_default());
                for paper_word in ["Sample1", "Sample2", "Please", "executions times", "Unable"] {
                    assert!(!text.contains(paper_word), "{text}");
                }
                assert!(!ours.message.ends_with('.'), "{text}");
                if remedy == Remedy::MeasureAgain {
                    assert!(!text.contains("--"), "{text}");
                }
            }
        }
    }

    #[test]
    fn each_wording_names_the_side_and_the_test_of_the_cause() {
        let ours = |cause: TestCause| ours(&Warning::test(cause), Remedy::MeasureAgain);
        let head_small = ours(TestCause::TTestTooSmall(Side::Head));
        assert!(
            head_small.message.starts_with("HEAD has 30 runs"),
            "{}",
            head_small.message
        );
        assert!(head_small.message.contains("t-test"));
        let base_small = ours(TestCause::RankSumTooSmall(Side::Base));
        assert!(base_small.message.starts_with("BASE has 30 runs"));
        assert!(base_small.message.contains("rank-sum test"));
        assert!(
            ours(TestCause::NoLevel(SpeedupOf::Median))
                .message
                .contains("of the median")
        );
        let error = crate::stats::StatsError::Constant;
        let shapiro = ours(inapplicable(
            "Shapiro-Wilk's test",
            Subject::Side(Side::Head),
            &error,
        ));
        assert!(
            shapiro
                .message
                .starts_with("Shapiro-Wilk's test cannot apply to HEAD: ")
        );
        // The paper's words name the sides Sample1 and Sample2.
        let paper = papers(&Warning::test(TestCause::NotNormal(Side::Head)));
        assert!(
            paper
                .message
                .starts_with("Sample2 data are not normally distributed.")
        );
    }

    #[test]
    fn the_paper_words_w1_and_w6_verbatim() {
        let w1 = papers(&Warning::test(TestCause::TTestTooSmall(Side::Base)));
        assert_eq!(
            w1.message,
            "Sample1 too small for applying the Student's t-test (speedup of the mean)."
        );
        assert_eq!(
            w1.hint.as_deref(),
            Some("Please do more than 30 observations of the executions times.")
        );
        let w6 = papers(&Warning::test(TestCause::NoLevel(SpeedupOf::Median)));
        assert_eq!(
            w6.message,
            "Unable to find a confidence level greater than 50% to guarantee the statistical \
             significance of median speedup."
        );
    }

    #[test]
    fn one_run_per_side_is_one_warning_with_a_remedy_for_the_command() {
        let tiny =
            |base, head| Warning::of(WarningKind::TooFewSamples, Cause::TooFewRuns { base, head });
        let compare = ours(&tiny(1, 1), Remedy::MeasureAgain);
        assert_eq!(compare.message, "1 run per side: no test can apply");
        assert_eq!(
            compare.hint.as_deref(),
            Some("measure 5 or more process runs per side (31 for the large-sample rules)")
        );
        let here = ours(&tiny(1, 2), Remedy::RunHere);
        assert_eq!(
            here.message,
            "1 run on BASE and 2 runs on HEAD: no test can apply"
        );
        // The flag that measures more, and that it costs: `--runs` alone would move every look.
        let hint = here.hint.unwrap();
        assert!(hint.contains("`--fixed --runs 5`"), "{hint}");
        assert!(hint.contains("a longer comparison"), "{hint}");
    }

    #[test]
    fn mode_lists_print_enough_digits_to_differ() {
        let modes = [
            Mode {
                location: 1.0201e6,
                weight: 0.5,
            },
            Mode {
                location: 1.0204e6,
                weight: 0.25,
            },
            Mode {
                location: 2.0e6,
                weight: 0.25,
            },
        ];
        assert_eq!(
            mode_list(&modes, Unit::Ms),
            "1.0201 ms (50 %), 1.0204 ms (25 %) and 2.0000 ms (25 %)"
        );
    }
}
