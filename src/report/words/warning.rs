//! A warning in words ([`Words`]): the one match over [`Cause`] that gives each cause its wording in this
//! tool's words ([`ours`]) or in paper 000's ([`papers`]), handing each family of causes to its file. Must
//! not: change what a warning is about (its kind) or decide anything.

use super::shape::shape_words;
use super::suite::hpt_words;
use super::test_causes::{test_in_our_words, test_in_paper_words, too_few_runs};
use super::undecided::undecided_words;
use crate::protocol::speedup_test::LARGE_FROM;
use crate::protocol::{Cause, Differs, Direction, RaceCause, Remedy, Warning};

/// A warning in words.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Words {
    /// What happened, in one sentence.
    pub message: String,
    /// What to do about it, when there is a remedy.
    pub hint: Option<String>,
}

impl Words {
    pub(super) fn new(message: impl Into<String>, hint: impl Into<String>) -> Words {
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
            format!(
                "counts of a deterministic measurement ({}): compared exactly, one value per side, no \
                 test; the verdict is the sign of any difference",
                counts_source(remedy)
            ),
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
            floor_pct,
        } => Words::new(
            format!(
                "{count} of {total} benchmarks come from one process per side (a criterion baseline, a \
                 stream, a printed result): they cannot show how far a level moves from one process to \
                 the next, so their verdicts hold within one process per side: faster or slower only \
                 beyond {floor_pct:.1} %, the change that process effects of {process_sd_pct} % could \
                 make, never unchanged, and the gate fails them only beyond that"
            ),
            "measure several process runs per side: `cargo speedup BASE..HEAD` does, and so do \
             `record` files and the raw JSON's `runs`",
        ),
        Cause::PairedByBlock { pairs, dropped } => Words::new(
            format!(
                "paired by block: {pairs} pairs{}",
                left_out_of_pairs(*dropped)
            ),
            "the verdict, its interval and the gate are the signed-rank test of the log ratios of each \
             block's two runs (`--paired`); the Speedup-Test's protocols compare the runs as independent \
             sides",
        ),
        Cause::NotPaired {
            count,
            total,
            reason,
        } => Words::new(
            format!(
                "--paired: {count} of {total} benchmarks could not be paired by block ({}): the \
                 independent design decided them",
                unpairable(*reason)
            ),
            "runs pair by block only when this tool ran both sides in one session: `cargo speedup \
             BASE..HEAD --paired`, or `merge --paired` of such comparisons' JSON reports",
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

/// Where exact counts came from, by how the comparison had its runs: counts this command measured are
/// `--measure instructions`'s (`docs/instruction-counts.md` §5); counts read from files are those
/// gungraun or iai-callgrind wrote (`docs/formats.md` §14).
fn counts_source(remedy: Remedy) -> &'static str {
    match remedy {
        Remedy::RunHere => "measured under Valgrind's callgrind by this tool",
        Remedy::MeasureAgain => "Valgrind's, through gungraun or iai-callgrind",
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

/// What `--paired` left out of a benchmark's pairs, as the end of its basis line: "" when nothing,
/// else "; 1 run of HEAD without its block's other run left out".
fn left_out_of_pairs(dropped: crate::model::BaseHead<usize>) -> String {
    let side = |n: usize, name: &str| match n {
        0 => None,
        1 => Some(format!("1 run of {name}")),
        n => Some(format!("{n} runs of {name}")),
    };
    let sides: Vec<String> = [side(dropped.base, "BASE"), side(dropped.head, "HEAD")]
        .into_iter()
        .flatten()
        .collect();
    if sides.is_empty() {
        String::new()
    } else {
        format!(
            "; {} without its block's other run left out",
            sides.join(" and ")
        )
    }
}

/// Why a benchmark's runs could not be paired by block, in words.
pub(crate) fn unpairable(reason: crate::model::Unpairable) -> &'static str {
    match reason {
        crate::model::Unpairable::NoBlocks => {
            "their runs do not say which block they ran in: criterion's own files, BMF, one process \
             per side and older records carry no blocks"
        }
        crate::model::Unpairable::OtherSessions => {
            "BASE and HEAD ran in different sessions, so no block ran both"
        }
        crate::model::Unpairable::NoPartners => "no block ran both sides",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Side;
    use crate::protocol::{SpeedupOf, Subject, TestCause, WarningKind};

    #[test]
    fn exact_counts_are_said_to_come_from_where_they_came_from() {
        let warning = Warning::of(WarningKind::Exact, Cause::Exact);
        // Measured by this command (`--measure instructions`).
        assert_eq!(
            ours(&warning, Remedy::RunHere).message,
            "counts of a deterministic measurement (measured under Valgrind's callgrind by this tool): \
             compared exactly, one value per side, no test; the verdict is the sign of any difference"
        );
        // Read from files that gungraun or iai-callgrind wrote.
        assert!(ours(&warning, Remedy::MeasureAgain).message.starts_with(
            "counts of a deterministic measurement (Valgrind's, through gungraun or iai-callgrind)"
        ));
    }

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
}
