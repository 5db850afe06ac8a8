//! The warnings about one benchmark of a comparison, each check a function of its own: why it is left
//! undecided, sizes too small for the rank-sum test to ever decide, the two protocols disagreeing, a unit
//! that changed between the sides, unequal sizes. [`benchmark_warnings`] lists them in the reports' order;
//! the protocols' own warnings stay with their tests.

use super::equivalence::{Equivalence, FUTILITY_FACTOR, runs_for};
use super::options::PerLook;
use super::{Cause, MeanTest, MedianTest, Undecided, Verdict, Warning, WarningKind};
use crate::model::{BaseHead, Pair};

/// The warnings of one benchmark, in the reports' order: `sizes` are its runs per side; `decision` its
/// verdict, whether its sizes can reach the confidence at all, and its equivalence check.
pub(super) fn benchmark_warnings(
    pair: &Pair,
    sizes: BaseHead<usize>,
    mean_test: &MeanTest,
    median_test: &MedianTest,
    (verdict, powerless, equivalence): (Verdict, bool, &Equivalence),
    options: &PerLook,
) -> Vec<Warning> {
    let fewest = sizes.base.min(sizes.head);
    let undecided = (verdict == Verdict::Inconclusive && !median_test.inconclusive && !powerless)
        .then(|| undecided(equivalence, options, fewest));
    let powerless = (powerless && fewest >= 3).then(|| cannot_reach(sizes, options));
    [
        undecided,
        powerless,
        disagreement(mean_test, median_test),
        unit_changed(pair),
        unequal_sizes(sizes),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Why a benchmark that differs in no direction is not called unchanged, and what would decide it.
/// `options` are the per-look options: their confidence is 1 − alpha / looks.
fn undecided(e: &Equivalence, options: &PerLook, runs: usize) -> Warning {
    let margin = e.margin_pct;
    let wide = FUTILITY_FACTOR * margin;
    let runs_needed = e.minimum_detectable_pct.filter(|m| *m > 0.0).map(|mde| {
        let needed = runs_for(mde, runs, margin).max(runs + 1);
        (needed <= PRACTICAL_RUNS).then_some(needed)
    });
    // A detail: the headline already says what an undecided benchmark rules out.
    Warning::of(
        WarningKind::Undecided,
        Cause::Undecided(Undecided {
            margin_pct: margin,
            alpha: options.confidence.alpha(),
            looks: options.looks,
            interval: e.interval,
            // The futility rule's reason, when it holds: a race stops such a benchmark at this look.
            ruled_out_pct: e.rules_out(wide).then_some(wide),
            minimum_detectable_pct: e.minimum_detectable_pct,
            runs,
            runs_needed,
        }),
    )
    .as_detail()
}

/// The most process runs per side a hint proposes: four times the default plan's cap of 24. Beyond, more
/// runs are not a remedy a person takes, and the hint says what lowers the noise instead.
pub const PRACTICAL_RUNS: usize = 96;

/// Sizes of 3 or more per side with which the rank-sum test cannot reach the confidence whatever the
/// times (smaller sizes get one warning for every test instead, [`Cause::TooFewRuns`]).
fn cannot_reach(sizes: BaseHead<usize>, options: &PerLook) -> Warning {
    Warning::of(
        WarningKind::TooFewSamples,
        Cause::CannotReach {
            base: sizes.base,
            head: sizes.head,
            confidence: options.confidence.level(),
        },
    )
}

/// The mean protocol finds a direction the median protocol does not share.
fn disagreement(mean_test: &MeanTest, median_test: &MedianTest) -> Option<Warning> {
    let mean = mean_test.direction.filter(|_| mean_test.significant);
    let median = median_test.direction.filter(|_| median_test.significant);
    if mean == median {
        return None;
    }
    let mean = mean?;
    Some(Warning::of(
        WarningKind::ProtocolsDisagree,
        Cause::ProtocolsDisagree { mean, median },
    ))
}

/// BASE and HEAD report the benchmark in different units.
fn unit_changed(pair: &Pair) -> Option<Warning> {
    (pair.base.unit != pair.head.unit).then(|| {
        Warning::of(
            WarningKind::Input,
            Cause::UnitChanged {
                base: pair.base.unit,
                head: pair.head.unit,
            },
        )
    })
}

/// BASE and HEAD have different numbers of runs.
fn unequal_sizes(sizes: BaseHead<usize>) -> Option<Warning> {
    (sizes.base != sizes.head).then(|| {
        Warning::of(
            WarningKind::UnequalSizes,
            Cause::UnequalSizes {
                base: sizes.base,
                head: sizes.head,
            },
        )
        .as_detail()
    })
}
